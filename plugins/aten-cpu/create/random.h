/* random.h — aten-cpu's random numbers (random.c): one process-wide generator that the
 * stochastic ops share (dropout in training, the RNN layers' inter-layer dropout, bernoulli_,
 * uniform_, normal_, randperm, the rand/randn/randint factories and their _like forms),
 * and its seeding by aten::manual_seed.
 */
#ifndef TS_ATEN_CPU_RANDOM_H
#define TS_ATEN_CPU_RANDOM_H

#include <stddef.h>
#include <stdint.h>

#include "tscript/error.h"
#include "tscript/tensor.h"
#include "tscript/value.h"

/* 64 random bits. Safe from any thread; concurrent callers get disjoint draws. */
uint64_t ts_cpu_random_u64(void);
/* A double uniform in [0, 1) (53 random bits). */
double ts_cpu_random_unit(void);
/* Dropout of n contiguous elements of a float32 or float64 buffer: each is kept with
 * probability 1 - p and scaled by 1 / (1 - p), else zeroed (p == 1 zeroes all). */
void ts_cpu_dropout_data(int dtype, void *data, int64_t n, double p);

/* What a factory or an in-place op draws: uniform in [a, b), normal with mean a and
 * standard deviation b, or integers in [lo, hi). */
typedef enum TsCpuDrawKind { TS_DRAW_UNIFORM, TS_DRAW_NORMAL, TS_DRAW_INT } TsCpuDrawKind;
typedef struct TsCpuDraw {
    TsCpuDrawKind kind;
    double a, b;
    int64_t lo, hi;
} TsCpuDraw;

/* The draw of kind: uniform in [0, 1), standard normal, or integers in [low, high) from
 * n_bounds (1: high, low 0; 2: low, high) int arguments starting at bounds. */
TsCpuDraw ts_cpu_draw(TsCpuDrawKind kind, const TsValue *bounds, size_t n_bounds);

/* Checks the draw against t's dtype and its own bounds (PyTorch's messages), then fills t
 * (any strides). */
int ts_cpu_random_fill(TsError *err, TsTensor *t, const TsCpuDraw *d);

#endif
