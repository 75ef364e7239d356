/* special.c — torch.special and the plain aten names of its functions: the new elementwise
 * functions (special_math.c's scalar math mapped by the elementwise engine, ints computed as
 * float32 as PyTorch promotes them) and the aliases of existing ops (special_expit is
 * sigmoid, special_gammaln is lgamma, ...), which run the existing kernel as a call of it.
 */
#include <math.h>
#include <string.h>

#include "engine/elementwise.h"
#include "pointwise/special_math.h"

int ts_cpu_alias(TsCall *c, const TsCpuTable *table, TsKernelFn fn, const char *qualname,
                 const char *overload)
{
    for (size_t i = 0; !fn && table && i < table->n; i++)
        if (!strcmp(table->ops[i].qualname, qualname) && !strcmp(table->ops[i].overload, overload))
            fn = table->ops[i].fn;
    if (!fn)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "%s.%s: no cpu kernel", qualname, overload);
    const TsOperator *caller = c->op;
    c->op = ts_runtime_find_operator(c->runtime, qualname, overload);
    int rc = fn(c);
    c->op = caller;
    return rc;
}

/* ---- loops -------------------------------------------------------------------------- */

#define ULOOP(DT, T, OP, EXPR) EW_UNARY(DT, T, OP, T, EXPR)
#define BLOOP(DT, T, OP, EXPR) EW_BINARY(DT, T, OP, T, EXPR)
#define DEF_U(OP, EXPR) \
    EW_FLOAT_TYPES(ULOOP, OP, (scalar_t)(EXPR)) \
    static const TsCpuLoop OP##_loops[TS_DTYPE__COUNT] = { EW_FLOAT_TYPES(EW_ENTRY, OP) };
#define DEF_B(OP, EXPR) \
    EW_FLOAT_TYPES(BLOOP, OP, (scalar_t)(EXPR)) \
    static const TsCpuLoop OP##_loops[TS_DTYPE__COUNT] = { EW_FLOAT_TYPES(EW_ENTRY, OP) };

/* The sum over j < p of lgamma(x - j/2), mvlgamma's variable part. */
static double mvl_sum(double x, int64_t p)
{
    double s = 0;
    for (int64_t j = 0; j < p; j++)
        s += lgamma(x - (double)j / 2);
    return s;
}

DEF_U(digamma, ts_sp_digamma((double)x))
#define TRIGAMMA_T(v) _Generic((v), float: ts_sp_trigammaf, default: ts_sp_trigamma)(v)
DEF_U(polygamma, args->i[0] == 1 ? TRIGAMMA_T(x) : ts_sp_polygamma(args->i[0], (double)x))
DEF_U(mvlgamma, args->d[0] + mvl_sum((double)x, args->i[0]))
/* ndtr in the element type, (1 + erf(x / sqrt 2)) / 2 as PyTorch's: its float32 lower tail
 * is float's rounding of 1 + erf, which double arithmetic would not reproduce. */
