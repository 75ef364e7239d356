/* prim_list.c — the prim plugin's list and dict kernels (lists.c, list_order.c, dicts.c),
 * called directly on stacks. Expected results and error texts are PyTorch 1.13's, taken
 * from torch.jit.script runs of the same operations.
 */
#include <stdio.h>
#include <string.h>

#include "kernel.h"
#include "tscript/print.h"

/* ---- helpers ------------------------------------------------------------------ */

/* Runs op.overload on the n args (references taken), expecting nout (0 or 1) results. */
static int call(const char *op, const char *ov, size_t n, const TsValue *args, size_t nout,
                TsValue *out, TsError *err)
{
    *out = ts_none();
    const TsOperator *o = kt_find(op, ov);
    const TsKernelEntry *k = o ? ts_operator_kernel(o, TS_BACKEND_ANY) : NULL;
    if (!k || !k->fn) {
        diag("no kernel for %s.%s", op, ov);
        for (size_t i = 0; i < n; i++)
            ts_value_release(args[i]);
        return -1;
    }
    TsStack s = { NULL, 0, 0 };
    for (size_t i = 0; i < n; i++)
        ts_stack_push(&s, args[i], err);
    TsCall c = { &s, err, NULL, kt_rt, o };
    int rc = k->fn(&c);
    if (rc == 0 && s.len != nout) {
        diag("%s.%s left %zu values", op, ov, s.len);
        rc = -1;
    } else if (rc == 0 && nout) {
        *out = ts_stack_pop(&s);
    } else if (rc != 0 && err->code == TS_OK) {
        rc = -1;
    }
    ts_stack_free(&s);
    return rc;
}

static TsValue ref(TsList *l)
{
    ts_heap_retain(&l->h);
    return ts_obj_value(l, TS_TAG_LIST);
}

static TsValue dref(TsDict *d)
{
    TsValue v = ts_obj_value(d, TS_TAG_DICT);
    ts_value_retain(v);
    return v;
}

static TsValue S(const char *s)
{
    TsError err = TS_ERROR_INIT;
    return ts_str_value(ts_str_from_cstr(s, &err));
}

#define I(x) ts_int(x)
#define F(x) ts_double(x)
#define B(x) ts_bool(x)

static TsList *ints(size_t n, const int64_t *v)
{
    TsError err = TS_ERROR_INIT;
    TsList *l = ts_list_new(ts_type_int(), n, &err);
    for (size_t i = 0; i < n; i++)
        ts_list_append(l, ts_int(v[i]), &err);
    return l;
}

static TsList *floats(size_t n, const double *v)
{
    TsError err = TS_ERROR_INIT;
    TsList *l = ts_list_new(ts_type_float(), n, &err);
    for (size_t i = 0; i < n; i++)
        ts_list_append(l, ts_double(v[i]), &err);
    return l;
}

static TsList *strs(size_t n, const char *const *v)
{
    TsError err = TS_ERROR_INIT;
    TsList *l = ts_list_new(ts_type_str(), n, &err);
    for (size_t i = 0; i < n; i++)
        ts_list_append(l, S(v[i]), &err);
    return l;
}

#define INTS(...) ints(sizeof((int64_t[]){ __VA_ARGS__ }) / sizeof(int64_t), \
                       (const int64_t[]){ __VA_ARGS__ })
#define FLOATS(...) floats(sizeof((double[]){ __VA_ARGS__ }) / sizeof(double), \
                           (const double[]){ __VA_ARGS__ })
#define STRS(...) strs(sizeof((const char *[]){ __VA_ARGS__ }) / sizeof(char *), \
                       (const char *const[]){ __VA_ARGS__ })

/* The list as text: "[1, 2]", "[-0., nan]", "[a, b]" (print()'s format). */
static char *text(TsValue v)
{
    TsError err = TS_ERROR_INIT;
    char *s = ts_value_to_cstr(kt_rt, v, &err);
    ts_error_clear(&err);
    return s;
}

static void is_text(TsValue v, const char *want, const char *name)
{
    char *s = text(v);
    is_str(s, want, "%s", name);
    free(s);
}

/* Takes the result of a call that made a value, checks its text and releases it. */
static void is_result(int rc, TsValue r, const char *want, const char *name)
{
    if (!ok(rc == 0, "%s succeeds", name)) {
        ts_value_release(r);
        return;
    }
    is_text(r, want, name);
    ts_value_release(r);
}

static void is_error(int rc, TsError *err, int code, const char *msg, const char *name)
{
    is_int(rc, code, "%s fails with %s", name, ts_error_class((TsErrorCode)code));
    is_str(err->msg, msg, "... '%s'", msg);
    ts_error_clear(err);
}

