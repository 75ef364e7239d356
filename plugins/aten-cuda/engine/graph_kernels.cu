/* graph_kernels.cu — the copy-in and copy-out kernels of a replayed CUDA graph (graph.h).
 *
 * Block row blockIdx.y copies entry y with a grid-stride loop over its row of blocks. A
 * span moves in the widest units both ends are aligned to (16 bytes for tensors at the
 * start of a block: cudaMalloc aligns to 256), then its odd tail bytes one by one. A
 * strided output moves element by element as an unsigned integer of its width.
 *
 * The parameter structs are large and indexed by blockIdx.y: __grid_constant__ lets the
 * kernels read them where they are, not from a per-thread copy.
 */
#include <cstdint>

#include "engine/graph.h"
#include "engine/types.cuh"

namespace {

using namespace ts_cuda;

#define TS_GRAPH_THREADS 256
#define TS_GRAPH_MAX_BLOCKS 1024   /* per entry; the loop covers the rest */

template <typename U> __device__ void copy_units(const char *src, char *dst, int64_t n)
{
    int64_t units = n / (int64_t)sizeof(U), done = units * (int64_t)sizeof(U);
    TS_CUDA_GRID_STRIDE(i, units)
        ((U *)dst)[i] = ((const U *)src)[i];
    TS_CUDA_GRID_STRIDE(i, n - done)
        dst[done + i] = src[done + i];
}

__device__ void copy_span(const void *src, void *dst, int64_t n)
{
    uintptr_t a = (uintptr_t)src | (uintptr_t)dst;
    const char *s = (const char *)src;
    char *d = (char *)dst;
    if (a % 16 == 0)
        copy_units<uint4>(s, d, n);
    else if (a % 8 == 0)
        copy_units<unsigned long long>(s, d, n);
    else if (a % 4 == 0)
        copy_units<unsigned>(s, d, n);
    else
        copy_units<char>(s, d, n);
}

template <typename E> __device__ void gather(const TsCudaGather &g)
{
    const E *src = (const E *)g.src;
    E *dst = (E *)g.dst;
    TS_CUDA_GRID_STRIDE(e, g.n) {
        int64_t rest = e, off = 0;
        for (int k = g.dim - 1; k >= 0; k--) {
            off += rest % g.sizes[k] * g.strides[k];
            rest /= g.sizes[k];
        }
        dst[e] = src[off];
    }
}

__global__ void copy_in(const __grid_constant__ TsCudaCopyIn p)
{
    const TsCudaSpan &s = p.span[blockIdx.y];
    copy_span(s.src, s.dst, s.nbytes);
}

__global__ void copy_out(const __grid_constant__ TsCudaCopyOut p)
{
    const TsCudaGather &g = p.out[blockIdx.y];
    if (!g.dst)
        return;
    switch (g.elem) {
    case 0: copy_span(g.src, g.dst, g.n); break;
    case 1: gather<uint8_t>(g); break;
    case 2: gather<uint16_t>(g); break;
    case 4: gather<uint32_t>(g); break;
    case 8: gather<unsigned long long>(g); break;
    default: gather<uint4>(g); break;
    }
}

/* Blocks per entry: enough for the largest entry's units (spans move up to 16 bytes a
 * thread), at most TS_GRAPH_MAX_BLOCKS. */
unsigned blocks_for(int64_t units)
{
    int64_t b = (units + TS_GRAPH_THREADS - 1) / TS_GRAPH_THREADS;
    return (unsigned)(b < 1 ? 1 : b > TS_GRAPH_MAX_BLOCKS ? TS_GRAPH_MAX_BLOCKS : b);
}

void node(const void *fn, unsigned blocks, int n, const void *p, void **args,
          cudaKernelNodeParams *np)
{
    args[0] = (void *)p;
    *np = cudaKernelNodeParams{};
    np->func = (void *)fn;
    np->gridDim = dim3(blocks, (unsigned)n, 1);
    np->blockDim = dim3(TS_GRAPH_THREADS, 1, 1);
    np->kernelParams = args;
}

} // namespace

extern "C" void ts_cuda_copy_in_node(const TsCudaCopyIn *p, void **args,
                                     cudaKernelNodeParams *np)
{
    int64_t most = 0;
    for (int i = 0; i < p->n; i++)
        most = p->span[i].nbytes > most ? p->span[i].nbytes : most;
    node((const void *)copy_in, blocks_for((most + 15) / 16), p->n, p, args, np);
}

extern "C" void ts_cuda_copy_out_node(const TsCudaCopyOut *p, void **args,
                                      cudaKernelNodeParams *np)
{
    int64_t most = 0;
    for (int i = 0; i < p->n; i++) {
        const TsCudaGather &g = p->out[i];
        int64_t units = g.elem ? g.n : (g.n + 15) / 16;
        most = units > most ? units : most;
    }
    node((const void *)copy_out, blocks_for(most), p->n, p, args, np);
}
