/* pickle_env.h — an unpickling environment for tests and fuzz targets, and the canonical
 * text of values that t/data/serialize/canon.py prints from Python's side.
 *
 * The environment stands in for the importer: every __torch__ class it is asked for is a
 * class with one attribute, __state__, where BUILD's state goes; __torch__.Color is an enum
 * (RED = 1, GREEN = 2); storages come from an archive's data/ entries (zip set) or are
 * fresh zeroed memory of the size asked (for the fuzzer, up to a limit); annotation strings
 * are parsed by a small parser of List/Dict/Optional/Tuple over the basic types and the
 * nominal types that exist.
 */
#ifndef TS_PICKLE_ENV_H
#define TS_PICKLE_ENV_H

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serialize/pickle.h"
#include "serialize/zip.h"
#include "tscript/strbuf.h"

typedef struct TestEnv {
    TsZip *zip;                /* storages from here, or synthetic when NULL */
    size_t synth_limit;        /* the largest synthetic storage */
    size_t synth_extra;        /* bytes added to each synthetic storage (a lying archive) */
    int states;                /* set_state calls */
} TestEnv;

static const TsType *color_type(void)
{
    const TsType *t = ts_type_lookup("__torch__.Color");
    static const char *const names[] = {"RED", "GREEN"};
    return t ? t : ts_type_enum_new("__torch__.Color", ts_type_int(), 2, names, NULL);
}

static const TsType *env_resolve_class(void *ctx, const char *qualname, TsError *err)
{
    (void)ctx;
    size_t n = strlen(qualname);
    if (n >= 7 && strcmp(qualname + n - 7, "Unknown") == 0) {
        ts_error_set(err, TS_ERR_RUNTIME, "no class %s in this archive", qualname);
        return NULL;
    }
    if (strcmp(qualname, "__torch__.Color") == 0)
        return color_type();
    const TsType *t = ts_type_lookup(qualname);
    if (t)
        return t;
    TsType *c = ts_type_class_new(qualname, false, err);
    if (c && ts_type_class_add_attr(c, "__state__", ts_type_any(), err))
        return NULL;
    return c;
}

static int env_set_state(void *ctx, TsObject *obj, TsValue state, TsError *err)
{
    ((TestEnv *)ctx)->states++;
    if (obj->nslots < 1) {
        ts_value_release(state);
        return ts_error_set(err, TS_ERR_TYPE, "object without a __state__ slot");
    }
    ts_value_release(obj->slots[0]);
    obj->slots[0] = state;
    return 0;
}

static int env_enum_member(void *ctx, const TsType *type, TsValue value, TsValue *out,
                           TsError *err)
{
    (void)ctx;
    static const char *const names[] = {"RED", "GREEN"};
    if (type == color_type() && value.tag == TS_TAG_INT && value.u.i >= 1 && value.u.i <= 2) {
        TsEnumValue *e = ts_enum_value_new(type, names[value.u.i - 1], value, err);
        *out = ts_obj_value(e, TS_TAG_ENUM);
        return e ? 0 : TS_ERR_NOMEM;
    }
    return ts_error_set(err, TS_ERR_VALUE, "no member of %s has this value", ts_type_name(type));
}

static TsStorage *env_load_storage(void *ctx, int dtype, const char *key, const char *location,
                                   int64_t numel, TsError *err)
{
    TestEnv *env = ctx;
    (void)location;
    if (env->zip) {
        char name[512];
        snprintf(name, sizeof name, "%sdata/%s", ts_zip_prefix(env->zip), key);
        long i = ts_zip_find(env->zip, name);
        if (i < 0) {
            ts_error_set(err, TS_ERR_RUNTIME, "no entry %s", name);
            return NULL;
        }
        return ts_zip_storage(env->zip, (size_t)i, err);
    }
    size_t n = (size_t)numel * ts_dtype_size(dtype) + env->synth_extra;  /* checked */
    void *p = n <= env->synth_limit ? calloc(1, n ? n : 1) : NULL;
    TsStorage *s = p ? ts_storage_external(p, n, (TsDevice){TS_DEV_CPU, -1}, free, p, err) : NULL;
    if (!s) {
        free(p);
        ts_error_set(err, TS_ERR_RUNTIME, "storage %s of %zu bytes refused", key, n);
    }
    return s;
}

/* ---- annotations: List[int], Dict[str, Tensor], Optional[T], Tuple[A, B], names ------- */
static const TsType *parse_ann(const char **s, int depth);

