/* fuse.c — the CUDA fusion pass: chains of pointwise operators on cuda tensors become
 * prim::FusionGroup nodes, each one CUDA kernel.
 *
 * It runs on the executor's optimized copy of a graph (an optimizer pass), where the
 * tensors' dtypes and devices are known from the call's arguments. A node may join a group
 * when it is fusible (group.c) for float32, float64 or float16 tensors on a cuda device.
 *
 * Unlike fuser-cpu, it does not wait for such nodes to follow each other: walking each
 * block from its end, a fusible node starts a group, and the group pulls in the fusible
 * producers of its inputs by moving each just before the group, or the group just after it
 * — when the AliasDb says the move keeps the program's meaning (no use of a moved result,
 * no write to what a moved node reads, in between) — then a chunk of one of its inputs unpacked into pieces only the
 * group uses (group.h). So a chain interleaved with unrelated nodes still fuses, and every
 * group's nodes end up following each other. Moving changes no aliasing, so one AliasDb
 * serves the whole walk; the groups are made afterwards, each only when its kernel compiles
 * (codegen.c, cache.c): a group that fails to compile stays unfused.
 */
#include <stdlib.h>
#include <string.h>

#include "fuser.h"

static const FuTensors cuda_tensors = {
    TS_DEV_CUDA, 1u << TS_FLOAT32 | 1u << TS_FLOAT64 | 1u << TS_FLOAT16
};

/* The groups found, to be made once the walk is over. */
typedef struct Plan {
    FuGroup *groups;
    size_t n, cap;
} Plan;
/* Is n in a group already found? */
static bool planned(const Plan *plan, const TsNode *n)
{
    for (size_t i = 0; i < plan->n; i++)
        if (fu_group_has(&plan->groups[i], n))
            return true;
    return false;
}

/* Moves the group to just after p, all of it or nothing. */
static bool move_group_after(const TsAliasDb *db, FuGroup *r, TsNode *p)
{
    TsNode *at = p;
    for (size_t i = 0; i < r->n; i++) {
        if (!ts_alias_move_after_topologically_valid(db, r->nodes[i], at)) {
            /* back where they were: each passes again what it just passed */
            for (size_t j = i; j-- > 0;)
                ts_alias_move_before_topologically_valid(db, r->nodes[j], r->nodes[j + 1]);
            return false;
        }
        at = r->nodes[i];
    }
    return true;
}

/* Brings the fusible producers of the group's inputs next to it, while that is valid: the
 * producer moves down to the group, or else the group moves up to the producer (past a node
 * that uses the producer's result but not the group's). */
static void pull_producers(const TsAliasDb *db, const Plan *plan, FuGroup *r)
{
    bool moved = true;
    while (moved && r->n < FU_MAX_GROUP) {
        moved = false;
        for (size_t i = 0; i < r->n && !moved; i++)
            for (size_t k = 0; k < ts_node_num_inputs(r->nodes[i]) && !moved; k++) {
                TsNode *p = ts_irvalue_node(ts_node_input(r->nodes[i], k));
                if (fu_group_has(r, p) || !fu_fusible(p, &cuda_tensors) || planned(plan, p) ||
                    (!ts_alias_move_before_topologically_valid(db, p, r->nodes[0]) &&
                     !move_group_after(db, r, p)))
                    continue;
                memmove(r->nodes + 1, r->nodes, r->n * sizeof *r->nodes);
                r->nodes[0] = p;
                r->n++;
                moved = true;
            }
    }
}

/* Folds x.chunk(N, dim) unpacked into pieces that only the group uses: the unpack and the
 * chunk move just before the group. */
static void pull_chunk(const TsAliasDb *db, FuGroup *r)
{
    for (size_t i = 0; i < r->n; i++)
        for (size_t k = 0; k < ts_node_num_inputs(r->nodes[i]); k++) {
            TsNode *u = ts_irvalue_node(ts_node_input(r->nodes[i], k));
            if (strcmp(ts_node_kind(u), "prim::ListUnpack") != 0 || ts_node_num_inputs(u) != 1)
                continue;
            TsNode *c = ts_irvalue_node(ts_node_input(u, 0));
            if (!fu_chunk_fusible(c, u, &cuda_tensors))
                continue;
            r->chunk = c;
            r->unpack = u;
            if (fu_group_pieces_inside(r) &&
                ts_alias_move_before_topologically_valid(db, u, r->nodes[0]) &&
                ts_alias_move_before_topologically_valid(db, c, u))
                return;
            r->chunk = r->unpack = NULL;
        }
}

/* Is every use of n's result a node in pre[0..n_pre) or the chunk? */
static bool used_before_chunk(const FuGroup *r, const TsNode *n)
{
    const TsIrValue *out = ts_node_output(n, 0);
    for (size_t u = 0; u < ts_irvalue_num_uses(out); u++) {
        const TsNode *user = ts_irvalue_use(out, u, NULL);
        bool in = user == r->chunk;
        for (size_t i = 0; i < r->n_pre && !in; i++)
            in = r->pre[i] == user;
        if (!in)
            return false;
    }
    return true;
}

/* With a folded chunk: takes into the group the fusible nodes that compute the chunk's
 * input and nothing else (pre nodes: the chunk then moves to the tensors they read), with
 * the products (aten::mm) among them, whose operands stay outside (the kernel computes a
 * small product's elements itself, launch.c; a big one runs aten::mm first), moved
 * just before the chunk, the last first. All or none: where a move is not valid, the group
 * keeps the chunk of its input as it was (what moved stays moved: each move kept the
 * program's meaning). */
