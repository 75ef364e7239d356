/* fuse.c — aten-dnnl's optimizer pass: convolutions become dnnl::conv nodes, a relu (relu,
 * relu_, relu6, relu6_, or hardtanh and hardtanh_ between 0 and 6, which is how F.relu6 is
 * written) that takes a convolution's or a batch norm's result, and is its only use, goes
 * into that node, and chains of these keep their tensors channels-last between them:
 *
 *     %y = aten::conv2d(%x, %w, %b, %s, %p, %d, %g)      %r = dnnl::conv(%x, %w, %b, %s, %p,
 *     %r = aten::relu_(%y)                        ->                  %d, %g, 2, RELU)
 *
 * dnnl::conv runs the relu as oneDNN's post-op on the convolution's result while it is in
 * registers; dnnl::batch_norm in its pass over memory (norm.c). The pass runs on the
 * executor's specialized graphs, where the tensors' dtypes are known (derive): it takes
 * convolutions (conv1d/2d/3d with int paddings) and batch norms of float32 or bfloat16 cpu
 * inputs (oneDNN's dtypes, "float" below), which is what the fused kernels take; a call they
 * do not (a weight of another dtype, training) still gives what the nodes gave, by aten-cpu's
 * kernel and then the relu. The relu moves to just after its producer where the alias
 * analysis allows (nothing between them may read or write what it writes); the fused node
 * stands where the producer stood, with its source position for tracebacks.
 *
 * Layouts. PyTorch's contiguous NCHW is not oneDNN's: each convolution would reorder its
 * input and its result. A 2-d convolution whose result only other convolutions, batch norms,
 * max pools (aten-dnnl's, which keep their input's layout) and shape queries see may give it
 * channels-last (DN_MAY_LAST), which oneDNN's kernels read and write as they are: nothing the
 * program sees changes but strides no one reads (may_be_last), and the tensors carry a flag
 * that tells the convolution after them that the program's layout was contiguous.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dn.h"

/* A producer and the relu that takes its result (none: a convolution alone). */
typedef struct Pair {
    TsNode *producer, *relu;
    int nd;                    /* a convolution's spatial dims; 0: a batch norm */
    int post;
    TsNode *fused;             /* what replaced them */
} Pair;

typedef struct Pairs {
    Pair *p;
    size_t n, cap;
    TsIrValue *ints[16];       /* the constants the fused nodes take, made once each */
} Pairs;

static bool is(const TsNode *n, const char *kind) { return strcmp(ts_node_kind(n), kind) == 0; }

/* Operators whose result, when they succeed, has their input 0's dtype and device (they
 * refuse tensors of other devices, and other dtypes, among their arguments), and in-place
 * ones, whose result is input 0. */
static bool keeps_input(const TsNode *n)
{
    static const char *const kinds[] = {
        "aten::conv1d", "aten::conv2d", "aten::conv3d", "aten::batch_norm", "aten::max_pool2d",
        "aten::relu", "aten::relu6", "aten::hardtanh", "dnnl::conv", "dnnl::batch_norm",
        "aten::adaptive_avg_pool2d", "aten::dropout", NULL
    };
    const char *k = ts_node_kind(n);
    size_t len = strlen(k);
    if (strncmp(k, "aten::", 6) == 0 && k[len - 1] == '_' && k[len - 2] != '_')
        return true;
    for (int i = 0; kinds[i]; i++)
        if (strcmp(k, kinds[i]) == 0)
            return true;
    return false;
}

/* The values proven float32 or bfloat16 on the cpu, a set of pointers (open addressing). */
typedef struct Proven {
    const TsIrValue **slot;
    size_t cap, n;             /* cap: a power of two, or 0 */
} Proven;

static size_t slot_of(const Proven *p, const TsIrValue *v)
{
    size_t h = (size_t)((uintptr_t)v * 0x9e3779b97f4a7c15u >> 16);
    for (size_t i = h & (p->cap - 1);; i = (i + 1) & (p->cap - 1))
        if (!p->slot[i] || p->slot[i] == v)
            return i;
}

static bool proven(const Proven *p, const TsIrValue *v)
{
    return p->cap && p->slot[slot_of(p, v)] == v;
}

