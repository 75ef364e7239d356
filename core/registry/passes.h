/* passes.h — the graph passes plugins register (ts_register_pass, tscript/plugin.h) and
 * running them on a compiled function's graph (internal to the core).
 *
 * A runtime's passes live in its operator table beside the operators, in registration order
 * (plugins in load order, each plugin's in the order it registered them), and that is the
 * order they run in. A plugin's passes are staged in its TsRegistry and committed with the
 * rest of what it registers, all or nothing.
 */
#ifndef TSCRIPT_REGISTRY_PASSES_H
#define TSCRIPT_REGISTRY_PASSES_H

#include <stddef.h>

#include "tscript/plugin.h"

typedef struct TsGraphPass {
    char *name;                /* unique in the runtime; owns the allocation plugin is in */
    char *plugin;              /* the plugin that registered it */
    TsGraphPassFn fn;
    void *ctx;
    int stage;                 /* TS_PASS_COMPILE or TS_PASS_OPTIMIZER */
} TsGraphPass;

/* When a pass runs: on the graph of every function compiled (ts_register_pass), or on the
 * executor's optimized copy after the core's pipeline (ts_register_optimizer_pass). */
enum { TS_PASS_COMPILE = 0, TS_PASS_OPTIMIZER = 1 };

typedef struct TsPassList {
    TsGraphPass *items;
    size_t n, cap;
} TsPassList;

/* Appends a pass (the names are copied). */
int ts_pass_list_add(TsPassList *l, const char *name, const char *plugin, TsGraphPassFn fn,
                     void *ctx, int stage, TsError *err);
/* The pass of that name, or NULL. */
const TsGraphPass *ts_pass_list_find(const TsPassList *l, const char *name);
/* Makes room for n more passes, so that ts_pass_list_move cannot fail. */
int ts_pass_list_reserve(TsPassList *l, size_t n, TsError *err);
/* Moves every pass of src (left empty) to the end of dst, which has the room reserved. */
void ts_pass_list_move(TsPassList *dst, TsPassList *src);
void ts_pass_list_free(TsPassList *l);

/* Runs the passes of stage in order on g, the graph of function fn_name ("__torch__.f"), checking the
 * graph after each (ts_graph_lint). An error names the pass, its plugin and the function. */
int ts_passes_run(const TsPassList *l, int stage, TsGraph *g, const char *fn_name,
                  TsError *err);

#endif
