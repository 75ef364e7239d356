/* random.h — aten-cuda's random hooks (random.c; plugin.c gives them to aten-common's shared
 * random ops), and the contract between them and their kernels (random_kernels.cu): the host
 * checks the arguments and reserves the draws, the GPU computes every element from its own
 * draws.
 */
#ifndef TS_ATEN_CUDA_RANDOM_H
#define TS_ATEN_CUDA_RANDOM_H

#include "engine/cuda.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The random hooks (TsAtenBackend documents them) beside ts_cuda_empty_on and
 * ts_cuda_copy_into. */
int ts_cuda_random_draw(TsTensor *t, const TsAtenDraw *d, uint64_t base, const double *p,
                        TsError *err);
int ts_cuda_random_outside_unit(const TsTensor *q, bool *bad, TsError *err);

/* Writes the n elements of a fill with d from the draws reserved at base into out
 * (contiguous, of dtype), each computed as aten-cpu computes it (ts_aten_draw_value); p, when
 * not NULL, is a bernoulli draw's probabilities (n contiguous doubles on the device). */
int ts_cuda_launch_draw(const TsAtenDraw *d, uint64_t base, const double *p, int dtype,
                        void *out, int64_t n, TsError *err);
/* Sets *bad when one of the n contiguous doubles at p (on the device) is outside [0, 1];
 * waits for the stream. */
int ts_cuda_launch_check_probabilities(const double *p, int64_t n, bool *bad, TsError *err);

#ifdef __cplusplus
}
#endif
#endif
