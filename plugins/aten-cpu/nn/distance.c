/* distance.c — distances between rows: pdist (every pair of one matrix's rows) and cdist
 * (every row of x1 against every row of x2, batched), with _pdist_forward, _cdist_forward and
 * _euclidean_dist, the ops PyTorch routes them through.
 *
 * cdist chooses its path as PyTorch does: for p = 2 with compute_mode 1, or with the default
 * mode when either side has more than 25 rows, the matrix-product form of _euclidean_dist
 * (|x1|^2 - 2 x1.x2 + |x2|^2 through matmul, engine/chain.h), which rounds differently from
 * the direct sums; otherwise the direct p-norm of each pair's difference.
 */
#include <math.h>
#include <string.h>

#include "engine/chain.h"
#include "nn/nn.h"

/* The p-norm of the difference of two rows of n elements (dtype float32 or float64), as
 * PyTorch's distance kernels define it: p = 0 counts the differing elements, p = inf takes
 * the largest difference. */
static double row_dist(int dtype, const void *a, const void *b, int64_t n, double p)
{
    double s = 0;
    for (int64_t k = 0; k < n; k++) {
        double d = fabs(ts_nn_get(dtype, a, k) - ts_nn_get(dtype, b, k));
        if (p == 0)
            s += d != 0;
        else if (p == 1)
            s += d;
        else if (p == 2)
            s += d * d;
        else if (isinf(p))
            s = d > s || isnan(d) ? d : s;
        else
            s += pow(d, p);
    }
    if (p == 2)
        return sqrt(s);
    if (p == 0 || p == 1 || isinf(p))
        return s;
    return pow(s, 1 / p);
}

static int check_floating(TsCall *c, const char *what, const TsTensor *t)
{
    if (t->dtype == TS_FLOAT32 || t->dtype == TS_FLOAT64)
        return 0;
    return ts_error_set(c->error, TS_ERR_RUNTIME, "%s", what);
}

/* ---- pdist ------------------------------------------------------------------------------ */

/* The n(n-1)/2 distances of x's rows (x contiguous, 2-D, floating). */
static TsTensor *pdist_rows(TsCall *c, TsTensor *x, double p)
{
    int64_t n = x->sizes[0], m = x->sizes[1];
    int64_t count = n <= 1 ? 0 : n * (n - 1) / 2;
    TsTensor *o = ts_cpu_empty(x->dtype, 1, &count, c->error);
    if (!o)
        return NULL;
    size_t es = ts_dtype_size(x->dtype);
    const char *xp = ts_tensor_data(x);
    int64_t k = 0;
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = i + 1; j < n; j++)
            ts_nn_set(x->dtype, ts_tensor_data(o), k++,
                      row_dist(x->dtype, xp + (size_t)(i * m) * es, xp + (size_t)(j * m) * es,
                               m, p));
    return o;
}

/* aten::pdist(Tensor self, float p=2.) -> Tensor */
static int k_pdist(TsCall *c)
{
    TsArgs a;
    TsTensor *x, *xc = NULL, *o = NULL;
    double p;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x);
    if (!rc) rc = ts_args_float(&a, 1, &p);
    if (!rc && x->dim != 2)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "pdist only supports 2D tensors, got: %dD",
                          x->dim);
    if (!rc) rc = check_floating(c, "pdist only supports floating-point dtypes", x);
    if (!rc && !(p >= 0))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "pdist only supports non-negative p values");
    if (!rc && (!(xc = ts_nn_contiguous(x, c->error)) || !(o = pdist_rows(c, xc, p))))
        rc = (int)c->error->code;
    if (xc)
        ts_tensor_release(xc);
    return ts_args_return_tensor(&a, rc, o);
}

/* aten::_pdist_forward(Tensor self, float p=2.) -> Tensor: on a contiguous matrix. */
static int k_pdist_forward(TsCall *c)
{
    TsArgs a;
    TsTensor *x, *o = NULL;
    double p;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x);
    if (!rc) rc = ts_args_float(&a, 1, &p);
    if (!rc && !ts_tensor_is_contiguous(x))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "_pdist_forward requires contiguous input");
    if (!rc && x->dim != 2)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "pdist only supports 2D tensors, got: %dD",
                          x->dim);
    if (!rc) rc = check_floating(c, "pdist only supports floating-point dtypes", x);
    if (!rc && !(o = pdist_rows(c, x, p)))
        rc = (int)c->error->code;
    return ts_args_return_tensor(&a, rc, o);
}

/* ---- cdist ------------------------------------------------------------------------------ */

