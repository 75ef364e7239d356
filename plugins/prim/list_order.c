/* list_order.c — List[t] by element value: sorting, min and max, equality, searching
 * (in, index, count, remove) and the reductions sum, any and all.
 *
 * Equality is ts_value_equal (Python's ==: nan is unequal to itself, so nan in [nan] is
 * False as in PyTorch). Order is Python's < for the element types TorchScript sorts: int,
 * float and bool by value, str by bytes (UTF-8 byte order is code point order), objects of
 * a script class by its __lt__ (called through plugin.h's ts_call_function), tuples item by
 * item. Sorting is stable (a merge sort; lists of ints, where stability cannot be
 * observed, take a radix sort); reverse=True sorts by "b < a", which keeps equal elements
 * in their original order as Python's does. Only sort and sorted call into TorchScript: in
 * PyTorch 1.13 the searches, min/max and == have no overloads for lists of objects (the
 * emitter rejects them), and hash() of an object is an error (hash.c). The results follow
 * PyTorch 1.13 where it differs from Python (checked with torch.jit.script):
 *
 *   - min(l) / max(l) keep the first element and replace it only when a later one is
 *     strictly smaller / larger, so a nan first wins and a nan later is skipped;
 *   - min(a, b) / max(a, b) of two lists decide on the first position where they differ
 *     (taking b only if b's item is strictly smaller / larger), else on length;
 *   - the error texts are PyTorch's ("list.remove(x): x not in list", "'9' is not in list",
 *     "min() arg is an empty sequence"), all RuntimeErrors as there.
 */
#include <assert.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "tscript/print.h"
#include "prim.h"

#define L TS_TAG_LIST

static TsList *list_of(TsValue v)
{
    return (TsList *)v.u.p;
}

static bool is_number(TsValue v)
{
    return v.tag == TS_TAG_INT || v.tag == TS_TAG_DOUBLE || v.tag == TS_TAG_BOOL;
}

static int64_t as_int(TsValue v)
{
    return v.tag == TS_TAG_BOOL ? (int64_t)v.u.b : v.u.i;
}

/* ---- order -------------------------------------------------------------------- */

/* Whether v can be ordered by value_lt. */
static bool orderable(TsValue v)
{
    return is_number(v) || v.tag == TS_TAG_STR;
}

/* Python's a < b for two orderable values. */
static bool value_lt(TsValue a, TsValue b)
{
    if (is_number(a) && is_number(b)) {
        if (a.tag == TS_TAG_DOUBLE || b.tag == TS_TAG_DOUBLE) {
            double x = a.tag == TS_TAG_DOUBLE ? a.u.d : (double)as_int(a);
            double y = b.tag == TS_TAG_DOUBLE ? b.u.d : (double)as_int(b);
            return x < y;
        }
        return as_int(a) < as_int(b);
    }
    if (a.tag == TS_TAG_STR && b.tag == TS_TAG_STR) {
        const TsStr *x = (const TsStr *)a.u.p, *y = (const TsStr *)b.u.p;
        int d = memcmp(x->data, y->data, x->len < y->len ? x->len : y->len);
        return d < 0 || (d == 0 && x->len < y->len);
    }
    return false;
}

static int check_orderable(TsCall *c, const char *op, const TsList *l)
{
    for (size_t i = 0; i < l->len; i++)
        if (!orderable(l->items[i]))
            return ts_error_set(c->error, TS_ERR_NOT_IMPL,
                                "%s: cannot order list elements of this type", op);
    return 0;
}

/* ---- sorting ------------------------------------------------------------------ */

/* How sort compares the items of a list, planned from their type before it starts (as
 * PyTorch picks its comparator): by value (int, float, bool, str), by the class's __lt__
 * (a call into TorchScript), or tuples item by item, each by its own plan. */
typedef struct Order {
    enum { BY_VALUE, BY_METHOD, BY_ITEMS } how;
    const TsFunction *lt;      /* BY_METHOD */
    size_t n;                  /* BY_ITEMS */
    struct Order *items;
} Order;

