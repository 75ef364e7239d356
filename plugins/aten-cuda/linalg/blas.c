/* blas.c — the matrix products on the GPU: mm, bmm, addmm (and addmm_), baddbmm, matmul in
 * every rank case, linear, dot (vdot) and mv, each a checked call of ts_cuda_gemm (cublas.c).
 *
 * matmul's plan follows PyTorch: 1-d operands become a row (first) or a column (second)
 * that the result drops, the batch dims (all but the last two) broadcast. When the second
 * operand has no batch of its own and the first's batch folds into its rows, the product is
 * one GEMM over batch * rows rows (the (batch, seq, in) @ (in, out) of linear); otherwise it
 * is one strided-batched GEMM, each operand's batch read with one stride (0 where it
 * broadcasts), or copied to a contiguous batch when its batch dims do not fold into one.
 * Results are new contiguous tensors; a bias or self (addmm) is copied in first and the
 * product added with beta.
 */
#include <string.h>

#include "linalg/gemm.h"

/* ---- checks ------------------------------------------------------------------------ */

static int same_dtype(TsError *err, const TsTensor *a, const TsTensor *b)
{
    if (a->dtype == b->dtype)
        return 0;
    return ts_error_set(err, TS_ERR_RUNTIME, "expected scalar type %s but found %s",
                        ts_dtype_type_name(a->dtype), ts_dtype_type_name(b->dtype));
}

/* All on one device, which becomes the current one (the result's and cuBLAS's). */
static int same_device(TsError *err, int n, TsTensor *const *t)
{
    for (int i = 1; i < n; i++)
        if (t[i] && (t[i]->device.type != t[0]->device.type ||
                     t[i]->device.index != t[0]->device.index))
            return ts_error_set(err, TS_ERR_RUNTIME, "Expected all tensors to be on the same "
                                "device, but found at least two devices, cuda:%d and cuda:%d!",
                                t[0]->device.index, t[i]->device.index);
    return ts_cuda_use_device(t[0]->device, err);
}

static int mm_shape_error(TsError *err, int64_t r1, int64_t c1, int64_t r2, int64_t c2)
{
    return ts_error_set(err, TS_ERR_RUNTIME, "mat1 and mat2 shapes cannot be multiplied "
                        "(%lldx%lld and %lldx%lld)", (long long)r1, (long long)c1,
                        (long long)r2, (long long)c2);
}

static int mv_shape_error(TsError *err, int64_t r, int64_t c, int64_t v)
{
    return ts_error_set(err, TS_ERR_RUNTIME, "size mismatch, got %lld, %lldx%lld,%lld",
                        (long long)r, (long long)r, (long long)c, (long long)v);
}

/* src broadcasts to the target shape (expand's rules and message). */
static int check_expand(TsError *err, const TsTensor *src, int dim, const int64_t *sizes)
{
    char want[256], have[256];
    if (src->dim > dim)
        return ts_error_set(err, TS_ERR_RUNTIME, "The number of sizes provided (%d) must be "
                            "greater or equal to the number of dimensions in the tensor (%d)",
                            dim, (int)src->dim);
    for (int i = 0; i < src->dim; i++) {
        int d = dim - src->dim + i;
        if (src->sizes[i] != 1 && src->sizes[i] != sizes[d]) {
            ts_aten_format_sizes(want, sizeof want, dim, sizes);
            ts_aten_format_sizes(have, sizeof have, src->dim, src->sizes);
            return ts_error_set(err, TS_ERR_RUNTIME, "The expanded size of the tensor (%lld) "
                                "must match the existing size (%lld) at non-singleton "
                                "dimension %d.  Target sizes: %s.  Tensor sizes: %s",
                                (long long)sizes[d], (long long)src->sizes[i], d, want, have);
        }
    }
    return 0;
}

static int64_t prod(int n, const int64_t *v)
{
    int64_t p = 1;
    for (int i = 0; i < n; i++)
        p *= v[i];
    return p;
}

