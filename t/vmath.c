/* vmath.c — the vectorizable float32 tanh, exp and sigmoid of plugins/aten-common/vmath.h
 * against double tanh, exp and 1 / (1 + exp(-x)).
 *
 * Every 997th float (about 4.3 million, spread over every exponent) is within 1.5 ulp of the
 * double result (exp: 1 ulp, where the result is a normal float; a subnormal result within
 * one subnormal step), and the special values come out as tanhf and expf give them.
 */
#include <float.h>
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

    double worst_sub = 0;
    worst = 0;
    for (uint64_t b = 0; b < 0x100000000ull; b += 997) {
        float x = from_bits((uint32_t)b);
        if (isnan(x))
            continue;
        double exact = exp((double)x);
        float want = (float)exact, got_x = ts_expf(x);
        if (isinf(want) || want >= FLT_MIN) {
            double e = isinf(want) ? (got_x == want ? 0 : INFINITY)
                                   : fabs((double)got_x - exact) / ulp_of(want);
            if (e > worst) {
                worst = e;
                worst_x = x;
            }
        } else {
            double e = fabs((double)got_x - exact) / (double)from_bits(1);
            worst_sub = e > worst_sub ? e : worst_sub;
        }
    }
    ok(worst <= 1.0, "exp is within 1 ulp of the exact value (worst %.3f ulp at %a)", worst,
       (double)worst_x);
    ok(worst_sub <= 1.0, "a subnormal exp is within one step of the exact value (%.3f)",
       worst_sub);
    r = ts_expf(nan);
    ok(isnan(r), "exp of NaN is NaN");
    ok(ts_expf(-INFINITY) == 0.0f && ts_expf(INFINITY) == INFINITY && ts_expf(-200.0f) == 0.0f &&
       ts_expf(100.0f) == INFINITY, "exp of +-inf and far values is 0 or inf");
    ok(ts_expf(0.0f) == 1.0f && ts_expf(-0.0f) == 1.0f && ts_expf(1.0f) == (float)exp(1.0),
       "exp(0) is 1 and exp(1) rounds as e does");
    ok(ts_expf(88.72f) < INFINITY && ts_expf(88.73f) == INFINITY,
       "exp overflows where float exp does");

    /* sigmoid: 1 / (1 + e^-x) over ts_expf, three roundings after it (PyTorch's over
     * Sleef's expf is the same expression) */
    worst = 0;
    for (uint64_t b = 0; b < 0x100000000ull; b += 997) {
        float x = from_bits((uint32_t)b);
        if (isnan(x))
            continue;
        double exact = 1 / (1 + exp(-(double)x));
        float want = (float)exact;
        if (want < FLT_MIN)
            continue;          /* below -87: the subnormal tail, where the float expression
                                  gives 0 once e^-x overflows (so does expf's) */
        double e = fabs((double)ts_sigmoidf(x) - exact) / ulp_of(want);
        if (e > worst) {
            worst = e;
            worst_x = x;
        }
    }
    ok(worst <= 2.5, "sigmoid is within 2.5 ulp of the exact value (worst %.3f ulp at %a)",
       worst, (double)worst_x);
    r = ts_sigmoidf(nan);
    ok(isnan(r), "sigmoid of NaN is NaN");
    ok(ts_sigmoidf(INFINITY) == 1.0f && ts_sigmoidf(-INFINITY) == 0.0f &&
       ts_sigmoidf(100.0f) == 1.0f && ts_sigmoidf(-100.0f) == 0.0f &&
       ts_sigmoidf(-87.0f) > 0.0f && ts_sigmoidf(-89.0f) == 0.0f,
       "sigmoid of +-inf and far values is 1 or 0 (0 where e^-x overflows, as with expf)");
    ok(ts_sigmoidf(0.0f) == 0.5f && ts_sigmoidf(-0.0f) == 0.5f, "sigmoid(0) is 0.5");
    return done_testing();
}
