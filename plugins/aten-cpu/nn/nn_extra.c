/* nn_extra.c — the smaller neural-network ops that need no family of their own: the dropout
 * variants (feature_dropout, alpha_dropout, feature_alpha_dropout), pixel_shuffle and
 * pixel_unshuffle, one_hot, cosine_similarity and pairwise_distance.
 *
 * The dropout variants are what F.dropout1d/2d/3d, F.alpha_dropout and
 * F.feature_alpha_dropout call. In evaluation (train=False), with p = 0, or on an empty input
 * they return the input itself, and with p = 1 in training they multiply by zero, as PyTorch
 * does. Training with 0 < p < 1 draws a random mask (per channel for the feature forms, with
 * alpha dropout's affine correction) from PyTorch's generator (create/random.c).
 *
 * pixel_shuffle and pixel_unshuffle are a permuted view of the input copied out: the channel
 * dim splits into (C, r, r) and interleaves with H and W (or the reverse), for any dtype.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "create/random.h"
#include "nn/nn_out.h"
#include "shape/shape_ops.h"

/* ---- dropout variants ----------------------------------------------------------------- */

#define LOOP(DT, T, OP, EXPR) EW_UNARY(DT, T, OP, T, EXPR)
EW_BOOL_TYPES(LOOP, times_zero, x && false)
EW_INT_TYPES(LOOP, times_zero, x * 0)
EW_FLOAT_TYPES(LOOP, times_zero, x * 0)   /* keeps -0.0 and NaN, as a multiply does */
static const TsCpuLoop times_zero_loops[TS_DTYPE__COUNT] = {
    EW_BOOL_TYPES(EW_ENTRY, times_zero) EW_INT_TYPES(EW_ENTRY, times_zero)
    EW_FLOAT_TYPES(EW_ENTRY, times_zero) };
static const TsCpuEwOp ew_times_zero = { "mul", TS_EW_SAME, false, times_zero_loops };

typedef enum Drop { FEATURE, ALPHA, FEATURE_ALPHA } Drop;

static int drop_call(TsCall *c, Drop kind, bool inplace)
{
    TsArgs args;
    TsValue *a = args.v;
    if (ts_args_pop(c, TS_DEV_CPU, &args))
        return (int)c->error->code;
    TsTensor *x = ts_nn_tensor(&args, 0), *o = NULL;
    double p = ts_nn_double(a[1]);
    bool train = a[2].tag == TS_TAG_BOOL && a[2].u.b;
    int rc = x ? 0 : (int)c->error->code;
    if (!rc && !(p >= 0 && p <= 1))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "dropout probability has to be between 0 "
                          "and 1, but got %g", p);
    if (rc || p == 0 || !train || ts_tensor_numel(x) == 0)
        return ts_args_return_arg(&args, rc, 0);    /* the input itself, as PyTorch */
    if (p == 1) {
        o = inplace ? x : NULL;
        rc = ts_cpu_ew(&ew_times_zero, 1, &x, &o, inplace ? TS_EW_INPLACE : TS_EW_NEW, NULL,
                       c->error);
        if (inplace)
            return ts_args_return_arg(&args, rc, 0);
        return ts_args_return_tensor(&args, rc, o);
    }
    if (kind != ALPHA && x->dim < 2) {
        ts_error_set(c->error, TS_ERR_RUNTIME, "Feature dropout requires at least 2 dimensions "
                     "in the input");
        return ts_args_return_tensor(&args, 0, NULL);
    }
    if ((rc = ts_nn_check_float(c, ts_args_op_name(&args), x)))
        return ts_args_fail(&args, rc);
    /* the feature forms draw one noise value per (batch, channel), shared by the rest */
    int64_t group = 1;
    for (int d = 2; kind != ALPHA && d < x->dim; d++)
        group *= x->sizes[d];
    o = ts_cpu_cast(x, x->dtype, c->error);
    if (o)
        ts_cpu_noise_dropout(o->dtype, ts_tensor_data(o), ts_tensor_numel(o), group, p,
                             kind != FEATURE);
    if (!inplace || !o)
        return ts_args_return_tensor(&args, o ? 0 : (int)c->error->code, o);
    ts_cpu_copy_into(x, o);
    ts_tensor_release(o);
    return ts_args_return_arg(&args, 0, 0);
}

