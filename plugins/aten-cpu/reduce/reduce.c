/* reduce.c — reductions over any subset of dims: sum, nansum, mean, prod, max, min, amax,
 * amin, aminmax, nanmean, argmax, argmin, std, var, std_mean, var_mean, norm (and frobenius_norm,
 * linalg_vector_norm), all, any, logsumexp, count_nonzero, each with its dim/keepdim/dtype/
 * out= overloads.
 *
 * An operation is an accumulator (RedOp) folded over chunks of gathered elements, so no
 * reduction needs memory in proportion to its input: floating inputs fold in double (float32
 * sums are exact up to 2^53; float64 sums are pairwise within a chunk), integral and bool
 * inputs in int64 with wrapping arithmetic. Each overload is a RedSpec: where its arguments
 * are on the stack and how its result dtype follows PyTorch's rules (aten-common's
 * reduce_args.c reads and checks them); one driver runs them all.
 * Large reductions to many values are split over threads by output position.
 */
#include <math.h>
#include <stdlib.h>

#include "reduce/reduce.h"
#include "shape/shape_ops.h"

#define CHUNK 1024
/* Input elements per chunk when a reduction is split over threads (by output positions;
 * a reduction to one value stays on one thread, so results never depend on the count). */
#define RED_GRAIN 32768

/* The state of one output position. */
typedef struct Acc {
    double d, m2;              /* sum, product, extreme, mean or running max; M2 of var */
    int64_t i;                 /* the integer value, or the flag of all/any */
    int64_t n;                 /* elements folded in so far */
    int64_t at;                /* index of the extreme; -1 before the first element */
    bool nan;                  /* a nan was seen (logsumexp) */
} Acc;

typedef struct RedOp {
    double init_d;
    int64_t init_i;
    bool int_result;           /* the result is Acc.i in both domains (all, any, count) */
    void (*fold_d)(Acc *a, const double *x, int64_t n, double p);
    void (*fold_i)(Acc *a, const int64_t *x, int64_t n, double p);
    double (*final)(const Acc *a, double p);   /* NULL: Acc.d */
} RedOp;

static double pairwise(const double *x, int64_t n)
{
    if (n <= 32) {
        double s = 0;
        for (int64_t k = 0; k < n; k++)
            s += x[k];
        return s;
    }
    return pairwise(x, n / 2) + pairwise(x + n / 2, n - n / 2);
}

/* ---- the folds ------------------------------------------------------------------ */

static void sum_d(Acc *a, const double *x, int64_t n, double p)
{
    (void)p;
    a->d += pairwise(x, n);
}

static void sum_i(Acc *a, const int64_t *x, int64_t n, double p)
{
    (void)p;
    uint64_t s = (uint64_t)a->i;
    for (int64_t k = 0; k < n; k++)
        s += (uint64_t)x[k];
    a->i = (int64_t)s;
}

static void nansum_d(Acc *a, const double *x, int64_t n, double p)
{
    (void)p;
    for (int64_t k = 0; k < n; k++)
        if (!isnan(x[k]))
            a->d += x[k];
}

/* nanmean: the sum of the numbers in d, how many there were in m2 */
static void nanmean_d(Acc *a, const double *x, int64_t n, double p)
{
    (void)p;
    for (int64_t k = 0; k < n; k++)
        if (!isnan(x[k])) {
            a->d += x[k];
            a->m2 += 1;
        }
}

static double nanmean_final(const Acc *a, double p)
{
    (void)p;
    return a->d / a->m2;
}

static double mean_final(const Acc *a, double p)
{
    (void)p;
    return a->d / (double)a->n;
}

static void prod_d(Acc *a, const double *x, int64_t n, double p)
{
    (void)p;
    for (int64_t k = 0; k < n; k++)
        a->d *= x[k];
}

static void prod_i(Acc *a, const int64_t *x, int64_t n, double p)
{
    (void)p;
    uint64_t s = (uint64_t)a->i;
    for (int64_t k = 0; k < n; k++)
        s *= (uint64_t)x[k];
    a->i = (int64_t)s;
}

/* max and min keep the first extreme; a nan beats everything and the first nan stays */
static void max_d(Acc *a, const double *x, int64_t n, double p)
{
    (void)p;
    for (int64_t k = 0; k < n && !(a->at >= 0 && isnan(a->d)); k++)
        if (a->at < 0 || x[k] > a->d || isnan(x[k])) {
            a->d = x[k];
            a->at = a->n + k;
        }
}

static void min_d(Acc *a, const double *x, int64_t n, double p)
{
    (void)p;
    for (int64_t k = 0; k < n && !(a->at >= 0 && isnan(a->d)); k++)
        if (a->at < 0 || x[k] < a->d || isnan(x[k])) {
            a->d = x[k];
            a->at = a->n + k;
        }
}

static void max_i(Acc *a, const int64_t *x, int64_t n, double p)
{
    (void)p;
    for (int64_t k = 0; k < n; k++)
        if (a->at < 0 || x[k] > a->i) {
            a->i = x[k];
            a->at = a->n + k;
        }
}

