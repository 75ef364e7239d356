/* pickle.c — the pickler: TorchScript values as PyTorch 1.13's torch.jit.save pickles them
 * (protocol 2), for archives that torch.jit.load and torch.load read.
 *
 * The layout follows torch/csrc/jit/serialization/pickler.cpp value by value:
 *
 *   int          BININT1 / BININT2 / BININT / LONG1 of 8 bytes, the smallest that fits
 *   float        BINFLOAT (big-endian)         bool, None   NEWTRUE / NEWFALSE, NONE
 *   str          BINUNICODE, memoized by content (a str written twice is one BINGET)
 *   tuple        EMPTY_TUPLE, TUPLE1..3, or MARK ... TUPLE (a NamedTuple as a plain one)
 *   List[int], List[float], List[bool], List[Tensor]
 *                torch.jit._pickle.build_intlist (...) of MARK EMPTY_LIST MARK ... APPENDS
 *   other lists, dicts
 *                torch.jit._pickle.restore_type_tag(<the container>, "List[str]")
 *   tensor       torch._utils._rebuild_tensor_v2(<persistent id ('storage',
 *                torch.FloatStorage, key, location, numel)>, offset, sizes, strides,
 *                requires_grad, collections.OrderedDict()); each storage once, then BINGET
 *   object       GLOBAL of its class, EMPTY_TUPLE, NEWOBJ, its state, BUILD
 *   enum         GLOBAL of its class, its value, REDUCE
 *   complex      builtins.complex(re, im)       device   torch.device("cuda:0")
 *
 * Globals and devices are memoized by name, every other value that is reached through more
 * than one reference by pointer (PyTorch's rule), so shared values stay shared. Nesting is
 * bounded by TS_PICKLE_MAX_DEPTH, and a value that contains itself (which PyTorch's own
 * pickler would recurse on forever) is an error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptrmap.h"
#include "serialize/pickle.h"

typedef struct Pickler {
    TsBuf *out;
    const TsPickleEnv *env;
    TsError *err;
    uint32_t next_memo;
    int depth;
    TsPtrMap memo;             /* heap value -> memo id */
    TsPtrMap entered;          /* shared values being written (a second entry is a cycle) */
    TsPtrMap storages;         /* storage -> memo id of its persistent id */
    TsPtrMap storage_dtypes;   /* storage -> the dtype it was written as */
    TsDict *names;             /* "s" + str, "g" + module\nname, "d" + device -> memo id */
} Pickler;

enum {
    OP_MARK = '(', OP_STOP = '.', OP_BINFLOAT = 'G', OP_BININT = 'J', OP_BININT1 = 'K',
    OP_BININT2 = 'M', OP_NONE = 'N', OP_BINPERSID = 'Q', OP_REDUCE = 'R',
    OP_BINUNICODE = 'X', OP_BUILD = 'b', OP_GLOBAL = 'c', OP_EMPTY_DICT = '}',
    OP_APPENDS = 'e', OP_BINGET = 'h', OP_LONG_BINGET = 'j', OP_EMPTY_LIST = ']',
    OP_BINPUT = 'q', OP_LONG_BINPUT = 'r', OP_TUPLE = 't', OP_EMPTY_TUPLE = ')',
    OP_SETITEMS = 'u', OP_PROTO = 0x80, OP_NEWOBJ = 0x81, OP_TUPLE1 = 0x85,
    OP_NEWTRUE = 0x88, OP_NEWFALSE = 0x89, OP_LONG1 = 0x8a
};

/* ---- bytes ------------------------------------------------------------------------- */
static void op(Pickler *p, int code)
{
    ts_buf_putc(p->out, (char)code);
}

static void le(Pickler *p, uint64_t v, int n)
{
    char b[8];
    for (int i = 0; i < n; i++)
        b[i] = (char)(v >> 8 * i);
    ts_buf_add(p->out, b, (size_t)n);
}

static void put_int(Pickler *p, int64_t v)
{
    if (v >= 0 && v <= 0xff) {
        op(p, OP_BININT1);
        le(p, (uint64_t)v, 1);
    } else if (v >= 0 && v <= 0xffff) {
        op(p, OP_BININT2);
        le(p, (uint64_t)v, 2);
    } else if (v >= INT32_MIN && v <= INT32_MAX) {
        op(p, OP_BININT);
        le(p, (uint64_t)v, 4);
    } else {
        op(p, OP_LONG1);
        le(p, 8, 1);
        le(p, (uint64_t)v, 8);
    }
}

