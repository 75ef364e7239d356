/* fuse.c — the fusion pass: runs of pointwise float32 operators become prim::FusionGroup
 * nodes.
 *
 * It runs on the executor's optimized copy of a graph (an optimizer pass), where the
 * tensors' dtypes and devices are known from the call's arguments. A node joins a group when
 * it is an operator of ops.c whose tensors are all float32 on the cpu and whose other
 * operands are ints or floats. A group is a run of such nodes that follow each other in
 * their block: nothing moves, so no write can be reordered past a read (the operators are
 * pure: fresh results, no writes), and the group runs where its first node ran. Constants
 * its nodes use are copied into the group's Subgraph; every other value from outside is an
 * input, and every value its nodes define that something after the run uses is an output.
 * A run of one operator is left alone: there is nothing to save.
 */
#include <stdlib.h>
#include <string.h>

#include "fuser.h"

#define MAX_RUN 64             /* nodes in one group: at most 3 inputs each, within
                                  FU_MAX_INPUTS */

static bool is_cpu_float_tensor(const TsType *t)
{
    if (ts_type_kind(t) != TS_TYPE_TENSOR)
        return false;
    const TsTensorTypeInfo *info = ts_type_tensor_info(t);
    return info && info->dtype == TS_FLOAT32 && info->device_type == TS_DEV_CPU;
}

static bool is_number(const TsType *t)
{
    TsTypeKind k = ts_type_kind(t);
    return k == TS_TYPE_INT || k == TS_TYPE_FLOAT;
}

static bool fusible(const TsNode *n)
{
    int op = fu_op_lookup(ts_node_kind(n), ts_node_num_inputs(n));
    if (op < 0 || ts_node_num_outputs(n) != 1 || ts_node_num_blocks(n) != 0 ||
        !is_cpu_float_tensor(ts_irvalue_type(ts_node_output(n, 0))))
        return false;
    if (!is_cpu_float_tensor(ts_irvalue_type(ts_node_input(n, 0))))
        return false;
    if (fu_op_arity((FuOpCode)op) == 2) {
        const TsType *t = ts_irvalue_type(ts_node_input(n, 1));
        if (!is_cpu_float_tensor(t) && !is_number(t))
            return false;
    }
    return !fu_op_has_alpha((FuOpCode)op) || is_number(ts_irvalue_type(ts_node_input(n, 2)));
}

static bool is_constant(const TsIrValue *v)
{
    const TsNode *d = ts_irvalue_node(v);
    return strcmp(ts_node_kind(d), "prim::Constant") == 0 && is_number(ts_irvalue_type(v));
}

/* The value of an int constant. */
static bool const_int(const TsIrValue *v, int64_t *out)
{
    TsValue c;
    const TsNode *d = ts_irvalue_node(v);
    if (strcmp(ts_node_kind(d), "prim::Constant") != 0 || ts_constant_value(d, &c, NULL))
        return false;
    bool ok = c.tag == TS_TAG_INT;
    if (ok)
        *out = c.u.i;
    ts_value_release(c);
    return ok;
}

/* A group in the making: the run's nodes, and the values crossing its boundary. A run may
 * start with x.chunk(N, dim) unpacked into its pieces (an LSTM cell's gates): the group
 * then takes x and makes the pieces itself (prim::ConstantChunk in its Subgraph), which
 * saves two operators and a list per call. */
typedef struct Run {
    TsNode *chunk, *unpack;    /* the folded aten::chunk and its prim::ListUnpack, or NULL */
    TsNode *nodes[MAX_RUN];
    size_t n;
    TsIrValue *inputs[3 * MAX_RUN], *outputs[MAX_RUN];
    size_t n_inputs, n_outputs;
} Run;

static bool in_run(const Run *r, const TsNode *n)
{
    if (r->chunk && (n == r->chunk || n == r->unpack))
        return true;
    for (size_t i = 0; i < r->n; i++)
        if (r->nodes[i] == n)
            return true;
    return false;
}

/* The position of v in vs, or -1. */
static long index_of(TsIrValue *const *vs, size_t n, const TsIrValue *v)
{
    for (size_t i = 0; i < n; i++)
        if (vs[i] == v)
            return (long)i;
    return -1;
}

