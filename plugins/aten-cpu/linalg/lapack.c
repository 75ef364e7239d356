/* lapack.c — the LAPACK routines of the loaded OpenBLAS, looked up by name on first use, and
 * the column-major batches they work on (see lapack.h).
 *
 * Fortran passes every argument by reference and a character argument's length after the
 * others (gfortran's convention, which OpenBLAS's LAPACK follows): the wrappers below take
 * values and pass addresses, and the lengths (1) at the end. Workspaces are asked for with
 * lwork = -1, as LAPACK documents, and allocated per call.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "linalg/lapack.h"
#include "linalg/openblas.h"

enum { R_GETRF, R_GETRS, R_POTRF, R_POTRS, R_POTRI, R_GEQRF, R_ORGQR, R_GESDD, R_SYEVD, R_GELS,
       R_GELSY, R_GELSD, R_GELSS, R_TRSM, R__COUNT };
static const char *const names[R__COUNT] = { "getrf_", "getrs_", "potrf_", "potrs_", "potri_",
                                             "geqrf_", "orgqr_", "gesdd_", "syevd_", "gels_",
                                             "gelsy_", "gelsd_", "gelss_", "trsm_" };
static void *routines[R__COUNT][2];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* The routine (s or d by dtype) as a data pointer; NULL with the error set. */
static void *routine(int id, int dt, TsError *err)
{
    int d = dt == TS_FLOAT64;
    pthread_mutex_lock(&lock);
    void *p = routines[id][d];
    if (!p) {
        char name[16];
        snprintf(name, sizeof name, "%c%s", d ? 'd' : 's', names[id]);
        p = routines[id][d] = ts_cpu_blas_symbol(name, err);
        if (!p && !err->code)
            ts_error_set(err, TS_ERR_RUNTIME, "torch.linalg needs LAPACK, but the OpenBLAS "
                         "library loaded has no %s", name);
    }
    pthread_mutex_unlock(&lock);
    return p;
}

/* POSIX's way from a data pointer to a function pointer: copy the representation. */
#define FN(T, id, dt, err, var) \
    __typeof__(T) var; \
    do { \
        void *p_ = routine(id, dt, err); \
        if (!p_) \
            return (err)->code; \
        memcpy(&var, &p_, sizeof var); \
    } while (0)

typedef const int *FI;
typedef const char *FC;
typedef size_t FL;   /* a character argument's hidden length */

/* ---- checks ------------------------------------------------------------------------- */

int ts_lap_check_float(const char *api, const TsTensor *t, TsError *err)
{
    if (t->dtype == TS_FLOAT32 || t->dtype == TS_FLOAT64)
        return 0;
    return ts_error_set(err, TS_ERR_RUNTIME, "%s: Expected a floating point or complex tensor "
                        "as input. Got %s", api, ts_dtype_type_name(t->dtype));
}

int ts_lap_check_matrix(const char *api, const char *name, const TsTensor *t, TsError *err)
{
    if (t->dim >= 2)
        return 0;
    return ts_error_set(err, TS_ERR_RUNTIME, "%s: The input tensor %s must have at least 2 "
                        "dimensions.", api, name);
}

int ts_lap_check_square(const char *api, const TsTensor *t, TsError *err)
{
    if (ts_lap_check_matrix(api, "A", t, err) || ts_lap_check_float(api, t, err))
        return err->code;
    int64_t r = t->sizes[t->dim - 2], c = t->sizes[t->dim - 1];
    if (r == c)
        return 0;
    return ts_error_set(err, TS_ERR_RUNTIME, "%s: A must be batches of square matrices, but "
                        "they are %lld by %lld matrices", api, (long long)r, (long long)c);
}

/* ---- batches ------------------------------------------------------------------------ */

double ts_lap_get(int dtype, const void *base, int64_t i)
{
    return dtype == TS_FLOAT64 ? ((const double *)base)[i] : ((const float *)base)[i];
}

void ts_lap_set(int dtype, void *base, int64_t i, double v)
{
    if (dtype == TS_FLOAT64)
        ((double *)base)[i] = v;
    else
        ((float *)base)[i] = (float)v;
}

static size_t esize(int dtype) { return dtype == TS_FLOAT64 ? 8 : 4; }

void *ts_lap_mat(const TsLapBatch *b, int64_t i)
{
    if (!b->data)      /* an empty batch has no memory: no offset into NULL */
        return NULL;
    return b->data + (size_t)(i * b->rows * b->cols) * esize(b->dtype);
}

