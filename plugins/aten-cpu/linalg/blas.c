/* blas.c — the GEMM-based products: bmm, matmul (every rank case), addmm, addmv, baddbmm, dot
 * (and vdot, the same for real dtypes), inner, mv and
 * linear, and ts_nn_gemm, the one entry to BLAS (OpenBLAS, loaded on first use: openblas.c)
 * that linalg.c and conv.c use too (bfloat16 and float16, which BLAS lacks, widened to
 * float32 for sgemm and rounded once).
 *
 * Every product becomes calls of ts_nn_gemm on strided matrices. BLAS reads a matrix in place
 * when one stride is 1 and the other a valid leading dimension, so transposed views
 * (weight.t() in linear) cost nothing; other layouts are copied to a scratch buffer. A single
 * row or column uses gemv. matmul folds the batch dims of its first operand into the rows of
 * one GEMM when the second has no batch dims of its own and the layout allows (the common
 * (batch, seq, in) @ (in, out) case); otherwise it loops over the broadcast batch.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "nn/nn.h"
#include "nn/nn_out.h"
#include "linalg/openblas.h"
#include "vhalf.h"

/* How BLAS can read m in place (aten-common); false when a copy is needed. */
static bool layout(const TsNnMat *m, bool *trans, int64_t *ld)
{
    TsAtenMat am = { m->rows, m->cols, m->rs, m->cs };
    return ts_aten_blas_layout(&am, trans, ld);
}

/* Copies m to a contiguous buffer (*buf, to free) and points m at it. */
static int pack(TsNnMat *m, size_t esize, void **buf, TsError *err)
{
    size_t n = (size_t)(m->rows * m->cols);
    char *d = malloc(n ? n * esize : 1);
    if (!d)
        return ts_error_set(err, TS_ERR_NOMEM, "matmul: out of memory");
    const char *s = m->p;
    for (int64_t i = 0; i < m->rows; i++)
        for (int64_t j = 0; j < m->cols; j++)
            memcpy(d + (size_t)(i * m->cols + j) * esize,
                   s + (m->rs * i + m->cs * j) * (int64_t)esize, esize);
    *buf = d;
    m->p = d;
    m->rs = m->cols;
    m->cs = 1;
    return 0;
}

static void scale_rows(int dtype, double beta, void *c, int64_t rows, int64_t cols, int64_t ldc)
{
    if (beta == 0 && (rows == 1 || ldc == cols)) {
        memset(c, 0, (size_t)(rows * cols) * ts_dtype_size(dtype));
        return;
    }
    for (int64_t i = 0; i < rows; i++)
        for (int64_t j = 0; j < cols; j++) {
            int64_t k = i * ldc + j;
            ts_nn_set(dtype, c, k, beta == 0 ? 0 : beta * ts_nn_get(dtype, c, k));
        }
}

#define INT_GEMM(DT, T, ...) \
    static void gemm_##DT(int64_t alpha, const TsNnMat *a, const TsNnMat *b, int64_t beta, \
                          T *c, int64_t ldc) \
    { \
        const T *pa = a->p, *pb = b->p; \
        for (int64_t i = 0; i < a->rows; i++) \
            for (int64_t j = 0; j < b->cols; j++) { \
                uint64_t acc = 0; \
                for (int64_t x = 0; x < a->cols; x++) \
                    acc += (uint64_t)(int64_t)pa[i * a->rs + x * a->cs] * \
                           (uint64_t)(int64_t)pb[x * b->rs + j * b->cs]; \
                T *o = &c[i * ldc + j]; \
                uint64_t old = beta ? (uint64_t)beta * (uint64_t)(int64_t)*o : 0; \
                *o = (T)(old + (uint64_t)alpha * acc); \
            } \
    }
EW_INT_TYPES(INT_GEMM, )
#undef INT_GEMM

/* m's half elements as float32 in a new buffer (*buf, to free), m pointed at it: by
 * columns when the columns are m's contiguous lines (a transposed view), else by rows. */
static int widen(int dtype, TsNnMat *m, float **buf, TsError *err)
{
    size_t n = (size_t)(m->rows * m->cols);
    float *d = malloc(n ? n * sizeof *d : sizeof *d);
    if (!d)
        return ts_error_set(err, TS_ERR_NOMEM, "matmul: out of memory");
    bool by_cols = m->rs == 1 && m->cs != 1;
    int64_t lines = by_cols ? m->cols : m->rows, len = by_cols ? m->rows : m->cols;
    int64_t line_stride = by_cols ? m->cs : m->rs, step = by_cols ? m->rs : m->cs;
    const uint16_t *src = m->p;
    for (int64_t l = 0; l < lines; l++)
        ts_vh_widen(dtype == TS_BFLOAT16, d + l * len, 1, src + l * line_stride, step, len);
    *buf = d;
    m->p = d;
    m->rs = by_cols ? 1 : m->cols;
    m->cs = by_cols ? m->rows : 1;
    return 0;
}

