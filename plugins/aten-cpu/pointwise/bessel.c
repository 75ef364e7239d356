/* bessel.c — torch.special's Bessel and Airy functions in double (special_math.h).
 *
 * J0, J1, Y0 and Y1 are the Cephes rational approximations PyTorch 1.13 evaluates: below 5
 * a rational function of x^2 (times the J's zeros, plus (2/pi) log(x) J for Y), above it the
 * modulus/phase form with rationals in 25/x^2. PyTorch evaluates every denominator as a plain
 * polynomial of the listed coefficients (Cephes' p1evl has a leading 1 that PyTorch drops),
 * which moves its values by up to ~1e-7 relative; we do the same, so that torch.special
 * gives PyTorch's numbers rather than the exact ones.
 *
 * I0 and I1 take their power series up to 30 and the Hankel expansion past it. K_nu is
 * -ln(x/2) I + a digamma-weighted series up to 2; past 2 it is the integral of
 * exp(-x cosh t) cosh(nu t) under u = sqrt(2x) sinh(t/2), which turns the integrand into
 * exp(-u^2) times a function analytic in a strip of half-width sqrt(2x): the trapezoid
 * rule on it converges geometrically, to rounding in 50 points. Ai is its Maclaurin series
 * between -2.09 and 2.09 and K_1/3 past 2.09; below -2.09 it is the Cephes modulus/phase
 * rationals in 1/zeta PyTorch evaluates (again without the denominators' leading 1: PyTorch
 * is off the exact Ai by up to 3e-6 near -2.1, and we give its values).
 */
#include <math.h>
#include <stdint.h>

#include "pointwise/special_math.h"

#define PI 3.14159265358979323846
#define SQRT_2_PI 0.797884560802865355879892119868763737   /* sqrt(2 / pi) */

/* c[0] x^(n-1) + ... + c[n-1] */
static double horner(double x, const double *c, int n)
{
    double r = 0;
    for (int i = 0; i < n; i++)
        r = r * x + c[i];
    return r;
}

/* ---- J and Y: Cephes coefficients -------------------------------------------------- */

/* The modulus/phase rationals past 5 (shared by J0 and Y0, J1 and Y1). */
static const double pp0[7] = {
    7.96936729297347051624e-04, 8.28352392107440799803e-02, 1.23953371646414299388e+00,
    5.44725003058768775090e+00, 8.74716500199817011941e+00, 5.30324038235394892183e+00,
    9.99999999999999997821e-01 };
static const double pq0[7] = {
    9.24408810558863637013e-04, 8.56288474354474431428e-02, 1.25352743901058953537e+00,
    5.47097740330417105182e+00, 8.76190883237069594232e+00, 5.30605288235394617618e+00,
    1.00000000000000000218e+00 };
static const double qp0[8] = {
    -1.13663838898469149931e-02, -1.28252718670509318512e+00, -1.95539544257735972385e+01,
    -9.32060152123768231369e+01, -1.77681167980488050595e+02, -1.47077505154951170175e+02,
    -5.14105326766599330220e+01, -6.05014350600728481186e+00 };
static const double qq0[7] = {
    6.43178256118178023184e+01, 8.56430025976980587198e+02, 3.88240183605401609683e+03,
    7.24046774195652478189e+03, 5.93072701187316984827e+03, 2.06209331660327847417e+03,
    2.42005740240291393179e+02 };
static const double pp1[7] = {
    7.62125616208173112003e-04, 7.31397056940917570436e-02, 1.12719608129684925192e+00,
    5.11207951146807644818e+00, 8.42404590141772420927e+00, 5.21451598682361504063e+00,
    1.00000000000000000254e+00 };
static const double pq1[7] = {
    5.71323128072548699714e-04, 6.88455908754495404082e-02, 1.10514232634061696926e+00,
    5.07386386128601488557e+00, 8.39985554327604159757e+00, 5.20982848682361821619e+00,
    9.99999999999999997461e-01 };
static const double qp1[8] = {
    5.10862594750176621635e-02, 4.98213872951233449420e+00, 7.58238284132545283818e+01,
    3.66779609360150777800e+02, 7.10856304998926107277e+02, 5.97489612400613639965e+02,
    2.11688757100572135698e+02, 2.52070205858023719784e+01 };
