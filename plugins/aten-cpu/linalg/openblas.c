/* openblas.c — loads OpenBLAS on first use, on the core type this CPU deserves (see
 * openblas.h, and blas_core.h for why the core type matters).
 *
 * The library is $TSCRIPT_OPENBLAS when set (a name or a path: another OpenBLAS build);
 * else the name configure found (TS_OPENBLAS_SONAME, looked up as a DT_NEEDED entry would
 * be), then the path it had at configure time. Loading happens once per process, under
 * pthread_once; the handle then stays open until exit, since OpenBLAS's own threads live in
 * it. Before each product OpenBLAS's thread count is brought in line with the runtime's
 * when it changed.
 *
 * The core type, the first of these that applies:
 *   1. OPENBLAS_CORETYPE set in the environment: OpenBLAS's own setting, read by OpenBLAS;
 *      tscript forces nothing.
 *   2. the config's blas_core (ts_config_setting): forced. init checked that OpenBLAS knows
 *      the name and that the CPU has its instructions; a library that does not run it then
 *      (a build without it) fails the load, naming the setting: an explicit choice is not
 *      dropped quietly.
 *   3. $TSCRIPT_OPENBLAS: the user's library, with its own choice.
 *   4. tscript's: the library is loaded as it is and asked openblas_get_corename(). When the
 *      CPU runs a better kernel generation (ts_blas_core_candidates), the build is
 *      DYNAMIC_ARCH (its core type can be chosen at all) and nothing else in the process
 *      holds the library (else it could not be loaded afresh), it is unloaded and loaded
 *      again with each better core type, best first, until the build has one; that one must
 *      then compute a 37x29x41 sgemm and dgemm as a plain loop does (self_check). If it does
 *      not, the library is loaded once more as it came.
 *
 * Forcing: OpenBLAS reads OPENBLAS_CORETYPE in its constructor, so the variable is set just
 * around dlopen and unset right after: children and the program see the environment as it
 * was. (setenv is not safe against a getenv on another thread at that instant; the window is
 * the dlopen, once per process.) Unloading is safe: OpenBLAS's destructor joins its threads,
 * and no product runs on a library that is being chosen (pthread_once holds every caller).
 * A load costs about 3 ms, so the worst case, a CPU the library misjudges, pays a few.
 *
 * For the tests only: TSCRIPT_TEST_BLAS_CORE=NAME makes step 4 take NAME for the library's
 * own pick (the Xeon, on which Debian's 0.3.21 reports Prescott, on any machine),
 * and TSCRIPT_TEST_BLAS_SELFCHECK=fail makes the self-check fail.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config.h"
#include "linalg/blas_core.h"
#include "linalg/openblas.h"
#include "tscript/plugin.h"

#define MAX_CANDIDATES 8
#define WHERE_MAX 400               /* "config.yaml:7:12", cut to fit the messages */

/* One load of the library and what tscript needs of it. */
typedef struct Library {
    void *handle;
    TsCpuBlas blas;
    void (*set_threads)(int);
    char *(*corename)(void);   /* NULL in a build without it: its core is then unknown */
    char *(*config)(void);
} Library;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static Library lib;
static bool loaded;
static int fail_code;               /* TS_ERR_RUNTIME (no library) or TS_ERR_CONFIG */
static char why[1024];              /* the load failure, for every caller */
static char choice[512];            /* what decided the core type, for backend_info */
static atomic_int threads;          /* what OpenBLAS was last told; 0: not yet */

/* ThreadSanitizer cannot see how OpenBLAS's own threads (built without it) hand a product's
 * result back to the caller: a kernel reading it on another of the runtime's threads was
 * reported as a race. Under it the products run on the calling thread alone. */
#ifdef __has_feature
#if __has_feature(thread_sanitizer)
#define BLAS_TSAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__) || defined(BLAS_TSAN)
enum { BLAS_MAX_THREADS = 1 };
#else
enum { BLAS_MAX_THREADS = 1 << 16 };
#endif

