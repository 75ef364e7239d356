/* failalloc.c — an LD_PRELOAD interposer that makes tscript's Nth allocation fail.
 *
 * The allocation-failure sweep (t/oom.sh, t/oom/sweep.sh) runs a program once per N with
 * this object preloaded, as SQLite's malloc tests do, and checks that each run ends in its
 * normal output or in an "out of memory" error: no crash, no leak, nothing half-built.
 * Interposing the allocator leaves the ~300 call sites of the core and the plugins as they
 * are; a test hook compiled into them would not.
 *
 * Only calls made from tscript's own code count: the caller's return address is looked up
 * with dladdr, and a call counts when it comes from an object (the program, libtscript, the
 * plugins, the vendor example) outside the system's directories (/usr, /lib, /bin): so the
 * sweep may run the program under valgrind or a shell without failing their allocations.
 * The main program is known by argv[0] (the loader names it so), or by /proc/self/exe when
 * argv[0] is a bare name found on PATH.
 * glibc, libyaml, zlib, OpenBLAS and the dynamic loader allocate for themselves, and
 * failing them would test their error paths, not ours. glibc's own strdup, vasprintf,
 * realpath and open_memstream allocate from inside libc, so they are wrapped here too:
 * otherwise their calls would be charged to libc and never fail.
 *
 * Environment:
 *   TS_FAIL_ALLOC=N          the Nth counted call (from 1) fails; 0 or unset: none fails
 *   TS_FAIL_ALLOC_PERSIST=1  every counted call from the Nth on fails, not just the Nth
 *   TS_FAIL_ALLOC_COUNT=FILE at exit, write the number of counted calls (and the N that
 *                            failed, if one did) to FILE, so a sweep knows N's range
 *   TS_FAIL_ALLOC_TRACE=1    print the stack of the call that fails to stderr (addresses
 *                            in an object: `addr2line -f -e OBJECT OFFSET` names them)
 *
 * The real allocator is reached through glibc's __libc_* entry points, not dlsym, which
 * itself allocates; valgrind replaces those entry points, so a run under valgrind checks
 * the memory these wrappers hand out like any other.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t n);
extern void *__libc_memalign(size_t align, size_t n);
extern void __libc_free(void *p);

/* A verdict per return address, so dladdr runs once per call site, not once per call.
 * Direct-mapped; an entry is the address with its low bit set when the site counts.
 * Racing threads may overwrite each other's entries: each is one atomic word and always
 * a correct verdict for the address it holds. */
#define SITE_CACHE 8192
static _Atomic uintptr_t site_cache[SITE_CACHE];

static _Atomic long calls;      /* counted calls so far */
static _Atomic long failed_at;  /* the N that failed first, 0 if none did */
static long fail_n;             /* TS_FAIL_ALLOC */
static int persist;             /* TS_FAIL_ALLOC_PERSIST */
static int trace;               /* TS_FAIL_ALLOC_TRACE */
static const char *count_file;  /* TS_FAIL_ALLOC_COUNT */
static int ready;               /* the environment has been read */

/* Where the system's programs and libraries live: nothing there is tscript's. */
static int is_system_path(const char *p)
{
    static const char *const dirs[] = { "/lib", "/usr/", "/bin/", "/sbin/" };
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++)
        if (strncmp(p, dirs[i], strlen(dirs[i])) == 0)
            return 1;
    return 0;
}

static char exe_path[4096];     /* the main program's file, from /proc/self/exe (under
                                   valgrind that is valgrind's: argv[0] is used first) */
static const void *self_base;   /* where this interposer is loaded */

/* Whether a call returning to ra comes from tscript's code: from an object that is neither
 * this interposer nor the system's. */
static int site_counts(const void *ra)
{
    uintptr_t a = (uintptr_t)ra & ~(uintptr_t)1;
    size_t h = (a >> 2) * 2654435761u % SITE_CACHE;
    uintptr_t e = atomic_load_explicit(&site_cache[h], memory_order_relaxed);
    if ((e & ~(uintptr_t)1) == a)
        return (int)(e & 1);
    Dl_info info;
    int ours = 0;
    if (dladdr(ra, &info) && info.dli_fname && info.dli_fbase != self_base) {
        const char *path = info.dli_fname;
        if (strcmp(path, program_invocation_name) == 0 && !strchr(path, '/'))
            path = exe_path;  /* found on PATH */
        ours = path[0] && !is_system_path(path);
    }
    atomic_store_explicit(&site_cache[h], a | (uintptr_t)ours, memory_order_relaxed);
    return ours;
}

static void read_env(void)
{
    const char *s = getenv("TS_FAIL_ALLOC");
    fail_n = s ? strtol(s, NULL, 10) : 0;
    s = getenv("TS_FAIL_ALLOC_PERSIST");
    persist = s && *s && strcmp(s, "0") != 0;
    count_file = getenv("TS_FAIL_ALLOC_COUNT");
    s = getenv("TS_FAIL_ALLOC_TRACE");
    trace = s && *s && strcmp(s, "0") != 0;
    if (trace) {
        void *frames[1];
        backtrace(frames, 1);  /* loads libgcc now, not inside a failing call */
    }
    ssize_t n = readlink("/proc/self/exe", exe_path, sizeof exe_path - 1);
    exe_path[n > 0 ? n : 0] = '\0';
    Dl_info me;
    if (dladdr((void *)read_env, &me))
        self_base = me.dli_fbase;
    ready = 1;
}