static TsCudaMat mat_of(const TsTensor *t, int d0, int d1)
{
    TsCudaMat m = { ts_tensor_data(t), t->sizes[d0], t->sizes[d1], t->strides[d0],
                    t->strides[d1] };
    return m;
}

/* ---- matmul's plan ----------------------------------------------------------------- */

/* An operand as matmul sees it: the tensor and its shape (linear passes weight transposed). */
typedef struct Operand {
    TsTensor *t;
    int dim;
    const int64_t *sizes, *strides;
} Operand;

static Operand operand(TsTensor *t)
{
    Operand o = { t, t->dim, t->sizes, t->strides };
    return o;
}

/* The broadcast batch, each operand's matrix and batch strides, and the output shape. */
typedef struct Plan {
    int nb;
    int64_t bsz[TS_TENSOR_MAX_DIMS], sa[TS_TENSOR_MAX_DIMS], sb[TS_TENSOR_MAX_DIMS];
    int64_t batch;
    TsCudaMat a, b;
    int dim;
    int64_t sizes[TS_TENSOR_MAX_DIMS];
} Plan;

/* The inner-size error, worded as PyTorch words it for each rank case. */
static int inner_error(TsError *err, const Operand *x, const Operand *y, const Plan *p)
{
    int da = x->dim, db = y->dim;
    int64_t k1 = p->a.cols, k2 = p->b.rows;
    if (da == 1 && db == 1)
        return ts_error_set(err, TS_ERR_RUNTIME, "inconsistent tensor size, expected tensor "
                            "[%lld] and src [%lld] to have the same number of elements, but "
                            "got %lld and %lld elements respectively", (long long)k1,
                            (long long)k2, (long long)k1, (long long)k2);
    if (da <= 2 && db <= 2)
        return db == 1 ? mv_shape_error(err, p->a.rows, k1, k2)
                       : mm_shape_error(err, p->a.rows, k1, k2, p->b.cols);
    if (db <= 2) {
        int64_t rows = prod(da - 1, x->sizes);
        return db == 1 ? mv_shape_error(err, rows, k1, k2)
                       : mm_shape_error(err, rows, k1, k2, p->b.cols);
    }
    if (da <= 2) {
        int64_t rows = prod(db - 2, y->sizes) * p->b.cols;
        return da == 1 ? mv_shape_error(err, rows, k2, k1)
                       : mm_shape_error(err, rows, k2, k1, p->a.rows);
    }
    return ts_error_set(err, TS_ERR_RUNTIME, "Expected size for first two dimensions of batch2 "
                        "tensor to be: [%lld, %lld] but got: [%lld, %lld].",
                        (long long)p->batch, (long long)k1, (long long)p->batch, (long long)k2);
}

static int plan(TsError *err, const Operand *x, const Operand *y, Plan *p)
{
    int da = x->dim, db = y->dim;
    if (da == 0 || db == 0)
        return ts_error_set(err, TS_ERR_RUNTIME, "both arguments to matmul need to be at least "
                            "1D, but they are %dD and %dD", da, db);
    const char *px = ts_tensor_data(x->t), *py = ts_tensor_data(y->t);
    p->a = (TsCudaMat){ px, da >= 2 ? x->sizes[da - 2] : 1, x->sizes[da - 1],
                        da >= 2 ? x->strides[da - 2] : 0, x->strides[da - 1] };
    if (db >= 2)
        p->b = (TsCudaMat){ py, y->sizes[db - 2], y->sizes[db - 1], y->strides[db - 2],
                            y->strides[db - 1] };
    else
        p->b = (TsCudaMat){ py, y->sizes[0], 1, y->strides[0], 0 };
    int na = da > 2 ? da - 2 : 0, nbb = db > 2 ? db - 2 : 0;
    p->nb = na > nbb ? na : nbb;
    for (int i = 0; i < p->nb; i++) {
        int ia = i - (p->nb - na), ib = i - (p->nb - nbb);
        int64_t za = ia >= 0 ? x->sizes[ia] : 1, zb = ib >= 0 ? y->sizes[ib] : 1;
        if (za != zb && za != 1 && zb != 1)
            return ts_error_set(err, TS_ERR_RUNTIME, "The size of tensor a (%lld) must match "
                                "the size of tensor b (%lld) at non-singleton dimension %d",
                                (long long)za, (long long)zb, i);
        p->bsz[i] = za == 1 ? zb : za;
        p->sa[i] = za == 1 ? 0 : x->strides[ia];
        p->sb[i] = zb == 1 ? 0 : y->strides[ib];
    }
    p->batch = prod(p->nb, p->bsz);
    if (p->a.cols != p->b.rows)
        return inner_error(err, x, y, p);
    p->dim = 0;
    for (int i = 0; i < p->nb; i++)
        p->sizes[p->dim++] = p->bsz[i];
    if (da >= 2)
        p->sizes[p->dim++] = p->a.rows;
    if (db >= 2)
        p->sizes[p->dim++] = p->b.cols;
    return 0;
}

