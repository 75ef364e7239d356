/* unpickle_globals.c — the globals a PyTorch archive may name, and what REDUCE, NEWOBJ,
 * BUILD and BINPERSID do with them. Nothing a pickle names is ever called: each known
 * global is a case here that checks its arguments and builds the value itself.
 *
 * The list is exactly what torch.jit.save and torch.save (1.13) write for TorchScript
 * values and state dicts (torch/csrc/jit/serialization/pickler.cpp, torch/serialization.py,
 * torch/_utils.py; torch/_weights_only_unpickler.py allows the same family):
 *
 *   torch._utils._rebuild_tensor_v2(storage, offset, size, stride, requires_grad, hooks)
 *   torch._utils._rebuild_parameter(tensor, requires_grad, hooks)
 *   collections.OrderedDict()                     an empty dict (a state dict, hooks)
 *   torch.jit._pickle.build_intlist / build_doublelist / build_boollist / build_tensorlist
 *   torch.jit._pickle.restore_type_tag(value, "Dict[str, int]")
 *   builtins.complex / __builtin__.complex (re, im)     torch.device("cuda", 1)
 *   torch.Size((2, 3))
 *   torch.<Dtype>Storage, torch.storage.UntypedStorage  only inside a persistent id
 *   __torch__.*                                   classes (NEWOBJ + BUILD) and enums
 *                                                 (REDUCE of the value), by env hooks
 *
 * Anything else is refused as torch.load(weights_only=True) refuses it: "Unsupported class
 * os.system". A persistent id ('storage', <Dtype>Storage, key, location, numel) asks
 * env->load_storage once per key; the storage must hold exactly numel elements, and every
 * tensor rebuilt over it is checked to lie inside it (ts_tensor_new).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serialize/unpickler.h"

static const struct Known {
    const char *module, *name;
    GlobalKind kind;
    int dtype;
} known[] = {
    {"torch._utils", "_rebuild_tensor_v2", G_REBUILD_TENSOR, 0},
    {"torch._utils", "_rebuild_parameter", G_REBUILD_PARAMETER, 0},
    {"collections", "OrderedDict", G_ORDERED_DICT, 0},
    {"torch.jit._pickle", "build_intlist", G_BUILD_LIST, TS_TAG_INT},
    {"torch.jit._pickle", "build_doublelist", G_BUILD_LIST, TS_TAG_DOUBLE},
    {"torch.jit._pickle", "build_boollist", G_BUILD_LIST, TS_TAG_BOOL},
    {"torch.jit._pickle", "build_tensorlist", G_BUILD_LIST, TS_TAG_TENSOR},
    {"torch.jit._pickle", "restore_type_tag", G_RESTORE_TYPE_TAG, 0},
    {"builtins", "complex", G_COMPLEX, 0},
    {"__builtin__", "complex", G_COMPLEX, 0},
    {"torch", "device", G_DEVICE, 0},
    {"torch", "Size", G_SIZE, 0},
    {"torch", "ByteStorage", G_STORAGE, TS_UINT8},
    {"torch", "CharStorage", G_STORAGE, TS_INT8},
    {"torch", "ShortStorage", G_STORAGE, TS_INT16},
    {"torch", "IntStorage", G_STORAGE, TS_INT32},
    {"torch", "LongStorage", G_STORAGE, TS_INT64},
    {"torch", "HalfStorage", G_STORAGE, TS_FLOAT16},
    {"torch", "FloatStorage", G_STORAGE, TS_FLOAT32},
    {"torch", "DoubleStorage", G_STORAGE, TS_FLOAT64},
    {"torch", "ComplexHalfStorage", G_STORAGE, TS_COMPLEX32},
    {"torch", "ComplexFloatStorage", G_STORAGE, TS_COMPLEX64},
    {"torch", "ComplexDoubleStorage", G_STORAGE, TS_COMPLEX128},
    {"torch", "BoolStorage", G_STORAGE, TS_BOOL},
    {"torch", "BFloat16Storage", G_STORAGE, TS_BFLOAT16},
    {"torch.storage", "UntypedStorage", G_STORAGE, TS_UINT8},
};

/* ---- globals as values ---------------------------------------------------------------- */
static void global_free(void *g)
{
    free(g);
}

const Global *ts_unpickler_global(TsValue v)
{
    if (v.tag != TS_TAG_CAPSULE)
        return NULL;
    const TsCapsule *c = (const TsCapsule *)v.u.p;
    return c->destroy == global_free ? c->ptr : NULL;
}

