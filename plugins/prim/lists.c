/* lists.c — List[t] basics: len, indexing, item assignment, append.
 *
 * Generic over the element type: a list holds TsValues whatever t is, so one kernel serves
 * List[int] and List[Tensor] alike. Index errors come from ts_list_get/ts_list_set (IndexError
 * "list index out of range", Python's negative indices). The mutating ops return the list
 * they were given (their schemas say t[](a!) in and out), so they push the popped reference
 * back.
 */
#include <stdbool.h>

#include "prim.h"

/* Pops the n arguments into argv (deepest first); checks that argv[0] is a list and, when
 * indexed, that argv[1] is an int. */
static int pop_list_args(TsCall *c, const char *op, size_t n, bool indexed, TsValue *argv)
{
    for (size_t i = n; i-- > 0;)
        argv[i] = ts_stack_pop(c->stack);
    if (argv[0].tag == TS_TAG_LIST && (!indexed || argv[1].tag == TS_TAG_INT))
        return 0;
    for (size_t i = 0; i < n; i++)
        ts_value_release(argv[i]);
    return ts_error_set(c->error, TS_ERR_TYPE, "aten::%s: expected a list%s", op,
                        indexed ? " and an int index" : "");
}

/* aten::len.t(t[] a) -> int */
static int k_len(TsCall *c)
{
    TsValue a[1];
    if (pop_list_args(c, "len", 1, false, a))
        return c->error->code;
    int64_t n = (int64_t)((TsList *)a[0].u.p)->len;
    ts_value_release(a[0]);
    return ts_stack_push(c->stack, ts_int(n), c->error);
}

/* aten::__getitem__.t(t[](a) list, int idx) -> t(*) */
static int k_getitem(TsCall *c)
{
    TsValue a[2], item;
    if (pop_list_args(c, "__getitem__", 2, true, a))
        return c->error->code;
    int rc = ts_list_get((TsList *)a[0].u.p, a[1].u.i, &item, c->error);
    if (!rc)
        ts_value_retain(item);
    ts_value_release(a[0]);
    return rc ? rc : ts_stack_push(c->stack, item, c->error);
}

/* aten::_set_item.t(t[](a!) l, int idx, t(b -> *) el) -> t[](a!) */
static int k_setitem(TsCall *c)
{
    TsValue a[3];
    if (pop_list_args(c, "_set_item", 3, true, a))
        return c->error->code;
    int rc = ts_list_set((TsList *)a[0].u.p, a[1].u.i, a[2], c->error);
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
    if (pop_list_args(c, "append", 2, false, a))
        return c->error->code;
    int rc = ts_list_append((TsList *)a[0].u.p, a[1], c->error);
    if (rc) {
        ts_value_release(a[0]);
        return rc;
    }
    return ts_stack_push(c->stack, a[0], c->error);
}

static const TsPrimOp ops[] = {
    { "aten::len", k_len, { "t" } },
    { "aten::__getitem__", k_getitem, { "t" } },
    { "aten::_set_item", k_setitem, { "t" } },
    { "aten::append", k_append, { "t" } },
};

const TsPrimTable ts_prim_list_table = { ops, sizeof ops / sizeof ops[0] };
