/* graph.h — the copies around a replayed CUDA graph: graph.c describes them, and
 * graph_kernels.cu runs them as the two kernel nodes before and after the captured work.
 *
 * Copy-in fills the static inputs the recorded work reads from the actual inputs of a
 * replay; copy-out moves the static outputs the recorded work wrote into the new tensors the
 * replay returns. Each is one launch for all its tensors: block row y of the grid copies
 * entry y. Their sizes are fixed when the graph is built; each replay sets the addresses
 * (cudaGraphExecKernelNodeSetParams copies the whole struct: a value of fixed size, over
 * the old 4 KiB for a kernel's parameters for copy-out, within the 32 KiB that CUDA 12.1
 * and later allow on Volta and later GPUs, which the plugin's builds target).
 */
#ifndef TS_ATEN_CUDA_GRAPH_H
#define TS_ATEN_CUDA_GRAPH_H

#include "engine/cuda.h"

#define TS_CUDA_GRAPH_MAX_IN 64    /* a capture's inputs, stable or not */
#define TS_CUDA_GRAPH_MAX_OUT 64   /* its outputs */

#ifdef __cplusplus
extern "C" {
#endif

/* nbytes bytes from src to dst (dense tensors: their elements fill one span). */
typedef struct TsCudaSpan {
    const void *src;
    void *dst;
    int64_t nbytes;
} TsCudaSpan;

typedef struct TsCudaCopyIn {
    int n;
    TsCudaSpan span[TS_CUDA_GRAPH_MAX_IN];
} TsCudaCopyIn;

/* One output: a span of n bytes when elem is 0; else n elements of elem bytes read from
 * src through sizes and strides (in elements, dim of them, the last one innermost) into
 * dst in order. A NULL dst copies nothing (the node as built, before a replay sets it). */
typedef struct TsCudaGather {
    const void *src;
    void *dst;
    int64_t n;
    int32_t elem;
    int32_t dim;
    int64_t sizes[TS_CUDA_MAX_DIMS];
    int64_t strides[TS_CUDA_MAX_DIMS];
} TsCudaGather;

typedef struct TsCudaCopyOut {
    int n;
    TsCudaGather out[TS_CUDA_GRAPH_MAX_OUT];
} TsCudaCopyOut;

/* Fills *np to launch the copies of p (n >= 1); args is room for one pointer that np
 * keeps (to p). p and args must stay until np has been given to CUDA. */
void ts_cuda_copy_in_node(const TsCudaCopyIn *p, void **args, struct cudaKernelNodeParams *np);
void ts_cuda_copy_out_node(const TsCudaCopyOut *p, void **args,
                           struct cudaKernelNodeParams *np);

#ifdef __cplusplus
}
#endif
#endif
