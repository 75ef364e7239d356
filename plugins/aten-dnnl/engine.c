/* engine.c — oneDNN's CPU engine, each thread's stream and scratch memory, how many threads a
 * convolution gets, and oneDNN's errors in tscript's words.
 *
 * One engine serves the process (made on first use; the plugin is never unloaded, see
 * aten-dnnl.mk, so neither is it). Streams are not thread-safe and the runtime's kernels run
 * on many threads (fork/wait, embedders): each thread gets its own, with a scratch buffer
 * that holds a call's oneDNN scratchpad and the input and output in the primitive's layout,
 * kept and grown for the thread's next call and freed when the thread ends.
 *
 * Threads. Debian's oneDNN runs on OpenMP (libgomp): a primitive is planned for, and runs
 * on, as many threads as OpenMP's count on the calling thread when it is made. A call that
 * takes the team (one at a time) gets the runtime's thread count (TSCRIPT_NUM_THREADS,
 * ts_parallel_num_threads, as OpenBLAS gets it); a call on another thread meanwhile gets one
 * thread, as ts_parallel_for runs a nested range on its own thread, so that two interpreter
 * threads never start two teams on the same cores. The count is part of the primitive's key.
 */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "dn.h"


static pthread_once_t engine_once = PTHREAD_ONCE_INIT;
static dnnl_engine_t engine;
static dnnl_status_t engine_status;
static pthread_key_t thread_key;
static bool key_ok;

/* A thread's own: its stream and scratch buffer (ts_big_alloc'd, aligned by hand). */
typedef struct DnThread {
    dnnl_stream_t stream;
    void *raw, *scratch;
    size_t cap;
} DnThread;

static void thread_free(void *p)
{
    DnThread *t = p;
    if (t->stream)
        dn_lib.stream_destroy(t->stream);
    ts_big_free(t->raw, t->cap ? t->cap + 64 : 0);
    free(t);
}

static void make_engine(void)
{
    engine_status = dn_lib.engine_create(&engine, dnnl_cpu, 0);
    key_ok = pthread_key_create(&thread_key, thread_free) == 0;
}

dnnl_engine_t dn_engine(TsError *err)
{
    pthread_once(&engine_once, make_engine);
    if (engine_status != dnnl_success) {
        dn_fail(err, "creating the CPU engine", engine_status);
        return NULL;
    }
    if (!key_ok) {
        ts_error_set(err, TS_ERR_NOMEM, "oneDNN: no thread-specific key left");
        return NULL;
    }
    return engine;
}

