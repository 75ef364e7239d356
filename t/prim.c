/* prim.t — the prim plugin's kernels on int, float and bool scalars and on lists, called
 * through the operator table of the default runtime. Expected values come from PyTorch 1.13
 * (torch.jit.script functions), including its departures from Python: float // 0.0 is inf,
 * 5.0 % inf is nan, int(nan) is INT64_MIN. Where PyTorch crashes (x % 0, INT64_MIN // -1)
 * we check our documented choice instead.
 */
#include <stdio.h>
#include <string.h>

#include "kernel.h"

#define NAN_ (nan(""))
#define INF_ (INFINITY)

/* ---- ints ------------------------------------------------------------------ */

typedef struct IntCase {
    const char *op, *overload;
    int64_t a, b, want;
} IntCase;

static const IntCase int_cases[] = {
    { "aten::floordiv", "int", 7, 2, 3 },
    { "aten::floordiv", "int", -7, 2, -4 },
    { "aten::floordiv", "int", 7, -2, -4 },
    { "aten::floordiv", "int", -7, -2, 3 },
    { "aten::floordiv", "int", -1, 5, -1 },
    { "aten::floordiv", "int", 1, -5, -1 },
    { "aten::floordiv", "int", 6, 3, 2 },
    { "aten::floordiv", "int", -6, 3, -2 },
    { "aten::floordiv", "int", INT64_MIN, -1, INT64_MIN },
    { "aten::remainder", "int", 7, 2, 1 },
    { "aten::remainder", "int", -7, 2, 1 },
    { "aten::remainder", "int", 7, -2, -1 },
    { "aten::remainder", "int", -7, -2, -1 },
    { "aten::remainder", "int", -1, 5, 4 },
    { "aten::remainder", "int", 1, -5, -4 },
    { "aten::remainder", "int", 6, 3, 0 },
    { "aten::remainder", "int", -6, 3, 0 },
    { "aten::remainder", "int", INT64_MIN, -1, 0 },
    { "aten::add", "int", INT64_MAX, 1, INT64_MIN },
    { "aten::add", "int", -5, 3, -2 },
    { "aten::sub", "int", INT64_MIN, 1, INT64_MAX },
    { "aten::sub", "int", 3, 10, -7 },
    { "aten::mul", "int", INT64_C(1) << 62, 4, 0 },
    { "aten::mul", "int", INT64_MIN, -1, INT64_MIN },
    { "aten::mul", "int", -6, 7, -42 },
    { "aten::__and__", "int", 6, 3, 2 },
    { "aten::__or__", "int", 6, 3, 7 },
    { "aten::__xor__", "int", 6, 3, 5 },
    { "prim::min", "int", -3, 2, -3 },
    { "prim::max", "int", -3, 2, 2 },
    /* the Scalar overloads keep int results for ints */
    { "aten::add", "", 2, 3, 5 },
    { "aten::floordiv", "", -7, 2, -4 },
    { "aten::remainder", "", -7, 2, 1 },
    { "prim::max", "", -3, 2, 2 },
    /* shifts: the count taken mod 64 (x86), >> arithmetic */
    { "aten::__lshift__", "int", 1, 10, 1024 },
    { "aten::__lshift__", "int", -3, 2, -12 },
    { "aten::__lshift__", "int", 1, 63, INT64_MIN },
    { "aten::__lshift__", "int", 1, 64, 1 },
    { "aten::__lshift__", "int", 1, 65, 2 },
    { "aten::__lshift__", "int", 3, -1, INT64_MIN },
    { "aten::__lshift__", "int", 5, 100, INT64_C(343597383680) },
    { "aten::__lshift__", "int", INT64_C(1) << 62, 2, 0 },
    { "aten::__rshift__", "int", 1024, 3, 128 },
    { "aten::__rshift__", "int", -16, 2, -4 },
    { "aten::__rshift__", "int", -1, 5, -1 },
    { "aten::__rshift__", "int", 1, 64, 1 },
    { "aten::__rshift__", "int", -8, -1, -1 },
    { "aten::__rshift__", "int", -5, 100, -1 },
    { "aten::__rshift__", "int", INT64_C(1) << 62, 2, INT64_C(1) << 60 },
    { "aten::__rshift__", "int", INT64_MIN, 63, -1 },
};