static int expect_char(const char **s, char c)
{
    while (**s == ' ')
        (*s)++;
    if (**s != c)
        return -1;
    (*s)++;
    return 0;
}

static const TsType *parse_args(const char **s, const char *name, int depth)
{
    const TsType *a[16] = {NULL};
    size_t n = 0;
    if (expect_char(s, '['))
        return NULL;
    if (strcmp(name, "Tuple") == 0 && strncmp(*s, "()]", 3) == 0) {
        *s += 3;
        return ts_type_tuple(0, a);
    }
    do {
        if (n == 16 || !(a[n++] = parse_ann(s, depth + 1)))
            return NULL;
    } while (expect_char(s, ',') == 0);
    if (expect_char(s, ']'))
        return NULL;
    if (strcmp(name, "List") == 0 && n == 1)
        return ts_type_list(a[0]);
    if (strcmp(name, "Dict") == 0 && n == 2)
        return ts_type_dict(a[0], a[1]);
    if (strcmp(name, "Optional") == 0 && n == 1)
        return ts_type_optional(a[0]);
    if (strcmp(name, "Tuple") == 0)
        return ts_type_tuple(n, a);
    return NULL;
}

static const TsType *parse_ann(const char **s, int depth)
{
    static const struct {
        const char *name;
        const TsType *(*type)(void);
    } basic[] = {
        {"int", ts_type_int}, {"float", ts_type_float}, {"bool", ts_type_bool},
        {"str", ts_type_str}, {"Tensor", ts_type_tensor}, {"Any", ts_type_any},
        {"complex", ts_type_complex}, {"NoneType", ts_type_none}, {"Device", ts_type_device},
    };
    char name[256];
    size_t n = 0;
    while (**s == ' ')
        (*s)++;
    while (n + 1 < sizeof name && (isalnum((unsigned char)**s) || **s == '_' || **s == '.'))
        name[n++] = *(*s)++;
    name[n] = '\0';
    if (n == 0 || depth > 32)
        return NULL;
    for (size_t i = 0; i < sizeof basic / sizeof *basic; i++)
        if (strcmp(name, basic[i].name) == 0)
            return basic[i].type();
    if (**s == '[')
        return parse_args(s, name, depth);
    return ts_type_lookup(name);
}

static const TsType *env_parse_type(void *ctx, const char *annotation, TsError *err)
{
    (void)ctx;
    const char *s = annotation;
    const TsType *t = parse_ann(&s, 0);
    if (!t || *s) {
        ts_error_set(err, TS_ERR_SYNTAX, "cannot parse the type '%s'", annotation);
        return NULL;
    }
    return t;
}

__attribute__((unused))
static TsUnpickleEnv test_env(TestEnv *env)
{
    TsUnpickleEnv e = {env, env_resolve_class, env_set_state, env_load_storage,
                       env_parse_type, env_enum_member};
    return e;
}

/* Zeroed host memory for the tensors tests make. */
static void *host_alloc(TsAllocator *self, size_t n, TsDevice d)
{
    (void)self, (void)d;
    return calloc(1, n ? n : 1);
}

static void host_free(TsAllocator *self, void *p, size_t n, TsDevice d)
{
    (void)self, (void)n, (void)d;
    free(p);
}

__attribute__((unused)) static TsAllocator host = {"test", host_alloc, host_free, NULL, NULL,
                                                    NULL, NULL};

/* ---- the canonical text (see canon.py) ----------------------------------------------- */
static void canon(TsBuf *b, TsValue v);

static void canon_annotation(TsBuf *b, const TsType *t)
{
    char buf[512];
    ts_type_annotation(t ? t : ts_type_any(), buf, sizeof buf);
    ts_buf_puts(b, buf);
}

static void canon_elements(TsBuf *b, const TsTensor *t, int dim, const unsigned char *at)
{
    size_t item = ts_dtype_size(t->dtype);
    if (dim == t->dim) {
        for (size_t i = 0; i < item; i++)
            ts_buf_printf(b, "%02x", at[i]);
        return;
    }
    for (int64_t i = 0; i < t->sizes[dim]; i++)
        canon_elements(b, t, dim + 1, at + (size_t)(i * t->strides[dim]) * item);
}

