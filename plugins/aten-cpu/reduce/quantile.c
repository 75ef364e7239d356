/* quantile.c — aten::quantile and aten::nanquantile, each with a tensor q (a scalar or a list
 * of levels) or a float q, over every element or along one dim.
 *
 * PyTorch sorts each row (NaN sorts last), turns a level q into a rank q * (n - 1) computed
 * in the input's dtype (n the row's length, or for nanquantile its count of non-NaN values;
 * quantile ranks a row holding a NaN at its last index, which reads the NaN), moves the rank
 * by the interpolation mode (lower floors it, higher ceils it, nearest rounds it half to
 * even) and reads the value there, linear and midpoint interpolating to the next one with
 * lerp's two-sided formula. This does the same, row by row, in the input's dtype.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/elementwise.h"

typedef enum Mode { LINEAR, LOWER, HIGHER, MIDPOINT, NEAREST } Mode;

static int mode_of(TsCall *c, const TsStr *s, Mode *m)
{
    static const char *const names[] = { "linear", "lower", "higher", "midpoint", "nearest" };
    for (int i = 0; i < 5; i++)
        if (strcmp(s->data, names[i]) == 0) {
            *m = (Mode)i;
            return 0;
        }
    return ts_error_set(c->error, TS_ERR_RUNTIME, "quantile() interpolation must be one of "
                        "linear, lower, higher, midpoint or nearest. Got %s", s->data);
}

static int cmp_nan_last(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    if (isnan(a) || isnan(b))
        return isnan(a) - isnan(b);
    return (a > b) - (a < b);
}

/* torch.lerp's formula, which is exact at both ends. */
static double lerp_d(double a, double b, double w)
{
    return w < 0.5 ? a + w * (b - a) : b - (b - a) * (1 - w);
}

static float lerp_f(float a, float b, float w)
{
    return w < 0.5f ? a + w * (b - a) : b - (b - a) * (1 - w);
}

/* The quantile at level q of the sorted row v[0..n), in double or float arithmetic. */
static double level(const double *v, int64_t n, double q, Mode m, bool ignore_nan, bool single)
{
    int64_t valid = n;
    if (ignore_nan)
        while (valid > 0 && isnan(v[valid - 1]))
            valid--;
    bool has_nan = valid < n || (n > 0 && isnan(v[n - 1]));
    double rank;
    float rankf;
    if (ignore_nan) {
        rank = q * (double)(valid - 1);
        rankf = (float)q * (float)(valid - 1);
        if (rank < 0) rank = 0;
        if (rankf < 0) rankf = 0;
    } else if (has_nan) {
        rank = rankf = (float)(n - 1);
    } else {
        rank = q * (double)(n - 1);
        rankf = (float)q * (float)(n - 1);
    }
    if (single)
        rank = rankf;
    if (m == LOWER)
        rank = single ? floorf((float)rank) : floor(rank);
    else if (m == HIGHER)
        rank = single ? ceilf((float)rank) : ceil(rank);
    else if (m == NEAREST)
        rank = single ? nearbyintf((float)rank) : nearbyint(rank);
    int64_t below = (int64_t)rank;
    double lo = v[below];
    if (m != LINEAR && m != MIDPOINT)
        return lo;
    double w = m == MIDPOINT ? 0.5 : single ? (double)((float)rank - (float)below) : rank - (double)below;
    double hi = v[(int64_t)(single ? ceilf((float)rank) : ceil(rank))];
    return single ? (double)lerp_f((float)lo, (float)hi, (float)w) : lerp_d(lo, hi, w);
}

/* quantile(Tensor self, Tensor q, int? dim=None, bool keepdim=False, *, str interpolation)
 * and its .scalar form (float q); nanquantile the same. */