/* The one stride that walks n dims of these sizes and strides in row-major order (size-1
 * dims skipped), or false when there is none. */
static bool one_stride(int n, const int64_t *sizes, const int64_t *strides, int64_t *out)
{
    int64_t inner_size = 1, inner_stride = 0;
    bool any = false;
    for (int d = n - 1; d >= 0; d--) {
        if (sizes[d] == 1)
            continue;
        if (any && strides[d] != inner_stride * inner_size)
            return false;
        any = true;
        inner_size = sizes[d];
        inner_stride = strides[d];
    }
    *out = inner_stride;
    return true;
}

/* The operand's matrices over the whole batch as a contiguous copy (*owned, to release);
 * m then points at it and *stride is one matrix. */
static int materialize(TsError *err, const Plan *p, const Operand *o, const int64_t *bstrides,
                       TsCudaMat *m, int64_t *stride, TsTensor **owned)
{
    int64_t sizes[TS_TENSOR_MAX_DIMS], strides[TS_TENSOR_MAX_DIMS];
    for (int i = 0; i < p->nb; i++) {
        sizes[i] = p->bsz[i];
        strides[i] = bstrides[i];
    }
    sizes[p->nb] = m->rows, sizes[p->nb + 1] = m->cols;
    strides[p->nb] = m->rs, strides[p->nb + 1] = m->cs;
    TsTensor *v = ts_aten_view(o->t, p->nb + 2, sizes, strides, o->t->offset, err);
    TsTensor *c = v ? ts_cuda_cast(v, v->dtype, err) : NULL;
    if (v)
        ts_tensor_release(v);
    if (!c)
        return err->code;
    *owned = c;
    m->p = ts_tensor_data(c);
    m->rs = m->cols, m->cs = 1;
    *stride = m->rows * m->cols;
    return 0;
}

/* Runs the plan into o (contiguous, of shape p->sizes), beta 0 or 1 (o prefilled). */
static int run(TsError *err, const Plan *p, const Operand *x, const Operand *y, TsTensor *o,
               double beta)
{
    int dtype = o->dtype;
    void *out = ts_tensor_data(o);
    if (p->batch == 0 || p->a.rows == 0 || p->b.cols == 0)
        return 0;
    int64_t sa, sb;
    bool fa = one_stride(p->nb, p->bsz, p->sa, &sa), fb = one_stride(p->nb, p->bsz, p->sb, &sb);
    if (fb && sb == 0 && fa && (p->batch == 1 || p->a.rows == 1 || sa == p->a.rows * p->a.rs)) {
        /* (batch..., n, k) @ (k, m): one GEMM over batch * n rows */
        TsCudaMat a = p->a;
        if (p->batch > 1) {
            if (a.rows == 1)
                a.rs = sa;
            a.rows *= p->batch;
        }
        return ts_cuda_gemm(dtype, 1.0, &a, 0, &p->b, 0, beta, out, 1, err);
    }
    TsCudaMat a = p->a, b = p->b;
    TsTensor *ca = NULL, *cb = NULL;
    int rc = 0;
    if (!fa)
        rc = materialize(err, p, x, p->sa, &a, &sa, &ca);
    if (!rc && !fb)
        rc = materialize(err, p, y, p->sb, &b, &sb, &cb);
    if (!rc)
        rc = ts_cuda_gemm(dtype, 1.0, &a, sa, &b, sb, beta, out, p->batch, err);
    if (ca)
        ts_tensor_release(ca);
    if (cb)
        ts_tensor_release(cb);
    return rc;
}

