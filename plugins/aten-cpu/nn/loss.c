/* loss.c — the classification losses: nll_loss (with its nd and 2d forms) and
 * cross_entropy_loss, each with reduction none (0) / mean (1) / sum (2), class weights and
 * ignore_index (loss_pointwise.c has the elementwise losses).
 *
 * The classification losses view the input as (N, C, S): batch, classes, and the product of
 * any spatial dims (1 without). nll takes -weight[t] * input[n, t, s] per target; its mean
 * divides by the sum of the weights of the targets not ignored (NaN when all are ignored, as
 * in PyTorch). cross_entropy is log_softmax over C followed by nll, or, when the target has
 * the input's shape, the class-probability form; label smoothing mixes in the uniform
 * distribution exactly as PyTorch's formula does. Sums run in double.
 */
#include <math.h>
#include <stdlib.h>

#include "nn/nn.h"

/* A 0-dim tensor of dtype holding v. */
static TsTensor *scalar_of(TsError *err, int dtype, double v)
{
    TsTensor *o = ts_cpu_empty(dtype, 0, NULL, err);
    if (o)
        ts_nn_set(dtype, ts_tensor_data(o), 0, v);
    return o;
}

/* ---- nll_loss ----------------------------------------------------------------------------- */

/* The (N, C, S) view of an input and its target. */
typedef struct Cls {
    int64_t n, c, s;
    bool batched;              /* input has a batch dim (dim >= 2) */
} Cls;

static Cls cls_of(const TsTensor *x)
{
    Cls k = { 1, x->dim ? x->sizes[x->dim >= 2 ? 1 : 0] : 1, 1, x->dim >= 2 };
    if (x->dim >= 2)
        k.n = x->sizes[0];
    for (int d = 2; d < x->dim; d++)
        k.s *= x->sizes[d];
    return k;
}

/* Target shape checks of nll_loss_nd; target must be Long. */
static int check_target(TsCall *c, const TsTensor *x, const TsTensor *t, const TsTensor *w)
{
    char s1[256], s2[256];
    TsError *err = c->error;
    if (x->dim < 1)
        return ts_error_set(err, TS_ERR_RUNTIME, "Expected 1 or more dimensions (got %d)",
                            (int)x->dim);
    if (x->dim == 1) {
        if (t->dim > 1)
            return ts_error_set(err, TS_ERR_RUNTIME, "0D or 1D target tensor expected, "
                                "multi-target not supported");
        if (t->dim == 1 && t->sizes[0] != 1) {
            ts_aten_format_sizes(s1, sizeof s1, x->dim, x->sizes);
            ts_aten_format_sizes(s2, sizeof s2, t->dim, t->sizes);
            return ts_error_set(err, TS_ERR_RUNTIME, "size mismatch (got input: %s, target: %s)",
                                s1, s2);
        }
    } else if (t->dim < 1 || x->sizes[0] != t->sizes[0]) {
        return ts_error_set(err, TS_ERR_RUNTIME, "Expected input batch_size (%lld) to match "
                            "target batch_size (%lld).", (long long)x->sizes[0],
                            (long long)(t->dim ? t->sizes[0] : 0));
    } else if (x->dim == 2 && t->dim > 1) {   /* nll_loss proper: one class per row */
        return ts_error_set(err, TS_ERR_RUNTIME, "0D or 1D target tensor expected, "
                            "multi-target not supported");
    } else if (x->dim == 4) {                 /* nll_loss2d's own checks and wording */
        if (t->dim != 3)
            return ts_error_set(err, TS_ERR_RUNTIME, "only batches of spatial targets supported "
                                "(3D tensors) but got targets of dimension: %d", (int)t->dim);
        if (x->sizes[2] != t->sizes[1] || x->sizes[3] != t->sizes[2]) {
            ts_aten_format_sizes(s1, sizeof s1, x->dim, x->sizes);
            ts_aten_format_sizes(s2, sizeof s2, t->dim, t->sizes);
            return ts_error_set(err, TS_ERR_RUNTIME, "size mismatch (got input: %s , target: %s",
                                s1, s2);
        }
    } else {
        bool same = t->dim == x->dim - 1;
        for (int d = 1; same && d < t->dim; d++)
            same = t->sizes[d] == x->sizes[d + 1];
        if (!same) {
            int64_t want[TS_TENSOR_MAX_DIMS];
            want[0] = x->sizes[0];
            for (int d = 2; d < x->dim; d++)
                want[d - 1] = x->sizes[d];
            ts_aten_format_sizes(s1, sizeof s1, x->dim - 1, want);
            ts_aten_format_sizes(s2, sizeof s2, t->dim, t->sizes);
            return ts_error_set(err, TS_ERR_RUNTIME, "Expected target size %s, got %s", s1, s2);
        }
    }
    if (t->dtype != TS_INT64)
        return ts_error_set(err, TS_ERR_RUNTIME, "expected scalar type Long but found %s",
                            ts_dtype_type_name(t->dtype));
    Cls k = cls_of(x);
    if (w && ts_tensor_numel(w) != k.c) {
        ts_aten_format_sizes(s1, sizeof s1, w->dim, w->sizes);
        return ts_error_set(err, TS_ERR_RUNTIME, "weight tensor should be defined either for all "
                            "%lld classes or no classes but got weight tensor of shape: %s",
                            (long long)k.c, s1);
    }
    return ts_nn_check_float(c, "nll_loss_out_frame", x);
}

