/* parallel.c — tests of ts_parallel_for (core/sched/parallel.c), the parallel-for of the
 * plugin ABI.
 *
 * For every thread count 1..4 and range lengths around the grain: every index is visited
 * exactly once, chunks are at least the grain long, ranges shorter than two grains run as
 * one call on the caller's thread, and longer ones really use the workers. A failing chunk's
 * error reaches the caller (the one nearest begin when several fail, a generic message when
 * the chunk set none); nested calls and calls from two threads at once run correctly; the
 * thread count follows TSCRIPT_NUM_THREADS when a runtime opens.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runtime.h"
#include "sched/parallel.h"
#include "tap.h"

#define GRAIN 100
#define MAX_LEN (40 * GRAIN + 7)
#define BEGIN 5

/* What the chunks of one call saw. */
typedef struct Seen {
    atomic_int visits[BEGIN + MAX_LEN];
    atomic_int calls;
    atomic_llong min_len;
    atomic_int on_caller;          /* chunks run by the calling thread */
    pthread_t caller;
} Seen;

static int visit(void *ctx, int64_t b, int64_t e, TsError *err)
{
    (void)err;
    Seen *s = ctx;
    for (int64_t i = b; i < e; i++)
        atomic_fetch_add(&s->visits[i], 1);
    atomic_fetch_add(&s->calls, 1);
    long long len = e - b, m = atomic_load(&s->min_len);
    while (len < m && !atomic_compare_exchange_weak(&s->min_len, &m, len))
        ;
    if (pthread_equal(pthread_self(), s->caller))
        atomic_fetch_add(&s->on_caller, 1);
    return 0;
}

static void reset(Seen *s)
{
    for (int i = 0; i < BEGIN + MAX_LEN; i++)
        atomic_init(&s->visits[i], 0);
    atomic_init(&s->calls, 0);
    atomic_init(&s->min_len, MAX_LEN + 1);
    atomic_init(&s->on_caller, 0);
    s->caller = pthread_self();
}

/* Each index of [BEGIN, BEGIN + len) once, nothing outside it. */
static int covered_once(Seen *s, int64_t len)
{
    for (int64_t i = 0; i < BEGIN + MAX_LEN; i++) {
        int want = i >= BEGIN && i < BEGIN + len ? 1 : 0;
        if (atomic_load(&s->visits[i]) != want) {
            diag("index %lld visited %d times", (long long)i, atomic_load(&s->visits[i]));
            return 0;
        }
    }
    return 1;
}

static void test_coverage(void)
{
    static Seen s;
    const int64_t lens[] = { 0, 1, GRAIN - 1, GRAIN, GRAIN + 1, 2 * GRAIN - 1, 2 * GRAIN,
                             2 * GRAIN + 1, 3 * GRAIN - 1, 3 * GRAIN, 8 * GRAIN + 3, MAX_LEN };
    for (int threads = 1; threads <= 4; threads++) {
        ts_parallel_set_num_threads(threads);
        is_int(ts_parallel_num_threads(), threads, "threads=%d: the count is set", threads);
        int all = 1, grains = 1, inline_ok = 1;
        for (size_t k = 0; k < sizeof lens / sizeof lens[0]; k++) {
            int64_t len = lens[k];
            TsError err = TS_ERROR_INIT;
            reset(&s);
            int rc = ts_parallel_for(BEGIN, BEGIN + len, GRAIN, visit, &s, &err);
            all = all && rc == 0 && covered_once(&s, len);
            int calls = atomic_load(&s.calls);
            if (len > 0 && calls > 1 && atomic_load(&s.min_len) < GRAIN)
                grains = 0;
            /* one call on the caller's thread: short ranges, and any range with one thread */
            if ((len < 2 * GRAIN || threads == 1) &&
                !(calls == (len > 0) && atomic_load(&s.on_caller) == calls))
                inline_ok = 0;
            if (!all || !grains || !inline_ok)
                diag("length %lld: rc %d, %d calls, shortest %lld", (long long)len, rc, calls,
                     (long long)atomic_load(&s.min_len));
        }
        ok(all, "threads=%d: every index once for lengths around the grain", threads);
        ok(grains, "threads=%d: every chunk at least the grain long", threads);
        ok(inline_ok, "threads=%d: short ranges run as one call on the calling thread",
           threads);
    }
}

