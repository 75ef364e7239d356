/* softmax_kernels.cu — softmax and log_softmax along one axis, stable: each row's maximum is
 * subtracted before exp, and the sum of exps taken in float (double for float64).
 *
 * A row of consecutive elements (inner 1) is a block's: the block finds the maximum, then
 * the sum, then writes, each step a strided loop and a block reduction. With inner > 1 a
 * thread takes a row and walks it three times, neighbouring threads reading neighbouring
 * elements.
 */
#include <math.h>

#include "engine/block.cuh"
#include "engine/types.cuh"
#include "nn/norm.h"

namespace {

using namespace ts_cuda;

/* The larger of a and b, a nan winning (a row holding one softmaxes to nan). */
template <typename A> __device__ __forceinline__ A max_nan(A a, A b)
{
    return (a > b || isnan(a)) ? a : b;
}

template <typename S> __device__ __forceinline__ S result(acc_t<S> x, acc_t<S> max, acc_t<S> sum,
                                                         bool log)
{
    return store<S>(log ? x - max - ::log(sum) : exp(x - max) / sum);
}

template <typename S>
__global__ void softmax_rows(const S *in, S *out, int64_t outer, int64_t n, bool log)
{
    using A = acc_t<S>;
    for (int64_t o = blockIdx.x; o < outer; o += gridDim.x) {
        const S *x = in + o * n;
        S *y = out + o * n;
        A m = -INFINITY;
        for (int64_t k = threadIdx.x; k < n; k += TS_CUDA_BLOCK)
            m = max_nan(m, load(x[k]));
        m = block_reduce(m, [](A a, A b) { return max_nan(a, b); });
        A s = 0;
        for (int64_t k = threadIdx.x; k < n; k += TS_CUDA_BLOCK)
            s += exp(load(x[k]) - m);
        s = block_reduce(s, [](A a, A b) { return a + b; });
        for (int64_t k = threadIdx.x; k < n; k += TS_CUDA_BLOCK)
            y[k] = result<S>(load(x[k]), m, s, log);
    }
}

template <typename S>
__global__ void softmax_columns(const S *in, S *out, int64_t outer, int64_t n, int64_t inner,
                                bool log)
{
    using A = acc_t<S>;
    TS_CUDA_GRID_STRIDE(j, outer * inner) {
        int64_t base = j / inner * n * inner + j % inner;
        const S *x = in + base;
        S *y = out + base;
        A m = -INFINITY, s = 0;
        for (int64_t k = 0; k < n; k++)
            m = max_nan(m, load(x[k * inner]));
        for (int64_t k = 0; k < n; k++)
            s += exp(load(x[k * inner]) - m);
        for (int64_t k = 0; k < n; k++)
            y[k * inner] = result<S>(load(x[k * inner]), m, s, log);
    }
}

} // namespace

extern "C" int ts_cuda_launch_softmax(const void *in, void *out, int dtype, int64_t outer,
                                      int64_t n, int64_t inner, bool log, TsError *err)
{
    if (outer == 0 || n == 0 || inner == 0)
        return 0;
    int rc = by_float_dtype(dtype, [&](auto zero) -> int {
        using S = decltype(zero);
        if (inner == 1) {
            unsigned blocks = outer < 65536 ? (unsigned)outer : 65536;
            softmax_rows<S><<<blocks, TS_CUDA_BLOCK, 0, TS_CUDA_STREAM>>>(
                (const S *)in, (S *)out, outer, n, log);
        } else {
            softmax_columns<S><<<grid_for(outer * inner), TS_CUDA_BLOCK, 0, TS_CUDA_STREAM>>>(
                (const S *)in, (S *)out, outer, n, inner, log);
        }
        return launched("softmax kernel", err);
    });
    if (rc < 0)
        return ts_error_set(err, TS_ERR_RUNTIME, "\"%s\" not implemented for '%s'",
                            log ? "log_softmax_cuda" : "softmax_cuda", ts_dtype_type_name(dtype));
    return rc;
}
