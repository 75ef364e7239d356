/* shape_ops.h — what the shape, join, index and creation kernels share: the kernel endings
 * for lists and out= forms, view strides, dense allocation that keeps a layout, and walking
 * an n-dimensional index.
 *
 * The kernels live in shape_ops.c (views), copy.c (contiguous, clone, copy_), join.c (cat,
 * stack, repeat, flip, roll, tril/triu), index.c (gather, index_select, advanced indexing,
 * masked_select, nonzero) and create.c (*_like, arange, linspace, eye, tensor, item,
 * tolist).
 */
#ifndef TS_ATEN_CPU_SHAPE_OPS_H
#define TS_ATEN_CPU_SHAPE_OPS_H

#include "engine/elementwise.h"


/* Strides for viewing t as sizes without a copy (PyTorch's rule: only dims that stay within
 * one contiguous chunk of t may be split or merged); false when no view exists. */
bool ts_cpu_view_strides(const TsTensor *t, int dim, const int64_t *sizes, int64_t *strides);
/* Resolves one -1 in sizes against numel, with view's errors ("shape '[2, -1]' is invalid
 * for input of size 5"). */
int ts_cpu_infer_size(TsError *err, int64_t numel, int dim, int64_t *sizes);

/* A new uninitialized tensor shaped like t: with t's strides when t is dense and its
 * dimensions do not overlap (PyTorch's preserve_format), else contiguous. */
TsTensor *ts_cpu_empty_like(const TsTensor *t, int dtype, TsError *err);


/* Steps idx (dim entries, starting at zeros) to the next index of sizes in row-major order;
 * false after the last. */
bool ts_cpu_next_index(int dim, const int64_t *sizes, int64_t *idx);


#endif
