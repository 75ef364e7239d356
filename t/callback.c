/* callback.c — tests of kernels calling into TorchScript (plugin.h's ts_call_function, core/
 * sched/callback.c and interp.c), through what uses it: sort and sorted of lists of objects
 * calling their class's __lt__.
 *
 * Stability and reverse=True, raising __lt__s (the error and both tracebacks reach the caller,
 * the list keeps every item), a __lt__ that sorts again, the nesting limit, a __lt__ that
 * changes the list, sorts in forked functions (one pool thread: a __lt__ that forks and waits
 * must not wait for it), tuples holding objects, PyTorch's errors for classes without a
 * usable __lt__, and the ABI refusing a call from outside a kernel. Reference counts are
 * checked after the error paths; run under valgrind, nothing leaks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "frontend/compile.h"
#include "tscript/print.h"
#include "runtime.h"
#include "sched/interp.h"
#include "sched/threadpool.h"
#include "frontend/source.h"
#include "tap.h"

static TsRuntime *rt;
static TsCompUnit *unit;

static const char program[] =
    "import torch\n"
    "from typing import List, Tuple\n"
    "\n"
    "@torch.jit.script\n"
    "class Item:\n"
    "    def __init__(self, name: str, key: int):\n"
    "        self.name = name\n"
    "        self.key = key\n"
    "\n"
    "    def __lt__(self, o: \"Item\") -> bool:\n"
    "        if self.key == -13 or o.key == -13:\n"
    "            raise ValueError(\"unlucky \" + self.name)\n"
    "        if self.key == -14:\n"
    "            e: List[int] = []\n"
    "            return e[1] < 0\n"
    "        return self.key < o.key\n"
    "\n"
    "@torch.jit.script\n"
    "class Deep:\n"
    "    def __init__(self, xs: List[int]):\n"
    "        self.xs = xs\n"
    "\n"
    "    def __lt__(self, o: \"Deep\") -> bool:\n"
    "        return sorted(self.xs)[0] < sorted(o.xs)[0]\n"
    "\n"
    "@torch.jit.script\n"
    "class Forever:\n"
    "    def __init__(self, n: int):\n"
    "        self.n = n\n"
    "\n"
    "    def __lt__(self, o: \"Forever\") -> bool:\n"
    "        pair = [o, self]\n"
    "        pair.sort()\n"
    "        return self.n < o.n\n"
    "\n"
    "@torch.jit.script\n"
    "class Logger:\n"
    "    def __init__(self, n: int, log: List[int]):\n"
    "        self.n = n\n"
    "        self.log = log\n"
    "\n"
    "    def __lt__(self, o: \"Logger\") -> bool:\n"
    "        self.log.append(self.n)\n"
    "        return self.n < o.n\n"
    "\n"
    "@torch.jit.script\n"
    "class Forker:\n"
    "    def __init__(self, n: int):\n"
    "        self.n = n\n"
    "\n"
    "    def __lt__(self, o: \"Forker\") -> bool:\n"
    "        a = torch.jit.wait(torch.jit.fork(neg, self.n))\n"
    "        b = torch.jit.wait(torch.jit.fork(neg, o.n))\n"
    "        return b < a\n"
    "\n"
    "@torch.jit.script\n"
    "class NoLt:\n"
    "    def __init__(self, n: int):\n"
    "        self.n = n\n"
    "\n"
    "@torch.jit.script\n"
    "class WrongLt:\n"
    "    def __init__(self, n: int):\n"
    "        self.n = n\n"
    "\n"
    "    def __lt__(self, o: int) -> bool:\n"
    "        return self.n < o\n"
    "\n"
    "def neg(n: int) -> int:\n"
    "    return -n\n"
    "\n"
    "def names(xs: List[Item]) -> str:\n"
    "    return \",\".join([x.name for x in xs])\n"
    "\n"
    "def items(keys: List[int]) -> List[Item]:\n"
    "    return [Item(\"i\" + str(i), keys[i]) for i in range(len(keys))]\n"
    "\n"
    "def sort_items(xs: List[Item], reverse: bool) -> str:\n"
    "    xs.sort(reverse=reverse)\n"
    "    return names(xs)\n"
    "\n"
    "def stable() -> str:\n"
    "    xs = items([2, 1, 2, 0, 1, 2])\n"
    "    ys = sorted(xs)\n"
    "    return names(ys) + \"|\" + names(xs) + \"|\" + sort_items(xs, True)\n"
    "\n"
    "def nested() -> List[int]:\n"
    "    xs = [Deep([3, 1]), Deep([0, 5]), Deep([2, 9])]\n"
    "    xs.sort(reverse=True)\n"
    "    return [x.xs[0] for x in xs]\n"
    "\n"
    "def forever() -> int:\n"
    "    xs = [Forever(1), Forever(2)]\n"
    "    xs.sort()\n"
    "    return xs[0].n\n"
    "\n"
    "def logged() -> List[int]:\n"
    "    log: List[int] = [5]\n"
    "    xs = [Logger(3, log), Logger(1, log)]\n"
    "    xs.sort()\n"
    "    return log\n"
    "\n"
    "def forked_sort(n: int) -> str:\n"
    "    keys = [(i * 7) % n for i in range(n)]\n"
    "    futs = [torch.jit.fork(sort_items, items(keys), False) for i in range(4)]\n"
    "    out = [torch.jit.wait(f) for f in futs]\n"
    "    return out[0] if out[0] == out[3] else \"differ\"\n"
    "\n"
    "def sort_forkers(n: int) -> List[int]:\n"
    "    xs = [Forker((i * 5) % n) for i in range(n)]\n"
    "    xs.sort()\n"
    "    return [x.n for x in xs]\n"
    "\n"
    "def forked_forkers() -> List[int]:\n"
    "    return torch.jit.wait(torch.jit.fork(sort_forkers, 6))\n"
    "\n"
    "def with_objects() -> List[str]:\n"
    "    a = Item(\"a\", 1)\n"
    "    b = Item(\"b\", 1)\n"
    "    xs = [(1, Item(\"x\", 2)), (1, Item(\"y\", 1)), (0, Item(\"z\", 3)), (1, a)]\n"
    "    xs.sort()\n"
    "    ys = [(a, 5), (a, 4), (b, 3)]\n"
    "    ys.sort()\n"
    "    return [x[1].name for x in xs] + [str(y[1]) for y in ys]\n"
    "\n"
    "def no_lt() -> int:\n"
    "    xs = [NoLt(1)]\n"
    "    xs.sort()\n"
    "    return 0\n"
    "\n"
    "def empty_no_lt() -> int:\n"
    "    xs: List[NoLt] = []\n"
    "    xs.sort()\n"
    "    return len(sorted(xs))\n"
    "\n"
    "def wrong_lt() -> int:\n"
    "    return len(sorted([WrongLt(1), WrongLt(2)]))\n"
    "\n"
    "def no_lt_in_tuple() -> int:\n"
    "    xs = [(1, NoLt(1))]\n"
    "    return len(sorted(xs))\n"
    "\n"
    "def lists_in_tuple() -> int:\n"
    "    xs: List[Tuple[int, List[int]]] = [(1, [2])]\n"
    "    return len(sorted(xs))\n"
    "\n"
    "def hash_object() -> int:\n"
    "    return hash(Item(\"h\", 1))\n";

static TsFunction *fn(const char *name)
{
    char q[128];
    snprintf(q, sizeof q, "__torch__.%s", name);
    return ts_unit_find(unit, q);
}

/* Runs name(args) into *out; status, with err set on failure. */
static int call(const char *name, TsValue *args, size_t n, TsValue *out, TsError *err)
{
    TsFunction *f = fn(name);
    if (!f) {
        for (size_t i = 0; i < n; i++)
            ts_value_release(args[i]);
        return ts_error_set(err, TS_ERR_USAGE, "no function %s", name);
    }
    return ts_run(rt, unit, f, args, n, out, err);
}

