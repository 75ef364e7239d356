/* loss_more.c — the losses PyTorch composes from other ops (cosine_embedding_loss,
 * hinge_embedding_loss, margin_ranking_loss, soft_margin_loss, triplet_margin_loss,
 * poisson_nll_loss: chains of aten-cpu's kernels in PyTorch's order, engine/chain.h) and the
 * two it computes in one loop per sample (multi_margin_loss, multilabel_margin_loss).
 *
 * The composites inherit broadcasting, type promotion and the callees' messages; the loops
 * round every step to the input's dtype (float32 or float64) as PyTorch's scalar_t loops do.
 */
#include <math.h>
#include <stdlib.h>

#include "engine/chain.h"
#include "nn/nn.h"

/* Constants as PyTorch's C++ writes them: an int Scalar keeps integer tensors integral. */
#define ONE ((int64_t)1)
#define ZERO ((int64_t)0)
#define MINUS_ONE ((int64_t)-1)

/* aten::cosine_embedding_loss(Tensor input1, Tensor input2, Tensor target, float margin=0.,
 *     int reduction=1) -> Tensor */
static int k_cosine_embedding_loss(TsCall *c)
{
    TsArgs a;
    TsTensor *x1, *x2, *y;
    double margin;
    int64_t red;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x1);
    if (!rc) rc = ts_args_tensor(&a, 1, &x2);
    if (!rc) rc = ts_args_tensor(&a, 2, &y);
    if (!rc) rc = ts_args_float(&a, 3, &margin);
    if (!rc) rc = ts_args_int(&a, 4, &red);
    if (!rc && y->dim != 0 && y->dim != 1)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "0D or 1D target tensor expected, "
                          "multi-target not supported");
    if (!rc && x1->dim != y->dim + 1) {
        char s1[256], s2[256];
        ts_aten_format_sizes(s1, sizeof s1, x1->dim, x1->sizes);
        ts_aten_format_sizes(s2, sizeof s2, x2->dim, x2->sizes);
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "%s target tensor expects %s input "
                          "tensors, but found inputs with sizes %s and %s.",
                          y->dim ? "1D" : "0D", y->dim ? "2D" : "1D", s1, s2);
    }
    if (rc)
        return ts_args_fail(&a, rc);
    TsChain k;
    ts_chain_init(&k, c);
    int64_t d = y->dim;
    const double eps = (double)1e-12f;     /* PyTorch's float EPSILON */
    TsTensor *prod = ts_chain_op(&k, "aten::sum", "dim_IntList", "tlbn",
                                 ts_chain_op(&k, "aten::mul", "Tensor", "tt", x1, x2),
                                 1, &d, 0);
    TsTensor *m1 = ts_chain_op(&k, "aten::add", "Scalar", "tdi",
                               ts_chain_op(&k, "aten::sum", "dim_IntList", "tlbn",
                                           ts_chain_op(&k, "aten::mul", "Tensor", "tt", x1, x1),
                                           1, &d, 0), eps, ONE);
    TsTensor *m2 = ts_chain_op(&k, "aten::add", "Scalar", "tdi",
                               ts_chain_op(&k, "aten::sum", "dim_IntList", "tlbn",
                                           ts_chain_op(&k, "aten::mul", "Tensor", "tt", x2, x2),
                                           1, &d, 0), eps, ONE);
    TsTensor *den = ts_chain_op(&k, "aten::sqrt", "", "t",
                                ts_chain_op(&k, "aten::mul", "Tensor", "tt", m1, m2));
    TsTensor *cos = ts_chain_op(&k, "aten::div", "Tensor", "tt", prod, den);
    TsTensor *zeros = ts_chain_op(&k, "aten::zeros_like", "", "tnnnnn", cos);
    TsTensor *pos = ts_chain_op(&k, "aten::rsub", "Scalar", "tii", cos, ONE, ONE);
    TsTensor *neg = ts_chain_op(&k, "aten::clamp_min", "", "ti",
                                ts_chain_op(&k, "aten::sub", "Scalar", "tdi", cos, margin, ONE),
                                ZERO);
    TsTensor *out_pos = ts_chain_op(&k, "aten::where", "self", "ttt",
                                    ts_chain_op(&k, "aten::eq", "Scalar", "ti", y, ONE),
                                    pos, zeros);
    TsTensor *out_neg = ts_chain_op(&k, "aten::where", "self", "ttt",
                                    ts_chain_op(&k, "aten::eq", "Scalar", "ti", y, MINUS_ONE),
                                    neg, zeros);
    TsTensor *out = ts_chain_op(&k, "aten::add", "Tensor", "tti", out_pos, out_neg, ONE);
    return ts_chain_return(&a, &k, ts_chain_reduce(&k, out, red));
}

