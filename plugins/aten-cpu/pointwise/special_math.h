/* special_math.h — the scalar math of torch.special (special_math.c), in double: the gamma
 * family, zeta, the incomplete gamma ratios, the normal distribution, Bessel functions and
 * the orthogonal polynomials. special.c maps them over tensors.
 */
#ifndef TS_ATEN_CPU_SPECIAL_MATH_H
#define TS_ATEN_CPU_SPECIAL_MATH_H

double ts_sp_digamma(double x);
double ts_sp_zeta(double s, double q);
double ts_sp_polygamma(int64_t n, double x);
double ts_sp_trigamma(double x);
float ts_sp_trigammaf(float x);
double ts_sp_igamma(double a, double x);
double ts_sp_igammac(double a, double x);
double ts_sp_ndtr(double x);
double ts_sp_ndtri(double p);
double ts_sp_log_ndtr(double x);
double ts_sp_erfcx(double x);
double ts_sp_entr(double x);
double ts_sp_xlog1py(double x, double y);
double ts_sp_spherical_j0(double x);
/* I_nu(x) for nu 0 or 1; scaled: times exp(-|x|) (bessel.c) */
double ts_sp_bessel_i(int nu, double x, int scaled);
/* K_nu(x) for nu 0 or 1; scaled: times exp(x) */
double ts_sp_bessel_k(int nu, double x, int scaled);
/* J_nu(x), Y_nu(x) for nu 0 or 1 (bessel.c, as the ones above) */
double ts_sp_bessel_j(int nu, double x);
double ts_sp_bessel_y(int nu, double x);
double ts_sp_airy_ai(double x);
/* kind: 'T','U','V','W' (Chebyshev), 't','u','v','w' (shifted), 'H', 'E' (He), 'L', 'P' */
double ts_sp_poly(int kind, double x, double n);

/* Runs the kernel of table named qualname.overload (or fn) on the arguments already on the
 * stack, as a call of it: an alias with the same arguments (special.c; linalg_extra.c too). */
#include "engine/cpu.h"
int ts_cpu_alias(TsCall *c, const TsCpuTable *table, TsKernelFn fn, const char *qualname,
                 const char *overload);

#endif
