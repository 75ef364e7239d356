/* dict.c — TsDict, PyTorch's Dict[K, V]: a hash table that remembers insertion order.
 *
 * The layout is CPython's compact dict: entries live in a dense array in insertion order,
 * and a separate open-addressing index (a power of two of slots) maps a hash to an entry's
 * position. Deleting leaves a hole in the entries (a tombstone, key tagged UNINIT) and a
 * DELETED mark in the index, so iteration order survives deletes; holes are squeezed out
 * when the entries array is rebuilt. The index stays at most 2/3 full, so probes end.
 *
 * Keys are hashed and compared with ts_value_hash / ts_value_equal (int and str keys inline).
 * A hint, the entry the last lookup found or inserted, lets the usual get-then-set of one
 * key skip the second hash and probe, and lookups in insertion order skip the index (see
 * find_entry). Functions that take references take them even when they fail.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "value/heap.h"
#include "value/objcache.h"

/* What find_slot and find_entry return for "absent". */
#define SLOT_EMPTY ((size_t)-1)
/* What an index slot holds besides an entry's position: 32 bits, so the index (the part
 * of a dict touched at random) is half the memory; a dict has fewer than 2^32 slots. */
#define IX_EMPTY UINT32_MAX
#define IX_DELETED (UINT32_MAX - 1)
#define MAX_SLOTS ((size_t)1 << 31)
#define MIN_SLOTS 8

/* The key comparisons run on every lookup: a call per comparison cost more than the
 * comparison (GCC declined to inline them once they grew). */
#if defined(__GNUC__)
#define HOT_INLINE inline __attribute__((always_inline))
#else
#define HOT_INLINE inline
#endif

typedef struct DictEntry {
    uint64_t hash;
    TsValue key;           /* tag TS_TAG_UNINIT: a deleted entry */
    TsValue value;
} DictEntry;

struct TsDict {
    TsHeap h;
    const TsType *key_type, *value_type;
    size_t len;            /* live entries */
    size_t used;           /* entries[0..used) hold live entries and tombstones */
    size_t cap;            /* entries allocated: nslots * 2 / 3 */
    DictEntry *entries;
    size_t nslots;         /* 0 until the first insert, then a power of two */
    uint32_t *index;       /* entry positions, IX_EMPTY or IX_DELETED */
    _Atomic size_t last;   /* the entry last found or added: a hint, see find_entry() */
};

TsDict *ts_dict_new(const TsType *key_type, const TsType *value_type, TsError *err)
{
    TsDict *d = ts_small_alloc(sizeof *d);
    if (d)
        memset(d, 0, sizeof *d);
    if (!d) {
        ts_error_set(err, TS_ERR_NOMEM, "out of memory allocating a dict");
        return NULL;
    }
    ts_heap_init(&d->h, TS_TAG_DICT);
    atomic_init(&d->last, 0);
    d->key_type = key_type;
    d->value_type = value_type;
    return d;
}

const TsType *ts_dict_key_type(const TsDict *d) { return d->key_type; }

const TsType *ts_dict_value_type(const TsDict *d) { return d->value_type; }
size_t ts_dict_len(const TsDict *d) { return d->len; }

void ts_dict_set_types(TsDict *d, const TsType *key_type, const TsType *value_type)
{
    d->key_type = key_type;
    d->value_type = value_type;
}

static bool is_live(const DictEntry *e)
{
    return e->key.tag != TS_TAG_UNINIT;
}

/* The first n bytes of p and q alike. Short keys (the usual ones) take no call: words
 * compared whole, the last one overlapping the one before it. */
static HOT_INLINE bool bytes_equal(const char *p, const char *q, size_t n)
{
    uint64_t a, b;
    if (n >= 8) {
        if (n > 32)
            return memcmp(p, q, n) == 0;
        for (size_t i = 0; i + 8 < n; i += 8) {
            memcpy(&a, p + i, 8);
            memcpy(&b, q + i, 8);
            if (a != b)
                return false;
        }
        memcpy(&a, p + n - 8, 8);
        memcpy(&b, q + n - 8, 8);
        return a == b;
    }
    if (n >= 4) {
        uint32_t x, y, u, v;
        memcpy(&x, p, 4);
        memcpy(&y, q, 4);
        memcpy(&u, p + n - 4, 4);
        memcpy(&v, q + n - 4, 4);
        return x == y && u == v;
    }
    for (size_t i = 0; i < n; i++)
        if (p[i] != q[i])
            return false;
    return true;
}

/* Equal strings; two whose hashes are both known and differ are not (the cached hashes
 * turn most failed comparisons into one compare). */
static HOT_INLINE bool str_equal(const TsStr *x, const TsStr *y)
{
    if (x == y)
        return true;
    if (x->len != y->len)
        return false;
    uint64_t hx = __atomic_load_n(&x->hash_, __ATOMIC_RELAXED);
    uint64_t hy = __atomic_load_n(&y->hash_, __ATOMIC_RELAXED);
    if (hx && hy && hx != hy)
        return false;
    return bytes_equal(x->data, y->data, x->len);
}

