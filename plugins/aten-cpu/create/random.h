/* random.h — aten-cpu's random fills (random.c), drawn from the process's generator
 * (tscript/random.h): the rand/randn/randint factories and their _like forms, and dropout's
 * mask (training dropout, the RNN layers' inter-layer dropout).
 */
#ifndef TS_ATEN_CPU_RANDOM_H
#define TS_ATEN_CPU_RANDOM_H

#include <stdint.h>

#include "tscript/aten.h"

/* Dropout of n contiguous elements of a float32 or float64 buffer: each is kept with
 * probability 1 - p and scaled by 1 / (1 - p), else zeroed (p == 1 zeroes all). */
void ts_cpu_dropout_data(int dtype, void *data, int64_t n, double p);

/* Checks the draw against t's dtype and its own bounds (PyTorch's messages), then fills t
 * (any strides). */
int ts_cpu_random_fill(TsError *err, TsTensor *t, const TsAtenDraw *d);

#endif
