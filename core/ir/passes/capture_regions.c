/* capture_regions.c — wraps runs of tensor operators into prim::CaptureRegion nodes, whose
 * kernel (core/sched/capture.c) captures their device work into a graph the backend replays
 * (CUDA graphs). Runs last, after the plugins' passes (fusion groups join regions), and only
 * when the runtime has cuda_graphs on.
 *
 * A region is what a replay can stand for: its nodes compute tensors from tensors and
 * nothing else the host sees. A node joins when it is pure (pure.h: no writes, no side
 * effects, deterministic — no random draws), or a fusion group; touches a tensor not known
 * to be on the cpu; returns tensors, or numbers only where they come from shapes (size,
 * dim, numel); does not read a tensor's values into the host (item, Int, tolist, ...); and
 * takes numbers only from constants or from the region itself — a number that changes from
 * call to call (a loop counter indexing xs[t]) would make every call a new capture.
 *
 * Other pure nodes that stand between two joiners (the loop counter's arithmetic, xs[t]
 * itself), and attribute reads (a module's weights), move before the region when none of
 * their inputs come from it, so an unrolled loop body becomes one region with its xs[t]'s
 * ahead of it, and a module's forward one region over its weights. Constants move likewise and
 * are copied into the region. Anything else ends the region. A region of fewer than two
 * operators that launch work is left as it was; so is one whose boundary carries a value
 * that is not a tensor or a number.
 */
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "ir/log.h"
#include "ir/passes/passes.h"
#include "ir/passes/pure.h"
#include "ptrmap.h"
#include "runtime.h"
#include "sched/capture.h"

#define MAX_REGION 4096

/* Operators that read a tensor's values into the host, or whose result's shape does: a
 * capture cannot stand for them. */
static const char *const host_reads[] = {
    "aten::item", "aten::Int", "aten::Float", "aten::Bool", "aten::IntImplicit",
    "aten::FloatImplicit", "aten::ScalarImplicit", "aten::is_nonzero", "aten::tolist",
    "aten::equal", "aten::allclose", "aten::nonzero", "aten::masked_select", "aten::unique",
    "aten::_unique2", "aten::unique_consecutive", "aten::unique_dim", "aten::str",
    "aten::format", "aten::__str__", "aten::cpu", "aten::to", "aten::numpy_T",
    "aten::repeat_interleave", "aten::bincount", "aten::histc", "aten::data_ptr", NULL
};

/* Number outputs a capture may keep: they depend on shapes alone. */
static const char *const shape_numbers[] = { "aten::size", "aten::dim", "aten::numel", NULL };

/* Operators that only make a view (no work on the device), not counted as launches. */
static const char *const views[] = {
    "aten::select", "aten::slice", "aten::view", "aten::t", "aten::transpose",
    "aten::permute", "aten::expand", "aten::unsqueeze", "aten::squeeze", "aten::narrow",
    "aten::chunk", "aten::split", "aten::unbind", "aten::as_strided", "aten::alias",
    "aten::detach", "aten::size", "aten::dim", "aten::numel", NULL
};

static bool listed(const char *const *list, const char *s)
{
    for (; *list; list++)
        if (strcmp(*list, s) == 0)
            return true;
    return false;
}

static bool is_number(const TsType *t)
{
    TsTypeKind k = ts_type_kind(t);
    return k == TS_TYPE_INT || k == TS_TYPE_FLOAT || k == TS_TYPE_BOOL;
}

/* A tensor type known to be on the cpu (a specialized plan knows its devices). */
static bool on_cpu(const TsType *t)
{
    if (ts_type_kind(t) != TS_TYPE_TENSOR)
        return false;
    const TsTensorTypeInfo *info = ts_type_tensor_info(t);
    return info && info->device_type == TS_DEV_CPU;
}

static bool is_constant(const TsNode *n)
{
    return strcmp(n->kind, "prim::Constant") == 0;
}

typedef struct Run {
    TsNode **nodes;
    size_t n;
    TsPtrMap in;               /* node -> 1 for the run's nodes */
    size_t launches;
} Run;

static bool in_run(const Run *r, const TsNode *n)
{
    uintptr_t v = 0;
    return ts_ptrmap_get(&r->in, n, &v) && v;   /* 0: trimmed off the run's end */
}

/* May n join r (as it stands)? */
static bool joins(const TsNode *n, const Run *r)
{
    if (n->n_blocks)
        return false;
    bool group = strcmp(n->kind, "prim::FusionGroup") == 0;
    if (!group && (!ts_node_is_pure(n) || listed(host_reads, n->kind)))
        return false;
    bool tensors = false;
    for (size_t i = 0; i < n->n_inputs; i++) {
        const TsType *t = n->inputs[i]->type;
        const TsNode *d = n->inputs[i]->node;
        if (on_cpu(t))
            return false;
        tensors = tensors || ts_type_holds_tensors(t);
        if (ts_type_kind(t) != TS_TYPE_TENSOR && !is_constant(d) && !in_run(r, d))
            return false;      /* a value from outside that is not a tensor */
    }
    for (size_t i = 0; i < n->n_outputs; i++) {
        const TsType *t = n->outputs[i]->type;
        if (on_cpu(t))
            return false;
        if (ts_type_holds_tensors(t))
            tensors = true;
        else if (!(is_number(t) && listed(shape_numbers, n->kind)) && tensors)
            return false;
    }
    return tensors || n->n_inputs > 0;   /* host arithmetic on the region's own numbers */
}