#define ERF_T(v) _Generic((v), float: erff, default: erf)(v)
DEF_U(ndtr, (scalar_t)0.5 * ((scalar_t)1 + ERF_T(x * (scalar_t)0.70710678118654752440)))
DEF_U(ndtri, ts_sp_ndtri((double)x))
DEF_U(log_ndtr, ts_sp_log_ndtr((double)x))
DEF_U(erfcx, ts_sp_erfcx((double)x))
DEF_U(entr, ts_sp_entr((double)x))
DEF_U(i0, ts_sp_bessel_i(0, (double)x, 0))
/* angle of a real number: pi for the negative ones, NaN stays NaN, 0 otherwise (-0 too) */
DEF_U(angle, isnan(x) ? x : x < 0 ? (scalar_t)3.14159265358979323846 : (scalar_t)0)
DEF_U(i0e, ts_sp_bessel_i(0, (double)x, 1))
DEF_U(i1, ts_sp_bessel_i(1, (double)x, 0))
DEF_U(i1e, ts_sp_bessel_i(1, (double)x, 1))
DEF_U(k0, ts_sp_bessel_k(0, (double)x, 0))
DEF_U(k1, ts_sp_bessel_k(1, (double)x, 0))
DEF_U(k0e, ts_sp_bessel_k(0, (double)x, 1))
DEF_U(k1e, ts_sp_bessel_k(1, (double)x, 1))
DEF_U(j0, ts_sp_bessel_j(0, (double)x))
DEF_U(j1, ts_sp_bessel_j(1, (double)x))
DEF_U(y0, ts_sp_bessel_y(0, (double)x))
DEF_U(y1, ts_sp_bessel_y(1, (double)x))
DEF_U(airy_ai, ts_sp_airy_ai((double)x))
DEF_U(sph_j0, ts_sp_spherical_j0((double)x))
DEF_B(zeta, ts_sp_zeta((double)x, (double)y))
DEF_B(xlog1py, ts_sp_xlog1py((double)x, (double)y))
DEF_B(igamma, ts_sp_igamma((double)x, (double)y))
DEF_B(igammac, ts_sp_igammac((double)x, (double)y))
#define DEF_POLY(OP, K) DEF_B(OP, ts_sp_poly(K, (double)x, (double)y))
DEF_POLY(cheb_t, 'T') DEF_POLY(cheb_u, 'U') DEF_POLY(cheb_v, 'V') DEF_POLY(cheb_w, 'W')
DEF_POLY(scheb_t, 't') DEF_POLY(scheb_u, 'u') DEF_POLY(scheb_v, 'v') DEF_POLY(scheb_w, 'w')
DEF_POLY(herm_h, 'H') DEF_POLY(herm_he, 'E') DEF_POLY(lag_l, 'L') DEF_POLY(leg_p, 'P')

/* X(kernel, op name for messages, result kind) */
#define EW_UNARY_OPS(X) \
    X(digamma, "digamma", TS_EW_FLOAT) X(ndtr, "special_ndtr", TS_EW_FLOAT) \
    X(ndtri, "special_ndtri", TS_EW_FLOAT) X(log_ndtr, "special_log_ndtr", TS_EW_FLOAT) \
    X(erfcx, "special_erfcx", TS_EW_FLOAT) X(entr, "entr", TS_EW_FLOAT) \
    X(i0, "i0", TS_EW_FLOAT) X(i0e, "i0e", TS_EW_FLOAT) X(i1, "i1", TS_EW_FLOAT) \
    X(i1e, "i1e", TS_EW_FLOAT) X(k0, "modified_bessel_k0", TS_EW_FLOAT) \
    X(k1, "modified_bessel_k1", TS_EW_FLOAT) X(k0e, "scaled_modified_bessel_k0", TS_EW_FLOAT) \
    X(k1e, "scaled_modified_bessel_k1", TS_EW_FLOAT) X(j0, "bessel_j0", TS_EW_FLOAT) \
    X(j1, "bessel_j1", TS_EW_FLOAT) X(sph_j0, "spherical_bessel_j0", TS_EW_FLOAT) \
    X(y0, "bessel_y0", TS_EW_FLOAT) X(y1, "bessel_y1", TS_EW_FLOAT) \
    X(airy_ai, "airy_ai", TS_EW_FLOAT) X(angle, "angle", TS_EW_FLOAT)
#define EW_BINARY_OPS(X) \
    X(zeta, "zeta", TS_EW_FLOAT) X(xlog1py, "xlog1py", TS_EW_FLOAT) \
    X(igamma, "igamma", TS_EW_SAME) X(igammac, "igammac", TS_EW_SAME) \
    X(cheb_t, "chebyshev_polynomial_t", TS_EW_FLOAT) \
    X(cheb_u, "chebyshev_polynomial_u", TS_EW_FLOAT) \
    X(cheb_v, "chebyshev_polynomial_v", TS_EW_FLOAT) \
    X(cheb_w, "chebyshev_polynomial_w", TS_EW_FLOAT) \
    X(scheb_t, "shifted_chebyshev_polynomial_t", TS_EW_FLOAT) \
    X(scheb_u, "shifted_chebyshev_polynomial_u", TS_EW_FLOAT) \
    X(scheb_v, "shifted_chebyshev_polynomial_v", TS_EW_FLOAT) \
    X(scheb_w, "shifted_chebyshev_polynomial_w", TS_EW_FLOAT) \
    X(herm_h, "hermite_polynomial_h", TS_EW_FLOAT) \
    X(herm_he, "hermite_polynomial_he", TS_EW_FLOAT) \
    X(lag_l, "laguerre_polynomial_l", TS_EW_FLOAT) \
    X(leg_p, "legendre_polynomial_p", TS_EW_FLOAT)