static int push_global(Unpickler *u, GlobalKind kind, int dtype, const TsType *type,
                       const char *module, const char *name)
{
    size_t n = strlen(module) + strlen(name) + 2;
    Global *g = malloc(sizeof *g + n);
    TsCapsule *c = g ? ts_capsule_new(g, global_free, NULL) : NULL;
    if (!c) {
        free(g);
        return ts_unpickler_fail(u, TS_ERR_NOMEM, "out of memory");
    }
    g->kind = kind;
    g->dtype = dtype;
    g->type = type;
    snprintf(g->name, n, "%s.%s", module, name);
    Meta m = {{{0}, 0, 0}, 0, true, true};
    return ts_unpickler_push(u, ts_obj_value(c, TS_TAG_CAPSULE), &m);
}

/* A __torch__ class or enum, through env->resolve_class. */
static int find_script_type(Unpickler *u, const char *module, const char *name)
{
    char qualname[520];
    snprintf(qualname, sizeof qualname, "%s.%s", module, name);
    if (!u->env->resolve_class)
        return ts_unpickler_fail(u, TS_ERR_RUNTIME, "Unsupported class %s (no classes can "
                                 "be loaded here)", qualname);
    const TsType *t = u->env->resolve_class(u->env->ctx, qualname, u->err);
    if (!t)
        return ts_unpickler_failed(u, u->err->code);
    switch (ts_type_kind(t)) {
    case TS_TYPE_CLASS:
    case TS_TYPE_MODULE:
        return push_global(u, G_CLASS, 0, t, module, name);
    case TS_TYPE_ENUM:
        return push_global(u, G_ENUM, 0, t, module, name);
    default:
        return ts_unpickler_fail(u, TS_ERR_TYPE, "%s is not a class or an enum", qualname);
    }
}

int ts_unpickler_find_global(Unpickler *u, const char *module, const char *name)
{
    for (size_t i = 0; i < sizeof known / sizeof *known; i++)
        if (strcmp(known[i].module, module) == 0 && strcmp(known[i].name, name) == 0)
            return push_global(u, known[i].kind, known[i].dtype, NULL, module, name);
    if (strcmp(module, "__torch__") == 0 || strncmp(module, "__torch__.", 10) == 0)
        return find_script_type(u, module, name);
    static const struct {
        const char *name, *why;
    } tensor_kinds[] = {
        {"_rebuild_qtensor", "quantized tensors"}, {"_rebuild_sparse_tensor", "sparse tensors"},
        {"_rebuild_sparse_csr_tensor", "sparse tensors"},
        {"_rebuild_meta_tensor_no_storage", "meta tensors"},
    };
    for (size_t i = 0; strcmp(module, "torch._utils") == 0 && i < 4; i++)
        if (strcmp(name, tensor_kinds[i].name) == 0)
            return ts_unpickler_fail(u, TS_ERR_NOT_IMPL, "Unsupported class %s.%s (%s are "
                                     "not supported)", module, name, tensor_kinds[i].why);
    return ts_unpickler_fail(u, TS_ERR_RUNTIME, "Unsupported class %s.%s", module, name);
}

/* ---- arguments ------------------------------------------------------------------------- */
static int args_tuple(Unpickler *u, const Global *g, TsValue args, size_t min, size_t max,
                      const TsTuple **out)
{
    const TsTuple *t = args.tag == TS_TAG_TUPLE ? (const TsTuple *)args.u.p : NULL;
    if (!t)
        return ts_unpickler_fail(u, TS_ERR_TYPE, "%s: its arguments are not a tuple", g->name);
    if (t->len < min || t->len > max)
        return ts_unpickler_fail(u, TS_ERR_TYPE, "%s takes %zu arguments, got %zu", g->name,
                                 min, t->len);
    *out = t;
    return 0;
}

static int want(Unpickler *u, const Global *g, TsValue v, TsTag tag, const char *what)
{
    if (v.tag != tag)
        return ts_unpickler_fail(u, TS_ERR_TYPE, "%s: expected %s", g->name, what);
    return 0;
}

static const char *str_of(TsValue v)
{
    const TsStr *s = v.tag == TS_TAG_STR ? (const TsStr *)v.u.p : NULL;
    return s && !memchr(s->data, '\0', s->len) ? s->data : NULL;
}

