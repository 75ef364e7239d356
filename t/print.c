/* print.t — str()/print() text of every kind of value (core/value/print.c). Every expected string
 * was printed by PyTorch 1.13 from a torch.jit.script function (print(x) and str(x)), except
 * where a comment says it is our own choice (nan's sign, the tensor fallback).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tscript/print.h"
#include "registry/optable.h"
#include "runtime.h"
#include "tap.h"

/* ---- building values ----------------------------------------------------------------- */

static TsValue S(const char *s)
{
    return ts_str_value(ts_str_from_cstr(s, NULL));
}

static TsValue L(const TsType *elem, size_t n, ...)
{
    TsList *l = ts_list_new(elem, n, NULL);
    va_list ap;
    va_start(ap, n);
    for (size_t i = 0; i < n; i++)
        ts_list_append(l, va_arg(ap, TsValue), NULL);
    va_end(ap);
    return ts_obj_value(l, TS_TAG_LIST);
}

static TsValue T(size_t n, ...)
{
    TsTuple *t = ts_tuple_new(NULL, n, NULL);
    va_list ap;
    va_start(ap, n);
    for (size_t i = 0; i < n; i++)
        t->items[i] = va_arg(ap, TsValue);
    va_end(ap);
    return ts_obj_value(t, TS_TAG_TUPLE);
}

/* n key/value pairs. */
static TsValue D(const TsType *k, const TsType *v, size_t n, ...)
{
    TsDict *d = ts_dict_new(k, v, NULL);
    va_list ap;
    va_start(ap, n);
    for (size_t i = 0; i < n; i++) {
        TsValue key = va_arg(ap, TsValue);
        ts_dict_set(d, key, va_arg(ap, TsValue), NULL);
    }
    va_end(ap);
    return ts_obj_value(d, TS_TAG_DICT);
}

static TsValue C(double re, double im)
{
    return ts_obj_value(ts_complex_new(re, im, NULL), TS_TAG_COMPLEX);
}

/* Checks str(v) against want, and releases v. */
static void check(TsRuntime *rt, TsValue v, const char *want, const char *what)
{
    TsError err = TS_ERROR_INIT;
    char *got = ts_value_to_cstr(rt, v, &err);
    if (!is_str(got, want, "str(%s)", what) && err.msg)
        diag("%s", err.msg);
    free(got);
    ts_error_clear(&err);
    ts_value_release(v);
}

/* ---- floats ------------------------------------------------------------------------------- */

