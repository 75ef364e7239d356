/* lists.c — List[t] structure: length, indexing, slicing, the mutating methods (append,
 * extend, +=, *=, insert, pop, del, clear, reverse), copies, concatenation and repetition.
 *
 * Generic over the element type: a list holds TsValues whatever t is, so one kernel serves
 * List[int] and List[Tensor] alike; a new list takes its element type from its source.
 * Index errors come from ts_list_get/ts_list_set/ts_list_pop (IndexError "list index out of
 * range", "pop from empty list"; Python's negative indices). The methods whose schemas return
 * t[](a!) push back the list they were given; those returning () push nothing.
 * Searching, ordering and reductions over elements are in list_order.c.
 */
#include <stdbool.h>

#include "prim.h"

#define L TS_TAG_LIST
#define I TS_TAG_INT

static TsList *list_of(TsValue v)
{
    return (TsList *)v.u.p;
}

/* A new list of l's element type holding new references to l[from, from + n). */
static TsList *list_copy_range(const TsList *l, size_t from, size_t n, TsError *err)
{
    TsList *r = ts_list_new(l->elem_type, n, err);
    for (size_t i = 0; r && i < n; i++) {
        ts_value_retain(l->items[from + i]);
        r->items[r->len++] = l->items[from + i];
    }
    return r;
}

static int push_list(TsCall *c, TsList *l)
{
    if (!l)
        return c->error->code;
    return ts_stack_push(c->stack, ts_obj_value(l, TS_TAG_LIST), c->error);
}

/* aten::len.t(t[] a) -> int */
static int k_len(TsCall *c)
{
    TsValue a[1];
    if (ts_prim_pop_args(c, "aten::len", 1, (const uint32_t[]){ L }, a))
        return c->error->code;
    int64_t n = (int64_t)list_of(a[0])->len;
    ts_value_release(a[0]);
    return ts_stack_push(c->stack, ts_int(n), c->error);
}

/* aten::__getitem__.t(t[](a) list, int idx) -> t(*) */
static int k_getitem(TsCall *c)
{
    TsValue a[2], item;
    if (ts_prim_pop_args(c, "aten::__getitem__", 2, (const uint32_t[]){ L, I }, a))
        return c->error->code;
    int rc = ts_list_get(list_of(a[0]), a[1].u.i, &item, c->error);
    if (!rc)
        ts_value_retain(item);
    ts_value_release(a[0]);
    return rc ? rc : ts_stack_push(c->stack, item, c->error);
}

/* aten::_set_item.t(t[](a!) l, int idx, t(b -> *) el) -> t[](a!) */
static int k_setitem(TsCall *c)
{
    TsValue a[3];
    if (ts_prim_pop_args(c, "aten::_set_item", 3, (const uint32_t[]){ L, I, TS_PRIM_ANY }, a))
        return c->error->code;
    int rc = ts_list_set(list_of(a[0]), a[1].u.i, a[2], c->error);
    if (rc) {
        ts_value_release(a[0]);
        return rc;
    }
    return ts_stack_push(c->stack, a[0], c->error);
}

/* aten::append.t(t[](a!) self, t(c -> *) el) -> t[](a!) */
static int k_append(TsCall *c)
{
    TsValue a[2];
    if (ts_prim_pop_args(c, "aten::append", 2, (const uint32_t[]){ L, TS_PRIM_ANY }, a))
        return c->error->code;
    int rc = ts_list_append(list_of(a[0]), a[1], c->error);
    if (rc) {
        ts_value_release(a[0]);
        return rc;
    }
    return ts_stack_push(c->stack, a[0], c->error);
}

/* Appends other's items to self; other may be self (l.extend(l) doubles it): the count is
 * taken before appending. */
static int extend_list(TsList *self, const TsList *other, TsError *err)
{
    size_t n = other->len;
    if (n > ((size_t)-1) / sizeof(TsValue) - self->len)
        return ts_error_set(err, TS_ERR_LIMIT, "list.extend: the list would be too long");
    int rc = ts_list_reserve(self, self->len + n, err);
    for (size_t i = 0; !rc && i < n; i++) {
        ts_value_retain(other->items[i]);
        rc = ts_list_append(self, other->items[i], err);
    }
    return rc;
}