/* Whether this call, returning to ra, is to fail. Calls before the environment is read
 * (the loader's, libc's start-up) are not tscript's and never count. */
static int should_fail(const void *ra)
{
    if (!ready || !site_counts(ra))
        return 0;
    long n = atomic_fetch_add(&calls, 1) + 1;
    if (fail_n <= 0 || n < fail_n || (n > fail_n && !persist))
        return 0;
    long zero = 0;
    atomic_compare_exchange_strong(&failed_at, &zero, n);
    if (trace) {
        void *frames[32];
        int depth = backtrace(frames, 32);
        dprintf(2, "failalloc: call %ld fails here:\n", n);
        backtrace_symbols_fd(frames, depth, 2);
    }
    errno = ENOMEM;
    return 1;
}

__attribute__((constructor)) static void failalloc_init(void) { read_env(); }

/* Writes "calls N" and, when one failed, "failed N" to TS_FAIL_ALLOC_COUNT. Runs after
 * main returns or exit is called; a run killed by a signal leaves no file, which the sweep
 * reports as a crash anyway. A process that counted nothing writes nothing: it is a
 * launcher (timeout, valgrind) that inherited the environment, exiting after tscript. */
__attribute__((destructor)) static void failalloc_report(void)
{
    if (!count_file || !*count_file || atomic_load(&calls) == 0)
        return;
    FILE *f = fopen(count_file, "w");
    if (!f)
        return;
    fprintf(f, "calls %ld\n", atomic_load(&calls));
    if (atomic_load(&failed_at))
        fprintf(f, "failed %ld\n", atomic_load(&failed_at));
    fclose(f);
}

#define CALLER __builtin_return_address(0)

void *malloc(size_t n) { return should_fail(CALLER) ? NULL : __libc_malloc(n); }

void *calloc(size_t n, size_t size)
{
    return should_fail(CALLER) ? NULL : __libc_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
    /* realloc(p, 0) frees: it cannot fail, so it does not count */
    if (p && n == 0)
        return __libc_realloc(p, n);
    return should_fail(CALLER) ? NULL : __libc_realloc(p, n);
}

void *reallocarray(void *p, size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size) {
        errno = ENOMEM;
        return NULL;
    }
    return should_fail(CALLER) ? NULL : __libc_realloc(p, n * size);
}

void free(void *p) { __libc_free(p); }

int posix_memalign(void **out, size_t align, size_t n)
{
    if (align < sizeof(void *) || (align & (align - 1)))
        return EINVAL;
    if (should_fail(CALLER))
        return ENOMEM;
    void *p = __libc_memalign(align, n);
    if (!p)
        return ENOMEM;
    *out = p;
    return 0;
}

void *aligned_alloc(size_t align, size_t n)
{
    return should_fail(CALLER) ? NULL : __libc_memalign(align, n);
}

void *memalign(size_t align, size_t n)
{
    return should_fail(CALLER) ? NULL : __libc_memalign(align, n);
}

static char *dup_n(const char *s, size_t n, const void *ra)
{
    if (should_fail(ra))
        return NULL;
    char *d = __libc_malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

char *strdup(const char *s) { return dup_n(s, strlen(s), CALLER); }

char *strndup(const char *s, size_t n) { return dup_n(s, strnlen(s, n), CALLER); }

/* vasprintf, asprintf: glibc's allocate inside libc; this one formats twice into memory
 * from the counted allocator. */
static int vasprintf_at(char **out, const char *fmt, va_list ap, const void *ra)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        return -1;
    if (should_fail(ra))
        return -1;
    char *p = __libc_malloc((size_t)n + 1);
    if (!p)
        return -1;
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    *out = p;
    return n;
}

int vasprintf(char **out, const char *fmt, va_list ap) { return vasprintf_at(out, fmt, ap, CALLER); }

int asprintf(char **out, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vasprintf_at(out, fmt, ap, CALLER);
    va_end(ap);
    return n;
}

/* realpath(path, NULL) and open_memstream allocate inside libc: a counted call may fail
 * before libc's runs, as it would when libc's allocation failed. */
char *realpath(const char *path, char *resolved)
{
    static char *(*real)(const char *, char *);
    if (!resolved && should_fail(CALLER))
        return NULL;
    if (!real)
        real = (char *(*)(const char *, char *))dlsym(RTLD_NEXT, "realpath");
    return real(path, resolved);
}

FILE *open_memstream(char **buf, size_t *size)
{
    static FILE *(*real)(char **, size_t *);
    if (should_fail(CALLER))
        return NULL;
    if (!real)
        real = (FILE *(*)(char **, size_t *))dlsym(RTLD_NEXT, "open_memstream");
    return real(buf, size);
}
