/* pool.h — what the two pooling files share (pool.c: windowed max and average pooling;
 * pool_adaptive.c: adaptive max and average pooling): the geometry of a pool over 1, 2 or 3
 * spatial dims, kept as 3 (D, H, W) with the missing leading ones of size 1, and the
 * conversion of inputs to the dtype the loops compute in.
 */
#ifndef TS_ATEN_CPU_POOL_H
#define TS_ATEN_CPU_POOL_H

#include "nn/nn_out.h"

/* planes = batch * channels; in/out: spatial sizes, padded in front with 1s to 3 dims. */
typedef struct TsPoolGeo {
    int nsp;                   /* spatial dims of the op: 1, 2 or 3 */
    int64_t planes, in[3], out[3];
} TsPoolGeo;

/* The loops read and write float32, float64 or int64: the contiguous input converted to
 * the dtype dtype computes in (bfloat16 and float16: float32; integers: int64). */
int ts_pool_compute_dtype(int dtype);
TsTensor *ts_pool_input(TsTensor *x, TsError *err);
/* The output of x's rank: its leading (batch, channel) sizes and g's output sizes, in the
 * compute dtype. */
TsTensor *ts_pool_alloc(const TsTensor *x, const TsPoolGeo *g, TsError *err);
/* Value i of a compute-dtype buffer as a double, and storing one. */
static inline double ts_pool_get(int dtype, const void *p, int64_t i)
{
    return dtype == TS_FLOAT32 ? ((const float *)p)[i]
         : dtype == TS_FLOAT64 ? ((const double *)p)[i] : (double)((const int64_t *)p)[i];
}
static inline void ts_pool_set(int dtype, void *p, int64_t i, double v)
{
    if (dtype == TS_INT64)
        ((int64_t *)p)[i] = (int64_t)v;
    else
        ts_nn_set(dtype, p, i, v);
}
/* The end of every pooling kernel: values (converted from the compute dtype to dtype) and,
 * when two, indices (both taken) pushed after releasing the arguments, or delivered into the
 * last nout of them by rule for an out= form; or the error set when values is NULL. */
int ts_pool_finish(TsArgs *args, int dtype, TsTensor *values, TsTensor *indices, bool two,
                   size_t nout, TsNnOutRule rule);

#endif
