/* norm.c — normalization: batch_norm (eval with running stats, or training with batch stats
 * and the running-stat update), instance_norm (batch_norm over one image and channel at a
 * time), layer_norm and group_norm.
 *
 * All three compute y = (x - mean) / sqrt(var + eps) * weight + bias with the biased
 * variance; they differ in which elements share a mean (a channel across the batch; the
 * trailing normalized_shape; a group of channels of one image) and which share a weight (a
 * channel; a position in normalized_shape; a channel). Training batch_norm moves
 * running_mean and running_var in place by momentum, the variance unbiased (n / (n - 1)).
 *
 * Each computes in the order and precision of PyTorch 1.13's CPU kernel over a contiguous
 * copy of the input, so that results agree with PyTorch's to the rounding even on badly
 * conditioned data (a large mean and a small spread), where a float's rounding of the mean or
 * of a folded shift shows in every output: batch_norm sums in double and keeps its statistics
 * in the dtype, then applies x * alpha + beta as a fused multiply-add; layer_norm and
 * group_norm take PyTorch's cascaded Welford moments (moments.c). bfloat16 inputs go through
 * float32 and come back rounded; layer_norm's and group_norm's statistics (and group_norm's
 * every step) are rounded to bfloat16 on the way, as PyTorch computes them in bfloat16.
 * Where PyTorch's channels-last kernels gather statistics another way (float sums, threads'
 * partial sums) this file takes the contiguous kernels' way. The arguments are checked by
 * aten-common's norm_check.c, as aten-cuda's norm.c checks them.
 */
#include <math.h>
#include <string.h>

#include "nn/nn.h"
#include "vhalf.h"
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

/* v rounded to dtype dt (float32 or float64), the precision PyTorch keeps its statistics in. */
static double round_dt(int dt, double v)
{
    return dt == TS_FLOAT32 ? (double)(float)v : v;
}

/* out = x * alpha + beta over n floats, rounded once as the fused multiply-add that PyTorch's
 * compiled loop is (the product of two floats is exact in double; the sum's double rounding
 * differs from a true fused one only at ties below float's precision). */
TS_VM_VECTORIZE static void affine_f32(const float *x, float *out, int64_t n, float alpha,
                                       float beta)
{
    for (int64_t j = 0; j < n; j++)
        out[j] = (float)((double)x[j] * alpha + beta);
}

/* Channel k's mean and 1 / sqrt(var + eps) from the batch, as PyTorch's contiguous kernel
 * takes them: the sum in double, the mean rounded to the dtype, the squared deviations from
 * that mean taken in the dtype and summed in double, that sum rounded to the dtype, and so
 * the variance before eps joins it in double; *var_sum gets the sum for the running variance. */
static void batch_stats(int dt, const void *in, int64_t n, int64_t ch, int64_t inner, int64_t k,
                        double eps, double *mean, double *invstd, double *var_sum)
{
    double s = 0, q = 0;
    int64_t count = n * inner;
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < inner; j++)
            s += ts_nn_get(dt, in, (i * ch + k) * inner + j);
    double m = round_dt(dt, count ? s / (double)count : NAN);
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < inner; j++) {
            double e = round_dt(dt, ts_nn_get(dt, in, (i * ch + k) * inner + j) - m);
            q += round_dt(dt, e * e);
        }
    q = round_dt(dt, q);
    double var = round_dt(dt, count ? q / (double)count : NAN);
    *mean = m;
    *var_sum = q;
    *invstd = round_dt(dt, var != 0 || eps != 0 ? 1 / sqrt(var + eps) : 0);
}

/* momentum * stat + (1 - momentum) * old in dtype dt: the second product rounded, the first
 * fused with the sum, as PyTorch's compiled update has it. */
