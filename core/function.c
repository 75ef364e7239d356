/* function.c — the compilation unit: the functions and classes one compiled file defines.
 *
 * A unit owns its functions (graph, schema, and the Code core/sched builds on first call);
 * classes are owned by the type table and only listed here. Lookups are linear: a file
 * defines tens of functions, and calls are resolved once, when the caller's Code is built.
 */
#include <stdlib.h>
#include <string.h>

#include "function.h"

TsCompUnit *ts_unit_new(TsError *err)
{
    TsCompUnit *u = calloc(1, sizeof *u);
    if (!u)
        ts_error_set(err, TS_ERR_NOMEM, "out of memory creating a compilation unit");
    return u;
}

static void function_free(TsFunction *f)
{
    if (f->code && f->free_code)
        f->free_code(f->code);
    ts_graph_free(f->graph);
    ts_schema_free(f->schema);
    free(f->qualname);
    free(f);
}

void ts_unit_free(TsCompUnit *u)
{
    if (!u)
        return;
    for (size_t i = 0; i < u->n_functions; i++)
        function_free(u->functions[i]);
    free(u->functions);
    free(u->classes);
    free(u);
}

/* Grows an array of pointers to hold one more. */
static int grow(void *pitems, size_t n, size_t *cap, TsError *err)
{
    void ***items = pitems;
    if (n < *cap)
        return 0;
    size_t ncap = *cap ? *cap * 2 : 8;
    void **p = realloc(*items, ncap * sizeof *p);
    if (!p)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory growing a compilation unit");
    *items = p;
    *cap = ncap;
    return 0;
}

TsFunction *ts_unit_add_function(TsCompUnit *u, const char *qualname, TsGraph *graph,
                                 TsSchema *schema, const TsType *owner, TsError *err)
{
    if (ts_unit_find(u, qualname)) {
        ts_error_set(err, TS_ERR_RUNTIME, "function '%s' is already defined", qualname);
        return NULL;
    }
    if (grow(&u->functions, u->n_functions, &u->cap_functions, err))
        return NULL;
    TsFunction *f = calloc(1, sizeof *f);
    char *q = strdup(qualname);
    if (!f || !q) {
        free(f);
        free(q);
        ts_error_set(err, TS_ERR_NOMEM, "out of memory adding function '%s'", qualname);
        return NULL;
    }
    const char *dot = strrchr(q, '.');
    f->qualname = q;
    f->name = dot ? dot + 1 : q;
    f->graph = graph;
    f->schema = schema;
    f->owner = owner;
    u->functions[u->n_functions++] = f;
    return f;
}

TsFunction *ts_unit_find(const TsCompUnit *u, const char *qualname)
{
    for (size_t i = 0; i < u->n_functions; i++)
        if (strcmp(u->functions[i]->qualname, qualname) == 0)
            return u->functions[i];
    return NULL;
}

TsFunction *ts_unit_find_method(const TsCompUnit *u, const TsType *cls, const char *name)
{
    for (size_t i = 0; i < u->n_functions; i++) {
        TsFunction *f = u->functions[i];
        if (f->owner == cls && strcmp(f->name, name) == 0)
            return f;
    }
    return NULL;
}

int ts_unit_add_class(TsCompUnit *u, const TsType *cls, TsError *err)
{
    for (size_t i = 0; i < u->n_classes; i++)
        if (u->classes[i] == cls)
            return 0;
    if (grow(&u->classes, u->n_classes, &u->cap_classes, err))
        return err ? err->code : TS_ERR_NOMEM;
    u->classes[u->n_classes++] = cls;
    return 0;
}
