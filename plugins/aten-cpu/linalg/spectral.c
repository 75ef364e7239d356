/* spectral.c — torch.linalg's orthogonal factorizations on LAPACK (lapack.h): qr (geqrf,
 * orgqr), geqrf, householder_product/orgqr, svd and svdvals (gesdd, as PyTorch's CPU
 * default), eigh and eigvalsh (syevd), lstsq (gelsy by default, gels, gelsd, gelss), and what
 * the singular values give: pinv, matrix_rank (ts_lap_svals for linalg_extra.c's norms).
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linalg/lapack.h"

static int ld(int64_t n) { return n > 1 ? (int)n : 1; }

static void release_all(TsTensor **r, int n)
{
    for (int i = 0; i < n; i++)
        if (r[i]) {
            ts_tensor_release(r[i]);
            r[i] = NULL;
        }
}

static TsTensor *empty0(int dtype, TsError *err)
{
    int64_t z = 0;
    return ts_cpu_empty(dtype, 1, &z, err);
}

/* ---- QR ----------------------------------------------------------------------------- */

/* Q and R of x in mode 0 reduced, 1 complete, 2 r (Q empty). */
static int qr(const char *api, TsTensor *x, int mode, TsTensor **r, TsError *err)
{
    TsLapBatch a = { 0 }, q = { 0 };
    int rc = ts_lap_check_matrix(api, "A", x, err);
    if (!rc) rc = ts_lap_check_float(api, x, err);
    if (!rc) rc = ts_lap_load(x, x->dtype, -1, NULL, &a, err);
    if (rc)
        return rc;
    int64_t m = a.rows, n = a.cols, k = m < n ? m : n;
    int64_t qc = mode == 1 ? m : k;            /* Q's columns, R's rows */
    void *tau = malloc((size_t)(k + 1) * 8);
    if (!tau)
        rc = ts_error_set(err, TS_ERR_NOMEM, "linalg: out of memory");
    if (!rc && mode != 2) rc = ts_lap_new(&a, m, qc > n ? qc : n, &q, err);
    int64_t rs[2] = { qc, n };
    if (!rc && !(r[1] = ts_lap_batch_tensor(&a, a.dtype, 2, rs, err)))
        rc = err->code;
    size_t es = ts_dtype_size(a.dtype);
    int info;
    for (int64_t b = 0; !rc && b < a.count; b++) {
        void *mat = ts_lap_mat(&a, b);
        if (m && n)
            rc = ts_lap_geqrf(a.dtype, (int)m, (int)n, mat, ld(m), tau, &info, err);
        void *o = (char *)ts_tensor_data(r[1]) + (size_t)(b * qc * n) * es;
        for (int64_t i = 0; i < qc; i++)
            for (int64_t j = 0; j < n; j++)
                ts_lap_set(a.dtype, o, i * n + j, i <= j ? ts_lap_get(a.dtype, mat, i + j * m) : 0);
        if (rc || mode == 2)
            continue;
        void *qm = ts_lap_mat(&q, b);
        memcpy(qm, mat, (size_t)(m * n) * es);
        if (m && qc)
            rc = ts_lap_orgqr(a.dtype, (int)m, (int)qc, (int)k, qm, ld(m), tau, &info, err);
    }
    if (!rc && mode != 2 && !(r[0] = ts_lap_store(&q, m, qc, false, err)))
        rc = err->code;
    if (!rc && mode == 2 && !(r[0] = empty0(a.dtype, err)))
        rc = err->code;
    free(tau);
    ts_lap_free(&a);
    ts_lap_free(&q);
    return rc;
}

/* linalg_qr(Tensor A, str mode="reduced") -> (Tensor Q, Tensor R) */
static int k_linalg_qr(TsCall *c)
{
    TsArgs a;
    TsTensor *x, *r[2] = { NULL, NULL };
    const TsStr *mode;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x);
    if (!rc) rc = ts_args_str(&a, 1, &mode);
    int m = -1;
    if (!rc)
        m = !strcmp(mode->data, "reduced") ? 0 : !strcmp(mode->data, "complete") ? 1
          : !strcmp(mode->data, "r") ? 2 : -1;
    if (!rc && m < 0)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "qr received unrecognized mode '%s' but "
                          "expected one of 'reduced' (default), 'r', or 'complete'", mode->data);
    if (!rc) rc = qr("linalg.qr", x, m, r, c->error);
    if (rc)
        release_all(r, 2);
    return ts_args_return_tensors(&a, rc, 2, r);
}

/* qr(Tensor self, bool some=True) -> (Tensor Q, Tensor R) */
static int k_qr(TsCall *c)
{
    TsArgs a;
    TsTensor *x, *r[2] = { NULL, NULL };
    bool some = true;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x);
    if (!rc) rc = ts_args_bool(&a, 1, &some);
    if (!rc) rc = qr("linalg.qr", x, some ? 0 : 1, r, c->error);
    if (rc)
        release_all(r, 2);
    return ts_args_return_tensors(&a, rc, 2, r);
}

