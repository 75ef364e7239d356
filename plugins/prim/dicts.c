/* dicts.c — Dict[K, V]: indexing and item assignment, del, len, in, the methods (keys,
 * values, items, get, setdefault, pop, popitem, clear, update, copy) and dict().
 *
 * PyTorch declares every dict operator once per key type (str, int, bool, float, complex,
 * Tensor); the dict itself (core/value/dict.c) hashes and compares keys whatever their type, so one
 * kernel serves all six overloads. Dicts keep insertion order. PyTorch 1.13's behaviour,
 * checked with torch.jit.script:
 *
 *   - a missing key is a KeyError whose message is the key as print() shows it
 *     ("KeyError: zz", "KeyError: 5.", "KeyError: True": no quotes around strings);
 *   - popitem() removes the FIRST item (Python removes the last), and on an empty dict fails
 *     with "popitem(): dictionary is empty";
 *   - keys(), values() and items() are new lists in insertion order.
 */
#include <stdbool.h>
#include <stdlib.h>

#include "tscript/print.h"
#include "prim.h"

#define D TS_TAG_DICT
#define ANY TS_PRIM_ANY

/* "str", "int", ... with a prefix: the six overload names of one operator. */
#define KEY_OVERLOADS(prefix) \
    { prefix "str", prefix "int", prefix "bool", prefix "float", prefix "complex", \
      prefix "Tensor" }

static TsDict *dict_of(TsValue v)
{
    return (TsDict *)v.u.p;
}

static void dict_release(TsDict *d)
{
    ts_value_release(ts_obj_value(d, TS_TAG_DICT));
}

static int key_error(TsCall *c, TsValue key)
{
    char *text = ts_value_to_cstr(c->runtime, key, c->error);
    if (text)
        ts_error_set(c->error, TS_ERR_KEY, "%s", text);
    free(text);
    return c->error->code;
}

static int push_dict(TsCall *c, TsDict *d)
{
    if (!d)
        return c->error->code;
    return ts_stack_push(c->stack, ts_obj_value(d, TS_TAG_DICT), c->error);
}

/* A new dict of src's types with src's items, in order. */
static TsDict *dict_copy(const TsDict *src, TsError *err)
{
    TsDict *d = ts_dict_new(ts_dict_key_type(src), ts_dict_value_type(src), err);
    size_t pos = 0;
    TsValue k, v;
    while (d && ts_dict_next(src, &pos, &k, &v)) {
        ts_value_retain(k);
        ts_value_retain(v);
        if (ts_dict_set(d, k, v, err)) {
            dict_release(d);
            d = NULL;
        }
    }
    return d;
}

/* aten::__getitem__.Dict_K(Dict(K, t) self, K key) -> t(*) */
static int k_getitem(TsCall *c)
{
    TsValue a[2], v;
    if (ts_prim_pop_args(c, "aten::__getitem__", 2, (const uint32_t[]){ D, ANY }, a))
        return c->error->code;
    int rc = 0;
    if (ts_dict_get(dict_of(a[0]), a[1], &v))
        ts_value_retain(v);
    else
        rc = key_error(c, a[1]);
    ts_prim_release_args(a, 2);
    return rc ? rc : ts_stack_push(c->stack, v, c->error);
}

/* aten::_set_item.K(Dict(K, t)(a!) l, K(b -> *) idx, t(c -> *) v) -> () */
static int k_setitem(TsCall *c)
{
    TsValue a[3];
    if (ts_prim_pop_args(c, "aten::_set_item", 3, (const uint32_t[]){ D, ANY, ANY }, a))
        return c->error->code;
    int rc = ts_dict_set(dict_of(a[0]), a[1], a[2], c->error);
    ts_value_release(a[0]);
    return rc;
}

/* aten::Delete.Dict_K(Dict(K, t)(a!) self, K key) -> ()   (del d[k]) */
static int k_delete(TsCall *c)
{
    TsValue a[2];
    if (ts_prim_pop_args(c, "aten::Delete", 2, (const uint32_t[]){ D, ANY }, a))
        return c->error->code;
    int rc = ts_dict_delete(dict_of(a[0]), a[1], NULL) ? 0 : key_error(c, a[1]);
    ts_prim_release_args(a, 2);
    return rc;
}