/* aten::feature_dropout(Tensor input, float p, bool train) -> Tensor, and
 * feature_dropout_(Tensor(a!) self, float p, bool train) -> Tensor(a!); the alpha forms
 * alike. */
static int k_feature_dropout(TsCall *c) { return drop_call(c, FEATURE, false); }
static int k_feature_dropout_(TsCall *c) { return drop_call(c, FEATURE, true); }
static int k_alpha_dropout(TsCall *c) { return drop_call(c, ALPHA, false); }
static int k_alpha_dropout_(TsCall *c) { return drop_call(c, ALPHA, true); }
static int k_feature_alpha_dropout(TsCall *c) { return drop_call(c, FEATURE_ALPHA, false); }
static int k_feature_alpha_dropout_(TsCall *c) { return drop_call(c, FEATURE_ALPHA, true); }

/* ---- pixel_shuffle / pixel_unshuffle --------------------------------------------------- */

/* Copies the 6-or-more-dim view (sizes/strides over x's storage) out and gives it the shape
 * final (dim dims). */
static TsTensor *copy_out(TsCall *c, const TsTensor *x, int vdim, const int64_t *vsizes,
                          const int64_t *vstrides, int dim, const int64_t *final)
{
    TsTensor *v = ts_aten_view(x, vdim, vsizes, vstrides, x->offset, c->error);
    TsTensor *tmp = v ? ts_cpu_empty(x->dtype, vdim, vsizes, c->error) : NULL;
    TsTensor *o = NULL;
    if (tmp) {
        ts_cpu_copy_into(tmp, v);
        int64_t strides[TS_TENSOR_MAX_DIMS];
        ts_contiguous_strides(dim, final, strides);
        o = ts_aten_view(tmp, dim, final, strides, 0, c->error);
        ts_tensor_release(tmp);
    }
    if (v)
        ts_tensor_release(v);
    return o;
}

/* aten::pixel_shuffle(Tensor self, int upscale_factor) -> Tensor, and
 * aten::pixel_unshuffle(Tensor self, int downscale_factor) -> Tensor */
