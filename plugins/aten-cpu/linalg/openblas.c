/* openblas.c — loads OpenBLAS on first use (see openblas.h).
 *
 * The library is $TSCRIPT_OPENBLAS when set (a name or a path: another OpenBLAS build);
 * else the name configure found (TS_OPENBLAS_SONAME, looked up as a DT_NEEDED entry would
 * be), then the path it had at configure time. Loading happens once per process, under
 * pthread_once; the handle stays open until exit, since OpenBLAS's own threads live in it.
 * Before each product OpenBLAS's thread count is brought in line with the runtime's when it
 * changed.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "linalg/openblas.h"
#include "tscript/plugin.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static TsCpuBlas blas;
static void (*set_threads)(int);
static bool loaded;
static char why[512];               /* the load failure, for every caller */
static atomic_int threads;          /* what OpenBLAS was last told; 0: not yet */

static void *open_library(void)
{
    const char *forced = getenv("TSCRIPT_OPENBLAS");
    if (forced && *forced)
        return dlopen(forced, RTLD_NOW | RTLD_LOCAL);
    void *h = dlopen(TS_OPENBLAS_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (h || strcmp(TS_OPENBLAS_PATH, TS_OPENBLAS_SONAME) == 0)
        return h;
    char first[256];
    snprintf(first, sizeof first, "%s", dlerror());
    h = dlopen(TS_OPENBLAS_PATH, RTLD_NOW | RTLD_LOCAL);
    if (!h)
        snprintf(why, sizeof why, "%s", first);
    return h;
}

static void *symbol(void *h, const char *name)
{
    void *p = dlsym(h, name);
    if (!p && !why[0])
        snprintf(why, sizeof why, "the library has no %s", name);
    return p;
}

static void load(void)
{
    void *h = open_library();
    if (!h) {
        if (!why[0])
            snprintf(why, sizeof why, "%s", dlerror());
        return;
    }
    /* POSIX's way from void * to a function pointer: copy the representation */
    void *p[4] = { symbol(h, "cblas_sgemm"), symbol(h, "cblas_dgemm"), symbol(h, "cblas_sgemv"),
                   symbol(h, "cblas_dgemv") };
    void *st = dlsym(h, "openblas_set_num_threads");
    if (!p[0] || !p[1] || !p[2] || !p[3]) {
        dlclose(h);
        return;
    }
    memcpy(&blas.sgemm, &p[0], sizeof p[0]);
    memcpy(&blas.dgemm, &p[1], sizeof p[1]);
    memcpy(&blas.sgemv, &p[2], sizeof p[2]);
    memcpy(&blas.dgemv, &p[3], sizeof p[3]);
    memcpy(&set_threads, &st, sizeof st);
    loaded = true;
}

const TsCpuBlas *ts_cpu_blas(TsError *err)
{
    pthread_once(&once, load);
    if (!loaded) {
        ts_error_set(err, TS_ERR_RUNTIME, "matrix products need OpenBLAS, which could not be "
                     "loaded: %s (Debian: apt-get install libopenblas0)", why);
        return NULL;
    }
    int n = ts_parallel_num_threads();
    if (set_threads && atomic_load_explicit(&threads, memory_order_relaxed) != n &&
        atomic_exchange(&threads, n) != n)
        set_threads(n);
    return &blas;
}