/* Can n move before the run's first node: pure, or an attribute read (a module's weight:
 * the run writes no attribute, it holds no side effects), and fed by nothing of the run? */
static bool movable(const TsNode *n, const Run *r)
{
    if (n->n_blocks || !(ts_node_is_pure(n) || strcmp(n->kind, "prim::GetAttr") == 0))
        return false;
    for (size_t i = 0; i < n->n_inputs; i++)
        if (in_run(r, n->inputs[i]->node))
            return false;
    return true;
}

static bool boundary_type(const TsType *t)
{
    return ts_type_kind(t) == TS_TYPE_TENSOR || is_number(t);
}

static int append(TsIrValue ***a, size_t *n, size_t *cap, TsIrValue *v)
{
    if (*n == *cap) {
        TsIrValue **g = realloc(*a, 2 * *cap * sizeof *g);
        if (!g)
            return -1;
        *a = g;
        *cap *= 2;
    }
    (*a)[(*n)++] = v;
    return 0;
}

/* The values the run uses from outside (constants excepted: copied in), and those it
 * defines that something after it uses. */
static int boundary(const Run *r, TsIrValue ***ins, size_t *n_in, TsIrValue ***outs,
                    size_t *n_out, TsError *err)
{
    size_t cap_in = 8, cap_out = 8;
    TsPtrMap seen = { 0 };
    *ins = malloc(cap_in * sizeof **ins);
    *outs = malloc(cap_out * sizeof **outs);
    *n_in = *n_out = 0;
    int rc = *ins && *outs ? 0 : -1;
    for (size_t i = 0; i < r->n && !rc; i++) {
        const TsNode *n = r->nodes[i];
        for (size_t k = 0; k < n->n_inputs && !rc; k++) {
            TsIrValue *v = n->inputs[k];
            if (in_run(r, v->node) || is_constant(v->node))
                continue;
            int added = ts_ptrmap_put(&seen, v, 1);
            if (added < 0) {
                rc = -1;
            } else if (added == 0) {
                rc = append(ins, n_in, &cap_in, v);
            }
        }
        for (size_t k = 0; k < n->n_outputs && !rc; k++) {
            TsIrValue *v = n->outputs[k];
            bool outside = false;
            for (size_t u = 0; u < ts_irvalue_num_uses(v) && !outside; u++)
                outside = !in_run(r, ts_irvalue_use(v, u, NULL));
            if (outside)
                rc = append(outs, n_out, &cap_out, v);
        }
    }
    ts_ptrmap_free(&seen);
    if (rc)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    return 0;
}

/* The run's nodes copied into a graph of their own over ins, returning outs. */
static TsGraph *subgraph(const Run *r, TsIrValue **ins, size_t n_in, TsIrValue **outs,
                         size_t n_out, TsError *err)
{
    TsGraph *g = ts_graph_new(err);
    if (!g)
        return NULL;
    TsPtrMap map = { 0 };
    int rc = 0;
    for (size_t i = 0; i < n_in && !rc; i++) {
        TsIrValue *v = ts_graph_add_input(g, NULL, ins[i]->type, err);
        rc = !v || ts_ptrmap_put(&map, ins[i], (uintptr_t)v) < 0 ? -1 : 0;
    }
    ts_graph_set_insert_end(g, ts_graph_block(g));
    for (size_t i = 0; i < r->n && !rc; i++) {
        const TsNode *n = r->nodes[i];
        for (size_t k = 0; k < n->n_inputs && !rc; k++) {
            TsIrValue *v = n->inputs[k];
            if (!is_constant(v->node) || ts_ptrmap_get(&map, v, NULL))
                continue;
            rc = ts_node_clone(g, v->node, &map, err) ? 0 : -1;
        }
        if (!rc)
            rc = ts_node_clone(g, n, &map, err) ? 0 : -1;
    }
    for (size_t i = 0; i < n_out && !rc; i++) {
        uintptr_t v = 0;
        ts_ptrmap_get(&map, outs[i], &v);
        rc = ts_graph_add_output(g, (TsIrValue *)v, err);
    }
    ts_ptrmap_free(&map);
    if (rc) {
        if (err->code == TS_OK)
            ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        ts_graph_free(g);
        return NULL;
    }
    return g;
}

/* Replaces the run by one region node where its first node was, when it is worth it and
 * its boundary allows. */
/* Does n launch work on the device: a fusion group, or an operator that makes a tensor
 * other than a view? */
static bool counts(const TsNode *n)
{
    if (strcmp(n->kind, "prim::FusionGroup") == 0)
        return true;
    if (strncmp(n->kind, "aten::", 6) != 0 || listed(views, n->kind))
        return false;
    for (size_t i = 0; i < n->n_outputs; i++)
        if (ts_type_holds_tensors(n->outputs[i]->type))
            return true;
    return false;
}

