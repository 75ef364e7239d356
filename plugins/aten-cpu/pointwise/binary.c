/* binary.c — the binary pointwise ops: arithmetic, division and its rounding modes,
 * remainder and fmod, pow, comparisons, logical and bitwise ops, maximum/minimum (also
 * registered as max.other/min.other and their out= forms, which PyTorch declares as the same
 * op), the math of two arguments (atan2, hypot, logaddexp, xlogy, copysign, float_power, ...),
 * gcd, lcm, shifts, PyTorch's other names for these (subtract, true_divide, greater, ...), and
 * outer (ger), a broadcast mul. Ops of three tensors are in ternary.c.
 *
 * Each op is a loop table generated from one expression per dtype family (integers wrap,
 * computed in uint64_t so overflow is defined; floats are IEEE; bool has its own meaning),
 * and every overload — Tensor/Tensor, Tensor/Scalar, Scalar/Tensor, out=, in-place — is one
 * call into the elementwise engine: a Scalar becomes a wrapped 0-dim tensor, which ranks
 * below tensors in type promotion. Integer division, remainder or fmod by zero is
 * PyTorch's "ZeroDivisionError"; alpha follows PyTorch's rules (no float alpha for integral
 * results, no bool alpha for non-bool results).
 */
#include <string.h>
#include <tgmath.h>

#include "engine/elementwise.h"

/* ---- integer helpers (the int64 value of any integer dtype) -------------------------- */

static inline int64_t floordiv_i(int64_t x, int64_t y, TsCpuEwArgs *a)
{
    if (y == 0) {
        a->status = TS_CPU_EW_ZERO_DIV;
        return 0;
    }
    if (y == -1)
        return (int64_t)(0 - (uint64_t)x);
    int64_t q = x / y;
    if (x % y != 0 && (x < 0) != (y < 0))
        q--;
    return q;
}

static inline int64_t truncdiv_i(int64_t x, int64_t y, TsCpuEwArgs *a)
{
    if (y == 0) {
        a->status = TS_CPU_EW_ZERO_DIV;
        return 0;
    }
    return y == -1 ? (int64_t)(0 - (uint64_t)x) : x / y;
}

static inline int64_t remainder_i(int64_t x, int64_t y, TsCpuEwArgs *a)
{
    if (y == 0) {
        a->status = TS_CPU_EW_ZERO_DIV;
        return 0;
    }
    if (y == -1)
        return 0;
    int64_t r = x % y;
    return r != 0 && (r < 0) != (y < 0) ? r + y : r;
}

/* C's %: the result has the sign of x (fmod's truncation semantics). */
static inline int64_t fmod_i(int64_t x, int64_t y, TsCpuEwArgs *a)
{
    if (y == 0) {
        a->status = TS_CPU_EW_ZERO_DIV;
        return 0;
    }
    return y == -1 ? 0 : x % y;
}

/* gcd of the magnitudes (Euclid), and lcm through it; lcm(0, y) is 0. */
static inline int64_t gcd_i(int64_t x, int64_t y)
{
    uint64_t a = x < 0 ? 0 - (uint64_t)x : (uint64_t)x, b = y < 0 ? 0 - (uint64_t)y : (uint64_t)y;
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return (int64_t)a;
}

static inline int64_t lcm_i(int64_t x, int64_t y)
{
    int64_t g = gcd_i(x, y);
    if (g == 0)
        return 0;
    uint64_t r = (uint64_t)(x / g) * (uint64_t)y;
    return (int64_t)r < 0 ? (int64_t)(0 - r) : (int64_t)r;
}

/* x to the power y; a negative y gives 0 but for x = 1 or -1 (check_pow refuses a negative
 * Scalar exponent before the loop). */
static inline int64_t pow_i(int64_t x, int64_t y)
{
    if (y < 0) {
        if (x == 1)
            return 1;
        if (x == -1)
            return y & 1 ? -1 : 1;
        return 0;
    }
    uint64_t r = 1, b = (uint64_t)x;
    for (; y; y >>= 1, b *= b)
        if (y & 1)
            r *= b;
    return (int64_t)r;
}

/* ---- float helpers, one per float type from one macro -------------------------------- */

#define FLOAT_HELPERS(DT, T, ...) \
    static inline T remainder_##T(T x, T y) \
    { \
        T r = fmod(x, y); \
        return r != 0 && (y < 0) != (r < 0) ? r + y : r; \
    } \
    static inline T floordiv_##T(T x, T y) \
    { \
        if (y == 0) \
            return x / y; \
        T m = fmod(x, y), q = (x - m) / y; \
        if (m != 0 && (y < 0) != (m < 0)) \
            q -= 1; \
        if (q == 0) \
            return copysign((T)0, x / y); \
        T f = floor(q); \
        return q - f > (T)0.5 ? f + 1 : f; \
    } \
    static inline T max_##T(T x, T y) { return x != x ? x : y != y ? y : x > y ? x : y; } \
    static inline T logaddexp_##T(T x, T y) \
    { \
        if (isinf(x) && x == y) \
            return x; \
        T m = x > y || y != y ? x : y; \
        return m + log1p(exp(-fabs(x - y))); \
    } \
    static inline T logaddexp2_##T(T x, T y) \
    { \
        if (isinf(x) && x == y) \
            return x; \
        T m = x > y || y != y ? x : y; \
        return m + log1p(exp2(-fabs(x - y))) / (T)0.69314718055994530942; \
    } \
    static inline T xlogy_##T(T x, T y) { return y != y ? y : x == 0 ? 0 : x * log(y); } \
    static inline T min_##T(T x, T y) { return x != x ? x : y != y ? y : x < y ? x : y; } \
    /* x ** K for a Scalar K: PyTorch's kernel multiplies for 2, 3 and -2 and takes 1 / sqrt \
     * for -0.5, each rounded in the type (pow in double rounds once: other last bits) */ \
    static inline T pow_scalar_##T(T x, T y) \
    { \
        if (y == 2) \
            return x * x; \
        if (y == 3) \
            return x * x * x; \
        if (y == -2) \
            return (T)1 / (x * x); \
        if (y == (T)-0.5) \
            return (T)1 / (T)sqrt(x); \
        return (T)pow(x, y); \
    }