/* geqrf(Tensor self) -> (Tensor a, Tensor tau) */
static int k_geqrf(TsCall *c)
{
    TsArgs args;
    TsTensor *x, *r[2] = { NULL, NULL };
    TsLapBatch a = { 0 }, t = { 0 };
    TsError *err = c->error;
    int rc = ts_args_pop(c, TS_DEV_CPU, &args);
    if (!rc) rc = ts_args_tensor(&args, 0, &x);
    if (!rc) rc = ts_lap_check_matrix("geqrf", "A", x, err);
    if (!rc) rc = ts_lap_check_float("geqrf", x, err);
    if (!rc) rc = ts_lap_load(x, x->dtype, -1, NULL, &a, err);
    int64_t k = a.rows < a.cols ? a.rows : a.cols;
    if (!rc) rc = ts_lap_new(&a, k, 1, &t, err);
    int info;
    for (int64_t b = 0; !rc && b < a.count && k; b++)
        rc = ts_lap_geqrf(a.dtype, (int)a.rows, (int)a.cols, ts_lap_mat(&a, b), ld(a.rows),
                          ts_lap_mat(&t, b), &info, err);
    if (!rc && !(r[0] = ts_lap_store(&a, a.rows, a.cols, false, err)))
        rc = err->code;
    if (!rc && !(r[1] = ts_lap_store(&t, k, 1, true, err)))
        rc = err->code;
    if (rc)
        release_all(r, 2);
    ts_lap_free(&a);
    ts_lap_free(&t);
    return ts_args_return_tensors(&args, rc, 2, r);
}

/* householder_product(Tensor input, Tensor tau) and orgqr(Tensor self, Tensor input2): the
 * first n columns of the product of the reflectors. */
static int k_householder_product(TsCall *c)
{
    const char *api = "torch.linalg.householder_product";
    TsArgs args;
    TsTensor *x, *y, *o = NULL;
    TsLapBatch a = { 0 }, t = { 0 };
    TsError *err = c->error;
    int rc = ts_args_pop(c, TS_DEV_CPU, &args);
    if (!rc) rc = ts_args_tensor(&args, 0, &x);
    if (!rc) rc = ts_args_tensor(&args, 1, &y);
    if (!rc && x->dim < 2)
        rc = ts_error_set(err, TS_ERR_RUNTIME, "%s: input must have at least 2 dimensions.",
                          api);
    if (!rc && x->sizes[x->dim - 2] < x->sizes[x->dim - 1])
        rc = ts_error_set(err, TS_ERR_RUNTIME, "%s: input.shape[-2] must be greater than or "
                          "equal to input.shape[-1]", api);
    if (!rc && (y->dim < 1 || x->sizes[x->dim - 1] < y->sizes[y->dim - 1]))
        rc = ts_error_set(err, TS_ERR_RUNTIME, "%s: input.shape[-1] must be greater than or "
                          "equal to tau.shape[-1]", api);
    if (!rc && y->dim != x->dim - 1)
        rc = ts_error_set(err, TS_ERR_RUNTIME, "%s: Expected tau to have one dimension less "
                          "than input, but got tau.ndim equal to %d and input.ndim is equal to "
                          "%d", api, y->dim, x->dim);
    if (!rc) rc = ts_lap_check_float(api, x, err);
    if (!rc && x->dtype != y->dtype)
        rc = ts_error_set(err, TS_ERR_RUNTIME, "%s: tau dtype %s does not match input dtype %s",
                          api, ts_dtype_type_name(y->dtype), ts_dtype_type_name(x->dtype));
    if (!rc) rc = ts_lap_load(x, x->dtype, -1, NULL, &a, err);
    if (!rc) {    /* tau as a column per batch element */
        TsTensor tv = *y;
        int64_t ts[TS_LAP_MAX_DIM + 2], st[TS_LAP_MAX_DIM + 2];
        memcpy(ts, y->sizes, sizeof(int64_t) * (size_t)y->dim);
        memcpy(st, y->strides, sizeof(int64_t) * (size_t)y->dim);
        ts[y->dim] = 1;
        st[y->dim] = 1;
        tv.dim = y->dim + 1;
        tv.sizes = ts;
        tv.strides = st;
        rc = ts_lap_load(&tv, x->dtype, a.nb, a.bsizes, &t, err);
    }
    int info;
    for (int64_t b = 0; !rc && b < a.count && a.rows && a.cols; b++)
        rc = ts_lap_orgqr(a.dtype, (int)a.rows, (int)a.cols, (int)t.rows, ts_lap_mat(&a, b),
                          ld(a.rows), ts_lap_mat(&t, b), &info, err);
    if (!rc && !(o = ts_lap_store(&a, a.rows, a.cols, false, err)))
        rc = err->code;
    ts_lap_free(&a);
    ts_lap_free(&t);
    return ts_args_return_tensor(&args, rc, o);
}