static void min_i(Acc *a, const int64_t *x, int64_t n, double p)
{
    (void)p;
    for (int64_t k = 0; k < n; k++)
        if (a->at < 0 || x[k] < a->i) {
            a->i = x[k];
            a->at = a->n + k;
        }
}

static void all_d(Acc *a, const double *x, int64_t n, double p)
{
    (void)p;
    for (int64_t k = 0; k < n; k++)
        a->i &= x[k] != 0;
}

static void all_i(Acc *a, const int64_t *x, int64_t n, double p)
{
    (void)p;
    for (int64_t k = 0; k < n; k++)
        a->i &= x[k] != 0;
}

static void any_d(Acc *a, const double *x, int64_t n, double p)
{
    (void)p;
    for (int64_t k = 0; k < n; k++)
        a->i |= x[k] != 0;
}

static void any_i(Acc *a, const int64_t *x, int64_t n, double p)
{
    (void)p;
    for (int64_t k = 0; k < n; k++)
        a->i |= x[k] != 0;
}

static void count_d(Acc *a, const double *x, int64_t n, double p)
{
    (void)p;
    for (int64_t k = 0; k < n; k++)
        a->i += x[k] != 0;
}

static void count_i(Acc *a, const int64_t *x, int64_t n, double p)
{
    (void)p;
    for (int64_t k = 0; k < n; k++)
        a->i += x[k] != 0;
}

/* var: each chunk's mean and M2 by two passes, merged into the running ones (Chan et al.) */
static void var_d(Acc *a, const double *x, int64_t n, double p)
{
    (void)p;
    double mean = pairwise(x, n) / (double)n, m2 = 0;
    for (int64_t k = 0; k < n; k++)
        m2 += (x[k] - mean) * (x[k] - mean);
    double total = (double)(a->n + n), delta = mean - a->d;
    a->d += delta * (double)n / total;
    a->m2 += m2 + delta * delta * (double)a->n * (double)n / total;
}

/* p is the correction; a divisor below zero counts as zero (inf or nan, like PyTorch) */
static double var_final(const Acc *a, double p)
{
    double div = (double)a->n - p;
    return a->n ? a->m2 / (div > 0 ? div : 0) : NAN;
}

static double std_final(const Acc *a, double p)
{
    return sqrt(var_final(a, p));
}

/* norms: p is the order */
static void norm_d(Acc *a, const double *x, int64_t n, double p)
{
    for (int64_t k = 0; k < n; k++) {
        double v = fabs(x[k]);
        if (p == 2)
            a->d += v * v;
        else if (p == 1)
            a->d += v;
        else if (p == 0)
            a->d += v != 0;
        else if (isinf(p)) {
            if (a->at < 0 || isnan(v) || (p > 0 ? v > a->d : v < a->d))
                a->d = isnan(a->d) ? a->d : v;
            a->at = 0;
        } else
            a->d += pow(v, p);
    }
}

static double norm_final(const Acc *a, double p)
{
    if (p == 2)
        return sqrt(a->d);
    if (p == 1 || p == 0)
        return a->d;
    if (isinf(p))
        return a->at < 0 ? 0 : a->d;
    return pow(a->d, 1 / p);
}

/* logsumexp: the running max in d and the sum of exp(x - max) in m2 */
static void lse_d(Acc *a, const double *x, int64_t n, double p)
{
    (void)p;
    double m = -INFINITY;
    for (int64_t k = 0; k < n; k++) {
        if (isnan(x[k]))
            a->nan = true;
        if (x[k] > m)
            m = x[k];
    }
    if (m == -INFINITY)
        return;
    if (m > a->d) {
        a->m2 = a->d == -INFINITY ? 0 : a->m2 * exp(a->d - m);
        a->d = m;
    }
    if (isinf(a->d))
        return;
    for (int64_t k = 0; k < n; k++)
        a->m2 += exp(x[k] - a->d);
}

static double lse_final(const Acc *a, double p)
{
    (void)p;
    if (a->nan)
        return NAN;
    return isinf(a->d) ? a->d : a->d + log(a->m2);
}

static const RedOp op_sum = { 0, 0, false, sum_d, sum_i, NULL };
static const RedOp op_nansum = { 0, 0, false, nansum_d, sum_i, NULL };
static const RedOp op_mean = { 0, 0, false, sum_d, NULL, mean_final };
static const RedOp op_nanmean = { 0, 0, false, nanmean_d, NULL, nanmean_final };
static const RedOp op_prod = { 1, 1, false, prod_d, prod_i, NULL };
static const RedOp op_max = { 0, 0, false, max_d, max_i, NULL };
static const RedOp op_min = { 0, 0, false, min_d, min_i, NULL };
static const RedOp op_all = { 0, 1, true, all_d, all_i, NULL };
static const RedOp op_any = { 0, 0, true, any_d, any_i, NULL };
static const RedOp op_count = { 0, 0, true, count_d, count_i, NULL };
static const RedOp op_var = { 0, 0, false, var_d, NULL, var_final };
static const RedOp op_std = { 0, 0, false, var_d, NULL, std_final };
static const RedOp op_norm = { 0, 0, false, norm_d, NULL, norm_final };
static const RedOp op_lse = { -INFINITY, 0, false, lse_d, NULL, lse_final };