EW_FLOAT_TYPES(FLOAT_HELPERS, )
#undef FLOAT_HELPERS
#define FLOAT_HELPER(NAME, x, y) _Generic((x), float: NAME##_float, double: NAME##_double)(x, y)

#define U64(v) ((uint64_t)(int64_t)(v))

/* Shifts as PyTorch's CPU kernels compute them: operands narrower than int64 shift as 32-bit
 * ints, and the count is taken modulo that width (the x86 shift instruction's rule). Working
 * in 64 bits gives the same low bits; left shifts go through unsigned so overflow wraps, right
 * shifts of negative values are arithmetic. */
#define SHIFT_MASK(T) (sizeof(T) < sizeof(int64_t) ? 31u : 63u)
#define LSHIFT(T, x, y) ((T)(U64(x) << (U64(y) & SHIFT_MASK(T))))
#define RSHIFT(T, x, y) ((T)((int64_t)(x) >> (U64(y) & SHIFT_MASK(T))))

/* ---- loops ------------------------------------------------------------------------ */


/* OP(int expr, float expr, bool expr) -> OP_T loops and OP_loops table. A NULL family leaves
 * its dtypes out (not implemented). */
#define INT_LOOP(DT, T, OP, EXPR) EW_BINARY(DT, T, OP, T, EXPR)
#define DEF_OP(OP, INT_EXPR, FLOAT_EXPR, BOOL_EXPR) \
    EW_INT_TYPES(INT_LOOP, OP, INT_EXPR) \
    EW_FLOAT_TYPES(INT_LOOP, OP, FLOAT_EXPR) \
    EW_BOOL_TYPES(INT_LOOP, OP, BOOL_EXPR) \
    static const TsCpuLoop OP##_loops[TS_DTYPE__COUNT] = { \
        EW_INT_TYPES(EW_ENTRY, OP) EW_FLOAT_TYPES(EW_ENTRY, OP) EW_BOOL_TYPES(EW_ENTRY, OP) };
#define DEF_INT_OP(OP, INT_EXPR, BOOL_EXPR) \
    EW_INT_TYPES(INT_LOOP, OP, INT_EXPR) \
    EW_BOOL_TYPES(INT_LOOP, OP, BOOL_EXPR) \
    static const TsCpuLoop OP##_loops[TS_DTYPE__COUNT] = { \
        EW_INT_TYPES(EW_ENTRY, OP) EW_BOOL_TYPES(EW_ENTRY, OP) };
#define DEF_FLOAT_OP(OP, FLOAT_EXPR) \
    EW_FLOAT_TYPES(INT_LOOP, OP, FLOAT_EXPR) \
    static const TsCpuLoop OP##_loops[TS_DTYPE__COUNT] = { EW_FLOAT_TYPES(EW_ENTRY, OP) };
#define DEF_NUM_OP(OP, INT_EXPR, FLOAT_EXPR) \
    EW_INT_TYPES(INT_LOOP, OP, INT_EXPR) \
    EW_FLOAT_TYPES(INT_LOOP, OP, FLOAT_EXPR) \
    static const TsCpuLoop OP##_loops[TS_DTYPE__COUNT] = { \
        EW_INT_TYPES(EW_ENTRY, OP) EW_FLOAT_TYPES(EW_ENTRY, OP) };
/* every dtype, bool result */
#define CMP_LOOP(DT, T, OP, EXPR) EW_BINARY(DT, T, OP, bool, EXPR)
#define DEF_CMP(OP, EXPR) \
    EW_INT_TYPES(CMP_LOOP, OP, EXPR) EW_FLOAT_TYPES(CMP_LOOP, OP, EXPR) \
    EW_BOOL_TYPES(CMP_LOOP, OP, EXPR) \
    static const TsCpuLoop OP##_loops[TS_DTYPE__COUNT] = { \
        EW_INT_TYPES(EW_ENTRY, OP) EW_FLOAT_TYPES(EW_ENTRY, OP) EW_BOOL_TYPES(EW_ENTRY, OP) };

/* add computes x + alpha * y (sub negates alpha) */
DEF_OP(add, U64(x) + U64(args->i[0]) * U64(y), x + (scalar_t)args->d[0] * y,
       x || (y && args->i[0]))
