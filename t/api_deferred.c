/* t/api_deferred.c — plugins loaded on first use (config `load: on_first_use`, the default
 * plugins' default; runtime.c): a runtime opens with its first plugin alone, programs of
 * ints, strings and containers run on it without loading the rest, and whatever may need
 * another plugin loads them all first — an operator the loaded ones lack, a call no loaded
 * overload takes without conversions, a method of a value, a tensor handed to a call,
 * printing one, a module, listing the operators — so that every result and every error is
 * what a runtime that loaded everything at open gives. A plugin that fails to load fails
 * there, with the message (and the config's place) opening would have given, every time.
 * Many threads compiling on a runtime whose plugins are still deferred load them once,
 * with no race (clean under --enable-tsan).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "tscript/inspect.h"
#include "tscript/tscript.h"

#define TEST_PLUGINS TS_TEST_BUILDDIR "/t/plugins/.libs"
#define TEST_DATA TS_TEST_SRCDIR "/t/data"

enum { THREADS = 8 };

static size_t all_plugins;      /* how many the default config loads at open */

static TsRuntime *open_text(const char *yaml, TsError *err)
{
    return ts_runtime_open_settings(yaml, strlen(yaml), err);
}

/* Compiles source and calls its function f with args; the result in *out (0), or the
 * error in err. */
static int run(TsRuntime *rt, const char *source, const char *f, const TsValue *args,
               size_t n, TsValue *out, TsError *err)
{
    *out = ts_none();
    TsScript *s = ts_script_compile(rt, "t.py", source, strlen(source), err);
    TsMethod *m = s ? ts_script_find_function(s, f, err) : NULL;
    int rc = m ? ts_method_call(m, args, n, out, err) : -1;
    ts_method_free(m);
    ts_script_free(s);
    return rc;
}

static int64_t run_int(TsRuntime *rt, const char *source, TsError *err)
{
    TsValue out;
    int64_t v = -999;
    if (run(rt, source, "main", NULL, 0, &out, err) == 0 && ts_value_to_int(out, &v, err))
        v = -998;
    ts_value_release(out);
    return v;
}

static const char ints[] =
    "from typing import Dict, List\n"
    "def main() -> int:\n"
    "    d: Dict[str, int] = {}\n"
    "    xs: List[int] = []\n"
    "    for i in range(10):\n"
    "        d['k' + str(i)] = i * i\n"
    "        xs.append(i % 3)\n"
    "    xs.sort()\n"
    "    return len(d) + d['k3'] + xs[9] + len('abc'.upper())\n";

static const char tensors[] =
    "import torch\n"
    "def main() -> int:\n"
    "    return int(torch.ones(3, 4).sum().item())\n";

static void test_first_use(void)
{
    TsError err = TS_ERROR_INIT;
    TsRuntime *rt = open_text("load: on_first_use\n", &err);
    ok(rt != NULL, "a deferring runtime opens");
    if (!rt) {
        diag("%s", err.msg);
        ts_error_clear(&err);
        return;
    }
    is_int(ts_runtime_num_plugins(rt), 1, "with its first plugin alone");
    is_str(ts_runtime_plugin_name(rt, 0), "prim", "prim");
    is_int(run_int(rt, ints, &err), 10 + 9 + 2 + 3, "ints, strings, lists and dicts run");
    is_int(ts_runtime_num_plugins(rt), 1, "on prim alone");

    /* a method of a list and a str, conversions-free calls of builtins */
    is_int(run_int(rt, "def main() -> int:\n    s = 'a,b,c'.split(',')\n"
                       "    s.reverse()\n    return len(s) + int(s[0] == 'c')\n", &err),
           4, "methods of str and list");
    is_int(ts_runtime_num_plugins(rt), 1, "still on prim alone");

    is_int(run_int(rt, tensors, &err), 12, "a program with tensors runs");
    is_int(ts_runtime_num_plugins(rt), all_plugins, "after loading every plugin");
    ok(ts_runtime_load_plugins(rt, &err) == 0, "loading them again is a no-op");
    ts_error_clear(&err);
    ts_runtime_close(rt);
}

