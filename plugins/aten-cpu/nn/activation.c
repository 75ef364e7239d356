/* activation.c — the activations beyond unary.c's: hardtanh, relu6, leaky_relu, rrelu,
 * elu, celu, selu, softplus, mish, log_sigmoid, hardsigmoid, hardswish, threshold,
 * hardshrink, softshrink and logit, with their in-place and out= forms; and the two that
 * take a second tensor, glu (gates one half of a dim by the other) and prelu (a learned
 * slope per channel).
 *
 * Each is a loop table for the elementwise engine (so strides, in-place writes through views
 * and out= resizing come for free), its Scalar parameters passed in TsCpuEwArgs. The engine
 * would compute float16 and bfloat16 through the float32 loop; PyTorch 1.13's CPU kernels
 * exist for bfloat16 (except mish) but not for float16, so the dtype check happens here first,
 * with the name of the kernel PyTorch reports ('"elu_cpu" not implemented for 'Half'' from
 * celu and selu, which are elu in PyTorch; leaky_relu's from rrelu; clamp_scalar's from
 * hardtanh). hardtanh, relu6 and threshold keep integer dtypes, as PyTorch's do. elu has three
 * parameters and the args two doubles, so its input_scale travels in the bits of i[0].
 *
 * rrelu with training=True draws a random slope per element at or below 0 from PyTorch's CPU
 * generator, in its kernel's order (rrelu_train), so a seeded program gives PyTorch's numbers.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <tgmath.h>

#include "nn/nn.h"
#include "shape/shape_ops.h"

#define LOOP(DT, T, OP, EXPR) EW_UNARY(DT, T, OP, T, EXPR)

static inline double elu_input_scale(const TsCpuEwArgs *a)
{
    double v;
    memcpy(&v, &a->i[0], sizeof v);
    return v;
}

/* min(max(x, lo), hi): lo wins over hi when lo > hi, as in clamp; NaN stays NaN */
#define CLAMP(LO, HI) ((x < (LO) ? (LO) : x) > (HI) ? (HI) : (x < (LO) ? (LO) : x))
#define D0 ((scalar_t)args->d[0])
#define D1 ((scalar_t)args->d[1])

EW_INT_TYPES(LOOP, hardtanh, CLAMP((scalar_t)args->i[0], (scalar_t)args->i[1]))
EW_FLOAT_TYPES(LOOP, hardtanh, CLAMP(D0, D1))
EW_FLOAT_TYPES(LOOP, leaky_relu, x > 0 ? x : x * D0)
EW_FLOAT_TYPES(LOOP, elu, x <= 0 ? (exp(x * (scalar_t)elu_input_scale(args)) - 1) * D0 : x * D1)
EW_FLOAT_TYPES(LOOP, softplus, x * D0 > D1 ? x : log1p(exp(x * D0)) / D0)
EW_FLOAT_TYPES(LOOP, mish, x * tanh(log1p(exp(x))))
EW_FLOAT_TYPES(LOOP, log_sigmoid, (x < 0 ? x : 0) - log1p(exp(-fabs(x))))
EW_FLOAT_TYPES(LOOP, hardsigmoid, (x + 3 < 0 ? 0 : x + 3 > 6 ? 6 : x + 3) / 6)
EW_FLOAT_TYPES(LOOP, hardswish, x * (x + 3 < 0 ? 0 : x + 3 > 6 ? 6 : x + 3) / 6)
EW_INT_TYPES(LOOP, threshold, x <= (scalar_t)args->i[0] ? (scalar_t)args->i[1] : x)
EW_FLOAT_TYPES(LOOP, threshold, x <= D0 ? D1 : x)
EW_FLOAT_TYPES(LOOP, hardshrink, x >= -D0 && x <= D0 ? 0 : x)
EW_FLOAT_TYPES(LOOP, softshrink, x > D0 ? x - D0 : x < -D0 ? x + D0 : 0)
/* logit: i[0] set means clamp to [eps, 1 - eps] first */
EW_FLOAT_TYPES(LOOP, logit, args->i[0] ? log(CLAMP(D0, D1) / (1 - CLAMP(D0, D1)))
                                       : log(x / (1 - x)))