/* aten::hinge_embedding_loss(Tensor self, Tensor target, float margin=1., int reduction=1) */
static int k_hinge_embedding_loss(TsCall *c)
{
    TsArgs a;
    TsTensor *x, *y;
    double margin;
    int64_t red;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x);
    if (!rc) rc = ts_args_tensor(&a, 1, &y);
    if (!rc) rc = ts_args_float(&a, 2, &margin);
    if (!rc) rc = ts_args_int(&a, 3, &red);
    if (rc)
        return ts_args_fail(&a, rc);
    TsChain k;
    ts_chain_init(&k, c);
    TsTensor *zeros = ts_chain_op(&k, "aten::zeros_like", "", "tnnnnn", x);
    TsTensor *clamped = ts_chain_op(&k, "aten::clamp_min", "", "ti",
                                    ts_chain_op(&k, "aten::rsub", "Scalar", "tdi", x, margin,
                                                ONE), ZERO);
    TsTensor *out_margin = ts_chain_op(&k, "aten::where", "self", "ttt",
                                       ts_chain_op(&k, "aten::ne", "Scalar", "ti", y, ONE),
                                       clamped, zeros);
    TsTensor *out_self = ts_chain_op(&k, "aten::where", "self", "ttt",
                                     ts_chain_op(&k, "aten::ne", "Scalar", "ti", y, MINUS_ONE),
                                     x, zeros);
    TsTensor *out = ts_chain_op(&k, "aten::add", "Tensor", "tti", out_margin, out_self, ONE);
    return ts_chain_return(&a, &k, ts_chain_reduce(&k, out, red));
}

/* aten::margin_ranking_loss(Tensor input1, Tensor input2, Tensor target, float margin=0.,
 *     int reduction=1): (-target * (input1 - input2) + margin).clamp_min(0) */
static int k_margin_ranking_loss(TsCall *c)
{
    TsArgs a;
    TsTensor *x1, *x2, *y;
    double margin;
    int64_t red;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x1);
    if (!rc) rc = ts_args_tensor(&a, 1, &x2);
    if (!rc) rc = ts_args_tensor(&a, 2, &y);
    if (!rc) rc = ts_args_float(&a, 3, &margin);
    if (!rc) rc = ts_args_int(&a, 4, &red);
    if (rc)
        return ts_args_fail(&a, rc);
    TsChain k;
    ts_chain_init(&k, c);
    TsTensor *diff = ts_chain_op(&k, "aten::sub", "Tensor", "tti", x1, x2, ONE);
    TsTensor *prod = ts_chain_op(&k, "aten::mul", "Tensor", "tt",
                                 ts_chain_op(&k, "aten::neg", "", "t", y), diff);
    TsTensor *out = ts_chain_op(&k, "aten::clamp_min", "", "ti",
                                ts_chain_op(&k, "aten::add", "Scalar", "tdi", prod, margin, ONE),
                                ZERO);
    return ts_chain_return(&a, &k, ts_chain_reduce(&k, out, red));
}

/* aten::soft_margin_loss(Tensor self, Tensor target, int reduction=1):
 * log1p(exp(-self * target)), written into a tensor of self's dtype. */
static int k_soft_margin_loss(TsCall *c)
{
    TsArgs a;
    TsTensor *x, *y;
    int64_t red;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x);
    if (!rc) rc = ts_args_tensor(&a, 1, &y);
    if (!rc) rc = ts_args_int(&a, 2, &red);
    if (rc)
        return ts_args_fail(&a, rc);
    TsChain k;
    ts_chain_init(&k, c);
    TsTensor *loss = ts_chain_op(&k, "aten::log1p", "", "t",
                                 ts_chain_op(&k, "aten::exp", "", "t",
                                             ts_chain_op(&k, "aten::mul", "Tensor", "tt",
                                                         ts_chain_op(&k, "aten::neg", "", "t",
                                                                     x), y)));
    if (loss && loss->dtype != x->dtype) {
        if (!ts_aten_can_cast(loss->dtype, x->dtype)) {
            ts_error_set(c->error, TS_ERR_RUNTIME, "result type %s can't be cast to the "
                         "desired output type %s", ts_dtype_type_name(loss->dtype),
                         ts_dtype_type_name(x->dtype));
            loss = NULL;
        } else {
            loss = ts_chain_keep(&k, ts_cpu_cast(loss, x->dtype, c->error));
        }
    }
    return ts_chain_return(&a, &k, ts_chain_reduce(&k, loss, red));
}

