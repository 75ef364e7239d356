/* math.c — Python's math module on int and float scalars, and the builtins round() and
 * divmod().
 *
 * Most functions take an int, float or Scalar and return a float: one kernel per function
 * converts its argument to double and calls C's libm, whose results are those PyTorch gets
 * from the same calls. PyTorch 1.13 differs from Python here, and we follow PyTorch (checked
 * with torch.jit.script):
 *
 *   - no "math domain error": sqrt(-1), log(-1), acos(2) are nan, log(0) is -inf,
 *     gamma(0) and lgamma(-1) are inf, exp(1000) is inf;
 *   - but 0 ** negative (pow with a zero base and a negative exponent) is the RuntimeError
 *     "0.0 cannot be raised to a negative power", and int ** int is a float;
 *   - floor and ceil return ints: inf, nan and floats past int64 are "Cannot convert float
 *     X to integer"; round() returns a float and rounds halves to even;
 *   - factorial wraps around past 20!; a negative argument is "factorial() not defined for
 *     negative values"; gcd(INT64_MIN, 0) is INT64_MIN;
 *   - divmod on ints floors (zero: ZeroDivisionError "integer division or modulo by zero");
 *     on floats the remainder is fmod(a, b) moved by b when a and b differ in sign, and the
 *     quotient is (a - rem) / b, so divmod(-0.0, 2.0) is (0.0, -0.0) (zero: ZeroDivisionError
 *     "float divmod()");
 *   - ldexp(x, i) passes i to C's int by its low 32 bits.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "prim.h"

static const uint32_t one_number[] = { TS_PRIM_NUMBER };
static const uint32_t two_numbers[] = { TS_PRIM_NUMBER, TS_PRIM_NUMBER };

static int64_t as_int(TsValue v)
{
    return v.tag == TS_TAG_BOOL ? (int64_t)v.u.b : v.u.i;
}

static double as_float(TsValue v)
{
    return v.tag == TS_TAG_DOUBLE ? v.u.d : (double)as_int(v);
}

static int push_float(TsCall *c, double d)
{
    return ts_stack_push(c->stack, ts_double(d), c->error);
}

/* ---- float -> float --------------------------------------------------------------- */

static const double pi = 3.141592653589793238462643383279502884;

static double degrees(double x) { return x * (180.0 / pi); }
static double radians(double x) { return x * (pi / 180.0); }

/* Pops one number, pushes f(it) as a float. */
static int unary_float(TsCall *c, const char *op, double (*f)(double))
{
    TsValue a[1];
    if (ts_prim_pop_args(c, op, 1, one_number, a))
        return c->error->code;
    return push_float(c, f(as_float(a[0])));
}

/* The functions of one number that return a float, each with its int, float and Scalar
 * overloads: name, C function. */
#define UNARY_FLOAT(X) \
    X(sqrt, sqrt) X(exp, exp) X(log, log) X(log10, log10) X(log1p, log1p) \
    X(expm1, expm1) X(sin, sin) X(cos, cos) X(tan, tan) X(asin, asin) X(acos, acos) \
    X(atan, atan) X(sinh, sinh) X(cosh, cosh) X(tanh, tanh) X(asinh, asinh) \
    X(acosh, acosh) X(atanh, atanh) X(erf, erf) X(erfc, erfc) X(gamma, tgamma) \
    X(lgamma, lgamma) X(fabs, fabs) X(degrees, degrees) X(radians, radians) \
    X(round, nearbyint)

#define DEFINE_UNARY_FLOAT(name, f) \
    static int k_##name(TsCall *c) { return unary_float(c, "aten::" #name, f); }
UNARY_FLOAT(DEFINE_UNARY_FLOAT)

/* ---- predicates --------------------------------------------------------------------- */

typedef enum Predicate { IS_NAN, IS_INF, IS_FINITE } Predicate;

static int predicate(TsCall *c, Predicate p)
{
    TsValue a[1];
    if (ts_prim_pop_args(c, "aten::isnan", 1, one_number, a))
        return c->error->code;
    double x = as_float(a[0]);
    bool r = p == IS_NAN ? isnan(x) : p == IS_INF ? isinf(x) : isfinite(x);
    return ts_stack_push(c->stack, ts_bool(r), c->error);
}

static int k_isnan(TsCall *c) { return predicate(c, IS_NAN); }
static int k_isinf(TsCall *c) { return predicate(c, IS_INF); }
static int k_isfinite(TsCall *c) { return predicate(c, IS_FINITE); }

/* ---- floor and ceil: to int ------------------------------------------------------------ */

