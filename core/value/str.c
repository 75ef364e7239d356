/* str.c — TsStr, the immutable string: a length, the cached hash, the bytes and a NUL, in
 * one allocation.
 *
 * Strings are UTF-8 and may contain NUL bytes (the length is authoritative; the trailing NUL
 * is for C callers). Small strings (nearly all of them: keys, names, str(i)) come from the
 * per-thread size-class cache in objcache.c, which turns the allocate-and-free of a string
 * built and dropped in a loop into a few loads and stores.
 *
 * The hash is computed on first use and kept in the string: a dict key is hashed once, not
 * on every lookup, rehash or copy of its dict. Strings are shared between threads, so two
 * threads may compute it at once; both store the same value, through a relaxed atomic
 * (0 means "not yet": a hash that comes out 0 is stored as 1).
 */
#include <stdlib.h>
#include <string.h>

#include "value/heap.h"
#include "value/objcache.h"

TsStr *ts_str_alloc(size_t len, TsError *err)
{
    if (len > ((size_t)-1) - sizeof(TsStr) - 1) {
        ts_error_set(err, TS_ERR_LIMIT, "string of %zu bytes is too long", len);
        return NULL;
    }
    TsStr *s = ts_small_alloc(sizeof(TsStr) + len + 1);
    if (!s) {
        ts_error_set(err, TS_ERR_NOMEM, "out of memory allocating a string of %zu bytes", len);
        return NULL;
    }
    ts_heap_init(&s->h, TS_TAG_STR);
    s->len = len;
    s->hash_ = 0;
    s->data[len] = 0;
    return s;
}

TsStr *ts_str_new(const char *data, size_t len, TsError *err)
{
    TsStr *s = ts_str_alloc(len, err);
    if (s && len)
        memcpy(s->data, data, len);
    return s;
}

/* Frees a string whose count reached zero (value.c). */
void ts_str_free(TsStr *s)
{
    ts_small_free(s, sizeof(TsStr) + s->len + 1);
}

TsStr *ts_str_from_cstr(const char *s, TsError *err)
{
    return ts_str_new(s, strlen(s), err);
}

TsValue ts_str_value(TsStr *s)
{
    return ts_obj_value(s, TS_TAG_STR);
}

/* Eight bytes at a time, each word mixed by multiply and rotate, then a final avalanche.
 * Not cryptographic; dict keys come from programs, not from attackers. */
static uint64_t hash_bytes(const unsigned char *p, size_t n)
{
    const uint64_t k = 0x9ddfea08eb382d69ULL;
    uint64_t h = 0xcbf29ce484222325ULL ^ (n * k);
    while (n >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h ^= w * k;
        h = (h << 29 | h >> 35) * 0x100000001b3ULL;
        p += 8;
        n -= 8;
    }
    /* the last n < 8 bytes without a loop: two overlapping 4-byte loads, or the first,
     * middle and last byte of 1 to 3 (either way every byte counts) */
    uint64_t tail = 0;
    if (n >= 4) {
        uint32_t lo, hi;
        memcpy(&lo, p, 4);
        memcpy(&hi, p + n - 4, 4);
        tail = lo | (uint64_t)hi << 32;
    } else if (n > 0) {
        tail = p[0] | (uint64_t)p[n / 2] << 8 | (uint64_t)p[n - 1] << 16;
    }
    h ^= tail * k;
    h ^= h >> 32;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 29;
    h *= 0x94d049bb133111ebULL;
    h ^= h >> 32;
    return h;
}

uint64_t ts_str_hash(const TsStr *s)
{
    /* the string is never in read-only memory: only ts_str_alloc makes them */
    uint64_t *slot = (uint64_t *)&s->hash_;
    uint64_t h = __atomic_load_n(slot, __ATOMIC_RELAXED);
    if (h)
        return h;
    h = hash_bytes((const unsigned char *)s->data, s->len);
    h += h == 0;
    __atomic_store_n(slot, h, __ATOMIC_RELAXED);
    return h;
}
