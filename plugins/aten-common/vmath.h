/* vmath.h — float32 math written so that loops over it vectorize.
 *
 * libm's tanhf is a call per element that GCC cannot vectorize; in small-tensor workloads
 * (an LSTM step at batch 1) it was a tenth of the run time. ts_tanhf computes the same
 * function from plain arithmetic and bit operations only: no calls, no branches (a select
 * written as ?: around a division stays a branch under -ftrapping-math, so selects are
 * bitwise), no float-to-int conversion of an out-of-range value. Its error is at most 1.33
 * ulp over every float (checked exhaustively against double tanh when it was written;
 * glibc's tanhf is not correctly rounded either, and PyTorch's own vectorized tanh is Sleef's
 * 1-ulp one). Rounding at -0.0, +-inf and NaN follows tanhf.
 */
#ifndef TSCRIPT_CPU_VMATH_H
#define TSCRIPT_CPU_VMATH_H

#include <stdint.h>
#include <string.h>

/* For the functions whose loops should vectorize (these functions', the elementwise engine's,
 * the fusers'): GCC's -O2 leaves a loop scalar when it would need a run-time check that two
 * arrays do not overlap (an output may be an input, as in add_); this lets it add the check.
 * Clang's -O2 does so already. */
#if defined(__GNUC__) && !defined(__clang__)
#define TS_VM_VECTORIZE __attribute__((optimize("vect-cost-model=dynamic")))
#else
#define TS_VM_VECTORIZE
#endif

static inline uint32_t ts_vm_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static inline float ts_vm_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* a where m is all ones, b where it is zero */
static inline float ts_vm_pick(uint32_t m, float a, float b)
{
    return ts_vm_float((ts_vm_bits(a) & m) | (ts_vm_bits(b) & ~m));
}

/* e^r of y = n ln2 + r, n an integer as a float, |r| <= ln2/2: r taken from y exactly (ln2
 * split in two so that n ln2 is exact), e^r by a degree-6 polynomial fitted for relative
 * error. */
static inline float ts_vm_exp_reduced(float y, float n)
{
    float r = y - n * 0.693145751953125f;
    r = r - n * 1.428606765330187e-06f;
    float p = r * 0.0013752965f + 0.0083661396f;
    p = p * r + 0.041669208f;
    p = p * r + 0.16666543f;
    p = p * r + 0.49999991f;
    return (p * (r * r) + r) + 1.0f;
}

/* e^y for y in [0, 18.5]: e^r as above times 2^n, built in the exponent. */
static inline float ts_vm_exp_small(float y)
{
    float n = (y * 1.44269504088896341f + 12582912.0f) - 12582912.0f;   /* round to int */
    return ts_vm_exp_reduced(y, n) * ts_vm_float((uint32_t)((int32_t)n + 127) << 23);
}

/* e^x over every float, for loops such as softmax's: x is held to [-110, 88.8] (past either
 * end e^x rounds to 0 or overflows to inf all the same), e^r from
 * ts_vm_exp_reduced, and 2^n applied in two halves, each a normal float for every n the range
 * gives (-159 to 128), so that only the last product rounds into the subnormals or to inf.
 * n is read from the bits of the rounding sum, never converted from a float, so a NaN (which
 * passes every step as NaN) has no undefined conversion on its way. */
static inline float ts_expf(float x)
{
    float y = ts_vm_pick(-(uint32_t)(x < -110.0f), -110.0f, x);
    y = ts_vm_pick(-(uint32_t)(y > 88.8f), 88.8f, y);
    float t = y * 1.44269504088896341f + 12582912.0f;
    float p = ts_vm_exp_reduced(y, t - 12582912.0f);
    int32_t k = (int32_t)(ts_vm_bits(t) - 0x4B400000u), a = k / 2, b = k - a;
    return p * ts_vm_float((uint32_t)(a + 127) << 23) * ts_vm_float((uint32_t)(b + 127) << 23);
}

/* The logistic sigmoid 1 / (1 + e^-x) through ts_expf, so that loops over it vectorize:
 * PyTorch's own vectorized sigmoid is the same expression over Sleef's 1-ulp expf. Past
 * x = 88.8 below zero e^-x is inf and the result 0; a NaN stays NaN. aten-cpu's sigmoid and
 * the CPU fuser's both use it, so fused and unfused results stay bit for bit the same. */
static inline float ts_sigmoidf(float x)
{
    return 1.0f / (1.0f + ts_expf(-x));
}

/* tanh: an odd polynomial below 0.625, 1 - 2 / (e^2|x| + 1) above (|x| past 9.1 rounds to 1). */
static inline float ts_tanhf(float x)
{
    uint32_t sign = ts_vm_bits(x) & 0x80000000u;
    float a = ts_vm_float(ts_vm_bits(x) ^ sign);
    /* non-negative floats order as their bits do */
    uint32_t nan = -(uint32_t)(ts_vm_bits(a) > 0x7f800000u);
    a = ts_vm_pick(-(uint32_t)(ts_vm_bits(a) < ts_vm_bits(9.1f)), a, 9.1f);
    float t = a * a;
    float p = t * -0.0057980998f + 0.020720281f;
    p = p * t + -0.053763801f;
    p = p * t + 0.13331719f;
    p = p * t + -0.33333292f;
    float small = (p * t) * a + a;
    float big = 1.0f - 2.0f / (ts_vm_exp_small(2.0f * a) + 1.0f);
    float r = ts_vm_pick(-(uint32_t)(ts_vm_bits(a) < ts_vm_bits(0.625f)), small, big);
    return ts_vm_pick(nan, x, ts_vm_float(ts_vm_bits(r) | sign));
}

#endif
