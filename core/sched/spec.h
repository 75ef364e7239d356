/* spec.h — the ArgumentSpec-keyed specialization cache (internal to core/sched).
 *
 * As PyTorch's GraphExecutor keys its plans by ArgumentSpec (argument_spec.h): for a
 * function with Tensor parameters, each call's key is, per tensor argument, its (dtype,
 * rank, device, requires_grad). The first call with a new key copies the function's graph,
 * refines its tensor inputs' types with the key, runs the optimizer (shape propagation
 * included, core/ir/passes) and builds a Code for it; later calls with that key run that
 * Code. A function without Tensor parameters has no cache and pays nothing. A cache holds
 * at most TS_SPEC_MAX plans; calls with further keys run the generic Code.
 *
 * The cache belongs to the function's generic Code (code.h: specs) and dies with it. Lookups
 * take no lock (published entries never change); building one takes the cache's lock.
 * TSCRIPT_JIT_DISABLE / --no-opt build no caches (no generic Code is optimized either).
 */
#ifndef TSCRIPT_SCHED_SPEC_H
#define TSCRIPT_SCHED_SPEC_H

#include <stddef.h>
#include <stdint.h>

#include "function.h"
#include "runtime.h"
#include "sched/code.h"

enum {
    TS_SPEC_MAX = 8,           /* plans per function */
    TS_SPEC_MAX_TENSORS = 16   /* tensor parameters keyed; later ones stay unrefined */
};

typedef struct TsSpecCache TsSpecCache;

/* The cache for generic Code c of f (stored in c->specs), or none when f has no Tensor
 * parameter: 0 either way, -1 with err only when out of memory. */
int ts_spec_attach(TsCode *c, const TsFunction *f, TsError *err);
void ts_spec_free(TsSpecCache *s);

/* The Code that a call of f (prepared: f->code set) with these n arguments runs: the plan
 * for their key, built now if it is new, or f's generic Code. NULL with err when building
 * failed. */
const TsCode *ts_spec_select(TsRuntime *rt, const TsCompUnit *unit, TsFunction *f,
                             const TsValue *args, size_t n, TsError *err);

/* How many plans f's cache holds (0 without one): for tests. */
size_t ts_spec_count(const TsFunction *f);

/* A copy of graph g with its inputs' types replaced by types (n of them; NULL entries keep
 * the input's type), optimized by the pipeline; NULL with err. For the cache, t/passes.t and
 * `tscript graph --optimized FILE INPUT...`. */
TsGraph *ts_spec_graph(TsRuntime *rt, const TsCompUnit *unit, const TsFunction *f,
                       const TsType *const *types, size_t n, TsError *err);

#endif