static void is_call_str(const char *name, TsValue *args, size_t n, const char *want,
                        const char *what)
{
    TsError err = TS_ERROR_INIT;
    TsValue out;
    char *got = NULL;
    if (call(name, args, n, &out, &err) == 0) {
        got = ts_value_to_cstr(rt, out, &err);
        ts_value_release(out);
    }
    is_str(got ? got : err.msg, want, "%s", what);
    free(got);
    ts_error_clear(&err);
}

/* Runs name(), which must fail with code; returns the message (malloc'd) or NULL. */
static char *call_fails(const char *name, TsErrorCode code, const char *what)
{
    TsError err = TS_ERROR_INIT;
    TsValue out;
    int rc = call(name, NULL, 0, &out, &err);
    if (!rc)
        ts_value_release(out);
    is_int(rc, code, "%s", what);
    char *msg = err.msg;
    err.msg = NULL;
    ts_error_clear(&err);
    return msg;
}

static void has(const char *msg, const char *part, const char *what)
{
    if (!ok(msg && strstr(msg, part), "%s", what))
        diag("no '%s' in: %s", part, msg ? msg : "(null)");
}

/* ---- ordering ---------------------------------------------------------------------------- */
static void test_order(void)
{
    /* keys 2 1 2 0 1 2: i3 < i1 = i4 < i0 = i2 = i5, equal keys in their original order */
    is_call_str("stable", NULL, 0,
                "i3,i1,i4,i0,i2,i5|i0,i1,i2,i3,i4,i5|i0,i2,i5,i1,i4,i3",
                "sorted() and sort() are stable; reverse=True keeps equal items in order");
    is_call_str("nested", NULL, 0, "[2, 3, 0]", "a __lt__ that sorts lists itself");
    is_call_str("with_objects", NULL, 0, "[z, y, a, x, 4, 5, 3]",
                "tuples holding objects: __lt__ for the objects, identity for equality");
    is_call_str("empty_no_lt", NULL, 0, "0", "an empty list sorts without a __lt__");
}

