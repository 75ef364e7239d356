/* fuse.c — aten-dnnl's optimizer pass: a relu (relu, relu_, relu6, relu6_, or hardtanh and
 * hardtanh_ between 0 and 6, which is how F.relu6 is written) whose input is the result of a
 * convolution or of a batch norm, and which is that result's only use, goes into that node:
 *
 *     %y = aten::conv2d(%x, %w, %b, %s, %p, %d, %g)      %r = dnnl::conv(%x, %w, %b, %s, %p,
 *     %r = aten::relu_(%y)                        ->                  %d, %g, 2, RELU)
 *
 * dnnl::conv runs the relu as oneDNN's post-op on the convolution's result while it is in
 * registers; dnnl::batch_norm in its pass over memory (norm.c). The pass runs on the
 * executor's specialized graphs, where the tensors' dtypes are known (is_f32_cpu): it takes
 * convolutions (conv1d/2d/3d with int paddings) and batch norms of float32 cpu inputs, which
 * is what the fused kernels take; a call they do not (a weight of another dtype, training) still gives
 * what the two nodes gave, by aten-cpu's kernel and then the relu. The relu moves to just
 * after its producer where the alias analysis allows (nothing between them may read or
 * write what it writes); the fused node stands where the producer stood, with its source
 * position for tracebacks.
 */
#include <stdlib.h>
#include <string.h>

#include "dn.h"

/* A producer and the relu that takes its result. */
typedef struct Pair {
    TsNode *producer, *relu;
    int nd;                    /* a convolution's spatial dims; 0: a batch norm */
    int post;
} Pair;

typedef struct Pairs {
    Pair *p;
    size_t n, cap;
    TsIrValue *ints[8];        /* the constants the fused nodes take, made once each */
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

/* Is v a float32 tensor on the cpu? Its type says so, or says nothing against it and it
 * comes from such a tensor through operators that keep their input's dtype and device (a
 * module's weights are typed Tensor, so a convolution's result is typed by its input alone
 * where shape propagation leaves it open). cat's result is its first tensor's, an If's is
 * what its branches yield. */
static bool is_f32_cpu(const TsIrValue *v, int depth)
{
    const TsType *t = ts_irvalue_type(v);
    const TsTensorTypeInfo *info = ts_type_kind(t) == TS_TYPE_TENSOR ? ts_type_tensor_info(t)
                                                                     : NULL;
    if (!info || (info->dtype >= 0 && info->dtype != TS_FLOAT32) ||
        (info->device_type >= 0 && info->device_type != TS_DEV_CPU))
        return false;
    if (info->dtype == TS_FLOAT32 && info->device_type == TS_DEV_CPU)
        return true;
    const TsNode *n = ts_irvalue_node(v);
    if (depth > 64 || ts_node_num_inputs(n) == 0)
        return false;
    if (is(n, "aten::cat")) {
        const TsNode *list = ts_irvalue_node(ts_node_input(n, 0));
        return is(list, "prim::ListConstruct") && ts_node_num_inputs(list) > 0 &&
               is_f32_cpu(ts_node_input(list, 0), depth + 1);
    }
    /* an If's result: what each branch yields */
    if (is(n, "prim::If")) {
        size_t at = ts_irvalue_offset(v);
        for (size_t i = 0; i < ts_node_num_blocks(n); i++)
            if (!is_f32_cpu(ts_block_output(ts_node_block(n, i), at), depth + 1))
                return false;
        return ts_node_num_blocks(n) > 0;
    }
    /* a + b, a - b, a * b of two such tensors */
    if ((is(n, "aten::add") || is(n, "aten::sub") || is(n, "aten::mul")) &&
        ts_node_num_inputs(n) >= 2 && is_f32_cpu(ts_node_input(n, 1), depth + 1))
        return is_f32_cpu(ts_node_input(n, 0), depth + 1);
    return keeps_input(n) && is_f32_cpu(ts_node_input(n, 0), depth + 1);
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
 * paddings, of a float32 cpu input. */
static bool producer(const TsNode *n, int *nd)
{
    if (ts_node_num_outputs(n) != 1 || ts_node_num_inputs(n) < 1 ||
        !is_f32_cpu(ts_node_input(n, 0), 0))
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
static int find(const TsAliasDb *db, TsBlock *b, Pairs *ps, TsError *err)
{
    for (TsNode *n = ts_block_first_node(b); n; n = ts_node_next(n)) {
        for (size_t i = 0; i < ts_node_num_blocks(n); i++)
            if (find(db, ts_node_block(n, i), ps, err))
                return -1;
        int nd;
        TsIrValue *out = ts_node_num_outputs(n) == 1 ? ts_node_output(n, 0) : NULL;
        if (!out || !producer(n, &nd) || ts_irvalue_num_uses(out) != 1)
            continue;
        size_t at;
        TsNode *r = ts_irvalue_use(out, 0, &at);
        int post = at == 0 && ts_node_owning_block(r) == b ? relu_kind(r) : 0;
        if (post && ts_alias_move_after_topologically_valid(db, r, n) &&
            push(ps, (Pair){ n, r, nd, post }, err))
            return -1;
    }
    return 0;
}

/* The int constant i (0 .. 7), at the top of the graph. */
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
static int fuse(TsGraph *g, Pairs *ps, const Pair *p, TsError *err)
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
    if (ts_irvalue_replace_uses(ts_node_output(p->relu, 0), o, err) ||
        ts_node_destroy(p->relu, err) || ts_node_destroy(n, err))
        return -1;
    return 0;
}

int dn_fuse_pass(TsGraph *g, void *ctx, TsError *err)
{
    (void)ctx;
    Pairs ps = { NULL, 0, 0, { NULL } };
    TsAliasDb *db = ts_alias_db_new(g, err);
    int rc = db ? find(db, ts_graph_block(g), &ps, err) : -1;
    ts_alias_db_free(db);
    for (size_t i = 0; !rc && i < ps.n; i++)
        rc = fuse(g, &ps, &ps.p[i], err);
    free(ps.p);
    return rc;
}
