/* types.cuh — the storage and computing types every kernel family of aten-cuda shares (CUDA
 * C++, included by the *.cu files only).
 *
 * A tensor's elements are stored in its dtype's C type (S); kernels compute in acc_t<S>:
 * float16 and bfloat16 load as float and round once on the store, as PyTorch's kernels do,
 * everything else computes in its own type. by_dtype turns a runtime dtype into a storage
 * type at compile time, so a launcher instantiates its kernel template once per dtype.
 */
#ifndef TS_ATEN_CUDA_TYPES_CUH
#define TS_ATEN_CUDA_TYPES_CUH

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <type_traits>

#include "engine/cuda.h"

namespace ts_cuda {

template <typename S> struct Acc { using type = S; };
template <> struct Acc<__half> { using type = float; };
template <> struct Acc<__nv_bfloat16> { using type = float; };
template <typename S> using acc_t = typename Acc<S>::type;

template <typename S> __device__ __forceinline__ acc_t<S> load(const S &v) { return v; }
template <> __device__ __forceinline__ float load<__half>(const __half &v) { return __half2float(v); }
template <> __device__ __forceinline__ float load<__nv_bfloat16>(const __nv_bfloat16 &v)
{
    return __bfloat162float(v);
}

/* A value of any computing type as storage type D (C's conversions; bool is "not zero"). */
template <typename D, typename C> __device__ __forceinline__ D store(C v)
{
    if constexpr (std::is_same<D, bool>::value)
        return v != C(0);
    else if constexpr (std::is_same<D, __half>::value)
        return __float2half_rn((float)v);
    else if constexpr (std::is_same<D, __nv_bfloat16>::value)
        return __float2bfloat16_rn((float)v);
    else
        return (D)v;
}

template <typename T> constexpr bool is_floating()
{
    return std::is_floating_point<T>::value || std::is_same<T, __half>::value ||
           std::is_same<T, __nv_bfloat16>::value;
}

/* Calls fn with a value of the storage type of dtype; -1 for a dtype with none. */
template <typename Fn> int by_dtype(int dtype, Fn fn)
{
    switch (dtype) {
    case TS_BOOL: return fn(bool{});
    case TS_UINT8: return fn(uint8_t{});
    case TS_INT8: return fn(int8_t{});
    case TS_INT16: return fn(int16_t{});
    case TS_INT32: return fn(int32_t{});
    case TS_INT64: return fn(int64_t{});
    case TS_FLOAT16: return fn(__half{});
    case TS_BFLOAT16: return fn(__nv_bfloat16{});
    case TS_FLOAT32: return fn(float{});
    case TS_FLOAT64: return fn(double{});
    default: return -1;
    }
}

/* The same for the floating dtypes only. */
template <typename Fn> int by_float_dtype(int dtype, Fn fn)
{
    switch (dtype) {
    case TS_FLOAT16: return fn(__half{});
    case TS_BFLOAT16: return fn(__nv_bfloat16{});
    case TS_FLOAT32: return fn(float{});
    case TS_FLOAT64: return fn(double{});
    default: return -1;
    }
}

/* Blocks for n elements of a grid-stride loop: enough to fill the GPU, then each thread
 * loops. */
static inline unsigned grid_for(int64_t n)
{
    int64_t blocks = (n + 255) / 256;
    if (blocks > 8192)
        blocks = 8192;
    return (unsigned)(blocks < 1 ? 1 : blocks);
}

static inline int launched(const char *what, TsError *err)
{
    return ts_cuda_check(cudaGetLastError(), what, err);
}

} // namespace ts_cuda

#define TS_CUDA_GRID_STRIDE(i, n) \
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < (n); \
         i += (int64_t)blockDim.x * gridDim.x)

#endif
