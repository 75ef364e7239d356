/* pool_kernels.cu — max, average and adaptive average pooling over planes (nn/pool.c): one
 * thread per output element walks its window. Sums accumulate in the dtype's computing
 * type (float for float16 and bfloat16), as PyTorch's kernels do.
 */
#include "nn/kernels.cuh"

using namespace tsnn;

namespace {

template <typename T> __global__ void max_pool(const T *x, T *y, int64_t planes, TsCudaWindow g)
{
    using C = acc_t<T>;
    TSNN_LOOP(e, planes * g.oh * g.ow) {
        int64_t ox = e % g.ow, oy = (e / g.ow) % g.oh, p = e / (g.oh * g.ow);
        const T *in = x + p * g.h * g.w;
        int64_t y0 = oy * g.sh - g.ph, x0 = ox * g.sw - g.pw;
        C best = -INFINITY;
        bool nan = false;
        for (int64_t i = 0; i < g.kh && !nan; i++) {
            int64_t iy = y0 + i * g.dh;
            if (iy < 0 || iy >= g.h)
                continue;
            for (int64_t j = 0; j < g.kw; j++) {
                int64_t ix = x0 + j * g.dw;
                if (ix < 0 || ix >= g.w)
                    continue;
                C v = load(in[iy * g.w + ix]);
                if (v != v) {
                    best = v;
                    nan = true;
                    break;
                }
                if (v > best)
                    best = v;
            }
        }
        y[e] = store<T>(best);
    }
}

template <typename T>
__global__ void avg_pool(const T *x, T *y, int64_t planes, TsCudaWindow g, bool include_pad,
                         int64_t divisor)
{
    using C = acc_t<T>;
    TSNN_LOOP(e, planes * g.oh * g.ow) {
        int64_t ox = e % g.ow, oy = (e / g.ow) % g.oh, p = e / (g.oh * g.ow);
        const T *in = x + p * g.h * g.w;
        int64_t y0 = oy * g.sh - g.ph, x0 = ox * g.sw - g.pw;
        int64_t y1 = min(y0 + g.kh, g.h + g.ph), x1 = min(x0 + g.kw, g.w + g.pw);
        int64_t padded = (y1 - y0) * (x1 - x0);
        y0 = max(y0, (int64_t)0), x0 = max(x0, (int64_t)0);
        y1 = min(y1, g.h), x1 = min(x1, g.w);
        C sum = 0;
        for (int64_t iy = y0; iy < y1; iy++)
            for (int64_t ix = x0; ix < x1; ix++)
                sum += load(in[iy * g.w + ix]);
        int64_t div = divisor ? divisor : include_pad ? padded : (y1 - y0) * (x1 - x0);
        y[e] = store<T>(sum / (C)div);
    }
}

template <typename T>
__global__ void adaptive_avg_pool(const T *x, T *y, int64_t planes, int64_t h, int64_t w,
                                  int64_t oh, int64_t ow)
{
    using C = acc_t<T>;
    TSNN_LOOP(e, planes * oh * ow) {
        int64_t ox = e % ow, oy = (e / ow) % oh, p = e / (oh * ow);
        const T *in = x + p * h * w;
        int64_t y0 = oy * h / oh, y1 = ((oy + 1) * h + oh - 1) / oh;
        int64_t x0 = ox * w / ow, x1 = ((ox + 1) * w + ow - 1) / ow;
        C sum = 0;
        for (int64_t iy = y0; iy < y1; iy++)
            for (int64_t ix = x0; ix < x1; ix++)
                sum += load(in[iy * w + ix]);
        y[e] = store<T>(sum / (C)((y1 - y0) * (x1 - x0)));
    }
}

} // namespace

extern "C" int ts_cuda_launch_max_pool2d(int dtype, const void *x, void *y, int64_t planes,
                                         const TsCudaWindow *g, TsError *err)
{
    int64_t n = planes * g->oh * g->ow;
    if (n == 0)
        return 0;
    return by_float_dtype(dtype, "max_pool2d", err, [&](auto zero) -> int {
        using T = decltype(zero);
        max_pool<T><<<grid_for(n), threads, 0, TS_CUDA_STREAM>>>((const T *)x, (T *)y, planes,
                                                                 *g);
        return launched("max_pool2d kernel", err);
    });
}

extern "C" int ts_cuda_launch_avg_pool2d(int dtype, const void *x, void *y, int64_t planes,
                                         const TsCudaWindow *g, bool count_include_pad,
                                         int64_t divisor, TsError *err)
{
    int64_t n = planes * g->oh * g->ow;
    if (n == 0)
        return 0;
    return by_float_dtype(dtype, "avg_pool2d", err, [&](auto zero) -> int {
        using T = decltype(zero);
        avg_pool<T><<<grid_for(n), threads, 0, TS_CUDA_STREAM>>>(
            (const T *)x, (T *)y, planes, *g, count_include_pad, divisor);
        return launched("avg_pool2d kernel", err);
    });
}

extern "C" int ts_cuda_launch_adaptive_avg_pool2d(int dtype, const void *x, void *y,
                                                  int64_t planes, int64_t h, int64_t w,
                                                  int64_t oh, int64_t ow, TsError *err)
{
    int64_t n = planes * oh * ow;
    if (n == 0)
        return 0;
    return by_float_dtype(dtype, "adaptive_avg_pool2d", err, [&](auto zero) -> int {
        using T = decltype(zero);
        adaptive_avg_pool<T><<<grid_for(n), threads, 0, TS_CUDA_STREAM>>>(
            (const T *)x, (T *)y, planes, h, w, oh, ow);
        return launched("adaptive_avg_pool2d kernel", err);
    });
}
