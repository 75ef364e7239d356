/* arrange.c — views that rearrange or split a tensor, as NumPy names them: broadcast_to,
 * broadcast_tensors, meshgrid, movedim/moveaxis, swapaxes/swapdims (and their in-place
 * forms), atleast_1d/2d/3d, tensor_split and hsplit/vsplit/dsplit.
 *
 * Every result shares self's storage (no data moves); the in-place swaps change self's own
 * sizes and strides. broadcast_to is expand, so its checks and messages are expand's
 * (shape_ops.c), reached through ts_cpu_call_kernel.
 */
#include <stdio.h>
#include <string.h>

#include "shape/shape_ops.h"

/* The most pieces a split makes (each is a tensor object). */
enum { MAX_PIECES = 1 << 20 };

/* Appends view v to l (taking v); on failure releases l and returns NULL. */
static TsList *append(TsList *l, TsTensor *v, TsError *err)
{
    if (!l || !v || ts_list_append(l, ts_obj_value(v, TS_TAG_TENSOR), err)) {
        if (l)
            ts_heap_release(&l->h);
        return NULL;
    }
    return l;
}

/* ---- broadcasting ---------------------------------------------------------------------- */

/* aten::broadcast_to(Tensor(a) self, int[] size) -> Tensor(a): expand(self, size) */
static int k_broadcast_to(TsCall *c)
{
    TsArgs a;
    TsValue r = ts_none();
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (rc)
        return rc;
    TsValue ea[3] = { a.v[0], a.v[1], ts_bool(false) };
    ts_value_retain(ea[0]);     /* expand takes these references */
    ts_value_retain(ea[1]);
    rc = ts_cpu_call_kernel(c, &ts_cpu_shape_ops_table, "aten::expand", "", 3, ea, &r);
    return ts_args_return(&a, rc, r);
}

/* t expanded to sizes, which it is known to broadcast to. */
static TsTensor *expand_to(TsError *err, const TsTensor *t, int dim, const int64_t *sizes)
{
    int64_t strides[TS_TENSOR_MAX_DIMS];
    for (int k = 0; k < dim; k++) {
        int od = k - (dim - t->dim);
        strides[k] = od < 0 || t->sizes[od] != sizes[k] ? 0 : t->strides[od];
    }
    return ts_cpu_view(t, dim, sizes, strides, t->offset, err);
}

/* aten::broadcast_tensors(Tensor[] tensors) -> Tensor[] */
static int k_broadcast_tensors(TsCall *c)
{
    TsArgs a;
    const TsList *in;
    TsList *l = NULL;
    int64_t sizes[TS_TENSOR_MAX_DIMS];
    int dim;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor_list(&a, 0, &in);
    if (!rc && in->len > TS_TENSOR_MAX_DIMS * 16)
        rc = ts_error_set(c->error, TS_ERR_LIMIT, "broadcast_tensors: too many tensors");
    else if (!rc) {
        TsTensor *ts[TS_TENSOR_MAX_DIMS * 16];
        for (size_t i = 0; i < in->len; i++)
            ts[i] = (TsTensor *)in->items[i].u.p;
        if (!ts_aten_broadcast_shape((int)in->len, ts, &dim, sizes, c->error)) {
            l = ts_list_new(ts_type_tensor(), in->len, c->error);
            for (size_t i = 0; l && i < in->len; i++)
                l = append(l, expand_to(c->error, ts[i], dim, sizes), c->error);
        }
    }
    return ts_args_return_list(&a, rc, l);
}

/* meshgrid(Tensor[] tensors[, *, str indexing]): tensor i varies along dim i of the grid
 * (dims 0 and 1 trade places for "xy"). */
