/* special_math.c — torch.special's scalar functions in double (special_math.h).
 *
 * Written from the textbook methods PyTorch's Cephes-derived kernels rest on, giving the same
 * values to about 1e-15 relative: the gamma family by recurrence to large arguments and the
 * asymptotic series; Hurwitz zeta by Euler-Maclaurin summation; the incomplete gamma ratios
 * by the power series below a + 1 and the continued fraction above; the normal quantile by a
 * rational first guess polished by Newton's steps on erfc. The Bessel functions are in
 * bessel.c.
 */
#include <math.h>
#include <stdint.h>

#include "pointwise/special_math.h"

#define PI 3.14159265358979323846

/* B_2k / (2k)! for k = 1..12: Euler-Maclaurin's coefficients */
static const double b2k_fact[12] = {
    1.0 / 12, -1.0 / 720, 1.0 / 30240, -1.0 / 1209600, 1.0 / 47900160,
    -691.0 / 1307674368000.0, 1.0 / 74724249600.0, -3617.0 / 10670622842880000.0,
    43867.0 / 5109094217170944000.0, -174611.0 / 802857662698291200000.0,
    77683.0 / 14101100039391805440000.0, -236364091.0 / 1693824136731743669452800000.0,
};

double ts_sp_digamma(double x)
{
    if (x == 0)
        return copysign(INFINITY, -x);
    if (x < 0) {
        if (x == floor(x))
            return NAN;
        /* reflection: psi(1 - x) - pi / tan(pi x) */
        double r = fmod(x, 1.0);
        return ts_sp_digamma(1 - x) - PI / tan(PI * r);
    }
    double acc = 0;
    while (x < 10) {
        acc -= 1 / x;
        x += 1;
    }
    double x2 = 1 / (x * x), s = 0, p = x2;
    for (int k = 0; k < 8; k++) {    /* sum B_2k / (2k x^2k) */
        double b2k = b2k_fact[k];
        for (int j = 2; j <= 2 * (k + 1); j++)
            b2k *= j;
        s += b2k / (2 * (k + 1)) * p;
        p *= x2;
    }
    return acc + log(x) - 0.5 / x - s;
}

double ts_sp_zeta(double s, double q)
{
    if (s == 1)
        return INFINITY;
    if (s < 1)
        return NAN;
    if (q <= 0) {
        if (q == floor(q))
            return INFINITY;
        if (s != floor(s))
            return NAN;
    }
    if (isinf(q))
        return NAN;            /* PyTorch's tail term is 0 * inf there */
    const int N = 9;
    double sum = 0;
    for (int k = 0; k < N; k++)
        sum += pow(q + k, -s);
    double a = q + N;
    sum += pow(a, 1 - s) / (s - 1) + 0.5 * pow(a, -s);
    double fac = s * pow(a, -s - 1);      /* s (s+1) ... (s+2j-2) a^(-s-2j+1) */
    for (int j = 1; j <= 12; j++) {
        double t = b2k_fact[j - 1] * fac;
        sum += t;
        if (fabs(t) < 1e-17 * fabs(sum))
            break;
        fac *= (s + 2 * j - 1) * (s + 2 * j) / (a * a);
    }
    return sum;
}

/* psi'(x) in the type T: reflection below 1/2, six steps of the recurrence, then the
 * asymptotic series 1/x + 1/(2x^2) + 1/(6x^3) - 1/(30x^5) + 1/(42x^7). Float32 runs in
 * float as PyTorch's does, so its values at the poles (where sin(pi x) rounds to non-zero)
 * are PyTorch's too. */
#define TRIGAMMA(NAME, T, SIN) \
    T NAME(T x) \
    { \
        T sign = 1, r = 0; \
        if (x < (T)0.5) { \
            T s = SIN((T)PI * x); \
            r = -((T)PI * (T)PI) / (s * s); \
            sign = -1; \
            x = 1 - x; \
        } \
        for (int i = 0; i < 6; i++) { \
            r += 1 / (x * x); \
            x += 1; \
        } \
        T ixx = 1 / (x * x); \
        r += (1 + 1 / (2 * x) + ixx * ((T)1 / 6 - ixx * ((T)1 / 30 - ixx * ((T)1 / 42)))) / x; \
        return sign * r; \
    }
TRIGAMMA(ts_sp_trigamma, double, sin)
TRIGAMMA(ts_sp_trigammaf, float, sinf)

double ts_sp_polygamma(int64_t n, double x)
{
    if (n == 0)
        return ts_sp_digamma(x);
    if (n == 1)
        return ts_sp_trigamma(x);
    /* (-1)^(n+1) n! zeta(n+1, x) */
    double f = ((n % 2) ? 1.0 : -1.0) * exp(lgamma((double)n + 1.0));
    return f * ts_sp_zeta((double)n + 1, x);
}

/* P(a, x) by its series (x < a + 1) */
static double igam_series(double a, double x)
{
    double sum = 1 / a, term = 1 / a, ap = a;
    for (int i = 0; i < 2000; i++) {
        ap += 1;
        term *= x / ap;
        sum += term;
        if (fabs(term) < fabs(sum) * 1e-17)
            break;
    }
    return sum * exp(-x + a * log(x) - lgamma(a));
}

/* Q(a, x) by its continued fraction (modified Lentz) */
static double igamc_fraction(double a, double x)
{
    const double tiny = 1e-300;
    double b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d;
    for (int i = 1; i < 2000; i++) {
        double an = -i * (i - a);
        b += 2;
        d = an * d + b;
        if (fabs(d) < tiny)
            d = tiny;
        c = b + an / c;
        if (fabs(c) < tiny)
            c = tiny;
        d = 1 / d;
        double del = d * c;
        h *= del;
        if (fabs(del - 1) < 1e-16)
            break;
    }
    return exp(-x + a * log(x) - lgamma(a)) * h;
}