static DnThread *this_thread(TsError *err)
{
    if (!dn_engine(err))
        return NULL;
    DnThread *t = pthread_getspecific(thread_key);
    if (t)
        return t;
    t = calloc(1, sizeof *t);
    if (!t || pthread_setspecific(thread_key, t)) {
        free(t);
        ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    return t;
}

dnnl_stream_t dn_stream(TsError *err)
{
    DnThread *t = this_thread(err);
    if (!t)
        return NULL;
    if (!t->stream) {
        dnnl_status_t st = dn_lib.stream_create(&t->stream, engine, dnnl_stream_default_flags);
        if (st != dnnl_success) {
            t->stream = NULL;
            dn_fail(err, "creating a stream", st);
            return NULL;
        }
    }
    return t->stream;
}

void *dn_scratch(size_t nbytes, TsError *err)
{
    DnThread *t = this_thread(err);
    if (!t)
        return NULL;
    if (nbytes > t->cap) {
        size_t cap = nbytes + nbytes / 4;
        void *raw = cap < SIZE_MAX - 64 ? ts_big_alloc(cap + 64) : NULL;
        if (!raw) {
            ts_error_set(err, TS_ERR_NOMEM, "oneDNN: out of memory for %zu bytes of scratch",
                         nbytes);
            return NULL;
        }
        ts_big_free(t->raw, t->cap ? t->cap + 64 : 0);
        t->raw = raw;
        t->scratch = (void *)(((uintptr_t)raw + 63) & ~(uintptr_t)63);
        t->cap = cap;
    }
    return t->scratch;
}

/* ---- threads ---------------------------------------------------------------------------- */

/* ThreadSanitizer cannot see the synchronization of code that was not built for it: an
 * OpenMP runtime's (Debian's libgomp), and oneDNN's own between threads (what it caches
 * while planning a primitive, handed to another thread's call through its locks and atomics
 * compiled without TSan: reported as a race, now and then, when two threads convolve at
 * once). In a --enable-tsan build oneDNN therefore runs on the calling thread alone, and the
 * oneDNN work of the kernels (dn_threads_begin to dn_threads_end) one call at a time under a
 * lock TSan sees, so that only the plugin's own sharing between threads is checked. */
#ifdef __has_feature
#if __has_feature(thread_sanitizer)
#define DN_TSAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__) || defined(DN_TSAN)
#define MAX_THREADS 1
static pthread_mutex_t tsan_serial = PTHREAD_MUTEX_INITIALIZER;
#define SERIAL_LOCK() pthread_mutex_lock(&tsan_serial)
#define SERIAL_UNLOCK() pthread_mutex_unlock(&tsan_serial)
#else
#define MAX_THREADS 4096
#define SERIAL_LOCK() ((void)0)
#define SERIAL_UNLOCK() ((void)0)
#endif

static atomic_flag team = ATOMIC_FLAG_INIT;

int dn_threads_begin(void)
{
    SERIAL_LOCK();
    int n = ts_parallel_num_threads();
    if (n > MAX_THREADS)
        n = MAX_THREADS;
    if (n > 1 && atomic_flag_test_and_set_explicit(&team, memory_order_acquire))
        n = 1;                         /* another thread's call has the team */
#ifdef TS_DNNL_OPENMP
    dn_lib.omp_set_num_threads(n);
#endif
    return n;
}

void dn_threads_end(int nthr)
{
    if (nthr > 1)
        atomic_flag_clear_explicit(&team, memory_order_release);
    SERIAL_UNLOCK();
}

/* ---- what the kernels share -------------------------------------------------------------- */

int dn_post_apply(TsTensor *t, int post, TsError *err)
{
    if ((t->dtype != TS_FLOAT32 && t->dtype != TS_BFLOAT16) || !ts_tensor_is_contiguous(t))
        return ts_error_set(err, TS_ERR_RUNTIME, "aten-dnnl: a fused relu of a result that "
                            "is not a contiguous float32 or bfloat16 tensor");
    float hi = post & DN_POST_RELU6 ? 6.0f : INFINITY;
    int64_t n = ts_tensor_numel(t);
    if (t->dtype == TS_BFLOAT16) {
        uint16_t *p = ts_tensor_data(t);
        for (int64_t i = 0; i < n; i++) {
            float v = dn_bf16_to_float(p[i]);
            p[i] = dn_float_to_bf16(v < 0 ? 0 : v > hi ? hi : v);
        }
        return 0;
    }
    float *p = ts_tensor_data(t);
    for (int64_t i = 0; i < n; i++)
        p[i] = p[i] < 0 ? 0 : p[i] > hi ? hi : p[i];
    return 0;
}

bool dn_may_reuse(TsCall *c, const TsTensor *t)
{
    const TsStorage *s = t->storage;
    return s && TS_ATOMIC_LOAD_RELAXED(&t->h.refcount) == 1 &&
           TS_ATOMIC_LOAD_RELAXED(&s->h.refcount) == 1 &&
           s->allocator == ts_runtime_allocator(c->runtime, TS_DEV_CPU);
}

int dn_override(TsRegistry *r, const char *qualname, TsKernelFn fn,
                _Atomic(TsKernelFn) *replaced, TsError *err)
{
    TsKernelFn prev = NULL;
    int rc = ts_override_kernel(r, qualname, "", "cpu", fn, &prev, err);
    if (!rc)
        atomic_store_explicit(replaced, prev, memory_order_relaxed);
    return rc;
}

int dn_call_replaced(TsCall *c, const char *qualname, const char *overload, TsKernelFn fn)
{
    TsCall sub = *c;
    sub.data = NULL;
    sub.op = ts_runtime_find_operator(c->runtime, qualname, overload);
    if (!sub.op)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "aten-dnnl: %s%s%s is not declared",
                            qualname, *overload ? "." : "", overload);
    return fn(&sub);
}

/* ---- errors and the end --------------------------------------------------------------- */

static const char *status_name(dnnl_status_t st)
{
    switch (st) {
    case dnnl_out_of_memory: return "out of memory";
    case dnnl_invalid_arguments: return "invalid arguments";
    case dnnl_unimplemented: return "unimplemented";
    case dnnl_iterator_ends: return "iterator ends";
    case dnnl_runtime_error: return "runtime error";
    case dnnl_not_required: return "not required";
    default: return "failure";
    }
}

int dn_fail(TsError *err, const char *what, dnnl_status_t st)
{
    return ts_error_set(err, st == dnnl_out_of_memory ? TS_ERR_NOMEM : TS_ERR_RUNTIME,
                        "oneDNN: %s failed (%s)", what, status_name(st));
}

void dn_engine_shutdown(void)
{
    if (!key_ok)
        return;
    DnThread *t = pthread_getspecific(thread_key);
    if (t) {
        pthread_setspecific(thread_key, NULL);
        thread_free(t);
    }
}