/* ---- SVD ---------------------------------------------------------------------------- */

/* The SVD of each matrix of a (destroyed): s (k x 1 per element); with uv, u (m x uc) and
 * vt (vr x n), uc = vr = full ? m/n : k. */
static int svd_batch(TsLapBatch *a, bool uv, bool full, TsLapBatch *u, TsLapBatch *s,
                     TsLapBatch *vt, TsError *err)
{
    int64_t m = a->rows, n = a->cols, k = m < n ? m : n;
    int64_t uc = full ? m : k, vr = full ? n : k;
    if (ts_lap_new(a, k, 1, s, err))
        return err->code;
    if (uv && (ts_lap_new(a, m, uc, u, err) || ts_lap_new(a, vr, n, vt, err)))
        return err->code;
    char jobz = uv ? (full ? 'A' : 'S') : 'N';
    int info;
    double dummy[2];
    for (int64_t b = 0; b < a->count; b++) {
        if (!k) {     /* nothing to factor: U and V^T of an empty side are identities */
            for (int64_t i = 0; uv && i < uc && i < m; i++)
                ts_lap_set(a->dtype, ts_lap_mat(u, b), i + i * m, 1);
            for (int64_t i = 0; uv && i < vr && i < n; i++)
                ts_lap_set(a->dtype, ts_lap_mat(vt, b), i + i * vr, 1);
            continue;
        }
        if (ts_lap_gesdd(a->dtype, jobz, (int)m, (int)n, ts_lap_mat(a, b), ld(m),
                         ts_lap_mat(s, b), uv ? ts_lap_mat(u, b) : dummy, ld(m),
                         uv ? ts_lap_mat(vt, b) : dummy, ld(vr), &info, err))
            return err->code;
        if (info > 0)
            return ts_error_set(err, TS_ERR_RUNTIME, "linalg.svd: The algorithm failed to "
                                "converge because the input matrix is ill-conditioned or has "
                                "too many repeated singular values (error code: %d).", info);
    }
    return 0;
}

/* The singular values of x as a batch of k x 1 (norms, cond: linalg_extra.c). */
int ts_lap_svals(const char *api, TsTensor *x, TsLapBatch *s, TsError *err)
{
    TsLapBatch a = { 0 };
    memset(s, 0, sizeof *s);
    int rc = ts_lap_check_matrix(api, "A", x, err);
    if (!rc) rc = ts_lap_check_float(api, x, err);
    if (!rc) rc = ts_lap_load(x, x->dtype, -1, NULL, &a, err);
    if (!rc) rc = svd_batch(&a, false, false, NULL, s, NULL, err);
    ts_lap_free(&a);
    return rc;
}

/* U, S, Vh of x (V for old, as torch.svd gives it); uv false: S alone. */
static int svd(TsTensor *x, bool full, bool uv, bool old, TsTensor **r, TsError *err)
{
    const char *api = "linalg.svd";
    TsLapBatch a = { 0 }, u = { 0 }, s = { 0 }, vt = { 0 };
    int rc = ts_lap_check_matrix(api, "A", x, err);
    if (!rc) rc = ts_lap_check_float(api, x, err);
    if (!rc) rc = ts_lap_load(x, x->dtype, -1, NULL, &a, err);
    if (!rc) rc = svd_batch(&a, uv, full, &u, &s, &vt, err);
    if (!rc && !(r[1] = ts_lap_store(&s, s.rows, 1, true, err)))
        rc = err->code;
    if (!rc && uv && !(r[0] = ts_lap_store(&u, u.rows, u.cols, false, err)))
        rc = err->code;
    if (!rc && uv && old) {     /* V = Vh^T: store vt's transpose */
        int64_t vs[2] = { vt.cols, vt.rows };
        if (!(r[2] = ts_lap_batch_tensor(&vt, vt.dtype, 2, vs, err)))
            rc = err->code;
        for (int64_t b = 0; !rc && b < vt.count; b++) {
            void *o = (char *)ts_tensor_data(r[2]) +
                      (size_t)(b * vt.rows * vt.cols) * ts_dtype_size(vt.dtype);
            for (int64_t i = 0; i < vt.cols; i++)
                for (int64_t j = 0; j < vt.rows; j++)
                    ts_lap_set(vt.dtype, o, i * vt.rows + j,
                               ts_lap_get(vt.dtype, ts_lap_mat(&vt, b), j + i * vt.rows));
        }
    } else if (!rc && uv && !(r[2] = ts_lap_store(&vt, vt.rows, vt.cols, false, err)))
        rc = err->code;
    ts_lap_free(&a);
    ts_lap_free(&u);
    ts_lap_free(&s);
    ts_lap_free(&vt);
    return rc;
}