static void order_free(Order *o)
{
    for (size_t i = 0; o->how == BY_ITEMS && i < o->n; i++)
        order_free(&o->items[i]);
    if (o->how == BY_ITEMS)
        free(o->items);
}

static bool sorts_by_value(TsTypeKind k)
{
    return k == TS_TYPE_INT || k == TS_TYPE_FLOAT || k == TS_TYPE_BOOL || k == TS_TYPE_STR;
}

/* cls's __lt__, which must take two cls and return a bool. */
static int plan_method(TsCall *c, const TsType *cls, Order *o)
{
    const TsFunction *lt = ts_call_find(c, cls, "__lt__");
    if (!lt || ts_function_num_args(lt) != 2 || ts_function_arg_type(lt, 0) != cls ||
        ts_function_arg_type(lt, 1) != cls ||
        ts_type_kind(ts_function_return_type(lt)) != TS_TYPE_BOOL) {
        char name[256];
        ts_type_repr(cls, name, sizeof name);
        return ts_error_set(c->error, TS_ERR_RUNTIME, "To sort a list of %s it must define a "
                            "__lt__ method with two inputs of type %s that returns a bool",
                            name, name);
    }
    o->how = BY_METHOD;
    o->lt = lt;
    return 0;
}

/* The plan for items of type t; a tuple's items may be tuples again (the type bounds the
 * recursion). */
static int plan_order(TsCall *c, const TsType *t, Order *o)
{
    TsTypeKind k = ts_type_kind(t);
    *o = (Order){ .how = BY_VALUE };
    if (sorts_by_value(k))
        return 0;
    if (k == TS_TYPE_CLASS)
        return plan_method(c, t, o);
    if (k == TS_TYPE_TENSOR)
        return ts_error_set(c->error, TS_ERR_NOT_IMPL, "sorting a list of tensors is not "
                            "supported yet");
    if (k != TS_TYPE_TUPLE)
        return -1;             /* the caller words it */
    size_t n = ts_type_num_elems(t);
    o->items = calloc(n ? n : 1, sizeof *o->items);
    if (!o->items)
        return ts_error_set(c->error, TS_ERR_NOMEM, "out of memory sorting a list");
    o->how = BY_ITEMS;
    for (; o->n < n; o->n++) {
        int rc = plan_order(c, ts_type_elem(t, o->n), &o->items[o->n]);
        if (rc < 0) {
            char name[256];
            ts_type_repr(t, name, sizeof name);
            rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Contained elements in %s are not "
                              "sortable. Only Int, Bool, Float, String, Tensor, a User "
                              "Defined Class with __lt__ method defined or Tuples of "
                              "aforementionted types can be sorted.", name);
        }
        if (rc) {
            order_free(o);
            return rc;
        }
    }
    return 0;
}

/* The plan for sorting l (not empty). Lists made without an element type are planned by
 * their first item's. */
static int plan_list(TsCall *c, const TsList *l, Order *o)
{
    const TsType *t = l->elem_type;
    if (!t || ts_type_kind(t) == TS_TYPE_ANY)
        t = ts_value_type(l->items[0]);
    int rc = plan_order(c, t, o);
    if (rc >= 0)
        return rc;
    char name[256];
    ts_type_annotation(ts_value_type(l->items[0]), name, sizeof name);
    return ts_error_set(c->error, TS_ERR_RUNTIME, "Only list of Tensors, ints, floats, bools, "
                        "strs, a User Defined Class that defines the __lt__ compare method or "
                        "Tuples of aforementioned types can be sorted, got list of %s", name);
}