static double running(int dt, double momentum, double stat, double old)
{
    double keep = round_dt(dt, round_dt(dt, 1 - momentum) * old);
    return dt == TS_FLOAT32 ? (double)fmaf((float)momentum, (float)stat, (float)keep)
                            : momentum * stat + keep;
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
        double mean, invstd, q;
        if (training) {
            batch_stats(dt, in, n, ch, inner, k, eps, &mean, &invstd, &q);
            /* the running statistics move in the dtype */
            if (v[2])
                vec_put(v[2], k, running(dt, momentum, mean, vec_at(v[2], k, 0)));
            if (v[3])
                vec_put(v[3], k, running(dt, momentum, round_dt(dt, q / (double)(count - 1)),
                                         vec_at(v[3], k, 0)));
        } else {
            mean = vec_at(v[2], k, 0);
            double var = vec_at(v[3], k, 1);
            invstd = dt == TS_FLOAT32 ? 1.0f / sqrtf((float)var + (float)eps) : 1 / sqrt(var + eps);
        }
        /* y = x * alpha + beta with alpha = invstd * weight and beta = bias - mean * alpha,
         * each rounded to the dtype (beta once, a fused multiply-add), as PyTorch folds them */
        double alpha = round_dt(dt, invstd * vec_at(v[0], k, 1));
        double beta = round_dt(dt, dt == TS_FLOAT32 ? vec_at(v[1], k, 0) - mean * alpha
                                                     : fma(-mean, alpha, vec_at(v[1], k, 0)));
        for (int64_t i = 0; i < n; i++) {
            int64_t e = (i * ch + k) * inner;
            if (dt == TS_FLOAT32)
                affine_f32((const float *)in + e, (float *)out + e, inner, (float)alpha,
                           (float)beta);
            else
                for (int64_t j = 0; j < inner; j++)
                    ts_nn_set(dt, out, e + j, fma(ts_nn_get(dt, in, e + j), alpha, beta));
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

/* v rounded to bfloat16 and back. */
static float round_bf16(float v)
{
    return ts_vh_bf16_to_float(ts_vh_float_to_bf16(v));
}

/* Row r's mean and 1 / sqrt(var + eps), from the row's moments in its own dtype as PyTorch
 * takes them; eps joins the variance in that dtype too. clamp: the variance is clamped at 0
 * first (group_norm's kernel does, layer_norm's does not). bf16: the float row holds
 * bfloat16 values, whose statistics PyTorch takes in bfloat16 arithmetic, the square root
 * rounded to bfloat16 too. */
static void row_stats(int dt, bool bf16, const void *in, int64_t r, int64_t len, double eps,
                      bool clamp, double *mean, double *rstd)
{
    if (dt == TS_FLOAT32) {
        float m, v;
        if (bf16)
            ts_nn_moments_bf16((const float *)in + r * len, len, &m, &v);
        else
            ts_nn_moments_f32((const float *)in + r * len, len, &m, &v);
        if (clamp && v < 0)
            v = 0;
        *mean = m;
        *rstd = bf16 ? round_bf16(1.0f / round_bf16(sqrtf(round_bf16(v + (float)eps))))
                     : 1.0f / sqrtf(v + (float)eps);
    } else {
        double m, v;
        ts_nn_moments_f64((const double *)in + r * len, len, &m, &v);
        if (clamp && v < 0)
            v = 0;
        *mean = m;
        *rstd = 1.0 / sqrt(v + eps);
    }
}

/* a * b + c rounded once to dtype dt. */
static double fma_dt(int dt, double a, double b, double c)
{
    return dt == TS_FLOAT32 ? (double)fmaf((float)a, (float)b, (float)c) : fma(a, b, c);
}

/* Layer norm of rows of len elements of the contiguous in into out, weight and bias indexed by
 * position in the row: y = (x * rstd - rstd * mean) * weight + bias, both steps fused
 * multiply-adds as PyTorch's compiled kernel has them; a bfloat16 input (bf16, in floats
 * here) has its rstd * mean rounded to bfloat16, the rest in float. */
static void layer_norm_rows(int dt, bool bf16, const void *in, void *out, int64_t rows,
                            int64_t len, double eps, const TsTensor *w, const TsTensor *b)
{
    for (int64_t r = 0; r < rows; r++) {
        double mean, rstd;
        row_stats(dt, bf16, in, r, len, eps, false, &mean, &rstd);
        double shift = round_dt(dt, -rstd * mean);
        if (bf16)
            shift = round_bf16((float)shift);
        for (int64_t e = r * len, k = 0; k < len; e++, k++) {
            double y = fma_dt(dt, ts_nn_get(dt, in, e), rstd, shift);
            ts_nn_set(dt, out, e, fma_dt(dt, y, vec_at(w, k, 1), vec_at(b, k, 0)));
        }
    }
}

/* v rounded to bfloat16 when bf16, else to dtype dt. */
static double round_to(int dt, bool bf16, double v)
{
    return bf16 ? round_bf16((float)v) : round_dt(dt, v);
}

/* Group norm of the contiguous in (n images of groups groups of cpg channels of inner
 * elements) into out. Without weight and bias y = (x - mean) * rstd; with either, channel c
 * folds them into y = x * scale + shift (a fused multiply-add) with scale = rstd * weight and
 * shift = bias - scale * mean, each rounded to the dtype, as PyTorch's kernel does. A
 * bfloat16 input (bf16, in floats here) rounds every step to bfloat16, the last unfused, as
 * PyTorch computes it in bfloat16 arithmetic. */
static void group_norm_rows(int dt, bool bf16, const void *in, void *out, int64_t rows,
                            int64_t groups, int64_t cpg, int64_t inner, double eps,
                            const TsTensor *w, const TsTensor *b)
{
    int64_t len = cpg * inner;
    for (int64_t r = 0; r < rows; r++) {
        double mean, rstd;
        row_stats(dt, bf16, in, r, len, eps, true, &mean, &rstd);
        for (int64_t j = 0; j < cpg; j++) {
            int64_t c = (r % groups) * cpg + j, e0 = (r * cpg + j) * inner;
            if (!w && !b) {
                for (int64_t e = e0; e < e0 + inner; e++)
                    ts_nn_set(dt, out, e, round_to(dt, bf16, ts_nn_get(dt, in, e) - mean) * rstd);
                continue;
            }
            double scale = round_to(dt, bf16, rstd * vec_at(w, c, 1));
            double shift = round_to(dt, bf16, round_to(dt, bf16, -scale * mean) + vec_at(b, c, 0));
            for (int64_t e = e0; e < e0 + inner; e++) {
                double v = ts_nn_get(dt, in, e);
                ts_nn_set(dt, out, e, bf16 ? round_bf16((float)(v * scale)) + shift
                                           : fma_dt(dt, v, scale, shift));
            }
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
                            TsTensor *b, double eps, bool bf16)
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
            layer_norm_rows(x->dtype, bf16, ts_tensor_data(cx), ts_tensor_data(o), rows, len,
                            eps, fw, fb);
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
        o = layer_norm(c, xf, nd, ns, w, b, ts_nn_double(a[4]), x->dtype == TS_BFLOAT16);
    return ts_args_return_tensor(&args, 0, x ? result_as(o, x->dtype, xf, c->error) : NULL);
}

static TsTensor *group_norm(TsCall *c, TsTensor *x, int64_t groups, TsTensor *w, TsTensor *b,
                            double eps, bool bf16)
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
    group_norm_rows(x->dtype, bf16, ts_tensor_data(cx), ts_tensor_data(o),
                    x->sizes[0] * groups, groups, ch / groups, inner, eps, w, b);
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
        o = group_norm(c, xf, ts_nn_int(a[1]), w, b, ts_nn_double(a[4]),
                       x->dtype == TS_BFLOAT16);
    return ts_args_return_tensor(&args, 0, x ? result_as(o, x->dtype, xf, c->error) : NULL);
}

static const TsCpuOp ops[] = {
    { "aten::batch_norm", "", k_batch_norm },
    { "aten::layer_norm", "", k_layer_norm },
    { "aten::group_norm", "", k_group_norm },
    { "aten::instance_norm", "", k_instance_norm },
};

const TsCpuTable ts_cpu_norm_table = { ops, sizeof ops / sizeof ops[0] };
