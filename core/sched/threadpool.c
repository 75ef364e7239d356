/* threadpool.c — a fixed set of worker threads taking tasks from one FIFO queue.
 *
 * A mutex guards the queue; workers sleep on a condition variable. Shutdown lets the workers
 * finish the queue (tasks may queue more tasks while it drains) and joins them.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "sched/threadpool.h"

#define MAX_WORKERS 256

typedef struct Task {
    void (*fn)(void *arg);
    void *arg;
    struct Task *next;
} Task;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER;
static Task *head, *tail;
static pthread_t workers[MAX_WORKERS];
static int n_workers;
static bool stopping, atexit_done;

static void *worker(void *unused)
{
    (void)unused;
    pthread_mutex_lock(&lock);
    for (;;) {
        while (!head && !stopping)
            pthread_cond_wait(&wake, &lock);
        if (!head)
            break;
        Task *t = head;
        head = t->next;
        if (!head)
            tail = NULL;
        pthread_mutex_unlock(&lock);
        t->fn(t->arg);
        free(t);
        pthread_mutex_lock(&lock);
    }
    pthread_mutex_unlock(&lock);
    return NULL;
}

/* Starts the workers; the caller holds the lock. */
static int start(int n, TsError *err)
{
    if (n < 1)
        n = 1;
    if (n > MAX_WORKERS)
        n = MAX_WORKERS;
    stopping = false;
    for (int i = 0; i < n; i++) {
        if (pthread_create(&workers[n_workers], NULL, worker, NULL)) {
            if (n_workers)
                break;             /* fewer threads still run everything */
            return ts_error_set(err, TS_ERR_RUNTIME, "cannot start a worker thread");
        }
        n_workers++;
    }
    if (!atexit_done) {
        atexit(ts_threadpool_shutdown);
        atexit_done = true;
    }
    return 0;
}

int ts_threadpool_submit(int n_threads, void (*fn)(void *arg), void *arg, TsError *err)
{
    Task *t = malloc(sizeof *t);
    if (!t)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory queueing a task");
    t->fn = fn;
    t->arg = arg;
    t->next = NULL;
    pthread_mutex_lock(&lock);
    if (!n_workers) {
        int rc = start(n_threads, err);
        if (rc) {
            pthread_mutex_unlock(&lock);
            free(t);
            return rc;
        }
    }
    if (tail)
        tail->next = t;
    else
        head = t;
    tail = t;
    pthread_cond_signal(&wake);
    pthread_mutex_unlock(&lock);
    return 0;
}

void ts_threadpool_shutdown(void)
{
    pthread_mutex_lock(&lock);
    int n = n_workers;
    stopping = true;
    pthread_cond_broadcast(&wake);
    pthread_mutex_unlock(&lock);
    for (int i = 0; i < n; i++)
        pthread_join(workers[i], NULL);
    pthread_mutex_lock(&lock);
    n_workers = 0;
    stopping = false;
    pthread_mutex_unlock(&lock);
}