/* float16 and bfloat16 have no BLAS: the operands (and C, when beta reads it) are widened to
 * float32, sgemm accumulates in float32, and each result is rounded once, as PyTorch's CPU
 * products of these dtypes do. */
static int gemm_half(int dtype, double alpha, const TsNnMat *a, const TsNnMat *b, double beta,
                     void *c, int64_t ldc, TsError *err)
{
    TsNnMat ma = *a, mb = *b;
    float *ba = NULL, *bb = NULL, *cf = NULL;
    int64_t m = a->rows, n = b->cols;
    uint16_t *ch = c;
    int rc = widen(dtype, &ma, &ba, err);
    if (!rc)
        rc = widen(dtype, &mb, &bb, err);
    if (!rc && !(cf = malloc((size_t)(m * n) * sizeof *cf)))
        rc = ts_error_set(err, TS_ERR_NOMEM, "matmul: out of memory");
    if (!rc && beta != 0)
        for (int64_t i = 0; i < m; i++)
            ts_vh_widen(dtype == TS_BFLOAT16, cf + i * n, 1, ch + i * ldc, 1, n);
    if (!rc)
        rc = ts_nn_gemm(TS_FLOAT32, alpha, &ma, &mb, beta, cf, n, err);
    if (!rc)
        for (int64_t i = 0; i < m; i++)
            ts_vh_narrow(dtype == TS_BFLOAT16, ch + i * ldc, 1, cf + i * n, 1, n);
    free(ba);
    free(bb);
    free(cf);
    return rc;
}

static void blas_call(const TsCpuBlas *blas, int dtype, double alpha, const TsNnMat *a,
                      bool ta, int64_t lda, const TsNnMat *b, bool tb, int64_t ldb, double beta,
                      void *c, int64_t ldc)
{
    int m = (int)a->rows, n = (int)b->cols, k = (int)a->cols;
    bool f = dtype == TS_FLOAT32;
    if (beta == 0 && (m == 1 || n == 1))
        scale_rows(dtype, 0, c, m, n, ldc);   /* gemv scales y by beta: no stale NaN */
    if (m == 1 && n > 1) {
        /* one row: c = B^T x, x the row of A */
        int incx = (int)(a->cols == 1 ? 1 : a->cs);
        enum CBLAS_TRANSPOSE t = tb ? CblasNoTrans : CblasTrans;
        int r = tb ? n : k, cl = tb ? k : n;
        if (f)
            blas->sgemv(CblasRowMajor, t, r, cl, (float)alpha, b->p, (int)ldb, a->p, incx,
                        (float)beta, c, 1);
        else
            blas->dgemv(CblasRowMajor, t, r, cl, alpha, b->p, (int)ldb, a->p, incx, beta, c, 1);
        return;
    }
    if (n == 1 && m > 1) {
        /* one column: c = A x, x the column of B */
        int incx = (int)(b->rows == 1 ? 1 : b->rs);
        enum CBLAS_TRANSPOSE t = ta ? CblasTrans : CblasNoTrans;
        int r = ta ? k : m, cl = ta ? m : k;
        if (f)
            blas->sgemv(CblasRowMajor, t, r, cl, (float)alpha, a->p, (int)lda, b->p, incx,
                        (float)beta, c, (int)ldc);
        else
            blas->dgemv(CblasRowMajor, t, r, cl, alpha, a->p, (int)lda, b->p, incx, beta, c,
                        (int)ldc);
        return;
    }
    enum CBLAS_TRANSPOSE tra = ta ? CblasTrans : CblasNoTrans, trb = tb ? CblasTrans : CblasNoTrans;
    if (f)
        blas->sgemm(CblasRowMajor, tra, trb, m, n, k, (float)alpha, a->p, (int)lda, b->p,
                    (int)ldb, (float)beta, c, (int)ldc);
    else
        blas->dgemm(CblasRowMajor, tra, trb, m, n, k, alpha, a->p, (int)lda, b->p, (int)ldb,
                    beta, c, (int)ldc);
}