/* ---- the driver -------------------------------------------------------------------- */

/* What an overload returns. */
typedef enum RedForm {
    F_VALUE,                   /* the reduced values */
    F_PAIR,                    /* (values, indices) of max.dim, min.dim */
    F_INDEX,                   /* argmax, argmin */
    F_STAT_PAIR,               /* (std or var, mean) */
} RedForm;

/* An overload: PyTorch's name for it, its fold, its result dtype rule and form, and where
 * its arguments are. */
typedef struct RedSpec {
    const char *name;          /* "sum", as PyTorch's messages say it */
    const RedOp *op;
    TsAtenRedKind kind;
    RedForm form;
    TsAtenRedPos at;
} RedSpec;

typedef struct RedCall {
    const RedSpec *s;
    TsTensor *x;               /* the input, cast when dtype= asks (owned) */
    int result;                /* result dtype */
    TsAtenRedArgs g;           /* the reduced dims, keepdim, p, dtype= */
} RedCall;

static int result_dtype(TsCall *c, RedCall *rc)
{
    const RedSpec *s = rc->s;
    int in = rc->x->dtype, cast;
    if (s->op == &op_nanmean && !ts_dtype_is_floating(in))
        return ts_error_set(c->error, TS_ERR_RUNTIME, "nanmean(): expected input to have "
                            "floating point dtype but got %s", ts_dtype_type_name(in));
    if (ts_aten_red_dtype(s->kind, s->name, s->form == F_STAT_PAIR, in, rc->g.dtype,
                          &rc->result, &cast, c->error))
        return c->error->code;
    if (cast >= 0) {
        TsTensor *t = ts_cpu_cast(rc->x, cast, c->error);
        if (!t)
            return c->error->code;
        ts_tensor_release(rc->x);
        rc->x = t;
    }
    return 0;
}

/* The dtypes PyTorch 1.13's cpu kernels lack, named as its messages name the kernel; checked
 * on the input after any dtype= cast, as PyTorch dispatches on it. */
static int check_kernel(TsCall *c, const RedCall *rc)
{
    int dt = rc->x->dtype;
    const char *kernel = NULL;
    if (rc->s->op == &op_prod && (dt == TS_FLOAT16 || dt == TS_BFLOAT16))
        kernel = "prod_cpu";
    else if (rc->s->form == F_INDEX && dt == TS_BOOL)
        kernel = rc->s->op == &op_max ? "argmax_cpu" : "argmin_cpu";
    else if (rc->s->op == &op_lse && dt == TS_FLOAT16)
        kernel = "exp_vml_cpu";
    if (!kernel)
        return 0;
    return ts_error_set(c->error, TS_ERR_RUNTIME, "\"%s\" not implemented for '%s'", kernel,
                        ts_dtype_type_name(dt));
}

/* PyTorch's checks for reductions that have no identity (max, argmax, amax, ...). */
static int check_nonempty(TsCall *c, const RedCall *rc)
{
    const RedSpec *s = rc->s;
    if (s->op != &op_max && s->op != &op_min)
        return 0;
    return ts_aten_red_check_nonempty(s->name, s->form == F_INDEX, rc->x, &rc->g, c->error);
}

/* One reduction's output positions, to compute in ranges (on several threads when large). */
typedef struct RedRun {
    const RedOp *op;
    const TsCpuRed *r;
    bool fd;                   /* gathers doubles (else int64s) */
    double p;
    TsTensor *v, *ix, *mn;     /* values (int64 or float64), indices, means; ix, mn optional */
    int cascade;               /* a float32 sum in PyTorch's order (cascade.c): CASCADE_* */
    int64_t cstride, ccols;    /* CASCADE_OUTER: the run's stride (floats) and the columns, */
    int64_t cgrouped;          /* of which the first cgrouped sum by the cascade alone */
} RedRun;

enum { CASCADE_NONE, CASCADE_INNER, CASCADE_OUTER };

/* Are the elements each output position reduces one run of consecutive values (the
 * reduced dims innermost and contiguous), as PyTorch's inner sum reads them? */
static bool contiguous_run(const TsCpuRed *r)
{
    int64_t want = (int64_t)ts_dtype_size(r->dtype);
    for (int d = r->nr - 1; d >= 0; d--) {
        if (r->rsize[d] == 1)
            continue;
        if (r->rstride[d] != want)
            return false;
        want *= r->rsize[d];
    }
    return true;
}

/* Do the reduced dims, taken in the order of their strides, cover one block of memory from
 * element 0 on (a permuted contiguous tensor, x.t())? A whole reduction of one is read in
 * memory order, as PyTorch's iterator coalesces it. */
