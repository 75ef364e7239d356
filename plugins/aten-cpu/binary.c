/* binary.c — the binary pointwise ops: arithmetic, division and its rounding modes,
 * remainder and fmod, pow, comparisons, logical and bitwise ops, maximum/minimum (also
 * registered as max.other/min.other and their out= forms, which PyTorch declares as the same
 * op), and outer (ger), a broadcast mul.
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

#include "elementwise.h"

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

static inline int64_t pow_i(int64_t x, int64_t y, TsCpuEwArgs *a)
{
    if (y < 0) {
        if (x == 1)
            return 1;
        if (x == -1)
            return y & 1 ? -1 : 1;
        a->status = TS_CPU_EW_NEG_POW;
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
    static inline T min_##T(T x, T y) { return x != x ? x : y != y ? y : x < y ? x : y; }
EW_FLOAT_TYPES(FLOAT_HELPERS, )
#undef FLOAT_HELPERS
#define FLOAT_HELPER(NAME, x, y) _Generic((x), float: NAME##_float, double: NAME##_double)(x, y)

/* ---- loops ------------------------------------------------------------------------ */

#define U64(v) ((uint64_t)(int64_t)(v))

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
DEF_NUM_OP(pow, pow_i(x, y, args), pow(x, y))
DEF_OP(maximum, x > y ? x : y, FLOAT_HELPER(max, x, y), x || y)
DEF_OP(minimum, x < y ? x : y, FLOAT_HELPER(min, x, y), x && y)
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