/* aten::len.Dict_K(Dict(K, t) self) -> int */
static int k_len(TsCall *c)
{
    TsValue a[1];
    if (ts_prim_pop_args(c, "aten::len", 1, (const uint32_t[]){ D }, a))
        return c->error->code;
    int64_t n = (int64_t)ts_dict_len(dict_of(a[0]));
    ts_value_release(a[0]);
    return ts_stack_push(c->stack, ts_int(n), c->error);
}

/* aten::__contains__.K(Dict(K, t) dict, K key) -> bool */
static int k_contains(TsCall *c)
{
    TsValue a[2], v;
    if (ts_prim_pop_args(c, "aten::__contains__", 2, (const uint32_t[]){ D, ANY }, a))
        return c->error->code;
    bool in = ts_dict_get(dict_of(a[0]), a[1], &v);
    ts_prim_release_args(a, 2);
    return ts_stack_push(c->stack, ts_bool(in), c->error);
}

/* The (key, value) tuple of an item, with new references. */
static TsTuple *item_tuple(const TsType *type, TsValue k, TsValue v, TsError *err)
{
    TsTuple *t = ts_tuple_new(type, 2, err);
    if (t) {
        ts_value_retain(k);
        ts_value_retain(v);
        t->items[0] = k;
        t->items[1] = v;
    }
    return t;
}

static const TsType *item_type(const TsDict *d)
{
    const TsType *kv[2] = { ts_dict_key_type(d), ts_dict_value_type(d) };
    return ts_type_tuple(2, kv);
}

typedef enum View { VIEW_KEYS, VIEW_VALUES, VIEW_ITEMS } View;

/* keys(), values() or items() as a new list. */
static int view(TsCall *c, View what)
{
    static const char *const names[] = { "aten::keys", "aten::values", "aten::items" };
    TsValue a[1];
    if (ts_prim_pop_args(c, names[what], 1, (const uint32_t[]){ D }, a))
        return c->error->code;
    TsDict *d = dict_of(a[0]);
    const TsType *elem = what == VIEW_KEYS ? ts_dict_key_type(d)
                         : what == VIEW_VALUES ? ts_dict_value_type(d) : item_type(d);
    TsList *l = elem ? ts_list_new(elem, ts_dict_len(d), c->error) : NULL;
    if (!elem)
        ts_error_set(c->error, TS_ERR_NOMEM, "out of memory making a tuple type");
    size_t pos = 0;
    TsValue k, v;
    while (l && ts_dict_next(d, &pos, &k, &v)) {
        TsValue item = what == VIEW_KEYS ? k : v;
        if (what == VIEW_ITEMS) {
            TsTuple *t = item_tuple(elem, k, v, c->error);
            if (!t) {
                ts_heap_release(&l->h);
                l = NULL;
                break;
            }
            item = ts_obj_value(t, TS_TAG_TUPLE);
        } else {
            ts_value_retain(item);
        }
        l->items[l->len++] = item;
    }
    ts_value_release(a[0]);
    if (!l)
        return c->error->code;
    return ts_stack_push(c->stack, ts_obj_value(l, TS_TAG_LIST), c->error);
}

static int k_keys(TsCall *c) { return view(c, VIEW_KEYS); }
static int k_values(TsCall *c) { return view(c, VIEW_VALUES); }
static int k_items(TsCall *c) { return view(c, VIEW_ITEMS); }

/* aten::get.K(Dict(K, t) self, K key) -> t(*)?   (None when absent) */
static int k_get(TsCall *c)
{
    TsValue a[2], v;
    if (ts_prim_pop_args(c, "aten::get", 2, (const uint32_t[]){ D, ANY }, a))
        return c->error->code;
    if (ts_dict_get(dict_of(a[0]), a[1], &v))
        ts_value_retain(v);
    else
        v = ts_none();
    ts_prim_release_args(a, 2);
    return ts_stack_push(c->stack, v, c->error);
}

/* aten::get.default_K(Dict(K, t) self, K key, t default_value) -> t(*) */
static int k_get_default(TsCall *c)
{
    TsValue a[3], v;
    if (ts_prim_pop_args(c, "aten::get", 3, (const uint32_t[]){ D, ANY, ANY }, a))
        return c->error->code;
    if (ts_dict_get(dict_of(a[0]), a[1], &v)) {
        ts_value_retain(v);
    } else {
        v = a[2];
        a[2] = ts_none();
    }
    ts_prim_release_args(a, 3);
    return ts_stack_push(c->stack, v, c->error);
}

