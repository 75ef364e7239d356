/* prim_math.c — the prim plugin's math module, round() and divmod() (math.c), called
 * directly on stacks. Expected results and error texts are PyTorch 1.13's, taken from
 * torch.jit.script runs of the same calls (NaN and signed zeros included).
 */
#include <string.h>

#include "kernel.h"

#define I(x) ts_int(x)
#define F(x) ts_double(x)
#define INF_ INFINITY
#define NAN_ NAN

typedef struct FloatCase {
    const char *op, *ov;
    size_t n;
    TsValue a, b;
    double want;
} FloatCase;

static void test_float_results(void)
{
    const FloatCase cases[] = {
        /* no math domain errors: nan and inf instead */
        { "aten::sqrt", "float", 1, F(-1.0), {{0}, 0, 0}, NAN_ },
        { "aten::sqrt", "int", 1, I(-4), {{0}, 0, 0}, NAN_ },
        { "aten::sqrt", "Scalar", 1, I(4), {{0}, 0, 0}, 2.0 },
        { "aten::log", "float", 1, F(0.0), {{0}, 0, 0}, -INF_ },
        { "aten::log", "float", 1, F(-1.0), {{0}, 0, 0}, NAN_ },
        { "aten::log10", "float", 1, F(-1.0), {{0}, 0, 0}, NAN_ },
        { "aten::acos", "float", 1, F(2.0), {{0}, 0, 0}, NAN_ },
        { "aten::asin", "float", 1, F(2.0), {{0}, 0, 0}, NAN_ },
        { "aten::cos", "float", 1, F(INF_), {{0}, 0, 0}, NAN_ },
        { "aten::atanh", "float", 1, F(1.0), {{0}, 0, 0}, INF_ },
        { "aten::exp", "float", 1, F(1000.0), {{0}, 0, 0}, INF_ },
        { "aten::exp", "int", 1, I(1), {{0}, 0, 0}, 2.718281828459045 },
        { "aten::expm1", "float", 1, F(1e-5), {{0}, 0, 0}, 1.0000050000166668e-05 },
        { "aten::log1p", "float", 1, F(1e-5), {{0}, 0, 0}, 9.9999500003333319e-06 },
        { "aten::gamma", "float", 1, F(0.0), {{0}, 0, 0}, INF_ },
        { "aten::gamma", "float", 1, F(-1.0), {{0}, 0, 0}, NAN_ },
        { "aten::gamma", "float", 1, F(200.0), {{0}, 0, 0}, INF_ },
        { "aten::gamma", "float", 1, F(5.0), {{0}, 0, 0}, 24.0 },
        { "aten::gamma", "float", 1, F(0.5), {{0}, 0, 0}, 1.7724538509055161 },
        { "aten::lgamma", "float", 1, F(0.0), {{0}, 0, 0}, INF_ },
        { "aten::lgamma", "float", 1, F(-1.0), {{0}, 0, 0}, INF_ },
        { "aten::lgamma", "float", 1, F(10.0), {{0}, 0, 0}, 12.801827480081471 },
        { "aten::erf", "float", 1, F(0.5), {{0}, 0, 0}, 0.52049987781304652 },
        { "aten::erfc", "float", 1, F(0.5), {{0}, 0, 0}, 0.47950012218695348 },
        { "aten::fabs", "int", 1, I(-3), {{0}, 0, 0}, 3.0 },
        { "aten::degrees", "int", 1, I(1), {{0}, 0, 0}, 57.29577951308232 },
        { "aten::radians", "float", 1, F(180.0), {{0}, 0, 0}, 3.141592653589793 },
        /* round: halves to even, a float */
        { "aten::round", "float", 1, F(2.5), {{0}, 0, 0}, 2.0 },
        { "aten::round", "float", 1, F(3.5), {{0}, 0, 0}, 4.0 },
        { "aten::round", "float", 1, F(-0.5), {{0}, 0, 0}, -0.0 },
        { "aten::round", "float", 1, F(-2.5), {{0}, 0, 0}, -2.0 },
        { "aten::round", "float", 1, F(0.49999999999999994), {{0}, 0, 0}, 0.0 },
        { "aten::round", "float", 1, F(INF_), {{0}, 0, 0}, INF_ },
        { "aten::round", "int", 1, I(3), {{0}, 0, 0}, 3.0 },
        /* two numbers */
        { "aten::pow", "int", 2, I(2), I(10), 1024.0 },
        { "aten::pow", "int", 2, I(2), I(-1), 0.5 },
        { "aten::pow", "int", 2, I(-2), I(-3), -0.125 },
        { "aten::pow", "int", 2, I(0), I(0), 1.0 },
        { "aten::pow", "int", 2, I(3), I(40), 1.2157665459056929e+19 },
        { "aten::pow", "float", 2, F(-8.0), F(1.0 / 3.0), NAN_ },
        { "aten::pow", "float", 2, F(-2.0), F(0.5), NAN_ },
        { "aten::pow", "float_int", 2, F(2.5), I(2), 6.25 },
        { "aten::log", "float_float", 2, F(8.0), F(2.0), 3.0 },
        { "aten::log", "float_float", 2, F(8.0), F(1.0), INF_ },
        { "aten::log", "int_int", 2, I(8), I(0), -0.0 },
        { "aten::log", "int_int", 2, I(1), I(1), NAN_ },
        { "aten::log", "int_int", 2, I(0), I(2), -INF_ },
        { "aten::fmod", "float", 2, F(-7.5), F(2.0), -1.5 },
        { "aten::fmod", "float", 2, F(1.0), F(0.0), NAN_ },
        { "aten::fmod", "int", 2, I(7), I(3), 1.0 },
        { "aten::mathremainder", "float", 2, F(7.0), F(2.0), -1.0 },
        { "aten::mathremainder", "float", 2, F(-7.0), F(3.0), -1.0 },
        { "aten::mathremainder", "float", 2, F(7.0), F(0.0), NAN_ },
        { "aten::copysign", "int", 2, I(0), I(-1), -0.0 },
        { "aten::copysign", "float", 2, F(-2.0), F(5.0), 2.0 },
        { "aten::copysign", "int_float", 2, I(1), F(-0.0), -1.0 },
        { "aten::atan2", "int", 2, I(1), I(1), 0.7853981633974483 },
        { "aten::ldexp", "", 2, F(1.5), I(-2), 0.375 },
        { "aten::ldexp", "", 2, F(1.0), I(5000), INF_ },
        { "aten::ldexp", "", 2, F(1.0), I(-1080), 0.0 },
        /* PyTorch hands C's ldexp the exponent's low 32 bits */
        { "aten::ldexp", "", 2, F(1.0), I(-INT64_MAX), 2.0 },
        { "aten::ldexp", "", 2, F(1.0), I(INT64_MAX), 0.5 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const FloatCase *c = &cases[i];
        TsError err = TS_ERROR_INIT;
        TsValue args[2] = { c->a, c->b }, r;
        int rc = kt_call(c->op, c->ov, TS_BACKEND_ANY, c->n, args, &r, &err);
        ok(rc == 0 && r.tag == TS_TAG_DOUBLE && kt_same_float(r.u.d, c->want),
           "%s.%s case %zu is %.17g", c->op, c->ov, i, c->want);
        if (rc == 0 && r.tag == TS_TAG_DOUBLE && !kt_same_float(r.u.d, c->want))
            diag("got %.17g", r.u.d);
        if (rc)
            diag("%s", err.msg ? err.msg : "(no message)");
        ts_error_clear(&err);
    }
}

static void test_int_results(void)
{
    struct { const char *op, *ov; size_t n; TsValue a, b; int64_t want; } cases[] = {
        { "aten::floor", "float", 1, F(2.7), {{0}, 0, 0}, 2 },
        { "aten::floor", "float", 1, F(-2.5), {{0}, 0, 0}, -3 },
        { "aten::floor", "int", 1, I(3), {{0}, 0, 0}, 3 },
        { "aten::floor", "Scalar", 1, F(2.5), {{0}, 0, 0}, 2 },
        { "aten::ceil", "float", 1, F(2.1), {{0}, 0, 0}, 3 },
        { "aten::ceil", "float", 1, F(-2.5), {{0}, 0, 0}, -2 },
        { "aten::gcd", "int", 2, I(12), I(18), 6 },
        { "aten::gcd", "int", 2, I(-4), I(6), 2 },
        { "aten::gcd", "int", 2, I(-12), I(-18), 6 },
        { "aten::gcd", "int", 2, I(0), I(0), 0 },
        { "aten::gcd", "int", 2, I(INT64_MIN), I(0), INT64_MIN },
        { "aten::gcd", "int", 2, I(INT64_MIN), I(-1), 1 },
        { "aten::factorial", "int", 1, I(0), {{0}, 0, 0}, 1 },
        { "aten::factorial", "int", 1, I(20), {{0}, 0, 0}, INT64_C(2432902008176640000) },
        { "aten::factorial", "int", 1, I(21), {{0}, 0, 0}, INT64_C(-4249290049419214848) },
        { "aten::__round_to_zero_floordiv", "int", 2, I(-7), I(2), -3 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        TsError err = TS_ERROR_INIT;
        TsValue args[2] = { cases[i].a, cases[i].b }, r;
        int rc = kt_call(cases[i].op, cases[i].ov, TS_BACKEND_ANY, cases[i].n, args, &r, &err);
        ok(rc == 0 && r.tag == TS_TAG_INT && r.u.i == cases[i].want, "%s.%s case %zu is %lld",
           cases[i].op, cases[i].ov, i, (long long)cases[i].want);
        ts_error_clear(&err);
    }

    struct { const char *op, *ov; double a; bool want; } preds[] = {
        { "aten::isnan", "float", NAN_, true }, { "aten::isnan", "float", INF_, false },
        { "aten::isinf", "float", -INF_, true }, { "aten::isinf", "float", 1e308, false },
        { "aten::isfinite", "float", 1.0, true }, { "aten::isfinite", "float", NAN_, false },
    };
    for (size_t i = 0; i < sizeof preds / sizeof preds[0]; i++) {
        TsError err = TS_ERROR_INIT;
        TsValue r;
        int rc = kt_call(preds[i].op, preds[i].ov, TS_BACKEND_ANY, 1,
                         (TsValue[]){ F(preds[i].a) }, &r, &err);
        ok(rc == 0 && r.tag == TS_TAG_BOOL && r.u.b == preds[i].want, "%s(%g) is %s",
           preds[i].op, preds[i].a, preds[i].want ? "True" : "False");
    }
}

static void test_errors(void)
{
    struct { const char *op, *ov; size_t n; TsValue a, b; int code; const char *msg; } cases[] = {
        { "aten::pow", "int", 2, I(0), I(-1), TS_ERR_RUNTIME,
          "0.0 cannot be raised to a negative power" },
        { "aten::pow", "float", 2, F(-0.0), F(-1.0), TS_ERR_RUNTIME,
          "0.0 cannot be raised to a negative power" },
        { "aten::pow", "int_float", 2, I(0), F(-0.5), TS_ERR_RUNTIME,
          "0.0 cannot be raised to a negative power" },
        { "aten::floor", "float", 1, F(INF_), {{0}, 0, 0}, TS_ERR_RUNTIME,
          "Cannot convert float inf to integer" },
        { "aten::ceil", "float", 1, F(1e20), {{0}, 0, 0}, TS_ERR_RUNTIME,
          "Cannot convert float 100000000000000000000.000000 to integer" },
        { "aten::factorial", "int", 1, I(-1), {{0}, 0, 0}, TS_ERR_RUNTIME,
          "factorial() not defined for negative values" },
        { "aten::divmod", "int", 2, I(1), I(0), TS_ERR_ZERO_DIV,
          "ZeroDivisionError: integer division or modulo by zero" },
        { "aten::divmod", "float", 2, F(1.0), F(0.0), TS_ERR_ZERO_DIV, "ZeroDivisionError: float divmod()" },
        { "aten::__round_to_zero_floordiv", "int", 2, I(1), I(0), TS_ERR_RUNTIME,
          "division by 0" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        TsError err = TS_ERROR_INIT;
        TsValue args[2] = { cases[i].a, cases[i].b }, r;
        int rc = kt_call(cases[i].op, cases[i].ov, TS_BACKEND_ANY, cases[i].n, args, &r, &err);
        is_int(rc, cases[i].code, "%s.%s case %zu fails with %s", cases[i].op, cases[i].ov, i,
               ts_error_class((TsErrorCode)cases[i].code));
        is_str(err.msg, cases[i].msg, "... '%s'", cases[i].msg);
        ts_error_clear(&err);
    }
    TsError err = TS_ERROR_INIT;
    TsStr *s = ts_str_from_cstr("x", &err);
    TsValue r;
    int rc = kt_call("aten::sqrt", "Scalar", TS_BACKEND_ANY, 1,
                     (TsValue[]){ ts_str_value(s) }, &r, &err);
    is_int(rc, TS_ERR_TYPE, "sqrt of a str is a TypeError, not a crash");
    ts_error_clear(&err);
}

/* Runs op.ov on the n values in args and takes its two results (the schemas declare two
 * returns, so the kernel must leave exactly two values). */
static int call2(const char *op, const char *ov, size_t n, const TsValue *args, TsValue *x,
                 TsValue *y, TsError *err)
{
    const TsOperator *o = kt_find(op, ov);
    const TsKernelEntry *k = o ? ts_operator_kernel(o, TS_BACKEND_ANY) : NULL;
    if (!k || !k->fn || !o->schema || o->schema->n_returns != 2) {
        diag("no two-result kernel for %s.%s", op, ov);
        return -1;
    }
    TsStack s = { NULL, 0, 0 };
    for (size_t i = 0; i < n; i++)
        ts_stack_push(&s, args[i], err);
    TsCall call = { &s, err, NULL, kt_rt, o };
    int rc = k->fn(&call);
    if (rc == 0 && s.len != 2) {
        diag("%s.%s left %zu values for 2 returns", op, ov, s.len);
        rc = -1;
    } else if (rc == 0) {
        *y = ts_stack_pop(&s);
        *x = ts_stack_pop(&s);
    }
    ts_stack_free(&s);
    return rc;
}

/* The two results: their tags and values. */
static void test_pairs(void)
{
    struct { const char *op, *ov; size_t n; TsValue a, b; TsValue x, y; } cases[] = {
        { "aten::divmod", "int", 2, I(7), I(3), I(2), I(1) },
        { "aten::divmod", "int", 2, I(-7), I(3), I(-3), I(2) },
        { "aten::divmod", "int", 2, I(7), I(-3), I(-3), I(-2) },
        { "aten::divmod", "int", 2, I(-7), I(-3), I(2), I(-1) },
        { "aten::divmod", "int", 2, I(INT64_MIN), I(-1), I(INT64_MIN), I(0) },
        { "aten::divmod", "float", 2, F(7.5), F(2.0), F(3.0), F(1.5) },
        { "aten::divmod", "float", 2, F(-7.5), F(2.0), F(-4.0), F(0.5) },
        { "aten::divmod", "float", 2, F(-0.0), F(2.0), F(0.0), F(-0.0) },
        { "aten::divmod", "float", 2, F(0.0), F(-2.0), F(-0.0), F(0.0) },
        { "aten::divmod", "float", 2, F(1.0), F(INF_), F(0.0), F(1.0) },
        { "aten::divmod", "float", 2, F(INF_), F(2.0), F(NAN_), F(NAN_) },
        { "aten::divmod", "int_float", 2, I(7), F(2.0), F(3.0), F(1.0) },
        { "aten::divmod", "float_int", 2, F(-7.5), I(2), F(-4.0), F(0.5) },
        { "aten::modf", "", 1, F(2.5), {{0}, 0, 0}, F(0.5), F(2.0) },
        { "aten::modf", "", 1, F(-2.25), {{0}, 0, 0}, F(-0.25), F(-2.0) },
        { "aten::modf", "", 1, F(INF_), {{0}, 0, 0}, F(0.0), F(INF_) },
        { "aten::modf", "", 1, F(-0.0), {{0}, 0, 0}, F(-0.0), F(-0.0) },
        { "aten::frexp", "", 1, F(8.0), {{0}, 0, 0}, F(0.5), I(4) },
        { "aten::frexp", "", 1, F(-3.0), {{0}, 0, 0}, F(-0.75), I(2) },
        { "aten::frexp", "", 1, F(INF_), {{0}, 0, 0}, F(INF_), I(0) },
        { "aten::frexp", "", 1, F(0.0), {{0}, 0, 0}, F(0.0), I(0) },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        TsError err = TS_ERROR_INIT;
        TsValue args[2] = { cases[i].a, cases[i].b }, got[2];
        int rc = call2(cases[i].op, cases[i].ov, cases[i].n, args, &got[0], &got[1], &err);
        bool same = rc == 0;
        for (int k = 0; same && k < 2; k++) {
            TsValue want = k ? cases[i].y : cases[i].x;
            bool eq = want.tag == TS_TAG_INT ? got[k].u.i == want.u.i
                                             : kt_same_float(got[k].u.d, want.u.d);
            same = got[k].tag == want.tag && eq;
        }
        ok(same, "%s.%s case %zu pushes both results", cases[i].op, cases[i].ov, i);
        ts_error_clear(&err);
    }
}

int main(void)
{
    if (!kt_open())
        return done_testing();
    test_float_results();
    test_int_results();
    test_errors();
    test_pairs();
    ts_runtime_close(kt_rt);
    return done_testing();
}