#define EWOP(K, NAME, RES) static const TsCpuEwOp ew_##K = { NAME, RES, false, K##_loops };
EW_UNARY_OPS(EWOP)
EWOP(polygamma, "polygamma", TS_EW_FLOAT)
EWOP(mvlgamma, "mvlgamma", TS_EW_FLOAT)
EW_BINARY_OPS(EWOP)
#undef EWOP

/* ---- kernels ------------------------------------------------------------------------ */

/* op over argument 0 (a tensor). */
static int unary(TsCall *c, const TsCpuEwOp *op)
{
    TsArgs a;
    TsTensor *x, *o = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x);
    if (!rc) rc = ts_cpu_ew(op, 1, &x, &o, TS_EW_NEW, NULL, c->error);
    return ts_args_return_tensor(&a, rc, o);
}

/* op over arguments 0 and 1, either a Scalar. */
static int binary(TsCall *c, const TsCpuEwOp *op)
{
    TsArgs a;
    TsTensor *in[2] = { NULL, NULL }, *own[2] = { NULL, NULL }, *o = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    for (int i = 0; !rc && i < 2; i++) {
        if (a.v[i].tag == TS_TAG_TENSOR)
            rc = ts_args_tensor(&a, (size_t)i, &in[i]);
        else if (!(in[i] = own[i] = ts_cpu_wrap_scalar(a.v[i], c->error)))
            rc = c->error->code;
    }
    if (!rc) rc = ts_cpu_ew(op, 2, in, &o, TS_EW_NEW, NULL, c->error);
    for (int i = 0; i < 2; i++)
        if (own[i])
            ts_tensor_release(own[i]);
    return ts_args_return_tensor(&a, rc, o);
}

/* polygamma(int n, Tensor self) */
static int k_polygamma(TsCall *c)
{
    TsArgs a;
    TsTensor *x, *o = NULL;
    int64_t n;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_int(&a, 0, &n);
    if (!rc) rc = ts_args_tensor(&a, 1, &x);
    if (!rc && n < 0)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "polygamma(n, x) does not support negative "
                          "n.");
    TsCpuEwArgs args = { { 0, 0, 0 }, { n, 0 }, 0 };
    if (!rc) rc = ts_cpu_ew(&ew_polygamma, 1, &x, &o, TS_EW_NEW, &args, c->error);
    return ts_args_return_tensor(&a, rc, o);
}

/* mvlgamma(Tensor self, int p): p(p-1)/4 log(pi) + sum_j<p lgamma(x - j/2) */
static int k_mvlgamma(TsCall *c)
{
    TsArgs a;
    TsTensor *x, *o = NULL;
    int64_t p;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x);
    if (!rc) rc = ts_args_int(&a, 1, &p);
    if (!rc && p < 1)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "p has to be greater than or equal to 1");
    TsCpuEwArgs args = { { (double)(p * (p - 1)) / 4 * log(3.14159265358979323846), 0, 0 },
                         { p, 0 }, 0 };
    if (!rc) rc = ts_cpu_ew(&ew_mvlgamma, 1, &x, &o, TS_EW_NEW, &args, c->error);
    return ts_args_return_tensor(&a, rc, o);
}

/* ---- in place: digamma_, i0_, polygamma_, mvlgamma_, igamma_, igammac_ ------------------ */
/* op over self (argument 0), written into self: a float result into an integral self is
 * the engine's "result type Float can't be cast to the desired output type Long". The
 * int argument (polygamma_'s n, mvlgamma_'s p) is argument 1; a binary op's other operand
 * (a tensor) too. */
typedef enum InplaceKind { IP_UNARY, IP_POLYGAMMA, IP_MVLGAMMA, IP_BINARY } InplaceKind;