/* aten::_euclidean_dist as PyTorch composes it, on the chain k. */
static TsTensor *euclidean(TsChain *k, TsTensor *x1, TsTensor *x2)
{
    int64_t last = -1;
    TsTensor *n1 = ts_chain_op(k, "aten::sum", "dim_IntList", "tlbn",
                               ts_chain_op(k, "aten::pow", "Tensor_Scalar", "ti", x1, (int64_t)2),
                               1, &last, 1);
    TsTensor *n2 = ts_chain_op(k, "aten::sum", "dim_IntList", "tlbn",
                               ts_chain_op(k, "aten::pow", "Tensor_Scalar", "ti", x2, (int64_t)2),
                               1, &last, 1);
    TsTensor *pad1 = ts_chain_op(k, "aten::ones_like", "", "tnnnnn", n1);
    TsTensor *pad2 = ts_chain_op(k, "aten::ones_like", "", "tnnnnn", n2);
    TsTensor *l1[3] = { ts_chain_op(k, "aten::mul", "Scalar", "ti", x1, (int64_t)-2), n1, pad1 };
    TsTensor *l2[3] = { x2, pad2, n2 };
    TsTensor *a1 = ts_chain_op(k, "aten::cat", "", "Li", 3, l1, last);
    TsTensor *a2 = ts_chain_op(k, "aten::cat", "", "Li", 3, l2, last);
    TsTensor *r = ts_chain_op(k, "aten::matmul", "", "tt", a1,
                              ts_chain_op(k, "aten::transpose", "int", "tii", a2, (int64_t)-2,
                                          last));
    return ts_chain_op(k, "aten::sqrt", "", "t",
                       ts_chain_op(k, "aten::clamp_min", "", "ti", r, (int64_t)0));
}

/* aten::_euclidean_dist(Tensor x1, Tensor x2) -> Tensor */
static int k_euclidean_dist(TsCall *c)
{
    TsArgs a;
    TsTensor *x1, *x2;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x1);
    if (!rc) rc = ts_args_tensor(&a, 1, &x2);
    if (rc)
        return ts_args_fail(&a, rc);
    TsChain k;
    ts_chain_init(&k, c);
    TsTensor *r = ts_chain_result(euclidean(&k, x1, x2));
    ts_chain_end(&k);
    return ts_args_return_tensor(&a, r ? 0 : (int)c->error->code, r);
}

/* t (batch dims then rows, cols) broadcast to the batch sizes bs (nb of them) and made
 * contiguous: a new tensor, or NULL with the error set. */
static TsTensor *expand_batch(TsCall *c, const TsTensor *t, int nb, const int64_t *bs)
{
    int64_t sizes[TS_TENSOR_MAX_DIMS], strides[TS_TENSOR_MAX_DIMS];
    int tb = t->dim - 2;
    for (int i = 0; i < nb; i++) {
        int j = i - (nb - tb);
        sizes[i] = bs[i];
        strides[i] = j >= 0 && t->sizes[j] == bs[i] ? t->strides[j] : 0;
    }
    for (int i = 0; i < 2; i++) {
        sizes[nb + i] = t->sizes[tb + i];
        strides[nb + i] = t->strides[tb + i];
    }
    TsTensor *v = ts_aten_view(t, nb + 2, sizes, strides, t->offset, c->error);
    TsTensor *r = v ? ts_nn_contiguous(v, c->error) : NULL;
    if (v)
        ts_tensor_release(v);
    return r;
}

