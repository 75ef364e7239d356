/* pyprint_archive.c — the python printer against PyTorch's own printer, on whole modules.
 *
 * Every module case of the conformance suite is an archive torch.jit.save wrote. Its code/
 * files are imported by the archive-mode frontend (core/import.c), every class the model
 * uses is described to the printer as a loader of archives would describe it (parameters
 * and buffers from __parameters__/__buffers__, Final constants, enum values, interface
 * signatures, tensor constants from constants.pkl), and the model's class is printed: each
 * file must be what PyTorch printed, byte for byte, and no file may be missing or extra.
 * This checks what the program tests of t/pyprint.t cannot: modules, submodules, numbered
 * attributes, Final constants, interfaces, enums and CONSTANTS, as PyTorch writes them.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "emit.h"
#include "runtime.h"
#include "serialize/pickle.h"
#include "serialize/pyprint.h"
#include "serialize/zip.h"
#include "pyprint_util.h"
#include "tap.h"

#ifndef TS_TEST_SRCDIR
#define TS_TEST_SRCDIR "."
#endif

static const TsOpTable *ops;

/* ---- the archive ------------------------------------------------------------------------ */

/* The bytes of an entry (prefix + name), malloc'd and NUL-terminated, or NULL. */
static char *entry_text(TsZip *z, const char *name, size_t *len)
{
    char full[1024];
    snprintf(full, sizeof full, "%s%s", ts_zip_prefix(z), name);
    long i = ts_zip_find(z, full);
    const void *data;
    void *owned = NULL;
    size_t n;
    TsError err = TS_ERROR_INIT;
    if (i < 0 || ts_zip_read(z, (size_t)i, true, &data, &n, &owned, &err)) {
        ts_error_clear(&err);
        return NULL;
    }
    char *s = malloc(n + 1);
    if (s) {
        memcpy(s, data, n);
        s[n] = '\0';
    }
    free(owned);
    if (len)
        *len = n;
    return s;
}

static TsSource *zip_load(void *ctx, const char *module, TsError *err)
{
    char path[1024];
    snprintf(path, sizeof path, "code/%s.py", module);
    for (char *c = path + 5; *c; c++)
        if (*c == '.' && strcmp(c, ".py") != 0)
            *c = '/';
    size_t n;
    char *text = entry_text(ctx, path, &n);
    if (!text)
        return NULL;
    TsSource *s = ts_source_new(path, text, n, err);
    free(text);
    return s;
}

static TsStorage *constant_storage(void *ctx, int dtype, const char *key, const char *location,
                                   int64_t numel, TsError *err)
{
    (void)dtype, (void)location, (void)numel;
    TsZip *z = ctx;
    char name[512];
    snprintf(name, sizeof name, "%sconstants/%s", ts_zip_prefix(z), key);
    long i = ts_zip_find(z, name);
    if (i < 0) {
        ts_error_set(err, TS_ERR_RUNTIME, "no entry %s", name);
        return NULL;
    }
    return ts_zip_storage(z, (size_t)i, err);
}

/* constants.pkl: the tuple CONSTANTS.cN index. */
static TsValue constants_of(TsZip *z, TsError *err)
{
    size_t n;
    char *pkl = entry_text(z, "constants.pkl", &n);
    TsUnpickleEnv env = { .ctx = z, .load_storage = constant_storage };
    TsValue v = ts_none();
    if (pkl && ts_unpickle(pkl, n, &env, &v, err))
        v = ts_none();
    free(pkl);
    return v;
}

/* The classes data.pkl names, in the order it names them (GLOBAL "c__torch__.m\nCls\n"):
 * PyTorch's serializer prints the classes of the objects it pickles first, in this order.
 * Returns how many were written to out (qualified names, malloc'd). */
static size_t pickled_classes(TsZip *z, char **out, size_t max)
{
    size_t n, k = 0;
    char *pkl = entry_text(z, "data.pkl", &n);
    for (size_t i = 0; pkl && i + 11 < n && k < max; i++) {
        if (pkl[i] != 'c' || strncmp(pkl + i + 1, "__torch__", 9) != 0)
            continue;
        char *mod = pkl + i + 1, *nl = memchr(mod, '\n', n - (size_t)(mod - pkl));
        char *name = nl ? nl + 1 : NULL;
        char *nl2 = name ? memchr(name, '\n', n - (size_t)(name - pkl)) : NULL;
        if (!nl2)
            break;
        size_t len = (size_t)(nl - mod) + (size_t)(nl2 - name) + 2;
        if ((out[k] = malloc(len + 1)))
            snprintf(out[k++], len + 1, "%.*s.%.*s", (int)(nl - mod), mod, (int)(nl2 - name),
                     name);
        i = (size_t)(nl2 - pkl);
    }
    free(pkl);
    return k;
}

