/* linalg.c — matrix products: mm through OpenBLAS (float32, float64) and a plain loop for
 * the integer dtypes (PyTorch computes those too).
 *
 * BLAS reads a matrix in place when one of its strides is 1 and the other is a valid
 * leading dimension (a transposed view is then just the transposed flag); any other layout
 * is copied to a contiguous matrix first. An empty inner dimension gives zeros.
 */
#include <cblas.h>
#include <string.h>

#include "elementwise.h"

/* How BLAS can read m (rows x cols): row-major with leading dimension ld, transposed or not;
 * false when it needs a contiguous copy. */
static bool blas_layout(const TsTensor *m, bool *trans, int64_t *ld)
{
    int64_t rows = m->sizes[0], cols = m->sizes[1];
    if (m->strides[1] == 1 || cols == 1) {
        *trans = false;
        *ld = rows == 1 ? (cols > 1 ? cols : 1) : m->strides[0];
        if (*ld >= (cols > 1 ? cols : 1))
            return *ld <= INT32_MAX;
    }
    if (m->strides[0] == 1 || rows == 1) {
        *trans = true;
        *ld = cols == 1 ? (rows > 1 ? rows : 1) : m->strides[1];
        if (*ld >= (rows > 1 ? rows : 1))
            return *ld <= INT32_MAX;
    }
    return false;
}

#define INT_MM(DT, T, ...) \
    static void mm_##T(const TsTensor *a, const TsTensor *b, TsTensor *o) \
    { \
        const T *pa = ts_tensor_data(a), *pb = ts_tensor_data(b); \
        T *po = ts_tensor_data(o); \
        int64_t n = a->sizes[0], k = a->sizes[1], m = b->sizes[1]; \
        for (int64_t i = 0; i < n; i++) \
            for (int64_t j = 0; j < m; j++) { \
                uint64_t acc = 0; \
                for (int64_t x = 0; x < k; x++) \
                    acc += (uint64_t)(int64_t)pa[i * a->strides[0] + x * a->strides[1]] * \
                           (uint64_t)(int64_t)pb[x * b->strides[0] + j * b->strides[1]]; \
                po[i * m + j] = (T)acc; \
            } \
    }
EW_INT_TYPES(INT_MM, )
#undef INT_MM

static void blas_mm(const TsTensor *a, const TsTensor *b, TsTensor *o)
{
    bool ta, tb;
    int64_t lda, ldb;
    blas_layout(a, &ta, &lda);
    blas_layout(b, &tb, &ldb);
    int n = (int)a->sizes[0], k = (int)a->sizes[1], m = (int)b->sizes[1];
    int ldo = m > 1 ? m : 1;
    if (o->dtype == TS_FLOAT32)
        cblas_sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans,
                    n, m, k, 1.0f, ts_tensor_data(a), (int)lda, ts_tensor_data(b), (int)ldb,
                    0.0f, ts_tensor_data(o), ldo);
    else
        cblas_dgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans,
                    n, m, k, 1.0, ts_tensor_data(a), (int)lda, ts_tensor_data(b), (int)ldb,
                    0.0, ts_tensor_data(o), ldo);
}

/* A BLAS-readable version of m: m itself (retained) or a contiguous copy. */
static TsTensor *readable(TsTensor *m, TsError *err)
{
    bool trans;
    int64_t ld;
    if (blas_layout(m, &trans, &ld)) {
        ts_tensor_retain(m);
        return m;
    }
    return ts_cpu_cast(m, m->dtype, err);
}