/* A tuple of ints (sizes, strides) into dims[0..*n). */
static int int_tuple(Unpickler *u, const Global *g, TsValue v, int64_t *dims, int *n)
{
    const TsTuple *t = v.tag == TS_TAG_TUPLE ? (const TsTuple *)v.u.p : NULL;
    if (!t || t->len > TS_TENSOR_MAX_DIMS)
        return ts_unpickler_fail(u, TS_ERR_TYPE, "%s: expected a tuple of at most %d ints",
                                 g->name, TS_TENSOR_MAX_DIMS);
    for (size_t i = 0; i < t->len; i++) {
        if (t->items[i].tag != TS_TAG_INT)
            return ts_unpickler_fail(u, TS_ERR_TYPE, "%s: expected a tuple of ints", g->name);
        dims[i] = t->items[i].u.i;
    }
    *n = (int)t->len;
    return 0;
}

static int push_tensor(Unpickler *u, TsTensor *t, bool requires_grad)
{
    if (!t)
        return ts_unpickler_failed(u, u->err->code);
    t->requires_grad = requires_grad;
    return ts_unpickler_push(u, ts_obj_value(t, TS_TAG_TENSOR), NULL);
}

/* ---- what each global does --------------------------------------------------------------- */
static int rebuild_tensor(Unpickler *u, const Global *g, const TsTuple *a)
{
    int64_t sizes[TS_TENSOR_MAX_DIMS], strides[TS_TENSOR_MAX_DIMS];
    int dim, sdim, rc;
    if ((rc = want(u, g, a->items[0], TS_TAG_TENSOR, "a storage")) ||
        (rc = want(u, g, a->items[1], TS_TAG_INT, "an int offset")) ||
        (rc = int_tuple(u, g, a->items[2], sizes, &dim)) ||
        (rc = int_tuple(u, g, a->items[3], strides, &sdim)) ||
        (rc = want(u, g, a->items[4], TS_TAG_BOOL, "a bool requires_grad")))
        return rc;
    if (dim != sdim)
        return ts_unpickler_fail(u, TS_ERR_VALUE, "%s: %d sizes but %d strides", g->name, dim,
                                 sdim);
    for (size_t i = 5; i < a->len; i++)
        if (a->items[i].tag != TS_TAG_DICT && a->items[i].tag != TS_TAG_NONE)
            return ts_unpickler_fail(u, TS_ERR_TYPE, "%s: expected a dict of hooks", g->name);
    const TsTensor *base = (const TsTensor *)a->items[0].u.p;
    TsTensor *t = ts_tensor_new(base->storage, base->dtype, dim, sizes, strides,
                                a->items[1].u.i, u->err);
    return push_tensor(u, t, a->items[4].u.b);
}

static int rebuild_parameter(Unpickler *u, const Global *g, const TsTuple *a)
{
    int rc;
    if ((rc = want(u, g, a->items[0], TS_TAG_TENSOR, "a tensor")) ||
        (rc = want(u, g, a->items[1], TS_TAG_BOOL, "a bool requires_grad")))
        return rc;
    const TsTensor *d = (const TsTensor *)a->items[0].u.p;
    TsTensor *t = ts_tensor_new(d->storage, d->dtype, d->dim, d->sizes, d->strides, d->offset,
                                u->err);
    return push_tensor(u, t, a->items[1].u.b);
}

/* build_intlist & co: the list's elements must all be of the one kind it names. */
static int build_list(Unpickler *u, const Global *g, const TsTuple *a)
{
    int rc = want(u, g, a->items[0], TS_TAG_LIST, "a list");
    if (rc)
        return rc;
    const TsType *elem = g->dtype == TS_TAG_INT ? ts_type_int()
                       : g->dtype == TS_TAG_DOUBLE ? ts_type_float()
                       : g->dtype == TS_TAG_BOOL ? ts_type_bool() : ts_type_tensor();
    TsList *l = (TsList *)a->items[0].u.p;
    if (l->elem_type != elem && ts_type_kind(l->elem_type) != TS_TYPE_ANY)
        return ts_unpickler_fail(u, TS_ERR_TYPE, "%s: the list is typed already", g->name);
    for (size_t i = 0; i < l->len; i++)
        if (l->items[i].tag != (uint32_t)g->dtype)
            return ts_unpickler_fail(u, TS_ERR_TYPE, "%s: element %zu is not of the list's "
                                     "type", g->name, i);
    l->elem_type = elem;
    ts_value_retain(a->items[0]);
    return ts_unpickler_push(u, a->items[0], NULL);
}