static void put_float(Pickler *p, double d)
{
    uint64_t bits;
    char b[8];
    memcpy(&bits, &d, sizeof bits);
    for (int i = 0; i < 8; i++)
        b[i] = (char)(bits >> (56 - 8 * i));
    op(p, OP_BINFLOAT);
    ts_buf_add(p->out, b, 8);
}

static void put_bool(Pickler *p, bool b)
{
    op(p, b ? OP_NEWTRUE : OP_NEWFALSE);
}

static uint32_t put_binput(Pickler *p)
{
    uint32_t id = p->next_memo++;
    op(p, id <= 0xff ? OP_BINPUT : OP_LONG_BINPUT);
    le(p, id, id <= 0xff ? 1 : 4);
    return id;
}

static void put_binget(Pickler *p, uint64_t id)
{
    op(p, id <= 0xff ? OP_BINGET : OP_LONG_BINGET);
    le(p, id, id <= 0xff ? 1 : 4);
}

/* ---- memoized by name -------------------------------------------------------------- */
/* Looks kind+text up in the names memo: BINGET and true when found; else false, and *key
 * is the memo key to remember after writing (the caller's reference). */
static int named(Pickler *p, char kind, const char *text, size_t len, bool *found, TsValue *key)
{
    TsBuf b = TS_BUF_INIT;
    ts_buf_putc(&b, kind);
    ts_buf_add(&b, text, len);
    TsStr *s = ts_buf_check(&b, p->err) ? NULL : ts_str_new(b.p, b.len, p->err);
    ts_buf_free(&b);
    if (!s)
        return TS_ERR_NOMEM;
    TsValue id;
    *key = ts_str_value(s);
    *found = ts_dict_get(p->names, *key, &id);
    if (*found) {
        put_binget(p, (uint64_t)id.u.i);
        ts_value_release(*key);
    }
    return 0;
}

static int remember(Pickler *p, TsValue key)
{
    return ts_dict_set(p->names, key, ts_int(put_binput(p)), p->err);
}

static int put_str(Pickler *p, const char *s, size_t len)
{
    bool found;
    TsValue key;
    int rc = named(p, 's', s, len, &found, &key);
    if (rc || found)
        return rc;
    op(p, OP_BINUNICODE);
    le(p, len, 4);
    ts_buf_add(p->out, s, len);
    return remember(p, key);
}

static int put_global(Pickler *p, const char *module, size_t mlen, const char *name)
{
    TsBuf g = TS_BUF_INIT;
    ts_buf_add(&g, module, mlen);
    ts_buf_putc(&g, '\n');
    ts_buf_puts(&g, name);
    ts_buf_putc(&g, '\n');
    bool found = false;
    TsValue key;
    int rc = ts_buf_check(&g, p->err);
    if (!rc)
        rc = named(p, 'g', g.p, g.len, &found, &key);
    if (!rc && !found) {
        op(p, OP_GLOBAL);
        ts_buf_add(p->out, g.p, g.len);
        rc = remember(p, key);
    }
    ts_buf_free(&g);
    return rc;
}

/* A nominal type's qualified name as GLOBAL's module and name ("__torch__.m" "Cls"). */
static int put_type_global(Pickler *p, const TsType *t)
{
    const char *q = ts_type_name(t), *dot = q ? strrchr(q, '.') : NULL;
    if (!dot)
        return ts_error_set(p->err, TS_ERR_VALUE, "cannot pickle a value of the unnamed "
                            "class '%s'", q ? q : "?");
    return put_global(p, q, (size_t)(dot - q), dot + 1);
}

static int put_device(Pickler *p, TsDevice d)
{
    char text[64];
    size_t n = ts_device_str(d, text, sizeof text);
    bool found;
    TsValue key;
    int rc = named(p, 'd', text, n, &found, &key);
    if (rc || found)
        return rc;
    if ((rc = put_global(p, "torch", 5, "device")) || (rc = put_str(p, text, n))) {
        ts_value_release(key);
        return rc;
    }
    op(p, OP_TUPLE1);
    op(p, OP_REDUCE);
    return remember(p, key);
}

/* ---- values ---------------------------------------------------------------------------- */
static int put_value(Pickler *p, TsValue v);

/* The annotation of t ("List[str]") as a memoized str. */
static int put_annotation(Pickler *p, const TsType *t)
{
    char small[256];
    size_t n = ts_type_annotation(t, small, sizeof small);
    if (n < sizeof small)
        return put_str(p, small, n);
    char *big = malloc(n + 1);
    if (!big)
        return ts_error_set(p->err, TS_ERR_NOMEM, "out of memory");
    ts_type_annotation(t, big, n + 1);
    int rc = put_str(p, big, n);
    free(big);
    return rc;
}

