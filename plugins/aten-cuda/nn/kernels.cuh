/* kernels.cuh — what the layer kernels (im2col.cu, pool_kernels.cu, embedding_kernels.cu,
 * cell_kernels.cu) share: the grid-stride loop and its grid, loads and stores that compute
 * float16 and bfloat16 in float, and the dispatch from a dtype to a storage type.
 */
#ifndef TS_ATEN_CUDA_NN_KERNELS_CUH
#define TS_ATEN_CUDA_NN_KERNELS_CUH

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "nn/nn.h"

namespace tsnn {

#define TSNN_LOOP(i, n) \
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < (n); \
         i += (int64_t)blockDim.x * gridDim.x)

constexpr int threads = 256;

/* Blocks for n work items: enough to fill the GPU, then each thread loops. */
inline unsigned grid_for(int64_t n)
{
    int64_t blocks = (n + threads - 1) / threads;
    if (blocks > 8192)
        blocks = 8192;
    return (unsigned)(blocks < 1 ? 1 : blocks);
}

template <typename S> struct Acc { using type = S; };
template <> struct Acc<__half> { using type = float; };
template <> struct Acc<__nv_bfloat16> { using type = float; };
template <typename S> using acc_t = typename Acc<S>::type;

__device__ __forceinline__ float load(__half v) { return __half2float(v); }
__device__ __forceinline__ float load(__nv_bfloat16 v) { return __bfloat162float(v); }
__device__ __forceinline__ float load(float v) { return v; }
__device__ __forceinline__ double load(double v) { return v; }

template <typename S> __device__ __forceinline__ S store(acc_t<S> v) { return (S)v; }
template <> __device__ __forceinline__ __half store<__half>(float v) { return __float2half_rn(v); }
template <> __device__ __forceinline__ __nv_bfloat16 store<__nv_bfloat16>(float v)
{
    return __float2bfloat16_rn(v);
}

/* Calls fn with a value of the float storage type of dtype; else sets "NAME not implemented
 * for 'DTYPE'". */
template <typename Fn> int by_float_dtype(int dtype, const char *name, TsError *err, Fn fn)
{
    switch (dtype) {
    case TS_FLOAT16: return fn(__half{});
    case TS_BFLOAT16: return fn(__nv_bfloat16{});
    case TS_FLOAT32: return fn(float{});
    case TS_FLOAT64: return fn(double{});
    default:
        return ts_error_set(err, TS_ERR_RUNTIME, "\"%s\" not implemented for '%s'", name,
                            ts_dtype_type_name(dtype));
    }
}

/* Calls fn with an unsigned type of dtype's size (data movement only). */
template <typename Fn> int by_size(int dtype, const char *name, TsError *err, Fn fn)
{
    switch (ts_dtype_size(dtype)) {
    case 1: return fn(uint8_t{});
    case 2: return fn(uint16_t{});
    case 4: return fn(uint32_t{});
    case 8: return fn(uint64_t{});
    default:
        return ts_error_set(err, TS_ERR_RUNTIME, "\"%s\" not implemented for '%s'", name,
                            ts_dtype_type_name(dtype));
    }
}

inline int launched(const char *what, TsError *err)
{
    return ts_cuda_check(cudaGetLastError(), what, err);
}

} // namespace tsnn

#endif
