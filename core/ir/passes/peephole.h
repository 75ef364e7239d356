/* peephole.h — what peephole.c asks its rule files. */
#ifndef TSCRIPT_IR_PASSES_PEEPHOLE_H
#define TSCRIPT_IR_PASSES_PEEPHOLE_H

#include "ir/ir.h"

/* The constant n's one output is by the facts of its tensor inputs' types (x.size() of
 * known sizes, x.dim() of a known rank, x.dtype, ...: peephole_shape.c): 1 and the value
 * in *out (a new reference), 0 when the facts do not decide it, -1 with err out of memory. */
int ts_peephole_shape(const TsNode *n, TsValue *out, TsError *err);

#endif
