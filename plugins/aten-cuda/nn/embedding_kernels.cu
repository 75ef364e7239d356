/* embedding_kernels.cu — aten::embedding's gather (nn/embedding.c): one thread per output
 * element copies the element of the row its index names.
 */
#include "nn/kernels.cuh"

using namespace tsnn;

namespace {

template <typename T, typename I>
__global__ void gather_rows(const T *w, int64_t rows, int64_t dim, int64_t ws0, int64_t ws1,
                            const I *idx, int64_t n, T *out)
{
    TSNN_LOOP(e, n * dim) {
        int64_t i = e / dim, j = e % dim;
        int64_t r = (int64_t)idx[i];
        out[e] = r >= 0 && r < rows ? w[r * ws0 + j * ws1] : T(0);
    }
}

} // namespace

extern "C" int ts_cuda_launch_embedding(int dtype, const void *weight, int64_t rows,
                                        int64_t dim, int64_t ws0, int64_t ws1, const void *idx,
                                        int idx_dtype, int64_t n, void *out, TsError *err)
{
    if (n * dim == 0)
        return 0;
    return by_size(dtype, "embedding", err, [&](auto zero) -> int {
        using T = decltype(zero);
        unsigned grid = grid_for(n * dim);
        if (idx_dtype == TS_INT32)
            gather_rows<T, int32_t><<<grid, threads, 0, TS_CUDA_STREAM>>>(
                (const T *)weight, rows, dim, ws0, ws1, (const int32_t *)idx, n, (T *)out);
        else
            gather_rows<T, int64_t><<<grid, threads, 0, TS_CUDA_STREAM>>>(
                (const T *)weight, rows, dim, ws0, ws1, (const int64_t *)idx, n, (T *)out);
        return launched("embedding kernel", err);
    });
}