/* A key's hash: a string's is cached in it (str.c), ints' is inline in ts_value_hash. */
static HOT_INLINE uint64_t key_hash(TsValue key)
{
    if (key.tag == TS_TAG_STR)
        return ts_str_hash((const TsStr *)key.u.p);
    return ts_value_hash(key);
}

static HOT_INLINE bool keys_equal(TsValue a, TsValue b)
{
    if (a.tag == TS_TAG_INT && b.tag == TS_TAG_INT)       /* the common keys, inline */
        return a.u.i == b.u.i;
    if (a.tag == TS_TAG_STR && b.tag == TS_TAG_STR)
        return str_equal((const TsStr *)a.u.p, (const TsStr *)b.u.p);
    return ts_value_is(a, b) || ts_value_equal(a, b);
}

static void remember(const TsDict *d, size_t ix)
{
    atomic_store_explicit(&((TsDict *)d)->last, ix, memory_order_relaxed);
}

/* Finds key: returns its index slot, or SLOT_EMPTY when absent. */
static size_t find_slot(const TsDict *d, TsValue key, uint64_t hash)
{
    if (d->nslots == 0)
        return SLOT_EMPTY;
    size_t mask = d->nslots - 1, i = (size_t)hash & mask;
    uint64_t perturb = hash;
    for (;;) {
        uint32_t ix = d->index[i];
        if (ix == IX_EMPTY)
            return SLOT_EMPTY;
        if (ix != IX_DELETED) {
            const DictEntry *e = &d->entries[ix];
            if (e->hash == hash && keys_equal(e->key, key))
                return i;
        }
        perturb >>= 5;
        i = (i * 5 + 1 + (size_t)perturb) & mask;
    }
}

/* The entry of key, or SLOT_EMPTY; *hash is key's hash. Two hints come before the index,
 * both checking themselves against the stored key, so rebuilds and deletes never make them
 * wrong (a moved or deleted entry just fails the check):
 *
 *   - the entry the last lookup found: `d[k] = d.get(k, 0) + 1` looks the same key up twice,
 *     and the second lookup then needs no probe (and no hashing: a string keeps its hash);
 *   - the entry after it: keys looked up in insertion order (`for k in d.keys(): d[k]`, or
 *     updates replayed in the order they were first made) then skip the index, whose slots
 *     are the one random memory access of a lookup. A miss costs a hash compare on the
 *     cache line the last lookup brought in.
 *
 * The hint is atomic only because readers on several threads may update it at once. */
static size_t find_entry(const TsDict *d, TsValue key, uint64_t *hash)
{
    /* the hash first: a string caches it (the set after a get finds it there), and a
     * hint that is not the key then fails on one compare instead of the key's bytes */
    uint64_t h = *hash = key_hash(key);
    size_t last = atomic_load_explicit(&d->last, memory_order_relaxed);
    if (last < d->used && d->entries[last].hash == h && keys_equal(d->entries[last].key, key))
        return last;
    size_t ix = last + 1;
    if (ix < d->used && d->entries[ix].hash == h && keys_equal(d->entries[ix].key, key)) {
        remember(d, ix);
        return ix;
    }
    size_t slot = find_slot(d, key, h);
    if (slot == SLOT_EMPTY)
        return SLOT_EMPTY;
    remember(d, d->index[slot]);
    return d->index[slot];
}

/* The first empty slot on hash's probe path (the table has no key equal to the one added). */
static size_t free_slot(const TsDict *d, uint64_t hash)
{
    size_t mask = d->nslots - 1, i = (size_t)hash & mask;
    uint64_t perturb = hash;
    while (d->index[i] != IX_EMPTY) {
        perturb >>= 5;
        i = (i * 5 + 1 + (size_t)perturb) & mask;
    }
    return i;
}

/* The bytes allocated for cap entries and for an index of nslots: a big array in whole huge
 * pages (ts_big_grow_size), as the dict fills its entries in order and the index at random:
 * a 2 MB stretch first touched in small pages stays in them (the entries of a 50k-key dict
 * took 400 faults). The sizes are recomputed wherever an array is freed or resized. */
static size_t entries_bytes(size_t cap) { return ts_big_grow_size(cap * sizeof(DictEntry)); }
static size_t index_bytes(size_t nslots) { return ts_big_grow_size(nslots * sizeof(uint32_t)); }

/* Fills index (nslots of them) from entries[0..used). */
static void reindex(TsDict *d)
{
    memset(d->index, 0xff, d->nslots * sizeof *d->index);   /* IX_EMPTY */
    for (size_t i = 0; i < d->used; i++)
        d->index[free_slot(d, d->entries[i].hash)] = (uint32_t)i;
}

