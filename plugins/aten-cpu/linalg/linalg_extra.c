/* linalg_extra.c — the torch.linalg ops built on the factorizations (decomp.c, spectral.c)
 * or on plain loops: matrix_norm, norm, cond, nuclear_norm, matrix_power, matrix_exp,
 * multi_dot and chain_matmul, cross and linalg_cross, vecdot, tensorinv, tensorsolve, and
 * the aliases linalg_diagonal (diagonal) and linalg_matmul (matmul).
 *
 * The small-matrix arithmetic here (products, norms, the exponential's series) runs in double
 * and is stored in the input's dtype; products of whole tensors go through aten::mm.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linalg/lapack.h"
#include "pointwise/special_math.h"
#include "views.h"


static int k_linalg_diagonal(TsCall *c)
{
    return ts_cpu_alias(c, NULL, ts_aten_k_diagonal, "aten::diagonal", "");
}

static int k_linalg_matmul(TsCall *c)
{
    return ts_cpu_alias(c, &ts_cpu_blas_table, NULL, "aten::matmul", "");
}

/* A view of t with dims d0, d1 moved last (the others in order). */
static void move_last(const TsTensor *t, int d0, int d1, TsTensor *v, int64_t *sizes,
                      int64_t *strides)
{
    *v = *t;
    int n = 0;
    for (int i = 0; i < t->dim; i++)
        if (i != d0 && i != d1) {
            sizes[n] = t->sizes[i];
            strides[n++] = t->strides[i];
        }
    sizes[n] = t->sizes[d0];
    strides[n++] = t->strides[d0];
    sizes[n] = t->sizes[d1];
    strides[n++] = t->strides[d1];
    v->sizes = sizes;
    v->strides = strides;
}

/* A result of the batch's shape from values v (count), with d0, d1 put back as 1 for keepdim. */
static TsTensor *batch_result(const TsTensor *t, int d0, int d1, bool keep, int dtype,
                              const double *v, int64_t count, TsError *err)
{
    int64_t sizes[TS_TENSOR_MAX_DIMS];
    int n = 0;
    for (int i = 0; i < t->dim; i++)
        if (i == d0 || i == d1) {
            if (keep)
                sizes[n++] = 1;
        } else
            sizes[n++] = t->sizes[i];
    TsTensor *o = ts_cpu_empty(dtype, n, sizes, err);
    for (int64_t i = 0; o && i < count; i++)
        ts_lap_set(dtype, ts_tensor_data(o), i, v[i]);
    return o;
}

/* ---- matrix norms ------------------------------------------------------------------- */

enum { N_FRO, N_NUC, N_INF, N_NINF, N_ONE, N_NONE, N_TWO, N_NTWO };

/* The order of a Scalar ord (-1 when not a matrix order). */
static int num_order(double p)
{
    return p == INFINITY ? N_INF : p == -INFINITY ? N_NINF : p == 1 ? N_ONE : p == -1 ? N_NONE
         : p == 2 ? N_TWO : p == -2 ? N_NTWO : -1;
}