/* *lt = a < b as planned by o. Fails only when a __lt__ fails. */
static int order_lt(TsCall *c, const Order *o, TsValue a, TsValue b, bool *lt)
{
    switch (o->how) {
    case BY_VALUE:
        *lt = value_lt(a, b);
        return 0;
    case BY_METHOD: {
        TsValue r;
        int rc = ts_call_function(c, o->lt, (const TsValue[]){ a, b }, 2, &r);
        if (rc)
            return rc;
        assert(r.tag == TS_TAG_BOOL);  /* plan_method checked the signature */
        *lt = r.u.b;
        return 0;
    }
    case BY_ITEMS:
        break;
    }
    /* PyTorch's order: an item less decides; equal items (objects: the same one) go on. By
     * value "not equal, so decide" is the same and compares once. */
    const TsTuple *x = (const TsTuple *)a.u.p, *y = (const TsTuple *)b.u.p;
    for (size_t i = 0; i < o->n && i < x->len && i < y->len; i++) {
        TsValue xi = x->items[i], yi = y->items[i];
        if (o->items[i].how == BY_VALUE) {
            if (ts_value_equal(xi, yi))
                continue;
            *lt = value_lt(xi, yi);
            return 0;
        }
        int rc = order_lt(c, &o->items[i], xi, yi, lt);
        if (rc || *lt)
            return rc;
        if (!ts_value_equal(xi, yi))
            return 0;
    }
    *lt = false;
    return 0;
}

/* Whether every item is an int: such a list sorts by its raw int64 keys. */
static bool all_ints(const TsValue *items, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (items[i].tag != TS_TAG_INT)
            return false;
    return true;
}

/* LSD radix sort of n int items by value, 11 bits at a time on the raw keys (the sign bit
 * flipped so negatives come first), skipping digits all keys share. Equal ints are
 * indistinguishable, so stability is moot and reverse is the ascending order read backwards.
 * O(n), against the merge sort's n log n generic compares: lists of ints are what programs
 * sort most.
 *
 * It needs no memory beyond its counts: ints hold no references, so the items' own memory
 * (n values of 16 bytes) holds the two arrays of n 8-byte keys while it sorts, and the
 * sorted keys become values again at the end. (A temporary as big as the list was most of
 * a big sort's cost in fresh pages.) The keys are moved with memcpy: the memory changes
 * type under the sort. */
enum { DIGIT_BITS = 11, N_DIGITS = (64 + DIGIT_BITS - 1) / DIGIT_BITS, RADIX = 1 << DIGIT_BITS };

static uint64_t key_at(const void *base, size_t i)
{
    uint64_t k;
    memcpy(&k, (const char *)base + i * sizeof k, sizeof k);
    return k;
}

static void key_put(void *base, size_t i, uint64_t k)
{
    memcpy((char *)base + i * sizeof k, &k, sizeof k);
}

