/* dead_code.c — dead-code elimination: removes what cannot change the program's result.
 *
 * An inverse mark and sweep, as PyTorch's EliminateDeadCode with an AliasDb: walking each
 * block from its end, a node is live when it has side effects (ir/alias.h), when a live node
 * uses one of its outputs, or when it writes memory that a live value may refer to or that
 * outlives the graph (graph inputs and outputs, wildcards). So `y = x + 1; y.add_(1)` with y
 * unused goes entirely, while `x.view(-1).add_(1)` on an input x stays. A loop body is marked
 * until nothing changes, since a value written at the end of one iteration is read at the
 * start of the next. Then every node not marked is removed, and so are the outputs of a
 * prim::If and the loop-carried values of a prim::Loop that nothing live needs.
 */
#include <stdlib.h>

#include "ir/alias.h"
#include "ir/log.h"
#include "ir/passes/passes.h"
#include "ptrmap.h"

typedef struct Dce {
    const TsAliasDb *db;
    TsPtrMap live;             /* TsIrValue * -> 1 */
    TsPtrMap marked;           /* TsNode * -> 1 */
    const TsIrValue **live_list;   /* the live values, for alias queries */
    size_t n_live, cap_live;
    bool changed;              /* a mark was added in the current round */
    bool failed;               /* out of memory */
} Dce;

static bool is_live(const Dce *d, const TsIrValue *v)
{
    return ts_ptrmap_get(&d->live, v, NULL);
}

static bool is_marked(const Dce *d, const TsNode *n)
{
    return ts_ptrmap_get(&d->marked, n, NULL);
}

static void make_live(Dce *d, const TsIrValue *v)
{
    int rc = ts_ptrmap_put(&d->live, v, 1);
    if (rc != 0) {
        d->failed |= rc < 0;
        return;
    }
    if (d->n_live == d->cap_live) {
        size_t cap = d->cap_live ? d->cap_live * 2 : 32;
        const TsIrValue **p = realloc(d->live_list, cap * sizeof *p);
        if (!p) {
            d->failed = true;
            return;
        }
        d->live_list = p;
        d->cap_live = cap;
    }
    d->live_list[d->n_live++] = v;
    d->changed = true;
}

/* Marks n, the values it uses, and the nodes whose blocks hold it. */
static void mark(Dce *d, const TsNode *n)
{
    for (; n && n->owning_block; n = n->owning_block->owning_node) {
        int rc = ts_ptrmap_put(&d->marked, n, 1);
        if (rc != 0) {
            d->failed |= rc < 0;
            return;
        }
        d->changed = true;
        for (size_t i = 0; i < n->n_inputs; i++)
            make_live(d, n->inputs[i]);
    }
}

static bool any_output_live(const Dce *d, const TsNode *n)
{
    for (size_t i = 0; i < n->n_outputs; i++)
        if (is_live(d, n->outputs[i]))
            return true;
    return false;
}

static bool writes_live(const Dce *d, const TsNode *n)
{
    return ts_alias_writes_to_escaping(d->db, n) ||
           ts_alias_writes_to_alias(d->db, n, d->live_list, d->n_live);
}

/* Is the loop's carried value i unneeded: its output not live and its body input unused
 * (PyTorch's rule: a body input that something reads keeps the value)? */
static bool carried_dead(const Dce *d, const TsNode *loop, size_t i)
{
    const TsNode *param = loop->blocks[0]->param;
    return i < loop->n_outputs && !is_live(d, loop->outputs[i]) &&
           i + 1 < param->n_outputs && param->outputs[i + 1]->n_uses == 0;
}

/* The block outputs that are needed: all of the graph's; of an If's block, those whose If
 * output is live; of a loop body, the condition and each carried value whose loop output or
 * body input is live. */
static void mark_return(Dce *d, const TsBlock *b)
{
    const TsNode *owner = b->owning_node, *ret = b->ret;
    for (size_t i = 0; i < ret->n_inputs; i++) {
        bool need;
        if (!owner)
            need = true;
        else if (owner->kind == ts_symbol("prim::Loop"))
            need = i == 0 || !carried_dead(d, owner, i - 1);
        else if (owner->kind == ts_symbol("prim::If"))
            need = i < owner->n_outputs && is_live(d, owner->outputs[i]);
        else
            need = true;
        if (need)
            make_live(d, ret->inputs[i]);
    }
}

static void mark_block(Dce *d, const TsBlock *b);

