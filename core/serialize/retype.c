/* retype.c — ts_pickle_retype: checking an unpickled value against a static type and
 * giving its untyped containers that type (PyTorch's restoreAccurateTypeTags).
 *
 * A pickle does not say what a list or dict holds; PyTorch's unpickler builds them as
 * List[Any] / Dict[Any, Any] and sets their element types afterwards from the types it
 * knows (restore_type_tag's annotation, a class's attribute types) without looking at the
 * elements. tscript looks: every element of a container it types is checked against the
 * type, so a pickle cannot make an int kernel read a str. Containers typed already (by
 * build_intlist, an earlier restore_type_tag) are compared, not entered again; a container
 * met twice is checked once per type (the memo), so shared values cost nothing more.
 * Recursion is bounded by TS_PICKLE_MAX_DEPTH (the unpickler's own bound on nesting).
 */
#include <stdio.h>
#include <string.h>

#include "ptrmap.h"
#include "serialize/pickle.h"

typedef struct Retype {
    TsPtrMap seen;             /* container -> the type it was checked against */
    TsError *err;
} Retype;

static const char *tag_name(TsValue v)
{
    static const char *const names[] = {
        [TS_TAG_NONE] = "None", [TS_TAG_INT] = "int", [TS_TAG_DOUBLE] = "float",
        [TS_TAG_BOOL] = "bool", [TS_TAG_DEVICE] = "Device", [TS_TAG_UNINIT] = "nothing",
        [TS_TAG_STR] = "str", [TS_TAG_COMPLEX] = "complex", [TS_TAG_LIST] = "list",
        [TS_TAG_DICT] = "dict", [TS_TAG_TUPLE] = "tuple", [TS_TAG_OBJECT] = "object",
        [TS_TAG_TENSOR] = "Tensor", [TS_TAG_FUTURE] = "Future", [TS_TAG_ENUM] = "enum",
        [TS_TAG_CAPSULE] = "capsule", [TS_TAG_STORAGE] = "Storage",
    };
    return v.tag < TS_TAG__COUNT ? names[v.tag] : "?";
}

static int mismatch(Retype *r, TsValue v, const TsType *t)
{
    char want[256];
    ts_type_annotation(t, want, sizeof want);
    return ts_error_set(r->err, TS_ERR_TYPE, "pickle: expected %s, got a %s", want,
                        tag_name(v));
}

/* Does v's kind fit t at a glance (for choosing a Union's member)? */
static bool kind_fits(TsValue v, const TsType *t)
{
    switch (ts_type_kind(t)) {
    case TS_TYPE_ANY: return true;
    case TS_TYPE_NONE: return v.tag == TS_TAG_NONE;
    case TS_TYPE_INT: case TS_TYPE_SCALARTYPE: case TS_TYPE_LAYOUT:
    case TS_TYPE_MEMORYFORMAT: case TS_TYPE_QSCHEME:
        return v.tag == TS_TAG_INT;
    case TS_TYPE_FLOAT: return v.tag == TS_TAG_DOUBLE;
    case TS_TYPE_BOOL: return v.tag == TS_TAG_BOOL;
    case TS_TYPE_STR: return v.tag == TS_TAG_STR;
    case TS_TYPE_COMPLEX: return v.tag == TS_TAG_COMPLEX;
    case TS_TYPE_NUMBER:
        return v.tag == TS_TAG_INT || v.tag == TS_TAG_DOUBLE || v.tag == TS_TAG_COMPLEX;
    case TS_TYPE_DEVICE: return v.tag == TS_TAG_DEVICE;
    case TS_TYPE_TENSOR: return v.tag == TS_TAG_TENSOR;
    case TS_TYPE_STORAGE: return v.tag == TS_TAG_STORAGE;
    case TS_TYPE_LIST: case TS_TYPE_ANY_LIST: return v.tag == TS_TAG_LIST;
    case TS_TYPE_DICT: return v.tag == TS_TAG_DICT;
    case TS_TYPE_TUPLE: case TS_TYPE_ANY_TUPLE: return v.tag == TS_TAG_TUPLE;
    case TS_TYPE_CLASS: case TS_TYPE_MODULE: case TS_TYPE_INTERFACE:
        return v.tag == TS_TAG_OBJECT &&
               ts_type_is_subtype_of(((const TsObject *)v.u.p)->cls, t);
    case TS_TYPE_ANY_CLASS: return v.tag == TS_TAG_OBJECT;
    case TS_TYPE_ENUM: return v.tag == TS_TAG_ENUM && ((const TsEnumValue *)v.u.p)->type == t;
    case TS_TYPE_ANY_ENUM: return v.tag == TS_TAG_ENUM;
    case TS_TYPE_OPTIONAL: return v.tag == TS_TAG_NONE || kind_fits(v, ts_type_elem(t, 0));
    case TS_TYPE_UNION:
        for (size_t i = 0; i < ts_type_num_elems(t); i++)
            if (kind_fits(v, ts_type_elem(t, i)))
                return true;
        return false;
    default:
        return false;
    }
}

