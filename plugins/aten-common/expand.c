/* expand.c — broadcasting as views: expand, expand_as, broadcast_to (expand under its own
 * name), broadcast_tensors and meshgrid.
 *
 * A broadcast dim is a view dim of stride 0: every index along it reads the same elements,
 * so nothing is copied.
 */
#include <string.h>

#include "views.h"

/* t broadcast to sizes (-1 keeps a dim) as a view with stride 0 on the new dims. */
static TsTensor *expand_view(TsError *err, const TsTensor *t, int n, const int64_t *want)
{
    int64_t sizes[TS_TENSOR_MAX_DIMS], strides[TS_TENSOR_MAX_DIMS];
    char b1[256], b2[256];
    if (n < t->dim) {
        ts_aten_format_sizes(b1, sizeof b1, t->dim, t->sizes);
        ts_aten_format_sizes(b2, sizeof b2, n, want);
        ts_error_set(err, TS_ERR_RUNTIME, "expand(torch.%sTensor{%s}, size=%s): the number of "
                     "sizes provided (%d) must be greater or equal to the number of dimensions "
                     "in the tensor (%d)", ts_dtype_type_name(t->dtype), b1, b2, n, t->dim);
        return NULL;
    }
    for (int k = n - 1; k >= 0; k--) {
        int od = k - (n - t->dim);
        if (od < 0) {
            if (want[k] < 0) {
                ts_error_set(err, TS_ERR_RUNTIME, "The expanded size of the tensor (%lld) isn't "
                             "allowed in a leading, non-existing dimension %d",
                             (long long)want[k], k);
                return NULL;
            }
            sizes[k] = want[k];
            strides[k] = 0;
            continue;
        }
        int64_t have = t->sizes[od], size = want[k] == -1 ? have : want[k];
        if (have != size && have != 1) {
            ts_aten_format_sizes(b1, sizeof b1, n, want);
            ts_aten_format_sizes(b2, sizeof b2, t->dim, t->sizes);
            ts_error_set(err, TS_ERR_RUNTIME, "The expanded size of the tensor (%lld) must match "
                         "the existing size (%lld) at non-singleton dimension %d.  Target sizes: "
                         "%s.  Tensor sizes: %s", (long long)size, (long long)have, k, b1, b2);
            return NULL;
        }
        if (size < 0) {
            ts_error_set(err, TS_ERR_RUNTIME, "Trying to create tensor with negative dimension "
                         "%lld", (long long)size);
            return NULL;
        }
        sizes[k] = size;
        strides[k] = have == size ? t->strides[od] : 0;
    }
    return ts_aten_view(t, n, sizes, strides, t->offset, err);
}

/* aten::expand(Tensor(a) self, SymInt[] size, *, bool implicit=False) -> Tensor(a), and
 * aten::broadcast_to(Tensor(a) self, SymInt[] size) -> Tensor(a) */
int ts_aten_k_expand(TsCall *c)
{
    TsArgs a;
    int64_t want[TS_TENSOR_MAX_DIMS];
    int n;
    TsTensor *t, *r = NULL;
    int rc = ts_args_pop_same_device(c, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_int_list(&a, 1, want, &n, TS_TENSOR_MAX_DIMS);
    if (!rc) r = expand_view(c->error, t, n, want);
    return ts_args_return_tensor(&a, rc, r);
}

/* aten::expand_as(Tensor(a) self, Tensor other) -> Tensor(a) */
int ts_aten_k_expand_as(TsCall *c)
{
    TsArgs a;
    TsTensor *t, *o, *r = NULL;
    int rc = ts_args_pop_same_device(c, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_tensor(&a, 1, &o);
    if (!rc) r = expand_view(c->error, t, o->dim, o->sizes);
    return ts_args_return_tensor(&a, rc, r);
}

/* t expanded to sizes, which it is known to broadcast to. */
static TsTensor *expand_to(TsError *err, const TsTensor *t, int dim, const int64_t *sizes)
{
    int64_t strides[TS_TENSOR_MAX_DIMS];
    for (int k = 0; k < dim; k++) {
        int od = k - (dim - t->dim);
        strides[k] = od < 0 || t->sizes[od] != sizes[k] ? 0 : t->strides[od];
    }
    return ts_aten_view(t, dim, sizes, strides, t->offset, err);
}

/* aten::broadcast_tensors(Tensor[] tensors) -> Tensor[] */
int ts_aten_k_broadcast_tensors(TsCall *c)
{
    TsArgs a;
    const TsList *in;
    TsList *l = NULL;
    int64_t sizes[TS_TENSOR_MAX_DIMS];
    int dim;
    int rc = ts_args_pop_same_device(c, &a);
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
                l = ts_aten_append_view(l, expand_to(c->error, ts[i], dim, sizes), c->error);
        }
    }
    return ts_args_return_list(&a, rc, l);
}

/* meshgrid(Tensor[] tensors[, *, str indexing]): tensor i varies along dim i of the grid
 * (dims 0 and 1 trade places for "xy"). */
int ts_aten_k_meshgrid(TsCall *c)
{
    TsArgs a;
    const TsList *in;
    TsList *l = NULL;
    int rc = ts_args_pop_same_device(c, &a);
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
        l = ts_aten_append_view(l, ts_aten_view(t, dim, sizes, strides, t->offset, c->error),
                                c->error);
    }
    return ts_args_return_list(&a, rc, l);
}
