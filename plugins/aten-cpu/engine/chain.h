/* chain.h — kernels that PyTorch writes as a C++ composite of other ops, written here as the
 * same chain of calls to aten-cpu's own kernels (chain.c): the results match PyTorch's to the
 * rounding because every step is the op PyTorch runs, in its order, with its broadcasting,
 * type promotion and messages.
 *
 * A TsChain owns the intermediates: each step's result is kept in it, and ts_chain_end
 * releases them all. A step given a NULL tensor (a failed earlier step) does nothing and
 * returns NULL, so a chain is written straight through and checked once at the end.
 */
#ifndef TS_ATEN_CPU_CHAIN_H
#define TS_ATEN_CPU_CHAIN_H

#include <stdarg.h>

#include "engine/cpu.h"

#define TS_CHAIN_MAX 64

typedef struct TsChain {
    TsCall *c;
    int n;
    TsTensor *t[TS_CHAIN_MAX];
} TsChain;

static inline void ts_chain_init(TsChain *k, TsCall *c)
{
    k->c = c;
    k->n = 0;
}

/* Calls qualname.overload with arguments described by fmt, one letter each:
 *   t  a TsTensor * (borrowed; NULL makes the step fail quietly)
 *   o  an optional TsTensor * (NULL is None)
 *   i  an int64_t          d  a double          b  a bool (int)          n  None
 *   l  an int list: int n, const int64_t *values
 *   L  a tensor list: int n, TsTensor *const *tensors (a NULL one fails the step)
 * Returns the result (owned by the chain), or NULL with the error set. */
TsTensor *ts_chain_op(TsChain *k, const char *qualname, const char *overload, const char *fmt,
                      ...);
/* The same for an op with several results: *out gets the result value (a tuple, taken). */
int ts_chain_call(TsChain *k, const char *qualname, const char *overload, TsValue *out,
                  const char *fmt, ...);
/* Runs the kernel of qualname.overload (found in the tables the chains call) on the n values
 * of args (their references taken) and puts its one result in *out (None, error set, on
 * failure). */
int ts_cpu_call_by_name(TsCall *c, const char *qualname, const char *overload, size_t n,
                        TsValue *args, TsValue *out);
/* t kept by the chain (released at its end); t itself. */
TsTensor *ts_chain_keep(TsChain *k, TsTensor *t);
/* A new reference to t (for the kernel's result), NULL for NULL. */
TsTensor *ts_chain_result(TsTensor *t);
/* Releases every intermediate. */
void ts_chain_end(TsChain *k);
/* A kernel's end: r (owned by the chain, NULL for a failed chain) as its result, a new
 * reference; every intermediate released, the arguments too. */
int ts_chain_return(TsArgs *a, TsChain *k, TsTensor *r);

/* PyTorch's apply_loss_reduction: mean (1) or sum (2) of the whole tensor, else t. */
TsTensor *ts_chain_reduce(TsChain *k, TsTensor *t, int64_t reduction);

#endif
