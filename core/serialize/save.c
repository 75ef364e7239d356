/* save.c — torch.jit.save for tscript: a module it loaded, or a function it compiled,
 * written as an archive PyTorch 1.13 loads (see save.h for the layout).
 *
 * The module tree goes through the pickler first: each storage it meets is written as
 * data/N the first time (so storages shared by several tensors stay shared), and each
 * object's class is noted in the order the pickler meets it, which is the order PyTorch's
 * serializer prints those classes in before anything their code uses. The printer then
 * writes code/ (describing the classes from their declarations in the archive's code), and
 * the tensors the printed code holds as constants are pickled into constants.pkl the same
 * way. A failure anywhere removes the unfinished file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/interp.h"
#include "serialize/pickle.h"
#include "serialize/save.h"
#include "serialize/zip.h"
#include "tscript/strbuf.h"

typedef struct Saver {
    TsRuntime *rt;
    TsCompUnit *unit;
    TsZipWriter *w;
    char prefix[256];          /* the top folder, "model/" */
    const char *folder;        /* where the storages of the pickle being written go */
    TsStorage **storages;      /* this pickle's storages: key N is storages[N] */
    size_t n_storages, cap_storages;
    const TsType **classes;    /* the classes of the objects pickled, in order */
    size_t n_classes, cap_classes;
} Saver;

static int grow(void **items, size_t n, size_t *cap, size_t size, TsError *err)
{
    return ts_compiler_grow(items, n, cap, size, err);
}

static int add_entry(Saver *s, const char *name, const void *data, size_t size, TsError *err)
{
    char full[1024];
    if ((size_t)snprintf(full, sizeof full, "%s%s", s->prefix, name) >= sizeof full)
        return ts_error_set(err, TS_ERR_LIMIT, "archive entry name too long: %.64s...", name);
    return ts_zip_writer_add(s->w, full, data, size, err);
}

/* The archive's top folder: the file's name up to its first dot, as PyTorch names it. */
static void set_prefix(Saver *s, const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strcspn(base, ".");
    if (n == 0 || n > sizeof s->prefix - 2)
        snprintf(s->prefix, sizeof s->prefix, "archive/");
    else
        snprintf(s->prefix, sizeof s->prefix, "%.*s/", (int)n, base);
}

static void release_storages(Saver *s)
{
    for (size_t i = 0; i < s->n_storages; i++)
        ts_storage_release(s->storages[i]);
    s->n_storages = 0;
}

/* ---- the pickler's hooks ------------------------------------------------------------- */

static int storage_key(void *ctx, TsStorage *st, TsBuf *key, TsError *err)
{
    Saver *s = ctx;
    for (size_t i = 0; i < s->n_storages; i++)
        if (s->storages[i] == st) {
            ts_buf_printf(key, "%zu", i);
            return 0;
        }
    if (st->device.type != TS_DEV_CPU)
        return ts_error_set(err, TS_ERR_USAGE, "cannot save a tensor that is not on the CPU");
    if (grow((void **)&s->storages, s->n_storages, &s->cap_storages, sizeof *s->storages, err))
        return -1;
    char name[64];
    snprintf(name, sizeof name, "%s/%zu", s->folder, s->n_storages);
    if (add_entry(s, name, st->data, st->nbytes, err))
        return -1;
    ts_storage_retain(st);
    s->storages[s->n_storages] = st;
    ts_buf_printf(key, "%zu", s->n_storages++);
    return 0;
}

/* Notes the class, and runs __getstate__ where the class has one. */
static int get_state(void *ctx, TsObject *obj, TsValue *state, TsError *err)
{
    Saver *s = ctx;
    *state = ts_uninit();
    bool seen = false;
    for (size_t i = 0; i < s->n_classes && !seen; i++)
        seen = s->classes[i] == obj->cls;
    if (!seen) {
        if (grow((void **)&s->classes, s->n_classes, &s->cap_classes, sizeof *s->classes, err))
            return -1;
        s->classes[s->n_classes++] = obj->cls;
    }
    TsFunction *f = NULL;
    if (!ts_type_has_method(obj->cls, "__getstate__"))
        return 0;
    if (ts_unit_method(s->unit, obj->cls, "__getstate__", &f, err))
        return -1;
    if (!f)
        return 0;
    ts_heap_retain(&obj->h);
    TsValue self = ts_obj_value(obj, TS_TAG_OBJECT);
    return ts_run(s->rt, s->unit, f, &self, 1, state, err);
}