static int k_meshgrid(TsCall *c)
{
    TsArgs a;
    const TsList *in;
    TsList *l = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor_list(&a, 0, &in);
    if (rc)
        return ts_args_fail(&a, rc);
    const char *ix = a.n > 1 && a.v[1].tag == TS_TAG_STR ? ((const TsStr *)a.v[1].u.p)->data
                                                         : "ij";
    bool xy = !strcmp(ix, "xy");
    if (!xy && strcmp(ix, "ij"))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "torch.meshgrid: indexing must be one of "
                          "\"xy\" or \"ij\", but received: %s", ix);
    else if (in->len == 0)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "meshgrid expects a non-empty TensorList");
    else if (in->len > TS_TENSOR_MAX_DIMS)
        rc = ts_error_set(c->error, TS_ERR_LIMIT, "meshgrid: more than %d tensors",
                          TS_TENSOR_MAX_DIMS);
    int dim = (int)in->len;
    int64_t sizes[TS_TENSOR_MAX_DIMS];
    for (int i = 0; !rc && i < dim; i++) {
        const TsTensor *t = (const TsTensor *)in->items[i].u.p;
        if (t->dim > 1)
            rc = ts_error_set(c->error, TS_ERR_RUNTIME, "torch.meshgrid: Expected 0D or 1D tensor "
                              "in the tensor list but got a tensor with %d dimensions", t->dim);
        else if (t->dtype != ((const TsTensor *)in->items[0].u.p)->dtype)
            rc = ts_error_set(c->error, TS_ERR_RUNTIME,
                              "meshgrid expects all tensors to have the same dtype");
        else
            sizes[i] = ts_tensor_numel(t);
    }
    bool swap = xy && dim >= 2;
    if (!rc && swap) {
        int64_t s0 = sizes[0];
        sizes[0] = sizes[1];
        sizes[1] = s0;
    }
    if (!rc)
        l = ts_list_new(ts_type_tensor(), in->len, c->error);
    for (int i = 0; l && i < dim; i++) {
        const TsTensor *t = (const TsTensor *)in->items[i].u.p;
        int axis = swap && i < 2 ? 1 - i : i;
        /* PyTorch's view to [1, .., n, .., 1] then expand: size-1 dims keep the view's
         * contiguous strides */
        int64_t strides[TS_TENSOR_MAX_DIMS], step = t->dim ? t->strides[0] : 1, below = 1;
        for (int k = dim - 1; k >= 0; k--) {
            int64_t vsize = k == axis ? sizes[k] : 1;
            strides[k] = k == axis ? step : sizes[k] == 1 ? below * step : 0;
            below *= vsize;
        }
        l = append(l, ts_cpu_view(t, dim, sizes, strides, t->offset, c->error), c->error);
    }
    return ts_args_return_list(&a, rc, l);
}

/* ---- moving dims ------------------------------------------------------------------------ */

/* The permutation movedim makes: dims in src go to dst, the others keep their order. */
static int movedim_perm(TsError *err, const TsTensor *t, int n, const int64_t *src,
                        int nd, const int64_t *dst, int *perm)
{
    char b1[256], b2[256];
    ts_aten_format_sizes(b1, sizeof b1, n, src);
    ts_aten_format_sizes(b2, sizeof b2, nd, dst);
    if (n != nd)
        return ts_error_set(err, TS_ERR_RUNTIME, "movedim: Invalid source or destination dims: "
                            "source (%s dims) should contain the same number of dims as "
                            "destination (%s dims)", b1, b2);
    bool used_src[TS_TENSOR_MAX_DIMS] = { false }, used_dst[TS_TENSOR_MAX_DIMS] = { false };
    int s[TS_TENSOR_MAX_DIMS], d[TS_TENSOR_MAX_DIMS];
    for (int i = 0; i < n; i++)
        if (ts_aten_wrap_dim(src[i], t->dim, true, &s[i], err))
            return err->code;
    for (int i = 0; i < n; i++)
        if (ts_aten_wrap_dim(dst[i], t->dim, true, &d[i], err))
            return err->code;
    int rank = t->dim ? t->dim : 1;
    for (int i = 0; i < n; i++) {
        if (used_src[s[i]])
            return ts_error_set(err, TS_ERR_RUNTIME, "movedim: repeated dim in `source` (%s)", b1);
        used_src[s[i]] = true;
    }
    for (int i = 0; i < n; i++) {
        if (used_dst[d[i]])
            return ts_error_set(err, TS_ERR_RUNTIME, "movedim: repeated dim in `destination` "
                                "(%s)", b2);
        used_dst[d[i]] = true;
    }
    for (int k = 0; k < rank; k++)
        perm[k] = -1;
    for (int i = 0; i < n; i++)
        perm[d[i]] = s[i];
    for (int k = 0, next = 0; k < rank; k++) {
        if (perm[k] >= 0)
            continue;
        while (used_src[next])
            next++;
        perm[k] = next++;
    }
    return 0;
}

