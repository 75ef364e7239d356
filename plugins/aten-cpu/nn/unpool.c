/* unpool.c — max_unpool2d and max_unpool3d (each input value written back at the position
 * its max pool index names, zeros elsewhere; F.max_unpool1d is max_unpool2d over a trailing
 * size-1 dim), and channel_shuffle / native_channel_shuffle (the channels regrouped as a
 * transpose of groups x channels-per-group).
 */
#include <stdio.h>
#include <string.h>

#include "nn/nn.h"

/* The unpooling of x (n-d spatial, optional batch) by indices ix into planes of `out`
 * spatial sizes; kind names the op in its messages. */
static TsTensor *unpool(TsCall *c, TsTensor *x, TsTensor *ix, int nsp, const int64_t *out)
{
    int batched = x->dim == nsp + 2;
    int64_t sizes[TS_TENSOR_MAX_DIMS], plane = 1, in_plane = 1;
    for (int i = 0; i < x->dim - nsp; i++)
        sizes[i] = x->sizes[i];
    for (int i = 0; i < nsp; i++) {
        sizes[x->dim - nsp + i] = out[i];
        plane *= out[i];
        in_plane *= x->sizes[x->dim - nsp + i];
    }
    int64_t planes = (batched ? x->sizes[0] : 1) * x->sizes[batched];
    TsTensor *xc = ts_nn_contiguous(x, c->error), *ic = NULL, *o = NULL;
    if (xc && (ic = ts_nn_contiguous(ix, c->error)) &&
        (o = ts_cpu_empty(x->dtype, x->dim, sizes, c->error))) {
        size_t es = ts_dtype_size(x->dtype);
        memset(ts_tensor_data(o), 0, (size_t)(planes * plane) * es);
        const char *xp = ts_tensor_data(xc);
        char *op = ts_tensor_data(o);
        const int64_t *ip = ts_tensor_data(ic);
        for (int64_t pl = 0; pl < planes && o; pl++)
            for (int64_t k = 0; k < in_plane; k++) {
                int64_t at = ip[pl * in_plane + k];
                if (at < 0 || at >= plane) {
                    char sz[64];
                    if (nsp == 2)
                        snprintf(sz, sizeof sz, "%lldx%lld", (long long)out[0], (long long)out[1]);
                    else
                        snprintf(sz, sizeof sz, "%lldx%lldx%lld", (long long)out[0],
                                 (long long)out[1], (long long)out[2]);
                    ts_error_set(c->error, TS_ERR_RUNTIME, "Found an invalid max index: %lld "
                                 "(output volumes are of size %s", (long long)at, sz);
                    ts_tensor_release(o);
                    o = NULL;
                    break;
                }
                memcpy(op + (size_t)(pl * plane + at) * es, xp + (size_t)(pl * in_plane + k) * es,
                       es);
            }
    }
    if (xc) ts_tensor_release(xc);
    if (ic) ts_tensor_release(ic);
    return o;
}

/* The checks both unpools make of x and its indices. */
static int check_unpool(TsCall *c, const TsTensor *x, const TsTensor *ix, int nsp,
                        const char *name, const char *fwd)
{
    if (ix->dtype != TS_INT64)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "elements in indices should be type int64 "
                            "but got: %s", ts_dtype_type_name(ix->dtype));
    if (x->dim != nsp + 1 && x->dim != nsp + 2)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "Input to %s should be a %dd or %dd "
                            "Tensor, but got a tensor with %d dimensions.", name, nsp + 1,
                            nsp + 2, x->dim);
    char s1[256], s2[256];
    ts_aten_format_sizes(s1, sizeof s1, x->dim, x->sizes);
    if (!ts_aten_same_shape(ix, x->dim, x->sizes)) {
        ts_aten_format_sizes(s2, sizeof s2, ix->dim, ix->sizes);
        return ts_error_set(c->error, TS_ERR_RUNTIME, "Expected shape of indices to be same as "
                            "that of the input tensor (%s) but got indices tensor with shape: %s",
                            s1, s2);
    }
    for (int i = 1; i < x->dim; i++)
        if (x->sizes[i] <= 0)
            return ts_error_set(c->error, TS_ERR_RUNTIME, "%s(): Expected input to have non-zero "
                                "size for non-batch dimensions, but got %s with dimension %d "
                                "being empty.", fwd, s1, i);
    return 0;
}

/* aten::max_unpool2d(Tensor self, Tensor indices, int[2] output_size) -> Tensor */
static int k_max_unpool2d(TsCall *c)
{
    TsArgs a;
    TsTensor *x, *ix, *o = NULL;
    int64_t out[TS_TENSOR_MAX_DIMS];
    int n;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x);
    if (!rc) rc = ts_args_tensor(&a, 1, &ix);
    if (!rc) rc = ts_args_int_list(&a, 2, out, &n, TS_TENSOR_MAX_DIMS);
    if (!rc && ix->dtype != TS_INT64)
        rc = check_unpool(c, x, ix, 2, "", "");
    if (!rc && n != 2)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "There should be exactly two elements "
                          "(height, width) in output_size, but got %d elements.", n);
    if (!rc) rc = check_unpool(c, x, ix, 2, "max_unpooling2d", "max_unpooling2d_forward_out_cpu");
    if (!rc && !(o = unpool(c, x, ix, 2, out)))
        rc = (int)c->error->code;
    return ts_args_return_tensor(&a, rc, o);
}

