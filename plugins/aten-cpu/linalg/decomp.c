/* decomp.c — torch.linalg's LU and Cholesky family on LAPACK (lapack.h): inv, det, slogdet,
 * logdet, solve, lu_factor, lu, lu_unpack, lu_solve, cholesky, cholesky_solve,
 * cholesky_inverse, solve_triangular and triangular_solve, with their _ex forms and old names.
 *
 * The routines are PyTorch's CPU choices (getrf and getrs for inv and solve, potrf, potrs,
 * potri, trsm), so singular inputs end where PyTorch's do (inv_ex of a singular matrix gives
 * PyTorch's infinities) and the errors read LAPACK's info in PyTorch's words, with
 * "(Batch element k): " for batched inputs.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linalg/lapack.h"

static int ld(int64_t n) { return n > 1 ? (int)n : 1; }

/* "api: (Batch element k): " or "api: " */
static void prefix(char *buf, size_t size, const char *api, int batched, int64_t k)
{
    if (batched)
        snprintf(buf, size, "%s: (Batch element %lld): ", api, (long long)k);
    else
        snprintf(buf, size, "%s: ", api);
}

/* The first nonzero info of infos (count of them) as an error; what: 0 inv, 1 solve,
 * 2 cholesky, 3 lu_factor. */
static int info_error(TsError *err, const char *api, int batched, const int *infos,
                      int64_t count, int what)
{
    for (int64_t k = 0; k < count; k++) {
        int i = infos[k];
        if (i <= 0)
            continue;
        char p[160];
        prefix(p, sizeof p, api, batched, k);
        switch (what) {
        case 0:
            return ts_error_set(err, TS_ERR_RUNTIME, "%sThe diagonal element %d is zero, the "
                                "inversion could not be completed because the input matrix is "
                                "singular.", p, i);
        case 1:
            return ts_error_set(err, TS_ERR_RUNTIME, "%sThe solver failed because the input "
                                "matrix is singular.", p);
        case 2:
            return ts_error_set(err, TS_ERR_RUNTIME, "%sThe factorization could not be "
                                "completed because the input is not positive-definite (the "
                                "leading minor of order %d is not positive-definite).", p, i);
        default:
            return ts_error_set(err, TS_ERR_RUNTIME, "%sU[%d,%d] is zero and using it on "
                                "lu_solve would result in a division by zero. If you still want "
                                "to perform the factorization, consider calling linalg.lu(A, "
                                "pivot) or linalg.lu_factor_ex(A, pivot)", p, i, i);
        }
    }
    return 0;
}

/* A new int32 tensor of b's batch dims (plus extra) holding v. */
static TsTensor *int_tensor(const TsLapBatch *b, int nextra, const int64_t *extra,
                            const int *v, TsError *err)
{
    TsTensor *t = ts_lap_batch_tensor(b, TS_INT32, nextra, extra, err);
    if (t)
        memcpy(ts_tensor_data(t), v, sizeof(int) * (size_t)ts_tensor_numel(t));
    return t;
}

/* getrf on each matrix of a (in place): pivots (count * min(m,n)) and infos (count). */
static int lu_all(TsLapBatch *a, int **piv, int **infos, TsError *err)
{
    int64_t k = a->rows < a->cols ? a->rows : a->cols;
    *piv = malloc(sizeof(int) * (size_t)(a->count * k + 1));
    *infos = calloc((size_t)a->count + 1, sizeof(int));
    if (!*piv || !*infos)
        return ts_error_set(err, TS_ERR_NOMEM, "linalg: out of memory");
    for (int64_t i = 0; i < a->count && a->rows && a->cols; i++)
        if (ts_lap_getrf(a->dtype, (int)a->rows, (int)a->cols, ts_lap_mat(a, i), ld(a->rows),
                         *piv + i * k, *infos + i, err))
            return err->code;
    return 0;
}

/* b (n x k matrices) := A^-1 b (trans 'N') or A^-T b ('T') from a's LU. */
static int lu_solve_all(const TsLapBatch *lu, const int *piv, char trans, TsLapBatch *b,
                        TsError *err)
{
    int n = (int)lu->rows, info;
    for (int64_t i = 0; i < b->count && n && b->cols; i++)
        if (ts_lap_getrs(lu->dtype, trans, n, (int)b->cols, ts_lap_mat(lu, i), ld(n),
                         (int *)piv + i * n, ts_lap_mat(b, i), ld(n), &info, err))
            return err->code;
    return 0;
}

/* Identity matrices of the batch of a. */
static int eye_like(const TsLapBatch *a, TsLapBatch *e, TsError *err)
{
    if (ts_lap_new(a, a->rows, a->rows, e, err))
        return err->code;
    for (int64_t i = 0; i < e->count; i++)
        for (int64_t j = 0; j < e->rows; j++)
            ts_lap_set(e->dtype, ts_lap_mat(e, i), j + j * e->rows, 1.0);
    return 0;
}

/* ---- inv ---------------------------------------------------------------------------- */

