/* complex.c — the complex scalar: complex(re, im), arithmetic, comparison, abs, the cmath
 * functions PyTorch maps (cmath.sqrt is aten::sqrt.complex, cmath.phase aten::angle,
 * cmath.rect aten::polar) and sum() of a complex list.
 *
 * A complex value is a TsComplex on the heap (two doubles); an int, bool or float operand
 * is widened to one with a zero imaginary part, so one kernel serves every overload of an
 * operator (add.complex, add.int_complex, add.complex_float, ...). The arithmetic is C99's
 * <complex.h>, which computes what C++'s std::complex<double> in PyTorch computes (Python's
 * results too, up to the last bit of a few functions). PyTorch 1.13 declares no int
 * overloads for `/`, `**`, `==` and `<` with a complex operand: those calls bind the Scalar
 * overloads (aten::div(Scalar a, Scalar b)), whose kernels in PyTorch fail an internal
 * assertion (or crash); arith.c and math.c call ts_prim_complex_binop here for them instead,
 * which computes Python's result, and orders (<, //, %) are Python's TypeError.
 */
#include <complex.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "prim.h"

/* re + im*i with both parts exact (inf and NaN parts too, which re + im * I would mix).
 * Not C11's CMPLX: glibc defines it only for GCC, and clang then sees an undeclared
 * function; a complex double is an array of its two parts (C11 6.2.5). */
static double complex make_complex(double re, double im)
{
    double parts[2] = { re, im };
    double complex z;
    memcpy(&z, parts, sizeof z);
    return z;
}

static const uint32_t one_value[] = { TS_PRIM_ANY };
static const uint32_t two_values[] = { TS_PRIM_ANY, TS_PRIM_ANY };

bool ts_prim_to_complex(TsValue v, double complex *out)
{
    switch (v.tag) {
    case TS_TAG_INT: *out = make_complex((double)v.u.i, 0.0); return true;
    case TS_TAG_BOOL: *out = make_complex(v.u.b ? 1.0 : 0.0, 0.0); return true;
    case TS_TAG_DOUBLE: *out = make_complex(v.u.d, 0.0); return true;
    case TS_TAG_COMPLEX: {
        const TsComplex *z = (const TsComplex *)v.u.p;
        *out = make_complex(z->re, z->im);
        return true;
    }
    default: return false;
    }
}

int ts_prim_push_complex(TsCall *c, double complex z)
{
    TsComplex *p = ts_complex_new(creal(z), cimag(z), c->error);
    if (!p)
        return c->error->code;
    return ts_stack_push(c->stack, ts_obj_value(p, TS_TAG_COMPLEX), c->error);
}

/* Python's name of a number's type, for its TypeErrors. */
static const char *py_type(TsValue v)
{
    return v.tag == TS_TAG_COMPLEX ? "complex" : v.tag == TS_TAG_DOUBLE ? "float"
           : v.tag == TS_TAG_BOOL ? "bool" : "int";
}

/* Pops n values that must all be numbers (complex included) into z. */
static int pop_complex(TsCall *c, const char *op, size_t n, double complex *z)
{
    TsValue a[2];
    if (ts_prim_pop_args(c, op, n, n == 1 ? one_value : two_values, a))
        return c->error->code;
    bool ok = true;
    for (size_t i = 0; i < n; i++)
        ok = ts_prim_to_complex(a[i], &z[i]) && ok;
    ts_prim_release_args(a, n);
    return ok ? 0 : ts_error_set(c->error, TS_ERR_TYPE, "%s: operands must be numbers", op);
}

/* Products and quotients as PyTorch 1.13 computes them: the textbook formulas, without C's
 * recovery of infinities (so x / 0 is nan+nanj, not an error). A real operand (real false
 * for it) scales both parts. */
static double complex mul(double complex x, bool x_real, double complex y, bool y_real)
{
    double a = creal(x), b = cimag(x), c = creal(y), d = cimag(y);
    if (x_real)
        return make_complex(a * c, a * d);
    if (y_real)
        return make_complex(a * c, b * c);
    return make_complex(a * c - b * d, a * d + b * c);
}