static int shuffle_call(TsCall *c, bool unshuffle, bool out_form)
{
    const char *name = unshuffle ? "pixel_unshuffle" : "pixel_shuffle";
    TsArgs args;
    TsValue *a = args.v;
    if (ts_args_pop(c, TS_DEV_CPU, &args))
        return (int)c->error->code;
    TsTensor *x = ts_nn_tensor(&args, 0);
    TsTensor *o = NULL;
    int64_t r = ts_nn_int(a[1]);
    TsError *err = c->error;
    if (!x)
        return ts_args_return_tensor(&args, 0, NULL);
    int d = x->dim;
    if (d < 3)
        ts_error_set(err, TS_ERR_RUNTIME, "%s expects input to have at least 3 dimensions, but "
                     "got input with %d dimension(s)", name, d);
    else if (r <= 0)
        ts_error_set(err, TS_ERR_RUNTIME, "%s expects a positive %s, but got %lld", name,
                     unshuffle ? "downscale_factor" : "upscale_factor", (long long)r);
    else if (!unshuffle && x->sizes[d - 3] % (r * r))
        ts_error_set(err, TS_ERR_RUNTIME, "pixel_shuffle expects its input's 'channel' dimension "
                     "to be divisible by the square of upscale_factor, but input.size(-3)=%lld "
                     "is not divisible by %lld", (long long)x->sizes[d - 3], (long long)(r * r));
    else if (unshuffle && x->sizes[d - 2] % r)
        ts_error_set(err, TS_ERR_RUNTIME, "pixel_unshuffle expects height to be divisible by "
                     "downscale_factor, but input.size(-2)=%lld is not divisible by %lld",
                     (long long)x->sizes[d - 2], (long long)r);
    else if (unshuffle && x->sizes[d - 1] % r)
        ts_error_set(err, TS_ERR_RUNTIME, "pixel_unshuffle expects width to be divisible by "
                     "downscale_factor, but input.size(-1)=%lld is not divisible by %lld",
                     (long long)x->sizes[d - 1], (long long)r);
    else if (d + 3 > TS_TENSOR_MAX_DIMS)
        ts_error_set(err, TS_ERR_LIMIT, "%s: at most %d dims are supported", name,
                     TS_TENSOR_MAX_DIMS - 3);
    else {
        int64_t vs[TS_TENSOR_MAX_DIMS], vt[TS_TENSOR_MAX_DIMS], final[TS_TENSOR_MAX_DIMS];
        int b = d - 3;
        memcpy(vs, x->sizes, sizeof(int64_t) * (size_t)b);
        memcpy(vt, x->strides, sizeof(int64_t) * (size_t)b);
        memcpy(final, x->sizes, sizeof(int64_t) * (size_t)b);
        int64_t cs = x->strides[b], hs = x->strides[b + 1], ws = x->strides[b + 2];
        int64_t ch = x->sizes[b], h = x->sizes[b + 1], w = x->sizes[b + 2];
        if (!unshuffle) {
            /* (C, r, r, H, W) read as (C, H, r, W, r) */
            int64_t sizes[5] = { ch / (r * r), h, r, w, r };
            int64_t strides[5] = { cs * r * r, hs, cs * r, ws, cs };
            memcpy(vs + b, sizes, sizeof sizes);
            memcpy(vt + b, strides, sizeof strides);
            final[b] = ch / (r * r);
            final[b + 1] = h * r;
            final[b + 2] = w * r;
        } else {
            /* (C, H, r, W, r) read as (C, r, r, H, W) */
            int64_t sizes[5] = { ch, r, r, h / r, w / r };
            int64_t strides[5] = { cs, hs, ws, hs * r, ws * r };
            memcpy(vs + b, sizes, sizeof sizes);
            memcpy(vt + b, strides, sizeof strides);
            final[b] = ch * r * r;
            final[b + 1] = h / r;
            final[b + 2] = w / r;
        }
        o = copy_out(c, x, b + 5, vs, vt, d, final);
    }
    if (!out_form)
        return ts_args_return_tensor(&args, 0, o);
    TsTensor *out = o ? ts_nn_tensor(&args, 2) : NULL;
    int rc = out ? ts_nn_deliver(c, o, out, TS_NN_OUT_CAST) : (int)err->code;
    if (o)
        ts_tensor_release(o);
    return ts_nn_return_outs(&args, 1, rc);
}

static int k_pixel_shuffle(TsCall *c) { return shuffle_call(c, false, false); }
static int k_pixel_unshuffle(TsCall *c) { return shuffle_call(c, true, false); }
/* ... and their .out forms (*, Tensor(a!) out) -> Tensor(a!) */
static int k_pixel_shuffle_out(TsCall *c) { return shuffle_call(c, false, true); }
static int k_pixel_unshuffle_out(TsCall *c) { return shuffle_call(c, true, true); }

/* ---- one_hot ----------------------------------------------------------------------------- */

