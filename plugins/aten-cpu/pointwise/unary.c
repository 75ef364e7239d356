/* unary.c — the unary pointwise ops (math, rounding, activations, logical/bitwise not) and
 * dtype conversion (aten::to and the methods that lower to it: .float(), .long(), ...).
 *
 * Math functions (exp, sin, sigmoid, gelu, ...) make integer and bool inputs float32, as
 * PyTorch does; rounding, sign, abs, neg and relu keep the dtype, and frac takes floats only.
 * Each op's loops come from one expression through <tgmath.h>, so float32 calls the float
 * functions (expf, not exp).
 * Every op has its out= and in-place forms through the elementwise engine.
 */
#include <float.h>
#include <string.h>
#include <tgmath.h>

#include "engine/elementwise.h"
#include "shape/shape_ops.h"
#include "vmath.h"

#define U64(v) ((uint64_t)(int64_t)(v))

/* A sign test that does not warn for unsigned dtypes. */
static inline bool negative(int64_t v) { return v < 0; }

/* The inverse error function: a rational first guess (Giles' single-precision
 * approximation) polished by two Newton steps on erf, in double. */
static double erfinv_d(double y)
{
    if (y != y || y < -1 || y > 1)
        return NAN;
    if (y == 1 || y == -1)
        return copysign(INFINITY, y);
    double w = -log((1 - y) * (1 + y)), x;
    if (w < 5) {
        w -= 2.5;
        x = 2.81022636e-08;
        x = 3.43273939e-07 + x * w;
        x = -3.5233877e-06 + x * w;
        x = -4.39150654e-06 + x * w;
        x = 0.00021858087 + x * w;
        x = -0.00125372503 + x * w;
        x = -0.00417768164 + x * w;
        x = 0.246640727 + x * w;
        x = 1.50140941 + x * w;
    } else {
        w = sqrt(w) - 3;
        x = -0.000200214257;
        x = 0.000100950558 + x * w;
        x = 0.00134934322 + x * w;
        x = -0.00367342844 + x * w;
        x = 0.00573950773 + x * w;
        x = -0.0076224613 + x * w;
        x = 0.00943887047 + x * w;
        x = 1.00167406 + x * w;
        x = 2.83297682 + x * w;
    }
    x *= y;
    for (int i = 0; i < 2; i++)          /* d/dx erf(x) = 2/sqrt(pi) exp(-x^2) */
        x -= (erf(x) - y) / (1.12837916709551257390 * exp(-x * x));
    return x;
}


#define LOOP(DT, T, OP, EXPR) EW_UNARY(DT, T, OP, T, EXPR)
#define BOOL_LOOP(DT, T, OP, EXPR) EW_UNARY(DT, T, OP, bool, EXPR)
/* floats only (inputs of other dtypes are computed as float32) */
#define DEF_FLOAT(OP, EXPR) \
    EW_FLOAT_TYPES(LOOP, OP, EXPR) \
    static const TsCpuLoop OP##_loops[TS_DTYPE__COUNT] = { EW_FLOAT_TYPES(EW_ENTRY, OP) };
/* integers and floats, each family its own expression */
#define DEF_NUM(OP, INT_EXPR, FLOAT_EXPR) \
    EW_INT_TYPES(LOOP, OP, INT_EXPR) EW_FLOAT_TYPES(LOOP, OP, FLOAT_EXPR) \
    static const TsCpuLoop OP##_loops[TS_DTYPE__COUNT] = { \
        EW_INT_TYPES(EW_ENTRY, OP) EW_FLOAT_TYPES(EW_ENTRY, OP) };
#define DEF_ALL(OP, INT_EXPR, FLOAT_EXPR, BOOL_EXPR) \
    EW_INT_TYPES(LOOP, OP, INT_EXPR) EW_FLOAT_TYPES(LOOP, OP, FLOAT_EXPR) \
    EW_BOOL_TYPES(LOOP, OP, BOOL_EXPR) \
    static const TsCpuLoop OP##_loops[TS_DTYPE__COUNT] = { \
        EW_INT_TYPES(EW_ENTRY, OP) EW_FLOAT_TYPES(EW_ENTRY, OP) EW_BOOL_TYPES(EW_ENTRY, OP) };

