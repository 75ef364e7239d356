/* loss_pointwise.c — the losses computed element by element and then reduced: mse_loss,
 * l1_loss, smooth_l1_loss, huber_loss, kl_div, binary_cross_entropy and
 * binary_cross_entropy_with_logits (loss.c has the classification losses).
 *
 * Each is a loop table for the elementwise engine (broadcasting and type promotion come from
 * there) followed by PyTorch's apply_loss_reduction: mean or sum to a 0-dim tensor, and any
 * other reduction code gives the unreduced tensor, except for the ops PyTorch implements as
 * one kernel (mse, smooth_l1), which reject it. Results keep PyTorch's dtypes and shapes:
 * l1_loss is (self - target).abs(), so it takes integers and their sum is int64; huber_loss
 * writes into a tensor like self; binary_cross_entropy_with_logits computes in place on
 * (1 - target), so its result has the target's shape and dtype. Sums run in double (int64
 * for integers).
 */
#include <tgmath.h>

#include "nn/nn.h"

/* ---- reduction ------------------------------------------------------------------------- */

/* PyTorch's apply_loss_reduction on the contiguous o (taken): its mean or sum as a 0-dim
 * tensor, or o itself for any other code. */
static TsTensor *reduce_loss(TsError *err, TsTensor *o, int64_t red)
{
    if (red != TS_NN_MEAN && red != TS_NN_SUM)
        return o;
    int dt = o->dtype;
    int64_t n = ts_tensor_numel(o);
    TsTensor *r = NULL;
    if (ts_dtype_is_floating(dt)) {
        const char *p = ts_tensor_data(o);
        size_t es = ts_dtype_size(dt);
        double s = 0;
        for (int64_t i = 0; i < n; i++)
            s += dt == TS_FLOAT32 ? ((const float *)p)[i]
               : dt == TS_FLOAT64 ? ((const double *)p)[i]
               : ts_cpu_load_double(dt, p + (size_t)i * es);
        if ((r = ts_cpu_empty(dt, 0, NULL, err)))
            ts_cpu_store_double(dt, ts_tensor_data(r), red == TS_NN_MEAN ? s / (double)n : s);
    } else if (red == TS_NN_MEAN) {
        ts_error_set(err, TS_ERR_RUNTIME, "mean(): could not infer output dtype. Input dtype "
                     "must be either a floating point or complex dtype. Got: %s",
                     ts_dtype_type_name(dt));
    } else {
        /* integers and bool sum to int64, wrapping as PyTorch's int64 arithmetic does */
        TsTensor *wide = ts_cpu_cast(o, TS_INT64, err);
        if (wide && (r = ts_cpu_empty(TS_INT64, 0, NULL, err))) {
            uint64_t s = 0;
            for (int64_t i = 0; i < n; i++)
                s += (uint64_t)((const int64_t *)ts_tensor_data(wide))[i];
            *(int64_t *)ts_tensor_data(r) = (int64_t)s;
        }
        if (wide)
            ts_tensor_release(wide);
    }
    ts_tensor_release(o);
    return r;
}

/* ---- loops ------------------------------------------------------------------------------ */

#define U64(v) ((uint64_t)(int64_t)(v))

/* |v| wrapping like PyTorch's abs (the most negative value stays itself). */
static inline int64_t abs_i(int64_t v) { return v < 0 ? (int64_t)(0 - (uint64_t)v) : v; }

/* x log(y), 0 where x is 0 (unless y is nan), as torch.xlogy. */
#define XLOGY(x, y) ((y) != (y) ? (y) : (x) == 0 ? (scalar_t)0 : (x) * log(y))

/* Loops OP_DT over the float dtypes from one expression; args->d[0] holds beta or delta,
 * args->i[0] a flag (log_target). */
#define BINARY_LOOP(DT, T, OP, EXPR) EW_BINARY(DT, T, OP, T, EXPR)
#define FLOAT_LOOPS(OP, EXPR) \
    EW_FLOAT_TYPES(BINARY_LOOP, OP, EXPR) \
    static const TsCpuLoop OP##_loops[TS_DTYPE__COUNT] = { EW_FLOAT_TYPES(EW_ENTRY, OP) };

FLOAT_LOOPS(mse, (x - y) * (x - y))
FLOAT_LOOPS(smooth_l1, fabs(x - y) < (scalar_t)args->d[0]
            ? (scalar_t)0.5 * fabs(x - y) * fabs(x - y) / (scalar_t)args->d[0]
            : fabs(x - y) - (scalar_t)0.5 * (scalar_t)args->d[0])