/* A^-1 of square A, and infos; check: raise for a singular matrix. */
static int inverse(const char *api, TsTensor *x, bool check, TsTensor **out, TsTensor **info,
                   TsError *err)
{
    TsLapBatch a = { 0 }, e = { 0 };
    int *piv = NULL, *infos = NULL;
    int rc = ts_lap_check_square(api, x, err);
    if (!rc) rc = ts_lap_load(x, x->dtype, -1, NULL, &a, err);
    if (!rc) rc = lu_all(&a, &piv, &infos, err);
    if (!rc) rc = eye_like(&a, &e, err);
    if (!rc) rc = lu_solve_all(&a, piv, 'N', &e, err);
    if (!rc && check)
        rc = info_error(err, api, x->dim > 2, infos, a.count, 0);
    if (!rc && !(*out = ts_lap_store(&e, e.rows, e.cols, false, err)))
        rc = err->code;
    if (!rc && info && !(*info = int_tensor(&a, 0, NULL, infos, err))) {
        rc = err->code;
        ts_tensor_release(*out);
    }
    ts_lap_free(&a);
    ts_lap_free(&e);
    free(piv);
    free(infos);
    return rc;
}

static int inv_call(TsCall *c, const char *api, bool ex)
{
    TsArgs a;
    TsTensor *x, *r[2] = { NULL, NULL };
    bool check = !ex;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x);
    if (!rc && ex) rc = ts_args_bool(&a, 1, &check);
    if (!rc) rc = inverse(api, x, check, &r[0], ex ? &r[1] : NULL, c->error);
    return ex ? ts_args_return_tensors(&a, rc, 2, r) : ts_args_return_tensor(&a, rc, r[0]);
}

static int k_linalg_inv(TsCall *c) { return inv_call(c, "linalg.inv", false); }
static int k_linalg_inv_ex(TsCall *c) { return inv_call(c, "linalg.inv", true); }

/* ---- det, slogdet, logdet ------------------------------------------------------------ */

enum { DET, SLOGDET, LOGDET };

/* kind's results of square x: det; sign and logabsdet; logdet. */
static int determinant(const char *api, TsTensor *x, int kind, TsTensor **r, TsError *err)
{
    TsLapBatch a = { 0 };
    int *piv = NULL, *infos = NULL;
    int rc = ts_lap_check_square(api, x, err);
    if (!rc) rc = ts_lap_load(x, x->dtype, -1, NULL, &a, err);
    if (!rc) rc = lu_all(&a, &piv, &infos, err);
    if (!rc && !(r[0] = ts_lap_batch_tensor(&a, x->dtype, 0, NULL, err)))
        rc = err->code;
    if (!rc && kind == SLOGDET && !(r[1] = ts_lap_batch_tensor(&a, x->dtype, 0, NULL, err)))
        rc = err->code;
    int64_t n = a.rows;
    for (int64_t k = 0; !rc && k < a.count; k++) {
        const void *m = ts_lap_mat(&a, k);
        double det = 1, sign = 1, logabs = 0;
        for (int64_t i = 0; i < n; i++) {
            double d = ts_lap_get(a.dtype, m, i + i * n);
            if (piv[k * n + i] != i + 1) {
                det = -det;
                sign = -sign;
            }
            det *= d;
            sign *= d > 0 ? 1 : d < 0 ? -1 : 0;
            logabs += log(fabs(d));
        }
        if (kind == DET)
            ts_lap_set(a.dtype, ts_tensor_data(r[0]), k, det);
        else if (kind == SLOGDET) {
            ts_lap_set(a.dtype, ts_tensor_data(r[0]), k, sign);
            ts_lap_set(a.dtype, ts_tensor_data(r[1]), k, logabs);
        } else
            ts_lap_set(a.dtype, ts_tensor_data(r[0]), k,
                       sign < 0 ? NAN : sign == 0 ? -INFINITY : logabs);
    }
    ts_lap_free(&a);
    free(piv);
    free(infos);
    return rc;
}

static int det_call(TsCall *c, const char *api, int kind)
{
    TsArgs a;
    TsTensor *x, *r[2] = { NULL, NULL };
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x);
    if (!rc) rc = determinant(api, x, kind, r, c->error);
    if (rc) {
        for (int i = 0; i < 2; i++)
            if (r[i])
                ts_tensor_release(r[i]);
        return ts_args_fail(&a, rc);
    }
    return kind == SLOGDET ? ts_args_return_tensors(&a, rc, 2, r)
                           : ts_args_return_tensor(&a, rc, r[0]);
}

static int k_linalg_det(TsCall *c) { return det_call(c, "linalg.det", DET); }
static int k_linalg_slogdet(TsCall *c) { return det_call(c, "linalg.slogdet", SLOGDET); }
static int k_logdet(TsCall *c) { return det_call(c, "linalg.slogdet", LOGDET); }

/* ---- solve -------------------------------------------------------------------------- */

/* b's matrices transposed, in place of b. */
static int transpose_batch(TsLapBatch *b, TsError *err)
{
    TsLapBatch t;
    if (ts_lap_new(b, b->cols, b->rows, &t, err))
        return err->code;
    for (int64_t k = 0; k < b->count; k++)
        for (int64_t i = 0; i < b->rows; i++)
            for (int64_t j = 0; j < b->cols; j++)
                ts_lap_set(b->dtype, ts_lap_mat(&t, k), j + i * t.rows,
                           ts_lap_get(b->dtype, ts_lap_mat(b, k), i + j * b->rows));
    ts_lap_free(b);
    *b = t;
    return 0;
}

