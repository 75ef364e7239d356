/* compose_stats.c — the integrals and statistics PyTorch composes from other ops, built the
 * same way from aten-cpu's kernels (chain.h): trapezoid and trapz (with sample points x or
 * a spacing dx), cumulative_trapezoid, cov (with frequency and importance weights) and
 * corrcoef. Each step is the op PyTorch's composite runs, in its order, so broadcasting,
 * type promotion and the callees' messages are theirs; the checks PyTorch makes itself are
 * made here in its words.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine/chain.h"
#include "engine/elementwise.h"

/* ---- trapezoid, trapz, cumulative_trapezoid ------------------------------------------------ */

typedef enum Integral { TRAPEZOID, TRAPZ, CUMULATIVE } Integral;

/* trapz is trapezoid under its old name: its messages say trapezoid */
static const char *integral_name(Integral w)
{
    return w == CUMULATIVE ? "cumulative_trapezoid" : "trapezoid";
}

/* y's slices [1:] and [:-1] along dim, added: the trapezoids' parallel sides. */
static TsTensor *sides(TsChain *k, TsTensor *y, int dim)
{
    int64_t n = y->sizes[dim];
    return ts_chain_op(k, "aten::add", "Tensor", "tti",
                       ts_chain_op(k, "aten::slice", "Tensor", "tiiii", y, (int64_t)dim,
                                   (int64_t)1, n, (int64_t)1),
                       ts_chain_op(k, "aten::slice", "Tensor", "tiiii", y, (int64_t)dim,
                                   (int64_t)0, n - 1, (int64_t)1),
                       (int64_t)1);
}

/* The integral of y along dim with spacings dx (a tensor broadcast against the sides). */
static TsTensor *with_spacings(TsChain *k, TsTensor *y, TsTensor *dx, int dim, Integral w)
{
    int64_t d = dim;
    TsTensor *prod = ts_chain_op(k, "aten::mul", "Tensor", "tt", sides(k, y, dim), dx);
    TsTensor *acc = w == CUMULATIVE ? ts_chain_op(k, "aten::cumsum", "", "tin", prod, d)
                                    : ts_chain_op(k, "aten::sum", "dim_IntList", "tlbn", prod,
                                                  1, &d, 0);
    return ts_chain_op(k, "aten::div", "Scalar", "td", acc, 2.0);
}

/* The integral of y along dim with a constant spacing dx: dx * (sum - (first + last) / 2),
 * PyTorch's simplification, for the definite integral; the running one sums halves. */
static TsTensor *with_spacing(TsChain *k, TsTensor *y, double dx, bool dx_int, int dim,
                              Integral w)
{
    int64_t d = dim;
    if (w == CUMULATIVE) {
        TsTensor *half = ts_chain_op(k, "aten::mul", "Scalar", "td", sides(k, y, dim), dx / 2);
        return ts_chain_op(k, "aten::cumsum", "", "tin", half, d);
    }
    TsTensor *ends = ts_chain_op(k, "aten::add", "Tensor", "tti",
                                 ts_chain_op(k, "aten::select", "int", "tii", y, d, (int64_t)0),
                                 ts_chain_op(k, "aten::select", "int", "tii", y, d, (int64_t)-1),
                                 (int64_t)1);
    TsTensor *inner = ts_chain_op(k, "aten::sub", "Tensor", "tti",
                                  ts_chain_op(k, "aten::sum", "dim_IntList", "tlbn", y, 1, &d, 0),
                                  ts_chain_op(k, "aten::mul", "Scalar", "td", ends, 0.5),
                                  (int64_t)1);
    return dx_int ? ts_chain_op(k, "aten::mul", "Scalar", "ti", inner, (int64_t)dx)
                  : ts_chain_op(k, "aten::mul", "Scalar", "td", inner, dx);
}

/* zeros of y's dtype and of its sizes without dim: the integral of no samples (NumPy's). */
static TsTensor *no_samples(TsChain *k, TsTensor *y, int dim, Integral w)
{
    if (w == CUMULATIVE)       /* the running integral of no samples has none either */
        return ts_chain_op(k, "aten::slice", "Tensor", "tiiii", y, (int64_t)dim, (int64_t)0,
                           (int64_t)0, (int64_t)1);
    int64_t sizes[TS_TENSOR_MAX_DIMS];
    int n = 0;
    for (int i = 0; i < y->dim; i++)
        if (i != dim)
            sizes[n++] = y->sizes[i];
    return ts_chain_op(k, "aten::zeros", "", "linnn", n, sizes, (int64_t)y->dtype);
}