static int sort_ints(TsValue *items, size_t n, bool reverse, TsError *err)
{
    const uint64_t sign = (uint64_t)1 << 63, mask = RADIX - 1;
    size_t (*count)[RADIX] = calloc(N_DIGITS, sizeof *count);
    if (!count)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory sorting a list");
    _Static_assert(sizeof(TsValue) == 2 * sizeof(uint64_t), "a value holds two keys");
    uint64_t first = (uint64_t)items[0].u.i, differ = 0;
    /* key i goes to the 8 bytes at i, which belong to value i / 2, read already; the same
     * pass counts the three low digits, all most lists need (ints below 2**33 apart) */
    for (size_t i = 0; i < n; i++) {
        uint64_t v = (uint64_t)items[i].u.i, k = v ^ sign;
        differ |= v ^ first;   /* the bits in which some key differs from the first */
        key_put(items, i, k);
        count[0][k & mask]++;
        count[1][(k >> DIGIT_BITS) & mask]++;
        count[2][(k >> (2 * DIGIT_BITS)) & mask]++;
    }
    uint64_t *src = (uint64_t *)(void *)items, *dst = src + n;
    if (differ >> (3 * DIGIT_BITS)) {  /* the high digits too */
        for (size_t i = 0; i < n; i++) {
            uint64_t k = src[i];
            for (int d = 3; d < N_DIGITS; d++)
                count[d][(k >> (DIGIT_BITS * d)) & mask]++;
        }
    }
    unsigned shifts[N_DIGITS];  /* the digits some keys differ in: the only passes needed */
    size_t *counts[N_DIGITS];
    int na = 0;
    for (int d = 0; d < N_DIGITS; d++)
        if ((differ >> (DIGIT_BITS * d) & mask) != 0) {
            counts[na] = count[d];
            shifts[na++] = (unsigned)(DIGIT_BITS * d);
        }
    for (int d = 0; d < na; d++) {
        size_t *c = counts[d], sum = 0;
        unsigned shift = shifts[d];
        for (size_t v = 0; v < RADIX; v++) {
            size_t t = c[v];
            c[v] = sum;
            sum += t;
        }
        for (size_t i = 0; i < n; i++)
            dst[c[(src[i] >> shift) & mask]++] = src[i];
        uint64_t *t = src;
        src = dst;
        dst = t;
    }
    free(count);
    uint64_t *keys = (uint64_t *)(void *)items;
    if (src != keys && !reverse) {
        /* back to values from the first, out of the upper half: value i takes the 16 bytes
         * of keys 2i and 2i + 1, which are below n (free) or upper-half keys 2i - n and
         * 2i + 1 - n, both read already (2i + 1 - n <= i, equal only for the last, read
         * just before) */
        for (size_t i = 0; i < n; i++)
            items[i] = ts_int((int64_t)(key_at(src, i) ^ sign));
        return 0;
    }
    if (src != keys)
        memmove(keys, src, n * sizeof *keys);
    if (reverse)
        for (size_t i = 0, j = n - 1; i < j; i++, j--) {
            uint64_t t = keys[i];
            keys[i] = keys[j];
            keys[j] = t;
        }
    /* back to values from the last: value i takes the 16 bytes at 2i, where only keys
     * i and above (read already) lived */
    for (size_t i = n; i-- > 0;)
        items[i] = ts_int((int64_t)(key_at(items, i) ^ sign));
    return 0;
}

/* A stable bottom-up merge sort of items by o; reverse=True sorts by "b < a", which keeps
 * equal items in their order as Python does. The items are only moved, never retained or
 * released, so when a __lt__ fails items still holds each of them once (in some order). */
static int merge_sort(TsCall *c, const Order *o, TsValue *items, TsValue *tmp, size_t n,
                      bool reverse)
{
    TsValue *src = items, *dst = tmp;
    int rc = 0;
    for (size_t width = 1; width < n && !rc; width *= 2) {
        for (size_t lo = 0; lo < n && !rc; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n;
            size_t hi = mid + width < n ? mid + width : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                bool j_first;
                if ((rc = reverse ? order_lt(c, o, src[i], src[j], &j_first)
                                  : order_lt(c, o, src[j], src[i], &j_first)))
                    break;
                dst[k++] = j_first ? src[j++] : src[i++];
            }
            if (rc)
                break;         /* src is whole: this pass is dropped */
            while (i < mid)
                dst[k++] = src[i++];
            while (j < hi)
                dst[k++] = src[j++];
        }
        if (!rc) {
            TsValue *t = src;
            src = dst;
            dst = t;
        }
    }
    if (src != items)
        memcpy(items, src, n * sizeof *src);
    return rc;
}

/* Sorts l in place by the plan for its type: ints by radix, the rest by merge sort. While
 * a __lt__ runs l looks empty (its items are held here), as in Python; what that code puts
 * in it is dropped, and is an error. */
static int sort_list(TsCall *c, TsList *l, bool reverse)
{
    size_t n = l->len, cap = l->cap;
    Order o;
    if (n == 0)
        return 0;
    int rc = plan_list(c, l, &o);
    if (rc || n < 2) {
        if (!rc)
            order_free(&o);
        return rc;
    }
    if (o.how == BY_VALUE && all_ints(l->items, n)) {
        rc = sort_ints(l->items, n, reverse, c->error);
        order_free(&o);
        return rc;
    }
    TsValue *tmp = malloc(n * sizeof *tmp);
    if (!tmp) {
        order_free(&o);
        return ts_error_set(c->error, TS_ERR_NOMEM, "out of memory sorting a list");
    }
    if (o.how == BY_VALUE) {
        rc = merge_sort(c, &o, l->items, tmp, n, reverse);
    } else {
        TsValue *items = l->items;
        l->items = NULL;
        l->len = l->cap = 0;
        rc = merge_sort(c, &o, items, tmp, n, reverse);
        if (l->items || l->len) {
            ts_list_clear(l);     /* frees what the comparisons appended */
            if (!rc)
                rc = ts_error_set(c->error, TS_ERR_VALUE, "list modified during sort");
        }
        l->items = items;
        l->len = n;
        l->cap = cap;
    }
    free(tmp);
    order_free(&o);
    return rc;
}