static void canon_tensor(TsBuf *b, const TsTensor *t)
{
    ts_buf_printf(b, "T%d(", t->dtype);
    for (int i = 0; i < t->dim; i++)
        ts_buf_printf(b, "%s%lld", i ? "," : "", (long long)t->sizes[i]);
    ts_buf_puts(b, ")(");
    for (int i = 0; i < t->dim; i++)
        ts_buf_printf(b, "%s%lld", i ? "," : "", (long long)t->strides[i]);
    ts_buf_printf(b, ")%lldrg%d:", (long long)t->offset, t->requires_grad ? 1 : 0);
    if (ts_tensor_numel(t) > 0)
        canon_elements(b, t, 0, ts_tensor_data(t));
}

static void canon_str(TsBuf *b, const TsStr *s)
{
    ts_buf_putc(b, '\'');
    for (size_t i = 0; i < s->len; i++) {
        unsigned char c = (unsigned char)s->data[i];
        if (c >= 0x20 && c < 0x7f && c != '\'' && c != '\\')
            ts_buf_putc(b, (char)c);
        else
            ts_buf_printf(b, "\\x%02x", c);
    }
    ts_buf_putc(b, '\'');
}

static void canon(TsBuf *b, TsValue v)
{
    char dev[64];
    switch ((TsTag)v.tag) {
    case TS_TAG_NONE: ts_buf_puts(b, "None"); break;
    case TS_TAG_BOOL: ts_buf_puts(b, v.u.b ? "True" : "False"); break;
    case TS_TAG_INT: ts_buf_printf(b, "%lld", (long long)v.u.i); break;
    case TS_TAG_DOUBLE: ts_buf_printf(b, "f:%.17g", v.u.d); break;
    case TS_TAG_COMPLEX: {
        const TsComplex *c = (const TsComplex *)v.u.p;
        ts_buf_printf(b, "c:(%.17g,%.17g)", c->re, c->im);
        break;
    }
    case TS_TAG_DEVICE:
        ts_device_str(v.u.dev, dev, sizeof dev);
        ts_buf_printf(b, "dev:%s", dev);
        break;
    case TS_TAG_STR: canon_str(b, (const TsStr *)v.u.p); break;
    case TS_TAG_TUPLE: {
        const TsTuple *t = (const TsTuple *)v.u.p;
        ts_buf_putc(b, '(');
        for (size_t i = 0; i < t->len; i++) {
            canon(b, t->items[i]);
            ts_buf_putc(b, ',');
        }
        ts_buf_putc(b, ')');
        break;
    }
    case TS_TAG_LIST: {
        const TsList *l = (const TsList *)v.u.p;
        ts_buf_putc(b, '[');
        canon_annotation(b, l->elem_type);
        ts_buf_putc(b, '|');
        for (size_t i = 0; i < l->len; i++) {
            canon(b, l->items[i]);
            ts_buf_putc(b, ',');
        }
        ts_buf_putc(b, ']');
        break;
    }
    case TS_TAG_DICT: {
        const TsDict *d = (const TsDict *)v.u.p;
        size_t pos = 0;
        TsValue k, x;
        ts_buf_putc(b, '{');
        canon_annotation(b, ts_dict_key_type(d));
        ts_buf_putc(b, ',');
        canon_annotation(b, ts_dict_value_type(d));
        ts_buf_putc(b, '|');
        while (ts_dict_next(d, &pos, &k, &x)) {
            canon(b, k);
            ts_buf_putc(b, ':');
            canon(b, x);
            ts_buf_putc(b, ',');
        }
        ts_buf_putc(b, '}');
        break;
    }
    case TS_TAG_TENSOR: canon_tensor(b, (const TsTensor *)v.u.p); break;
    case TS_TAG_OBJECT: {
        const TsObject *o = (const TsObject *)v.u.p;
        ts_buf_printf(b, "O(%s|", ts_type_name(o->cls));
        canon(b, o->nslots ? o->slots[0] : ts_none());
        ts_buf_putc(b, ')');
        break;
    }
    case TS_TAG_ENUM: {
        const TsEnumValue *e = (const TsEnumValue *)v.u.p;
        ts_buf_printf(b, "E(%s|", ts_type_name(e->type));
        canon(b, e->value);
        ts_buf_putc(b, ')');
        break;
    }
    default: ts_buf_printf(b, "<tag %u>", v.tag); break;
    }
}

/* The canonical text of v, malloc'd. */
__attribute__((unused))
static char *canon_text(TsValue v)
{
    TsBuf b = TS_BUF_INIT;
    canon(&b, v);
    return ts_buf_take(&b, NULL);
}

#endif
