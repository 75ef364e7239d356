/* parallel.c — ts_parallel_for: one index range split over a fixed set of worker threads.
 *
 * Kernels (elementwise ops, reductions) hand a range to ts_parallel_for; it cuts the range
 * into chunks of at least the caller's grain (a few per thread, so a thread slowed by other
 * load takes fewer) and runs them on the calling thread and on num_threads - 1 workers. The
 * workers are this file's own, not the fork/wait pool's (threadpool.c): a chunk must start
 * now, not behind queued interpreter tasks. They start on the first call that needs them and
 * sleep on a condition variable between calls.
 *
 * One call at a time owns the workers (the region lock). A call made while another owns them
 * (from another interpreter thread, or from inside a chunk) runs its whole range on its own
 * thread, so nesting never deadlocks. All chunk claims happen under one mutex, so the job,
 * which lives on the caller's stack, is touched only by threads running a claimed chunk, and
 * the caller returns only when every claimed chunk is done.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>

#include "sched/parallel.h"
#include "tscript/plugin.h"

#define MAX_WORKERS 256
#define CHUNKS_PER_THREAD 4

typedef struct Job {
    TsParallelFn fn;
    void *ctx;
    int64_t begin, len;
    int n_chunks;
    int next, done;            /* chunks claimed, chunks finished (under lock) */
    int failed;                /* the failing chunk nearest begin, or n_chunks */
    TsError err;               /* its error */
} Job;

static pthread_mutex_t region = PTHREAD_MUTEX_INITIALIZER;   /* owns the workers */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;     /* guards what follows */
static pthread_cond_t work = PTHREAD_COND_INITIALIZER;
static pthread_cond_t finished = PTHREAD_COND_INITIALIZER;
static Job *current;
static pthread_t workers[MAX_WORKERS];
static int n_workers;
static bool stopping, atexit_done;
static atomic_int num_threads = 1;

void ts_parallel_set_num_threads(int n)
{
    atomic_store(&num_threads, n < 1 ? 1 : n);
}

int ts_parallel_num_threads(void)
{
    return atomic_load(&num_threads);
}

/* Chunk k of the job: [*b, *e), the range cut into n_chunks nearly equal parts. */
static void chunk_bounds(const Job *j, int k, int64_t *b, int64_t *e)
{
    int64_t base = j->len / j->n_chunks, rem = j->len % j->n_chunks;
    *b = j->begin + base * k + (k < rem ? k : rem);
    *e = *b + base + (k < rem ? 1 : 0);
}

/* fn on [b, e), with an error message even when fn set none. */
static int call(TsParallelFn fn, void *ctx, int64_t b, int64_t e, TsError *err)
{
    int rc = fn(ctx, b, e, err);
    if (rc && err && err->code == TS_OK)
        ts_error_set(err, rc > 0 && rc < TS_ERR__COUNT ? (TsErrorCode)rc : TS_ERR_RUNTIME,
                     "a parallel chunk failed without an error message");
    return rc;
}

/* Runs claimed chunk k without the lock, then records its outcome with the lock held. */
static void run_chunk(Job *j, int k)
{
    int64_t b, e;
    TsError err = TS_ERROR_INIT;
    chunk_bounds(j, k, &b, &e);
    pthread_mutex_unlock(&lock);
    int rc = call(j->fn, j->ctx, b, e, &err);
    pthread_mutex_lock(&lock);
    if (rc && k < j->failed) {
        j->failed = k;
        ts_error_move(&j->err, &err);
    }
    ts_error_clear(&err);
    if (++j->done == j->n_chunks)
        pthread_cond_signal(&finished);
}

static void *worker(void *unused)
{
    (void)unused;
    pthread_mutex_lock(&lock);
    for (;;) {
        while (!stopping && !(current && current->next < current->n_chunks))
            pthread_cond_wait(&work, &lock);
        if (stopping)
            break;
        Job *j = current;
        run_chunk(j, j->next++);
    }
    pthread_mutex_unlock(&lock);
    return NULL;
}

/* Grows the pool to n workers (as many as start); the caller holds the lock. */
static void start_workers(int n)
{
    if (n > MAX_WORKERS)
        n = MAX_WORKERS;
    while (n_workers < n && pthread_create(&workers[n_workers], NULL, worker, NULL) == 0)
        n_workers++;
    if (n_workers && !atexit_done) {
        atexit(ts_parallel_shutdown);
        atexit_done = true;
    }
}

int ts_parallel_for(int64_t begin, int64_t end, int64_t grain, TsParallelFn fn, void *ctx,
                    TsError *err)
{
    if (end <= begin)
        return 0;
    int64_t len = end - begin, chunks = len / (grain > 0 ? grain : 1);
    int threads = ts_parallel_num_threads();
    if (chunks > (int64_t)threads * CHUNKS_PER_THREAD)
        chunks = (int64_t)threads * CHUNKS_PER_THREAD;
    if (threads < 2 || chunks < 2 || pthread_mutex_trylock(&region) != 0)
        return call(fn, ctx, begin, end, err);
    Job j = { fn, ctx, begin, len, (int)chunks, 0, 0, (int)chunks, TS_ERROR_INIT };
    pthread_mutex_lock(&lock);
    if (n_workers < threads - 1)
        start_workers(threads - 1);
    current = &j;
    pthread_cond_broadcast(&work);
    while (j.next < j.n_chunks)
        run_chunk(&j, j.next++);
    while (j.done < j.n_chunks)
        pthread_cond_wait(&finished, &lock);
    current = NULL;
    pthread_mutex_unlock(&lock);
    pthread_mutex_unlock(&region);
    if (j.failed == j.n_chunks)
        return 0;
    int code = j.err.code;
    if (err)
        ts_error_move(err, &j.err);
    ts_error_clear(&j.err);
    return code;
}

void ts_parallel_shutdown(void)
{
    pthread_mutex_lock(&lock);
    int n = n_workers;
    stopping = true;
    pthread_cond_broadcast(&work);
    pthread_mutex_unlock(&lock);
    for (int i = 0; i < n; i++)
        pthread_join(workers[i], NULL);
    pthread_mutex_lock(&lock);
    n_workers = 0;
    stopping = false;
    pthread_mutex_unlock(&lock);
}