/* PyTorch computes logit on bfloat16 one rounded bfloat16 operation at a time (the others
 * in float32): this float32 loop rounds after each step, for bfloat16 inputs. */
static inline float bf16_round(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return f;   /* NaN stays NaN */
    u += 0x7fffu + ((u >> 16) & 1u);
    u &= 0xffff0000u;
    memcpy(&f, &u, sizeof f);
    return f;
}
#define BF(E) bf16_round((float)(E))
EW_UNARY(TS_FLOAT32, float, logit_bf16, float,
         log(BF(CLAMP(args->i[0] ? D0 : x, args->i[0] ? D1 : x) /
                BF(1 - CLAMP(args->i[0] ? D0 : x, args->i[0] ? D1 : x)))))
static const TsCpuLoop logit_bf16_loops[TS_DTYPE__COUNT] = { [TS_FLOAT32] = logit_bf16_TS_FLOAT32 };
static const TsCpuEwOp ew_logit_bf16 = { "logit", TS_EW_FLOAT, false, logit_bf16_loops };

static const TsCpuLoop hardtanh_loops[TS_DTYPE__COUNT] = {
    EW_INT_TYPES(EW_ENTRY, hardtanh) EW_FLOAT_TYPES(EW_ENTRY, hardtanh) };
static const TsCpuLoop threshold_loops[TS_DTYPE__COUNT] = {
    EW_INT_TYPES(EW_ENTRY, threshold) EW_FLOAT_TYPES(EW_ENTRY, threshold) };
static const TsCpuEwOp ew_hardtanh = { "hardtanh", TS_EW_SAME, false, hardtanh_loops };
static const TsCpuEwOp ew_threshold = { "threshold", TS_EW_SAME, false, threshold_loops };
#define FLOAT_TABLE(OP, RESULT) \
    static const TsCpuLoop OP##_loops[TS_DTYPE__COUNT] = { EW_FLOAT_TYPES(EW_ENTRY, OP) }; \
    static const TsCpuEwOp ew_##OP = { #OP, RESULT, false, OP##_loops };
FLOAT_TABLE(leaky_relu, TS_EW_SAME)
FLOAT_TABLE(elu, TS_EW_SAME)
FLOAT_TABLE(softplus, TS_EW_SAME)
FLOAT_TABLE(mish, TS_EW_SAME)
FLOAT_TABLE(log_sigmoid, TS_EW_SAME)
FLOAT_TABLE(hardsigmoid, TS_EW_SAME)
FLOAT_TABLE(hardswish, TS_EW_SAME)
FLOAT_TABLE(hardshrink, TS_EW_SAME)
FLOAT_TABLE(softshrink, TS_EW_SAME)
FLOAT_TABLE(logit, TS_EW_FLOAT)

typedef enum Act {
    HARDTANH, RELU6, LEAKY_RELU, RRELU, ELU, CELU, SELU, SOFTPLUS, MISH, LOG_SIGMOID,
    HARDSIGMOID, HARDSWISH, THRESHOLD, HARDSHRINK, SOFTSHRINK, LOGIT
} Act;

typedef enum Form { NEW, INPLACE, OUT } Form;

/* How an out= tensor of another dtype than self is treated. */
typedef enum OutRule {
    OUT_PROMOTE,      /* the engine's rule: any dtype the result casts to */
    OUT_FOUND,        /* "Found dtype Double but expected Float" (structured kernels) */
    OUT_EXPECTED      /* "expected scalar type Float but found Double" (log_sigmoid) */
} OutRule;

/* The kernel name PyTorch reports for a dtype each lacks; whether it has a bfloat16 kernel;
 * and its out= rule. */