static int check(TsError *err, const TsTensor *a, const TsTensor *b)
{
    if (a->dim != 2)
        return ts_error_set(err, TS_ERR_RUNTIME, "self must be a matrix");
    if (b->dim != 2)
        return ts_error_set(err, TS_ERR_RUNTIME, "mat2 must be a matrix");
    if (a->sizes[1] != b->sizes[0])
        return ts_error_set(err, TS_ERR_RUNTIME, "mat1 and mat2 shapes cannot be multiplied "
                            "(%lldx%lld and %lldx%lld)", (long long)a->sizes[0],
                            (long long)a->sizes[1], (long long)b->sizes[0],
                            (long long)b->sizes[1]);
    if (a->dtype != b->dtype)
        return ts_error_set(err, TS_ERR_RUNTIME, "expected scalar type %s but found %s",
                            ts_dtype_type_name(a->dtype), ts_dtype_type_name(b->dtype));
    if (!ts_dtype_is_integral(a->dtype, false) && a->dtype != TS_FLOAT32 &&
        a->dtype != TS_FLOAT64)
        return ts_error_set(err, TS_ERR_RUNTIME, "\"addmm_impl_cpu_\" not implemented for '%s'",
                            ts_dtype_type_name(a->dtype));
    if (a->sizes[0] > INT32_MAX || a->sizes[1] > INT32_MAX || b->sizes[1] > INT32_MAX)
        return ts_error_set(err, TS_ERR_LIMIT, "mm: matrices larger than 2^31 rows or columns");
    return 0;
}

/* a @ b into a new contiguous tensor. */
static TsTensor *mm(TsTensor *a, TsTensor *b, TsError *err)
{
    if (check(err, a, b))
        return NULL;
    int64_t sizes[2] = { a->sizes[0], b->sizes[1] };
    TsTensor *o = ts_cpu_empty(a->dtype, 2, sizes, err);
    if (!o || ts_tensor_numel(o) == 0)
        return o;
    if (a->sizes[1] == 0) {
        memset(ts_tensor_data(o), 0, (size_t)ts_tensor_numel(o) * ts_dtype_size(o->dtype));
        return o;
    }
    switch (a->dtype) {
#define CASE(DT, T, ...) case DT: mm_##T(a, b, o); return o;
    EW_INT_TYPES(CASE, )
#undef CASE
    default:
        break;
    }
    TsTensor *ra = readable(a, err), *rb = ra ? readable(b, err) : NULL;
    if (rb)
        blas_mm(ra, rb, o);
    else {
        ts_tensor_release(o);
        o = NULL;
    }
    if (ra)
        ts_tensor_release(ra);
    if (rb)
        ts_tensor_release(rb);
    return o;
}

/* aten::mm(Tensor self, Tensor mat2) -> Tensor */
static int k_mm(TsCall *c)
{
    TsValue a[2];
    ts_cpu_pop_args(c, 2, a);
    TsTensor *x = ts_cpu_tensor_arg(c, "aten::mm", "self", a[0]);
    TsTensor *y = x ? ts_cpu_tensor_arg(c, "aten::mm", "mat2", a[1]) : NULL;
    TsTensor *o = y ? mm(x, y, c->error) : NULL;
    ts_cpu_release_args(2, a);
    return o ? ts_cpu_push_tensor(c, o) : (int)c->error->code;
}

/* aten::mm.out(Tensor self, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!) */
static int k_mm_out(TsCall *c)
{
    TsValue a[3];
    ts_cpu_pop_args(c, 3, a);
    TsTensor *x = ts_cpu_tensor_arg(c, "aten::mm", "self", a[0]);
    TsTensor *y = x ? ts_cpu_tensor_arg(c, "aten::mm", "mat2", a[1]) : NULL;
    TsTensor *out = y ? ts_cpu_tensor_arg(c, "aten::mm", "out", a[2]) : NULL;
    TsTensor *o = out ? mm(x, y, c->error) : NULL;
    int rc = o ? 0 : (int)c->error->code;
    if (o && out->dtype != o->dtype)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "expected scalar type %s but found %s",
                          ts_dtype_type_name(o->dtype), ts_dtype_type_name(out->dtype));
    if (!rc) {
        rc = ts_cpu_resize_out(out, 2, o->sizes, c->error);
        if (!rc)
            ts_cpu_copy_into(out, o);
    }
    if (o)
        ts_tensor_release(o);
    TsValue result = a[2];
    a[2] = ts_none();
    ts_cpu_release_args(3, a);
    if (rc) {
        ts_value_release(result);
        return rc;
    }
    return ts_stack_push(c->stack, result, c->error);
}

static const TsCpuOp ops[] = {
    { "aten::mm", "", k_mm },
    { "aten::mm", "out", k_mm_out },
};

const TsCpuTable ts_cpu_linalg_table = { ops, sizeof ops / sizeof ops[0] };
