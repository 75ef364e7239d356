/* im2col.cu — the unrolling of image patches into columns that turns a convolution into a
 * GEMM (nn/conv.c): one thread per column entry, reading the input through its strides so
 * that no contiguous copy of it is needed.
 */
#include "nn/kernels.cuh"

using namespace tsnn;

namespace {

struct Strides {
    int64_t s[4];
};

template <typename T>
__global__ void im2col(const T *x, Strides xs, int64_t n, int64_t c, TsCudaWindow g, T *col)
{
    int64_t l = g.oh * g.ow, k = g.kh * g.kw;
    TSNN_LOOP(e, n * c * k * l) {
        int64_t ox = e % g.ow, oy = (e / g.ow) % g.oh, row = e / l;
        int64_t kj = row % g.kw, ki = (row / g.kw) % g.kh, ch = (row / k) % c, img = row / (k * c);
        int64_t iy = oy * g.sh - g.ph + ki * g.dh, ix = ox * g.sw - g.pw + kj * g.dw;
        bool in = iy >= 0 && iy < g.h && ix >= 0 && ix < g.w;
        col[e] = in ? x[img * xs.s[0] + ch * xs.s[1] + iy * xs.s[2] + ix * xs.s[3]] : T(0);
    }
}

} // namespace

extern "C" int ts_cuda_launch_im2col(int dtype, const void *x, const int64_t *xs, int64_t n,
                                     int64_t c, const TsCudaWindow *g, void *col, TsError *err)
{
    Strides s = { { xs[0], xs[1], xs[2], xs[3] } };
    int64_t total = n * c * g->kh * g->kw * g->oh * g->ow;
    if (total == 0)
        return 0;
    return by_size(dtype, "im2col", err, [&](auto zero) -> int {
        using T = decltype(zero);
        im2col<T><<<grid_for(total), threads, 0, TS_CUDA_STREAM>>>((const T *)x, s, n, c, *g,
                                                                   (T *)col);
        return launched("im2col kernel", err);
    });
}
