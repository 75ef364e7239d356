/* reshape.c — new sizes over the same elements: view, view_as, reshape, reshape_as, flatten,
 * unflatten and ravel.
 *
 * view fails where no strides can express the new sizes over the old memory; reshape and
 * flatten then copy, which only the backend can do: the copy comes from the hook the backend
 * set (ts_aten_set_backend), so these kernels stay the same on every device.
 */
#include <string.h>

#include "views.h"

/* A view of t with sizes (one -1 inferred), or with copy_if_needed a reshaped copy when no
 * view exists; NULL with view's errors. */
static TsTensor *view_as_sizes(TsCall *c, const TsTensor *t, int dim, int64_t *sizes,
                               bool copy_if_needed)
{
    int64_t strides[TS_TENSOR_MAX_DIMS];
    if (ts_aten_infer_size(c->error, ts_tensor_numel(t), dim, sizes))
        return NULL;
    if (ts_aten_view_strides(t, dim, sizes, strides))
        return ts_aten_view(t, dim, sizes, strides, t->offset, c->error);
    if (!copy_if_needed) {
        ts_error_set(c->error, TS_ERR_RUNTIME, "view size is not compatible with input tensor's "
                     "size and stride (at least one dimension spans across two contiguous "
                     "subspaces). Use .reshape(...) instead.");
        return NULL;
    }
    TsTensor *copy = ts_aten_backend_copy(c, t);
    if (copy && ts_tensor_set_shape(copy, dim, sizes, NULL, 0, c->error)) {
        ts_tensor_release(copy);
        return NULL;
    }
    return copy;
}

/* Kernels of the form (Tensor self, int[] size): view and reshape. */
static int view_kernel(TsCall *c, bool reshape)
{
    TsArgs a;
    int64_t sizes[TS_TENSOR_MAX_DIMS];
    int dim;
    TsTensor *t, *r = NULL;
    int rc = ts_args_pop_same_device(c, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_int_list(&a, 1, sizes, &dim, TS_TENSOR_MAX_DIMS);
    if (!rc) r = view_as_sizes(c, t, dim, sizes, reshape);
    return ts_args_return_tensor(&a, rc, r);
}

/* aten::view(Tensor(a) self, SymInt[] size) -> Tensor(a) */
int ts_aten_k_view(TsCall *c) { return view_kernel(c, false); }
/* aten::reshape(Tensor(a) self, SymInt[] shape) -> Tensor(a) */
int ts_aten_k_reshape(TsCall *c) { return view_kernel(c, true); }

/* aten::ravel(Tensor(a) self) -> Tensor(a): reshape(-1) */
int ts_aten_k_ravel(TsCall *c)
{
    TsArgs a;
    int64_t all = -1;
    TsTensor *t, *r = NULL;
    int rc = ts_args_pop_same_device(c, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) r = view_as_sizes(c, t, 1, &all, true);
    return ts_args_return_tensor(&a, rc, r);
}

/* view_as and reshape_as: (Tensor(a) self, Tensor other) -> Tensor(a) */
static int as_kernel(TsCall *c, bool reshape)
{
    TsArgs a;
    int64_t sizes[TS_TENSOR_MAX_DIMS];
    TsTensor *t, *o, *r = NULL;
    int rc = ts_args_pop_same_device(c, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_tensor(&a, 1, &o);
    if (!rc) {
        memcpy(sizes, o->sizes, sizeof sizes[0] * (size_t)o->dim);
        r = view_as_sizes(c, t, o->dim, sizes, reshape);
    }
    return ts_args_return_tensor(&a, rc, r);
}

int ts_aten_k_view_as(TsCall *c) { return as_kernel(c, false); }
int ts_aten_k_reshape_as(TsCall *c) { return as_kernel(c, true); }

/* aten::flatten.using_ints(Tensor(a) self, int start_dim=0, int end_dim=-1) -> Tensor(a) */
int ts_aten_k_flatten(TsCall *c)
{
    TsArgs a;
    int64_t sizes[TS_TENSOR_MAX_DIMS];
    int start, end;
    TsTensor *t, *r = NULL;
    int rc = ts_args_pop_same_device(c, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_dim(&a, 1, t->dim, true, &start);
    if (!rc) rc = ts_args_dim(&a, 2, t->dim, true, &end);
    if (!rc && start > end)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME,
                          "flatten() has invalid args: start_dim cannot come after end_dim");
    if (rc)
        return ts_args_fail(&a, rc);
    if (t->dim == 0) {
        sizes[0] = 1;
        r = view_as_sizes(c, t, 1, sizes, true);
    } else if (start == end) {
        r = ts_aten_view(t, t->dim, t->sizes, t->strides, t->offset, c->error);
    } else {
        int n = 0;
        for (int d = 0; d < start; d++)
            sizes[n++] = t->sizes[d];
        sizes[n] = 1;
        for (int d = start; d <= end; d++)
            sizes[n] *= t->sizes[d];
        n++;
        for (int d = end + 1; d < t->dim; d++)
            sizes[n++] = t->sizes[d];
        r = view_as_sizes(c, t, n, sizes, true);
    }
    return ts_args_return_tensor(&a, 0, r);
}

/* aten::unflatten.int(Tensor(a) self, int dim, int[] sizes) -> Tensor(a) */
int ts_aten_k_unflatten(TsCall *c)
{
    TsArgs a;
    int64_t parts[TS_TENSOR_MAX_DIMS], sizes[TS_TENSOR_MAX_DIMS];
    int d, np;
    TsTensor *t, *r = NULL;
    int rc = ts_args_pop_same_device(c, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_int_list(&a, 2, parts, &np, TS_TENSOR_MAX_DIMS);
    if (!rc) rc = ts_args_dim(&a, 1, t->dim, true, &d);
    if (!rc && np == 0)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "unflatten: sizes must be non-empty");
    else if (!rc && t->dim + np - 1 > TS_TENSOR_MAX_DIMS)
        rc = ts_error_set(c->error, TS_ERR_LIMIT, "unflatten: more than %d dimensions",
                          TS_TENSOR_MAX_DIMS);
    if (rc)
        return ts_args_fail(&a, rc);
    int64_t dsize = t->dim ? t->sizes[d] : 1;
    TsError sub = TS_ERROR_INIT;
    if (ts_aten_infer_size(&sub, dsize, np, parts)) {
        char buf[256];
        ts_aten_format_sizes(buf, sizeof buf, np, parts);
        ts_error_clear(&sub);
        return ts_args_fail(&a, ts_error_set(c->error, TS_ERR_RUNTIME, "unflatten: Provided "
                                             "sizes %s don't multiply up to the size of dim %d "
                                             "(%lld) in the input tensor", buf, d,
                                             (long long)dsize));
    }
    int n = 0;
    for (int k = 0; k < d; k++)
        sizes[n++] = t->sizes[k];
    for (int k = 0; k < np; k++)
        sizes[n++] = parts[k];
    for (int k = d + 1; k < t->dim; k++)
        sizes[n++] = t->sizes[k];
    r = view_as_sizes(c, t, n, sizes, false);
    return ts_args_return_tensor(&a, 0, r);
}