/* A call needing a conversion is resolved against every overload: int + float picks
 * aten::add.int_float either way, a tensor argument loads the rest. */
static void test_same_choices(void)
{
    static const char *const programs[] = {
        "def main() -> int:\n    return int(2 + 0.5 + 0.5)\n",
        "import math\ndef main() -> int:\n    return int(math.sqrt(16) + math.floor(2.5))\n",
        "def main() -> int:\n    x = [1, 2, 3]\n    return sum(x) + max(x) + min(4, 5)\n",
    };
    static const int64_t want[] = { 3, 6, 13 };
    for (size_t i = 0; i < sizeof programs / sizeof *programs; i++) {
        TsError err = TS_ERROR_INIT;
        TsRuntime *lazy = open_text("load: on_first_use\n", &err);
        TsRuntime *eager = open_text("load: at_open\n", &err);
        int64_t a = lazy ? run_int(lazy, programs[i], &err) : -1;
        int64_t b = eager ? run_int(eager, programs[i], &err) : -1;
        is_int(a, want[i], "program %zu on a deferring runtime", i);
        is_int(b, want[i], "program %zu on a runtime that loaded everything", i);
        ts_error_clear(&err);
        ts_runtime_close(lazy);
        ts_runtime_close(eager);
    }
}

/* Errors of a deferring runtime are the full runtime's: an unknown operator, and a call
 * no overload takes, list every plugin's overloads. */
static void test_same_errors(void)
{
    static const char *const programs[] = {
        "def main() -> int:\n    return 'a' + 1\n",
        "import torch\ndef main() -> int:\n    return torch.no_such_op(1)\n",
        "def main() -> int:\n    x = 1\n    return x.no_such_method()\n",
    };
    for (size_t i = 0; i < sizeof programs / sizeof *programs; i++) {
        TsError e1 = TS_ERROR_INIT, e2 = TS_ERROR_INIT;
        TsRuntime *lazy = open_text("load: on_first_use\n", &e1);
        TsRuntime *eager = open_text("load: at_open\n", &e2);
        TsValue out;
        ok(lazy && run(lazy, programs[i], "main", NULL, 0, &out, &e1) != 0,
           "error program %zu fails on a deferring runtime", i);
        ok(eager && run(eager, programs[i], "main", NULL, 0, &out, &e2) != 0,
           "and on one that loaded everything");
        is_str(e1.msg, e2.msg, "with the same message");
        ts_error_clear(&e1);
        ts_error_clear(&e2);
        ts_runtime_close(lazy);
        ts_runtime_close(eager);
    }
}

/* A tensor handed to a call loads the rest before it runs: printing it is aten-cpu's. */
static void test_tensor_argument(void)
{
    TsError err = TS_ERROR_INIT;
    TsRuntime *rt = open_text("load: on_first_use\n", &err);
    static const char show[] =
        "import torch\n"
        "def show(x: torch.Tensor) -> str:\n"
        "    return str(x)\n";
    TsScript *s = rt ? ts_script_compile(rt, "t.py", show, strlen(show), &err) : NULL;
    ok(s != NULL, "a function of a tensor compiles");
    is_int(rt ? ts_runtime_num_plugins(rt) : 0, 1, "without loading anything");
    TsMethod *m = s ? ts_script_find_function(s, "show", &err) : NULL;
    float data[2] = { 1.5f, -2.0f };
    int64_t sizes[1] = { 2 };
    TsValue arg = ts_tensor_value(ts_tensor_from_blob(data, TS_FLOAT32, 1, sizes, NULL, NULL,
                                                      NULL, &err));
    TsValue out = ts_none();
    const char *text = NULL;
    size_t len = 0;
    ok(m && ts_method_call(m, &arg, 1, &out, &err) == 0 &&
       ts_value_to_str(out, &text, &len, &err) == 0, "calling it with a tensor");
    like(text ? text : "", "CPUFloatType{2}", "prints the tensor as aten-cpu does");
    is_int(rt ? ts_runtime_num_plugins(rt) : 0, all_plugins, "having loaded every plugin");
    if (err.code)
        diag("%s", err.msg);
    ts_value_release(out);
    ts_value_release(arg);
    ts_method_free(m);
    ts_script_free(s);
    ts_error_clear(&err);
    ts_runtime_close(rt);
}

