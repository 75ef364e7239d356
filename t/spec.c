/* t/spec.c — the executor's plans specialized to its arguments (core/sched/spec.c), and the
 * refined tensor types they print (core/value/types.c, core/ir/parse.c).
 *
 *   - one function called with tensors of two dtypes and ranks gives both right results
 *     and keeps two plans; a third call with the first key reuses the first plan (the
 *     count, and TSCRIPT_LOG_LEVEL=spec's lines, stay at two);
 *   - a plan's graph has its inputs refined by the key, and its shapes propagated;
 *   - more keys than a cache holds still run right, on the generic plan past the bound;
 *   - a function without tensor parameters has no cache; with the optimizer off there
 *     are no plans;
 *   - threads calling one function with different keys at once (the TSan build checks it);
 *   - the refined types the printer writes parse back to the same types.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "function.h"
#include "ir/log.h"
#include "runtime.h"
#include "sched/code.h"
#include "sched/interp.h"
#include "sched/spec.h"
#include "tap.h"

static const char program[] =
    "import torch\n"
    "from typing import List\n"
    "def f(x: torch.Tensor) -> float:\n"
    "    return float((x * 2 + 1).sum())\n"
    "def g(x: torch.Tensor, k: int) -> float:\n"
    "    y = x.float() + k\n"
    "    return float(y.sum()) + float(y.dim())\n"
    "def t(x: torch.Tensor) -> float:\n"
    "    return float((x * 3).sum())\n"
    "def h(a: int) -> int:\n"
    "    return a * 2\n"
    "def mk(d: int, r: int) -> torch.Tensor:\n"
    "    s: List[int] = []\n"
    "    for i in range(r):\n"
    "        s.append(2)\n"
    "    return torch.ones(s).to(d)\n";

static TsRuntime *rt;

static TsScript *compile(TsRuntime *r)
{
    const char *names[] = { "f", "g", "t", "h", "mk" };
    TsError err = TS_ERROR_INIT;
    TsScript *s = ts_script_compile_entries(r, "spec.py", program, strlen(program), names, 5,
                                            NULL, &err);
    if (!s)
        diag("compile: %s", err.msg);
    ts_error_clear(&err);
    return s;
}

static TsFunction *fn(TsScript *s, const char *name)
{
    char q[64];
    snprintf(q, sizeof q, "__torch__.%s", name);
    return ts_unit_find(s->unit, q);
}

/* Calls name(args) in s; the result as a double (int or float), NAN on an error. */
static double call(TsRuntime *r, TsScript *s, const char *name, TsValue *args, size_t n)
{
    TsError err = TS_ERROR_INIT;
    TsValue out;
    for (size_t i = 0; i < n; i++)
        ts_value_retain(args[i]);
    if (ts_run(r, s->unit, fn(s, name), args, n, &out, &err) != 0) {
        diag("%s: %s", name, err.msg);
        ts_error_clear(&err);
        return NAN;
    }
    double d = out.tag == TS_TAG_DOUBLE ? out.u.d : out.tag == TS_TAG_INT ? (double)out.u.i : NAN;
    ts_value_release(out);
    return d;
}

/* A tensor of ones of dtype d and rank r (sizes 2) */
static TsValue ones(TsRuntime *r, TsScript *s, int d, int rank)
{
    TsValue args[2] = { ts_int(d), ts_int(rank) };
    TsError err = TS_ERROR_INIT;
    TsValue out = ts_none();
    if (ts_run(r, s->unit, fn(s, "mk"), args, 2, &out, &err) != 0) {
        diag("mk: %s", err.msg);
        ts_error_clear(&err);
    }
    return out;
}

static bool near(double a, double b) { return fabs(a - b) < 1e-9; }

