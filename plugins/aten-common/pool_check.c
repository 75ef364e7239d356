/* pool_check.c — the part of PyTorch's pooling_output_shape and pool2d_shape_check that every
 * backend makes the same way: the window's checks (stride, padding, kernel size, dilation),
 * the 2-d pools' input check, and the output size, with PyTorch's messages. aten-cpu's
 * nn/pool.c (every pool family) and aten-cuda's nn/pool.c (the 2-d ones) read the arguments
 * and pool.
 */
#include "tscript/aten.h"

int64_t ts_aten_pool_out_size(int64_t in, int64_t k, int64_t p, int64_t s, int64_t d,
                              bool ceil_mode)
{
    int64_t num = in + 2 * p - d * (k - 1) - 1 + (ceil_mode ? s - 1 : 0);
    int64_t o = (num >= 0 ? num / s : -((-num + s - 1) / s)) + 1;
    if (ceil_mode && (o - 1) * s >= in + p)
        o--;
    return o;
}

int ts_aten_check_pool_pads(int n, const int64_t *k, const int64_t *s, const int64_t *p,
                            TsError *err)
{
    for (int i = 0; i < n; i++) {
        if (s[i] == 0)
            return ts_error_set(err, TS_ERR_RUNTIME, "stride should not be zero");
        if (p[i] < 0)
            return ts_error_set(err, TS_ERR_RUNTIME, "pad must be non-negative, but got pad: %lld",
                                (long long)p[i]);
        if (p[i] > k[i] / 2)
            return ts_error_set(err, TS_ERR_RUNTIME, "pad should be at most half of kernel size, "
                                "but got pad=%lld and kernel_size=%lld", (long long)p[i],
                                (long long)k[i]);
    }
    return 0;
}

int ts_aten_check_pool2d_window(const int64_t *k, const int64_t *s, const int64_t *d,
                                TsError *err)
{
    if (k[0] <= 0 || k[1] <= 0)
        return ts_error_set(err, TS_ERR_RUNTIME, "kernel size should be greater than zero, but "
                            "got kH: %lld kW: %lld", (long long)k[0], (long long)k[1]);
    if (s[0] <= 0 || s[1] <= 0)
        return ts_error_set(err, TS_ERR_RUNTIME, "stride should be greater than zero, but got "
                            "dH: %lld dW: %lld", (long long)s[0], (long long)s[1]);
    if (d[0] <= 0 || d[1] <= 0)
        return ts_error_set(err, TS_ERR_RUNTIME, "dilation should be greater than zero, but got "
                            "dilationH: %lld dilationW: %lld", (long long)d[0], (long long)d[1]);
    return 0;
}

int ts_aten_check_pool2d_input(int dim, const int64_t *sizes, TsError *err)
{
    bool ok = dim == 3 || dim == 4;
    for (int i = dim == 4 ? 1 : 0; ok && i < dim; i++)
        ok = sizes[i] != 0;
    if (ok)
        return 0;
    char shape[128];
    ts_aten_format_sizes(shape, sizeof shape, dim, sizes);
    return ts_error_set(err, TS_ERR_RUNTIME, "Expected 3D or 4D (batch mode) tensor with "
                        "optional 0 dim batch size for input, but got:%s", shape);
}
