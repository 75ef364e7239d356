/* legacy_args.h — the old style's argument helpers (legacy_args.c) and out= ending
 * (engine/call.c), for the aten-cpu folders not yet converted to the TsArgs API of
 * tscript/aten.h. shape_ops.h includes it so that their users keep compiling; delete it
 * with the last of them.
 */
#ifndef TS_ATEN_CPU_LEGACY_ARGS_H
#define TS_ATEN_CPU_LEGACY_ARGS_H

#include "engine/cpu.h"

/* An int argument, or a TypeError naming op and arg. */
int ts_cpu_int_arg(TsError *err, const char *op, const char *arg, TsValue v, int64_t *out);
/* An int[] argument of at most max entries into out. */
int ts_cpu_int_list(TsError *err, const char *op, const char *arg, TsValue v, int64_t *out,
                    int *n, int max);
/* A Tensor[] argument: the list (borrowed) after checking every item is a cpu tensor. */
const TsList *ts_cpu_tensor_list(TsCall *c, const char *op, const char *arg, TsValue v);

/* The kernels' common ending: releases the n arguments, then pushes result (taking its
 * reference) or returns the error already set when result is NULL. */
int ts_cpu_kernel_end(TsCall *c, size_t n, TsValue *argv, TsTensor *result);

/* The ending of a kernel with an out= form (call.c): without out, ts_cpu_kernel_end; with
 * it, result is stored into the out= tensor argv[n - 1] (resized), which is pushed. */
int ts_cpu_end_out(TsCall *c, size_t n, TsValue *argv, TsTensor *result, bool out);

#endif