/* Pickles v as entry name, its storages as folder/N. */
static int write_pickle(Saver *s, TsValue v, const char *name, const char *folder,
                        TsError *err)
{
    release_storages(s);
    s->folder = folder;
    TsPickleEnv env = { s, storage_key, get_state };
    TsBuf b = TS_BUF_INIT;
    int rc = ts_pickle(v, &env, &b, err);
    if (rc == 0)
        rc = add_entry(s, name, b.p, b.len, err);
    ts_buf_free(&b);
    return rc;
}

/* ---- the code ------------------------------------------------------------------------ */

/* Every printed file, constants.pkl and the version. */
static int write_code(Saver *s, TsPyPrinter *p, TsError *err)
{
    for (size_t i = 0; i < ts_pyprint_file_count(p); i++) {
        TsPyFile f = ts_pyprint_file(p, i);
        if (add_entry(s, f.path, f.text, f.len, err))
            return -1;
    }
    size_t n = ts_pyprint_constant_count(p);
    TsTuple *t = ts_tuple_new(NULL, n, err);
    if (!t)
        return -1;
    for (size_t i = 0; i < n; i++) {
        t->items[i] = ts_pyprint_constants(p)[i];
        ts_value_retain(t->items[i]);
    }
    TsValue tv = ts_obj_value(t, TS_TAG_TUPLE);
    int rc = write_pickle(s, tv, "constants.pkl", "constants", err);
    ts_value_release(tv);
    if (rc)
        return -1;
    unsigned v = ts_pyprint_version(p);
    char text[16];
    snprintf(text, sizeof text, "%u\n", v);
    return add_entry(s, v >= 6 ? ".data/version" : "version", text, strlen(text), err);
}

/* Opens path, pickles root, prints through print(p, ctx), writes the rest. */
static int save(Saver *s, const char *path, TsValue root,
                int (*print)(Saver *s, TsPyPrinter *p, void *ctx, TsError *err), void *ctx,
                TsError *err)
{
    set_prefix(s, path);
    if (!(s->w = ts_zip_writer_open(path, err)))
        return -1;
    TsPyPrinter *p = NULL;
    int rc = write_pickle(s, root, "data.pkl", "data", err);
    if (rc == 0)
        rc = (p = ts_pyprint_new(s->unit, err)) ? 0 : -1;
    if (rc == 0)
        rc = print(s, p, ctx, err);
    if (rc == 0)
        rc = ts_pyprint_finish(p, err);
    if (rc == 0)
        rc = write_code(s, p, err);
    ts_pyprint_free(p);
    release_storages(s);
    free(s->storages);
    free(s->classes);
    if (rc != 0) {
        ts_zip_writer_abort(s->w);
        return -1;
    }
    /* a failed close removes what it wrote, where that is a regular file: never /dev/full */
    return ts_zip_writer_close(s->w, err) != 0 ? -1 : 0;
}

/* ---- a loaded module --------------------------------------------------------------------- */

typedef struct ModuleCtx {
    TsCompiler *c;
    TsSchemaList schemas;
} ModuleCtx;

static int print_module(Saver *s, TsPyPrinter *p, void *ctx, TsError *err)
{
    ModuleCtx *mc = ctx;
    if (ts_save_describe_classes(p, mc->c, &mc->schemas, err))
        return -1;
    for (size_t i = 0; i < s->n_classes; i++)
        if (ts_pyprint_add_type(p, s->classes[i], err))
            return -1;
    return 0;
}

int ts_save_module(TsRuntime *rt, TsModule *m, const char *path, TsError *err)
{
    Saver s = { .rt = rt, .unit = ts_module_unit(m) };
    ModuleCtx mc = { ts_module_compiler(m), { 0 } };
    int rc = save(&s, path, ts_module_root(m), print_module, &mc, err);
    ts_schema_list_free(&mc.schemas);
    if (rc)
        ts_error_prefix(err, "cannot save %s: ", path);
    return rc;
}

/* ---- a function --------------------------------------------------------------------------- */