/* aten::sort.<T>(T[](a!) self, bool reverse=False) -> () */
static int k_sort(TsCall *c)
{
    TsValue a[2];
    if (ts_prim_pop_args(c, "aten::sort", 2, (const uint32_t[]){ L, TS_TAG_BOOL }, a))
        return c->error->code;
    int rc = sort_list(c, list_of(a[0]), a[1].u.b);
    ts_value_release(a[0]);
    return rc;
}

/* aten::sorted.<T>(T[](a) input) -> T[]: a sorted copy. */
static int k_sorted(TsCall *c)
{
    TsValue a[1];
    if (ts_prim_pop_args(c, "aten::sorted", 1, (const uint32_t[]){ L }, a))
        return c->error->code;
    TsList *l = list_of(a[0]);
    TsList *r = ts_list_new(l->elem_type, l->len, c->error);
    if (r) {
        for (size_t i = 0; i < l->len; i++) {
            ts_value_retain(l->items[i]);
            r->items[r->len++] = l->items[i];
        }
        if (sort_list(c, r, false)) {
            ts_heap_release(&r->h);
            r = NULL;
        }
    }
    ts_value_release(a[0]);
    if (!r)
        return c->error->code;
    return ts_stack_push(c->stack, ts_obj_value(r, TS_TAG_LIST), c->error);
}

/* min(l) or max(l) of a non-empty list of numbers. */
static int extreme_of(TsCall *c, bool want_max)
{
    const char *op = want_max ? "max" : "min";
    TsValue a[1];
    if (ts_prim_pop_args(c, op, 1, (const uint32_t[]){ L }, a))
        return c->error->code;
    TsList *l = list_of(a[0]);
    if (l->len == 0) {
        ts_value_release(a[0]);
        return ts_error_set(c->error, TS_ERR_RUNTIME, "%s() arg is an empty sequence", op);
    }
    int rc = check_orderable(c, op, l);
    TsValue m = l->items[0];
    for (size_t i = 1; !rc && i < l->len; i++)
        if (want_max ? value_lt(m, l->items[i]) : value_lt(l->items[i], m))
            m = l->items[i];
    if (!rc)
        ts_value_retain(m);
    ts_value_release(a[0]);
    return rc ? rc : ts_stack_push(c->stack, m, c->error);
}

static int k_min_self(TsCall *c) { return extreme_of(c, false); }
static int k_max_self(TsCall *c) { return extreme_of(c, true); }

/* prim::min/max.<T>_list(T[] l, T[] r) -> T[]: a copy of the winner. */
static int extreme_of_two(TsCall *c, bool want_max)
{
    TsValue a[2];
    if (ts_prim_pop_args(c, want_max ? "max" : "min", 2, (const uint32_t[]){ L, L }, a))
        return c->error->code;
    TsList *l = list_of(a[0]), *r = list_of(a[1]), *win = NULL;
    size_t n = l->len < r->len ? l->len : r->len;
    for (size_t i = 0; !win && i < n; i++) {
        if (ts_value_equal(l->items[i], r->items[i]))
            continue;
        bool take_r = want_max ? value_lt(l->items[i], r->items[i])
                               : value_lt(r->items[i], l->items[i]);
        win = take_r ? r : l;
    }
    if (!win)
        win = want_max ? (l->len > r->len ? l : r) : (l->len < r->len ? l : r);
    TsList *out = ts_list_new(win->elem_type, win->len, c->error);
    for (size_t i = 0; out && i < win->len; i++) {
        ts_value_retain(win->items[i]);
        out->items[out->len++] = win->items[i];
    }
    ts_prim_release_args(a, 2);
    if (!out)
        return c->error->code;
    return ts_stack_push(c->stack, ts_obj_value(out, TS_TAG_LIST), c->error);
}