/* Chunks that wait (up to 10 s) until two threads have entered: proof that workers run. */
static atomic_int entered;
static atomic_uintptr_t first_thread;

static int meet(void *ctx, int64_t b, int64_t e, TsError *err)
{
    (void)ctx;
    (void)b;
    (void)e;
    (void)err;
    uintptr_t me = (uintptr_t)pthread_self(), none = 0;
    if (!atomic_compare_exchange_strong(&first_thread, &none, me) && none != me)
        atomic_store(&entered, 2);
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do {
        clock_gettime(CLOCK_MONOTONIC, &t);
    } while (atomic_load(&entered) < 2 && t.tv_sec - t0.tv_sec < 10);
    return 0;
}

static void test_workers_run(void)
{
    for (int threads = 2; threads <= 4; threads++) {
        ts_parallel_set_num_threads(threads);
        atomic_store(&entered, 0);
        atomic_store(&first_thread, 0);
        TsError err = TS_ERROR_INIT;
        int rc = ts_parallel_for(0, 100 * GRAIN, GRAIN, meet, NULL, &err);
        ok(rc == 0 && atomic_load(&entered) == 2, "threads=%d: chunks run on two threads at once",
           threads);
    }
}

/* Fails on chunks holding an index in bad[]: "bad chunk at B" with B the chunk's begin. */
typedef struct Failing {
    int64_t bad[2];
    int n_bad;
    int silent;                /* fail without setting the error */
} Failing;

static int fail_some(void *ctx, int64_t b, int64_t e, TsError *err)
{
    const Failing *f = ctx;
    for (int i = 0; i < f->n_bad; i++)
        if (f->bad[i] >= b && f->bad[i] < e)
            return f->silent ? TS_ERR_VALUE
                             : ts_error_set(err, TS_ERR_INDEX, "bad chunk at %lld", (long long)b);
    return 0;
}

/* The begin of the chunk holding index i, as the first failing chunk reports it. */
static int reported_begin(const char *msg, long long *b)
{
    return msg && sscanf(msg, "bad chunk at %lld", b) == 1;
}

static void test_errors(void)
{
    for (int threads = 1; threads <= 4; threads++) {
        ts_parallel_set_num_threads(threads);
        int single = 1, nearest = 1, short_ok = 1, silent_ok = 1;
        for (int64_t bad = 0; bad < 20 * GRAIN; bad += 7 * GRAIN / 3) {
            TsError err = TS_ERROR_INIT;
            long long b;
            Failing f = { { bad, 0 }, 1, 0 };
            int rc = ts_parallel_for(0, 20 * GRAIN, GRAIN, fail_some, &f, &err);
            single = single && rc == TS_ERR_INDEX && err.code == TS_ERR_INDEX &&
                     reported_begin(err.msg, &b) && b <= bad && bad - b < 20 * GRAIN;
            ts_error_clear(&err);
            /* two failing chunks: the one nearest begin wins, whatever finished first */
            Failing two = { { 19 * GRAIN, bad }, 2, 0 };
            rc = ts_parallel_for(0, 20 * GRAIN, GRAIN, fail_some, &two, &err);
            nearest = nearest && rc == TS_ERR_INDEX && reported_begin(err.msg, &b) && b <= bad &&
                      (threads == 1 || b > bad - 20 * GRAIN / (threads * 4) - 1);
            ts_error_clear(&err);
        }
        TsError err = TS_ERROR_INIT;
        Failing f = { { 3, 0 }, 1, 0 };
        int rc = ts_parallel_for(0, GRAIN, GRAIN, fail_some, &f, &err);
        short_ok = rc == TS_ERR_INDEX && err.msg && strcmp(err.msg, "bad chunk at 0") == 0;
        ts_error_clear(&err);
        Failing quiet = { { 15 * GRAIN, 0 }, 1, 1 };
        rc = ts_parallel_for(0, 20 * GRAIN, GRAIN, fail_some, &quiet, &err);
        silent_ok = rc == TS_ERR_VALUE && err.code == TS_ERR_VALUE && err.msg &&
                    strstr(err.msg, "without an error message");
        ts_error_clear(&err);
        ok(single, "threads=%d: a failing chunk's error reaches the caller", threads);
        ok(nearest, "threads=%d: of two failing chunks, the one nearest begin is reported",
           threads);
        ok(short_ok, "threads=%d: an error in a range run inline reaches the caller", threads);
        ok(silent_ok, "threads=%d: a chunk failing without a message still fails the call",
           threads);
    }
    Failing f = { { 5 * GRAIN, 0 }, 1, 0 };
    ts_parallel_set_num_threads(4);
    ok(ts_parallel_for(0, 20 * GRAIN, GRAIN, fail_some, &f, NULL) == TS_ERR_INDEX,
       "a NULL error still gets the code");
}