static const double qq1[7] = {
    7.42373277035675149943e+01, 1.05644886038262816351e+03, 4.98641058337653607651e+03,
    9.56231892404756170795e+03, 7.99704160447350683650e+03, 2.82619278517639096600e+03,
    3.36093607810698293419e+02 };

/* Below 5. */
static const double rp0[4] = {
    -4.79443220978201773821e+09, 1.95617491946556577543e+12, -2.49248344360967716204e+14,
    9.70862251047306323952e+15 };
static const double rq0[8] = {
    4.99563147152651017219e+02, 1.73785401676374683123e+05, 4.84409658339962045305e+07,
    1.11855537045356834862e+10, 2.11277520115489217587e+12, 3.10518229857422583814e+14,
    3.18121955943204943306e+16, 1.71086294081043136091e+18 };
static const double rp1[4] = {
    -8.99971225705559398224e+08, 4.52228297998194034323e+11, -7.27494245221818276015e+13,
    3.68295732863852883286e+15 };
static const double rq1[8] = {
    6.20836478118054335476e+02, 2.56987256757748830383e+05, 8.35146791431949253037e+07,
    2.21511595479792499675e+10, 4.74914122079991414898e+12, 7.84369607876235854894e+14,
    8.95222336184627338078e+16, 5.32278620332680085395e+18 };
static const double yp0[8] = {
    1.55924367855235737965e+04, -1.46639295903971606143e+07, 5.43526477051876500413e+09,
    -9.82136065717911466409e+11, 8.75906394395366999549e+13, -3.46628303384729719441e+15,
    4.42733268572569800351e+16, -1.84950800436986690637e+16 };
static const double yq0[7] = {
    1.04128353664259848412e+03, 6.26107330137134956842e+05, 2.68919633393814121987e+08,
    8.64002487103935000337e+10, 2.02979612750105546709e+13, 3.17157752842975028269e+15,
    2.50596256172653059228e+17 };
static const double yp1[6] = {
    1.26320474790178026440e+09, -6.47355876379160291031e+11, 1.14509511541823727583e+14,
    -8.12770255501325109621e+15, 2.02439475713594898196e+17, -7.78877196265950026825e+17 };
static const double yq1[8] = {
    5.94301592346128195359e+02, 2.35564092943068577943e+05, 7.34811944459721705660e+07,
    1.87601316108706159478e+10, 3.88231277496238566008e+12, 6.20557727146953693363e+14,
    6.87141087355300489866e+16, 3.97270608116560655612e+18 };

/* Past 5: sqrt(2/(pi x)) (P cos(x - phase) - (5/x) Q sin(x - phase)) for J; Y swaps in
 * sin and +cos. nu picks the tables and the phase (pi/4 or 3 pi/4). */
static double hankel_form(int nu, double x, int y)
{
    double z = 25.0 / (x * x);
    double p = horner(z, nu ? pp1 : pp0, 7) / horner(z, nu ? pq1 : pq0, 7);
    double q = horner(z, nu ? qp1 : qp0, 8) / horner(z, nu ? qq1 : qq0, 7);
    double chi = x - (nu ? 3 * PI / 4 : PI / 4);
    double r = y ? p * sin(chi) + 5.0 / x * q * cos(chi) : p * cos(chi) - 5.0 / x * q * sin(chi);
    return r * SQRT_2_PI / sqrt(x);
}

double ts_sp_bessel_j(int nu, double x)
{
    double ax = fabs(x), r;
    if (!nu && ax < 1e-5)
        return 1 - x * x / 4;
    if (ax <= 5) {
        double z = x * x;
        if (nu)
            r = horner(z, rp1, 4) / horner(z, rq1, 8) * ax * (z - 1.46819706421238932572e+01) *
                (z - 4.92184563216946036703e+01);
        else
            r = (z - 5.78318596294678452118e+00) * (z - 3.04712623436620863991e+01) *
                horner(z, rp0, 4) / horner(z, rq0, 8);
    } else {
        r = hankel_form(nu, ax, 0);     /* nan at inf, as PyTorch's */
    }
    return nu && x < 0 ? -r : r;
}