static const struct {
    const TsCpuEwOp *op;
    const char *kernel;
    bool bf16;
    OutRule out;
} acts[] = {
    [HARDTANH] = { &ew_hardtanh, "clamp_scalar", true, OUT_FOUND },
    [RELU6] = { &ew_hardtanh, "clamp_scalar", true, OUT_FOUND },
    [LEAKY_RELU] = { &ew_leaky_relu, "leaky_relu", true, OUT_FOUND },
    [RRELU] = { &ew_leaky_relu, "leaky_relu", true, OUT_FOUND },
    [ELU] = { &ew_elu, "elu", true, OUT_FOUND },
    [CELU] = { &ew_elu, "elu", true, OUT_FOUND },
    [SELU] = { &ew_elu, "elu", true, OUT_FOUND },
    [SOFTPLUS] = { &ew_softplus, "softplus", true, OUT_FOUND },
    [MISH] = { &ew_mish, "mish", false, OUT_FOUND },
    [LOG_SIGMOID] = { &ew_log_sigmoid, "log_sigmoid", true, OUT_EXPECTED },
    [HARDSIGMOID] = { &ew_hardsigmoid, "hardsigmoid", true, OUT_FOUND },
    [HARDSWISH] = { &ew_hardswish, "hardswish", true, OUT_FOUND },
    [THRESHOLD] = { &ew_threshold, "threshold", true, OUT_PROMOTE },
    [HARDSHRINK] = { &ew_hardshrink, "hardshrink", true, OUT_FOUND },
    [SOFTSHRINK] = { &ew_softshrink, "softshrink", true, OUT_FOUND },
    [LOGIT] = { &ew_logit, "logit", true, OUT_PROMOTE },
};

/* SELU's constants (Klambauer et al.), as PyTorch spells them. */
static const double selu_alpha = 1.6732632423543772848170429916717;
static const double selu_scale = 1.0507009873554804934193349852946;

static void set_elu(TsCpuEwArgs *ea, double alpha, double scale, double input_scale)
{
    ea->d[0] = alpha * scale;
    ea->d[1] = scale;
    memcpy(&ea->i[0], &input_scale, sizeof input_scale);
}

static int64_t elem_int(int dtype, const void *p)
{
    switch (dtype) {
    case TS_UINT8: return *(const uint8_t *)p;
    case TS_INT8: return *(const int8_t *)p;
    case TS_INT16: return *(const int16_t *)p;
    case TS_INT32: return *(const int32_t *)p;
    default: return *(const int64_t *)p;
    }
}

/* threshold and value converted to self's dtype first, with PyTorch's overflow checks. */
static int threshold_args(TsCall *c, const TsValue *a, int dtype, TsCpuEwArgs *ea)
{
    unsigned char e[2][16];
    for (int k = 0; k < 2; k++) {
        if (ts_aten_scalar_to_elem(a[1 + k], dtype, e[k], c->error))
            return c->error->code;
        if (ts_dtype_is_floating(dtype))
            ea->d[k] = ts_cpu_load_double(dtype, e[k]);
        else
            ea->i[k] = elem_int(dtype, e[k]);
    }
    return 0;
}

