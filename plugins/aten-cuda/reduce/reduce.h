/* reduce.h — the contract between aten-cuda's reduction operators (reduce.c, host C) and
 * their kernel family (reduce_kernels.cu): one launch reduces a contiguous block of elements
 * laid out as outer × red × inner along its middle axis.
 *
 * The host brings every reduction to that layout: when the reduced dims of a contiguous
 * input are one run of neighbouring dims, the input is used as it is (outer: the dims before
 * the run, inner: those after); otherwise it is copied with the kept dims first and the
 * reduced ones last (inner 1). The position along red is then the flat row-major index over
 * the reduced dims, which argmax returns. Results are written at o * inner + i.
 *
 * Accumulation: float16, bfloat16 and float32 in float, float64 in double, bool and the
 * integers in int64 (wrapping, as PyTorch's int64 arithmetic).
 */
#ifndef TS_ATEN_CUDA_REDUCE_H
#define TS_ATEN_CUDA_REDUCE_H

#include "engine/cuda.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum TsCudaRedOp {
    TS_CUDA_RED_SUM,           /* out: int64 for bool and integers, else the input's dtype */
    TS_CUDA_RED_PROD,          /* the same */
    TS_CUDA_RED_MEAN,          /* floating input; sum / red */
    TS_CUDA_RED_MAX,           /* the first largest (a nan beats all); idx optional */
    TS_CUDA_RED_MIN,
    TS_CUDA_RED_ALL,           /* out: bool */
    TS_CUDA_RED_ANY,
    TS_CUDA_RED_VAR,           /* floating input; p is the correction; mean optional */
    TS_CUDA_RED_STD,
    TS_CUDA_RED_NORM,          /* floating input; p is the order (0, 1, 2, inf, -inf, any) */
} TsCudaRedOp;

typedef struct TsCudaRed {
    const void *in;            /* outer * red * inner contiguous elements of dtype */
    int dtype;
    int64_t outer, red, inner;
    void *out;                 /* outer * inner results, of ts_cuda_red_out_dtype's dtype */
    int64_t *idx;              /* max, min: the positions along red, or NULL */
    void *mean;                /* var, std: the means (input dtype), or NULL */
    double p;
} TsCudaRed;

/* The dtype op's kernel writes for an input of dtype. */
int ts_cuda_red_out_dtype(TsCudaRedOp op, int dtype);
/* Runs the reduction on the calling thread's stream (the device already current). An empty
 * red gives each op's identity (sum 0, prod 1, all true, any false) or nan (mean, var). "OP
 * not implemented for 'DTYPE'" for a floating-only op on another dtype. */
int ts_cuda_launch_reduce(TsCudaRedOp op, const TsCudaRed *r, TsError *err);

#ifdef __cplusplus
}
#endif
#endif