/* Each chunk sums its range with an inner parallel-for (which must run inline). */
typedef struct Nested {
    atomic_llong total;
} Nested;

static int add_range(void *ctx, int64_t b, int64_t e, TsError *err)
{
    (void)err;
    Nested *n = ctx;
    long long s = 0;
    for (int64_t i = b; i < e; i++)
        s += i;
    atomic_fetch_add(&n->total, s);
    return 0;
}

static int nested_chunk(void *ctx, int64_t b, int64_t e, TsError *err)
{
    return ts_parallel_for(b, e, 1, add_range, ctx, err);
}

static void *concurrent_caller(void *arg)
{
    Nested *n = arg;
    TsError err = TS_ERROR_INIT;
    for (int r = 0; r < 50; r++)
        if (ts_parallel_for(0, 10 * GRAIN, GRAIN, add_range, n, &err))
            return "failed";
    return NULL;
}

static void test_nesting(void)
{
    long long want = (long long)(30 * GRAIN) * (30 * GRAIN - 1) / 2;
    for (int threads = 1; threads <= 4; threads++) {
        ts_parallel_set_num_threads(threads);
        Nested n;
        atomic_init(&n.total, 0);
        TsError err = TS_ERROR_INIT;
        int rc = ts_parallel_for(0, 30 * GRAIN, GRAIN, nested_chunk, &n, &err);
        ok(rc == 0 && atomic_load(&n.total) == want, "threads=%d: nested calls run correctly",
           threads);

        Nested a, b;
        atomic_init(&a.total, 0);
        atomic_init(&b.total, 0);
        pthread_t t1, t2;
        void *r1 = "not run", *r2 = "not run";
        if (pthread_create(&t1, NULL, concurrent_caller, &a) == 0 &&
            pthread_create(&t2, NULL, concurrent_caller, &b) == 0) {
            pthread_join(t1, &r1);
            pthread_join(t2, &r2);
        }
        long long each = 50LL * (10 * GRAIN) * (10 * GRAIN - 1) / 2;
        ok(!r1 && !r2 && atomic_load(&a.total) == each && atomic_load(&b.total) == each,
           "threads=%d: two threads calling at once both get every chunk", threads);
    }
}

static void test_runtime_sets_count(void)
{
    TsError err = TS_ERROR_INIT;
    setenv("TSCRIPT_NUM_THREADS", "3", 1);
    TsRuntime *rt = ts_runtime_open(NULL, &err);
    ok(rt && ts_parallel_num_threads() == 3 && ts_runtime_num_threads(rt) == 3,
       "opening a runtime sets the count from TSCRIPT_NUM_THREADS");
    if (!rt)
        diag("%s", err.msg);
    ts_error_clear(&err);
    ts_runtime_close(rt);
    unsetenv("TSCRIPT_NUM_THREADS");
}

int main(void)
{
    ok(ts_parallel_for(7, 7, GRAIN, visit, NULL, NULL) == 0, "an empty range calls nothing");
    test_coverage();
    test_workers_run();
    test_errors();
    test_nesting();
    test_runtime_sets_count();
    ts_parallel_shutdown();
    ts_parallel_set_num_threads(2);
    static Seen s;
    reset(&s);
    ok(ts_parallel_for(BEGIN, BEGIN + 10 * GRAIN, GRAIN, visit, &s, NULL) == 0 &&
       covered_once(&s, 10 * GRAIN), "workers start again after a shutdown");
    return done_testing();
}