/* linalg_svd(Tensor A, bool full_matrices=True, *, str? driver=None) */
static int k_linalg_svd(TsCall *c)
{
    TsArgs a;
    TsTensor *x, *r[3] = { NULL, NULL, NULL };
    bool full = true;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x);
    if (!rc) rc = ts_args_bool(&a, 1, &full);
    if (!rc && a.v[2].tag != TS_TAG_NONE)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "torch.linalg.svd: keyword argument "
                          "`driver=` is only supported on CUDA inputs with cuSOLVER backend.");
    if (!rc) rc = svd(x, full, true, false, r, c->error);
    if (rc)
        release_all(r, 3);
    return ts_args_return_tensors(&a, rc, 3, r);
}

/* linalg_svdvals(Tensor A, *, str? driver=None) */
static int k_linalg_svdvals(TsCall *c)
{
    TsArgs a;
    TsTensor *x, *r[3] = { NULL, NULL, NULL };
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x);
    if (!rc && a.v[1].tag != TS_TAG_NONE)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "torch.linalg.svd: keyword argument "
                          "`driver=` is only supported on CUDA inputs with cuSOLVER backend.");
    if (!rc) rc = svd(x, false, false, false, r, c->error);
    return ts_args_return_tensor(&a, rc, r[1]);
}

/* svd(Tensor self, bool some=True, bool compute_uv=True) -> (Tensor U, Tensor S, Tensor V) */
static int k_svd(TsCall *c)
{
    TsArgs a;
    TsTensor *x, *r[3] = { NULL, NULL, NULL };
    bool some = true, uv = true;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x);
    if (!rc) rc = ts_args_bool(&a, 1, &some);
    if (!rc) rc = ts_args_bool(&a, 2, &uv);
    if (!rc) rc = svd(x, !some, uv, true, r, c->error);
    if (!rc && !uv) {   /* zero-filled U (m x m) and V (n x n) */
        int64_t m = x->sizes[x->dim - 2], n = x->sizes[x->dim - 1];
        int64_t sz[TS_LAP_MAX_DIM + 2];
        memcpy(sz, x->sizes, sizeof(int64_t) * (size_t)x->dim);
        sz[x->dim - 1] = m;
        if (!(r[0] = ts_cpu_empty(x->dtype, x->dim, sz, c->error)))
            rc = c->error->code;
        sz[x->dim - 2] = sz[x->dim - 1] = n;
        if (!rc && !(r[2] = ts_cpu_empty(x->dtype, x->dim, sz, c->error)))
            rc = c->error->code;
        for (int i = 0; !rc && i < 3; i += 2)
            memset(ts_tensor_data(r[i]), 0, (size_t)ts_tensor_numel(r[i]) * ts_dtype_size(x->dtype));
    }
    if (rc)
        release_all(r, 3);
    return ts_args_return_tensors(&a, rc, 3, r);
}

/* ---- eigh --------------------------------------------------------------------------- */

/* Eigenvalues w (n x 1 per element) and, with vectors, the eigenvectors in place of a. */
static int eigh_batch(const char *api, TsTensor *x, const char *uplo, bool vectors,
                      TsLapBatch *a, TsLapBatch *w, TsError *err)
{
    memset(w, 0, sizeof *w);
    int rc = ts_lap_check_square(api, x, err);
    if (!rc && strcmp(uplo, "L") && strcmp(uplo, "U") && strcmp(uplo, "l") && strcmp(uplo, "u"))
        rc = ts_error_set(err, TS_ERR_RUNTIME, "Expected UPLO argument to be 'L' or 'U', but got "
                          "%s", uplo);
    if (!rc) rc = ts_lap_load(x, x->dtype, -1, NULL, a, err);
    if (!rc) rc = ts_lap_new(a, a->rows, 1, w, err);
    int info;
    for (int64_t b = 0; !rc && b < a->count && a->rows; b++) {
        rc = ts_lap_syevd(a->dtype, vectors ? 'V' : 'N', (char)(uplo[0] & ~0x20), (int)a->rows,
                          ts_lap_mat(a, b), ld(a->rows), ts_lap_mat(w, b), &info, err);
        if (!rc && info > 0)
            rc = ts_error_set(err, TS_ERR_RUNTIME, "%s: %sThe algorithm failed to converge "
                              "because the input matrix is ill-conditioned or has too many "
                              "repeated eigenvalues (error code: %d).", api, "", info);
    }
    return rc;
}