/* Rebuilds entries (without tombstones) and index with room for at least need entries.
 * The entries are squeezed in place and then resized (ts_big_realloc): a big dict's array
 * moves by remapping, not by copying into fresh pages. The squeeze comes first, as the new
 * array may be smaller than the old one's used part (after many deletes). On failure the dict
 * holds what it held (perhaps squeezed), with an index to match. */
static int rebuild(TsDict *d, size_t need, TsError *err)
{
    size_t nslots = MIN_SLOTS;
    while (nslots / 3 * 2 < need) {
        if (nslots >= MAX_SLOTS)
            return ts_error_set(err, TS_ERR_LIMIT, "dict of %zu entries is too large", need);
        nslots *= 2;
    }
    size_t cap = nslots / 3 * 2;
    uint32_t *index = ts_big_realloc(NULL, 0, index_bytes(nslots));
    if (!index)
        goto nomem;
    size_t n = 0;
    for (size_t i = 0; i < d->used; i++)
        if (is_live(&d->entries[i]))
            d->entries[n++] = d->entries[i];
    d->used = n;
    DictEntry *entries = ts_big_realloc(d->entries, entries_bytes(d->cap), entries_bytes(cap));
    if (!entries) {
        ts_big_free(index, index_bytes(nslots));
        if (d->nslots)
            reindex(d);        /* the old index, over the squeezed entries */
        goto nomem;
    }
    ts_big_free(d->index, index_bytes(d->nslots));
    d->entries = entries;
    d->index = index;
    d->nslots = nslots;
    d->cap = cap;
    reindex(d);
    return 0;
nomem:
    return ts_error_set(err, TS_ERR_NOMEM, "out of memory growing a dict to %zu entries", need);
}

int ts_dict_set(TsDict *d, TsValue key, TsValue value, TsError *err)
{
    uint64_t hash;
    size_t hit = find_entry(d, key, &hash);
    if (hit != SLOT_EMPTY) {
        TsValue old = d->entries[hit].value;
        d->entries[hit].value = value;
        ts_value_release(key);
        ts_value_release(old);
        return 0;
    }
    /* Full: compact, and double when most entries are live. */
    if (d->used == d->cap && rebuild(d, d->len < 4 ? 5 : d->len * 2, err)) {
        ts_value_release(key);
        ts_value_release(value);
        return err ? err->code : TS_ERR_NOMEM;
    }
    size_t ix = d->used++;
    d->entries[ix] = (DictEntry){hash, key, value};
    d->index[free_slot(d, hash)] = (uint32_t)ix;
    d->len++;
    remember(d, ix);
    return 0;
}

bool ts_dict_get(const TsDict *d, TsValue key, TsValue *out)
{
    uint64_t hash;
    size_t ix = find_entry(d, key, &hash);
    if (ix == SLOT_EMPTY)
        return false;
    if (out)
        *out = d->entries[ix].value;
    return true;
}

bool ts_dict_delete(TsDict *d, TsValue key, TsValue *out)
{
    size_t slot = find_slot(d, key, key_hash(key));
    if (slot == SLOT_EMPTY)
        return false;
    DictEntry *e = &d->entries[d->index[slot]];
    d->index[slot] = IX_DELETED;
    TsValue k = e->key, v = e->value;
    e->key = ts_uninit();
    e->value = ts_none();
    d->len--;
    ts_value_release(k);
    if (out)
        *out = v;
    else
        ts_value_release(v);
    return true;
}

/* Detaches the table first, so a destroy callback that looks at d sees it empty. */
void ts_dict_clear(TsDict *d)
{
    DictEntry *entries = d->entries;
    size_t used = d->used, cap = d->cap;
    ts_big_free(d->index, index_bytes(d->nslots));
    d->entries = NULL;
    d->index = NULL;
    d->len = d->used = d->cap = d->nslots = 0;
    for (size_t i = 0; i < used; i++) {
        if (is_live(&entries[i])) {
            ts_value_release(entries[i].key);
            ts_value_release(entries[i].value);
        }
    }
    ts_big_free(entries, entries_bytes(cap));
}

bool ts_dict_next(const TsDict *d, size_t *pos, TsValue *key, TsValue *value)
{
    while (*pos < d->used) {
        const DictEntry *e = &d->entries[(*pos)++];
        if (is_live(e)) {
            if (key)
                *key = e->key;
            if (value)
                *value = e->value;
            return true;
        }
    }
    return false;
}

void ts_dict_destroy(TsDict *d, TsFreeList *fl)
{
    for (size_t i = 0; i < d->used; i++) {
        if (is_live(&d->entries[i])) {
            ts_value_drop(fl, d->entries[i].key);
            ts_value_drop(fl, d->entries[i].value);
        }
    }
    ts_big_free(d->entries, entries_bytes(d->cap));
    ts_big_free(d->index, index_bytes(d->nslots));
    ts_small_free(d, sizeof *d);
}
