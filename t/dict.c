/* dict.c — tests of str.c's cached hash and small strings, and of core/value/dict.c's
 * lookup hints: the entry last found and the one after it
 * (keys looked up in insertion order skip the index). Every hint must check itself, so
 * lookups stay right around deletes (tombstones keep their old hash), re-inserts, rebuilds
 * that move entries, clear, and strs that are equal but not the same object.
 * (t/value.c tests the dict's contract as a whole.)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "tscript/value.h"

enum { N = 5000 };

static TsValue key(int i)
{
    char b[32];
    snprintf(b, sizeof b, "k%d", i);
    return ts_str_value(ts_str_new(b, strlen(b), NULL));
}

/* d[key(i)] as an int, -1 when absent (the key is a fresh str each time). */
static int64_t get(const TsDict *d, int i)
{
    TsValue k = key(i), v;
    bool found = ts_dict_get(d, k, &v);
    ts_value_release(k);
    return found ? v.u.i : -1;
}

static void test_in_order(void)
{
    TsDict *d = ts_dict_new(ts_type_str(), ts_type_int(), NULL);
    for (int i = 0; i < N; i++)
        ts_dict_set(d, key(i), ts_int(i), NULL);
    int bad = 0;
    for (int round = 0; round < 2; round++)
        for (int i = 0; i < N; i++)
            bad += get(d, i) != i;
    is_int(bad, 0, "lookups in insertion order, twice round");
    for (int i = N - 1; i >= 0; i--)
        bad += get(d, i) != i;
    is_int(bad, 0, "and in reverse order");

    for (int i = 0; i < N; i += 3) {
        TsValue k = key(i);
        ts_dict_delete(d, k, NULL);
        ts_value_release(k);
    }
    for (int i = 0; i < N; i++)
        bad += get(d, i) != (i % 3 ? i : -1);
    is_int(bad, 0, "after deleting every third key: the deleted are absent, in order");
    for (int i = 1; i < N; i += 3)     /* the deleted key follows the one found last */
        bad += get(d, i - 1) != -1 || get(d, i) != i || get(d, i + 2) != -1;
    is_int(bad, 0, "a tombstone right after the last hit is never taken for its old key");

    for (int i = 0; i < N; i += 3)
        ts_dict_set(d, key(i), ts_int(-i), NULL);
    for (int i = 0; i < N; i++)
        bad += get(d, i) != (i % 3 ? i : -i);
    is_int(bad, 0, "re-inserted keys (now at the end, after rebuilds)");
    size_t pos = 0, n = 0;
    TsValue k, v;
    int64_t prev_seen = 1;
    while (ts_dict_next(d, &pos, &k, &v)) {
        n++;
        if (n == (size_t)(N - (N + 2) / 3) + 1)
            prev_seen = v.u.i;     /* the first re-inserted entry */
    }
    ok(n == N && prev_seen == 0, "insertion order kept: re-inserted keys come last");

    for (int i = 0; i < N; i++) {    /* get-then-set of each key, in order */
        TsValue k1 = key(i), old;
        ts_dict_get(d, k1, &old);
        ts_dict_set(d, k1, ts_int(old.u.i + 1), NULL);
    }
    for (int i = 0; i < N; i++)
        bad += get(d, i) != (i % 3 ? i : -i) + 1;
    is_int(bad, 0, "get then set of the same key, in order");

    ts_dict_clear(d);
    ok(get(d, 0) == -1 && get(d, 1) == -1, "after clear the hints find nothing");
    ts_dict_set(d, key(7), ts_int(7), NULL);
    ok(get(d, 7) == 7 && get(d, 8) == -1, "and the dict works again");
    ts_heap_release((TsHeap *)d);
}