/* The class of the root object: data.pkl's first GLOBAL ("c__torch__.case\nModel\n"). */
static int root_class(TsZip *z, char *out, size_t size)
{
    size_t n;
    char *pkl = entry_text(z, "data.pkl", &n);
    int rc = -1;
    if (pkl && n > 3 && pkl[2] == 'c') {
        char *mod = pkl + 3, *nl = memchr(mod, '\n', n - 3);
        char *name = nl ? nl + 1 : NULL, *nl2 = name ? memchr(name, '\n', n - (name - pkl)) : NULL;
        if (nl2) {
            snprintf(out, size, "%.*s.%.*s", (int)(nl - mod), mod, (int)(nl2 - name), name);
            rc = 0;
        }
    }
    free(pkl);
    return rc;
}

/* ---- describing the classes ------------------------------------------------------------ */

/* A literal constant of a class body (`eps : Final[float] = 1e-05`) as a value. */
static bool literal(const TsTree *t, TsValue *out, TsError *err)
{
    switch (t->kind) {
    case TS_TREE_INT: *out = ts_int(t->ival); return true;
    case TS_TREE_FLOAT: *out = ts_double(t->fval); return true;
    case TS_TREE_TRUE: *out = ts_bool(true); return true;
    case TS_TREE_FALSE: *out = ts_bool(false); return true;
    case TS_TREE_NONE: *out = ts_none(); return true;
    case TS_TREE_STRING: {
        TsStr *s = ts_str_new(t->str, t->len, err);
        *out = s ? ts_str_value(s) : ts_none();
        return s != NULL;
    }
    case TS_TREE_UNARY:
        if (t->n_kids == 1 && literal(t->kids[0], out, err)) {
            if (out->tag == TS_TAG_INT)
                out->u.i = -out->u.i;
            else if (out->tag == TS_TAG_DOUBLE)
                out->u.d = -out->u.d;
            return out->tag == TS_TAG_INT || out->tag == TS_TAG_DOUBLE;
        }
        return false;
    case TS_TREE_TUPLE: {
        TsTuple *tu = ts_tuple_new(NULL, t->n_kids, err);
        if (!tu)
            return false;
        for (size_t i = 0; i < t->n_kids; i++)
            if (!literal(t->kids[i], &tu->items[i], err)) {
                ts_heap_release(&tu->h);
                return false;
            }
        *out = ts_obj_value(tu, TS_TAG_TUPLE);
        return true;
    }
    default:
        return false;
    }
}

/* The schema of an interface method, from its def: self, then the annotated parameters. */
static TsSchema *interface_schema(TsCompiler *c, const TsTree *def, TsError *err)
{
    const TsTree *params = def->kids[2];
    TsSchema *s = calloc(1, sizeof *s);
    if (!s || !(s->args = calloc(params->n_kids + 1, sizeof *s->args)) ||
        !(s->returns = calloc(1, sizeof *s->returns)))
        goto fail;
    s->name = strdup(def->kids[0]->str);
    s->overload = strdup("");
    if (!s->name || !s->overload)
        goto fail;
    for (size_t i = 0; i < params->n_kids; i++) {
        const TsTree *p = params->kids[i];
        TsArg *a = &s->args[s->n_args++];
        a->fixed_size = -1;
        a->name = strdup(p->kids[0]->str);
        a->type = p->kids[1] ? ts_compiler_type(c, p->kids[1], err) : ts_type_any();
        if (!a->name || !a->type)
            goto fail;
    }
    s->n_returns = 1;
    s->returns[0].fixed_size = -1;
    s->returns[0].type = def->kids[3] ? ts_compiler_type(c, def->kids[3], err) : ts_type_none();
    if (s->returns[0].type)
        return s;
fail:
    ts_schema_free(s);
    if (!err->code)
        ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    return NULL;
}

/* Everything a describe needs, owned here until the printer is done. */
typedef struct Described {
    const char *names[3][64];  /* parameters, buffers, constants */
    TsValue values[64];
    const TsSchema *schemas[64];
    size_t n[3], n_schemas;
} Described;