DEF_FLOAT(exp, exp(x))
/* The sign of the NaN out of a domain is PyTorch's (its vectorized kernels', not libm's,
 * which print differently: "nan" against "-nan"): log and log2 of a negative give +NaN,
 * acos out of [-1, 1] the x86 default NaN (-NaN), asin there a NaN of the sign opposite
 * to x's. */
DEF_FLOAT(log, x < 0 ? (scalar_t)NAN : log(x))
DEF_FLOAT(log2, x < 0 ? (scalar_t)NAN : log2(x))
DEF_FLOAT(log10, log10(x))
DEF_FLOAT(log1p, log1p(x))
DEF_FLOAT(expm1, expm1(x))
DEF_FLOAT(sqrt, sqrt(x))
DEF_FLOAT(rsqrt, 1 / sqrt(x))
DEF_FLOAT(sin, sin(x))
DEF_FLOAT(cos, cos(x))
DEF_FLOAT(tan, tan(x))
/* float32 tanh through vmath.h, which vectorizes; double through libm */
#define TANH(x) _Generic((x), float: ts_tanhf, default: tanh)(x)
DEF_FLOAT(tanh, TANH(x))
DEF_FLOAT(erf, erf(x))
DEF_FLOAT(reciprocal, 1 / x)
/* float32 sigmoid through vmath.h too (the fuser's is the same), double through libm */
#define SIGMOID(x) _Generic((x), float: ts_sigmoidf, default: sigmoid_d)(x)
static inline double sigmoid_d(double x) { return 1 / (1 + exp(-x)); }
DEF_FLOAT(sigmoid, SIGMOID(x))
DEF_FLOAT(silu, x / (1 + exp(-x)))
DEF_FLOAT(gelu, x * (scalar_t)0.5 * (1 + erf(x * (scalar_t)0.70710678118654752440)))
DEF_FLOAT(gelu_tanh, (scalar_t)0.5 * x * (1 + tanh((scalar_t)0.79788456080286535588 *
                                             (x + (scalar_t)0.044715 * x * x * x))))
DEF_NUM(neg, 0 - U64(x), -x)
DEF_NUM(abs, negative(x) ? 0 - U64(x) : U64(x), fabs(x))
DEF_NUM(floor, x, floor(x))
DEF_NUM(ceil, x, ceil(x))
DEF_NUM(round, x, nearbyint(x))
DEF_NUM(trunc, x, trunc(x))
DEF_FLOAT(frac, x - trunc(x))
/* round(decimals=d): args->d[0] is 10^|d| in the loop's type, args->i[0] set when d < 0 */
DEF_FLOAT(round_dec, args->i[0] ? nearbyint(x / (scalar_t)args->d[0]) * (scalar_t)args->d[0]
                                : nearbyint(x * (scalar_t)args->d[0]) / (scalar_t)args->d[0])
DEF_NUM(relu, x > 0 ? x : 0, x > 0 || x != x ? x : 0)
DEF_FLOAT(asin, x > 1 ? (scalar_t)-NAN : x < -1 ? (scalar_t)NAN : asin(x))
DEF_FLOAT(acos, x > 1 || x < -1 ? (scalar_t)-NAN : acos(x))
DEF_FLOAT(atan, atan(x))
DEF_FLOAT(sinh, sinh(x))
DEF_FLOAT(cosh, cosh(x))
DEF_FLOAT(asinh, asinh(x))
DEF_FLOAT(acosh, acosh(x))
DEF_FLOAT(atanh, atanh(x))
DEF_FLOAT(erfc, erfc(x))
DEF_FLOAT(erfinv, (scalar_t)erfinv_d((double)x))
DEF_FLOAT(exp2, exp2(x))
DEF_FLOAT(lgamma, lgamma(x))
/* sin(pi x) / (pi x) with pi x rounded to the loop's type, as PyTorch computes it */
DEF_FLOAT(sinc, x == 0 ? (scalar_t)1 : sin(x * (scalar_t)3.14159265358979323846) /
                                       (x * (scalar_t)3.14159265358979323846))