static void boundary(Run *r)
{
    r->n_inputs = r->n_outputs = 0;
    if (r->chunk)
        r->inputs[r->n_inputs++] = ts_node_input(r->chunk, 0);
    for (size_t i = 0; i < r->n; i++) {
        TsNode *n = r->nodes[i];
        for (size_t k = 0; k < ts_node_num_inputs(n); k++) {
            TsIrValue *v = ts_node_input(n, k);
            if (!in_run(r, ts_irvalue_node(v)) && !is_constant(v) &&
                index_of(r->inputs, r->n_inputs, v) < 0)
                r->inputs[r->n_inputs++] = v;
        }
        TsIrValue *out = ts_node_output(n, 0);
        for (size_t u = 0; u < ts_irvalue_num_uses(out); u++)
            if (!in_run(r, ts_irvalue_use(out, u, NULL))) {
                r->outputs[r->n_outputs++] = out;
                break;
            }
    }
}

/* The Subgraph: the run's nodes over the group's inputs, with their constants copied in. */
static TsGraph *subgraph(const Run *r, TsError *err)
{
    TsGraph *g = ts_graph_new(err);
    if (!g)
        return NULL;
    /* sub[i] is the copy of r->nodes[i]'s output; in[i] of r->inputs[i] */
    TsIrValue *in[3 * MAX_RUN + 1], *sub[MAX_RUN], *piece[FU_MAX_CHUNKS];
    for (size_t i = 0; i < r->n_inputs; i++)
        if (!(in[i] = ts_graph_add_input(g, NULL, ts_irvalue_type(r->inputs[i]), err)))
            goto fail;
    size_t n_pieces = r->chunk ? ts_node_num_outputs(r->unpack) : 0;
    if (r->chunk) {
        int64_t chunks = 0, dim = 0;
        const_int(ts_node_input(r->chunk, 1), &chunks);
        const_int(ts_node_input(r->chunk, 2), &dim);
        TsNode *cc = ts_node_create(g, "prim::ConstantChunk", &in[0], 1, err);
        if (!cc)
            goto fail;
        if (ts_attr_set_int(cc, "chunks", chunks, err) || ts_attr_set_int(cc, "dim", dim, err) ||
            ts_block_append(ts_graph_block(g), cc, err)) {
            ts_node_destroy(cc, NULL);
            goto fail;
        }
        for (size_t i = 0; i < n_pieces; i++)
            if (!(piece[i] = ts_node_add_output(cc, ts_irvalue_type(ts_node_output(r->unpack, i)),
                                                err)))
                goto fail;
    }
    for (size_t i = 0; i < r->n; i++) {
        const TsNode *n = r->nodes[i];
        TsIrValue *args[3];
        size_t na = ts_node_num_inputs(n);
        for (size_t k = 0; k < na; k++) {
            TsIrValue *v = ts_node_input(n, k);
            long at = index_of(r->inputs, r->n_inputs, v);
            if (at >= 0) {
                args[k] = in[at];
                continue;
            }
            if (r->chunk && ts_irvalue_node(v) == r->unpack) {
                args[k] = piece[ts_irvalue_offset(v)];
                continue;
            }
            for (size_t j = 0; j < i; j++)
                if (ts_node_output(r->nodes[j], 0) == v)
                    args[k] = sub[j];
            if (is_constant(v)) {
                TsValue c;
                if (ts_constant_value(ts_irvalue_node(v), &c, err))
                    goto fail;
                args[k] = ts_constant_insert(ts_graph_block(g), NULL, c, err);
                ts_value_release(c);
                if (!args[k])
                    goto fail;
            }
        }
        TsNode *copy = ts_node_create(g, ts_node_kind(n), args, na, err);
        if (!copy)
            goto fail;
        if (ts_block_append(ts_graph_block(g), copy, err)) {
            ts_node_destroy(copy, NULL);
            goto fail;
        }
        if (!(sub[i] = ts_node_add_output(copy, ts_irvalue_type(ts_node_output(n, 0)), err)))
            goto fail;
    }
    for (size_t i = 0; i < r->n_outputs; i++) {
        long at = -1;
        for (size_t j = 0; j < r->n && at < 0; j++)
            if (ts_node_output(r->nodes[j], 0) == r->outputs[i])
                at = (long)j;
        if (ts_graph_add_output(g, sub[at], err))
            goto fail;
    }
    return g;
fail:
    ts_graph_free(g);
    return NULL;
}