int ts_nn_gemm(int dtype, double alpha, const TsNnMat *a, const TsNnMat *b, double beta,
               void *c, int64_t ldc, TsError *err)
{
    int64_t m = a->rows, n = b->cols, k = a->cols;
    if (m == 0 || n == 0)
        return 0;
    switch (dtype) {
#define CASE(DT, T, ...) \
    case DT: gemm_##DT((int64_t)alpha, a, b, (int64_t)beta, c, ldc); return 0;
    EW_INT_TYPES(CASE, )
#undef CASE
    case TS_BFLOAT16:
    case TS_FLOAT16:
        return gemm_half(dtype, alpha, a, b, beta, c, ldc, err);
    default:
        break;
    }
    if (k == 0) {
        scale_rows(dtype, beta, c, m, n, ldc);
        return 0;
    }
    if (m > INT_MAX || n > INT_MAX || k > INT_MAX || ldc > INT_MAX)
        return ts_error_set(err, TS_ERR_LIMIT, "matmul: matrices larger than 2^31 rows or "
                            "columns are not supported");
    const TsCpuBlas *blas = ts_cpu_blas(err);
    if (!blas)
        return err->code;
    TsNnMat ma = *a, mb = *b;
    void *ba = NULL, *bb = NULL;
    bool ta, tb;
    int64_t lda, ldb;
    size_t es = ts_dtype_size(dtype);
    int rc = 0;
    if (!layout(&ma, &ta, &lda))
        rc = pack(&ma, es, &ba, err);
    if (!rc && !layout(&mb, &tb, &ldb))
        rc = pack(&mb, es, &bb, err);
    if (!rc) {
        layout(&ma, &ta, &lda);
        layout(&mb, &tb, &ldb);
        blas_call(blas, dtype, alpha, &ma, ta, lda, &mb, tb, ldb, beta, c, ldc);
    }
    free(ba);
    free(bb);
    return rc;
}

/* ---- checks ---------------------------------------------------------------------- */

static int check_dtype(TsError *err, const char *name, int dtype)
{
    if (dtype == TS_FLOAT32 || dtype == TS_FLOAT64 || dtype == TS_BFLOAT16 ||
        ts_dtype_is_integral(dtype, false))
        return 0;
    return ts_error_set(err, TS_ERR_RUNTIME, "\"%s\" not implemented for '%s'", name,
                        ts_dtype_type_name(dtype));
}

/* ---- matmul's plan ----------------------------------------------------------------- */

/* An operand as matmul sees it: data and shape (linear passes weight transposed). */
typedef struct Operand {
    const char *data;
    int dim;
    const int64_t *sizes, *strides;
} Operand;

static Operand operand(const TsTensor *t)
{
    Operand o = { ts_tensor_data(t), t->dim, t->sizes, t->strides };
    return o;
}

/* matmul's plan (aten-common) with each operand's matrix at batch entry 0. */
typedef struct Plan {
    TsAtenMatmul m;
    TsNnMat a, b;
} Plan;

/* Whether dims [0, nd) of an operand merge with the dim after them (stride last_stride)
 * into one dim of stride last_stride. */
static bool folds(int nd, const int64_t *sizes, const int64_t *strides, int64_t next_size,
                  int64_t next_stride)
{
    for (int d = nd - 1; d >= 0; d--) {
        if (sizes[d] == 1)
            continue;
        if (strides[d] != next_size * next_stride)
            return false;
        next_size = sizes[d];
        next_stride = strides[d];
    }
    return true;
}

static int plan(TsError *err, const Operand *x, const Operand *y, Plan *p)
{
    TsAtenOperand ox = { x->dim, x->sizes, x->strides }, oy = { y->dim, y->sizes, y->strides };
    int rc = ts_aten_matmul_plan(&ox, &oy, &p->m, err);
    if (rc)
        return rc;
    p->a = (TsNnMat){ x->data, p->m.a.rows, p->m.a.cols, p->m.a.rs, p->m.a.cs };
    p->b = (TsNnMat){ y->data, p->m.b.rows, p->m.b.cols, p->m.b.rs, p->m.b.cs };
    return 0;
}

