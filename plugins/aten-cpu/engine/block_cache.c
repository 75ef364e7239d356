/* block_cache.c — large CPU blocks kept for the next tensor of their size instead of going
 * back to the system.
 *
 * glibc serves a block past its mmap threshold (128 KB at first, rising as such blocks are
 * freed) from a fresh mapping, and gives the top of its heap back once enough of it is free,
 * so a model that allocates the same activations on every call has the kernel zero and fault
 * in every page of them again each time: ~12% of a TransformerEncoder call here, more for a
 * convolution network's larger maps. Inference repeats its sizes exactly, so blocks of
 * BLOCK_MIN bytes and more are rounded up to a size class (four per power of two: at most a
 * quarter more than asked) and, when freed, wait on their class's list for the next
 * allocation of that class. A model's memory then settles at its largest live set plus that
 * rounding, which is what it needed anyway; the lists hold CACHE_MAX bytes at most (past it a
 * block is freed), and are emptied when an allocation fails, before it is retried, and when
 * the plugin unloads. One lock guards the lists: only large blocks pass through it, a few
 * per operator call. Off under AddressSanitizer, which must see each block freed.
 * Blocks of TS_BIG_MIN bytes and more come from ts_big_alloc (core/value/bigmem.c), in
 * huge pages, so that even a model's first call faults once per 2 MB of activations.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "engine/block_cache.h"
#include "tscript/value.h"

#ifdef __has_feature                      /* clang's way of saying it */
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(UNDER_ASAN)
#define CACHE_MAX 0
#else
#define CACHE_MAX ((size_t)256 << 20)
#endif

#define BLOCK_MIN ((size_t)128 << 10)
#define MIN_LOG2 17                       /* log2(BLOCK_MIN) */
#define MAX_LOG2 47                       /* classes up to 128 TB: past it, plain malloc */
#define N_CLASSES ((MAX_LOG2 - MIN_LOG2 + 1) * 4)

/* A free block's first bytes link it to the next of its class. */
typedef struct Free {
    struct Free *next;
} Free;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static Free *lists[N_CLASSES];
static size_t cached;                     /* bytes on the lists, under lock */

/* The class of n bytes (n >= BLOCK_MIN) and its size; -1 past the largest class. */
static int class_of(size_t n, size_t *size)
{
    int k = 63 - __builtin_clzll((unsigned long long)n);   /* 2^k <= n < 2^(k+1) */
    if (k > MAX_LOG2)
        return -1;
    size_t step = ((size_t)1 << k) / 4;
    size_t q = (n - ((size_t)1 << k) + step - 1) / step;     /* 0..4 quarters above 2^k */
    if (q == 4) {
        if (++k > MAX_LOG2)
            return -1;
        q = 0;
        step *= 2;
    }
    *size = ((size_t)1 << k) + q * step;
    return (k - MIN_LOG2) * 4 + (int)q;
}

/* The size of class c's blocks. */
static size_t class_size(int c)
{
    size_t base = (size_t)1 << (c / 4 + MIN_LOG2);
    return base + (size_t)(c % 4) * (base / 4);
}

void *ts_cpu_block_alloc(size_t n)
{
    size_t size = n;
    int c = n >= BLOCK_MIN && CACHE_MAX ? class_of(n, &size) : -1;
    if (c >= 0) {
        pthread_mutex_lock(&lock);
        Free *f = lists[c];
        if (f) {
            lists[c] = f->next;
            cached -= size;
        }
        pthread_mutex_unlock(&lock);
        if (f)
            return f;
    }
    void *p = ts_big_alloc(size);
    if (!p && cached) {
        ts_cpu_block_drain();
        p = ts_big_alloc(size);
    }
    return p;
}

void ts_cpu_block_free(void *p, size_t n)
{
    size_t size = n;
    int c = p && n >= BLOCK_MIN && CACHE_MAX ? class_of(n, &size) : -1;
    if (c >= 0) {
        pthread_mutex_lock(&lock);
        bool room = cached + size <= CACHE_MAX;
        if (room) {
            Free *f = p;
            f->next = lists[c];
            lists[c] = f;
            cached += size;
        }
        pthread_mutex_unlock(&lock);
        if (room)
            return;
    }
    ts_big_free(p, size);
}

size_t ts_cpu_block_cached(void)
{
    pthread_mutex_lock(&lock);
    size_t n = cached;
    pthread_mutex_unlock(&lock);
    return n;
}

void ts_cpu_block_drain(void)
{
    pthread_mutex_lock(&lock);
    Free *all[N_CLASSES];
    for (int c = 0; c < N_CLASSES; c++) {
        all[c] = lists[c];
        lists[c] = NULL;
    }
    cached = 0;
    pthread_mutex_unlock(&lock);
    for (int c = 0; c < N_CLASSES; c++)
        while (all[c]) {
            Free *next = all[c]->next;
            ts_big_free(all[c], class_size(c));
            all[c] = next;
        }
}
