/* module.c — loading a torch.jit.save archive into a TsModule, and its methods on demand.
 *
 * The archive is a zip (serialize/zip.c) whose entries share one top folder. Loading reads
 * the version, constants.pkl and data.pkl with the unpickler (serialize/unpickle.c); the
 * unpickler asks this file, through TsUnpickleEnv, for what only the code knows: a class by
 * qualified name (compiled from code/ on demand, serialize/../import.c), the state of an
 * object (attributes by name, or the argument of the class's __setstate__, which runs), a
 * storage by key (a zero-copy view of data/KEY or constants/KEY), and type strings. Every
 * value read is then conformed to its declared type (serialize/conform.c) before anything
 * runs. The compiler stays with the module: methods compile when first called, and a
 * method a running program reaches through an interface compiles then (the unit's
 * resolver), under the module's lock.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/compile.h"
#include "frontend/emit.h"
#include "frontend/parser.h"
#include "module.h"
#include "runtime.h"
#include "sched/interp.h"
#include "serialize/conform.h"
#include "value/heap.h"
#include "serialize/pickle.h"
#include "serialize/zip.h"
#include "frontend/source.h"
#include "tscript/strbuf.h"

struct TsModule {
    TsRuntime *rt;
    TsZip *zip;
    char *prefix;              /* the top folder of the entries, "model/" (or "") */
    int64_t version;
    TsCompiler c;              /* archive mode: compiles code/ on demand */
    TsCodeLoader loader;
    TsValue constants;         /* the tuple of constants.pkl */
    TsValue root;
    pthread_mutex_t lock;      /* one compile at a time */
    const char *folder;        /* storages of the pickle being read: "data" or "constants" */
};

/* ---- the archive's entries ---------------------------------------------------------- */

/* The index of entry prefix + name, or -1. */
static long entry(const TsModule *m, const char *name)
{
    char path[2048];
    if ((size_t)snprintf(path, sizeof path, "%s%s", m->prefix, name) >= sizeof path)
        return -1;
    return ts_zip_find(m->zip, path);
}

/* The bytes of an entry (a copy, NUL-terminated, for text and pickles). */
static char *read_entry(TsModule *m, long i, size_t *size, TsError *err)
{
    const void *data;
    void *owned;
    if (ts_zip_read(m->zip, (size_t)i, true, &data, size, &owned, err) != 0)
        return NULL;
    char *copy = malloc(*size + 1);
    if (!copy) {
        free(owned);
        ts_error_set(err, TS_ERR_NOMEM, "out of memory reading %s",
                     ts_zip_entry(m->zip, (size_t)i)->name);
        return NULL;
    }
    memcpy(copy, data, *size);
    copy[*size] = '\0';
    free(owned);
    return copy;
}

static int read_version(TsModule *m, TsError *err)
{
    long i = entry(m, ".data/version");
    if (i < 0)
        i = entry(m, "version");
    if (i < 0)
        return ts_error_set(err, TS_ERR_VALUE, "%s: not a TorchScript archive (it has no "
                            "version record)", ts_zip_filename(m->zip));
    size_t n;
    char *text = read_entry(m, i, &n, err);
    if (!text)
        return -1;
    char *end;
    long long v = strtoll(text, &end, 10);
    bool ok = end != text && (*end == '\0' || *end == '\n') && strlen(text) == n;
    free(text);
    if (!ok)
        return ts_error_set(err, TS_ERR_VALUE, "%s: the version record is not a number",
                            ts_zip_filename(m->zip));
    if (v < TS_ARCHIVE_MIN_VERSION)
        return ts_error_set(err, TS_ERR_VALUE, "%s: Attempted to read a PyTorch file with "
                            "version %lld, but the minimum supported version for reading is "
                            "%d. Your PyTorch script module file is too old. Please "
                            "regenerate it with latest version of PyTorch to mitigate this "
                            "issue.", ts_zip_filename(m->zip), v, TS_ARCHIVE_MIN_VERSION);
    if (v > TS_ARCHIVE_MAX_VERSION)
        return ts_error_set(err, TS_ERR_VALUE, "%s: Attempted to read a PyTorch file with "
                            "version %lld, but the maximum supported version for reading is "
                            "%d. The version of your PyTorch installation may be too old, "
                            "please upgrade PyTorch to latest version to mitigate this issue.",
                            ts_zip_filename(m->zip), v, TS_ARCHIVE_MAX_VERSION);
    m->version = v;
    return 0;
}