static void *open_library(int flags)
{
    const char *forced = getenv("TSCRIPT_OPENBLAS");
    if (forced && *forced)
        return dlopen(forced, RTLD_NOW | RTLD_LOCAL | flags);
    void *h = dlopen(TS_OPENBLAS_SONAME, RTLD_NOW | RTLD_LOCAL | flags);
    if (h || strcmp(TS_OPENBLAS_PATH, TS_OPENBLAS_SONAME) == 0)
        return h;
    char first[256];
    snprintf(first, sizeof first, "%s", dlerror());
    h = dlopen(TS_OPENBLAS_PATH, RTLD_NOW | RTLD_LOCAL | flags);
    if (!h && !flags)
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

/* POSIX's way from void * to a function pointer: copy the representation. */
#define BIND(dst, p) memcpy(&(dst), &(p), sizeof(p))

/* Loads the library into *l, on core type `core` when not NULL; false with why set. */
static bool load_library(const char *core, Library *l)
{
    memset(l, 0, sizeof *l);
    if (core)
        setenv("OPENBLAS_CORETYPE", core, 1);
    void *h = open_library(0);
    if (core)
        unsetenv("OPENBLAS_CORETYPE");
    if (!h) {
        if (!why[0])
            snprintf(why, sizeof why, "%s", dlerror());
        return false;
    }
    void *p[4] = { symbol(h, "cblas_sgemm"), symbol(h, "cblas_dgemm"), symbol(h, "cblas_sgemv"),
                   symbol(h, "cblas_dgemv") };
    if (!p[0] || !p[1] || !p[2] || !p[3]) {
        dlclose(h);
        return false;
    }
    void *st = dlsym(h, "openblas_set_num_threads"), *cn = dlsym(h, "openblas_get_corename"),
         *cf = dlsym(h, "openblas_get_config");
    l->handle = h;
    BIND(l->blas.sgemm, p[0]);
    BIND(l->blas.dgemm, p[1]);
    BIND(l->blas.sgemv, p[2]);
    BIND(l->blas.dgemv, p[3]);
    BIND(l->set_threads, st);
    BIND(l->corename, cn);
    BIND(l->config, cf);
    return true;
}

static void unload_library(Library *l)
{
    if (l->handle)
        dlclose(l->handle);
    memset(l, 0, sizeof *l);
}

static const char *corename(const Library *l)
{
    const char *s = l->corename ? l->corename() : NULL;
    return s ? s : "";
}

/* ---- the self-check ----------------------------------------------------------------- */

/* C = alpha * A * B^T + beta * C with A 37x41, B 29x41 and C 37x29, row-major: sizes no kernel
 * blocks evenly, B read transposed. The values are multiples of 1/4 below 2, so every partial
 * sum is exact in float and any order of summation gives the reference to the last bit; the
 * tolerance only allows for a library that scales before summing. */
enum { CHK_M = 37, CHK_N = 29, CHK_K = 41 };

static double chk_value(int i, int j, int salt)
{
    return (double)((i * 7 + j * 3 + salt) % 11 - 5) / 4;
}

static bool self_check(const TsCpuBlas *b, char *detail, size_t size)
{
    static float sa[CHK_M * CHK_K], sb[CHK_N * CHK_K], sc[CHK_M * CHK_N];
    static double da[CHK_M * CHK_K], db[CHK_N * CHK_K], dc[CHK_M * CHK_N], want[CHK_M * CHK_N];
    const double alpha = 1.5, beta = 0.5;
    for (int i = 0; i < CHK_M; i++)
        for (int p = 0; p < CHK_K; p++)
            sa[i * CHK_K + p] = (float)(da[i * CHK_K + p] = chk_value(i, p, 1));
    for (int j = 0; j < CHK_N; j++)
        for (int p = 0; p < CHK_K; p++)
            sb[j * CHK_K + p] = (float)(db[j * CHK_K + p] = chk_value(j, p, 4));
    for (int i = 0; i < CHK_M; i++)
        for (int j = 0; j < CHK_N; j++) {
            double s = 0;
            for (int p = 0; p < CHK_K; p++)
                s += da[i * CHK_K + p] * db[j * CHK_K + p];
            sc[i * CHK_N + j] = (float)(dc[i * CHK_N + j] = chk_value(i, j, 7));
            want[i * CHK_N + j] = alpha * s + beta * dc[i * CHK_N + j];
        }
    const char *test = getenv("TSCRIPT_TEST_BLAS_SELFCHECK");
    if (test && strcmp(test, "fail") == 0)
        want[CHK_N + 1] += 1;                          /* tests only: see the header */
    b->sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, CHK_M, CHK_N, CHK_K, (float)alpha, sa,
             CHK_K, sb, CHK_K, (float)beta, sc, CHK_N);
    b->dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, CHK_M, CHK_N, CHK_K, alpha, da, CHK_K, db,
             CHK_K, beta, dc, CHK_N);
    for (int e = 0; e < CHK_M * CHK_N; e++) {
        double tol = 1e-5 * (1 + (want[e] < 0 ? -want[e] : want[e]));
        const char *which = (sc[e] - want[e] > tol || want[e] - sc[e] > tol) ? "sgemm"
                            : (dc[e] - want[e] > tol || want[e] - dc[e] > tol) ? "dgemm"
                                                                               : NULL;
        if (which) {
            snprintf(detail, size, "%s %dx%dx%d: C[%d][%d] is %g, not %g", which, CHK_M, CHK_N,
                     CHK_K, e / CHK_N, e % CHK_N, which[0] == 's' ? (double)sc[e] : dc[e],
                     want[e]);
            return false;
        }
    }
    return true;
}

