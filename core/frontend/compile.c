/* compile.c — the file level: what a file defines, and compiling it on demand.
 *
 * ts_compile_source() parses the file and records its top-level names: imports (torch,
 * torch.nn as nn, torch.nn.functional as F, math, typing, collections, enum and names
 * imported from them), functions (with their @torch.jit decorators), classes (script
 * classes and nn.Modules, typing.NamedTuple, Enum), `X = namedtuple(...)` and plain
 * module-level values (which TorchScript code may not use). Compiling then starts from the
 * entry function; a call to a function or class compiles it first, so a function may call
 * one defined later in the file, and a function met again while it is being compiled is
 * a recursive call, which TorchScript rejects.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/compile.h"
#include "frontend/emit.h"
#include "frontend/lexer.h"
#include "frontend/parser.h"

enum { MAX_COMPILE_DEPTH = 64 };

/* ---- tables ----------------------------------------------------------------------- */

int ts_compiler_grow(void **items, size_t n, size_t *cap, size_t size, TsError *err)
{
    if (n < *cap)
        return 0;
    size_t nc = *cap ? 2 * *cap : 16;
    void *p = realloc(*items, nc * size);
    if (!p)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    *items = p;
    *cap = nc;
    return 0;
}

const TsGlobal *ts_compiler_global(const TsCompiler *c, const char *name)
{
    for (size_t i = c->n_globals; i-- > 0;)
        if (strcmp(c->globals[i]->name, name) == 0)
            return c->globals[i];
    return NULL;
}

/* Globals are allocated one by one: a pointer to one stays valid while compiling loads more
 * of them (an archive's files load in the middle of building a class). */
