/* vmath.c — the vectorizable float32 tanh of plugins/aten-common/vmath.h against double tanh.
 *
 * Every 997th float (about 4.3 million, spread over every exponent) is within 1.5 ulp of the
 * double result rounded to float, and the special values come out as tanhf gives them.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "tap.h"
#include "../plugins/aten-common/vmath.h"

static double ulp_of(float v)
{
    float a = fabsf(v);
    return (double)nextafterf(a, INFINITY) - a;
}

static float from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

int main(void)
{
    double worst = 0;
    float worst_x = 0;
    for (uint64_t b = 0; b < 0x100000000ull; b += 997) {
        float x = from_bits((uint32_t)b);
        if (isnan(x))
            continue;
        float want = (float)tanh((double)x);
        double e = fabs((double)ts_tanhf(x) - tanh((double)x)) / ulp_of(want);
        if (e > worst) {
            worst = e;
            worst_x = x;
        }
    }
    ok(worst <= 1.5, "tanh is within 1.5 ulp of the exact value (worst %.3f ulp at %a)", worst,
       (double)worst_x);

    float nan = from_bits(0x7fc00001u);
    uint32_t got;
    float r = ts_tanhf(nan);
    memcpy(&got, &r, sizeof got);
    ok(got == 0x7fc00001u, "NaN comes back as it went in");
    ok(ts_tanhf(INFINITY) == 1.0f && ts_tanhf(-INFINITY) == -1.0f, "+-inf give +-1");
    r = ts_tanhf(-0.0f);
    ok(r == 0.0f && signbit(r), "-0.0 keeps its sign");
    ok(ts_tanhf(9.0f) < 1.0f && ts_tanhf(9.2f) == 1.0f && ts_tanhf(-30.0f) == -1.0f,
       "saturates where float tanh does");
    ok(ts_tanhf(1e-30f) == 1e-30f && ts_tanhf(from_bits(1)) == from_bits(1),
       "tiny and subnormal inputs are their own tanh");
    ok(ts_tanhf(0.5f) == (float)tanh(0.5) && ts_tanhf(-2.0f) == (float)tanh(-2.0),
       "ordinary values round as the exact ones do");
    return done_testing();
}