/* aten::setdefault.K(Dict(K, t)(a!) self, K(b -> *) key, t(c -> *) default_value) -> t(*) */
static int k_setdefault(TsCall *c)
{
    TsValue a[3], v;
    if (ts_prim_pop_args(c, "aten::setdefault", 3, (const uint32_t[]){ D, ANY, ANY }, a))
        return c->error->code;
    int rc = 0;
    if (ts_dict_get(dict_of(a[0]), a[1], &v)) {
        ts_value_retain(v);
        ts_prim_release_args(&a[1], 2);
    } else {
        v = a[2];
        ts_value_retain(v);
        rc = ts_dict_set(dict_of(a[0]), a[1], a[2], c->error);
        if (rc)
            ts_value_release(v);
    }
    ts_value_release(a[0]);
    return rc ? rc : ts_stack_push(c->stack, v, c->error);
}

/* aten::pop.Dict_K(Dict(K, t)(a!) self, K key) -> t(*): KeyError when absent. */
static int k_pop(TsCall *c)
{
    TsValue a[2], v;
    if (ts_prim_pop_args(c, "aten::pop", 2, (const uint32_t[]){ D, ANY }, a))
        return c->error->code;
    int rc = ts_dict_delete(dict_of(a[0]), a[1], &v) ? 0 : key_error(c, a[1]);
    ts_prim_release_args(a, 2);
    return rc ? rc : ts_stack_push(c->stack, v, c->error);
}

/* aten::pop.Dict_default_K(Dict(K, t)(a!) self, K key, t default_value) -> t(*) */
static int k_pop_default(TsCall *c)
{
    TsValue a[3], v;
    if (ts_prim_pop_args(c, "aten::pop", 3, (const uint32_t[]){ D, ANY, ANY }, a))
        return c->error->code;
    if (!ts_dict_delete(dict_of(a[0]), a[1], &v)) {
        v = a[2];
        a[2] = ts_none();
    }
    ts_prim_release_args(a, 3);
    return ts_stack_push(c->stack, v, c->error);
}

/* aten::popitem.K(Dict(K, t)(a!) self) -> ((K, t)): the first item. */
static int k_popitem(TsCall *c)
{
    TsValue a[1], k, v;
    if (ts_prim_pop_args(c, "aten::popitem", 1, (const uint32_t[]){ D }, a))
        return c->error->code;
    TsDict *d = dict_of(a[0]);
    size_t pos = 0;
    TsTuple *t = NULL;
    if (!ts_dict_next(d, &pos, &k, &v)) {
        ts_error_set(c->error, TS_ERR_RUNTIME, "popitem(): dictionary is empty");
    } else {
        const TsType *type = item_type(d);
        t = type ? item_tuple(type, k, v, c->error) : NULL;
        if (!type)
            ts_error_set(c->error, TS_ERR_NOMEM, "out of memory making a tuple type");
        if (t)
            ts_dict_delete(d, t->items[0], NULL);
    }
    ts_value_release(a[0]);
    if (!t)
        return c->error->code;
    return ts_stack_push(c->stack, ts_obj_value(t, TS_TAG_TUPLE), c->error);
}

/* aten::clear.K(Dict(K, t)(a!) self) -> () */
static int k_clear(TsCall *c)
{
    TsValue a[1];
    if (ts_prim_pop_args(c, "aten::clear", 1, (const uint32_t[]){ D }, a))
        return c->error->code;
    ts_dict_clear(dict_of(a[0]));
    ts_value_release(a[0]);
    return 0;
}

/* aten::update.K(Dict(K, t)(a!) self, Dict(K, t)(a!) to_add) -> ()
 * d.update(d) only replaces values by themselves: the dict does not grow while we walk it. */