double ts_sp_bessel_y(int nu, double x)
{
    if (x <= 5) {
        if (x == 0)
            return -INFINITY;
        if (x < 0)
            return NAN;
        double z = x * x;
        if (nu)
            return x * (horner(z, yp1, 6) / horner(z, yq1, 8)) +
                   2 / PI * (ts_sp_bessel_j(1, x) * log(x) - 1 / x);
        return horner(z, yp0, 8) / horner(z, yq0, 7) + 2 / PI * log(x) * ts_sp_bessel_j(0, x);
    }
    return hankel_form(nu, x, 1);       /* nan for nan and inf */
}

/* ---- I and K ----------------------------------------------------------------------- */

double ts_sp_bessel_i(int nu, double x, int scaled)
{
    if (isnan(x))
        return x;
    double ax = fabs(x), r;
    if (isinf(x))       /* PyTorch's exp(x) * (expansion) / sqrt(x): nan, 0 when scaled */
        return scaled ? (nu && x < 0 ? -0.0 : 0.0) : NAN;
    if (ax <= 30) {
        /* sum (x/2)^(2k+nu) / (k! (k+nu)!) */
        double h = ax / 2, q = h * h, term = nu ? h : 1, s = term;
        for (int k = 1; k < 500; k++) {
            term *= q / ((double)k * (k + nu));
            s += term;
            if (term < s * 1e-17)
                break;
        }
        r = scaled ? s * exp(-ax) : s;
    } else {
        /* e^x / sqrt(2 pi x) sum (-1)^k a_k(nu) / x^k */
        double mu = 4.0 * nu * nu, term = 1, s = 1;
        for (int k = 1; k < 30; k++) {
            double t = term * -(mu - (2.0 * k - 1) * (2.0 * k - 1)) / (k * 8.0 * ax);
            if (fabs(t) > fabs(term))
                break;
            term = t;
            s += term;
            if (fabs(term) < 1e-17 * fabs(s))
                break;
        }
        r = s / sqrt(2 * PI * ax);
        if (!scaled)
            r *= exp(ax);     /* overflows to inf past ~709, as it must */
    }
    return nu && x < 0 ? -r : r;
}

/* exp(x) K_nu(x) for x >= 2 and any real nu: with u = sqrt(2x) sinh(t/2),
 * exp(x) K_nu(x) = sqrt(2/x) * integral over u >= 0 of exp(-u^2) cosh(nu t) / sqrt(1 + u^2/(2x)). */
static double k_scaled_integral(double nu, double x)
{
    const double h = 0.125;
    double s2x = sqrt(2 * x), s = 0.5;     /* u = 0: half weight */
    for (int k = 1; k <= 56; k++) {        /* exp(-49) is past rounding */
        double u = k * h, w = u / s2x;
        double c = nu == 0 ? 1 : nu == 1 ? 1 + 2 * w * w : cosh(2 * nu * asinh(w));
        s += exp(-u * u) * c / sqrt(1 + w * w);
    }
    return s * h * sqrt(2 / x);
}

double ts_sp_bessel_k(int nu, double x, int scaled)
{
    if (isnan(x) || x < 0)
        return NAN;
    if (x == 0)
        return INFINITY;
    if (isinf(x))
        return 0;
    if (x > 2) {
        double s = k_scaled_integral(nu, x);
        return scaled ? s : s * exp(-x);
    }
    /* K0 = -(ln(x/2)) I0 + sum psi(k+1) q^k / k!^2;
     * K1 = 1/x + ln(x/2) I1 - (x/4) sum (psi(k+1) + psi(k+2)) q^k / (k! (k+1)!), q = x^2/4 */
    const double euler = 0.57721566490153286061;
    double q = x * x / 4, lg = log(x / 2), psi = -euler, term = 1, s;
    if (!nu) {
        s = psi;
        for (int k = 1; k < 40; k++) {
            psi += 1.0 / k;
            term *= q / ((double)k * k);
            s += psi * term;
            if (term < 1e-18)
                break;
        }
        s -= lg * ts_sp_bessel_i(0, x, 0);
    } else {
        double psi2 = psi + 1;       /* psi(k+2) */
        s = psi + psi2;
        for (int k = 1; k < 40; k++) {
            psi += 1.0 / k;
            psi2 += 1.0 / (k + 1);
            term *= q / ((double)k * (k + 1));
            s += (psi + psi2) * term;
            if (term < 1e-18)
                break;
        }
        s = 1 / x + lg * ts_sp_bessel_i(1, x, 0) - x / 4 * s;
    }
    return scaled ? s * exp(x) : s;
}