/* x @ y (+ bias broadcast to the result) as a new tensor. */
static TsTensor *matmul(TsError *err, const Operand *x, const Operand *y, TsTensor *bias)
{
    Plan p;
    TsTensor *all[3] = { x->t, y->t, bias };
    if (same_dtype(err, x->t, y->t) || ts_cuda_gemm_check_dtype(x->t->dtype, err) ||
        same_device(err, 3, all) || plan(err, x, y, &p))
        return NULL;
    if (bias && (same_dtype(err, x->t, bias) || check_expand(err, bias, p.dim, p.sizes)))
        return NULL;
    TsTensor *o = ts_cuda_empty(x->t->dtype, p.dim, p.sizes, err);
    if (!o)
        return NULL;
    if ((bias && ts_cuda_copy_into(o, bias, err)) || run(err, &p, x, y, o, bias ? 1.0 : 0.0)) {
        ts_tensor_release(o);
        return NULL;
    }
    return o;
}

/* ---- kernels ------------------------------------------------------------------------ */

typedef TsTensor *(*Binary)(TsError *err, TsTensor *x, TsTensor *y);

/* Binds the two tensor arguments of the call's operator, runs fn, pushes its result. */
static int binary_kernel(TsCall *c, Binary fn)
{
    TsArgs a;
    TsTensor *x, *y, *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CUDA, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x);
    if (!rc) rc = ts_args_tensor(&a, 1, &y);
    if (!rc && !(r = fn(c->error, x, y)))
        rc = c->error->code;
    return ts_args_return_tensor(&a, rc, r);
}

static TsTensor *do_matmul(TsError *err, TsTensor *x, TsTensor *y)
{
    Operand ox = operand(x), oy = operand(y);
    return matmul(err, &ox, &oy, NULL);
}

static TsTensor *do_mm(TsError *err, TsTensor *x, TsTensor *y)
{
    if (x->dim != 2 || y->dim != 2) {
        ts_error_set(err, TS_ERR_RUNTIME, "%s must be a matrix", x->dim != 2 ? "self" : "mat2");
        return NULL;
    }
    return do_matmul(err, x, y);
}

static TsTensor *do_bmm(TsError *err, TsTensor *x, TsTensor *y)
{
    if (x->dim != 3 || y->dim != 3) {
        ts_error_set(err, TS_ERR_RUNTIME, "batch%d must be a 3D tensor", x->dim != 3 ? 1 : 2);
        return NULL;
    }
    if (x->sizes[0] != y->sizes[0] || x->sizes[2] != y->sizes[1]) {
        ts_error_set(err, TS_ERR_RUNTIME, "Expected size for first two dimensions of batch2 "
                     "tensor to be: [%lld, %lld] but got: [%lld, %lld].",
                     (long long)x->sizes[0], (long long)x->sizes[2], (long long)y->sizes[0],
                     (long long)y->sizes[1]);
        return NULL;
    }
    return do_matmul(err, x, y);
}

