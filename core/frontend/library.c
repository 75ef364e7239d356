/* library.c — the TorchScript library plugins ship: torch.nn.functional as source.
 *
 * PyTorch writes torch.nn.functional in Python and scripts a function of it when a program
 * calls one. The aten plugins ship the same as TorchScript source
 * (schemas/torch.nn.functional.py: a file's name is the module it defines) and name it
 * among their schema files, so the operator table lists it and another backend's plugin can
 * ship or reuse it. The frontend keeps, per table (so per runtime), each file parsed on the
 * first use of its module and each function compiled on its first call, in the file's own
 * compilation unit; callers then inline the compiled graph (inline.c). A program calling
 * F.relu parses the file once and compiles relu alone.
 *
 * torch.functional.py holds the torch.* functions PyTorch writes in Python (torch.norm,
 * torch.unique), whose names torch/__init__.py imports into torch.
 *
 * A name may also be PyTorch's boolean dispatch, written as torch/nn/functional.py writes it:
 *     max_pool2d = boolean_dispatch('return_indices', 6, False, max_pool2d_with_indices,
 *                                   _max_pool2d)
 * a constant return_indices (by keyword, or at position 6) picks one of two functions.
 *
 * One recursive lock serializes loading and compiling: compiling a library function looks
 * library names up again (torch.X inside the file), and programs may compile on several
 * threads of one runtime. Compiled functions never change, so callers read them unlocked.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/emit.h"
#include "frontend/source.h"

typedef struct LibFile {
    char *module;              /* "torch.nn.functional" */
    const char *path;          /* the table's */
    int state;                 /* 0 not parsed, 1 parsed */
    TsSource *src;
    TsCompiler c;              /* when parsed: the file's names and its unit */
} LibFile;

typedef struct Library {
    pthread_mutex_t lock;      /* recursive */
    size_t n;
    LibFile files[];
} Library;

static void library_free(void *p)
{
    Library *lib = p;
    for (size_t i = 0; i < lib->n; i++) {
        LibFile *f = &lib->files[i];
        if (f->state == 1) {
            ts_unit_free(f->c.unit);
            ts_compiler_free(&f->c);
        }
        ts_source_release(f->src);
        free(f->module);
    }
    pthread_mutex_destroy(&lib->lock);
    free(lib);
}

static void *library_new(const TsOpTable *ops, TsError *err)
{
    const char *const *paths;
    size_t n = ts_optable_sources(ops, &paths);
    Library *lib = calloc(1, sizeof *lib + n * sizeof *lib->files);
    pthread_mutexattr_t a;
    bool locked = lib && pthread_mutexattr_init(&a) == 0;
    if (locked) {
        locked = pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE) == 0 &&
                 pthread_mutex_init(&lib->lock, &a) == 0;
        pthread_mutexattr_destroy(&a);
    }
    if (!locked) {
        free(lib);
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory"), NULL;
    }
    for (size_t i = 0; i < n; i++) {
        const char *base = strrchr(paths[i], '/');
        base = base ? base + 1 : paths[i];
        LibFile *f = &lib->files[lib->n++];
        f->path = paths[i];
        if (!(f->module = strndup(base, strlen(base) - 3))) {     /* without ".py" */
            library_free(lib);
            return ts_error_set(err, TS_ERR_NOMEM, "out of memory"), NULL;
        }
    }
    return lib;
}

static Library *library_of(const TsOpTable *ops, TsError *err)
{
    return ts_optable_cache(ops, library_new, library_free, err);
}

/* Parses f on first use (under the lock). A failure leaves f unparsed, so that every use
 * reports the real error (out of memory, a broken installation), not a stale one. */
static int load(const TsOpTable *ops, LibFile *f, TsError *err)
{
    if (f->state == 1)
        return 0;
    if (!(f->src = ts_source_read_file(f->path, err)))
        return -1;
    if (ts_compiler_open(&f->c, ops, f->src, err) != 0) {
        ts_source_release(f->src);
        f->src = NULL;
        return -1;
    }
    f->state = 1;
    return 0;
}