/* The norm of kind over dims (d0, d1) of x. */
static int matrix_norm(const char *api, TsTensor *x, int kind, int64_t d0r, int64_t d1r,
                       bool keep, int dtype, TsTensor **out, TsError *err)
{
    int rc = ts_lap_check_matrix(api, "A", x, err);
    int d0, d1;
    if (!rc) rc = ts_aten_wrap_dim(d0r, x->dim, false, &d0, err);
    if (!rc) rc = ts_aten_wrap_dim(d1r, x->dim, false, &d1, err);
    if (!rc && d0 == d1)
        rc = ts_error_set(err, TS_ERR_RUNTIME, "%s: dims must be different. Got (%d, %d)", api,
                          d0, d1);
    if (!rc && dtype >= 0 && dtype != TS_FLOAT32 && dtype != TS_FLOAT64)
        rc = ts_error_set(err, TS_ERR_RUNTIME, "%s: dtype should be floating point or complex. "
                          "Got %s", api, ts_dtype_type_name(dtype));
    if (!rc) rc = ts_lap_check_float(api, x, err);
    if (rc)
        return rc;
    int dt = dtype >= 0 ? dtype : x->dtype;
    TsTensor v;
    int64_t sz[TS_TENSOR_MAX_DIMS], st[TS_TENSOR_MAX_DIMS];
    move_last(x, d0, d1, &v, sz, st);
    TsLapBatch a = { 0 };
    if (kind == N_NUC || kind == N_TWO || kind == N_NTWO)
        rc = ts_lap_svals(api, &v, &a, err);
    else
        rc = ts_lap_load(&v, TS_FLOAT64, -1, NULL, &a, err);
    double *res = rc ? NULL : malloc(sizeof(double) * (size_t)(a.count + 1));
    if (!rc && !res)
        rc = ts_error_set(err, TS_ERR_NOMEM, "linalg: out of memory");
    for (int64_t e = 0; !rc && e < a.count; e++) {
        const void *m = ts_lap_mat(&a, e);
        double r = 0;
        if (kind == N_NUC || kind == N_TWO || kind == N_NTWO) {
            r = kind == N_NTWO ? INFINITY : 0;
            for (int64_t i = 0; i < a.rows; i++) {
                double s = ts_lap_get(a.dtype, m, i);
                r = kind == N_NUC ? r + s : kind == N_TWO ? fmax(r, s) : fmin(r, s);
            }
        } else if (kind == N_FRO) {
            for (int64_t i = 0; i < a.rows * a.cols; i++)
                r += ((const double *)m)[i] * ((const double *)m)[i];
            r = sqrt(r);
        } else {
            /* inf: max over rows of the row sums; 1: over columns */
            bool rows = kind == N_INF || kind == N_NINF, mx = kind == N_INF || kind == N_ONE;
            int64_t outer = rows ? a.rows : a.cols, inner = rows ? a.cols : a.rows;
            r = mx ? 0 : INFINITY;
            if (!outer || !inner) {
                if (!mx || !outer) {
                    free(res);
                    ts_lap_free(&a);
                    return ts_error_set(err, TS_ERR_RUNTIME, "%s: Expected a non-empty matrix "
                                        "for this norm", api);
                }
            }
            for (int64_t o = 0; o < outer; o++) {
                double s = 0;
                for (int64_t i = 0; i < inner; i++)
                    s += fabs(((const double *)m)[rows ? o + i * a.rows : i + o * a.rows]);
                r = mx ? fmax(r, s) : fmin(r, s);
            }
        }
        res[e] = r;
    }
    if (!rc && !(*out = batch_result(x, d0, d1, keep, dt, res, a.count, err)))
        rc = err->code;
    free(res);
    ts_lap_free(&a);
    return rc;
}

/* The ord of matrix_norm's Scalar and str overloads (and norm's): a kind, or PyTorch's
 * "Order X not supported." */
static int order_arg(const char *api, TsValue v, int *kind, TsError *err)
{
    if (v.tag == TS_TAG_STR) {
        const char *s = ((const TsStr *)v.u.p)->data;
        *kind = !strcmp(s, "fro") ? N_FRO : !strcmp(s, "nuc") ? N_NUC : -1;
        if (*kind < 0)
            return ts_error_set(err, TS_ERR_RUNTIME, "%s: Order %s not supported.", api, s);
        return 0;
    }
    double p = v.tag == TS_TAG_INT ? (double)v.u.i : v.tag == TS_TAG_BOOL ? v.u.b : v.u.d;
    *kind = num_order(p);
    if (*kind < 0)
        return ts_error_set(err, TS_ERR_RUNTIME, "%s: Order %g not supported.", api, p);
    return 0;
}

/* linalg_matrix_norm(Tensor self, Scalar ord, int[] dim=[-2, -1], bool keepdim=False, *,
 * ScalarType? dtype=None) and .str_ord */
static int k_matrix_norm(TsCall *c)
{
    const char *api = "linalg.matrix_norm";
    TsArgs a;
    TsTensor *x, *o = NULL;
    int64_t dims[4];
    int nd = 0, kind = 0, dtype = -1;
    bool keep = false;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x);
    if (!rc) rc = ts_args_int_list(&a, 2, dims, &nd, 4);
    if (!rc) rc = ts_args_bool(&a, 3, &keep);
    if (!rc) rc = ts_args_opt_dtype(&a, 4, &dtype);
    if (!rc && nd != 2)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "%s: dim must be a 2-tuple. Got", api);
    if (!rc) rc = ts_lap_check_matrix(api, "A", x, c->error);
    if (!rc) rc = order_arg(api, a.v[1], &kind, c->error);
    if (!rc) rc = matrix_norm(api, x, kind, dims[0], dims[1], keep, dtype, &o, c->error);
    return ts_args_return_tensor(&a, rc, o);
}

