/* random_kernels.cu — the GPU side of aten-cuda's random ops (create/random.h): one thread
 * per element computes the element from its own draws of the block the host reserved
 * (tscript/aten.h's ts_aten_draw_value over tscript/random.h), and stores it in the tensor's
 * dtype as a copy from float64 would. The same seed and calls give the same numbers on cuda.
 */
#include "engine/types.cuh"
#include "create/random.h"

namespace {

using namespace ts_cuda;

template <typename S>
__global__ void draw(TsAtenDraw d, uint64_t base, const double *p, S *out, int64_t n)
{
    TS_CUDA_GRID_STRIDE(i, n) out[i] = store<S>(ts_aten_draw_value(&d, base, i, p));
}

__global__ void check_probabilities(const double *p, int64_t n, unsigned *bad)
{
    TS_CUDA_GRID_STRIDE(i, n) {
        if (!(p[i] >= 0 && p[i] <= 1))
            *bad = 1;
    }
}

} // namespace

extern "C" int ts_cuda_launch_draw(const TsAtenDraw *d, uint64_t base, const double *p,
                                   int dtype, void *out, int64_t n, TsError *err)
{
    if (n == 0)
        return 0;
    int rc = by_dtype(dtype, [&](auto zero) -> int {
        using S = decltype(zero);
        draw<S><<<grid_for(n), 256, 0, TS_CUDA_STREAM>>>(*d, base, p, (S *)out, n);
        return launched("random kernel", err);
    });
    if (rc < 0)
        return ts_error_set(err, TS_ERR_RUNTIME, "random draws are not implemented for '%s' "
                            "on cuda", ts_dtype_type_name(dtype));
    return rc;
}

extern "C" int ts_cuda_launch_check_probabilities(const double *p, int64_t n, bool *bad,
                                                  TsError *err)
{
    *bad = false;
    if (n == 0)
        return 0;
    int64_t one = 1;
    TsTensor *flag = ts_cuda_empty(TS_INT32, 1, &one, err);
    if (!flag)
        return err->code;
    unsigned *f = (unsigned *)ts_tensor_data(flag), host = 0;
    int rc = ts_cuda_check(cudaMemsetAsync(f, 0, sizeof host, TS_CUDA_STREAM), "bernoulli", err);
    if (!rc) {
        check_probabilities<<<grid_for(n), 256, 0, TS_CUDA_STREAM>>>(p, n, f);
        rc = launched("bernoulli check kernel", err);
    }
    if (!rc)
        rc = ts_cuda_check(cudaMemcpyAsync(&host, f, sizeof host, cudaMemcpyDeviceToHost,
                                           TS_CUDA_STREAM), "bernoulli", err);
    if (!rc)
        rc = ts_cuda_sync(err);
    ts_tensor_release(flag);
    *bad = host != 0;
    return rc;
}