/* The right-hand side B of A X = B (left) or X A = B, as n x k matrices broadcast to the
 * common batch (B^T for X A = B); *vector: B was a vector (one column, or one row). */
static int load_rhs(const char *api, const char *eq, TsTensor *x, TsTensor *y, bool left,
                    bool vector_ok, TsLapBatch *a, TsLapBatch *b, bool *vector, TsError *err)
{
    int64_t n = x->sizes[x->dim - 1];
    bool vec = false;
    if (vector_ok) {
        vec = y->dim == 1;
        if (y->dim == x->dim - 1) {
            vec = true;
            for (int i = 0; i < y->dim; i++)
                vec = vec && y->sizes[i] == x->sizes[i];
        }
    }
    *vector = vec;
    if (!vec && ts_lap_check_matrix(api, "B", y, err))
        return err->code;
    /* the shape B would have as a matrix */
    int64_t ys[TS_LAP_MAX_DIM + 2];
    int yd = y->dim + (vec ? 1 : 0);
    if (yd > TS_LAP_MAX_DIM + 2)
        return ts_error_set(err, TS_ERR_LIMIT, "linalg: too many dimensions");
    memcpy(ys, y->sizes, sizeof(int64_t) * (size_t)y->dim);
    if (vec) {
        if (left)
            ys[yd - 1] = 1;
        else {
            ys[yd - 1] = ys[yd - 2];
            ys[yd - 2] = 1;
        }
    }
    int64_t br = ys[yd - 2], bc = ys[yd - 1];
    if ((left ? br : bc) != n)
        return ts_error_set(err, TS_ERR_RUNTIME, "%s: Incompatible shapes of A and B for the "
                            "equation %s (%lldx%lld and %lldx%lld)", api, eq, (long long)n,
                            (long long)n, (long long)br, (long long)bc);
    TsTensor yv = *y;        /* a view with the matrix shape, for the loads */
    int64_t st[TS_LAP_MAX_DIM + 2];
    memcpy(st, y->strides, sizeof(int64_t) * (size_t)y->dim);
    if (vec) {
        if (left)
            st[yd - 1] = 1;
        else {
            st[yd - 1] = st[yd - 2];
            st[yd - 2] = 1;
        }
    }
    yv.dim = yd;
    yv.sizes = ys;
    yv.strides = st;
    int nb;
    int64_t bs[TS_LAP_MAX_DIM];
    if (ts_lap_broadcast_batch(x, &yv, &nb, bs, err) || ts_lap_load(x, x->dtype, nb, bs, a, err))
        return err->code;
    if (ts_lap_load(&yv, x->dtype, nb, bs, b, err))
        return err->code;
    return left ? 0 : transpose_batch(b, err);
}

/* b back as the result: (.., n, k), or the vector, transposed back for X A = B. */
static TsTensor *store_rhs(TsLapBatch *b, bool left, bool vector, TsError *err)
{
    if (!left && transpose_batch(b, err))
        return NULL;
    if (vector)
        return ts_lap_store(b, left ? b->rows : b->cols, 1, true, err);
    return ts_lap_store(b, b->rows, b->cols, false, err);
}

static int check_same_dtype(const char *api, const TsTensor *x, const TsTensor *y, TsError *err)
{
    if (x->dtype == y->dtype)
        return 0;
    return ts_error_set(err, TS_ERR_RUNTIME, "%s: Expected A and B to have the same dtype, but "
                        "found A of type %s and B of type %s instead", api,
                        ts_dtype_type_name(x->dtype), ts_dtype_type_name(y->dtype));
}

static int solve_call(TsCall *c, bool ex)
{
    TsArgs args;
    TsTensor *x, *y, *r[2] = { NULL, NULL };
    bool left = true, check = !ex, vector = false;
    TsLapBatch a = { 0 }, b = { 0 };
    int *piv = NULL, *infos = NULL;
    TsError *err = c->error;
    int rc = ts_args_pop(c, TS_DEV_CPU, &args);
    if (!rc) rc = ts_args_tensor(&args, 0, &x);
    if (!rc) rc = ts_args_tensor(&args, 1, &y);
    if (!rc) rc = ts_args_bool(&args, 2, &left);
    if (!rc && ex) rc = ts_args_bool(&args, 3, &check);
    if (!rc) rc = ts_lap_check_square("linalg.solve", x, err);
    if (!rc) rc = check_same_dtype("linalg.solve", x, y, err);
    if (!rc)
        rc = load_rhs("linalg.solve", left ? "AX = B" : "XA = B", x, y, left, true, &a, &b,
                      &vector, err);
    if (!rc) rc = lu_all(&a, &piv, &infos, err);
    if (!rc) rc = lu_solve_all(&a, piv, left ? 'N' : 'T', &b, err);
    if (!rc && check)
        rc = info_error(err, "torch.linalg.solve", a.nb > 0, infos, a.count, 1);
    if (!rc && !(r[0] = store_rhs(&b, left, vector, err)))
        rc = err->code;
    if (!rc && ex && !(r[1] = int_tensor(&a, 0, NULL, infos, err)))
        rc = err->code;
    ts_lap_free(&a);
    ts_lap_free(&b);
    free(piv);
    free(infos);
    if (rc && r[0])
        ts_tensor_release(r[0]);
    return ex ? ts_args_return_tensors(&args, rc, 2, r) : ts_args_return_tensor(&args, rc, r[0]);
}

