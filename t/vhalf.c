/* vhalf.c — the vectorizable float16 and bfloat16 converters of plugins/aten-common/vhalf.h
 * against half.c's one-element ones (ts_aten_*), which define the rounding.
 *
 * Every float16 and bfloat16 value converts to float32 as half.c converts it (all 65536 of
 * each); every 61st float32 (about 70 million, every exponent), and the floats around each
 * rounding boundary of both half types, round to the same bits; the run converters give
 * the element converters' results over contiguous and strided runs with odd lengths.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "tap.h"
#include "tscript/aten.h"
#include "../plugins/aten-common/vhalf.h"

static uint32_t bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static float from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* 0, or the first float whose rounding differs, reported */
static int check_float(uint32_t u, int *bad_bf, int *bad_h)
{
    float f = from_bits(u);
    if (!*bad_bf && ts_vh_float_to_bf16(f) != ts_aten_float_to_bf16(f)) {
        diag("bfloat16 of %a (0x%08x): 0x%04x, half.c 0x%04x", (double)f, u,
             ts_vh_float_to_bf16(f), ts_aten_float_to_bf16(f));
        *bad_bf = 1;
    }
    if (!*bad_h && ts_vh_float_to_half(f) != ts_aten_float_to_half(f)) {
        diag("float16 of %a (0x%08x): 0x%04x, half.c 0x%04x", (double)f, u,
             ts_vh_float_to_half(f), ts_aten_float_to_half(f));
        *bad_h = 1;
    }
    return *bad_bf || *bad_h;
}

int main(void)
{
    int bad_bf = 0, bad_h = 0;
    for (uint32_t h = 0; h < 65536; h++) {
        if (!bad_bf && bits(ts_vh_bf16_to_float((uint16_t)h)) !=
                           bits(ts_aten_bf16_to_float((uint16_t)h)))
            bad_bf = 1;
        if (!bad_h && bits(ts_vh_half_to_float((uint16_t)h)) !=
                          bits(ts_aten_half_to_float((uint16_t)h))) {
            diag("float16 0x%04x: %a, half.c %a", h, (double)ts_vh_half_to_float((uint16_t)h),
                 (double)ts_aten_half_to_float((uint16_t)h));
            bad_h = 1;
        }
    }
    ok(!bad_bf, "every bfloat16 widens as half.c widens it");
    ok(!bad_h, "every float16 widens as half.c widens it (subnormals, inf, nan included)");

    bad_bf = bad_h = 0;
    for (uint64_t u = 0; u < 0x100000000ull && !(bad_bf && bad_h); u += 61)
        check_float((uint32_t)u, &bad_bf, &bad_h);
    /* the boundaries: each half value's float, and the floats just around its midpoints */
    for (uint32_t h = 0; h < 65536 && !(bad_bf && bad_h); h++) {
        uint32_t fb = bits(ts_aten_bf16_to_float((uint16_t)h)) | 0x8000u,
                 fh = bits(ts_aten_half_to_float((uint16_t)h));
        for (int d = -2; d <= 2; d++) {
            check_float(fb + (uint32_t)d, &bad_bf, &bad_h);
            check_float(fh + (uint32_t)d, &bad_bf, &bad_h);
            check_float(fh + 0x1000u + (uint32_t)d, &bad_bf, &bad_h);
        }
    }
    ok(!bad_bf, "floats round to bfloat16 as half.c rounds them");
    ok(!bad_h, "floats round to float16 as half.c rounds them (overflow, subnormals, nan)");

    float src[67], back[67 * 3];
    uint16_t mid[67 * 2];
    for (int i = 0; i < 67; i++)
        src[i] = (float)(i - 33) * 0.37f + (i == 5 ? NAN : 0) + (i == 6 ? INFINITY : 0);
    int same = 1;
    ts_vh_store_bf16(mid, 2, src, 1, 67);
    ts_vh_load_bf16(back, 3, mid, 2, 67);
    for (int i = 0; i < 67; i++)
        same = same &&
               bits(back[3 * i]) == bits(ts_aten_bf16_to_float(ts_aten_float_to_bf16(src[i])));
    ts_vh_store_half(mid, 1, src, 1, 67);
    ts_vh_load_half(back, 1, mid, 1, 67);
    for (int i = 0; i < 67; i++)
        same = same &&
               bits(back[i]) == bits(ts_aten_half_to_float(ts_aten_float_to_half(src[i])));
    ok(same, "the run converters, contiguous and strided, give the element converters' bits");
    return done_testing();
}
