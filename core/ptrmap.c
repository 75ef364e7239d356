/* ptrmap.c — pointer-keyed hash map with linear probing, kept at most half full. */
#include "ptrmap.h"

#include <stdlib.h>

static size_t slot(const void *p, size_t cap)
{
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return (size_t)x & (cap - 1);
}

bool ts_ptrmap_get(const TsPtrMap *m, const void *key, uintptr_t *val)
{
    if (!m->cap)
        return false;
    for (size_t i = slot(key, m->cap); m->keys[i]; i = (i + 1) & (m->cap - 1))
        if (m->keys[i] == key) {
            if (val)
                *val = m->vals[i];
            return true;
        }
    return false;
}

static int grow(TsPtrMap *m)
{
    size_t cap = m->cap ? 2 * m->cap : 64;
    const void **keys = calloc(cap, sizeof *keys);
    uintptr_t *vals = calloc(cap, sizeof *vals);
    if (!keys || !vals) {
        free(keys);
        free(vals);
        return -1;
    }
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->keys[i])
            continue;
        size_t j = slot(m->keys[i], cap);
        while (keys[j])
            j = (j + 1) & (cap - 1);
        keys[j] = m->keys[i];
        vals[j] = m->vals[i];
    }
    free(m->keys);
    free(m->vals);
    m->keys = keys;
    m->vals = vals;
    m->cap = cap;
    return 0;
}

int ts_ptrmap_put(TsPtrMap *m, const void *key, uintptr_t val)
{
    if (ts_ptrmap_get(m, key, NULL))
        return 1;
    if (2 * (m->n + 1) > m->cap && grow(m))
        return -1;
    size_t i = slot(key, m->cap);
    while (m->keys[i])
        i = (i + 1) & (m->cap - 1);
    m->keys[i] = key;
    m->vals[i] = val;
    m->n++;
    return 0;
}

bool ts_ptrmap_set(TsPtrMap *m, const void *key, uintptr_t val)
{
    if (!m->cap)
        return false;
    for (size_t i = slot(key, m->cap); m->keys[i]; i = (i + 1) & (m->cap - 1))
        if (m->keys[i] == key) {
            m->vals[i] = val;
            return true;
        }
    return false;
}

bool ts_ptrmap_next(const TsPtrMap *m, size_t *pos, const void **key, uintptr_t *val)
{
    for (; *pos < m->cap; (*pos)++)
        if (m->keys[*pos]) {
            *key = m->keys[*pos];
            *val = m->vals[*pos];
            (*pos)++;
            return true;
        }
    return false;
}

void ts_ptrmap_free(TsPtrMap *m)
{
    free(m->keys);
    free(m->vals);
    m->keys = NULL;
    m->vals = NULL;
    m->cap = m->n = 0;
}