/* ---- lists: structure ------------------------------------------------------- */

static void test_mutators(void)
{
    TsError err = TS_ERROR_INIT;
    TsValue r;
    TsList *l = INTS(1, 2);
    int rc = call("aten::extend", "t", 2, (TsValue[]){ ref(l), ref(l) }, 0, &r, &err);
    ok(rc == 0, "l.extend(l) succeeds");
    is_text(ts_obj_value(l, TS_TAG_LIST), "[1, 2, 1, 2]", "... doubling the list");
    ts_list_clear(l);
    ts_list_append(l, I(1), &err);
    ts_list_append(l, I(2), &err);

    call("aten::insert", "t", 3, (TsValue[]){ ref(l), I(100), I(7) }, 0, &r, &err);
    call("aten::insert", "t", 3, (TsValue[]){ ref(l), I(-100), I(8) }, 0, &r, &err);
    is_text(ts_obj_value(l, TS_TAG_LIST), "[8, 1, 2, 7]", "insert clamps to the ends");

    rc = call("aten::pop", "t", 2, (TsValue[]){ ref(l), I(-1) }, 1, &r, &err);
    ok(rc == 0 && r.tag == TS_TAG_INT && r.u.i == 7, "pop() gives the last item");
    rc = call("aten::pop", "t", 2, (TsValue[]){ ref(l), I(5) }, 1, &r, &err);
    is_error(rc, &err, TS_ERR_INDEX, "list index out of range", "pop(5)");
    rc = call("aten::Delete", "t", 2, (TsValue[]){ ref(l), I(0) }, 0, &r, &err);
    ok(rc == 0, "del l[0]");
    rc = call("aten::Delete", "t", 2, (TsValue[]){ ref(l), I(-3) }, 0, &r, &err);
    is_error(rc, &err, TS_ERR_INDEX, "list index out of range", "del l[-3]");
    is_text(ts_obj_value(l, TS_TAG_LIST), "[1, 2]", "... leaving [1, 2]");

    call("aten::reverse", "t", 1, (TsValue[]){ ref(l) }, 0, &r, &err);
    is_text(ts_obj_value(l, TS_TAG_LIST), "[2, 1]", "reverse");
    call("aten::clear", "t", 1, (TsValue[]){ ref(l) }, 0, &r, &err);
    ok(l->len == 0, "clear");
    rc = call("aten::pop", "t", 2, (TsValue[]){ ref(l), I(-1) }, 1, &r, &err);
    is_error(rc, &err, TS_ERR_INDEX, "pop from empty list", "pop() of []");
    rc = call("aten::Delete", "t", 2, (TsValue[]){ ref(l), I(0) }, 0, &r, &err);
    is_error(rc, &err, TS_ERR_INDEX, "list index out of range", "del [][0]");
    is_int(ts_value_refcount(ts_obj_value(l, TS_TAG_LIST)), 1, "the list's count is back");
    ts_heap_release(&l->h);
}

static void test_copies(void)
{
    TsError err = TS_ERROR_INIT;
    TsValue r;
    TsList *a = STRS("x", "y"), *b = STRS("z");
    int rc = call("aten::copy", "t", 1, (TsValue[]){ ref(a) }, 1, &r, &err);
    ok(rc == 0 && r.u.p != &a->h && ((TsList *)r.u.p)->elem_type == ts_type_str(),
       "copy is a new List[str]");
    is_int(ts_value_refcount(a->items[0]), 2, "... sharing the items");
    ts_value_release(r);
    is_int(ts_value_refcount(a->items[0]), 1, "... until it goes");
    rc = call("aten::list", "t", 1, (TsValue[]){ ref(a) }, 1, &r, &err);
    is_result(rc, r, "[x, y]", "list(l)");
    rc = call("aten::add", "t", 2, (TsValue[]){ ref(a), ref(b) }, 1, &r, &err);
    is_result(rc, r, "[x, y, z]", "a + b");
    rc = call("aten::mul", "left_t", 2, (TsValue[]){ ref(a), I(3) }, 1, &r, &err);
    is_result(rc, r, "[x, y, x, y, x, y]", "l * 3");
    rc = call("aten::mul", "right_", 2, (TsValue[]){ I(2), ref(b) }, 1, &r, &err);
    is_result(rc, r, "[z, z]", "2 * l");
    rc = call("aten::mul", "left_t", 2, (TsValue[]){ ref(a), I(0) }, 1, &r, &err);
    is_result(rc, r, "[]", "l * 0");
    rc = call("aten::mul", "left_t", 2, (TsValue[]){ ref(a), I(-1) }, 1, &r, &err);
    is_error(rc, &err, TS_ERR_RUNTIME, "vector::reserve", "[x, y] * -1 (as PyTorch)");
    TsList *e = INTS(0);
    ts_list_clear(e);
    rc = call("aten::mul", "left_t", 2, (TsValue[]){ ref(e), I(-3) }, 1, &r, &err);
    is_result(rc, r, "[]", "[] * -3");
    rc = call("aten::mul", "left_t", 2, (TsValue[]){ ref(a), I(INT64_MAX) }, 1, &r, &err);
    is_int(rc, TS_ERR_LIMIT, "l * 2**63-1 is a checked limit, not a crash");
    ts_error_clear(&err);
    is_int(ts_value_refcount(a->items[0]), 1, "no item references leaked");
    ts_heap_release(&a->h);
    ts_heap_release(&b->h);
    ts_heap_release(&e->h);
}