static void described_free(Described *d)
{
    for (size_t i = 0; i < d->n[2]; i++)
        ts_value_release(d->values[i]);
    for (size_t i = 0; i < d->n_schemas; i++)
        ts_schema_free((TsSchema *)d->schemas[i]);
}

static TsSchema *kept[256];
static size_t n_kept;

static int describe_class(TsPyPrinter *p, TsCompiler *c, TsClassInfo *ci, TsError *err)
{
    Described d;
    memset(&d, 0, sizeof d);
    const TsTree *body = ci->tree->kids[3];
    for (size_t i = 0; ci->kind != TS_CLASS_NAMEDTUPLE && i < body->n_kids; i++) {
        const TsTree *s = body->kids[i];
        if (s->kind == TS_TREE_ASSIGN && s->kids[0]->kind == TS_TREE_NAME &&
            s->kids[1]->kind == TS_TREE_LIST) {
            int which = strcmp(s->kids[0]->str, "__parameters__") == 0 ? 0
                      : strcmp(s->kids[0]->str, "__buffers__") == 0 ? 1 : -1;
            for (size_t k = 0; which >= 0 && k < s->kids[1]->n_kids && d.n[which] < 64; k++)
                d.names[which][d.n[which]++] = s->kids[1]->kids[k]->str;
        } else if (s->kind == TS_TREE_ANN_ASSIGN && s->kids[2] && d.n[2] < 64 &&
                   ci->kind == TS_CLASS_SCRIPT) {
            if (!literal(s->kids[2], &d.values[d.n[2]], err)) {
                described_free(&d);
                return err->code ? -1 : ts_error_set(err, TS_ERR_RUNTIME, "constant %s is "
                                                     "not a literal", s->kids[0]->str);
            }
            d.names[2][d.n[2]++] = s->kids[0]->str;
        } else if (s->kind == TS_TREE_DEF && ci->kind == TS_CLASS_INTERFACE && d.n_schemas < 64) {
            if (!(d.schemas[d.n_schemas] = interface_schema(c, s, err))) {
                described_free(&d);
                return -1;
            }
            d.n_schemas++;
        }
    }
    TsPyClassInfo info = {
        .type = ci->type,
        .parameters = d.names[0], .n_parameters = d.n[0],
        .buffers = d.names[1], .n_buffers = d.n[1],
        .constant_names = d.names[2], .constant_values = d.values, .n_constants = d.n[2],
        .enum_values = ci->enum_values, .n_enum_values = ci->n_enum_values,
        .methods = d.schemas, .n_methods = d.n_schemas,
    };
    int rc = ts_pyprint_describe(p, &info, err);
    /* the printer borrows the schemas: they are freed after it */
    for (size_t i = 0; i < d.n_schemas && n_kept < sizeof kept / sizeof kept[0]; i++)
        kept[n_kept++] = (TsSchema *)d.schemas[i];
    d.n_schemas = 0;
    described_free(&d);
    return rc;
}

/* ---- one archive ---------------------------------------------------------------------- */