/* movedim.intlist(self, int[] source, int[] destination) / movedim.int(self, int, int) */
static int movedim(TsCall *c, bool lists)
{
    TsArgs a;
    int64_t src[TS_TENSOR_MAX_DIMS], dst[TS_TENSOR_MAX_DIMS], sizes[TS_TENSOR_MAX_DIMS],
        strides[TS_TENSOR_MAX_DIMS];
    int n = 1, nd = 1, perm[TS_TENSOR_MAX_DIMS];
    TsTensor *t, *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc && lists) {
        rc = ts_args_int_list(&a, 1, src, &n, TS_TENSOR_MAX_DIMS);
        if (!rc) rc = ts_args_int_list(&a, 2, dst, &nd, TS_TENSOR_MAX_DIMS);
    } else if (!rc) {
        rc = ts_args_int(&a, 1, &src[0]);
        if (!rc) rc = ts_args_int(&a, 2, &dst[0]);
    }
    if (!rc) rc = movedim_perm(c->error, t, n, src, nd, dst, perm);
    if (!rc) {
        for (int k = 0; k < t->dim; k++) {
            sizes[k] = t->sizes[perm[k]];
            strides[k] = t->strides[perm[k]];
        }
        r = ts_cpu_view(t, t->dim, sizes, strides, t->offset, c->error);
    }
    return ts_args_return_tensor(&a, rc, r);
}

/* movedim and moveaxis */
static int k_movedim_intlist(TsCall *c) { return movedim(c, true); }
static int k_movedim_int(TsCall *c) { return movedim(c, false); }

/* swapaxes/swapdims(self, int, int): transpose, as a view or (in place) on self itself. */
static int swap(TsCall *c, bool inplace)
{
    TsArgs a;
    int64_t sizes[TS_TENSOR_MAX_DIMS], strides[TS_TENSOR_MAX_DIMS];
    int d0, d1;
    TsTensor *t;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_dim(&a, 1, t->dim, true, &d0);
    if (!rc) rc = ts_args_dim(&a, 2, t->dim, true, &d1);
    if (rc)
        return ts_args_fail(&a, rc);
    memcpy(sizes, t->sizes, sizeof sizes[0] * (size_t)t->dim);
    memcpy(strides, t->strides, sizeof strides[0] * (size_t)t->dim);
    if (t->dim > 0) {
        sizes[d0] = t->sizes[d1];
        sizes[d1] = t->sizes[d0];
        strides[d0] = t->strides[d1];
        strides[d1] = t->strides[d0];
    }
    if (!inplace)
        return ts_args_return_tensor(&a, 0, ts_cpu_view(t, t->dim, sizes, strides, t->offset,
                                                        c->error));
    rc = ts_tensor_set_shape(t, t->dim, sizes, strides, t->offset, c->error);
    return ts_args_return_arg(&a, rc, 0);
}

/* swapaxes and swapdims, and their in-place forms */
static int k_swapaxes(TsCall *c) { return swap(c, false); }
static int k_swapaxes_(TsCall *c) { return swap(c, true); }

/* ---- atleast_Nd --------------------------------------------------------------------------- */

/* t with at least n (1, 2 or 3) dims, as numpy adds them: [] -> [1]*n, [a] -> [1, a] or
 * [1, a, 1], [a, b] -> [a, b, 1]; new dims take unsqueeze's strides. */
static TsTensor *atleast(TsError *err, const TsTensor *t, int n)
{
    if (t->dim >= n) {
        return ts_cpu_view(t, t->dim, t->sizes, t->strides, t->offset, err);
    }
    int64_t sizes[3], strides[3];
    if (t->dim == 0) {
        for (int k = 0; k < n; k++)
            sizes[k] = strides[k] = 1;
    } else if (t->dim == 1) {
        /* [a] -> [1, a] (and [1, a, 1]) */
        sizes[0] = 1;
        strides[0] = t->sizes[0] * t->strides[0];
        sizes[1] = t->sizes[0];
        strides[1] = t->strides[0];
        sizes[2] = strides[2] = 1;
    } else {
        sizes[0] = t->sizes[0];
        sizes[1] = t->sizes[1];
        strides[0] = t->strides[0];
        strides[1] = t->strides[1];
        sizes[2] = strides[2] = 1;
    }
    return ts_cpu_view(t, n, sizes, strides, t->offset, err);
}

static int atleast_one(TsCall *c, int n)
{
    TsArgs a;
    TsTensor *t;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    return ts_args_return_tensor(&a, rc, rc ? NULL : atleast(c->error, t, n));
}

static int atleast_seq(TsCall *c, int n)
{
    TsArgs a;
    const TsList *in;
    TsList *l = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor_list(&a, 0, &in);
    if (!rc)
        l = ts_list_new(ts_type_tensor(), in->len, c->error);
    for (size_t i = 0; l && i < in->len; i++)
        l = append(l, atleast(c->error, (const TsTensor *)in->items[i].u.p, n), c->error);
    return ts_args_return_list(&a, rc, l);
}