static void test_int_keys(void)
{
    TsDict *d = ts_dict_new(ts_type_int(), ts_type_int(), NULL);
    for (int i = 0; i < N; i++)
        ts_dict_set(d, ts_int(i * 7919 % N), ts_int(i), NULL);
    int bad = 0;
    TsValue v;
    for (int i = 0; i < N; i++)
        bad += !ts_dict_get(d, ts_int(i * 7919 % N), &v) || v.u.i != i;
    for (int i = 0; i < N; i++)
        bad += !ts_dict_get(d, ts_int(i), &v) || (v.u.i * 7919) % N != i;
    is_int(bad, 0, "int keys, in insertion order and in another");
    ts_heap_release((TsHeap *)d);
}

/* A string's hash is cached on first use: the same value every time, the same as an equal
 * string's computed afresh, and equal keys meet in a dict whichever of them was hashed. */
static void test_cached_hash(void)
{
    TsStr *a = ts_str_new("cached", 6, NULL), *b = ts_str_new("cached", 6, NULL);
    uint64_t h = ts_str_hash(a);
    ok(h != 0 && ts_str_hash(a) == h && ts_str_hash(a) == h, "a string's hash is stable");
    ok(ts_str_hash(b) == h, "an equal string hashes alike");
    TsStr *c = ts_str_new("cachee", 6, NULL);
    ok(ts_str_hash(c) != h, "a string one byte apart hashes apart");
    TsDict *d = ts_dict_new(ts_type_str(), ts_type_int(), NULL);
    ts_dict_set(d, ts_str_value(a), ts_int(1), NULL);           /* a: hashed */
    TsStr *e = ts_str_new("cached", 6, NULL);                   /* not hashed yet */
    TsValue v = ts_none();
    ok(ts_dict_get(d, ts_str_value(e), &v) && v.u.i == 1, "an unhashed equal key finds it");
    ok(!ts_dict_get(d, ts_str_value(c), NULL), "a hashed key of the same length does not");
    ts_dict_set(d, ts_str_value(e), ts_int(2), NULL);
    ok(ts_dict_len(d) == 1 && ts_dict_get(d, ts_str_value(b), &v) && v.u.i == 2,
       "setting an equal key replaces the value");
    ts_heap_release(&b->h);
    ts_heap_release(&c->h);
    ts_value_release(ts_obj_value(d, TS_TAG_DICT));
}

/* Strings of every small length (each size class of the block cache and past it), built
 * in place, freed, and built again from the blocks just freed. */
static void test_small_strings(void)
{
    int bad = 0;
    for (int round = 0; round < 3; round++) {
        TsStr *s[300];
        for (size_t n = 0; n < 300; n++) {
            s[n] = ts_str_alloc(n, NULL);
            for (size_t i = 0; i < n; i++)
                s[n]->data[i] = (char)('a' + (i + n + (size_t)round) % 26);
        }
        for (size_t n = 0; n < 300; n++) {
            bad += s[n]->len != n || s[n]->data[n] != 0;
            for (size_t i = 0; i < n; i++)
                bad += s[n]->data[i] != (char)('a' + (i + n + (size_t)round) % 26);
            ts_heap_release(&s[n]->h);
        }
    }
    ok(bad == 0, "strings of 0..299 bytes keep their bytes across reuse of their blocks");
}

/* Strings made on one thread and released on another, which then exits: each block joins
 * the releasing thread's cache and is freed with it (valgrind and ASan see no leak). */
enum { CROSS = 2000 };
static void *release_all(void *p)
{
    TsValue *v = p;
    for (int i = 0; i < CROSS; i++)
        ts_value_release(v[i]);
    return NULL;
}

static void test_cross_thread(void)
{
    static TsValue v[CROSS];
    for (int i = 0; i < CROSS; i++)
        v[i] = key(i);
    pthread_t t;
    bool started = pthread_create(&t, NULL, release_all, v) == 0;
    if (started)
        pthread_join(t, NULL);
    else
        release_all(v);
    TsValue k = key(7);
    ok(started && ((const TsStr *)k.u.p)->len == 2, "strings released on another thread");
    ts_value_release(k);
}