static TsTensor *do_dot(TsError *err, TsTensor *x, TsTensor *y)
{
    if (x->dim != 1 || y->dim != 1) {
        ts_error_set(err, TS_ERR_RUNTIME, "1D tensors expected, but got %dD and %dD tensors",
                     (int)x->dim, (int)y->dim);
        return NULL;
    }
    if (x->dtype != y->dtype) {
        ts_error_set(err, TS_ERR_RUNTIME, "dot : expected both vectors to have same dtype, but "
                     "found %s and %s", ts_dtype_type_name(x->dtype),
                     ts_dtype_type_name(y->dtype));
        return NULL;
    }
    return do_matmul(err, x, y);
}

static TsTensor *do_mv(TsError *err, TsTensor *x, TsTensor *y)
{
    if (x->dim != 2 || y->dim != 1) {
        ts_error_set(err, TS_ERR_RUNTIME, "vector + matrix @ vector expected, got 1, %d, %d",
                     (int)x->dim, (int)y->dim);
        return NULL;
    }
    return do_matmul(err, x, y);
}

/* aten::matmul(Tensor self, Tensor other) -> Tensor */
static int k_matmul(TsCall *c) { return binary_kernel(c, do_matmul); }
/* aten::mm(Tensor self, Tensor mat2) -> Tensor */
static int k_mm(TsCall *c) { return binary_kernel(c, do_mm); }
/* aten::bmm(Tensor self, Tensor mat2) -> Tensor */
static int k_bmm(TsCall *c) { return binary_kernel(c, do_bmm); }
/* aten::dot(Tensor self, Tensor tensor) -> Tensor (vdot: the same for real dtypes) */
static int k_dot(TsCall *c) { return binary_kernel(c, do_dot); }
/* aten::mv(Tensor self, Tensor vec) -> Tensor */
static int k_mv(TsCall *c) { return binary_kernel(c, do_mv); }

/* aten::linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor:
 * input @ weight.t() + bias, weight read transposed in place. */
static int k_linear(TsCall *c)
{
    TsArgs a;
    TsTensor *x, *w, *bias = NULL, *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CUDA, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x);
    if (!rc) rc = ts_args_tensor(&a, 1, &w);
    if (!rc) rc = ts_args_opt_tensor(&a, 2, &bias);
    if (!rc) {
        int64_t sizes[2], strides[2];
        Operand ox = operand(x), ow = operand(w);
        if (w->dim == 2) {
            sizes[0] = w->sizes[1], sizes[1] = w->sizes[0];
            strides[0] = w->strides[1], strides[1] = w->strides[0];
            ow.sizes = sizes;
            ow.strides = strides;
        }
        if (!(r = matmul(c->error, &ox, &ow, bias)))
            rc = c->error->code;
    }
    return ts_args_return_tensor(&a, rc, r);
}

/* beta * self + alpha * (x @ y): x and y matrices (batched: 3-d), self broadcast. */
static TsTensor *scaled_product(TsError *err, TsTensor *self, TsTensor *x, TsTensor *y,
                                double beta, double alpha, bool batched)
{
    int nd = batched ? 3 : 2;
    if (x->dim != nd || y->dim != nd) {
        if (batched)
            ts_error_set(err, TS_ERR_RUNTIME, "batch%d must be a 3D tensor", x->dim != 3 ? 1 : 2);
        else
            ts_error_set(err, TS_ERR_RUNTIME, "mat%d must be a matrix, got %d-D tensor",
                         x->dim != 2 ? 1 : 2, x->dim != 2 ? (int)x->dim : (int)y->dim);
        return NULL;
    }
    int o = nd - 2;
    if (batched && (x->sizes[0] != y->sizes[0] || x->sizes[2] != y->sizes[1])) {
        ts_error_set(err, TS_ERR_RUNTIME, "Expected size for first two dimensions of batch2 "
                     "tensor to be: [%lld, %lld] but got: [%lld, %lld].",
                     (long long)x->sizes[0], (long long)x->sizes[2], (long long)y->sizes[0],
                     (long long)y->sizes[1]);
        return NULL;
    }
    if (!batched && x->sizes[1] != y->sizes[0]) {
        mm_shape_error(err, x->sizes[0], x->sizes[1], y->sizes[0], y->sizes[1]);
        return NULL;
    }
    int64_t sizes[3] = { x->sizes[0], x->sizes[o], y->sizes[o + 1] };
    const int64_t *shape = batched ? sizes : sizes + 1;
    TsTensor *all[3] = { x, y, self };
    if (check_expand(err, self, nd, shape) || same_dtype(err, x, y) ||
        same_dtype(err, self, x) || ts_cuda_gemm_check_dtype(x->dtype, err) ||
        same_device(err, 3, all))
        return NULL;
    TsTensor *r = ts_cuda_empty(x->dtype, nd, shape, err);
    if (!r)
        return NULL;
    TsCudaMat ma = mat_of(x, o, o + 1), mb = mat_of(y, o, o + 1);
    int64_t batch = batched ? sizes[0] : 1;
    if ((beta != 0 && ts_cuda_copy_into(r, self, err)) ||
        ts_cuda_gemm(x->dtype, alpha, &ma, batched ? x->strides[0] : 0, &mb,
                     batched ? y->strides[0] : 0, beta, ts_tensor_data(r), batch, err)) {
        ts_tensor_release(r);
        return NULL;
    }
    return r;
}

