/* bigmem.c — tests of core/value/bigmem.c, the allocator of big lists' and dicts' arrays:
 * every move between malloc's blocks and huge-page mappings (up, down, in place, moved
 * because another mapping sits right after) keeps the bytes, and lists and dicts that grow
 * past the threshold and shrink back keep their items. Run under valgrind and the
 * sanitizers in CI like every test (under ASan the allocator is plain malloc). tensors'
 * big blocks (aten-cpu's block cache) are tested by t/block_cache.t.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "tap.h"
#include "tscript/value.h"
#include "value/heap.h"

#ifdef __has_feature
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(UNDER_ASAN)
#define HUGE_MAPPINGS 0      /* bigmem.c is plain malloc there */
#else
#define HUGE_MAPPINGS 1
#endif

static void fill(unsigned char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i += 4093)
        p[i] = (unsigned char)(seed + i / 4093);
    if (n)
        p[n - 1] = (unsigned char)(seed * 7);
}

/* The bytes fill(p, ..., seed) wrote below n; with whole, also its last one at n - 1. */
static bool kept(const unsigned char *p, size_t n, unsigned seed, bool whole)
{
    for (size_t i = 0; i < n; i += 4093)
        if (p[i] != (unsigned char)(seed + i / 4093))
            return false;
    return !whole || n == 0 || p[n - 1] == (unsigned char)(seed * 7);
}

static bool same(const unsigned char *p, size_t n, unsigned seed)
{
    return kept(p, n, seed, true);
}

static void test_moves(void)
{
    const size_t small = 100000, big = TS_BIG_MIN + 12345, bigger = 3 * TS_BIG_MIN + 1;
    unsigned char *p = ts_big_alloc(small);
    ok(p != NULL, "a small block");
    fill(p, small, 1);
    p = ts_big_realloc(p, small, big);
    ok(p && same(p, small, 1), "small -> big keeps the bytes");
    ok(!HUGE_MAPPINGS || ((uintptr_t)p & (TS_BIG_MIN - 1)) == 0,
       "a big block starts at a huge page boundary");
    fill(p, big, 2);
    p = ts_big_realloc(p, big, bigger);
    ok(p && same(p, big, 2), "big -> bigger keeps the bytes");
    fill(p, bigger, 3);

    /* a mapping right after the block: growing cannot stay in place */
    size_t had = (bigger + 4095) & ~(size_t)4095;   /* its mapping: whole pages */
    void *wall = mmap(p + had, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
                      -1, 0);
    unsigned char *q = ts_big_realloc(p, bigger, 5 * TS_BIG_MIN);
    ok(q && same(q, bigger, 3), "growing past a neighbouring mapping moves the block, bytes kept");
    if (wall != MAP_FAILED)
        munmap(wall, 4096);
    p = q;
    fill(p, 5 * TS_BIG_MIN, 4);
    p = ts_big_realloc(p, 5 * TS_BIG_MIN, big);
    ok(p && kept(p, big, 4, false), "big -> smaller big keeps the bytes it still holds");
    p = ts_big_realloc(p, big, small);
    ok(p && kept(p, small, 4, false), "big -> small keeps the bytes it still holds");
    ts_big_free(p, small);
    ts_big_free(NULL, big);
    ok(1, "freeing NULL is a no-op");
}

static void test_list(void)
{
    const size_t n = 400000;   /* 6.4 MB of values: through both allocators */
    TsList *l = ts_list_new(ts_type_int(), 0, NULL);
    bool good = l != NULL;
    for (size_t i = 0; good && i < n; i++)
        good = ts_list_append(l, ts_int((int64_t)i * 3), NULL) == 0;
    for (size_t i = 0; good && i < n; i++)
        good = l->items[i].u.i == (int64_t)i * 3;
    ok(good && l->len == n, "a list grown to %zu ints keeps them all", n);
    ts_list_clear(l);
    ok(l->len == 0 && l->cap == 0 && l->items == NULL, "clear gives a big list's array back");
    good = ts_list_append(l, ts_int(7), NULL) == 0 && l->items[0].u.i == 7;
    ok(good, "a cleared list grows again");
    ts_value_release(ts_obj_value(l, TS_TAG_LIST));
}