DEF_FLOAT(deg2rad, x * (scalar_t)(3.14159265358979323846 / 180))
DEF_FLOAT(rad2deg, x * (scalar_t)(180 / 3.14159265358979323846))
DEF_ALL(square, U64(x) * U64(x), x * x, x)
/* nan_to_num: args->d = { nan, posinf, neginf } already in the result's range */
DEF_ALL(nan_to_num, x, x != x ? (scalar_t)args->d[0] : isinf(x) ? (scalar_t)args->d[x > 0 ? 1 : 2]
                                                          : x, x)
DEF_ALL(sign, (x > 0) - negative(x), (x > 0) - (x < 0), x)

/* Predicates with a bool result: INT_EXPR for integers and bool, FLOAT_EXPR for floats
 * (x != x and x == x spell constant answers that still read x). */
#define DEF_PRED(OP, INT_EXPR, FLOAT_EXPR) \
    EW_INT_TYPES(BOOL_LOOP, OP, INT_EXPR) EW_FLOAT_TYPES(BOOL_LOOP, OP, FLOAT_EXPR) \
    EW_BOOL_TYPES(BOOL_LOOP, OP, INT_EXPR) \
    static const TsCpuLoop OP##_loops[TS_DTYPE__COUNT] = { \
        EW_INT_TYPES(EW_ENTRY, OP) EW_FLOAT_TYPES(EW_ENTRY, OP) EW_BOOL_TYPES(EW_ENTRY, OP) };
DEF_PRED(isnan, x != x, x != x)
DEF_PRED(isinf, x != x, isinf(x))
DEF_PRED(isposinf, x != x, isinf(x) && x > 0)
DEF_PRED(isneginf, x != x, isinf(x) && x < 0)
DEF_PRED(isfinite, x == x, isfinite(x))
DEF_PRED(isreal, x == x, x == x || x != x)
DEF_PRED(signbit, negative((int64_t)x), signbit(x) != 0)

#define DEF_INT(OP, EXPR) \
    EW_INT_TYPES(LOOP, OP, EXPR) EW_BOOL_TYPES(LOOP, OP, !x) \
    static const TsCpuLoop OP##_loops[TS_DTYPE__COUNT] = { \
        EW_INT_TYPES(EW_ENTRY, OP) EW_BOOL_TYPES(EW_ENTRY, OP) };
DEF_INT(bitwise_not, ~U64(x))
EW_INT_TYPES(BOOL_LOOP, logical_not, x == 0)
EW_FLOAT_TYPES(BOOL_LOOP, logical_not, x == 0)
EW_BOOL_TYPES(BOOL_LOOP, logical_not, !x)
static const TsCpuLoop logical_not_loops[TS_DTYPE__COUNT] = {
    EW_INT_TYPES(EW_ENTRY, logical_not) EW_FLOAT_TYPES(EW_ENTRY, logical_not)
    EW_BOOL_TYPES(EW_ENTRY, logical_not) };

