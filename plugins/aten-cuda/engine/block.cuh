/* block.cuh — reducing one value per thread across a block of TS_CUDA_BLOCK threads through
 * shared memory (CUDA C++, for the row kernels of softmax and the normalizations). Every
 * thread of the block must call it, and every thread gets the result.
 */
#ifndef TS_ATEN_CUDA_BLOCK_CUH
#define TS_ATEN_CUDA_BLOCK_CUH

#define TS_CUDA_BLOCK 256

namespace ts_cuda {

template <typename A, typename F> __device__ A block_reduce(A v, F f)
{
    __shared__ A sh[TS_CUDA_BLOCK];
    sh[threadIdx.x] = v;
    __syncthreads();
    for (unsigned k = TS_CUDA_BLOCK / 2; k > 0; k >>= 1) {
        if (threadIdx.x < k)
            sh[threadIdx.x] = f(sh[threadIdx.x], sh[threadIdx.x + k]);
        __syncthreads();
    }
    A r = sh[0];
    __syncthreads();
    return r;
}

} // namespace ts_cuda

#endif