DEF_OP(mul, U64(x) * U64(y), x * y, x && y)
DEF_FLOAT_OP(div, x / y)
DEF_NUM_OP(div_trunc, truncdiv_i(x, y, args), trunc(x / y))
DEF_NUM_OP(div_floor, floordiv_i(x, y, args), FLOAT_HELPER(floordiv, x, y))
DEF_NUM_OP(remainder, remainder_i(x, y, args), FLOAT_HELPER(remainder, x, y))
DEF_NUM_OP(fmod, fmod_i(x, y, args), fmod(x, y))
DEF_NUM_OP(pow, pow_i(x, y), pow(x, y))
DEF_NUM_OP(pow_scalar, pow_i(x, y), FLOAT_HELPER(pow_scalar, x, y))
DEF_OP(maximum, x > y ? x : y, FLOAT_HELPER(max, x, y), x || y)
DEF_OP(minimum, x < y ? x : y, FLOAT_HELPER(min, x, y), x && y)
DEF_FLOAT_OP(atan2, atan2(x, y))
DEF_FLOAT_OP(hypot, hypot(x, y))
DEF_FLOAT_OP(logaddexp, FLOAT_HELPER(logaddexp, x, y))
DEF_FLOAT_OP(logaddexp2, FLOAT_HELPER(logaddexp2, x, y))
DEF_FLOAT_OP(xlogy, FLOAT_HELPER(xlogy, x, y))
DEF_FLOAT_OP(nextafter, nextafter(x, y))
DEF_FLOAT_OP(copysign, copysign(x, y))
DEF_OP(heaviside, x == 0 ? y : x > 0, x == 0 ? y : x > 0, x == 0 ? y : x)
DEF_OP(fmax, x > y ? x : y, fmax(x, y), x || y)
DEF_OP(fmin, x < y ? x : y, fmin(x, y), x && y)
EW_INT_TYPES(INT_LOOP, lshift, LSHIFT(scalar_t, x, y))
EW_INT_TYPES(INT_LOOP, rshift, RSHIFT(scalar_t, x, y))
static const TsCpuLoop lshift_loops[TS_DTYPE__COUNT] = { EW_INT_TYPES(EW_ENTRY, lshift) };
static const TsCpuLoop rshift_loops[TS_DTYPE__COUNT] = { EW_INT_TYPES(EW_ENTRY, rshift) };
EW_INT_TYPES(INT_LOOP, gcd, gcd_i(x, y))
EW_INT_TYPES(INT_LOOP, lcm, lcm_i(x, y))
static const TsCpuLoop gcd_loops[TS_DTYPE__COUNT] = { EW_INT_TYPES(EW_ENTRY, gcd) };
static const TsCpuLoop lcm_loops[TS_DTYPE__COUNT] = { EW_INT_TYPES(EW_ENTRY, lcm) };
DEF_INT_OP(bitwise_and, x & y, x & y)
DEF_INT_OP(bitwise_or, x | y, x | y)
DEF_INT_OP(bitwise_xor, x ^ y, x ^ y)
DEF_CMP(eq, x == y)
DEF_CMP(ne, x != y)
DEF_CMP(lt, x < y)
DEF_CMP(le, x <= y)
DEF_CMP(gt, x > y)
DEF_CMP(ge, x >= y)
DEF_CMP(logical_and, x != 0 && y != 0)
DEF_CMP(logical_or, x != 0 || y != 0)
DEF_CMP(logical_xor, (x != 0) != (y != 0))

#define EWOP(NAME, LOOPS, RESULT) \
    static const TsCpuEwOp ew_##NAME = { #NAME, RESULT, false, LOOPS##_loops };
EWOP(add, add, TS_EW_SAME)
EWOP(sub, add, TS_EW_SAME)
EWOP(mul, mul, TS_EW_SAME)
EWOP(div, div, TS_EW_FLOAT)
EWOP(div_trunc, div_trunc, TS_EW_SAME)
EWOP(div_floor, div_floor, TS_EW_SAME)
EWOP(floor_divide, div_floor, TS_EW_SAME)
EWOP(remainder, remainder, TS_EW_SAME)
EWOP(fmod, fmod, TS_EW_SAME)
EWOP(pow, pow, TS_EW_SAME)
static const TsCpuEwOp ew_pow_scalar = { "pow", TS_EW_SAME, false, pow_scalar_loops };
EWOP(maximum, maximum, TS_EW_SAME)
EWOP(minimum, minimum, TS_EW_SAME)
EWOP(bitwise_and, bitwise_and, TS_EW_SAME)
EWOP(bitwise_or, bitwise_or, TS_EW_SAME)
EWOP(bitwise_xor, bitwise_xor, TS_EW_SAME)
EWOP(eq, eq, TS_EW_BOOL)
EWOP(ne, ne, TS_EW_BOOL)
EWOP(lt, lt, TS_EW_BOOL)
EWOP(le, le, TS_EW_BOOL)
EWOP(gt, gt, TS_EW_BOOL)
EWOP(ge, ge, TS_EW_BOOL)
EWOP(logical_and, logical_and, TS_EW_BOOL)
EWOP(logical_or, logical_or, TS_EW_BOOL)
EWOP(logical_xor, logical_xor, TS_EW_BOOL)
EWOP(atan2, atan2, TS_EW_FLOAT)
EWOP(hypot, hypot, TS_EW_SAME)
EWOP(logaddexp, logaddexp, TS_EW_SAME)
EWOP(logaddexp2, logaddexp2, TS_EW_SAME)
EWOP(xlogy, xlogy, TS_EW_FLOAT)
EWOP(nextafter, nextafter, TS_EW_SAME)
EWOP(copysign, copysign, TS_EW_FLOAT)
EWOP(heaviside, heaviside, TS_EW_SAME)
EWOP(fmax, fmax, TS_EW_SAME)
EWOP(fmin, fmin, TS_EW_SAME)
EWOP(lshift, lshift, TS_EW_SAME)
EWOP(rshift, rshift, TS_EW_SAME)
EWOP(float_power, pow, TS_EW_SAME)
EWOP(gcd, gcd, TS_EW_SAME)
EWOP(lcm, lcm, TS_EW_SAME)
#undef EWOP

/* ---- kernels ------------------------------------------------------------------------ */