static int eigh_call(TsCall *c, bool vectors)
{
    TsArgs args;
    TsTensor *x, *r[2] = { NULL, NULL };
    const TsStr *uplo;
    TsLapBatch a = { 0 }, w = { 0 };
    const char *api = vectors ? "linalg.eigh" : "linalg.eigvalsh";
    int rc = ts_args_pop(c, TS_DEV_CPU, &args);
    if (!rc) rc = ts_args_tensor(&args, 0, &x);
    if (!rc) rc = ts_args_str(&args, 1, &uplo);
    if (!rc) rc = eigh_batch(api, x, uplo->data, vectors, &a, &w, c->error);
    if (!rc && !(r[0] = ts_lap_store(&w, w.rows, 1, true, c->error)))
        rc = c->error->code;
    if (!rc && vectors && !(r[1] = ts_lap_store(&a, a.rows, a.cols, false, c->error)))
        rc = c->error->code;
    ts_lap_free(&a);
    ts_lap_free(&w);
    if (rc)
        release_all(r, 2);
    return vectors ? ts_args_return_tensors(&args, rc, 2, r) : ts_args_return_tensor(&args, rc, r[0]);
}

static int k_linalg_eigh(TsCall *c) { return eigh_call(c, true); }
static int k_linalg_eigvalsh(TsCall *c) { return eigh_call(c, false); }

/* ---- lstsq -------------------------------------------------------------------------- */

/* linalg_lstsq(Tensor self, Tensor b, float? rcond=None, *, str? driver=None)
 * -> (Tensor solution, Tensor residuals, Tensor rank, Tensor singular_values) */