/* nuclear_norm(Tensor self, bool keepdim=False) and .dim(Tensor self, int[2] dim, ...) */
static int nuclear(TsCall *c, bool with_dim)
{
    TsArgs a;
    TsTensor *x, *o = NULL;
    int64_t dims[4] = { -2, -1 };
    int nd = 2;
    bool keep = false;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x);
    if (!rc && with_dim) rc = ts_args_int_list(&a, 1, dims, &nd, 4);
    if (!rc) rc = ts_args_bool(&a, with_dim ? 2 : 1, &keep);
    if (!rc && !with_dim && x->dim != 2)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Expected a tensor with 2 dimensions, but "
                          "got a tensor with %d dimension%s instead.", x->dim, x->dim == 1 ? "" : "s");
    if (!rc && nd != 2)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "linalg.matrix_norm: dim must be a 2-tuple.");
    if (!rc)
        rc = matrix_norm("linalg.matrix_norm", x, N_NUC, dims[0], dims[1], keep, -1, &o, c->error);
    return ts_args_return_tensor(&a, rc, o);
}

static int k_nuclear_norm(TsCall *c) { return nuclear(c, false); }
static int k_nuclear_norm_dim(TsCall *c) { return nuclear(c, true); }

/* linalg_vector_norm through its kernel: (x, ord, dims or None, keepdim, dtype). */
static int vector_norm(TsCall *c, TsTensor *x, TsValue ord, const int64_t *dims, int nd,
                       bool keep, int dtype, TsTensor **out)
{
    TsValue args[5];
    ts_tensor_retain(x);
    args[0] = ts_obj_value(x, TS_TAG_TENSOR);
    args[1] = ord;
    args[2] = ts_none();
    if (dims) {
        args[2] = ts_cpu_int_list(c->error, nd, dims);
        if (args[2].tag == TS_TAG_NONE) {
            ts_value_release(args[0]);
            return c->error->code;
        }
    }
    args[3] = ts_bool(keep);
    args[4] = dtype >= 0 ? ts_int(dtype) : ts_none();
    TsValue r;
    int rc = ts_cpu_call_kernel(c, &ts_cpu_reduce_table, "aten::linalg_vector_norm", "", 5,
                                args, &r);
    if (!rc)
        *out = (TsTensor *)r.u.p;
    return rc;
}

/* linalg_norm(Tensor self, Scalar? ord=None, int[1]? dim=None, bool keepdim=False, *,
 * ScalarType? dtype=None) and .ord_str */
static int k_linalg_norm(TsCall *c)
{
    TsArgs a;
    TsTensor *x, *o = NULL;
    int64_t dims[8];
    int nd = -1, dtype = -1;
    bool keep = false;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x);
    if (!rc && a.v[2].tag != TS_TAG_NONE) rc = ts_args_int_list(&a, 2, dims, &nd, 8);
    if (!rc) rc = ts_args_bool(&a, 3, &keep);
    if (!rc) rc = ts_args_opt_dtype(&a, 4, &dtype);
    if (rc)
        return ts_args_fail(&a, rc);
    TsValue ord = a.v[1];
    bool has_ord = ord.tag != TS_TAG_NONE;
    if (nd < 0 && has_ord && ord.tag != TS_TAG_STR && x->dim != 1 && x->dim != 2)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "linalg.norm: If dim is not specified but "
                          "ord is, the input must be 1D or 2D. Got %dD.", x->dim);
    else if (nd > 2)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "linalg.norm: If dim is specified, it must "
                          "be of length 1 or 2. Got [%lld, %lld, ...]", (long long)dims[0],
                          (long long)dims[1]);
    else if (ord.tag == TS_TAG_STR || nd == 2 || (nd < 0 && has_ord && x->dim == 2)) {
        int kind = N_FRO;
        if (has_ord)
            rc = order_arg("linalg.matrix_norm", ord, &kind, c->error);
        if (!rc)
            rc = matrix_norm("linalg.matrix_norm", x, kind, nd == 2 ? dims[0] : -2,
                             nd == 2 ? dims[1] : -1, keep, dtype, &o, c->error);
    } else
        rc = vector_norm(c, x, has_ord ? ord : ts_double(2.0), nd < 0 ? NULL : dims, nd, keep,
                         dtype, &o);
    return ts_args_return_tensor(&a, rc, o);
}

/* ---- cond --------------------------------------------------------------------------- */

