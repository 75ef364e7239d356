/* norm.c — normalization: batch_norm (eval with running stats, or training with batch stats
 * and the running-stat update), instance_norm (batch_norm over one image and channel at a
 * time), layer_norm and group_norm.
 *
 * All three compute y = (x - mean) / sqrt(var + eps) * weight + bias with the biased
 * variance; they differ in which elements share a mean (a channel across the batch; the
 * trailing normalized_shape; a group of channels of one image) and which share a weight (a
 * channel; a position in normalized_shape; a channel). Statistics are taken in two passes in
 * double over a contiguous copy of the input. Training batch_norm moves running_mean and
 * running_var in place by momentum, the variance unbiased (n / (n - 1)) as PyTorch does.
 * bfloat16 inputs go through float32 and come back rounded. The arguments are checked by
 * aten-common's norm_check.c, as aten-cuda's norm.c checks them.
 */
#include <math.h>
#include <string.h>

#include "nn/nn.h"
#include "vmath.h"

/* Element i of a 1-d tensor t (any dtype and stride) as a double; 1 or 0 when t is NULL. */
static double vec_at(const TsTensor *t, int64_t i, double def)
{
    if (!t)
        return def;
    const char *p = ts_tensor_data(t);
    return ts_cpu_load_double(t->dtype, p + i * t->strides[0] * (int64_t)ts_dtype_size(t->dtype));
}

static void vec_put(TsTensor *t, int64_t i, double v)
{
    char *p = (char *)ts_tensor_data(t) + i * t->strides[0] * (int64_t)ts_dtype_size(t->dtype);
    ts_cpu_store_double(t->dtype, p, v);
}

/* bfloat16 inputs are normalized in float32 and the result rounded back, as PyTorch's CPU
 * kernels compute them in float: x itself (retained) for other dtypes. */
static TsTensor *float_input(TsTensor *x, TsError *err)
{
    if (x->dtype == TS_BFLOAT16)
        return ts_cpu_cast(x, TS_FLOAT32, err);
    ts_tensor_retain(x);
    return x;
}

/* o (taken) in dtype; releases xf. */
static TsTensor *result_as(TsTensor *o, int dtype, TsTensor *xf, TsError *err)
{
    if (xf)
        ts_tensor_release(xf);
    if (!o || o->dtype == dtype)
        return o;
    TsTensor *r = ts_cpu_cast(o, dtype, err);
    ts_tensor_release(o);
    return r;
}

/* ---- batch_norm ------------------------------------------------------------------------ */

/* out = x * alpha + beta over n floats: batch norm's per-channel transform, with alpha and
 * beta folded from the statistics once, in float as PyTorch's vectorized loop does it. */
TS_VM_VECTORIZE static void affine_f32(const float *x, float *out, int64_t n, float alpha,
                                       float beta)
{
    for (int64_t j = 0; j < n; j++)
        out[j] = x[j] * alpha + beta;
}

static TsTensor *batch_norm(TsCall *c, TsTensor *x, TsTensor *const *v, bool training,
                            double momentum, double eps)
{
    /* float16, which PyTorch's cpu kernels lack (bfloat16 is float here by now) */
    if (ts_aten_check_batch_norm(x, v, training, c->error) ||
        ts_nn_check_float(c, "batch_norm", x))
        return NULL;
    TsTensor *cx = ts_nn_contiguous(x, c->error);
    TsTensor *o = cx ? ts_cpu_empty(x->dtype, x->dim, x->sizes, c->error) : NULL;
    if (!o) {
        if (cx)
            ts_tensor_release(cx);
        return NULL;
    }
    int64_t n = x->sizes[0], ch = x->sizes[1], inner = 1;
    for (int d = 2; d < x->dim; d++)
        inner *= x->sizes[d];
    int64_t count = n * inner;
    const void *in = ts_tensor_data(cx);
    void *out = ts_tensor_data(o);
    int dt = x->dtype;
    for (int64_t k = 0; k < ch; k++) {
        double mean, var;
        if (training) {
            double s = 0, q = 0;
            for (int64_t i = 0; i < n; i++)
                for (int64_t j = 0; j < inner; j++)
                    s += ts_nn_get(dt, in, (i * ch + k) * inner + j);
            mean = count ? s / (double)count : NAN;
            for (int64_t i = 0; i < n; i++)
                for (int64_t j = 0; j < inner; j++) {
                    double e = ts_nn_get(dt, in, (i * ch + k) * inner + j) - mean;
                    q += e * e;
                }
            var = count ? q / (double)count : NAN;
            if (v[2])
                vec_put(v[2], k, (1 - momentum) * vec_at(v[2], k, 0) + momentum * mean);
            if (v[3])
                vec_put(v[3], k, (1 - momentum) * vec_at(v[3], k, 0) +
                                 momentum * q / (double)(count - 1));
        } else {
            mean = vec_at(v[2], k, 0);
            var = vec_at(v[3], k, 1);
        }
        double scale = vec_at(v[0], k, 1) / sqrt(var + eps), shift = vec_at(v[1], k, 0);
        for (int64_t i = 0; i < n; i++) {
            int64_t e = (i * ch + k) * inner;
            if (dt == TS_FLOAT32)
                affine_f32((const float *)in + e, (float *)out + e, inner, (float)scale,
                           (float)(shift - mean * scale));
            else
                for (int64_t j = 0; j < inner; j++)
                    ts_nn_set(dt, out, e + j, (ts_nn_get(dt, in, e + j) - mean) * scale + shift);
        }
    }
    ts_tensor_release(cx);
    return o;
}