/* aten::triplet_margin_loss(Tensor anchor, Tensor positive, Tensor negative,
 *     float margin=1., float p=2., float eps=1e-06, bool swap=False, int reduction=1) */
static int k_triplet_margin_loss(TsCall *c)
{
    TsArgs a;
    TsTensor *an, *po, *ne;
    double margin, p, eps;
    bool swap;
    int64_t red;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &an);
    if (!rc) rc = ts_args_tensor(&a, 1, &po);
    if (!rc) rc = ts_args_tensor(&a, 2, &ne);
    if (!rc) rc = ts_args_float(&a, 3, &margin);
    if (!rc) rc = ts_args_float(&a, 4, &p);
    if (!rc) rc = ts_args_float(&a, 5, &eps);
    if (!rc) rc = ts_args_bool(&a, 6, &swap);
    if (!rc) rc = ts_args_int(&a, 7, &red);
    if (!rc && (an->dim != po->dim || po->dim != ne->dim))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "All inputs should have same dimension but "
                          "got %dD, %dD and %dD inputs.", an->dim, po->dim, ne->dim);
    if (rc)
        return ts_args_fail(&a, rc);
    TsChain k;
    ts_chain_init(&k, c);
    TsTensor *dpos = ts_chain_op(&k, "aten::pairwise_distance", "", "ttddb", an, po, p, eps, 0);
    TsTensor *dneg = ts_chain_op(&k, "aten::pairwise_distance", "", "ttddb", an, ne, p, eps, 0);
    if (swap)
        dneg = ts_chain_op(&k, "aten::min", "other", "tt", dneg,
                           ts_chain_op(&k, "aten::pairwise_distance", "", "ttddb", po, ne, p,
                                       eps, 0));
    TsTensor *out = ts_chain_op(&k, "aten::clamp_min", "", "ti",
                                ts_chain_op(&k, "aten::sub", "Tensor", "tti",
                                            ts_chain_op(&k, "aten::add", "Scalar", "tdi", dpos,
                                                        margin, ONE), dneg, ONE), ZERO);
    return ts_chain_return(&a, &k, ts_chain_reduce(&k, out, red));
}

/* aten::poisson_nll_loss(Tensor input, Tensor target, bool log_input, bool full, float eps,
 *     int reduction) -> Tensor */
static int k_poisson_nll_loss(TsCall *c)
{
    TsArgs a;
    TsTensor *x, *y;
    bool log_input, full;
    double eps;
    int64_t red;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x);
    if (!rc) rc = ts_args_tensor(&a, 1, &y);
    if (!rc) rc = ts_args_bool(&a, 2, &log_input);
    if (!rc) rc = ts_args_bool(&a, 3, &full);
    if (!rc) rc = ts_args_float(&a, 4, &eps);
    if (!rc) rc = ts_args_int(&a, 5, &red);
    if (rc)
        return ts_args_fail(&a, rc);
    TsChain k;
    ts_chain_init(&k, c);
    TsTensor *loss;
    if (log_input)
        loss = ts_chain_op(&k, "aten::sub", "Tensor", "tti",
                           ts_chain_op(&k, "aten::exp", "", "t", x),
                           ts_chain_op(&k, "aten::mul", "Tensor", "tt", y, x), ONE);
    else
        loss = ts_chain_op(&k, "aten::sub", "Tensor", "tti", x,
                           ts_chain_op(&k, "aten::mul", "Tensor", "tt", y,
                                       ts_chain_op(&k, "aten::log", "", "t",
                                                   ts_chain_op(&k, "aten::add", "Scalar",
                                                               "tdi", x, eps, ONE))), ONE);
    if (full) {
        /* Stirling's term, where target > 1 */
        TsTensor *tlogt = ts_chain_op(&k, "aten::mul", "Tensor", "tt", y,
                                      ts_chain_op(&k, "aten::log", "", "t", y));
        TsTensor *half_log = ts_chain_op(&k, "aten::mul", "Scalar", "td",
                                         ts_chain_op(&k, "aten::log", "", "t",
                                                     ts_chain_op(&k, "aten::mul", "Scalar",
                                                                 "td", y, 2 * M_PI)), 0.5);
        TsTensor *st = ts_chain_op(&k, "aten::add", "Tensor", "tti",
                                   ts_chain_op(&k, "aten::sub", "Tensor", "tti", tlogt, y, ONE),
                                   half_log, ONE);
        st = ts_chain_op(&k, "aten::masked_fill", "Scalar", "tti", st,
                         ts_chain_op(&k, "aten::le", "Scalar", "ti", y, ONE), ZERO);
        loss = ts_chain_op(&k, "aten::add_", "Tensor", "tti", loss, st, ONE);
        if (loss)
            ts_tensor_retain(loss);  /* add_ returned loss itself: kept twice */
        loss = ts_chain_keep(&k, loss);
    }
    return ts_chain_return(&a, &k, ts_chain_reduce(&k, loss, red));
}