/* Runs the plan into o (contiguous, o's shape is p->m.sizes), beta 0 or 1 (o prefilled). */
static int run(const Plan *p, const Operand *x, TsTensor *o, double beta, TsError *err)
{
    int dtype = o->dtype;
    int64_t n = p->a.rows, m = p->b.cols, es = (int64_t)ts_dtype_size(dtype);
    char *out = ts_tensor_data(o);
    if (p->m.batch == 0 || n == 0 || m == 0)
        return 0;
    bool b_shared = true;
    for (int i = 0; i < p->m.nb; i++)
        b_shared = b_shared && p->m.sb[i] == 0;
    int fa = x->dim > 2 ? x->dim - 2 : 0;
    if (b_shared && (x->dim < 2 || folds(fa, x->sizes, x->strides, n, p->a.rs))) {
        /* (batch..., n, k) @ (k, m): one GEMM over batch * n rows */
        TsNnMat a = p->a;
        a.rows = p->m.batch * n;
        if (a.rows > 1 && n == 1 && fa > 0) {
            /* the row stride is the last non-1 batch dim's */
            for (int d = fa - 1; d >= 0; d--)
                if (x->sizes[d] != 1) {
                    a.rs = x->strides[d];
                    break;
                }
        }
        return ts_nn_gemm(dtype, 1.0, &a, &p->b, beta, out, m, err);
    }
    int64_t idx[TS_TENSOR_MAX_DIMS] = { 0 }, offa = 0, offb = 0;
    for (int64_t bi = 0; bi < p->m.batch; bi++) {
        TsNnMat a = p->a, b = p->b;
        a.p = (const char *)p->a.p + offa * es;
        b.p = (const char *)p->b.p + offb * es;
        int rc = ts_nn_gemm(dtype, 1.0, &a, &b, beta, out + bi * n * m * es, m, err);
        if (rc)
            return rc;
        for (int d = p->m.nb - 1; d >= 0; d--) {
            offa += p->m.sa[d];
            offb += p->m.sb[d];
            if (++idx[d] < p->m.bsz[d])
                break;
            offa -= p->m.sa[d] * p->m.bsz[d];
            offb -= p->m.sb[d] * p->m.bsz[d];
            idx[d] = 0;
        }
    }
    return 0;
}

/* x @ y (+ bias broadcast to the result) as a new tensor. */
static TsTensor *matmul(TsError *err, const char *name, const TsTensor *tx, const Operand *x,
                        const TsTensor *ty, const Operand *y, const TsTensor *bias)
{
    Plan p;
    if (tx->dtype != ty->dtype) {
        ts_error_set(err, TS_ERR_RUNTIME, "expected scalar type %s but found %s",
                     ts_dtype_type_name(tx->dtype), ts_dtype_type_name(ty->dtype));
        return NULL;
    }
    if (check_dtype(err, name, tx->dtype) || plan(err, x, y, &p))
        return NULL;
    if (bias && (ts_aten_check_expand(bias, p.m.dim, p.m.sizes, err)))
        return NULL;
    TsTensor *o = ts_cpu_empty(tx->dtype, p.m.dim, p.m.sizes, err);
    if (!o)
        return NULL;
    if (bias)
        ts_cpu_copy_into(o, bias);
    if (run(&p, x, o, bias ? 1.0 : 0.0, err)) {
        ts_tensor_release(o);
        return NULL;
    }
    return o;
}

/* ---- kernels ------------------------------------------------------------------------ */

/* Pops the two tensor arguments of the call's operator, runs fn, pushes its result. */
static int binary_kernel(TsCall *c, TsTensor *(*fn)(TsError *, TsTensor *, TsTensor *))
{
    TsArgs args;
    if (ts_args_pop(c, TS_DEV_CPU, &args))
        return (int)c->error->code;
    TsTensor *x = ts_nn_tensor(&args, 0);
    TsTensor *y = x ? ts_nn_tensor(&args, 1) : NULL;
    return ts_args_return_tensor(&args, 0, y ? fn(c->error, x, y) : NULL);
}

static TsTensor *do_matmul(TsError *err, TsTensor *x, TsTensor *y)
{
    Operand ox = operand(x), oy = operand(y);
    return matmul(err, "addmm_impl_cpu_", x, &ox, y, &oy, NULL);
}

static TsTensor *do_bmm(TsError *err, TsTensor *x, TsTensor *y)
{
    return ts_aten_check_product(TS_ATEN_BMM, x, y, err) ? NULL : do_matmul(err, x, y);
}

static TsTensor *do_dot(TsError *err, TsTensor *x, TsTensor *y)
{
    if (ts_aten_check_product(TS_ATEN_DOT, x, y, err))
        return NULL;
    Operand ox = operand(x), oy = operand(y);
    return matmul(err, "dot", x, &ox, y, &oy, NULL);
}

static TsTensor *do_mv(TsError *err, TsTensor *x, TsTensor *y)
{
    return ts_aten_check_product(TS_ATEN_MV, x, y, err) ? NULL : do_matmul(err, x, y);
}