static void check_archive(const char *dir, const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%.900s/%.100s", dir, name);
    TsError err = TS_ERROR_INIT;
    TsZip *z = ts_zip_open_file(path, &err);
    TsValue consts = z ? constants_of(z, &err) : ts_none();
    const TsTuple *ct = consts.tag == TS_TAG_TUPLE ? (const TsTuple *)consts.u.p : NULL;
    TsCodeLoader loader = { z, zip_load, ct ? ct->items : NULL, ct ? ct->len : 0 };
    TsCompiler c;
    memset(&c, 0, sizeof c);
    char root[512];
    TsClassInfo *ci = NULL;
    bool inited = false;
    TsPyPrinter *p = NULL;
    if (z && !err.code && root_class(z, root, sizeof root) == 0 &&
        ts_import_init(&c, ops, &loader, &err) == 0) {
        inited = true;
        c.unit->resolve = import_resolve;
        c.unit->resolve_ctx = &c;
        TsSourceRange none = {0};
        ci = ts_import_class(&c, root, none, &err);
    }
    char *pickled[256];
    size_t n_pickled = z ? pickled_classes(z, pickled, 256) : 0;
    if (ci && (p = ts_pyprint_new(c.unit, &err))) {
        /* as a saver does: the classes of the pickled objects, the root's first */
        TsSourceRange none = {0};
        int rc = 0;
        for (size_t i = 0; rc == 0 && i < n_pickled; i++) {
            TsClassInfo *pc = ts_import_class(&c, pickled[i], none, &err);
            rc = pc ? 0 : -1;
        }
        for (size_t i = 0; rc == 0 && i < c.n_classes; i++)
            if (c.classes[i]->type)
                rc = describe_class(p, &c, c.classes[i], &err);
        for (size_t i = 0; rc == 0 && i < n_pickled; i++) {   /* objects, not enum values */
            TsClassInfo *pc = ts_import_class(&c, pickled[i], none, &err);
            rc = !pc ? -1 : pc->kind != TS_CLASS_SCRIPT ? 0
                                                       : ts_pyprint_add_type(p, pc->type, &err);
        }
        if (rc || ts_pyprint_add_type(p, ci->type, &err) || ts_pyprint_finish(p, &err)) {
            ts_pyprint_free(p);
            p = NULL;
        }
    }
    if (!check(p != NULL, "%s: imported and printed", name)) {
        diag("%s", err.msg ? err.msg : "?");
        check(0, "%s: every code file is what PyTorch printed", name);
    } else {
        bool same = true;
        for (size_t i = 0; i < ts_pyprint_file_count(p); i++) {
            TsPyFile f = ts_pyprint_file(p, i);
            char *want = entry_text(z, f.path, NULL);
            if (!want || strcmp(want, f.text) != 0) {
                same = false;
                diag("%s: %s", f.path, want ? "differs" : "PyTorch wrote no such file");
                diag("PyTorch:\n%s", want ? want : "");
                diag("tscript:\n%s", f.text);
            }
            free(want);
        }
        size_t theirs = 0;
        for (size_t i = 0; i < ts_zip_count(z); i++) {
            const char *e = ts_zip_entry(z, i)->name + strlen(ts_zip_prefix(z));
            size_t l = strlen(e);
            theirs += strncmp(e, "code/", 5) == 0 && l > 3 && strcmp(e + l - 3, ".py") == 0;
        }
        if (theirs != ts_pyprint_file_count(p)) {
            same = false;
            diag("PyTorch wrote %zu code files, tscript %zu", theirs, ts_pyprint_file_count(p));
        }
        check(same, "%s: every code file is what PyTorch printed", name);
    }
    ts_pyprint_free(p);
    for (size_t i = 0; i < n_pickled; i++)
        free(pickled[i]);
    while (n_kept)
        ts_schema_free(kept[--n_kept]);
    if (inited) {
        TsCompUnit *u = c.unit;
        ts_compiler_free(&c);
        ts_unit_free(u);
    }
    ts_value_release(consts);
    if (z)
        ts_zip_release(z);
    ts_error_clear(&err);
}

/* Each archive in a process of its own: class types are global to a process, and the
 * archives all define __torch__.case.Model, which a second import in one process would
 * mangle (__torch__.case.___torch_mangle_1.Model), as it must. */
static void check_isolated(const char *dir, const char *name)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        TsError err = TS_ERROR_INIT;
        TsRuntime *rt = ts_runtime_open(NULL, &err);
        if (rt) {
            ops = ts_runtime_optable(rt);
            check_archive(dir, name);
            ts_runtime_close(rt);
        } else {
            ok(0, "%s: the runtime opens", name);
            diag("%s", err.msg);
            ok(0, "%s: every code file is what PyTorch printed", name);
        }
        fflush(stdout);
        _exit(tap_failed);
    }
    int status = 0;
    bool ran = pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status);
    tap_n += 2;   /* the child's two results */
    tap_failed += ran ? WEXITSTATUS(status) : 2;
    if (!ran)
        printf("# %s: the check did not finish (status %d)\n", name, status);
}

int main(void)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/../shared/conformance/cases/modules", TS_TEST_SRCDIR);
    DIR *d = opendir(dir);
    if (!d) {
        printf("1..0 # SKIP no conformance suite at %s\n", dir);
        return 0;
    }
    load_todo(TS_TEST_SRCDIR);
    char *names[256];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 256) {
        size_t l = strlen(e->d_name);
        if (l > 3 && strcmp(e->d_name + l - 3, ".pt") == 0)
            names[n++] = strdup(e->d_name);
    }
    closedir(d);
    for (size_t i = 0; i < n; i++)
        for (size_t k = i + 1; k < n; k++)
            if (strcmp(names[k], names[i]) < 0) {
                char *t = names[i];
                names[i] = names[k];
                names[k] = t;
            }
    for (size_t i = 0; i < n; i++) {
        check_isolated(dir, names[i]);
        free(names[i]);
    }
    free(todo_text);
    return done_testing();
}