/* aten::extend.t(t[](a!) self, t[] other) -> () */
static int k_extend(TsCall *c)
{
    TsValue a[2];
    if (ts_prim_pop_args(c, "aten::extend", 2, (const uint32_t[]){ L, L }, a))
        return c->error->code;
    int rc = extend_list(list_of(a[0]), list_of(a[1]), c->error);
    ts_prim_release_args(a, 2);
    return rc;
}

/* aten::add_.t(t[](a!) self, t[] b) -> t[]: `l += other` extends l in place (every alias of
 * l sees it) and pushes l back. PyTorch's `a += a` misbehaves; here it doubles a. */
static int k_add_inplace(TsCall *c)
{
    TsValue a[2];
    if (ts_prim_pop_args(c, "aten::add_", 2, (const uint32_t[]){ L, L }, a))
        return c->error->code;
    int rc = extend_list(list_of(a[0]), list_of(a[1]), c->error);
    ts_value_release(a[1]);
    if (rc) {
        ts_value_release(a[0]);
        return rc;
    }
    return ts_stack_push(c->stack, a[0], c->error);
}

/* aten::insert.t(t[](a!) self, int idx, t(b -> *) el) -> ()
 * Out-of-range indices clamp to the ends, as Python's. */
static int k_insert(TsCall *c)
{
    TsValue a[3];
    if (ts_prim_pop_args(c, "aten::insert", 3, (const uint32_t[]){ L, I, TS_PRIM_ANY }, a))
        return c->error->code;
    int rc = ts_list_insert(list_of(a[0]), a[1].u.i, a[2], c->error);
    ts_value_release(a[0]);
    return rc;
}

/* aten::pop.t(t[](a!) self, int idx=-1) -> t(*) */
static int k_pop(TsCall *c)
{
    TsValue a[2], item;
    if (ts_prim_pop_args(c, "aten::pop", 2, (const uint32_t[]){ L, I }, a))
        return c->error->code;
    int rc = ts_list_pop(list_of(a[0]), a[1].u.i, &item, c->error);
    ts_value_release(a[0]);
    return rc ? rc : ts_stack_push(c->stack, item, c->error);
}

/* aten::Delete.t(t[](a!) self, int idx) -> ()   (del l[i]) */
static int k_delete(TsCall *c)
{
    TsValue a[2], item;
    if (ts_prim_pop_args(c, "aten::Delete", 2, (const uint32_t[]){ L, I }, a))
        return c->error->code;
    TsList *l = list_of(a[0]);
    int rc = l->len == 0 ? ts_error_set(c->error, TS_ERR_INDEX, "list index out of range")
                         : ts_list_pop(l, a[1].u.i, &item, c->error);
    if (!rc)
        ts_value_release(item);
    ts_value_release(a[0]);
    return rc;
}

/* aten::clear.t(t[](a!) self) -> () */
static int k_clear(TsCall *c)
{
    TsValue a[1];
    if (ts_prim_pop_args(c, "aten::clear", 1, (const uint32_t[]){ L }, a))
        return c->error->code;
    ts_list_clear(list_of(a[0]));
    ts_value_release(a[0]);
    return 0;
}

/* aten::reverse.t(t[](a!) self) -> () */
static int k_reverse(TsCall *c)
{
    TsValue a[1];
    if (ts_prim_pop_args(c, "aten::reverse", 1, (const uint32_t[]){ L }, a))
        return c->error->code;
    TsList *l = list_of(a[0]);
    for (size_t i = 0, j = l->len; j > 0 && i < --j; i++) {
        TsValue t = l->items[i];
        l->items[i] = l->items[j];
        l->items[j] = t;
    }
    ts_value_release(a[0]);
    return 0;
}