/* aten::batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean,
 *   Tensor? running_var, bool training, float momentum, float eps, bool cudnn_enabled) */
static int k_batch_norm(TsCall *c)
{
    TsArgs args;
    TsValue *a = args.v;
    TsTensor *v[4] = { NULL }, *o = NULL;
    if (ts_args_pop(c, TS_DEV_CPU, &args))
        return (int)c->error->code;
    TsTensor *x = ts_nn_tensor(&args, 0);
    int rc = x ? 0 : (int)c->error->code;
    for (int i = 0; i < 4 && !rc; i++)
        rc = ts_args_opt_tensor(&args, 1 + i, &v[i]);
    TsTensor *xf = rc ? NULL : float_input(x, c->error);
    if (xf)
        o = batch_norm(c, xf, v, a[5].tag == TS_TAG_BOOL && a[5].u.b, ts_nn_double(a[6]),
                       ts_nn_double(a[7]));
    return ts_args_return_tensor(&args, 0, x ? result_as(o, x->dtype, xf, c->error) : NULL);
}

/* ---- instance_norm ------------------------------------------------------------------------ */

/* t (1-d or 0-d) repeated times times, as t.repeat(times): a new contiguous 1-d tensor; NULL
 * in, NULL out. */
static TsTensor *repeat_vec(const TsTensor *t, int64_t times, TsError *err, bool *failed)
{
    if (!t)
        return NULL;
    TsTensor *ct = ts_cpu_cast(t, t->dtype, err);
    int64_t n = ct ? ts_tensor_numel(ct) : 0, size = n * times;
    TsTensor *r = ct ? ts_cpu_empty(t->dtype, 1, &size, err) : NULL;
    if (r) {
        size_t bytes = (size_t)n * ts_dtype_size(t->dtype);
        for (int64_t i = 0; i < times; i++)
            memcpy((char *)ts_tensor_data(r) + (size_t)i * bytes, ts_tensor_data(ct), bytes);
    }
    if (ct)
        ts_tensor_release(ct);
    if (!r)
        *failed = true;
    return r;
}

/* Instance norm is batch norm over (1, N * C, ...) with the per-channel tensors repeated N
 * times; the running statistics come back as the mean over the batch of the N copies, which
 * is what PyTorch computes (in eval mode they come back unchanged up to rounding). */
static TsTensor *instance_norm(TsCall *c, TsTensor *x, TsTensor *const *v, bool use_stats,
                               double momentum, double eps)
{
    TsError *err = c->error;
    if (!use_stats && !(v[2] && v[3])) {
        ts_error_set(err, TS_ERR_RUNTIME, "Expected running_mean and running_var to be defined "
                     "when use_input_stats is false");
        return NULL;
    }
    if (x->dim < 2) {
        if (x->dim == 0)
            ts_error_set(err, TS_ERR_INDEX, "Dimension specified as 0 but tensor has no "
                         "dimensions");
        else
            ts_error_set(err, TS_ERR_INDEX, "Dimension out of range (expected to be in range of "
                         "[-1, 0], but got 1)");
        return NULL;
    }
    for (int i = 0; i < 4; i++)
        if (v[i] && v[i]->dim > 1) {
            ts_error_set(err, TS_ERR_RUNTIME, "Number of dimensions of repeat dims can not be "
                         "smaller than number of dimensions of tensor");
            return NULL;
        }
    int64_t b = x->sizes[0], ch = x->sizes[1];
    bool failed = false;
    TsTensor *rv[4], *o = NULL;
    for (int i = 0; i < 4; i++)
        rv[i] = repeat_vec(v[i], b, err, &failed);
    TsTensor *cx = failed ? NULL : ts_nn_contiguous(x, err);
    int64_t sizes[TS_TENSOR_MAX_DIMS], strides[TS_TENSOR_MAX_DIMS];
    memcpy(sizes, x->sizes, sizeof(int64_t) * (size_t)x->dim);
    sizes[0] = 1;
    sizes[1] = b * ch;
    ts_contiguous_strides(x->dim, sizes, strides);
    TsTensor *flat = cx ? ts_aten_view(cx, x->dim, sizes, strides, cx->offset, err) : NULL;
    TsTensor *y = flat ? batch_norm(c, flat, rv, use_stats, momentum, eps) : NULL;
    if (y) {
        ts_contiguous_strides(x->dim, x->sizes, strides);
        o = ts_aten_view(y, x->dim, x->sizes, strides, 0, err);
        ts_tensor_release(y);
    }
    for (int i = 2; o && i < 4; i++)
        for (int64_t k = 0; v[i] && k < ch; k++) {
            double s = 0;
            for (int64_t j = 0; j < b; j++)
                s += vec_at(rv[i], j * ch + k, 0);
            vec_put(v[i], k, s / (double)b);
        }
    for (int i = 0; i < 4; i++)
        if (rv[i])
            ts_tensor_release(rv[i]);
    if (flat)
        ts_tensor_release(flat);
    if (cx)
        ts_tensor_release(cx);
    return o;
}