/* ---- choosing the core type ----------------------------------------------------------- */

/* Step 2: the config's blas_core; false with the load failed. */
static bool load_configured(const char *core, const char *where)
{
    snprintf(choice, sizeof choice, "forced by blas_core: %s (%s)", core, where);
    if (!load_library(core, &lib))
        return false;
    const char *got = corename(&lib);
    if (strcasecmp(got, core) == 0)
        return true;
    char config[160] = "";
    if (lib.config)
        snprintf(config, sizeof config, " (%s)", lib.config());
    snprintf(why, sizeof why, "%s: blas_core: this OpenBLAS%s has no core type '%s' (it runs "
             "%s)", where, config, core, *got ? got : "one it does not name");
    fail_code = TS_ERR_CONFIG;
    unload_library(&lib);
    return false;
}

/* Why the library's own pick cannot be replaced, or NULL when it can. */
static const char *fixed_pick(void)
{
    const char *config = lib.config ? lib.config() : NULL;
    if (!lib.corename || !config)
        return "the library does not say which core types it has";
    if (!strstr(config, "DYNAMIC_ARCH"))
        return "not a DYNAMIC_ARCH build: its core type is fixed";
    return NULL;
}

/* Back to the library as it comes, after a forced load that did not do. */
static bool reload_own(void)
{
    unload_library(&lib);
    return load_library(NULL, &lib);
}

/* Step 4; false with the load failed. */
static bool load_chosen(void)
{
    const char *test = getenv("TSCRIPT_TEST_BLAS_CORE");
    bool pretend = test && *test;
    void *before = open_library(RTLD_NOLOAD);       /* someone else's load: ours would share it */
    if (before)
        dlclose(before);
    if (!load_library(NULL, &lib))
        return false;
    char own[64];
    snprintf(own, sizeof own, "%s", pretend ? test : *corename(&lib) ? corename(&lib)
                                                                     : "(unnamed)");
    const char *note = pretend ? " (TSCRIPT_TEST_BLAS_CORE)" : "";
    unsigned features = ts_blas_cpu_features();
    const TsBlasCore *better[MAX_CANDIDATES];
    size_t n = ts_blas_core_candidates(features, own, better, MAX_CANDIDATES);
    if (n == 0) {
        snprintf(choice, sizeof choice, "kept %s%s, the library's own choice: %s", own, note,
                 ts_blas_core_find(own) ? "the best core type this CPU runs"
                                        : "a core type tscript does not know, so trusted");
        return true;
    }
    const char *fixed = before ? "the process had loaded the library already" : fixed_pick();
    if (fixed) {
        snprintf(choice, sizeof choice, "kept %s%s, the library's own choice, though this CPU "
                 "runs %s: %s", own, note, better[0]->name, fixed);
        return true;
    }
    char tried[256] = "", detail[160];
    for (size_t i = 0; i < n; i++) {
        unload_library(&lib);
        if (!load_library(better[i]->name, &lib))
            return false;
        if (strcasecmp(corename(&lib), better[i]->name) != 0) {
            size_t used = strlen(tried);            /* this build lacks it: the next best */
            snprintf(tried + used, sizeof tried - used, "%s%s", used ? ", " : "", better[i]->name);
            continue;
        }
        if (self_check(&lib.blas, detail, sizeof detail)) {
            snprintf(choice, sizeof choice, "upgraded from %s%s, the library's own choice, to "
                     "%s after a self-check", own, note, better[i]->name);
            return true;
        }
        snprintf(choice, sizeof choice, "kept %s%s, the library's own choice: the forced %s "
                 "failed the self-check (%s)", own, note, better[i]->name, detail);
        return reload_own();
    }
    snprintf(choice, sizeof choice, "kept %s%s, the library's own choice: its build has none "
             "of the better core types this CPU runs (%s)", own, note, tried);
    return reload_own();
}

