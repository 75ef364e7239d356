/* values.c — building and reading values through the embedding API without touching the
 * structs of value.h: strings, tuples, lists and dicts from arrays, typed readers that say
 * what a value is when it is not what was asked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tscript/print.h"
#include "tscript/tscript.h"

TsValue ts_tensor_value(TsTensor *t) { return t ? ts_obj_value(t, TS_TAG_TENSOR) : ts_none(); }

/* The code of an error a callee set (out of memory when the caller passed no TsError). */
static int code_of(const TsError *err)
{
    return err && err->code ? (int)err->code : TS_ERR_NOMEM;
}

static void release_all(TsValue *items, size_t n)
{
    for (size_t i = 0; items && i < n; i++)
        ts_value_release(items[i]);
}

int ts_value_str_new(const char *s, size_t len, TsValue *out, TsError *err)
{
    *out = ts_none();
    if (!s && len)
        return ts_error_set(err, TS_ERR_USAGE, "ts_value_str_new: no string");
    TsStr *str = ts_str_new(s ? s : "", len, err);
    if (!str)
        return code_of(err);
    *out = ts_str_value(str);
    return 0;
}

int ts_value_tuple_new(TsValue *items, size_t n, TsValue *out, TsError *err)
{
    *out = ts_none();
    if (!items && n)
        return ts_error_set(err, TS_ERR_USAGE, "ts_value_tuple_new: no items");
    TsTuple *t = ts_tuple_new(NULL, n, err);
    if (!t) {
        release_all(items, n);
        return code_of(err);
    }
    for (size_t i = 0; i < n; i++)
        t->items[i] = items[i];
    *out = ts_obj_value(t, TS_TAG_TUPLE);
    return 0;
}

/* TS_ERR_TYPE unless v is a value of type t ("what" names the position in messages). */
static int check_type(TsValue v, const TsType *t, const char *what, size_t i, TsError *err)
{
    const TsType *vt = ts_value_type(v);
    if (!vt)   /* its type could not be made: not a mismatch */
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    if (vt == t || ts_type_is_subtype_of(vt, t))
        return 0;
    char want[256], got[256];
    ts_type_annotation(t, want, sizeof want);
    ts_type_annotation(vt, got, sizeof got);
    return ts_error_set(err, TS_ERR_TYPE, "%s %zu: expected a value of type '%s' but found "
                        "type '%s'", what, i, want, got);
}

int ts_value_list_new(const TsType *elem_type, TsValue *items, size_t n, TsValue *out,
                      TsError *err)
{
    *out = ts_none();
    int rc = !elem_type || (!items && n)
                 ? ts_error_set(err, TS_ERR_USAGE, "ts_value_list_new: no %s",
                                elem_type ? "items" : "element type")
                 : 0;
    for (size_t i = 0; i < n && !rc; i++)
        rc = check_type(items[i], elem_type, "list item", i, err);
    TsList *l = rc ? NULL : ts_list_new(elem_type, n, err);
    if (!l) {
        release_all(items, n);
        return rc ? rc : code_of(err);
    }
    for (size_t i = 0; i < n; i++)
        ts_list_append(l, items[i], NULL);   /* reserved above: cannot fail */
    *out = ts_obj_value(l, TS_TAG_LIST);
    return 0;
}

int ts_value_dict_new(const TsType *key_type, const TsType *value_type, TsValue *keys,
                      TsValue *values, size_t n, TsValue *out, TsError *err)
{
    *out = ts_none();
    int rc = !key_type || !value_type || ((!keys || !values) && n)
                 ? ts_error_set(err, TS_ERR_USAGE, "ts_value_dict_new: no %s",
                                key_type && value_type ? "items" : "type")
                 : 0;
    for (size_t i = 0; i < n && !rc; i++) {
        rc = check_type(keys[i], key_type, "dict key", i, err);
        if (!rc)
            rc = check_type(values[i], value_type, "dict value", i, err);
    }
    TsDict *d = rc ? NULL : ts_dict_new(key_type, value_type, err);
    if (!d) {
        release_all(keys, n);
        release_all(values, n);
        return rc ? rc : code_of(err);
    }
    for (size_t i = 0; i < n; i++) {
        rc = ts_dict_set(d, keys[i], values[i], err);
        if (rc) {
            release_all(keys + i + 1, n - i - 1);
            release_all(values + i + 1, n - i - 1);
            ts_value_release(ts_obj_value(d, TS_TAG_DICT));
            return rc;
        }
    }
    *out = ts_obj_value(d, TS_TAG_DICT);
    return 0;
}