/* ---- the margin losses over classes ------------------------------------------------------- */

/* n doubles from malloc, or NULL with the error set. */
static double *doubles(TsCall *c, int64_t n)
{
    double *p = malloc(sizeof *p * (size_t)(n > 0 ? n : 1));
    if (!p)
        ts_error_set(c->error, TS_ERR_RUNTIME, "out of memory");
    return p;
}

/* v rounded to float32 when f32: each step of a scalar_t loop. */
static inline double rnd(bool f32, double v) { return f32 ? (double)(float)v : v; }

/* The checks both share: a non-empty vector or matrix (or a scalar); nframe and dim. */
static int class_shape(TsCall *c, const TsTensor *x, int64_t *nframe, int64_t *dim)
{
    int nd = x->dim;
    if (!((nd == 2 && x->sizes[1] != 0) || (nd == 1 && x->sizes[0] != 0) || nd == 0)) {
        char s[256];
        ts_aten_format_sizes(s, sizeof s, x->dim, x->sizes);
        return ts_error_set(c->error, TS_ERR_RUNTIME, "Expected non-empty vector or matrix with "
                            "optional 0-dim batch size, but got: %s", s);
    }
    *nframe = nd <= 1 ? 1 : x->sizes[0];
    *dim = nd == 0 ? 1 : x->sizes[nd - 1];
    return 0;
}

static int check_long_target(TsCall *c, const TsTensor *t)
{
    if (t->dtype == TS_INT64)
        return 0;
    return ts_error_set(c->error, TS_ERR_RUNTIME, "expected scalar type Long but found %s",
                        ts_dtype_type_name(t->dtype));
}

static int check_float_input(TsCall *c, const char *kernel, const TsTensor *x)
{
    if (x->dtype == TS_FLOAT32 || x->dtype == TS_FLOAT64)
        return 0;
    return ts_error_set(c->error, TS_ERR_RUNTIME, "\"%s\" not implemented for '%s'", kernel,
                        ts_dtype_type_name(x->dtype));
}

/* The per-sample losses `per` (nframe of them, contiguous double) as the result: a tensor
 * shaped (dim, sizes) for reduction none, else their mean or sum, each step rounded. */
static TsTensor *class_result(TsCall *c, int dtype, const double *per, int64_t nframe,
                              int64_t red, int dim, const int64_t *sizes)
{
    bool f32 = dtype == TS_FLOAT32;
    TsTensor *o = ts_cpu_empty(dtype, red == TS_NN_NONE ? dim : 0, sizes, c->error);
    if (!o)
        return NULL;
    if (red == TS_NN_NONE) {
        for (int64_t t = 0; t < nframe; t++)
            ts_nn_set(dtype, ts_tensor_data(o), t, per[t]);
        return o;
    }
    double s = 0;
    for (int64_t t = 0; t < nframe; t++)
        s = rnd(f32, s + per[t]);
    if (red == TS_NN_MEAN)
        s = rnd(f32, s / (double)nframe);
    ts_nn_set(dtype, ts_tensor_data(o), 0, s);
    return o;
}

/* aten::multi_margin_loss(Tensor self, Tensor target, Scalar p=1, Scalar margin=1,
 *     Tensor? weight=None, int reduction=1) -> Tensor */
