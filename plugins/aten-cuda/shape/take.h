/* take.h — the contract between aten-cuda's index_select and gather (index.c) and their
 * kernel (take_kernels.cu): every element of a contiguous output is one element of a strided
 * source, its coordinates the output's except along dim d, where an index says.
 */
#ifndef TS_ATEN_CUDA_TAKE_H
#define TS_ATEN_CUDA_TAKE_H

#include "engine/cuda.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TS_CUDA_TAKE_MAX_DIMS 16

typedef struct TsCudaTake {
    const void *src;           /* element 0 of the source */
    void *out;                 /* numel contiguous elements */
    int64_t elem;              /* bytes per element: 1, 2, 4 or 8 */
    int64_t numel;
    int dim, d;
    int64_t sizes[TS_CUDA_TAKE_MAX_DIMS];     /* the output's */
    int64_t strides[TS_CUDA_TAKE_MAX_DIMS];   /* the source's, in elements */
    int64_t size;              /* the source's size along d: indices lie in [0, size) */
    const int64_t *index;      /* contiguous: one per output element (gather) or per
                                  position along d (index_select) */
    bool per_element;
} TsCudaTake;

/* Runs the take and waits for it; an index out of [0, size) sets *bad and *bad_index (one
 * of them) and leaves the output partly written. */
int ts_cuda_launch_take(const TsCudaTake *t, bool *bad, int64_t *bad_index, TsError *err);

#ifdef __cplusplus
}
#endif
#endif