static const char *storage_class(int dtype)
{
    static const char *const names[TS_DTYPE__COUNT] = {
        [TS_UINT8] = "ByteStorage", [TS_INT8] = "CharStorage", [TS_INT16] = "ShortStorage",
        [TS_INT32] = "IntStorage", [TS_INT64] = "LongStorage", [TS_FLOAT16] = "HalfStorage",
        [TS_FLOAT32] = "FloatStorage", [TS_FLOAT64] = "DoubleStorage",
        [TS_COMPLEX32] = "ComplexHalfStorage", [TS_COMPLEX64] = "ComplexFloatStorage",
        [TS_COMPLEX128] = "ComplexDoubleStorage", [TS_BOOL] = "BoolStorage",
        [TS_BFLOAT16] = "BFloat16Storage",
    };
    return dtype >= 0 && dtype < TS_DTYPE__COUNT ? names[dtype] : NULL;
}

/* The persistent id of t's storage, the first time; BINGET of it after. */
static int put_storage(Pickler *p, const TsTensor *t)
{
    TsStorage *s = t->storage;
    uintptr_t had;
    const char *cls = storage_class(t->dtype);
    if (!cls)
        return ts_error_set(p->err, TS_ERR_VALUE, "cannot pickle a tensor of dtype %s",
                            ts_dtype_name(t->dtype));
    if (!s)
        return ts_error_set(p->err, TS_ERR_VALUE, "cannot pickle a tensor without storage");
    if (ts_ptrmap_get(&p->storage_dtypes, s, &had) && (int)had != t->dtype)
        return ts_error_set(p->err, TS_ERR_VALUE, "Cannot save multiple tensors or storages "
                            "that view the same data as different types");
    if (ts_ptrmap_get(&p->storages, s, &had)) {
        put_binget(p, had);
        return 0;
    }
    if (!p->env || !p->env->storage_key)
        return ts_error_set(p->err, TS_ERR_RUNTIME, "no tensors can be pickled here");
    TsBuf key = TS_BUF_INIT;
    char location[64];
    size_t ln = ts_device_str(t->device, location, sizeof location);
    int rc = p->env->storage_key(p->env->ctx, s, &key, p->err);
    if (!rc)
        rc = ts_buf_check(&key, p->err);
    op(p, OP_MARK);
    if (!rc && !(rc = put_str(p, "storage", 7)) && !(rc = put_global(p, "torch", 5, cls)) &&
        !(rc = put_str(p, key.p ? key.p : "", key.len)) && !(rc = put_str(p, location, ln))) {
        put_int(p, (int64_t)(s->nbytes / ts_dtype_size(t->dtype)));
        op(p, OP_TUPLE);
        op(p, OP_BINPERSID);
        if (ts_ptrmap_put(&p->storages, s, put_binput(p)) < 0 ||
            ts_ptrmap_put(&p->storage_dtypes, s, (uintptr_t)t->dtype) < 0)
            rc = ts_error_set(p->err, TS_ERR_NOMEM, "out of memory");
    }
    ts_buf_free(&key);
    return rc;
}

static int put_tensor(Pickler *p, const TsTensor *t)
{
    int rc = put_global(p, "torch._utils", 12, "_rebuild_tensor_v2");
    if (rc)
        return rc;
    op(p, OP_MARK);
    if ((rc = put_storage(p, t)))
        return rc;
    put_int(p, t->offset);
    op(p, OP_MARK);
    for (int i = 0; i < t->dim; i++)
        put_int(p, t->sizes[i]);
    op(p, OP_TUPLE);
    op(p, OP_MARK);
    for (int i = 0; i < t->dim; i++)
        put_int(p, t->strides[i]);
    op(p, OP_TUPLE);
    put_bool(p, t->requires_grad);
    if ((rc = put_global(p, "collections", 11, "OrderedDict")))
        return rc;
    op(p, OP_EMPTY_TUPLE);
    op(p, OP_REDUCE);
    op(p, OP_TUPLE);
    op(p, OP_REDUCE);
    return 0;
}