static void pull_pre(const TsAliasDb *db, const Plan *plan, FuGroup *r)
{
    if (!r->chunk)
        return;
    TsNode *x = ts_irvalue_node(ts_node_input(r->chunk, 0));
    if (!(fu_fusible(x, &cuda_tensors) || fu_mm_fusible(x, &cuda_tensors)) || planned(plan, x) ||
        ts_node_owning_block(x) != ts_node_owning_block(r->chunk) ||
        ts_irvalue_num_uses(ts_node_output(x, 0)) != 1)
        return;
    r->pre[0] = x;
    r->n_pre = 1;
    size_t n_mm = fu_is_mm(x);
    bool grew = true;
    while (grew && r->n_pre < FU_MAX_PRE) {
        grew = false;
        for (size_t i = 0; i < r->n_pre && !grew; i++)
            for (size_t k = 0; k < ts_node_num_inputs(r->pre[i]) && !grew; k++) {
                /* a product's operands stay outside: the kernel reads them whole */
                if (fu_is_mm(r->pre[i]))
                    break;
                TsNode *p = ts_irvalue_node(ts_node_input(r->pre[i], k));
                bool mm = fu_mm_fusible(p, &cuda_tensors) && n_mm < FC_MAX_MM;
                if (fu_group_has(r, p) || !(mm || fu_fusible(p, &cuda_tensors)) ||
                    planned(plan, p) ||
                    ts_node_owning_block(p) != ts_node_owning_block(r->chunk) ||
                    !used_before_chunk(r, p))
                    continue;
                r->pre[r->n_pre++] = p;
                n_mm += mm;
                grew = true;
            }
    }
    /* block order: each node's producers first */
    for (size_t i = 1; i < r->n_pre; i++)
        for (size_t j = i; j > 0 && ts_node_is_before(r->pre[j], r->pre[j - 1]); j--) {
            TsNode *t = r->pre[j];
            r->pre[j] = r->pre[j - 1];
            r->pre[j - 1] = t;
        }
    TsNode *at = r->chunk;
    for (size_t i = r->n_pre; i-- > 0;) {
        if (!ts_alias_move_before_topologically_valid(db, r->pre[i], at)) {
            r->n_pre = 0;
            return;
        }
        at = r->pre[i];
    }
}

static FuGroup *plan_next(Plan *plan)
{
    if (plan->n == plan->cap) {
        size_t cap = plan->cap ? 2 * plan->cap : 4;
        FuGroup *g = realloc(plan->groups, cap * sizeof *g);
        if (!g)
            return NULL;
        plan->groups = g;
        plan->cap = cap;
    }
    return &plan->groups[plan->n];
}

/* Finds the groups of block b (and of the blocks in it), from its end. */
static int find_groups(const TsAliasDb *db, TsBlock *b, Plan *plan, TsError *err)
{
    for (TsNode *n = ts_block_last_node(b), *prev; n; n = prev) {
        prev = ts_node_prev(n);
        for (size_t i = 0; i < ts_node_num_blocks(n); i++)
            if (find_groups(db, ts_node_block(n, i), plan, err))
                return -1;
        if (!fu_fusible(n, &cuda_tensors) || planned(plan, n))
            continue;
        FuGroup *r = plan_next(plan);
        if (!r)
            return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        r->chunk = r->unpack = NULL;
        r->n_pre = 0;
        r->nodes[0] = n;
        r->n = 1;
        pull_producers(db, plan, r);
        pull_chunk(db, r);
        pull_pre(db, plan, r);
        /* the walk goes on before n's old place, unless what was there joined the group
         * (the nodes a group moved up past come after it now, and are still to visit) */
        if (prev && fu_group_has(r, prev))
            prev = ts_node_prev(r->n_pre ? r->pre[0] : r->chunk ? r->chunk : r->nodes[0]);
        if (r->n >= 2 || r->chunk)
            plan->n++;
    }
    return 0;
}

/* Makes the group, when its kernel compiles (without its pre nodes, when only that does). */
static int make_group(TsGraph *g, FuGroup *r, TsError *err)
{
    TsGraph *sub = fu_group_subgraph(r, err);
    if (!sub)
        return -1;
    TsError why = TS_ERROR_INIT;
    FcKernel *k = fc_codegen(sub, &why);
    const char *ptx = k ? fc_program_ptx(k->source, &why) : NULL;
    fc_kernel_free(k);
    ts_error_clear(&why);
    if (!ptx) {
        ts_graph_free(sub);
        if (r->n_pre) {
            r->n_pre = 0;
            return make_group(g, r, err);
        }
        return 0;
    }
    return fu_group_replace(g, r, sub, err);
}

int fc_pass(TsGraph *g, void *ctx, TsError *err)
{
    (void)ctx;
    TsAliasDb *db = ts_alias_db_new(g, err);
    if (!db)
        return err->code;
    Plan plan = { NULL, 0, 0 };
    int rc = find_groups(db, ts_graph_block(g), &plan, err);
    ts_alias_db_free(db);
    for (size_t i = 0; !rc && i < plan.n; i++)
        rc = make_group(g, &plan.groups[i], err);
    free(plan.groups);
    return rc;
}