static double complex quotient(double complex x, double complex y, bool y_real)
{
    double a = creal(x), b = cimag(x), c = creal(y), d = cimag(y);
    if (y_real)
        return make_complex(a / c, b / c);
    double den = c * c + d * d;
    return make_complex((a * c + b * d) / den, (b * c - a * d) / den);
}

/* x ** y. A real exponent: a positive real base is real pow, others
 * |x|**y * (cos + i sin)(y * arg x); a positive real base with a complex exponent is
 * x**re(y) * (cos + i sin)(im(y) * log x); else exp(y * log x) (C's cpow). */
static double complex power(double complex x, bool x_real, double complex y, bool y_real)
{
    if (y_real && !x_real) {
        double e = creal(y);
        if (cimag(x) == 0 && creal(x) > 0)
            return make_complex(pow(creal(x), e), 0.0);
        double rho = exp(e * log(cabs(x))), theta = e * carg(x);
        return make_complex(rho * cos(theta), rho * sin(theta));
    }
    if (x_real && !y_real && creal(x) > 0) {
        double rho = pow(creal(x), creal(y)), theta = cimag(y) * log(creal(x));
        return make_complex(rho * cos(theta), rho * sin(theta));
    }
    return cpow(x, y);
}

/* z ** n for an int n (only the Scalar overload gets one): Python's repeated squaring,
 * exact for small powers ((3+4j) ** 2 is -7+24j, where the polar form is off by an ulp). */
static double complex int_power(double complex x, int n)
{
    double complex r = 1.0, p = x;
    for (unsigned m = (unsigned)(n < 0 ? -n : n); m; m >>= 1) {
        if (m & 1)
            r = mul(r, false, p, false);
        p = mul(p, false, p, false);
    }
    return n < 0 ? quotient(1.0, r, false) : r;
}

int ts_prim_complex_binop(TsCall *c, const char *op, TsValue a, TsValue b)
{
    double complex x = 0, y = 0, r = 0;
    bool ok = ts_prim_to_complex(a, &x) && ts_prim_to_complex(b, &y);
    const char *ta = py_type(a), *tb = py_type(b);
    bool xr = a.tag != TS_TAG_COMPLEX, yr = b.tag != TS_TAG_COMPLEX;
    bool b_int = b.tag == TS_TAG_INT || b.tag == TS_TAG_BOOL;
    ts_value_release(a);
    ts_value_release(b);
    if (!ok)
        return ts_error_set(c->error, TS_ERR_TYPE, "%s: operands must be numbers", op);
    if (strcmp(op, "add") == 0)
        r = x + y;
    else if (strcmp(op, "sub") == 0)
        r = x - y;
    else if (strcmp(op, "mul") == 0)
        r = mul(x, xr, y, yr);
    else if (strcmp(op, "div") == 0)
        r = quotient(x, y, yr);
    else if (strcmp(op, "pow") == 0)
        r = b_int && fabs(creal(y)) <= 100 ? int_power(x, (int)creal(y)) : power(x, xr, y, yr);
    else if (strcmp(op, "eq") == 0 || strcmp(op, "ne") == 0) {
        bool eq = creal(x) == creal(y) && cimag(x) == cimag(y);
        return ts_stack_push(c->stack, ts_bool(strcmp(op, "eq") == 0 ? eq : !eq), c->error);
    } else {
        static const struct { const char *op, *sym; bool order; } syms[] = {
            { "lt", "<", true }, { "le", "<=", true }, { "gt", ">", true },
            { "ge", ">=", true }, { "min", "<", true }, { "max", ">", true },
            { "floordiv", "//", false }, { "remainder", "%", false },
        };
        const char *sym = op;
        bool order = false;
        for (size_t i = 0; i < sizeof syms / sizeof syms[0]; i++)
            if (strcmp(syms[i].op, op) == 0) {
                sym = syms[i].sym;
                order = syms[i].order;
            }
        if (order)
            return ts_error_set(c->error, TS_ERR_TYPE, "'%s' not supported between instances "
                                "of '%s' and '%s'", sym, ta, tb);
        return ts_error_set(c->error, TS_ERR_TYPE, "unsupported operand type(s) for %s: "
                            "'%s' and '%s'", sym, ta, tb);
    }
    return ts_prim_push_complex(c, r);
}