/* Weight of class k (1 without weights); w is contiguous. */
static double weight_at(const TsTensor *w, int64_t k)
{
    return w ? ts_cpu_load_double(w->dtype, (const char *)ts_tensor_data(w) +
                                  k * (int64_t)ts_dtype_size(w->dtype)) : 1;
}

/* nll over the contiguous logp (N, C, S) and contiguous target; the result as PyTorch shapes
 * it (the target's shape for none). */
static TsTensor *nll(TsCall *c, const TsTensor *logp, const TsTensor *target, const TsTensor *w,
                     int64_t red, int64_t ignore)
{
    Cls k = cls_of(logp);
    int dt = logp->dtype;
    const void *in = ts_tensor_data(logp);
    const int64_t *t = ts_tensor_data(target);
    TsTensor *o = NULL;
    if (red == TS_NN_NONE && !(o = ts_cpu_empty(dt, target->dim, target->sizes, c->error)))
        return NULL;
    double sum = 0, wsum = 0;
    for (int64_t i = 0; i < k.n; i++)
        for (int64_t j = 0; j < k.s; j++) {
            int64_t e = i * k.s + j, cls = t[e];
            double v = 0;
            if (cls != ignore) {
                if (cls < 0 || cls >= k.c) {
                    if (o)
                        ts_tensor_release(o);
                    ts_error_set(c->error, TS_ERR_INDEX, "Target %lld is out of bounds.",
                                 (long long)cls);
                    return NULL;
                }
                double wk = weight_at(w, cls);
                v = -wk * ts_nn_get(dt, in, (i * k.c + cls) * k.s + j);
                wsum += wk;
            }
            sum += v;
            if (o)
                ts_nn_set(dt, ts_tensor_data(o), e, v);
        }
    if (o)
        return o;
    return scalar_of(c->error, dt, red == TS_NN_MEAN ? sum / wsum : sum);
}

