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

/* e^y for y in [0, 18.5]: y = n ln2 + r with |r| <= ln2/2 (ln2 split in two so that n ln2 is
 * exact), e^r by a degree-6 polynomial fitted for relative error, 2^n built in the exponent. */
static inline float ts_vm_exp_small(float y)
{
    float n = (y * 1.44269504088896341f + 12582912.0f) - 12582912.0f;   /* round to int */
    float r = y - n * 0.693145751953125f;
    r = r - n * 1.428606765330187e-06f;
    float p = r * 0.0013752965f + 0.0083661396f;
    p = p * r + 0.041669208f;
    p = p * r + 0.16666543f;
    p = p * r + 0.49999991f;
    p = (p * (r * r) + r) + 1.0f;
    return p * ts_vm_float((uint32_t)((int32_t)n + 127) << 23);
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
