/* passes.h — the optimizer: the core's graph passes and the order they run in.
 *
 * Before a function's Code is built (core/sched/code.c), the executor copies its graph and
 * runs ts_optimize_graph on the copy, as PyTorch's GraphExecutor runs its optimization
 * pipeline ("Executing Programs" in the JIT overview); the Code runs the optimized copy and
 * owns it. $TSCRIPT_JIT_DISABLE=1 (ts_runtime_set_optimize) skips all of it.
 *
 * Each pass is one file of this folder named for what it does. It logs through
 * TSCRIPT_LOG_LEVEL under its file name (ir/log.h: TS_LOG_DUMP the graph after it,
 * TS_LOG_UPDATE each change) and asks TS_OPT_ALLOWED before each change, so
 * TSCRIPT_OPT_LIMIT="dead_code=3" bisects a wrong optimization to the change that made it.
 * A pass returns 0, or -1 with err only on out-of-memory or a graph it cannot handle; it
 * never leaves a graph the verifier (ir/lint.c) rejects: the pipeline checks after each.
 */
#ifndef TSCRIPT_IR_PASSES_H
#define TSCRIPT_IR_PASSES_H

#include <stdbool.h>

#include "ir/ir.h"

struct TsOpTable;
struct TsRuntime;
struct TsCompUnit;

/* What every pass may consult. */
typedef struct TsPassEnv {
    const struct TsOpTable *ops;   /* the runtime's operators: schemas, alias annotations */
    const char *fn_name;           /* the function being optimized (qualified), for logs */
    struct TsRuntime *rt;          /* runs kernels at optimization time (constant_prop);
                                      NULL: nothing is folded by running an operator */
    struct TsCompUnit *unit;       /* where its callees are (the inliner), or NULL */
} TsPassEnv;

typedef int (*TsCorePassFn)(TsGraph *g, const TsPassEnv *env, TsError *err);

/* The passes, each in the file of its name. */
int ts_pass_inline(TsGraph *g, const TsPassEnv *env, TsError *err);
int ts_pass_loop_unroll(TsGraph *g, const TsPassEnv *env, TsError *err);

/* Whether the nodes of b (nested blocks included) may be copied: none keeps state of its
 * own per node (aten::warn warns once per node). copyable.c. */
bool ts_block_copyable(const TsBlock *b);

/* Runs the pipeline over g in place. On error g is left valid but partly optimized (the
 * caller drops it). */
int ts_optimize_graph(TsGraph *g, const TsPassEnv *env, TsError *err);

/* Runs the one pass named (a file name of this folder without ".c", e.g. "constant_prop"),
 * for tests; TS_ERR_KEY when there is no such pass. */
int ts_run_pass(const char *name, TsGraph *g, const TsPassEnv *env, TsError *err);

/* The name of the pipeline's i-th pass, in order; NULL past the last. */
const char *ts_pass_name(size_t i);

/* The passes, one per file of this folder (pipeline.c orders them). */
int ts_pass_dead_code(TsGraph *g, const TsPassEnv *env, TsError *err);   /* dead_code.c */
int ts_pass_cse(TsGraph *g, const TsPassEnv *env, TsError *err);         /* cse.c */
int ts_pass_decompose_ops(TsGraph *g, const TsPassEnv *env, TsError *err);
int ts_pass_constant_prop(TsGraph *g, const TsPassEnv *env, TsError *err);
int ts_pass_constant_pooling(TsGraph *g, const TsPassEnv *env, TsError *err);
int ts_pass_peephole(TsGraph *g, const TsPassEnv *env, TsError *err);
int ts_pass_canonicalize(TsGraph *g, const TsPassEnv *env, TsError *err);
int ts_pass_shape_prop(TsGraph *g, const TsPassEnv *env, TsError *err);  /* shape_prop.c */
/* capture_regions.c: last, after the plugins' passes, with cuda_graphs on */
int ts_pass_capture_regions(TsGraph *g, const TsPassEnv *env, TsError *err);

#endif