static int k_multi_margin_loss(TsCall *c)
{
    TsArgs a;
    TsTensor *x, *y, *w = NULL, *xc = NULL, *wc = NULL, *yc = NULL, *o = NULL;
    int64_t red, nframe = 0, dim = 0;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x);
    if (!rc) rc = ts_args_tensor(&a, 1, &y);
    if (!rc) rc = ts_args_opt_tensor(&a, 4, &w);
    if (!rc) rc = ts_args_int(&a, 5, &red);
    double p = ts_nn_double(a.v[2]), margin = ts_nn_double(a.v[3]);
    if (!rc && p != 1 && p != 2)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "only p == 1 and p == 2 supported");
    if (!rc) rc = class_shape(c, x, &nframe, &dim);
    if (!rc && !(y->dim <= 1 && ts_tensor_numel(y) == nframe)) {
        char s[256];
        ts_aten_format_sizes(s, sizeof s, y->dim, y->sizes);
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "inconsistent target size, got: %s", s);
    }
    if (!rc && w && !(w->dim <= 1 && ts_tensor_numel(w) == dim)) {
        char s[256];
        ts_aten_format_sizes(s, sizeof s, w->dim, w->sizes);
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "inconsistent weight size, expected %lld "
                          "but got %s", (long long)dim, s);
    }
    if (!rc) rc = check_long_target(c, y);
    if (!rc) rc = check_float_input(c, "multi_margin_loss_cpu_kernel", x);
    if (!rc && w) rc = ts_nn_same_dtype(c, x, w);
    double *per = NULL;
    if (!rc && (!(xc = ts_nn_contiguous(x, c->error)) || !(yc = ts_nn_contiguous(y, c->error)) ||
                (w && !(wc = ts_nn_contiguous(w, c->error))) ||
                !(per = doubles(c, nframe))))
        rc = (int)c->error->code;
    if (!rc) {
        bool f32 = x->dtype == TS_FLOAT32;
        const void *xp = ts_tensor_data(xc), *wp = wc ? ts_tensor_data(wc) : NULL;
        const int64_t *tp = ts_tensor_data(yc);
        margin = rnd(f32, margin);
        for (int64_t t = 0; !rc && t < nframe; t++) {
            int64_t ti = tp[t];
            if (ti < 0 || ti >= dim) {
                rc = ts_error_set(c->error, TS_ERR_RUNTIME, "target out of range");
                break;
            }
            double xt = ts_nn_get(x->dtype, xp, t * dim + ti), s = 0;
            for (int64_t d = 0; d < dim; d++) {
                if (d == ti)
                    continue;
                double z = rnd(f32, rnd(f32, margin - xt) + ts_nn_get(x->dtype, xp, t * dim + d));
                if (z > 0) {
                    double h = p == 1 ? z : rnd(f32, z * z);
                    if (wp)
                        h = rnd(f32, h * ts_nn_get(x->dtype, wp, ti));
                    s = rnd(f32, s + h);
                }
            }
            per[t] = rnd(f32, s / (double)dim);
        }
        if (!rc && !(o = class_result(c, x->dtype, per, nframe, red, y->dim, y->sizes)))
            rc = (int)c->error->code;
    }
    free(per);
    if (xc) ts_tensor_release(xc);
    if (yc) ts_tensor_release(yc);
    if (wc) ts_tensor_release(wc);
    return ts_args_return_tensor(&a, rc, o);
}

/* The multilabel margin loss of x and target y (checked): the loss and, when want_is_target,
 * the 0/1 tensor of the targets each sample names (shaped like y, x's dtype). */