/* The module class torch.jit.save holds a scripted function in. */
static const TsType *placeholder_type(TsError *err)
{
    const char *name = "__torch__.PlaceholderModule";
    const TsType *t = ts_type_lookup(name);
    if (!t) {
        TsType *c = ts_type_class_new(name, true, err);
        if (!c || ts_type_class_add_attr(c, "training", ts_type_bool(), err))
            return NULL;
        return c;
    }
    if (ts_type_kind(t) != TS_TYPE_MODULE || ts_type_num_fields(t) != 1 ||
        strcmp(ts_type_field(t, 0)->name, "training") != 0) {
        ts_error_set(err, TS_ERR_USAGE, "class %s exists and is not the placeholder of a "
                     "saved function", name);
        return NULL;
    }
    return t;
}

static int print_function(Saver *s, TsPyPrinter *p, void *ctx, TsError *err)
{
    return ts_pyprint_add_forwarder(p, s->classes[0], ctx, err);
}

int ts_save_function(TsRuntime *rt, TsCompUnit *unit, const TsFunction *f, const char *path,
                     TsError *err)
{
    const TsType *t = placeholder_type(err);
    TsObject *obj = t ? ts_object_new(t, err) : NULL;
    if (!obj) {
        ts_error_prefix(err, "cannot save %s: ", path);
        return -1;
    }
    obj->slots[0] = ts_bool(true);   /* training, as a freshly scripted function's */
    TsValue root = ts_obj_value(obj, TS_TAG_OBJECT);
    Saver s = { .rt = rt, .unit = unit };
    int rc = save(&s, path, root, print_function, (void *)f, err);
    ts_value_release(root);
    if (rc)
        ts_error_prefix(err, "cannot save %s: ", path);
    return rc;
}

/* ---- describing an archive's classes --------------------------------------------------- */

static int constant_value(TsCompiler *c, const TsTree *t, TsValue *out, TsError *err);

/* "a.b.c" of an attribute chain, into buf; false when t is not one. */
static bool dotted(const TsTree *t, TsBuf *buf)
{
    if (t->kind == TS_TREE_NAME) {
        ts_buf_puts(buf, t->str);
        return true;
    }
    if (t->kind != TS_TREE_ATTR || !dotted(t->kids[0], buf))
        return false;
    ts_buf_printf(buf, ".%s", t->kids[1]->str);
    return true;
}

/* __torch__.m.Color.RED: the member, by its class's values. */
static int enum_member(TsCompiler *c, const char *q, TsValue *out, TsError *err)
{
    const char *dot = strrchr(q, '.');
    char cls[1024];
    if (!dot || (size_t)(dot - q) >= sizeof cls)
        return ts_error_set(err, TS_ERR_VALUE, "%s is not a constant", q);
    snprintf(cls, sizeof cls, "%.*s", (int)(dot - q), q);
    TsClassInfo *ci = ts_import_class(c, cls, (TsSourceRange){ 0 }, err);
    for (size_t i = 0; ci && ci->kind == TS_CLASS_ENUM && i < ci->n_enum_values; i++) {
        if (strcmp(ts_type_field(ci->type, i)->name, dot + 1) != 0)
            continue;
        ts_value_retain(ci->enum_values[i]);
        TsEnumValue *e = ts_enum_value_new(ci->type, dot + 1, ci->enum_values[i], err);
        *out = e ? ts_obj_value(e, TS_TAG_ENUM) : ts_none();
        return e ? 0 : -1;
    }
    return err->code ? -1 : ts_error_set(err, TS_ERR_VALUE, "%s is not a constant", q);
}

static int tuple_value(TsCompiler *c, const TsTree *t, TsValue *out, TsError *err)
{
    TsTuple *tu = ts_tuple_new(NULL, t->n_kids, err);
    if (!tu)
        return -1;
    for (size_t i = 0; i < t->n_kids; i++)
        tu->items[i] = ts_none();
    *out = ts_obj_value(tu, TS_TAG_TUPLE);
    for (size_t i = 0; i < t->n_kids; i++)
        if (constant_value(c, t->kids[i], &tu->items[i], err))
            return -1;
    return 0;
}