/* `name = boolean_dispatch('arg', index, default, if_true, if_false)`: its parts. */
static bool dispatch_of(const TsGlobal *g, TsLibraryDispatch *out)
{
    const TsTree *v = g->kind == TS_GLOBAL_VALUE ? g->value : NULL;
    if (!v || v->kind != TS_TREE_CALL || v->n_kids != 6 || v->kids[0]->kind != TS_TREE_NAME ||
        strcmp(v->kids[0]->str, "boolean_dispatch") != 0 || v->kids[1]->kind != TS_TREE_STRING ||
        v->kids[2]->kind != TS_TREE_INT || v->kids[2]->ival < 0 ||
        (v->kids[3]->kind != TS_TREE_TRUE && v->kids[3]->kind != TS_TREE_FALSE) ||
        v->kids[4]->kind != TS_TREE_NAME || v->kids[5]->kind != TS_TREE_NAME)
        return false;
    if (out) {
        out->arg = v->kids[1]->str;
        out->index = (size_t)v->kids[2]->ival;
        out->dflt = v->kids[3]->kind == TS_TREE_TRUE;
        out->if_true = v->kids[4]->str;
        out->if_false = v->kids[5]->str;
    }
    return true;
}

/* The name qualname has in f's module, or NULL: "relu" for torch.nn.functional.relu. The
 * names of torch.functional are torch's too (torch/__init__.py imports them): torch.norm is
 * torch.functional.norm. */
static const char *name_in(const LibFile *f, const char *qualname)
{
    const char *mod = strcmp(f->module, "torch.functional") == 0 ? "torch" : f->module;
    size_t m = strlen(mod);
    if (strncmp(qualname, mod, m) != 0 || qualname[m] != '.' || strchr(qualname + m + 1, '.'))
        return NULL;
    return qualname + m + 1;
}

/* The global qualname names in a file whose module prefixes it (a def or a boolean
 * dispatch), or NULL; *file is the file. */
static const TsGlobal *lookup(const TsOpTable *ops, Library *lib, const char *qualname,
                              LibFile **file, TsError *err)
{
    for (size_t i = 0; i < lib->n; i++) {
        LibFile *f = &lib->files[i];
        const char *name = name_in(f, qualname);
        if (!name)
            continue;
        if (load(ops, f, err) != 0)
            return NULL;
        const TsGlobal *g = ts_compiler_global(&f->c, name);
        if (g && (g->kind == TS_GLOBAL_DEF || dispatch_of(g, NULL))) {
            *file = f;
            return g;
        }
    }
    return NULL;
}

int ts_library_defines(const TsOpTable *ops, const char *qualname, TsLibraryDispatch *dispatch,
                       TsError *err)
{
    Library *lib = library_of(ops, err);
    if (!lib)
        return -1;
    pthread_mutex_lock(&lib->lock);
    LibFile *f;
    TsError tmp = TS_ERROR_INIT;
    const TsGlobal *g = lookup(ops, lib, qualname, &f, &tmp);
    int rc = !g ? 0 : dispatch_of(g, dispatch) ? 2 : 1;
    pthread_mutex_unlock(&lib->lock);
    if (tmp.code != TS_OK) {
        ts_error_set(err, tmp.code, "%s", tmp.msg ? tmp.msg : "library failed to load");
        ts_error_clear(&tmp);
        return -1;
    }
    return rc;
}

/* messages name a library function as PyTorch's do: "relu(Tensor input, bool inplace=False)" */
static void unqualify(TsFunction *fn)
{
    char *name = fn->schema->name;
    if (strncmp(name, "__torch__.", 10) == 0)
        memmove(name, name + 10, strlen(name + 10) + 1);
}

int ts_library_functions(const TsOpTable *ops, const char *qualname, TsSourceRange use,
                         const TsCompUnit **unit, TsFunction **fns, size_t max, TsError *err)
{
    Library *lib = library_of(ops, err);
    if (!lib)
        return -1;
    pthread_mutex_lock(&lib->lock);
    LibFile *f = NULL;
    const TsGlobal *g = lookup(ops, lib, qualname, &f, err);
    TsDefInfo *d = g && g->kind == TS_GLOBAL_DEF ? g->def : NULL;
    int n = d ? ts_compiler_callees(&f->c, d, use, fns, max, err) : -1;
    for (int i = 0; i < n; i++)
        unqualify(fns[i]);
    if (n >= 0)
        *unit = f->c.unit;
    else if (!d && err->code == TS_OK)
        ts_error_set(err, TS_ERR_RUNTIME, "%s is not defined by a library file", qualname);
    pthread_mutex_unlock(&lib->lock);
    return n;
}

TsFunction *ts_library_function(const TsOpTable *ops, const char *qualname, TsSourceRange use,
                                const TsCompUnit **unit, TsError *err)
{
    TsFunction *fn;
    return ts_library_functions(ops, qualname, use, unit, &fn, 1, err) == 1 ? fn : NULL;
}
