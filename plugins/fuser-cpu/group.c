/* group.c — making a fusion group (group.h), shared by fuser-cpu and fuser-cuda: which
 * nodes may join one, and replacing a run of them by a prim::FusionGroup node.
 *
 * The operators of ops.c are pure (fresh results, no writes), so a run of them that follow
 * each other in their block can become one node where the first of them was. Constants its
 * nodes use are copied into the group's Subgraph; every other value from outside is an
 * input, and every value its nodes define that something after the run uses is an output.
 * Also what both kernels need alike: a folded chunk's pieces, and the bound node's Subgraph.
 */
#include <string.h>

#include "group.h"

/* Is t a tensor of one of ts's dtypes on its device, of the same dtype and device as ref
 * when ref is set (the node's output)? */
static bool fits(const TsType *t, const FuTensors *ts, const TsTensorTypeInfo *ref)
{
    if (ts_type_kind(t) != TS_TYPE_TENSOR)
        return false;
    const TsTensorTypeInfo *info = ts_type_tensor_info(t);
    if (!info || info->dtype < 0 || info->dtype >= 32 || !(ts->dtypes >> info->dtype & 1) ||
        info->device_type != ts->device_type)
        return false;
    return !ref || (info->dtype == ref->dtype && info->device_index == ref->device_index);
}

static bool is_number(const TsType *t)
{
    TsTypeKind k = ts_type_kind(t);
    return k == TS_TYPE_INT || k == TS_TYPE_FLOAT;
}

bool fu_fusible(const TsNode *n, const FuTensors *ts)
{
    int op = fu_op_lookup(ts_node_kind(n), ts_node_num_inputs(n));
    if (op < 0 || ts_node_num_outputs(n) != 1 || ts_node_num_blocks(n) != 0)
        return false;
    const TsType *out = ts_irvalue_type(ts_node_output(n, 0));
    if (!fits(out, ts, NULL))
        return false;
    const TsTensorTypeInfo *ref = ts_type_tensor_info(out);
    if (!fits(ts_irvalue_type(ts_node_input(n, 0)), ts, ref))
        return false;
    if (fu_op_arity((FuOpCode)op) == 2) {
        const TsType *t = ts_irvalue_type(ts_node_input(n, 1));
        if (!fits(t, ts, ref) && !is_number(t))
            return false;
    }
    return !fu_op_has_alpha((FuOpCode)op) || is_number(ts_irvalue_type(ts_node_input(n, 2)));
}

bool fu_is_mm(const TsNode *n)
{
    return strcmp(ts_node_kind(n), "aten::mm") == 0;
}