static int to_int(TsCall *c, TsValue v, double (*f)(double))
{
    if (v.tag != TS_TAG_DOUBLE)
        return ts_stack_push(c->stack, ts_int(as_int(v)), c->error);
    double d = f(v.u.d);
    if (isnan(d) || d >= 9223372036854775808.0 || d < -9223372036854775808.0)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "Cannot convert float %f to integer",
                            v.u.d);
    return ts_stack_push(c->stack, ts_int((int64_t)d), c->error);
}

static int k_floor(TsCall *c)
{
    TsValue a[1];
    if (ts_prim_pop_args(c, "aten::floor", 1, one_number, a))
        return c->error->code;
    return to_int(c, a[0], floor);
}

static int k_ceil(TsCall *c)
{
    TsValue a[1];
    if (ts_prim_pop_args(c, "aten::ceil", 1, one_number, a))
        return c->error->code;
    return to_int(c, a[0], ceil);
}

/* ---- two numbers -> float ------------------------------------------------------------- */

static int binary_float(TsCall *c, const char *op, double (*f)(double, double))
{
    TsValue a[2];
    if (ts_prim_pop_args(c, op, 2, two_numbers, a))
        return c->error->code;
    return push_float(c, f(as_float(a[0]), as_float(a[1])));
}

/* aten::pow.int / float / int_float / float_int / Scalar_Scalar(a, b) -> float */
static int k_pow(TsCall *c)
{
    TsStack *s = c->stack;
    if (s->len >= 2 && (s->data[s->len - 1].tag == TS_TAG_COMPLEX ||
                        s->data[s->len - 2].tag == TS_TAG_COMPLEX)) {
        TsValue y = ts_stack_pop(s), x = ts_stack_pop(s);
        return ts_prim_complex_binop(c, "pow", x, y);   /* Scalar_Scalar of a complex */
    }
    TsValue a[2];
    if (ts_prim_pop_args(c, "aten::pow", 2, two_numbers, a))
        return c->error->code;
    double x = as_float(a[0]), y = as_float(a[1]);
    if (x == 0.0 && y < 0.0)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "0.0 cannot be raised to a negative power");
    return push_float(c, pow(x, y));
}

static double log_base(double x, double base) { return log(x) / log(base); }

#define BINARY_FLOAT(X) \
    X(atan2, atan2) X(fmod, fmod) X(copysign, copysign) X(mathremainder, remainder) \
    X(log_base, log_base)

#define DEFINE_BINARY_FLOAT(name, f) \
    static int k_##name(TsCall *c) { return binary_float(c, "aten::" #name, f); }
BINARY_FLOAT(DEFINE_BINARY_FLOAT)

/* ---- ints ------------------------------------------------------------------------------- */

static int64_t wrap_abs(int64_t a)
{
    return a < 0 ? (int64_t)(0u - (uint64_t)a) : a;
}

/* aten::gcd.int(int a, int b) -> int */
static int k_gcd(TsCall *c)
{
    TsValue a[2];
    if (ts_prim_pop_args(c, "aten::gcd", 2, two_numbers, a))
        return c->error->code;
    int64_t x = as_int(a[0]), y = as_int(a[1]);
    while (y != 0) {
        int64_t t = y == -1 ? 0 : x % y;
        x = y;
        y = t;
    }
    return ts_stack_push(c->stack, ts_int(wrap_abs(x)), c->error);
}

/* aten::factorial.int(int a) -> int */
static int k_factorial(TsCall *c)
{
    TsValue a[1];
    if (ts_prim_pop_args(c, "aten::factorial", 1, one_number, a))
        return c->error->code;
    int64_t n = as_int(a[0]);
    if (n < 0)
        return ts_error_set(c->error, TS_ERR_RUNTIME,
                            "factorial() not defined for negative values");
    uint64_t r = 1;
    for (int64_t i = 2; i <= n && r != 0; i++)  /* past 66! the wrapped product is 0 */
        r *= (uint64_t)i;
    return ts_stack_push(c->stack, ts_int((int64_t)r), c->error);
}

/* aten::__round_to_zero_floordiv.int(int a, int b) -> int: C's truncating division. */
static int k_round_to_zero_floordiv(TsCall *c)
{
    TsValue a[2];
    if (ts_prim_pop_args(c, "aten::__round_to_zero_floordiv", 2, two_numbers, a))
        return c->error->code;
    int64_t x = as_int(a[0]), y = as_int(a[1]);
    if (y == 0)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "division by 0");
    int64_t q = y == -1 ? (int64_t)(0u - (uint64_t)x) : x / y;
    return ts_stack_push(c->stack, ts_int(q), c->error);
}

/* ---- two results ------------------------------------------------------------------------ */

/* divmod, modf and frexp declare two returns, "(int, int)", not one tuple: the kernel pushes
 * both, and `q, r = divmod(a, b)` or `print(divmod(a, b))` (a prim::TupleConstruct) takes them
 * from there. */