/* X(name, loops, result kind) */
#define UNARY_OPS(X) \
    X(exp, exp, TS_EW_FLOAT) X(log, log, TS_EW_FLOAT) X(log2, log2, TS_EW_FLOAT) \
    X(log10, log10, TS_EW_FLOAT) X(log1p, log1p, TS_EW_FLOAT) X(expm1, expm1, TS_EW_FLOAT) \
    X(sqrt, sqrt, TS_EW_FLOAT) X(rsqrt, rsqrt, TS_EW_FLOAT) X(sin, sin, TS_EW_FLOAT) \
    X(cos, cos, TS_EW_FLOAT) X(tan, tan, TS_EW_FLOAT) X(tanh, tanh, TS_EW_FLOAT) \
    X(erf, erf, TS_EW_FLOAT) X(reciprocal, reciprocal, TS_EW_FLOAT) \
    X(sigmoid, sigmoid, TS_EW_FLOAT) X(silu, silu, TS_EW_FLOAT) X(gelu, gelu, TS_EW_FLOAT) \
    X(gelu_tanh, gelu_tanh, TS_EW_FLOAT) \
    X(neg, neg, TS_EW_SAME) X(abs, abs, TS_EW_SAME) X(floor, floor, TS_EW_SAME) \
    X(ceil, ceil, TS_EW_SAME) X(round, round, TS_EW_SAME) X(trunc, trunc, TS_EW_SAME) \
    X(frac, frac, TS_EW_SAME) \
    X(relu, relu, TS_EW_SAME) X(sign, sign, TS_EW_SAME) X(bitwise_not, bitwise_not, TS_EW_SAME) \
    X(logical_not, logical_not, TS_EW_BOOL) \
    X(asin, asin, TS_EW_FLOAT) X(acos, acos, TS_EW_FLOAT) X(atan, atan, TS_EW_FLOAT) \
    X(sinh, sinh, TS_EW_FLOAT) X(cosh, cosh, TS_EW_FLOAT) X(asinh, asinh, TS_EW_FLOAT) \
    X(acosh, acosh, TS_EW_FLOAT) X(atanh, atanh, TS_EW_FLOAT) X(erfc, erfc, TS_EW_FLOAT) \
    X(erfinv, erfinv, TS_EW_FLOAT) X(exp2, exp2, TS_EW_FLOAT) X(lgamma, lgamma, TS_EW_FLOAT) \
    X(sinc, sinc, TS_EW_FLOAT) X(deg2rad, deg2rad, TS_EW_FLOAT) \
    X(rad2deg, rad2deg, TS_EW_FLOAT) \
    X(square, square, TS_EW_SAME) X(nan_to_num, nan_to_num, TS_EW_SAME) \
    X(isnan, isnan, TS_EW_BOOL) X(isinf, isinf, TS_EW_BOOL) X(isposinf, isposinf, TS_EW_BOOL) \
    X(isneginf, isneginf, TS_EW_BOOL) X(isfinite, isfinite, TS_EW_BOOL) \
    X(isreal, isreal, TS_EW_BOOL) X(signbit, signbit, TS_EW_BOOL)
#define EWOP(NAME, LOOPS, RESULT) \
    static const TsCpuEwOp ew_##NAME = { #NAME, RESULT, false, LOOPS##_loops };
UNARY_OPS(EWOP)
#undef EWOP
/* named "round" for PyTorch's '"round_cpu" not implemented' */
static const TsCpuEwOp ew_round_dec = { "round", TS_EW_SAME, false, round_dec_loops };

/* ---- unary kernels -------------------------------------------------------------- */

typedef enum Form { F_NEW, F_OUT, F_INPLACE, F_GELU, F_GELU_OUT, F_GELU_INPLACE } Form;

/* The ops whose PyTorch CPU kernels have no float16 version, with the kernel name its
 * "... not implemented for 'Half'" message gives. */
static const struct {
    const TsCpuEwOp *op;
    const char *kernel;
} no_half[] = {
    { &ew_exp, "exp_vml_cpu" }, { &ew_log, "log_vml_cpu" }, { &ew_log2, "log2_vml_cpu" },
    { &ew_log10, "log10_vml_cpu" }, { &ew_log1p, "log1p_vml_cpu" },
    { &ew_expm1, "expm1_vml_cpu" }, { &ew_sqrt, "sqrt_vml_cpu" }, { &ew_rsqrt, "rsqrt_cpu" },
    { &ew_sin, "sin_vml_cpu" }, { &ew_cos, "cos_vml_cpu" }, { &ew_tan, "tan_vml_cpu" },
    { &ew_tanh, "tanh_vml_cpu" }, { &ew_erf, "erf_vml_cpu" }, { &ew_sigmoid, "sigmoid_cpu" },
    { &ew_floor, "floor_vml_cpu" }, { &ew_ceil, "ceil_vml_cpu" }, { &ew_round, "round_vml_cpu" },
    { &ew_round_dec, "round_cpu" }, { &ew_trunc, "trunc_vml_cpu" }, { &ew_relu, "clamp_min_cpu" },
    { &ew_silu, "silu_cpu" }, { &ew_gelu, "GeluKernelImpl" }, { &ew_gelu_tanh, "GeluKernelImpl" },
    { &ew_asin, "asin_vml_cpu" }, { &ew_acos, "acos_vml_cpu" }, { &ew_atan, "atan_vml_cpu" },
    { &ew_sinh, "sinh_cpu" }, { &ew_cosh, "cosh_cpu" }, { &ew_asinh, "asinh_cpu" },
    { &ew_acosh, "acosh_cpu" }, { &ew_atanh, "atanh_cpu" }, { &ew_erfc, "erfc_vml_cpu" },
    { &ew_erfinv, "erfinv_vml_cpu" }, { &ew_lgamma, "lgamma_vml_cpu" }, { &ew_sinc, "sinc_cpu" },
};