static int k_linalg_solve(TsCall *c) { return solve_call(c, false); }
static int k_linalg_solve_ex(TsCall *c) { return solve_call(c, true); }

/* ---- LU ----------------------------------------------------------------------------- */

/* LU and pivots of x; infos for _ex; check: raise on an exactly singular U. */
static int lu_factor(TsTensor *x, bool pivot, bool check, TsTensor **r, TsError *err)
{
    const char *api = "linalg.lu_factor";
    TsLapBatch a = { 0 };
    int *piv = NULL, *infos = NULL;
    int rc = ts_lap_check_matrix(api, "A", x, err);
    if (!rc && x->dtype != TS_FLOAT32 && x->dtype != TS_FLOAT64)
        rc = ts_error_set(err, TS_ERR_RUNTIME, "\"lu_cpu\" not implemented for '%s'",
                          ts_dtype_type_name(x->dtype));
    if (!rc && !pivot)
        rc = ts_error_set(err, TS_ERR_RUNTIME, "%s: LU without pivoting is not implemented on "
                          "the CPU", api);
    if (!rc) rc = ts_lap_load(x, x->dtype, -1, NULL, &a, err);
    if (!rc) rc = lu_all(&a, &piv, &infos, err);
    if (!rc && check)
        rc = info_error(err, "torch.linalg.lu_factor", x->dim > 2, infos, a.count, 3);
    int64_t k = a.rows < a.cols ? a.rows : a.cols;
    if (!rc && !(r[0] = ts_lap_store(&a, a.rows, a.cols, false, err)))
        rc = err->code;
    if (!rc && !(r[1] = int_tensor(&a, 1, &k, piv, err)))
        rc = err->code;
    if (!rc && !(r[2] = int_tensor(&a, 0, NULL, infos, err)))
        rc = err->code;
    ts_lap_free(&a);
    free(piv);
    free(infos);
    return rc;
}

/* P, L, U of an LU (..., m, n) and its int pivots; a NULL out is not made. */
static int lu_unpack(TsTensor *lu, TsTensor *pv, TsTensor **p, TsTensor **l, TsTensor **u,
                     TsError *err)
{
    TsLapBatch a = { 0 };
    int rc = ts_lap_check_matrix("lu_unpack", "LU_data", lu, err);
    if (!rc) rc = ts_lap_check_float("lu_unpack", lu, err);
    if (!rc) rc = ts_lap_load(lu, lu->dtype, -1, NULL, &a, err);
    if (rc)
        return rc;
    int64_t m = a.rows, n = a.cols, k = m < n ? m : n;
    int64_t ls[2] = { m, k }, us[2] = { k, n }, ps[2] = { m, m };
    if (l && !(*l = ts_lap_batch_tensor(&a, a.dtype, 2, ls, err)))
        rc = err->code;
    if (!rc && u && !(*u = ts_lap_batch_tensor(&a, a.dtype, 2, us, err)))
        rc = err->code;
    if (!rc && p && !(*p = ts_lap_batch_tensor(&a, a.dtype, 2, ps, err)))
        rc = err->code;
    if (!rc && p && ts_tensor_numel(pv) < a.count * k)
        rc = ts_error_set(err, TS_ERR_RUNTIME, "lu_unpack: LU_pivots has %lld elements, but "
                          "LU_data needs %lld", (long long)ts_tensor_numel(pv),
                          (long long)(a.count * k));
    TsTensor *pc = NULL;
    if (!rc && p && !(pc = ts_cpu_cast(pv, TS_INT64, err)))
        rc = err->code;
    int64_t *perm = rc ? NULL : malloc(sizeof(int64_t) * (size_t)(m + 1));
    if (!rc && !perm)
        rc = ts_error_set(err, TS_ERR_NOMEM, "linalg: out of memory");
    for (int64_t b = 0; !rc && b < a.count; b++) {
        const void *mat = ts_lap_mat(&a, b);
        if (l) {
            void *o = (char *)ts_tensor_data(*l) + (size_t)(b * m * k) * ts_dtype_size(a.dtype);
            for (int64_t i = 0; i < m; i++)
                for (int64_t j = 0; j < k; j++)
                    ts_lap_set(a.dtype, o, i * k + j,
                               i == j ? 1 : i > j ? ts_lap_get(a.dtype, mat, i + j * m) : 0);
        }
        if (u) {
            void *o = (char *)ts_tensor_data(*u) + (size_t)(b * k * n) * ts_dtype_size(a.dtype);
            for (int64_t i = 0; i < k; i++)
                for (int64_t j = 0; j < n; j++)
                    ts_lap_set(a.dtype, o, i * n + j, i <= j ? ts_lap_get(a.dtype, mat, i + j * m)
                                                            : 0);
        }
        if (p) {
            const int64_t *pi = (const int64_t *)ts_tensor_data(pc) + b * k;
            for (int64_t i = 0; i < m; i++)
                perm[i] = i;
            for (int64_t i = 0; i < k; i++) {
                int64_t j = pi[i] - 1;
                if (j < 0 || j >= m) {
                    rc = ts_error_set(err, TS_ERR_RUNTIME, "lu_unpack: pivot %lld is out of "
                                      "range for %lld rows", (long long)pi[i], (long long)m);
                    break;
                }
                int64_t t = perm[i];
                perm[i] = perm[j];
                perm[j] = t;
            }
            void *o = (char *)ts_tensor_data(*p) + (size_t)(b * m * m) * ts_dtype_size(a.dtype);
            memset(o, 0, (size_t)(m * m) * ts_dtype_size(a.dtype));
            for (int64_t i = 0; i < m && !rc; i++)
                ts_lap_set(a.dtype, o, perm[i] * m + i, 1.0);
        }
    }
    free(perm);
    if (pc)
        ts_tensor_release(pc);
    ts_lap_free(&a);
    return rc;
}