/* aten::one_hot(Tensor self, int num_classes=-1) -> Tensor */
static int k_one_hot(TsCall *c)
{
    TsArgs args;
    TsValue *a = args.v;
    if (ts_args_pop(c, TS_DEV_CPU, &args))
        return (int)c->error->code;
    TsTensor *x = ts_nn_tensor(&args, 0), *cx = NULL, *o = NULL;
    int64_t classes = ts_nn_int(a[1]);
    TsError *err = c->error;
    if (!x)
        return ts_args_return_tensor(&args, 0, NULL);
    int64_t n = ts_tensor_numel(x), lo = 0, hi = -1;
    if (x->dtype != TS_INT64) {
        ts_error_set(err, TS_ERR_RUNTIME, "one_hot is only applicable to index tensor.");
    } else if (n == 0 && classes <= 0) {
        ts_error_set(err, TS_ERR_RUNTIME, "Can not infer total number of classes from empty "
                     "tensor.");
    } else if (x->dim + 1 > TS_TENSOR_MAX_DIMS) {
        ts_error_set(err, TS_ERR_LIMIT, "one_hot: at most %d dims are supported",
                     TS_TENSOR_MAX_DIMS - 1);
    } else if ((cx = ts_nn_contiguous(x, err))) {
        const int64_t *v = ts_tensor_data(cx);
        for (int64_t i = 0; i < n; i++) {
            if (i == 0 || v[i] < lo)
                lo = v[i];
            if (i == 0 || v[i] > hi)
                hi = v[i];
        }
        if (n && lo < 0)
            ts_error_set(err, TS_ERR_RUNTIME, "Class values must be non-negative.");
        else if (n && classes != -1 && classes <= hi)
            ts_error_set(err, TS_ERR_RUNTIME, "Class values must be smaller than num_classes.");
        else {
            if (classes == -1)
                classes = hi + 1;
            int64_t sizes[TS_TENSOR_MAX_DIMS];
            memcpy(sizes, x->sizes, sizeof(int64_t) * (size_t)x->dim);
            sizes[x->dim] = classes;
            if ((o = ts_cpu_empty(TS_INT64, x->dim + 1, sizes, err))) {
                int64_t *out = ts_tensor_data(o);
                memset(out, 0, sizeof(int64_t) * (size_t)(n * classes));
                for (int64_t i = 0; i < n; i++)
                    out[i * classes + v[i]] = 1;
            }
        }
        ts_tensor_release(cx);
    }
    return ts_args_return_tensor(&args, 0, o);
}

/* ---- cosine_similarity / pairwise_distance -------------------------------------------- */

/* v rounded to dtype (float32, float64, float16 or bfloat16), as storing it would. */
static double round_to(int dtype, double v)
{
    if (dtype == TS_FLOAT64)
        return v;
    if (dtype == TS_FLOAT32)
        return (float)v;
    unsigned char e[8];
    ts_cpu_store_double(dtype, e, v);
    return ts_cpu_load_double(dtype, e);
}

/* t converted to dtype and broadcast to sizes, as a new contiguous tensor. */
static TsTensor *expand_to(const TsTensor *t, int dtype, int dim, const int64_t *sizes,
                           TsError *err)
{
    TsTensor *o = ts_cpu_empty(dtype, dim, sizes, err);
    if (o)
        ts_cpu_copy_into(o, t);
    return o;
}

/* Element k of a contiguous tensor as a double. */
static double elem(const TsTensor *t, int64_t k)
{
    size_t es = ts_dtype_size(t->dtype);
    return ts_cpu_load_double(t->dtype, (const char *)ts_tensor_data(t) + (size_t)k * es);
}

/* The reduction layout of dim d of sizes: outer x len x inner, and the output sizes (dim d
 * dropped, or kept as 1). */
typedef struct Reduce {
    int64_t outer, len, inner;
    int odim;
    int64_t osizes[TS_TENSOR_MAX_DIMS];
} Reduce;

static void reduce_layout(int dim, const int64_t *sizes, int d, bool keepdim, Reduce *r)
{
    r->outer = r->len = r->inner = 1;
    r->odim = 0;
    for (int i = 0; i < dim; i++) {
        if (i < d)
            r->outer *= sizes[i];
        else if (i == d)
            r->len = sizes[i];
        else
            r->inner *= sizes[i];
        if (i != d || keepdim)
            r->osizes[r->odim++] = i == d ? 1 : sizes[i];
    }
}

/* aten::cosine_similarity(Tensor x1, Tensor x2, int dim=1, float eps=1e-08) -> Tensor:
 * sum(x1 / max(|x1|, eps) * x2 / max(|x2|, eps)) along dim, each step rounded to the common
 * dtype as PyTorch's sequence of ops rounds it. */