/* ---- reading ------------------------------------------------------------------------ */

static int not_a(TsValue v, const char *want, TsError *err)
{
    char got[256];
    if (v.tag >= TS_TAG__COUNT || (ts_is_heap(v) && !v.u.p))
        snprintf(got, sizeof got, "an invalid value");
    else
        ts_type_annotation(ts_value_type(v), got, sizeof got);
    return ts_error_set(err, TS_ERR_TYPE, "expected a value of type '%s' but found type '%s'",
                        want, got);
}

int ts_value_to_int(TsValue v, int64_t *out, TsError *err)
{
    if (v.tag != TS_TAG_INT)
        return not_a(v, "int", err);
    *out = v.u.i;
    return 0;
}

int ts_value_to_double(TsValue v, double *out, TsError *err)
{
    if (v.tag == TS_TAG_INT)
        *out = (double)v.u.i;
    else if (v.tag == TS_TAG_DOUBLE)
        *out = v.u.d;
    else
        return not_a(v, "float", err);
    return 0;
}

int ts_value_to_bool(TsValue v, bool *out, TsError *err)
{
    if (v.tag != TS_TAG_BOOL)
        return not_a(v, "bool", err);
    *out = v.u.b;
    return 0;
}

int ts_value_to_str(TsValue v, const char **data, size_t *len, TsError *err)
{
    if (v.tag != TS_TAG_STR || !v.u.p)
        return not_a(v, "str", err);
    const TsStr *s = (const TsStr *)v.u.p;
    *data = s->data;
    if (len)
        *len = s->len;
    return 0;
}

int ts_value_to_tensor(TsValue v, TsTensor **out, TsError *err)
{
    if (v.tag != TS_TAG_TENSOR || !v.u.p)
        return not_a(v, "Tensor", err);
    *out = (TsTensor *)v.u.p;
    return 0;
}

size_t ts_value_len(TsValue v)
{
    if (!ts_is_heap(v) || !v.u.p)
        return 0;
    switch (v.tag) {
    case TS_TAG_STR: return ((const TsStr *)v.u.p)->len;
    case TS_TAG_LIST: {
        bool locked = ts_shared_lock_if(v);
        size_t n = ((const TsList *)v.u.p)->len;
        if (locked)
            ts_shared_unlock();
        return n;
    }
    case TS_TAG_TUPLE: return ((const TsTuple *)v.u.p)->len;
    case TS_TAG_DICT: {
        bool locked = ts_shared_lock_if(v);
        size_t n = ts_dict_len((const TsDict *)v.u.p);
        if (locked)
            ts_shared_unlock();
        return n;
    }
    default: return 0;
    }
}

int ts_value_item(TsValue v, size_t i, TsValue *out, TsError *err)
{
    *out = ts_none();
    if (v.tag == TS_TAG_TUPLE && v.u.p) {
        const TsTuple *t = (const TsTuple *)v.u.p;
        if (i >= t->len)
            return ts_error_set(err, TS_ERR_INDEX, "tuple index out of range");
        *out = t->items[i];
        return 0;
    }
    if (v.tag != TS_TAG_LIST || !v.u.p)
        return not_a(v, "List[t] or Tuple", err);
    bool locked = ts_shared_lock_if(v);
    const TsList *l = (const TsList *)v.u.p;
    int rc = 0;
    if (i >= l->len)
        rc = ts_error_set(err, TS_ERR_INDEX, "list index out of range");
    else
        *out = l->items[i];
    if (locked)
        ts_shared_unlock();
    return rc;
}

int ts_value_dict_get(TsValue v, TsValue key, TsValue *out, TsError *err)
{
    *out = ts_none();
    if (v.tag != TS_TAG_DICT || !v.u.p)
        return not_a(v, "Dict", err);
    bool locked = ts_shared_lock_if(v);
    bool found = ts_dict_get((const TsDict *)v.u.p, key, out);
    if (locked)
        ts_shared_unlock();
    if (found)
        return 0;
    char *k = ts_value_to_cstr(NULL, key, NULL);
    ts_error_set(err, TS_ERR_KEY, "%s", k ? k : "(key)");
    free(k);
    return TS_ERR_KEY;
}
