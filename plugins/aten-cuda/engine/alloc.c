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
 * thread's stream first waits on an event recorded at the free. Recording one costs the
 * host ~0.2 us (measured on an H100, against 3.8 us for a launch), needless where, as in most
 * programs, one thread touches the device; so events are recorded only once a second thread
 * has allocated or freed: at that moment
 * every device finishes its work and the blocks already cached become anyone's.
 *
 * A thread capturing a CUDA graph (graph.c) allocates from a private pool instead: while
 * it captures, its allocations take the pool's free blocks, else cached or new ones, and
 * every block it frees goes to the pool, never to the cache, since each replay of the
 * graph writes to the addresses the capture saw. A pool block some tensor still holds is
 * found by its address in `owned` when freed, by any thread at any time, and goes back to
 * its pool. The pool gives everything back only when its graph is gone. Nothing of this
 * costs the allocator's ordinary path more than a test of two variables.
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
    TsCudaPool *pool;          /* in `owned`: the pool whose live block this is */
} Block;

/* A capture's private pool: its blocks no tensor holds; the held ones are in `owned`. */
struct TsCudaPool {
    Block *free;
    size_t live;               /* its blocks in `owned` */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static Block *buckets[NBUCKETS];
static Block *spare;           /* records not in use, events kept */
static bool shared;            /* a second thread has used the allocator: record events */
static int threads;            /* threads that have used it, up to 2 */
static _Thread_local bool seen; /* this thread is counted in threads */
static Block *owned[NBUCKETS]; /* live pool blocks, by address */
static size_t owned_count;
static _Thread_local TsCudaPool *capturing; /* the pool of this thread's capture */

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

/* The block of exactly this size on device in the list at p, unlinked; NULL when there is
 * none. ready: only one that no other thread's stream may still use (a capture cannot wait
 * for another stream: the wait would become part of the graph). */
static Block *take_from(Block **p, size_t size, int device, bool ready)
{
    for (; *p; p = &(*p)->next) {
        Block *b = *p;
        if (b->size == size && b->device == device &&
            (!ready || b->anyones || pthread_equal(b->thread, pthread_self()))) {
            *p = b->next;
            return b;
        }
    }
    return NULL;
}

static Block *take(size_t size, int device)
{
    return take_from(&buckets[bucket_of(size, device)], size, device, false);
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
    if (capturing)
        return;    /* cudaFree would fail under the capture, and the blocks be lost */
    pthread_mutex_lock(&lock);
    release_cached();
    pthread_mutex_unlock(&lock);
}

/* A record for a block: a spare one, or a new one (NULL when out of memory). The caller
 * holds the lock. */
static Block *new_record(void)
{
    Block *b = spare;
    if (b)
        spare = b->next;
    else
        b = calloc(1, sizeof *b);
    return b;
}

static size_t owned_slot(const void *ptr)
{
    return (size_t)((uintptr_t)ptr / SMALL_ROUND % NBUCKETS);
}

/* Makes b, a block of pool p that a tensor is about to hold, findable by its address. */
static void own(Block *b, TsCudaPool *p)
{
    size_t k = owned_slot(b->ptr);
    b->pool = p;
    b->next = owned[k];
    owned[k] = b;
    owned_count++;
    p->live++;
}

/* The live pool block at ptr, unlinked from `owned`; NULL when ptr is no pool's. */
static Block *disown(const void *ptr)
{
    for (Block **q = &owned[owned_slot(ptr)]; *q; q = &(*q)->next) {
        Block *b = *q;
        if (b->ptr == ptr) {
            *q = b->next;
            owned_count--;
            b->pool->live--;
            return b;
        }
    }
    return NULL;
}

/* An allocation while this thread captures into p: a free block of the pool, a cached one
 * no other stream may still use, or a new one; it is the pool's from now on. The
 * capture is begun in thread-local mode, in which cudaMalloc is refused (it is not
 * recorded, so a graph that relied on it being replayed would be wrong): here it is right,
 * since the pool keeps the memory as long as the graph, and it runs in relaxed mode. The
 * cache is not emptied when cudaMalloc fails (cudaFree is not allowed while capturing): the
 * allocation fails, and so does the capture. */
static void *pool_alloc(TsCudaPool *p, size_t size, int dev)
{
    pthread_mutex_lock(&lock);
    Block *b = take_from(&p->free, size, dev, true);
    if (!b)
        b = take_from(&buckets[bucket_of(size, dev)], size, dev, true);
    if (!b) {
        Block *r = new_record();
        pthread_mutex_unlock(&lock);
        if (!r)
            return NULL;
        void *ptr = NULL;
        enum cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
        bool swapped = cudaThreadExchangeStreamCaptureMode(&mode) == cudaSuccess;
        cudaError_t rc = cudaMalloc(&ptr, size);
        if (swapped)
            (void)cudaThreadExchangeStreamCaptureMode(&mode);
        pthread_mutex_lock(&lock);
        if (rc != cudaSuccess) {
            (void)cudaGetLastError();
            r->next = spare;
            spare = r;
            pthread_mutex_unlock(&lock);
            return NULL;
        }
        r->ptr = ptr;
        r->size = size;
        r->device = dev;
        b = r;
    }
    own(b, p);
    void *ptr = b->ptr;
    pthread_mutex_unlock(&lock);
    return ptr;
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
    if (capturing)
        return pool_alloc(capturing, size, dev);
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

/* A freed block goes to its pool when it is a live pool block, or when this thread
 * captures (the graph may read it: it becomes the capture's pool's); else to the cache. */
static void cuda_free(TsAllocator *self, void *ptr, size_t nbytes, TsDevice device)
{
    (void)self;
    if (!ptr)
        return;
    size_t size = round_size(nbytes);
    pthread_mutex_lock(&lock);
    count_thread();
    Block *b = owned_count ? disown(ptr) : NULL;
    TsCudaPool *pool = b ? b->pool : capturing;
    if (!b && (b = new_record()) == NULL) {
        pthread_mutex_unlock(&lock);
        if (!pool) {
            (void)cudaFree(ptr);   /* no record to keep it in: give it back */
            (void)cudaGetLastError();
        }                          /* (lost under a capture, where cudaFree fails) */
        return;
    }
    b->ptr = ptr;
    b->size = size;
    b->device = device.index < 0 ? 0 : device.index;
    b->thread = pthread_self();
    b->anyones = false;
    b->recorded = false;
    b->pool = NULL;
    if (pool) {
        b->next = pool->free;
        pool->free = b;
        pthread_mutex_unlock(&lock);
        return;
    }
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

/* ---- capture pools ------------------------------------------------------------------ */

TsCudaPool *ts_cuda_pool_new(void)
{
    TsCudaPool *p = calloc(1, sizeof *p);
    if (p)
        (void)ts_cuda_alloc_shared();   /* counted now: never while capturing */
    return p;
}

void ts_cuda_pool_capture(TsCudaPool *p)
{
    capturing = p;
}

TsCudaPool *ts_cuda_pool_capturing(void)
{
    return capturing;
}

bool ts_cuda_pool_owns(TsCudaPool *p, const void *ptr)
{
    bool found = false;
    pthread_mutex_lock(&lock);
    for (Block *b = owned[owned_slot(ptr)]; b && !found; b = b->next)
        found = b->ptr == ptr && b->pool == p;
    pthread_mutex_unlock(&lock);
    return found;
}

bool ts_cuda_alloc_shared(void)
{
    pthread_mutex_lock(&lock);
    count_thread();
    bool s = shared;
    pthread_mutex_unlock(&lock);
    return s;
}

void ts_cuda_pool_free(TsCudaPool *p, pthread_t user)
{
    if (!p)
        return;
    if (capturing == p)
        capturing = NULL;
    pthread_mutex_lock(&lock);
    while (p->free) {
        Block *b = p->free;
        p->free = b->next;
        b->thread = user;
        b->anyones = false;
        b->recorded = false;
        size_t k = bucket_of(b->size, b->device);
        b->next = buckets[k];
        buckets[k] = b;
    }
    for (size_t i = 0; i < NBUCKETS && p->live; i++) {
        for (Block **q = &owned[i]; *q;) {
            Block *b = *q;
            if (b->pool != p) {
                q = &b->next;
                continue;
            }
            *q = b->next;          /* its tensor frees it to the cache, as any block */
            owned_count--;
            p->live--;
            b->ptr = NULL;
            b->pool = NULL;
            b->next = spare;
            spare = b;
        }
    }
    pthread_mutex_unlock(&lock);
    free(p);
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

TsAllocator ts_cuda_allocator = { "cuda", cuda_alloc, cuda_free, NULL, cuda_copy, cuda_why,
                                   &ts_cuda_capture_ops };

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