/* The shapes of an overload's arguments. */
typedef enum Form {
    F_TT,          /* (Tensor self, Tensor other) */
    F_TS,          /* (Tensor self, Scalar other) */
    F_ST,          /* (Scalar self, Tensor other) */
    F_TT_OUT,      /* ... *, Tensor(a!) out */
    F_TS_OUT,
    F_ST_OUT,
    F_TT_INPLACE,  /* (Tensor(a!) self, Tensor other) */
    F_TS_INPLACE,
    F_TT_MODE,     /* div: (self, other, *, str? rounding_mode) */
    F_TS_MODE,
    F_TT_MODE_OUT,
    F_TS_MODE_OUT,
    F_TT_MODE_INPLACE,
    F_TS_MODE_INPLACE,
} Form;

/* What an op checks or changes before the engine runs. */
typedef enum Prep {
    P_NONE,
    P_SWAP,                    /* rsub: other - alpha * self */
    P_SAME_DTYPE,              /* heaviside: no promotion between its inputs */
    P_DOUBLE,                  /* float_power: computes and returns float64 */
    P_NO_HALF,                 /* PyTorch's CPU kernel has no float16 version */
} Prep;

typedef struct BinDesc {
    const char *name;          /* "float_power": PyTorch's messages name the function */
    const TsCpuEwOp *ew;
    bool alpha;                /* takes Scalar alpha after other */
    Prep prep;
} BinDesc;

static bool is_out(Form f)
{
    return f == F_TT_OUT || f == F_TS_OUT || f == F_ST_OUT || f == F_TT_MODE_OUT ||
           f == F_TS_MODE_OUT;
}

static bool is_inplace(Form f)
{
    return f == F_TT_INPLACE || f == F_TS_INPLACE || f == F_TT_MODE_INPLACE ||
           f == F_TS_MODE_INPLACE;
}

static bool has_mode(Form f)
{
    return f >= F_TT_MODE;
}

/* Argument i, self or other: a tensor (retained) or a wrapped scalar (new). */
static TsTensor *operand(TsArgs *a, size_t i, bool scalar)
{
    if (scalar)
        return ts_cpu_wrap_scalar(a->v[i], a->call->error);
    TsTensor *t;
    if (ts_args_tensor(a, i, &t))
        return NULL;
    ts_tensor_retain(t);
    return t;
}

static int read_alpha(TsCall *c, TsValue v, int result, bool negate, TsCpuEwArgs *args)
{
    bool integral = ts_dtype_is_integral(result, true);
    switch (v.tag) {
    case TS_TAG_INT:
        args->i[0] = v.u.i;
        args->d[0] = (double)v.u.i;
        break;
    case TS_TAG_DOUBLE:
        if (integral)
            return ts_error_set(c->error, TS_ERR_RUNTIME, "For integral input tensors, argument "
                                "alpha must not be a floating point number.");
        args->i[0] = 0;
        args->d[0] = v.u.d;
        break;
    case TS_TAG_BOOL:
        if (result != TS_BOOL)
            return ts_error_set(c->error, TS_ERR_RUNTIME,
                                "Boolean alpha only supported for Boolean results.");
        args->i[0] = v.u.b;
        args->d[0] = v.u.b;
        break;
    default:
        return ts_error_set(c->error, TS_ERR_TYPE, "alpha must be a number");
    }
    if (negate) {
        args->i[0] = (int64_t)(0 - (uint64_t)args->i[0]);
        args->d[0] = -args->d[0];
    }
    return 0;
}

static int check_sub(TsCall *c, TsTensor *const *in)
{
    bool a = in[0]->dtype == TS_BOOL, b = in[1]->dtype == TS_BOOL;
    if (a && b)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "Subtraction, the `-` operator, with two "
                            "bool tensors is not supported. Use the `^` or `logical_xor()` "
                            "operator instead.");
    if (a || b)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "Subtraction, the `-` operator, with a "
                            "bool tensor is not supported. If you are trying to invert a mask, "
                            "use the `~` or `logical_not()` operator instead.");
    return 0;
}

/* PyTorch refuses an integer tensor to a negative integer Scalar power up front; a negative
 * element of an exponent tensor gives 0 instead (pow_i). */
static int check_pow(TsCall *c, TsTensor *const *in)
{
    if (!ts_dtype_is_floating(in[0]->dtype) && !ts_dtype_is_complex(in[0]->dtype) &&
        in[1]->dtype == TS_INT64 && *(const int64_t *)ts_tensor_data(in[1]) < 0)
        return ts_error_set(c->error, TS_ERR_RUNTIME,
                            "Integers to negative integer powers are not allowed.");
    return 0;
}

/* div's rounding_mode: None (true division), "trunc" or "floor". */
static const TsCpuEwOp *div_mode(TsCall *c, TsValue v)
{
    if (v.tag == TS_TAG_NONE)
        return &ew_div;
    const char *s = v.tag == TS_TAG_STR ? ((const TsStr *)v.u.p)->data : "";
    if (v.tag == TS_TAG_STR && strcmp(s, "trunc") == 0)
        return &ew_div_trunc;
    if (v.tag == TS_TAG_STR && strcmp(s, "floor") == 0)
        return &ew_div_floor;
    ts_error_set(c->error, TS_ERR_RUNTIME, "div expected rounding_mode to be one of None, "
                 "'trunc', or 'floor' but found '%s'", s);
    return NULL;
}

/* The P_SAME_DTYPE, P_NO_HALF and P_DOUBLE rules, with PyTorch's messages; P_DOUBLE casts in[] to
 * float64 (replacing the references). */
