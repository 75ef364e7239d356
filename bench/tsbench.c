/* tsbench.c — times a TorchScript file's main() in process, warm, as bench/compare.py does
 * for PyTorch: compile once, run once to warm up, then report the best of N runs.
 *
 *     bench/tsbench FILE.py [RUNS]     prints "best_seconds result"
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "compile.h"
#include "print.h"
#include "runtime.h"
#include "sched/interp.h"

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

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: tsbench FILE.py [RUNS]\n");
        return 2;
    }
    int runs = argc > 2 ? atoi(argv[2]) : 5;
    TsError err = TS_ERROR_INIT;
    TsRuntime *rt = ts_runtime_open(NULL, &err);
    if (!rt)
        return fail(&err);
    TsCompUnit *u = ts_compile_file(ts_runtime_optable(rt), argv[1], "main", &err);
    if (!u)
        return fail(&err);
    TsFunction *f = ts_unit_find(u, "__torch__.main");
    double best = 1e30;
    TsValue out = ts_none();
    for (int r = 0; r <= runs; r++) {     /* run 0 warms up */
        ts_value_release(out);
        out = ts_none();
        double t0 = now();
        if (ts_run(rt, u, f, NULL, 0, &out, &err))
            return fail(&err);
        double t = now() - t0;
        if (r > 0 && t < best)
            best = t;
    }
    char *s = ts_value_to_cstr(rt, out, &err);
    printf("%.9f %s\n", best, s ? s : "?");
    free(s);
    ts_value_release(out);
    ts_unit_free(u);
    ts_runtime_close(rt);
    return 0;
}