/* An empty tensor of dtype (lu_unpack's results it is told not to compute). */
static TsTensor *empty0(int dtype, TsError *err)
{
    int64_t z = 0;
    return ts_cpu_empty(dtype, 1, &z, err);
}

static void release_all(TsTensor **r, int n)
{
    for (int i = 0; i < n; i++)
        if (r[i]) {
            ts_tensor_release(r[i]);
            r[i] = NULL;
        }
}

static int lu_factor_call(TsCall *c, bool ex)
{
    TsArgs a;
    TsTensor *x, *r[3] = { NULL, NULL, NULL };
    bool pivot = true, check = !ex;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x);
    if (!rc) rc = ts_args_bool(&a, 1, &pivot);
    if (!rc && ex) rc = ts_args_bool(&a, 2, &check);
    if (!rc) rc = lu_factor(x, pivot, check, r, c->error);
    if (rc)
        release_all(r, 3);
    if (!ex && r[2]) {
        ts_tensor_release(r[2]);
        r[2] = NULL;
    }
    return ts_args_return_tensors(&a, rc, ex ? 3 : 2, r);
}

static int k_linalg_lu_factor(TsCall *c) { return lu_factor_call(c, false); }
static int k_linalg_lu_factor_ex(TsCall *c) { return lu_factor_call(c, true); }

/* linalg_lu(Tensor A, *, bool pivot=True) -> (Tensor P, Tensor L, Tensor U) */
static int k_linalg_lu(TsCall *c)
{
    TsArgs a;
    TsTensor *x, *f[3] = { NULL, NULL, NULL }, *r[3] = { NULL, NULL, NULL };
    bool pivot = true;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x);
    if (!rc) rc = ts_args_bool(&a, 1, &pivot);
    if (!rc) rc = lu_factor(x, pivot, false, f, c->error);
    if (!rc) rc = lu_unpack(f[0], f[1], &r[0], &r[1], &r[2], c->error);
    release_all(f, 3);
    if (rc)
        release_all(r, 3);
    return ts_args_return_tensors(&a, rc, 3, r);
}

/* lu_unpack(Tensor LU_data, Tensor LU_pivots, bool unpack_data=True, bool unpack_pivots=True)
 * -> (Tensor P, Tensor L, Tensor U) */
static int k_lu_unpack(TsCall *c)
{
    TsArgs a;
    TsTensor *lu, *pv, *r[3] = { NULL, NULL, NULL };
    bool data = true, pivots = true;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &lu);
    if (!rc) rc = ts_args_tensor(&a, 1, &pv);
    if (!rc) rc = ts_args_bool(&a, 2, &data);
    if (!rc) rc = ts_args_bool(&a, 3, &pivots);
    if (!rc)
        rc = lu_unpack(lu, pv, pivots ? &r[0] : NULL, data ? &r[1] : NULL, data ? &r[2] : NULL,
                       c->error);
    for (int i = 0; !rc && i < 3; i++)
        if (!r[i] && !(r[i] = empty0(lu->dtype, c->error)))
            rc = c->error->code;
    if (rc)
        release_all(r, 3);
    return ts_args_return_tensors(&a, rc, 3, r);
}