static int prepare(TsCall *c, const BinDesc *d, TsTensor **in, const TsTensor *out, Form form)
{
    if (d->prep == P_SAME_DTYPE && in[0]->dtype != in[1]->dtype)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "%s is not yet implemented for tensors "
                            "with different dtypes.", d->name);
    if (d->prep == P_NO_HALF && ts_aten_result_type(2, in) == TS_FLOAT16)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "\"%s_cpu\" not implemented for 'Half'",
                            d->ew->name);
    if (d->prep != P_DOUBLE)
        return 0;
    if (out && out->dtype != TS_FLOAT64)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "the %s given to %s%s has dtype %s but "
                            "the operation's result requires dtype Double",
                            is_inplace(form) ? "base" : "output", d->name,
                            is_inplace(form) ? "_" : "", ts_dtype_type_name(out->dtype));
    for (int i = 0; i < 2; i++) {
        if (in[i]->dtype == TS_FLOAT64)
            continue;
        TsTensor *t = ts_cpu_cast(in[i], TS_FLOAT64, c->error);
        if (!t)
            return c->error->code;
        ts_tensor_release(in[i]);
        in[i] = t;
    }
    return 0;
}

static int bin_call(TsCall *c, const BinDesc *d, Form form)
{
    TsArgs a;
    TsCpuEwArgs args = { { 1, 0 }, { 1, 0 }, 0 };
    TsTensor *in[2] = { NULL, NULL }, *out = NULL;
    const TsCpuEwOp *ew = d->ew;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (rc)
        return ts_args_fail(&a, rc);
    bool self_scalar = form == F_ST || form == F_ST_OUT;
    bool other_scalar = form == F_TS || form == F_TS_OUT || form == F_TS_INPLACE ||
                        form == F_TS_MODE || form == F_TS_MODE_OUT || form == F_TS_MODE_INPLACE;
    in[0] = operand(&a, 0, self_scalar);
    in[1] = in[0] ? operand(&a, 1, other_scalar) : NULL;
    if (!in[1])
        rc = c->error->code;
    if (!rc && is_out(form))
        rc = ts_args_tensor(&a, a.n - 1, &out);
    if (!rc && is_inplace(form))
        out = in[0];
    if (!rc && d->prep == P_SWAP) {
        TsTensor *t = in[0];
        in[0] = in[1];
        in[1] = t;
    }
    if (!rc && d->prep != P_NONE)
        rc = prepare(c, d, in, out, form);
    if (!rc && has_mode(form) && !(ew = div_mode(c, a.v[2])))
        rc = c->error->code;
    if (!rc && ew == &ew_sub)
        rc = check_sub(c, in);
    if (!rc && ew == &ew_pow && other_scalar) {
        rc = check_pow(c, in);
        ew = &ew_pow_scalar;   /* a Scalar exponent: PyTorch's special cases */
    }
    if (!rc && d->prep == P_DOUBLE && is_inplace(form))
        out = in[0];           /* self was float64 already: prepare kept it */
    if (!rc && d->alpha)
        rc = read_alpha(c, a.v[2], ts_aten_result_type(2, in), ew == &ew_sub, &args);
    TsCpuEwMode mode = is_out(form) ? TS_EW_OUT : is_inplace(form) ? TS_EW_INPLACE : TS_EW_NEW;
    if (!rc)
        rc = ts_cpu_ew(ew, 2, in, &out, mode, &args, c->error);
    for (int i = 0; i < 2; i++)
        if (in[i])
            ts_tensor_release(in[i]);
    if (mode == TS_EW_NEW)
        return ts_args_return_tensor(&a, rc, rc ? NULL : out);
    /* out= and in-place return the tensor they wrote, as the same value */
    return ts_args_return_arg(&a, rc, mode == TS_EW_OUT ? a.n - 1 : 0);
}

static const BinDesc d_add = { "add", &ew_add, true, P_NONE };
static const BinDesc d_sub = { "sub", &ew_sub, true, P_NONE };
static const BinDesc d_mul = { "mul", &ew_mul, false, P_NONE };
static const BinDesc d_div = { "div", &ew_div, false, P_NONE };
static const BinDesc d_floor_divide = { "floor_divide", &ew_floor_divide, false, P_NONE };
static const BinDesc d_remainder = { "remainder", &ew_remainder, false, P_NONE };
static const BinDesc d_fmod = { "fmod", &ew_fmod, false, P_NONE };
static const BinDesc d_pow = { "pow", &ew_pow, false, P_NONE };
static const BinDesc d_maximum = { "maximum", &ew_maximum, false, P_NONE };
static const BinDesc d_minimum = { "minimum", &ew_minimum, false, P_NONE };
static const BinDesc d_bitwise_and = { "bitwise_and", &ew_bitwise_and, false, P_NONE };
static const BinDesc d_bitwise_or = { "bitwise_or", &ew_bitwise_or, false, P_NONE };
static const BinDesc d_bitwise_xor = { "bitwise_xor", &ew_bitwise_xor, false, P_NONE };
static const BinDesc d_eq = { "eq", &ew_eq, false, P_NONE };
static const BinDesc d_ne = { "ne", &ew_ne, false, P_NONE };
static const BinDesc d_lt = { "lt", &ew_lt, false, P_NONE };
static const BinDesc d_le = { "le", &ew_le, false, P_NONE };
static const BinDesc d_gt = { "gt", &ew_gt, false, P_NONE };
static const BinDesc d_ge = { "ge", &ew_ge, false, P_NONE };
static const BinDesc d_logical_and = { "logical_and", &ew_logical_and, false, P_NONE };
static const BinDesc d_logical_or = { "logical_or", &ew_logical_or, false, P_NONE };
static const BinDesc d_logical_xor = { "logical_xor", &ew_logical_xor, false, P_NONE };
static const BinDesc d_rsub = { "rsub", &ew_sub, true, P_SWAP };
static const BinDesc d_atan2 = { "atan2", &ew_atan2, false, P_NO_HALF };
static const BinDesc d_hypot = { "hypot", &ew_hypot, false, P_NO_HALF };
static const BinDesc d_logaddexp = { "logaddexp", &ew_logaddexp, false, P_NO_HALF };
static const BinDesc d_logaddexp2 = { "logaddexp2", &ew_logaddexp2, false, P_NO_HALF };
static const BinDesc d_xlogy = { "xlogy", &ew_xlogy, false, P_NONE };
static const BinDesc d_nextafter = { "nextafter", &ew_nextafter, false, P_NO_HALF };
static const BinDesc d_copysign = { "copysign", &ew_copysign, false, P_NONE };
static const BinDesc d_heaviside = { "heaviside", &ew_heaviside, false, P_SAME_DTYPE };
static const BinDesc d_fmax = { "fmax", &ew_fmax, false, P_NONE };
static const BinDesc d_fmin = { "fmin", &ew_fmin, false, P_NONE };
static const BinDesc d_lshift = { "bitwise_left_shift", &ew_lshift, false, P_NONE };
static const BinDesc d_rshift = { "bitwise_right_shift", &ew_rshift, false, P_NONE };
static const BinDesc d_gcd = { "gcd", &ew_gcd, false, P_NONE };
static const BinDesc d_lcm = { "lcm", &ew_lcm, false, P_NONE };
static const BinDesc d_float_power = { "float_power", &ew_float_power, false, P_DOUBLE };