/* restore_type_tag(value, annotation): types a list or dict as the annotation says. */
static int restore_type_tag(Unpickler *u, const Global *g, const TsTuple *a)
{
    TsValue v = a->items[0], name = a->items[1];
    const char *annotation = str_of(name);
    if ((v.tag != TS_TAG_LIST && v.tag != TS_TAG_DICT) || !annotation)
        return ts_unpickler_fail(u, TS_ERR_TYPE, "%s: expected a list or dict and a type",
                                 g->name);
    if (!u->env->parse_type)
        return ts_unpickler_fail(u, TS_ERR_RUNTIME, "%s: no type parser", g->name);
    if (!u->types && !(u->types = ts_dict_new(ts_type_str(), ts_type_int(), u->err)))
        return ts_unpickler_failed(u, TS_ERR_NOMEM);
    TsValue cached;
    const TsType *type;
    if (ts_dict_get(u->types, name, &cached)) {
        type = (const TsType *)(intptr_t)cached.u.i;
    } else {
        if (!(type = u->env->parse_type(u->env->ctx, annotation, u->err)))
            return ts_unpickler_failed(u, u->err->code);
        ts_value_retain(name);
        if (ts_dict_set(u->types, name, ts_int((intptr_t)type), u->err))
            return ts_unpickler_failed(u, TS_ERR_NOMEM);
    }
    if (ts_type_kind(type) != (v.tag == TS_TAG_LIST ? TS_TYPE_LIST : TS_TYPE_DICT))
        return ts_unpickler_fail(u, TS_ERR_TYPE, "%s: a %s tagged %s", g->name,
                                 v.tag == TS_TAG_LIST ? "list" : "dict", annotation);
    if (ts_pickle_retype(v, type, u->err))
        return ts_unpickler_failed(u, u->err->code);
    ts_value_retain(v);
    return ts_unpickler_push(u, v, NULL);
}

static int make_complex(Unpickler *u, const Global *g, const TsTuple *a)
{
    double part[2];
    for (int i = 0; i < 2; i++) {
        TsValue x = a->items[i];
        if (x.tag != TS_TAG_DOUBLE && x.tag != TS_TAG_INT)
            return ts_unpickler_fail(u, TS_ERR_TYPE, "%s: expected two numbers", g->name);
        part[i] = x.tag == TS_TAG_DOUBLE ? x.u.d : (double)x.u.i;
    }
    TsComplex *c = ts_complex_new(part[0], part[1], u->err);
    if (!c)
        return ts_unpickler_failed(u, TS_ERR_NOMEM);
    return ts_unpickler_push(u, ts_obj_value(c, TS_TAG_COMPLEX), NULL);
}

/* torch.device("cpu"), torch.device("cuda:0"), torch.device("cuda", 1) */
static int make_device(Unpickler *u, const Global *g, const TsTuple *a)
{
    const char *s = str_of(a->items[0]);
    TsDevice d;
    if (!s)
        return ts_unpickler_fail(u, TS_ERR_TYPE, "%s: expected a device string", g->name);
    if (ts_device_parse(s, &d, u->err))
        return ts_unpickler_failed(u, u->err->code);
    if (a->len == 2) {
        TsValue i = a->items[1];
        if (i.tag != TS_TAG_INT || i.u.i < 0 || i.u.i > INT16_MAX || d.index != -1)
            return ts_unpickler_fail(u, TS_ERR_VALUE, "%s: a bad device index", g->name);
        d.index = (int16_t)i.u.i;
    }
    return ts_unpickler_push(u, ts_device(d), NULL);
}

static int make_size(Unpickler *u, const Global *g, const TsTuple *a)
{
    int64_t dims[TS_TENSOR_MAX_DIMS];
    int n, rc = int_tuple(u, g, a->items[0], dims, &n);
    if (rc)
        return rc;
    ts_value_retain(a->items[0]);
    return ts_unpickler_push(u, a->items[0], NULL);
}

static int make_enum(Unpickler *u, const Global *g, TsValue value)
{
    TsValue member;
    if (!u->env->enum_member)
        return ts_unpickler_fail(u, TS_ERR_RUNTIME, "%s: no enums can be loaded here", g->name);
    if (u->env->enum_member(u->env->ctx, g->type, value, &member, u->err))
        return ts_unpickler_failed(u, u->err->code);
    return ts_unpickler_push(u, member, NULL);
}