FLOAT_LOOPS(huber, fabs(x - y) < (scalar_t)args->d[0]
            ? (scalar_t)0.5 * fabs(x - y) * fabs(x - y)
            : (scalar_t)args->d[0] * (fabs(x - y) - (scalar_t)0.5 * (scalar_t)args->d[0]))
/* kl_div: x is the input (log-probabilities), y the target */
FLOAT_LOOPS(kl_div, args->i[0] ? exp(y) * (y - x) : XLOGY(y, y) - y * x)
FLOAT_LOOPS(mul, x * y)

/* l1: the integer difference wraps in the dtype before abs, as (self - target).abs() does */
EW_INT_TYPES(BINARY_LOOP, l1, abs_i((scalar_t)(U64(x) - U64(y))))
EW_FLOAT_TYPES(BINARY_LOOP, l1, fabs(x - y))
static const TsCpuLoop l1_loops[TS_DTYPE__COUNT] = {
    EW_INT_TYPES(EW_ENTRY, l1) EW_FLOAT_TYPES(EW_ENTRY, l1) };

/* binary_cross_entropy: x the probability, y the target; an x outside [0, 1] (or nan) sets
 * status BCE_RANGE. log terms are clamped at -100 as PyTorch does. */
enum { BCE_RANGE = 0x100 };
#define BCE_EXPR \
    !(x >= 0 && x <= 1) ? (args->status = BCE_RANGE, (scalar_t)0) \
    : (y - 1) * fmax(log1p(-x), (scalar_t)-100) - y * fmax(log(x), (scalar_t)-100)
FLOAT_LOOPS(bce, BCE_EXPR)

/* binary_cross_entropy_with_logits over (input x, target t, pos_weight w), PyTorch 1.13's
 * formula with m = max(-x, 0): (1 - t) x + m + log(e^-m + e^(-x-m)), or with a pos_weight
 * (1 - t) x + ((w - 1) t + 1) (log(e^-m + e^(-x-m)) + m). i[0]: a pos_weight is given. */
#define BCE_LOGITS(DT, T, ...) \
    static void bce_logits_##DT(char **p, const int64_t *s, int64_t n, TsCpuEwArgs *args) \
    { \
        for (int64_t k = 0; k < n; k++) { \
            T x = *(const T *)(p[1] + k * s[1]), t = *(const T *)(p[2] + k * s[2]); \
            T w = *(const T *)(p[3] + k * s[3]); \
            T m = -x < 0 ? (T)0 : -x; \
            T l = log(exp(-m) + exp(-x - m)); \
            *(T *)(p[0] + k * s[0]) = args->i[0] ? (1 - t) * x + ((w - 1) * t + 1) * (l + m) \
                                                 : (1 - t) * x + m + l; \
        } \
    }
EW_FLOAT_TYPES(BCE_LOGITS, )
#undef BCE_LOGITS
static const TsCpuLoop bce_logits_loops[TS_DTYPE__COUNT] = {
    EW_FLOAT_TYPES(EW_ENTRY, bce_logits) };

static const TsCpuEwOp ew_mse = { "mse", TS_EW_SAME, false, mse_loops };
static const TsCpuEwOp ew_l1 = { "l1", TS_EW_SAME, false, l1_loops };
static const TsCpuEwOp ew_smooth_l1 = { "smooth_l1", TS_EW_SAME, false, smooth_l1_loops };
static const TsCpuEwOp ew_huber = { "huber", TS_EW_SAME, false, huber_loops };
static const TsCpuEwOp ew_kl_div = { "kl_div", TS_EW_SAME, false, kl_div_loops };
static const TsCpuEwOp ew_mul = { "mul", TS_EW_SAME, false, mul_loops };
static const TsCpuEwOp ew_bce = { "binary_cross_entropy", TS_EW_SAME, false, bce_loops };
static const TsCpuEwOp ew_bce_logits = { "bce_logits", TS_EW_SAME, false, bce_logits_loops };

/* ---- kernels ------------------------------------------------------------------------------ */

/* The arguments every loss starts with: self and target. */
static int loss_args(TsArgs *args, TsTensor **x, TsTensor **y)
{
    int rc = ts_args_tensor(args, 0, x);
    return rc ? rc : ts_args_tensor(args, 1, y);
}