static int put_tuple(Pickler *p, const TsTuple *t)
{
    if (t->len == 0) {
        op(p, OP_EMPTY_TUPLE);
        return 0;
    }
    if (t->len > 3)
        op(p, OP_MARK);
    for (size_t i = 0; i < t->len; i++) {
        int rc = put_value(p, t->items[i]);
        if (rc)
            return rc;
    }
    op(p, t->len > 3 ? OP_TUPLE : OP_TUPLE1 + (int)t->len - 1);
    return 0;
}

/* List[int], List[float], List[bool], List[Tensor]: build_*list; others restore_type_tag. */
static int put_list(Pickler *p, const TsList *l)
{
    static const struct {
        TsTypeKind kind;
        TsTag tag;
        const char *builder;
    } special[] = {
        {TS_TYPE_INT, TS_TAG_INT, "build_intlist"}, {TS_TYPE_FLOAT, TS_TAG_DOUBLE, "build_doublelist"},
        {TS_TYPE_BOOL, TS_TAG_BOOL, "build_boollist"}, {TS_TYPE_TENSOR, TS_TAG_TENSOR, "build_tensorlist"},
    };
    TsTypeKind kind = ts_type_kind(l->elem_type);
    int s = -1, rc;
    for (int i = 0; i < 4; i++)
        if (special[i].kind == kind)
            s = i;
    if ((rc = put_global(p, "torch.jit._pickle", 17, s >= 0 ? special[s].builder
                                                              : "restore_type_tag")))
        return rc;
    if (s >= 0)
        op(p, OP_MARK);
    op(p, OP_EMPTY_LIST);
    op(p, OP_MARK);
    for (size_t i = 0; i < l->len; i++) {
        TsValue x = l->items[i];
        if (s >= 0 && x.tag != (uint32_t)special[s].tag)
            return ts_error_set(p->err, TS_ERR_TYPE, "cannot pickle a list of %s holding "
                                "another kind of value", special[s].builder + 6);
        if (x.tag == TS_TAG_INT)
            put_int(p, x.u.i);
        else if (x.tag == TS_TAG_DOUBLE)
            put_float(p, x.u.d);
        else if (x.tag == TS_TAG_BOOL)
            put_bool(p, x.u.b);
        else if ((rc = put_value(p, x)))
            return rc;
    }
    op(p, OP_APPENDS);
    if (s >= 0)
        op(p, OP_TUPLE);
    else if ((rc = put_annotation(p, ts_type_list(l->elem_type ? l->elem_type : ts_type_any()))))
        return rc;
    else
        op(p, OP_TUPLE1 + 1);
    op(p, OP_REDUCE);
    return 0;
}

static int put_dict(Pickler *p, const TsDict *d)
{
    int rc = put_global(p, "torch.jit._pickle", 17, "restore_type_tag");
    if (rc)
        return rc;
    op(p, OP_EMPTY_DICT);
    op(p, OP_MARK);
    size_t pos = 0;
    TsValue k, v;
    while (ts_dict_next(d, &pos, &k, &v))
        if ((rc = put_value(p, k)) || (rc = put_value(p, v)))
            return rc;
    op(p, OP_SETITEMS);
    const TsType *kt = ts_dict_key_type(d), *vt = ts_dict_value_type(d);
    if ((rc = put_annotation(p, ts_type_dict(kt ? kt : ts_type_any(), vt ? vt : ts_type_any()))))
        return rc;
    op(p, OP_TUPLE1 + 1);
    op(p, OP_REDUCE);
    return 0;
}

/* An object: its class, NEWOBJ, then its state: __getstate__'s, or its attributes. */
static int put_object(Pickler *p, TsObject *o)
{
    TsValue state = ts_uninit();
    int rc = put_type_global(p, o->cls);
    if (!rc && p->env && p->env->get_state)
        rc = p->env->get_state(p->env->ctx, o, &state, p->err);
    if (rc)
        return rc;
    op(p, OP_EMPTY_TUPLE);
    op(p, OP_NEWOBJ);
    if (state.tag != TS_TAG_UNINIT) {
        rc = put_value(p, state);
        ts_value_release(state);
    } else {
        size_t n = ts_type_num_fields(o->cls);
        op(p, OP_EMPTY_DICT);
        op(p, OP_MARK);
        for (size_t i = 0; i < n && i < o->nslots && !rc; i++) {
            const char *name = ts_type_field(o->cls, i)->name;
            if (!(rc = put_str(p, name, strlen(name))))
                rc = put_value(p, o->slots[i]);
        }
        op(p, OP_SETITEMS);
    }
    op(p, OP_BUILD);
    return rc;
}