static int alloc(TsLapBatch *b, TsError *err)
{
    b->count = 1;
    for (int i = 0; i < b->nb; i++)
        b->count *= b->bsizes[i];
    size_t n = (size_t)(b->count * b->rows * b->cols);
    b->data = n ? calloc(n, esize(b->dtype)) : NULL;
    if (n && !b->data)
        return ts_error_set(err, TS_ERR_NOMEM, "linalg: out of memory");
    return 0;
}

int ts_lap_new(const TsLapBatch *like, int64_t rows, int64_t cols, TsLapBatch *b, TsError *err)
{
    *b = *like;
    b->rows = rows;
    b->cols = cols;
    return alloc(b, err);
}

void ts_lap_free(TsLapBatch *b)
{
    free(b->data);
    b->data = NULL;
}

int ts_lap_load(const TsTensor *t, int dtype, int nb, const int64_t *bsizes, TsLapBatch *b,
                TsError *err)
{
    memset(b, 0, sizeof *b);
    b->dtype = dtype;
    int tb = t->dim - 2;
    if (nb < 0) {
        nb = tb;
        bsizes = t->sizes;
    }
    if (nb > TS_LAP_MAX_DIM)
        return ts_error_set(err, TS_ERR_LIMIT, "linalg: more than %d batch dimensions",
                            TS_LAP_MAX_DIM);
    b->nb = nb;
    memcpy(b->bsizes, bsizes, sizeof(int64_t) * (size_t)nb);
    b->rows = t->sizes[t->dim - 2];
    b->cols = t->sizes[t->dim - 1];
    if (alloc(b, err))
        return err->code;
    const char *src = ts_tensor_data(t);
    size_t es = ts_dtype_size(t->dtype);
    int64_t rs = t->strides[t->dim - 2], cs = t->strides[t->dim - 1];
    int64_t idx[TS_LAP_MAX_DIM] = { 0 };
    for (int64_t k = 0; k < b->count; k++) {
        int64_t off = 0;      /* t's batch dims line up with the last tb of the nb */
        for (int d = 0; d < tb; d++) {
            int bd = nb - tb + d;
            if (t->sizes[d] != 1)
                off += idx[bd] * t->strides[d];
        }
        void *m = ts_lap_mat(b, k);
        for (int64_t j = 0; j < b->cols; j++)
            for (int64_t i = 0; i < b->rows; i++) {
                double v = ts_cpu_load_double(t->dtype, src + (size_t)(off + i * rs + j * cs) * es);
                ts_lap_set(dtype, m, i + j * b->rows, v);
            }
        for (int d = nb - 1; d >= 0; d--) {
            if (++idx[d] < bsizes[d])
                break;
            idx[d] = 0;
        }
    }
    return 0;
}

TsTensor *ts_lap_batch_tensor(const TsLapBatch *b, int dtype, int nextra, const int64_t *extra,
                              TsError *err)
{
    int64_t sizes[TS_LAP_MAX_DIM + 2];
    memcpy(sizes, b->bsizes, sizeof(int64_t) * (size_t)b->nb);
    if (nextra)     /* extra may be NULL then */
        memcpy(sizes + b->nb, extra, sizeof(int64_t) * (size_t)nextra);
    return ts_cpu_empty(dtype, b->nb + nextra, sizes, err);
}

TsTensor *ts_lap_store(const TsLapBatch *b, int64_t r, int64_t c, bool vector, TsError *err)
{
    int64_t extra[2] = { r, c };
    TsTensor *o = ts_lap_batch_tensor(b, b->dtype, vector ? 1 : 2, extra, err);
    if (!o)
        return NULL;
    char *dst = ts_tensor_data(o);
    for (int64_t k = 0; k < b->count; k++) {
        const void *m = ts_lap_mat(b, k);
        void *d = dst + (size_t)(k * r * c) * esize(b->dtype);
        for (int64_t i = 0; i < r; i++)
            for (int64_t j = 0; j < c; j++)
                ts_lap_set(b->dtype, d, i * c + j, ts_lap_get(b->dtype, m, i + j * b->rows));
    }
    return o;
}

int ts_lap_broadcast_batch(const TsTensor *a, const TsTensor *b, int *nb, int64_t *bsizes,
                           TsError *err)
{
    int na = a->dim - 2, nbb = b->dim - 2;
    int n = na > nbb ? na : nbb;
    if (n > TS_LAP_MAX_DIM)
        return ts_error_set(err, TS_ERR_LIMIT, "linalg: more than %d batch dimensions",
                            TS_LAP_MAX_DIM);
    for (int i = 0; i < n; i++) {
        int ia = na - n + i, ib = nbb - n + i;
        int64_t sa = ia >= 0 ? a->sizes[ia] : 1, sb = ib >= 0 ? b->sizes[ib] : 1;
        if (sa != sb && sa != 1 && sb != 1)
            return ts_error_set(err, TS_ERR_RUNTIME, "The size of tensor a (%lld) must match "
                                "the size of tensor b (%lld) at non-singleton dimension %d",
                                (long long)sa, (long long)sb, i);
        bsizes[i] = sa == 1 ? sb : sa;
    }
    *nb = n;
    return 0;
}

