/* norm_kernels.cu — the kernels of batch_norm, layer_norm and group_norm (norm.h): row
 * statistics, the normalization with weight and bias, and training batch_norm's running
 * statistics.
 *
 * Statistics take two passes over a row (the mean, then the squared deviations from it), a
 * block per row, so the variance does not lose precision to cancellation. The elements are
 * read as float (double for float64) and the statistics kept so.
 */
#include <math.h>

#include "engine/block.cuh"
#include "engine/types.cuh"
#include "nn/norm.h"

namespace {

using namespace ts_cuda;

template <typename S> __global__ void row_stats(TsCudaStats st)
{
    using A = acc_t<S>;
    const S *in = (const S *)st.in;
    for (int64_t r = blockIdx.x; r < st.rows; r += gridDim.x) {
        const S *row = in + r * st.sstride;
        A s = 0;
        for (int64_t k = threadIdx.x; k < st.count; k += TS_CUDA_BLOCK)
            s += load(row[k / st.kin * st.kstride + k % st.kin]);
        s = block_reduce(s, [](A a, A b) { return a + b; });
        A mean = s / A(st.count), q = 0;
        for (int64_t k = threadIdx.x; k < st.count; k += TS_CUDA_BLOCK) {
            A d = load(row[k / st.kin * st.kstride + k % st.kin]) - mean;
            q += d * d;
        }
        q = block_reduce(q, [](A a, A b) { return a + b; });
        if (threadIdx.x == 0) {
            ((A *)st.mean)[r] = mean;
            ((A *)st.var)[r] = q / A(st.count);
        }
    }
}

template <typename S> __global__ void norm_apply(TsCudaNormApply p)
{
    using A = acc_t<S>;
    const S *in = (const S *)p.in;
    S *out = (S *)p.out;
    const A *mean = (const A *)p.mean, *var = (const A *)p.var;
    const A *w = (const A *)p.weight, *b = (const A *)p.bias;
    TS_CUDA_GRID_STRIDE(e, p.numel) {
        int64_t r = e / p.rdiv % p.rmod, c = e / p.cdiv % p.cmod;
        A y = (load(in[e]) - mean[r]) / sqrt(var[r] + A(p.eps));
        if (w)
            y *= w[c];
        if (b)
            y += b[c];
        out[e] = store<S>(y);
    }
}

template <typename A, typename R>
__global__ void running(R *rm, int64_t rms, R *rv, int64_t rvs, const A *mean, const A *var,
                        int64_t n, double count, double momentum)
{
    TS_CUDA_GRID_STRIDE(c, n) {
        if (rm)
            rm[c * rms] = store<R>((1 - momentum) * (double)load(rm[c * rms]) +
                                   momentum * (double)mean[c]);
        if (rv)
            rv[c * rvs] = store<R>((1 - momentum) * (double)load(rv[c * rvs]) +
                                   momentum * (double)var[c] * count / (count - 1));
    }
}

} // namespace

extern "C" int ts_cuda_launch_row_stats(const TsCudaStats *s, TsError *err)
{
    if (s->rows == 0)
        return 0;
    int rc = by_float_dtype(s->dtype, [&](auto zero) -> int {
        unsigned blocks = s->rows < 65536 ? (unsigned)s->rows : 65536;
        row_stats<decltype(zero)><<<blocks, TS_CUDA_BLOCK, 0, TS_CUDA_STREAM>>>(*s);
        return launched("normalization statistics kernel", err);
    });
    if (rc < 0)
        return ts_error_set(err, TS_ERR_RUNTIME, "normalization: no kernel for '%s'",
                            ts_dtype_type_name(s->dtype));
    return rc;
}

extern "C" int ts_cuda_launch_norm_apply(const TsCudaNormApply *a, TsError *err)
{
    if (a->numel == 0)
        return 0;
    int rc = by_float_dtype(a->dtype, [&](auto zero) -> int {
        norm_apply<decltype(zero)><<<grid_for(a->numel), TS_CUDA_BLOCK, 0, TS_CUDA_STREAM>>>(*a);
        return launched("normalization kernel", err);
    });
    if (rc < 0)
        return ts_error_set(err, TS_ERR_RUNTIME, "normalization: no kernel for '%s'",
                            ts_dtype_type_name(a->dtype));
    return rc;
}

extern "C" int ts_cuda_launch_running_stats(void *running_mean, int rm_dtype, int64_t rm_stride,
                                            void *running_var, int rv_dtype, int64_t rv_stride,
                                            const void *mean, const void *var, int stats_dtype,
                                            int64_t n, int64_t count, double momentum,
                                            TsError *err)
{
    if (n == 0 || (!running_mean && !running_var))
        return 0;
    /* both running tensors share one dtype here (the host casts otherwise) */
    int dt = running_mean ? rm_dtype : rv_dtype;
    if (running_mean && running_var && rm_dtype != rv_dtype)
        return ts_error_set(err, TS_ERR_RUNTIME, "batch_norm: running_mean and running_var "
                            "of different dtypes");
    int rc = by_float_dtype(dt, [&](auto r) -> int {
        using R = decltype(r);
        auto go = [&](auto s) -> int {
            using A = decltype(s);
            running<A, R><<<grid_for(n), TS_CUDA_BLOCK, 0, TS_CUDA_STREAM>>>(
                (R *)running_mean, rm_stride, (R *)running_var, rv_stride, (const A *)mean,
                (const A *)var, n, (double)count, momentum);
            return launched("batch_norm running statistics kernel", err);
        };
        return stats_dtype == TS_FLOAT64 ? go(double{}) : go(float{});
    });
    if (rc < 0)
        return ts_error_set(err, TS_ERR_RUNTIME, "batch_norm: running statistics of dtype %s",
                            ts_dtype_type_name(dt));
    return rc;
}
