/* list.c — TsList, PyTorch's List[T]: a growable array of owned values.
 *
 * A list remembers its element type (List[int] and List[str] are different types at run
 * time, as in PyTorch). Indices are Python's: negative ones count from the end. Lists are
 * not locked; like PyTorch's, concurrent writers race. Functions that take a value take its
 * reference even when they fail, so a caller never has to clean up after an error.
 */
#include <stdlib.h>
#include <string.h>

#include "value/heap.h"
#include "value/objcache.h"

#define LIST_MAX ((size_t)INT64_MAX / sizeof(TsValue))

TsList *ts_list_new(const TsType *elem_type, size_t cap, TsError *err)
{
    TsList *l = ts_small_alloc(sizeof *l);   /* value.c gives it back to the cache */
    if (!l) {
        ts_error_set(err, TS_ERR_NOMEM, "out of memory allocating a list");
        return NULL;
    }
    ts_heap_init(&l->h, TS_TAG_LIST);
    l->elem_type = elem_type;
    l->len = l->cap = 0;
    l->items = NULL;
    if (cap && ts_list_reserve(l, cap, err)) {
        ts_small_free(l, sizeof *l);
        return NULL;
    }
    return l;
}

int ts_list_reserve(TsList *l, size_t cap, TsError *err)
{
    if (cap <= l->cap)
        return 0;
    if (cap > LIST_MAX)
        return ts_error_set(err, TS_ERR_LIMIT, "list of %zu elements is too long", cap);
    /* a big list in whole huge pages (bigmem.c: a 2 MB stretch first touched in small pages
     * stays in them; keys() of a 50k-key dict took 195 faults). LIST_MAX * 16 bytes leaves
     * room to round. */
    size_t want = ts_big_grow_size(cap * sizeof *l->items) / sizeof *l->items;
    if (want <= LIST_MAX)
        cap = want;
    TsValue *items = ts_big_realloc(l->items, l->cap * sizeof *items, cap * sizeof *items);
    if (!items)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory growing a list to %zu elements",
                            cap);
    l->items = items;
    l->cap = cap;
    return 0;
}

/* Room for one more, growing by half again (amortized O(1) appends). */
static int grow_one(TsList *l, TsError *err)
{
    if (l->len < l->cap)
        return 0;
    if (l->len >= LIST_MAX)
        return ts_error_set(err, TS_ERR_LIMIT, "list of %zu elements is too long", l->len);
    size_t cap = l->cap < 4 ? 4 : l->cap + l->cap / 2;
    if (cap > LIST_MAX)
        cap = LIST_MAX;
    return ts_list_reserve(l, cap, err);      /* which rounds a big list to huge pages */
}

int ts_list_append(TsList *l, TsValue v, TsError *err)
{
    if (grow_one(l, err)) {
        ts_value_release(v);
        return err ? err->code : TS_ERR_NOMEM;
    }
    l->items[l->len++] = v;
    return 0;
}

/* Python's list.insert: the index is clamped to [0, len]. */
int ts_list_insert(TsList *l, int64_t index, TsValue v, TsError *err)
{
    if (grow_one(l, err)) {
        ts_value_release(v);
        return err ? err->code : TS_ERR_NOMEM;
    }
    int64_t n = (int64_t)l->len;
    if (index < 0)
        index = index < -n ? 0 : index + n;
    if (index > n)
        index = n;
    memmove(&l->items[index + 1], &l->items[index], (size_t)(n - index) * sizeof(TsValue));
    l->items[index] = v;
    l->len++;
    return 0;
}

/* Resolves a Python index into [0, len), or fails with PyTorch's IndexError. */
static int normalize(const TsList *l, int64_t *index, TsError *err)
{
    int64_t n = (int64_t)l->len, i = *index;
    if (i < 0 && i >= -n)
        i += n;
    if (i < 0 || i >= n)
        return ts_error_set(err, TS_ERR_INDEX, "list index out of range");
    *index = i;
    return 0;
}

int ts_list_get(const TsList *l, int64_t index, TsValue *out, TsError *err)
{
    if (normalize(l, &index, err))
        return TS_ERR_INDEX;
    *out = l->items[index];
    return 0;
}

int ts_list_set(TsList *l, int64_t index, TsValue v, TsError *err)
{
    if (normalize(l, &index, err)) {
        ts_value_release(v);
        return TS_ERR_INDEX;
    }
    TsValue old = l->items[index];
    l->items[index] = v;
    ts_value_release(old);
    return 0;
}

int ts_list_pop(TsList *l, int64_t index, TsValue *out, TsError *err)
{
    if (l->len == 0)
        return ts_error_set(err, TS_ERR_INDEX, "pop from empty list");
    if (normalize(l, &index, err))
        return TS_ERR_INDEX;
    *out = l->items[index];
    memmove(&l->items[index], &l->items[index + 1],
            (l->len - (size_t)index - 1) * sizeof(TsValue));
    l->len--;
    return 0;
}

/* Empties the list before releasing, so a destroy callback that looks at it sees it empty. */
void ts_list_clear(TsList *l)
{
    TsValue *items = l->items;
    size_t n = l->len, cap = l->cap;
    l->items = NULL;
    l->len = l->cap = 0;
    for (size_t i = 0; i < n; i++)
        ts_value_release(items[i]);
    ts_big_free(items, cap * sizeof *items);
}
