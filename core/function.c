/* function.c — the compilation unit: the functions and classes a compiled program defines.
 *
 * A unit owns its functions (graph, schema, and the Code core/sched builds on first call);
 * classes are owned by the type table and only listed here. Lookups are linear: a program
 * defines tens to hundreds of functions, and calls are resolved once, when the caller's
 * Code is built. Entries live in segmented arrays that never move (function.h), so a unit
 * can grow while its program runs: a reader sees a prefix of the entries, each complete.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "function.h"

enum { SEG0 = 16 };

/* The segment and slot of entry i: segment k holds SEG0 << k entries. */
static void locate(size_t i, size_t *seg, size_t *slot)
{
    size_t k = 0, base = 0;
    while (i >= base + ((size_t)SEG0 << k)) {
        base += (size_t)SEG0 << k;
        k++;
    }
    *seg = k;
    *slot = i - base;
}

static size_t array_count(const TsUnitArray *a)
{
    return __atomic_load_n(&a->n, __ATOMIC_ACQUIRE);
}

static void *array_get(const TsUnitArray *a, size_t i)
{
    size_t k, j;
    locate(i, &k, &j);
    return a->seg[k][j];
}

/* Appends p and publishes it; fails only when out of memory (or past the last segment). */
static int array_push(TsUnitArray *a, void *p, TsError *err)
{
    size_t n = a->n, k, j;
    locate(n, &k, &j);
    if (k >= TS_UNIT_SEGMENTS)
        return ts_error_set(err, TS_ERR_LIMIT, "too many definitions in one compilation unit");
    if (!a->seg[k] && !(a->seg[k] = malloc(((size_t)SEG0 << k) * sizeof(void *))))
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory growing a compilation unit");
    a->seg[k][j] = p;
    __atomic_store_n(&a->n, n + 1, __ATOMIC_RELEASE);
    return 0;
}

/* Visits the published entries in order until visit returns non-NULL; returns that. */
static void *array_find(const TsUnitArray *a, void *(*visit)(void *entry, const void *key),
                        const void *key)
{
    size_t n = array_count(a);
    for (size_t k = 0, base = 0; base < n; base += (size_t)SEG0 << k, k++) {
        size_t len = (size_t)SEG0 << k;
        if (len > n - base)
            len = n - base;
        for (size_t j = 0; j < len; j++) {
            void *r = visit(a->seg[k][j], key);
            if (r)
                return r;
        }
    }
    return NULL;
}

static void array_free(TsUnitArray *a)
{
    for (size_t k = 0; k < TS_UNIT_SEGMENTS; k++)
        free(a->seg[k]);
}

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
    for (size_t i = 0; i < u->functions.n; i++)
        function_free(array_get(&u->functions, i));
    array_free(&u->functions);
    array_free(&u->classes);
    free(u);
}

size_t ts_unit_count(const TsCompUnit *u) { return array_count(&u->functions); }
TsFunction *ts_unit_function(const TsCompUnit *u, size_t i) { return array_get(&u->functions, i); }
size_t ts_unit_class_count(const TsCompUnit *u) { return array_count(&u->classes); }
const TsType *ts_unit_class(const TsCompUnit *u, size_t i) { return array_get(&u->classes, i); }

TsFunction *ts_unit_add_function(TsCompUnit *u, const char *qualname, TsGraph *graph,
                                 TsSchema *schema, const TsType *owner, TsError *err)
{
    if (ts_unit_find(u, qualname)) {
        ts_error_set(err, TS_ERR_RUNTIME, "function '%s' is already defined", qualname);
        return NULL;
    }
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
    if (array_push(&u->functions, f, err) != 0) {
        free(q);
        free(f);
        return NULL;
    }
    return f;
}

static void *same_qualname(void *entry, const void *key)
{
    TsFunction *f = entry;
    return strcmp(f->qualname, key) == 0 ? f : NULL;
}

TsFunction *ts_unit_find(const TsCompUnit *u, const char *qualname)
{
    return array_find(&u->functions, same_qualname, qualname);
}

TsFunction *ts_unit_find_called(const TsCompUnit *u, const char *name)
{
    TsFunction *f = ts_unit_find(u, name);
    if (!f) {
        char q[512];
        snprintf(q, sizeof q, "__torch__.%s", name);
        f = ts_unit_find(u, q);
    }
    return f;
}

typedef struct MethodKey {
    const TsType *cls;
    const char *name;
} MethodKey;

static void *same_method(void *entry, const void *key)
{
    TsFunction *f = entry;
    const MethodKey *m = key;
    return f->owner == m->cls && strcmp(f->name, m->name) == 0 ? f : NULL;
}

TsFunction *ts_unit_find_method(const TsCompUnit *u, const TsType *cls, const char *name)
{
    MethodKey k = { cls, name };
    return array_find(&u->functions, same_method, &k);
}

int ts_unit_method(TsCompUnit *u, const TsType *cls, const char *name, TsFunction **out,
                   TsError *err)
{
    *out = ts_unit_find_method(u, cls, name);
    if (*out || !u->resolve)
        return 0;
    return u->resolve(u->resolve_ctx, u, cls, name, out, err);
}

static void *same_pointer(void *entry, const void *key)
{
    return entry == key ? entry : NULL;
}

int ts_unit_add_class(TsCompUnit *u, const TsType *cls, TsError *err)
{
    if (array_find(&u->classes, same_pointer, cls))
        return 0;
    return array_push(&u->classes, (void *)cls, err);
}