static int inplace(TsCall *c, const TsCpuEwOp *op, InplaceKind kind)
{
    TsArgs a;
    TsTensor *in[2] = { NULL, NULL }, *self = NULL;
    int64_t n = 0;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &self);
    if (!rc && (kind == IP_POLYGAMMA || kind == IP_MVLGAMMA)) rc = ts_args_int(&a, 1, &n);
    if (!rc && kind == IP_BINARY) rc = ts_args_tensor(&a, 1, &in[1]);
    if (!rc && kind == IP_POLYGAMMA && n < 0)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "polygamma(n, x) does not support negative "
                          "n.");
    if (!rc && kind == IP_MVLGAMMA && n < 1)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "p has to be greater than or equal to 1");
    TsCpuEwArgs args = { { 0, 0, 0 }, { n, 0 }, 0 };
    if (kind == IP_MVLGAMMA)
        args.d[0] = (double)(n * (n - 1)) / 4 * log(3.14159265358979323846);
    in[0] = self;
    TsTensor *o = self;
    if (!rc)
        rc = ts_cpu_ew(op, kind == IP_BINARY ? 2 : 1, in, &o, TS_EW_INPLACE, &args, c->error);
    return ts_args_return_arg(&a, rc, 0);
}

static int k_digamma_(TsCall *c) { return inplace(c, &ew_digamma, IP_UNARY); }
static int k_i0_(TsCall *c) { return inplace(c, &ew_i0, IP_UNARY); }
static int k_polygamma_(TsCall *c) { return inplace(c, &ew_polygamma, IP_POLYGAMMA); }
static int k_mvlgamma_(TsCall *c) { return inplace(c, &ew_mvlgamma, IP_MVLGAMMA); }
static int k_igamma_(TsCall *c) { return inplace(c, &ew_igamma, IP_BINARY); }
static int k_igammac_(TsCall *c) { return inplace(c, &ew_igammac, IP_BINARY); }

#define UNARY_K(K, NAME, RES) static int k_u_##K(TsCall *c) { return unary(c, &ew_##K); }
#define BINARY_K(K, NAME, RES) static int k_b_##K(TsCall *c) { return binary(c, &ew_##K); }
EW_UNARY_OPS(UNARY_K)
EW_BINARY_OPS(BINARY_K)
#undef UNARY_K
#undef BINARY_K

/* ---- aliases ------------------------------------------------------------------------ */

#define ALIASES(X) \
    X(expit, unary, "aten::sigmoid", "") X(erf, unary, "aten::erf", "") \
    X(erfc, unary, "aten::erfc", "") X(erfinv, unary, "aten::erfinv", "") \
    X(exp2, unary, "aten::exp2", "") X(expm1, unary, "aten::expm1", "") \
    X(log1p, unary, "aten::log1p", "") X(sinc, unary, "aten::sinc", "") \
    X(gammaln, unary, "aten::lgamma", "") X(round, unary, "aten::round", "decimals") \
    X(logit, activation, "aten::logit", "") X(softmax, scan, "aten::softmax", "int") \
    X(log_softmax, scan, "aten::log_softmax", "int") \
    X(logsumexp, reduce, "aten::logsumexp", "") \
    X(xlogy, binary, "aten::xlogy", "Tensor") X(xlogy_so, binary, "aten::xlogy", "Scalar_Other") \
    X(xlogy_ss, binary, "aten::xlogy", "Scalar_Self")
#define ALIAS_K(K, TABLE, Q, O) \
    static int k_alias_##K(TsCall *c) { return ts_cpu_alias(c, &ts_cpu_##TABLE##_table, NULL, Q, O); }
ALIASES(ALIAS_K)
#undef ALIAS_K

static int k_psi(TsCall *c) { return unary(c, &ew_digamma); }