bool fu_mm_fusible(const TsNode *n, const FuTensors *ts)
{
    if (!fu_is_mm(n) || ts_node_num_inputs(n) != 2 || ts_node_num_outputs(n) != 1 ||
        ts_node_num_blocks(n) != 0)
        return false;
    const TsType *out = ts_irvalue_type(ts_node_output(n, 0));
    if (!fits(out, ts, NULL))
        return false;
    const TsTensorTypeInfo *ref = ts_type_tensor_info(out);
    return fits(ts_irvalue_type(ts_node_input(n, 0)), ts, ref) &&
           fits(ts_irvalue_type(ts_node_input(n, 1)), ts, ref);
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

bool fu_chunk_fusible(const TsNode *n, const TsNode *unpack, const FuTensors *ts)
{
    int64_t chunks, dim;
    if (strcmp(ts_node_kind(n), "aten::chunk") != 0 || ts_node_num_inputs(n) != 3 ||
        ts_node_num_outputs(n) != 1 || !fits(ts_irvalue_type(ts_node_input(n, 0)), ts, NULL) ||
        !const_int(ts_node_input(n, 1), &chunks) || !const_int(ts_node_input(n, 2), &dim) ||
        chunks < 1 || chunks > FU_MAX_CHUNKS)
        return false;
    const TsIrValue *list = ts_node_output(n, 0);
    const TsTensorTypeInfo *ref = ts_type_tensor_info(ts_irvalue_type(ts_node_input(n, 0)));
    if (!unpack || strcmp(ts_node_kind(unpack), "prim::ListUnpack") != 0 ||
        ts_irvalue_num_uses(list) != 1 || ts_irvalue_use(list, 0, NULL) != unpack ||
        ts_node_num_outputs(unpack) != (size_t)chunks)
        return false;
    for (size_t i = 0; i < ts_node_num_outputs(unpack); i++)
        if (!fits(ts_irvalue_type(ts_node_output(unpack, i)), ts, ref))
            return false;
    return true;
}

bool fu_group_has(const FuGroup *r, const TsNode *n)
{
    if (r->chunk && (n == r->chunk || n == r->unpack))
        return true;
    for (size_t i = 0; i < r->n_pre; i++)
        if (r->pre[i] == n)
            return true;
    for (size_t i = 0; i < r->n; i++)
        if (r->nodes[i] == n)
            return true;
    return false;
}

bool fu_group_pieces_inside(const FuGroup *r)
{
    for (size_t i = 0; i < ts_node_num_outputs(r->unpack); i++) {
        TsIrValue *v = ts_node_output(r->unpack, i);
        for (size_t u = 0; u < ts_irvalue_num_uses(v); u++)
            if (!fu_group_has(r, ts_irvalue_use(v, u, NULL)))
                return false;
    }
    return true;
}

/* The position of v in vs, or -1. */
static long index_of(TsIrValue *const *vs, size_t n, const TsIrValue *v)
{
    for (size_t i = 0; i < n; i++)
        if (vs[i] == v)
            return (long)i;
    return -1;
}

/* Adds n's inputs from outside the group (not constants) to its inputs, once each. */
static void add_inputs(FuGroup *r, const TsNode *n)
{
    for (size_t k = 0; k < ts_node_num_inputs(n); k++) {
        TsIrValue *v = ts_node_input(n, k);
        if (!fu_group_has(r, ts_irvalue_node(v)) && !is_constant(v) &&
            index_of(r->inputs, r->n_inputs, v) < 0)
            r->inputs[r->n_inputs++] = v;
    }
}

static void boundary(FuGroup *r)
{
    r->n_inputs = r->n_outputs = 0;
    for (size_t i = 0; i < r->n_pre; i++)
        add_inputs(r, r->pre[i]);
    if (r->chunk && !r->n_pre)
        r->inputs[r->n_inputs++] = ts_node_input(r->chunk, 0);
    for (size_t i = 0; i < r->n; i++) {
        TsNode *n = r->nodes[i];
        for (size_t k = 0; k < ts_node_num_inputs(n); k++) {
            TsIrValue *v = ts_node_input(n, k);
            if (!fu_group_has(r, ts_irvalue_node(v)) && !is_constant(v) &&
                index_of(r->inputs, r->n_inputs, v) < 0)
                r->inputs[r->n_inputs++] = v;
        }
        TsIrValue *out = ts_node_output(n, 0);
        for (size_t u = 0; u < ts_irvalue_num_uses(out); u++)
            if (!fu_group_has(r, ts_irvalue_use(out, u, NULL))) {
                r->outputs[r->n_outputs++] = out;
                break;
            }
    }
}

/* The Subgraph's pieces when pre nodes compute the chunk's input: a
 * prim::BroadcastingChunk of the tensors they read (inputs in[] of the group), then the pre
 * nodes once per piece over those tensors' pieces; piece[c] is the last one's copy c. */
static int pre_pieces(TsGraph *g, FuGroup *r, TsIrValue **in, TsIrValue **piece, TsError *err)
{
    int64_t chunks = 0, dim = 0;
    const_int(ts_node_input(r->chunk, 1), &chunks);
    const_int(ts_node_input(r->chunk, 2), &dim);
    const TsType *piece_type = ts_irvalue_type(ts_node_output(r->unpack, 0));
    /* the chunked tensors (leaf_of; leaf_in in the Subgraph): those the pre nodes but
     * products read from outside, then the products' results */
    size_t n_leaves = 0;
    TsIrValue *leaf_in[4 * FU_MAX_PRE], *leaf_of[4 * FU_MAX_PRE];
    for (size_t i = 0; i < r->n_inputs; i++) {
        bool read = false;
        for (size_t p = 0; p < r->n_pre && !read; p++)
            for (size_t k = 0; k < ts_node_num_inputs(r->pre[p]) && !fu_is_mm(r->pre[p]); k++)
                read = read || ts_node_input(r->pre[p], k) == r->inputs[i];
        if (read && ts_type_kind(ts_irvalue_type(r->inputs[i])) == TS_TYPE_TENSOR) {
            leaf_of[n_leaves] = r->inputs[i];
            leaf_in[n_leaves++] = in[i];
        }
    }
    for (size_t p = 0; p < r->n_pre; p++) {
        if (!fu_is_mm(r->pre[p]))
            continue;
        TsIrValue *ab[2];
        for (size_t k = 0; k < 2; k++) {
            long at = index_of(r->inputs, r->n_inputs, ts_node_input(r->pre[p], k));
            if (at < 0)
                return ts_error_set(err, TS_ERR_RUNTIME, "fusion group: a product of values "
                                    "from inside the group");
            ab[k] = in[at];
        }
        TsNode *mm = ts_node_create(g, "aten::mm", ab, 2, err);
        if (!mm)
            return -1;
        if (ts_block_append(ts_graph_block(g), mm, err)) {
            ts_node_destroy(mm, NULL);
            return -1;
        }
        TsIrValue *v = ts_node_add_output(mm, ts_irvalue_type(ts_node_output(r->pre[p], 0)), err);
        if (!v)
            return -1;
        leaf_of[n_leaves] = ts_node_output(r->pre[p], 0);
        leaf_in[n_leaves++] = v;
    }
    TsNode *bc = ts_node_create(g, "prim::BroadcastingChunk", leaf_in, n_leaves, err);
    if (!bc)
        return -1;
    if (ts_attr_set_int(bc, "chunks", chunks, err) || ts_attr_set_int(bc, "dim", dim, err) ||
        ts_block_append(ts_graph_block(g), bc, err)) {
        ts_node_destroy(bc, NULL);
        return -1;
    }
    for (size_t j = 0; j < n_leaves * (size_t)chunks; j++)
        if (!ts_node_add_output(bc, piece_type, err))
            return -1;
    for (int64_t c = 0; c < chunks; c++) {
        TsIrValue *copy_of[FU_MAX_PRE];
        for (size_t p = 0; p < r->n_pre; p++) {
            const TsNode *n = r->pre[p];
            if (fu_is_mm(n)) {
                copy_of[p] = NULL;
                continue;
            }
            TsIrValue *args[3];
            size_t na = ts_node_num_inputs(n);
            for (size_t k = 0; k < na; k++) {
                TsIrValue *v = ts_node_input(n, k);
                long at = index_of(r->inputs, r->n_inputs, v);
                args[k] = NULL;
                for (size_t j = 0; j < n_leaves; j++)
                    if (leaf_of[j] == v)
                        args[k] = ts_node_output(bc, j * (size_t)chunks + (size_t)c);
                if (!args[k] && at >= 0)
                    args[k] = in[at];       /* a number */
                for (size_t q = 0; q < p && !args[k]; q++)
                    if (ts_node_output(r->pre[q], 0) == v && copy_of[q])
                        args[k] = copy_of[q];
                if (!args[k] && is_constant(v)) {
                    TsValue cv;
                    if (ts_constant_value(ts_irvalue_node(v), &cv, err))
                        return -1;
                    args[k] = ts_constant_insert(ts_graph_block(g), NULL, cv, err);
                    ts_value_release(cv);
                    if (!args[k])
                        return -1;
                }
                if (!args[k])
                    return ts_error_set(err, TS_ERR_RUNTIME, "fusion group: a pre-chunk "
                                        "operand defined nowhere");
            }
            TsNode *copy = ts_node_create(g, ts_node_kind(n), args, na, err);
            if (!copy)
                return -1;
            if (ts_block_append(ts_graph_block(g), copy, err)) {
                ts_node_destroy(copy, NULL);
                return -1;
            }
            if (!(copy_of[p] = ts_node_add_output(copy, piece_type, err)))
                return -1;
        }
        /* the chunk's input is the last pre node's result (a product's: a leaf itself) */
        piece[c] = copy_of[r->n_pre - 1];
        for (size_t j = 0; j < n_leaves && !piece[c]; j++)
            if (leaf_of[j] == ts_node_output(r->pre[r->n_pre - 1], 0))
                piece[c] = ts_node_output(bc, j * (size_t)chunks + (size_t)c);
    }
    return 0;
}

TsGraph *fu_group_subgraph(FuGroup *r, TsError *err)
{
    boundary(r);
    TsGraph *g = ts_graph_new(err);
    if (!g)
        return NULL;
    /* sub[i] is the copy of r->nodes[i]'s output; in[i] of r->inputs[i] */
    TsIrValue *in[3 * (FU_MAX_GROUP + FU_MAX_PRE) + 1], *sub[FU_MAX_GROUP];
    TsIrValue *piece[FU_MAX_CHUNKS];
    for (size_t i = 0; i < r->n_inputs; i++)
        if (!(in[i] = ts_graph_add_input(g, NULL, ts_irvalue_type(r->inputs[i]), err)))
            goto fail;
    size_t n_pieces = r->chunk ? ts_node_num_outputs(r->unpack) : 0;
    if (r->chunk && r->n_pre) {
        if (pre_pieces(g, r, in, piece, err))
            goto fail;
    } else if (r->chunk) {
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

int fu_group_replace(TsGraph *g, FuGroup *r, TsGraph *sub, TsError *err)
{
    TsNode *fg = ts_node_create(g, "prim::FusionGroup", r->inputs, r->n_inputs, err);
    if (!fg) {
        ts_graph_free(sub);
        return -1;
    }
    TsNode *first = r->n_pre ? r->pre[0] : r->chunk ? r->chunk : r->nodes[0];
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
    for (size_t i = r->n_pre; i-- > 0;)
        if (ts_node_destroy(r->pre[i], err))
            return -1;
    return 0;
}

int fu_chunk_view(int n, int64_t *sizes, const int64_t *strides, int64_t *offset,
                  int64_t index, int64_t chunks, int64_t dim, TsError *err)
{
    int64_t d = dim;
    if (n == 0)
        return ts_error_set(err, TS_ERR_RUNTIME, "chunk expects at least a 1-dimensional "
                            "tensor");
    if (d < -n || d >= n)
        return ts_error_set(err, TS_ERR_INDEX, "Dimension out of range (expected to be in "
                            "range of [%lld, %lld], but got %lld)", (long long)-n,
                            (long long)(n - 1), (long long)d);
    if (d < 0)
        d += n;
    int64_t size = sizes[d], split = size / chunks + (size % chunks != 0);
    int64_t count = split == 0 ? chunks : size / split + (size % split != 0);
    if (count < 1)
        count = 1;
    if (count != chunks)
        return ts_error_set(err, TS_ERR_VALUE, "Expected %u elements in a list but found %zu",
                            (unsigned)chunks, (size_t)count);
    int64_t start = index * split;
    int64_t len = split == 0 ? 0 : (size - start < split ? size - start : split);
    sizes[d] = len;
    *offset += len ? start * strides[d] : 0;
    return 0;
}

TsTensor *fu_chunk_piece(const TsTensor *t, int64_t index, int64_t chunks, int64_t dim,
                         TsError *err)
{
    int64_t sizes[TS_TENSOR_MAX_DIMS], offset = t->offset;
    memcpy(sizes, t->sizes, (size_t)t->dim * sizeof *sizes);
    if (fu_chunk_view(t->dim, sizes, t->strides, &offset, index, chunks, dim, err))
        return NULL;
    return ts_tensor_new(t->storage, t->dtype, t->dim, sizes, t->strides, offset, err);
}


int fu_bound_subgraph(const TsNodeInfo *node, TsGraph **sub, TsError *err)
{
    if (!node->node)
        return ts_error_set(err, TS_ERR_RUNTIME, "prim::FusionGroup: no node to bind");
    return ts_attr_get_graph(node->node, "Subgraph", sub, err);
}

int fu_check_arity(const TsNodeInfo *node, size_t n_inputs, size_t n_outputs, TsError *err)
{
    if (n_inputs == node->n_inputs && n_outputs == node->n_outputs)
        return 0;
    return ts_error_set(err, TS_ERR_RUNTIME, "prim::FusionGroup: its Subgraph has %zu inputs "
                        "and %zu outputs, the node %zu and %zu", n_inputs, n_outputs,
                        node->n_inputs, node->n_outputs);
}

TsTensor *fu_broadcast_piece(const TsTensor *t, int dim, const int64_t *sizes, int64_t index,
                             int64_t chunks, int64_t chunk_dim, TsError *err)
{
    int64_t strides[TS_TENSOR_MAX_DIMS];
    int off = dim - t->dim;
    if (off < 0 || dim > TS_TENSOR_MAX_DIMS) {
        ts_error_set(err, TS_ERR_RUNTIME, "prim::BroadcastingChunk: a tensor of %d dims does "
                     "not broadcast to %d", t->dim, dim);
        return NULL;
    }
    for (int d = 0; d < dim; d++)
        strides[d] = d < off || t->sizes[d - off] == 1 ? 0 : t->strides[d - off];
    TsTensor *e = ts_tensor_new(t->storage, t->dtype, dim, sizes, strides, t->offset, err);
    if (!e)
        return NULL;
    TsTensor *p = fu_chunk_piece(e, index, chunks, chunk_dim, err);
    ts_tensor_release(e);
    return p;
}
