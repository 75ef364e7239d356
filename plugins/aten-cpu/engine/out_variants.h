/* out_variants.h — the out= overloads aten-cpu serves through their functional kernels
 * (out_variants.c, schemas/aten_out.yaml). */
#ifndef TS_ATEN_CPU_OUT_VARIANTS_H
#define TS_ATEN_CPU_OUT_VARIANTS_H

#include "engine/cpu.h"

/* The cpu kernel aten-cpu registers for qualname overload ("" the default), from its own
 * tables and aten-common's shared ones (cpu.c); NULL when there is none. */
TsKernelFn ts_cpu_find_kernel(const char *qualname, const char *overload);
/* Registers the adaptor for every out= form of schemas/aten_out.yaml, after checking that
 * each has its functional kernel. */
int ts_cpu_register_out_variants(TsRegistry *r, TsError *err);

#endif
