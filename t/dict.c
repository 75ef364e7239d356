/* dict.c — tests of core/value/dict.c's lookup hints: the entry last found and the one after it
 * (keys looked up in insertion order skip the index). Every hint must check itself, so
 * lookups stay right around deletes (tombstones keep their old hash), re-inserts, rebuilds
 * that move entries, clear, and strs that are equal but not the same object.
 * (t/value.c tests the dict's contract as a whole.)
 */
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

int main(void)
{
    test_in_order();
    test_int_keys();
    return done_testing();
}