/* float16 for the ops above; the same kernels also lack bool (floor, ceil, round, trunc) and
 * every non-floating dtype (silu, gelu), and fail with the same name. */
static int check_half(TsCall *c, const TsCpuEwOp *op, const TsTensor *t)
{
    bool rounding = op == &ew_floor || op == &ew_ceil || op == &ew_round || op == &ew_trunc ||
                    op == &ew_round_dec;
    bool act = op == &ew_silu || op == &ew_gelu || op == &ew_gelu_tanh;
    if (t->dtype != TS_FLOAT16 && !(t->dtype == TS_BOOL && rounding) &&
        !(act && !ts_dtype_is_floating(t->dtype)))
        return 0;
    for (size_t i = 0; i < sizeof no_half / sizeof no_half[0]; i++)
        if (no_half[i].op == op)
            return ts_error_set(c->error, TS_ERR_RUNTIME, "\"%s\" not implemented for '%s'",
                                no_half[i].kernel, ts_dtype_type_name(t->dtype));
    return 0;
}

/* The checks PyTorch makes before computing, with its messages. */
static int check_input(TsCall *c, const TsCpuEwOp *op, const TsTensor *t)
{
    if (check_half(c, op, t))
        return c->error->code;
    if (t->dtype != TS_BOOL)
        return 0;
    if (op == &ew_neg)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "Negation, the `-` operator, on a bool "
                            "tensor is not supported. If you are trying to invert a mask, use "
                            "the `~` or `logical_not()` operator instead.");
    if (op == &ew_relu)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "Boolean inputs not supported for relu");
    return 0;
}

static const TsCpuEwOp *gelu_op(TsCall *c, TsValue v)
{
    const char *s = v.tag == TS_TAG_STR ? ((const TsStr *)v.u.p)->data : "";
    if (strcmp(s, "none") == 0)
        return &ew_gelu;
    if (strcmp(s, "tanh") == 0)
        return &ew_gelu_tanh;
    ts_error_set(c->error, TS_ERR_RUNTIME, "approximate argument must be either none or tanh.");
    return NULL;
}

/* The last ending of this file's kernels: the new tensor out, or argument keep, which the
 * kernel wrote (out=, in place). */
static int finish(TsArgs *a, int rc, TsCpuEwMode mode, TsTensor *out, size_t keep)
{
    if (mode == TS_EW_NEW)
        return ts_args_return_tensor(a, rc, rc ? NULL : out);
    return ts_args_return_arg(a, rc, keep);
}