static void test_two_keys(TsScript *s)
{
    char *log = NULL;
    size_t log_len = 0;
    FILE *mem = open_memstream(&log, &log_len);
    setenv("TSCRIPT_LOG_LEVEL", "spec", 1);
    ts_log_reload();
    ts_log_set_output(mem);

    TsValue fl2 = ones(rt, s, TS_FLOAT32, 2), lg1 = ones(rt, s, TS_INT64, 1);
    ok(near(call(rt, s, "f", &fl2, 1), 12.0), "f(Float 2x2) is right");
    ok(near(call(rt, s, "f", &lg1, 1), 6.0), "f(Long 2) is right");
    is_int((long long)ts_spec_count(fn(s, "f")), 2, "two keys, two plans");
    ok(near(call(rt, s, "f", &fl2, 1), 12.0), "f(Float 2x2) again is right");
    is_int((long long)ts_spec_count(fn(s, "f")), 2, "the first key's plan is reused");

    ts_log_set_output(NULL);
    fclose(mem);
    unsetenv("TSCRIPT_LOG_LEVEL");
    ts_log_reload();
    size_t lines = 0;
    for (const char *p = log; p && (p = strstr(p, "[DUMP spec.c:")); p++)
        lines++;
    is_int((long long)lines, 2, "TSCRIPT_LOG_LEVEL=spec logs each plan built, once");
    ok(log && strstr(log, "__torch__.f: plan 1 for (Float(*, *, requires_grad=0, device=cpu))")
           && strstr(log, "__torch__.f: plan 2 for (Long(*, requires_grad=0, device=cpu))"),
       "the log names each plan's key");
    if (log && !strstr(log, "plan 2"))
        diag("%s", log);
    free(log);

    /* the plan's graph: inputs refined, shapes propagated (int + Float(*) is Float(*)) */
    TsValue a[2] = { lg1, ts_int(3) };
    ok(near(call(rt, s, "g", a, 2), 2 * 4.0 + 1), "g(Long 2, 3) is right");
    TsFunction *gf = fn(s, "g");
    const TsCode *gc = gf->code;
    ok(gc && gc->specs && ts_spec_count(gf) == 1, "g has a plan");
    const TsType *lt[1] = { NULL };
    TsError err = TS_ERROR_INIT;
    TsTensorTypeInfo li = { TS_INT64, TS_DEV_CPU, -1, 1, (int64_t[]){ -1 }, NULL, 0 };
    lt[0] = ts_type_tensor_refined(&li);
    TsGraph *sg = ts_spec_graph(rt, s->unit, gf, lt, 1, &err);
    char *text = sg ? ts_graph_to_string(sg, false) : NULL;
    ok(text && strstr(text, "%x : Long(*, requires_grad=0, device=cpu)") &&
           strstr(text, "Float(*, requires_grad=0, device=cpu) = aten::to"),
       "a specialized graph has its input's key and the types that follow from it");
    if (!text)
        diag("%s", err.msg ? err.msg : "?");
    free(text);
    ts_graph_free(sg);
    ts_error_clear(&err);
    ts_value_release(fl2);
    ts_value_release(lg1);
}

static void test_bound(TsScript *s)
{
    static const int keys[][2] = { { 6, 1 }, { 6, 2 }, { 6, 3 }, { 7, 1 }, { 7, 2 },
                                   { 4, 1 }, { 4, 2 }, { 3, 1 }, { 3, 2 }, { 2, 1 } };
    size_t n = sizeof keys / sizeof *keys;
    bool right = true;
    for (int round = 0; round < 2; round++)
        for (size_t i = 0; i < n; i++) {
            TsValue x = ones(rt, s, keys[i][0], keys[i][1]);
            double want = 3.0 * (1 << keys[i][1]);
            if (!near(call(rt, s, "t", &x, 1), want)) {
                right = false;
                diag("t(dtype %d, rank %d) is wrong", keys[i][0], keys[i][1]);
            }
            ts_value_release(x);
        }
    ok(right, "%zu keys, called twice each, all right", n);
    is_int((long long)ts_spec_count(fn(s, "t")), TS_SPEC_MAX,
           "the cache stops at %d plans", TS_SPEC_MAX);
}

static void test_no_tensors(TsScript *s)
{
    TsValue a = ts_int(21);
    ok(near(call(rt, s, "h", &a, 1), 42.0), "h(21) is right");
    const TsCode *c = fn(s, "h")->code;
    ok(c && !c->specs && ts_spec_count(fn(s, "h")) == 0,
       "a function without tensor parameters has no cache");
}