/* aten::matmul(Tensor self, Tensor other) -> Tensor */
/* inner: a scalar times the other, or the sum over both last dims: self's rows (every dim but
 * the last, flattened) times other's rows transposed, shaped back to self.shape[:-1] +
 * other.shape[:-1]. */
static TsTensor *do_inner(TsError *err, TsTensor *x, TsTensor *y)
{
    TsTensor *o = NULL;
    if (x->dim == 0 || y->dim == 0)
        return ts_cpu_mul(x, y, &o, err) ? NULL : o;
    int64_t n = x->sizes[x->dim - 1];
    if (y->sizes[y->dim - 1] != n) {
        char sx[256], sy[256];
        ts_aten_format_sizes(sx, sizeof sx, x->dim, x->sizes);
        ts_aten_format_sizes(sy, sizeof sy, y->dim, y->sizes);
        ts_error_set(err, TS_ERR_RUNTIME, "inner() the last dimension must match on both input "
                     "tensors but got shapes %s and %s", sx, sy);
        return NULL;
    }
    if (x->dim + y->dim - 2 > TS_TENSOR_MAX_DIMS) {
        ts_error_set(err, TS_ERR_LIMIT, "inner: the result has more than %d dims",
                     TS_TENSOR_MAX_DIMS);
        return NULL;
    }
    /* contiguous copies viewed as (rows, n); other's view transposed to (n, rows) */
    TsTensor *cx = ts_cpu_cast(x, x->dtype, err);
    TsTensor *cy = cx ? ts_cpu_cast(y, y->dtype, err) : NULL;
    TsTensor *mx = NULL, *my = NULL, *r = NULL;
    if (cy) {
        int64_t rx = 1, ry = 1;
        for (int d = 0; d < x->dim - 1; d++)
            rx *= x->sizes[d];
        for (int d = 0; d < y->dim - 1; d++)
            ry *= y->sizes[d];
        int64_t sx[2] = { rx, n }, stx[2] = { n, 1 }, sy[2] = { n, ry }, sty[2] = { 1, n };
        mx = ts_aten_view(cx, 2, sx, stx, 0, err);
        my = mx ? ts_aten_view(cy, 2, sy, sty, 0, err) : NULL;
        r = my ? do_matmul(err, mx, my) : NULL;
    }
    if (r) {
        int64_t shape[TS_TENSOR_MAX_DIMS];
        int dim = 0;
        for (int d = 0; d < x->dim - 1; d++)
            shape[dim++] = x->sizes[d];
        for (int d = 0; d < y->dim - 1; d++)
            shape[dim++] = y->sizes[d];
        if (ts_tensor_set_shape(r, dim, shape, NULL, r->offset, err)) {
            ts_tensor_release(r);
            r = NULL;
        }
    }
    TsTensor *tmp[4] = { cx, cy, mx, my };
    for (int i = 0; i < 4; i++)
        if (tmp[i])
            ts_tensor_release(tmp[i]);
    return r;
}

static int k_inner(TsCall *c) { return binary_kernel(c, do_inner); }

static int k_matmul(TsCall *c) { return binary_kernel(c, do_matmul); }

/* aten::matmul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!): the product
 * computed as matmul computes it, then delivered into out (resized; its dtype must be the
 * result's, worded as PyTorch's dot and mm kernels word it). */
static int k_matmul_out(TsCall *c)
{
    TsArgs args;
    if (ts_args_pop(c, TS_DEV_CPU, &args))
        return (int)c->error->code;
    TsTensor *x = ts_nn_tensor(&args, 0);
    TsTensor *y = x ? ts_nn_tensor(&args, 1) : NULL;
    TsTensor *out = y ? ts_nn_tensor(&args, 2) : NULL;
    TsTensor *r = out ? do_matmul(c->error, x, y) : NULL;
    int rc = r ? 0 : (int)c->error->code;
    if (r && x->dim == 1 && y->dim == 1 && out->dtype != r->dtype)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "result dtype %s does not match input "
                          "dtype %s", ts_dtype_type_name(out->dtype),
                          ts_dtype_type_name(r->dtype));
    if (!rc)
        rc = ts_nn_deliver(c, r, out, TS_NN_OUT_EXPECTED);
    if (r)
        ts_tensor_release(r);
    return ts_nn_return_outs(&args, 1, rc);
}
/* aten::bmm(Tensor self, Tensor mat2) -> Tensor */
static int k_bmm(TsCall *c) { return binary_kernel(c, do_bmm); }
/* aten::dot(Tensor self, Tensor tensor) -> Tensor */
static int k_dot(TsCall *c) { return binary_kernel(c, do_dot); }
/* aten::mv(Tensor self, Tensor vec) -> Tensor */
static int k_mv(TsCall *c) { return binary_kernel(c, do_mv); }