/* ---- Airy Ai ----------------------------------------------------------------------- */

double ts_sp_airy_ai(double x)
{
    if (isnan(x))
        return x;
    if (isinf(x))
        return NAN;            /* PyTorch's: nan at either end */
    if (x > 103.892)
        return 0;
    if (x >= 2.09) {           /* Ai(x) = sqrt(x/3) K_1/3(zeta) / pi, zeta = 2/3 x^(3/2) */
        double zeta = 2.0 / 3.0 * x * sqrt(x);
        return sqrt(x / 3) / PI * k_scaled_integral(1.0 / 3.0, zeta) * exp(-zeta);
    }
    if (x >= -2.09) {
        /* c1 f(x) - c2 g(x): f = sum 3^k (1/3)_k x^3k / (3k)!, g = sum 3^k (2/3)_k x^(3k+1) / (3k+1)! */
        double z = x * x * x, f = 1, g = x, m = 1, n = x;
        for (int k = 1; k < 60; k++) {
            m *= z / ((3.0 * k - 1) * (3.0 * k));
            n *= z / ((3.0 * k) * (3.0 * k + 1));
            f += m;
            g += n;
            if (fabs(m) < 1e-17 * fabs(f) && fabs(n) <= 1e-17 * fabs(g))
                break;
        }
        return 0.355028053887817239260 * f - 0.258819403792806798405 * g;
    }
    /* (sin(zeta + pi/4) (1 + z^2 F(z^2)) - cos(zeta + pi/4) z G(z^2)) / (sqrt(pi) (-x)^(1/4)), z = 1/zeta */
    static const double afn[9] = {
        -1.31696323418331795333e-01, -6.26456544431912369773e-01, -6.93158036036933542233e-01,
        -2.79779981545119124951e-01, -4.91900132609500318020e-02, -4.06265923594885404393e-03,
        -1.59276496239262096340e-04, -2.77649108155232920844e-06, -1.67787698489114633780e-08 };
    static const double afd[9] = {
        1.33560420706553243746e+01, 3.26825032795224613948e+01, 2.67367040941499554804e+01,
        9.18707402907259625840e+00, 1.47529146771666414581e+00, 1.15687173795188044134e-01,
        4.40291641615211203805e-03, 7.54720348287414296618e-05, 4.51850092970580378464e-07 };
    static const double agn[11] = {
        1.97339932091685679179e-02, 3.91103029615688277255e-01, 1.06579897599595591108e+00,
        9.39169229816650230044e-01, 3.51465656105547619242e-01, 6.33888919628925490927e-02,
        5.85804113048388458567e-03, 2.82851600836737019778e-04, 6.98793669997260967291e-06,
        8.11789239554389293311e-08, 3.41551784765923618484e-10 };
    static const double agd[10] = {
        9.30892908077441974853e+00, 1.98352928718312140417e+01, 1.55646628932864612953e+01,
        5.47686069422975497931e+00, 9.54293611618961883998e-01, 8.64580826352392193095e-02,
        4.12656523824222607191e-03, 1.01259085116509135510e-04, 1.17166733214413521882e-06,
        4.91834570062930015649e-09 };
    double zeta = -2.0 * x * sqrt(-x) / 3.0, z = 1 / zeta, z2 = z * z, chi = zeta + PI / 4;
    double f = 1 + z2 * horner(z2, afn, 9) / horner(z2, afd, 9);
    double g = z * horner(z2, agn, 11) / horner(z2, agd, 10);
    return (sin(chi) * f - cos(chi) * g) / (sqrt(PI) * sqrt(sqrt(-x)));
}