static int k_min_lists(TsCall *c) { return extreme_of_two(c, false); }
static int k_max_lists(TsCall *c) { return extreme_of_two(c, true); }

/* ---- equality and search --------------------------------------------------------- */

/* aten::eq.<T>_list(T[] a, T[] b) -> bool, and ne. */
static int list_eq(TsCall *c, bool negate)
{
    TsValue a[2];
    if (ts_prim_pop_args(c, negate ? "aten::ne" : "aten::eq", 2, (const uint32_t[]){ L, L }, a))
        return c->error->code;
    bool eq = ts_value_equal(a[0], a[1]);
    ts_prim_release_args(a, 2);
    return ts_stack_push(c->stack, ts_bool(eq != negate), c->error);
}

static int k_eq(TsCall *c) { return list_eq(c, false); }
static int k_ne(TsCall *c) { return list_eq(c, true); }

/* The index of the first item equal to x, or -1. */
static int64_t find(const TsList *l, TsValue x)
{
    for (size_t i = 0; i < l->len; i++)
        if (ts_value_equal(l->items[i], x))
            return (int64_t)i;
    return -1;
}

/* aten::__contains__.<T>_list(T[] l, T item) -> bool */
static int k_contains(TsCall *c)
{
    TsValue a[2];
    if (ts_prim_pop_args(c, "aten::__contains__", 2, (const uint32_t[]){ L, TS_PRIM_ANY }, a))
        return c->error->code;
    bool in = find(list_of(a[0]), a[1]) >= 0;
    ts_prim_release_args(a, 2);
    return ts_stack_push(c->stack, ts_bool(in), c->error);
}

/* aten::index.list_<T>(T[] self, T el) -> int; PyTorch prints a bool el as 0 or 1. */
static int k_index(TsCall *c)
{
    TsValue a[2];
    if (ts_prim_pop_args(c, "aten::index", 2, (const uint32_t[]){ L, TS_PRIM_ANY }, a))
        return c->error->code;
    int64_t i = find(list_of(a[0]), a[1]);
    if (i >= 0) {
        ts_prim_release_args(a, 2);
        return ts_stack_push(c->stack, ts_int(i), c->error);
    }
    TsValue shown = a[1].tag == TS_TAG_BOOL ? ts_int(a[1].u.b) : a[1];
    char *text = ts_value_to_cstr(c->runtime, shown, c->error);
    if (text)
        ts_error_set(c->error, TS_ERR_RUNTIME, "'%s' is not in list", text);
    free(text);
    ts_prim_release_args(a, 2);
    return c->error->code;
}

/* aten::count.<T>(T[] self, T el) -> int */
static int k_count(TsCall *c)
{
    TsValue a[2];
    if (ts_prim_pop_args(c, "aten::count", 2, (const uint32_t[]){ L, TS_PRIM_ANY }, a))
        return c->error->code;
    TsList *l = list_of(a[0]);
    int64_t n = 0;
    for (size_t i = 0; i < l->len; i++)
        n += ts_value_equal(l->items[i], a[1]);
    ts_prim_release_args(a, 2);
    return ts_stack_push(c->stack, ts_int(n), c->error);
}

/* aten::remove.<T>(T[](a!) self, T el) -> (): removes the first equal item. */
static int k_remove(TsCall *c)
{
    TsValue a[2], item;
    if (ts_prim_pop_args(c, "aten::remove", 2, (const uint32_t[]){ L, TS_PRIM_ANY }, a))
        return c->error->code;
    TsList *l = list_of(a[0]);
    int64_t i = find(l, a[1]);
    int rc = i < 0 ? ts_error_set(c->error, TS_ERR_RUNTIME, "list.remove(x): x not in list")
                   : ts_list_pop(l, i, &item, c->error);
    if (!rc)
        ts_value_release(item);
    ts_prim_release_args(a, 2);
    return rc;
}

