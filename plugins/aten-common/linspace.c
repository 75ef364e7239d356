/* linspace.c — linspace's values (and arange's floating ones, at the end), which every backend
 * computes on the host the same way (aten-cpu's create.c, aten-cuda's factory.c, which copies
 * them over): as PyTorch's kernel
 * does, the first half steps up from start and the second half down from end, so both ends
 * are exact, in float32 for the dtypes PyTorch computes so (float32, float16, bfloat16) and
 * in float64 otherwise.
 *
 * To the bit, as PyTorch 1.13's AVX2 kernel (the one Debian's build runs on x86-64): the
 * values go in blocks of two vectors (8 floats or 4 doubles each) from the start, each
 * vector's first value from the half its first index is in and the rest of the vector
 * stepping up from that one; the tail that does not fill two vectors one value at a time;
 * every multiply-add fused, as GCC compiles them there. The fused rounding shows: the middle
 * of torch.linspace(-1, 1, 7) is -2.9802e-08, not 0.
 */
#include <math.h>
#include <stdlib.h>

#include "tscript/aten.h"

/* (The products in a vector are rounded before they are added: that part of PyTorch's kernel
 * is not fused. This file must be built without contraction into FMA, as it is: no -mfma.) */
static void lin_float(float s, float e, int64_t steps, float *o)
{
    enum { V = 8 };
    float step = (e - s) / (float)(steps - 1);
    int64_t half = steps / 2, i = 0;
    for (; i + 2 * V <= steps; i += 2 * V)
        for (int64_t at = i; at < i + 2 * V; at += V) {
            float base = at < half ? fmaf(step, (float)at, s)
                                   : fmaf(-step, (float)(steps - at - 1), e);
            for (int j = 0; j < V; j++)
                o[at + j] = base + (float)j * step;
        }
    for (; i < steps; i++)
        o[i] = i < half ? fmaf(step, (float)i, s) : fmaf(-step, (float)(steps - i - 1), e);
}

static void lin_double(double s, double e, int64_t steps, double *o)
{
    enum { V = 4 };
    double step = (e - s) / (double)(steps - 1);
    int64_t half = steps / 2, i = 0;
    for (; i + 2 * V <= steps; i += 2 * V)
        for (int64_t at = i; at < i + 2 * V; at += V) {
            double base = at < half ? fma(step, (double)at, s)
                                    : fma(-step, (double)(steps - at - 1), e);
            for (int j = 0; j < V; j++)
                o[at + j] = base + (double)j * step;
        }
    for (; i < steps; i++)
        o[i] = i < half ? fma(step, (double)i, s) : fma(-step, (double)(steps - i - 1), e);
}

void ts_aten_linspace(double start, double end, int64_t steps, bool as_float, void *out)
{
    if (steps <= 0)
        return;
    if (steps == 1) {          /* PyTorch fills start */
        if (as_float)
            *(float *)out = (float)start;
        else
            *(double *)out = start;
        return;
    }
    if (as_float)
        lin_float((float)start, (float)end, steps, out);
    else
        lin_double(start, end, steps, out);
}

/* ---- float16 and bfloat16: every operation rounded to the type --------------------------- */
typedef float (*Round)(float);

static float round_half(float x) { return ts_aten_half_to_float(ts_aten_float_to_half(x)); }
static float round_bf16(float x) { return ts_aten_bf16_to_float(ts_aten_float_to_bf16(x)); }

/* start + step * k, or end - step * k: each product and sum in the type */
static float lin16_at(Round r, float s, float e, float step, int64_t steps, int64_t half,
                      int64_t k)
{
    return k < half ? r(s + r(step * r((float)k)))
                    : r(e - r(step * r((float)(steps - k - 1))));
}

static void lin_16(Round r, float s, float e, int64_t steps, float *o)
{
    enum { V = 16 };           /* 16 two-byte values a vector */
    s = r(s);
    e = r(e);
    float step = r(r(e - s) / r((float)(steps - 1)));
    int64_t half = steps / 2, i = 0;
    for (; i + 2 * V <= steps; i += 2 * V)
        for (int64_t at = i; at < i + 2 * V; at += V) {
            float base = lin16_at(r, s, e, step, steps, half, at);
            for (int j = 0; j < V; j++)
                o[at + j] = r(base + r(r((float)j) * step));
        }
    for (; i < steps; i++)
        o[i] = lin16_at(r, s, e, step, steps, half, i);
}