static bool dense_block(const TsCpuRed *r)
{
    int64_t want = (int64_t)ts_dtype_size(r->dtype);
    bool used[TS_TENSOR_MAX_DIMS] = { false };
    for (int n = 0; n < r->nr; n++) {
        int pick = -1;         /* the unused dim of the smallest stride */
        for (int d = 0; d < r->nr; d++)
            if (!used[d] && r->rsize[d] > 1 && (pick < 0 || r->rstride[d] < r->rstride[pick]))
                pick = d;
        if (pick < 0)
            break;
        if (r->rstride[pick] != want)
            return false;
        used[pick] = true;
        want *= r->rsize[pick];
    }
    return true;
}

/* How PyTorch's sum reads the runs of r: CASCADE_INNER when each output's elements are one
 * run of consecutive values; CASCADE_OUTER when they are one run a stride apart and the
 * outputs' innermost dims are contiguous (x.sum(0)), with that stride and the number of
 * those columns; else CASCADE_NONE (other layouts keep the double fold). */
static int cascade_kind(const TsCpuRed *r, int64_t *stride, int64_t *columns,
                        int64_t *grouped)
{
    if (contiguous_run(r) || (r->nout == 1 && dense_block(r)))
        return CASCADE_INNER;
    int64_t es = (int64_t)ts_dtype_size(r->dtype), st = 0, want = 0;
    for (int d = r->nr - 1; d >= 0; d--) {
        if (r->rsize[d] == 1)
            continue;
        if (st == 0)
            st = r->rstride[d];
        else if (r->rstride[d] != want)
            return CASCADE_NONE;
        want = r->rstride[d] * r->rsize[d];
    }
    if (st <= 0 || st % es != 0)
        return CASCADE_NONE;
    /* the innermost kept dims that coalesce (each a whole step of the one inside it) */
    int64_t cols = 1, kst = 0, next = 0;
    for (int k = r->nk - 1; k >= 0; k--) {
        if (r->ksize[k] == 1)
            continue;
        if (kst == 0)
            kst = r->kstride[k];
        else if (r->kstride[k] != next)
            break;
        cols *= r->ksize[k];
        next = r->kstride[k] * r->ksize[k];
    }
    if (cols == 1 || kst <= 0)
        return CASCADE_NONE;
    if (kst == es)             /* vectorized: groups of 32 columns, or of 4 under 8 */
        *grouped = cols < 8 ? cols / 4 * 4 : cols / 32 * 32;
    else if (kst < st)         /* columns a stride apart: groups of 4 */
        *grouped = cols / 4 * 4;
    else                       /* the run is the inner dim: every column by partial sums */
        *grouped = 0;
    *stride = st / es;
    *columns = cols;
    return CASCADE_OUTER;
}


/* Output positions [b, e): each folds its whole run, so the result does not depend on how
 * the positions are split. */
static int reduce_range(void *ctx, int64_t b, int64_t e, TsError *err)
{
    (void)err;
    const RedRun *w = ctx;
    const RedOp *op = w->op;
    const TsCpuRed *r = w->r;
    union { double d[CHUNK]; int64_t i[CHUNK]; } buf;
    for (int64_t o = b; o < e; o++) {
        Acc a = { op->init_d, 0, op->init_i, 0, -1, false };
        const char *base = r->nred ? ts_cpu_red_base(r, o) : NULL;
        if (w->cascade != CASCADE_NONE && r->nred > 0) {
            const float *x = (const float *)(const void *)base;
            a.d = w->cascade == CASCADE_INNER
                      ? ts_cpu_cascade_sum_f32(x, r->nred)
                      : ts_cpu_cascade_column_f32(x, r->nred, w->cstride,
                                                  o % w->ccols < w->cgrouped);
            a.n = r->nred;
        }
        for (int64_t start = 0; w->cascade == CASCADE_NONE && start < r->nred; start += CHUNK) {
            int64_t m = r->nred - start < CHUNK ? r->nred - start : CHUNK;
            if (w->fd) {
                ts_cpu_gather_d(r, base, start, m, buf.d);
                op->fold_d(&a, buf.d, m, w->p);
            } else {
                ts_cpu_gather_i(r, base, start, m, buf.i);
                op->fold_i(&a, buf.i, m, w->p);
            }
            a.n += m;
        }
        if (w->v->dtype == TS_INT64)
            ((int64_t *)ts_tensor_data(w->v))[o] = a.i;
        else
            ((double *)ts_tensor_data(w->v))[o] = op->final ? op->final(&a, w->p) : a.d;
        if (w->ix)
            ((int64_t *)ts_tensor_data(w->ix))[o] = a.at < 0 ? 0 : a.at;
        if (w->mn)
            ((double *)ts_tensor_data(w->mn))[o] = a.n ? a.d : NAN;
    }
    return 0;
}