/* X(qualname, overload, desc, form): one kernel and one table row each. */
#define ARITH(X, NAME, D) \
    X(NAME, Tensor, D, F_TT) X(NAME, Scalar, D, F_TS) X(NAME, out, D, F_TT_OUT) \
    X(NAME##_, Tensor, D, F_TT_INPLACE) X(NAME##_, Scalar, D, F_TS_INPLACE)
#define COMPARE(X, NAME) \
    X(NAME, Tensor, d_##NAME, F_TT) X(NAME, Scalar, d_##NAME, F_TS) \
    X(NAME, Tensor_out, d_##NAME, F_TT_OUT) X(NAME, Scalar_out, d_##NAME, F_TS_OUT) \
    X(NAME##_, Tensor, d_##NAME, F_TT_INPLACE) X(NAME##_, Scalar, d_##NAME, F_TS_INPLACE)
#define BITWISE(X, NAME, DUNDER, IDUNDER) \
    X(NAME, Tensor, d_##NAME, F_TT) X(NAME, Scalar, d_##NAME, F_TS) \
    X(NAME, Scalar_Tensor, d_##NAME, F_ST) X(NAME, Tensor_out, d_##NAME, F_TT_OUT) \
    X(NAME, Scalar_out, d_##NAME, F_TS_OUT) X(NAME, Scalar_Tensor_out, d_##NAME, F_ST_OUT) \
    X(NAME##_, Tensor, d_##NAME, F_TT_INPLACE) X(NAME##_, Scalar, d_##NAME, F_TS_INPLACE) \
    X(DUNDER, Tensor, d_##NAME, F_TT) X(DUNDER, Scalar, d_##NAME, F_TS) \
    X(IDUNDER, Tensor, d_##NAME, F_TT_INPLACE) X(IDUNDER, Scalar, d_##NAME, F_TS_INPLACE)
#define LOGICAL(X, NAME) \
    X(NAME, , d_##NAME, F_TT) X(NAME, out, d_##NAME, F_TT_OUT) \
    X(NAME##_, , d_##NAME, F_TT_INPLACE)

/* (Tensor, Tensor) ops with out= and in-place forms, unnamed overloads */
#define PLAIN(X, NAME, D) X(NAME, , D, F_TT) X(NAME, out, D, F_TT_OUT) X(NAME##_, , D, F_TT_INPLACE)
#define SHIFT(X, NAME, D) \
    X(NAME, Tensor, D, F_TT) X(NAME, Tensor_Scalar, D, F_TS) X(NAME, Scalar_Tensor, D, F_ST) \
    X(NAME, Tensor_out, D, F_TT_OUT) X(NAME, Tensor_Scalar_out, D, F_TS_OUT) \
    X(NAME, Scalar_Tensor_out, D, F_ST_OUT) X(NAME##_, Tensor, D, F_TT_INPLACE) \
    X(NAME##_, Tensor_Scalar, D, F_TS_INPLACE)
#define DUNDER_SHIFT(X, NAME, INAME, D) \
    X(NAME, Tensor, D, F_TT) X(NAME, Scalar, D, F_TS) X(NAME, Tensor_out, D, F_TT_OUT) \
    X(NAME, Scalar_out, D, F_TS_OUT) X(INAME, Tensor, D, F_TT_INPLACE) \
    X(INAME, Scalar, D, F_TS_INPLACE)
/* PyTorch's other names for arithmetic and comparisons */
#define ALIASES(X) \
    ARITH(X, subtract, d_sub) X(multiply, Tensor, d_mul, F_TT) X(multiply, Scalar, d_mul, F_TS) \
    X(multiply, out, d_mul, F_TT_OUT) X(multiply_, Tensor, d_mul, F_TT_INPLACE) \
    X(multiply_, Scalar, d_mul, F_TS_INPLACE) \
    X(true_divide, Tensor, d_div, F_TT) X(true_divide, Scalar, d_div, F_TS) \
    X(true_divide, out, d_div, F_TT_OUT) X(true_divide_, Tensor, d_div, F_TT_INPLACE) \
    X(true_divide_, Scalar, d_div, F_TS_INPLACE) \
    X(divide, Tensor, d_div, F_TT) X(divide, Scalar, d_div, F_TS) \
    X(divide, Tensor_mode, d_div, F_TT_MODE) X(divide, Scalar_mode, d_div, F_TS_MODE) \
    X(divide, out, d_div, F_TT_OUT) X(divide, out_mode, d_div, F_TT_MODE_OUT) \
    X(divide_, Tensor, d_div, F_TT_INPLACE) X(divide_, Scalar, d_div, F_TS_INPLACE) \
    X(divide_, Tensor_mode, d_div, F_TT_MODE_INPLACE) \
    X(divide_, Scalar_mode, d_div, F_TS_MODE_INPLACE) \
    ALIAS_COMPARE(X, greater, d_gt) ALIAS_COMPARE(X, greater_equal, d_ge) \
    ALIAS_COMPARE(X, less, d_lt) ALIAS_COMPARE(X, less_equal, d_le) \
    ALIAS_COMPARE(X, not_equal, d_ne)
#define ALIAS_COMPARE(X, NAME, D) \
    X(NAME, Tensor, D, F_TT) X(NAME, Scalar, D, F_TS) \
    X(NAME, Tensor_out, D, F_TT_OUT) X(NAME, Scalar_out, D, F_TS_OUT) \
    X(NAME##_, Tensor, D, F_TT_INPLACE) X(NAME##_, Scalar, D, F_TS_INPLACE)
#define MATH_KERNELS(X) \
    PLAIN(X, atan2, d_atan2) PLAIN(X, arctan2, d_atan2) PLAIN(X, hypot, d_hypot) \
    X(logaddexp, , d_logaddexp, F_TT) X(logaddexp, out, d_logaddexp, F_TT_OUT) \
    X(logaddexp2, , d_logaddexp2, F_TT) X(logaddexp2, out, d_logaddexp2, F_TT_OUT) \
    PLAIN(X, nextafter, d_nextafter) PLAIN(X, heaviside, d_heaviside) \
    PLAIN(X, gcd, d_gcd) PLAIN(X, lcm, d_lcm) \
    X(fmax, , d_fmax, F_TT) X(fmax, out, d_fmax, F_TT_OUT) \
    X(fmin, , d_fmin, F_TT) X(fmin, out, d_fmin, F_TT_OUT) \
    X(xlogy, Tensor, d_xlogy, F_TT) X(xlogy, Scalar_Other, d_xlogy, F_TS) \
    X(xlogy, Scalar_Self, d_xlogy, F_ST) X(xlogy, OutTensor, d_xlogy, F_TT_OUT) \
    X(xlogy, OutScalar_Self, d_xlogy, F_ST_OUT) X(xlogy, OutScalar_Other, d_xlogy, F_TS_OUT) \
    X(xlogy_, Tensor, d_xlogy, F_TT_INPLACE) X(xlogy_, Scalar_Other, d_xlogy, F_TS_INPLACE) \
    X(copysign, Tensor, d_copysign, F_TT) X(copysign, Scalar, d_copysign, F_TS) \
    X(copysign, out, d_copysign, F_TT_OUT) X(copysign, Scalar_out, d_copysign, F_TS_OUT) \
    X(copysign_, Tensor, d_copysign, F_TT_INPLACE) \
    X(copysign_, Scalar, d_copysign, F_TS_INPLACE) \
    X(float_power, Tensor_Tensor, d_float_power, F_TT) \
    X(float_power, Tensor_Scalar, d_float_power, F_TS) \
    X(float_power, Scalar, d_float_power, F_ST) \
    X(float_power, Tensor_Tensor_out, d_float_power, F_TT_OUT) \
    X(float_power, Tensor_Scalar_out, d_float_power, F_TS_OUT) \
    X(float_power, Scalar_out, d_float_power, F_ST_OUT) \
    X(float_power_, Tensor, d_float_power, F_TT_INPLACE) \
    X(float_power_, Scalar, d_float_power, F_TS_INPLACE) \
    SHIFT(X, bitwise_left_shift, d_lshift) SHIFT(X, bitwise_right_shift, d_rshift) \
    DUNDER_SHIFT(X, __lshift__, __ilshift__, d_lshift) \
    DUNDER_SHIFT(X, __rshift__, __irshift__, d_rshift) \
    X(rsub, Tensor, d_rsub, F_TT) X(rsub, Scalar, d_rsub, F_TS) \
    X(rsub, Tensor_out, d_rsub, F_TT_OUT) X(rsub, Scalar_out, d_rsub, F_TS_OUT)

#define BINARY_KERNELS(X) \
    ALIASES(X) MATH_KERNELS(X) \
    ARITH(X, add, d_add) ARITH(X, sub, d_sub) ARITH(X, mul, d_mul) ARITH(X, div, d_div) \
    X(add, Scalar_out, d_add, F_TS_OUT) X(sub, Scalar_out, d_sub, F_TS_OUT) \
    X(mul, Scalar_out, d_mul, F_TS_OUT) X(div, Scalar_out, d_div, F_TS_OUT) \
    X(div, Tensor_mode, d_div, F_TT_MODE) X(div, Scalar_mode, d_div, F_TS_MODE) \
    X(div, out_mode, d_div, F_TT_MODE_OUT) X(div, Scalar_mode_out, d_div, F_TS_MODE_OUT) \
    X(div_, Tensor_mode, d_div, F_TT_MODE_INPLACE) \
    X(div_, Scalar_mode, d_div, F_TS_MODE_INPLACE) \
    X(floor_divide, , d_floor_divide, F_TT) X(floor_divide, Scalar, d_floor_divide, F_TS) \
    X(floor_divide, out, d_floor_divide, F_TT_OUT) \
    X(floor_divide_, Tensor, d_floor_divide, F_TT_INPLACE) \
    X(floor_divide_, Scalar, d_floor_divide, F_TS_INPLACE) \
    X(remainder, Tensor, d_remainder, F_TT) X(remainder, Scalar, d_remainder, F_TS) \
    X(remainder, Scalar_Tensor, d_remainder, F_ST) \
    X(remainder, Tensor_out, d_remainder, F_TT_OUT) \
    X(remainder, Scalar_out, d_remainder, F_TS_OUT) \
    X(remainder, Scalar_Tensor_out, d_remainder, F_ST_OUT) \
    X(remainder_, Tensor, d_remainder, F_TT_INPLACE) \
    X(remainder_, Scalar, d_remainder, F_TS_INPLACE) \
    X(fmod, Tensor, d_fmod, F_TT) X(fmod, Scalar, d_fmod, F_TS) \
    X(fmod, Tensor_out, d_fmod, F_TT_OUT) X(fmod, Scalar_out, d_fmod, F_TS_OUT) \
    X(fmod_, Tensor, d_fmod, F_TT_INPLACE) X(fmod_, Scalar, d_fmod, F_TS_INPLACE) \
    X(pow, Tensor_Tensor, d_pow, F_TT) X(pow, Tensor_Scalar, d_pow, F_TS) \
    X(pow, Scalar, d_pow, F_ST) X(pow, Tensor_Tensor_out, d_pow, F_TT_OUT) \
    X(pow, Tensor_Scalar_out, d_pow, F_TS_OUT) X(pow, Scalar_out, d_pow, F_ST_OUT) \
    X(pow_, Tensor, d_pow, F_TT_INPLACE) X(pow_, Scalar, d_pow, F_TS_INPLACE) \
    X(maximum, , d_maximum, F_TT) X(maximum, out, d_maximum, F_TT_OUT) \
    X(minimum, , d_minimum, F_TT) X(minimum, out, d_minimum, F_TT_OUT) \
    X(max, other, d_maximum, F_TT) X(max, out, d_maximum, F_TT_OUT) \
    X(min, other, d_minimum, F_TT) X(min, out, d_minimum, F_TT_OUT) \
    COMPARE(X, eq) COMPARE(X, ne) COMPARE(X, lt) COMPARE(X, le) COMPARE(X, gt) \
    COMPARE(X, ge) \
    LOGICAL(X, logical_and) LOGICAL(X, logical_or) LOGICAL(X, logical_xor) \
    BITWISE(X, bitwise_and, __and__, __iand__) BITWISE(X, bitwise_or, __or__, __ior__) \
    BITWISE(X, bitwise_xor, __xor__, __ixor__)

int ts_cpu_mul(TsTensor *a, TsTensor *b, TsTensor **out, TsError *err)
{
    TsTensor *in[2] = { a, b };
    return ts_cpu_ew(&ew_mul, 2, in, out, TS_EW_NEW, NULL, err);
}

int ts_cpu_add_(TsTensor *self, TsTensor *other, TsError *err)
{
    TsTensor *in[2] = { self, other }, *out = self;
    TsCpuEwArgs args = { .d = { 1 }, .i = { 1 } };
    return ts_cpu_ew(&ew_add, 2, in, &out, TS_EW_INPLACE, &args, err);
}

/* aten::outer(Tensor self, Tensor vec2) -> Tensor, ger (its other name) and their out=
 * forms: self as a column times vec2 as a row, broadcast by the engine. */
static int outer_call(TsCall *c, bool out_form)
{
    TsArgs a;
    TsTensor *in[2] = { NULL, NULL }, *out = NULL, *x = NULL, *y = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc)
        rc = ts_args_tensor(&a, 0, &x);
    if (!rc)
        rc = ts_args_tensor(&a, 1, &y);
    if (!rc && out_form)
        rc = ts_args_tensor(&a, 2, &out);
    for (int i = 0; !rc && i < 2; i++) {
        TsTensor *v = i ? y : x;
        if (v->dim != 1) {
            rc = ts_error_set(c->error, TS_ERR_RUNTIME, "outer: Expected 1-D argument %s, but "
                              "got %d-D", i ? "vec2" : "self", v->dim);
            break;
        }
        int64_t sizes[2] = { i ? 1 : v->sizes[0], i ? v->sizes[0] : 1 };
        int64_t strides[2] = { i ? 0 : v->strides[0], i ? v->strides[0] : 0 };
        if (!(in[i] = ts_aten_view(v, 2, sizes, strides, v->offset, c->error)))
            rc = c->error->code;
    }
    if (!rc)
        rc = ts_cpu_ew(&ew_mul, 2, in, &out, out_form ? TS_EW_OUT : TS_EW_NEW, NULL, c->error);
    for (int i = 0; i < 2; i++)
        if (in[i])
            ts_tensor_release(in[i]);
    if (out_form)
        return ts_args_return_arg(&a, rc, 2);
    return ts_args_return_tensor(&a, rc, rc ? NULL : out);
}

static int k_outer(TsCall *c) { return outer_call(c, false); }
static int k_outer_out(TsCall *c) { return outer_call(c, true); }

#define DEFINE_KERNEL(NAME, OVERLOAD, D, FORM) \
    static int k_##NAME##_##OVERLOAD(TsCall *c) { return bin_call(c, &D, FORM); }
BINARY_KERNELS(DEFINE_KERNEL)
#undef DEFINE_KERNEL

#define TABLE_ROW(NAME, OVERLOAD, D, FORM) { "aten::" #NAME, #OVERLOAD, k_##NAME##_##OVERLOAD },
static const TsCpuOp ops[] = {
    BINARY_KERNELS(TABLE_ROW)
    { "aten::outer", "", k_outer }, { "aten::outer", "out", k_outer_out },
    { "aten::ger", "", k_outer }, { "aten::ger", "out", k_outer_out },
};
#undef TABLE_ROW

const TsCpuTable ts_cpu_binary_table = { ops, sizeof ops / sizeof ops[0] };