/* The value of a Final constant of a class body, as PyTorch's printer writes constants. */
static int constant_value(TsCompiler *c, const TsTree *t, TsValue *out, TsError *err)
{
    *out = ts_none();
    switch (t->kind) {
    case TS_TREE_INT: *out = ts_int(t->ival); return 0;
    case TS_TREE_FLOAT: *out = ts_double(t->fval); return 0;
    case TS_TREE_TRUE: *out = ts_bool(true); return 0;
    case TS_TREE_FALSE: *out = ts_bool(false); return 0;
    case TS_TREE_NONE: return 0;
    case TS_TREE_STRING: {
        TsStr *s = ts_str_new(t->str, t->len, err);
        *out = s ? ts_str_value(s) : ts_none();
        return s ? 0 : -1;
    }
    case TS_TREE_TUPLE:
        return tuple_value(c, t, out, err);
    case TS_TREE_UNARY:
        if (t->n_kids == 1 && constant_value(c, t->kids[0], out, err) == 0 &&
            (out->tag == TS_TAG_INT || out->tag == TS_TAG_DOUBLE)) {
            if (out->tag == TS_TAG_INT)
                out->u.i = (int64_t)(0 - (uint64_t)out->u.i);
            else
                out->u.d = -out->u.d;
            return 0;
        }
        break;
    case TS_TREE_NAME:
        if (strcmp(t->str, "inf") == 0 || strcmp(t->str, "nan") == 0) {
            *out = ts_double(t->str[0] == 'i' ? 1.0 / 0.0 : 0.0 / 0.0);
            return 0;
        }
        break;
    case TS_TREE_CALL:   /* torch.device("cpu") */
        if (t->n_kids == 2 && t->kids[1]->kind == TS_TREE_STRING) {
            TsBuf b = TS_BUF_INIT;
            bool dev = dotted(t->kids[0], &b) && b.p && strcmp(b.p, "torch.device") == 0;
            ts_buf_free(&b);
            TsDevice d;
            if (dev && ts_device_parse(t->kids[1]->str, &d, err) == 0) {
                *out = ts_device(d);
                return 0;
            }
        }
        break;
    case TS_TREE_ATTR: {
        TsBuf b = TS_BUF_INIT;
        int rc = dotted(t, &b) && b.p ? enum_member(c, b.p, out, err) : -1;
        ts_buf_free(&b);
        if (rc == 0 || err->code)
            return rc;
        break;
    }
    default:
        break;
    }
    ts_value_release(*out);
    *out = ts_none();
    return err->code ? -1 : ts_error_at(err, TS_ERR_VALUE, t->range, "a Final constant that "
                                        "is not a literal cannot be saved");
}