/* ew over (self, target) into a new tensor, then the reduction. */
static TsTensor *pointwise(TsCall *c, const TsCpuEwOp *ew, TsTensor *x, TsTensor *y,
                           TsCpuEwArgs *args, int64_t red)
{
    TsTensor *in[2] = { x, y }, *o = NULL;
    if (ts_cpu_ew(ew, 2, in, &o, TS_EW_NEW, args, c->error))
        return NULL;
    return reduce_loss(c->error, o, red);
}

/* aten::mse_loss(Tensor self, Tensor target, int reduction=1) -> Tensor */
static int k_mse_loss(TsCall *c)
{
    TsArgs args;
    TsValue *a = args.v;
    TsTensor *x, *y, *o = NULL;
    if (ts_args_pop(c, TS_DEV_CPU, &args))
        return (int)c->error->code;
    int64_t red = ts_nn_int(a[2]);
    if (!loss_args(&args, &x, &y) && !ts_nn_check_reduction(c, red)) {
        if (x->dtype == TS_BFLOAT16 || y->dtype == TS_BFLOAT16)   /* no bfloat16 mse in 1.13 */
            ts_error_set(c->error, TS_ERR_RUNTIME, "\"mse_cpu\" not implemented for 'BFloat16'");
        else
            o = pointwise(c, &ew_mse, x, y, NULL, red);
    }
    return ts_args_return_tensor(&args, 0, o);
}

/* aten::l1_loss(Tensor self, Tensor target, int reduction=1) -> Tensor */
static int k_l1_loss(TsCall *c)
{
    TsArgs args;
    TsValue *a = args.v;
    TsTensor *x, *y, *o = NULL;
    if (ts_args_pop(c, TS_DEV_CPU, &args))
        return (int)c->error->code;
    if (!loss_args(&args, &x, &y)) {
        bool bx = x->dtype == TS_BOOL, by = y->dtype == TS_BOOL;
        if (bx && by)
            ts_error_set(c->error, TS_ERR_RUNTIME, "Subtraction, the `-` operator, with two "
                         "bool tensors is not supported. Use the `^` or `logical_xor()` "
                         "operator instead.");
        else if (bx || by)
            ts_error_set(c->error, TS_ERR_RUNTIME, "Subtraction, the `-` operator, with a "
                         "bool tensor is not supported. If you are trying to invert a mask, "
                         "use the `~` or `logical_not()` operator instead.");
        else
            o = pointwise(c, &ew_l1, x, y, NULL, ts_nn_int(a[2]));
    }
    return ts_args_return_tensor(&args, 0, o);
}

/* aten::smooth_l1_loss(Tensor self, Tensor target, int reduction=1, float beta=1.) -> Tensor */
static int k_smooth_l1_loss(TsCall *c)
{
    TsArgs args;
    TsValue *a = args.v;
    TsTensor *x, *y, *o = NULL;
    if (ts_args_pop(c, TS_DEV_CPU, &args))
        return (int)c->error->code;
    TsCpuEwArgs ea = { { ts_nn_double(a[3]), 0 }, { 0, 0 }, 0 };
    int64_t red = ts_nn_int(a[2]);
    if (!loss_args(&args, &x, &y) && !ts_nn_check_reduction(c, red)) {
        if (ea.d[0] < 0)
            ts_error_set(c->error, TS_ERR_RUNTIME, "smooth_l1_loss does not support negative "
                         "values for beta.");
        else
            o = pointwise(c, &ew_smooth_l1, x, y, &ea, red);
    }
    return ts_args_return_tensor(&args, 0, o);
}

/* aten::huber_loss(Tensor self, Tensor target, int reduction=1, float delta=1.) -> Tensor
 * The loss is written into a tensor of self's dtype, as PyTorch's empty_like(self). */
static int k_huber_loss(TsCall *c)
{
    TsArgs args;
    TsValue *a = args.v;
    TsTensor *x, *y, *o = NULL;
    if (ts_args_pop(c, TS_DEV_CPU, &args))
        return (int)c->error->code;
    TsCpuEwArgs ea = { { ts_nn_double(a[3]), 0 }, { 0, 0 }, 0 };
    if (!loss_args(&args, &x, &y)) {
        TsTensor *in[2] = { x, y };
        if (!(ea.d[0] > 0))
            ts_error_set(c->error, TS_ERR_RUNTIME, "huber_loss does not support non-positive "
                         "values for delta.");
        else if ((o = ts_cpu_empty(x->dtype, x->dim, x->sizes, c->error)) &&
                 ts_cpu_ew(&ew_huber, 2, in, &o, TS_EW_OUT, &ea, c->error)) {
            ts_tensor_release(o);
            o = NULL;
        }
        if (o)
            o = reduce_loss(c->error, o, ts_nn_int(a[2]));
    }
    return ts_args_return_tensor(&args, 0, o);
}

