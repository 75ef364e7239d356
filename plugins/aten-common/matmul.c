/* matmul.c — the device-independent half of the matrix products: matmul's plan (PyTorch's
 * rank cases, the broadcast of batch dims, the output shape and the messages of each
 * case), the check that a bias or self broadcasts to a product, and how a BLAS reads a
 * strided matrix in place. aten-cpu (OpenBLAS) and aten-cuda (cuBLAS) run the plan.
 */
#include <limits.h>

#include "tscript/aten.h"

int ts_aten_mm_shape_error(TsError *err, int64_t r1, int64_t c1, int64_t r2, int64_t c2)
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

int ts_aten_check_expand(const TsTensor *src, int dim, const int64_t *sizes, TsError *err)
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

bool ts_aten_blas_layout(const TsAtenMat *m, bool *trans, int64_t *ld)
{
    int64_t rows = m->rows, cols = m->cols;
    if (m->cs == 1 || cols == 1) {
        *trans = false;
        *ld = rows == 1 ? (cols > 1 ? cols : 1) : m->rs;
        if (*ld >= (cols > 1 ? cols : 1) && *ld <= INT_MAX)
            return true;
    }
    if (m->rs == 1 || rows == 1) {
        *trans = true;
        *ld = cols == 1 ? (rows > 1 ? rows : 1) : m->cs;
        if (*ld >= (rows > 1 ? rows : 1) && *ld <= INT_MAX)
            return true;
    }
    return false;
}

static int64_t prod(int n, const int64_t *v)
{
    int64_t p = 1;
    for (int i = 0; i < n; i++)
        p *= v[i];
    return p;
}

/* The inner-size error, worded as PyTorch words it for each rank case. */
static int inner_error(TsError *err, const TsAtenOperand *x, const TsAtenOperand *y,
                       const TsAtenMatmul *p)
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
                       : ts_aten_mm_shape_error(err, p->a.rows, k1, k2, p->b.cols);
    if (db <= 2) {
        int64_t rows = prod(da - 1, x->sizes);
        return db == 1 ? mv_shape_error(err, rows, k1, k2)
                       : ts_aten_mm_shape_error(err, rows, k1, k2, p->b.cols);
    }
    if (da <= 2) {
        int64_t rows = prod(db - 2, y->sizes) * p->b.cols;
        return da == 1 ? mv_shape_error(err, rows, k2, k1)
                       : ts_aten_mm_shape_error(err, rows, k2, k1, p->a.rows);
    }
    return ts_error_set(err, TS_ERR_RUNTIME, "Expected size for first two dimensions of batch2 "
                        "tensor to be: [%lld, %lld] but got: [%lld, %lld].",
                        (long long)p->batch, (long long)k1, (long long)p->batch, (long long)k2);
}

int ts_aten_matmul_plan(const TsAtenOperand *x, const TsAtenOperand *y, TsAtenMatmul *p,
                        TsError *err)
{
    int da = x->dim, db = y->dim;
    if (da == 0 || db == 0)
        return ts_error_set(err, TS_ERR_RUNTIME, "both arguments to matmul need to be at least "
                            "1D, but they are %dD and %dD", da, db);
    p->a = (TsAtenMat){ da >= 2 ? x->sizes[da - 2] : 1, x->sizes[da - 1],
                        da >= 2 ? x->strides[da - 2] : 0, x->strides[da - 1] };
    if (db >= 2)
        p->b = (TsAtenMat){ y->sizes[db - 2], y->sizes[db - 1], y->strides[db - 2],
                            y->strides[db - 1] };
    else
        p->b = (TsAtenMat){ y->sizes[0], 1, y->strides[0], 0 };
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

int ts_aten_check_product(TsAtenProduct kind, const TsTensor *x, const TsTensor *y,
                          TsError *err)
{
    switch (kind) {
    case TS_ATEN_MM:
        if (x->dim != 2 || y->dim != 2)
            return ts_error_set(err, TS_ERR_RUNTIME, "%s must be a matrix",
                                x->dim != 2 ? "self" : "mat2");
        break;
    case TS_ATEN_ADDMM:
        if (x->dim != 2 || y->dim != 2)
            return ts_error_set(err, TS_ERR_RUNTIME, "mat%d must be a matrix, got %d-D tensor",
                                x->dim != 2 ? 1 : 2, x->dim != 2 ? (int)x->dim : (int)y->dim);
        break;
    case TS_ATEN_BMM:
        if (x->dim != 3 || y->dim != 3)
            return ts_error_set(err, TS_ERR_RUNTIME, "batch%d must be a 3D tensor",
                                x->dim != 3 ? 1 : 2);
        if (x->sizes[0] != y->sizes[0] || x->sizes[2] != y->sizes[1])
            return ts_error_set(err, TS_ERR_RUNTIME, "Expected size for first two dimensions "
                                "of batch2 tensor to be: [%lld, %lld] but got: [%lld, %lld].",
                                (long long)x->sizes[0], (long long)x->sizes[2],
                                (long long)y->sizes[0], (long long)y->sizes[1]);
        return 0;
    case TS_ATEN_DOT:
        if (x->dim != 1 || y->dim != 1)
            return ts_error_set(err, TS_ERR_RUNTIME, "1D tensors expected, but got %dD and %dD "
                                "tensors", (int)x->dim, (int)y->dim);
        if (x->dtype != y->dtype)
            return ts_error_set(err, TS_ERR_RUNTIME, "dot : expected both vectors to have same "
                                "dtype, but found %s and %s", ts_dtype_type_name(x->dtype),
                                ts_dtype_type_name(y->dtype));
        return 0;
    case TS_ATEN_MV:
        if (x->dim != 2 || y->dim != 1)
            return ts_error_set(err, TS_ERR_RUNTIME, "vector + matrix @ vector expected, got 1, "
                                "%d, %d", (int)x->dim, (int)y->dim);
        return 0;
    }
    if (x->sizes[1] != y->sizes[0])
        return ts_aten_mm_shape_error(err, x->sizes[0], x->sizes[1], y->sizes[0], y->sizes[1]);
    return 0;
}