static int prove(Proven *p, const TsIrValue *v, TsError *err)
{
    if (2 * (p->n + 1) > p->cap) {
        Proven q = { calloc(p->cap ? 2 * p->cap : 64, sizeof *q.slot), p->cap ? 2 * p->cap : 64,
                     0 };
        if (!q.slot)
            return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        for (size_t i = 0; i < p->cap; i++)
            if (p->slot[i]) {
                q.slot[slot_of(&q, p->slot[i])] = p->slot[i];
                q.n++;
            }
        free(p->slot);
        *p = q;
    }
    size_t i = slot_of(p, v);
    p->n += !p->slot[i];
    p->slot[i] = v;
    return 0;
}

static bool dnnl_dtype(int dtype) { return dtype == TS_FLOAT32 || dtype == TS_BFLOAT16; }

/* Is v a float32 or bfloat16 tensor on the cpu? Its type says so, or says nothing against it
 * and it was proven (see derive). */
static bool is_float_cpu(const Proven *p, const TsIrValue *v)
{
    const TsType *t = ts_irvalue_type(v);
    const TsTensorTypeInfo *info = ts_type_kind(t) == TS_TYPE_TENSOR ? ts_type_tensor_info(t)
                                                                     : NULL;
    if (!info || (info->dtype >= 0 && !dnnl_dtype(info->dtype)) ||
        (info->device_type >= 0 && info->device_type != TS_DEV_CPU))
        return false;
    return (info->dtype >= 0 && info->device_type == TS_DEV_CPU) || proven(p, v);
}

/* Whether output i of n is a float cpu tensor by what n is (a module's weights are typed
 * Tensor, so a convolution's result is typed by its input alone where shape propagation
 * leaves it open): an operator that keeps its input's dtype and device, of such an input;
 * cat, of such a first tensor; a + b, a - b, a * b of two; an If, when each branch yields
 * one. */
static bool derive(const Proven *p, const TsNode *n, size_t i)
{
    if (is(n, "prim::If")) {
        for (size_t b = 0; b < ts_node_num_blocks(n); b++)
            if (!is_float_cpu(p, ts_block_output(ts_node_block(n, b), i)))
                return false;
        return ts_node_num_blocks(n) > 0;
    }
    if (ts_node_num_outputs(n) != 1 || ts_node_num_inputs(n) == 0)
        return false;
    if (is(n, "aten::cat")) {
        const TsNode *list = ts_irvalue_node(ts_node_input(n, 0));
        return is(list, "prim::ListConstruct") && ts_node_num_inputs(list) > 0 &&
               is_float_cpu(p, ts_node_input(list, 0));
    }
    if ((is(n, "aten::add") || is(n, "aten::sub") || is(n, "aten::mul")) &&
        ts_node_num_inputs(n) >= 2 && !is_float_cpu(p, ts_node_input(n, 1)))
        return false;
    return (keeps_input(n) || is(n, "aten::add") || is(n, "aten::sub") || is(n, "aten::mul")) &&
           is_float_cpu(p, ts_node_input(n, 0));
}

/* Proves what it can of the values of block b and the blocks inside it, in program order
 * (a value's proof needs only values defined before it). */
static int prove_block(Proven *p, const TsBlock *b, TsError *err)
{
    for (const TsNode *n = ts_block_first_node(b); n; n = ts_node_next(n)) {
        for (size_t i = 0; i < ts_node_num_blocks(n); i++)
            if (prove_block(p, ts_node_block(n, i), err))
                return -1;
        for (size_t i = 0; i < ts_node_num_outputs(n); i++)
            if (derive(p, n, i) && prove(p, ts_node_output(n, i), err))
                return -1;
    }
    return 0;
}

/* The number an int or float constant holds. */
static bool const_number(const TsIrValue *v, double *out)
{
    const TsNode *d = ts_irvalue_node(v);
    TsValue c;
    if (!is(d, "prim::Constant") || ts_constant_value(d, &c, NULL))
        return false;
    bool ok = c.tag == TS_TAG_INT || c.tag == TS_TAG_DOUBLE;
    if (ok)
        *out = c.tag == TS_TAG_INT ? (double)c.u.i : c.u.d;
    ts_value_release(c);
    return ok;
}