static int cond_call(TsCall *c)
{
    TsArgs a;
    TsTensor *x, *o = NULL, *inv = NULL, *info = NULL, *n1 = NULL, *n2 = NULL;
    TsError *err = c->error;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x);
    if (rc)
        return ts_args_fail(&a, rc);
    TsValue p = a.v[1];
    int kind = N_TWO;
    if (p.tag != TS_TAG_NONE)
        rc = order_arg("linalg.cond", p, &kind, err);
    if (!rc) rc = ts_lap_check_matrix("linalg.cond", "A", x, err);
    if (!rc) rc = ts_lap_check_float("linalg.cond", x, err);
    if (!rc && (kind == N_TWO || kind == N_NTWO)) {
        TsLapBatch s = { 0 };
        rc = ts_lap_svals("linalg.cond", x, &s, err);
        double *v = rc ? NULL : malloc(sizeof(double) * (size_t)(s.count + 1));
        if (!rc && !v)
            rc = ts_error_set(err, TS_ERR_NOMEM, "linalg: out of memory");
        for (int64_t e = 0; !rc && e < s.count; e++) {
            double hi = ts_lap_get(s.dtype, ts_lap_mat(&s, e), 0);
            double lo = ts_lap_get(s.dtype, ts_lap_mat(&s, e), s.rows - 1);
            v[e] = kind == N_TWO ? hi / lo : lo / hi;
        }
        if (!rc && !(o = batch_result(x, x->dim - 2, x->dim - 1, false, x->dtype, v, s.count,
                                      err)))
            rc = err->code;
        free(v);
        ts_lap_free(&s);
        return ts_args_return_tensor(&a, rc, o);
    }
    char api[64];
    if (!rc) {
        if (p.tag == TS_TAG_STR)
            snprintf(api, sizeof api, "linalg.cond(ord=%s)", ((const TsStr *)p.u.p)->data);
        else
            snprintf(api, sizeof api, "linalg.cond(ord=%g)", p.tag == TS_TAG_INT ? (double)p.u.i
                                                                                 : p.u.d);
        rc = ts_lap_check_square(api, x, err);
    }
    if (!rc) rc = ts_lap_inverse(api, x, false, &inv, &info, err);
    if (!rc) rc = matrix_norm(api, x, kind, -2, -1, false, -1, &n1, err);
    if (!rc) rc = matrix_norm(api, inv, kind, -2, -1, false, -1, &n2, err);
    if (!rc) {
        int64_t n = ts_tensor_numel(n1);
        const int *in = ts_tensor_data(info);
        for (int64_t e = 0; e < n; e++)
            ts_lap_set(x->dtype, ts_tensor_data(n1), e,
                       in[e] > 0 ? INFINITY : ts_lap_get(x->dtype, ts_tensor_data(n1), e) *
                                                  ts_lap_get(x->dtype, ts_tensor_data(n2), e));
        o = n1;
        n1 = NULL;
    }
    TsTensor *rel[4] = { inv, info, n1, n2 };
    for (int i = 0; i < 4; i++)
        if (rel[i])
            ts_tensor_release(rel[i]);
    return ts_args_return_tensor(&a, rc, o);
}

/* ---- matrix_power, matrix_exp ------------------------------------------------------- */

/* c = a b for n x n column-major doubles. */
static void matmul_d(int64_t n, const double *a, const double *b, double *c)
{
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++) {
            double s = 0;
            for (int64_t k = 0; k < n; k++)
                s += a[i + k * n] * b[k + j * n];
            c[i + j * n] = s;
        }
}

/* A^p (p >= 0) of each square matrix of x, computed in double. */
static int power(TsTensor *x, int64_t p, TsTensor **out, TsError *err)
{
    TsLapBatch a = { 0 }, r = { 0 };
    int rc = ts_lap_load(x, TS_FLOAT64, -1, NULL, &a, err);
    int64_t n = a.rows;
    if (!rc) rc = ts_lap_new(&a, n, n, &r, err);
    double *t1 = rc ? NULL : malloc(sizeof(double) * (size_t)(n * n + 1));
    double *t2 = rc ? NULL : malloc(sizeof(double) * (size_t)(n * n + 1));
    if (!rc && (!t1 || !t2))
        rc = ts_error_set(err, TS_ERR_NOMEM, "linalg: out of memory");
    for (int64_t e = 0; !rc && e < a.count; e++) {
        double *res = ts_lap_mat(&r, e), *base = ts_lap_mat(&a, e);
        for (int64_t i = 0; i < n; i++)
            res[i + i * n] = 1;
        for (int64_t q = p; q > 0; q >>= 1) {
            if (q & 1) {
                matmul_d(n, res, base, t1);
                memcpy(res, t1, sizeof(double) * (size_t)(n * n));
            }
            if (q > 1) {
                matmul_d(n, base, base, t2);
                memcpy(base, t2, sizeof(double) * (size_t)(n * n));
            }
        }
    }
    free(t1);
    free(t2);
    if (!rc) {
        r.dtype = TS_FLOAT64;
        TsTensor *d = ts_lap_store(&r, n, n, false, err);
        if (!d)
            rc = err->code;
        else {
            *out = ts_cpu_cast(d, x->dtype, err);
            ts_tensor_release(d);
            if (!*out)
                rc = err->code;
        }
    }
    ts_lap_free(&a);
    ts_lap_free(&r);
    return rc;
}