static int k_update(TsCall *c)
{
    TsValue a[2], k, v;
    if (ts_prim_pop_args(c, "aten::update", 2, (const uint32_t[]){ D, D }, a))
        return c->error->code;
    TsDict *d = dict_of(a[0]), *add = dict_of(a[1]);
    size_t pos = 0;
    int rc = 0;
    while (!rc && ts_dict_next(add, &pos, &k, &v)) {
        ts_value_retain(k);
        ts_value_retain(v);
        rc = ts_dict_set(d, k, v, c->error);
    }
    ts_prim_release_args(a, 2);
    return rc;
}

/* aten::copy.Dict_K(Dict(K, t)(a) self) -> Dict(K, t), and aten::dict.Dict_K (dict(d)). */
static int k_copy(TsCall *c)
{
    TsValue a[1];
    if (ts_prim_pop_args(c, "aten::copy", 1, (const uint32_t[]){ D }, a))
        return c->error->code;
    TsDict *d = dict_copy(dict_of(a[0]), c->error);
    ts_value_release(a[0]);
    return push_dict(c, d);
}

/* aten::dict() -> Dict(str, Tensor) */
static int k_dict_empty(TsCall *c)
{
    return push_dict(c, ts_dict_new(ts_type_str(), ts_type_tensor(), c->error));
}

/* aten::dict.K((K, tVal)[] inputs) -> Dict(K, tVal): later pairs replace earlier ones. */
static int k_dict_from_pairs(TsCall *c)
{
    TsValue a[1];
    if (ts_prim_pop_args(c, "aten::dict", 1, (const uint32_t[]){ TS_TAG_LIST }, a))
        return c->error->code;
    const TsList *l = (const TsList *)a[0].u.p;
    const TsType *tt = l->elem_type;
    bool pairs = ts_type_kind(tt) == TS_TYPE_TUPLE && ts_type_num_elems(tt) == 2;
    TsDict *d = ts_dict_new(pairs ? ts_type_elem(tt, 0) : ts_type_any(),
                            pairs ? ts_type_elem(tt, 1) : ts_type_any(), c->error);
    for (size_t i = 0; d && i < l->len; i++) {
        const TsTuple *t = l->items[i].tag == TS_TAG_TUPLE ? (const TsTuple *)l->items[i].u.p
                                                           : NULL;
        int rc;
        if (!t || t->len != 2) {
            rc = ts_error_set(c->error, TS_ERR_TYPE, "aten::dict: expected (key, value) pairs");
        } else {
            ts_value_retain(t->items[0]);
            ts_value_retain(t->items[1]);
            rc = ts_dict_set(d, t->items[0], t->items[1], c->error);
        }
        if (rc) {
            dict_release(d);
            d = NULL;
        }
    }
    ts_value_release(a[0]);
    return push_dict(c, d);
}

static const TsPrimOp ops[] = {
    { "aten::__getitem__", k_getitem, KEY_OVERLOADS("Dict_") },
    { "aten::_set_item", k_setitem, KEY_OVERLOADS("") },
    { "aten::Delete", k_delete, KEY_OVERLOADS("Dict_") },
    { "aten::len", k_len, KEY_OVERLOADS("Dict_") },
    { "aten::__contains__", k_contains, KEY_OVERLOADS("") },
    { "aten::keys", k_keys, KEY_OVERLOADS("") },
    { "aten::values", k_values, KEY_OVERLOADS("") },
    { "aten::items", k_items, KEY_OVERLOADS("") },
    { "aten::get", k_get, KEY_OVERLOADS("") },
    { "aten::get", k_get_default, KEY_OVERLOADS("default_") },
    { "aten::setdefault", k_setdefault, KEY_OVERLOADS("") },
    { "aten::pop", k_pop, KEY_OVERLOADS("Dict_") },
    { "aten::pop", k_pop_default, KEY_OVERLOADS("Dict_default_") },
    { "aten::popitem", k_popitem, KEY_OVERLOADS("") },
    { "aten::clear", k_clear, KEY_OVERLOADS("") },
    { "aten::update", k_update, KEY_OVERLOADS("") },
    { "aten::copy", k_copy, KEY_OVERLOADS("Dict_") },
    { "aten::dict", k_copy, KEY_OVERLOADS("Dict_") },
    { "aten::dict", k_dict_from_pairs, KEY_OVERLOADS("") },
    { "aten::dict", k_dict_empty, { "" } },
};

const TsPrimTable ts_prim_dict_table = { ops, sizeof ops / sizeof ops[0] };