/* ---- routines ----------------------------------------------------------------------- */

/* A workspace of the size a query left in q (a real in dt), at least min elements. */
static void *workspace(int dt, const void *q, int min, int *lwork, TsError *err)
{
    double w = ts_lap_get(dt, q, 0);
    *lwork = w > min ? (int)w : min;
    void *p = malloc((size_t)*lwork * esize(dt));
    if (!p)
        ts_error_set(err, TS_ERR_NOMEM, "linalg: out of memory");
    return p;
}

int ts_lap_getrf(int dt, int m, int n, void *a, int lda, int *ipiv, int *info, TsError *err)
{
    FN(void (*)(FI, FI, void *, FI, int *, int *), R_GETRF, dt, err, f);
    f(&m, &n, a, &lda, ipiv, info);
    return 0;
}

int ts_lap_getrs(int dt, char trans, int n, int nrhs, void *a, int lda, int *ipiv, void *b,
                 int ldb, int *info, TsError *err)
{
    FN(void (*)(FC, FI, FI, void *, FI, int *, void *, FI, int *, FL), R_GETRS, dt, err, f);
    f(&trans, &n, &nrhs, a, &lda, ipiv, b, &ldb, info, 1);
    return 0;
}

int ts_lap_potrf(int dt, char uplo, int n, void *a, int lda, int *info, TsError *err)
{
    FN(void (*)(FC, FI, void *, FI, int *, FL), R_POTRF, dt, err, f);
    f(&uplo, &n, a, &lda, info, 1);
    return 0;
}

int ts_lap_potrs(int dt, char uplo, int n, int nrhs, void *a, int lda, void *b, int ldb,
                 int *info, TsError *err)
{
    FN(void (*)(FC, FI, FI, void *, FI, void *, FI, int *, FL), R_POTRS, dt, err, f);
    f(&uplo, &n, &nrhs, a, &lda, b, &ldb, info, 1);
    return 0;
}

int ts_lap_potri(int dt, char uplo, int n, void *a, int lda, int *info, TsError *err)
{
    FN(void (*)(FC, FI, void *, FI, int *, FL), R_POTRI, dt, err, f);
    f(&uplo, &n, a, &lda, info, 1);
    return 0;
}

int ts_lap_geqrf(int dt, int m, int n, void *a, int lda, void *tau, int *info, TsError *err)
{
    FN(void (*)(FI, FI, void *, FI, void *, void *, FI, int *), R_GEQRF, dt, err, f);
    double q[1];
    int lw = -1;
    f(&m, &n, a, &lda, tau, q, &lw, info);
    void *w = workspace(dt, q, n > 1 ? n : 1, &lw, err);
    if (!w)
        return err->code;
    f(&m, &n, a, &lda, tau, w, &lw, info);
    free(w);
    return 0;
}

int ts_lap_orgqr(int dt, int m, int n, int k, void *a, int lda, void *tau, int *info,
                 TsError *err)
{
    FN(void (*)(FI, FI, FI, void *, FI, void *, void *, FI, int *), R_ORGQR, dt, err, f);
    double q[1];
    int lw = -1;
    f(&m, &n, &k, a, &lda, tau, q, &lw, info);
    void *w = workspace(dt, q, n > 1 ? n : 1, &lw, err);
    if (!w)
        return err->code;
    f(&m, &n, &k, a, &lda, tau, w, &lw, info);
    free(w);
    return 0;
}

int ts_lap_gesdd(int dt, char jobz, int m, int n, void *a, int lda, void *s, void *u, int ldu,
                 void *vt, int ldvt, int *info, TsError *err)
{
    FN(void (*)(FC, FI, FI, void *, FI, void *, void *, FI, void *, FI, void *, FI, int *, int *, FL),
       R_GESDD, dt, err, f);
    int mn = m < n ? m : n;
    int *iw = malloc(sizeof(int) * (size_t)(8 * (mn > 1 ? mn : 1)));
    if (!iw)
        return ts_error_set(err, TS_ERR_NOMEM, "linalg: out of memory");
    double q[1];
    int lw = -1;
    f(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, q, &lw, iw, info, 1);
    void *w = workspace(dt, q, 1, &lw, err);
    if (w)
        f(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, w, &lw, iw, info, 1);
    free(w);
    free(iw);
    return w ? 0 : err->code;
}