/* Contiguous copies of x, target and weight, then nll. */
static TsTensor *nll_call(TsCall *c, TsTensor *x, TsTensor *t, TsTensor *w, int64_t red,
                          int64_t ignore)
{
    if (ts_nn_check_reduction(c, red) || check_target(c, x, t, w))
        return NULL;
    TsTensor *cx = ts_nn_contiguous(x, c->error);
    TsTensor *ct = cx ? ts_nn_contiguous(t, c->error) : NULL;
    TsTensor *cw = ct && w ? ts_nn_contiguous(w, c->error) : NULL;
    TsTensor *o = ct && (!w || cw) ? nll(c, cx, ct, cw, red, ignore) : NULL;
    if (cx)
        ts_tensor_release(cx);
    if (ct)
        ts_tensor_release(ct);
    if (cw)
        ts_tensor_release(cw);
    return o;
}

typedef enum NllForm { NLL_1D2D, NLL_ND, NLL_2D } NllForm;

static int nll_kernel(TsCall *c, NllForm form)
{
    TsArgs args;
    TsValue *a = args.v;
    TsTensor *w = NULL, *o = NULL;
    if (ts_args_pop(c, TS_DEV_CPU, &args))
        return (int)c->error->code;
    TsTensor *x = ts_nn_tensor(&args, 0);
    TsTensor *t = x ? ts_nn_tensor(&args, 1) : NULL;
    if (t && !ts_args_opt_tensor(&args, 2, &w)) {
        if (form == NLL_1D2D && (x->dim < 1 || x->dim > 2))
            ts_error_set(c->error, TS_ERR_RUNTIME, "input tensor should be 1D or 2D");
        else if (form == NLL_2D && x->dim != 4)
            ts_error_set(c->error, TS_ERR_RUNTIME, "only batches of spatial inputs supported "
                         "(4D tensors), but got input of dimension: %d", (int)x->dim);
        else
            o = nll_call(c, x, t, w, ts_nn_int(a[3]), ts_nn_int(a[4]));
    }
    return ts_args_return_tensor(&args, 0, o);
}

/* aten::nll_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=1,
 *                int ignore_index=-100) -> Tensor; and the nd and 2d forms */
static int k_nll_loss(TsCall *c) { return nll_kernel(c, NLL_1D2D); }
static int k_nll_loss_nd(TsCall *c) { return nll_kernel(c, NLL_ND); }
static int k_nll_loss2d(TsCall *c) { return nll_kernel(c, NLL_2D); }

/* ---- cross_entropy_loss ---------------------------------------------------------------------- */

/* log_softmax over C of the contiguous (N, C, S) x, into a new tensor of x's shape. */
static TsTensor *log_softmax(TsError *err, const TsTensor *x)
{
    Cls k = cls_of(x);
    int dt = x->dtype;
    TsTensor *o = ts_cpu_empty(dt, x->dim, x->sizes, err);
    if (!o)
        return NULL;
    const void *in = ts_tensor_data(x);
    void *out = ts_tensor_data(o);
    for (int64_t i = 0; i < k.n; i++)
        for (int64_t j = 0; j < k.s; j++) {
            int64_t base = i * k.c * k.s + j;
            double m = -INFINITY, s = 0;
            for (int64_t q = 0; q < k.c; q++) {
                double v = ts_nn_get(dt, in, base + q * k.s);
                m = v > m || isnan(v) ? v : m;
            }
            for (int64_t q = 0; q < k.c; q++)
                s += exp(ts_nn_get(dt, in, base + q * k.s) - m);
            double lse = m + log(s);
            for (int64_t q = 0; q < k.c; q++)
                ts_nn_set(dt, out, base + q * k.s, ts_nn_get(dt, in, base + q * k.s) - lse);
        }
    return o;
}

/* The shape of x without its class dim (the per-sample loss of reduction none). */
static int sample_shape(const TsTensor *x, int64_t *sizes)
{
    int dim = 0;
    for (int d = 0; d < x->dim; d++)
        if (d != (x->dim >= 2 ? 1 : 0))
            sizes[dim++] = x->sizes[d];
    return dim;
}