/* matrix_power(Tensor self, int n) and linalg_matrix_power */
static int k_matrix_power(TsCall *c)
{
    const char *api = "linalg.matrix_power";
    TsArgs a;
    TsTensor *x, *o = NULL, *inv = NULL;
    int64_t p;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x);
    if (!rc) rc = ts_args_int(&a, 1, &p);
    if (!rc) rc = ts_lap_check_matrix(api, "A", x, c->error);
    if (!rc && x->sizes[x->dim - 1] != x->sizes[x->dim - 2])
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "%s: A must be batches of square matrices, "
                          "but they are %lld by %lld matrices", api,
                          (long long)x->sizes[x->dim - 2], (long long)x->sizes[x->dim - 1]);
    if (!rc && p < 0) {
        rc = ts_lap_inverse("linalg.inv", x, true, &inv, NULL, c->error);
        p = -p;
    }
    if (!rc && !ts_dtype_is_floating(x->dtype) && x->dtype != TS_INT64 && x->dtype != TS_INT32 &&
        x->dtype != TS_INT16 && x->dtype != TS_INT8 && x->dtype != TS_UINT8)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "\"addmm_impl_cpu_\" not implemented for "
                          "'%s'", ts_dtype_type_name(x->dtype));
    if (!rc) rc = power(inv ? inv : x, p, &o, c->error);
    if (inv)
        ts_tensor_release(inv);
    return ts_args_return_tensor(&a, rc, o);
}

/* linalg_matrix_exp(Tensor self) and matrix_exp: scaling and squaring of a degree-18 Taylor
 * polynomial in double (within rounding of PyTorch's own choice of degree). */
static int k_matrix_exp(TsCall *c)
{
    const char *api = "linalg.matrix_exp";
    TsArgs args;
    TsTensor *x, *o = NULL;
    TsLapBatch a = { 0 }, r = { 0 };
    int rc = ts_args_pop(c, TS_DEV_CPU, &args);
    if (!rc) rc = ts_args_tensor(&args, 0, &x);
    if (!rc) rc = ts_lap_check_square(api, x, c->error);
    if (!rc) rc = ts_lap_load(x, TS_FLOAT64, -1, NULL, &a, c->error);
    int64_t n = a.rows;
    if (!rc) rc = ts_lap_new(&a, n, n, &r, c->error);
    size_t nn = (size_t)(n * n + 1);
    double *term = rc ? NULL : malloc(sizeof(double) * nn);
    double *tmp = rc ? NULL : malloc(sizeof(double) * nn);
    if (!rc && (!term || !tmp))
        rc = ts_error_set(c->error, TS_ERR_NOMEM, "linalg: out of memory");
    for (int64_t e = 0; !rc && e < a.count; e++) {
        double *m = ts_lap_mat(&a, e), *res = ts_lap_mat(&r, e);
        double norm = 0;      /* the 1-norm picks the scaling */
        for (int64_t j = 0; j < n; j++) {
            double s = 0;
            for (int64_t i = 0; i < n; i++)
                s += fabs(m[i + j * n]);
            norm = fmax(norm, s);
        }
        int sq = 0;
        if (norm > 0.5 && isfinite(norm))
            sq = (int)ceil(log2(norm / 0.5));
        double scale = ldexp(1.0, -sq);
        for (int64_t i = 0; i < n * n; i++)
            m[i] *= scale;
        memset(res, 0, sizeof(double) * (size_t)(n * n));
        memset(term, 0, sizeof(double) * (size_t)(n * n));
        for (int64_t i = 0; i < n; i++)
            res[i + i * n] = term[i + i * n] = 1;
        for (int k = 1; k <= 18; k++) {
            matmul_d(n, term, m, tmp);
            for (int64_t i = 0; i < n * n; i++) {
                term[i] = tmp[i] / k;
                res[i] += term[i];
            }
        }
        for (int s = 0; s < sq; s++) {
            matmul_d(n, res, res, tmp);
            memcpy(res, tmp, sizeof(double) * (size_t)(n * n));
        }
    }
    free(term);
    free(tmp);
    if (!rc) {
        r.dtype = TS_FLOAT64;
        TsTensor *d = ts_lap_store(&r, n, n, false, c->error);
        if (!d || !(o = ts_cpu_cast(d, x->dtype, c->error)))
            rc = c->error->code;
        if (d)
            ts_tensor_release(d);
    }
    ts_lap_free(&a);
    ts_lap_free(&r);
    return ts_args_return_tensor(&args, rc, o);
}

/* ---- multi_dot, chain_matmul -------------------------------------------------------- */