/* trapezoid.x / trapz.x / cumulative_trapezoid.x (Tensor y, Tensor x, *, int dim=-1) and the
 * .dx forms (Tensor y, *, Scalar dx=1 (float for trapz), int dim=-1). */
static int integral(TsCall *c, Integral w, bool with_x)
{
    TsArgs a;
    TsTensor *y, *x = NULL;
    int64_t dim;
    int d = 0;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &y);
    if (!rc && with_x) rc = ts_args_tensor(&a, 1, &x);
    if (!rc) rc = ts_args_int(&a, 2, &dim);
    if (!rc) rc = ts_aten_wrap_dim(dim, y->dim, false, &d, c->error);
    double dx = 1;
    bool dx_int = false;
    if (!rc && !with_x) {
        TsValue v = a.v[1];
        dx_int = v.tag == TS_TAG_INT || v.tag == TS_TAG_BOOL;
        dx = v.tag == TS_TAG_INT ? (double)v.u.i : v.tag == TS_TAG_BOOL ? v.u.b : v.u.d;
    }
    if (rc)
        return ts_args_fail(&a, rc);
    TsChain k;
    ts_chain_init(&k, c);
    TsTensor *r = NULL;
    if (y->sizes[d] == 0) {
        r = no_samples(&k, y, d, w);
    } else if (y->dtype == TS_BOOL || (x && x->dtype == TS_BOOL)) {
        ts_error_set(c->error, TS_ERR_RUNTIME, "%s: received a bool input for %s, but bool is "
                     "not supported", integral_name(w), x ? "`x` or `y`" : "`y`");
    } else if (!with_x) {
        r = with_spacing(&k, y, dx, dx_int, d, w);
    } else if (x->dim == 1 && x->sizes[0] != y->sizes[d]) {
        ts_error_set(c->error, TS_ERR_RUNTIME, "%s: There must be one `x` value for each "
                     "sample point", integral_name(w));
    } else {
        /* x of one dim lies along dim; one of fewer dims than y gets leading ones */
        TsTensor *xv = x;
        if (x->dim < y->dim) {
            int64_t sizes[TS_TENSOR_MAX_DIMS];
            for (int i = 0; i < y->dim; i++)
                sizes[i] = 1;
            if (x->dim == 1)
                sizes[d] = x->sizes[0];
            else
                memcpy(sizes + (y->dim - x->dim), x->sizes, (size_t)x->dim * sizeof *sizes);
            xv = ts_chain_op(&k, "aten::view", "", "tl", x, y->dim, sizes);
        }
        int64_t n = xv ? xv->sizes[d] : 0;
        TsTensor *spacings = ts_chain_op(
            &k, "aten::sub", "Tensor", "tti",
            ts_chain_op(&k, "aten::slice", "Tensor", "tiiii", xv, (int64_t)d, (int64_t)1, n,
                        (int64_t)1),
            ts_chain_op(&k, "aten::slice", "Tensor", "tiiii", xv, (int64_t)d, (int64_t)0,
                        n - 1, (int64_t)1),
            (int64_t)1);
        r = spacings ? with_spacings(&k, y, spacings, d, w) : NULL;
    }
    return ts_chain_return(&a, &k, r);
}

static int k_trapezoid_x(TsCall *c) { return integral(c, TRAPEZOID, true); }
static int k_trapezoid_dx(TsCall *c) { return integral(c, TRAPEZOID, false); }
static int k_trapz_x(TsCall *c) { return integral(c, TRAPZ, true); }
static int k_trapz_dx(TsCall *c) { return integral(c, TRAPZ, false); }
static int k_cumulative_x(TsCall *c) { return integral(c, CUMULATIVE, true); }
static int k_cumulative_dx(TsCall *c) { return integral(c, CUMULATIVE, false); }

/* ---- cov, corrcoef --------------------------------------------------------------------------- */

/* A weights argument's checks (PyTorch's words): one dim or none, one weight per observation,
 * the dtype kind, no negative weight. */
