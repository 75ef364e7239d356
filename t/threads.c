/* t/threads.c — the interpreter on many threads at once (core/value/share.c, core/sched/interp.c).
 *
 * Built with --enable-tsan this is the thread-safety test, and ThreadSanitizer must report
 * nothing; in the other builds it checks the same results (and ASan that nothing is freed
 * twice). The TorchScript is t/data/threads/threads.py:
 *   - fork/wait stress: hundreds of forks that fork again, waited for out of order;
 *   - containers written by several forks at once: four appending to one list, two
 *     inserting into one dict, two setting one object's attributes, lists inside a list
 *     grown by one task while another prints them, a future's list grown by two waiters;
 *     every write must be there at the end (they interleave, they are never lost);
 *   - many threads calling one compiled function through ts_run (the embedding API will
 *     wrap it), each with its own arguments, and all appending to one list they share
 *     (marked with ts_value_share, as an embedder must).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/compile.h"
#include "function.h"
#include "runtime.h"
#include "sched/interp.h"
#include "frontend/source.h"
#include "tap.h"

enum { THREADS = 8, ROUNDS = 3 };

static TsRuntime *rt;
static TsCompUnit *unit;

/* Calls __torch__.NAME with n int arguments (and extra, a reference, first if not None);
 * returns its int result, or -1 with a diagnostic. */
static int64_t call(const char *name, TsValue extra, size_t n, const int64_t *ints)
{
    char q[128];
    snprintf(q, sizeof q, "__torch__.%s", name);
    TsFunction *f = ts_unit_find(unit, q);
    TsValue args[4];
    size_t k = 0;
    if (extra.tag != TS_TAG_NONE)
        args[k++] = extra;
    for (size_t i = 0; i < n && k < 4; i++)
        args[k++] = ts_int(ints[i]);
    TsError err = TS_ERROR_INIT;
    TsValue out;
    if (!f || ts_run(rt, unit, f, args, k, &out, &err) != 0) {
        diag("%s: %s", name, f ? err.msg : "no such function");
        ts_error_clear(&err);
        return -1;
    }
    int64_t r = out.tag == TS_TAG_INT ? out.u.i : -2;
    ts_value_release(out);
    return r;
}

static void test_forks(void)
{
    for (int r = 0; r < ROUNDS; r++) {
        is_int(call("fork_stress", ts_none(), 1, (int64_t[]){ 200 }), 40400,
               "200 forks, each forking two, waited for in reverse (round %d)", r);
        is_int(call("shared_containers", ts_none(), 1, (int64_t[]){ 2000 }), 18003,
               "containers written by several forks at once keep every write (round %d)", r);
    }
}

/* ---- threads calling one function -------------------------------------------------------- */

typedef struct Job {
    int k;
    TsValue shared;            /* a List[int] every thread appends to (borrowed) */
    int64_t own, appended;
} Job;

static void *worker(void *arg)
{
    Job *j = arg;
    j->own = call("per_thread", ts_none(), 2, (int64_t[]){ j->k, 100 });
    ts_value_retain(j->shared);
    j->appended = call("append_n", j->shared, 1, (int64_t[]){ 500 });
    return NULL;
}

static void test_threads_calling_one_function(void)
{
    TsError err = TS_ERROR_INIT;
    TsList *l = ts_list_new(ts_type_int(), 0, &err);
    TsValue shared = ts_obj_value(l, TS_TAG_LIST);
    ok(l && ts_value_share(shared, &err) == 0 && ts_value_is_shared(shared),
       "a list marked shared before threads get it");
    Job jobs[THREADS];
    pthread_t t[THREADS];
    int started = 0;
    for (int i = 0; l && i < THREADS; i++) {
        jobs[i] = (Job){ i + 1, shared, 0, 0 };
        if (pthread_create(&t[i], NULL, worker, &jobs[i]) == 0)
            started++;
    }
    is_int(started, THREADS, "%d threads started", THREADS);
    for (int i = 0; i < started; i++)
        pthread_join(t[i], NULL);
    int good = 0, grew = 0;
    for (int i = 0; i < started; i++) {
        /* 100 appended then 100 more by a fork, 100 dict entries, (k+1)+(k+2) */
        good += jobs[i].own == 200 + 100 + 2 * jobs[i].k + 3;
        grew += jobs[i].appended > 0 && jobs[i].appended <= 500 * THREADS;
    }
    is_int(good, started, "each thread's own call gives its result");
    is_int(grew, started, "each thread appended to the shared list");
    ok(l && l->len == (size_t)(500 * started), "the shared list has every append (%zu)",
       l ? l->len : (size_t)0);
    ts_value_release(shared);
    ts_error_clear(&err);
}

int main(void)
{
    setenv("TSCRIPT_NUM_THREADS", "4", 1);
    TsError err = TS_ERROR_INIT;
    rt = ts_runtime_open(NULL, &err);
    TsSource *src = rt ? ts_source_read_file(TS_TEST_SRCDIR "/t/data/threads/threads.py", &err)
                       : NULL;
    unit = src ? ts_compile_source(ts_runtime_optable(rt), src, NULL, &err) : NULL;
    if (!ok(unit != NULL, "t/data/threads/threads.py compiles"))
        diag("%s", err.msg);
    ts_error_clear(&err);
    if (unit) {
        test_forks();
        test_threads_calling_one_function();
    }
    ts_unit_free(unit);
    ts_source_release(src);
    ts_runtime_close(rt);
    return done_testing();
}