int ts_lap_syevd(int dt, char jobz, char uplo, int n, void *a, int lda, void *w, int *info,
                 TsError *err)
{
    FN(void (*)(FC, FC, FI, void *, FI, void *, void *, FI, int *, FI, int *, FL, FL), R_SYEVD, dt, err,
       f);
    double q[1];
    int lw = -1, iq = 0, liw = -1;
    f(&jobz, &uplo, &n, a, &lda, w, q, &lw, &iq, &liw, info, 1, 1);
    liw = iq > 1 ? iq : 1;
    int *iw = malloc(sizeof(int) * (size_t)liw);
    void *work = iw ? workspace(dt, q, 1, &lw, err) : NULL;
    if (!iw)
        ts_error_set(err, TS_ERR_NOMEM, "linalg: out of memory");
    if (work)
        f(&jobz, &uplo, &n, a, &lda, w, work, &lw, iw, &liw, info, 1, 1);
    free(work);
    free(iw);
    return work ? 0 : err->code;
}

int ts_lap_lstsq(int dt, int driver, int m, int n, int nrhs, void *a, int lda, void *b, int ldb,
                 double rcond, int *rank, void *s, int *info, TsError *err)
{
    double q[1];
    int lw = -1, mn = m < n ? m : n, iq = 1;
    float rf = (float)rcond;
    void *rc = dt == TS_FLOAT64 ? (void *)&rcond : (void *)&rf;
    int *iw = NULL;
    void *w = NULL;
    if (driver == 0) {
        FN(void (*)(FC, FI, FI, FI, void *, FI, void *, FI, void *, FI, int *, FL), R_GELS, dt, err, f);
        f("N", &m, &n, &nrhs, a, &lda, b, &ldb, q, &lw, info, 1);
        if ((w = workspace(dt, q, 1, &lw, err)))
            f("N", &m, &n, &nrhs, a, &lda, b, &ldb, w, &lw, info, 1);
    } else if (driver == 1) {
        FN(void (*)(FI, FI, FI, void *, FI, void *, FI, int *, void *, int *, void *, FI, int *),
           R_GELSY, dt, err, f);
        iw = calloc((size_t)(n > 1 ? n : 1), sizeof(int));   /* jpvt: all columns free */
        if (!iw)
            return ts_error_set(err, TS_ERR_NOMEM, "linalg: out of memory");
        f(&m, &n, &nrhs, a, &lda, b, &ldb, iw, rc, rank, q, &lw, info);
        if ((w = workspace(dt, q, 1, &lw, err)))
            f(&m, &n, &nrhs, a, &lda, b, &ldb, iw, rc, rank, w, &lw, info);
    } else if (driver == 2) {
        FN(void (*)(FI, FI, FI, void *, FI, void *, FI, void *, void *, int *, void *, FI, int *,
                    int *), R_GELSD, dt, err, f);
        f(&m, &n, &nrhs, a, &lda, b, &ldb, s, rc, rank, q, &lw, &iq, info);
        iw = malloc(sizeof(int) * (size_t)(iq > 1 ? iq : 1));
        if (!iw)
            return ts_error_set(err, TS_ERR_NOMEM, "linalg: out of memory");
        if ((w = workspace(dt, q, 1, &lw, err)))
            f(&m, &n, &nrhs, a, &lda, b, &ldb, s, rc, rank, w, &lw, iw, info);
    } else {
        FN(void (*)(FI, FI, FI, void *, FI, void *, FI, void *, void *, int *, void *, FI, int *),
           R_GELSS, dt, err, f);
        f(&m, &n, &nrhs, a, &lda, b, &ldb, s, rc, rank, q, &lw, info);
        if ((w = workspace(dt, q, 1, &lw, err)))
            f(&m, &n, &nrhs, a, &lda, b, &ldb, s, rc, rank, w, &lw, info);
    }
    (void)mn;
    free(iw);
    free(w);
    return w ? 0 : err->code;
}

int ts_lap_trsm(int dt, char side, char uplo, char transa, char diag, int m, int n, void *a,
                int lda, void *b, int ldb, TsError *err)
{
    FN(void (*)(FC, FC, FC, FC, FI, FI, const void *, void *, FI, void *, FI, FL, FL, FL, FL), R_TRSM, dt,
       err, f);
    double one = 1.0;
    float onef = 1.0f;
    f(&side, &uplo, &transa, &diag, &m, &n, dt == TS_FLOAT64 ? (void *)&one : (void *)&onef,
      a, &lda, b, &ldb, 1, 1, 1, 1);
    return 0;
}