static int check_weights(TsCall *c, const TsTensor *wt, const char *what, bool integral,
                         int64_t observations)
{
    TsError *err = c->error;
    if (wt->dim > 1)
        return ts_error_set(err, TS_ERR_RUNTIME, "cov(): expected %s to have one or fewer "
                            "dimensions but got %s with %d dimensions", what, what, wt->dim);
    if (integral && !ts_dtype_is_integral(wt->dtype, false))
        return ts_error_set(err, TS_ERR_RUNTIME, "cov(): expected %s to have integral dtype but "
                            "got %s with %s dtype", what, what, ts_dtype_type_name(wt->dtype));
    if (!integral && !ts_dtype_is_floating(wt->dtype))
        return ts_error_set(err, TS_ERR_RUNTIME, "cov(): expected %s to have floating point "
                            "dtype but got %s with %s dtype", what, what,
                            ts_dtype_type_name(wt->dtype));
    int64_t n = ts_tensor_numel(wt);
    if (n != observations)
        return ts_error_set(err, TS_ERR_RUNTIME, "cov(): expected %s to have the same numel as "
                            "there are observations in the input but got %lld != %lld", what,
                            (long long)n, (long long)observations);
    TsTensor *d = ts_cpu_cast(wt, TS_FLOAT64, err);
    if (!d)
        return err->code;
    const double *v = ts_tensor_data(d);
    bool negative = false;
    for (int64_t i = 0; i < n && !negative; i++)
        negative = v[i] < 0;
    ts_tensor_release(d);
    if (negative)
        return ts_error_set(err, TS_ERR_RUNTIME, "cov(): %s cannot be negative", what);
    return 0;
}

/* The first element of a 0-dim tensor as a double. */
static double item(TsTensor *t, TsError *err, bool *ok)
{
    TsTensor *d = ts_cpu_cast(t, TS_FLOAT64, err);
    *ok = d != NULL;
    double v = d ? *(const double *)ts_tensor_data(d) : 0;
    if (d)
        ts_tensor_release(d);
    return v;
}

/* cov(self, correction, fweights, aweights) as PyTorch's composite computes it. */
static TsTensor *covariance(TsChain *k, TsTensor *self, int64_t correction, TsTensor *fw,
                            TsTensor *aw)
{
    TsCall *c = k->c;
    if (self->dim > 2) {
        ts_error_set(c->error, TS_ERR_RUNTIME, "cov(): expected input to have two or fewer "
                     "dimensions but got an input with %d dimensions", self->dim);
        return NULL;
    }
    if (self->dtype == TS_BOOL) {
        ts_error_set(c->error, TS_ERR_RUNTIME, "cov(): bool dtype is not supported for input");
        return NULL;
    }
    int64_t flat[2] = { 1, -1 };
    TsTensor *in = self->dim < 2 ? ts_chain_op(k, "aten::view", "", "tl", self, 2, flat) : self;
    if (!in)
        return NULL;
    int64_t obs = in->sizes[1];
    if ((fw && check_weights(c, fw, "fweights", true, obs)) ||
        (aw && check_weights(c, aw, "aweights", false, obs)))
        return NULL;
    TsTensor *w = fw && aw ? ts_chain_op(k, "aten::mul", "Tensor", "tt", fw, aw) : fw ? fw : aw;
    if ((fw || aw) && !w)
        return NULL;
    TsTensor *w_sum = w ? ts_chain_op(k, "aten::sum", "", "tn", w)
                        : ts_chain_op(k, "aten::scalar_tensor", "", "iinnn", obs,
                                      (int64_t)TS_INT64);
    if (!w_sum)
        return NULL;
    bool ok;
    double wsum = item(w_sum, c->error, &ok);
    if (!ok)
        return NULL;
    if (w && wsum == 0) {
        ts_error_set(c->error, TS_ERR_RUNTIME, "cov(): weights sum to zero, can't be "
                     "normalized");
        return NULL;
    }
    int64_t one = 1;
    TsTensor *weighted = w ? ts_chain_op(k, "aten::mul", "Tensor", "tt", in, w) : in;
    TsTensor *avg = ts_chain_op(k, "aten::div", "Tensor", "tt",
                                ts_chain_op(k, "aten::sum", "dim_IntList", "tlbn", weighted, 1,
                                            &one, 0),
                                w_sum);
    TsTensor *norm;
    if (w && aw && correction != 0)
        norm = ts_chain_op(k, "aten::sub", "Tensor", "tti", w_sum,
                           ts_chain_op(k, "aten::div", "Tensor", "tt",
                                       ts_chain_op(k, "aten::mul", "Scalar", "ti",
                                                   ts_chain_op(k, "aten::sum", "", "tn",
                                                               ts_chain_op(k, "aten::mul",
                                                                           "Tensor", "tt", w,
                                                                           aw)),
                                                   correction),
                                       w_sum),
                           (int64_t)1);
    else
        norm = ts_chain_op(k, "aten::sub", "Scalar", "tii", w_sum, correction, (int64_t)1);
    if (!norm || !avg)
        return NULL;
    double nf = item(norm, c->error, &ok);
    if (!ok)
        return NULL;
    if (nf <= 0) {
        fprintf(stderr, "Warning: cov(): degrees of freedom is <= 0\n");
        norm = ts_chain_op(k, "aten::mul", "Scalar", "ti", norm, (int64_t)0);
    }
    TsTensor *centered = ts_chain_op(k, "aten::sub", "Tensor", "tti", in,
                                     ts_chain_op(k, "aten::unsqueeze", "", "ti", avg,
                                                 (int64_t)1),
                                     (int64_t)1);
    TsTensor *rhs = w ? ts_chain_op(k, "aten::mul", "Tensor", "tt", centered, w) : centered;
    TsTensor *prod = ts_chain_op(k, "aten::mm", "", "tt", centered,
                                 ts_chain_op(k, "aten::t", "", "t", rhs));
    return ts_chain_op(k, "aten::squeeze", "", "t",
                       ts_chain_op(k, "aten::true_divide", "Tensor", "tt", prod, norm));
}