/* Binds (Tensor self, Tensor x, Tensor y, *, Scalar beta=1, Scalar alpha=1). */
static int bind_scaled(TsCall *c, TsArgs *a, bool batched, TsTensor **r)
{
    TsTensor *s, *x, *y;
    double beta, alpha;
    *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CUDA, a);
    if (!rc) rc = ts_args_tensor(a, 0, &s);
    if (!rc) rc = ts_args_tensor(a, 1, &x);
    if (!rc) rc = ts_args_tensor(a, 2, &y);
    if (!rc) rc = ts_args_float(a, 3, &beta);
    if (!rc) rc = ts_args_float(a, 4, &alpha);
    if (!rc && !(*r = scaled_product(c->error, s, x, y, beta, alpha, batched)))
        rc = c->error->code;
    return rc;
}

/* aten::addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) */
static int k_addmm(TsCall *c)
{
    TsArgs a;
    TsTensor *r;
    int rc = bind_scaled(c, &a, false, &r);
    return ts_args_return_tensor(&a, rc, r);
}

/* aten::baddbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) */
static int k_baddbmm(TsCall *c)
{
    TsArgs a;
    TsTensor *r;
    int rc = bind_scaled(c, &a, true, &r);
    return ts_args_return_tensor(&a, rc, r);
}

/* aten::addmm_(Tensor(a!) self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) */
static int k_addmm_(TsCall *c)
{
    TsArgs a;
    TsTensor *r;
    int rc = bind_scaled(c, &a, false, &r);
    TsTensor *s = r ? (TsTensor *)a.v[0].u.p : NULL;
    if (r && !ts_aten_same_shape(s, 2, r->sizes))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "The input tensor self must have the shape "
                          "of the product: %lldx%lld", (long long)r->sizes[0],
                          (long long)r->sizes[1]);
    else if (r)
        rc = ts_cuda_copy_into(s, r, c->error);
    if (r)
        ts_tensor_release(r);
    return ts_args_return_arg(&a, rc, 0);
}

static const TsCudaOp ops[] = {
    { "aten::mm", "", k_mm },
    { "aten::matmul", "", k_matmul },
    { "aten::bmm", "", k_bmm },
    { "aten::dot", "", k_dot },
    { "aten::vdot", "", k_dot },
    { "aten::mv", "", k_mv },
    { "aten::linear", "", k_linear },
    { "aten::addmm", "", k_addmm },
    { "aten::addmm_", "", k_addmm_ },
    { "aten::baddbmm", "", k_baddbmm },
};

const TsCudaTable ts_cuda_blas_table = { ops, sizeof ops / sizeof ops[0] };
