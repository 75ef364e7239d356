/* pyprint.c — the python printer: which files, what goes into them, in which order.
 *
 * Everything printed is a named type or a free function, and goes into the file of its
 * qualified module. Printing one queues the others it uses (the types of its values and
 * attributes, the functions it calls, the classes whose methods it calls); finishing
 * prints the queue in the order things were met, as PyTorch's ScriptModuleSerializer
 * does with its dependency table. A class prints as its declarations and then its methods
 * (in the order the class declares them, compiled through the unit's resolver when they
 * are not compiled yet); a named tuple as its fields, an enum as its members,
 * an interface as its methods' signatures:
 *
 *     class Model(Module):                      class Config(NamedTuple):
 *       __parameters__ = ["weight", ]             width : int
 *       __buffers__ = []                        class Mode(Enum):
 *       training : bool                           SUM = 1
 *       weight : Tensor                         class Shape(Interface):
 *       __annotations__["0"] = __torch__.m.Sub    def area(self) -> float:
 *       eps : Final[float] = 0.5                    pass
 *       def forward(self: __torch__.m.Model,
 *         x: Tensor) -> Tensor:
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "serialize/pyprint_impl.h"

int pp_grow(void **items, size_t n, size_t *cap, size_t size, TsError *err)
{
    if (n < *cap)
        return 0;
    size_t nc = *cap ? 2 * *cap : 8;
    void *p = nc <= ((size_t)-1) / size ? realloc(*items, nc * size) : NULL;
    if (!p)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    *items = p;
    *cap = nc;
    return 0;
}

TsPyPrinter *ts_pyprint_new(TsCompUnit *unit, TsError *err)
{
    TsPyPrinter *p = calloc(1, sizeof *p);
    if (!p) {
        ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    p->unit = unit;
    p->version = 3;
    return p;
}

static void free_strings(const char *const *s, size_t n)
{
    for (size_t i = 0; s && i < n; i++)
        free((char *)s[i]);
    free((void *)s);
}

static void free_info(TsPyClassInfo *in)
{
    free_strings(in->parameters, in->n_parameters);
    free_strings(in->buffers, in->n_buffers);
    free_strings(in->constant_names, in->n_constants);
    for (size_t i = 0; in->constant_values && i < in->n_constants; i++)
        ts_value_release(in->constant_values[i]);
    free((void *)in->constant_values);
    for (size_t i = 0; in->enum_values && i < in->n_enum_values; i++)
        ts_value_release(in->enum_values[i]);
    free((void *)in->enum_values);
    free((void *)in->methods);
}

void ts_pyprint_free(TsPyPrinter *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->n_files; i++) {
        PyFile *f = p->files[i];
        free(f->module);
        free(f->path);
        ts_buf_free(&f->text);
        ts_ptrmap_free(&f->next_id);
        free(f);
    }
    free(p->files);
    for (size_t i = 0; i < p->n_constants; i++)
        ts_value_release(p->constants[i]);
    free(p->constants);
    for (size_t i = 0; i < p->n_infos; i++)
        free_info(&p->infos[i]);
    free(p->infos);
    free(p->queue);
    ts_ptrmap_free(&p->queued);
    free(p);
}

/* ---- class details --------------------------------------------------------------------- */

static const char **copy_strings(const char *const *s, size_t n, bool *ok)
{
    if (!s || n == 0)
        return NULL;
    const char **c = calloc(n, sizeof *c);
    for (size_t i = 0; c && i < n; i++)
        if (!(c[i] = strdup(s[i])))
            *ok = false;
    if (!c)
        *ok = false;
    return c;
}

static const TsValue *copy_values(const TsValue *v, size_t n, bool *ok)
{
    if (!v || n == 0)
        return NULL;
    TsValue *c = malloc(n * sizeof *c);
    if (!c) {
        *ok = false;
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        c[i] = v[i];
        ts_value_retain(c[i]);
    }
    return c;
}