/* Runs the reduction: values in *vals (result dtype) and, for max/min, indices in *idx. */
static int run_reduce(TsCall *c, const RedCall *rc, TsTensor **vals, TsTensor **idx,
                      TsTensor **mean)
{
    const RedOp *op = rc->s->op;
    TsCpuRed r;
    int dim;
    int64_t sizes[TS_TENSOR_MAX_DIMS];
    bool fd = ts_dtype_is_floating(rc->x->dtype);
    ts_aten_red_shape(rc->x, rc->g.mask, rc->g.keepdim, &dim, sizes);
    ts_cpu_red_plan(rc->x, rc->g.mask, &r);
    int work = fd && !op->int_result ? TS_FLOAT64 : TS_INT64;
    TsTensor *v = ts_cpu_empty(work, dim, sizes, c->error);
    TsTensor *ix = v && idx ? ts_cpu_empty(TS_INT64, dim, sizes, c->error) : NULL;
    TsTensor *mn = v && mean ? ts_cpu_empty(TS_FLOAT64, dim, sizes, c->error) : NULL;
    if (!v || (idx && !ix) || (mean && !mn)) {
        if (v)
            ts_tensor_release(v);
        if (ix)
            ts_tensor_release(ix);
        return c->error->code;
    }
    RedRun w = { op, &r, fd, rc->g.p, v, ix, mn, CASCADE_NONE, 0, 1, 0 };
    if ((op == &op_sum || op == &op_mean) && rc->x->dtype == TS_FLOAT32 &&
        rc->result == TS_FLOAT32)
        w.cascade = cascade_kind(&r, &w.cstride, &w.ccols, &w.cgrouped);
    /* split over threads by output positions, each chunk RED_GRAIN elements or more */
    int64_t grain = r.nred > 0 ? (RED_GRAIN + r.nred - 1) / r.nred : r.nout;
    ts_parallel_for(0, r.nout, grain > 0 ? grain : 1, reduce_range, &w, NULL);
    *vals = ts_cpu_finish(v, rc->result, c->error);
    if (mn)
        *mean = ts_cpu_finish(mn, rc->result, c->error);
    if (idx)
        *idx = ix;
    if (!*vals || (mean && !*mean)) {
        if (*vals)
            ts_tensor_release(*vals);
        if (mean && *mean)
            ts_tensor_release(*mean);
        if (ix)
            ts_tensor_release(ix);
        return c->error->code;
    }
    return 0;
}

/* Moves argument i out of a (an out= tensor that becomes the result). */
static TsValue take_arg(TsArgs *a, size_t i)
{
    TsValue v = a->v[i];
    a->v[i] = ts_none();
    return v;
}

static int run(TsCall *c, const RedSpec *s)
{
    TsArgs a;
    RedCall rc = { s, NULL, 0, { 0, false, false, 0, -1 } };
    TsTensor *x = NULL, *out = NULL, *out2 = NULL, *vals = NULL, *idx = NULL, *mean = NULL;
    int st = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!st)
        st = ts_args_tensor(&a, 0, &x);
    if (!st && s->at.out)
        st = ts_args_tensor(&a, (size_t)s->at.out, &out);
    if (!st && s->at.out2)
        st = ts_args_tensor(&a, (size_t)s->at.out2, &out2);
    if (!st) {
        ts_tensor_retain(x);
        rc.x = x;
        st = ts_aten_red_args(&a, &s->at, x->dim, s->op == &op_norm, ts_cpu_dtype_arg,
                              &rc.g);
    }
    if (!st)
        st = result_dtype(c, &rc);
    if (!st)
        st = check_kernel(c, &rc);
    if (!st)
        st = check_nonempty(c, &rc);
    if (!st)
        st = run_reduce(c, &rc, &vals, s->form == F_PAIR || s->form == F_INDEX ? &idx : NULL,
                        s->form == F_STAT_PAIR ? &mean : NULL);
    if (rc.x)
        ts_tensor_release(rc.x);
    if (!st && s->form == F_INDEX) {
        ts_tensor_release(vals);
        vals = idx;
        idx = NULL;
    }
    TsValue r1 = ts_none(), r2 = ts_none();
    if (!st && out) {
        st = ts_cpu_store_out(out, vals, c->error);
        if (!st && out2)
            st = ts_cpu_store_out(out2, idx, c->error);
        r1 = take_arg(&a, (size_t)s->at.out);
        if (out2)
            r2 = take_arg(&a, (size_t)s->at.out2);
    } else if (!st) {
        r1 = ts_obj_value(vals, TS_TAG_TENSOR);
        vals = NULL;
        if (idx || mean) {
            r2 = ts_obj_value(idx ? idx : mean, TS_TAG_TENSOR);
            idx = mean = NULL;
        }
    }
    if (vals)
        ts_tensor_release(vals);
    if (idx)
        ts_tensor_release(idx);
    if (mean)
        ts_tensor_release(mean);
    if (s->form == F_PAIR || s->form == F_STAT_PAIR)
        return ts_args_return_values(&a, st, 2, (TsValue[]){ r1, r2 });
    return ts_args_return(&a, st, r1);
}

/* ---- the overloads ------------------------------------------------------------------ */

/* KERNEL(fn, name, op, kind, form, ...fields): a RedSpec and its kernel function; kind is
 * a TsAtenRedKind without its TS_ATEN_RED_ prefix, fields a TsAtenRedPos. */
