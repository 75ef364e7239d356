/* optable.h — the open operator table (internal to the core).
 *
 * Operators are keyed by qualified name ("aten::add") and overload name ("Tensor", or "" for
 * the default). Each holds its parsed schema, the plugin that declared it, and one kernel per
 * backend ("cpu", "cuda", TS_BACKEND_ANY, or a plugin's own backend name). The table is
 * filled while plugins load (through a TsRegistry transaction, see plugin.c) and read-only
 * afterwards, so lookups need no lock.
 *
 * A runtime may defer plugins (runtime.c, config key `load: on_first_use`): it loads the
 * first, then hands the table a loader for the rest (ts_optable_defer). Until that loader
 * has run the table is not settled: lookups take a read lock (so a thread loading the rest
 * may grow the table under them), and whoever finds the table lacking something calls
 * ts_optable_complete, which runs the loader once. Lookups themselves never load: a miss
 * is for the caller to judge (the frontend loads the rest before it reports an unknown
 * operator or a call no overload takes, see ir/match.c).
 *
 * Plugins load in any order: a kernel registered for an operator no plugin has declared yet
 * waits in the table (TsWaitingKernel) until ts_optable_resolve, which runs once every
 * plugin of a runtime is loaded, attaches it to the operator a later plugin declared, or
 * fails naming the plugin whose kernel has no schema.
 */
#ifndef TSCRIPT_OPTABLE_H
#define TSCRIPT_OPTABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "registry/passes.h"
#include "registry/schema.h"
#include "tscript/plugin.h"

typedef struct TsKernelEntry {
    char *backend;             /* owns the allocation plugin points into, unless in_arena */
    TsKernelFn fn;             /* exactly one of fn and factory is set */
    TsKernelFactory factory;
    char *plugin;              /* the plugin that registered it */
    bool in_arena;             /* the names live in the operator's schema arena */
} TsKernelEntry;

typedef struct TsOperator {
    TsSchema *schema;
    char *plugin;              /* the plugin whose schema file declared it */
    size_t n_kernels;
    TsKernelEntry *kernels;
} TsOperator;

typedef struct TsOpTable TsOpTable;

TsOpTable *ts_optable_new(TsError *err);
void ts_optable_free(TsOpTable *t);

/* Deferred plugins: load_rest(ctx, err) loads them into the table (between
 * ts_optable_write_begin and _end), once; until it has run the table is unsettled. */
void ts_optable_defer(TsOpTable *t, int (*load_rest)(void *ctx, TsError *err), void *ctx);
/* Whether the table can no longer grow (no deferred plugins, or they were loaded). */
bool ts_optable_settled(const TsOpTable *t);
/* Loads the deferred plugins if there are any left: 0, or the error loading them gave (again
 * on every later call). A no-op on the thread that is loading them. */
int ts_optable_complete(const TsOpTable *t, TsError *err);
/* The loader's bracket: takes the write lock; _end marks the table settled (failed: the
 * loader failed, and ts_optable_complete calls it again for its error). */
void ts_optable_write_begin(TsOpTable *t);
void ts_optable_write_end(TsOpTable *t, bool failed);

/* The operator with this name and overload ("" for the default), or NULL. */
const TsOperator *ts_optable_find(const TsOpTable *t, const char *qualname, const char *overload);
/* All overloads of a name in declaration order: writes up to max into out, returns the count. */
size_t ts_optable_overloads(const TsOpTable *t, const char *qualname, const TsOperator **out,
                            size_t max);
/* Every operator in declaration order: returns false past the end. */
bool ts_optable_next(const TsOpTable *t, size_t *pos, const TsOperator **op);
size_t ts_optable_size(const TsOpTable *t);

/* The kernel entry for backend, else the TS_BACKEND_ANY entry, else NULL. */
const TsKernelEntry *ts_operator_kernel(const TsOperator *op, const char *backend);

/* ---- filling the table (the registry's side: see plugin.c) ---------------- */

/* An operator's name and overload with their hashes, computed once for the several tables
 * a registration looks in. */
typedef struct TsOpKey {
    const char *qualname, *overload;
    uint64_t hash_name, hash_full;
} TsOpKey;

TsOpKey ts_op_key(const char *qualname, const char *overload);
TsOperator *ts_optable_find_key(const TsOpTable *t, const TsOpKey *key);
/* Makes room for n more operators (ts_optable_add then grows nothing). */
int ts_optable_reserve(TsOpTable *t, size_t n, TsError *err);

/* Adds an operator that plugin declared at source ("file.yaml:3:9"); takes schema on
 * success. Fails if the table already has the name and overload. */
int ts_optable_add(TsOpTable *t, TsSchema *schema, const char *plugin, const char *source,
                   TsError *err);
/* The same with the schema's key (ts_op_key(schema->name, schema->overload)), and the
 * position in source apart (line 0: none), so that a file's declarations need not format
 * one string each. */