static int retype(Retype *r, TsValue v, const TsType *t, int depth);

/* An untyped container (Any elements) gets its type; a typed one must have this one. */
static bool untyped(const TsType *elem)
{
    return !elem || ts_type_kind(elem) == TS_TYPE_ANY;
}

static int retype_list(Retype *r, TsList *l, const TsType *t, int depth)
{
    const TsType *elem = ts_type_elem(t, 0);
    if (l->elem_type && ts_type_equal(l->elem_type, elem))
        return 0;
    if (!untyped(l->elem_type))
        return mismatch(r, ts_obj_value(l, TS_TAG_LIST), t);
    for (size_t i = 0; i < l->len; i++) {
        int rc = retype(r, l->items[i], elem, depth + 1);
        if (rc)
            return rc;
    }
    l->elem_type = elem;
    return 0;
}

static int retype_dict(Retype *r, TsDict *d, const TsType *t, int depth)
{
    const TsType *k = ts_type_elem(t, 0), *v = ts_type_elem(t, 1);
    const TsType *dk = ts_dict_key_type(d), *dv = ts_dict_value_type(d);
    if (dk && dv && ts_type_equal(dk, k) && ts_type_equal(dv, v))
        return 0;
    if (!untyped(dk) || !untyped(dv))
        return mismatch(r, ts_obj_value(d, TS_TAG_DICT), t);
    size_t pos = 0;
    TsValue key, value;
    while (ts_dict_next(d, &pos, &key, &value)) {
        int rc = retype(r, key, k, depth + 1);
        if (!rc)
            rc = retype(r, value, v, depth + 1);
        if (rc)
            return rc;
    }
    ts_dict_set_types(d, k, v);
    return 0;
}

static int retype_tuple(Retype *r, TsTuple *tu, const TsType *t, int depth)
{
    bool named = ts_type_name(t) != NULL;
    if (tu->len != ts_type_num_elems(t) || (tu->type && tu->type != t))
        return mismatch(r, ts_obj_value(tu, TS_TAG_TUPLE), t);
    for (size_t i = 0; i < tu->len; i++) {
        int rc = retype(r, tu->items[i], ts_type_elem(t, i), depth + 1);
        if (rc)
            return rc;
    }
    if (named)
        tu->type = t;          /* a NamedTuple pickles as a plain tuple */
    return 0;
}

static int retype(Retype *r, TsValue v, const TsType *t, int depth)
{
    if (depth > TS_PICKLE_MAX_DEPTH)
        return ts_error_set(r->err, TS_ERR_LIMIT, "pickle: values nest more than %d deep",
                            TS_PICKLE_MAX_DEPTH);
    TsTypeKind kind = ts_type_kind(t);
    if (kind == TS_TYPE_OPTIONAL)
        return v.tag == TS_TAG_NONE ? 0 : retype(r, v, ts_type_elem(t, 0), depth);
    if (kind == TS_TYPE_UNION) {
        for (size_t i = 0; i < ts_type_num_elems(t); i++)
            if (kind_fits(v, ts_type_elem(t, i)))
                return retype(r, v, ts_type_elem(t, i), depth);
        return mismatch(r, v, t);
    }
    if (!kind_fits(v, t))
        return mismatch(r, v, t);
    if (v.tag != TS_TAG_LIST && v.tag != TS_TAG_DICT && v.tag != TS_TAG_TUPLE)
        return 0;              /* a leaf, or an object/enum checked by its class */
    if (kind != TS_TYPE_LIST && kind != TS_TYPE_DICT && kind != TS_TYPE_TUPLE)
        return 0;              /* Any, AnyList, AnyTuple: nothing to give */
    uintptr_t had;
    if (ts_ptrmap_get(&r->seen, v.u.p, &had) && (const TsType *)had == t)
        return 0;
    if (ts_ptrmap_put(&r->seen, v.u.p, (uintptr_t)t) < 0)
        return ts_error_set(r->err, TS_ERR_NOMEM, "out of memory");
    switch (kind) {
    case TS_TYPE_LIST: return retype_list(r, (TsList *)v.u.p, t, depth);
    case TS_TYPE_DICT: return retype_dict(r, (TsDict *)v.u.p, t, depth);
    default: return retype_tuple(r, (TsTuple *)v.u.p, t, depth);
    }
}

int ts_pickle_retype(TsValue v, const TsType *type, TsError *err)
{
    Retype r;
    memset(&r, 0, sizeof r);
    r.err = err;
    int rc = retype(&r, v, type, 0);
    ts_ptrmap_free(&r.seen);
    return rc;
}