/* aten::max_unpool3d(Tensor self, Tensor indices, int[3] output_size, int[3] stride,
 *     int[3] padding) -> Tensor */
static int k_max_unpool3d(TsCall *c)
{
    TsArgs a;
    TsTensor *x, *ix, *o = NULL;
    int64_t out[TS_TENSOR_MAX_DIMS], st[TS_TENSOR_MAX_DIMS], pad[TS_TENSOR_MAX_DIMS];
    int n, ns, np;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x);
    if (!rc) rc = ts_args_tensor(&a, 1, &ix);
    if (!rc) rc = ts_args_int_list(&a, 2, out, &n, TS_TENSOR_MAX_DIMS);
    if (!rc) rc = ts_args_int_list(&a, 3, st, &ns, TS_TENSOR_MAX_DIMS);
    if (!rc) rc = ts_args_int_list(&a, 4, pad, &np, TS_TENSOR_MAX_DIMS);
    if (!rc && ix->dtype != TS_INT64)
        rc = check_unpool(c, x, ix, 3, "", "");
    if (!rc && x->dim != 4 && x->dim != 5)
        rc = check_unpool(c, x, ix, 3, "max_unpooling3d", "");
    if (!rc && n != 3)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "There should be exactly three elements "
                          "(depth, height, width) in output_size, but got: %d elements.", n);
    if (!rc && ns != 3)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "There should be exactly three elements "
                          "(depth, height, width) in stride, but got: %d elements.", ns);
    if (!rc && np != 3)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "There should be exactly three elements "
                          "(depth, height, width) in padding, but got: %d elements.", np);
    if (!rc && (st[0] <= 0 || st[1] <= 0 || st[2] <= 0))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "strides should be greater than zero, but "
                          "got stride: [%lld, %lld, %lld]", (long long)st[0], (long long)st[1],
                          (long long)st[2]);
    if (!rc) rc = check_unpool(c, x, ix, 3, "max_unpooling3d", "max_unpooling3d_forward_out_cpu");
    if (!rc && !(o = unpool(c, x, ix, 3, out)))
        rc = (int)c->error->code;
    return ts_args_return_tensor(&a, rc, o);
}

/* ---- channel shuffle ------------------------------------------------------------------- */

/* channel_shuffle(Tensor self, int groups) and native_channel_shuffle: the channels (dim 1)
 * seen as groups x (C / groups), transposed. */
static int k_channel_shuffle(TsCall *c)
{
    TsArgs a;
    TsTensor *x, *o = NULL;
    int64_t g;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x);
    if (!rc) rc = ts_args_int(&a, 1, &g);
    if (!rc && x->dim <= 2) {
        char s[256];
        ts_aten_format_sizes(s, sizeof s, x->dim, x->sizes);
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "channel_shuffle expects input with > 2 "
                          "dims, but got input with sizes %s", s);
    }
    if (!rc && g <= 0)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Number of groups to divide channels in "
                          "must be positive. Value of groups:%lld", (long long)g);
    if (!rc && x->sizes[1] % g != 0)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Number of channels must be divisible by "
                          "groups. Got %lld channels and %lld groups.", (long long)x->sizes[1],
                          (long long)g);
    if (!rc) {
        /* the view (N, C/g, g, ...) whose strides walk the input's groups, copied */
        int64_t sizes[TS_TENSOR_MAX_DIMS + 1], strides[TS_TENSOR_MAX_DIMS + 1];
        int64_t per = x->sizes[1] / g;
        sizes[0] = x->sizes[0];
        strides[0] = x->strides[0];
        sizes[1] = per;
        strides[1] = x->strides[1];
        sizes[2] = g;
        strides[2] = x->strides[1] * per;
        for (int i = 2; i < x->dim; i++) {
            sizes[i + 1] = x->sizes[i];
            strides[i + 1] = x->strides[i];
        }
        TsTensor *v = NULL, *copy = NULL;
        if (x->dim + 1 <= TS_TENSOR_MAX_DIMS &&
            (v = ts_aten_view(x, x->dim + 1, sizes, strides, x->offset, c->error)) &&
            (copy = ts_cpu_cast(v, x->dtype, c->error)))
            o = ts_aten_view(copy, x->dim, x->sizes, NULL, 0, c->error);
        if (v) ts_tensor_release(v);
        if (copy) ts_tensor_release(copy);
        if (!o)
            rc = c->error->code ? (int)c->error->code
                                : ts_error_set(c->error, TS_ERR_RUNTIME, "too many dimensions");
    }
    return ts_args_return_tensor(&a, rc, o);
}

static const TsCpuOp ops[] = {
    { "aten::max_unpool2d", "", k_max_unpool2d },
    { "aten::max_unpool3d", "", k_max_unpool3d },
    { "aten::channel_shuffle", "", k_channel_shuffle },
    { "aten::native_channel_shuffle", "", k_channel_shuffle },
};

const TsCpuTable ts_cpu_unpool_table = { ops, sizeof ops / sizeof ops[0] };