static int push_pair(TsCall *c, TsValue x, TsValue y)
{
    int rc = ts_stack_push(c->stack, x, c->error);
    return rc ? rc : ts_stack_push(c->stack, y, c->error);
}

/* aten::divmod.int / float / int_float / float_int(x, y) -> (q, r) */
static int k_divmod(TsCall *c)
{
    TsValue a[2];
    if (ts_prim_pop_args(c, "aten::divmod", 2, two_numbers, a))
        return c->error->code;
    if (a[0].tag != TS_TAG_DOUBLE && a[1].tag != TS_TAG_DOUBLE) {
        int64_t x = as_int(a[0]), y = as_int(a[1]);
        if (y == 0)
            return ts_error_set(c->error, TS_ERR_ZERO_DIV,
                                "ZeroDivisionError: integer division or modulo by zero");
        if (y == -1)   /* INT64_MIN // -1 wraps, as in arith.c */
            return push_pair(c, ts_int((int64_t)(0u - (uint64_t)x)), ts_int(0));
        int64_t q = x / y, r = x % y;
        if (r != 0 && (r < 0) != (y < 0)) {
            q--;
            r += y;
        }
        return push_pair(c, ts_int(q), ts_int(r));
    }
    double x = as_float(a[0]), y = as_float(a[1]);
    if (y == 0.0)
        return ts_error_set(c->error, TS_ERR_ZERO_DIV, "ZeroDivisionError: float divmod()");
    double r = fmod(x, y);
    if (r != 0.0 && (x < 0.0) != (y < 0.0))
        r += y;
    return push_pair(c, ts_double((x - r) / y), ts_double(r));
}

/* aten::modf(float a) -> (float, float): (fractional part, integral part). */
static int k_modf(TsCall *c)
{
    TsValue a[1];
    if (ts_prim_pop_args(c, "aten::modf", 1, one_number, a))
        return c->error->code;
    double ip, fp = modf(as_float(a[0]), &ip);
    return push_pair(c, ts_double(fp), ts_double(ip));
}

/* aten::frexp(float a) -> (float, int) */
static int k_frexp(TsCall *c)
{
    TsValue a[1];
    if (ts_prim_pop_args(c, "aten::frexp", 1, one_number, a))
        return c->error->code;
    double x = as_float(a[0]);
    int e = 0;
    double m = isfinite(x) ? frexp(x, &e) : x;
    return push_pair(c, ts_double(m), ts_int(e));
}

/* aten::ldexp(float x, int i) -> float */
static int k_ldexp(TsCall *c)
{
    TsValue a[2];
    if (ts_prim_pop_args(c, "aten::ldexp", 2, two_numbers, a))
        return c->error->code;
    int e = (int)(int32_t)(uint32_t)(uint64_t)as_int(a[1]);
    return push_float(c, ldexp(as_float(a[0]), e));
}

#define NUM_OVERLOADS { "int", "float", "Scalar" }
#define MIXED_OVERLOADS(scalar) { "int", "float", "int_float", "float_int", scalar }
#define ROW_UNARY_FLOAT(name, f) { "aten::" #name, k_##name, NUM_OVERLOADS },

static const TsPrimOp ops[] = {
    UNARY_FLOAT(ROW_UNARY_FLOAT)
    { "aten::isnan", k_isnan, { "float" } },
    { "aten::isinf", k_isinf, { "float" } },
    { "aten::isfinite", k_isfinite, { "float" } },
    { "aten::floor", k_floor, NUM_OVERLOADS },
    { "aten::ceil", k_ceil, NUM_OVERLOADS },
    { "aten::atan2", k_atan2, MIXED_OVERLOADS("Scalar_Scalar") },
    { "aten::fmod", k_fmod, MIXED_OVERLOADS("") },
    { "aten::copysign", k_copysign, MIXED_OVERLOADS("") },
    { "aten::mathremainder", k_mathremainder, MIXED_OVERLOADS("") },
    { "aten::log", k_log_base,
      { "int_int", "float_float", "int_float", "float_int", "Scalar_Scalar" } },
    { "aten::pow", k_pow, MIXED_OVERLOADS("Scalar_Scalar") },
    { "aten::gcd", k_gcd, { "int" } },
    { "aten::factorial", k_factorial, { "int" } },
    { "aten::__round_to_zero_floordiv", k_round_to_zero_floordiv, { "int" } },
    { "aten::divmod", k_divmod, { "int", "float", "int_float", "float_int" } },
    { "aten::modf", k_modf, { "" } },
    { "aten::frexp", k_frexp, { "" } },
    { "aten::ldexp", k_ldexp, { "" } },
};

const TsPrimTable ts_prim_math_table = { ops, sizeof ops / sizeof ops[0] };