static int unary_call(TsCall *c, const TsCpuEwOp *op, Form form)
{
    bool gelu = form >= F_GELU, out_form = form == F_OUT || form == F_GELU_OUT;
    bool inplace = form == F_INPLACE || form == F_GELU_INPLACE;
    TsArgs a;
    TsTensor *out = NULL, *self = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc)
        rc = ts_args_tensor(&a, 0, &self);
    if (!rc)
        rc = check_input(c, op, self);
    if (!rc && gelu && !(op = gelu_op(c, a.v[1])))
        rc = c->error->code;
    if (!rc && gelu)
        rc = check_half(c, op, self);
    if (!rc && out_form)
        rc = ts_args_tensor(&a, a.n - 1, &out);
    if (inplace)
        out = self;
    TsTensor *cast = NULL;     /* square of bool computes in int64, as pow(self, 2) does */
    if (!rc && op == &ew_square && self->dtype == TS_BOOL) {
        if (inplace)
            rc = ts_error_set(c->error, TS_ERR_RUNTIME, "result type Long can't be cast to the "
                              "desired output type Bool");
        else if (!(self = cast = ts_cpu_cast(self, TS_INT64, c->error)))
            rc = c->error->code;
    }
    TsCpuEwMode mode = out_form ? TS_EW_OUT : inplace ? TS_EW_INPLACE : TS_EW_NEW;
    if (!rc)
        rc = ts_cpu_ew(op, 1, &self, &out, mode, NULL, c->error);
    if (cast)
        ts_tensor_release(cast);
    return finish(&a, rc, mode, out, out_form ? a.n - 1 : 0);
}