/* aten::instance_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean,
 *   Tensor? running_var, bool use_input_stats, float momentum, float eps,
 *   bool cudnn_enabled) -> Tensor */
static int k_instance_norm(TsCall *c)
{
    TsArgs args;
    TsValue *a = args.v;
    TsTensor *v[4] = { NULL }, *o = NULL;
    if (ts_args_pop(c, TS_DEV_CPU, &args))
        return (int)c->error->code;
    TsTensor *x = ts_nn_tensor(&args, 0);
    int rc = x ? 0 : (int)c->error->code;
    for (int i = 0; i < 4 && !rc; i++)
        rc = ts_args_opt_tensor(&args, 1 + i, &v[i]);
    TsTensor *xf = rc ? NULL : float_input(x, c->error);
    if (xf)
        o = instance_norm(c, xf, v, a[5].tag == TS_TAG_BOOL && a[5].u.b, ts_nn_double(a[6]),
                          ts_nn_double(a[7]));
    return ts_args_return_tensor(&args, 0, x ? result_as(o, x->dtype, xf, c->error) : NULL);
}

/* ---- layer_norm and group_norm ------------------------------------------------------------ */

/* Normalizes rows of len elements of the contiguous in into out; element e of a row gets
 * weight/bias index (row % per) * len / div + e / div, so one index per `div` elements. */
static void norm_rows(int dt, const void *in, void *out, int64_t rows, int64_t len, double eps,
                      const TsTensor *w, const TsTensor *b, int64_t per, int64_t div)
{
    for (int64_t r = 0; r < rows; r++) {
        int64_t base = r * len;
        double s = 0, q = 0;
        for (int64_t e = 0; e < len; e++)
            s += ts_nn_get(dt, in, base + e);
        double mean = len ? s / (double)len : NAN;
        for (int64_t e = 0; e < len; e++) {
            double d = ts_nn_get(dt, in, base + e) - mean;
            q += d * d;
        }
        double rstd = 1 / sqrt((len ? q / (double)len : NAN) + eps);
        int64_t first = (r % per) * (len / div);
        for (int64_t e = 0; e < len; e++) {
            int64_t k = first + e / div;
            double y = (ts_nn_get(dt, in, base + e) - mean) * rstd;
            ts_nn_set(dt, out, base + e, y * vec_at(w, k, 1) + vec_at(b, k, 0));
        }
    }
}

/* The contiguous input and a new output of its shape. */
static TsTensor *prepare(TsError *err, TsTensor *x, TsTensor **cx)
{
    *cx = ts_nn_contiguous(x, err);
    TsTensor *o = *cx ? ts_cpu_empty(x->dtype, x->dim, x->sizes, err) : NULL;
    if (*cx && !o)
        ts_tensor_release(*cx);
    return o;
}