static int k_atleast_1d(TsCall *c) { return atleast_one(c, 1); }
static int k_atleast_2d(TsCall *c) { return atleast_one(c, 2); }
static int k_atleast_3d(TsCall *c) { return atleast_one(c, 3); }
static int k_atleast_1d_seq(TsCall *c) { return atleast_seq(c, 1); }
static int k_atleast_2d_seq(TsCall *c) { return atleast_seq(c, 2); }
static int k_atleast_3d_seq(TsCall *c) { return atleast_seq(c, 3); }

/* ---- tensor_split and [hvd]split ----------------------------------------------------------- */

/* t[start:end] along d, with slice's clamping of the bounds. */
static TsTensor *slice_view(TsError *err, const TsTensor *t, int d, int64_t start, int64_t end)
{
    int64_t size = t->sizes[d];
    if (start < 0)
        start += size;
    if (end < 0)
        end += size;
    start = start < 0 ? 0 : start > size ? size : start;
    end = end < start ? start : end > size ? size : end;
    return ts_cpu_narrow(t, d, start, end - start, 1, err);
}

/* sections pieces of nearly equal size (the first size % sections one longer). */
static TsList *split_sections(TsError *err, const TsTensor *t, int d, int64_t sections)
{
    if (sections <= 0) {
        ts_error_set(err, TS_ERR_RUNTIME, "number of sections must be larger than 0, got %lld",
                     (long long)sections);
        return NULL;
    }
    if (sections > MAX_PIECES) {
        ts_error_set(err, TS_ERR_LIMIT, "tensor_split: more than %d sections", MAX_PIECES);
        return NULL;
    }
    int64_t size = t->sizes[d], each = size / sections, extra = size % sections, start = 0;
    TsList *l = ts_list_new(ts_type_tensor(), (size_t)sections, err);
    for (int64_t i = 0; l && i < sections; i++) {
        int64_t len = each + (i < extra);
        l = append(l, slice_view(err, t, d, start, start + len), err);
        start += len;
    }
    return l;
}

/* The pieces between the given indices. */
static TsList *split_indices(TsError *err, const TsTensor *t, int d, int64_t n,
                             const int64_t *idx)
{
    TsList *l = ts_list_new(ts_type_tensor(), (size_t)n + 1, err);
    int64_t start = 0;
    for (int64_t i = 0; l && i < n; i++) {
        l = append(l, slice_view(err, t, d, start, idx[i]), err);
        start = idx[i];
    }
    return append(l, slice_view(err, t, d, start, t->sizes[d]), err);
}

/* tensor_split(self, int sections | int[] indices | Tensor, int dim=0) */
static int tensor_split(TsCall *c, int form)
{
    enum { SECTIONS, INDICES, TENSOR };
    TsArgs a;
    int64_t sections = 0, idx[1024];
    int d, n = 0;
    TsTensor *t, *it = NULL;
    TsList *l = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc && form == TENSOR) rc = ts_args_tensor(&a, 1, &it);
    if (rc)
        return ts_args_fail(&a, rc);
    if (t->dim == 0)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "tensor_split expected at least a "
                          "1-dimensional tensor, but got a tensor with 0 dims");
    else if ((rc = ts_args_dim(&a, 2, t->dim, false, &d)))
        ;
    else if (form == SECTIONS)
        rc = ts_args_int(&a, 1, &sections);
    else if (form == INDICES)
        rc = ts_args_int_list(&a, 1, idx, &n, 1024);
    else if (it->dtype != TS_INT64)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "tensor_split expected "
                          "tensor_indices_or_sections to have dtype of long, but got %s",
                          ts_dtype_type_name(it->dtype));
    else if (it->dim > 1)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "tensor_split expected "
                          "tensor_indices_or_sections to be a zero-dimensional or one-dimensional "
                          "tensor, but got a tensor with %d dims", it->dim);
    else if (ts_tensor_numel(it) > 1024 && it->dim == 1)
        rc = ts_error_set(c->error, TS_ERR_LIMIT, "tensor_split: more than 1024 indices");
    if (!rc && form == TENSOR) {
        const int64_t *v = (const int64_t *)it->storage->data;
        if (it->dim == 0) {
            sections = v[it->offset];
        } else {
            n = (int)it->sizes[0];
            for (int i = 0; i < n; i++)
                idx[i] = v[it->offset + i * it->strides[0]];
        }
    }
    if (!rc)
        l = form == SECTIONS || (form == TENSOR && it->dim == 0)
                ? split_sections(c->error, t, d, sections)
                : split_indices(c->error, t, d, n, idx);
    return ts_args_return_list(&a, rc, l);
}