/* An interface method's schema, from its def: self, then the annotated parameters. */
static TsSchema *interface_schema(TsCompiler *c, const TsTree *def, TsError *err)
{
    const TsTree *params = def->kids[2];
    TsSchema *s = calloc(1, sizeof *s);
    if (!s || !(s->args = calloc(params->n_kids + 1, sizeof *s->args)) ||
        !(s->returns = calloc(1, sizeof *s->returns)) || !(s->name = strdup(def->kids[0]->str)) ||
        !(s->overload = strdup(""))) {
        ts_schema_free(s);
        ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    s->n_returns = 1;
    s->returns[0].fixed_size = -1;
    for (size_t i = 0; i < params->n_kids; i++) {
        const TsTree *p = params->kids[i];
        TsArg *a = &s->args[s->n_args++];
        a->fixed_size = -1;
        a->type = p->kids[1] ? ts_compiler_type(c, p->kids[1], err) : ts_type_any();
        if (!a->type || !(a->name = strdup(p->kids[0]->str))) {
            ts_schema_free(s);
            if (!err->code)
                ts_error_set(err, TS_ERR_NOMEM, "out of memory");
            return NULL;
        }
    }
    s->returns[0].type = def->kids[3] ? ts_compiler_type(c, def->kids[3], err) : ts_type_none();
    if (!s->returns[0].type) {
        ts_schema_free(s);
        return NULL;
    }
    return s;
}

/* The declarations of one class, gathered for the printer. */
typedef struct Decls {
    const char **names[3];     /* parameters, buffers, constants */
    size_t n[3], cap[3];
    TsValue *values;           /* the constants' */
    size_t cap_values;
    const TsSchema **methods;
    size_t n_methods, cap_methods;
} Decls;

static void decls_free(Decls *d)
{
    for (size_t i = 0; i < d->n[2]; i++)
        ts_value_release(d->values[i]);
    for (int k = 0; k < 3; k++)
        free(d->names[k]);
    free(d->values);
    free(d->methods);
}

static int add_name(Decls *d, int which, const char *name, TsError *err)
{
    if (grow((void **)&d->names[which], d->n[which], &d->cap[which], sizeof *d->names[which],
             err))
        return -1;
    d->names[which][d->n[which]++] = name;
    return 0;
}

/* One statement of an archive class's body. */
static int declaration(TsCompiler *c, const TsClassInfo *ci, const TsTree *st, Decls *d,
                       TsSchemaList *schemas, TsError *err)
{
    if (st->kind == TS_TREE_ASSIGN && st->n_kids == 2 && st->kids[0]->kind == TS_TREE_NAME &&
        st->kids[1]->kind == TS_TREE_LIST) {
        int which = strcmp(st->kids[0]->str, "__parameters__") == 0 ? 0
                  : strcmp(st->kids[0]->str, "__buffers__") == 0 ? 1 : -1;
        for (size_t k = 0; which >= 0 && k < st->kids[1]->n_kids; k++)
            if (st->kids[1]->kids[k]->kind == TS_TREE_STRING &&
                add_name(d, which, st->kids[1]->kids[k]->str, err))
                return -1;
        return 0;
    }
    if (st->kind == TS_TREE_ANN_ASSIGN && st->kids[2] && st->kids[0]->kind == TS_TREE_NAME &&
        ci->kind == TS_CLASS_SCRIPT) {
        if (grow((void **)&d->values, d->n[2], &d->cap_values, sizeof *d->values, err))
            return -1;
        TsValue v;
        if (constant_value(c, st->kids[2], &v, err)) {
            ts_error_prefix(err, "constant %s of %s: ", st->kids[0]->str, ci->qualname);
            return -1;
        }
        d->values[d->n[2]] = v;
        if (add_name(d, 2, st->kids[0]->str, err)) {
            ts_value_release(v);
            return -1;
        }
        return 0;
    }
    if (st->kind == TS_TREE_DEF && ci->kind == TS_CLASS_INTERFACE) {
        if (grow((void **)&d->methods, d->n_methods, &d->cap_methods, sizeof *d->methods, err) ||
            grow((void **)&schemas->items, schemas->n, &schemas->cap, sizeof *schemas->items,
                 err))
            return -1;
        TsSchema *s = interface_schema(c, st, err);
        if (!s)
            return -1;
        schemas->items[schemas->n++] = s;
        d->methods[d->n_methods++] = s;
    }
    return 0;
}

void ts_schema_list_free(TsSchemaList *l)
{
    for (size_t i = 0; i < l->n; i++)
        ts_schema_free(l->items[i]);
    free(l->items);
    memset(l, 0, sizeof *l);
}

int ts_save_describe_classes(TsPyPrinter *p, TsCompiler *c, TsSchemaList *schemas,
                             TsError *err)
{
    for (size_t i = 0; i < c->n_classes; i++) {
        TsClassInfo *ci = c->classes[i];
        /* An archive's classes are built on first use, and printing the code may use one
         * no call has (an interface naming a parameter's type): build them now, so each
         * is described before it is printed. One that does not build is left out: the
         * code that uses it did not compile either. */
        if (!ci->type && ci->qualname && ci->tree->kind == TS_TREE_CLASS) {
            TsError ignore = TS_ERROR_INIT;
            if (ts_compiler_class(c, ci, ci->tree->range, &ignore))
                ts_error_clear(&ignore);
        }
        if (!ci->type || ci->tree->kind != TS_TREE_CLASS)
            continue;
        Decls d;
        memset(&d, 0, sizeof d);
        int rc = 0;
        /* archive classes, and a program's interfaces (their methods' signatures) */
        const TsTree *body = ci->qualname || ci->kind == TS_CLASS_INTERFACE ? ci->tree->kids[3]
                                                                           : NULL;
        for (size_t k = 0; rc == 0 && body && k < body->n_kids; k++)
            rc = declaration(c, ci, body->kids[k], &d, schemas, err);
        TsPyClassInfo info = {
            .type = ci->type,
            .parameters = d.names[0], .n_parameters = d.n[0],
            .buffers = d.names[1], .n_buffers = d.n[1],
            .constant_names = d.names[2], .constant_values = d.values, .n_constants = d.n[2],
            .enum_values = ci->enum_values, .n_enum_values = ci->n_enum_values,
            .methods = d.methods, .n_methods = d.n_methods,
        };
        if (rc == 0)
            rc = ts_pyprint_describe(p, &info, err);
        decls_free(&d);
        if (rc)
            return -1;
    }
    return 0;
}