static const TsCpuOp ops[] = {
    { "aten::angle", "", k_u_angle },
    { "aten::digamma_", "", k_digamma_ }, { "aten::i0_", "", k_i0_ },
    { "aten::polygamma_", "", k_polygamma_ }, { "aten::mvlgamma_", "", k_mvlgamma_ },
    { "aten::igamma_", "", k_igamma_ }, { "aten::igammac_", "", k_igammac_ },
    { "aten::digamma", "", k_u_digamma }, { "aten::special_digamma", "", k_u_digamma },
    { "aten::special_psi", "", k_psi },
    { "aten::polygamma", "", k_polygamma }, { "aten::special_polygamma", "", k_polygamma },
    { "aten::mvlgamma", "", k_mvlgamma }, { "aten::special_multigammaln", "", k_mvlgamma },
    { "aten::special_ndtr", "", k_u_ndtr }, { "aten::special_ndtri", "", k_u_ndtri },
    { "aten::special_log_ndtr", "", k_u_log_ndtr }, { "aten::special_erfcx", "", k_u_erfcx },
    { "aten::special_entr", "", k_u_entr },
    { "aten::i0", "", k_u_i0 }, { "aten::special_i0", "", k_u_i0 },
    { "aten::special_modified_bessel_i0", "", k_u_i0 },
    { "aten::special_i0e", "", k_u_i0e }, { "aten::special_i1", "", k_u_i1 },
    { "aten::special_modified_bessel_i1", "", k_u_i1 }, { "aten::special_i1e", "", k_u_i1e },
    { "aten::special_modified_bessel_k0", "", k_u_k0 },
    { "aten::special_modified_bessel_k1", "", k_u_k1 },
    { "aten::special_scaled_modified_bessel_k0", "", k_u_k0e },
    { "aten::special_scaled_modified_bessel_k1", "", k_u_k1e },
    { "aten::special_bessel_j0", "", k_u_j0 }, { "aten::special_bessel_j1", "", k_u_j1 },
    { "aten::special_spherical_bessel_j0", "", k_u_sph_j0 },
    { "aten::special_bessel_y0", "", k_u_y0 }, { "aten::special_bessel_y1", "", k_u_y1 },
    { "aten::special_airy_ai", "", k_u_airy_ai },
    { "aten::special_zeta", "", k_b_zeta }, { "aten::special_zeta", "other_scalar", k_b_zeta },
    { "aten::special_zeta", "self_scalar", k_b_zeta },
    { "aten::special_xlog1py", "", k_b_xlog1py },
    { "aten::special_xlog1py", "other_scalar", k_b_xlog1py },
    { "aten::special_xlog1py", "self_scalar", k_b_xlog1py },
    { "aten::igamma", "", k_b_igamma }, { "aten::special_gammainc", "", k_b_igamma },
    { "aten::igammac", "", k_b_igammac }, { "aten::special_gammaincc", "", k_b_igammac },
#define POLY(K, NAME) \
    { "aten::special_" NAME, "", k_b_##K }, { "aten::special_" NAME, "n_scalar", k_b_##K }, \
    { "aten::special_" NAME, "x_scalar", k_b_##K },
    POLY(cheb_t, "chebyshev_polynomial_t") POLY(cheb_u, "chebyshev_polynomial_u")
    POLY(cheb_v, "chebyshev_polynomial_v") POLY(cheb_w, "chebyshev_polynomial_w")
    POLY(scheb_t, "shifted_chebyshev_polynomial_t") POLY(scheb_u, "shifted_chebyshev_polynomial_u")
    POLY(scheb_v, "shifted_chebyshev_polynomial_v") POLY(scheb_w, "shifted_chebyshev_polynomial_w")
    POLY(herm_h, "hermite_polynomial_h") POLY(herm_he, "hermite_polynomial_he")
    POLY(lag_l, "laguerre_polynomial_l") POLY(leg_p, "legendre_polynomial_p")
#undef POLY
    { "aten::special_expit", "", k_alias_expit }, { "aten::special_erf", "", k_alias_erf },
    { "aten::special_erfc", "", k_alias_erfc }, { "aten::special_erfinv", "", k_alias_erfinv },
    { "aten::special_exp2", "", k_alias_exp2 }, { "aten::special_expm1", "", k_alias_expm1 },
    { "aten::special_log1p", "", k_alias_log1p }, { "aten::special_sinc", "", k_alias_sinc },
    { "aten::special_gammaln", "", k_alias_gammaln }, { "aten::special_round", "", k_alias_round },
    { "aten::special_logit", "", k_alias_logit }, { "aten::special_softmax", "", k_alias_softmax },
    { "aten::special_log_softmax", "", k_alias_log_softmax },
    { "aten::special_logsumexp", "", k_alias_logsumexp },
    { "aten::special_xlogy", "", k_alias_xlogy },
    { "aten::special_xlogy", "other_scalar", k_alias_xlogy_so },
    { "aten::special_xlogy", "self_scalar", k_alias_xlogy_ss },
};

const TsCpuTable ts_cpu_special_table = { ops, sizeof ops / sizeof ops[0] };