/* A bias of another dtype than the input's, as PyTorch's linear takes it: a 2-d input (or a
 * contiguous 3-d one, folded into rows) goes to addmm, whose checks refuse it; any other
 * input's product gets the bias added in place (add_: cast to the product's dtype where a
 * cast may, broadcast to its shape). */
static TsTensor *linear_mixed_bias(TsError *err, TsTensor *x, Operand *ox, TsTensor *w,
                                   Operand *ow, TsTensor *bias)
{
    if (x->dim == 2 || (x->dim == 3 && ts_tensor_is_contiguous(x))) {
        if (x->dtype != w->dtype)
            ts_error_set(err, TS_ERR_RUNTIME, "expected scalar type %s but found %s",
                         ts_dtype_type_name(x->dtype), ts_dtype_type_name(w->dtype));
        else
            ts_error_set(err, TS_ERR_RUNTIME, "self and mat2 must have the same dtype");
        return NULL;
    }
    TsTensor *o = matmul(err, "addmm_impl_cpu_", x, ox, w, ow, NULL);
    if (o && ts_cpu_add_(o, bias, err)) {
        ts_tensor_release(o);
        o = NULL;
    }
    return o;
}

/* aten::linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor:
 * input @ weight.t() + bias, weight read transposed in place. */
static int k_linear(TsCall *c)
{
    TsArgs args;
    TsTensor *bias = NULL, *o = NULL;
    if (ts_args_pop(c, TS_DEV_CPU, &args))
        return (int)c->error->code;
    TsTensor *x = ts_nn_tensor(&args, 0);
    TsTensor *w = x ? ts_nn_tensor(&args, 1) : NULL;
    if (w && !ts_args_opt_tensor(&args, 2, &bias)) {
        int64_t sizes[2], strides[2];
        Operand ox = operand(x), ow = operand(w);
        if (w->dim == 2) {
            sizes[0] = w->sizes[1], sizes[1] = w->sizes[0];
            strides[0] = w->strides[1], strides[1] = w->strides[0];
            ow.sizes = sizes;
            ow.strides = strides;
        }
        if (bias && bias->dtype != x->dtype)
            o = linear_mixed_bias(c->error, x, &ox, w, &ow, bias);
        else
            o = matmul(c->error, "addmm_impl_cpu_", x, &ox, w, &ow, bias);
    }
    return ts_args_return_tensor(&args, 0, o);
}

/* beta * self + alpha * (mat1 @ mat2) for 2-d mats. */
static TsTensor *addmm(TsError *err, TsTensor *self, TsTensor *m1, TsTensor *m2, double beta,
                       double alpha)
{
    if (ts_aten_check_product(TS_ATEN_ADDMM, m1, m2, err))
        return NULL;
    int64_t sizes[2] = { m1->sizes[0], m2->sizes[1] };
    if (ts_aten_check_expand(self, 2, sizes, err))
        return NULL;
    if (m1->dtype != m2->dtype) {
        ts_error_set(err, TS_ERR_RUNTIME, "expected scalar type %s but found %s",
                     ts_dtype_type_name(m1->dtype), ts_dtype_type_name(m2->dtype));
        return NULL;
    }
    if (self->dtype != m2->dtype) {
        ts_error_set(err, TS_ERR_RUNTIME, "self and mat2 must have the same dtype");
        return NULL;
    }
    if (check_dtype(err, "addmm_impl_cpu_", m1->dtype))
        return NULL;
    TsTensor *o = ts_cpu_empty(m1->dtype, 2, sizes, err);
    if (!o)
        return NULL;
    if (beta != 0)
        ts_cpu_copy_into(o, self);
    TsNnMat ma = { ts_tensor_data(m1), m1->sizes[0], m1->sizes[1], m1->strides[0],
                   m1->strides[1] };
    TsNnMat mb = { ts_tensor_data(m2), m2->sizes[0], m2->sizes[1], m2->strides[0],
                   m2->strides[1] };
    if (ts_nn_gemm(o->dtype, alpha, &ma, &mb, beta, ts_tensor_data(o), sizes[1], err)) {
        ts_tensor_release(o);
        return NULL;
    }
    return o;
}