int ts_pyprint_describe(TsPyPrinter *p, const TsPyClassInfo *info, TsError *err)
{
    if (pp_grow((void **)&p->infos, p->n_infos, &p->cap_infos, sizeof *p->infos, err))
        return -1;
    bool ok = true;
    TsPyClassInfo c = *info;
    c.parameters = copy_strings(info->parameters, info->n_parameters, &ok);
    c.buffers = copy_strings(info->buffers, info->n_buffers, &ok);
    c.constant_names = copy_strings(info->constant_names, info->n_constants, &ok);
    c.constant_values = copy_values(info->constant_values, info->n_constants, &ok);
    c.enum_values = copy_values(info->enum_values, info->n_enum_values, &ok);
    c.methods = NULL;
    if (info->methods && info->n_methods &&
        (c.methods = malloc(info->n_methods * sizeof *c.methods)))
        memcpy((void *)c.methods, info->methods, info->n_methods * sizeof *c.methods);
    else if (info->methods && info->n_methods)
        ok = false;
    if (!c.parameters) c.n_parameters = 0;
    if (!c.buffers) c.n_buffers = 0;
    if (!c.constant_names || !c.constant_values) c.n_constants = 0;
    if (!c.enum_values) c.n_enum_values = 0;
    if (!c.methods) c.n_methods = 0;
    if (!ok) {
        free_info(&c);
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    }
    p->infos[p->n_infos++] = c;
    return 0;
}

const TsPyClassInfo *pp_info(const TsPyPrinter *p, const TsType *t)
{
    for (size_t i = p->n_infos; i-- > 0;)
        if (p->infos[i].type == t)
            return &p->infos[i];
    return NULL;
}

/* ---- files ------------------------------------------------------------------------------- */