/* ---- errors in __lt__ ------------------------------------------------------------------------- */
static TsValue item_list(const int64_t *keys, size_t n)
{
    TsError err = TS_ERROR_INIT;
    TsList *k = ts_list_new(ts_type_int(), n, &err);
    for (size_t i = 0; i < n; i++)
        ts_list_append(k, ts_int(keys[i]), &err);
    TsValue arg = ts_obj_value(k, TS_TAG_LIST), out = ts_none();
    if (call("items", &arg, 1, &out, &err))
        diag("items(): %s", err.msg);
    ts_error_clear(&err);
    return out;
}

/* The list holds each of the n objects once, and only it (and the caller) holds them. */
static bool whole(TsValue lv, size_t n, TsValue *orig)
{
    TsList *l = (TsList *)lv.u.p;
    if (lv.tag != TS_TAG_LIST || l->len != n)
        return false;
    for (size_t i = 0; i < n; i++) {
        size_t seen = 0;
        for (size_t j = 0; j < n; j++)
            seen += l->items[j].u.p == orig[i].u.p;
        if (seen != 1 || ts_value_refcount(orig[i]) != 2)
            return false;
    }
    return true;
}

static void failing_sort(int64_t bad, TsErrorCode code, const char *label, const char *inner,
                         const char *what)
{
    const int64_t keys[] = {5, 3, 8, 1, bad, 9, 2, 7};
    size_t n = sizeof keys / sizeof keys[0];
    TsValue xs = item_list(keys, n), orig[8];
    for (size_t i = 0; i < n; i++) {
        orig[i] = ((TsList *)xs.u.p)->items[i];
        ts_value_retain(orig[i]);
    }
    for (int reverse = 0; reverse < 2; reverse++) {
        TsError err = TS_ERROR_INIT;
        TsValue out, args[2] = {xs, ts_bool(reverse)};
        ts_value_retain(xs);
        int rc = call("sort_items", args, 2, &out, &err);
        is_int(rc, code, "%s (reverse=%d): the sort fails with the callee's error", what,
               reverse);
        const char *m = err.msg ? err.msg : "";
        const char *outer = strstr(m, "in sort_items"), *lt = strstr(m, "in __lt__");
        ok(strncmp(m, "The following operation failed", 30) == 0 && outer && lt && outer < lt,
           "... the traceback of the sort, then the __lt__'s");
        has(m, label, "... labelled with the callee's exception class");
        has(m, inner, "... ending with the callee's exception");
        ok(whole(xs, n, orig), "... the list still holds every item once, nothing leaked");
        if (rc == 0)
            ts_value_release(out);
        ts_error_clear(&err);
    }
    for (size_t i = 0; i < n; i++)
        ts_value_release(orig[i]);
    ts_value_release(xs);
}

