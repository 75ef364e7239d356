/* fakeblas.c — a stand-in for OpenBLAS that has one core type, for t/openblas_core.sh:
 * $TSCRIPT_OPENBLAS names it to show what a config's blas_core does on a build that lacks
 * the core type it names (aten-cpu must refuse it, not run on another quietly).
 *
 * It exports what aten-cpu resolves: the four products (plain loops, column- and
 * row-major, either transposition), the thread count (ignored), openblas_get_corename
 * (always "Prescott", whatever OPENBLAS_CORETYPE asked) and openblas_get_config.
 */
#include <cblas.h>
#include <stdbool.h>

/* Element (i, j) of op(M), M stored row- or column-major with leading dimension ld. */
static double elem(const void *p, bool dbl, long ld, long i, long j, bool trans, bool rowmajor)
{
    long r = trans ? j : i, c = trans ? i : j;
    long e = rowmajor ? r * ld + c : c * ld + r;
    return dbl ? ((const double *)p)[e] : ((const float *)p)[e];
}

/* Sets element e of a float or double array to alpha * s + beta * (its old value). */
static void update(void *p, bool dbl, long e, double alpha, double s, double beta)
{
    double old = beta == 0 ? 0 : dbl ? ((double *)p)[e] : ((float *)p)[e];
    if (dbl)
        ((double *)p)[e] = alpha * s + beta * old;
    else
        ((float *)p)[e] = (float)(alpha * s + beta * old);
}

static void gemm(bool dbl, int order, int ta, int tb, int m, int n, int k, double alpha,
                 const void *a, int lda, const void *b, int ldb, double beta, void *c, int ldc)
{
    bool rm = order == CblasRowMajor;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int p = 0; p < k; p++)
                s += elem(a, dbl, lda, i, p, ta != CblasNoTrans, rm) *
                     elem(b, dbl, ldb, p, j, tb != CblasNoTrans, rm);
            update(c, dbl, rm ? (long)i * ldc + j : (long)j * ldc + i, alpha, s, beta);
        }
}

/* cblas_sgemm and cblas_dgemm, as cblas.h declares them. */
#define GEMM(NAME, T, DBL)                                                                   \
    void NAME(OPENBLAS_CONST enum CBLAS_ORDER order, OPENBLAS_CONST enum CBLAS_TRANSPOSE ta, \
              OPENBLAS_CONST enum CBLAS_TRANSPOSE tb, OPENBLAS_CONST blasint m,              \
              OPENBLAS_CONST blasint n, OPENBLAS_CONST blasint k, OPENBLAS_CONST T alpha,    \
              OPENBLAS_CONST T *a, OPENBLAS_CONST blasint lda, OPENBLAS_CONST T *b,          \
              OPENBLAS_CONST blasint ldb, OPENBLAS_CONST T beta, T *c,                       \
              OPENBLAS_CONST blasint ldc)                                                    \
    {                                                                                        \
        gemm(DBL, order, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);              \
    }
GEMM(cblas_sgemm, float, false)
GEMM(cblas_dgemm, double, true)

/* y = alpha * op(A) x + beta * y. */
static void gemv(bool dbl, int order, int t, int m, int n, double alpha, const void *a, int lda,
                 const void *x, int incx, double beta, void *y, int incy)
{
    int rows = t == CblasNoTrans ? m : n, cols = t == CblasNoTrans ? n : m;
    for (int i = 0; i < rows; i++) {
        double s = 0;
        for (int j = 0; j < cols; j++)
            s += elem(a, dbl, lda, i, j, t != CblasNoTrans, order == CblasRowMajor) *
                 elem(x, dbl, incx, j, 0, false, true);
        update(y, dbl, (long)i * incy, alpha, s, beta);
    }
}

/* cblas_sgemv and cblas_dgemv, as cblas.h declares them. */
#define GEMV(NAME, T, DBL)                                                                   \
    void NAME(OPENBLAS_CONST enum CBLAS_ORDER order, OPENBLAS_CONST enum CBLAS_TRANSPOSE t,  \
              OPENBLAS_CONST blasint m, OPENBLAS_CONST blasint n, OPENBLAS_CONST T alpha,    \
              OPENBLAS_CONST T *a, OPENBLAS_CONST blasint lda, OPENBLAS_CONST T *x,          \
              OPENBLAS_CONST blasint incx, OPENBLAS_CONST T beta, T *y,                      \
              OPENBLAS_CONST blasint incy)                                                   \
    {                                                                                        \
        gemv(DBL, order, t, m, n, alpha, a, lda, x, incx, beta, y, incy);                    \
    }
GEMV(cblas_sgemv, float, false)
GEMV(cblas_dgemv, double, true)

void openblas_set_num_threads(int n) { (void)n; }

char *openblas_get_corename(void) { return "Prescott"; }

char *openblas_get_config(void) { return "FakeBLAS DYNAMIC_ARCH (t/plugins/fakeblas.c)"; }