static void test_optimizer_off(void)
{
    TsError err = TS_ERROR_INIT;
    TsRuntime *off = ts_runtime_open(NULL, &err);
    if (!off) {
        ok(0, "a second runtime opens: %s", err.msg);
        ts_error_clear(&err);
        return;
    }
    ts_runtime_set_optimize(off, false);
    TsScript *s = compile(off);
    if (s) {
        TsValue x = ones(off, s, TS_FLOAT32, 2);
        ok(near(call(off, s, "f", &x, 1), 12.0), "optimizer off: f is right");
        is_int((long long)ts_spec_count(fn(s, "f")), 0, "optimizer off: no plans");
        ts_value_release(x);
        ts_script_free(s);
    }
    ts_runtime_close(off);
}

/* ---- threads --------------------------------------------------------------------------- */
enum { THREADS = 4, CALLS = 60 };

typedef struct Job {
    TsScript *s;
    TsValue x[3];
    double want[3];
    int bad;
} Job;

static void *worker(void *arg)
{
    Job *j = arg;
    for (int i = 0; i < CALLS; i++) {
        int k = i % 3;
        TsValue x = j->x[k];
        ts_value_retain(x);
        TsError err = TS_ERROR_INIT;
        TsValue out;
        if (ts_run(rt, j->s->unit, fn(j->s, "f"), &x, 1, &out, &err) != 0) {
            ts_error_clear(&err);
            j->bad++;
            continue;
        }
        if (out.tag != TS_TAG_DOUBLE || !near(out.u.d, j->want[k]))
            j->bad++;
        ts_value_release(out);
    }
    return NULL;
}

static void test_threads(void)
{
    TsScript *s = compile(rt);     /* a fresh f: its plans are built by the threads */
    if (!s)
        return;
    Job jobs[THREADS];
    pthread_t th[THREADS];
    for (int t = 0; t < THREADS; t++) {
        jobs[t] = (Job){ s, { ones(rt, s, TS_FLOAT32, 2), ones(rt, s, TS_INT64, 1),
                              ones(rt, s, TS_FLOAT64, 3) }, { 12.0, 6.0, 24.0 }, 0 };
    }
    for (int t = 0; t < THREADS; t++)
        pthread_create(&th[t], NULL, worker, &jobs[t]);
    int bad = 0;
    for (int t = 0; t < THREADS; t++) {
        pthread_join(th[t], NULL);
        bad += jobs[t].bad;
        for (int k = 0; k < 3; k++)
            ts_value_release(jobs[t].x[k]);
    }
    is_int(bad, 0, "%d threads x %d calls with three keys: all right", THREADS, CALLS);
    is_int((long long)ts_spec_count(fn(s, "f")), 3, "three keys from four threads, three plans");
    ts_script_free(s);
}

/* ---- the printer's refined types parse back ----------------------------------------------- */
static void test_round_trip(void)
{
    static const char *const types[] = {
        "Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu)",
        "Long(requires_grad=0, device=cpu)",
        "Float(*, *, requires_grad=0, device=cpu)",
        "Double(2, *, requires_grad=1)",
        "Bool(*, 4)",
        "FloatTensor",
        "LongTensor(requires_grad=0, device=cpu)",
        "Tensor(*, *)",
        "Tensor(device=cpu)",
        "Float(0, strides=[1], requires_grad=0, device=cpu)",
    };
    for (size_t i = 0; i < sizeof types / sizeof *types; i++) {
        char text[256], back[256];
        snprintf(text, sizeof text, "graph(%%x : %s):\n  return (%%x)\n", types[i]);
        TsError err = TS_ERROR_INIT;
        TsGraph *g = ts_graph_parse(text, "types", &err);
        back[0] = '\0';
        if (g)
            ts_type_repr(ts_graph_input(g, 0)->type, back, sizeof back);
        if (!is_str(back, types[i], "%s prints back as written", types[i]) && !g)
            diag("%s", err.msg);
        ts_error_clear(&err);
        ts_graph_free(g);
    }
}

int main(void)
{
    TsError err = TS_ERROR_INIT;
    rt = ts_runtime_open(NULL, &err);
    if (!rt) {
        printf("1..0 # SKIP no runtime: %s\n", err.msg);
        ts_error_clear(&err);
        return 0;
    }
    TsScript *s = compile(rt);
    if (ok(s != NULL, "the program compiles")) {
        test_two_keys(s);
        test_bound(s);
        test_no_tensors(s);
        ts_script_free(s);
    }
    test_optimizer_off();
    test_threads();
    test_round_trip();
    ts_runtime_close(rt);
    return done_testing();
}
