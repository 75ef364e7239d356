/* future.c — TsFuture, PyTorch's Future[T]: a value or an error that arrives later, on
 * another thread (fork/wait, asynchronous kernels).
 *
 * A mutex guards the state and a condition variable wakes waiters. A future completes once,
 * with a value or with an error; completing it again is an error for the second caller.
 * Callbacks registered before completion run on the completing thread, after the lock is
 * dropped (a callback may wait on the same future, or register another callback); callbacks
 * registered later run at once on the registering thread. A shared future (share.c) marks
 * its value shared as it completes: its waiters on other threads all get it.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "value/heap.h"

typedef struct FutureCallback {
    void (*cb)(TsFuture *f, void *data);
    void *data;
} FutureCallback;

struct TsFuture {
    TsHeap h;
    const TsType *elem_type;
    pthread_mutex_t lock;
    pthread_cond_t done_cond;
    atomic_bool done;      /* written under lock; read without it by ts_future_done */
    TsValue value;         /* when done without error */
    TsError error;         /* code != TS_OK: failed */
    FutureCallback *callbacks;
    size_t ncallbacks, cap;
};

TsFuture *ts_future_new(const TsType *elem_type, TsError *err)
{
    TsFuture *f = calloc(1, sizeof *f);
    if (!f) {
        ts_error_set(err, TS_ERR_NOMEM, "out of memory allocating a future");
        return NULL;
    }
    if (pthread_mutex_init(&f->lock, NULL)) {
        free(f);
        ts_error_set(err, TS_ERR_RUNTIME, "cannot create a future's mutex");
        return NULL;
    }
    if (pthread_cond_init(&f->done_cond, NULL)) {
        pthread_mutex_destroy(&f->lock);
        free(f);
        ts_error_set(err, TS_ERR_RUNTIME, "cannot create a future's condition variable");
        return NULL;
    }
    ts_heap_init(&f->h, TS_TAG_FUTURE);
    f->elem_type = elem_type;
    atomic_init(&f->done, false);
    f->value = ts_none();
    return f;
}

const TsType *ts_future_elem_type(const TsFuture *f)
{
    return f->elem_type;
}

bool ts_future_done(const TsFuture *f)
{
    return atomic_load_explicit(&f->done, memory_order_acquire);
}

/* Marks f done (the caller holds the lock and has stored the outcome), wakes waiters and
 * runs the pending callbacks once the lock is released. */
static void finish(TsFuture *f)
{
    FutureCallback *cbs = f->callbacks;
    size_t n = f->ncallbacks;
    f->callbacks = NULL;
    f->ncallbacks = f->cap = 0;
    atomic_store_explicit(&f->done, true, memory_order_release);
    pthread_cond_broadcast(&f->done_cond);
    pthread_mutex_unlock(&f->lock);
    for (size_t i = 0; i < n; i++)
        cbs[i].cb(f, cbs[i].data);
    free(cbs);
}

bool ts_future_value_for_share(TsFuture *f, TsValue *out)
{
    pthread_mutex_lock(&f->lock);
    bool has = atomic_load_explicit(&f->done, memory_order_relaxed) && f->error.code == TS_OK;
    if (has)
        *out = f->value;
    pthread_mutex_unlock(&f->lock);
    return has;
}

static bool is_shared(const TsFuture *f)
{
    return atomic_load_explicit(&f->h.flags, memory_order_relaxed) & TS_HEAP_SHARED;
}

/* A shared future's value is marked shared before it is stored, outside the lock (marking
 * may lock other futures): if the future became shared meanwhile, it is marked and tried
 * again. A value that cannot be marked (out of memory) fails the future instead. */
int ts_future_complete(TsFuture *f, TsValue value, TsError *err)
{
    bool marked = false;
    for (;;) {
        if (!marked && is_shared(f)) {
            TsError merr = TS_ERROR_INIT;
            if (ts_value_share(value, &merr)) {
                ts_value_release(value);
                return ts_future_fail(f, &merr, err);
            }
            marked = true;
        }
        pthread_mutex_lock(&f->lock);
        if (atomic_load_explicit(&f->done, memory_order_relaxed)) {
            pthread_mutex_unlock(&f->lock);
            ts_value_release(value);
            return ts_error_set(err, TS_ERR_RUNTIME, "future is already completed");
        }
        if (marked || !is_shared(f))
            break;
        pthread_mutex_unlock(&f->lock);
    }
    f->value = value;
    finish(f);
    return 0;
}

int ts_future_fail(TsFuture *f, TsError *failure, TsError *err)
{
    pthread_mutex_lock(&f->lock);
    if (atomic_load_explicit(&f->done, memory_order_relaxed)) {
        pthread_mutex_unlock(&f->lock);
        ts_error_clear(failure);
        return ts_error_set(err, TS_ERR_RUNTIME, "future is already completed");
    }
    ts_error_move(&f->error, failure);
    if (f->error.code == TS_OK)        /* failing with no error still fails */
        ts_error_set(&f->error, TS_ERR_RUNTIME, "future failed");
    finish(f);
    return 0;
}

int ts_future_wait(TsFuture *f, TsValue *out, TsError *err)
{
    pthread_mutex_lock(&f->lock);
    while (!atomic_load_explicit(&f->done, memory_order_relaxed))
        pthread_cond_wait(&f->done_cond, &f->lock);
    int rc = 0;
    if (f->error.code != TS_OK) {
        rc = ts_error_set(err, f->error.code, "%s", f->error.msg ? f->error.msg : "");
    } else if (out) {
        ts_value_retain(f->value);
        *out = f->value;
    }
    pthread_mutex_unlock(&f->lock);
    return rc;
}

int ts_future_then(TsFuture *f, void (*cb)(TsFuture *f, void *data), void *data, TsError *err)
{
    pthread_mutex_lock(&f->lock);
    if (atomic_load_explicit(&f->done, memory_order_relaxed)) {
        pthread_mutex_unlock(&f->lock);
        cb(f, data);
        return 0;
    }
    if (f->ncallbacks == f->cap) {
        size_t cap = f->cap ? f->cap * 2 : 4;
        FutureCallback *cbs = cap < ((size_t)-1) / sizeof *cbs
                                  ? realloc(f->callbacks, cap * sizeof *cbs) : NULL;
        if (!cbs) {
            pthread_mutex_unlock(&f->lock);
            return ts_error_set(err, TS_ERR_NOMEM, "out of memory adding a future callback");
        }
        f->callbacks = cbs;
        f->cap = cap;
    }
    f->callbacks[f->ncallbacks++] = (FutureCallback){cb, data};
    pthread_mutex_unlock(&f->lock);
    return 0;
}

/* Callbacks still pending when the last reference goes are never run: nobody can complete
 * the future any more. */
void ts_future_destroy(TsFuture *f, TsFreeList *fl)
{
    ts_value_drop(fl, f->value);
    ts_error_clear(&f->error);
    free(f->callbacks);
    pthread_cond_destroy(&f->done_cond);
    pthread_mutex_destroy(&f->lock);
    free(f);
}