/* X(kernel name, qualname, overload, op, form) */
#define UNARY3(X, NAME) \
    X(NAME, NAME, , NAME, F_NEW) X(NAME##_out, NAME, out, NAME, F_OUT) \
    X(NAME##_, NAME##_, , NAME, F_INPLACE)
#define ALIAS3(X, NAME, OP) \
    X(NAME, NAME, , OP, F_NEW) X(NAME##_out, NAME, out, OP, F_OUT) \
    X(NAME##_, NAME##_, , OP, F_INPLACE)
#define UNARY2(X, NAME) X(NAME, NAME, , NAME, F_NEW) X(NAME##_out, NAME, out, NAME, F_OUT)
#define UNARY_KERNELS(X) \
    UNARY3(X, exp) UNARY3(X, log) UNARY3(X, log2) UNARY3(X, log10) UNARY3(X, log1p) \
    UNARY3(X, expm1) UNARY3(X, sqrt) UNARY3(X, rsqrt) UNARY3(X, sin) UNARY3(X, cos) \
    UNARY3(X, tan) UNARY3(X, tanh) UNARY3(X, erf) UNARY3(X, reciprocal) UNARY3(X, sigmoid) \
    UNARY3(X, silu) UNARY3(X, neg) UNARY3(X, abs) UNARY3(X, floor) UNARY3(X, ceil) \
    UNARY3(X, round) UNARY3(X, trunc) UNARY3(X, frac) UNARY3(X, relu) UNARY3(X, sign) \
    UNARY3(X, bitwise_not) UNARY3(X, logical_not) \
    UNARY3(X, asin) UNARY3(X, acos) UNARY3(X, atan) UNARY3(X, sinh) UNARY3(X, cosh) \
    UNARY3(X, asinh) UNARY3(X, acosh) UNARY3(X, atanh) UNARY3(X, erfc) UNARY3(X, erfinv) \
    UNARY3(X, exp2) UNARY3(X, lgamma) UNARY3(X, sinc) UNARY3(X, deg2rad) UNARY3(X, rad2deg) \
    UNARY3(X, square) \
    ALIAS3(X, arcsin, asin) ALIAS3(X, arccos, acos) ALIAS3(X, arctan, atan) \
    ALIAS3(X, arcsinh, asinh) ALIAS3(X, arccosh, acosh) ALIAS3(X, arctanh, atanh) \
    ALIAS3(X, absolute, abs) ALIAS3(X, negative, neg) ALIAS3(X, fix, trunc) \
    ALIAS3(X, sgn, sign) \
    UNARY2(X, isnan) UNARY2(X, isinf) UNARY2(X, isposinf) UNARY2(X, isneginf) \
    UNARY2(X, signbit) X(isfinite, isfinite, , isfinite, F_NEW) X(isreal, isreal, , isreal, F_NEW) \
    X(gelu, gelu, , gelu, F_GELU) X(gelu_out, gelu, out, gelu, F_GELU_OUT) \
    X(gelu_, gelu_, , gelu, F_GELU_INPLACE)

#define DEFINE_KERNEL(K, NAME, OVERLOAD, OP, FORM) \
    static int k_##K(TsCall *c) { return unary_call(c, &ew_##OP, FORM); }
UNARY_KERNELS(DEFINE_KERNEL)
#undef DEFINE_KERNEL

/* round.decimals(Tensor self, *, int decimals) -> Tensor and its out= form (out_form):
 * half to even at the decimal place, floats only. */
static int round_decimals(TsCall *c, bool out_form)
{
    TsArgs a;
    TsTensor *out = NULL, *self = NULL;
    int64_t d = 0;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc)
        rc = ts_args_tensor(&a, 0, &self);
    if (!rc)
        rc = ts_args_int(&a, 1, &d);
    if (!rc && out_form)
        rc = ts_args_tensor(&a, 2, &out);
    if (!rc)
        rc = check_half(c, &ew_round_dec, self);
    if (!rc) {
        /* beyond 10^308 the power is inf; clamping keeps the loops' arithmetic defined */
        double mag = (double)(d < 0 ? (d < -400 ? 400 : -d) : (d > 400 ? 400 : d));
        TsCpuEwArgs args = { { pow(10.0, mag), 0 }, { d < 0, 0 }, 0 };
        rc = ts_cpu_ew(&ew_round_dec, 1, &self, &out, out_form ? TS_EW_OUT : TS_EW_NEW, &args,
                       c->error);
    }
    return finish(&a, rc, out_form ? TS_EW_OUT : TS_EW_NEW, out, 2);
}

/* The largest finite value of a float dtype: nan_to_num's default for infinities. */
static double dtype_max(int dtype)
{
    switch (dtype) {
    case TS_FLOAT16: return 65504.0;
    case TS_BFLOAT16: return 3.38953138925153547590e38;
    case TS_FLOAT32: return FLT_MAX;
    default: return DBL_MAX;
    }
}

/* nan_to_num(Tensor self, float? nan=None, float? posinf=None, float? neginf=None) and its
 * out= and in-place forms: the replacements become the loop's arguments. */
static int nan_to_num_call(TsCall *c, Form form)
{
    TsArgs a;
    TsTensor *out = NULL, *self = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc)
        rc = ts_args_tensor(&a, 0, &self);
    if (!rc && form == F_OUT)
        rc = ts_args_tensor(&a, a.n - 1, &out);
    if (form == F_INPLACE)
        out = self;
    TsCpuEwArgs args = { { 0, 0, 0 }, { 0, 0 }, 0 };
    if (!rc) {
        /* the defaults are the range of the result's dtype */
        int dt = form == F_OUT ? out->dtype : self->dtype;
        double big = dtype_max(dt), dflt[3] = { 0, big, -big };
        for (int i = 0; i < 3; i++)
            args.d[i] = a.v[1 + i].tag == TS_TAG_DOUBLE ? a.v[1 + i].u.d : dflt[i];
    }
    TsCpuEwMode mode = form == F_OUT ? TS_EW_OUT : form == F_INPLACE ? TS_EW_INPLACE : TS_EW_NEW;
    if (!rc)
        rc = ts_cpu_ew(&ew_nan_to_num, 1, &self, &out, mode, &args, c->error);
    return finish(&a, rc, mode, out, form == F_OUT ? a.n - 1 : 0);
}

static int k_nan_to_num(TsCall *c) { return nan_to_num_call(c, F_NEW); }
static int k_nan_to_num_out(TsCall *c) { return nan_to_num_call(c, F_OUT); }
static int k_nan_to_num_(TsCall *c) { return nan_to_num_call(c, F_INPLACE); }

/* positive(Tensor(a) self) -> Tensor(a): self itself; PyTorch refuses bool. */
static int k_positive(TsCall *c)
{
    TsArgs a;
    TsTensor *self;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc)
        rc = ts_args_tensor(&a, 0, &self);
    if (!rc && self->dtype == TS_BOOL)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "The `+` operator, on a bool tensor is not "
                          "supported.");
    return ts_args_return_arg(&a, rc, 0);
}