static int k_linalg_lstsq(TsCall *c)
{
    const char *api = "torch.linalg.lstsq";
    TsArgs args;
    TsTensor *x, *y, *r[4] = { NULL, NULL, NULL, NULL };
    TsLapBatch a = { 0 }, b = { 0 }, s = { 0 };
    TsError *err = c->error;
    int driver = 1;
    int *ranks = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &args);
    if (!rc) rc = ts_args_tensor(&args, 0, &x);
    if (!rc) rc = ts_args_tensor(&args, 1, &y);
    if (!rc && args.v[3].tag != TS_TAG_NONE) {
        const TsStr *d;
        rc = ts_args_str(&args, 3, &d);
        driver = rc ? 0 : !strcmp(d->data, "gels") ? 0 : !strcmp(d->data, "gelsy") ? 1
               : !strcmp(d->data, "gelsd") ? 2 : !strcmp(d->data, "gelss") ? 3 : -1;
        if (!rc && driver < 0)
            rc = ts_error_set(err, TS_ERR_RUNTIME, "%s: parameter `driver` should be one of "
                              "(gels, gelsy, gelsd, gelss)", api);
    }
    if (!rc) rc = ts_lap_check_matrix(api, "A", x, err);
    if (!rc && y->dim < 1)
        rc = ts_error_set(err, TS_ERR_RUNTIME, "%s: input must have at least 1 dimension.", api);
    if (!rc) rc = ts_lap_check_float(api, x, err);
    if (!rc && x->dtype != y->dtype)
        rc = ts_error_set(err, TS_ERR_RUNTIME, "%s: Expected input and other to have the same "
                          "dtype, but got input's dtype %s and other's dtype %s", api,
                          ts_dtype_type_name(x->dtype), ts_dtype_type_name(y->dtype));
    bool vector = false;
    if (!rc) {
        vector = y->dim == 1 || y->dim == x->dim - 1;
        int64_t yr = y->sizes[y->dim - (vector ? 1 : 2)];
        if (yr != x->sizes[x->dim - 2])
            rc = ts_error_set(err, TS_ERR_RUNTIME, vector ? "%s: input.size(-2) should match "
                              "other.size(-1) when other is a vector" : "%s: input.size(-2) "
                              "should match other.size(-2)", api);
    }
    TsTensor yv;
    int64_t ys[TS_LAP_MAX_DIM + 2], st[TS_LAP_MAX_DIM + 2];
    if (!rc) {
        yv = *y;
        if (vector) {
            memcpy(ys, y->sizes, sizeof(int64_t) * (size_t)y->dim);
            memcpy(st, y->strides, sizeof(int64_t) * (size_t)y->dim);
            ys[y->dim] = 1;
            st[y->dim] = 1;
            yv.dim = y->dim + 1;
            yv.sizes = ys;
            yv.strides = st;
        }
    }
    int nb;
    int64_t bs[TS_LAP_MAX_DIM];
    if (!rc) rc = ts_lap_broadcast_batch(x, &yv, &nb, bs, err);
    if (!rc) rc = ts_lap_load(x, x->dtype, nb, bs, &a, err);
    TsLapBatch bl = { 0 };
    if (!rc) rc = ts_lap_load(&yv, x->dtype, nb, bs, &bl, err);
    int64_t m = a.rows, n = a.cols, k = bl.cols, mx = m > n ? m : n, mn = m < n ? m : n;
    if (!rc) rc = ts_lap_new(&a, mx, k, &b, err);
    for (int64_t e = 0; !rc && e < b.count; e++)
        for (int64_t j = 0; j < k; j++)
            for (int64_t i = 0; i < m; i++)
                ts_lap_set(b.dtype, ts_lap_mat(&b, e), i + j * mx,
                           ts_lap_get(b.dtype, ts_lap_mat(&bl, e), i + j * m));
    ts_lap_free(&bl);
    double rcond = (x->dtype == TS_FLOAT64 ? DBL_EPSILON : FLT_EPSILON) * (double)mx;
    if (!rc && args.v[2].tag != TS_TAG_NONE) rc = ts_args_float(&args, 2, &rcond);
    if (!rc) rc = ts_lap_new(&a, mn, 1, &s, err);
    if (!rc && !(ranks = calloc((size_t)a.count + 1, sizeof(int))))
        rc = ts_error_set(err, TS_ERR_NOMEM, "linalg: out of memory");
    int info;
    for (int64_t e = 0; !rc && e < a.count && m && n; e++) {
        rc = ts_lap_lstsq(a.dtype, driver, (int)m, (int)n, (int)k, ts_lap_mat(&a, e), ld(m),
                          ts_lap_mat(&b, e), ld(mx), rcond, &ranks[e], ts_lap_mat(&s, e), &info,
                          err);
        if (!rc && info > 0)
            rc = ts_error_set(err, TS_ERR_RUNTIME, driver == 0 ? "%s: The least squares "
                              "solution could not be computed because the input matrix does not "
                              "have full rank (error code: %d)." : "%s: The algorithm failed "
                              "to converge because the input matrix is ill-conditioned or has "
                              "too many repeated singular values (error code: %d).", api, info);
    }
    /* the solution: the first n rows of b */
    if (!rc && !(r[0] = ts_lap_store(&b, n, k, vector, err)))
        rc = err->code;
    bool resid = !rc && m > n && driver != 1;
    for (int64_t e = 0; resid && (driver == 2 || driver == 3) && e < a.count; e++)
        resid = ranks[e] == n;
    if (!rc && resid) {
        int64_t ex[1] = { k };
        if (!(r[1] = ts_lap_batch_tensor(&b, b.dtype, vector ? 0 : 1, ex, err)))
            rc = err->code;
        for (int64_t e = 0; !rc && e < b.count; e++)
            for (int64_t j = 0; j < k; j++) {
                double acc = 0;
                for (int64_t i = n; i < m; i++) {
                    double v = ts_lap_get(b.dtype, ts_lap_mat(&b, e), i + j * mx);
                    acc += v * v;
                }
                ts_lap_set(b.dtype, ts_tensor_data(r[1]), e * k + j, acc);
            }
    } else if (!rc && !(r[1] = empty0(x->dtype, err)))
        rc = err->code;
    if (!rc && driver != 0) {
        if (!(r[2] = ts_lap_batch_tensor(&a, TS_INT64, 0, NULL, err)))
            rc = err->code;
        for (int64_t e = 0; !rc && e < a.count; e++)
            ((int64_t *)ts_tensor_data(r[2]))[e] = m && n ? ranks[e] : 0;
    } else if (!rc && !(r[2] = empty0(TS_INT64, err)))
        rc = err->code;
    if (!rc && (driver == 2 || driver == 3)) {
        if (!(r[3] = ts_lap_store(&s, mn, 1, true, err)))
            rc = err->code;
    } else if (!rc && !(r[3] = empty0(x->dtype, err)))
        rc = err->code;
    free(ranks);
    ts_lap_free(&a);
    ts_lap_free(&b);
    ts_lap_free(&s);
    if (rc)
        release_all(r, 4);
    return ts_args_return_tensors(&args, rc, 4, r);
}

/* ---- pinv, matrix_rank --------------------------------------------------------------- */

/* The tolerances: atol and rtol given as None (NAN here), a number, or a tensor (one per batch
 * element, or one for all). */
typedef struct Tol {
    double atol, rtol;
    const TsTensor *atol_t, *rtol_t;
} Tol;

static double tol_at(double v, const TsTensor *t, int64_t e)
{
    if (!t)
        return v;
    int64_t n = ts_tensor_numel(t);
    TsTensor *tt = (TsTensor *)t;
    const char *p = ts_tensor_data(tt);
    if (!n)
        return 0;
    /* element e of a contiguous tolerance tensor, or its single value */
    return ts_cpu_load_double(t->dtype, p + (size_t)(n == 1 ? 0 : e % n) * ts_dtype_size(t->dtype));
}