/* The file of the module a qualified name is in ("__torch__.m.Cls" -> "__torch__.m"). */
static PyFile *file_of(TsPyPrinter *p, const char *qualname, TsError *err)
{
    const char *dot = strrchr(qualname, '.');
    size_t n = dot ? (size_t)(dot - qualname) : strlen(qualname);
    for (size_t i = 0; i < p->n_files; i++)
        if (strlen(p->files[i]->module) == n && memcmp(p->files[i]->module, qualname, n) == 0)
            return p->files[i];
    if (pp_grow((void **)&p->files, p->n_files, &p->cap_files, sizeof *p->files, err))
        return NULL;
    PyFile *f = calloc(1, sizeof *f);
    char *module = malloc(n + 1), *path = malloc(n + 9);
    if (!f || !module || !path) {
        free(f);
        free(module);
        free(path);
        ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    memcpy(module, qualname, n);
    module[n] = '\0';
    snprintf(path, n + 9, "code/%s.py", module);
    for (char *c = path + 5; c < path + 5 + n; c++)
        if (*c == '.')
            *c = '/';
    f->module = module;
    f->path = path;
    p->files[p->n_files++] = f;
    return f;
}

static const char *base_name(const char *qualname)
{
    const char *dot = strrchr(qualname, '.');
    return dot ? dot + 1 : qualname;
}

size_t ts_pyprint_file_count(const TsPyPrinter *p)
{
    return p->n_files;
}

TsPyFile ts_pyprint_file(const TsPyPrinter *p, size_t i)
{
    const PyFile *f = p->files[i];
    TsPyFile r = { f->module, f->path, f->text.p ? f->text.p : "", f->text.len };
    return r;
}

unsigned ts_pyprint_version(const TsPyPrinter *p)
{
    return p->version;
}

size_t ts_pyprint_constant_count(const TsPyPrinter *p)
{
    return p->n_constants;
}

const TsValue *ts_pyprint_constants(const TsPyPrinter *p)
{
    return p->constants;
}

/* ---- the queue --------------------------------------------------------------------------- */

/* The index of an item in the queue, queued now if it was not: -1 on out of memory. */
static long enqueue(TsPyPrinter *p, const TsType *t, const TsFunction *f, TsError *err)
{
    const void *key = t ? (const void *)t : (const void *)f;
    uintptr_t at;
    if (ts_ptrmap_get(&p->queued, key, &at))
        return (long)at;
    if (pp_grow((void **)&p->queue, p->n_queue, &p->cap_queue, sizeof *p->queue, err))
        return -1;
    if (ts_ptrmap_put(&p->queued, key, p->n_queue) < 0)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory"), -1;
    p->queue[p->n_queue] = (PyItem){ t, f, false };
    return (long)p->n_queue++;
}

static bool is_printable_type(const TsType *t)
{
    switch (ts_type_kind(t)) {
    case TS_TYPE_CLASS:
    case TS_TYPE_MODULE:
    case TS_TYPE_ENUM:
    case TS_TYPE_INTERFACE:
        return true;
    case TS_TYPE_TUPLE:
        return ts_type_name(t) != NULL;
    default:
        return false;
    }
}

int pp_use_type(TsPyPrinter *p, const TsType *t, TsError *err)
{
    if (is_printable_type(t)) {
        const char *name = ts_type_name(t);
        if (strncmp(name, "__torch__.", 10) == 0 && enqueue(p, t, NULL, err) < 0)
            return -1;
        if (ts_type_kind(t) != TS_TYPE_TUPLE)
            return 0;   /* its attributes are met when it is printed */
    }
    for (size_t i = 0; i < ts_type_num_elems(t); i++)
        if (pp_use_type(p, ts_type_elem(t, i), err))
            return -1;
    return 0;
}

int pp_use_function(TsPyPrinter *p, const TsFunction *f, TsError *err)
{
    if (f->owner && ts_type_has_method(f->owner, f->name))
        return pp_use_type(p, f->owner, err);
    return enqueue(p, NULL, f, err) < 0 ? -1 : 0;
}

/* ---- printing --------------------------------------------------------------------------- */

static void put_name_list(TsBuf *b, const char *what, const char *const *names, size_t n)
{
    ts_buf_printf(b, "  %s = [", what);
    for (size_t i = 0; i < n; i++) {
        ts_ir_put_quoted(b, names[i], strlen(names[i]), true);
        ts_buf_puts(b, ", ");
    }
    ts_buf_puts(b, "]\n");
}

/* The header, attributes and Final constants of a class or module. */
static int print_class_head(TsPyPrinter *p, PyFile *file, const TsType *t, TsError *err)
{
    TsBuf *b = &file->text;
    bool module = ts_type_kind(t) == TS_TYPE_MODULE;
    const TsPyClassInfo *info = pp_info(p, t);
    ts_buf_printf(b, "class %s%s:\n", base_name(ts_type_name(t)), module ? "(Module)" : "");
    if (module) {
        put_name_list(b, "__parameters__", info ? info->parameters : NULL,
                      info ? info->n_parameters : 0);
        put_name_list(b, "__buffers__", info ? info->buffers : NULL, info ? info->n_buffers : 0);
    }
    for (size_t i = 0; i < ts_type_num_fields(t); i++) {
        const TsTypeField *f = ts_type_field(t, i);
        if (pp_use_type(p, f->type, err))
            return -1;
        if (pp_is_identifier(f->name)) {
            ts_buf_printf(b, "  %s : ", f->name);
        } else {
            if (i == 0)
                ts_buf_puts(b, "  __annotations__ = []\n");
            ts_buf_puts(b, "  __annotations__[");
            ts_ir_put_quoted(b, f->name, strlen(f->name), true);
            ts_buf_puts(b, "] = ");
        }
        pp_type(b, f->type);
        ts_buf_puts(b, "\n");
    }
    for (size_t i = 0; info && i < info->n_constants; i++) {
        ts_buf_printf(b, "  %s : Final[", info->constant_names[i]);
        pp_type(b, ts_value_type(info->constant_values[i]));
        ts_buf_puts(b, "] = ");
        if (pp_value(p, b, info->constant_values[i], err))
            return -1;
        ts_buf_puts(b, "\n");
    }
    return 0;
}

/* A class or module: its declarations, then its methods. */
static int print_class(TsPyPrinter *p, PyFile *file, const TsType *t, TsError *err)
{
    if (print_class_head(p, file, t, err))
        return -1;
    for (size_t i = 0; i < ts_type_num_methods(t); i++) {
        TsFunction *f;
        if (ts_unit_method(p->unit, t, ts_type_method_name(t, i), &f, err))
            return -1;
        if (f && pp_function(p, file, f, 1, err))
            return -1;
    }
    return 0;
}

/* ") -> T:" of a signature. */
static int put_returns(TsPyPrinter *p, TsBuf *b, const TsSchema *s, TsError *err)
{
    const TsType *ret = s->n_returns ? s->returns[0].type : ts_type_none();
    if (pp_use_type(p, ret, err))
        return -1;
    ts_buf_puts(b, ") -> ");
    pp_type(b, ret);
    ts_buf_puts(b, ":");
    return 0;
}

/* A module whose forward only calls f with its arguments. */
static int print_forwarder(TsPyPrinter *p, PyFile *file, const TsType *t, const TsFunction *f,
                           TsError *err)
{
    if (print_class_head(p, file, t, err))
        return -1;
    TsBuf *b = &file->text;
    const TsSchema *s = f->schema;
    ts_buf_printf(b, "  def forward(self: %s", ts_type_name(t));
    for (size_t i = 0; i < s->n_args; i++) {
        if (pp_use_type(p, s->args[i].type, err))
            return -1;
        ts_buf_printf(b, ",\n    %s: ", s->args[i].name ? s->args[i].name : "_");
        pp_type(b, s->args[i].type);
        if (s->args[i].has_default) {
            ts_buf_puts(b, "=");
            if (pp_value(p, b, s->args[i].default_value, err))
                return -1;
        }
    }
    if (put_returns(p, b, s, err))
        return -1;
    ts_buf_puts(b, "\n    return ");
    if (pp_callee_name(p, b, f, err))
        return -1;
    ts_buf_puts(b, "(");
    for (size_t i = 0; i < s->n_args; i++)
        ts_buf_printf(b, "%s, ", s->args[i].name ? s->args[i].name : "_");
    ts_buf_puts(b, ")\n");
    return ts_buf_check(b, err);
}

static void print_named_tuple(PyFile *file, const TsType *t)
{
    TsBuf *b = &file->text;
    ts_buf_printf(b, "class %s(NamedTuple):\n", base_name(ts_type_name(t)));
    for (size_t i = 0; i < ts_type_num_fields(t); i++) {
        ts_buf_printf(b, "  %s : ", ts_type_field(t, i)->name);
        pp_type(b, ts_type_elem(t, i));
        ts_buf_puts(b, "\n");
    }
}

static int print_interface(TsPyPrinter *p, PyFile *file, const TsType *t, TsError *err)
{
    TsBuf *b = &file->text;
    const TsPyClassInfo *info = pp_info(p, t);
    ts_buf_printf(b, "class %s(%s):\n", base_name(ts_type_name(t)),
                  ts_type_is_module(t) ? "ModuleInterface" : "Interface");
    size_t n = ts_type_num_fields(t);
    bool given = info && info->n_methods == n;
    for (size_t i = 0; i < n; i++) {
        /* the signatures given, else those of the methods the unit compiled (a program's
         * interface: its methods are stubs with the declared signatures) */
        TsFunction *f = NULL;
        if (!given && ts_unit_method(p->unit, t, ts_type_field(t, i)->name, &f, err))
            return -1;
        if (!given && !f)
            return ts_error_set(err, TS_ERR_USAGE, "cannot save interface %s: the signatures "
                                "of its methods were not given", ts_type_name(t));
        const TsSchema *s = given ? info->methods[i] : f->schema;
        ts_buf_printf(b, "  def %s(self", ts_type_field(t, i)->name);
        for (size_t k = 1; k < s->n_args; k++) {
            if (pp_use_type(p, s->args[k].type, err))
                return -1;
            ts_buf_printf(b, ", %s: ", s->args[k].name);
            pp_type(b, s->args[k].type);
        }
        if (put_returns(p, b, s, err))
            return -1;
        ts_buf_puts(b, "\n    pass\n");
    }
    return 0;
}

/* The value of each member: given, else found among the constants the graphs hold. */
static int enum_member_value(const TsPyPrinter *p, const TsType *t, size_t i, TsValue *out,
                             TsError *err);

static int print_enum(TsPyPrinter *p, PyFile *file, const TsType *t, TsError *err)
{
    TsBuf *b = &file->text;
    ts_buf_printf(b, "class %s(Enum):\n", base_name(ts_type_name(t)));
    for (size_t i = 0; i < ts_type_num_fields(t); i++) {
        TsValue v;
        if (enum_member_value(p, t, i, &v, err))
            return -1;
        ts_buf_printf(b, "  %s = ", ts_type_field(t, i)->name);
        int rc = pp_value(p, b, v, err);
        ts_value_release(v);
        if (rc)
            return -1;
        ts_buf_puts(b, "\n");
    }
    return 0;
}

static int print_item(TsPyPrinter *p, size_t k, TsError *err)
{
    PyItem it = p->queue[k];
    p->queue[k].printed = true;
    const char *name = it.type ? ts_type_name(it.type) : it.fn->qualname;
    if (it.fn && it.fn->owner)   /* a static method: a function of its class's module */
        name = ts_type_name(it.fn->owner);
    PyFile *file = file_of(p, name, err);
    if (!file)
        return -1;
    if (it.fn)
        return pp_function(p, file, it.fn, 0, err);
    switch (ts_type_kind(it.type)) {
    case TS_TYPE_TUPLE:
        print_named_tuple(file, it.type);
        return ts_buf_check(&file->text, err);
    case TS_TYPE_ENUM:
        return print_enum(p, file, it.type, err);
    case TS_TYPE_INTERFACE:
        return print_interface(p, file, it.type, err);
    default:
        return print_class(p, file, it.type, err);
    }
}

int ts_pyprint_add_type(TsPyPrinter *p, const TsType *type, TsError *err)
{
    if (!is_printable_type(type))
        return ts_error_set(err, TS_ERR_USAGE, "python printer: not a class, named tuple, "
                            "enum or interface");
    long k = enqueue(p, type, NULL, err);
    return k < 0 ? -1 : p->queue[k].printed ? 0 : print_item(p, (size_t)k, err);
}

int ts_pyprint_add_function(TsPyPrinter *p, const TsFunction *f, TsError *err)
{
    if (f->owner && ts_type_has_method(f->owner, f->name))
        return ts_pyprint_add_type(p, f->owner, err);
    long k = enqueue(p, NULL, f, err);
    return k < 0 ? -1 : p->queue[k].printed ? 0 : print_item(p, (size_t)k, err);
}

int ts_pyprint_add_forwarder(TsPyPrinter *p, const TsType *module, const TsFunction *f,
                             TsError *err)
{
    if (ts_type_kind(module) != TS_TYPE_MODULE)
        return ts_error_set(err, TS_ERR_USAGE, "python printer: a forwarder is a module");
    long k = enqueue(p, module, NULL, err);
    if (k < 0)
        return -1;
    if (p->queue[k].printed)
        return ts_error_set(err, TS_ERR_USAGE, "python printer: %s is printed already",
                            ts_type_name(module));
    p->queue[k].printed = true;
    PyFile *file = file_of(p, ts_type_name(module), err);
    return file ? print_forwarder(p, file, module, f, err) : -1;
}

int ts_pyprint_finish(TsPyPrinter *p, TsError *err)
{
    for (size_t i = 0; i < p->n_queue; i++)
        if (!p->queue[i].printed && print_item(p, i, err))
            return -1;
    return 0;
}

/* ---- enum values from the graphs --------------------------------------------------------- */

static bool find_in_block(const TsBlock *b, const TsType *t, const char *member, TsValue *out);

static bool find_in_node(const TsNode *n, const TsType *t, const char *member, TsValue *out)
{
    const TsAttr *a = n->kind == ts_symbol("prim::Constant")
                          ? ts_node_attr(n, ts_symbol("attr::value")) : NULL;
    if (a && a->kind == TS_ATTR_IVALUE && a->u.iv.tag == TS_TAG_ENUM) {
        const TsEnumValue *e = (const TsEnumValue *)a->u.iv.u.p;
        if (e->type == t && strcmp(e->name->data, member) == 0) {
            *out = e->value;
            ts_value_retain(*out);
            return true;
        }
    }
    for (size_t i = 0; i < n->n_blocks; i++)
        if (find_in_block(n->blocks[i], t, member, out))
            return true;
    for (size_t i = 0; i < n->n_attrs; i++)
        if (n->attrs[i].kind == TS_ATTR_GRAPH && n->attrs[i].u.g &&
            find_in_block(ts_graph_block(n->attrs[i].u.g), t, member, out))
            return true;
    return false;
}

static bool find_in_block(const TsBlock *b, const TsType *t, const char *member, TsValue *out)
{
    for (const TsNode *n = b->ret->next; n != b->ret; n = n->next)
        if (find_in_node(n, t, member, out))
            return true;
    return false;
}

static int enum_member_value(const TsPyPrinter *p, const TsType *t, size_t i, TsValue *out,
                             TsError *err)
{
    const TsPyClassInfo *info = pp_info(p, t);
    if (info && i < info->n_enum_values) {
        *out = info->enum_values[i];
        ts_value_retain(*out);
        return 0;
    }
    const char *member = ts_type_field(t, i)->name;
    for (size_t k = 0; k < ts_unit_count(p->unit); k++)
        if (find_in_block(ts_graph_block(ts_unit_function(p->unit, k)->graph), t, member, out))
            return 0;
    return ts_error_set(err, TS_ERR_USAGE, "cannot save enum %s: the value of its member %s "
                        "is not known", ts_type_name(t), member);
}