static void test_errors(void)
{
    failing_sort(-13, TS_ERR_VALUE, "\nbuiltins.ValueError: The following operation failed",
                 "\nbuiltins.ValueError: unlucky", "a __lt__ that raises");
    failing_sort(-14, TS_ERR_INDEX, "\nRuntimeError: The following operation failed",
                 "\nRuntimeError: list index out of range", "an operator failing in __lt__");

    char *m = call_fails("forever", TS_ERR_LIMIT, "a __lt__ sorting forever hits the limit");
    has(m, "maximum recursion depth exceeded", "... with a clear message");
    free(m);

    m = call_fails("no_lt", TS_ERR_RUNTIME, "sorting objects without a __lt__ fails");
    has(m, "To sort a list of __torch__.callback.NoLt it must define a __lt__ method with two "
           "inputs of type __torch__.callback.NoLt that returns a bool", "... PyTorch's message");
    free(m);
    m = call_fails("wrong_lt", TS_ERR_RUNTIME, "a __lt__ taking another type fails");
    has(m, "To sort a list of __torch__.callback.WrongLt it must define", "... the same way");
    free(m);
    m = call_fails("no_lt_in_tuple", TS_ERR_RUNTIME, "tuples holding such objects too");
    has(m, "To sort a list of __torch__.callback.NoLt", "... naming the class");
    free(m);
    m = call_fails("lists_in_tuple", TS_ERR_RUNTIME, "tuples holding lists cannot be sorted");
    has(m, "Contained elements in (int, int[]) are not sortable.", "... PyTorch's message");
    free(m);
    m = call_fails("hash_object", TS_ERR_RUNTIME, "hash() of an object fails, as in PyTorch");
    has(m, "unhashable type: '__torch__.callback.Item'", "... and __hash__ is not called");
    free(m);
}

/* A __lt__ can reach the list it sorts through an Any attribute refined by
 * torch.jit.isinstance (a field of its own List type the frontend rejects, as PyTorch does:
 * PyTorch itself corrupts memory on this program). The list looks empty while it sorts and
 * what the __lt__ puts in is dropped, with Python's error. */
static const char meddler_program[] =
    "import torch\n"
    "from typing import Any, List\n"
    "\n"
    "@torch.jit.script\n"
    "class Meddler:\n"
    "    def __init__(self, n: int):\n"
    "        self.n = n\n"
    "        self.seen = -1\n"
    "        self.victim = torch.jit.annotate(Any, None)\n"
    "\n"
    "    def __lt__(self, o: \"Meddler\") -> bool:\n"
    "        v = self.victim\n"
    "        if torch.jit.isinstance(v, List[Meddler]):\n"
    "            self.seen = len(v)\n"
    "            v.append(o)\n"
    "        return self.n < o.n\n"
    "\n"
    "def make() -> List[Meddler]:\n"
    "    xs = [Meddler(3), Meddler(1), Meddler(2)]\n"
    "    for x in xs:\n"
    "        x.victim = xs\n"
    "    return xs\n"
    "\n"
    "def meddle(xs: List[Meddler]):\n"
    "    xs.sort()\n"
    "\n"
    "def unlink(xs: List[Meddler]) -> List[int]:\n"
    "    seen = [x.seen for x in xs]\n"
    "    for x in xs:\n"
    "        x.victim = None\n"
    "    return seen\n";

static void test_mutation(void)
{
    TsError err = TS_ERROR_INIT;
    TsSource *src = ts_source_new("meddler.py", meddler_program, strlen(meddler_program), &err);
    TsCompUnit *u = src ? ts_compile_source(ts_runtime_optable(rt), src, NULL, &err) : NULL;
    ts_source_release(src);
    if (!u) {
        diag("%s", err.msg);
        ok(0, "the program with an Any attribute refined to its list compiles");
        ts_error_clear(&err);
        return;
    }
    TsValue xs, out;
    int rc = ts_run(rt, u, ts_unit_find(u, "__torch__.make"), NULL, 0, &xs, &err);
    ts_value_retain(xs);
    rc = rc ? rc : ts_run(rt, u, ts_unit_find(u, "__torch__.meddle"), &xs, 1, &out, &err);
    is_int(rc, TS_ERR_VALUE, "a __lt__ changing the list it sorts fails the sort");
    has(err.msg, "list modified during sort", "... with Python's message");
    ok(xs.tag == TS_TAG_LIST && ((TsList *)xs.u.p)->len == 3,
       "... and the list has its own items back");
    ts_error_clear(&err);
    rc = ts_run(rt, u, ts_unit_find(u, "__torch__.unlink"), &xs, 1, &out, &err);
    char *seen = rc ? NULL : ts_value_to_cstr(rt, out, &err);
    is_str(seen ? seen : err.msg, "[0, 2, -1]", "... which looked empty to the first __lt__");
    free(seen);
    if (!rc)
        ts_value_release(out);
    ts_error_clear(&err);
    ts_unit_free(u);

    is_call_str("logged", NULL, 0, "[5, 1]", "a __lt__ may change another list");
}