static TsTensor *mm(TsCall *c, TsTensor *x, TsTensor *y)
{
    TsValue args[2], r;
    ts_tensor_retain(x);
    ts_tensor_retain(y);
    args[0] = ts_obj_value(x, TS_TAG_TENSOR);
    args[1] = ts_obj_value(y, TS_TAG_TENSOR);
    if (ts_cpu_call_kernel(c, &ts_cpu_linalg_table, "aten::mm", "", 2, args, &r))
        return NULL;
    return (TsTensor *)r.u.p;
}

/* The product of the list left to right; chain: chain_matmul's rules (all 2-D). */
static int multi_dot(TsCall *c, bool chain)
{
    const char *api = chain ? "chain_matmul()" : "multi_dot()";
    TsArgs a;
    TsTensor **ts = NULL, *o = NULL;
    size_t n = 0;
    TsError *err = c->error;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor_array(&a, 0, &ts, &n);
    if (!rc && chain && n == 0)
        rc = ts_error_set(err, TS_ERR_RUNTIME, "chain_matmul(): Expected one or more matrices");
    if (!rc && !chain && n < 2)
        rc = ts_error_set(err, TS_ERR_RUNTIME, "multi_dot(): expected at least 2 tensors but got "
                          "%zu", n);
    for (size_t i = 0; !rc && i < n; i++) {
        int d = ts[i]->dim;
        bool end = !chain && (i == 0 || i == n - 1);
        if (chain && d != 2)
            rc = ts_error_set(err, TS_ERR_RUNTIME, "Tensor dimension is %d, expected 2 instead.",
                              d);
        else if (end && d != 1 && d != 2)
            rc = ts_error_set(err, TS_ERR_RUNTIME, "multi_dot(): the %s tensor must be 1D or 2D "
                              "but got %dD", i == 0 ? "first" : "last", d);
        else if (!end && !chain && d != 2)
            rc = ts_error_set(err, TS_ERR_RUNTIME, "multi_dot(): tensor %zu must be 2D but got "
                              "%dD", i, d);
        else if (ts[i]->dtype != ts[0]->dtype)
            rc = ts_error_set(err, TS_ERR_RUNTIME, "%s: all tensors must have be the same dtype "
                              "but tensor 0 is %s and tensor %zu is %s", api,
                              ts_dtype_type_name(ts[0]->dtype), i,
                              ts_dtype_type_name(ts[i]->dtype));
    }
    /* 1-D ends as a row and a column, as views */
    TsTensor *first = NULL, *last = NULL;
    if (!rc && n >= 2) {
        TsTensor *f = ts[0], *l = ts[n - 1];
        if (f->dim == 1) {
            int64_t s[2] = { 1, f->sizes[0] }, st[2] = { f->sizes[0] * f->strides[0], f->strides[0] };
            if (!(first = ts_aten_view(f, 2, s, st, f->offset, err)))
                rc = err->code;
            ts[0] = first;
        }
        if (!rc && l->dim == 1) {
            int64_t s[2] = { l->sizes[0], 1 }, st[2] = { l->strides[0], 1 };
            if (!(last = ts_aten_view(l, 2, s, st, l->offset, err)))
                rc = err->code;
            ts[n - 1] = last;
        }
    }
    for (size_t i = 0; !rc && i + 1 < n; i++)
        if (ts[i]->sizes[1] != ts[i + 1]->sizes[0])
            rc = ts_error_set(err, TS_ERR_RUNTIME, "%s: tensors %zu and %zu with shapes [%lld, "
                              "%lld] and [%lld, %lld] cannot be multiplied", api, i, i + 1,
                              (long long)ts[i]->sizes[0], (long long)ts[i]->sizes[1],
                              (long long)ts[i + 1]->sizes[0], (long long)ts[i + 1]->sizes[1]);
    if (!rc) {
        o = n == 1 ? ts_cpu_cast(ts[0], ts[0]->dtype, err) : mm(c, ts[0], ts[1]);
        for (size_t i = 2; o && i < n; i++) {
            TsTensor *p = mm(c, o, ts[i]);
            ts_tensor_release(o);
            o = p;
        }
        if (!o)
            rc = err->code;
    }
    if (!rc && (first || last)) {    /* drop the dims the 1-D ends added */
        int64_t s[2], st[2];
        int d = 0;
        if (!first) {
            s[d] = o->sizes[0];
            st[d++] = o->strides[0];
        }
        if (!last) {
            s[d] = o->sizes[1];
            st[d++] = o->strides[1];
        }
        TsTensor *v = ts_aten_view(o, d, s, st, o->offset, err);
        ts_tensor_release(o);
        o = v;
        if (!o)
            rc = err->code;
    }
    if (first)
        ts_tensor_release(first);
    if (last)
        ts_tensor_release(last);
    free(ts);
    return ts_args_return_tensor(&a, rc, o);
}