static void test_failure(void)
{
    static const char cfg[] =
        "plugins: [prim, " TEST_PLUGINS "/good.so, " TEST_PLUGINS "/initfail.so]\n"
        "schema_path: [" TEST_DATA "]\n"
        "load: on_first_use\n";
    TsError err = TS_ERROR_INIT;
    TsRuntime *rt = open_text(cfg, &err);
    ok(rt != NULL, "a runtime whose third plugin fails opens when it defers it");
    if (!rt) {
        diag("%s", err.msg);
        ts_error_clear(&err);
        return;
    }
    is_int(run_int(rt, ints, &err), 24, "prim's programs run");
    TsValue out;
    ok(run(rt, tensors, "main", NULL, 0, &out, &err) != 0, "a program needing more fails");
    like(err.msg, "initfail.so: init failed: no initfail device found",
         "with the plugin's error");
    ok(err.msg && strncmp(err.msg, "(settings):1:", 13) == 0, "at its place in the config");
    ts_error_clear(&err);
    ok(ts_runtime_load_plugins(rt, &err) != 0, "asking again fails again");
    like(err.msg, "init failed: no initfail device found", "with the same error");
    ts_error_clear(&err);
    is_int(ts_runtime_num_plugins(rt), 2, "the plugin before it stays loaded");
    is_int(run_int(rt, ints, &err), 24, "and prim's programs still run");
    ts_error_clear(&err);
    ts_runtime_close(rt);

    rt = open_text("plugins: [prim, " TEST_PLUGINS "/good.so, " TEST_PLUGINS "/initfail.so]\n"
                   "schema_path: [" TEST_DATA "]\n", &err);
    ok(rt == NULL, "a list of plugins the config gives loads at open (load: at_open)");
    like(err.msg, "init failed: no initfail device found", "and fails there");
    ts_error_clear(&err);
    ts_runtime_close(rt);
}

/* ---- threads ------------------------------------------------------------------------- */

static TsRuntime *shared;

static void *compile_tensors(void *arg)
{
    int *failures = arg;
    TsError err = TS_ERROR_INIT;
    for (int r = 0; r < 3; r++) {
        if (run_int(shared, r == 1 ? ints : tensors, &err) != (r == 1 ? 24 : 12))
            ++*failures;
        ts_error_clear(&err);
    }
    return NULL;
}

static void test_threads(void)
{
    TsError err = TS_ERROR_INIT;
    shared = open_text("load: on_first_use\n", &err);
    ok(shared != NULL, "a deferring runtime for threads");
    if (!shared) {
        ts_error_clear(&err);
        return;
    }
    pthread_t th[THREADS];
    int failures[THREADS] = { 0 };
    for (int i = 0; i < THREADS; i++)
        pthread_create(&th[i], NULL, compile_tensors, &failures[i]);
    int total = 0;
    for (int i = 0; i < THREADS; i++) {
        pthread_join(th[i], NULL);
        total += failures[i];
    }
    is_int(total, 0, "%d threads compile and run on it at once while it loads", THREADS);
    is_int(ts_runtime_num_plugins(shared), all_plugins, "every plugin loaded, once");
    ts_runtime_close(shared);
}

int main(void)
{
    unsetenv("TSCRIPT_CONFIG");
    unsetenv("TSCRIPT_PLUGIN_PATH");
    unsetenv("TSCRIPT_SCHEMA_PATH");
    TsError err = TS_ERROR_INIT;
    TsRuntime *rt = open_text("load: at_open\n", &err);
    if (!rt) {
        printf("1..0 # SKIP no runtime: %s\n", err.msg);
        ts_error_clear(&err);
        return 0;
    }
    all_plugins = ts_runtime_num_plugins(rt);
    ts_runtime_close(rt);
    ok(all_plugins >= 2, "the default config has several plugins");
    test_first_use();
    test_same_choices();
    test_same_errors();
    test_tensor_argument();
    test_failure();
    test_threads();
    return done_testing();
}