/* Drops the run's last node when an output of it that is not a tensor or a number leaves
 * the run (the tuple a function returns): true when it did. */
static bool trim(Run *r, TsIrValue *const *outs, size_t n_out)
{
    if (!r->n)
        return false;
    TsNode *last = r->nodes[r->n - 1];
    for (size_t i = 0; i < n_out; i++)
        if (outs[i]->node == last && !boundary_type(outs[i]->type)) {
            r->n--;
            r->launches -= counts(last);
            ts_ptrmap_set(&r->in, last, 0);
            return true;
        }
    return false;
}

static int wrap(TsGraph *g, Run *r, TsError *err)
{
    TsIrValue **ins = NULL, **outs = NULL;
    size_t n_in = 0, n_out = 0;
    int rc = 0;
    bool fits = false;
    while (!rc && !fits && r->launches >= 2) {
        free(ins);
        free(outs);
        rc = boundary(r, &ins, &n_in, &outs, &n_out, err);
        fits = !rc && n_out > 0;
        for (size_t i = 0; i < n_in && fits; i++)
            fits = boundary_type(ins[i]->type);
        for (size_t i = 0; i < n_out && fits; i++)
            fits = boundary_type(outs[i]->type);
        if (!rc && !fits && !trim(r, outs, n_out))
            break;
    }
    fits = fits && r->launches >= 2 && TS_OPT_ALLOWED;
    TsGraph *sub = fits ? subgraph(r, ins, n_in, outs, n_out, err) : NULL;
    if (fits && !sub)
        rc = -1;
    if (sub) {
        TsNode *node = ts_node_create(g, TS_CAPTURE_REGION, ins, n_in, err);
        rc = !node || ts_attr_set_graph(node, "Subgraph", sub, err) ? -1 : 0;
        if (!node)
            ts_graph_free(sub);
        if (!rc)
            rc = ts_node_place_before(node, r->nodes[0], err) ||
                 ts_node_copy_source(node, r->nodes[0], err) ? -1 : 0;
        for (size_t i = 0; i < n_out && !rc; i++) {
            TsIrValue *o = ts_node_add_output(node, outs[i]->type, err);
            rc = !o || ts_irvalue_replace_uses(outs[i], o, err) ? -1 : 0;
        }
        for (size_t i = r->n; i-- > 0 && !rc;)
            rc = ts_node_destroy(r->nodes[i], err);
        if (!rc)
            TS_GRAPH_UPDATE("a capture region of %zu nodes (%zu launching work), %zu inputs, "
                            "%zu outputs", r->n, r->launches, n_in, n_out);
    }
    free(ins);
    free(outs);
    return rc;
}

static void run_reset(Run *r)
{
    r->n = 0;
    r->launches = 0;
    ts_ptrmap_free(&r->in);
}

static int run_add(Run *r, TsNode *n, TsError *err)
{
    if (r->n == MAX_REGION)
        return 1;
    if (ts_ptrmap_put(&r->in, n, 1) < 0)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    r->nodes[r->n++] = n;
    r->launches += counts(n);
    return 0;
}

static int regions_in(TsGraph *g, TsBlock *b, Run *r, TsError *err);

/* Ends the current run (wrapping it), then recurses into n's blocks. */
static int close_at(TsGraph *g, TsNode *n, Run *r, TsError *err)
{
    int rc = r->n ? wrap(g, r, err) : 0;
    run_reset(r);
    for (size_t i = 0; n && i < n->n_blocks && !rc; i++)
        rc = regions_in(g, n->blocks[i], r, err);
    return rc;
}

static int regions_in(TsGraph *g, TsBlock *b, Run *r, TsError *err)
{
    run_reset(r);
    TsNode *n = b->ret->next;
    while (n != b->ret) {
        TsNode *next = n->next;
        int rc = 0;
        if (r->n && is_constant(n)) {
            ts_node_move_before(n, r->nodes[0]);
        } else if (joins(n, r)) {
            rc = run_add(r, n, err);
            if (rc > 0)        /* full: close it and start again here */
                rc = close_at(g, NULL, r, err) || run_add(r, n, err) ? -1 : 0;
        } else if (r->n && movable(n, r)) {
            ts_node_move_before(n, r->nodes[0]);
        } else {
            rc = close_at(g, n, r, err);
        }
        if (rc)
            return -1;
        n = next;
    }
    return close_at(g, NULL, r, err);
}

int ts_pass_capture_regions(TsGraph *g, const TsPassEnv *env, TsError *err)
{
    if (!env->rt || !ts_runtime_graphs(env->rt))
        return 0;
    Run r = { malloc(MAX_REGION * sizeof(TsNode *)), 0, { 0 }, 0 };
    if (!r.nodes)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    int rc = regions_in(g, ts_graph_block(g), &r, err);
    run_reset(&r);
    free(r.nodes);
    if (!rc)
        TS_GRAPH_DUMP("after capture_regions", g);
    return rc;
}