/* Calls g with args (a tuple, checked here, except for an enum's bare value). */
static int call(Unpickler *u, const Global *g, TsValue args)
{
    static const struct {
        size_t min, max;
        int (*fn)(Unpickler *, const Global *, const TsTuple *);
    } calls[] = {
        [G_REBUILD_TENSOR] = {6, 7, rebuild_tensor},
        [G_REBUILD_PARAMETER] = {3, 3, rebuild_parameter},
        [G_BUILD_LIST] = {1, 1, build_list},
        [G_RESTORE_TYPE_TAG] = {2, 2, restore_type_tag},
        [G_COMPLEX] = {2, 2, make_complex},
        [G_DEVICE] = {1, 2, make_device},
        [G_SIZE] = {1, 1, make_size},
    };
    const TsTuple *a;
    int rc;
    switch (g->kind) {
    case G_ENUM:
        return make_enum(u, g, args);
    case G_ORDERED_DICT:
        if ((rc = args_tuple(u, g, args, 0, 0, &a)))
            return rc;
        TsDict *d = ts_dict_new(ts_type_any(), ts_type_any(), u->err);
        if (!d)
            return ts_unpickler_failed(u, TS_ERR_NOMEM);
        Meta m = {{{0}, 0, 0}, 1, false, false};
        return ts_unpickler_push(u, ts_obj_value(d, TS_TAG_DICT), &m);
    case G_CLASS:
        return ts_unpickler_fail(u, TS_ERR_TYPE, "%s is called (an object is NEWOBJ, then "
                                 "BUILD)", g->name);
    case G_STORAGE:
        return ts_unpickler_fail(u, TS_ERR_TYPE, "%s is called (a storage class belongs in a "
                                 "persistent id)", g->name);
    default:
        if ((rc = args_tuple(u, g, args, calls[g->kind].min, calls[g->kind].max, &a)))
            return rc;
        return calls[g->kind].fn(u, g, a);
    }
}

int ts_unpickler_reduce(Unpickler *u, TsValue func, TsValue args)
{
    const Global *g = ts_unpickler_global(func);
    int rc = g ? call(u, g, args)
               : ts_unpickler_fail(u, TS_ERR_TYPE, "REDUCE calls a value that is not a global");
    ts_value_release(func);
    ts_value_release(args);
    return rc;
}

int ts_unpickler_newobj(Unpickler *u, TsValue cls, TsValue args)
{
    const Global *g = ts_unpickler_global(cls);
    int rc;
    if (!g || g->kind != G_CLASS)
        rc = ts_unpickler_fail(u, TS_ERR_TYPE, "NEWOBJ of %s (only __torch__ classes)",
                               g ? g->name : "a value that is not a class");
    else if (args.tag != TS_TAG_TUPLE || ((TsTuple *)args.u.p)->len != 0)
        rc = ts_unpickler_fail(u, TS_ERR_TYPE, "NEWOBJ of %s with arguments", g->name);
    else {
        TsObject *o = ts_object_new(g->type, u->err);
        Meta m = {{{0}, 0, 0}, 1, false, false};
        rc = o ? ts_unpickler_push(u, ts_obj_value(o, TS_TAG_OBJECT), &m)
               : ts_unpickler_failed(u, u->err->code);
    }
    ts_value_release(cls);
    ts_value_release(args);
    return rc;
}

int ts_unpickler_build(Unpickler *u, TsValue target, TsValue state)
{
    int rc = ts_unpickler_contain(u, NULL, state, false);  /* seals it: state is not target */
    Meta *m = ts_unpickler_meta(u, target);
    if (rc) {
        ts_value_release(state);
        return rc;
    }
    if (target.tag == TS_TAG_DICT && state.tag == TS_TAG_DICT) {
        ts_value_release(state);       /* an OrderedDict's attributes (_metadata): dropped */
        return 0;
    }
    if (target.tag != TS_TAG_OBJECT || !m) {
        ts_value_release(state);
        return ts_unpickler_fail(u, TS_ERR_TYPE, "BUILD of a value that is not an object");
    }
    if (m->sealed) {
        ts_value_release(state);
        return ts_unpickler_fail(u, TS_ERR_RUNTIME, "an object is built after it was put "
                                 "inside another value (an object that contains itself?)");
    }
    if (!u->env->set_state) {
        ts_value_release(state);
        return ts_unpickler_fail(u, TS_ERR_RUNTIME, "no objects can be built here");
    }
    Meta *sm = ts_unpickler_meta(u, state);
    uint32_t height = sm ? sm->height + 1 : 1;
    if ((rc = u->env->set_state(u->env->ctx, (TsObject *)target.u.p, state, u->err)))
        return ts_unpickler_failed(u, rc);
    if (height > TS_PICKLE_MAX_DEPTH)
        return ts_unpickler_fail(u, TS_ERR_LIMIT, "values nest more than %d deep",
                                 TS_PICKLE_MAX_DEPTH);
    m->sealed = true;                  /* built once: its state is final */
    if (height > m->height)
        m->height = height;
    return 0;
}