/* Solves with an LU and its pivots: A X = B (left) or X A = B, A^T for adjoint. */
static int lu_solve(TsTensor *lu, TsTensor *pv, TsTensor *y, bool left, bool adjoint,
                    TsTensor **out, TsError *err)
{
    const char *api = "linalg.lu_solve";
    TsLapBatch a = { 0 }, b = { 0 };
    bool vector;
    TsTensor *pc = NULL;
    int rc = ts_lap_check_square(api, lu, err);
    if (!rc) rc = check_same_dtype(api, lu, y, err);
    if (!rc)
        rc = load_rhs(api, left ? "AX = B" : "XA = B", lu, y, left, false, &a, &b, &vector, err);
    int64_t n = a.rows;
    if (!rc && pv->dtype != TS_INT32)
        rc = ts_error_set(err, TS_ERR_RUNTIME, "%s: Expected pivots to be integers. Got %s", api,
                          ts_dtype_type_name(pv->dtype));
    if (!rc && (pv->dim < 1 || pv->sizes[pv->dim - 1] != n))
        rc = ts_error_set(err, TS_ERR_RUNTIME, "%s: Incompatible shapes of pivots and LU: "
                          "pivots must have %lld elements per matrix", api, (long long)n);
    /* the pivots broadcast to the common batch, as a one-row matrix per element */
    TsLapBatch pb = { 0 };
    if (!rc) {
        TsTensor pvv = *pv;
        int64_t ps[TS_LAP_MAX_DIM + 2], st[TS_LAP_MAX_DIM + 2];
        if (pv->dim + 1 > TS_LAP_MAX_DIM + 2)
            rc = ts_error_set(err, TS_ERR_LIMIT, "linalg: too many dimensions");
        if (!rc) {
            memcpy(ps, pv->sizes, sizeof(int64_t) * (size_t)pv->dim);
            memcpy(st, pv->strides, sizeof(int64_t) * (size_t)pv->dim);
            ps[pv->dim] = 1;
            st[pv->dim] = 1;
            pvv.dim = pv->dim + 1;
            pvv.sizes = ps;
            pvv.strides = st;
            rc = ts_lap_load(&pvv, TS_FLOAT64, a.nb, a.bsizes, &pb, err);
        }
    }
    int *piv = rc ? NULL : malloc(sizeof(int) * (size_t)(a.count * n + 1));
    if (!rc && !piv)
        rc = ts_error_set(err, TS_ERR_NOMEM, "linalg: out of memory");
    for (int64_t i = 0; !rc && i < a.count * n; i++)
        piv[i] = (int)((double *)pb.data)[i];
    char trans = (left != adjoint) ? 'N' : 'T';
    if (!rc) rc = lu_solve_all(&a, piv, trans, &b, err);
    if (!rc && !(*out = store_rhs(&b, left, false, err)))
        rc = err->code;
    free(piv);
    ts_lap_free(&pb);
    ts_lap_free(&a);
    ts_lap_free(&b);
    if (pc)
        ts_tensor_release(pc);
    return rc;
}

/* linalg_lu_solve(Tensor LU, Tensor pivots, Tensor B, *, bool left=True, bool adjoint=False) */
static int k_linalg_lu_solve(TsCall *c)
{
    TsArgs a;
    TsTensor *lu, *pv, *y, *o = NULL;
    bool left = true, adjoint = false;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &lu);
    if (!rc) rc = ts_args_tensor(&a, 1, &pv);
    if (!rc) rc = ts_args_tensor(&a, 2, &y);
    if (!rc) rc = ts_args_bool(&a, 3, &left);
    if (!rc) rc = ts_args_bool(&a, 4, &adjoint);
    if (!rc) rc = lu_solve(lu, pv, y, left, adjoint, &o, c->error);
    return ts_args_return_tensor(&a, rc, o);
}

/* lu_solve(Tensor self, Tensor LU_data, Tensor LU_pivots) -> Tensor */
static int k_lu_solve(TsCall *c)
{
    TsArgs a;
    TsTensor *lu, *pv, *y, *o = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &y);
    if (!rc) rc = ts_args_tensor(&a, 1, &lu);
    if (!rc) rc = ts_args_tensor(&a, 2, &pv);
    if (!rc) rc = lu_solve(lu, pv, y, true, false, &o, c->error);
    return ts_args_return_tensor(&a, rc, o);
}

/* ---- Cholesky ----------------------------------------------------------------------- */

/* The factor of x (lower, or upper), the other triangle zeroed; infos. */
static int cholesky(const char *api, TsTensor *x, bool upper, bool check, TsTensor **r,
                    TsError *err)
{
    TsLapBatch a = { 0 };
    int rc = ts_lap_check_square(api, x, err);
    if (!rc) rc = ts_lap_load(x, x->dtype, -1, NULL, &a, err);
    int *infos = rc ? NULL : calloc((size_t)a.count + 1, sizeof(int));
    if (!rc && !infos)
        rc = ts_error_set(err, TS_ERR_NOMEM, "linalg: out of memory");
    int64_t n = a.rows;
    for (int64_t k = 0; !rc && k < a.count && n; k++) {
        void *m = ts_lap_mat(&a, k);
        rc = ts_lap_potrf(a.dtype, upper ? 'U' : 'L', (int)n, m, ld(n), &infos[k], err);
        for (int64_t i = 0; i < n; i++)
            for (int64_t j = 0; j < n; j++)
                if (upper ? i > j : i < j)
                    ts_lap_set(a.dtype, m, i + j * n, 0);
    }
    if (!rc && check)
        rc = info_error(err, api, x->dim > 2, infos, a.count, 2);
    if (!rc && !(r[0] = ts_lap_store(&a, n, n, false, err)))
        rc = err->code;
    if (!rc && !(r[1] = int_tensor(&a, 0, NULL, infos, err)))
        rc = err->code;
    free(infos);
    ts_lap_free(&a);
    return rc;
}

static int cholesky_call(TsCall *c, const char *api, bool ex)
{
    TsArgs a;
    TsTensor *x, *r[2] = { NULL, NULL };
    bool upper = false, check = !ex;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x);
    if (!rc) rc = ts_args_bool(&a, 1, &upper);
    if (!rc && ex) rc = ts_args_bool(&a, 2, &check);
    if (!rc) rc = cholesky(api, x, upper, check, r, c->error);
    if (rc)
        release_all(r, 2);
    if (!ex && r[1]) {
        ts_tensor_release(r[1]);
        r[1] = NULL;
    }
    return ex ? ts_args_return_tensors(&a, rc, 2, r) : ts_args_return_tensor(&a, rc, r[0]);
}