/* aten::kl_div(Tensor self, Tensor target, int reduction=1, *, bool log_target=False)
 *     -> Tensor */
static int k_kl_div(TsCall *c)
{
    TsArgs args;
    TsValue *a = args.v;
    TsTensor *x, *y, *o = NULL;
    if (ts_args_pop(c, TS_DEV_CPU, &args))
        return (int)c->error->code;
    TsCpuEwArgs ea = { { 0, 0 }, { a[3].tag == TS_TAG_BOOL && a[3].u.b, 0 }, 0 };
    if (!loss_args(&args, &x, &y)) {
        if (ts_dtype_is_integral(x->dtype, true) || ts_dtype_is_integral(y->dtype, true))
            ts_error_set(c->error, TS_ERR_RUNTIME, "kl_div: Integral inputs not supported.");
        else
            o = pointwise(c, &ew_kl_div, x, y, &ea, ts_nn_int(a[2]));
    }
    return ts_args_return_tensor(&args, 0, o);
}

/* loss *= weight in place (the weight broadcasts to the loss's shape, or PyTorch's "output
 * with shape ... doesn't match the broadcast shape"); loss is released on failure. */
static TsTensor *apply_weight(TsCall *c, TsTensor *loss, TsTensor *w)
{
    TsTensor *in[2] = { loss, w };
    if (!w || !ts_cpu_ew(&ew_mul, 2, in, &loss, TS_EW_INPLACE, NULL, c->error))
        return loss;
    ts_tensor_release(loss);
    return NULL;
}

/* A view of t without its size-1 dims (binary_cross_entropy squeezes its operands). */
static TsTensor *squeezed(TsError *err, const TsTensor *t)
{
    int64_t sizes[TS_TENSOR_MAX_DIMS], strides[TS_TENSOR_MAX_DIMS];
    int dim = 0;
    for (int d = 0; d < t->dim; d++)
        if (t->sizes[d] != 1) {
            sizes[dim] = t->sizes[d];
            strides[dim++] = t->strides[d];
        }
    return ts_aten_view(t, dim, sizes, strides, t->offset, err);
}

/* The unweighted binary cross entropy of x and y (same dtype, float32 or float64), computed
 * on the squeezed operands and shaped like x. */
static TsTensor *bce(TsCall *c, TsTensor *x, TsTensor *y)
{
    TsTensor *in[2] = { squeezed(c->error, x), NULL }, *o = NULL, *r = NULL;
    TsCpuEwArgs ea = { { 0, 0 }, { 0, 0 }, 0 };
    if (in[0] && (in[1] = squeezed(c->error, y)) &&
        !ts_cpu_ew(&ew_bce, 2, in, &o, TS_EW_NEW, &ea, c->error)) {
        if (ea.status == BCE_RANGE)
            ts_error_set(c->error, TS_ERR_RUNTIME, "all elements of input should be between 0 "
                         "and 1");
        else if (ts_tensor_numel(o) != ts_tensor_numel(x)) {
            char s1[256], s2[256];
            ts_aten_format_sizes(s1, sizeof s1, in[0]->dim, in[0]->sizes);
            ts_aten_format_sizes(s2, sizeof s2, o->dim, o->sizes);
            ts_error_set(c->error, TS_ERR_RUNTIME, "output with shape %s doesn't match the "
                         "broadcast shape %s", s1, s2);
        } else {
            r = ts_aten_view(o, x->dim, x->sizes, NULL, 0, c->error);
        }
    }
    for (int i = 0; i < 2; i++)
        if (in[i])
            ts_tensor_release(in[i]);
    if (o)
        ts_tensor_release(o);
    return r;
}

/* aten::binary_cross_entropy(Tensor self, Tensor target, Tensor? weight=None,
 *                            int reduction=1) -> Tensor */
