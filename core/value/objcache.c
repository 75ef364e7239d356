/* objcache.c — per-thread caches of freed tensor and storage headers.
 *
 * Every tensor operator allocates a result tensor and its storage and, a few operators
 * later, frees both. At small sizes (an LSTM step at batch 1) that malloc/free churn was a
 * sixth of the run time: malloc's own per-thread cache keeps only seven blocks of a size,
 * fewer than one step frees at once. A freed header goes onto the freeing thread's list
 * here (up to CACHE_MAX of each kind) and the next allocation on that thread takes it back.
 * A thread's lists are freed when it exits. Under AddressSanitizer the caches are off, so
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

typedef struct Cache {
    int n[TS_OBJ_KINDS];
    void *items[TS_OBJ_KINDS][CACHE_MAX > 0 ? CACHE_MAX : 1];
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

void ts_objcache_put(TsObjKind kind, void *p)
{
    Cache *c = &cache;
    if (c->n[kind] >= CACHE_MAX) {
        free(p);
        return;
    }
    if (!c->registered) {
        /* pthread_setspecific may allocate: if it cannot, the block is freed, not kept */
        pthread_once(&exit_once, make_key);
        if (!have_key || pthread_setspecific(exit_key, c) != 0) {
            free(p);
            return;
        }
        c->registered = true;
    }
    c->items[kind][c->n[kind]++] = p;
}

void ts_objcache_flush(void)
{
    flush(&cache);
}