int ts_optable_add_keyed(TsOpTable *t, TsSchema *schema, const TsOpKey *key, const char *plugin,
                         const char *source, int line, int col, TsError *err);
TsOperator *ts_optable_find_mut(TsOpTable *t, const char *qualname, const char *overload);
/* Moves every operator of src (left empty) to the end of dst, all or nothing. */
int ts_optable_merge(TsOpTable *dst, TsOpTable *src, TsError *err);

/* A TorchScript file a plugin ships (path copied), which the frontend compiles on
 * demand (core/frontend/library.c). */
int ts_optable_add_source(TsOpTable *t, const char *path, TsError *err);
/* The files of every plugin (deferred ones load first), in load order: their count, and
 * the paths in *paths. */
size_t ts_optable_sources(const TsOpTable *t, const char *const **paths);
/* The frontend's cache, of every plugin's sources (it completes the table first): made by
 * make on first call (once, even when threads race: a loser's is destroyed), freed by
 * destroy with the table. NULL with err when make or completing fails. */
void *ts_optable_cache(const TsOpTable *t, void *(*make)(const TsOpTable *t, TsError *err),
                       void (*destroy)(void *cache), TsError *err);

/* The graph passes plugins registered, in order (registry/passes.h). */
TsPassList *ts_optable_passes(TsOpTable *t);
/* ts_passes_run of the table's passes, safe while deferred plugins may still add theirs. */
int ts_optable_run_passes(const TsOpTable *t, int stage, TsGraph *g, const char *fn_name,
                          TsError *err);

/* Where the operator was declared ("file.yaml:3:9"), into buf (always NUL-terminated). */
void ts_operator_source(const TsOperator *op, char *buf, size_t size);
/* "aten::add.Tensor" or "aten::add", into buf (always NUL-terminated). */
void ts_operator_full_name(const TsOperator *op, char *buf, size_t size);
/* The kernel entry registered for exactly this backend, or NULL. */
const TsKernelEntry *ts_operator_kernel_exact(const TsOperator *op, const char *backend);
/* Adds a kernel (the strings are copied). A second kernel for a backend is an error naming
 * both plugins. */
int ts_operator_add_kernel(TsOperator *op, const char *backend, TsKernelFn fn,
                           TsKernelFactory factory, const char *plugin, TsError *err);
/* Sets err to "plugin 'P' registers a second kernel for NAME on backend 'B' (plugin 'F'
 * registered the first)"; returns TS_ERR_PLUGIN. */
int ts_kernel_dup_error(TsError *err, const char *plugin, const char *name, const char *backend,
                        const char *first);
/* Makes room for n more kernels, which ts_operator_push_kernel then adds without failing
 * (it takes the entry's strings). */
int ts_operator_reserve_kernels(TsOperator *op, size_t n, TsError *err);
void ts_operator_push_kernel(TsOperator *op, TsKernelEntry entry);
/* Puts entry (taking its strings) in the place of the kernel op has for entry's backend,
 * which must exist (ts_override_kernel), and frees that one's. */
void ts_operator_replace_kernel(TsOperator *op, TsKernelEntry entry);
/* Fills e with copies of the names (one allocation); TS_ERR_NOMEM leaves it cleared. */
int ts_kernel_entry_init(TsKernelEntry *e, const char *backend, TsKernelFn fn,
                         TsKernelFactory factory, const char *plugin);
void ts_kernel_entry_clear(TsKernelEntry *e);

/* ---- kernels waiting for their schema ------------------------------------------ */

typedef struct TsWaitingKernel {
    char *qualname;            /* "ns::op", then the overload, in one allocation */
    char *overload;
    TsKernelEntry entry;
} TsWaitingKernel;

/* Fills w with copies of the names; TS_ERR_NOMEM leaves it cleared. */
int ts_waiting_kernel_init(TsWaitingKernel *w, const char *qualname, const char *overload,
                           const char *backend, TsKernelFn fn, TsKernelFactory factory,
                           const char *plugin);
void ts_waiting_kernel_clear(TsWaitingKernel *w);
/* The waiting kernel for this operator and backend, or NULL. */
const TsWaitingKernel *ts_optable_find_waiting(const TsOpTable *t, const char *qualname,
                                               const char *overload, const char *backend);
/* Makes room for n more waiting kernels, which ts_optable_push_waiting then adds without
 * failing (taking w's strings). */
int ts_optable_reserve_waiting(TsOpTable *t, size_t n, TsError *err);
void ts_optable_push_waiting(TsOpTable *t, TsWaitingKernel w);
/* Whether kernels wait for a schema (a later plugin's, or none). */
bool ts_optable_has_waiting(const TsOpTable *t);
/* Attaches every waiting kernel to its operator, all or nothing. Errors: an operator no
 * schema declares, a backend that already has a kernel for it (naming both plugins). */
int ts_optable_resolve(TsOpTable *t, TsError *err);

#endif
