/* alloc.c — the "cuda" allocator: device memory that is kept, not given back.
 *
 * cudaMalloc and cudaFree cost tens of microseconds and cudaFree waits for the whole device,
 * so a freed block goes to a free list of its device and size class and the next tensor of
 * that class takes it: an LSTM step that allocates the same dozen tensors each time calls
 * cudaMalloc only in its first step. Sizes round up to 512 bytes (to 2 MiB past 1 MiB) so
 * that nearby sizes share blocks. When cudaMalloc fails the cache is emptied and it is
 * tried once more.
 *
 * Blocks are freed while work that uses them may still be queued on the freeing thread's
 * stream. The same thread may reuse a block at once (its stream runs in order); another
 * thread's stream first waits on an event recorded at the free. Recording that event costs
 * about as much as a kernel launch, and most programs touch the device from one thread, so
 * events are recorded only once a second thread has allocated or freed: at that moment
 * every device finishes its work and the blocks already cached become anyone's.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "engine/cuda.h"

#define SMALL_LIMIT (1u << 20)
#define SMALL_ROUND 512u
#define LARGE_ROUND (2u << 20)
#define NBUCKETS 256

typedef struct Block {
    struct Block *next;
    void *ptr;
    size_t size;               /* rounded */
    int device;
    pthread_t thread;          /* who freed it */
    bool anyones;              /* no work of the freeing thread's can still use it */
    bool recorded;             /* event was recorded at the free */
    cudaEvent_t event;         /* kept with the record for its next free */
} Block;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static Block *buckets[NBUCKETS];
static Block *spare;           /* records not in use, events kept */
static bool shared;            /* a second thread has used the allocator: record events */
static int threads;            /* threads that have used it, up to 2 */
static _Thread_local bool seen; /* this thread is counted in threads */

/* Counts the calling thread (the caller holds the lock); the second one switches events on
 * after waiting for every device, which settles every block freed so far. */
static void count_thread(void)
{
    if (seen)
        return;
    seen = true;
    if (shared || ++threads < 2)
        return;
    shared = true;
    int cur = -1, n = ts_cuda_device_count();
    (void)cudaGetDevice(&cur);
    for (int d = 0; d < n; d++)
        if (cudaSetDevice(d) == cudaSuccess)
            (void)cudaDeviceSynchronize();
    if (cur >= 0)
        (void)cudaSetDevice(cur);
    (void)cudaGetLastError();
    for (size_t i = 0; i < NBUCKETS; i++)
        for (Block *b = buckets[i]; b; b = b->next)
            b->anyones = true;
}

static size_t round_size(size_t n)
{
    size_t r = n <= SMALL_LIMIT ? SMALL_ROUND : LARGE_ROUND;
    if (n == 0)
        return SMALL_ROUND;
    if (n > SIZE_MAX - r)
        return 0;
    return (n + r - 1) / r * r;
}

static size_t bucket_of(size_t size, int device)
{
    return (size / SMALL_ROUND * 31u + (size_t)device) % NBUCKETS;
}

/* The cached block of exactly this size on device, unlinked; NULL when there is none. */
static Block *take(size_t size, int device)
{
    Block **p = &buckets[bucket_of(size, device)];
    for (; *p; p = &(*p)->next)
        if ((*p)->size == size && (*p)->device == device) {
            Block *b = *p;
            *p = b->next;
            return b;
        }
    return NULL;
}

/* Frees every cached block (the caller holds the lock). */
static void release_cached(void)
{
    int cur = -1;
    (void)cudaGetDevice(&cur);
    for (size_t i = 0; i < NBUCKETS; i++) {
        while (buckets[i]) {
            Block *b = buckets[i];
            buckets[i] = b->next;
            (void)cudaSetDevice(b->device);
            (void)cudaFree(b->ptr);          /* waits for the device's work */
            b->next = spare;
            spare = b;
        }
    }
    if (cur >= 0)
        (void)cudaSetDevice(cur);
    (void)cudaGetLastError();
}

void ts_cuda_empty_cache(void)
{
    pthread_mutex_lock(&lock);
    release_cached();
    pthread_mutex_unlock(&lock);
}