/* Replaces the run by one prim::FusionGroup node. */
static int fuse(TsGraph *g, Run *r, TsError *err)
{
    boundary(r);
    TsGraph *sub = subgraph(r, err);
    if (!sub)
        return -1;
    TsNode *fg = ts_node_create(g, "prim::FusionGroup", r->inputs, r->n_inputs, err);
    if (!fg) {
        ts_graph_free(sub);
        return -1;
    }
    TsNode *first = r->chunk ? r->chunk : r->nodes[0];
    if (ts_attr_set_graph(fg, "Subgraph", sub, err) || ts_node_place_before(fg, first, err) ||
        ts_node_copy_source(fg, first, err)) {
        ts_node_destroy(fg, NULL);
        return -1;
    }
    for (size_t i = 0; i < r->n_outputs; i++) {
        TsIrValue *o = ts_node_add_output(fg, ts_irvalue_type(r->outputs[i]), err);
        if (!o || ts_irvalue_replace_uses(r->outputs[i], o, err))
            return -1;
    }
    for (size_t i = r->n; i-- > 0;)
        if (ts_node_destroy(r->nodes[i], err))
            return -1;
    if (r->chunk && (ts_node_destroy(r->unpack, err) || ts_node_destroy(r->chunk, err)))
        return -1;
    return 0;
}

static int fuse_block(TsGraph *g, TsBlock *b, TsError *err);

/* Whether every use of the folded chunk's pieces is in the run (a piece used after it
 * would have to be a group output that aliases the group's input). */
static bool pieces_inside(const Run *r)
{
    for (size_t i = 0; i < ts_node_num_outputs(r->unpack); i++) {
        TsIrValue *v = ts_node_output(r->unpack, i);
        for (size_t u = 0; u < ts_irvalue_num_uses(v); u++)
            if (!in_run(r, ts_irvalue_use(v, u, NULL)))
                return false;
    }
    return true;
}

/* A run worth a group: two operators, or one with a folded chunk. */
static int flush(TsGraph *g, Run *r, TsError *err)
{
    if (r->chunk && !pieces_inside(r))
        r->chunk = r->unpack = NULL;
    int rc = r->n >= 2 || (r->chunk && r->n >= 1) ? fuse(g, r, err) : 0;
    r->n = 0;
    r->chunk = r->unpack = NULL;
    return rc;
}

/* x.chunk(N, dim) with constant N (at most FU_MAX_CHUNKS) and dim, of a float32 cpu tensor,
 * whose list only the next node unpacks into float32 cpu pieces. */
static bool chunk_prefix(const TsNode *n)
{
    int64_t chunks, dim;
    if (strcmp(ts_node_kind(n), "aten::chunk") != 0 || ts_node_num_inputs(n) != 3 ||
        ts_node_num_outputs(n) != 1 ||
        !is_cpu_float_tensor(ts_irvalue_type(ts_node_input(n, 0))) ||
        !const_int(ts_node_input(n, 1), &chunks) || !const_int(ts_node_input(n, 2), &dim) ||
        chunks < 1 || chunks > FU_MAX_CHUNKS)
        return false;
    const TsIrValue *list = ts_node_output(n, 0);
    const TsNode *m = ts_node_next(n);
    if (!m || strcmp(ts_node_kind(m), "prim::ListUnpack") != 0 ||
        ts_irvalue_num_uses(list) != 1 || ts_irvalue_use(list, 0, NULL) != m ||
        ts_node_num_outputs(m) != (size_t)chunks)
        return false;
    for (size_t i = 0; i < ts_node_num_outputs(m); i++)
        if (!is_cpu_float_tensor(ts_irvalue_type(ts_node_output(m, i))))
            return false;
    return true;
}

static int fuse_block(TsGraph *g, TsBlock *b, TsError *err)
{
    Run *r = malloc(sizeof *r);
    if (!r)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    r->n = 0;
    r->chunk = r->unpack = NULL;
    int rc = 0;
    for (TsNode *n = ts_block_first_node(b), *next; n && !rc; n = next) {
        next = ts_node_next(n);
        if (chunk_prefix(n)) {         /* ends the run before it, may start the next */
            rc = flush(g, r, err);
            r->chunk = n;
            r->unpack = next;
            next = ts_node_next(next);
            continue;
        }
        if (fusible(n)) {
            r->nodes[r->n++] = n;
            if (r->n == MAX_RUN)
                rc = flush(g, r, err);
            continue;
        }
        rc = flush(g, r, err);
        for (size_t i = 0; !rc && i < ts_node_num_blocks(n); i++)
            rc = fuse_block(g, ts_node_block(n, i), err);
    }
    if (!rc)
        rc = flush(g, r, err);
    free(r);
    return rc;
}

int fu_pass(TsGraph *g, void *ctx, TsError *err)
{
    (void)ctx;
    return fuse_block(g, ts_graph_block(g), err);
}