static void mark_node(Dce *d, const TsNode *n)
{
    if (n->kind == ts_symbol("prim::Loop") && n->n_blocks == 1) {
        /* until a round over the body marks nothing new (an enclosing loop's round still
         * learns that this one marked something) */
        bool outer = d->changed, any, ever = false;
        do {
            d->changed = false;
            mark_block(d, n->blocks[0]);
            any = d->changed;
            ever |= any;
        } while (any && !d->failed);
        d->changed = outer || ever;
    } else {
        for (size_t i = 0; i < n->n_blocks; i++)
            mark_block(d, n->blocks[i]);
    }
    if (!is_marked(d, n) && (any_output_live(d, n) || writes_live(d, n)))
        mark(d, n);
}

static void mark_block(Dce *d, const TsBlock *b)
{
    for (const TsNode *n = b->ret->next; n != b->ret; n = n->next)
        if (!is_marked(d, n) && ts_alias_node_has_side_effects(n))
            mark(d, n);
    mark_return(d, b);
    for (const TsNode *n = b->ret->prev; n != b->param && n != b->ret && !d->failed; n = n->prev)
        mark_node(d, n);
}

static bool unused(const TsIrValue *v)
{
    return v->n_uses == 0;
}

static void sweep_block(Dce *d, TsBlock *b);

/* Drops the outputs of an If, or the carried values of a Loop, that nothing live needs.
 * After the blocks are swept, each such output's block outputs go (from the end, so the
 * positions of the others hold), a second sweep removes what computed them, and then the
 * outputs themselves go. A loop body input that a node the limiter kept (TSCRIPT_OPT_LIMIT)
 * still uses is passed through unchanged instead. */
static void sweep_control(Dce *d, TsNode *n)
{
    bool loop = n->kind == ts_symbol("prim::Loop");
    size_t n_out = n->n_outputs;
    bool *drop = n_out ? calloc(n_out, sizeof *drop) : NULL;
    if (n_out && !drop) {
        d->failed = true;
        return;
    }
    for (size_t i = 0; i < n_out; i++)
        drop[i] = loop ? carried_dead(d, n, i) : !is_live(d, n->outputs[i]);
    for (size_t b = 0; b < n->n_blocks; b++)
        sweep_block(d, n->blocks[b]);
    bool any = false;
    for (size_t i = n_out; i-- > 0;) {
        if (!drop[i] || !unused(n->outputs[i]) || !TS_OPT_ALLOWED) {
            drop[i] = false;
            continue;
        }
        any = true;
        for (size_t b = 0; b < n->n_blocks; b++)
            ts_node_remove_input(n->blocks[b]->ret, i + loop);
    }
    for (size_t b = 0; any && b < n->n_blocks; b++)
        sweep_block(d, n->blocks[b]);
    for (size_t i = n_out; i-- > 0;) {
        if (!drop[i])
            continue;
        if (loop) {
            TsNode *param = n->blocks[0]->param;
            if (!unused(param->outputs[i + 1])) {
                if (ts_node_insert_input(n->blocks[0]->ret, i + 1, param->outputs[i + 1],
                                         NULL))
                    d->failed = true;
                continue;
            }
            ts_node_erase_output(param, i + 1, NULL);
            ts_node_remove_input(n, i + 2);
        }
        ts_node_erase_output(n, i, NULL);
        TS_GRAPH_UPDATE("removed output %zu of %s", i, n->kind);
    }
    free(drop);
}

static void sweep_block(Dce *d, TsBlock *b)
{
    for (TsNode *n = b->ret->prev, *prev; n != b->param && n != b->ret; n = prev) {
        prev = n->prev;
        if (is_marked(d, n)) {
            if (n->kind == ts_symbol("prim::If") || n->kind == ts_symbol("prim::Loop"))
                sweep_control(d, n);
            else
                for (size_t i = 0; i < n->n_blocks; i++)
                    sweep_block(d, n->blocks[i]);
            continue;
        }
        if (!TS_OPT_ALLOWED)
            continue;
        TsError scratch = TS_ERROR_INIT;
        TsSymbol kind = n->kind;
        if (ts_node_destroy(n, &scratch) == 0)
            TS_GRAPH_UPDATE("removed dead %s", kind);
        ts_error_clear(&scratch);
    }
}

int ts_pass_dead_code(TsGraph *g, const TsPassEnv *env, TsError *err)
{
    (void)env;
    Dce d = { 0 };
    TsAliasDb *db = ts_alias_db_new(g, err);
    if (!db)
        return -1;
    d.db = db;
    mark_block(&d, ts_graph_block(g));
    if (!d.failed)
        sweep_block(&d, ts_graph_block(g));
    ts_alias_db_free(db);
    ts_ptrmap_free(&d.live);
    ts_ptrmap_free(&d.marked);
    free(d.live_list);
    if (d.failed)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    TS_GRAPH_DUMP("after dead_code", g);
    return 0;
}