static void *cuda_alloc(TsAllocator *self, size_t nbytes, TsDevice device)
{
    (void)self;
    TsError err = TS_ERROR_INIT;
    size_t size = round_size(nbytes);
    if (!size || ts_cuda_use_device(device, &err)) {
        ts_error_clear(&err);
        return NULL;
    }
    int dev = ts_cuda_current_device().index;
    pthread_mutex_lock(&lock);
    count_thread();
    Block *b = take(size, dev);
    if (b) {
        void *ptr = b->ptr;
        bool wait = !b->anyones && !pthread_equal(b->thread, pthread_self());
        b->ptr = NULL;
        b->next = spare;
        spare = b;
        if (wait && (!b->recorded ||
                     cudaStreamWaitEvent(TS_CUDA_STREAM, b->event, 0) != cudaSuccess)) {
            /* cannot order this stream after the freeing one: wait for the device */
            (void)cudaGetLastError();
            (void)cudaDeviceSynchronize();
        }
        pthread_mutex_unlock(&lock);
        return ptr;
    }
    pthread_mutex_unlock(&lock);
    void *ptr = NULL;
    if (cudaMalloc(&ptr, size) != cudaSuccess) {
        (void)cudaGetLastError();
        pthread_mutex_lock(&lock);
        release_cached();
        pthread_mutex_unlock(&lock);
        if (cudaMalloc(&ptr, size) != cudaSuccess) {
            (void)cudaGetLastError();
            return NULL;
        }
    }
    return ptr;
}

static void cuda_free(TsAllocator *self, void *ptr, size_t nbytes, TsDevice device)
{
    (void)self;
    if (!ptr)
        return;
    size_t size = round_size(nbytes);
    pthread_mutex_lock(&lock);
    count_thread();
    Block *b = spare;
    if (b)
        spare = b->next;
    else if ((b = calloc(1, sizeof *b)) == NULL) {
        pthread_mutex_unlock(&lock);
        (void)cudaFree(ptr);       /* no record to keep it in: give it back */
        (void)cudaGetLastError();
        return;
    }
    b->ptr = ptr;
    b->size = size;
    b->device = device.index < 0 ? 0 : device.index;
    b->thread = pthread_self();
    b->anyones = false;
    b->recorded = false;
    if (shared) {
        if (!b->event &&
            cudaEventCreateWithFlags(&b->event, cudaEventDisableTiming) != cudaSuccess) {
            (void)cudaGetLastError();
            b->event = NULL;
        }
        if (b->event && cudaEventRecord(b->event, TS_CUDA_STREAM) == cudaSuccess) {
            b->recorded = true;
        } else {
            (void)cudaGetLastError();
            (void)cudaStreamSynchronize(TS_CUDA_STREAM);   /* then anyone may reuse it */
            (void)cudaGetLastError();
            b->anyones = true;
        }
    }
    size_t k = bucket_of(size, b->device);
    b->next = buckets[k];
    buckets[k] = b;
    pthread_mutex_unlock(&lock);
}

/* Moves bytes between the host and the device; waits, so the host side may be reused or
 * read when it returns. */
static int cuda_copy(TsAllocator *self, void *dst, const void *src, size_t nbytes,
                     TsDevice device, bool to_device, TsError *err)
{
    (void)self;
    int rc = ts_cuda_use_device(device, err);
    if (rc || nbytes == 0)
        return rc;
    rc = ts_cuda_check(cudaMemcpyAsync(dst, src, nbytes, to_device ? cudaMemcpyHostToDevice
                                                                     : cudaMemcpyDeviceToHost,
                                       TS_CUDA_STREAM), "copy", err);
    if (!rc)
        rc = ts_cuda_check(cudaStreamSynchronize(TS_CUDA_STREAM), "copy", err);
    return rc;
}

/* A failed alloc: no device, a device past the last, or out of memory (0). */
static int cuda_why(TsAllocator *self, TsDevice device, TsError *err)
{
    (void)self;
    return ts_cuda_use_device(device, err);
}

TsAllocator ts_cuda_allocator = { "cuda", cuda_alloc, cuda_free, NULL, cuda_copy, cuda_why, NULL };

TsTensor *ts_cuda_empty_on(TsDevice d, int dtype, int dim, const int64_t *sizes, TsError *err)
{
    if (ts_cuda_use_device(d, err))
        return NULL;
    return ts_tensor_empty(&ts_cuda_allocator, ts_cuda_current_device(), dtype, dim, sizes, err);
}

TsTensor *ts_cuda_empty(int dtype, int dim, const int64_t *sizes, TsError *err)
{
    TsDevice any = { TS_DEV_CUDA, -1 };
    return ts_cuda_empty_on(any, dtype, dim, sizes, err);
}