/* ---- integers: a double step from integer bounds, each value truncated -------------------- */
static void lin_int(int64_t s, int64_t e, int64_t steps, int lanes, int64_t *o)
{
    double step = ((double)e - (double)s) / (double)(steps - 1);
    int64_t half = steps / 2, i = 0;
    for (; i + 2 * lanes <= steps; i += 2 * lanes)
        for (int64_t at = i; at < i + 2 * lanes; at += lanes) {
            int64_t base = (int64_t)(at < half ? fma(step, (double)at, (double)s)
                                               : fma(-step, (double)(steps - at - 1), (double)e));
            for (int j = 0; j < lanes; j++)
                o[at + j] = (int64_t)((double)base + (double)j * step);
        }
    for (; i < steps; i++)
        o[i] = (int64_t)(i < half ? fma(step, (double)i, (double)s)
                                  : fma(-step, (double)(steps - i - 1), (double)e));
}

static void store_int(int dtype, int64_t v, void *out, int64_t i)
{
    switch (dtype) {
    case TS_UINT8: ((uint8_t *)out)[i] = (uint8_t)v; break;
    case TS_INT8: ((int8_t *)out)[i] = (int8_t)v; break;
    case TS_INT16: ((int16_t *)out)[i] = (int16_t)v; break;
    case TS_INT32: ((int32_t *)out)[i] = (int32_t)v; break;
    default: ((int64_t *)out)[i] = v; break;
    }
}

int ts_aten_linspace_typed(double start, double end, int64_t steps, int dtype, void *out)
{
    bool half = dtype == TS_FLOAT16 || dtype == TS_BFLOAT16;
    bool integral = dtype == TS_UINT8 || dtype == TS_INT8 || dtype == TS_INT16 ||
                    dtype == TS_INT32 || dtype == TS_INT64;
    if (dtype == TS_FLOAT32 || dtype == TS_FLOAT64) {
        ts_aten_linspace(start, end, steps, dtype == TS_FLOAT32, out);
        return 0;
    }
    if (!half && !integral)
        return 1;
    if (steps <= 0)
        return 0;
    /* the values first as floats (two-byte types) or int64s, then stored as the type */
    void *tmp = malloc((size_t)steps * (half ? sizeof(float) : sizeof(int64_t)));
    if (!tmp)
        return -1;
    if (half) {
        Round r = dtype == TS_FLOAT16 ? round_half : round_bf16;
        float *f = tmp;
        if (steps == 1)
            f[0] = r((float)start);
        else
            lin_16(r, (float)start, (float)end, steps, f);
        uint16_t *o = out;
        for (int64_t k = 0; k < steps; k++)
            o[k] = dtype == TS_FLOAT16 ? ts_aten_float_to_half(f[k]) : ts_aten_float_to_bf16(f[k]);
    } else {
        int64_t *v = tmp;
        if (steps == 1)
            v[0] = (int64_t)start;
        else            /* a 256-bit vector of the type */
            lin_int((int64_t)start, (int64_t)end, steps, (int)(32 / ts_dtype_size(dtype)), v);
        for (int64_t k = 0; k < steps; k++)
            store_int(dtype, v[k], out, k);
    }
    free(tmp);
    return 0;
}

/* ---- arange's floating values ------------------------------------------------------------ */
/* PyTorch's arange kernel accumulates in the dtype's accumulation type (double for float32
 * and float64, float for float16 and bfloat16): the same walk as linspace's (blocks of two
 * 256-bit vectors, each vector's first value start + step * index fused, the others that
 * first value plus j * step, not fused; the tail one at a time, fused), from start alone. */
int ts_aten_arange_typed(double start, double step, int64_t n, int dtype, void *out)
{
    if (dtype == TS_FLOAT32 || dtype == TS_FLOAT64) {
        int V = dtype == TS_FLOAT32 ? 8 : 4;
        float *of = out;
        double *od = out;
        for (int64_t k = 0; k < n; k++) {
            int64_t in_block = n - n % (2 * V) > k ? k % V : -1;   /* lane, or -1: the tail */
            double v = in_block <= 0 ? fma(step, (double)k, start) : 0;
            if (in_block > 0) {
                double base = fma(step, (double)(k - in_block), start);
                if (dtype == TS_FLOAT32)
                    base = (float)base;
                v = dtype == TS_FLOAT32 ? base + (double)in_block * step
                                        : fma((double)in_block, step, base);
            }
            if (dtype == TS_FLOAT32)
                of[k] = (float)v;
            else
                od[k] = v;
        }
        return 0;
    }
    if (dtype == TS_FLOAT16 || dtype == TS_BFLOAT16) {
        enum { V = 16 };
        Round r = dtype == TS_FLOAT16 ? round_half : round_bf16;
        float s = (float)start, st = (float)step;
        uint16_t *o = out;
        for (int64_t k = 0; k < n; k++) {
            int64_t lane = n - n % (2 * V) > k ? k % V : -1;
            float v = r(fmaf(st, (float)(lane < 0 ? k : k - lane), s));
            if (lane > 0)
                v = r(v + (float)lane * st);
            o[k] = dtype == TS_FLOAT16 ? ts_aten_float_to_half(v) : ts_aten_float_to_bf16(v);
        }
        return 0;
    }
    return 1;
}