/* Fills the loop's args from the Scalars, with the argument checks PyTorch makes. */
static int fill_args(TsCall *c, Act act, const TsValue *a, int dtype, TsCpuEwArgs *ea)
{
    TsError *err = c->error;
    memset(ea, 0, sizeof *ea);
    switch (act) {
    case HARDTANH:
        ea->d[0] = ts_nn_double(a[1]);
        ea->d[1] = ts_nn_double(a[2]);
        ea->i[0] = a[1].tag == TS_TAG_DOUBLE ? (int64_t)a[1].u.d : ts_nn_int(a[1]);
        ea->i[1] = a[2].tag == TS_TAG_DOUBLE ? (int64_t)a[2].u.d : ts_nn_int(a[2]);
        return 0;
    case RELU6:
        ea->d[1] = 6;
        ea->i[1] = 6;
        return 0;
    case RRELU: {
        double lower = ts_nn_double(a[1]), upper = ts_nn_double(a[2]);
        if (lower > upper)
            return ts_error_set(err, TS_ERR_RUNTIME, "Lower bound should be less than or "
                                "equal to the upper bound");
        ea->d[0] = (lower + upper) / 2;
        ea->d[1] = lower;
        ea->d[2] = upper;
        ea->i[0] = a[3].tag == TS_TAG_BOOL && a[3].u.b;   /* training: random slopes */
        return 0;
    }
    case ELU:
        set_elu(ea, ts_nn_double(a[1]), ts_nn_double(a[2]), ts_nn_double(a[3]));
        return 0;
    case CELU: {
        double alpha = ts_nn_double(a[1]);
        if (alpha == 0)
            return ts_error_set(err, TS_ERR_RUNTIME, "ZeroDivisionError: alpha cannot be 0 "
                                "for CELU");
        set_elu(ea, alpha, 1, 1 / alpha);
        return 0;
    }
    case SELU:
        set_elu(ea, selu_alpha, selu_scale, 1);
        return 0;
    case LEAKY_RELU:
    case SOFTPLUS:
        ea->d[0] = ts_nn_double(a[1]);
        ea->d[1] = act == SOFTPLUS ? ts_nn_double(a[2]) : 0;
        return 0;
    case THRESHOLD:
        return threshold_args(c, a, dtype, ea);
    case SOFTSHRINK:
        if (ts_nn_double(a[1]) < 0) {
            char s[32];
            if (a[1].tag == TS_TAG_DOUBLE)
                snprintf(s, sizeof s, "%.17g", a[1].u.d);
            else
                snprintf(s, sizeof s, "%lld", (long long)ts_nn_int(a[1]));
            return ts_error_set(err, TS_ERR_RUNTIME, "lambda must be greater or equal to 0, "
                                "but found to be %s.", s);
        }
        /* fall through */
    case HARDSHRINK:
        ea->d[0] = ts_nn_double(a[1]);
        return 0;
    case LOGIT:
        /* eps None (or negative) computes without clamping, as PyTorch */
        if (a[1].tag != TS_TAG_NONE && ts_nn_double(a[1]) >= 0) {
            ea->i[0] = 1;
            ea->d[0] = ts_nn_double(a[1]);
            ea->d[1] = 1 - ea->d[0];
        }
        return 0;
    default:
        return 0;
    }
}

/* The dtype checks PyTorch's kernels make before any computing. */
static int check_dtype(TsCall *c, Act act, const TsTensor *x)
{
    int dt = x->dtype;
    if (dt == TS_BOOL && (act == HARDTANH || act == RELU6))
        return ts_error_set(c->error, TS_ERR_RUNTIME, "Bool inputs not supported for hardtanh");
    bool ok;
    if (dt == TS_FLOAT16 || dt == TS_BFLOAT16)
        ok = dt == TS_BFLOAT16 && acts[act].bf16;
    else if (act == LOGIT)   /* integers and bool compute in float32 */
        ok = ts_aten_promote_types(dt, dt) >= 0;
    else
        ok = dt >= 0 && dt < TS_DTYPE__COUNT && acts[act].op->loops[dt] != NULL;
    if (ok)
        return 0;
    return ts_error_set(c->error, TS_ERR_RUNTIME, "\"%s_cpu\" not implemented for '%s'",
                        acts[act].kernel, ts_dtype_type_name(dt));
}

static int check_out(TsCall *c, Act act, const TsTensor *x, const TsTensor *out)
{
    if (x->dtype == out->dtype || acts[act].out == OUT_PROMOTE)
        return 0;
    const char *xs = ts_dtype_type_name(x->dtype), *os = ts_dtype_type_name(out->dtype);
    if (acts[act].out == OUT_EXPECTED)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "expected scalar type %s but found %s",
                            xs, os);
    return ts_error_set(c->error, TS_ERR_RUNTIME, "Found dtype %s but expected %s", os, xs);
}

/* rrelu with training=True, as PyTorch's CPU kernel: over x's elements in order, each one at
 * or below 0 times a slope drawn uniformly from [lower, upper) (a 53-bit uniform from
 * PyTorch's CPU generator, tscript/random.h), the others kept; into out (x itself in place,
 * else a new contiguous tensor). */
