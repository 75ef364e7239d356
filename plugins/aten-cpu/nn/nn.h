/* nn.h — what the matrix-product and neural-network files of aten-cpu share (blas.c, conv.c,
 * pool.c, norm.c, activation.c, resample.c, loss.c, loss_pointwise.c, rnn.c, nn.c): argument
 * readers for the argument kinds these ops take (int lists that may be one int, optional
 * tensors, Scalars as doubles, reduction codes), the GEMM entry that hides BLAS layouts, and
 * a few small tensor helpers. The shared pieces live in nn.c and blas.c.
 */
#ifndef TS_ATEN_CPU_NN_H
#define TS_ATEN_CPU_NN_H

#include "engine/elementwise.h"

/* PyTorch's Reduction enum (the int `reduction` argument of the losses). */
enum { TS_NN_NONE = 0, TS_NN_MEAN = 1, TS_NN_SUM = 2 };

/* ---- arguments (nn.c) -------------------------------------------------------- */

/* Argument i as a tensor (borrowed), or NULL with ts_args_tensor's error: for kernels that
 * test a chain of arguments in one expression. */
static inline TsTensor *ts_nn_tensor(TsArgs *a, size_t i)
{
    TsTensor *t;
    return ts_args_tensor(a, i, &t) ? NULL : t;
}
/* int[] argument i of any length (at most max) into out; *len gets its length. */
int ts_nn_int_vec(TsArgs *a, size_t i, int max, int64_t *out, int *len);
/* A Scalar, int, float or bool argument as a double. */
double ts_nn_double(TsValue v);
int64_t ts_nn_int(TsValue v);
/* Float32 or float64, else PyTorch's '"NAME_cpu" not implemented for 'Long''. */
int ts_nn_check_float(TsCall *c, const char *name, const TsTensor *t);
/* A reduction code of a loss that takes only none, mean and sum. */
int ts_nn_check_reduction(TsCall *c, int64_t reduction);
/* "expected scalar type Float but found Double" when b's dtype differs from a's. */
int ts_nn_same_dtype(TsCall *c, const TsTensor *a, const TsTensor *b);

/* ---- results (nn.c) ---------------------------------------------------------- */

/* t itself (retained) when contiguous, else a contiguous copy. */
TsTensor *ts_nn_contiguous(TsTensor *t, TsError *err);
/* Element (logical, row-major) index of a contiguous tensor as a double / storing one. */
static inline double ts_nn_get(int dtype, const void *p, int64_t i)
{
    return dtype == TS_FLOAT32 ? ((const float *)p)[i] : ((const double *)p)[i];
}
static inline void ts_nn_set(int dtype, void *p, int64_t i, double v)
{
    if (dtype == TS_FLOAT32)
        ((float *)p)[i] = (float)v;
    else
        ((double *)p)[i] = v;
}

/* ---- row moments (moments.c) ----------------------------------------------- */

/* The mean and biased variance of the len elements at x, in PyTorch's order (see moments.c). */
void ts_nn_moments_f32(const float *x, int64_t len, float *mean, float *var);
void ts_nn_moments_f64(const double *x, int64_t len, double *mean, double *var);
/* The same of a bfloat16 row held in floats, in bfloat16 arithmetic. */
void ts_nn_moments_bf16(const float *x, int64_t len, float *mean, float *var);

/* ---- matrix products (blas.c) ------------------------------------------------ */

/* A strided matrix: rows x cols elements, strides in elements. */
typedef struct TsNnMat {
    const void *p;
    int64_t rows, cols, rs, cs;
} TsNnMat;

/* C = alpha * A @ B + beta * C, with A rows x K, B K x cols, C contiguous rows of ldc
 * elements (beta 0: C is not read). float32/float64 go to BLAS, reading A and B in place
 * when their layouts allow (copies otherwise); float16 and bfloat16 are widened to float32
 * for sgemm and rounded once; integer dtypes use a plain loop with wrap-around arithmetic.
 * Fails only on allocation or sizes beyond BLAS's int. */
int ts_nn_gemm(int dtype, double alpha, const TsNnMat *a, const TsNnMat *b, double beta,
               void *c, int64_t ldc, TsError *err);

#endif