static int quantile(TsCall *c, bool ignore_nan)
{
    TsArgs a;
    TsTensor *x, *qt = NULL, *o = NULL;
    const TsStr *interp;
    int64_t dim = 0;
    bool has_dim, keep;
    Mode m = LINEAR;
    double qs = 0;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x);
    bool scalar_q = !rc && a.v[1].tag != TS_TAG_TENSOR;
    if (!rc && scalar_q) rc = ts_args_float(&a, 1, &qs);
    if (!rc && !scalar_q) rc = ts_args_tensor(&a, 1, &qt);
    if (!rc) rc = ts_args_opt_int(&a, 2, &dim, &has_dim);
    if (!rc) rc = ts_args_bool(&a, 3, &keep);
    if (!rc) rc = ts_args_str(&a, 4, &interp);
    if (!rc && scalar_q && !(qs >= 0 && qs <= 1))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "quantile() q must be in the range [0, 1] "
                          "but got %g", qs);
    if (!rc) rc = mode_of(c, interp, &m);
    if (!rc && ts_tensor_numel(x) == 0)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "quantile() input tensor must be non-empty");
    if (!rc && qt && qt->dim > 1)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "quantile() q must be a scalar or 1D "
                          "tensor");
    if (!rc && x->dtype != TS_FLOAT32 && x->dtype != TS_FLOAT64)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "quantile() input tensor must be either "
                          "float or double dtype");
    if (!rc && qt && qt->dtype != x->dtype)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "quantile() q tensor must be same dtype as "
                          "the input tensor");
    int d = 0;
    if (!rc && has_dim) rc = ts_aten_wrap_dim(dim, x->dim, true, &d, c->error);
    if (rc)
        return ts_args_fail(&a, rc);
    /* the levels, as doubles */
    int64_t nq = qt ? ts_tensor_numel(qt) : 1;
    TsTensor *qd = qt ? ts_cpu_cast(qt, TS_FLOAT64, c->error) : NULL;
    if (qt && !qd)
        return ts_args_fail(&a, c->error->code);
    const double *qv = qd ? ts_tensor_data(qd) : &qs;
    for (int64_t i = 0; i < nq && !rc; i++)
        if (!(qv[i] >= 0 && qv[i] <= 1))
            rc = ts_error_set(c->error, TS_ERR_RUNTIME, "quantile() q values must be in the "
                              "range [0, 1]");
    /* the input as contiguous doubles; rows along dim (or one row of everything) */
    TsTensor *xd = rc ? NULL : ts_cpu_cast(x, TS_FLOAT64, c->error);
    double *row = NULL;
    int64_t n = 0, outer = 1, inner = 1;
    if (xd) {
        if (has_dim && x->dim > 0) {
            n = x->sizes[d];
            for (int i = 0; i < d; i++)
                outer *= x->sizes[i];
            for (int i = d + 1; i < x->dim; i++)
                inner *= x->sizes[i];
        } else {
            n = ts_tensor_numel(x);
        }
        row = malloc((size_t)(n ? n : 1) * sizeof *row);
    }
    /* the output: q's levels first (for a 1-D q), then the reduced shape */
    int64_t sizes[TS_TENSOR_MAX_DIMS + 1];
    int od = 0;
    if (qt && qt->dim == 1)
        sizes[od++] = nq;
    for (int i = 0; i < x->dim; i++) {
        if (has_dim && i != d)
            sizes[od++] = x->sizes[i];
        else if (keep)
            sizes[od++] = 1;
    }
    if (xd && row)
        o = ts_cpu_empty(x->dtype, od, sizes, c->error);
    if (!rc && (!xd || !row))
        rc = c->error->code ? (int)c->error->code
                            : ts_error_set(c->error, TS_ERR_NOMEM, "out of memory");
    if (!rc && !o)
        rc = c->error->code;
    if (!rc) {
        const double *src = ts_tensor_data(xd);
        bool single = x->dtype == TS_FLOAT32;
        int64_t rows = outer * inner;
        for (int64_t r = 0; r < rows; r++) {
            int64_t o_i = r / inner, i_i = r % inner;
            for (int64_t j = 0; j < n; j++)
                row[j] = src[(o_i * n + j) * inner + i_i];
            qsort(row, (size_t)n, sizeof *row, cmp_nan_last);
            for (int64_t k = 0; k < nq; k++) {
                double v = level(row, n, qv[k], m, ignore_nan, single);
                int64_t at = k * rows + r;
                if (single)
                    ((float *)ts_tensor_data(o))[at] = (float)v;
                else
                    ((double *)ts_tensor_data(o))[at] = v;
            }
        }
    }
    free(row);
    if (xd)
        ts_tensor_release(xd);
    if (qd)
        ts_tensor_release(qd);
    if (rc && o) {
        ts_tensor_release(o);
        o = NULL;
    }
    return ts_args_return_tensor(&a, rc, o);
}

static int k_quantile(TsCall *c) { return quantile(c, false); }
static int k_nanquantile(TsCall *c) { return quantile(c, true); }

static const TsCpuOp ops[] = {
    { "aten::quantile", "", k_quantile },
    { "aten::quantile", "scalar", k_quantile },
    { "aten::nanquantile", "", k_nanquantile },
    { "aten::nanquantile", "scalar", k_nanquantile },
};

const TsCpuTable ts_cpu_quantile_table = { ops, sizeof ops / sizeof ops[0] };