static int rrelu_train(const TsTensor *x, TsTensor **out, double lower, double upper,
                       TsError *err)
{
    int dt = x->dtype;
    TsTensor *xc = ts_cpu_empty(dt, x->dim, x->sizes, err);
    TsTensor *o = *out ? ts_cpu_empty(dt, x->dim, x->sizes, err) : xc;
    if (!xc || !o) {
        if (xc)
            ts_tensor_release(xc);
        return err->code;
    }
    ts_cpu_copy_into(xc, x);
    int64_t n = ts_tensor_numel(x);
    const char *in = ts_tensor_data(xc);
    char *res = ts_tensor_data(o);
    char bounds[2][8];
    ts_cpu_store_double(dt, bounds[0], lower);   /* the bounds in the input's dtype */
    ts_cpu_store_double(dt, bounds[1], upper);
    double lo = ts_cpu_load_double(dt, bounds[0]), hi = ts_cpu_load_double(dt, bounds[1]);
    ts_random_lock();
    for (int64_t i = 0; i < n; i++) {
        double v = ts_nn_get(dt, in, i);
        if (v <= 0) {
            char slope[8];
            ts_cpu_store_double(dt, slope, fma(ts_random_mt_double(), hi - lo, lo));
            v *= ts_cpu_load_double(dt, slope);
        }
        ts_nn_set(dt, res, i, v);
    }
    ts_random_unlock();
    if (*out) {   /* in place: back into x's own strides */
        ts_cpu_copy_into(*out, o);
        ts_tensor_release(o);
        ts_tensor_release(xc);
    } else {
        *out = o;
    }
    return 0;
}

static int act_call(TsCall *c, Act act, Form form)
{
    TsArgs args;
    TsValue *a = args.v;
    TsCpuEwArgs ea;
    if (ts_args_pop(c, TS_DEV_CPU, &args))
        return (int)c->error->code;
    TsTensor *x = ts_nn_tensor(&args, 0), *out = form == INPLACE ? x : NULL;
    int rc = x ? check_dtype(c, act, x) : (int)c->error->code;
    if (!rc && form == OUT)
        rc = (out = ts_nn_tensor(&args, args.n - 1)) ? check_out(c, act, x, out)
                                                     : (int)c->error->code;
    if (!rc)
        rc = fill_args(c, act, a, x->dtype, &ea);
    TsCpuEwMode mode = form == OUT ? TS_EW_OUT : form == INPLACE ? TS_EW_INPLACE : TS_EW_NEW;
    const TsCpuEwOp *op = acts[act].op;
    if (!rc && act == LOGIT && x->dtype == TS_BFLOAT16) {
        op = &ew_logit_bf16;
        ea.d[0] = bf16_round((float)ea.d[0]);
        ea.d[1] = bf16_round((float)(1 - ea.d[0]));
    }
    if (!rc && act == RRELU && ea.i[0])
        rc = rrelu_train(x, &out, ea.d[1], ea.d[2], c->error);
    else if (!rc)
        rc = ts_cpu_ew(op, 1, &x, &out, mode, &ea, c->error);
    if (form != NEW)
        return ts_args_return_arg(&args, rc, form == OUT ? args.n - 1 : 0);
    return ts_args_return_tensor(&args, rc, out);
}

/* The forms PyTorch declares for each: X(name, Act). */
#define NEW_FORMS(X) \
    X(hardtanh, HARDTANH) X(relu6, RELU6) X(leaky_relu, LEAKY_RELU) X(rrelu, RRELU) \
    X(elu, ELU) X(celu, CELU) X(selu, SELU) X(softplus, SOFTPLUS) X(mish, MISH) \
    X(log_sigmoid, LOG_SIGMOID) X(hardsigmoid, HARDSIGMOID) X(hardswish, HARDSWISH) \
    X(threshold, THRESHOLD) X(hardshrink, HARDSHRINK) X(softshrink, SOFTSHRINK) \
    X(logit, LOGIT)
#define INPLACE_FORMS(X) \
    X(hardtanh, HARDTANH) X(relu6, RELU6) X(leaky_relu, LEAKY_RELU) X(rrelu, RRELU) \
    X(elu, ELU) X(celu, CELU) X(selu, SELU) X(mish, MISH) X(hardsigmoid, HARDSIGMOID) \
    X(hardswish, HARDSWISH) X(threshold, THRESHOLD) X(logit, LOGIT)