/* A growing block asks for whole huge pages once it is past 512 KB, so that no 2 MB
 * stretch of it is first touched as a partial tail (which leaves it in small pages). */
static void test_grow_size(void)
{
    const size_t mb2 = (size_t)2 << 20;
    ok(ts_big_grow_size(0) == 0 && ts_big_grow_size(4096) == 4096 &&
           ts_big_grow_size(((size_t)512 << 10) - 16) == ((size_t)512 << 10) - 16,
       "small sizes are asked for as they are");
    ok(ts_big_grow_size((size_t)512 << 10) == mb2 && ts_big_grow_size(mb2) == mb2 &&
           ts_big_grow_size(mb2 + 1) == 2 * mb2 && ts_big_grow_size(5 * mb2 - 7) == 5 * mb2,
       "big sizes round up to whole 2 MB");
    ok(ts_big_grow_size(SIZE_MAX - 3) == SIZE_MAX - 3, "a size that cannot round is kept");

    TsList *l = ts_list_new(ts_type_int(), 0, NULL);
    bool good = l != NULL, whole = true;
    for (size_t i = 0; good && i < 200000; i++) {
        good = ts_list_append(l, ts_int((int64_t)i), NULL) == 0;
        if (good && l->cap * sizeof *l->items >= ((size_t)512 << 10))
            whole = whole && (l->cap * sizeof *l->items) % mb2 == 0;
    }
    ok(good && whole && l->len == 200000 && l->items[199999].u.i == 199999,
       "a list grown past 512 KB holds whole 2 MB of room");
    ts_value_release(ts_obj_value(l, TS_TAG_LIST));

    /* a list made at its size (keys(), list(range(n))) rounds the same way, from 512 KB */
    static const size_t caps[] = {32767, 32768, 50000, 131072, 131073};
    for (size_t k = 0; k < sizeof caps / sizeof caps[0]; k++) {
        l = ts_list_new(ts_type_int(), caps[k], NULL);
        size_t bytes = l ? l->cap * sizeof *l->items : 0;
        good = l && l->cap >= caps[k] &&
               (caps[k] * sizeof *l->items < ((size_t)512 << 10) ? l->cap == caps[k]
                                                                  : bytes % mb2 == 0);
        for (size_t i = 0; good && i < caps[k] + 3; i++)     /* fills it, then grows it */
            good = ts_list_append(l, ts_int((int64_t)i), NULL) == 0;
        good = good && l->len == caps[k] + 3 && l->items[caps[k] + 2].u.i == (int64_t)caps[k] + 2;
        ok(good, "a list made for %zu items has room for them (whole 2 MB from 512 KB) and grows",
           caps[k]);
        if (l)
            ts_value_release(ts_obj_value(l, TS_TAG_LIST));
    }
}

static void test_dict(void)
{
    enum { N = 120000 };        /* its entries pass 2 MB */
    TsDict *d = ts_dict_new(ts_type_int(), ts_type_int(), NULL);
    bool good = d != NULL;
    for (int i = 0; good && i < N; i++)
        good = ts_dict_set(d, ts_int(i), ts_int(i + 1), NULL) == 0;
    for (int i = 0; good && i < N; i += 2)
        good = ts_dict_delete(d, ts_int(i), NULL);
    for (int i = 0; good && i < N; i++) {
        TsValue v;
        bool found = ts_dict_get(d, ts_int(i), &v);
        good = (i % 2) ? found && v.u.i == i + 1 : !found;
    }
    ok(good && ts_dict_len(d) == N / 2, "a big dict keeps its entries through deletes");
    ts_dict_clear(d);
    ok(ts_dict_len(d) == 0, "a big dict clears");
    good = ts_dict_set(d, ts_int(5), ts_int(6), NULL) == 0;
    ok(good && ts_dict_len(d) == 1, "a cleared big dict takes entries again");
    ts_value_release(ts_obj_value(d, TS_TAG_DICT));
}

int main(void)
{
    test_moves();
    test_list();
    test_grow_size();
    test_dict();
    return done_testing();
}