static int k_cosine_similarity(TsCall *c)
{
    TsArgs args;
    TsValue *a = args.v;
    if (ts_args_pop(c, TS_DEV_CPU, &args))
        return (int)c->error->code;
    TsTensor *in[2] = { ts_nn_tensor(&args, 0), NULL };
    TsTensor *e[2] = { NULL, NULL }, *o = NULL;
    TsError *err = c->error;
    int dim = 0, d = 0, dt = -1;
    int64_t sizes[TS_TENSOR_MAX_DIMS];
    double eps = ts_nn_double(a[3]);
    if (in[0])
        in[1] = ts_nn_tensor(&args, 1);
    if (in[1] && !ts_dtype_is_floating(dt = ts_aten_result_type(2, in)))
        ts_error_set(err, TS_ERR_RUNTIME, "expected common dtype to be floating point, yet "
                     "common dtype is %s", ts_dtype_type_name(dt));
    else if (in[1] && dt == TS_FLOAT16)
        ts_error_set(err, TS_ERR_RUNTIME, "\"clamp_min_cpu\" not implemented for 'Half'");
    else if (in[1] && !ts_aten_broadcast_shape(2, in, &dim, sizes, err) &&
             !ts_aten_wrap_dim(ts_nn_int(a[2]), dim, true, &d, err) &&
             (e[0] = expand_to(in[0], dt, dim, sizes, err)) &&
             (e[1] = expand_to(in[1], dt, dim, sizes, err))) {
        Reduce r;
        reduce_layout(dim, sizes, dim ? d : -1, false, &r);
        if ((o = ts_cpu_empty(dt, r.odim, r.osizes, err))) {
            for (int64_t p = 0; p < r.outer; p++)
                for (int64_t q = 0; q < r.inner; q++) {
                    double n[2];
                    for (int t = 0; t < 2; t++) {
                        double sq = 0;
                        for (int64_t k = 0; k < r.len; k++) {
                            double v = elem(e[t], (p * r.len + k) * r.inner + q);
                            sq += round_to(dt, v * v);
                        }
                        n[t] = round_to(dt, sqrt(round_to(dt, sq)));
                        if (n[t] < round_to(dt, eps))
                            n[t] = round_to(dt, eps);
                    }
                    double sum = 0;
                    for (int64_t k = 0; k < r.len; k++) {
                        int64_t i = (p * r.len + k) * r.inner + q;
                        sum += round_to(dt, round_to(dt, elem(e[0], i) / n[0]) *
                                                round_to(dt, elem(e[1], i) / n[1]));
                    }
                    ts_cpu_store_double(dt, (char *)ts_tensor_data(o) +
                                                (size_t)(p * r.inner + q) * ts_dtype_size(dt),
                                        sum);
                }
        }
    }
    for (int t = 0; t < 2; t++)
        if (e[t])
            ts_tensor_release(e[t]);
    return ts_args_return_tensor(&args, 0, o);
}

/* The p-norm of n values of dtype dt (PyTorch's norm: p 0 counts non-zeros, +-inf take
 * max/min); squares are rounded to dt, as PyTorch computes them in it. */
static double pnorm(int dt, const double *v, int64_t n, double p)
{
    double acc = isinf(p) ? (p > 0 ? 0 : INFINITY) : 0;
    for (int64_t k = 0; k < n; k++) {
        double x = fabs(v[k]);
        if (p == 0)
            acc += x != 0;
        else if (isinf(p))
            acc = p > 0 ? (x > acc || isnan(x) ? x : acc) : (x < acc || isnan(x) ? x : acc);
        else if (p == 1)
            acc += x;
        else if (p == 2)
            acc += round_to(dt, x * x);
        else
            acc += pow(x, p);
    }
    if (p == 0 || p == 1 || isinf(p))
        return acc;
    return p == 2 ? sqrt(acc) : pow(acc, 1 / p);
}