typedef struct BinDesc {
    const char *op;            /* "aten::add": for argument errors */
    const TsCpuEwOp *ew;
    bool alpha;                /* takes Scalar alpha after other */
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

/* self or other: a tensor (retained) or a wrapped scalar (new). */
static TsTensor *operand(TsCall *c, const char *op, const char *name, TsValue v, bool scalar)
{
    if (scalar)
        return ts_cpu_wrap_scalar(v, c->error);
    TsTensor *t = ts_cpu_tensor_arg(c, op, name, v);
    if (t)
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

static int bin_call(TsCall *c, const BinDesc *d, Form form)
{
    TsValue a[5];
    size_t n = 2 + (d->alpha ? 1 : 0) + (has_mode(form) ? 1 : 0) + (is_out(form) ? 1 : 0);
    TsCpuEwArgs args = { { 1, 0 }, { 1, 0 }, 0 };
    TsTensor *in[2] = { NULL, NULL }, *out = NULL;
    const TsCpuEwOp *ew = d->ew;
    int rc = 0;
    ts_cpu_pop_args(c, n, a);
    bool self_scalar = form == F_ST || form == F_ST_OUT;
    bool other_scalar = form == F_TS || form == F_TS_OUT || form == F_TS_INPLACE ||
                        form == F_TS_MODE || form == F_TS_MODE_OUT || form == F_TS_MODE_INPLACE;
    in[0] = operand(c, d->op, "self", a[0], self_scalar);
    in[1] = in[0] ? operand(c, d->op, "other", a[1], other_scalar) : NULL;
    if (!in[1])
        rc = c->error->code;
    if (!rc && is_out(form) && !(out = ts_cpu_tensor_arg(c, d->op, "out", a[n - 1])))
        rc = c->error->code;
    if (!rc && is_inplace(form))
        out = in[0];
    if (!rc && has_mode(form) && !(ew = div_mode(c, a[2])))
        rc = c->error->code;
    if (!rc && ew == &ew_sub)
        rc = check_sub(c, in);
    if (!rc && d->alpha)
        rc = read_alpha(c, a[2], ts_cpu_result_type(2, in), ew == &ew_sub, &args);
    TsCpuEwMode mode = is_out(form) ? TS_EW_OUT : is_inplace(form) ? TS_EW_INPLACE : TS_EW_NEW;
    if (!rc)
        rc = ts_cpu_ew(ew, 2, in, &out, mode, &args, c->error);
    for (int i = 0; i < 2; i++)
        if (in[i])
            ts_tensor_release(in[i]);
    if (rc) {
        ts_cpu_release_args(n, a);
        return rc;
    }
    if (mode == TS_EW_NEW) {
        ts_cpu_release_args(n, a);
        return ts_cpu_push_tensor(c, out);
    }
    /* out= and in-place return the tensor they wrote, as the same value */
    size_t keep = mode == TS_EW_OUT ? n - 1 : 0;
    TsValue result = a[keep];
    a[keep] = ts_none();
    ts_cpu_release_args(n, a);
    return ts_stack_push(c->stack, result, c->error);
}

static const BinDesc d_add = { "aten::add", &ew_add, true };
static const BinDesc d_sub = { "aten::sub", &ew_sub, true };
static const BinDesc d_mul = { "aten::mul", &ew_mul, false };
static const BinDesc d_div = { "aten::div", &ew_div, false };
static const BinDesc d_floor_divide = { "aten::floor_divide", &ew_floor_divide, false };
static const BinDesc d_remainder = { "aten::remainder", &ew_remainder, false };
static const BinDesc d_fmod = { "aten::fmod", &ew_fmod, false };
static const BinDesc d_pow = { "aten::pow", &ew_pow, false };
static const BinDesc d_maximum = { "aten::maximum", &ew_maximum, false };
static const BinDesc d_minimum = { "aten::minimum", &ew_minimum, false };
static const BinDesc d_bitwise_and = { "aten::bitwise_and", &ew_bitwise_and, false };
static const BinDesc d_bitwise_or = { "aten::bitwise_or", &ew_bitwise_or, false };
static const BinDesc d_bitwise_xor = { "aten::bitwise_xor", &ew_bitwise_xor, false };
static const BinDesc d_eq = { "aten::eq", &ew_eq, false };
static const BinDesc d_ne = { "aten::ne", &ew_ne, false };
static const BinDesc d_lt = { "aten::lt", &ew_lt, false };
static const BinDesc d_le = { "aten::le", &ew_le, false };
static const BinDesc d_gt = { "aten::gt", &ew_gt, false };
static const BinDesc d_ge = { "aten::ge", &ew_ge, false };
static const BinDesc d_logical_and = { "aten::logical_and", &ew_logical_and, false };
static const BinDesc d_logical_or = { "aten::logical_or", &ew_logical_or, false };
static const BinDesc d_logical_xor = { "aten::logical_xor", &ew_logical_xor, false };

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

#define BINARY_KERNELS(X) \
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

/* aten::outer(Tensor self, Tensor vec2) -> Tensor, ger (its other name) and their out=
 * forms: self as a column times vec2 as a row, broadcast by the engine. */
static int outer_call(TsCall *c, bool out_form)
{
    TsValue a[3];
    size_t n = out_form ? 3 : 2;
    TsTensor *in[2] = { NULL, NULL }, *out = NULL;
    ts_cpu_pop_args(c, n, a);
    TsTensor *x = ts_cpu_tensor_arg(c, "aten::outer", "self", a[0]);
    TsTensor *y = x ? ts_cpu_tensor_arg(c, "aten::outer", "vec2", a[1]) : NULL;
    int rc = y ? 0 : (int)c->error->code;
    if (!rc && out_form && !(out = ts_cpu_tensor_arg(c, "aten::outer", "out", a[2])))
        rc = c->error->code;
    for (int i = 0; !rc && i < 2; i++) {
        TsTensor *v = i ? y : x;
        if (v->dim != 1) {
            rc = ts_error_set(c->error, TS_ERR_RUNTIME, "outer: Expected 1-D argument %s, but "
                              "got %d-D", i ? "vec2" : "self", v->dim);
            break;
        }
        int64_t sizes[2] = { i ? 1 : v->sizes[0], i ? v->sizes[0] : 1 };
        int64_t strides[2] = { i ? 0 : v->strides[0], i ? v->strides[0] : 0 };
        if (!(in[i] = ts_cpu_view(v, 2, sizes, strides, v->offset, c->error)))
            rc = c->error->code;
    }
    if (!rc)
        rc = ts_cpu_ew(&ew_mul, 2, in, &out, out_form ? TS_EW_OUT : TS_EW_NEW, NULL, c->error);
    for (int i = 0; i < 2; i++)
        if (in[i])
            ts_tensor_release(in[i]);
    if (rc || out_form) {
        TsValue result = out_form && !rc ? a[2] : ts_none();
        if (out_form && !rc)
            a[2] = ts_none();
        ts_cpu_release_args(n, a);
        return rc ? rc : ts_stack_push(c->stack, result, c->error);
    }
    ts_cpu_release_args(n, a);
    return ts_cpu_push_tensor(c, out);
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