static TsTensor *layer_norm(TsCall *c, TsTensor *x, int nd, const int64_t *ns, TsTensor *w,
                            TsTensor *b, double eps)
{
    if (ts_aten_check_layer_norm(x, nd, ns, w, b, c->error) ||
        ts_nn_check_float(c, "LayerNormKernelImpl", x))
        return NULL;
    TsTensor *cw = w ? ts_nn_contiguous(w, c->error) : NULL;
    TsTensor *cb = b ? ts_nn_contiguous(b, c->error) : NULL;
    TsTensor *cx = NULL, *o = (!w || cw) && (!b || cb) ? prepare(c->error, x, &cx) : NULL;
    if (o) {
        int64_t len = 1;
        for (int i = 0; i < nd; i++)
            len *= ns[i];
        int64_t rows = len ? ts_tensor_numel(x) / len : 0;
        /* the contiguous weight read as 1-d: one index per element of the row */
        TsTensor *fw = NULL, *fb = NULL;
        int64_t flat[1] = { len };
        if (cw)
            fw = ts_aten_view(cw, 1, flat, NULL, cw->offset, c->error);
        if (cb)
            fb = ts_aten_view(cb, 1, flat, NULL, cb->offset, c->error);
        if ((!cw || fw) && (!cb || fb))
            norm_rows(x->dtype, ts_tensor_data(cx), ts_tensor_data(o), rows, len, eps, fw, fb,
                      1, 1);
        else {
            ts_tensor_release(o);
            o = NULL;
        }
        if (fw)
            ts_tensor_release(fw);
        if (fb)
            ts_tensor_release(fb);
        ts_tensor_release(cx);
    }
    if (cw)
        ts_tensor_release(cw);
    if (cb)
        ts_tensor_release(cb);
    return o;
}

/* aten::layer_norm(Tensor input, int[] normalized_shape, Tensor? weight=None,
 *   Tensor? bias=None, float eps=1e-05, bool cudnn_enable=True) -> Tensor */
static int k_layer_norm(TsCall *c)
{
    TsArgs args;
    TsValue *a = args.v;
    TsTensor *w = NULL, *b = NULL, *o = NULL;
    int64_t ns[TS_TENSOR_MAX_DIMS];
    int nd = 0;
    if (ts_args_pop(c, TS_DEV_CPU, &args))
        return (int)c->error->code;
    TsTensor *x = ts_nn_tensor(&args, 0);
    TsTensor *xf = NULL;
    if (x && !ts_nn_int_vec(&args, 1, TS_TENSOR_MAX_DIMS, ns, &nd) &&
        !ts_args_opt_tensor(&args, 2, &w) && !ts_args_opt_tensor(&args, 3, &b) &&
        (xf = float_input(x, c->error)))
        o = layer_norm(c, xf, nd, ns, w, b, ts_nn_double(a[4]));
    return ts_args_return_tensor(&args, 0, x ? result_as(o, x->dtype, xf, c->error) : NULL);
}

static TsTensor *group_norm(TsCall *c, TsTensor *x, int64_t groups, TsTensor *w, TsTensor *b,
                            double eps)
{
    if (ts_aten_check_group_norm(x, groups, w, b, c->error) ||
        ts_nn_check_float(c, "GroupNormKernelImpl", x))
        return NULL;
    int64_t ch = x->sizes[1];
    TsTensor *cx, *o = prepare(c->error, x, &cx);
    if (!o)
        return NULL;
    int64_t inner = 1;
    for (int d = 2; d < x->dim; d++)
        inner *= x->sizes[d];
    int64_t len = ch / groups * inner;
    norm_rows(x->dtype, ts_tensor_data(cx), ts_tensor_data(o), x->sizes[0] * groups, len, eps,
              w, b, groups, inner ? inner : 1);
    ts_tensor_release(cx);
    return o;
}

/* aten::group_norm(Tensor input, int num_groups, Tensor? weight=None, Tensor? bias=None,
 *   float eps=1e-05, bool cudnn_enabled=True) -> Tensor */
static int k_group_norm(TsCall *c)
{
    TsArgs args;
    TsValue *a = args.v;
    TsTensor *w = NULL, *b = NULL, *o = NULL;
    if (ts_args_pop(c, TS_DEV_CPU, &args))
        return (int)c->error->code;
    TsTensor *x = ts_nn_tensor(&args, 0);
    TsTensor *xf = NULL;
    if (x && !ts_args_opt_tensor(&args, 2, &w) && !ts_args_opt_tensor(&args, 3, &b) &&
        (xf = float_input(x, c->error)))
        o = group_norm(c, xf, ts_nn_int(a[1]), w, b, ts_nn_double(a[4]));
    return ts_args_return_tensor(&args, 0, x ? result_as(o, x->dtype, xf, c->error) : NULL);
}

static const TsCpuOp ops[] = {
    { "aten::batch_norm", "", k_batch_norm },
    { "aten::layer_norm", "", k_layer_norm },
    { "aten::group_norm", "", k_group_norm },
    { "aten::instance_norm", "", k_instance_norm },
};

const TsCpuTable ts_cpu_norm_table = { ops, sizeof ops / sizeof ops[0] };