static void load(void)
{
    char core[32], where[WHERE_MAX];
    const char *env = getenv("OPENBLAS_CORETYPE");
    const char *named = getenv("TSCRIPT_OPENBLAS");
    TsError err = TS_ERROR_INIT;
    fail_code = TS_ERR_RUNTIME;
    if (env && *env) {
        snprintf(choice, sizeof choice, "OPENBLAS_CORETYPE=%s in the environment", env);
        loaded = load_library(NULL, &lib);
    } else if (ts_config_setting("blas_core", core, sizeof core, where, sizeof where)) {
        if (ts_cpu_blas_check_setting(&err)) {
            snprintf(why, sizeof why, "%s", err.msg ? err.msg : "blas_core: out of memory");
            fail_code = TS_ERR_CONFIG;
            ts_error_clear(&err);
            return;
        }
        loaded = load_configured(core, where);
    } else if (named && *named) {
        snprintf(choice, sizeof choice, "the library's own: $TSCRIPT_OPENBLAS names the "
                 "library, so tscript does not choose");
        loaded = load_library(NULL, &lib);
    } else {
        loaded = load_chosen();
    }
}

const TsCpuBlas *ts_cpu_blas(TsError *err)
{
    pthread_once(&once, load);
    if (!loaded) {
        if (fail_code == TS_ERR_CONFIG)
            ts_error_set(err, TS_ERR_CONFIG, "%s", why);
        else
            ts_error_set(err, TS_ERR_RUNTIME, "matrix products need OpenBLAS, which could not "
                         "be loaded: %s (Debian: apt-get install libopenblas0)", why);
        return NULL;
    }
    int n = ts_parallel_num_threads();
    n = n > BLAS_MAX_THREADS ? BLAS_MAX_THREADS : n;
    if (lib.set_threads && atomic_load_explicit(&threads, memory_order_relaxed) != n &&
        atomic_exchange(&threads, n) != n)
        lib.set_threads(n);
    return &lib.blas;
}

void *ts_cpu_blas_symbol(const char *name, TsError *err)
{
    if (!ts_cpu_blas(err))
        return NULL;
    return dlsym(lib.handle, name);
}

int ts_cpu_blas_check_setting(TsError *err)
{
    char core[32], where[WHERE_MAX], names[512];
    if (!ts_config_setting("blas_core", core, sizeof core, where, sizeof where))
        return 0;
    const TsBlasCore *c = ts_blas_core_find(core);
    if (!c) {
        ts_blas_core_names(names, sizeof names);
        return ts_error_set(err, TS_ERR_CONFIG, "%s: blas_core: '%s' is not an OpenBLAS core "
                            "type (%s)", where, core, names);
    }
    unsigned lacks = c->needs & ~ts_blas_cpu_features();
    if (lacks) {
        ts_blas_feature_names(lacks, names, sizeof names);
        return ts_error_set(err, TS_ERR_CONFIG, "%s: blas_core: '%s' needs %s, which this CPU "
                            "lacks", where, core, names);
    }
    return 0;
}

/* ---- tscript::backend_info ----------------------------------------------------------- */

static void describe(TsBuf *b)
{
    Dl_info info;
    void *sgemm;
    char features[256];
    memcpy(&sgemm, &lib.blas.sgemm, sizeof sgemm);
    const char *path = dladdr(sgemm, &info) && info.dli_fname ? info.dli_fname : "?";
    char *real = realpath(path, NULL);               /* Debian's name is an alternatives link */
    ts_blas_feature_names(ts_blas_cpu_features(), features, sizeof features);
    ts_buf_printf(b, "BLAS     %s\n", lib.config ? lib.config() : "OpenBLAS");
    ts_buf_printf(b, "library  %s", path);
    if (real && strcmp(real, path) != 0)
        ts_buf_printf(b, " (%s)", real);
    ts_buf_putc(b, '\n');
    free(real);
    ts_buf_printf(b, "CPU      %s\n", features[0] ? features : "(no features tscript reads)");
    ts_buf_printf(b, "core     %s\n", *corename(&lib) ? corename(&lib) : "(not reported)");
    ts_buf_printf(b, "choice   %s\n", choice);
    ts_buf_printf(b, "threads  %d\n", ts_parallel_num_threads());
}

/* tscript::backend_info(Device device) -> str, for `tscript info --backend`. */
static int k_backend_info(TsCall *c)
{
    TsArgs a;
    TsBuf b = TS_BUF_INIT;
    TsStr *str = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc && !ts_cpu_blas(c->error))
        rc = c->error->code;
    if (!rc)
        describe(&b);
    if (!rc && !(str = ts_str_new(b.p ? b.p : "", b.len, c->error)))
        rc = c->error->code;
    ts_buf_free(&b);
    return ts_args_return(&a, rc, str ? ts_str_value(str) : ts_none());
}

static const TsCpuOp ops[] = {
    { "tscript::backend_info", "", k_backend_info },
};

const TsCpuTable ts_cpu_openblas_table = { ops, sizeof ops / sizeof ops[0] };