/* ---- where the code came from (.debug_pkl) -------------------------------------------- */

/* One original source of a .debug_pkl: (text, filename, first line), the text as a tuple of
 * string-table indices in the 1.13 format ("FORMAT_WITH_STRING_TABLE"), a str before. */
typedef struct Origins {
    const TsTuple *table;      /* the string table, or NULL */
    const TsTuple *keys[64];   /* sources made so far, by the pickle's (shared) tuple */
    TsSource *made[64];
    size_t n;
} Origins;

static const char *table_str(const Origins *o, TsValue v)
{
    if (v.tag == TS_TAG_STR && !o->table)
        return ((const TsStr *)v.u.p)->data;
    if (v.tag != TS_TAG_INT || !o->table || v.u.i < 0 || (uint64_t)v.u.i >= o->table->len ||
        o->table->items[v.u.i].tag != TS_TAG_STR)
        return NULL;
    return ((const TsStr *)o->table->items[v.u.i].u.p)->data;
}

static size_t seq_len(TsValue v)
{
    return v.tag == TS_TAG_TUPLE ? ((const TsTuple *)v.u.p)->len
           : v.tag == TS_TAG_LIST ? ((const TsList *)v.u.p)->len : 0;
}

static TsValue seq_item(TsValue v, size_t i)
{
    return v.tag == TS_TAG_TUPLE ? ((const TsTuple *)v.u.p)->items[i]
                                 : ((const TsList *)v.u.p)->items[i];
}

/* The source a descriptor names (a borrowed reference, owned by o), NULL for an empty one
 * or one that is malformed. */
static TsSource *origin_source(Origins *o, TsValue desc)
{
    if (desc.tag != TS_TAG_TUPLE || seq_len(desc) != 3)
        return NULL;
    const TsTuple *d = (const TsTuple *)desc.u.p;
    for (size_t i = 0; i < o->n; i++)
        if (o->keys[i] == d)
            return o->made[i];
    TsValue text = d->items[0], line = d->items[2];
    const char *file = table_str(o, d->items[1]);
    if (!file || line.tag != TS_TAG_INT || line.u.i < 1 || o->n == 64)
        return NULL;
    TsBuf b = TS_BUF_INIT;
    if (text.tag == TS_TAG_STR && !o->table) {
        ts_buf_puts(&b, ((const TsStr *)text.u.p)->data);
    } else {
        for (size_t i = 0; i < seq_len(text); i++) {
            const char *piece = table_str(o, seq_item(text, i));
            if (!piece) {
                ts_buf_free(&b);
                return NULL;
            }
            ts_buf_puts(&b, piece);
        }
    }
    TsSource *src = !b.failed && b.len ? ts_source_new(file, b.p, b.len, NULL) : NULL;
    ts_buf_free(&b);
    if (!src)
        return NULL;
    src->line_base = (size_t)line.u.i - 1;
    o->keys[o->n] = d;
    o->made[o->n++] = src;
    return src;
}

static int by_offset(const void *a, const void *b)
{
    size_t x = ((const TsSourceOrigin *)a)->offset, y = ((const TsSourceOrigin *)b)->offset;
    return x < y ? -1 : x > y;
}

/* Gives src the map of code/X.py.debug_pkl, where each range of the serialized code came
 * from, for tracebacks. Debug information only: anything malformed leaves src without it. */