double ts_sp_igamma(double a, double x)
{
    /* PyTorch's order of cases: a nan meets them last (igamma(inf, nan) is 0) */
    if (a < 0 || x < 0)
        return NAN;
    if (a == 0)
        return x > 0 ? 1 : NAN;
    if (x == 0)
        return 0;
    if (isinf(a))
        return isinf(x) ? NAN : 0;
    if (isinf(x))
        return 1;
    if (isnan(a) || isnan(x))
        return NAN;
    return x < a + 1 ? igam_series(a, x) : 1 - igamc_fraction(a, x);
}

double ts_sp_igammac(double a, double x)
{
    /* PyTorch's order of cases: a nan meets them last (igamma(inf, nan) is 0) */
    if (a < 0 || x < 0)
        return NAN;
    if (a == 0)
        return x > 0 ? 0 : NAN;
    if (x == 0)
        return 1;
    if (isinf(a))
        return isinf(x) ? NAN : 1;
    if (isinf(x))
        return 0;
    if (isnan(a) || isnan(x))
        return NAN;
    return x < a + 1 ? 1 - igam_series(a, x) : igamc_fraction(a, x);
}

double ts_sp_ndtr(double x)
{
    return 0.5 * erfc(-x / sqrt(2.0));     /* ndtri's Newton steps need the exact tail */
}

double ts_sp_erfcx(double x)
{
    if (isnan(x))
        return x;
    if (x < 0) {
        if (x < -26.7)
            return INFINITY;
        return 2 * exp(x * x) - ts_sp_erfcx(-x);
    }
    if (x < 25)
        return exp(x * x) * erfc(x);
    /* asymptotic: 1/(x sqrt(pi)) (1 - 1/(2x^2) + 3/(4x^4) - ...) */
    double x2 = 2 * x * x, s = 1, t = 1;
    for (int k = 1; k < 10; k++) {
        t *= -(2 * k - 1) / x2;
        s += t;
    }
    return s / (x * sqrt(PI));
}

double ts_sp_log_ndtr(double x)
{
    if (x > 0)
        return log1p(-0.5 * erfc(x / sqrt(2.0)));
    /* ndtr(x) = erfcx(-x/sqrt 2) exp(-x^2/2) / 2 */
    return log(0.5 * ts_sp_erfcx(-x / sqrt(2.0))) - 0.5 * x * x;
}

double ts_sp_ndtri(double p)
{
    if (isnan(p) || p < 0 || p > 1)
        return NAN;
    if (p == 0)
        return -INFINITY;
    if (p == 1)
        return INFINITY;
    if (p == 0.5)
        return 0;
    if (p > 0.5)            /* 1 - p is exact here: the upper tail by symmetry */
        return -ts_sp_ndtri(1 - p);
    /* a rational first guess, then Newton's steps on ndtr(x) - p (lower tail) */
    double t = sqrt(-2 * log(p));
    double x = -(t - (2.515517 + 0.802853 * t + 0.010328 * t * t) /
                     (1 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t * t * t));
    for (int i = 0; i < 8; i++) {
        double dens = exp(-0.5 * x * x) / sqrt(2 * PI);
        if (dens == 0)
            break;
        double step = (ts_sp_ndtr(x) - p) / dens;
        x -= step;
        if (fabs(step) < 1e-16 * fabs(x))
            break;
    }
    return x;
}

double ts_sp_entr(double x)
{
    if (isnan(x))
        return x;
    if (x > 0)
        return -x * log(x);
    if (x == 0)
        return 0;
    return -INFINITY;
}

double ts_sp_xlog1py(double x, double y)
{
    if (isnan(y))
        return NAN;
    if (x == 0)
        return 0;
    return x * log1p(y);
}

double ts_sp_spherical_j0(double x)
{
    if (isinf(x))
        return 0;
    if (fabs(x) < 0.5) {
        double x2 = x * x;
        return 1 - x2 / 6 * (1 - x2 / 20 * (1 - x2 / 42 * (1 - x2 / 72 * (1 - x2 / 110 *
               (1 - x2 / 156)))));
    }
    return sin(x) / x;
}

double ts_sp_poly(int kind, double x, double nd)
{
    if (isnan(nd) || isnan(x))
        return NAN;
    int64_t n = (int64_t)nd;
    if (n < 0)
        return 0;
    double y = x;
    switch (kind) {
    case 't': case 'u': case 'v': case 'w':
        y = 2 * x - 1;
        kind -= 'a' - 'A';
        break;
    default:
        break;
    }
    double p0 = 1, p1;
    switch (kind) {
    case 'T': p1 = y; break;
    case 'U': p1 = 2 * y; break;
    case 'V': p1 = 2 * y - 1; break;
    case 'W': p1 = 2 * y + 1; break;
    case 'H': p1 = 2 * y; break;
    case 'E': p1 = y; break;
    case 'L': p1 = 1 - y; break;
    default: p1 = y; break;     /* P */
    }
    if (n == 0)
        return p0;
    for (int64_t k = 1; k < n; k++) {
        double p2;
        switch (kind) {
        case 'H': p2 = 2 * y * p1 - 2.0 * k * p0; break;
        case 'E': p2 = y * p1 - (double)k * p0; break;
        case 'L': p2 = ((2.0 * k + 1 - y) * p1 - (double)k * p0) / (k + 1.0); break;
        case 'P': p2 = ((2.0 * k + 1) * y * p1 - (double)k * p0) / (k + 1.0); break;
        default: p2 = 2 * y * p1 - p0; break;
        }
        p0 = p1;
        p1 = p2;
    }
    return p1;
}