static int put_value_unmemoized(Pickler *p, TsValue v)
{
    switch ((TsTag)v.tag) {
    case TS_TAG_NONE: op(p, OP_NONE); return 0;
    case TS_TAG_BOOL: put_bool(p, v.u.b); return 0;
    case TS_TAG_INT: put_int(p, v.u.i); return 0;
    case TS_TAG_DOUBLE: put_float(p, v.u.d); return 0;
    case TS_TAG_DEVICE: return put_device(p, v.u.dev);
    case TS_TAG_STR: {
        const TsStr *s = (const TsStr *)v.u.p;
        return put_str(p, s->data, s->len);
    }
    case TS_TAG_COMPLEX: {
        const TsComplex *c = (const TsComplex *)v.u.p;
        int rc = put_global(p, "builtins", 8, "complex");
        put_float(p, c->re);
        put_float(p, c->im);
        op(p, OP_TUPLE1 + 1);
        op(p, OP_REDUCE);
        return rc;
    }
    case TS_TAG_TENSOR: return put_tensor(p, (const TsTensor *)v.u.p);
    case TS_TAG_TUPLE: return put_tuple(p, (const TsTuple *)v.u.p);
    case TS_TAG_LIST: return put_list(p, (const TsList *)v.u.p);
    case TS_TAG_DICT: return put_dict(p, (const TsDict *)v.u.p);
    case TS_TAG_OBJECT: return put_object(p, (TsObject *)v.u.p);
    case TS_TAG_ENUM: {
        const TsEnumValue *e = (const TsEnumValue *)v.u.p;
        int rc = put_type_global(p, e->type);
        if (!rc && !(rc = put_value(p, e->value)))
            op(p, OP_REDUCE);
        return rc;
    }
    default: {
        static const char *const what[TS_TAG__COUNT] = {
            [TS_TAG_UNINIT] = "an uninitialized value", [TS_TAG_FUTURE] = "a Future",
            [TS_TAG_CAPSULE] = "a custom class (capsule)", [TS_TAG_STORAGE] = "a bare storage",
        };
        return ts_error_set(p->err, TS_ERR_VALUE, "cannot pickle %s",
                            v.tag < TS_TAG__COUNT && what[v.tag] ? what[v.tag] : "this value");
    }
    }
}

/* Values reached through more than one reference are memoized: written once, then BINGET. */
static int put_value(Pickler *p, TsValue v)
{
    bool container = v.tag == TS_TAG_LIST || v.tag == TS_TAG_DICT || v.tag == TS_TAG_TUPLE ||
                     v.tag == TS_TAG_OBJECT;
    if (container && p->depth >= TS_PICKLE_MAX_DEPTH)   /* as the unpickler counts */
        return ts_error_set(p->err, TS_ERR_LIMIT, "cannot pickle values nested more than %d "
                            "deep", TS_PICKLE_MAX_DEPTH);
    bool shared = ts_is_heap(v) && v.tag != TS_TAG_STR && ts_value_refcount(v) > 1;
    uintptr_t id;
    if (shared && ts_ptrmap_get(&p->memo, v.u.p, &id)) {
        put_binget(p, id);
        return 0;
    }
    if (shared && ts_ptrmap_put(&p->entered, v.u.p, 0) != 0)
        return ts_error_set(p->err, TS_ERR_VALUE, "cannot pickle a value that contains itself");
    p->depth++;
    int rc = put_value_unmemoized(p, v);
    p->depth--;
    if (!rc && shared && ts_ptrmap_put(&p->memo, v.u.p, put_binput(p)) < 0)
        rc = ts_error_set(p->err, TS_ERR_NOMEM, "out of memory");
    return rc;
}

int ts_pickle(TsValue v, const TsPickleEnv *env, TsBuf *out, TsError *err)
{
    Pickler p;
    memset(&p, 0, sizeof p);
    p.out = out;
    p.env = env;
    p.err = err;
    p.names = ts_dict_new(ts_type_str(), ts_type_int(), err);
    if (!p.names)
        return TS_ERR_NOMEM;
    op(&p, OP_PROTO);
    le(&p, 2, 1);
    int rc = put_value(&p, v);
    op(&p, OP_STOP);
    if (!rc)
        rc = ts_buf_check(out, err);
    ts_ptrmap_free(&p.memo);
    ts_ptrmap_free(&p.entered);
    ts_ptrmap_free(&p.storages);
    ts_ptrmap_free(&p.storage_dtypes);
    ts_value_release(ts_obj_value(p.names, TS_TAG_DICT));
    return rc;
}