static void attach_origins(TsModule *m, TsSource *src, const char *name)
{
    char dbg[1100];
    snprintf(dbg, sizeof dbg, "%s.debug_pkl", name);
    long i = entry(m, dbg);
    const void *data;
    void *owned = NULL;
    size_t size;
    TsError err = TS_ERROR_INIT;
    TsValue v = ts_none();
    TsUnpickleEnv env = { 0 };
    if (i < 0 || ts_zip_read(m->zip, (size_t)i, true, &data, &size, &owned, &err) != 0 ||
        ts_unpickle(data, size, &env, &v, &err) != 0) {
        free(owned);
        ts_error_clear(&err);
        return;
    }
    free(owned);
    Origins o = { 0 };
    TsValue list = v;
    if (v.tag == TS_TAG_TUPLE && seq_len(v) == 3 && seq_item(v, 0).tag == TS_TAG_STR &&
        strcmp(((const TsStr *)seq_item(v, 0).u.p)->data, "FORMAT_WITH_STRING_TABLE") == 0 &&
        seq_item(v, 1).tag == TS_TAG_TUPLE) {
        o.table = (const TsTuple *)seq_item(v, 1).u.p;
        list = seq_item(v, 2);
    }
    size_t n = seq_len(list), k = 0;
    TsSourceOrigin *steps = n ? calloc(n, sizeof *steps) : NULL;
    for (size_t j = 0; steps && j < n; j++) {
        TsValue e = seq_item(list, j), rng;
        if (seq_len(e) < 2 || seq_item(e, 0).tag != TS_TAG_INT || seq_item(e, 0).u.i < 0 ||
            seq_len(rng = seq_item(e, 1)) != 3 || seq_item(rng, 1).tag != TS_TAG_INT ||
            seq_item(rng, 2).tag != TS_TAG_INT || seq_item(rng, 1).u.i < 0 ||
            seq_item(rng, 2).u.i < seq_item(rng, 1).u.i)
            continue;
        TsSource *os = origin_source(&o, seq_item(rng, 0));
        steps[k].offset = (size_t)seq_item(e, 0).u.i;
        steps[k].range.source = os;
        steps[k].range.start = (size_t)seq_item(rng, 1).u.i;
        steps[k].range.end = (size_t)seq_item(rng, 2).u.i;
        ts_source_retain(os);
        k++;
    }
    if (steps) {
        qsort(steps, k, sizeof *steps, by_offset);
        ts_source_set_origins(src, steps, k);
    }
    for (size_t j = 0; j < o.n; j++)
        ts_source_release(o.made[j]);
    ts_value_release(v);
}

/* code/__torch__/a/b.py for "__torch__.a.b" (the code loader of the compiler). */
static TsSource *load_code(void *ctx, const char *module, TsError *err)
{
    TsModule *m = ctx;
    char name[1024];
    size_t n = (size_t)snprintf(name, sizeof name, "code/%s.py", module);
    if (n >= sizeof name)
        return NULL;
    for (char *p = name + 5; p < name + n - 3; p++)
        if (*p == '.')
            *p = '/';
    long i = entry(m, name);
    if (i < 0)
        return NULL;
    size_t size;
    char *text = read_entry(m, i, &size, err);
    if (!text)
        return NULL;
    TsSource *src = ts_source_new(name, text, size, err);
    free(text);
    if (src)
        attach_origins(m, src, name);
    return src;
}

/* ---- what the unpickler asks --------------------------------------------------------- */

static const TsType *resolve_class(void *ctx, const char *qualname, TsError *err)
{
    TsModule *m = ctx;
    if (strncmp(qualname, "__torch__.", 10) != 0) {
        ts_error_set(err, TS_ERR_VALUE, "the pickle names class %s, which is not a class of "
                     "the archive", qualname);
        return NULL;
    }
    TsClassInfo *ci = ts_import_class(&m->c, qualname, (TsSourceRange){ 0 }, err);
    if (!ci && !err->code)
        ts_error_set(err, TS_ERR_VALUE, "the pickle names class %s, which the archive's code "
                     "does not define", qualname);
    return ci ? ci->type : NULL;
}

static const TsType *parse_type(void *ctx, const char *annotation, TsError *err)
{
    TsModule *m = ctx;
    return ts_compiler_type_string(&m->c, annotation, err);
}

