/* passes.c — the list of registered graph passes, and running them (see passes.h).
 *
 * A pass is plugin code that rewrites the core's graphs, so what it leaves is checked with
 * the verifier before anything else sees it: a pass that fails, or leaves a value used out
 * of scope, fails the compile of that function with an error that names the pass, rather
 * than the interpreter running a broken graph.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "registry/passes.h"
#include "tscript/ir.h"

int ts_pass_list_reserve(TsPassList *l, size_t n, TsError *err)
{
    if (n <= l->cap - l->n)
        return 0;
    if (n > SIZE_MAX / 2 / sizeof *l->items - l->n)
        return ts_error_set(err, TS_ERR_LIMIT, "too many graph passes");
    size_t cap = l->cap ? l->cap : 4;
    while (cap < l->n + n)
        cap *= 2;
    TsGraphPass *p = realloc(l->items, cap * sizeof *p);
    if (!p)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    l->items = p;
    l->cap = cap;
    return 0;
}

int ts_pass_list_add(TsPassList *l, const char *name, const char *plugin, TsGraphPassFn fn,
                     void *ctx, int stage, TsError *err)
{
    size_t a = strlen(name) + 1, b = strlen(plugin) + 1;
    char *names = malloc(a + b);
    if (!names)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    if (ts_pass_list_reserve(l, 1, err)) {
        free(names);
        return err ? err->code : TS_ERR_NOMEM;
    }
    memcpy(names, name, a);
    memcpy(names + a, plugin, b);
    l->items[l->n++] = (TsGraphPass){ names, names + a, fn, ctx, stage };
    return 0;
}

const TsGraphPass *ts_pass_list_find(const TsPassList *l, const char *name)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->items[i].name, name) == 0)
            return &l->items[i];
    return NULL;
}

void ts_pass_list_move(TsPassList *dst, TsPassList *src)
{
    if (!src->n)
        return;    /* both lists may be empty, their arrays NULL (memcpy's UB) */
    memcpy(dst->items + dst->n, src->items, src->n * sizeof *src->items);
    dst->n += src->n;
    src->n = 0;
}

void ts_pass_list_free(TsPassList *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->items[i].name);
    free(l->items);
    *l = (TsPassList){ 0 };
}

int ts_passes_run(const TsPassList *l, int stage, TsGraph *g, const char *fn_name,
                  TsError *err)
{
    for (size_t i = 0; l && i < l->n; i++) {
        const TsGraphPass *p = &l->items[i];
        if (p->stage != stage)
            continue;
        TsError perr = TS_ERROR_INIT;
        const char *what = "failed";
        int rc = p->fn(g, p->ctx, &perr);
        if (rc == 0) {
            ts_error_clear(&perr);   /* a message a successful pass left behind means nothing */
            rc = ts_graph_lint(g, &perr);
            what = "left an invalid graph";
        }
        if (rc != 0) {
            TsErrorCode code = perr.code != TS_OK ? perr.code : TS_ERR_PLUGIN;
            ts_error_set(err, code, "graph pass '%s' of plugin '%s' %s on %s: %s", p->name,
                         p->plugin, what, fn_name,
                         perr.msg ? perr.msg : "it returned an error without a message");
            ts_error_clear(&perr);
            return code;
        }
    }
    return 0;
}