static int k_linalg_cholesky(TsCall *c) { return cholesky_call(c, "linalg.cholesky", false); }
static int k_linalg_cholesky_ex(TsCall *c) { return cholesky_call(c, "linalg.cholesky", true); }
static int k_cholesky(TsCall *c) { return cholesky_call(c, "cholesky", false); }

/* cholesky_solve(Tensor self, Tensor input2, bool upper=False): self is B, input2 the factor */
static int k_cholesky_solve(TsCall *c)
{
    TsArgs args;
    TsTensor *y, *x, *o = NULL;
    bool upper = false, vector;
    TsLapBatch a = { 0 }, b = { 0 };
    TsError *err = c->error;
    int rc = ts_args_pop(c, TS_DEV_CPU, &args);
    if (!rc) rc = ts_args_tensor(&args, 0, &y);
    if (!rc) rc = ts_args_tensor(&args, 1, &x);
    if (!rc) rc = ts_args_bool(&args, 2, &upper);
    if (!rc && y->dim < 2)
        rc = ts_error_set(err, TS_ERR_RUNTIME, "b should have at least 2 dimensions, but has "
                          "%d dimensions instead", y->dim);
    if (!rc && x->dim < 2)
        rc = ts_error_set(err, TS_ERR_RUNTIME, "u should have at least 2 dimensions, but has "
                          "%d dimensions instead", x->dim);
    if (!rc && x->sizes[x->dim - 1] != x->sizes[x->dim - 2])
        rc = ts_error_set(err, TS_ERR_RUNTIME, "A must be batches of square matrices, but they "
                          "are %lld by %lld matrices", (long long)x->sizes[x->dim - 2],
                          (long long)x->sizes[x->dim - 1]);
    if (!rc && x->sizes[x->dim - 1] != y->sizes[y->dim - 2])
        rc = ts_error_set(err, TS_ERR_RUNTIME, "Incompatible matrix sizes for cholesky_solve: "
                          "each A matrix is %lld by %lld but each b matrix is %lld by %lld",
                          (long long)x->sizes[x->dim - 2], (long long)x->sizes[x->dim - 1],
                          (long long)y->sizes[y->dim - 2], (long long)y->sizes[y->dim - 1]);
    if (!rc) rc = ts_lap_check_float("cholesky_solve", x, err);
    if (!rc) rc = check_same_dtype("cholesky_solve", x, y, err);
    if (!rc)
        rc = load_rhs("cholesky_solve", "AX = B", x, y, true, false, &a, &b, &vector, err);
    int info;
    for (int64_t k = 0; !rc && k < a.count && a.rows && b.cols; k++)
        rc = ts_lap_potrs(a.dtype, upper ? 'U' : 'L', (int)a.rows, (int)b.cols, ts_lap_mat(&a, k),
                          ld(a.rows), ts_lap_mat(&b, k), ld(a.rows), &info, err);
    if (!rc && !(o = ts_lap_store(&b, b.rows, b.cols, false, err)))
        rc = err->code;
    ts_lap_free(&a);
    ts_lap_free(&b);
    return ts_args_return_tensor(&args, rc, o);
}

/* cholesky_inverse(Tensor self, bool upper=False): (L L^T)^-1 from L, or (U^T U)^-1 */
static int k_cholesky_inverse(TsCall *c)
{
    TsArgs args;
    TsTensor *x, *o = NULL;
    bool upper = false;
    TsLapBatch a = { 0 };
    TsError *err = c->error;
    int rc = ts_args_pop(c, TS_DEV_CPU, &args);
    if (!rc) rc = ts_args_tensor(&args, 0, &x);
    if (!rc) rc = ts_args_bool(&args, 1, &upper);
    if (!rc) rc = ts_lap_check_square("cholesky_inverse", x, err);
    if (!rc) rc = ts_lap_load(x, x->dtype, -1, NULL, &a, err);
    int64_t n = a.rows;
    int info;
    for (int64_t k = 0; !rc && k < a.count && n; k++) {
        void *m = ts_lap_mat(&a, k);
        rc = ts_lap_potri(a.dtype, upper ? 'U' : 'L', (int)n, m, ld(n), &info, err);
        for (int64_t i = 0; i < n; i++)       /* potri fills one triangle: mirror it */
            for (int64_t j = 0; j < n; j++)
                if (upper ? i > j : i < j)
                    ts_lap_set(a.dtype, m, i + j * n, ts_lap_get(a.dtype, m, j + i * n));
    }
    if (!rc && !(o = ts_lap_store(&a, n, n, false, err)))
        rc = err->code;
    ts_lap_free(&a);
    return ts_args_return_tensor(&args, rc, o);
}

/* ---- triangular systems ------------------------------------------------------------- */