static TsStorage *load_storage(void *ctx, int dtype, const char *key, const char *location,
                               int64_t numel, TsError *err)
{
    TsModule *m = ctx;
    if (strcmp(location, "cpu") != 0 && strncmp(location, "cuda", 4) != 0) {
        ts_error_set(err, TS_ERR_VALUE, "a storage on device '%s', which is not a device a "
                     "tensor can be loaded to", location);
        return NULL;
    }
    char name[256];
    if ((size_t)snprintf(name, sizeof name, "%s/%s", m->folder, key) >= sizeof name) {
        ts_error_set(err, TS_ERR_VALUE, "storage key too long");
        return NULL;
    }
    long i = entry(m, name);
    if (i < 0) {
        ts_error_set(err, TS_ERR_VALUE, "the pickle refers to storage '%s', which the archive "
                     "does not have", name);
        return NULL;
    }
    size_t es = ts_dtype_size(dtype);
    uint64_t size = ts_zip_entry(m->zip, (size_t)i)->size;
    if (es == 0 || numel < 0 || (uint64_t)numel > size / es) {
        ts_error_set(err, TS_ERR_VALUE, "storage '%s' claims %lld elements of %zu bytes but "
                     "holds %llu bytes", name, (long long)numel, es, (unsigned long long)size);
        return NULL;
    }
    TsStorage *s = ts_zip_storage(m->zip, (size_t)i, err);
    if (s)
        s->nbytes = (size_t)numel * es;   /* a storage is its elements, never more */
    /* a runtime whose default backend is not cpu loads the model there (map_location) */
    int type = ts_runtime_default_device_type(m->rt);
    if (s && type != TS_DEV_CPU) {
        TsDevice dev = { (int16_t)type, type == TS_DEV_CUDA ? (int16_t)0 : (int16_t)-1 };
        TsStorage *d = ts_storage_to_device(m->rt, s, dev, err);
        ts_storage_release(s);
        s = d;
    }
    return s;
}

/* Retypes v to its declared type t (the objects inside are checked once the whole pickle
 * is read: ts_conform_objects in load). */
static int retype(TsValue v, const TsType *t, const char *what, TsError *err)
{
    if (ts_pickle_retype(v, t, err) == 0)
        return 0;
    ts_error_prefix(err, "%s: ", what);
    return -1;
}

/* BUILD of an object: __setstate__(state) when the class has one, else its attributes. */
static int set_state(void *ctx, TsObject *obj, TsValue state, TsError *err)
{
    TsModule *m = ctx;
    TsClassInfo *ci = ts_compiler_class_of_type(&m->c, obj->cls);
    TsDefInfo *d = ci ? ts_class_method(ci, "__setstate__") : NULL;
    char what[512];
    if (d) {
        TsFunction *f = ts_compiler_function(&m->c, d, ci->tree->range, err);
        snprintf(what, sizeof what, "the state of an object of %s", ts_type_name(obj->cls));
        if (f && f->schema->n_args != 2)
            ts_error_set(err, TS_ERR_TYPE, "%s.__setstate__ must take one argument",
                         ts_type_name(obj->cls));
        if (!f || f->schema->n_args != 2 || retype(state, f->schema->args[1].type, what, err)) {
            ts_value_release(state);
            return -1;
        }
        ts_heap_retain(&obj->h);
        TsValue args[2] = { ts_obj_value(obj, TS_TAG_OBJECT), state }, out;
        int rc = ts_run(m->rt, m->c.unit, f, args, 2, &out, err);
        ts_value_release(out);
        return rc;
    }
    if (state.tag != TS_TAG_DICT) {
        ts_value_release(state);
        return ts_error_set(err, TS_ERR_TYPE, "the state of an object of %s is not a dict of "
                            "its attributes", ts_type_name(obj->cls));
    }
    size_t pos = 0;
    TsValue k, v;
    int rc = 0;
    while (rc == 0 && ts_dict_next((const TsDict *)state.u.p, &pos, &k, &v)) {
        const char *name = k.tag == TS_TAG_STR ? ((TsStr *)k.u.p)->data : NULL;
        long f = name ? ts_type_field_index(obj->cls, name) : -1;
        if (f < 0 || (size_t)f >= obj->nslots) {
            rc = ts_error_set(err, TS_ERR_VALUE, "the state of an object of %s sets %s%s%s, "
                              "which the class does not declare", ts_type_name(obj->cls),
                              name ? "attribute '" : "a key that is not a name",
                              name ? name : "", name ? "'" : "");
            break;
        }
        snprintf(what, sizeof what, "attribute '%s' of %s", name, ts_type_name(obj->cls));
        rc = retype(v, ts_type_field(obj->cls, (size_t)f)->type, what, err);
        if (rc == 0) {
            ts_value_retain(v);
            ts_value_release(obj->slots[f]);
            obj->slots[f] = v;
        }
    }
    ts_value_release(state);
    return rc;
}