/* beta * self + alpha * (b1 @ b2) for batches of matrices (3-d), one gemm per batch. */
static TsTensor *baddbmm(TsError *err, TsTensor *self, TsTensor *b1, TsTensor *b2, double beta,
                         double alpha)
{
    if (ts_aten_check_product(TS_ATEN_BMM, b1, b2, err))
        return NULL;
    int64_t sizes[3] = { b1->sizes[0], b1->sizes[1], b2->sizes[2] };
    if (ts_aten_check_expand(self, 3, sizes, err))
        return NULL;
    if (b1->dtype != b2->dtype || self->dtype != b1->dtype) {
        ts_error_set(err, TS_ERR_RUNTIME, "expected scalar type %s but found %s",
                     ts_dtype_type_name(self->dtype),
                     ts_dtype_type_name(b1->dtype != self->dtype ? b1->dtype : b2->dtype));
        return NULL;
    }
    if (check_dtype(err, "baddbmm_cpu", b1->dtype))
        return NULL;
    TsTensor *o = ts_cpu_empty(b1->dtype, 3, sizes, err);
    if (!o)
        return NULL;
    if (beta != 0)
        ts_cpu_copy_into(o, self);
    int64_t es = (int64_t)ts_dtype_size(o->dtype);
    for (int64_t i = 0; i < sizes[0]; i++) {
        TsNnMat ma = { (char *)ts_tensor_data(b1) + i * b1->strides[0] * es, b1->sizes[1],
                       b1->sizes[2], b1->strides[1], b1->strides[2] };
        TsNnMat mb = { (char *)ts_tensor_data(b2) + i * b2->strides[0] * es, b2->sizes[1],
                       b2->sizes[2], b2->strides[1], b2->strides[2] };
        char *oc = (char *)ts_tensor_data(o) + i * sizes[1] * sizes[2] * es;
        if (ts_nn_gemm(o->dtype, alpha, &ma, &mb, beta, oc, sizes[2], err)) {
            ts_tensor_release(o);
            return NULL;
        }
    }
    return o;
}

/* beta * self + alpha * (mat @ vec): one gemm with vec as a column and the result as one. */
static TsTensor *addmv(TsError *err, TsTensor *self, TsTensor *mat, TsTensor *vec, double beta,
                       double alpha)
{
    if (mat->dim != 2 || vec->dim != 1 || self->dim > 1) {
        ts_error_set(err, TS_ERR_RUNTIME, "vector + matrix @ vector expected, got %d, %d, %d",
                     (int)self->dim, (int)mat->dim, (int)vec->dim);
        return NULL;
    }
    int64_t m = mat->sizes[0], n = mat->sizes[1];
    if (n != vec->sizes[0] || (self->dim == 1 && self->sizes[0] != m && self->sizes[0] != 1)) {
        ts_error_set(err, TS_ERR_RUNTIME, "size mismatch, got %lld, %lldx%lld,%lld",
                     (long long)(self->dim ? self->sizes[0] : 1), (long long)m, (long long)n,
                     (long long)vec->sizes[0]);
        return NULL;
    }
    if (mat->dtype != vec->dtype || self->dtype != mat->dtype) {
        ts_error_set(err, TS_ERR_RUNTIME, "expected scalar type %s but found %s",
                     ts_dtype_type_name(self->dtype),
                     ts_dtype_type_name(mat->dtype != self->dtype ? mat->dtype : vec->dtype));
        return NULL;
    }
    if (check_dtype(err, "addmv_impl_cpu", mat->dtype))
        return NULL;
    TsTensor *o = ts_cpu_empty(mat->dtype, 1, &m, err);
    if (!o)
        return NULL;
    if (beta != 0)
        ts_cpu_copy_into(o, self);
    TsNnMat ma = { ts_tensor_data(mat), m, n, mat->strides[0], mat->strides[1] };
    TsNnMat mb = { ts_tensor_data(vec), n, 1, vec->strides[0], 1 };
    if (ts_nn_gemm(o->dtype, alpha, &ma, &mb, beta, ts_tensor_data(o), 1, err)) {
        ts_tensor_release(o);
        return NULL;
    }
    return o;
}

/* aten::addmv(Tensor self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1), its out=
 * form (out last) and addmv_ (the result must have self's shape). */