static void test_int_arith(void)
{
    for (size_t i = 0; i < sizeof int_cases / sizeof int_cases[0]; i++) {
        const IntCase *c = &int_cases[i];
        TsError err = TS_ERROR_INIT;
        TsValue args[2] = { ts_int(c->a), ts_int(c->b) }, r;
        int rc = kt_call(c->op, c->overload, TS_BACKEND_ANY, 2, args, &r, &err);
        ok(rc == 0 && r.tag == TS_TAG_INT && r.u.i == c->want, "%s.%s(%lld, %lld) == %lld",
           c->op, c->overload, (long long)c->a, (long long)c->b, (long long)c->want);
        if (rc == 0 && r.tag == TS_TAG_INT && r.u.i != c->want)
            diag("got %lld", (long long)r.u.i);
        ts_error_clear(&err);
    }
}

static void test_unary_int(void)
{
    struct { const char *op, *ov; int64_t a, want; } cases[] = {
        { "aten::neg", "int", INT64_MIN, INT64_MIN },
        { "aten::neg", "int", 5, -5 },
        { "prim::abs", "int", INT64_MIN, INT64_MIN },
        { "prim::abs", "int", -7, 7 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        TsError err = TS_ERROR_INIT;
        TsValue r;
        int rc = kt_call(cases[i].op, cases[i].ov, TS_BACKEND_ANY, 1,
                         (TsValue[]){ ts_int(cases[i].a) }, &r, &err);
        ok(rc == 0 && r.tag == TS_TAG_INT && r.u.i == cases[i].want, "%s(%lld) == %lld",
           cases[i].op, (long long)cases[i].a, (long long)cases[i].want);
        ts_error_clear(&err);
    }
}

static void test_int_errors(void)
{
    struct { const char *op; int64_t a; const char *msg; } cases[] = {
        { "aten::floordiv", 7, "division by 0" },
        { "aten::floordiv", 0, "division by 0" },
        { "aten::remainder", 7, "modulo by 0" },
        { "aten::remainder", INT64_MIN, "modulo by 0" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        TsError err = TS_ERROR_INIT;
        TsValue args[2] = { ts_int(cases[i].a), ts_int(0) }, r;
        int rc = kt_call(cases[i].op, "int", TS_BACKEND_ANY, 2, args, &r, &err);
        is_int(rc, TS_ERR_RUNTIME, "%s.int(%lld, 0) is a RuntimeError", cases[i].op,
               (long long)cases[i].a);
        is_str(err.msg, cases[i].msg, "... saying '%s'", cases[i].msg);
        ts_error_clear(&err);
    }
}

/* ---- floats ---------------------------------------------------------------- */

typedef struct FloatCase {
    const char *op, *overload;
    TsValue a, b;
    double want;
} FloatCase;

#define F(x) ts_double(x)
#define I(x) ts_int(x)

static void test_float_arith(void)
{
    const FloatCase cases[] = {
        { "aten::floordiv", "float", F(7.5), F(2.0), 3.0 },
        { "aten::floordiv", "float", F(-7.5), F(2.0), -4.0 },
        { "aten::floordiv", "float", F(7.5), F(-2.0), -4.0 },
        { "aten::floordiv", "float", F(-7.5), F(-2.0), 3.0 },
        { "aten::floordiv", "float", F(7.0), F(0.0), INF_ },
        { "aten::floordiv", "float", F(-7.0), F(0.0), -INF_ },
        { "aten::floordiv", "float", F(0.0), F(0.0), NAN_ },
        { "aten::floordiv", "float", F(INF_), F(2.0), INF_ },
        { "aten::floordiv", "float", F(5.0), F(INF_), 0.0 },
        { "aten::floordiv", "float", F(-5.0), F(INF_), -0.0 },
        { "aten::floordiv", "float", F(-0.0), F(1.0), -0.0 },
        { "aten::floordiv", "float", F(0.0), F(-1.0), -0.0 },
        { "aten::floordiv", "float", F(1.0), F(0.1), 10.0 },
        { "aten::remainder", "float", F(7.5), F(2.0), 1.5 },
        { "aten::remainder", "float", F(-7.5), F(2.0), 0.5 },
        { "aten::remainder", "float", F(7.5), F(-2.0), -0.5 },
        { "aten::remainder", "float", F(-7.5), F(-2.0), -1.5 },
        { "aten::remainder", "float", F(7.0), F(0.0), NAN_ },
        { "aten::remainder", "float", F(-6.0), F(3.0), 0.0 },
        { "aten::remainder", "float", F(6.0), F(-3.0), -0.0 },
        { "aten::remainder", "float", F(INF_), F(2.0), NAN_ },
        { "aten::remainder", "float", F(5.0), F(INF_), NAN_ },
        { "aten::remainder", "float", F(-0.0), F(1.0), 0.0 },
        { "aten::remainder", "float", F(0.0), F(-1.0), -0.0 },
        { "aten::remainder", "float", F(1e-20), F(1.0), 0.0 },
        { "aten::div", "int", I(7), I(2), 3.5 },
        { "aten::div", "int", I(7), I(0), INF_ },
        { "aten::div", "int", I(0), I(0), NAN_ },
        { "aten::div", "float", F(-1.0), F(0.0), -INF_ },
        { "aten::add", "float", F(0.1), F(0.2), 0.1 + 0.2 },
        { "aten::sub", "float", F(0.0), F(0.0), 0.0 },
        { "aten::mul", "float", F(-0.0), F(5.0), -0.0 },
        { "aten::add", "int_float", I(1), F(0.5), 1.5 },
        { "aten::sub", "float_int", F(0.5), I(1), -0.5 },
        { "aten::mul", "int_float", I(3), F(-0.5), -1.5 },
        { "aten::floordiv", "int_float", I(7), F(0.0), INF_ },
        { "aten::floordiv", "int_float", I(-7), F(2.0), -4.0 },
        { "aten::remainder", "int_float", I(7), F(0.0), NAN_ },
        { "aten::remainder", "int_float", I(-7), F(2.0), 1.0 },
        { "aten::floordiv", "float_int", F(7.0), I(0), INF_ },
        { "aten::floordiv", "float_int", F(-7.5), I(2), -4.0 },
        { "aten::remainder", "float_int", F(7.0), I(0), NAN_ },
        { "aten::remainder", "float_int", F(-7.5), I(2), 0.5 },
        { "prim::min", "float", F(NAN_), F(1.0), 1.0 },
        { "prim::min", "float", F(1.0), F(NAN_), NAN_ },
        { "prim::max", "float", F(NAN_), F(1.0), 1.0 },
        { "prim::max", "float", F(1.0), F(NAN_), NAN_ },
        { "prim::min", "float", F(-0.0), F(0.0), 0.0 },
        { "prim::min", "float", F(0.0), F(-0.0), -0.0 },
        { "prim::max", "float", F(-0.0), F(0.0), 0.0 },
        { "prim::min", "int_float", I(3), F(2.5), 2.5 },
        { "prim::min", "int_float", I(2), F(2.5), 2.0 },
        { "prim::max", "float_int", F(2.5), I(3), 3.0 },
        /* the Scalar overloads: what `a / b` and friends pick for mixed int and float */
        { "aten::div", "", I(7), F(2.5), 2.8 },
        { "aten::div", "", F(2.5), I(7), 2.5 / 7.0 },
        { "aten::div", "", I(7), I(2), 3.5 },
        { "aten::div", "", I(1), I(0), INF_ },
        { "aten::add", "", I(7), F(2.5), 9.5 },
        { "aten::sub", "", F(2.5), I(7), -4.5 },
        { "aten::mul", "", I(7), F(2.5), 17.5 },
        { "aten::floordiv", "", I(7), F(2.5), 2.0 },
        { "aten::remainder", "", I(-7), F(2.5), 0.5 },
        { "prim::min", "", I(7), F(2.5), 2.5 },
        { "prim::max", "", F(2.5), I(7), 7.0 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const FloatCase *c = &cases[i];
        TsError err = TS_ERROR_INIT;
        TsValue args[2] = { c->a, c->b }, r;
        int rc = kt_call(c->op, c->overload, TS_BACKEND_ANY, 2, args, &r, &err);
        double a = c->a.tag == TS_TAG_INT ? (double)c->a.u.i : c->a.u.d;
        double b = c->b.tag == TS_TAG_INT ? (double)c->b.u.i : c->b.u.d;
        ok(rc == 0 && r.tag == TS_TAG_DOUBLE && kt_same_float(r.u.d, c->want),
           "%s.%s(%g, %g) == %g", c->op, c->overload, a, b, c->want);
        if (rc == 0 && r.tag == TS_TAG_DOUBLE && !kt_same_float(r.u.d, c->want))
            diag("got %g", r.u.d);
        ts_error_clear(&err);
    }
}

static void test_unary_float(void)
{
    struct { const char *op, *ov; double a, want; } cases[] = {
        { "aten::neg", "float", 0.0, -0.0 },
        { "aten::neg", "float", -2.5, 2.5 },
        { "prim::abs", "float", -0.0, 0.0 },
        { "prim::abs", "float", -INF_, INF_ },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        TsError err = TS_ERROR_INIT;
        TsValue r;
        int rc = kt_call(cases[i].op, cases[i].ov, TS_BACKEND_ANY, 1,
                         (TsValue[]){ ts_double(cases[i].a) }, &r, &err);
        ok(rc == 0 && r.tag == TS_TAG_DOUBLE && kt_same_float(r.u.d, cases[i].want),
           "%s(%g) == %g", cases[i].op, cases[i].a, cases[i].want);
        ts_error_clear(&err);
    }
}

/* ---- comparisons and logic ---------------------------------------------------- */

typedef struct BoolCase {
    const char *op, *overload;
    TsValue a, b;
    bool want;
} BoolCase;

#define B(x) ts_bool(x)

static void test_bool_results(void)
{
    const int64_t big = (INT64_C(1) << 53) + 1;
    const double p53 = 9007199254740992.0;
    const BoolCase cases[] = {
        { "aten::eq", "int", I(3), I(3), true },
        { "aten::ne", "int", I(3), I(3), false },
        { "aten::lt", "int", I(-1), I(0), true },
        { "aten::le", "int", I(0), I(0), true },
        { "aten::gt", "int", I(INT64_MIN), I(INT64_MAX), false },
        { "aten::ge", "int", I(INT64_MAX), I(INT64_MIN), true },
        { "aten::eq", "float", F(NAN_), F(NAN_), false },
        { "aten::ne", "float", F(NAN_), F(NAN_), true },
        { "aten::eq", "float", F(-0.0), F(0.0), true },
        { "aten::lt", "float", F(NAN_), F(1.0), false },
        { "aten::ge", "float", F(INF_), F(INF_), true },
        /* PyTorch compares int with float as doubles: 2**53 + 1 == 2.0**53 */
        { "aten::eq", "int_float", I(big), F(p53), true },
        { "aten::lt", "int_float", I(big), F(p53), false },
        { "aten::lt", "int_float", I(INT64_C(1) << 53), F(p53 + 2), true },
        { "aten::gt", "float_int", F(2.5), I(2), true },
        { "aten::le", "float_int", F(2.0), I(2), true },
        { "aten::ne", "float_int", F(2.0), I(2), false },
        { "aten::eq", "bool", B(true), B(true), true },
        { "aten::ne", "bool", B(true), B(false), true },
        { "aten::__and__", "bool", B(true), B(false), false },
        { "aten::__or__", "bool", B(true), B(false), true },
        { "aten::__xor__", "bool", B(true), B(true), false },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const BoolCase *c = &cases[i];
        TsError err = TS_ERROR_INIT;
        TsValue args[2] = { c->a, c->b }, r;
        int rc = kt_call(c->op, c->overload, TS_BACKEND_ANY, 2, args, &r, &err);
        ok(rc == 0 && r.tag == TS_TAG_BOOL && r.u.b == c->want, "%s.%s case %zu is %s", c->op,
           c->overload, i, c->want ? "True" : "False");
        ts_error_clear(&err);
    }
}

/* ---- conversions ------------------------------------------------------------- */

static void test_conversions(void)
{
    struct { double a; int64_t want; } to_int[] = {
        { 3.9, 3 }, { -3.9, -3 }, { -0.5, 0 }, { 9.2e18, INT64_C(9200000000000000000) },
        { INF_, INT64_MIN }, { -INF_, INT64_MIN }, { NAN_, INT64_MIN },
        { 1e20, INT64_MIN }, { -1e20, INT64_MIN }, { 9.3e18, INT64_MIN }, { -9.3e18, INT64_MIN },
    };
    for (size_t i = 0; i < sizeof to_int / sizeof to_int[0]; i++) {
        TsError err = TS_ERROR_INIT;
        TsValue r;
        int rc = kt_call("aten::Int", "float", TS_BACKEND_ANY, 1,
                         (TsValue[]){ ts_double(to_int[i].a) }, &r, &err);
        ok(rc == 0 && r.tag == TS_TAG_INT && r.u.i == to_int[i].want, "int(%g) == %lld",
           to_int[i].a, (long long)to_int[i].want);
        ts_error_clear(&err);
    }
    struct { const char *op, *ov; TsValue a; TsValue want; } cases[] = {
        { "aten::Int", "bool", B(true), I(1) },
        { "aten::Float", "int", I(-3), F(-3.0) },
        { "aten::Float", "int", I(INT64_MAX), F(9223372036854775808.0) },
        { "aten::Float", "bool", B(true), F(1.0) },
        { "aten::Bool", "int", I(0), B(false) },
        { "aten::Bool", "int", I(-3), B(true) },
        { "aten::Bool", "float", F(NAN_), B(true) },
        { "aten::Bool", "float", F(-0.0), B(false) },
        { "aten::__not__", "", B(true), B(false) },
        { "aten::__not__", "", B(false), B(true) },
        { "aten::Int", "Scalar", F(-2.75), I(-2) },
        { "aten::Int", "Scalar", I(9), I(9) },
        { "aten::Float", "Scalar", I(3), F(3.0) },
        { "aten::Float", "Scalar", F(-0.5), F(-0.5) },
        { "aten::neg", "Scalar", I(INT64_MIN), I(INT64_MIN) },
        { "aten::neg", "Scalar", F(0.0), F(-0.0) },
        { "prim::abs", "Scalar", I(-4), I(4) },
        { "prim::abs", "Scalar", F(-2.5), F(2.5) },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        TsError err = TS_ERROR_INIT;
        TsValue r, w = cases[i].want;
        int rc = kt_call(cases[i].op, cases[i].ov, TS_BACKEND_ANY, 1, &cases[i].a, &r, &err);
        bool same = rc == 0 && r.tag == w.tag &&
                    (w.tag == TS_TAG_DOUBLE ? kt_same_float(r.u.d, w.u.d)
                     : w.tag == TS_TAG_BOOL ? r.u.b == w.u.b : r.u.i == w.u.i);
        ok(same, "%s.%s case %zu", cases[i].op, cases[i].ov, i);
        ts_error_clear(&err);
    }
}

static void test_bad_operands(void)
{
    TsError err = TS_ERROR_INIT;
    TsStr *s = ts_str_from_cstr("seven", &err);
    ts_value_retain(ts_str_value(s));
    TsValue args[2] = { ts_str_value(s), ts_int(1) }, r;
    int rc = kt_call("aten::add", "int", TS_BACKEND_ANY, 2, args, &r, &err);
    is_int(rc, TS_ERR_TYPE, "a str where an int belongs is a TypeError, not a crash");
    like(err.msg, "add", "... naming the operator");
    is_int(ts_value_refcount(ts_str_value(s)), 1, "... and the kernel released the str");
    ts_value_release(ts_str_value(s));
    ts_error_clear(&err);
}

/* ---- lists -------------------------------------------------------------------- */

static TsList *int_list(size_t n, const int64_t *items)
{
    TsError err = TS_ERROR_INIT;
    TsList *l = ts_list_new(ts_type_int(), n, &err);
    for (size_t i = 0; l && i < n; i++)
        ts_list_append(l, ts_int(items[i]), &err);
    ts_error_clear(&err);
    return l;
}

/* Calls a list op on l (which the test keeps: the call gets a new reference). */
static int list_call(const char *op, TsList *l, size_t n, TsValue *rest, TsValue *out,
                     TsError *err)
{
    TsValue args[3];
    ts_heap_retain(&l->h);
    args[0] = ts_obj_value(l, TS_TAG_LIST);
    for (size_t i = 0; i < n; i++)
        args[i + 1] = rest[i];
    return kt_call(op, "t", TS_BACKEND_ANY, n + 1, args, out, err);
}

static void test_lists(void)
{
    TsError err = TS_ERROR_INIT;
    TsList *l = int_list(3, (const int64_t[]){ 1, 2, 3 });
    TsValue r;

    int rc = list_call("aten::len", l, 0, NULL, &r, &err);
    ok(rc == 0 && r.tag == TS_TAG_INT && r.u.i == 3, "len([1, 2, 3]) == 3");

    rc = list_call("aten::__getitem__", l, 1, (TsValue[]){ ts_int(-1) }, &r, &err);
    ok(rc == 0 && r.tag == TS_TAG_INT && r.u.i == 3, "[1, 2, 3][-1] == 3");
    int64_t bad[] = { 3, -4, INT64_MAX, INT64_MIN };
    for (size_t i = 0; i < 4; i++) {
        rc = list_call("aten::__getitem__", l, 1, (TsValue[]){ ts_int(bad[i]) }, &r, &err);
        is_int(rc, TS_ERR_INDEX, "[1, 2, 3][%lld] is an IndexError", (long long)bad[i]);
        is_str(err.msg, "list index out of range", "... 'list index out of range'");
        ts_error_clear(&err);
    }

    rc = list_call("aten::_set_item", l, 2, (TsValue[]){ ts_int(-1), ts_int(5) }, &r, &err);
    ok(rc == 0 && r.tag == TS_TAG_LIST && r.u.p == &l->h, "l[-1] = 5 returns the same list");
    ts_value_release(r);
    ok(l->items[2].u.i == 5, "... and l[2] is now 5");
    rc = list_call("aten::_set_item", l, 2, (TsValue[]){ ts_int(3), ts_int(9) }, &r, &err);
    is_int(rc, TS_ERR_INDEX, "l[3] = 9 is an IndexError");
    is_str(err.msg, "list index out of range", "... 'list index out of range'");
    ts_error_clear(&err);

    rc = list_call("aten::append", l, 1, (TsValue[]){ ts_int(4) }, &r, &err);
    ok(rc == 0 && r.tag == TS_TAG_LIST && r.u.p == &l->h, "append returns the same list");
    ts_value_release(r);
    ok(l->len == 4 && l->items[3].u.i == 4, "... now [1, 2, 5, 4]");
    is_int(ts_value_refcount(ts_obj_value(l, TS_TAG_LIST)), 1,
           "every path left the list's count as it was");
    ts_heap_release(&l->h);

    /* generic over t: a list of strings hands out new references to its items */
    TsList *sl = ts_list_new(ts_type_str(), 1, &err);
    TsStr *s = ts_str_from_cstr("x", &err);
    ts_list_append(sl, ts_str_value(s), &err);
    rc = list_call("aten::__getitem__", sl, 1, (TsValue[]){ ts_int(0) }, &r, &err);
    ok(rc == 0 && r.tag == TS_TAG_STR && r.u.p == &s->h, "['x'][0] is the same str");
    is_int(ts_value_refcount(r), 2, "... with a reference of its own");
    ts_value_release(r);
    TsStr *y = ts_str_from_cstr("y", &err);
    rc = list_call("aten::_set_item", sl, 2, (TsValue[]){ ts_int(7), ts_str_value(y) }, &r,
                   &err);
    is_int(rc, TS_ERR_INDEX, "a failed str _set_item is an IndexError (and frees the str)");
    ts_error_clear(&err);
    ts_heap_release(&sl->h);

    rc = kt_call("aten::len", "t", TS_BACKEND_ANY, 1, (TsValue[]){ ts_int(3) }, &r, &err);
    is_int(rc, TS_ERR_TYPE, "len of an int is a TypeError, not a crash");
    ts_error_clear(&err);
}

/* l += other and l *= n change l itself and push it back. */
static void test_in_place_lists(void)
{
    TsError err = TS_ERROR_INIT;
    TsList *l = int_list(2, (const int64_t[]){ 1, 2 });
    TsValue r;
    TsValue other = ts_obj_value(int_list(1, (const int64_t[]){ 3 }), TS_TAG_LIST);
    int rc = list_call("aten::add_", l, 1, &other, &r, &err);
    ok(rc == 0 && r.tag == TS_TAG_LIST && r.u.p == &l->h, "l += [3] returns l itself");
    ts_value_release(r);
    ok(l->len == 3 && l->items[2].u.i == 3, "... now [1, 2, 3]");
    ts_heap_retain(&l->h);
    rc = list_call("aten::add_", l, 1, (TsValue[]){ ts_obj_value(l, TS_TAG_LIST) }, &r, &err);
    ok(rc == 0 && l->len == 6 && l->items[5].u.i == 3, "l += l doubles l");
    ts_value_release(r);

    rc = list_call("aten::mul_", l, 1, (TsValue[]){ I(2) }, &r, &err);
    ok(rc == 0 && r.tag == TS_TAG_LIST && r.u.p == &l->h && l->len == 12 &&
       l->items[11].u.i == 3 && l->items[6].u.i == 1, "l *= 2 repeats l in place");
    ts_value_release(r);
    rc = list_call("aten::mul_", l, 1, (TsValue[]){ I(1) }, &r, &err);
    ok(rc == 0 && l->len == 12, "l *= 1 keeps l");
    ts_value_release(r);
    rc = list_call("aten::mul_", l, 1, (TsValue[]){ I(-1) }, &r, &err);
    ok(rc == 0 && r.u.p == &l->h && l->len == 0, "l *= -1 empties l");
    ts_value_release(r);
    rc = list_call("aten::mul_", l, 1, (TsValue[]){ I(3) }, &r, &err);
    ok(rc == 0 && l->len == 0, "[] *= 3 stays empty");
    ts_value_release(r);
    ts_list_append(l, I(1), &err);
    rc = list_call("aten::mul_", l, 1, (TsValue[]){ I(INT64_MAX) }, &r, &err);
    is_int(rc, TS_ERR_LIMIT, "l *= 2**63-1 is a limit error, not a crash");
    ts_error_clear(&err);
    rc = list_call("aten::add_", l, 1, (TsValue[]){ I(1) }, &r, &err);
    is_int(rc, TS_ERR_TYPE, "l += 1 (not a list) is a TypeError");
    ts_error_clear(&err);
    is_int(ts_value_refcount(ts_obj_value(l, TS_TAG_LIST)), 1,
           "every path left the list's count as it was");
    ts_heap_release(&l->h);
}

/* ---- hash() -------------------------------------------------------------------- */

static TsValue str_(const char *s)
{
    TsError err = TS_ERROR_INIT;
    TsStr *p = ts_str_from_cstr(s, &err);
    return p ? ts_str_value(p) : ts_none();
}

static TsValue int_tuple(size_t n, const TsValue *items)
{
    TsError err = TS_ERROR_INIT;
    const TsType *it[4] = { NULL };
    for (size_t i = 0; i < n; i++)
        it[i] = ts_value_type(items[i]);
    TsTuple *t = ts_tuple_new(ts_type_tuple(n, it), n, &err);
    for (size_t i = 0; t && i < n; i++)
        t->items[i] = items[i];
    return t ? ts_obj_value(t, TS_TAG_TUPLE) : ts_none();
}

/* PyTorch's hash() is libstdc++'s std::hash: these are its numbers. */
static void test_hash(void)
{
    struct { TsValue v; int64_t want; const char *what; } cases[] = {
        { I(0), 0, "hash(0)" },
        { I(-7), -7, "hash(-7)" },
        { I(INT64_MIN), INT64_MIN, "hash(INT64_MIN)" },
        { B(true), 1, "hash(True)" },
        { B(false), 0, "hash(False)" },
        { ts_none(), 0, "hash(None)" },
        { F(1.5), INT64_C(4982507072649106663), "hash(1.5)" },
        { F(0.1), INT64_C(4944624500300936044), "hash(0.1)" },
        { F(-0.0), 0, "hash(-0.0)" },
        { F(INF_), INT64_C(3377428025507081056), "hash(inf)" },
        { str_("x"), INT64_C(-5174332529364052081), "hash('x')" },
        { str_("abc"), INT64_C(3663726644998027833), "hash('abc')" },
        { str_(""), INT64_C(6142509188972423790), "hash('')" },
        { str_("hello world, long"), INT64_C(-2458454629984085849), "hash of 17 bytes" },
        { ts_device((TsDevice){ 0, -1 }), 255, "hash(torch.device('cpu'))" },
        { int_tuple(0, NULL), 0, "hash(())" },
        { int_tuple(1, (TsValue[]){ I(1) }), INT64_C(2654435770), "hash((1,))" },
        { int_tuple(2, (TsValue[]){ I(1), I(2) }), INT64_C(175247769363), "hash((1, 2))" },
        { int_tuple(2, (TsValue[]){ int_tuple(2, (TsValue[]){ I(1), I(2) }), I(3) }),
          INT64_C(11323814740515), "hash(((1, 2), 3))" },
        { int_tuple(2, (TsValue[]){ str_("x"), F(1.5) }), INT64_C(-4087090989232003654),
          "hash(('x', 1.5))" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        TsError err = TS_ERROR_INIT;
        TsValue r;
        int rc = kt_call("aten::hash", "generic", TS_BACKEND_ANY, 1, &cases[i].v, &r, &err);
        ok(rc == 0 && r.tag == TS_TAG_INT && r.u.i == cases[i].want, "%s == %lld",
           cases[i].what, (long long)cases[i].want);
        if (rc == 0 && r.tag == TS_TAG_INT && r.u.i != cases[i].want)
            diag("got %lld", (long long)r.u.i);
        ts_error_clear(&err);
    }
    TsError err = TS_ERROR_INIT;
    TsValue r, l = ts_obj_value(int_list(1, (const int64_t[]){ 1 }), TS_TAG_LIST);
    int rc = kt_call("aten::hash", "generic", TS_BACKEND_ANY, 1, &l, &r, &err);
    is_int(rc, TS_ERR_RUNTIME, "hash of a list fails");
    is_str(err.msg, "unhashable type: 'List[int]'", "... \"unhashable type: 'List[int]'\"");
    ts_error_clear(&err);
    TsValue t = int_tuple(2, (TsValue[]){ I(1), ts_obj_value(int_list(0, NULL), TS_TAG_LIST) });
    rc = kt_call("aten::hash", "generic", TS_BACKEND_ANY, 1, &t, &r, &err);
    is_int(rc, TS_ERR_RUNTIME, "hash of a tuple holding a list fails (and frees the tuple)");
    ts_error_clear(&err);
}

/* ---- the table itself ---------------------------------------------------------- */

static void test_registration(void)
{
    size_t pos = 0, n = 0, missing = 0;
    const TsOperator *op;
    while (ts_optable_next(ts_runtime_optable(kt_rt), &pos, &op)) {
        if (strcmp(op->plugin, "prim") != 0)
            continue;
        n++;
        if (!ts_operator_kernel_exact(op, TS_BACKEND_ANY)) {
            char name[128];
            ts_operator_full_name(op, name, sizeof name);
            diag("%s has no kernel", name);
            missing++;
        }
    }
    ok(n >= 77, "prim declares its operators (%zu)", n);
    is_int((long long)missing, 0, "every prim operator has a backend-independent kernel");

    const char *exact[] = {
        "aten::__getitem__.t(t[](a) list, int idx) -> t(*)",
        "aten::append.t(t[](a!) self, t(c -> *) el) -> t[](a!)",
        "aten::_set_item.t(t[](a!) l, int idx, t(b -> *) el) -> t[](a!)",
        "aten::div.int(int a, int b) -> float",
        "aten::__not__(bool self) -> bool",
        "aten::div(Scalar a, Scalar b) -> float",
        "aten::add(Scalar a, Scalar b) -> Scalar",
        "aten::add_.t(t[](a!) self, t[] b) -> t[]",
        "aten::hash.generic(t value) -> int",
    };
    const char *names[][2] = {
        { "aten::__getitem__", "t" }, { "aten::append", "t" }, { "aten::_set_item", "t" },
        { "aten::div", "int" }, { "aten::__not__", "" }, { "aten::div", "" }, { "aten::add", "" },
        { "aten::add_", "t" }, { "aten::hash", "generic" },
    };
    for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++) {
        op = kt_find(names[i][0], names[i][1]);
        char *s = op ? ts_schema_to_string(op->schema) : NULL;
        is_str(s, exact[i], "schema of %s.%s is PyTorch's", names[i][0], names[i][1]);
        free(s);
    }
}

/* prim::EnumValue's overloads each return their own type: handed an enum whose values are
 * another (a str-valued enum to .int), the kernel fails instead of passing the str on. */
static void test_enum_value_types(void)
{
    static const char *const names[] = { "HELLO" };
    TsError err = TS_ERROR_INIT;
    TsType *word = ts_type_enum_new("__torch__.t_prim.Word", ts_type_str(), 1, names, &err);
    TsStr *hello = ts_str_from_cstr("hello", &err);
    if (!ok(word && hello, "a str-valued enum type")) {
        ts_error_clear(&err);
        return;
    }
    TsEnumValue *ev = ts_enum_value_new(word, "HELLO", ts_str_value(hello), &err);
    TsValue e = ts_obj_value(ev, TS_TAG_ENUM), out;
    ts_value_retain(e);
    int rc = kt_call("prim::EnumValue", "str", "any", 1, &e, &out, &err);
    ok(rc == 0 && out.tag == TS_TAG_STR && strcmp(((TsStr *)out.u.p)->data, "hello") == 0,
       "EnumValue.str of a str-valued enum gives its str");
    ts_value_release(out);
    ts_error_clear(&err);
    static const char *const wrong[] = { "int", "float" };
    for (int i = 0; i < 2; i++) {
        ts_value_retain(e);
        rc = kt_call("prim::EnumValue", wrong[i], "any", 1, &e, &out, &err);
        is_int(rc, TS_ERR_TYPE, "EnumValue.%s of a str-valued enum is a TypeError", wrong[i]);
        like(err.msg ? err.msg : "", "the enum's values are not of this overload's type",
             "  saying so");
        ok(out.tag == TS_TAG_NONE, "  and gives no value");
        ts_error_clear(&err);
    }
    ts_value_release(e);
}

int main(void)
{
    if (!kt_open())
        return done_testing();
    test_registration();
    test_int_arith();
    test_unary_int();
    test_int_errors();
    test_float_arith();
    test_unary_float();
    test_bool_results();
    test_conversions();
    test_bad_operands();
    test_lists();
    test_in_place_lists();
    test_hash();
    test_enum_value_types();
    ts_runtime_close(kt_rt);
    return done_testing();
}