static int k_tensor_split_sections(TsCall *c) { return tensor_split(c, 0); }
static int k_tensor_split_indices(TsCall *c) { return tensor_split(c, 1); }
static int k_tensor_split_tensor(TsCall *c) { return tensor_split(c, 2); }

/* hsplit/vsplit/dsplit(self, int sections | int[] indices): tensor_split along dim 1 (0 for
 * 1-d hsplit), 0 or 2, with sections that must divide the dim. */
static int nsplit(TsCall *c, char which, bool indices)
{
    char name[16];
    TsArgs a;
    int64_t sections = 0, idx[1024];
    int n = 0;
    TsTensor *t;
    TsList *l = NULL;
    snprintf(name, sizeof name, "torch.%csplit", which);
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (rc)
        return ts_args_fail(&a, rc);
    int need = which == 'h' ? 1 : which == 'v' ? 2 : 3;
    int d = which == 'h' ? (t->dim == 1 ? 0 : 1) : which == 'v' ? 0 : 2;
    if (t->dim < need)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "%s requires a tensor with at least %d "
                          "dimension, but got a tensor with %d dimensions!", name, need, t->dim);
    else if (indices)
        rc = ts_args_int_list(&a, 1, idx, &n, 1024);
    else if ((rc = ts_args_int(&a, 1, &sections)))
        ;
    else if (sections == 0 || t->sizes[d] % sections != 0)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "%s attempted to split along dimension %d, "
                          "but the size of the dimension %lld is not divisible by the split_size "
                          "%lld!", name, d, (long long)t->sizes[d], (long long)sections);
    if (!rc)
        l = indices ? split_indices(c->error, t, d, n, idx)
                    : split_sections(c->error, t, d, sections);
    return ts_args_return_list(&a, rc, l);
}

static int k_hsplit_int(TsCall *c) { return nsplit(c, 'h', false); }
static int k_hsplit_array(TsCall *c) { return nsplit(c, 'h', true); }
static int k_vsplit_int(TsCall *c) { return nsplit(c, 'v', false); }
static int k_vsplit_array(TsCall *c) { return nsplit(c, 'v', true); }
static int k_dsplit_int(TsCall *c) { return nsplit(c, 'd', false); }
static int k_dsplit_array(TsCall *c) { return nsplit(c, 'd', true); }

static const TsCpuOp ops[] = {
    { "aten::broadcast_to", "", k_broadcast_to },
    { "aten::broadcast_tensors", "", k_broadcast_tensors },
    { "aten::meshgrid", "", k_meshgrid },
    { "aten::meshgrid", "indexing", k_meshgrid },
    { "aten::movedim", "intlist", k_movedim_intlist },
    { "aten::movedim", "int", k_movedim_int },
    { "aten::moveaxis", "intlist", k_movedim_intlist },
    { "aten::moveaxis", "int", k_movedim_int },
    { "aten::swapaxes", "", k_swapaxes },
    { "aten::swapaxes_", "", k_swapaxes_ },
    { "aten::swapdims", "", k_swapaxes },
    { "aten::swapdims_", "", k_swapaxes_ },
    { "aten::atleast_1d", "", k_atleast_1d },
    { "aten::atleast_2d", "", k_atleast_2d },
    { "aten::atleast_3d", "", k_atleast_3d },
    { "aten::atleast_1d", "Sequence", k_atleast_1d_seq },
    { "aten::atleast_2d", "Sequence", k_atleast_2d_seq },
    { "aten::atleast_3d", "Sequence", k_atleast_3d_seq },
    { "aten::tensor_split", "sections", k_tensor_split_sections },
    { "aten::tensor_split", "indices", k_tensor_split_indices },
    { "aten::tensor_split", "tensor_indices_or_sections", k_tensor_split_tensor },
    { "aten::hsplit", "int", k_hsplit_int },
    { "aten::hsplit", "array", k_hsplit_array },
    { "aten::vsplit", "int", k_vsplit_int },
    { "aten::vsplit", "array", k_vsplit_array },
    { "aten::dsplit", "int", k_dsplit_int },
    { "aten::dsplit", "array", k_dsplit_array },
};

const TsCpuTable ts_cpu_arrange_table = { ops, sizeof ops / sizeof ops[0] };
