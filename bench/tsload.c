/* tsload.c — loading a model saved by torch.jit.save, timed in process as bench/models.py
 * times torch.jit.load: the load itself (map the archive, read its objects, nothing
 * compiled yet), how much resident memory it added (tensors map the file, so the weights
 * should not be read in), the first call of forward (which compiles the methods it reaches)
 * and the best of a few calls after it.
 *
 *     bench/tsload MODEL.pt INPUT.pt [RUNS]
 *         prints "load_s rss_growth_kb first_call_s steady_call_s"
 *
 * Calls run with grad mode off, as bench/models.py's PyTorch side runs them under
 * torch.no_grad() (a TransformerEncoder takes its fused fast path only then).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "module.h"
#include "runtime.h"
#include "serialize/tensorfile.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Resident memory of the process, in KB (/proc/self/statm counts pages). */
static long rss_kb(void)
{
    long size = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%ld %ld", &size, &resident) != 2)
            resident = 0;
        fclose(f);
    }
    return resident * 4;
}

static int fail(TsError *err)
{
    fprintf(stderr, "tsload: %s\n", err->msg ? err->msg : "failed");
    ts_error_clear(err);
    return 1;
}

/* forward(x) through the public API, as an embedder calls it: trailing arguments with
 * defaults (a TransformerEncoder's masks) take them. */
static int call(TsMethod *f, TsValue x, TsError *err)
{
    TsValue out;
    int rc = ts_method_call(f, &x, 1, &out, err);
    if (rc == 0)
        ts_value_release(out);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: tsload MODEL.pt INPUT.pt [RUNS]\n");
        return 2;
    }
    int runs = argc > 3 ? atoi(argv[3]) : 5;
    TsError err = TS_ERROR_INIT;
    TsRuntime *rt = ts_runtime_open(NULL, &err);
    ts_set_grad_enabled(false);     /* as PyTorch's side runs: under torch.no_grad() */
    TsValue x;
    if (!rt || ts_tensorfile_load(argv[2], &x, &err) != 0)
        return fail(&err);
    long rss0 = rss_kb();
    double t0 = now();
    TsModule *m = ts_module_load(rt, argv[1], &err);
    double t1 = now();
    long rss1 = rss_kb();
    if (!m)
        return fail(&err);
    /* finding the method compiles it: that is part of the first call's time */
    TsMethod *f = ts_module_find_method(m, "forward", &err);
    if (!f || call(f, x, &err) != 0)
        return fail(&err);
    double t2 = now(), best = 1e30;
    for (int i = 0; i < runs; i++) {
        double a = now();
        if (call(f, x, &err) != 0)
            return fail(&err);
        double b = now() - a;
        best = b < best ? b : best;
    }
    printf("%.6f %ld %.6f %.6f\n", t1 - t0, rss1 - rss0, t2 - t1, best);
    ts_value_release(x);
    ts_method_free(f);
    ts_module_free(m);
    ts_runtime_close(rt);
    return 0;
}
