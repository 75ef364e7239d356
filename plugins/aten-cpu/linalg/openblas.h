/* openblas.h — OpenBLAS, loaded on the first matrix product.
 *
 * aten-cpu does not link OpenBLAS: loading it (and starting its threads) was a third of a
 * hello-world's startup, and most programs never multiply matrices. The first product
 * dlopens the library configure found (openblas.c) and resolves the routines below; OpenBLAS
 * then runs on the runtime's num_threads threads (ts_parallel_num_threads).
 */
#ifndef TS_ATEN_CPU_OPENBLAS_H
#define TS_ATEN_CPU_OPENBLAS_H

#include <cblas.h>

#include "tscript/error.h"

typedef struct TsCpuBlas {
    __typeof__(cblas_sgemm) *sgemm;
    __typeof__(cblas_dgemm) *dgemm;
    __typeof__(cblas_sgemv) *sgemv;
    __typeof__(cblas_dgemv) *dgemv;
} TsCpuBlas;

/* The routines, loading OpenBLAS on the first call; NULL with a RuntimeError naming the
 * library and dlopen's reason when it cannot be loaded (every later call fails the same). */
const TsCpuBlas *ts_cpu_blas(TsError *err);

#endif