/* Per-sample values in double (n * s of them) reduced or shaped as the result. */
static TsTensor *reduce_samples(TsError *err, const TsTensor *x, const double *v, int64_t count,
                                int64_t red, double mean_div)
{
    if (red == TS_NN_NONE) {
        int64_t sizes[TS_TENSOR_MAX_DIMS];
        TsTensor *o = ts_cpu_empty(x->dtype, sample_shape(x, sizes), sizes, err);
        for (int64_t i = 0; o && i < count; i++)
            ts_nn_set(x->dtype, ts_tensor_data(o), i, v[i]);
        return o;
    }
    double s = 0;
    for (int64_t i = 0; i < count; i++)
        s += v[i];
    return scalar_of(err, x->dtype, red == TS_NN_MEAN ? s / mean_div : s);
}

/* Class-probability targets: -sum_c logp * target' * w, target' smoothed. */
static TsTensor *ce_prob(TsCall *c, const TsTensor *logp, const TsTensor *t, const TsTensor *w,
                         int64_t red, double ls, double *buf)
{
    Cls k = cls_of(logp);
    const void *lp = ts_tensor_data(logp), *tp = ts_tensor_data(t);
    for (int64_t i = 0; i < k.n; i++)
        for (int64_t j = 0; j < k.s; j++) {
            double acc = 0;
            for (int64_t q = 0; q < k.c; q++) {
                int64_t e = (i * k.c + q) * k.s + j;
                double tv = ts_nn_get(t->dtype, tp, e);
                if (ls > 0)
                    tv = tv * (1 - ls) + ls / (double)k.c;
                acc += ts_nn_get(logp->dtype, lp, e) * tv * weight_at(w, q);
            }
            buf[i * k.s + j] = -acc;
        }
    return reduce_samples(c->error, logp, buf, k.n * k.s, red, (double)(k.n * k.s));
}

/* Index targets with label smoothing: (1 - ls) * nll + ls / C * smooth, smooth the weighted
 * sum of -logp over classes (0 where ignored), normalized as PyTorch does. */
static TsTensor *ce_smooth(TsCall *c, const TsTensor *logp, const TsTensor *t, const TsTensor *w,
                           int64_t red, int64_t ignore, double ls, double *buf)
{
    TsTensor *nl = nll(c, logp, t, w, red, ignore);
    if (!nl)
        return NULL;
    Cls k = cls_of(logp);
    const void *lp = ts_tensor_data(logp);
    const int64_t *tg = ts_tensor_data(t);
    double wsum = 0;
    for (int64_t i = 0; i < k.n; i++)
        for (int64_t j = 0; j < k.s; j++) {
            int64_t e = i * k.s + j;
            double acc = 0;
            if (tg[e] != ignore) {
                for (int64_t q = 0; q < k.c; q++)
                    acc += ts_nn_get(logp->dtype, lp, (i * k.c + q) * k.s + j) * weight_at(w, q);
                wsum += weight_at(w, tg[e]);
            }
            buf[e] = -acc;
        }
    TsTensor *sm = reduce_samples(c->error, logp, buf, k.n * k.s, red,
                                  w ? wsum : (double)(k.n * k.s));
    if (!sm) {
        ts_tensor_release(nl);
        return NULL;
    }
    int64_t n = ts_tensor_numel(nl);
    for (int64_t i = 0; i < n; i++) {
        double v = (1 - ls) * ts_nn_get(nl->dtype, ts_tensor_data(nl), i) +
                   ts_nn_get(sm->dtype, ts_tensor_data(sm), i) * (ls / (double)k.c);
        ts_nn_set(nl->dtype, ts_tensor_data(nl), i, v);
    }
    ts_tensor_release(sm);
    return nl;
}