static int k_multi_dot(TsCall *c) { return multi_dot(c, false); }
static int k_chain_matmul(TsCall *c) { return multi_dot(c, true); }

/* ---- cross, vecdot ------------------------------------------------------------------ */

/* The cross product of x and y along dim (has_dim false: aten::cross's first dim of 3). */
static int cross(TsCall *c, bool linalg)
{
    const char *api = linalg ? "linalg.cross" : "linalg.cross";
    TsArgs a;
    TsTensor *x, *y, *o = NULL, *bx = NULL, *by = NULL;
    TsError *err = c->error;
    int64_t dim = -1;
    bool has = true;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x);
    if (!rc) rc = ts_args_tensor(&a, 1, &y);
    if (!rc) rc = linalg ? ts_args_int(&a, 2, &dim) : ts_args_opt_int(&a, 2, &dim, &has);
    if (!rc && x->dim != y->dim)
        rc = ts_error_set(err, TS_ERR_RUNTIME, "%s: inputs must have the same number of "
                          "dimensions.", api);
    TsTensor *in[2] = { x, y };
    int nd = 0;
    int64_t sizes[TS_TENSOR_MAX_DIMS];
    if (!rc) rc = ts_aten_broadcast_shape(2, in, &nd, sizes, err);
    if (!rc && !has) {      /* the first dim of size 3 */
        dim = -1;
        for (int i = 0; i < nd && dim < 0; i++)
            if (sizes[i] == 3)
                dim = i;
        if (dim < 0)
            rc = ts_error_set(err, TS_ERR_RUNTIME, "no dimension of size 3 in input");
    }
    int d = 0;
    if (!rc) rc = ts_aten_wrap_dim(dim, nd, false, &d, err);
    if (!rc && (x->sizes[d] != 3 || y->sizes[d] != 3))
        rc = ts_error_set(err, TS_ERR_RUNTIME, "%s: inputs dimension %lld must have length 3. "
                          "Got %lld and %lld", api, (long long)dim, (long long)x->sizes[d],
                          (long long)y->sizes[d]);
    int dt = rc ? 0 : ts_aten_result_type(2, in);
    if (!rc && !(bx = ts_cpu_empty(dt, nd, sizes, err))) rc = err->code;
    if (!rc && !(by = ts_cpu_empty(dt, nd, sizes, err))) rc = err->code;
    if (!rc && !(o = ts_cpu_empty(dt, nd, sizes, err))) rc = err->code;
    if (!rc) {
        ts_cpu_copy_into(bx, x);
        ts_cpu_copy_into(by, y);
        int64_t inner = 1, outer = 1;
        for (int i = d + 1; i < nd; i++)
            inner *= sizes[i];
        for (int i = 0; i < d; i++)
            outer *= sizes[i];
        size_t es = ts_dtype_size(dt);
        char *px = ts_tensor_data(bx), *py = ts_tensor_data(by), *po = ts_tensor_data(o);
        for (int64_t u = 0; u < outer; u++)
            for (int64_t v = 0; v < inner; v++) {
                double p[3], q[3];
                int64_t base = u * 3 * inner + v;
                for (int k = 0; k < 3; k++) {
                    p[k] = ts_cpu_load_double(dt, px + (size_t)(base + k * inner) * es);
                    q[k] = ts_cpu_load_double(dt, py + (size_t)(base + k * inner) * es);
                }
                double r[3] = { p[1] * q[2] - p[2] * q[1], p[2] * q[0] - p[0] * q[2],
                                p[0] * q[1] - p[1] * q[0] };
                for (int k = 0; k < 3; k++)
                    ts_cpu_store_double(dt, po + (size_t)(base + k * inner) * es, r[k]);
            }
    }
    if (bx)
        ts_tensor_release(bx);
    if (by)
        ts_tensor_release(by);
    if (rc && o) {
        ts_tensor_release(o);
        o = NULL;
    }
    return ts_args_return_tensor(&a, rc, o);
}

static int k_linalg_cross(TsCall *c) { return cross(c, true); }
static int k_cross(TsCall *c) { return cross(c, false); }

