/* openblas.h — OpenBLAS, loaded on the first matrix product, on the core type this CPU
 * deserves.
 *
 * aten-cpu does not link OpenBLAS: loading it (and starting its threads) was a third of a
 * hello-world's startup, and most programs never multiply matrices. The first product
 * dlopens the library configure found (openblas.c) and resolves the routines below; OpenBLAS
 * then runs on the runtime's num_threads threads (ts_parallel_num_threads). Where the
 * library's own pick of kernels is weaker than the CPU (blas_core.h), the load forces a
 * better core type and checks a small product before trusting it; the config's blas_core
 * and OPENBLAS_CORETYPE in the environment decide instead when set.
 */
#ifndef TS_ATEN_CPU_OPENBLAS_H
#define TS_ATEN_CPU_OPENBLAS_H

#include <cblas.h>

#include "engine/cpu.h"
#include "tscript/error.h"

typedef struct TsCpuBlas {
    __typeof__(cblas_sgemm) *sgemm;
    __typeof__(cblas_dgemm) *dgemm;
    __typeof__(cblas_sgemv) *sgemv;
    __typeof__(cblas_dgemv) *dgemv;
} TsCpuBlas;

/* The routines, loading OpenBLAS on the first call; NULL with the error when it cannot be
 * loaded (a RuntimeError naming the library and dlopen's reason, or a ConfigError naming
 * the blas_core setting the library does not honour); every later call fails the same. */
const TsCpuBlas *ts_cpu_blas(TsError *err);

/* Another routine of the loaded library (LAPACK's sgetrf_, ...: linalg/lapack.c), loading
 * it first; NULL when the library cannot be loaded (err set) or lacks the name (err not). */
void *ts_cpu_blas_symbol(const char *name, TsError *err);

/* Checks the config's blas_core (ts_config_setting), if set: a core type OpenBLAS knows
 * whose instructions this CPU has. 0, or TS_ERR_CONFIG with a message that starts with
 * where the config sets it. aten-cpu's init calls it, so a bad value stops the runtime from
 * opening rather than the first product. */
int ts_cpu_blas_check_setting(TsError *err);

/* "tscript::backend_info(Device device) -> str", which `tscript info --backend` calls on
 * each backend that has a kernel for it: aten-cpu's describes OpenBLAS as loaded (loading
 * it), the CPU's features, the core type and why. */
#define TS_BACKEND_INFO_SCHEMA "tscript::backend_info(Device device) -> str"
extern const TsCpuTable ts_cpu_openblas_table;

#endif