/* ---- reductions ---------------------------------------------------------------- */

/* aten::sum.int(int[]) -> int (wrapping), sum.bool(bool[]) -> int, sum.float(float[]) ->
 * float (added left to right, as PyTorch). */
static int k_sum(TsCall *c)
{
    TsValue a[1];
    if (ts_prim_pop_args(c, "aten::sum", 1, (const uint32_t[]){ L }, a))
        return c->error->code;
    TsList *l = list_of(a[0]);
    bool floats = ts_type_kind(l->elem_type) == TS_TYPE_FLOAT;
    uint64_t isum = 0;
    double fsum = 0.0;
    int rc = 0;
    for (size_t i = 0; i < l->len; i++) {
        TsValue v = l->items[i];
        if (!is_number(v)) {
            rc = ts_error_set(c->error, TS_ERR_TYPE, "aten::sum: the list holds a non-number");
            break;
        }
        if (v.tag == TS_TAG_DOUBLE) {
            floats = true;
            fsum += v.u.d;
        } else {
            isum += (uint64_t)as_int(v);
            fsum += (double)as_int(v);
        }
    }
    ts_value_release(a[0]);
    if (rc)
        return rc;
    TsValue r = floats ? ts_double(fsum) : ts_int((int64_t)isum);
    return ts_stack_push(c->stack, r, c->error);
}

/* Truth of a list item for any()/all(): a non-zero number or a non-empty str. */
static bool truthy(TsValue v)
{
    switch (v.tag) {
    case TS_TAG_DOUBLE: return v.u.d != 0.0;
    case TS_TAG_STR: return ((const TsStr *)v.u.p)->len != 0;
    default: return as_int(v) != 0;
    }
}

static int any_all(TsCall *c, bool want_all)
{
    TsValue a[1];
    if (ts_prim_pop_args(c, want_all ? "aten::all" : "aten::any", 1, (const uint32_t[]){ L },
                         a))
        return c->error->code;
    TsList *l = list_of(a[0]);
    bool r = want_all;
    for (size_t i = 0; i < l->len && r == want_all; i++)
        if (truthy(l->items[i]) != want_all)
            r = !want_all;
    ts_value_release(a[0]);
    return ts_stack_push(c->stack, ts_bool(r), c->error);
}

static int k_any(TsCall *c) { return any_all(c, false); }
static int k_all(TsCall *c) { return any_all(c, true); }

static const TsPrimOp ops[] = {
    { "aten::sort", k_sort, { "int", "float", "Tensor", "bool", "str", "any" } },
    { "aten::sorted", k_sorted, { "int", "float", "Tensor", "bool", "str", "any" } },
    { "prim::min", k_min_self, { "self_int", "self_float", "self_bool" } },
    { "prim::max", k_max_self, { "self_int", "self_float", "self_bool" } },
    { "prim::min", k_min_lists, { "int_list", "float_list", "bool_list" } },
    { "prim::max", k_max_lists, { "int_list", "float_list", "bool_list" } },
    { "aten::eq", k_eq, { "int_list", "float_list", "Tensor_list", "bool_list", "str_list" } },
    { "aten::ne", k_ne, { "int_list", "float_list", "Tensor_list", "bool_list", "str_list" } },
    { "aten::__contains__", k_contains, { "int_list", "float_list", "str_list" } },
    { "aten::index", k_index,
      { "list_int", "list_float", "list_bool", "list_Tensor", "list_str" } },
    { "aten::count", k_count, { "int", "float", "bool", "Tensor", "str" } },
    { "aten::remove", k_remove, { "int", "float", "bool", "Tensor", "str" } },
    { "aten::sum", k_sum, { "int", "float", "bool" } },
    { "aten::any", k_any, { "str", "int", "float", "bool" } },
    { "aten::all", k_all, { "int", "float", "bool" } },
};

const TsPrimTable ts_prim_list_order_table = { ops, sizeof ops / sizeof ops[0] };