/* ---- constructors ---------------------------------------------------------------------- */

/* aten::Complex.Scalar(Scalar a) -> complex */
static int k_complex1(TsCall *c)
{
    double complex z[1];
    if (pop_complex(c, "aten::Complex", 1, z))
        return c->error->code;
    return ts_prim_push_complex(c, z[0]);
}

/* aten::Complex.int_int / float_float / int_bool / ...(x, y) -> complex: x + y*1j of two
 * real numbers. */
static int k_complex2(TsCall *c)
{
    double complex z[2];
    if (pop_complex(c, "aten::Complex", 2, z))
        return c->error->code;
    return ts_prim_push_complex(c, make_complex(creal(z[0]), creal(z[1])));
}

/* aten::polar.int / float / int_float / float_int / Scalar_Scalar(a, b) -> complex:
 * cmath.rect(r, phi), r * (cos phi + i sin phi). */
static int k_polar(TsCall *c)
{
    double complex z[2];
    if (pop_complex(c, "aten::polar", 2, z))
        return c->error->code;
    double r = creal(z[0]), phi = creal(z[1]);
    return ts_prim_push_complex(c, make_complex(r * cos(phi), r * sin(phi)));
}

/* ---- arithmetic ------------------------------------------------------------------------ */

static int binop(TsCall *c, const char *op)
{
    TsValue b = ts_stack_pop(c->stack), a = ts_stack_pop(c->stack);
    return ts_prim_complex_binop(c, op, a, b);
}

static int k_add(TsCall *c) { return binop(c, "add"); }
static int k_sub(TsCall *c) { return binop(c, "sub"); }
static int k_mul(TsCall *c) { return binop(c, "mul"); }
static int k_div(TsCall *c) { return binop(c, "div"); }
static int k_pow(TsCall *c) { return binop(c, "pow"); }
static int k_eq(TsCall *c) { return binop(c, "eq"); }
static int k_ne(TsCall *c) { return binop(c, "ne"); }

static int k_neg(TsCall *c)
{
    double complex z[1];
    if (pop_complex(c, "aten::neg", 1, z))
        return c->error->code;
    return ts_prim_push_complex(c, -z[0]);
}

/* prim::abs.complex(complex a) -> float */
static int k_abs(TsCall *c)
{
    double complex z[1];
    if (pop_complex(c, "prim::abs", 1, z))
        return c->error->code;
    return ts_stack_push(c->stack, ts_double(cabs(z[0])), c->error);
}

/* aten::angle.complex / int / float / Scalar -> float: cmath.phase; a real number's is
 * pi when it is negative, nan when it is nan, else 0. */
static int k_angle(TsCall *c)
{
    TsValue a[1];
    if (ts_prim_pop_args(c, "aten::angle", 1, one_value, a))
        return c->error->code;
    double complex z;
    bool ok = ts_prim_to_complex(a[0], &z);
    bool cplx = a[0].tag == TS_TAG_COMPLEX;
    ts_prim_release_args(a, 1);
    if (!ok)
        return ts_error_set(c->error, TS_ERR_TYPE, "aten::angle: operand must be a number");
    double x = creal(z);
    double r = cplx ? carg(z) : isnan(x) ? x : x < 0 ? 3.141592653589793 : 0.0;
    return ts_stack_push(c->stack, ts_double(r), c->error);
}

typedef enum Predicate { IS_NAN, IS_INF, IS_FINITE } Predicate;

/* aten::isnan.complex / isinf.complex / isfinite.complex: of either part. */
static int predicate(TsCall *c, Predicate p)
{
    double complex z[1];
    if (pop_complex(c, "aten::isnan", 1, z))
        return c->error->code;
    double re = creal(z[0]), im = cimag(z[0]);
    bool r = p == IS_NAN ? isnan(re) || isnan(im) : p == IS_INF ? isinf(re) || isinf(im)
             : isfinite(re) && isfinite(im);
    return ts_stack_push(c->stack, ts_bool(r), c->error);
}