static void test_slices(void)
{
    TsError err = TS_ERROR_INIT;
    TsValue r;
    TsList *l = INTS(0, 1, 2, 3, 4, 5, 6);
    struct { TsValue start, end; int64_t step; const char *want; } cases[] = {
        { ts_none(), ts_none(), 1, "[0, 1, 2, 3, 4, 5, 6]" },
        { ts_none(), ts_none(), -1, "[6, 5, 4, 3, 2, 1, 0]" },
        { I(-100), I(100), 2, "[0, 2, 4, 6]" },
        { I(5), I(1), -2, "[5, 3]" },
        { I(2), ts_none(), 1, "[2, 3, 4, 5, 6]" },
        { ts_none(), I(-2), 1, "[0, 1, 2, 3, 4]" },
        { I(4), I(2), 1, "[]" },
        { I(100), ts_none(), -1, "[6, 5, 4, 3, 2, 1, 0]" },
        { ts_none(), I(-100), -3, "[6, 3, 0]" },
        { I(INT64_MIN), I(INT64_MAX), INT64_MAX, "[0]" },
        { I(INT64_MAX), I(INT64_MIN), INT64_MIN, "[6]" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc = call("aten::slice", "t", 4,
                      (TsValue[]){ ref(l), cases[i].start, cases[i].end, I(cases[i].step) }, 1,
                      &r, &err);
        char name[64];
        snprintf(name, sizeof name, "slice case %zu", i);
        is_result(rc, r, cases[i].want, name);
    }
    int rc = call("aten::slice", "t", 4, (TsValue[]){ ref(l), ts_none(), ts_none(), I(0) }, 1,
                  &r, &err);
    is_error(rc, &err, TS_ERR_RUNTIME, "List slice should have non-zero step", "l[::0]");
    ts_heap_release(&l->h);
}

/* ---- lists: order, search, reductions ----------------------------------------- */

static void test_sort(void)
{
    TsError err = TS_ERROR_INIT;
    TsValue r;
    TsList *f = FLOATS(0.0, -0.0, 0.0, -1.0);
    int rc = call("aten::sort", "float", 2, (TsValue[]){ ref(f), B(false) }, 0, &r, &err);
    ok(rc == 0 && f->items[0].u.d == -1.0 && !signbit(f->items[1].u.d) &&
       signbit(f->items[2].u.d) && !signbit(f->items[3].u.d),
       "sort is stable: [0.0, -0.0, 0.0, -1.0] gives [-1.0, 0.0, -0.0, 0.0]");
    TsList *s = STRS("b", "a", "c", "ab");
    rc = call("aten::sort", "str", 2, (TsValue[]){ ref(s), B(true) }, 0, &r, &err);
    ok(rc == 0, "sort(reverse=True) of strs");
    is_text(ts_obj_value(s, TS_TAG_LIST), "[c, b, ab, a]", "... by bytes, descending");
    TsList *e = INTS(5, -3, INT64_MAX, INT64_MIN, 0, 300, 256, -256, 1, -1, 5);
    rc = call("aten::sort", "int", 2, (TsValue[]){ ref(e), B(false) }, 0, &r, &err);
    ok(rc == 0, "sort of ints (a radix sort)");
    is_text(ts_obj_value(e, TS_TAG_LIST),
            "[-9223372036854775808, -256, -3, -1, 0, 1, 5, 5, 256, 300, 9223372036854775807]",
            "... by value, negatives and the extremes included");
    rc = call("aten::sort", "int", 2, (TsValue[]){ ref(e), B(true) }, 0, &r, &err);
    is_text(ts_obj_value(e, TS_TAG_LIST),
            "[9223372036854775807, 300, 256, 5, 5, 1, 0, -1, -3, -256, -9223372036854775808]",
            "... and reversed");
    ts_heap_release(&e->h);
    TsList *big = ts_list_new(ts_type_int(), 0, &err);
    uint64_t x = 12345;
    for (int i = 0; i < 5000; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        ts_list_append(big, I((int64_t)(i % 3 ? x >> 40 : x)), &err);
    }
    rc = call("aten::sort", "int", 2, (TsValue[]){ ref(big), B(false) }, 0, &r, &err);
    bool sorted = rc == 0 && big->len == 5000;
    for (size_t i = 1; sorted && i < big->len; i++)
        sorted = big->items[i - 1].u.i <= big->items[i].u.i;
    ok(sorted, "5000 ints of mixed sizes and signs come out in order");
    ts_heap_release(&big->h);
    TsList *n = INTS(3, 1, 2, 1);
    rc = call("aten::sorted", "int", 1, (TsValue[]){ ref(n) }, 1, &r, &err);
    is_result(rc, r, "[1, 1, 2, 3]", "sorted([3, 1, 2, 1])");
    is_text(ts_obj_value(n, TS_TAG_LIST), "[3, 1, 2, 1]", "... leaves its input alone");

    /* sort.any on tuples: lexicographic */
    const TsType *tt = ts_type_tuple(2, (const TsType *const[]){ ts_type_int(), ts_type_str() });
    TsList *tl = ts_list_new(tt, 3, &err);
    const int64_t ks[] = { 2, 1, 1 };
    const char *vs[] = { "a", "b", "a" };
    for (int i = 0; i < 3; i++) {
        TsTuple *t = ts_tuple_new(tt, 2, &err);
        t->items[0] = I(ks[i]);
        t->items[1] = S(vs[i]);
        ts_list_append(tl, ts_obj_value(t, TS_TAG_TUPLE), &err);
    }
    rc = call("aten::sort", "any", 2, (TsValue[]){ ref(tl), B(false) }, 0, &r, &err);
    ok(rc == 0, "sort of (int, str) tuples");
    is_text(ts_obj_value(tl, TS_TAG_LIST), "[(1, a), (1, b), (2, a)]", "... lexicographic");

    TsList *nl = ts_list_new(ts_type_none(), 2, &err);
    ts_list_append(nl, ts_none(), &err);
    ts_list_append(nl, ts_none(), &err);
    rc = call("aten::sort", "any", 2, (TsValue[]){ ref(nl), B(false) }, 0, &r, &err);
    is_int(rc, TS_ERR_RUNTIME, "sorting Nones is refused (PyTorch's RuntimeError), not a crash");
    ts_error_clear(&err);
    ts_heap_release(&f->h);
    ts_heap_release(&s->h);
    ts_heap_release(&n->h);
    ts_heap_release(&tl->h);
    ts_heap_release(&nl->h);
}

static void test_min_max(void)
{
    TsError err = TS_ERROR_INIT;
    TsValue r;
    struct { const char *op; TsList *l; double want; } self_cases[] = {
        { "prim::min", FLOATS(1.0, NAN, 0.5), 0.5 },
        { "prim::min", FLOATS(NAN, 1.0, 0.5), NAN },
        { "prim::max", FLOATS(1.0, NAN, 0.5), 1.0 },
        { "prim::max", FLOATS(NAN, 1.0), NAN },
    };
    for (size_t i = 0; i < 4; i++) {
        int rc = call(self_cases[i].op, "self_float", 1, (TsValue[]){ ref(self_cases[i].l) }, 1,
                      &r, &err);
        ok(rc == 0 && kt_same_float(r.u.d, self_cases[i].want), "%s of floats case %zu is %g",
           self_cases[i].op, i, self_cases[i].want);
        ts_heap_release(&self_cases[i].l->h);
    }
    TsList *e = INTS(1);
    ts_list_clear(e);
    int rc = call("prim::max", "self_int", 1, (TsValue[]){ ref(e) }, 1, &r, &err);
    is_error(rc, &err, TS_ERR_RUNTIME, "max() arg is an empty sequence", "max([])");
    rc = call("prim::min", "self_int", 1, (TsValue[]){ ref(e) }, 1, &r, &err);
    is_error(rc, &err, TS_ERR_RUNTIME, "min() arg is an empty sequence", "min([])");
    ts_heap_release(&e->h);

    struct { const char *op, *ov; TsList *a, *b; const char *want; } two[] = {
        { "prim::max", "int_list", INTS(1, 2), INTS(1, 3), "[1, 3]" },
        { "prim::max", "int_list", INTS(1, 2), INTS(1, 2, 0), "[1, 2, 0]" },
        { "prim::min", "int_list", INTS(1, 2), INTS(1, 2, 0), "[1, 2]" },
        { "prim::min", "float_list", FLOATS(1.0), FLOATS(NAN), "[1.]" },
        { "prim::min", "float_list", FLOATS(NAN), FLOATS(1.0), "[nan]" },
        { "prim::max", "float_list", FLOATS(NAN), FLOATS(1.0), "[nan]" },
        { "prim::max", "float_list", FLOATS(1.0), FLOATS(NAN), "[1.]" },
    };
    for (size_t i = 0; i < sizeof two / sizeof two[0]; i++) {
        rc = call(two[i].op, two[i].ov, 2, (TsValue[]){ ref(two[i].a), ref(two[i].b) }, 1, &r,
                  &err);
        char name[64];
        snprintf(name, sizeof name, "%s of two lists, case %zu", two[i].op, i);
        ok(rc == 0 && r.u.p != &two[i].a->h && r.u.p != &two[i].b->h, "%s is a new list", name);
        is_result(rc, r, two[i].want, name);
        ts_heap_release(&two[i].a->h);
        ts_heap_release(&two[i].b->h);
    }
}

static void test_search(void)
{
    TsError err = TS_ERROR_INIT;
    TsValue r;
    TsList *l = INTS(4, 5, 6, 5);
    int rc = call("aten::count", "int", 2, (TsValue[]){ ref(l), I(5) }, 1, &r, &err);
    ok(rc == 0 && r.u.i == 2, "count(5) == 2");
    rc = call("aten::index", "list_int", 2, (TsValue[]){ ref(l), I(5) }, 1, &r, &err);
    ok(rc == 0 && r.u.i == 1, "index(5) == 1");
    rc = call("aten::index", "list_int", 2, (TsValue[]){ ref(l), I(9) }, 1, &r, &err);
    is_error(rc, &err, TS_ERR_RUNTIME, "'9' is not in list", "index(9)");
    rc = call("aten::__contains__", "int_list", 2, (TsValue[]){ ref(l), I(6) }, 1, &r, &err);
    ok(rc == 0 && r.u.b, "6 in l");
    rc = call("aten::remove", "int", 2, (TsValue[]){ ref(l), I(5) }, 0, &r, &err);
    ok(rc == 0, "remove(5)");
    is_text(ts_obj_value(l, TS_TAG_LIST), "[4, 6, 5]", "... removes the first 5");
    rc = call("aten::remove", "int", 2, (TsValue[]){ ref(l), I(9) }, 0, &r, &err);
    is_error(rc, &err, TS_ERR_RUNTIME, "list.remove(x): x not in list", "remove(9)");
    ts_heap_release(&l->h);

    TsList *f = FLOATS(NAN, 2.5);
    rc = call("aten::__contains__", "float_list", 2, (TsValue[]){ ref(f), F(NAN) }, 1, &r, &err);
    ok(rc == 0 && !r.u.b, "nan in [nan] is False");
    rc = call("aten::index", "list_float", 2, (TsValue[]){ ref(f), F(1.0) }, 1, &r, &err);
    is_error(rc, &err, TS_ERR_RUNTIME, "'1.' is not in list", "index(1.0)");
    TsList *bl = ts_list_new(ts_type_bool(), 1, &err);
    ts_list_append(bl, B(false), &err);
    rc = call("aten::index", "list_bool", 2, (TsValue[]){ ref(bl), B(true) }, 1, &r, &err);
    is_error(rc, &err, TS_ERR_RUNTIME, "'1' is not in list", "index(True): PyTorch prints 1");

    TsList *s = STRS("a", "b");
    TsValue q = S("q");
    rc = call("aten::index", "list_str", 2, (TsValue[]){ ref(s), q }, 1, &r, &err);
    is_error(rc, &err, TS_ERR_RUNTIME, "'q' is not in list", "index('q')");
    TsValue b = S("b");
    rc = call("aten::remove", "str", 2, (TsValue[]){ ref(s), b }, 0, &r, &err);
    is_text(ts_obj_value(s, TS_TAG_LIST), "[a]", "remove('b') compares strs by value");

    TsList *f2 = FLOATS(NAN, 2.5);
    rc = call("aten::eq", "float_list", 2, (TsValue[]){ ref(f), ref(f2) }, 1, &r, &err);
    ok(rc == 0 && !r.u.b, "[nan, 2.5] == [nan, 2.5] is False");
    rc = call("aten::ne", "float_list", 2, (TsValue[]){ ref(f), ref(f2) }, 1, &r, &err);
    ok(rc == 0 && r.u.b, "... and != is True");
    TsList *s2 = STRS("a");
    rc = call("aten::eq", "str_list", 2, (TsValue[]){ ref(s), ref(s2) }, 1, &r, &err);
    ok(rc == 0 && r.u.b, "['a'] == ['a']");
    ts_heap_release(&f->h);
    ts_heap_release(&f2->h);
    ts_heap_release(&bl->h);
    ts_heap_release(&s->h);
    ts_heap_release(&s2->h);
}

static void test_reductions(void)
{
    TsError err = TS_ERROR_INIT;
    TsValue r;
    TsList *f = FLOATS(0.1, 0.2, 0.3);
    int rc = call("aten::sum", "float", 1, (TsValue[]){ ref(f) }, 1, &r, &err);
    ok(rc == 0 && r.tag == TS_TAG_DOUBLE && r.u.d == 0.1 + 0.2 + 0.3,
       "sum([0.1, 0.2, 0.3]) adds left to right");
    ts_list_clear(f);
    rc = call("aten::sum", "float", 1, (TsValue[]){ ref(f) }, 1, &r, &err);
    ok(rc == 0 && r.tag == TS_TAG_DOUBLE && r.u.d == 0.0, "sum of an empty float list is 0.");
    TsList *i = INTS(INT64_MAX, 1);
    rc = call("aten::sum", "int", 1, (TsValue[]){ ref(i) }, 1, &r, &err);
    ok(rc == 0 && r.tag == TS_TAG_INT && r.u.i == INT64_MIN, "int sum wraps around");
    TsList *bl = ts_list_new(ts_type_bool(), 2, &err);
    ts_list_append(bl, B(true), &err);
    ts_list_append(bl, B(true), &err);
    rc = call("aten::sum", "bool", 1, (TsValue[]){ ref(bl) }, 1, &r, &err);
    ok(rc == 0 && r.tag == TS_TAG_INT && r.u.i == 2, "sum([True, True]) == 2");
    TsList *s = STRS("", "");
    rc = call("aten::any", "str", 1, (TsValue[]){ ref(s) }, 1, &r, &err);
    ok(rc == 0 && !r.u.b, "any(['', '']) is False");
    TsList *z = INTS(1, 0);
    rc = call("aten::all", "int", 1, (TsValue[]){ ref(z) }, 1, &r, &err);
    ok(rc == 0 && !r.u.b, "all([1, 0]) is False");
    rc = call("aten::any", "int", 1, (TsValue[]){ ref(z) }, 1, &r, &err);
    ok(rc == 0 && r.u.b, "any([1, 0]) is True");
    TsList *n = FLOATS(NAN);
    rc = call("aten::all", "float", 1, (TsValue[]){ ref(n) }, 1, &r, &err);
    ok(rc == 0 && r.u.b, "all([nan]) is True");
    ts_list_clear(n);
    rc = call("aten::all", "float", 1, (TsValue[]){ ref(n) }, 1, &r, &err);
    ok(rc == 0 && r.u.b, "all([]) is True");
    ts_heap_release(&f->h);
    ts_heap_release(&i->h);
    ts_heap_release(&bl->h);
    ts_heap_release(&s->h);
    ts_heap_release(&z->h);
    ts_heap_release(&n->h);
}

/* ---- dicts -------------------------------------------------------------------- */

static TsDict *str_int_dict(size_t n, const char *const *k, const int64_t *v)
{
    TsError err = TS_ERROR_INIT;
    TsDict *d = ts_dict_new(ts_type_str(), ts_type_int(), &err);
    for (size_t i = 0; i < n; i++)
        ts_dict_set(d, S(k[i]), I(v[i]), &err);
    return d;
}

static void test_dict_basics(void)
{
    TsError err = TS_ERROR_INIT;
    TsValue r;
    TsDict *d = str_int_dict(2, (const char *const[]){ "a", "b" }, (const int64_t[]){ 1, 2 });
    int rc = call("aten::__getitem__", "Dict_str", 2, (TsValue[]){ dref(d), S("a") }, 1, &r,
                  &err);
    ok(rc == 0 && r.u.i == 1, "d['a'] == 1");
    rc = call("aten::__getitem__", "Dict_str", 2, (TsValue[]){ dref(d), S("zz") }, 1, &r, &err);
    is_error(rc, &err, TS_ERR_KEY, "zz", "d['zz'] (KeyError: zz)");
    rc = call("aten::_set_item", "str", 3, (TsValue[]){ dref(d), S("c"), I(3) }, 0, &r, &err);
    ok(rc == 0, "d['c'] = 3");
    rc = call("aten::Delete", "Dict_str", 2, (TsValue[]){ dref(d), S("a") }, 0, &r, &err);
    ok(rc == 0, "del d['a']");
    is_text(ts_obj_value(d, TS_TAG_DICT), "{b: 2, c: 3}", "... in insertion order");
    rc = call("aten::Delete", "Dict_str", 2, (TsValue[]){ dref(d), S("a") }, 0, &r, &err);
    is_error(rc, &err, TS_ERR_KEY, "a", "del d['a'] again");
    rc = kt_call("aten::len", "Dict_str", TS_BACKEND_ANY, 1, (TsValue[]){ dref(d) }, &r, &err);
    ok(rc == 0 && r.u.i == 2, "len(d) == 2");
    rc = call("aten::__contains__", "str", 2, (TsValue[]){ dref(d), S("c") }, 1, &r, &err);
    ok(rc == 0 && r.u.b, "'c' in d");
    rc = call("aten::keys", "str", 1, (TsValue[]){ dref(d) }, 1, &r, &err);
    ok(rc == 0 && ((TsList *)r.u.p)->elem_type == ts_type_str(), "keys() is a List[str]");
    is_result(rc, r, "[b, c]", "keys()");
    rc = call("aten::values", "str", 1, (TsValue[]){ dref(d) }, 1, &r, &err);
    is_result(rc, r, "[2, 3]", "values()");
    rc = call("aten::items", "str", 1, (TsValue[]){ dref(d) }, 1, &r, &err);
    is_result(rc, r, "[(b, 2), (c, 3)]", "items()");
    rc = call("aten::get", "str", 2, (TsValue[]){ dref(d), S("q") }, 1, &r, &err);
    ok(rc == 0 && r.tag == TS_TAG_NONE, "get('q') is None");
    rc = call("aten::get", "default_str", 3, (TsValue[]){ dref(d), S("q"), I(0) }, 1, &r, &err);
    ok(rc == 0 && r.u.i == 0, "get('q', 0) is 0");
    rc = call("aten::get", "default_str", 3, (TsValue[]){ dref(d), S("b"), I(0) }, 1, &r, &err);
    ok(rc == 0 && r.u.i == 2, "get('b', 0) is 2");
    is_int(ts_value_refcount(ts_obj_value(d, TS_TAG_DICT)), 1, "the dict's count is back");
    ts_value_release(ts_obj_value(d, TS_TAG_DICT));

    /* key types print as PyTorch prints them in the KeyError */
    TsDict *fd = ts_dict_new(ts_type_float(), ts_type_int(), &err);
    rc = call("aten::__getitem__", "Dict_float", 2, (TsValue[]){ dref(fd), F(5.0) }, 1, &r,
              &err);
    is_error(rc, &err, TS_ERR_KEY, "5.", "d[5.0]");
    rc = call("aten::pop", "Dict_float", 2, (TsValue[]){ dref(fd), F(0.1) }, 1, &r, &err);
    is_error(rc, &err, TS_ERR_KEY, "0.10000000000000001", "d.pop(0.1)");
    ts_value_release(ts_obj_value(fd, TS_TAG_DICT));
    TsDict *bd = ts_dict_new(ts_type_bool(), ts_type_int(), &err);
    rc = call("aten::__getitem__", "Dict_bool", 2, (TsValue[]){ dref(bd), B(true) }, 1, &r,
              &err);
    is_error(rc, &err, TS_ERR_KEY, "True", "d[True]");
    ts_value_release(ts_obj_value(bd, TS_TAG_DICT));
}

static void test_dict_methods(void)
{
    TsError err = TS_ERROR_INIT;
    TsValue r;
    TsDict *d = str_int_dict(2, (const char *const[]){ "a", "b" }, (const int64_t[]){ 1, 2 });
    int rc = call("aten::setdefault", "str", 3, (TsValue[]){ dref(d), S("x"), I(5) }, 1, &r,
                  &err);
    ok(rc == 0 && r.u.i == 5, "setdefault('x', 5) inserts 5");
    rc = call("aten::setdefault", "str", 3, (TsValue[]){ dref(d), S("x"), I(6) }, 1, &r, &err);
    ok(rc == 0 && r.u.i == 5, "setdefault('x', 6) keeps 5");
    rc = call("aten::pop", "Dict_str", 2, (TsValue[]){ dref(d), S("x") }, 1, &r, &err);
    ok(rc == 0 && r.u.i == 5, "pop('x') == 5");
    rc = call("aten::pop", "Dict_str", 2, (TsValue[]){ dref(d), S("x") }, 1, &r, &err);
    is_error(rc, &err, TS_ERR_KEY, "x", "pop('x') again");
    rc = call("aten::pop", "Dict_default_str", 3, (TsValue[]){ dref(d), S("x"), I(-1) }, 1, &r,
              &err);
    ok(rc == 0 && r.u.i == -1, "pop('x', -1) == -1");

    rc = call("aten::copy", "Dict_str", 1, (TsValue[]){ dref(d) }, 1, &r, &err);
    ok(rc == 0 && r.tag == TS_TAG_DICT && r.u.p != (TsHeap *)(void *)d, "copy() is a new dict");
    TsValue copy = r;
    rc = call("aten::update", "str", 2, (TsValue[]){ dref(d), dref(d) }, 0, &r, &err);
    ok(rc == 0, "d.update(d)");
    is_text(ts_obj_value(d, TS_TAG_DICT), "{a: 1, b: 2}", "... changes nothing");

    rc = call("aten::popitem", "str", 1, (TsValue[]){ dref(d) }, 1, &r, &err);
    is_result(rc, r, "(a, 1)", "popitem() takes the FIRST item (as PyTorch)");
    call("aten::clear", "str", 1, (TsValue[]){ dref(d) }, 0, &r, &err);
    ok(ts_dict_len(d) == 0, "clear()");
    rc = call("aten::popitem", "str", 1, (TsValue[]){ dref(d) }, 1, &r, &err);
    is_error(rc, &err, TS_ERR_RUNTIME, "popitem(): dictionary is empty", "popitem() of {}");
    rc = call("aten::update", "str", 2, (TsValue[]){ dref(d), copy }, 0, &r, &err);
    is_text(ts_obj_value(d, TS_TAG_DICT), "{a: 1, b: 2}", "update() from the copy");
    rc = call("aten::dict", "Dict_str", 1, (TsValue[]){ dref(d) }, 1, &r, &err);
    is_result(rc, r, "{a: 1, b: 2}", "dict(d)");
    ts_value_release(ts_obj_value(d, TS_TAG_DICT));

    rc = call("aten::dict", "", 0, NULL, 1, &r, &err);
    ok(rc == 0 && r.tag == TS_TAG_DICT && ts_dict_key_type((TsDict *)(void *)r.u.p) ==
       ts_type_str(), "dict() is an empty Dict[str, Tensor]");
    ts_value_release(r);

    /* dict([(a, 1), (a, 2), (b, 3)]): later pairs win, first position kept */
    const TsType *tt = ts_type_tuple(2, (const TsType *const[]){ ts_type_str(), ts_type_int() });
    TsList *pairs = ts_list_new(tt, 3, &err);
    const char *ks[] = { "a", "a", "b" };
    for (int i = 0; i < 3; i++) {
        TsTuple *t = ts_tuple_new(tt, 2, &err);
        t->items[0] = S(ks[i]);
        t->items[1] = I(i + 1);
        ts_list_append(pairs, ts_obj_value(t, TS_TAG_TUPLE), &err);
    }
    rc = call("aten::dict", "str", 1, (TsValue[]){ ref(pairs) }, 1, &r, &err);
    ok(rc == 0 && r.tag == TS_TAG_DICT &&
       ts_dict_value_type((TsDict *)(void *)r.u.p) == ts_type_int(),
       "dict(pairs) is a Dict[str, int]");
    is_result(rc, r, "{a: 2, b: 3}", "dict([(a, 1), (a, 2), (b, 3)])");
    ts_heap_release(&pairs->h);
}

static void test_schemas(void)
{
    const char *exact[][3] = {
        { "aten::pop", "t", "aten::pop.t(t[](a!) self, int idx=-1) -> t(*)" },
        { "aten::slice", "t",
          "aten::slice.t(t[] l, int? start=None, int? end=None, int step=1) -> t[]" },
        { "aten::items", "str", "aten::items.str(Dict(str, t) self) -> ((str, t)[])" },
        { "aten::setdefault", "Tensor",
          "aten::setdefault.Tensor(Dict(Tensor, t)(a!) self, Tensor(b -> *) key, "
          "t(c -> *) default_value) -> t(*)" },
        { "aten::sort", "str", "aten::sort.str(str[](a!) self, bool reverse=False) -> ()" },
        { "prim::min", "self_int", "prim::min.self_int(int[] self) -> int" },
        { "aten::dict", "", "aten::dict() -> Dict(str, Tensor)" },
    };
    for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++) {
        const TsOperator *op = kt_find(exact[i][0], exact[i][1]);
        char *s = op ? ts_schema_to_string(op->schema) : NULL;
        is_str(s, exact[i][2], "schema of %s.%s is PyTorch's", exact[i][0], exact[i][1]);
        free(s);
    }
}

int main(void)
{
    if (!kt_open())
        return done_testing();
    test_schemas();
    test_mutators();
    test_copies();
    test_slices();
    test_sort();
    test_min_max();
    test_search();
    test_reductions();
    test_dict_basics();
    test_dict_methods();
    ts_runtime_close(kt_rt);
    return done_testing();
}