/* ---- persistent ids: storages ------------------------------------------------------------- */
static int load_storage(Unpickler *u, const Global *g, TsValue key, const char *location,
                        int64_t numel)
{
    int64_t nbytes;
    size_t itemsize = ts_dtype_size(g->dtype);
    const char *k = str_of(key);
    if (__builtin_mul_overflow(numel, (int64_t)itemsize, &nbytes) || (uint64_t)nbytes > SIZE_MAX)
        return ts_unpickler_fail(u, TS_ERR_VALUE, "storage '%s' of %lld elements is too "
                                 "large", k, (long long)numel);
    TsValue cached;
    if (u->storages && ts_dict_get(u->storages, key, &cached)) {
        const TsTensor *t = (const TsTensor *)cached.u.p;
        if (t->dtype != g->dtype || t->sizes[0] != numel)
            return ts_unpickler_fail(u, TS_ERR_VALUE, "storage '%s' is given two dtypes or "
                                     "sizes", k);
        ts_value_retain(cached);
        return ts_unpickler_push(u, cached, NULL);
    }
    if (!u->env->load_storage)
        return ts_unpickler_fail(u, TS_ERR_RUNTIME, "no tensor storages can be loaded here");
    if (!u->storages && !(u->storages = ts_dict_new(ts_type_str(), ts_type_tensor(), u->err)))
        return ts_unpickler_failed(u, TS_ERR_NOMEM);
    TsStorage *s = u->env->load_storage(u->env->ctx, g->dtype, k, location, numel, u->err);
    if (!s)
        return ts_unpickler_failed(u, u->err->code);
    if (s->nbytes != (size_t)nbytes) {
        size_t have = s->nbytes;
        ts_storage_release(s);
        return ts_unpickler_fail(u, TS_ERR_VALUE, "storage '%s' has %zu bytes, but the pickle "
                                 "says %lld elements of %zu bytes", k, have, (long long)numel,
                                 itemsize);
    }
    TsTensor *t = ts_tensor_new(s, g->dtype, 1, &numel, NULL, 0, u->err);
    ts_storage_release(s);
    if (!t)
        return ts_unpickler_failed(u, u->err->code);
    TsValue tv = ts_obj_value(t, TS_TAG_TENSOR);
    ts_value_retain(key);
    ts_value_retain(tv);
    if (ts_dict_set(u->storages, key, tv, u->err)) {
        ts_value_release(tv);
        return ts_unpickler_failed(u, TS_ERR_NOMEM);
    }
    return ts_unpickler_push(u, tv, NULL);
}

int ts_unpickler_persistent(Unpickler *u, TsValue pid)
{
    const TsTuple *t = pid.tag == TS_TAG_TUPLE ? (const TsTuple *)pid.u.p : NULL;
    const char *kind = t && t->len == 5 ? str_of(t->items[0]) : NULL;
    const Global *g = kind ? ts_unpickler_global(t->items[1]) : NULL;
    const char *location = kind ? str_of(t->items[3]) : NULL;
    int rc;
    if (!kind || strcmp(kind, "storage") != 0 || !g || g->kind != G_STORAGE ||
        !str_of(t->items[2]) || !location || t->items[4].tag != TS_TAG_INT ||
        t->items[4].u.i < 0)
        rc = ts_unpickler_fail(u, TS_ERR_VALUE, "a persistent id that is not ('storage', "
                               "<Dtype>Storage, key, location, numel)");
    else
        rc = load_storage(u, g, t->items[2], location, t->items[4].u.i);
    ts_value_release(pid);
    return rc;
}
