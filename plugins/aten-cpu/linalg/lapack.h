/* lapack.h — LAPACK from the OpenBLAS aten-cpu already loads, and the batched matrices the
 * torch.linalg kernels (decomp.c, spectral.c, linalg_extra.c) hand it.
 *
 * Debian's libopenblas exports LAPACK's Fortran routines (sgetrf_, dgetrf_, ...). They are
 * looked up on the library's handle on first use; a library without them makes the op fail
 * with a message naming the routine, nothing else. Matrices travel as column-major buffers
 * (LAPACK's order), one after the other per batch element, in the tensor's own dtype: float32
 * runs the s routines and float64 the d routines, as PyTorch does, so results (the signs of
 * singular vectors included) come out as PyTorch's.
 */
#ifndef TS_ATEN_CPU_LAPACK_H
#define TS_ATEN_CPU_LAPACK_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/elementwise.h"

#define TS_LAP_MAX_DIM 16

/* A batch of matrices: batch dims, the matrix size, and a column-major buffer (malloc'ed,
 * owned) of count matrices of rows x cols in dtype. */
typedef struct TsLapBatch {
    int dtype;                 /* TS_FLOAT32 or TS_FLOAT64 */
    int nb;                    /* batch dims */
    int64_t bsizes[TS_LAP_MAX_DIM];
    int64_t count;             /* product of bsizes */
    int64_t rows, cols;
    char *data;                /* count * rows * cols elements; NULL when count*rows*cols == 0 */
} TsLapBatch;

/* PyTorch's input checks, with its messages prefixed by api ("linalg.inv"): */
/* "api: Expected a floating point or complex tensor as input. Got Long" */
int ts_lap_check_float(const char *api, const TsTensor *t, TsError *err);
/* "api: The input tensor NAME must have at least 2 dimensions." */
int ts_lap_check_matrix(const char *api, const char *name, const TsTensor *t, TsError *err);
/* both of the above, then "api: A must be batches of square matrices, but they are 2 by 3
 * matrices" */
int ts_lap_check_square(const char *api, const TsTensor *t, TsError *err);

/* t (..., r, c) as a batch (ts_lap_free), broadcast to the batch dims bsizes (nb of them;
 * nb < 0: t's own), converted to dtype. */
int ts_lap_load(const TsTensor *t, int dtype, int nb, const int64_t *bsizes, TsLapBatch *b,
                TsError *err);
/* An uninitialized batch (zeros) of rows x cols matrices with the batch dims of like. */
int ts_lap_new(const TsLapBatch *like, int64_t rows, int64_t cols, TsLapBatch *b,
               TsError *err);
void ts_lap_free(TsLapBatch *b);
/* Matrix i of b. */
void *ts_lap_mat(const TsLapBatch *b, int64_t i);
/* A new row-major tensor (..., r, c) of b's first r rows and c columns of each matrix
 * (r <= b->rows, c <= b->cols); drop_cols: the result is (..., r), the one column. */
TsTensor *ts_lap_store(const TsLapBatch *b, int64_t r, int64_t c, bool vector, TsError *err);
/* A new tensor of the batch dims plus extra trailing dims, of dtype, uninitialized. */
TsTensor *ts_lap_batch_tensor(const TsLapBatch *b, int dtype, int nextra, const int64_t *extra,
                              TsError *err);
/* The broadcast of the batch dims (all but the last two) of a and b; "api: ..." when they do
 * not broadcast (PyTorch's shape message). */
int ts_lap_broadcast_batch(const TsTensor *a, const TsTensor *b, int *nb, int64_t *bsizes,
                           TsError *err);

double ts_lap_get(int dtype, const void *base, int64_t i);
void ts_lap_set(int dtype, void *base, int64_t i, double v);

/* The routines: each returns 0 with LAPACK's info in *info, or an error code when the
 * routine is missing. Arguments as LAPACK's, by value; matrices in b's dtype. */
int ts_lap_getrf(int dt, int m, int n, void *a, int lda, int *ipiv, int *info, TsError *err);
int ts_lap_getrs(int dt, char trans, int n, int nrhs, void *a, int lda, int *ipiv, void *b,
                 int ldb, int *info, TsError *err);
int ts_lap_potrf(int dt, char uplo, int n, void *a, int lda, int *info, TsError *err);
int ts_lap_potrs(int dt, char uplo, int n, int nrhs, void *a, int lda, void *b, int ldb,
                 int *info, TsError *err);
int ts_lap_potri(int dt, char uplo, int n, void *a, int lda, int *info, TsError *err);
int ts_lap_geqrf(int dt, int m, int n, void *a, int lda, void *tau, int *info, TsError *err);
int ts_lap_orgqr(int dt, int m, int n, int k, void *a, int lda, void *tau, int *info,
                 TsError *err);
int ts_lap_gesdd(int dt, char jobz, int m, int n, void *a, int lda, void *s, void *u, int ldu,
                 void *vt, int ldvt, int *info, TsError *err);
int ts_lap_syevd(int dt, char jobz, char uplo, int n, void *a, int lda, void *w, int *info,
                 TsError *err);
/* driver: 0 gels, 1 gelsy, 2 gelsd, 3 gelss; s (gelsd, gelss) min(m,n) values; *rank set by
 * all but gels */
int ts_lap_lstsq(int dt, int driver, int m, int n, int nrhs, void *a, int lda, void *b, int ldb,
                 double rcond, int *rank, void *s, int *info, TsError *err);
int ts_lap_trsm(int dt, char side, char uplo, char transa, char diag, int m, int n, void *a,
                int lda, void *b, int ldb, TsError *err);

/* A^-1 of square x (decomp.c), infos as int32 when info is not NULL; check: raise PyTorch's
 * error for a singular matrix, prefixed by api. */
int ts_lap_inverse(const char *api, TsTensor *x, bool check, TsTensor **out, TsTensor **info,
                   TsError *err);
/* The singular values of x as a batch of k x 1 matrices, descending (spectral.c). */
int ts_lap_svals(const char *api, TsTensor *x, TsLapBatch *s, TsError *err);

/* The kernel tables (decomp.c, spectral.c, linalg_extra.c). */
extern const TsCpuTable ts_cpu_decomp_table;
extern const TsCpuTable ts_cpu_spectral_table;
extern const TsCpuTable ts_cpu_linalg_extra_table;

#endif