#define OUT_FORMS(X) \
    X(hardtanh, HARDTANH) X(leaky_relu, LEAKY_RELU) X(elu, ELU) X(celu, CELU) \
    X(softplus, SOFTPLUS) X(mish, MISH) X(log_sigmoid, LOG_SIGMOID) \
    X(hardsigmoid, HARDSIGMOID) X(hardswish, HARDSWISH) X(threshold, THRESHOLD) \
    X(hardshrink, HARDSHRINK) X(softshrink, SOFTSHRINK) X(logit, LOGIT)

#define DEFINE_NEW(NAME, ACT) static int k_##NAME(TsCall *c) { return act_call(c, ACT, NEW); }
#define DEFINE_INPLACE(NAME, ACT) \
    static int k_##NAME##_(TsCall *c) { return act_call(c, ACT, INPLACE); }
#define DEFINE_OUT(NAME, ACT) \
    static int k_##NAME##_out(TsCall *c) { return act_call(c, ACT, OUT); }
NEW_FORMS(DEFINE_NEW)
INPLACE_FORMS(DEFINE_INPLACE)
OUT_FORMS(DEFINE_OUT)

/* ---- glu and prelu: two operands --------------------------------------------------- */

#define LOOP2(DT, T, OP, EXPR) EW_BINARY(DT, T, OP, T, EXPR)
EW_FLOAT_TYPES(LOOP2, glu, x * (1 / (1 + exp(-y))))
EW_FLOAT_TYPES(LOOP2, prelu, x > 0 ? x : y * x)
static const TsCpuLoop glu_loops[TS_DTYPE__COUNT] = { EW_FLOAT_TYPES(EW_ENTRY, glu) };
static const TsCpuLoop prelu_loops[TS_DTYPE__COUNT] = { EW_FLOAT_TYPES(EW_ENTRY, prelu) };
static const TsCpuEwOp ew_glu = { "glu", TS_EW_SAME, false, glu_loops };
static const TsCpuEwOp ew_prelu = { "prelu", TS_EW_SAME, false, prelu_loops };

static int float_or_bf16(TsCall *c, const char *kernel, const TsTensor *x)
{
    if (x->dtype == TS_FLOAT32 || x->dtype == TS_FLOAT64 || x->dtype == TS_BFLOAT16)
        return 0;
    return ts_error_set(c->error, TS_ERR_RUNTIME, "\"%s_cpu\" not implemented for '%s'", kernel,
                        ts_dtype_type_name(x->dtype));
}

/* aten::glu(Tensor self, int dim=-1) -> Tensor, and glu.out: first half * sigmoid(second). */
static int glu_call(TsCall *c, bool out_form)
{
    TsArgs args;
    TsValue *a = args.v;
    TsTensor *x, *out = NULL, *half[2] = { NULL, NULL };
    if (ts_args_pop(c, TS_DEV_CPU, &args))
        return (int)c->error->code;
    int rc = (x = ts_nn_tensor(&args, 0)) ? 0 : (int)c->error->code;
    int d = 0;
    if (!rc && x->dim == 0)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "glu does not support 0-dimensional "
                          "tensors");
    if (!rc)
        rc = ts_aten_wrap_dim(ts_nn_int(a[1]), x->dim, false, &d, c->error);
    if (!rc && x->sizes[d] % 2)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Halving dimension must be even, but "
                          "dimension %d is size %lld", d, (long long)x->sizes[d]);
    if (!rc)
        rc = float_or_bf16(c, "glu", x);
    if (!rc && out_form && !(out = ts_nn_tensor(&args, 2)))
        rc = c->error->code;
    int64_t sizes[TS_TENSOR_MAX_DIMS];
    for (int k = 0; !rc && k < 2; k++) {
        memcpy(sizes, x->sizes, sizeof(int64_t) * (size_t)x->dim);
        sizes[d] /= 2;
        half[k] = ts_aten_view(x, x->dim, sizes, x->strides,
                              x->offset + k * sizes[d] * x->strides[d], c->error);
        rc = half[k] ? 0 : (int)c->error->code;
    }
    if (!rc)
        rc = ts_cpu_ew(&ew_glu, 2, half, &out, out_form ? TS_EW_OUT : TS_EW_NEW, NULL,
                       c->error);
    for (int k = 0; k < 2; k++)
        if (half[k])
            ts_tensor_release(half[k]);
    if (out_form)
        return ts_args_return_arg(&args, rc, 2);
    return ts_args_return_tensor(&args, rc, out);
}