/* The threshold for element e with largest singular value smax. */
static double threshold(const Tol *t, int64_t e, double smax, int64_t m, int64_t n, int dtype)
{
    bool has_a = !isnan(t->atol) || t->atol_t, has_r = !isnan(t->rtol) || t->rtol_t;
    double atol = has_a ? tol_at(t->atol, t->atol_t, e) : 0;
    double rtol;
    if (has_r)
        rtol = tol_at(t->rtol, t->rtol_t, e);
    else if (has_a && atol > 0)
        rtol = 0;
    else
        rtol = (dtype == TS_FLOAT64 ? DBL_EPSILON : FLT_EPSILON) * (double)(m > n ? m : n);
    double r = rtol * smax;
    return atol > r ? atol : r;
}

/* Reads pinv's and matrix_rank's tolerance arguments by overload: 0 (self, float tol|rcond,
 * hermitian): rtol (pinv) or atol (rank); 1 atol/rtol floats; 2 atol/rtol tensors; 3 (self,
 * Tensor tol|rcond, hermitian). */
static int read_tol(TsArgs *a, int form, bool rank, Tol *t, bool *herm)
{
    t->atol = t->rtol = NAN;
    t->atol_t = t->rtol_t = NULL;
    int rc = 0;
    if (form == 0 || form == 3) {
        double v = NAN;
        TsTensor *tt = NULL;
        rc = form == 0 ? ts_args_float(a, 1, &v) : ts_args_tensor(a, 1, &tt);
        if (rank) {
            t->atol = v;
            t->atol_t = tt;
            t->rtol = 0;
        } else {
            t->rtol = v;
            t->rtol_t = tt;
            t->atol = 0;
        }
        if (!rc) rc = ts_args_bool(a, 2, herm);
    } else {
        for (int i = 0; !rc && i < 2; i++) {
            if (a->v[1 + i].tag == TS_TAG_NONE)
                continue;
            if (form == 1)
                rc = ts_args_float(a, (size_t)(1 + i), i ? &t->rtol : &t->atol);
            else {
                TsTensor *tt;
                rc = ts_args_tensor(a, (size_t)(1 + i), &tt);
                *(i ? &t->rtol_t : &t->atol_t) = tt;
            }
        }
        if (!rc) rc = ts_args_bool(a, 3, herm);
    }
    return rc;
}

/* pinv (rank false) or matrix_rank of x. */
static int pinv_rank(TsCall *c, int form, bool rank)
{
    TsArgs args;
    TsTensor *x, *o = NULL;
    Tol tol;
    bool herm = false;
    TsError *err = c->error;
    TsLapBatch a = { 0 }, u = { 0 }, s = { 0 }, vt = { 0 }, p = { 0 };
    int rc = ts_args_pop(c, TS_DEV_CPU, &args);
    if (!rc) rc = ts_args_tensor(&args, 0, &x);
    if (!rc) rc = read_tol(&args, form, rank, &tol, &herm);
    if (!rc && (x->dim < 2 || (x->dtype != TS_FLOAT32 && x->dtype != TS_FLOAT64))) {
        char shape[256];
        int at = 0;
        for (int i = 0; i < x->dim && at < 200; i++)
            at += snprintf(shape + at, sizeof shape - (size_t)at, "%s%lld", i ? ", " : "",
                           (long long)x->sizes[i]);
        shape[at] = 0;
        rc = ts_error_set(err, TS_ERR_RUNTIME, "%s(%s{[%s]}): expected a tensor with 2 or more "
                          "dimensions of float, double, cfloat or cdouble types",
                          rank ? "torch.linalg.matrix_rank" : "linalg.pinv",
                          ts_dtype_type_name(x->dtype), shape);
    }
    if (!rc && herm) {
        rc = eigh_batch(rank ? "linalg.matrix_rank" : "linalg.pinv", x, "L", !rank, &a, &s, err);
    } else if (!rc) {
        rc = ts_lap_load(x, x->dtype, -1, NULL, &a, err);
        if (!rc) rc = svd_batch(&a, !rank, false, &u, &s, &vt, err);
    }
    int64_t m = x->dim >= 2 ? x->sizes[x->dim - 2] : 0, n = x->dim >= 2 ? x->sizes[x->dim - 1] : 0;
    int64_t k = s.rows;
    if (!rc && rank) {
        if (!(o = ts_lap_batch_tensor(&s, TS_INT64, 0, NULL, err)))
            rc = err->code;
        for (int64_t e = 0; !rc && e < s.count; e++) {
            double smax = 0;
            for (int64_t i = 0; i < k; i++)
                smax = fmax(smax, fabs(ts_lap_get(s.dtype, ts_lap_mat(&s, e), i)));
            double th = threshold(&tol, e, smax, m, n, s.dtype);
            int64_t cnt = 0;
            for (int64_t i = 0; i < k; i++)
                cnt += fabs(ts_lap_get(s.dtype, ts_lap_mat(&s, e), i)) > th;
            ((int64_t *)ts_tensor_data(o))[e] = cnt;
        }
    } else if (!rc) {
        /* pinv = V diag(1/s) U^T (svd), V diag(1/w) V^T (eigh, vectors in a) */
        if (!(rc = ts_lap_new(&s, n, m, &p, err))) {
            for (int64_t e = 0; e < s.count; e++) {
                const void *sv = ts_lap_mat(&s, e);
                double smax = 0;
                for (int64_t i = 0; i < k; i++)
                    smax = fmax(smax, fabs(ts_lap_get(s.dtype, sv, i)));
                double th = threshold(&tol, e, smax, m, n, s.dtype);
                void *pm = ts_lap_mat(&p, e);
                for (int64_t l = 0; l < k; l++) {
                    double sl = ts_lap_get(s.dtype, sv, l);
                    if (!(fabs(sl) > th))
                        continue;
                    double inv = 1 / sl;
                    for (int64_t j = 0; j < m; j++) {
                        double uj = herm ? ts_lap_get(a.dtype, ts_lap_mat(&a, e), j + l * m)
                                         : ts_lap_get(u.dtype, ts_lap_mat(&u, e), j + l * m);
                        if (uj == 0)
                            continue;
                        for (int64_t i = 0; i < n; i++) {
                            double vi = herm ? ts_lap_get(a.dtype, ts_lap_mat(&a, e), i + l * n)
                                             : ts_lap_get(vt.dtype, ts_lap_mat(&vt, e), l + i * k);
                            ts_lap_set(p.dtype, pm, i + j * n,
                                       ts_lap_get(p.dtype, pm, i + j * n) + vi * inv * uj);
                        }
                    }
                }
            }
            if (!(o = ts_lap_store(&p, n, m, false, err)))
                rc = err->code;
        }
    }
    ts_lap_free(&a);
    ts_lap_free(&u);
    ts_lap_free(&s);
    ts_lap_free(&vt);
    ts_lap_free(&p);
    return ts_args_return_tensor(&args, rc, o);
}