/* PyTorch's cdist_impl: checks, batch broadcasting, the path by p, mode and sizes. */
static TsTensor *cdist_impl(TsCall *c, TsChain *k, TsTensor *x1, TsTensor *x2, double p,
                            int64_t mode)
{
    if (check_floating(c, "", x1)) {
        ts_error_set(c->error, TS_ERR_RUNTIME, "cdist only supports floating-point dtypes, "
                     "X1 got: %s", ts_dtype_type_name(x1->dtype));
        return NULL;
    }
    if (check_floating(c, "", x2)) {
        ts_error_set(c->error, TS_ERR_RUNTIME, "cdist only supports floating-point dtypes, "
                     "X2 got: %s", ts_dtype_type_name(x2->dtype));
        return NULL;
    }
    if (!(p >= 0)) {
        ts_error_set(c->error, TS_ERR_RUNTIME, "cdist only supports non-negative p values");
        return NULL;
    }
    if (mode < 0 || mode > 2) {
        ts_error_set(c->error, TS_ERR_RUNTIME, "possible modes: 0, 1, 2, but was: %lld",
                     (long long)mode);
        return NULL;
    }
    int64_t r1 = x1->sizes[x1->dim - 2], r2 = x2->sizes[x2->dim - 2], cols = x1->sizes[x1->dim - 1];
    /* the batch dims broadcast against each other */
    TsTensor b1 = *x1, b2 = *x2;
    b1.dim -= 2;
    b2.dim -= 2;
    TsTensor *bt[2] = { &b1, &b2 };
    int nb;
    int64_t bs[TS_TENSOR_MAX_DIMS], out[TS_TENSOR_MAX_DIMS], batch = 1;
    if (ts_aten_broadcast_shape(2, bt, &nb, bs, c->error))
        return NULL;
    for (int i = 0; i < nb; i++)
        batch *= out[i] = bs[i];
    out[nb] = r1;
    out[nb + 1] = r2;
    if (r1 == 0 || r2 == 0 || batch == 0 || cols == 0) {
        TsTensor *r = ts_chain_keep(k, ts_cpu_empty(x1->dtype, nb + 2, out, c->error));
        if (r)
            memset(ts_tensor_data(r), 0, ts_tensor_numel(r) * ts_dtype_size(r->dtype));
        return r;
    }
    if (p == 2 && (mode == 1 || (mode == 0 && (r1 > 25 || r2 > 25)))) {
        TsTensor *e1 = x1, *e2 = x2;
        if (batch != 1) {
            e1 = ts_chain_keep(k, expand_batch(c, x1, nb, bs));
            e2 = e1 ? ts_chain_keep(k, expand_batch(c, x2, nb, bs)) : NULL;
        }
        TsTensor *d = e2 ? euclidean(k, e1, e2) : NULL;
        return d ? ts_chain_keep(k, ts_aten_view(d, nb + 2, out, NULL, 0, c->error)) : NULL;
    }
    TsTensor *e1 = ts_chain_keep(k, expand_batch(c, x1, nb, bs));
    TsTensor *e2 = e1 ? ts_chain_keep(k, expand_batch(c, x2, nb, bs)) : NULL;
    TsTensor *r = e2 ? ts_chain_keep(k, ts_cpu_empty(x1->dtype, nb + 2, out, c->error)) : NULL;
    if (!r)
        return NULL;
    size_t es = ts_dtype_size(x1->dtype);
    const char *p1 = ts_tensor_data(e1), *p2 = ts_tensor_data(e2);
    for (int64_t b = 0; b < batch; b++)
        for (int64_t i = 0; i < r1; i++)
            for (int64_t j = 0; j < r2; j++)
                ts_nn_set(x1->dtype, ts_tensor_data(r), (b * r1 + i) * r2 + j,
                          row_dist(x1->dtype, p1 + (size_t)((b * r1 + i) * cols) * es,
                                   p2 + (size_t)((b * r2 + j) * cols) * es, cols, p));
    return r;
}

/* cdist(Tensor x1, Tensor x2, float p=2., int? compute_mode=None) and _cdist_forward. */
static int cdist(TsCall *c)
{
    TsArgs a;
    TsTensor *x1, *x2;
    double p;
    int64_t mode = 0;
    bool has_mode;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x1);
    if (!rc) rc = ts_args_tensor(&a, 1, &x2);
    if (!rc) rc = ts_args_float(&a, 2, &p);
    if (!rc) rc = ts_args_opt_int(&a, 3, &mode, &has_mode);
    if (!has_mode)
        mode = 0;
    if (!rc && x1->dim < 2)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "cdist only supports at least 2D tensors, "
                          "X1 got: %dD", x1->dim);
    if (!rc && x2->dim < 2)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "cdist only supports at least 2D tensors, "
                          "X2 got: %dD", x2->dim);
    if (!rc && x1->sizes[x1->dim - 1] != x2->sizes[x2->dim - 1])
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "X1 and X2 must have the same number of "
                          "columns. X1: %lld X2: %lld", (long long)x1->sizes[x1->dim - 1],
                          (long long)x2->sizes[x2->dim - 1]);
    if (rc)
        return ts_args_fail(&a, rc);
    TsChain k;
    ts_chain_init(&k, c);
    TsTensor *r = ts_chain_result(cdist_impl(c, &k, x1, x2, p, mode));
    ts_chain_end(&k);
    return ts_args_return_tensor(&a, r ? 0 : (int)c->error->code, r);
}

static const TsCpuOp ops[] = {
    { "aten::pdist", "", k_pdist },
    { "aten::_pdist_forward", "", k_pdist_forward },
    { "aten::cdist", "", cdist },
    { "aten::_cdist_forward", "", cdist },
    { "aten::_euclidean_dist", "", k_euclidean_dist },
};

const TsCpuTable ts_cpu_distance_table = { ops, sizeof ops / sizeof ops[0] };