static TsTensor *cross_entropy(TsCall *c, TsTensor *x, TsTensor *t, TsTensor *w, int64_t red,
                               int64_t ignore, double ls)
{
    bool prob = ts_aten_same_shape(x, t->dim, t->sizes);
    if (ts_nn_check_reduction(c, red))
        return NULL;
    if (x->dim < 1) {
        ts_error_set(c->error, TS_ERR_RUNTIME, "Expected 1 or more dimensions (got %d)",
                     (int)x->dim);
        return NULL;
    }
    if (ls < 0 || ls > 1) {
        ts_error_set(c->error, TS_ERR_RUNTIME, "label_smoothing must be between 0.0 and 1.0. "
                     "Got: %f", ls);
        return NULL;
    }
    if (prob) {
        if (t->dtype != TS_FLOAT32 && t->dtype != TS_FLOAT64) {
            ts_error_set(c->error, TS_ERR_RUNTIME, "Expected floating point type for target with "
                         "class probabilities, got %s", ts_dtype_type_name(t->dtype));
            return NULL;
        }
        if (ignore >= 0) {
            ts_error_set(c->error, TS_ERR_RUNTIME, "ignore_index is not supported for floating "
                         "point target");
            return NULL;
        }
        Cls k = cls_of(x);
        if (w && (w->dim != 1 || w->sizes[0] != k.c)) {
            ts_error_set(c->error, TS_ERR_RUNTIME, "cross_entropy: weight tensor should be "
                         "defined either for all %lld classes or no classes", (long long)k.c);
            return NULL;
        }
        if (ts_nn_check_float(c, "log_softmax", x))
            return NULL;
    } else if (check_target(c, x, t, w)) {
        return NULL;
    }
    TsTensor *cx = ts_nn_contiguous(x, c->error);
    TsTensor *ct = cx ? ts_nn_contiguous(t, c->error) : NULL;
    TsTensor *cw = ct && w ? ts_nn_contiguous(w, c->error) : NULL;
    TsTensor *lp = ct && (!w || cw) ? log_softmax(c->error, cx) : NULL;
    TsTensor *o = NULL;
    if (lp) {
        Cls k = cls_of(x);
        double *buf = NULL;
        size_t count = (size_t)(k.n * k.s) + 1;
        if ((prob || ls > 0) && !(buf = malloc(count * sizeof *buf)))
            ts_error_set(c->error, TS_ERR_NOMEM, "cross_entropy: out of memory");
        else if (prob)
            o = ce_prob(c, lp, ct, cw, red, ls, buf);
        else if (ls > 0)
            o = ce_smooth(c, lp, ct, cw, red, ignore, ls, buf);
        else
            o = nll(c, lp, ct, cw, red, ignore);
        free(buf);
        ts_tensor_release(lp);
    }
    if (cx)
        ts_tensor_release(cx);
    if (ct)
        ts_tensor_release(ct);
    if (cw)
        ts_tensor_release(cw);
    return o;
}

/* aten::cross_entropy_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=1,
 *                          int ignore_index=-100, float label_smoothing=0.) -> Tensor */
static int k_cross_entropy_loss(TsCall *c)
{
    TsArgs args;
    TsValue *a = args.v;
    TsTensor *w = NULL, *o = NULL;
    if (ts_args_pop(c, TS_DEV_CPU, &args))
        return (int)c->error->code;
    TsTensor *x = ts_nn_tensor(&args, 0);
    TsTensor *t = x ? ts_nn_tensor(&args, 1) : NULL;
    if (t && !ts_args_opt_tensor(&args, 2, &w))
        o = cross_entropy(c, x, t, w, ts_nn_int(a[3]), ts_nn_int(a[4]), ts_nn_double(a[5]));
    return ts_args_return_tensor(&args, 0, o);
}

static const TsCpuOp ops[] = {
    { "aten::nll_loss", "", k_nll_loss },
    { "aten::nll_loss_nd", "", k_nll_loss_nd },
    { "aten::nll_loss2d", "", k_nll_loss2d },
    { "aten::cross_entropy_loss", "", k_cross_entropy_loss },
};

const TsCpuTable ts_cpu_loss_table = { ops, sizeof ops / sizeof ops[0] };