static int k_binary_cross_entropy(TsCall *c)
{
    TsArgs args;
    TsValue *a = args.v;
    TsTensor *x, *y, *w, *o = NULL;
    if (ts_args_pop(c, TS_DEV_CPU, &args))
        return (int)c->error->code;
    if (!loss_args(&args, &x, &y) && !ts_args_opt_tensor(&args, 2, &w)) {
        if (y->dtype != x->dtype)
            ts_error_set(c->error, TS_ERR_RUNTIME, "Found dtype %s but expected %s",
                         ts_dtype_type_name(y->dtype), ts_dtype_type_name(x->dtype));
        else if (!ts_nn_check_float(c, "binary_cross_entropy", x) && (o = bce(c, x, y)) &&
                 (o = apply_weight(c, o, w)))
            o = reduce_loss(c->error, o, ts_nn_int(a[3]));
    }
    return ts_args_return_tensor(&args, 0, o);
}

/* The dtype errors PyTorch's composite formula meets first: -input, clamp_min_ on it,
 * 1 - target, the in-place mul_ by input, and exp_ of -input's clamp. */
static int check_logits(TsCall *c, const TsTensor *x, const TsTensor *y)
{
    if (x->dtype == TS_BOOL)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "Negation, the `-` operator, on a bool "
                            "tensor is not supported. If you are trying to invert a mask, use "
                            "the `~` or `logical_not()` operator instead.");
    if (x->dtype == TS_FLOAT16)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "\"clamp_min_cpu\" not implemented for "
                            "'Half'");
    if (y->dtype == TS_BOOL)   /* 1 - target: the 1 is taken as a bool as well */
        return ts_error_set(c->error, TS_ERR_RUNTIME, "Subtraction, the `-` operator, with two "
                            "bool tensors is not supported. Use the `^` or `logical_xor()` "
                            "operator instead.");
    bool xi = ts_dtype_is_integral(x->dtype, false), yi = ts_dtype_is_integral(y->dtype, false);
    if (yi || xi)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "result type %s can't be cast to the "
                            "desired output type %s", ts_dtype_type_name(xi ? TS_FLOAT32
                                                                             : x->dtype),
                            ts_dtype_type_name(xi ? x->dtype : y->dtype));
    return 0;
}

/* aten::binary_cross_entropy_with_logits(Tensor self, Tensor target, Tensor? weight=None,
 *     Tensor? pos_weight=None, int reduction=1) -> Tensor */
static int k_binary_cross_entropy_with_logits(TsCall *c)
{
    TsArgs args;
    TsValue *a = args.v;
    TsTensor *x, *y, *w, *pw, *o = NULL, *one = NULL;
    if (ts_args_pop(c, TS_DEV_CPU, &args))
        return (int)c->error->code;
    if (!loss_args(&args, &x, &y) && !ts_args_opt_tensor(&args, 2, &w) &&
        !ts_args_opt_tensor(&args, 3, &pw) && !check_logits(c, x, y) &&
        (pw || (one = ts_cpu_wrap_scalar(ts_double(1), c->error)))) {
        TsTensor *in[3] = { x, y, pw ? pw : one };
        TsCpuEwArgs ea = { { 0, 0 }, { pw != NULL, 0 }, 0 };
        /* in place on (1 - target): the target's shape and dtype */
        if ((o = ts_cpu_empty(y->dtype, y->dim, y->sizes, c->error)) &&
            ts_cpu_ew(&ew_bce_logits, 3, in, &o, TS_EW_INPLACE, &ea, c->error)) {
            ts_tensor_release(o);
            o = NULL;
        }
        if (o && (o = apply_weight(c, o, w)))
            o = reduce_loss(c->error, o, ts_nn_int(a[4]));
    }
    if (one)
        ts_tensor_release(one);
    return ts_args_return_tensor(&args, 0, o);
}

static const TsCpuOp ops[] = {
    { "aten::mse_loss", "", k_mse_loss },
    { "aten::l1_loss", "", k_l1_loss },
    { "aten::smooth_l1_loss", "", k_smooth_l1_loss },
    { "aten::huber_loss", "", k_huber_loss },
    { "aten::kl_div", "", k_kl_div },
    { "aten::binary_cross_entropy", "", k_binary_cross_entropy },
    { "aten::binary_cross_entropy_with_logits", "", k_binary_cross_entropy_with_logits },
};

const TsCpuTable ts_cpu_loss_pointwise_table = { ops, sizeof ops / sizeof ops[0] };
