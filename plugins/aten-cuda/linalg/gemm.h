/* gemm.h — the one matrix product of aten-cuda (cublas.c): a batch of row-major GEMMs on
 * cuBLAS, which the products (linalg/blas.c), the convolutions (nn/conv.c) and the recurrent
 * cells (nn/rnn_cell.c) are built on.
 */
#ifndef TS_ATEN_CUDA_GEMM_H
#define TS_ATEN_CUDA_GEMM_H

#include "engine/cuda.h"

/* A matrix in device memory: element (i, j) at p + i * rs + j * cs (strides in elements;
 * any strides, a copy is made when cuBLAS cannot read them in place). */
typedef struct TsCudaMat {
    const void *p;
    int64_t rows, cols, rs, cs;
} TsCudaMat;

/* For i < batch: C_i = alpha * A_i @ B_i + beta * C_i, where A_i is a shifted by i * sa
 * elements, B_i is b shifted by i * sb (0: the same matrix for every i), and C is contiguous
 * at c: batch matrices of a->rows x b->cols, one after the other (read only when beta is
 * not 0). The caller checked a->cols == b->rows and that the current device is the
 * operands'. dtype: float32 (never TF32), float64, float16 and bfloat16 (float
 * accumulation); an empty inner dim gives beta * C. Runs on TS_CUDA_STREAM. */
int ts_cuda_gemm(int dtype, double alpha, const TsCudaMat *a, int64_t sa, const TsCudaMat *b,
                 int64_t sb, double beta, void *c, int64_t batch, TsError *err);

/* Whether dtype has a GEMM ("addmm_cuda" not implemented for 'Long' else). */
int ts_cuda_gemm_check_dtype(int dtype, TsError *err);

#endif
