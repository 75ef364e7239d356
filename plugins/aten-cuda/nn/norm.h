/* norm.h — the contract between aten-cuda's softmax and normalization operators (softmax.c,
 * norm.c, host C) and their kernels (softmax_kernels.cu, norm_kernels.cu).
 *
 * Inputs reach the kernels contiguous. softmax works along the middle axis of outer × n ×
 * inner. The normalizations take statistics per "row" (a channel across the batch, the
 * trailing normalized_shape, a group of channels of one image) and then normalize every
 * element with its row's statistics and its channel's weight and bias: the two launches
 * differ between the ops only in how an element maps to its row and its channel.
 * Statistics, weights and biases are float32 (float64 for a float64 input): "the stats
 * dtype".
 */
#ifndef TS_ATEN_CUDA_NORM_H
#define TS_ATEN_CUDA_NORM_H

#include "engine/cuda.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out = softmax (or log_softmax when log) of in along n; both contiguous, of the same
 * floating dtype. */
int ts_cuda_launch_softmax(const void *in, void *out, int dtype, int64_t outer, int64_t n,
                           int64_t inner, bool log, TsError *err);

/* Row statistics: row s (of rows) has count elements; element k of it is at
 * (k / kin) * kstride + s * sstride + k % kin of in. mean[s] and var[s] (biased) are in the
 * stats dtype. */
typedef struct TsCudaStats {
    const void *in;
    int dtype;
    int64_t rows, count, kin, kstride, sstride;
    void *mean, *var;
} TsCudaStats;
int ts_cuda_launch_row_stats(const TsCudaStats *s, TsError *err);

/* out[e] = (in[e] - mean[r]) / sqrt(var[r] + eps) * weight[c] + bias[c] over numel
 * elements, r = (e / rdiv) % rmod, c = (e / cdiv) % cmod; weight and bias (stats dtype) may
 * be NULL (1 and 0). */
typedef struct TsCudaNormApply {
    const void *in;
    void *out;
    int dtype;
    int64_t numel, rdiv, rmod, cdiv, cmod;
    const void *mean, *var, *weight, *bias;
    double eps;
} TsCudaNormApply;
int ts_cuda_launch_norm_apply(const TsCudaNormApply *a, TsError *err);

/* Training batch_norm's running statistics, in place: r = (1 - momentum) * r + momentum *
 * batch, the variance made unbiased by count / (count - 1). running_* are n elements of
 * their dtype with a stride (either may be NULL); mean and var are in the stats dtype
 * stats_dtype. */
int ts_cuda_launch_running_stats(void *running_mean, int rm_dtype, int64_t rm_stride,
                                 void *running_var, int rv_dtype, int64_t rv_stride,
                                 const void *mean, const void *var, int stats_dtype, int64_t n,
                                 int64_t count, double momentum, TsError *err);

#ifdef __cplusplus
}
#endif
#endif