/* REDUCE of an enum class on a value: the member with that value. */
static int enum_member(void *ctx, const TsType *type, TsValue value, TsValue *out, TsError *err)
{
    TsModule *m = ctx;
    TsClassInfo *ci = ts_compiler_class_of_type(&m->c, type);
    for (size_t i = 0; ci && ci->kind == TS_CLASS_ENUM && i < ci->n_enum_values; i++) {
        if (ci->enum_values[i].tag != value.tag || !ts_value_equal(ci->enum_values[i], value))
            continue;
        ts_value_retain(value);
        TsEnumValue *e = ts_enum_value_new(type, ts_type_field(type, i)->name, value, err);
        if (!e)
            return -1;
        *out = ts_obj_value(e, TS_TAG_ENUM);
        return 0;
    }
    return ts_error_set(err, TS_ERR_VALUE, "%s has no member of the value the pickle gives",
                        ts_type_name(type));
}

/* Unpickles entry pkl ("data.pkl"), its storages in folder ("data"). */
static int unpickle(TsModule *m, const char *pkl, const char *folder, TsValue *out, TsError *err)
{
    long i = entry(m, pkl);
    if (i < 0)
        return ts_error_set(err, TS_ERR_VALUE, "%s: not a TorchScript archive (it has no %s)",
                            ts_zip_filename(m->zip), pkl);
    const void *data;
    void *owned;
    size_t size;
    if (ts_zip_read(m->zip, (size_t)i, true, &data, &size, &owned, err) != 0)
        return -1;
    m->folder = folder;
    TsUnpickleEnv env = { m, resolve_class, set_state, load_storage, parse_type, enum_member };
    int rc = ts_unpickle(data, size, &env, out, err);
    free(owned);
    if (rc != 0)
        ts_error_prefix(err, "%s: %s: ", ts_zip_filename(m->zip), pkl);
    return rc;
}

/* ---- lazy methods -------------------------------------------------------------------- */

static int resolve_method(void *ctx, TsCompUnit *u, const TsType *cls, const char *name,
                          TsFunction **out, TsError *err)
{
    TsModule *m = ctx;
    pthread_mutex_lock(&m->lock);
    *out = ts_unit_find_method(u, cls, name);   /* another thread may have compiled it */
    int rc = 0;
    if (!*out) {
        TsClassInfo *ci = ts_compiler_class_of_type(&m->c, cls);
        TsDefInfo *d = ci ? ts_class_method(ci, name) : NULL;
        if (d && !(*out = ts_compiler_function(&m->c, d, ci->tree->range, err)))
            rc = -1;
    }
    pthread_mutex_unlock(&m->lock);
    return rc;
}

TsFunction *ts_module_method(TsModule *m, const char *name, TsError *err)
{
    if (m->root.tag != TS_TAG_OBJECT)
        return NULL;
    TsFunction *f;
    if (ts_unit_method(m->c.unit, ((TsObject *)m->root.u.p)->cls, name, &f, err) != 0)
        return NULL;
    return f;
}

size_t ts_module_method_names(TsModule *m, const char **names, size_t max)
{
    if (m->root.tag != TS_TAG_OBJECT)
        return 0;
    TsClassInfo *ci = ts_compiler_class_of_type(&m->c, ((TsObject *)m->root.u.p)->cls);
    size_t n = ci ? ci->n_methods : 0;
    for (size_t i = 0; i < n && i < max; i++)
        names[i] = ci->methods[i]->def->kids[0]->str;
    return n;
}

/* ---- what the archive holds ------------------------------------------------------- */

/* Whether the class body lists name in its `list = ["a", "b", ]` (__parameters__, ...). */
static bool listed(const TsClassInfo *ci, const char *list, const char *name)
{
    const TsTree *body = ci && ci->tree->kind == TS_TREE_CLASS ? ci->tree->kids[3] : NULL;
    for (size_t i = 0; body && i < body->n_kids; i++) {
        const TsTree *st = body->kids[i];
        if (st->kind != TS_TREE_ASSIGN || st->n_kids != 2 || st->kids[0]->kind != TS_TREE_NAME ||
            strcmp(st->kids[0]->str, list) != 0 || st->kids[1]->kind != TS_TREE_LIST)
            continue;
        for (size_t k = 0; k < st->kids[1]->n_kids; k++)
            if (strcmp(st->kids[1]->kids[k]->str, name) == 0)
                return true;
    }
    return false;
}

