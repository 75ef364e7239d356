/* objcache.c — per-thread caches of freed tensor and storage headers, and of small blocks.
 *
 * Every tensor operator allocates a result tensor and its storage and, a few operators
 * later, frees both. At small sizes (an LSTM step at batch 1) that malloc/free churn was a
 * sixth of the run time: malloc's own per-thread cache keeps only seven blocks of a size,
 * fewer than one step frees at once. A freed header goes onto the freeing thread's list
 * here (up to CACHE_MAX of each kind) and the next allocation on that thread takes it back.
 * A thread's lists are freed when it exits.
 *
 * Small blocks (strings, list and dict headers, tuples, complex numbers: up to TS_SMALL_MAX
 * bytes) are cached the same way, one list per TS_SMALL_STEP-byte size class. A str-keyed
 * dict update builds a key string and frees it (or the one it replaces) every iteration;
 * through malloc and free that pair cost more instructions than the update itself. A block
 * freed on another thread than the one that allocated it simply joins the freeing thread's
 * list: every block is a malloc block, so whichever thread ends up holding it may free it.
 * Under AddressSanitizer the caches are off, so
 * that a use after free stays a report rather than a silently reused block.
 */
#include <pthread.h>
#include <stdlib.h>

#include "value/objcache.h"

#if defined(__SANITIZE_ADDRESS__)
#define CACHE_MAX 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CACHE_MAX 0
#endif
#endif
#ifndef CACHE_MAX
#define CACHE_MAX 64
#endif

#define SMALL_CLASSES (TS_SMALL_MAX / TS_SMALL_STEP)
#define SMALL_CACHE_MAX (CACHE_MAX * 4)

/* A cached small block's first bytes: the link to the next one of its class (kept in the
 * blocks, so the thread-local part stays a few hundred bytes of static TLS). */
typedef struct SmallBlock {
    struct SmallBlock *next;
} SmallBlock;

typedef struct Cache {
    int n[TS_OBJ_KINDS];
    void *items[TS_OBJ_KINDS][CACHE_MAX > 0 ? CACHE_MAX : 1];
    int small_n[SMALL_CLASSES];
    SmallBlock *small[SMALL_CLASSES];  /* linked through the blocks themselves */
    bool registered;           /* the thread-exit destructor knows this cache */
} Cache;

static const size_t kind_size[TS_OBJ_KINDS] = { sizeof(TsTensor), sizeof(TsStorage) };
static _Thread_local Cache cache __attribute__((tls_model("initial-exec")));
static pthread_key_t exit_key;
static pthread_once_t exit_once = PTHREAD_ONCE_INIT;
static bool have_key;

static void flush(void *p)
{
    Cache *c = p;
    for (int k = 0; k < TS_OBJ_KINDS; k++) {
        while (c->n[k] > 0)
            free(c->items[k][--c->n[k]]);
    }
    for (int k = 0; k < SMALL_CLASSES; k++) {
        while (c->small[k]) {
            SmallBlock *b = c->small[k];
            c->small[k] = b->next;
            free(b);
        }
        c->small_n[k] = 0;
    }
    c->registered = false;
}

static void make_key(void)
{
    have_key = pthread_key_create(&exit_key, flush) == 0;
}

void *ts_objcache_get(TsObjKind kind)
{
    Cache *c = &cache;
    if (c->n[kind] > 0)
        return c->items[kind][--c->n[kind]];
    return malloc(kind_size[kind]);
}

/* Whether the thread-exit destructor knows c (registering it on first use): false when it
 * cannot, and then nothing may be kept. pthread_setspecific may allocate. */
static bool registered(Cache *c)
{
    if (c->registered)
        return true;
    pthread_once(&exit_once, make_key);
    if (!have_key || pthread_setspecific(exit_key, c) != 0)
        return false;
    c->registered = true;
    return true;
}

void ts_objcache_put(TsObjKind kind, void *p)
{
    Cache *c = &cache;
    if (c->n[kind] >= CACHE_MAX || !registered(c)) {
        free(p);
        return;
    }
    c->items[kind][c->n[kind]++] = p;
}

/* The class of an n-byte block (n >= 1): blocks of class k are (k + 1) * STEP bytes. */
static inline size_t small_class(size_t n)
{
    return (n - 1) / TS_SMALL_STEP;
}

void *ts_small_alloc(size_t n)
{
    if (n == 0 || n > TS_SMALL_MAX)
        return malloc(n ? n : 1);
    size_t k = small_class(n);
    Cache *c = &cache;
    SmallBlock *b = c->small[k];
    if (b) {
        c->small[k] = b->next;
        c->small_n[k]--;
        return b;
    }
    return malloc((k + 1) * TS_SMALL_STEP);
}

void ts_small_free(void *p, size_t n)
{
    if (!p)
        return;
    if (n == 0 || n > TS_SMALL_MAX) {
        free(p);
        return;
    }
    size_t k = small_class(n);
    Cache *c = &cache;
    if (c->small_n[k] >= SMALL_CACHE_MAX || !registered(c)) {
        free(p);
        return;
    }
    SmallBlock *b = p;
    b->next = c->small[k];
    c->small[k] = b;
    c->small_n[k]++;
}

void ts_objcache_flush(void)
{
    flush(&cache);
}