/* The post-op n applies to its input 0, or 0 when it is no relu. */
static int relu_kind(const TsNode *n)
{
    size_t in = ts_node_num_inputs(n);
    double lo, hi;
    if ((is(n, "aten::relu") || is(n, "aten::relu_")) && in == 1)
        return DN_POST_RELU;
    if ((is(n, "aten::relu6") || is(n, "aten::relu6_")) && in == 1)
        return DN_POST_RELU6;
    if ((is(n, "aten::hardtanh") || is(n, "aten::hardtanh_")) && in == 3 &&
        const_number(ts_node_input(n, 1), &lo) && const_number(ts_node_input(n, 2), &hi) &&
        lo == 0 && hi == 6)
        return DN_POST_RELU6;
    return 0;
}

/* Whether n is a producer the fused kernels take: a batch norm (*nd 0) or conv{nd}d with int
 * paddings, of a float cpu input. */
static bool producer(const Proven *p, const TsNode *n, int *nd)
{
    if (ts_node_num_outputs(n) != 1 || ts_node_num_inputs(n) < 1 ||
        !is_float_cpu(p, ts_node_input(n, 0)))
        return false;
    static const char *const convs[] = { "aten::conv1d", "aten::conv2d", "aten::conv3d" };
    for (int i = 0; i < 3; i++)
        if (is(n, convs[i]) && ts_node_num_inputs(n) == 7 &&
            ts_type_kind(ts_irvalue_type(ts_node_input(n, 4))) == TS_TYPE_LIST) {
            *nd = i + 1;
            return true;
        }
    *nd = 0;
    return is(n, "aten::batch_norm") && ts_node_num_inputs(n) == 9;
}

static int push(Pairs *ps, Pair p, TsError *err)
{
    if (ps->n == ps->cap) {
        size_t cap = ps->cap ? 2 * ps->cap : 16;
        Pair *q = realloc(ps->p, cap * sizeof *q);
        if (!q)
            return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        ps->p = q;
        ps->cap = cap;
    }
    ps->p[ps->n++] = p;
    return 0;
}

/* The pairs of block b and the blocks inside it, each relu moved next to its producer. */
static int find(const TsAliasDb *db, const Proven *pv, TsBlock *b, Pairs *ps, TsError *err)
{
    for (TsNode *n = ts_block_first_node(b); n; n = ts_node_next(n)) {
        for (size_t i = 0; i < ts_node_num_blocks(n); i++)
            if (find(db, pv, ts_node_block(n, i), ps, err))
                return -1;
        int nd;
        TsIrValue *out = ts_node_num_outputs(n) == 1 ? ts_node_output(n, 0) : NULL;
        if (!out || !producer(pv, n, &nd) || ts_irvalue_num_uses(out) == 0)
            continue;
        if (ts_irvalue_num_uses(out) > 1) {
            if (nd && push(ps, (Pair){ n, NULL, nd, 0, NULL }, err))
                return -1;
            continue;
        }
        size_t at;
        TsNode *r = ts_irvalue_use(out, 0, &at);
        int post = at == 0 && ts_node_owning_block(r) == b ? relu_kind(r) : 0;
        if (post && !ts_alias_move_after_topologically_valid(db, r, n))
            post = 0;
        if ((post || nd) && push(ps, (Pair){ n, post ? r : NULL, nd, post, NULL }, err))
            return -1;
    }
    return 0;
}

/* The int constant i (0 .. 15), at the top of the graph. */
static TsIrValue *int_constant(TsGraph *g, Pairs *ps, int i, TsError *err)
{
    if (!ps->ints[i]) {
        TsBlock *top = ts_graph_block(g);
        ps->ints[i] = ts_constant_insert(top, ts_block_first_node(top), ts_int(i), err);
    }
    return ps->ints[i];
}

/* Replaces the pair by one node: the producer's inputs, then (a convolution) its spatial dims,
 * then the post-op. */
static int fuse(TsGraph *g, Pairs *ps, Pair *p, TsError *err)
{
    TsNode *n = p->producer;
    TsIrValue *in[11];
    size_t k = ts_node_num_inputs(n);
    for (size_t i = 0; i < k; i++)
        in[i] = ts_node_input(n, i);
    if (p->nd && !(in[k++] = int_constant(g, ps, p->nd, err)))
        return -1;
    if (!(in[k++] = int_constant(g, ps, p->post, err)))
        return -1;
    TsNode *f = ts_node_create(g, p->nd ? "dnnl::conv" : "dnnl::batch_norm", in, k, err);
    TsIrValue *o = f ? ts_node_add_output(f, ts_irvalue_type(ts_node_output(n, 0)), err) : NULL;
    if (!o || ts_node_place_before(f, n, err) || ts_node_copy_source(f, n, err)) {
        if (f)
            ts_node_destroy(f, NULL);
        return -1;
    }
    TsNode *last = p->relu ? p->relu : n;
    if (ts_irvalue_replace_uses(ts_node_output(last, 0), o, err) ||
        (p->relu && ts_node_destroy(p->relu, err)) || ts_node_destroy(n, err))
        return -1;
    p->fused = f;
    return 0;
}