TsModuleAttrKind ts_module_attr_kind(TsModule *m, const TsType *cls, size_t field)
{
    const TsTypeField *f = m && cls ? ts_type_field(cls, field) : NULL;
    if (!f || !f->name)        /* a field or class the archive does not declare */
        return TS_MODULE_ATTR;
    TsClassInfo *ci = ts_compiler_class_of_type(&m->c, cls);
    if (listed(ci, "__parameters__", f->name))
        return TS_MODULE_PARAMETER;
    if (listed(ci, "__buffers__", f->name))
        return TS_MODULE_BUFFER;
    if (ts_type_is_module(f->type))
        return TS_MODULE_SUBMODULE;
    return TS_MODULE_ATTR;
}

/* Operators the interpreter runs itself: no plugin declares them. */
static bool interpreter_op(const char *q)
{
    static const char *const ops[] = { "aten::__is__", "aten::__isnot__",
                                       "prim::RaiseException" };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (strcmp(q, ops[i]) == 0)
            return true;
    return false;
}

/* The operator a callee names in serialized code: torch.X is aten::X, ops.NS.X is NS::X. */
static bool callee_op(const TsTree *f, char *buf, size_t size)
{
    if (f->kind != TS_TREE_ATTR)
        return false;
    const TsTree *base = f->kids[0];
    if (base->kind == TS_TREE_NAME && strcmp(base->str, "torch") == 0)
        return (size_t)snprintf(buf, size, "aten::%s", f->kids[1]->str) < size;
    if (base->kind == TS_TREE_ATTR && base->kids[0]->kind == TS_TREE_NAME &&
        strcmp(base->kids[0]->str, "ops") == 0)
        return (size_t)snprintf(buf, size, "%s::%s", base->kids[1]->str, f->kids[1]->str) < size;
    return false;
}

static int collect_missing(const TsOpTable *ops, const TsTree *t, char ***names, size_t *n,
                           size_t *cap, int depth, TsError *err)
{
    if (!t || depth > 1000)
        return 0;
    char q[512];
    const TsOperator *any[1];
    if (t->kind == TS_TREE_CALL && callee_op(t->kids[0], q, sizeof q) && !interpreter_op(q) &&
        ts_optable_overloads(ops, q, any, 1) == 0) {
        bool seen = false;
        for (size_t i = 0; i < *n && !seen; i++)
            seen = strcmp((*names)[i], q) == 0;
        if (!seen) {
            if (ts_compiler_grow((void **)names, *n, cap, sizeof **names, err) != 0)
                return -1;
            if (!((*names)[*n] = strdup(q)))
                return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
            ++*n;
        }
    }
    for (size_t i = 0; i < t->n_kids; i++)
        if (collect_missing(ops, t->kids[i], names, n, cap, depth + 1, err) != 0)
            return -1;
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char **ts_module_missing_ops(TsModule *m, size_t *n, TsError *err)
{
    char **names = NULL;
    size_t cap = 0;
    *n = 0;
    char code[1024];
    snprintf(code, sizeof code, "%scode/", m->prefix);
    size_t lc = strlen(code);
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < ts_zip_count(m->zip); i++) {
        const char *name = ts_zip_entry(m->zip, i)->name;
        size_t ln = strlen(name);
        if (strncmp(name, code, lc) != 0 || ln < 3 || strcmp(name + ln - 3, ".py") != 0)
            continue;
        size_t size;
        char *text = read_entry(m, (long)i, &size, err);
        TsSource *src = text ? ts_source_new(name + strlen(m->prefix), text, size, err) : NULL;
        free(text);
        TsTree *t = src ? ts_parse_module(src, err) : NULL;
        ts_source_release(src);
        rc = !t ? -1 : collect_missing(ts_runtime_optable(m->rt), t, &names, n, &cap, 0, err);
        ts_tree_free(t);
    }
    if (rc != 0) {
        ts_free_names(names, *n);
        *n = 0;
        return NULL;
    }
    if (*n)
        qsort(names, *n, sizeof *names, by_name);
    else if (!names && !(names = calloc(1, sizeof *names)))
        ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    return names;
}