/* aten::pairwise_distance(Tensor x1, Tensor x2, float p=2., float eps=1e-06,
 *   bool keepdim=False) -> Tensor: norm(x1 - x2 + eps, p) over the last dim. */
static int k_pairwise_distance(TsCall *c)
{
    TsArgs args;
    TsValue *a = args.v;
    if (ts_args_pop(c, TS_DEV_CPU, &args))
        return (int)c->error->code;
    TsTensor *in[2] = { ts_nn_tensor(&args, 0), NULL };
    TsTensor *e[2] = { NULL, NULL }, *o = NULL;
    TsError *err = c->error;
    double p = ts_nn_double(a[2]), eps = ts_nn_double(a[3]), *buf = NULL;
    bool keepdim = a[4].tag == TS_TAG_BOOL && a[4].u.b;
    int dim = 0, common = -1;
    int64_t sizes[TS_TENSOR_MAX_DIMS];
    if (in[0])
        in[1] = ts_nn_tensor(&args, 1);
    if (in[1] && in[0]->dtype == TS_BOOL && in[1]->dtype == TS_BOOL)
        ts_error_set(err, TS_ERR_RUNTIME, "Subtraction, the `-` operator, with two bool tensors "
                     "is not supported. Use the `^` or `logical_xor()` operator instead.");
    else if (in[1] && (common = ts_aten_result_type(2, in)) >= 0 &&
             !ts_aten_broadcast_shape(2, in, &dim, sizes, err) &&
             (e[0] = expand_to(in[0], common, dim, sizes, err)) &&
             (e[1] = expand_to(in[1], common, dim, sizes, err))) {
        /* x1 - x2 in the common dtype, + eps in the float result dtype */
        int dt = ts_dtype_is_floating(common) ? common : TS_FLOAT32;
        Reduce r;
        reduce_layout(dim, sizes, dim - 1, keepdim, &r);
        if ((o = ts_cpu_empty(dt, r.odim, r.osizes, err)) &&
            !(buf = malloc(sizeof(double) * (size_t)(r.len ? r.len : 1))))
            ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        for (int64_t i = 0; buf && i < r.outer; i++) {
            for (int64_t k = 0; k < r.len; k++) {
                double diff = round_to(dt, elem(e[0], i * r.len + k) - elem(e[1], i * r.len + k));
                buf[k] = round_to(dt, diff + eps);
            }
            ts_cpu_store_double(dt, (char *)ts_tensor_data(o) + (size_t)i * ts_dtype_size(dt),
                                pnorm(dt, buf, r.len, p));
        }
        if (!buf && o) {
            ts_tensor_release(o);
            o = NULL;
        }
    }
    free(buf);
    for (int t = 0; t < 2; t++)
        if (e[t])
            ts_tensor_release(e[t]);
    return ts_args_return_tensor(&args, 0, o);
}

static const TsCpuOp ops[] = {
    { "aten::feature_dropout", "", k_feature_dropout },
    { "aten::feature_dropout_", "", k_feature_dropout_ },
    { "aten::alpha_dropout", "", k_alpha_dropout },
    { "aten::alpha_dropout_", "", k_alpha_dropout_ },
    { "aten::feature_alpha_dropout", "", k_feature_alpha_dropout },
    { "aten::feature_alpha_dropout_", "", k_feature_alpha_dropout_ },
    { "aten::pixel_shuffle", "", k_pixel_shuffle },
    { "aten::pixel_unshuffle", "", k_pixel_unshuffle },
    { "aten::pixel_shuffle", "out", k_pixel_shuffle_out },
    { "aten::pixel_unshuffle", "out", k_pixel_unshuffle_out },
    { "aten::one_hot", "", k_one_hot },
    { "aten::cosine_similarity", "", k_cosine_similarity },
    { "aten::pairwise_distance", "", k_pairwise_distance },
};

const TsCpuTable ts_cpu_nn_extra_table = { ops, sizeof ops / sizeof ops[0] };