/* ---- the layout of a convolution's result ------------------------------------------------ */

static bool named(const TsNode *n, const char *const *kinds)
{
    for (int i = 0; kinds[i]; i++)
        if (is(n, kinds[i]))
            return true;
    return false;
}

/* Whether v, a 4-d tensor, may be channels-last rather than contiguous without anything the
 * program sees changing but strides nobody reads: each use reads only its sizes, or computes
 * the same for any strides and gives a result that may itself be channels-last (its uses
 * checked in turn), or computes the same whatever the strides and makes its own layout.
 * aten-cpu's elementwise kernels would compute the same too, but walk a channels-last
 * tensor slowly: a value they take stays contiguous. */
static bool may_be_last(const TsIrValue *v, int depth)
{
    static const char *const shape_only[] = { "aten::dim", "aten::size", "aten::len", NULL };
    /* (aten-cpu's adaptive_avg_pool2d gives a contiguous result whatever its input's) */
    static const char *const own_layout[] = { "dnnl::conv", "aten::conv2d", "aten::flatten",
                                              "aten::adaptive_avg_pool2d", NULL };
    /* aten-dnnl's kernels, which keep a channels-last input's layout (aten-cpu's, which they
     * hand some calls, give contiguous results) */
    static const char *const follow[] = { "dnnl::batch_norm", "aten::batch_norm",
                                          "aten::max_pool2d", NULL };
    if (depth > 32)
        return false;
    for (size_t i = 0; i < ts_irvalue_num_uses(v); i++) {
        size_t at;
        const TsNode *u = ts_irvalue_use(v, i, &at);
        if (named(u, shape_only) || (at == 0 && named(u, own_layout)))
            continue;
        if (at == 0 && named(u, follow)) {
            if (ts_node_num_outputs(u) == 1 && may_be_last(ts_node_output(u, 0), depth + 1))
                continue;
            return false;
        }
        /* yielded by a branch of an If: as the If's result */
        const TsNode *owner = is(u, "prim::Return") && ts_node_owning_block(u)
                                  ? ts_block_owning_node(ts_node_owning_block(u))
                                  : NULL;
        if (!owner || !is(owner, "prim::If") ||
            !may_be_last(ts_node_output(owner, at), depth + 1))
            return false;
    }
    return true;
}

/* A 2-d dnnl::conv whose result may be channels-last gets DN_MAY_LAST in its post: oneDNN's
 * direct kernels then read and write that layout, and a chain of them no reorders between. */
static int layouts(TsGraph *g, Pairs *ps, TsError *err)
{
    for (size_t i = 0; i < ps->n; i++) {
        Pair *p = &ps->p[i];
        if (p->nd != 2 || !may_be_last(ts_node_output(p->fused, 0), 0))
            continue;
        TsIrValue *post = int_constant(g, ps, p->post | DN_MAY_LAST, err);
        if (!post || ts_node_set_input(p->fused, 8, post, err))
            return -1;
    }
    return 0;
}

int dn_fuse_pass(TsGraph *g, void *ctx, TsError *err)
{
    (void)ctx;
    Pairs ps = { NULL, 0, 0, { NULL } };
    Proven pv = { NULL, 0, 0 };
    TsAliasDb *db = ts_alias_db_new(g, err);
    int rc = db ? prove_block(&pv, ts_graph_block(g), err) : -1;
    if (!rc)
        rc = find(db, &pv, ts_graph_block(g), &ps, err);
    ts_alias_db_free(db);
    free(pv.slot);
    for (size_t i = 0; !rc && i < ps.n; i++)
        rc = fuse(g, &ps, &ps.p[i], err);
    if (!rc)
        rc = layouts(g, &ps, err);
    free(ps.p);
    return rc;
}