/* linalg_vecdot(Tensor x, Tensor y, *, int dim=-1): sum(x * y, dim) */
static int k_vecdot(TsCall *c)
{
    TsArgs a;
    TsTensor *x, *y, *p = NULL, *o = NULL;
    int64_t dim;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x);
    if (!rc) rc = ts_args_tensor(&a, 1, &y);
    if (!rc) rc = ts_args_int(&a, 2, &dim);
    if (!rc && x->dtype != y->dtype)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "linalg.vecdot: Expected x and y to have the "
                          "same dtype, but found x of type %s and y of type %s instead",
                          ts_dtype_type_name(x->dtype), ts_dtype_type_name(y->dtype));
    if (!rc) rc = ts_cpu_mul(x, y, &p, c->error);
    if (!rc) {
        TsValue args[4], r, l = ts_cpu_int_list(c->error, 1, &dim);
        if (l.tag == TS_TAG_NONE) {
            rc = c->error->code;
        } else {
            args[0] = ts_obj_value(p, TS_TAG_TENSOR);
            p = NULL;
            args[1] = l;
            args[2] = ts_bool(false);
            args[3] = ts_none();
            rc = ts_cpu_call_kernel(c, &ts_cpu_reduce_table, "aten::sum", "dim_IntList", 4, args,
                                    &r);
            if (!rc)
                o = (TsTensor *)r.u.p;
        }
    }
    if (p)
        ts_tensor_release(p);
    return ts_args_return_tensor(&a, rc, o);
}

/* ---- tensorinv, tensorsolve --------------------------------------------------------- */

/* A contiguous copy of t with the given shape (its element count). */
static TsTensor *reshaped(const TsTensor *t, int dim, const int64_t *sizes, TsError *err)
{
    TsTensor *c = ts_cpu_cast(t, t->dtype, err);
    if (!c)
        return NULL;
    int64_t st[TS_TENSOR_MAX_DIMS];
    int64_t s = 1;
    for (int i = dim - 1; i >= 0; i--) {
        st[i] = s;
        s *= sizes[i];
    }
    TsTensor *v = ts_aten_view(c, dim, sizes, st, c->offset, err);
    ts_tensor_release(c);
    return v;
}

/* linalg_tensorinv(Tensor self, int ind=2) */
static int k_tensorinv(TsCall *c)
{
    TsArgs a;
    TsTensor *x, *m = NULL, *inv = NULL, *o = NULL;
    int64_t ind;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x);
    if (!rc) rc = ts_args_int(&a, 1, &ind);
    if (!rc && ind <= 0)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Expected a strictly positive integer for "
                          "'ind', but got %lld", (long long)ind);
    int64_t pre = 1, post = 1;
    for (int i = 0; !rc && i < x->dim; i++)
        *(i < ind ? &pre : &post) *= x->sizes[i];
    if (!rc && (ind > x->dim || pre != post))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Expected self to satisfy the requirement "
                          "prod(self.shape[ind:]) == prod(self.shape[:ind]), but got %lld != %lld",
                          (long long)post, (long long)pre);
    int64_t ms[2] = { pre, post };
    if (!rc && !(m = reshaped(x, 2, ms, c->error))) rc = c->error->code;
    if (!rc) rc = ts_lap_inverse("inv", m, true, &inv, NULL, c->error);
    if (!rc) {
        int64_t os[TS_TENSOR_MAX_DIMS];
        int n = 0;
        for (int i = (int)ind; i < x->dim; i++)
            os[n++] = x->sizes[i];
        for (int i = 0; i < ind; i++)
            os[n++] = x->sizes[i];
        if (!(o = reshaped(inv, n, os, c->error)))
            rc = c->error->code;
    }
    if (m) ts_tensor_release(m);
    if (inv) ts_tensor_release(inv);
    return ts_args_return_tensor(&a, rc, o);
}

static const TsCpuOp ops[] = {
    { "aten::linalg_diagonal", "", k_linalg_diagonal },
    { "aten::linalg_matmul", "", k_linalg_matmul },
    { "aten::linalg_matrix_norm", "", k_matrix_norm },
    { "aten::linalg_matrix_norm", "str_ord", k_matrix_norm },
    { "aten::nuclear_norm", "", k_nuclear_norm },
    { "aten::nuclear_norm", "dim", k_nuclear_norm_dim },
    { "aten::linalg_norm", "", k_linalg_norm },
    { "aten::linalg_norm", "ord_str", k_linalg_norm },
    { "aten::linalg_cond", "", cond_call },
    { "aten::linalg_cond", "p_str", cond_call },
    { "aten::linalg_matrix_power", "", k_matrix_power },
    { "aten::matrix_power", "", k_matrix_power },
    { "aten::linalg_matrix_exp", "", k_matrix_exp },
    { "aten::matrix_exp", "", k_matrix_exp },
    { "aten::linalg_multi_dot", "", k_multi_dot },
    { "aten::chain_matmul", "", k_chain_matmul },
    { "aten::linalg_cross", "", k_linalg_cross },
    { "aten::cross", "", k_cross },
    { "aten::linalg_vecdot", "", k_vecdot },
    { "aten::linalg_tensorinv", "", k_tensorinv },
};

const TsCpuTable ts_cpu_linalg_extra_table = { ops, sizeof ops / sizeof ops[0] };