static int k_isnan(TsCall *c) { return predicate(c, IS_NAN); }
static int k_isinf(TsCall *c) { return predicate(c, IS_INF); }
static int k_isfinite(TsCall *c) { return predicate(c, IS_FINITE); }

/* ---- cmath functions ------------------------------------------------------------------- */

static double complex log10_of(double complex z) { return quotient(clog(z), log(10.0), true); }

#define UNARY_COMPLEX(X) \
    X(sqrt, csqrt) X(exp, cexp) X(log, clog) X(log10, log10_of) X(sin, csin) X(cos, ccos) \
    X(tan, ctan) X(asin, casin) X(acos, cacos) X(atan, catan) X(sinh, csinh) \
    X(cosh, ccosh) X(tanh, ctanh) X(asinh, casinh) X(acosh, cacosh) X(atanh, catanh)

#define DEFINE_UNARY_COMPLEX(name, f) \
    static int k_##name(TsCall *c) \
    { \
        double complex z[1]; \
        if (pop_complex(c, "aten::" #name, 1, z)) \
            return c->error->code; \
        return ts_prim_push_complex(c, f(z[0])); \
    }
UNARY_COMPLEX(DEFINE_UNARY_COMPLEX)

/* aten::log.complex_complex / int_complex / ...(a, b) -> complex: log(a) / log(b). */
static int k_log_base(TsCall *c)
{
    double complex z[2];
    if (pop_complex(c, "aten::log", 2, z))
        return c->error->code;
    return ts_prim_push_complex(c, quotient(clog(z[0]), clog(z[1]), false));
}

/* aten::sum.complex(complex[] self) -> complex, added left to right. */
static int k_sum(TsCall *c)
{
    TsValue a[1];
    if (ts_prim_pop_args(c, "aten::sum", 1, (const uint32_t[]){ TS_TAG_LIST }, a))
        return c->error->code;
    const TsList *l = (const TsList *)a[0].u.p;
    double complex s = 0.0, z;
    for (size_t i = 0; i < l->len; i++) {
        if (!ts_prim_to_complex(l->items[i], &z)) {
            ts_value_release(a[0]);
            return ts_error_set(c->error, TS_ERR_TYPE, "aten::sum: the list holds a "
                                "non-number");
        }
        s += z;
    }
    ts_value_release(a[0]);
    return ts_prim_push_complex(c, s);
}

#define MIXED { "complex", "int_complex", "complex_int", "float_complex", "complex_float" }
#define FLOAT_MIXED { "complex", "float_complex", "complex_float" }
#define ROW_UNARY_COMPLEX(name, f) { "aten::" #name, k_##name, { "complex" } },

static const TsPrimOp ops[] = {
    { "aten::Complex", k_complex1, { "Scalar" } },
    { "aten::Complex", k_complex2,
      { "int_int", "float_float", "bool_bool", "int_float", "float_int", "int_bool",
        "bool_int", "float_bool" } },
    { "aten::Complex", k_complex2, { "bool_float" } },
    { "aten::polar", k_polar, { "int", "float", "int_float", "float_int", "Scalar_Scalar" } },
    { "aten::add", k_add, MIXED },
    { "aten::sub", k_sub, MIXED },
    { "aten::mul", k_mul, MIXED },
    { "aten::div", k_div, { "complex" } },
    { "aten::pow", k_pow, FLOAT_MIXED },
    { "aten::eq", k_eq, FLOAT_MIXED },
    { "aten::ne", k_ne, FLOAT_MIXED },
    { "aten::neg", k_neg, { "complex" } },
    { "prim::abs", k_abs, { "complex" } },
    { "aten::angle", k_angle, { "complex", "int", "float", "Scalar" } },
    { "aten::isnan", k_isnan, { "complex" } },
    { "aten::isinf", k_isinf, { "complex" } },
    { "aten::isfinite", k_isfinite, { "complex" } },
    UNARY_COMPLEX(ROW_UNARY_COMPLEX)
    { "aten::log", k_log_base,
      { "complex_complex", "int_complex", "complex_int", "float_complex", "complex_float" } },
    { "aten::sum", k_sum, { "complex" } },
};

const TsPrimTable ts_prim_complex_table = { ops, sizeof ops / sizeof ops[0] };
