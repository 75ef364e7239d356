/* reduce.h — what the reduction, scan and sort kernels share (reduce.c, scan.c, sort.c):
 * splitting a tensor's dims into kept and reduced ones, and moving elements between strided
 * tensors and plain buffers of double or int64.
 *
 * Every kernel of the three files works the same way: a plan (TsCpuRed) lists, for a tensor,
 * the dims an operation runs along (the "reduced" dims, in their natural order, so element
 * k of a gathered run is the k-th element in row-major order, as argmax's flat index needs)
 * and the other ("kept") dims. For each position of the kept dims the kernel gathers the
 * elements of the reduced dims into a buffer, computes, and stores. Floating dtypes are
 * computed in double and integral ones (and bool) in int64, so sums of float32 are accurate
 * and integer sums wrap exactly like PyTorch's int64 arithmetic.
 */
#ifndef TS_ATEN_CPU_REDUCE_H
#define TS_ATEN_CPU_REDUCE_H

#include "engine/elementwise.h"

typedef struct TsCpuRed {
    int nk, nr;                                /* kept and reduced dims */
    int64_t ksize[TS_TENSOR_MAX_DIMS], kstride[TS_TENSOR_MAX_DIMS];   /* strides in bytes */
    int64_t rsize[TS_TENSOR_MAX_DIMS], rstride[TS_TENSOR_MAX_DIMS];
    int64_t nout, nred;                        /* positions of the kept dims; elements each */
    int dtype;
    const char *data;                          /* element 0 of the tensor */
} TsCpuRed;

/* Softmax (log_softmax where log) of a row of n floats in place, in float32 as PyTorch's
 * vectorized kernels compute it (scan.c). A NaN makes the row NaN, and so does a row that is
 * all -inf (every key masked), as in PyTorch. */
void ts_cpu_softmax_f32(float *x, int64_t n, bool log);

/* The sum of n contiguous floats in float32, in PyTorch 1.13's cascade order (cascade.c). */
float ts_cpu_cascade_sum_f32(const float *x, int64_t n);
/* The same for an output of an outer reduction: n floats, stride floats apart, by the
 * cascade alone when its column is in one of PyTorch's groups, else by four partial sums. */
float ts_cpu_cascade_column_f32(const float *x, int64_t n, int64_t stride, bool grouped);

/* The plan for t with the reduced dims in mask. */
void ts_cpu_red_plan(const TsTensor *t, uint64_t mask, TsCpuRed *r);
/* Element 0 of the run that output position o reduces. */
const char *ts_cpu_red_base(const TsCpuRed *r, int64_t o);
/* Elements start .. start+n of the run at base, as doubles or int64s (bool and integers
 * exactly; half types through float). */
void ts_cpu_gather_d(const TsCpuRed *r, const char *base, int64_t start, int64_t n, double *out);
void ts_cpu_gather_i(const TsCpuRed *r, const char *base, int64_t start, int64_t n,
                     int64_t *out);
/* The inverse: stores a whole run (r->nred values) at base. The dtype must be bool, an
 * integer, float32 or float64 (half types are computed as float32 and cast after). */
void ts_cpu_scatter_d(const TsCpuRed *r, char *base, const double *in);
void ts_cpu_scatter_i(const TsCpuRed *r, char *base, const int64_t *in);

/* The dtype a kernel computes and stores in for a result of dtype: itself when scatter can
 * store it, else float32 (float16, bfloat16). */
int ts_cpu_work_dtype(int dtype);
/* Gives the caller t as dtype: t itself when it has it (the reference moves), else a cast
 * copy (t is released). NULL with err on failure. */
TsTensor *ts_cpu_finish(TsTensor *t, int dtype, TsError *err);

/* ---- arguments ---------------------------------------------------------------- */

/* Argument i, a ScalarType?, as a dtype the cpu backend computes in: -1 for None. */
int ts_cpu_dtype_arg(TsArgs *a, size_t i, int *dtype);
/* Argument i, an int (not a bool), with these kernels' own wording of a wrong one
 * ("aten::topk: k must be an int"). */
int ts_cpu_strict_int(TsArgs *a, size_t i, int64_t *out);

#endif