/* X of A X = B (left) or X A = B, A triangular (upper), A^T for trans. */
static int tri_solve(const char *api, TsTensor *x, TsTensor *y, bool upper, bool left,
                     bool trans, bool unit, TsTensor **out, TsError *err)
{
    TsLapBatch a = { 0 }, b = { 0 };
    int nb;
    int64_t bs[TS_LAP_MAX_DIM];
    int rc = ts_lap_check_square(api, x, err);
    if (!rc) rc = ts_lap_check_matrix(api, "B", y, err);
    if (!rc) rc = check_same_dtype(api, x, y, err);
    int64_t n = x->sizes[x->dim - 1];
    if (!rc && (left ? y->sizes[y->dim - 2] : y->sizes[y->dim - 1]) != n)
        rc = ts_error_set(err, TS_ERR_RUNTIME, "%s: Incompatible shapes of A and B for the "
                          "equation %s (%lldx%lld and %lldx%lld)", api, left ? "AX = B" : "XA = B",
                          (long long)n, (long long)n, (long long)y->sizes[y->dim - 2],
                          (long long)y->sizes[y->dim - 1]);
    if (!rc) rc = ts_lap_broadcast_batch(x, y, &nb, bs, err);
    if (!rc) rc = ts_lap_load(x, x->dtype, nb, bs, &a, err);
    if (!rc) rc = ts_lap_load(y, x->dtype, nb, bs, &b, err);
    for (int64_t k = 0; !rc && k < b.count && b.rows && b.cols; k++)
        rc = ts_lap_trsm(a.dtype, left ? 'L' : 'R', upper ? 'U' : 'L', trans ? 'T' : 'N',
                         unit ? 'U' : 'N', (int)b.rows, (int)b.cols, ts_lap_mat(&a, k), ld(n),
                         ts_lap_mat(&b, k), ld(b.rows), err);
    if (!rc && !(*out = ts_lap_store(&b, b.rows, b.cols, false, err)))
        rc = err->code;
    ts_lap_free(&a);
    ts_lap_free(&b);
    return rc;
}

/* linalg_solve_triangular(Tensor self, Tensor B, *, bool upper, bool left=True,
 * bool unitriangular=False) */
static int k_linalg_solve_triangular(TsCall *c)
{
    TsArgs a;
    TsTensor *x, *y, *o = NULL;
    bool upper, left, unit;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x);
    if (!rc) rc = ts_args_tensor(&a, 1, &y);
    if (!rc) rc = ts_args_bool(&a, 2, &upper);
    if (!rc) rc = ts_args_bool(&a, 3, &left);
    if (!rc) rc = ts_args_bool(&a, 4, &unit);
    if (!rc)
        rc = tri_solve("linalg.solve_triangular", x, y, upper, left, false, unit, &o, c->error);
    return ts_args_return_tensor(&a, rc, o);
}

/* triangular_solve(Tensor self, Tensor A, bool upper=True, bool transpose=False,
 * bool unitriangular=False) -> (Tensor solution, Tensor cloned_coefficient) */
static int k_triangular_solve(TsCall *c)
{
    TsArgs a;
    TsTensor *x, *y, *r[2] = { NULL, NULL };
    bool upper, trans, unit;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &y);
    if (!rc) rc = ts_args_tensor(&a, 1, &x);
    if (!rc) rc = ts_args_bool(&a, 2, &upper);
    if (!rc) rc = ts_args_bool(&a, 3, &trans);
    if (!rc) rc = ts_args_bool(&a, 4, &unit);
    if (!rc)
        rc = tri_solve("triangular_solve", x, y, upper, true, trans, unit, &r[0], c->error);
    if (!rc && !(r[1] = ts_cpu_cast(x, x->dtype, c->error)))
        rc = c->error->code;
    if (rc)
        release_all(r, 2);
    return ts_args_return_tensors(&a, rc, 2, r);
}

/* The inverse for the other files (linalg_extra.c: matrix_power, cond, tensorinv). */
int ts_lap_inverse(const char *api, TsTensor *x, bool check, TsTensor **out, TsTensor **info,
                   TsError *err)
{
    return inverse(api, x, check, out, info, err);
}

static const TsCpuOp ops[] = {
    { "aten::linalg_inv", "", k_linalg_inv },
    { "aten::linalg_inv_ex", "", k_linalg_inv_ex },
    { "aten::inverse", "", k_linalg_inv },
    { "aten::linalg_det", "", k_linalg_det },
    { "aten::det", "", k_linalg_det },
    { "aten::linalg_slogdet", "", k_linalg_slogdet },
    { "aten::slogdet", "", k_linalg_slogdet },
    { "aten::logdet", "", k_logdet },
    { "aten::linalg_solve", "", k_linalg_solve },
    { "aten::linalg_solve_ex", "", k_linalg_solve_ex },
    { "aten::linalg_lu_factor", "", k_linalg_lu_factor },
    { "aten::linalg_lu_factor_ex", "", k_linalg_lu_factor_ex },
    { "aten::linalg_lu", "", k_linalg_lu },
    { "aten::lu_unpack", "", k_lu_unpack },
    { "aten::linalg_lu_solve", "", k_linalg_lu_solve },
    { "aten::lu_solve", "", k_lu_solve },
    { "aten::linalg_cholesky", "", k_linalg_cholesky },
    { "aten::linalg_cholesky_ex", "", k_linalg_cholesky_ex },
    { "aten::cholesky", "", k_cholesky },
    { "aten::cholesky_solve", "", k_cholesky_solve },
    { "aten::cholesky_inverse", "", k_cholesky_inverse },
    { "aten::linalg_solve_triangular", "", k_linalg_solve_triangular },
    { "aten::triangular_solve", "", k_triangular_solve },
};

const TsCpuTable ts_cpu_decomp_table = { ops, sizeof ops / sizeof ops[0] };
