/* blas.c — the matrix products on the GPU: mm, bmm, addmm (and addmm_), baddbmm, matmul in
 * every rank case, linear, dot (vdot) and mv, each a checked call of ts_cuda_gemm (cublas.c).
 *
 * matmul's plan (shapes, broadcast batch, messages) is aten-common's, shared with the cpu
 * (ts_aten_matmul_plan). When the second
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
    TsAtenOperand shape;
} Operand;

static Operand operand(TsTensor *t)
{
    Operand o = { t, { t->dim, t->sizes, t->strides } };
    return o;
}

/* matmul's plan (aten-common) with each operand's matrix at batch entry 0. */
typedef struct Plan {
    TsAtenMatmul m;
    TsCudaMat a, b;
} Plan;

static int plan(TsError *err, const Operand *x, const Operand *y, Plan *p)
{
    int rc = ts_aten_matmul_plan(&x->shape, &y->shape, &p->m, err);
    if (rc)
        return rc;
    p->a = (TsCudaMat){ ts_tensor_data(x->t), p->m.a.rows, p->m.a.cols, p->m.a.rs, p->m.a.cs };
    p->b = (TsCudaMat){ ts_tensor_data(y->t), p->m.b.rows, p->m.b.cols, p->m.b.rs, p->m.b.cs };
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
    for (int i = 0; i < p->m.nb; i++) {
        sizes[i] = p->m.bsz[i];
        strides[i] = bstrides[i];
    }
    sizes[p->m.nb] = m->rows, sizes[p->m.nb + 1] = m->cols;
    strides[p->m.nb] = m->rs, strides[p->m.nb + 1] = m->cs;
    TsTensor *v = ts_aten_view(o->t, p->m.nb + 2, sizes, strides, o->t->offset, err);
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

/* Runs the plan into o (contiguous, of shape p->m.sizes), beta 0 or 1 (o prefilled). */
static int run(TsError *err, const Plan *p, const Operand *x, const Operand *y, TsTensor *o,
               double beta)
{
    int dtype = o->dtype;
    void *out = ts_tensor_data(o);
    if (p->m.batch == 0 || p->a.rows == 0 || p->b.cols == 0)
        return 0;
    int64_t sa, sb;
    bool fa = one_stride(p->m.nb, p->m.bsz, p->m.sa, &sa);
    bool fb = one_stride(p->m.nb, p->m.bsz, p->m.sb, &sb);
    if (fb && sb == 0 && fa && (p->m.batch == 1 || p->a.rows == 1 || sa == p->a.rows * p->a.rs)) {
        /* (batch..., n, k) @ (k, m): one GEMM over batch * n rows */
        TsCudaMat a = p->a;
        if (p->m.batch > 1) {
            if (a.rows == 1)
                a.rs = sa;
            a.rows *= p->m.batch;
        }
        return ts_cuda_gemm(dtype, 1.0, &a, 0, &p->b, 0, beta, out, 1, err);
    }
    TsCudaMat a = p->a, b = p->b;
    TsTensor *ca = NULL, *cb = NULL;
    int rc = 0;
    if (!fa)
        rc = materialize(err, p, x, p->m.sa, &a, &sa, &ca);
    if (!rc && !fb)
        rc = materialize(err, p, y, p->m.sb, &b, &sb, &cb);
    if (!rc)
        rc = ts_cuda_gemm(dtype, 1.0, &a, sa, &b, sb, beta, out, p->m.batch, err);
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
    if (bias && (same_dtype(err, x->t, bias) ||
                 ts_aten_check_expand(bias, p.m.dim, p.m.sizes, err)))
        return NULL;
    TsTensor *o = ts_cuda_empty(x->t->dtype, p.m.dim, p.m.sizes, err);
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

/* x @ y after the checks of the product `kind`. */
static TsTensor *checked(TsError *err, TsAtenProduct kind, TsTensor *x, TsTensor *y)
{
    return ts_aten_check_product(kind, x, y, err) ? NULL : do_matmul(err, x, y);
}

static TsTensor *do_mm(TsError *err, TsTensor *x, TsTensor *y)
{
    return checked(err, TS_ATEN_MM, x, y);
}

static TsTensor *do_bmm(TsError *err, TsTensor *x, TsTensor *y)
{
    return checked(err, TS_ATEN_BMM, x, y);
}

static TsTensor *do_dot(TsError *err, TsTensor *x, TsTensor *y)
{
    return checked(err, TS_ATEN_DOT, x, y);
}

static TsTensor *do_mv(TsError *err, TsTensor *x, TsTensor *y)
{
    return checked(err, TS_ATEN_MV, x, y);
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
            ow.shape.sizes = sizes;
            ow.shape.strides = strides;
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
    int nd = batched ? 3 : 2, o = nd - 2;
    if (ts_aten_check_product(batched ? TS_ATEN_BMM : TS_ATEN_ADDMM, x, y, err))
        return NULL;
    int64_t sizes[3] = { x->sizes[0], x->sizes[o], y->sizes[o + 1] };
    const int64_t *shape = batched ? sizes : sizes + 1;
    TsTensor *all[3] = { x, y, self };
    if (ts_aten_check_expand(self, nd, shape, err) || same_dtype(err, x, y) ||
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
