/* tsbench.c — times a TorchScript file's main() in process, warm, as bench/compare.py does
 * for PyTorch: compile once, run a few times to warm up, then report the best of N runs.
 * When the file also defines inputs(), it runs once, untimed, with the integer arguments
 * after RUNS, and the items of the tuple it returns are main's arguments (so building
 * tensors is not part of the time).
 *
 *     bench/tsbench FILE.py [RUNS [INT...]]     prints "best_seconds result"
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "frontend/compile.h"
#include "tscript/print.h"
#include "runtime.h"
#include "sched/interp.h"

#define WARMUP 2
#define MAX_ARGS 16

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int fail(TsError *err)
{
    fprintf(stderr, "tsbench: %s\n", err->msg ? err->msg : "failed");
    ts_error_clear(err);
    return 1;
}

/* Runs inputs(ints...) when the file has it: its result's items into args (new
 * references). */
static int make_inputs(TsRuntime *rt, TsCompUnit *u, char **ints, int n_ints, TsValue *args,
                       size_t *n, TsError *err)
{
    *n = 0;
    TsFunction *f = ts_unit_find(u, "__torch__.inputs");
    if (!f)
        return 0;
    TsValue v = ts_none(), in[MAX_ARGS];
    if (n_ints > MAX_ARGS)
        return ts_error_set(err, TS_ERR_USAGE, "more than %d arguments for inputs()", MAX_ARGS);
    for (int i = 0; i < n_ints; i++)
        in[i] = ts_int(strtoll(ints[i], NULL, 10));
    if (ts_run(rt, u, f, in, (size_t)n_ints, &v, err))
        return err->code;
    if (v.tag != TS_TAG_TUPLE) {
        args[(*n)++] = v;
        return 0;
    }
    const TsTuple *t = (const TsTuple *)v.u.p;
    if (t->len > MAX_ARGS) {
        ts_value_release(v);
        return ts_error_set(err, TS_ERR_USAGE, "inputs() returns more than %d values", MAX_ARGS);
    }
    for (size_t i = 0; i < t->len; i++) {
        ts_value_retain(t->items[i]);
        args[(*n)++] = t->items[i];
    }
    ts_value_release(v);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: tsbench FILE.py [RUNS [INT...]]\n");
        return 2;
    }
    int runs = argc > 2 ? atoi(argv[2]) : 5;
    TsError err = TS_ERROR_INIT;
    TsRuntime *rt = ts_runtime_open(NULL, &err);
    if (!rt)
        return fail(&err);
    TsCompUnit *u = ts_compile_file(ts_runtime_optable(rt), argv[1], NULL, &err);
    if (!u)
        return fail(&err);
    TsFunction *f = ts_unit_find(u, "__torch__.main");
    TsValue args[MAX_ARGS], call[MAX_ARGS];
    size_t n_args;
    if (!f)
        return fprintf(stderr, "tsbench: %s has no main()\n", argv[1]), 1;
    if (make_inputs(rt, u, argv + 3, argc > 3 ? argc - 3 : 0, args, &n_args, &err))
        return fail(&err);
    double best = 1e30;
    TsValue out = ts_none();
    for (int r = 0; r < WARMUP + runs; r++) {
        ts_value_release(out);
        out = ts_none();
        for (size_t i = 0; i < n_args; i++) {    /* ts_run takes the arguments' references */
            ts_value_retain(args[i]);
            call[i] = args[i];
        }
        double t0 = now();
        if (ts_run(rt, u, f, call, n_args, &out, &err))
            return fail(&err);
        double t = now() - t0;
        if (r >= WARMUP && t < best)
            best = t;
    }
    char *s = ts_value_to_cstr(rt, out, &err);
    printf("%.9f %s\n", best, s ? s : "?");
    free(s);
    ts_value_release(out);
    for (size_t i = 0; i < n_args; i++)
        ts_value_release(args[i]);
    ts_unit_free(u);
    ts_runtime_close(rt);
    return 0;
}