/* ---- loading ------------------------------------------------------------------------- */

/* A module's archive holds tensors and names operators of any plugin: loading one loads the
 * plugins the runtime deferred (runtime.c) first. */
static TsModule *module_new(TsRuntime *rt, TsError *err)
{
    if (ts_runtime_load_plugins(rt, err))
        return NULL;
    TsModule *m = calloc(1, sizeof *m);
    if (!m) {
        ts_error_set(err, TS_ERR_NOMEM, "out of memory loading a module");
        return NULL;
    }
    m->rt = rt;
    m->constants = m->root = ts_none();
    pthread_mutex_init(&m->lock, NULL);
    return m;
}

static int load(TsModule *m, TsError *err)
{
    const char *prefix = ts_zip_prefix(m->zip);
    if (!(m->prefix = strdup(prefix)))
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    if (read_version(m, err) != 0)
        return -1;
    m->loader = (TsCodeLoader){ m, load_code, NULL, 0 };
    if (ts_import_init(&m->c, ts_runtime_optable(m->rt), &m->loader, err) != 0)
        return -1;
    m->c.version = m->version;
    m->c.unit->resolve = resolve_method;
    m->c.unit->resolve_ctx = m;
    /* constants.pkl: a tuple of the tensors CONSTANTS.cN names (absent in old archives) */
    if (entry(m, "constants.pkl") >= 0) {
        if (unpickle(m, "constants.pkl", "constants", &m->constants, err) != 0)
            return -1;
        if (m->constants.tag != TS_TAG_TUPLE)
            return ts_error_set(err, TS_ERR_VALUE, "%s: constants.pkl does not hold a tuple",
                                ts_zip_filename(m->zip));
        const TsTuple *t = (const TsTuple *)m->constants.u.p;
        m->loader.constants = t->items;
        m->loader.n_constants = t->len;
    }
    if (unpickle(m, "data.pkl", "data", &m->root, err) != 0)
        return -1;
    if (m->root.tag != TS_TAG_OBJECT || !ts_type_is_module(((TsObject *)m->root.u.p)->cls))
        return ts_error_set(err, TS_ERR_VALUE, "%s: data.pkl does not hold a module",
                            ts_zip_filename(m->zip));
    TsConform cf = { 0 };
    int rc = ts_conform_objects(&cf, m->root, err);
    if (rc == 0)
        rc = ts_conform_objects(&cf, m->constants, err);
    ts_conform_free(&cf);
    return rc;
}

static TsModule *finish(TsModule *m, TsError *err)
{
    if (load(m, err) == 0)
        return m;
    ts_module_free(m);
    return NULL;
}

TsModule *ts_module_load(TsRuntime *rt, const char *path, TsError *err)
{
    TsModule *m = module_new(rt, err);
    if (!m)
        return NULL;
    if (!(m->zip = ts_zip_open_file(path, err))) {
        ts_module_free(m);
        return NULL;
    }
    return finish(m, err);
}

TsModule *ts_module_load_memory(TsRuntime *rt, const char *name, const void *data, size_t size,
                                TsError *err)
{
    TsModule *m = module_new(rt, err);
    if (!m)
        return NULL;
    if (!(m->zip = ts_zip_open_memory(name, data, size, NULL, NULL, err))) {
        ts_module_free(m);
        return NULL;
    }
    return finish(m, err);
}

void ts_module_free(TsModule *m)
{
    if (!m)
        return;
    ts_value_release(m->root);
    ts_value_release(m->constants);
    if (m->c.unit) {
        ts_unit_free(m->c.unit);
        m->c.unit = NULL;
    }
    ts_compiler_free(&m->c);
    if (m->zip)
        ts_zip_release(m->zip);
    free(m->prefix);
    pthread_mutex_destroy(&m->lock);
    free(m);
}

TsValue ts_module_root(const TsModule *m) { return m->root; }
TsCompUnit *ts_module_unit(TsModule *m) { return m->c.unit; }
TsCompiler *ts_module_compiler(TsModule *m) { return &m->c; }
int64_t ts_module_version(const TsModule *m) { return m->version; }
TsRuntime *ts_module_runtime(const TsModule *m) { return m->rt; }
