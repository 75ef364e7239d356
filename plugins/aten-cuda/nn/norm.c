/* norm.c — the normalizations on the GPU: batch_norm (evaluation with running statistics,
 * or training with the batch's, moving the running ones in place by momentum), layer_norm
 * and group_norm.
 *
 * All compute y = (x - mean) / sqrt(var + eps) * weight + bias with the biased variance
 * (as aten-cpu's nn/norm.c; both check their arguments with aten-common's norm_check.c).
 * Each is two launches over a contiguous input (norm_kernels.cu): statistics per row, then
 * the normalization; the ops differ only in the Norm they fill, which says how an element
 * finds its row and channel.
 */
#include "nn/norm.h"

/* One normalization, described for the two launches. */
typedef struct Norm {
    TsTensor *x;               /* the contiguous input (owned) */
    TsTensor *mean, *var;      /* per-row statistics in the stats dtype (owned) */
    TsTensor *weight, *bias;   /* per channel, contiguous in the stats dtype, or NULL (owned) */
    int64_t rdiv, rmod, cdiv, cmod;
    double eps;
} Norm;

static int stats_dtype(int dtype)
{
    return dtype == TS_FLOAT64 ? TS_FLOAT64 : TS_FLOAT32;
}

/* t (may be NULL) contiguous in dtype as *out, flattened to one dim. */
static int vec(TsTensor *t, int dtype, TsTensor **out, TsError *err)
{
    *out = NULL;
    if (!t)
        return 0;
    TsTensor *ct = ts_cuda_contiguous_as(t, dtype, err);
    if (!ct)
        return err->code;
    int64_t n = ts_tensor_numel(ct);
    *out = ts_aten_view(ct, 1, &n, NULL, ct->offset, err);
    ts_tensor_release(ct);
    return *out ? 0 : (int)err->code;
}

static void norm_free(Norm *n)
{
    TsTensor *ts[5] = { n->x, n->mean, n->var, n->weight, n->bias };
    for (int i = 0; i < 5; i++)
        if (ts[i])
            ts_tensor_release(ts[i]);
}

/* Prepares n: the contiguous input, weight and bias; mean and var of rows elements. */
static int norm_init(Norm *n, TsTensor *x, TsTensor *w, TsTensor *b, int64_t rows, double eps,
                     TsError *err)
{
    int sdt = stats_dtype(x->dtype);
    n->eps = eps;
    if (ts_cuda_use_device(x->device, err))
        return err->code;
    if (!(n->x = ts_cuda_contiguous_as(x, x->dtype, err)))
        return err->code;
    if (vec(w, sdt, &n->weight, err) || vec(b, sdt, &n->bias, err))
        return err->code;
    if (!(n->mean = ts_cuda_empty_on(x->device, sdt, 1, &rows, err)) ||
        !(n->var = ts_cuda_empty_on(x->device, sdt, 1, &rows, err)))
        return err->code;
    return 0;
}

/* Statistics of rows: row s holds count elements, the k-th at (k / kin) * kstride + s *
 * sstride + k % kin. */
static int norm_stats(Norm *n, int64_t count, int64_t kin, int64_t kstride, int64_t sstride,
                      TsError *err)
{
    TsCudaStats s = { ts_tensor_data(n->x), n->x->dtype, n->mean->sizes[0], count,
                      kin ? kin : 1, kstride, sstride, ts_tensor_data(n->mean),
                      ts_tensor_data(n->var) };
    return ts_cuda_launch_row_stats(&s, err);
}

/* The normalized tensor. */
static TsTensor *norm_apply(Norm *n, TsError *err)
{
    TsTensor *x = n->x;
    TsTensor *o = ts_cuda_empty_on(x->device, x->dtype, x->dim, x->sizes, err);
    if (!o)
        return NULL;
    TsCudaNormApply a = { ts_tensor_data(x), ts_tensor_data(o), x->dtype, ts_tensor_numel(x),
                          n->rdiv ? n->rdiv : 1, n->rmod ? n->rmod : 1,
                          n->cdiv ? n->cdiv : 1, n->cmod ? n->cmod : 1,
                          ts_tensor_data(n->mean), ts_tensor_data(n->var),
                          n->weight ? ts_tensor_data(n->weight) : NULL,
                          n->bias ? ts_tensor_data(n->bias) : NULL, n->eps };
    if (ts_cuda_launch_norm_apply(&a, err)) {
        ts_tensor_release(o);
        return NULL;
    }
    return o;
}