static int k_glu(TsCall *c) { return glu_call(c, false); }
static int k_glu_out(TsCall *c) { return glu_call(c, true); }

/* The weight as an operand that broadcasts over self: 0-dim for one parameter, else
 * [C, 1, ...] against self's dim 1. */
static TsTensor *prelu_weight(TsCall *c, const TsTensor *x, const TsTensor *w)
{
    int64_t sizes[TS_TENSOR_MAX_DIMS], strides[TS_TENSOR_MAX_DIMS];
    if (ts_tensor_numel(w) == 1)
        return ts_aten_view(w, 0, sizes, strides, w->offset, c->error);
    int dim = x->dim - 1;
    for (int k = 0; k < dim; k++) {
        sizes[k] = 1;
        strides[k] = 1;
    }
    sizes[0] = w->sizes[0];
    strides[0] = w->strides[0];
    return ts_aten_view(w, dim, sizes, strides, w->offset, c->error);
}

/* aten::prelu(Tensor self, Tensor weight) -> Tensor, and prelu.out */
static int prelu_call(TsCall *c, bool out_form)
{
    TsArgs args;
    TsTensor *x, *w = NULL, *out = NULL, *in[2] = { NULL, NULL };
    if (ts_args_pop(c, TS_DEV_CPU, &args))
        return (int)c->error->code;
    int rc = (x = ts_nn_tensor(&args, 0)) && (w = ts_nn_tensor(&args, 1)) ? 0
                                                                          : (int)c->error->code;
    int64_t nw = rc ? 0 : ts_tensor_numel(w);
    if (!rc && nw != 1) {
        int64_t channels = x->dim > 1 ? x->sizes[1] : 1;
        if (x->dim == 0)
            rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Not allow zero-dim input tensor.");
        else if (channels != nw)
            rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Mismatch of parameter numbers and "
                              "input channel size. Found parameter numbers = %lld and channel "
                              "size = %lld.", (long long)nw, (long long)channels);
    }
    if (!rc && w->dim > 1)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "prelu: Expected `weight` to be a scalar or "
                          "1D tensor, but got ndim = %d", w->dim);
    if (!rc && w->dtype != x->dtype)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Found dtype %s but expected %s",
                          ts_dtype_type_name(w->dtype), ts_dtype_type_name(x->dtype));
    if (!rc)
        rc = float_or_bf16(c, "prelu", x);
    if (!rc && out_form && !(out = ts_nn_tensor(&args, 2)))
        rc = c->error->code;
    if (!rc) {
        in[0] = x;
        in[1] = prelu_weight(c, x, w);
        rc = in[1] ? ts_cpu_ew(&ew_prelu, 2, in, &out, out_form ? TS_EW_OUT : TS_EW_NEW, NULL,
                               c->error)
                   : (int)c->error->code;
        if (in[1])
            ts_tensor_release(in[1]);
    }
    if (out_form)
        return ts_args_return_arg(&args, rc, 2);
    return ts_args_return_tensor(&args, rc, out);
}

static int k_prelu(TsCall *c) { return prelu_call(c, false); }
static int k_prelu_out(TsCall *c) { return prelu_call(c, true); }

#define ENTRY_NEW(NAME, ACT) { "aten::" #NAME, "", k_##NAME },
#define ENTRY_INPLACE(NAME, ACT) { "aten::" #NAME "_", "", k_##NAME##_ },
#define ENTRY_OUT(NAME, ACT) { "aten::" #NAME, "out", k_##NAME##_out },

static const TsCpuOp ops[] = {
    NEW_FORMS(ENTRY_NEW) INPLACE_FORMS(ENTRY_INPLACE) OUT_FORMS(ENTRY_OUT)
    { "aten::glu", "", k_glu }, { "aten::glu", "out", k_glu_out },
    { "aten::prelu", "", k_prelu }, { "aten::prelu", "out", k_prelu_out },
};

const TsCpuTable ts_cpu_activation_table = { ops, sizeof ops / sizeof ops[0] };
