/* half.c — float16 and bfloat16 to and from float32, bit by bit, the same on every device:
 * round-to-nearest-even, infinities and quiet nans kept, subnormal halves exact.
 */
#include <math.h>
#include <string.h>

#include "tscript/aten.h"

float ts_aten_half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
    uint32_t bits;
    if (exp == 0) {
        float f = ldexpf((float)mant, -24);
        return sign ? -f : f;
    }
    if (exp == 31)
        bits = sign | 0x7f800000u | (mant << 13);
    else
        bits = sign | ((exp + 112u) << 23) | (mant << 13);
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

uint16_t ts_aten_float_to_half(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    x &= 0x7fffffffu;
    if (x >= 0x7f800000u)                       /* inf, nan (kept quiet) */
        return sign | 0x7c00u | (x > 0x7f800000u ? 0x200u : 0);
    if (x >= 0x477ff000u)                       /* rounds past 65504 */
        return sign | 0x7c00u;
    if (x < 0x38800000u)                        /* below 2^-14: a subnormal half */
        return sign | (uint16_t)nearbyintf(fabsf(f) * 16777216.0f);
    uint32_t mant = x & 0x7fffffu, exp = (x >> 23) - 112u;
    uint32_t h = (exp << 10) | (mant >> 13), rest = mant & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u)))
        h++;
    return sign | (uint16_t)h;
}

float ts_aten_bf16_to_float(uint16_t b)
{
    uint32_t bits = (uint32_t)b << 16;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

uint16_t ts_aten_float_to_bf16(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    if (isnan(f))
        return (uint16_t)((x >> 16) | 0x40u);
    x += 0x7fffu + ((x >> 16) & 1u);
    return (uint16_t)(x >> 16);
}