#define KERNEL(FN, NAME, OP, KIND, FORM, ...) \
    static const RedSpec FN##_spec = { NAME, &OP, TS_ATEN_RED_##KIND, FORM, { __VA_ARGS__ } }; \
    static int FN(TsCall *c) { return run(c, &FN##_spec); }

/* fields: dim, keep, dtype, out, out2, p, unbiased, correction */
#define SUMLIKE(P, NAME, OP, KIND) \
    KERNEL(k_##P, NAME, OP, KIND, F_VALUE, 0, 0, 1, 0, 0, 0, 0, 0) \
    KERNEL(k_##P##_out, NAME, OP, KIND, F_VALUE, 0, 0, 1, 2, 0, 0, 0, 0) \
    KERNEL(k_##P##_dim, NAME, OP, KIND, F_VALUE, 1, 2, 3, 0, 0, 0, 0, 0) \
    KERNEL(k_##P##_dim_out, NAME, OP, KIND, F_VALUE, 1, 2, 3, 4, 0, 0, 0, 0)
SUMLIKE(sum, "sum", op_sum, SUM)
KERNEL(k_mean, "mean", op_mean, MEAN, F_VALUE, 0, 0, 1, 0, 0, 0, 0, 0)
KERNEL(k_mean_dim, "mean", op_mean, MEAN, F_VALUE, 1, 2, 3, 0, 0, 0, 0, 0)
KERNEL(k_mean_dim_out, "mean", op_mean, MEAN, F_VALUE, 1, 2, 3, 4, 0, 0, 0, 0)
SUMLIKE(prod, "prod", op_prod, SUM)
KERNEL(k_nanmean, "nanmean", op_nanmean, MEAN, F_VALUE, 1, 2, 3, 0, 0, 0, 0, 0)
KERNEL(k_nanmean_out, "nanmean", op_nanmean, MEAN, F_VALUE, 1, 2, 3, 4, 0, 0, 0, 0)
KERNEL(k_nansum, "nansum", op_nansum, SUM, F_VALUE, 1, 2, 3, 0, 0, 0, 0, 0)
KERNEL(k_nansum_out, "nansum", op_nansum, SUM, F_VALUE, 1, 2, 3, 4, 0, 0, 0, 0)

#define MAXLIKE(P, NAME, ANAME, ARGNAME, OP) \
    KERNEL(k_##P, NAME, OP, SAME, F_VALUE, 0, 0, 0, 0, 0, 0, 0, 0) \
    KERNEL(k_##P##_dim, NAME, OP, SAME, F_PAIR, 1, 2, 0, 0, 0, 0, 0, 0) \
    KERNEL(k_##P##_dim_out, NAME, OP, SAME, F_PAIR, 1, 2, 0, 3, 4, 0, 0, 0) \
    KERNEL(k_##P##_a, ANAME, OP, SAME, F_VALUE, 1, 2, 0, 0, 0, 0, 0, 0) \
    KERNEL(k_##P##_a_out, ANAME, OP, SAME, F_VALUE, 1, 2, 0, 3, 0, 0, 0, 0) \
    KERNEL(k_##P##_arg, ARGNAME, OP, INDEX, F_INDEX, 1, 2, 0, 0, 0, 0, 0, 0) \
    KERNEL(k_##P##_arg_out, ARGNAME, OP, INDEX, F_INDEX, 1, 2, 0, 3, 0, 0, 0, 0)
MAXLIKE(max, "max", "amax", "argmax", op_max)
MAXLIKE(min, "min", "amin", "argmin", op_min)

#define VARLIKE(P, NAME, OP, FORM) \
    KERNEL(k_##P, NAME, OP, VAR, FORM, 0, 0, 0, 0, 0, 0, 1, 0) \
    KERNEL(k_##P##_dim, NAME, OP, VAR, FORM, 1, 3, 0, 0, 0, 0, 2, 0) \
    KERNEL(k_##P##_corr, NAME, OP, VAR, FORM, 1, 3, 0, 0, 0, 0, 0, 2)
VARLIKE(std, "std", op_std, F_VALUE)
VARLIKE(var, "var", op_var, F_VALUE)
VARLIKE(std_mean, "std_mean", op_std, F_STAT_PAIR)
VARLIKE(var_mean, "var_mean", op_var, F_STAT_PAIR)
KERNEL(k_std_out, "std", op_std, VAR, F_VALUE, 1, 3, 0, 4, 0, 0, 2, 0)
KERNEL(k_std_corr_out, "std", op_std, VAR, F_VALUE, 1, 3, 0, 4, 0, 0, 0, 2)
KERNEL(k_var_out, "var", op_var, VAR, F_VALUE, 1, 3, 0, 4, 0, 0, 2, 0)
KERNEL(k_var_corr_out, "var", op_var, VAR, F_VALUE, 1, 3, 0, 4, 0, 0, 0, 2)

KERNEL(k_norm, "norm", op_norm, NORM, F_VALUE, 0, 0, 0, 0, 0, 1, 0, 0)
KERNEL(k_norm_out, "norm", op_norm, NORM, F_VALUE, 0, 0, 0, 2, 0, 1, 0, 0)
KERNEL(k_norm_dim, "norm", op_norm, NORM, F_VALUE, 2, 3, 0, 0, 0, 1, 0, 0)
KERNEL(k_norm_dim_out, "norm", op_norm, NORM, F_VALUE, 2, 3, 0, 4, 0, 1, 0, 0)
KERNEL(k_norm_dim_dtype, "norm", op_norm, NORM, F_VALUE, 2, 3, 4, 0, 0, 1, 0, 0)
KERNEL(k_norm_dim_dtype_out, "norm", op_norm, NORM, F_VALUE, 2, 3, 4, 5, 0, 1, 0, 0)
KERNEL(k_norm_dtype, "norm", op_norm, NORM, F_VALUE, 0, 0, 2, 0, 0, 1, 0, 0)
KERNEL(k_fro, "frobenius_norm", op_norm, NORM, F_VALUE, 0, 0, 0, 0, 0, 0, 0, 0)
KERNEL(k_fro_dim, "frobenius_norm", op_norm, NORM, F_VALUE, 1, 2, 0, 0, 0, 0, 0, 0)
KERNEL(k_fro_dim_out, "frobenius_norm", op_norm, NORM, F_VALUE, 1, 2, 0, 3, 0, 0, 0, 0)
KERNEL(k_vnorm, "linalg_vector_norm", op_norm, VNORM, F_VALUE, 2, 3, 4, 0, 0, 1, 0, 0)
KERNEL(k_vnorm_out, "linalg_vector_norm", op_norm, VNORM, F_VALUE, 2, 3, 4, 5, 0, 1, 0, 0)

#define BOOLLIKE(P, NAME, OP) \
    KERNEL(k_##P, NAME, OP, BOOL, F_VALUE, 0, 0, 0, 0, 0, 0, 0, 0) \
    KERNEL(k_##P##_out, NAME, OP, BOOL, F_VALUE, 0, 0, 0, 1, 0, 0, 0, 0) \
    KERNEL(k_##P##_dim, NAME, OP, BOOL, F_VALUE, 1, 2, 0, 0, 0, 0, 0, 0) \
    KERNEL(k_##P##_dim_out, NAME, OP, BOOL, F_VALUE, 1, 2, 0, 3, 0, 0, 0, 0)
BOOLLIKE(all, "all", op_all)
BOOLLIKE(any, "any", op_any)

KERNEL(k_lse, "logsumexp", op_lse, LSE, F_VALUE, 1, 2, 0, 0, 0, 0, 0, 0)
KERNEL(k_lse_out, "logsumexp", op_lse, LSE, F_VALUE, 1, 2, 0, 3, 0, 0, 0, 0)
KERNEL(k_count, "count_nonzero", op_count, COUNT, F_VALUE, 1, 0, 0, 0, 0, 0, 0, 0)

/* Runs amin or amax (overload "" of qualname) over self with dim list dims; leaves the
 * result in *out. Through the table, so the callee binds its own operator's arguments. */
static int run_minmax(TsCall *c, const char *qualname, TsValue self, const TsList *dims,
                      bool keepdim, TsValue *out)
{
    ts_value_retain(self);
    ts_heap_retain((void *)&dims->h);
    TsValue args[3] = { self, ts_obj_value((void *)dims, TS_TAG_LIST), ts_bool(keepdim) };
    return ts_cpu_call_kernel(c, &ts_cpu_reduce_table, qualname, "", 3, args, out);
}

/* aminmax(Tensor self, *, int? dim=None, bool keepdim=False) -> (Tensor min, Tensor max) and
 * its out= form: amin and amax after aminmax's own checks for empty input. */
static int aminmax_call(TsCall *c, bool out_form)
{
    TsArgs a;
    TsValue lo = ts_none(), hi = ts_none();
    TsTensor *x = NULL;
    TsList *dims = NULL;
    int d = 0, rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc)
        rc = ts_args_tensor(&a, 0, &x);
    if (!rc && !(dims = ts_list_new(ts_type_int(), 1, c->error)))
        rc = c->error->code;
    TsValue dim = rc ? ts_none() : a.v[1];
    /* PyTorch 1.13's cpu kernel has no float16, and no bfloat16 along a dim */
    if (!rc && (x->dtype == TS_FLOAT16 || (x->dtype == TS_BFLOAT16 && dim.tag == TS_TAG_INT)))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "\"aminmax_cpu\" not implemented for '%s'",
                          ts_dtype_type_name(x->dtype));
    if (!rc && dim.tag == TS_TAG_INT) {
        rc = ts_aten_wrap_dim(dim.u.i, x->dim, true, &d, c->error);
        if (!rc && x->dim > 0 && x->sizes[d] == 0)
            rc = ts_error_set(c->error, TS_ERR_INDEX, "aminmax: Expected reduction dim %d to "
                              "have non-zero size.", d);
        if (!rc)
            rc = ts_list_append(dims, ts_int(dim.u.i), c->error);
    } else if (!rc && ts_tensor_numel(x) == 0) {
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "aminmax(): cannot compute aminmax over an "
                          "empty dimension as the operation has no identity.");
    }
    bool keepdim = !rc && a.v[2].tag == TS_TAG_BOOL && a.v[2].u.b;
    if (!rc)
        rc = run_minmax(c, "aten::amin", a.v[0], dims, keepdim, &lo);
    if (!rc)
        rc = run_minmax(c, "aten::amax", a.v[0], dims, keepdim, &hi);
    for (size_t i = 0; !rc && out_form && i < 2; i++) {
        TsTensor *o;
        if (!(rc = ts_args_tensor(&a, 3 + i, &o)))
            rc = ts_cpu_store_out(o, (TsTensor *)(i ? hi : lo).u.p, c->error);
    }
    if (!rc && out_form) {
        ts_value_release(lo);
        ts_value_release(hi);
        lo = take_arg(&a, 3);
        hi = take_arg(&a, 4);
    }
    if (dims)
        ts_heap_release(&dims->h);
    return ts_args_return_values(&a, rc, 2, (TsValue[]){ lo, hi });
}

static int k_aminmax(TsCall *c) { return aminmax_call(c, false); }
static int k_aminmax_out(TsCall *c) { return aminmax_call(c, true); }

static const TsCpuOp ops[] = {
    { "aten::aminmax", "", k_aminmax }, { "aten::aminmax", "out", k_aminmax_out },
    { "aten::sum", "", k_sum }, { "aten::sum", "out", k_sum_out },
    { "aten::sum", "dim_IntList", k_sum_dim }, { "aten::sum", "IntList_out", k_sum_dim_out },
    { "aten::nanmean", "", k_nanmean }, { "aten::nanmean", "out", k_nanmean_out },
    { "aten::nansum", "", k_nansum }, { "aten::nansum", "out", k_nansum_out },
    { "aten::mean", "", k_mean }, { "aten::mean", "dim", k_mean_dim },
    { "aten::mean", "out", k_mean_dim_out },
    { "aten::prod", "", k_prod }, { "aten::prod", "out", k_prod_out },
    { "aten::prod", "dim_int", k_prod_dim }, { "aten::prod", "int_out", k_prod_dim_out },
    { "aten::max", "", k_max }, { "aten::max", "dim", k_max_dim },
    { "aten::max", "dim_max", k_max_dim_out },
    { "aten::amax", "", k_max_a }, { "aten::amax", "out", k_max_a_out },
    { "aten::argmax", "", k_max_arg }, { "aten::argmax", "out", k_max_arg_out },
    { "aten::min", "", k_min }, { "aten::min", "dim", k_min_dim },
    { "aten::min", "dim_min", k_min_dim_out },
    { "aten::amin", "", k_min_a }, { "aten::amin", "out", k_min_a_out },
    { "aten::argmin", "", k_min_arg }, { "aten::argmin", "out", k_min_arg_out },
    { "aten::std", "", k_std }, { "aten::std", "dim", k_std_dim },
    { "aten::std", "correction", k_std_corr }, { "aten::std", "out", k_std_out },
    { "aten::std", "correction_out", k_std_corr_out },
    { "aten::var", "", k_var }, { "aten::var", "dim", k_var_dim },
    { "aten::var", "correction", k_var_corr }, { "aten::var", "out", k_var_out },
    { "aten::var", "correction_out", k_var_corr_out },
    { "aten::std_mean", "", k_std_mean }, { "aten::std_mean", "dim", k_std_mean_dim },
    { "aten::std_mean", "correction", k_std_mean_corr },
    { "aten::var_mean", "", k_var_mean }, { "aten::var_mean", "dim", k_var_mean_dim },
    { "aten::var_mean", "correction", k_var_mean_corr },
    { "aten::norm", "Scalar", k_norm }, { "aten::norm", "Scalar_out", k_norm_out },
    { "aten::norm", "ScalarOpt_dim", k_norm_dim }, { "aten::norm", "out", k_norm_dim_out },
    { "aten::norm", "ScalarOpt_dim_dtype", k_norm_dim_dtype },
    { "aten::norm", "dtype_out", k_norm_dim_dtype_out },
    { "aten::norm", "ScalarOpt_dtype", k_norm_dtype },
    { "aten::frobenius_norm", "", k_fro }, { "aten::frobenius_norm", "dim", k_fro_dim },
    { "aten::frobenius_norm", "out", k_fro_dim_out },
    { "aten::linalg_vector_norm", "", k_vnorm }, { "aten::linalg_vector_norm", "out", k_vnorm_out },
    { "aten::all", "", k_all }, { "aten::all", "all_out", k_all_out },
    { "aten::all", "dim", k_all_dim }, { "aten::all", "out", k_all_dim_out },
    { "aten::any", "", k_any }, { "aten::any", "all_out", k_any_out },
    { "aten::any", "dim", k_any_dim }, { "aten::any", "out", k_any_dim_out },
    { "aten::logsumexp", "", k_lse }, { "aten::logsumexp", "out", k_lse_out },
    { "aten::count_nonzero", "", k_count }, { "aten::count_nonzero", "dim_IntList", k_count },
};

const TsCpuTable ts_cpu_reduce_table = { ops, sizeof ops / sizeof ops[0] };