/* ---- batch_norm ------------------------------------------------------------------------ */

static TsTensor *batch_norm(TsCall *c, TsTensor *x, TsTensor *const *v, bool training,
                            double momentum, double eps)
{
    TsError *err = c->error;
    if (ts_aten_check_batch_norm(x, v, training, c->error))
        return NULL;
    int64_t n = x->sizes[0], ch = x->sizes[1], inner = 1;
    for (int d = 2; d < x->dim; d++)
        inner *= x->sizes[d];
    Norm nm = { 0 };
    nm.rdiv = nm.cdiv = inner;
    nm.rmod = nm.cmod = ch;
    TsTensor *o = NULL;
    int st;
    if (training) {
        st = norm_init(&nm, x, v[0], v[1], ch, eps, err);
        if (!st)
            st = norm_stats(&nm, n * inner, inner, ch * inner, inner, err);
        if (!st && (v[2] || v[3]))
            st = ts_cuda_launch_running_stats(
                v[2] ? ts_tensor_data(v[2]) : NULL, v[2] ? v[2]->dtype : 0,
                v[2] ? v[2]->strides[0] : 0, v[3] ? ts_tensor_data(v[3]) : NULL,
                v[3] ? v[3]->dtype : 0, v[3] ? v[3]->strides[0] : 0,
                ts_tensor_data(nm.mean), ts_tensor_data(nm.var), nm.mean->dtype, ch, n * inner,
                momentum, err);
    } else {
        /* the running statistics stand for the batch's */
        st = norm_init(&nm, x, v[0], v[1], 0, eps, err);
        if (!st) {
            ts_tensor_release(nm.mean);
            ts_tensor_release(nm.var);
            nm.mean = nm.var = NULL;
            st = vec(v[2], stats_dtype(x->dtype), &nm.mean, err);
            if (!st)
                st = vec(v[3], nm.mean->dtype, &nm.var, err);
        }
    }
    if (!st)
        o = norm_apply(&nm, err);
    norm_free(&nm);
    return o;
}

static bool opt_bool(TsValue v)
{
    return v.tag == TS_TAG_BOOL && v.u.b;
}

/* aten::batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean,
 *   Tensor? running_var, bool training, float momentum, float eps, bool cudnn_enabled) */
static int k_batch_norm(TsCall *c)
{
    TsArgs a;
    TsTensor *x = NULL, *v[4] = { NULL }, *o = NULL;
    double momentum = 0, eps = 0;
    int st = ts_args_pop(c, TS_DEV_CUDA, &a);
    if (!st)
        st = ts_args_tensor(&a, 0, &x);
    for (int i = 0; i < 4 && !st; i++)
        st = ts_args_opt_tensor(&a, 1 + (size_t)i, &v[i]);
    if (!st)
        st = ts_args_float(&a, 6, &momentum);
    if (!st)
        st = ts_args_float(&a, 7, &eps);
    if (!st && !(o = batch_norm(c, x, v, opt_bool(a.v[5]), momentum, eps)))
        st = c->error->code;
    return ts_args_return_tensor(&a, st, o);
}

/* ---- layer_norm ------------------------------------------------------------------------ */