/* A rebuild after many deletes makes the entries array smaller than its used part: the
 * live entries at its end must be squeezed down before it shrinks. Every size of dict up to
 * 200, all but its last 0, 1 or 2 keys deleted, then as many new keys as it had. */
static void test_shrink_after_deletes(void)
{
    int bad = 0;
    for (int size = 1; size <= 200; size++)
        for (int keep = 0; keep <= 2 && keep <= size; keep++) {
            TsDict *d = ts_dict_new(ts_type_int(), ts_type_int(), NULL);
            for (int i = 0; i < size; i++)
                ts_dict_set(d, ts_int(i), ts_int(i), NULL);
            for (int i = 0; i < size - keep; i++)
                ts_dict_delete(d, ts_int(i), NULL);
            for (int i = 1000; i < 1000 + size; i++)
                ts_dict_set(d, ts_int(i), ts_int(i), NULL);
            TsValue v;
            for (int i = 0; i < size; i++) {
                bool want = i >= size - keep, got = ts_dict_get(d, ts_int(i), &v);
                bad += got != want || (got && v.u.i != i);
            }
            for (int i = 1000; i < 1000 + size; i++)
                bad += !ts_dict_get(d, ts_int(i), &v) || v.u.i != i;
            bad += ts_dict_len(d) != (size_t)(keep + size);
            ts_heap_release((TsHeap *)d);
        }
    is_int(bad, 0, "deletes, then inserts until a rebuild: every key kept, every deleted gone");
}

/* Big dicts keep their entries and index in whole huge pages (ts_big_grow_size): through
 * growth past 512 KB and 2 MB of entries, deletes that squeeze and shrink them, and clear,
 * every key stays right (and every block goes back with the size it was allocated with:
 * ASan and valgrind see a mismatch). 150k int keys: 6 MB of entries, a 1 MB index. */
static void test_big(void)
{
    enum { BIG = 150000 };
    TsDict *d = ts_dict_new(ts_type_int(), ts_type_int(), NULL);
    int bad = 0;
    for (int i = 0; i < BIG; i++)
        bad += ts_dict_set(d, ts_int(i), ts_int(3 * i), NULL) != 0;
    TsValue v;
    for (int i = 0; i < BIG; i++)
        bad += !ts_dict_get(d, ts_int(i), &v) || v.u.i != 3 * i;
    is_int(bad, 0, "150k keys grown through 512 KB and 2 MB of entries, all found");
    for (int i = 0; i < BIG; i++)
        if (i % 50)
            ts_dict_delete(d, ts_int(i), NULL);
    for (int i = 0; i < 1000; i++)     /* inserts until the tombstones are squeezed out */
        bad += ts_dict_set(d, ts_int(-1 - i), ts_int(i), NULL) != 0;
    for (int i = 0; i < BIG; i++)
        bad += ts_dict_get(d, ts_int(i), &v) != (i % 50 == 0) || (i % 50 == 0 && v.u.i != 3 * i);
    for (int i = 0; i < 1000; i++)
        bad += !ts_dict_get(d, ts_int(-1 - i), &v) || v.u.i != i;
    bad += ts_dict_len(d) != BIG / 50 + 1000;
    is_int(bad, 0, "after deleting 49 keys in 50 and inserting 1000: the rest found, in a "
                   "smaller dict");
    ts_dict_clear(d);
    for (int i = 0; i < 3 * BIG; i += 3)
        bad += ts_dict_set(d, ts_int(i), ts_int(i), NULL) != 0;
    for (int i = 0; i < 3 * BIG; i++)
        bad += ts_dict_get(d, ts_int(i), &v) != (i % 3 == 0);
    is_int(bad, 0, "cleared, then grown again: every key found, no other");
    ts_heap_release((TsHeap *)d);
}

int main(void)
{
    test_big();
    test_cached_hash();
    test_small_strings();
    test_cross_thread();
    test_in_order();
    test_int_keys();
    test_shrink_after_deletes();
    return done_testing();
}
