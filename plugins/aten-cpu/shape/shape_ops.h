/* shape_ops.h — what the shape, join, index and creation kernels share: dense allocation
 * that keeps a layout, and walking an n-dimensional index (shape_ops.c).
 *
 * The kernels live in copy.c (contiguous, clone, copy_), join.c (cat, stack, repeat, flip,
 * roll, tril/triu), index.c (gather, index_select, advanced indexing, masked_select,
 * nonzero) and create.c (*_like, arange, linspace, eye, tensor, item, tolist).
 */
#ifndef TS_ATEN_CPU_SHAPE_OPS_H
#define TS_ATEN_CPU_SHAPE_OPS_H

#include "engine/elementwise.h"

/* A new uninitialized tensor shaped like t: with t's strides when t is dense and its
 * dimensions do not overlap (PyTorch's preserve_format), else contiguous. */
TsTensor *ts_cpu_empty_like(const TsTensor *t, int dtype, TsError *err);
/* A new uninitialized tensor laid out in memory format mf (contiguous, channels_last,
 * channels_last_3d: ts_aten_format_strides, whose errors it gives). */
TsTensor *ts_cpu_empty_format(int dtype, int dim, const int64_t *sizes, int64_t mf,
                              TsError *err);

/* copy_ (copy.c): src copied into dst, broadcast and converted, with copy_'s errors when
 * the shapes do not broadcast to dst's or the two overlap. */
int ts_cpu_copy_checked(TsError *err, TsTensor *dst, const TsTensor *src);

/* Steps idx (dim entries, starting at zeros) to the next index of sizes in row-major order;
 * false after the last. */
bool ts_cpu_next_index(int dim, const int64_t *sizes, int64_t *idx);

#endif