static int k_round_decimals(TsCall *c) { return round_decimals(c, false); }
static int k_round_decimals_out(TsCall *c) { return round_decimals(c, true); }

/* ---- aten::to ------------------------------------------------------------------- */

/* Another backend's copy of t (converted to dtype here first), through its allocator. A
 * device named without an index ("cuda") is the backend's first: the cpu backend does not
 * know another backend's current device. */
static TsTensor *to_backend(TsArgs *a, const TsTensor *t, int dtype, TsDevice dev)
{
    TsError *err = a->call->error;
    TsAllocator *alloc = ts_runtime_allocator(a->call->runtime, dev.type);
    if (!alloc) {
        char name[32];
        ts_device_str(dev, name, sizeof name);
        ts_error_set(err, TS_ERR_RUNTIME, "%s: no backend is loaded for device %s (its "
                     "plugin, such as aten-cuda for cuda, is not in the config)",
                     ts_args_op_name(a), name);
        return NULL;
    }
    if (dev.index < 0)
        dev.index = 0;
    /* contiguous, in the new dtype: t itself when it is already */
    TsTensor *host = (TsTensor *)t;
    if (t->dtype == dtype && ts_tensor_is_contiguous(t))
        ts_tensor_retain(host);
    else
        host = ts_cpu_cast(t, dtype, err);
    TsTensor *r = host ? ts_tensor_copy_to(host, alloc, dev, err) : NULL;
    if (host)
        ts_tensor_release(host);
    return r;
}

/* The conversions (aten::to in every overload, cpu, cuda, type_as): self itself when
 * nothing changes and no copy is asked for, else a new tensor here or on another backend. */
static int k_to(TsCall *c)
{
    TsArgs a;
    TsAtenTo to;
    TsTensor *t;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc)
        rc = ts_aten_to_target(&a, &to);
    if (rc || (rc = ts_args_tensor(&a, 0, &t)))
        return ts_args_fail(&a, rc);
    if (to.has_device && to.device.type != TS_DEV_CPU) {
        TsTensor *r = to_backend(&a, t, to.dtype, to.device);
        return ts_args_return_tensor(&a, r ? 0 : (int)c->error->code, r);
    }
    bool keep_format = to.memory_format == TS_ATEN_MF_PRESERVE;
    if (to.dtype == t->dtype && !to.copy &&
        (keep_format || ts_aten_is_contiguous_as(t, to.memory_format)))
        return ts_args_return_arg(&a, 0, 0);
    TsTensor *r = keep_format ? ts_cpu_empty_like(t, to.dtype, c->error)  /* a dense layout */
                              : ts_cpu_empty_format(to.dtype, t->dim, t->sizes,
                                                    to.memory_format, c->error);
    if (r)
        ts_cpu_copy_into(r, t);
    return ts_args_return_tensor(&a, r ? 0 : (int)c->error->code, r);
}

#define TABLE_ROW(K, NAME, OVERLOAD, OP, FORM) { "aten::" #NAME, #OVERLOAD, k_##K },
static const TsCpuOp ops[] = {
    UNARY_KERNELS(TABLE_ROW)
    { "aten::to", "dtype", k_to }, { "aten::to", "device", k_to }, { "aten::to", "other", k_to },
    { "aten::to", "dtype_layout", k_to }, { "aten::to", "prim_dtype", k_to },
    { "aten::to", "prim_Device", k_to }, { "aten::to", "prim_other", k_to },
    { "aten::type_as", "", k_to }, { "aten::cpu", "", k_to }, { "aten::cuda", "", k_to },
    { "aten::round", "decimals", k_round_decimals },
    { "aten::round", "decimals_out", k_round_decimals_out },
    { "aten::nan_to_num", "", k_nan_to_num }, { "aten::nan_to_num", "out", k_nan_to_num_out },
    { "aten::nan_to_num_", "", k_nan_to_num_ },
    { "aten::positive", "", k_positive },
};
#undef TABLE_ROW

const TsCpuTable ts_cpu_unary_table = { ops, sizeof ops / sizeof ops[0] };