static int addmv_call(TsCall *c, int form)
{
    TsArgs args;
    TsValue *a = args.v;
    if (ts_args_pop(c, TS_DEV_CPU, &args))
        return (int)c->error->code;
    TsTensor *s = ts_nn_tensor(&args, 0);
    TsTensor *m = s ? ts_nn_tensor(&args, 1) : NULL;
    TsTensor *v = m ? ts_nn_tensor(&args, 2) : NULL;
    TsTensor *o = v ? addmv(c->error, s, m, v, ts_nn_double(a[3]), ts_nn_double(a[4])) : NULL;
    if (form == 0)
        return ts_args_return_tensor(&args, 0, o);
    int rc = o ? 0 : (int)c->error->code;
    TsTensor *dst = form == 1 ? (o ? ts_nn_tensor(&args, 5) : NULL) : s;
    if (!rc && !dst)
        rc = c->error->code;
    if (!rc && form == 1)
        rc = ts_aten_resize_out(dst, 1, o->sizes, &ts_cpu_allocator, c->error);
    else if (!rc && (s->dim != 1 || s->sizes[0] != o->sizes[0])) {
        char have[256];
        ts_aten_format_sizes(have, sizeof have, s->dim, s->sizes);
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "output with shape %s doesn't match the "
                          "broadcast shape [%lld]", have, (long long)o->sizes[0]);
    }
    if (!rc)
        ts_cpu_copy_into(dst, o);
    if (o)
        ts_tensor_release(o);
    return ts_args_return_arg(&args, rc, form == 1 ? 5 : 0);
}

static int k_addmv(TsCall *c) { return addmv_call(c, 0); }
static int k_addmv_out(TsCall *c) { return addmv_call(c, 1); }
static int k_addmv_(TsCall *c) { return addmv_call(c, 2); }

/* beta * self + alpha * product(x, y), the form of addmm and baddbmm */
typedef TsTensor *(*ScaledProduct)(TsError *err, TsTensor *self, TsTensor *x, TsTensor *y,
                                   double beta, double alpha);

/* Binds (Tensor self, Tensor x, Tensor y, *, Scalar beta=1, Scalar alpha=1) and computes
 * fn's result into *o (NULL with the error set). */
static int scaled_product(TsCall *c, TsArgs *args, ScaledProduct fn, TsTensor **o)
{
    *o = NULL;
    if (ts_args_pop(c, TS_DEV_CPU, args))
        return (int)c->error->code;
    TsTensor *s = ts_nn_tensor(args, 0);
    TsTensor *x = s ? ts_nn_tensor(args, 1) : NULL;
    TsTensor *y = x ? ts_nn_tensor(args, 2) : NULL;
    if (y)
        *o = fn(c->error, s, x, y, ts_nn_double(args->v[3]), ts_nn_double(args->v[4]));
    return *o ? 0 : (int)c->error->code;
}

/* aten::baddbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) */
static int k_baddbmm(TsCall *c)
{
    TsArgs args;
    TsTensor *o;
    int rc = scaled_product(c, &args, baddbmm, &o);
    return ts_args_return_tensor(&args, rc, o);
}

/* aten::addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) */
static int k_addmm(TsCall *c)
{
    TsArgs args;
    TsTensor *o;
    int rc = scaled_product(c, &args, addmm, &o);
    return ts_args_return_tensor(&args, rc, o);
}

/* aten::addmm_(Tensor(a!) self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) */
static int k_addmm_(TsCall *c)
{
    TsArgs args;
    TsTensor *o;
    int rc = scaled_product(c, &args, addmm, &o);
    TsTensor *s = o ? (TsTensor *)args.v[0].u.p : NULL;
    if (o && (s->dim != 2 || s->sizes[0] != o->sizes[0] || s->sizes[1] != o->sizes[1]))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "The input tensor self must have the shape "
                          "of the product: %lldx%lld", (long long)o->sizes[0],
                          (long long)o->sizes[1]);
    else if (o)
        ts_cpu_copy_into(s, o);
    if (o)
        ts_tensor_release(o);
    return ts_args_return_arg(&args, rc, 0);
}

static const TsCpuOp ops[] = {
    { "aten::matmul", "", k_matmul },
    { "aten::matmul", "out", k_matmul_out },
    { "aten::bmm", "", k_bmm },
    { "aten::dot", "", k_dot },
    { "aten::vdot", "", k_dot },
    { "aten::inner", "", k_inner },
    { "aten::mv", "", k_mv },
    { "aten::linear", "", k_linear },
    { "aten::addmm", "", k_addmm },
    { "aten::addmm_", "", k_addmm_ },
    { "aten::baddbmm", "", k_baddbmm },
    { "aten::addmv", "", k_addmv },
    { "aten::addmv", "out", k_addmv_out },
    { "aten::addmv_", "", k_addmv_ },
};

const TsCpuTable ts_cpu_blas_table = { ops, sizeof ops / sizeof ops[0] };