/* aten::copy.t(t[](a) self) -> t[]  and  aten::list.t(t[] l) -> t[]: a shallow copy. */
static int k_copy(TsCall *c)
{
    TsValue a[1];
    if (ts_prim_pop_args(c, "aten::copy", 1, (const uint32_t[]){ L }, a))
        return c->error->code;
    TsList *l = list_of(a[0]);
    TsList *r = list_copy_range(l, 0, l->len, c->error);
    ts_value_release(a[0]);
    return push_list(c, r);
}

/* aten::Size(int[] sizes) -> int[]: torch.Size([...]) is the list itself, as in PyTorch,
 * whose kernel does nothing: the argument stays on the stack as the result. */
static int k_size(TsCall *c)
{
    (void)c;
    return 0;
}

/* aten::add.t(t[] a, t[] b) -> t[]: a new list, a's items then b's. */
static int k_concat(TsCall *c)
{
    TsValue a[2];
    if (ts_prim_pop_args(c, "aten::add", 2, (const uint32_t[]){ L, L }, a))
        return c->error->code;
    TsList *x = list_of(a[0]), *y = list_of(a[1]), *r = NULL;
    if (y->len > ((size_t)-1) / sizeof(TsValue) - x->len)
        ts_error_set(c->error, TS_ERR_LIMIT, "list +: the list would be too long");
    else
        r = list_copy_range(x, 0, x->len, c->error);
    if (r && ts_list_reserve(r, x->len + y->len, c->error)) {
        ts_heap_release(&r->h);
        r = NULL;
    }
    for (size_t i = 0; r && i < y->len; i++) {
        ts_value_retain(y->items[i]);
        r->items[r->len++] = y->items[i];
    }
    ts_prim_release_args(a, 2);
    return push_list(c, r);
}

/* l repeated n times. PyTorch reserves len * n slots first, so a negative n on a non-empty
 * list fails ("vector::reserve") where Python would give []. */
static int repeat(TsCall *c, TsValue lv, int64_t n)
{
    TsList *l = list_of(lv), *r = NULL;
    if (l->len > 0 && n < 0)
        ts_error_set(c->error, TS_ERR_RUNTIME, "vector::reserve");
    else if (l->len > 0 && (uint64_t)n > ((size_t)-1) / sizeof(TsValue) / l->len)
        ts_error_set(c->error, TS_ERR_LIMIT, "list *: the list would be too long");
    else
        r = ts_list_new(l->elem_type, n > 0 ? l->len * (size_t)n : 0, c->error);
    for (int64_t k = 0; r && l->len > 0 && k < n; k++) {
        for (size_t i = 0; i < l->len; i++) {
            ts_value_retain(l->items[i]);
            r->items[r->len++] = l->items[i];
        }
    }
    ts_value_release(lv);
    return push_list(c, r);
}

/* aten::mul.left_t(t[] l, int n) -> t[] */
static int k_mul_left(TsCall *c)
{
    TsValue a[2];
    if (ts_prim_pop_args(c, "aten::mul", 2, (const uint32_t[]){ L, I }, a))
        return c->error->code;
    return repeat(c, a[0], a[1].u.i);
}

/* aten::mul.right_(int n, t[] l) -> t[] */
static int k_mul_right(TsCall *c)
{
    TsValue a[2];
    if (ts_prim_pop_args(c, "aten::mul", 2, (const uint32_t[]){ I, L }, a))
        return c->error->code;
    return repeat(c, a[1], a[0].u.i);
}

/* aten::mul_.t(t[](a!) l, int n) -> t[](a!): `l *= n` repeats l in place (n <= 0 empties it)
 * and pushes l back. */
static int k_mul_inplace(TsCall *c)
{
    TsValue a[2];
    if (ts_prim_pop_args(c, "aten::mul_", 2, (const uint32_t[]){ L, I }, a))
        return c->error->code;
    TsList *l = list_of(a[0]);
    int64_t n = a[1].u.i;
    size_t len = l->len;
    int rc = 0;
    if (n <= 0) {
        ts_list_clear(l);
    } else if (len > 0 && (uint64_t)n > ((size_t)-1) / sizeof(TsValue) / len) {
        rc = ts_error_set(c->error, TS_ERR_LIMIT, "list *=: the list would be too long");
    } else {
        rc = ts_list_reserve(l, len * (size_t)n, c->error);
        for (int64_t k = 1; !rc && k < n; k++) {
            for (size_t i = 0; i < len; i++) {
                ts_value_retain(l->items[i]);
                l->items[l->len++] = l->items[i];
            }
        }
    }
    if (rc) {
        ts_value_release(a[0]);
        return rc;
    }
    return ts_stack_push(c->stack, a[0], c->error);
}

