/* blas_core.h — which OpenBLAS core type a CPU deserves: its features, the core types, and
 * the choice (pure; openblas.c acts on it).
 *
 * OpenBLAS built with DYNAMIC_ARCH (Debian's is) carries kernels for many CPU generations,
 * its "core types", and picks one when it is loaded from the CPU's family and model. A model
 * it does not know gets a fallback that can be far weaker than the CPU: Debian 12's 0.3.21
 * runs a Xeon with AVX-512 and AMX on its Prescott (SSE3) kernels, a 5.7x slower sgemm
 * (issue 15). What the kernels need is in the CPU's feature bits, not its model number, so
 * aten-cpu reads those (cpuid, and xgetbv for the registers the OS saves) and compares them
 * with what the library reports it picked. Everything here but ts_blas_cpu_features is a
 * function of its arguments, so t/blas_core.t can try CPUs this machine is not.
 */
#ifndef TS_ATEN_CPU_BLAS_CORE_H
#define TS_ATEN_CPU_BLAS_CORE_H

#include <stdbool.h>
#include <stddef.h>

/* The features kernels use; a vector extension counts only when the OS also saves its
 * registers (XCR0), as a kernel using it would otherwise fault. */
enum {
    TS_CPU_SSE3 = 1u << 0,
    TS_CPU_SSSE3 = 1u << 1,
    TS_CPU_SSE41 = 1u << 2,
    TS_CPU_SSE42 = 1u << 3,
    TS_CPU_SSE4A = 1u << 4,        /* AMD's */
    TS_CPU_AVX = 1u << 5,
    TS_CPU_FMA = 1u << 6,
    TS_CPU_FMA4 = 1u << 7,         /* AMD's Bulldozer family */
    TS_CPU_AVX2 = 1u << 8,
    TS_CPU_AVX512 = 1u << 9,       /* F, CD, BW, DQ and VL: what SkylakeX's kernels use */
    TS_CPU_AVX512_BF16 = 1u << 10,
    TS_CPU_AMX = 1u << 11,         /* AMX-TILE and AMX-BF16 */
    TS_CPU_AMD = 1u << 12,         /* not a feature: the vendor is AMD or Hygon, whose AVX2
                                      parts OpenBLAS runs on its Zen kernels */
    TS_CPU__COUNT = 13
};

/* This CPU's features (0 on other architectures than x86). */
unsigned ts_blas_cpu_features(void);

/* The features as words ("sse3 ssse3 ... avx512-bf16"), space-separated, into buf. */
void ts_blas_feature_names(unsigned features, char *buf, size_t size);

/* One of OpenBLAS's x86 core types. */
typedef struct TsBlasCore {
    const char *name;          /* as OPENBLAS_CORETYPE takes it and openblas_get_corename()
                                  reports it */
    int level;                 /* the kernel generation: a higher one runs sgemm faster on a
                                  CPU that has its needs */
    unsigned needs;            /* the features its kernels execute */
} TsBlasCore;

/* The core type of that name (case aside, as OpenBLAS compares), or NULL. */
const TsBlasCore *ts_blas_core_find(const char *name);

/* The core types, in OpenBLAS's order, into buf separated by ", " (for messages). */
void ts_blas_core_names(char *buf, size_t size);

/* The core types worth forcing on a CPU with these features whose library reported core
 * `reported`, best first, into out (at most max of them); returns their number. They are the
 * best core of each kernel generation above the reported one that the CPU runs, so the
 * first the library's build has is the one to take. None when the reported core is the best
 * the CPU runs already, or is one this table does not know (a newer OpenBLAS's: trusted). */
size_t ts_blas_core_candidates(unsigned features, const char *reported, const TsBlasCore **out,
                               size_t max);

#endif