static TsTensor *layer_norm(TsCall *c, TsTensor *x, int nd, const int64_t *ns, TsTensor *w,
                            TsTensor *b, double eps)
{
    if (ts_aten_check_layer_norm(x, nd, ns, w, b, c->error))
        return NULL;
    int64_t len = 1;
    for (int i = 0; i < nd; i++)
        len *= ns[i];
    int64_t rows = len ? ts_tensor_numel(x) / len : 0;
    Norm nm = { 0 };
    nm.rdiv = nm.cmod = len;
    nm.rmod = rows;
    nm.cdiv = 1;
    TsTensor *o = NULL;
    if (!norm_init(&nm, x, w, b, rows, eps, c->error) &&
        !norm_stats(&nm, len, len, 0, len, c->error))
        o = norm_apply(&nm, c->error);
    norm_free(&nm);
    return o;
}

/* aten::layer_norm(Tensor input, int[] normalized_shape, Tensor? weight=None,
 *   Tensor? bias=None, float eps=1e-05, bool cudnn_enable=True) -> Tensor */
static int k_layer_norm(TsCall *c)
{
    TsArgs a;
    TsTensor *x = NULL, *w = NULL, *b = NULL, *o = NULL;
    int64_t ns[TS_TENSOR_MAX_DIMS];
    int nd = 0;
    double eps = 0;
    int st = ts_args_pop(c, TS_DEV_CUDA, &a);
    if (!st)
        st = ts_args_tensor(&a, 0, &x);
    if (!st)
        st = ts_args_int_list(&a, 1, ns, &nd, TS_TENSOR_MAX_DIMS);
    if (!st)
        st = ts_args_opt_tensor(&a, 2, &w);
    if (!st)
        st = ts_args_opt_tensor(&a, 3, &b);
    if (!st)
        st = ts_args_float(&a, 4, &eps);
    if (!st && !(o = layer_norm(c, x, nd, ns, w, b, eps)))
        st = c->error->code;
    return ts_args_return_tensor(&a, st, o);
}

/* ---- group_norm ------------------------------------------------------------------------ */

static TsTensor *group_norm(TsCall *c, TsTensor *x, int64_t groups, TsTensor *w, TsTensor *b,
                            double eps)
{
    if (ts_aten_check_group_norm(x, groups, w, b, c->error))
        return NULL;
    int64_t ch = x->sizes[1];
    int64_t inner = 1;
    for (int d = 2; d < x->dim; d++)
        inner *= x->sizes[d];
    int64_t len = ch / groups * inner, rows = x->sizes[0] * groups;
    Norm nm = { 0 };
    nm.rdiv = len;
    nm.rmod = rows;
    nm.cdiv = inner;
    nm.cmod = ch;
    TsTensor *o = NULL;
    if (!norm_init(&nm, x, w, b, rows, eps, c->error) &&
        !norm_stats(&nm, len, len, 0, len, c->error))
        o = norm_apply(&nm, c->error);
    norm_free(&nm);
    return o;
}

/* aten::group_norm(Tensor input, int num_groups, Tensor? weight=None, Tensor? bias=None,
 *   float eps=1e-05, bool cudnn_enabled=True) -> Tensor */
static int k_group_norm(TsCall *c)
{
    TsArgs a;
    TsTensor *x = NULL, *w = NULL, *b = NULL, *o = NULL;
    int64_t groups = 0;
    double eps = 0;
    int st = ts_args_pop(c, TS_DEV_CUDA, &a);
    if (!st)
        st = ts_args_tensor(&a, 0, &x);
    if (!st)
        st = ts_args_int(&a, 1, &groups);
    if (!st)
        st = ts_args_opt_tensor(&a, 2, &w);
    if (!st)
        st = ts_args_opt_tensor(&a, 3, &b);
    if (!st)
        st = ts_args_float(&a, 4, &eps);
    if (!st && !(o = group_norm(c, x, groups, w, b, eps)))
        st = c->error->code;
    return ts_args_return_tensor(&a, st, o);
}

static const TsCudaOp ops[] = {
    { "aten::batch_norm", "", k_batch_norm },
    { "aten::layer_norm", "", k_layer_norm },
    { "aten::group_norm", "", k_group_norm },
};

const TsCudaTable ts_cuda_norm_table = { ops, sizeof ops / sizeof ops[0] };