TsGlobal *ts_compiler_add_global(TsCompiler *c, const char *name, TsGlobalKind kind,
                                 const char *str, TsError *err)
{
    if (ts_compiler_grow((void **)&c->globals, c->n_globals, &c->cap_globals,
                         sizeof *c->globals, err))
        return NULL;
    TsGlobal *g = calloc(1, sizeof *g);
    if (g) {
        g->kind = kind;
        g->name = strdup(name);
        g->str = str ? strdup(str) : NULL;
    }
    if (!g || !g->name || (str && !g->str)) {
        if (g) {
            free(g->name);
            free(g->str);
        }
        free(g);
        ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    c->globals[c->n_globals++] = g;
    return g;
}

/* A def of the file (module NULL: "__torch__.f", "__torch__.Cls.m") or of an archive's
 * code file (module "__torch__.a.b": "__torch__.a.b.f", "__torch__.a.b.Cls.m"). */
TsDefInfo *ts_compiler_add_def(TsCompiler *c, const TsTree *def, TsClassInfo *cls,
                               const char *module, TsError *err)
{
    if (ts_compiler_grow((void **)&c->defs, c->n_defs, &c->cap_defs, sizeof *c->defs, err))
        return NULL;
    TsDefInfo *d = calloc(1, sizeof *d);
    if (!d) {
        ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    d->def = def;
    d->cls = cls;
    const TsTree *decos = def->kids[1];
    for (size_t i = 0; decos && i < decos->n_kids; i++) {
        const TsTree *dt = decos->kids[i];
        for (size_t k = 1; dt->kind == TS_TREE_CALL && k < dt->n_kids; k++)   /* drop=True */
            d->is_drop = d->is_drop || (dt->kids[k]->kind == TS_TREE_KWARG && dt->kids[k]->str &&
                                        strcmp(dt->kids[k]->str, "drop") == 0 &&
                                        dt->kids[k]->n_kids &&
                                        dt->kids[k]->kids[0]->kind == TS_TREE_TRUE);
        if (dt->kind == TS_TREE_CALL)
            dt = dt->kids[0];
        const char *n = dt->kind == TS_TREE_NAME ? dt->str
                        : dt->kind == TS_TREE_ATTR ? dt->kids[1]->str : "";
        if (strcmp(n, "staticmethod") == 0)
            d->is_static = true;
        else if (strcmp(n, "ignore") == 0)
            d->is_ignored = true;
        else if (strcmp(n, "unused") == 0)
            d->is_unused = true;
        else if (strcmp(n, "_overload") == 0)
            d->is_overload = true;
        else if (cls && dt->kind == TS_TREE_NAME && strcmp(n, "property") == 0)
            d->property = 'g';
        else if (cls && dt->kind == TS_TREE_ATTR && strcmp(n, "setter") == 0)
            d->property = 's';
    }
    /* a property's getter and setter are the methods __NAME_getter and __NAME_setter, as
     * PyTorch names them (and an archive calls them) */
    const char *name = def->kids[0]->str;
    size_t len = strlen(name) + (cls ? strlen(cls->name) + 1 : 0) +
                 (module ? strlen(module) : 0) + 32;
    char *q = malloc(len);
    if (!q) {
        free(d);
        ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    snprintf(q, len, "%s.%s%s%s%s%s", module ? module : "__torch__", cls ? cls->name : "",
             cls ? "." : "", d->property ? "__" : "", name,
             d->property == 'g' ? "_getter" : d->property == 's' ? "_setter" : "");
    d->qualname = q;
    c->defs[c->n_defs++] = d;
    return d;
}

/* A class of the file, a global under its name; or of an archive (qualname set), a
 * global under its qualified name. */
TsClassInfo *ts_compiler_add_class(TsCompiler *c, const char *name, const char *qualname,
                                   const TsTree *tree, TsClassKind kind, TsError *err)
{
    if (ts_compiler_grow((void **)&c->classes, c->n_classes, &c->cap_classes, sizeof *c->classes, err))
        return NULL;
    TsClassInfo *ci = calloc(1, sizeof *ci);
    if (!ci || !(ci->name = strdup(name)) || (qualname && !(ci->qualname = strdup(qualname)))) {
        if (ci)
            free(ci->name);
        free(ci);
        ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    ci->tree = tree;
    ci->kind = kind;
    c->classes[c->n_classes++] = ci;
    TsGlobal *g = ts_compiler_add_global(c, qualname ? qualname : name, TS_GLOBAL_CLASS, NULL, err);
    if (!g)
        return NULL;
    g->cls = ci;
    return ci;
}

const char *ts_def_name(const TsDefInfo *d)
{
    const char *dot = strrchr(d->qualname, '.');
    return dot ? dot + 1 : d->qualname;
}

TsDefInfo *ts_class_method(const TsClassInfo *ci, const char *name)
{
    for (size_t i = 0; ci && i < ci->n_methods; i++)
        if (strcmp(ts_def_name(ci->methods[i]), name) == 0)
            return ci->methods[i];
    return NULL;
}

TsClassInfo *ts_compiler_class_of_type(const TsCompiler *c, const TsType *t)
{
    for (size_t i = 0; i < c->n_classes; i++)
        if (c->classes[i]->type == t)
            return c->classes[i];
    return NULL;
}

/* ---- collecting the file's names ------------------------------------------------------ */

static const char *last_name(const TsTree *t)
{
    return t->kind == TS_TREE_NAME ? t->str : t->kind == TS_TREE_ATTR ? t->kids[1]->str : "";
}

/* What a class is, by its bases: an Enum also when it derives from an Enum of the file
 * (one without members, which Python allows to carry methods). */
static TsClassKind class_kind(const TsCompiler *c, const TsTree *cls, bool *is_module)
{
    const TsTree *bases = cls->kids[2];
    *is_module = false;
    for (size_t i = 0; bases && i < bases->n_kids; i++) {
        const char *b = last_name(bases->kids[i]);
        const TsGlobal *g = bases->kids[i]->kind == TS_TREE_NAME ? ts_compiler_global(c, b)
                                                                 : NULL;
        if (g && g->kind == TS_GLOBAL_CLASS && g->cls->kind == TS_CLASS_ENUM)
            return TS_CLASS_ENUM;
        if (strcmp(b, "NamedTuple") == 0)
            return TS_CLASS_NAMEDTUPLE;
        if (strcmp(b, "Enum") == 0 || strcmp(b, "IntEnum") == 0)
            return TS_CLASS_ENUM;
        if (strcmp(b, "Module") == 0)
            *is_module = true;
    }
    return TS_CLASS_SCRIPT;
}

/* A class and its methods; module is the archive's qualified module of the file, or NULL.
 * An archive's class is declared by its base (Module, NamedTuple, Enum, Interface,
 * ModuleInterface, or none), as PyTorch's importer reads it. */
int ts_compiler_collect_class(TsCompiler *c, const TsTree *t, const char *module, TsError *err)
{
    bool is_module = false;
    TsClassKind kind;
    char *qualname = NULL;
    if (module) {
        const TsTree *bases = t->kids[2];
        const char *b = bases && bases->n_kids ? last_name(bases->kids[0]) : "";
        kind = strcmp(b, "NamedTuple") == 0 ? TS_CLASS_NAMEDTUPLE
               : strcmp(b, "Enum") == 0 ? TS_CLASS_ENUM
               : strcmp(b, "Interface") == 0 || strcmp(b, "ModuleInterface") == 0
                   ? TS_CLASS_INTERFACE : TS_CLASS_SCRIPT;
        is_module = strcmp(b, "Module") == 0 || strcmp(b, "ModuleInterface") == 0;
        if (bases && (bases->n_kids > 1 || (bases->n_kids == 1 && kind == TS_CLASS_SCRIPT &&
                                            !is_module)))
            return ts_error_at(err, TS_ERR_RUNTIME, t->range, "Torchscript does not support "
                               "class inheritance.");
        size_t n = strlen(module) + strlen(t->kids[0]->str) + 2;
        if (!(qualname = malloc(n)))
            return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        snprintf(qualname, n, "%s.%s", module, t->kids[0]->str);
    } else {
        kind = class_kind(c, t, &is_module);
        /* @torch.jit.interface: method signatures that objects of other classes fill */
        const TsTree *decos = t->kids[1];
        for (size_t i = 0; decos && i < decos->n_kids; i++) {
            const TsTree *d = decos->kids[i];
            const char *n = d->kind == TS_TREE_NAME ? d->str
                            : d->kind == TS_TREE_ATTR ? d->kids[1]->str : "";
            if (strcmp(n, "interface") == 0)
                kind = TS_CLASS_INTERFACE;
        }
    }
    TsClassInfo *ci = ts_compiler_add_class(c, t->kids[0]->str, qualname, t, kind, err);
    free(qualname);
    if (!ci)
        return -1;
    ci->is_module = is_module;
    const TsTree *body = t->kids[3];
    for (size_t i = 0; i < body->n_kids; i++) {
        if (body->kids[i]->kind != TS_TREE_DEF)
            continue;
        TsDefInfo **m = realloc(ci->methods, (ci->n_methods + 1) * sizeof *m);
        if (!m)
            return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        ci->methods = m;
        if (!(m[ci->n_methods] = ts_compiler_add_def(c, body->kids[i], ci, module, err)))
            return -1;
        /* an interface's methods are signatures: calls dispatch on the object's class; a
         * script class's @unused and @ignore(drop=True) methods are PyTorch's stub that
         * raises (emit.c); its other @ignore'd ones are Python's to run */
        TsDefInfo *d = m[ci->n_methods];
        if (kind == TS_CLASS_INTERFACE)
            d->is_unused = true;
        else if (!module && !is_module && (d->is_unused || (d->is_ignored && d->is_drop)))
            d->is_unused = true, d->is_ignored = false;
        ci->n_methods++;
    }
    return 0;
}

/* X = namedtuple("X", ["a", "b"]) or X = NamedTuple("X", [("a", int), ("b", str)]) */
static bool is_namedtuple_call(const TsTree *v)
{
    return v->kind == TS_TREE_CALL && (strcmp(last_name(v->kids[0]), "namedtuple") == 0 ||
                                       strcmp(last_name(v->kids[0]), "NamedTuple") == 0);
}

static int collect_import(TsCompiler *c, const TsTree *t, TsError *err)
{
    for (size_t i = 0; i < t->n_kids; i++) {
        const TsTree *a = t->kids[i];
        const TsTree *as = a->n_kids ? a->kids[0] : NULL;
        if (t->kind == TS_TREE_IMPORT) {
            char first[256];
            const char *dot = strchr(a->str, '.');
            snprintf(first, sizeof first, "%.*s", dot && !as ? (int)(dot - a->str)
                                                             : (int)strlen(a->str), a->str);
            if (!ts_compiler_add_global(c, as ? as->str : first, TS_GLOBAL_MODULE, first, err))
                return -1;
            continue;
        }
        char full[512];
        snprintf(full, sizeof full, "%s.%s", t->str, a->str);
        bool mod = strcmp(full, "torch.nn") == 0 || strcmp(full, "torch.nn.functional") == 0 ||
                   strcmp(full, "torch.nn.init") == 0 || strcmp(full, "torch.jit") == 0;
        if (!ts_compiler_add_global(c, as ? as->str : a->str, mod ? TS_GLOBAL_MODULE : TS_GLOBAL_SYMBOL,
                        full, err))
            return -1;
    }
    return 0;
}

/* ---- overloads (torch.jit._overload) ----------------------------------------------- */

static const char overload_example[] =
    "\nExample usage of overload function:\n"
    "@torch.jit._overload\n"
    "def my_function(x: type0) -> type0: # decl 1\n"
    "    pass\n\n"
    "@torch.jit._overload\n"
    "def my_function(x: type1) -> type1: # decl 2\n"
    "    pass\n\n"
    "def my_function(x):                 # implementation\n"
    "    if isinstance(x, type0):\n"
    "        return x\n"
    "    elif isinstance(x, type1):\n"
    "        return x\n";

/* The text of a def from its first decorator, up to max_lines lines (0: all), malloc'd. */
static char *def_text(const TsTree *def, size_t max_lines, size_t *first_line)
{
    const TsSource *src = def->range.source;
    size_t start = def->range.start, end = def->range.end;
    const TsTree *decos = def->kids[1];
    if (decos && decos->n_kids && decos->kids[0]->range.start < start)
        start = decos->kids[0]->range.start;
    if (!src || end > src->len || start > end)
        return strdup("");
    size_t col;
    ts_source_line_col(src, start, first_line, &col);
    start -= col - 1;
    if (start && src->text[start - 1] == '@')     /* the decorator's range leaves out '@' */
        start--;
    size_t stop = start, lines = 0;
    while (stop < end && (max_lines == 0 || lines < max_lines)) {
        const char *nl = memchr(src->text + stop, '\n', src->len - stop);
        stop = nl ? (size_t)(nl - src->text) + 1 : src->len;
        lines++;
    }
    if (max_lines && stop > start && src->text[stop - 1] == '\n')
        stop--;
    return strndup(src->text + start, stop - start);
}

/* A declaration's body is `pass` or `...` alone (PyTorch checks it where it is declared). */
static int check_overload_body(const TsTree *def, TsError *err)
{
    const TsTree *body = def->kids[4];
    const TsTree *s = body && body->n_kids == 1 ? body->kids[0] : NULL;
    if (s && (s->kind == TS_TREE_PASS ||
              (s->kind == TS_TREE_EXPR_STMT && s->kids[0]->kind == TS_TREE_ELLIPSIS)))
        return 0;
    size_t line;
    char *text = def_text(def, 3, &line);
    ts_error_set(err, TS_ERR_RUNTIME, "Only `pass` statement or `...` can be the body of "
                 "overload declaration:\n%s <- Expecting `pass` or `...` here!\n%s",
                 text ? text : "", overload_example);
    free(text);
    return -1;
}

static int overload_missing(const TsDefInfo *d, TsError *err)
{
    size_t line;
    const TsSource *src = d->def->range.source;
    char *text = def_text(d->def, 0, &line);
    ts_error_set(err, TS_ERR_RUNTIME, "Implementation for the function \"%s\" is missing. "
                 "Please make sure a definition is provided and defined after all overload "
                 "declarations.\nFile \"%s\", line %zu:\n%s\n%s", d->qualname,
                 src && src->filename ? src->filename : "<string>", line,
                 text ? text : "", overload_example);
    free(text);
    return -1;
}

/* d, a def of the file: a declaration is checked; an implementation takes the declarations
 * of its name made since the last implementation. The first declaration compiles under the
 * implementation's name, the others under names mangled as PyTorch mangles them
 * ("__torch__.___torch_mangle_0.f"). */
static int collect_overloads(TsCompiler *c, TsDefInfo *d, TsError *err)
{
    if (d->is_overload)
        return check_overload_body(d->def, err);
    const char *name = d->def->kids[0]->str;
    for (size_t i = 0; i < c->n_defs; i++) {
        TsDefInfo *o = c->defs[i];
        if (!o->is_overload || o->impl || o->cls || strcmp(o->def->kids[0]->str, name) != 0)
            continue;
        TsDefInfo **more = realloc(d->overloads, (d->n_overloads + 1) * sizeof *more);
        if (!more)
            return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        d->overloads = more;
        size_t k = d->n_overloads;
        size_t len = strlen(d->qualname) + 40;
        char *q = malloc(len);
        if (!q)
            return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        const char *dot = strrchr(d->qualname, '.');
        if (k == 0)
            snprintf(q, len, "%s", d->qualname);
        else
            snprintf(q, len, "%.*s.___torch_mangle_%zu%s", (int)(dot - d->qualname),
                     d->qualname, k - 1, dot);
        free(o->qualname);
        o->qualname = q;
        o->impl = d;
        d->overloads[d->n_overloads++] = o;
    }
    return 0;
}

int ts_compiler_callees(TsCompiler *c, TsDefInfo *d, TsSourceRange use, TsFunction **fns,
                        size_t max, TsError *err)
{
    if (d->is_overload && !d->impl)
        return overload_missing(d, err);
    if (d->n_overloads == 0)
        return max && (fns[0] = ts_compiler_function(c, d, use, err)) ? 1 : -1;
    if (d->n_overloads > max)
        return ts_error_set(err, TS_ERR_LIMIT, "%s has more than %zu overloads", d->qualname,
                            max);
    for (size_t i = 0; i < d->n_overloads; i++)
        if (!(fns[i] = ts_compiler_function(c, d->overloads[i], use, err)))
            return -1;
    return (int)d->n_overloads;
}

static int collect(TsCompiler *c, TsError *err)
{
    const TsTree *m = c->module;
    for (size_t i = 0; i < m->n_kids; i++) {
        const TsTree *s = m->kids[i];
        int rc = 0;
        switch (s->kind) {
        case TS_TREE_IMPORT:
        case TS_TREE_IMPORT_FROM:
            rc = collect_import(c, s, err);
            break;
        case TS_TREE_DEF: {
            TsDefInfo *d = ts_compiler_add_def(c, s, NULL, NULL, err);
            TsGlobal *g = d ? ts_compiler_add_global(c, s->kids[0]->str, TS_GLOBAL_DEF, NULL, err) : NULL;
            if (!g || collect_overloads(c, d, err) != 0)
                return -1;
            g->def = d;
            break;
        }
        case TS_TREE_CLASS:
            rc = ts_compiler_collect_class(c, s, NULL, err);
            break;
        case TS_TREE_ASSIGN:
        case TS_TREE_ANN_ASSIGN: {
            const TsTree *target = s->kids[0];
            const TsTree *value = s->kind == TS_TREE_ASSIGN ? s->kids[s->n_kids - 1]
                                                             : s->kids[2];
            if (target->kind != TS_TREE_NAME || !value)
                break;
            if (is_namedtuple_call(value)) {
                rc = ts_compiler_add_class(c, target->str, NULL, value, TS_CLASS_NAMEDTUPLE, err)
                     ? 0 : -1;
            } else {
                TsGlobal *g = ts_compiler_add_global(c, target->str, TS_GLOBAL_VALUE, NULL, err);
                if (!g)
                    return -1;
                g->value = value;
            }
            break;
        }
        default:
            break;
        }
        if (rc != 0)
            return -1;
    }
    return 0;
}

/* ---- building classes --------------------------------------------------------------------- */

/* The module a file's classes live in: its stem made an identifier ("cases/my-test.py" ->
 * "my_test"), as PyTorch names script classes "__torch__.MODULE.Class". */
static void module_name(const TsSource *src, char *buf, size_t size)
{
    const char *f = src && src->filename ? src->filename : "";
    const char *slash = strrchr(f, '/');
    f = slash ? slash + 1 : f;
    size_t n = strlen(f);
    if (n > 3 && strcmp(f + n - 3, ".py") == 0)
        n -= 3;
    size_t o = 0;
    for (size_t i = 0; i < n && o + 1 < size; i++) {
        char ch = f[i];
        bool ident = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_' ||
                     (ch >= '0' && ch <= '9' && o > 0);
        if (ch == '<' || ch == '>')
            continue;
        buf[o++] = ident ? ch : '_';
    }
    buf[o] = '\0';
    if (o == 0)
        snprintf(buf, size, "__main__");
}

/* The qualified name of a class of the file. Class types are global and a name is created
 * once, so compiling a file again (or another file with the same stem) gets a fresh name,
 * mangled as PyTorch mangles: "__torch__.mod.___torch_mangle_1.Cls". */
char *ts_compiler_qualify(const TsCompiler *c, const TsClassInfo *ci, bool mangle)
{
    const char *name = ci->name;
    size_t n = strlen(c->modname) + strlen(name) + (ci->qualname ? strlen(ci->qualname) : 0) + 64;
    char *q = malloc(n);
    if (!q)
        return NULL;
    if (ci->qualname) {
        /* an archive's name, kept when free; else mangled in its module, as PyTorch does */
        snprintf(q, n, "%s", ci->qualname);
        size_t module = strlen(ci->qualname) - strlen(name) - 1;
        for (unsigned i = 1; mangle && ts_type_lookup(q); i++)
            snprintf(q, n, "%.*s.___torch_mangle_%u.%s", (int)module, ci->qualname, i, name);
        return q;
    }
    snprintf(q, n, "__torch__.%s.%s", c->modname, name);
    for (unsigned i = 1; mangle && ts_type_lookup(q); i++)
        snprintf(q, n, "__torch__.%s.___torch_mangle_%u.%s", c->modname, i, name);
    return q;
}

enum { MAX_FIELDS = 256 };

static int build_namedtuple(TsCompiler *c, TsClassInfo *ci, TsError *err)
{
    const char *names[MAX_FIELDS];
    const TsType *types[MAX_FIELDS];
    size_t n = 0;
    const TsTree *t = ci->tree;
    if (t->kind == TS_TREE_CALL) {
        const TsTree *fields = t->n_kids > 2 ? t->kids[2] : NULL;
        if (!fields || (fields->kind != TS_TREE_LIST && fields->kind != TS_TREE_TUPLE))
            return ts_error_at(err, TS_ERR_RUNTIME, t->range, "namedtuple fields must be a "
                               "list of strings");
        for (size_t i = 0; i < fields->n_kids && n < MAX_FIELDS; i++) {
            const TsTree *f = fields->kids[i];
            if (f->kind == TS_TREE_TUPLE && f->n_kids == 2 &&
                f->kids[0]->kind == TS_TREE_STRING) {
                /* NamedTuple("X", [("a", int)]): typed fields */
                if (!(types[n] = ts_compiler_type(c, f->kids[1], err)))
                    return -1;
                names[n++] = f->kids[0]->str;
                continue;
            }
            if (f->kind != TS_TREE_STRING)
                return ts_error_at(err, TS_ERR_RUNTIME, f->range,
                                   "namedtuple fields must be names or (name, type) pairs");
            names[n] = f->str;
            types[n++] = ts_type_tensor();
        }
    } else {
        const TsTree *body = t->kids[3];
        ci->field_defaults = calloc(body->n_kids + 1, sizeof *ci->field_defaults);
        if (!ci->field_defaults)
            return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        for (size_t i = 0; i < body->n_kids && n < MAX_FIELDS; i++) {
            const TsTree *s = body->kids[i];
            if (s->kind != TS_TREE_ANN_ASSIGN || s->kids[0]->kind != TS_TREE_NAME)
                continue;
            if (!(types[n] = ts_compiler_type(c, s->kids[1], err)))
                return -1;
            ci->field_defaults[n] = s->kids[2];
            names[n++] = s->kids[0]->str;
        }
    }
    /* the same fields under the same name are the same type; others get a mangled name */
    char *q = ts_compiler_qualify(c, ci, false);
    if (!q)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    TsError ignore = TS_ERROR_INIT;
    ci->type = ts_type_named_tuple(q, n, names, types, &ignore);
    ts_error_clear(&ignore);
    free(q);
    if (!ci->type) {
        if (!(q = ts_compiler_qualify(c, ci, true)))
            return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        ci->type = ts_type_named_tuple(q, n, names, types, err);
        free(q);
    }
    return ci->type ? 0 : -1;
}

/* The type of an Enum member's value as PyTorch names it in its messages, for the literals
 * a member may be ("int", "bool", ...; a tuple, list or dict is "Any": PyTorch's type of a
 * Python type it cannot convert); NULL if unknown. */
static const char *literal_type(const TsTree *v)
{
    switch (v->kind) {
    case TS_TREE_INT: return "int";
    case TS_TREE_FLOAT: return "float";
    case TS_TREE_STRING: return "str";
    case TS_TREE_TRUE:
    case TS_TREE_FALSE: return "bool";
    case TS_TREE_NONE: return "NoneType";
    case TS_TREE_IMAG: return "complex";
    case TS_TREE_TUPLE:
    case TS_TREE_LIST:
    case TS_TREE_DICT: return "Any";
    case TS_TREE_UNARY:
        return v->op == TS_TK_NEG && v->n_kids == 1 &&
               (v->kids[0]->kind == TS_TREE_INT || v->kids[0]->kind == TS_TREE_FLOAT)
               ? literal_type(v->kids[0]) : NULL;
    default: return NULL;
    }
}

/* enum.auto() (or auto()): the next int, as Python's Enum numbers them. */
static bool is_auto(const TsTree *v)
{
    const TsTree *f = v->kind == TS_TREE_CALL && v->n_kids == 1 ? v->kids[0] : NULL;
    return f && ((f->kind == TS_TREE_NAME && strcmp(f->str, "auto") == 0) ||
                 (f->kind == TS_TREE_ATTR && strcmp(f->kids[1]->str, "auto") == 0));
}

/* Members of two value types: PyTorch unifies the set of the values' Python types, which
 * its Python iterates in the order of this table (float, str, bool, int, ...), and names
 * the second as the one that does not match. */
static int mixed_enum(const char *a, const char *b, TsSourceRange r, TsError *err)
{
    static const char *const order[] = { "float", "str", "bool", "int", "NoneType", "complex",
                                         "Any" };
    size_t ra = 0, rb = 0;
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        ra = strcmp(order[i], a) == 0 ? i : ra;
        rb = strcmp(order[i], b) == 0 ? i : rb;
    }
    return ts_error_at(err, TS_ERR_RUNTIME, r, "Could not unify type list since element 1 of "
                       "type %s did not match the types before it (%s)", ra < rb ? b : a,
                       ra < rb ? a : b);
}

static int build_enum(TsCompiler *c, TsClassInfo *ci, TsError *err)
{
    const TsTree *body = ci->tree->kids[3];
    const char *names[MAX_FIELDS];
    ci->enum_values = calloc(body->n_kids + 1, sizeof *ci->enum_values);
    if (!ci->enum_values)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    const TsType *vt = NULL;
    const char *first = NULL;   /* the first member's type, as PyTorch unifies them */
    size_t n = 0;
    for (size_t i = 0; i < body->n_kids && n < MAX_FIELDS; i++) {
        const TsTree *s = body->kids[i];
        if (s->kind != TS_TREE_ASSIGN || s->kids[0]->kind != TS_TREE_NAME)
            continue;
        const TsTree *v = s->kids[1];
        const char *tname = is_auto(v) ? "int" : literal_type(v);
        if (!first && tname)
            first = tname;
        else if (first && tname && strcmp(first, tname) != 0)
            return mixed_enum(first, tname, v->range, err);
        /* LOW = -1: a negated number is a number */
        bool neg = v->kind == TS_TREE_UNARY && v->op == TS_TK_NEG && v->n_kids == 1 &&
                   (v->kids[0]->kind == TS_TREE_INT || v->kids[0]->kind == TS_TREE_FLOAT);
        if (neg)
            v = v->kids[0];
        TsValue val;
        if (is_auto(v)) {   /* 1, or one more than the member before */
            if (n && ci->enum_values[n - 1].tag != TS_TAG_INT)
                return ts_error_at(err, TS_ERR_RUNTIME, v->range, "auto() follows a member "
                                   "whose value is not an int");
            val = ts_int(n ? ci->enum_values[n - 1].u.i + 1 : 1);
        } else if (v->kind == TS_TREE_INT) {
            val = ts_int(neg ? (int64_t)(0 - (uint64_t)v->ival) : v->ival);
        } else if (v->kind == TS_TREE_FLOAT) {
            val = ts_double(neg ? -v->fval : v->fval);
        } else if (v->kind == TS_TREE_STRING) {
            TsStr *str = ts_str_new(v->str, v->len, err);
            if (!str)
                return -1;
            val = ts_str_value(str);
        } else if (tname) {
            return ts_error_at(err, TS_ERR_RUNTIME, v->range, "Cannot create Enum with value "
                               "type '%s', only int, float and string are supported", tname);
        } else {
            return ts_error_at(err, TS_ERR_RUNTIME, v->range, "Cannot create Enum with value "
                               "type other than int, float or str");
        }
        const TsType *t = ts_value_type(val);
        if (vt && vt != t) {
            ts_value_release(val);
            return ts_error_at(err, TS_ERR_RUNTIME, v->range, "Enum class with varying value "
                               "types are not supported.");
        }
        vt = t;
        /* B = 1 after A = 1 is Python's alias of A, which PyTorch does not see as a member */
        bool alias = false;
        for (size_t k = 0; k < n && !alias; k++)
            alias = ts_value_equal(ci->enum_values[k], val);
        if (alias) {
            ts_value_release(val);
            continue;
        }
        ci->enum_values[n] = val;
        names[n++] = s->kids[0]->str;
        ci->n_enum_values = n;
    }
    char *q = ts_compiler_qualify(c, ci, true);
    if (!q)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    ci->type = ts_type_enum_new(q, vt ? vt : ts_type_int(), n, names, err);
    free(q);
    return ci->type ? 0 : -1;
}

/* Whether class member a compiles before b (build_script_class's order); members of one
 * name (a property's getter and setter) keep their order in the source. */
static bool member_before(const TsDefInfo *a, const TsDefInfo *b)
{
    const char *na = a->def->kids[0]->str, *nb = b->def->kids[0]->str;
    int ra = strcmp(na, "__init__") == 0 ? 0 : a->property ? 1 : 2;
    int rb = strcmp(nb, "__init__") == 0 ? 0 : b->property ? 1 : 2;
    return ra != rb ? ra < rb : strcmp(na, nb) < 0;
}

static int build_script_class(TsCompiler *c, TsClassInfo *ci, TsError *err)
{
    char *q = ts_compiler_qualify(c, ci, true);
    if (!q)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    ci->type = ts_type_class_new(q, ci->is_module, err);
    free(q);
    if (!ci->type || ts_unit_add_class(c->unit, ci->type, err) != 0)
        return -1;
    for (size_t i = 0; i < ci->n_methods; i++)
        if (!ci->methods[i]->is_static &&
            ts_type_class_add_method((TsType *)ci->type, ts_def_name(ci->methods[i]),
                                     err) != 0)
            return -1;
    /* PyTorch's order, which decides the error a class with several shows: __init__, then
     * the properties, then the other methods, each by name (Python's inspect.getmembers);
     * a static method compiles when it is first called, as a function does */
    TsDefInfo **order = malloc((ci->n_methods + 1) * sizeof *order);
    if (!order)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    size_t n = 0;
    for (size_t i = 0; i < ci->n_methods; i++) {
        TsDefInfo *d = ci->methods[i];
        if (d->is_static)
            continue;
        size_t j = n++;
        for (; j > 0 && member_before(d, order[j - 1]); j--)
            order[j] = order[j - 1];
        order[j] = d;
    }
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++)
        if (!order[i]->is_ignored && order[i]->state == 0 &&
            !ts_compiler_function(c, order[i], ci->tree->range, err))
            rc = -1;
    free(order);
    return rc;
}

int ts_compiler_class(TsCompiler *c, TsClassInfo *ci, TsSourceRange use, TsError *err)
{
    (void)use;
    if (ci->state != 0)
        return 0;   /* built, or being built (its type already exists) */
    ci->state = 1;
    int rc;
    if (ci->kind == TS_CLASS_NAMEDTUPLE)
        rc = build_namedtuple(c, ci, err);
    else if (ci->kind == TS_CLASS_ENUM)
        rc = build_enum(c, ci, err);
    else if (ci->qualname || ci->kind == TS_CLASS_INTERFACE)
        rc = ts_import_build_class(c, ci, err);
    else
        rc = build_script_class(c, ci, err);
    if (rc == 0 && ci->kind != TS_CLASS_SCRIPT && ci->kind != TS_CLASS_INTERFACE &&
        ts_unit_add_class(c->unit, ci->type, err))
        rc = -1;
    ci->state = rc == 0 ? 2 : 3;
    return rc;
}

/* ---- compiling functions ------------------------------------------------------------------ */

/* A compiled method's signature on its class or interface type, which checks that a class
 * assigned to an interface fits it (core/value/types.c). */
static int record_sig(const TsDefInfo *d, TsError *err)
{
    const TsSchema *s = d->fn->schema;
    TsType *t = (TsType *)d->cls->type;
    TsTypeKind k = ts_type_kind(t);
    if (!s || (k != TS_TYPE_CLASS && k != TS_TYPE_MODULE && k != TS_TYPE_INTERFACE))
        return 0;
    enum { MAX_SIG = 64 };
    if (s->n_args > MAX_SIG || s->is_vararg)
        return 0;              /* not checked, as before */
    const char *names[MAX_SIG];
    const TsType *types[MAX_SIG];
    for (size_t i = 0; i < s->n_args; i++) {
        names[i] = s->args[i].name;
        types[i] = s->args[i].type;
    }
    const TsType *ret = s->n_returns == 1 ? s->returns[0].type : ts_type_none();
    return ts_type_set_method_sig(t, d->def->kids[0]->str, s->n_args, names, types, ret, err);
}

TsFunction *ts_compiler_function(TsCompiler *c, TsDefInfo *d, TsSourceRange use, TsError *err)
{
    if (d->state == 2)
        return d->fn;
    if (d->state == 1) {
        ts_error_clear(err);
        ts_error_at(err, TS_ERR_RUNTIME, use, "%s '%s' is called recursively. Recursive "
                    "calls are not supported", d->cls ? "method" : "function",
                    d->def->kids[0]->str);
        return NULL;
    }
    if (d->state == 3)
        return ts_error_set(err, TS_ERR_RUNTIME, "function '%s' failed to compile",
                            d->qualname), NULL;
    if (d->is_overload && !d->impl)
        return overload_missing(d, err), NULL;
    if (d->n_overloads)
        return ts_error_set(err, TS_ERR_RUNTIME, "Function %s cannot be directly compiled "
                            "because it is overloaded. It must be used in a context of a "
                            "function where its inputs can determine which overload to call.",
                            d->qualname), NULL;
    if (c->depth >= MAX_COMPILE_DEPTH) {
        ts_error_clear(err);
        ts_error_at(err, TS_ERR_LIMIT, use, "functions call each other too deeply to compile");
        return NULL;
    }
    if (d->cls && d->cls->state == 0 && ts_compiler_class(c, d->cls, use, err) != 0)
        return NULL;
    if (d->state == 2)
        return d->fn;
    d->state = 1;
    c->depth++;
    TsSchema *schema = NULL;
    TsGraph *g = ts_emit_function(c, d, &schema, err);
    c->depth--;
    /* the plugins' graph passes (tscript/plugin.h), before anyone sees the graph */
    if (g && c->ops && ts_optable_run_passes(c->ops, TS_PASS_COMPILE, g, d->qualname, err)) {
        ts_graph_free(g);
        ts_schema_free(schema);
        g = NULL;
    }
    if (!g) {
        d->state = 3;
        return NULL;
    }
    d->fn = ts_unit_add_function(c->unit, d->qualname, g, schema, d->cls ? d->cls->type : NULL,
                                 err);
    if (!d->fn) {   /* the unit took neither */
        ts_graph_free(g);
        ts_schema_free(schema);
    } else if (d->cls && !d->is_static && record_sig(d, err) != 0) {
        d->state = 3;
        return NULL;
    }
    d->state = d->fn ? 2 : 3;
    return d->fn;
}

/* ---- entry points -------------------------------------------------------------------------- */

void ts_compiler_free(TsCompiler *c)
{
    for (size_t i = 0; i < c->n_globals; i++) {
        free(c->globals[i]->name);
        free(c->globals[i]->str);
        free(c->globals[i]);
    }
    free(c->globals);
    for (size_t i = 0; i < c->n_defs; i++) {
        free(c->defs[i]->overloads);
        free(c->defs[i]->qualname);
        free(c->defs[i]);
    }
    free(c->defs);
    for (size_t i = 0; i < c->n_classes; i++) {
        TsClassInfo *ci = c->classes[i];
        for (size_t k = 0; k < ci->n_enum_values; k++)
            ts_value_release(ci->enum_values[k]);
        free(ci->enum_values);
        free(ci->field_defaults);
        free(ci->methods);
        free(ci->name);
        free(ci->qualname);
        free(ci);
    }
    free(c->classes);
    ts_tree_free(c->module);
    for (size_t i = 0; i < c->n_files; i++)
        ts_tree_free(c->files[i]);
    free(c->files);
    for (size_t i = 0; i < c->n_looked_up; i++)
        free(c->looked_up[i]);
    free(c->looked_up);
}

int ts_compiler_open(TsCompiler *c, const TsOpTable *ops, TsSource *src, TsError *err)
{
    *c = (TsCompiler){ .ops = ops, .source = src };
    module_name(src, c->modname, sizeof c->modname);
    if (!(c->module = ts_parse_module(src, err)))
        return -1;
    if (!(c->unit = ts_unit_new(err)) || collect(c, err) != 0) {
        ts_unit_free(c->unit);
        c->unit = NULL;
        ts_compiler_free(c);
        return -1;
    }
    return 0;
}

static int compile_entry(TsCompiler *c, const char *entry, TsError *err)
{
    if (!entry) {
        for (size_t i = 0; i < c->n_classes; i++)
            if (ts_compiler_class(c, c->classes[i], c->classes[i]->tree->range, err) != 0)
                return -1;
        for (size_t i = 0; i < c->n_defs; i++)
            if (!c->defs[i]->is_ignored && c->defs[i]->state == 0 &&
                !c->defs[i]->n_overloads && (!c->defs[i]->is_overload || c->defs[i]->impl) &&
                !ts_compiler_function(c, c->defs[i], c->defs[i]->def->range, err))
                return -1;
        return 0;
    }
    const char *dot = strchr(entry, '.');
    if (dot) {
        char cls[256];
        snprintf(cls, sizeof cls, "%.*s", (int)(dot - entry), entry);
        const TsGlobal *g = ts_compiler_global(c, cls);
        TsDefInfo *d = g && g->kind == TS_GLOBAL_CLASS ? ts_class_method(g->cls, dot + 1) : NULL;
        if (!d)
            return ts_error_set(err, TS_ERR_USAGE, "no method '%s' in the file", entry);
        return ts_compiler_function(c, d, d->def->range, err) ? 0 : -1;
    }
    const TsGlobal *g = ts_compiler_global(c, entry);
    if (!g || g->kind != TS_GLOBAL_DEF)
        return ts_error_set(err, TS_ERR_USAGE, "no function '%s' in the file", entry);
    return ts_compiler_function(c, g->def, g->def->def->range, err) ? 0 : -1;
}

/* Whether a def's or class's decorators (kids[1]) hold @torch.jit.script. */
static bool script_decorated(const TsTree *t)
{
    const TsTree *decos = t->n_kids > 1 ? t->kids[1] : NULL;
    for (size_t i = 0; decos && decos->kind == TS_TREE_DECORATORS && i < decos->n_kids; i++) {
        const TsTree *d = decos->kids[i];
        const char *n = d->kind == TS_TREE_NAME ? d->str
                        : d->kind == TS_TREE_ATTR ? d->kids[1]->str : "";
        if (strcmp(n, "script") == 0)
            return true;
    }
    return false;
}

/* torch.jit.script's checks of a class it is given, before it compiles it: an enum passes
 * as it is; a module wants an instance; a class with a base other than object (a
 * NamedTuple's is tuple) is refused. */
static int decorated_class_check(const TsCompiler *c, const TsClassInfo *ci, TsError *err)
{
    if (ci->kind == TS_CLASS_ENUM)
        return 0;
    if (ci->is_module)   /* the class as Python prints it */
        return ts_error_set(err, TS_ERR_RUNTIME, "Type '<class '%s.%s'>' cannot be compiled "
                            "since it inherits from nn.Module, pass an instance instead",
                            c->modname, ci->name);
    const TsTree *bases = ci->tree->kids[2];
    bool inherits = ci->kind == TS_CLASS_NAMEDTUPLE;
    for (size_t i = 0; bases && i < bases->n_kids && !inherits; i++)
        inherits = bases->kids[i]->kind != TS_TREE_NAME ||
                   strcmp(bases->kids[i]->str, "object") != 0;
    if (inherits)
        return ts_error_set(err, TS_ERR_RUNTIME, "TorchScript classes does not support "
                            "inheritance yet. Please directly inherit from 'object'.");
    return 0;
}

/* What Python does on importing the file before a program runs: a function or class under
 * @torch.jit.script compiles where it is defined, in the file's order, so its error is the
 * program's even when the entry never reaches it. */
static int compile_decorated(TsCompiler *c, TsError *err)
{
    const TsTree *m = c->module;
    for (size_t i = 0; i < m->n_kids; i++) {
        const TsTree *s = m->kids[i];
        if ((s->kind != TS_TREE_DEF && s->kind != TS_TREE_CLASS) || !script_decorated(s))
            continue;
        const TsGlobal *g = ts_compiler_global(c, s->kids[0]->str);
        if (g && g->kind == TS_GLOBAL_CLASS && g->cls->tree == s &&
            (decorated_class_check(c, g->cls, err) != 0 ||
             ts_compiler_class(c, g->cls, s->range, err) != 0))
            return -1;
        if (g && g->kind == TS_GLOBAL_DEF && g->def->def == s && g->def->state == 0 &&
            !g->def->n_overloads && !ts_compiler_function(c, g->def, s->range, err))
            return -1;
    }
    return 0;
}

TsCompUnit *ts_compile_entries(const TsOpTable *ops, TsSource *src,
                               const char *const *entries, size_t n, size_t *failed,
                               TsError *err)
{
    if (failed)
        *failed = 0;
    TsCompiler c;
    if (ts_compiler_open(&c, ops, src, err) != 0)
        return NULL;
    int rc = n ? compile_decorated(&c, err) : 0;
    if (rc == 0 && n == 0)
        rc = compile_entry(&c, NULL, err);
    for (size_t i = 0; rc == 0 && i < n; i++)
        if ((rc = compile_entry(&c, entries[i], err)) != 0 && failed)
            *failed = i;
    TsCompUnit *u = c.unit;
    ts_compiler_free(&c);
    if (rc != 0) {
        ts_unit_free(u);
        return NULL;
    }
    return u;
}

TsCompUnit *ts_compile_source(const TsOpTable *ops, TsSource *src, const char *entry,
                              TsError *err)
{
    return ts_compile_entries(ops, src, &entry, entry ? 1 : 0, NULL, err);
}

char **ts_compile_list_functions(TsSource *src, const char *prefix, size_t *n, TsError *err)
{
    *n = 0;
    TsTree *m = ts_parse_module(src, err);
    if (!m)
        return NULL;
    char **names = calloc(m->n_kids + 1, sizeof *names);
    if (!names) {
        ts_tree_free(m);
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory"), NULL;
    }
    size_t plen = strlen(prefix);
    for (size_t i = 0; i < m->n_kids; i++) {
        const TsTree *s = m->kids[i];
        if (s->kind != TS_TREE_DEF || strncmp(s->kids[0]->str, prefix, plen) != 0)
            continue;
        if (!(names[*n] = strdup(s->kids[0]->str))) {
            ts_free_names(names, *n);
            ts_tree_free(m);
            return ts_error_set(err, TS_ERR_NOMEM, "out of memory"), NULL;
        }
        ++*n;
    }
    ts_tree_free(m);
    return names;
}

void ts_free_names(char **names, size_t n)
{
    for (size_t i = 0; names && i < n; i++)
        free(names[i]);
    free(names);
}
TsCompUnit *ts_compile_file(const TsOpTable *ops, const char *path, const char *entry,
                            TsError *err)
{
    TsSource *src = ts_source_read_file(path, err);
    if (!src)
        return NULL;
    TsCompUnit *u = ts_compile_source(ops, src, entry, err);
    ts_source_release(src);
    return u;
}