static int multilabel(TsCall *c, TsTensor *x, TsTensor *y, int64_t red, TsTensor **out,
                      TsTensor **is_target)
{
    int64_t nframe = 0, dim = 0;
    int rc = class_shape(c, x, &nframe, &dim);
    if (!rc && !(x->dim <= 1 ? y->dim <= 1 && ts_tensor_numel(y) == dim
                             : y->dim == 2 && y->sizes[0] == nframe && y->sizes[1] == dim)) {
        char s[256];
        ts_aten_format_sizes(s, sizeof s, y->dim, y->sizes);
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "inconsistent size %s for argument #2 "
                          "'target'", s);
    }
    if (!rc) rc = check_long_target(c, y);
    if (!rc) rc = check_float_input(c, "multilabel_margin_loss_forward_out_frame", x);
    if (rc)
        return rc;
    TsTensor *xc = NULL, *yc = NULL, *isz = NULL;
    double *per = NULL;
    if (!(xc = ts_nn_contiguous(x, c->error)) || !(yc = ts_nn_contiguous(y, c->error)) ||
        !(isz = ts_cpu_empty(x->dtype, y->dim, y->sizes, c->error)) ||
        !(per = doubles(c, nframe)))
        rc = (int)c->error->code;
    const int64_t *tp = yc && !rc ? ts_tensor_data(yc) : NULL;
    for (int64_t i = 0; !rc && i < nframe * dim; i++)
        if (tp[i] < -1 || tp[i] >= dim)
            rc = ts_error_set(c->error, TS_ERR_RUNTIME, "argument #2 'target' is out of range");
    if (!rc) {
        bool f32 = x->dtype == TS_FLOAT32;
        const void *xp = ts_tensor_data(xc);
        void *ip = ts_tensor_data(isz);
        for (int64_t i = 0; i < nframe * dim; i++)
            ts_nn_set(x->dtype, ip, i, 0);
        for (int64_t t = 0; t < nframe; t++) {
            const int64_t *tt = tp + t * dim;
            for (int64_t m = 0; m < dim && tt[m] >= 0; m++)
                ts_nn_set(x->dtype, ip, t * dim + tt[m], 1);
            double s = 0;
            for (int64_t m = 0; m < dim && tt[m] >= 0; m++) {
                double xt = ts_nn_get(x->dtype, xp, t * dim + tt[m]);
                for (int64_t d = 0; d < dim; d++) {
                    if (ts_nn_get(x->dtype, ip, t * dim + d) != 0)
                        continue;
                    double z = rnd(f32, rnd(f32, 1 - xt) + ts_nn_get(x->dtype, xp, t * dim + d));
                    if (z > 0)
                        s = rnd(f32, s + z);
                }
            }
            per[t] = rnd(f32, s / (double)dim);
        }
        int64_t n = nframe;
        if (!(*out = class_result(c, x->dtype, per, nframe, red, x->dim <= 1 ? 0 : 1, &n)))
            rc = (int)c->error->code;
    }
    free(per);
    if (xc) ts_tensor_release(xc);
    if (yc) ts_tensor_release(yc);
    if (!rc && is_target)
        *is_target = isz;
    else if (isz)
        ts_tensor_release(isz);
    return rc;
}

/* aten::multilabel_margin_loss(Tensor self, Tensor target, int reduction=1) -> Tensor */
static int k_multilabel_margin_loss(TsCall *c)
{
    TsArgs a;
    TsTensor *x, *y, *o = NULL;
    int64_t red;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x);
    if (!rc) rc = ts_args_tensor(&a, 1, &y);
    if (!rc) rc = ts_args_int(&a, 2, &red);
    if (!rc) rc = multilabel(c, x, y, red, &o, NULL);
    return ts_args_return_tensor(&a, rc, o);
}

/* aten::multilabel_margin_loss_forward(Tensor self, Tensor target, int reduction)
 *     -> (Tensor output, Tensor is_target) */
static int k_multilabel_margin_loss_forward(TsCall *c)
{
    TsArgs a;
    TsTensor *x, *y, *o = NULL, *is = NULL;
    int64_t red;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x);
    if (!rc) rc = ts_args_tensor(&a, 1, &y);
    if (!rc) rc = ts_args_int(&a, 2, &red);
    if (!rc) rc = multilabel(c, x, y, red, &o, &is);
    TsTensor *r[2] = { o, is };
    return ts_args_return_tensors(&a, rc, 2, r);
}

static const TsCpuOp ops[] = {
    { "aten::cosine_embedding_loss", "", k_cosine_embedding_loss },
    { "aten::hinge_embedding_loss", "", k_hinge_embedding_loss },
    { "aten::margin_ranking_loss", "", k_margin_ranking_loss },
    { "aten::soft_margin_loss", "", k_soft_margin_loss },
    { "aten::triplet_margin_loss", "", k_triplet_margin_loss },
    { "aten::poisson_nll_loss", "", k_poisson_nll_loss },
    { "aten::multi_margin_loss", "", k_multi_margin_loss },
    { "aten::multilabel_margin_loss", "", k_multilabel_margin_loss },
    { "aten::multilabel_margin_loss_forward", "", k_multilabel_margin_loss_forward },
};

const TsCpuTable ts_cpu_loss_more_table = { ops, sizeof ops / sizeof ops[0] };