/* ---- threads ------------------------------------------------------------------------------ */
static void test_fork(void)
{
    TsValue n = ts_int(50);
    char want[512] = "";
    for (int k = 0; k < 50; k++)
        snprintf(want + strlen(want), sizeof want - strlen(want), "%si%d", k ? "," : "",
                 (k * 43) % 50);    /* 7 * 43 = 301 = 1 (mod 50): key k is at index 43k */
    is_call_str("forked_sort", &n, 1, want, "four forked functions sort objects at once");
    TsValue six = ts_int(6);
    is_call_str("sort_forkers", &six, 1, "[0, 1, 2, 3, 4, 5]",
                "a __lt__ that forks and waits");
    is_call_str("forked_forkers", NULL, 0, "[0, 1, 2, 3, 4, 5]",
                "... inside a forked function, with one pool thread");
}

/* ---- the ABI ------------------------------------------------------------------------------- */
static void test_abi(void)
{
    TsStack s = {NULL, 0, 0};
    TsError err = TS_ERROR_INIT;
    TsCall c = {&s, &err, NULL, rt, NULL};
    const TsType *item = ts_type_lookup("__torch__.callback.Item");
    ok(ts_call_find(&c, item, "__lt__") == NULL,
       "outside a kernel there is no program to find methods in");
    const TsFunction *lt = ts_unit_find_method(unit, item, "__lt__");
    ok(lt && ts_function_num_args(lt) == 2 && ts_function_arg_type(lt, 0) == item &&
           ts_function_arg_type(lt, 1) == item &&
           ts_function_return_type(lt) == ts_type_bool() &&
           ts_function_arg_type(lt, 2) == NULL,
       "a method's signature: self, the other, bool");
    TsValue out = ts_int(1);
    int rc = ts_call_function(&c, lt, NULL, 0, &out);
    ok(rc == TS_ERR_TYPE && out.tag == TS_TAG_NONE, "a wrong argument count is a TypeError");
    ts_error_clear(&err);
    TsValue two[2] = {ts_int(1), ts_int(2)};
    rc = ts_call_function(&c, lt, two, 2, &out);
    ok(rc == TS_ERR_TYPE && err.msg && strstr(err.msg, "is not a value of type"),
       "an argument of the wrong type is a TypeError");
    ts_error_clear(&err);
    TsValue xs = item_list((const int64_t[]){1, 2}, 2);
    TsList *l = (TsList *)xs.u.p;
    rc = ts_call_function(&c, lt, l->items, 2, &out);
    ok(rc == TS_ERR_USAGE && out.tag == TS_TAG_NONE,
       "a call from outside a kernel the interpreter runs is refused");
    ts_error_clear(&err);
    ts_value_release(xs);
    ts_stack_free(&s);
}

int main(void)
{
    setenv("TSCRIPT_NUM_THREADS", "1", 1);
    alarm(120);                /* a deadlock fails the test instead of hanging it */
    TsError err = TS_ERROR_INIT;
    rt = ts_runtime_open(NULL, &err);
    TsSource *src = rt ? ts_source_new("callback.py", program, strlen(program), &err) : NULL;
    unit = src ? ts_compile_source(ts_runtime_optable(rt), src, NULL, &err) : NULL;
    if (!ok(unit != NULL, "the program compiles")) {
        diag("%s", err.msg);
        ts_error_clear(&err);
        return done_testing();
    }
    ts_source_release(src);
    test_order();
    test_errors();
    test_mutation();
    test_fork();
    test_abi();
    ts_unit_free(unit);
    ts_threadpool_shutdown();
    ts_runtime_close(rt);
    return done_testing();
}