/* aten::cov(Tensor self, *, int correction=1, Tensor? fweights=None, Tensor? aweights=None) */
static int k_cov(TsCall *c)
{
    TsArgs a;
    TsTensor *self, *fw = NULL, *aw = NULL;
    int64_t correction;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &self);
    if (!rc) rc = ts_args_int(&a, 1, &correction);
    if (!rc) rc = ts_args_opt_tensor(&a, 2, &fw);
    if (!rc) rc = ts_args_opt_tensor(&a, 3, &aw);
    if (rc)
        return ts_args_fail(&a, rc);
    TsChain k;
    ts_chain_init(&k, c);
    return ts_chain_return(&a, &k, covariance(&k, self, correction, fw, aw));
}

/* aten::corrcoef(Tensor self): the covariance over the product of the standard deviations,
 * clipped to [-1, 1]; a single variable's is c / c (1, or NaN for a constant one). */
static int k_corrcoef(TsCall *c)
{
    TsArgs a;
    TsTensor *self;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &self);
    if (!rc && self->dim > 2)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "corrcoef(): expected input to have two or "
                          "fewer dimensions but got an input with %d dimensions", self->dim);
    if (rc)
        return ts_args_fail(&a, rc);
    TsChain k;
    ts_chain_init(&k, c);
    TsTensor *cv = covariance(&k, self, 1, NULL, NULL), *r = NULL;
    if (cv && cv->dim == 0) {
        r = ts_chain_op(&k, "aten::div", "Tensor", "tt", cv, cv);
    } else if (cv) {
        TsTensor *sd = ts_chain_op(&k, "aten::sqrt", "", "t",
                                   ts_chain_op(&k, "aten::diag", "", "ti", cv, (int64_t)0));
        int64_t col[2] = { -1, 1 }, row[2] = { 1, -1 };
        TsTensor *q = ts_chain_op(&k, "aten::div", "Tensor", "tt",
                                  ts_chain_op(&k, "aten::div", "Tensor", "tt", cv,
                                              ts_chain_op(&k, "aten::view", "", "tl", sd, 2,
                                                          col)),
                                  ts_chain_op(&k, "aten::view", "", "tl", sd, 2, row));
        r = ts_chain_op(&k, "aten::clip", "", "tdd", q, -1.0, 1.0);
    }
    return ts_chain_return(&a, &k, r);
}

static const TsCpuOp ops[] = {
    { "aten::trapezoid", "x", k_trapezoid_x },
    { "aten::trapezoid", "dx", k_trapezoid_dx },
    { "aten::trapz", "x", k_trapz_x },
    { "aten::trapz", "dx", k_trapz_dx },
    { "aten::cumulative_trapezoid", "x", k_cumulative_x },
    { "aten::cumulative_trapezoid", "dx", k_cumulative_dx },
    { "aten::cov", "", k_cov },
    { "aten::corrcoef", "", k_corrcoef },
};

const TsCpuTable ts_cpu_compose_stats_table = { ops, sizeof ops / sizeof ops[0] };