static void test_floats(void)
{
    static const struct { double d; const char *want; } cases[] = {
        { 3.0, "3." },
        { 0.1, "0.10000000000000001" },
        { 1.0 / 3.0, "0.33333333333333331" },
        { 1e20, "1e+20" },
        { 1e16, "10000000000000000." },
        { 1e17, "100000000000000000." },
        { 123456789012345678.0, "123456789012345680." },
        { 1e-5, "1.0000000000000001e-05" },
        { 1.5e-7, "1.4999999999999999e-07" },
        { 0.0001, "0.0001" },
        { -0.0, "0." },
        { 0.0, "0." },
        { INFINITY, "inf" },
        { -INFINITY, "-inf" },
        { 2.5, "2.5" },
        { 1e15, "1000000000000000." },
        { 1e300, "1.0000000000000001e+300" },
        { 5e-324, "4.9406564584124654e-324" },
        { 12345.678, "12345.678" },
        { 100.0, "100." },
        { 1e100, "1e+100" },
        { 9.2e18, "9200000000000000000." },
        { 1e19, "1e+19" },
        { -9223372036854775808.0, "-9223372036854775808." },
        { 9223372036854775808.0, "9.2233720368547758e+18" },
        { 1e10 + 0.5, "10000000000.5" },
        { -1e17, "-100000000000000000." },
        { 1.7976931348623157e308, "1.7976931348623157e+308" },
        { -1e-5, "-1.0000000000000001e-05" },
        { -0.25, "-0.25" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char what[64];
        snprintf(what, sizeof what, "%.17g", cases[i].d);
        check(NULL, ts_double(cases[i].d), cases[i].want, what);
    }
    /* Our choice: nan never prints a sign (PyTorch sometimes prints "-nan"). */
    check(NULL, ts_double(NAN), "nan", "nan");
    check(NULL, ts_double(-NAN), "nan", "-nan");

    char buf[4];
    size_t n = ts_format_double(0.1, buf, sizeof buf);
    ok(n == 19 && strcmp(buf, "0.1") == 0, "ts_format_double truncates like snprintf");
}

/* ---- scalars ------------------------------------------------------------------------------ */

static void test_scalars(void)
{
    check(NULL, ts_int(1), "1", "1");
    check(NULL, ts_int(-5), "-5", "-5");
    check(NULL, ts_int(INT64_MIN), "-9223372036854775808", "INT64_MIN");
    check(NULL, ts_bool(true), "True", "True");
    check(NULL, ts_bool(false), "False", "False");
    check(NULL, ts_none(), "None", "None");
    check(NULL, S("abc"), "abc", "a str");
    check(NULL, S(""), "", "the empty str");
    check(NULL, S("new\nline"), "new\nline", "a str with a newline");
    check(NULL, ts_device((TsDevice){ TS_DEV_CPU, -1 }), "cpu", "cpu");
    check(NULL, ts_device((TsDevice){ TS_DEV_CUDA, 0 }), "cuda:0", "cuda:0");
    check(NULL, ts_device((TsDevice){ TS_DEV_CUDA, -1 }), "cuda", "cuda");
    check(NULL, C(1.0, 2.0), "1.+2.j", "complex(1, 2)");
    check(NULL, C(1.5, -2.0), "1.5-2.j", "complex(1.5, -2)");
    check(NULL, C(0.0, 1.0), "0.+1.j", "complex(0, 1)");
    check(NULL, C(-0.0, 0.0), "0.+0.j", "complex(-0., 0)");
    check(NULL, C(1.0, -0.0), "1.+0.j", "complex(1, -0.)");
    check(NULL, C(0.1, 1e20), "0.10000000000000001+1e+20j", "complex(0.1, 1e20)");
    check(NULL, C(NAN, INFINITY), "nan+infj", "complex(nan, inf)");
    check(NULL, C(-1.0, -INFINITY), "-1.-infj", "complex(-1, -inf)");
    check(NULL, C(2.0, 0.5), "2.+0.5j", "complex(2, 0.5)");

    TsStr *s = ts_str_new("a\0b", 3, NULL);
    TsError err = TS_ERROR_INIT;
    TsStr *r = ts_value_str(NULL, ts_str_value(s), &err);
    ok(r == s && ts_value_refcount(ts_str_value(s)) == 2, "str() of a str is the same string");
    ts_heap_release(&r->h);
    TsBuf b = TS_BUF_INIT;
    ok(ts_value_format(NULL, ts_str_value(s), &b, &err) == 0 && b.len == 3
       && memcmp(b.p, "a\0b", 3) == 0, "a str with a NUL byte prints all its bytes");
    ts_buf_free(&b);
    ts_heap_release(&s->h);
}

/* ---- containers ----------------------------------------------------------------------- */

static void test_containers(void)
{
    const TsType *ti = ts_type_int(), *tf = ts_type_float(), *ts = ts_type_str();
    check(NULL, L(ti, 2, ts_int(1), ts_int(2)), "[1, 2]", "[1, 2]");
    check(NULL, L(tf, 2, ts_double(1.5), ts_double(2.0)), "[1.5, 2.]", "[1.5, 2.0]");
    check(NULL, T(2, ts_int(1), S("a")), "(1, a)", "(1, 'a')");
    check(NULL, T(1, ts_int(4)), "(4,)", "(4,)");
    check(NULL, T(1, S("")), "(,)", "('',)");
    check(NULL, T(2, ts_int(3), S("")), "(3, )", "(3, '')");
    check(NULL, T(0), "()", "()");
    check(NULL, L(ti, 0), "[]", "[]");
    check(NULL, D(ts, ti, 0), "{}", "{}");
    check(NULL, D(ts, ti, 2, S("a"), ts_int(1), S("b"), ts_int(2)), "{a: 1, b: 2}",
          "{'a': 1, 'b': 2}");
    check(NULL, L(ts, 2, S("a"), S("b")), "[a, b]", "['a', 'b']");
    check(NULL, L(ts, 3, S("q'uote"), S("d\"q"), S("new\nl")), "[q'uote, d\"q, new\nl]",
          "strings with quotes in a list");
    check(NULL, L(ts_type_list(ti), 2, L(ti, 1, ts_int(1)), L(ti, 2, ts_int(2), ts_int(3))),
          "[[1], [2, 3]]", "[[1], [2, 3]]");
    check(NULL, L(ts_type_list(ti), 1, L(ti, 0)), "[[]]", "[[]]");
    check(NULL, L(ts_type_any(), 1, T(2, ts_int(1), ts_double(2.0))), "[(1, 2.)]", "[(1, 2.0)]");
    check(NULL, D(ti, ts_type_list(tf), 1, ts_int(1), L(tf, 1, ts_double(1.0))), "{1: [1.]}",
          "{1: [1.0]}");
    check(NULL, D(tf, ts, 2, ts_double(1.5), S("x"), ts_double(2.0), S("y")), "{1.5: x, 2.: y}",
          "a dict with float keys");
    check(NULL, D(ts_type_bool(), ti, 1, ts_bool(true), ts_int(1)), "{True: 1}", "{True: 1}");
    check(NULL, L(ts_type_none(), 1, ts_none()), "[None]", "[None]");
    check(NULL, L(ts_type_bool(), 1, ts_bool(true)), "[True]", "[True]");
    check(NULL, L(ts_type_any(), 1, D(ts, ts_type_any(), 1, S("a"),
                                      L(ts_type_any(), 2, ts_int(1), T(2, ts_int(2), S("b"))))),
          "[{a: [1, (2, b)]}]", "[{'a': [1, (2, 'b')]}]");
    check(NULL, T(2, T(2, ts_int(1), ts_int(2)), T(1, ts_int(3))), "((1, 2), (3,))",
          "((1, 2), (3,))");
    check(NULL, T(2, ts_int(1), T(1, ts_int(2))), "(1, (2,))", "(1, (2,))");
    check(NULL, L(ts_type_complex(), 1, C(1.5, -2.0)), "[1.5-2.j]", "[complex(1.5, -2)]");

    /* A NamedTuple prints as a plain tuple. */
    TsError err = TS_ERROR_INIT;
    const char *names[] = { "x", "y" };
    const TsType *types[] = { ti, ts };
    const TsType *pt = ts_type_named_tuple("__torch__.P", 2, names, types, &err);
    TsTuple *p = ts_tuple_new(pt, 2, &err);
    p->items[0] = ts_int(1);
    p->items[1] = S("x");
    check(NULL, ts_obj_value(p, TS_TAG_TUPLE), "(1, x)", "P(1, 'x')");
    ts_error_clear(&err);
}

/* A list nested far deeper than any C stack could recurse. */
static void test_deep(void)
{
    enum { DEPTH = 200000 };
    const TsType *ti = ts_type_int();
    TsValue v = L(ti, 1, ts_int(7));
    const TsType *t = ts_type_list(ti);
    for (int i = 1; i < DEPTH; i++) {
        v = L(t, 1, v);
        t = ts_type_list(t);
    }
    TsError err = TS_ERROR_INIT;
    char *s = ts_value_to_cstr(NULL, v, &err);
    ok(s && strlen(s) == 2 * DEPTH + 1 && s[DEPTH - 1] == '[' && s[DEPTH] == '7'
       && s[DEPTH + 1] == ']', "a list nested %d deep prints", DEPTH);
    free(s);
    ts_value_release(v);
    ts_error_clear(&err);
}

/* ---- nominal and opaque values -------------------------------------------------------- */

static void test_nominal(void)
{
    TsError err = TS_ERROR_INIT;
    const char *members[] = { "RED", "GREEN" };
    TsType *color = ts_type_enum_new("__torch__.M1Color", ts_type_int(), 2, members, &err);
    TsValue green = ts_obj_value(ts_enum_value_new(color, "GREEN", ts_int(2), &err),
                                 TS_TAG_ENUM);
    ts_value_retain(green);
    check(NULL, green, "Enum<M1Color.GREEN>", "Color.GREEN");
    check(NULL, L(ts_type_any(), 1, green), "[Enum<M1Color.GREEN>]", "[Color.GREEN]");

    TsType *foo = ts_type_class_new("__torch__.M1Foo", false, &err);
    TsObject *o = ts_object_new(foo, &err);
    char want[96];
    snprintf(want, sizeof want, "<__torch__.M1Foo object at %p>", (void *)o);
    check(NULL, ts_obj_value(o, TS_TAG_OBJECT), want, "an object");

    TsFuture *f = ts_future_new(ts_type_int(), &err);
    ts_heap_retain((TsHeap *)f);
    check(NULL, ts_obj_value(f, TS_TAG_FUTURE), "Future", "a future");
    check(NULL, L(ts_type_any(), 1, ts_obj_value(f, TS_TAG_FUTURE)), "[Future]", "[future]");
    ts_error_clear(&err);
}

/* ---- tensors ------------------------------------------------------------------------------- */

static int fake_formatter(TsCall *c)
{
    TsValue t = ts_stack_pop(c->stack);
    char buf[64];
    snprintf(buf, sizeof buf, "T%d", (int)((TsTensor *)t.u.p)->dim);
    ts_value_release(t);
    TsStr *s = ts_str_from_cstr(buf, c->error);
    return s ? ts_stack_push(c->stack, ts_str_value(s), c->error) : (int)c->error->code;
}

static int failing_formatter(TsCall *c)
{
    ts_stack_drop(c->stack, 1);
    return ts_error_set(c->error, TS_ERR_RUNTIME, "formatter broke");
}

static void test_tensors(void)
{
    TsError err = TS_ERROR_INIT;
    static float data[6];
    int64_t sizes[2] = { 2, 3 };
    TsStorage *st = ts_storage_borrow(data, sizeof data, (TsDevice){ TS_DEV_CPU, -1 }, &err);
    TsTensor *t = ts_tensor_new(st, TS_FLOAT32, 2, sizes, NULL, 0, &err);
    ts_storage_release(st);
    TsValue tv = ts_obj_value(t, TS_TAG_TENSOR);

    /* Our fallback without a runtime. */
    ts_value_retain(tv);
    check(NULL, tv, "<Tensor CPUFloatType{2,3}>", "a tensor without a formatter");

    /* With a runtime: a backend of our own gets a formatter kernel, so this does not depend
     * on what aten-cpu registers. */
    TsRuntime *rt = ts_runtime_open(NULL, &err);
    if (!ok(rt != NULL, "the default runtime opens")) {
        diag("%s", err.msg);
        ts_error_clear(&err);
        ts_value_release(tv);
        return;
    }
    int dev = ts_device_type_register("mprint", &err);
    TsOperator *op = ts_optable_find_mut((TsOpTable *)ts_runtime_optable(rt), TS_FORMAT_TENSOR_OP,
                                         "");
    ok(op != NULL, "%s is declared", TS_FORMAT_TENSOR_OP);
    if (op && ts_operator_add_kernel(op, "mprint", fake_formatter, NULL, "test", &err) == 0) {
        float other[1];
        TsStorage *st2 = ts_storage_borrow(other, sizeof other, (TsDevice){ (int16_t)dev, 0 },
                                           &err);
        int64_t one = 1;
        TsTensor *t2 = ts_tensor_new(st2, TS_FLOAT32, 1, &one, NULL, 0, &err);
        ts_storage_release(st2);
        TsValue v2 = ts_obj_value(t2, TS_TAG_TENSOR);
        ts_value_retain(v2);
        check(rt, v2, "T1", "a tensor through its backend's formatter");
        check(rt, L(ts_type_tensor(), 1, v2), "[T1]", "a list of a tensor");
        /* A backend without a formatter gets the prim plugin's kernel for any backend. */
        int dev3 = ts_device_type_register("mnone", &err);
        TsStorage *st3 = ts_storage_borrow(other, sizeof other, (TsDevice){ (int16_t)dev3, 0 },
                                           &err);
        TsTensor *t3 = ts_tensor_new(st3, TS_INT32, 1, &one, NULL, 0, &err);
        ts_storage_release(st3);
        check(rt, ts_obj_value(t3, TS_TAG_TENSOR), "<Tensor MNONEIntType{1}>",
              "a tensor of a backend without a formatter");
        ts_value_release(tv);
        ts_runtime_close(rt);
        return;
    }
    diag("%s", err.msg);
    ts_error_clear(&err);
    ts_value_release(tv);
    ts_runtime_close(rt);
}

/* A formatter that fails: the error comes through, nothing leaks. */
static void test_tensor_error(void)
{
    TsError err = TS_ERROR_INIT;
    TsRuntime *rt = ts_runtime_open(NULL, &err);
    if (!rt) {
        ts_error_clear(&err);
        return;
    }
    int dev = ts_device_type_register("mbroken", &err);
    TsOperator *op = ts_optable_find_mut((TsOpTable *)ts_runtime_optable(rt), TS_FORMAT_TENSOR_OP,
                                         "");
    if (op && ts_operator_add_kernel(op, "mbroken", failing_formatter, NULL, "test", &err) == 0) {
        float x[1];
        int64_t one = 1;
        TsStorage *st = ts_storage_borrow(x, sizeof x, (TsDevice){ (int16_t)dev, 0 }, &err);
        TsTensor *t = ts_tensor_new(st, TS_FLOAT32, 1, &one, NULL, 0, &err);
        ts_storage_release(st);
        TsValue v = L(ts_type_tensor(), 2, ts_int(1), ts_obj_value(t, TS_TAG_TENSOR));
        char *s = ts_value_to_cstr(rt, v, &err);
        ok(s == NULL && err.code == TS_ERR_RUNTIME, "a failing formatter fails the print");
        like(err.msg, "formatter broke", "with the formatter's message");
        ts_value_release(v);
    }
    ts_error_clear(&err);
    ts_runtime_close(rt);
}

/* ---- print(a, b, ...) ------------------------------------------------------------------------ */

static void test_print_line(void)
{
    TsError err = TS_ERROR_INIT;
    TsValue v[3] = { S("a"), ts_double(3.0), ts_none() };
    TsBuf b = TS_BUF_INIT;
    ok(ts_print_line(NULL, v, 3, &b, &err) == 0, "print() of three values");
    is_str(b.p, "a 3. None\n", "values separated by spaces, then a newline");
    ts_buf_free(&b);
    ok(ts_print_line(NULL, v, 0, &b, &err) == 0, "print() of nothing");
    is_str(b.p, "\n", "is an empty line");
    ts_buf_free(&b);
    for (int i = 0; i < 3; i++)
        ts_value_release(v[i]);
}

int main(void)
{
    test_floats();
    test_scalars();
    test_containers();
    test_deep();
    test_nominal();
    test_tensors();
    test_tensor_error();
    test_print_line();
    return done_testing();
}