static int k_pinv(TsCall *c) { return pinv_rank(c, 0, false); }
static int k_pinv_atol_rtol_float(TsCall *c) { return pinv_rank(c, 1, false); }
static int k_pinv_atol_rtol_tensor(TsCall *c) { return pinv_rank(c, 2, false); }
static int k_pinv_rcond_tensor(TsCall *c) { return pinv_rank(c, 3, false); }
static int k_rank(TsCall *c) { return pinv_rank(c, 0, true); }
static int k_rank_atol_rtol_float(TsCall *c) { return pinv_rank(c, 1, true); }
static int k_rank_atol_rtol_tensor(TsCall *c) { return pinv_rank(c, 2, true); }
static int k_rank_tol_tensor(TsCall *c) { return pinv_rank(c, 3, true); }

/* pinverse(Tensor self, float rcond=1e-15): linalg_pinv(self, rcond) */
static int k_pinverse(TsCall *c)
{
    TsValue f = ts_bool(false);
    if (ts_stack_push(c->stack, f, c->error))
        return c->error->code;
    const TsOperator *caller = c->op;
    c->op = ts_runtime_find_operator(c->runtime, "aten::linalg_pinv", "");
    int rc = pinv_rank(c, 0, false);
    c->op = caller;
    return rc;
}

static const TsCpuOp ops[] = {
    { "aten::linalg_qr", "", k_linalg_qr },
    { "aten::qr", "", k_qr },
    { "aten::geqrf", "", k_geqrf },
    { "aten::linalg_householder_product", "", k_householder_product },
    { "aten::orgqr", "", k_householder_product },
    { "aten::linalg_svd", "", k_linalg_svd },
    { "aten::linalg_svdvals", "", k_linalg_svdvals },
    { "aten::svd", "", k_svd },
    { "aten::linalg_eigh", "", k_linalg_eigh },
    { "aten::linalg_eigvalsh", "", k_linalg_eigvalsh },
    { "aten::linalg_lstsq", "", k_linalg_lstsq },
    { "aten::linalg_pinv", "", k_pinv },
    { "aten::linalg_pinv", "atol_rtol_float", k_pinv_atol_rtol_float },
    { "aten::linalg_pinv", "atol_rtol_tensor", k_pinv_atol_rtol_tensor },
    { "aten::linalg_pinv", "rcond_tensor", k_pinv_rcond_tensor },
    { "aten::pinverse", "", k_pinverse },
    { "aten::linalg_matrix_rank", "", k_rank },
    { "aten::linalg_matrix_rank", "atol_rtol_float", k_rank_atol_rtol_float },
    { "aten::linalg_matrix_rank", "atol_rtol_tensor", k_rank_atol_rtol_tensor },
    { "aten::linalg_matrix_rank", "tol_tensor", k_rank_tol_tensor },
};

const TsCpuTable ts_cpu_spectral_table = { ops, sizeof ops / sizeof ops[0] };
