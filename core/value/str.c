/* str.c — TsStr, the immutable string: a length, the bytes and a NUL, in one allocation.
 *
 * Strings are UTF-8 and may contain NUL bytes (the length is authoritative; the trailing NUL
 * is for C callers). The hash is computed on demand: the struct has no room to cache it and
 * most strings are never hashed.
 */
#include <stdlib.h>
#include <string.h>

#include "value/heap.h"

TsStr *ts_str_new(const char *data, size_t len, TsError *err)
{
    if (len > ((size_t)-1) - sizeof(TsStr) - 1) {
        ts_error_set(err, TS_ERR_LIMIT, "string of %zu bytes is too long", len);
        return NULL;
    }
    TsStr *s = malloc(sizeof(TsStr) + len + 1);
    if (!s) {
        ts_error_set(err, TS_ERR_NOMEM, "out of memory allocating a string of %zu bytes", len);
        return NULL;
    }
    ts_heap_init(&s->h, TS_TAG_STR);
    s->len = len;
    if (len)
        memcpy(s->data, data, len);
    s->data[len] = 0;
    return s;
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
uint64_t ts_str_hash(const TsStr *s)
{
    const uint64_t k = 0x9ddfea08eb382d69ULL;
    const unsigned char *p = (const unsigned char *)s->data;
    size_t n = s->len;
    uint64_t h = 0xcbf29ce484222325ULL ^ (n * k);
    while (n >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h ^= w * k;
        h = (h << 29 | h >> 35) * 0x100000001b3ULL;
        p += 8;
        n -= 8;
    }
    uint64_t tail = 0;         /* the last n < 8 bytes, little-endian; no memcpy call */
    while (n > 0) {
        n--;
        tail = tail << 8 | p[n];
    }
    h ^= tail * k;
    h ^= h >> 32;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 29;
    h *= 0x94d049bb133111ebULL;
    h ^= h >> 32;
    return h;
}
