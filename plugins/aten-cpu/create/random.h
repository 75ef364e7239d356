/* random.h — aten-cpu's part of the random ops (random.c): the random hooks of its
 * TsAtenBackend (cpu.c sets them; aten-common's shared random ops and ts_aten_random_fill
 * fill through them), and dropout's mask (training dropout, the RNN layers' inter-layer
 * dropout). Both draw from the process's generator (tscript/random.h).
 */
#ifndef TS_ATEN_CPU_RANDOM_H
#define TS_ATEN_CPU_RANDOM_H

#include <stdint.h>

#include "tscript/aten.h"

/* Dropout of n contiguous elements of a float32 or float64 buffer: each is kept with
 * probability 1 - p and scaled by 1 / (1 - p), else zeroed (p == 1 zeroes all). */
void ts_cpu_dropout_data(int dtype, void *data, int64_t n, double p);
/* The dropout forms' noise over n contiguous elements (float dtypes): each run of group
 * elements (a channel of the feature forms, else one element) kept with probability 1 - p,
 * from one bernoulli draw of PyTorch's generator, and scaled by 1 / (1 - p); alpha: alpha
 * dropout's affine form instead (kept elements scaled, dropped ones set to its constant). */
void ts_cpu_noise_dropout(int dtype, void *data, int64_t n, int64_t group, double p,
                          bool alpha);

/* The random hooks (TsAtenBackend documents them). */
TsTensor *ts_cpu_random_empty(TsDevice device, int dtype, int dim, const int64_t *sizes,
                              TsError *err);
int ts_cpu_random_copy_into(TsTensor *dst, const TsTensor *src, TsError *err);
int ts_cpu_random_draw(TsTensor *t, const TsAtenDraw *d, uint64_t base, const double *p,
                       TsError *err);
int ts_cpu_random_outside_unit(const TsTensor *q, bool *bad, TsError *err);

#endif
