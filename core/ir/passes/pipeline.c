/* pipeline.c — the order the core's passes run in (see passes.h), and running one by name.
 *
 * The order follows PyTorch's GraphExecutor: calls inlined first, so the later passes see
 * whole programs; then cleanups that expose constants, folding, loop unrolling (which needs
 * constant trip counts and makes more constants), and a final round of cleanups. A pass that
 * lands adds its line here.
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ir/log.h"
#include "ir/passes/passes.h"
#include "registry/optable.h"

typedef struct PassEntry {
    const char *name;          /* its file name without ".c" */
    TsCorePassFn fn;
} PassEntry;

static const PassEntry pipeline[] = {
    { "inline", ts_pass_inline },
    { "dead_code", ts_pass_dead_code },
    /* as PyTorch's profiling-insensitive passes: before the others see the graph */
    { "decompose_ops", ts_pass_decompose_ops },
    { "cse", ts_pass_cse },
    /* the tensors' types from the inputs' (a specialized graph's) and the constants', which
     * peephole's rules on sizes and dtypes read */
    { "shape_prop", ts_pass_shape_prop },
    { "peephole", ts_pass_peephole },
    { "constant_prop", ts_pass_constant_prop },
    { "loop_unroll", ts_pass_loop_unroll },
    /* unrolled bodies and inlined callees expose more constants and common work */
    { "shape_prop", ts_pass_shape_prop },
    { "peephole", ts_pass_peephole },
    { "constant_prop", ts_pass_constant_prop },
    { "cse", ts_pass_cse },
    { "dead_code", ts_pass_dead_code },
    { "constant_pooling", ts_pass_constant_pooling },
    { "canonicalize", ts_pass_canonicalize },
    { NULL, NULL },
};

/* After the plugins' passes: regions take in the fusion groups they made. */
static const PassEntry late[] = {
    { "capture_regions", ts_pass_capture_regions },
    { NULL, NULL },
};

const char *ts_pass_name(size_t i)
{
    return i < sizeof pipeline / sizeof *pipeline ? pipeline[i].name : NULL;
}

/* Whether the verifier runs after every pass ($TSCRIPT_LINT=1: the test suite sets it, so
 * that a pass that breaks a graph is named) or once on the optimized graph (the default:
 * verifying a big inlined graph after each of some twenty passes was an eighth of a
 * model's first call). Read once per process. */
static bool lint_each_pass(void)
{
    static _Atomic int each = -1;
    int e = atomic_load_explicit(&each, memory_order_relaxed);
    if (e < 0) {
        const char *v = getenv("TSCRIPT_LINT");
        e = v && strcmp(v, "1") == 0;
        atomic_store_explicit(&each, e, memory_order_relaxed);
    }
    return e;
}

/* The verifier: a pass that breaks the graph is a bug of ours, reported as such rather than
 * run. who: the pass, or NULL for the pipeline as a whole. */
static int lint(TsGraph *g, const TsPassEnv *env, const char *who, TsError *err)
{
    if (!ts_graph_lint(g, err))
        return 0;
    const char *fn = env->fn_name ? env->fn_name : "a function";
    if (who)
        ts_error_prefix(err, "internal error: the %s pass left a malformed graph of %s: ", who,
                        fn);
    else
        ts_error_prefix(err, "internal error: the optimizer left a malformed graph of %s "
                        "(TSCRIPT_LINT=1 names the pass): ", fn);
    return -1;
}

/* One pass, then the verifier when each pass is checked (always for a pass run alone). */
static int run_entry(const PassEntry *p, TsGraph *g, const TsPassEnv *env, bool check,
                     TsError *err)
{
    if (p->fn(g, env, err))
        return -1;
    return check ? lint(g, env, p->name, err) : 0;
}

int ts_optimize_graph(TsGraph *g, const TsPassEnv *env, TsError *err)
{
    bool each = lint_each_pass();
    for (const PassEntry *p = pipeline; p->name; p++)
        if (run_entry(p, g, env, each, err))
            return -1;
    /* then the plugins' (fusers): they see the graph the core made, types specialized */
    if (env->ops && ts_optable_run_passes(env->ops, TS_PASS_OPTIMIZER, g,
                                  env->fn_name ? env->fn_name : "a function", err))
        return -1;
    for (const PassEntry *p = late; p->name; p++)
        if (run_entry(p, g, env, each, err))
            return -1;
    return each ? 0 : lint(g, env, NULL, err);
}

int ts_run_pass(const char *name, TsGraph *g, const TsPassEnv *env, TsError *err)
{
    for (const PassEntry *p = pipeline; p->name; p++)
        if (strcmp(p->name, name) == 0)
            return run_entry(p, g, env, true, err);
    for (const PassEntry *p = late; p->name; p++)
        if (strcmp(p->name, name) == 0)
            return run_entry(p, g, env, true, err);
    return ts_error_set(err, TS_ERR_KEY, "no pass named '%s'", name);
}
