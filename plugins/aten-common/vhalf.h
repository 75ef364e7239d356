/* vhalf.h — float16 and bfloat16 to and from float32 over runs of elements, written so that
 * the loops vectorize.
 *
 * half.c's ts_aten_* converters take one element and branch on its class; a kernel that
 * loads a bfloat16 tensor through them (or through a double) spends more time converting
 * than computing. These compute the same bits with plain integer and float arithmetic and
 * bitwise selects (no branches, no calls), so the compiler turns a run into vector code:
 * round-to-nearest-even, infinities kept, NaNs kept quiet (bfloat16: the float's top half
 * with the quiet bit set; float16: 0x7e00 with the sign), subnormal halves exact. The
 * results equal half.c's for every input (t/vhalf.c checks all of them one way, a spread
 * of floats the other).
 *
 * Shared by aten-cpu's kernels (the elementwise engine's staging, casts, the GEMM's
 * operands); header-only like vmath.h.
 */
#ifndef TSCRIPT_CPU_VHALF_H
#define TSCRIPT_CPU_VHALF_H

#include <stdbool.h>
#include <stdint.h>

#include "vmath.h"

/* all ones where c holds */
static inline uint32_t ts_vh_mask(int c)
{
    return -(uint32_t)(c != 0);
}

static inline float ts_vh_bf16_to_float(uint16_t b)
{
    return ts_vm_float((uint32_t)b << 16);
}

static inline uint16_t ts_vh_float_to_bf16(float f)
{
    uint32_t x = ts_vm_bits(f);
    uint32_t rounded = (x + 0x7fffu + ((x >> 16) & 1u)) >> 16;
    uint32_t nan = ts_vh_mask((x & 0x7fffffffu) > 0x7f800000u);
    return (uint16_t)((rounded & ~nan) | (((x >> 16) | 0x40u) & nan));
}

/* The exponent moved from 5 bits to 8: inf and nan move again to 255, zero and subnormal
 * halves go through a float subtraction that normalizes them exactly. */
static inline float ts_vh_half_to_float(uint16_t h)
{
    uint32_t o = (uint32_t)(h & 0x7fffu) << 13, exp = o & 0x0f800000u;
    o += (127u - 15u) << 23;
    uint32_t special = o + ((128u - 16u) << 23);
    uint32_t sub = ts_vm_bits(ts_vm_float(o + (1u << 23)) - ts_vm_float(113u << 23));
    o = (o & ~ts_vh_mask(exp == 0x0f800000u)) | (special & ts_vh_mask(exp == 0x0f800000u));
    o = (o & ~ts_vh_mask(exp == 0)) | (sub & ts_vh_mask(exp == 0));
    return ts_vm_float(o | (uint32_t)(h & 0x8000u) << 16);
}

/* Normal results round by adding half an ulp (and the odd bit) to the rebased bits;
 * subnormal ones by a float addition that leaves the result's bits at the bottom; past
 * 65504 (after rounding) inf; nan 0x7e00. */
static inline uint16_t ts_vh_float_to_half(float f)
{
    uint32_t x = ts_vm_bits(f), sign = x & 0x80000000u;
    x ^= sign;
    const uint32_t magic = ((127u - 15u) + (23u - 10u) + 1u) << 23;
    uint32_t sub = ts_vm_bits(ts_vm_float(x) + ts_vm_float(magic)) - magic;
    uint32_t norm = (x + (uint32_t)((15 - 127) * (1 << 23)) + 0xfffu + ((x >> 13) & 1u)) >> 13;
    uint32_t big = 0x7c00u | (0x200u & ts_vh_mask(x > 0x7f800000u));
    uint32_t is_sub = ts_vh_mask(x < (113u << 23)), is_big = ts_vh_mask(x >= (143u << 23));
    uint32_t o = (norm & ~is_sub) | (sub & is_sub);
    o = (o & ~is_big) | (big & is_big);
    return (uint16_t)(o | sign >> 16);
}

/* The run converters are compiled for baseline x86-64 and for AVX2 and AVX-512 machines
 * too, picked at load time (GCC's target_clones: an ifunc): baseline SSE2 rounds a float to
 * bfloat16 at a third of AVX-512's speed. Not under ThreadSanitizer, whose runtime is not
 * up yet when the dynamic loader runs an executable's ifunc resolvers (they crash it). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__ELF__) && \
    !defined(__SANITIZE_THREAD__)
#define TS_VH_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define TS_VH_CLONES
#endif

/* n elements from src (sstride elements apart) to dst (dstride apart); the contiguous case
 * is a plain loop over indices. */
#define TS_VH_RUN(NAME, FROM, TO, FN) \
    TS_VM_VECTORIZE TS_VH_CLONES __attribute__((unused)) \
    static void NAME(TO *dst, int64_t dstride, const FROM *src, int64_t sstride, int64_t n) \
    { \
        if (dstride == 1 && sstride == 1) { \
            for (int64_t i = 0; i < n; i++) \
                dst[i] = FN(src[i]); \
            return; \
        } \
        for (int64_t i = 0; i < n; i++) \
            dst[i * dstride] = FN(src[i * sstride]); \
    }
TS_VH_RUN(ts_vh_load_bf16, uint16_t, float, ts_vh_bf16_to_float)
TS_VH_RUN(ts_vh_store_bf16, float, uint16_t, ts_vh_float_to_bf16)
TS_VH_RUN(ts_vh_load_half, uint16_t, float, ts_vh_half_to_float)
TS_VH_RUN(ts_vh_store_half, float, uint16_t, ts_vh_float_to_half)
#undef TS_VH_RUN

/* The runs of either half type: bfloat16 where bf16 holds, else float16. */
static inline void ts_vh_widen(bool bf16, float *dst, int64_t dstride, const uint16_t *src,
                               int64_t sstride, int64_t n)
{
    if (bf16)
        ts_vh_load_bf16(dst, dstride, src, sstride, n);
    else
        ts_vh_load_half(dst, dstride, src, sstride, n);
}

static inline void ts_vh_narrow(bool bf16, uint16_t *dst, int64_t dstride, const float *src,
                                int64_t sstride, int64_t n)
{
    if (bf16)
        ts_vh_store_bf16(dst, dstride, src, sstride, n);
    else
        ts_vh_store_half(dst, dstride, src, sstride, n);
}

#endif