/* Python's slice.indices(len): clamps start and end for the step's direction. */
static void slice_bounds(int64_t len, TsValue start_v, TsValue end_v, int64_t step,
                         int64_t *start, int64_t *end)
{
    int64_t lo = step < 0 ? -1 : 0, hi = step < 0 ? len - 1 : len;
    int64_t s = start_v.tag == TS_TAG_NONE ? (step < 0 ? hi : lo) : start_v.u.i;
    int64_t e = end_v.tag == TS_TAG_NONE ? (step < 0 ? lo : hi) : end_v.u.i;
    if (start_v.tag != TS_TAG_NONE && s < 0)
        s = s < -len ? lo : s + len;
    else if (s > hi)
        s = hi;
    if (end_v.tag != TS_TAG_NONE && e < 0)
        e = e < -len ? lo : e + len;
    else if (e > hi)
        e = hi;
    *start = s;
    *end = e;
}

/* aten::slice.t(t[] l, int? start=None, int? end=None, int step=1) -> t[] */
static int k_slice(TsCall *c)
{
    TsValue a[4];
    const uint32_t want[] = { L, TS_PRIM_OPT_INT, TS_PRIM_OPT_INT, I };
    if (ts_prim_pop_args(c, "aten::slice", 4, want, a))
        return c->error->code;
    int64_t step = a[3].u.i;
    if (step == 0) {
        ts_value_release(a[0]);
        return ts_error_set(c->error, TS_ERR_RUNTIME, "List slice should have non-zero step");
    }
    TsList *l = list_of(a[0]);
    int64_t start, end;
    slice_bounds((int64_t)l->len, a[1], a[2], step, &start, &end);
    /* count of start, start + step, ... strictly before end, computed without overflow */
    uint64_t n = 0;
    if (step > 0 && start < end)
        n = ((uint64_t)end - (uint64_t)start - 1) / (uint64_t)step + 1;
    else if (step < 0 && start > end)
        n = ((uint64_t)start - (uint64_t)end - 1) / (0u - (uint64_t)step) + 1;
    TsList *r = ts_list_new(l->elem_type, (size_t)n, c->error);
    int64_t i = start;
    for (uint64_t k = 0; r && k < n; k++) {
        ts_value_retain(l->items[i]);
        r->items[r->len++] = l->items[i];
        if (k + 1 < n)
            i += step;
    }
    ts_value_release(a[0]);
    return push_list(c, r);
}

static const TsPrimOp ops[] = {
    { "aten::len", k_len, { "t", "any" } },
    { "aten::__getitem__", k_getitem, { "t" } },
    { "aten::select", k_getitem, { "t" } },     /* torch.select(l, i) is l[i] */
    { "aten::_set_item", k_setitem, { "t" } },
    { "aten::append", k_append, { "t" } },
    { "aten::extend", k_extend, { "t" } },
    { "aten::insert", k_insert, { "t" } },
    { "aten::pop", k_pop, { "t" } },
    { "aten::Delete", k_delete, { "t" } },
    { "aten::clear", k_clear, { "t" } },
    { "aten::reverse", k_reverse, { "t" } },
    { "aten::copy", k_copy, { "t" } },
    { "aten::list", k_copy, { "t" } },
    { "aten::Size", k_size, { "" } },
    { "aten::add", k_concat, { "t" } },
    { "aten::add_", k_add_inplace, { "t" } },
    { "aten::mul", k_mul_left, { "left_t" } },
    { "aten::mul", k_mul_right, { "right_" } },
    { "aten::mul_", k_mul_inplace, { "t" } },
    { "aten::slice", k_slice, { "t" } },
};

const TsPrimTable ts_prim_list_table = { ops, sizeof ops / sizeof ops[0] };
