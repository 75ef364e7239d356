/* pool.c — max_pool2d, avg_pool2d and adaptive_avg_pool2d on the GPU: PyTorch's argument
 * rules here (checked by aten-common's pool_check.c, as aten-cpu's pool.c checks them), the
 * windows in pool_kernels.cu. The input (3-d unbatched or 4-d) is made contiguous in its
 * dtype and pooled as N * C planes.
 */
#include "nn/nn.h"

/* An int[2] argument: one int, or a list of 1 or 2; *empty for [] when empty is given. */
static int pair(TsArgs *a, size_t i, const char *what, int64_t *out, bool *empty)
{
    int64_t v[2];
    int n = 0;
    int rc = ts_args_int_list(a, i, v, &n, 2);
    if (rc)
        return rc;
    if (n == 0 && empty) {
        *empty = true;
        return 0;
    }
    if (n != 1 && n != 2)
        return ts_error_set(a->call->error, TS_ERR_RUNTIME, "%s must either be a single int, "
                            "or a tuple of two ints", what);
    out[0] = v[0];
    out[1] = n == 2 ? v[1] : v[0];
    return 0;
}

/* The input's planes and spatial sizes, after PyTorch's shape check. */
static int input_shape(TsError *err, const TsTensor *x, int64_t *planes, int64_t *h, int64_t *w)
{
    if (ts_aten_check_pool2d_input(x->dim, x->sizes, err))
        return err->code;
    *planes = 1;
    for (int i = 0; i < x->dim - 2; i++)
        *planes *= x->sizes[i];
    *h = x->sizes[x->dim - 2];
    *w = x->sizes[x->dim - 1];
    return 0;
}

/* Binds a pool's window (kernel_size, stride, padding at 1..3; dilation at 4 when has_dil,
 * ceil_mode at ceil_at) and computes the output size. */
static int window(TsArgs *a, bool has_dil, size_t ceil_at, TsCudaWindow *g)
{
    TsError *err = a->call->error;
    int64_t k[2], s[2], p[2], d[2] = { 1, 1 };
    bool empty = false, ceil_mode;
    int rc = pair(a, 1, "kernel_size", k, NULL);
    if (!rc) rc = pair(a, 2, "stride", s, &empty);
    if (!rc) rc = pair(a, 3, "padding", p, NULL);
    if (!rc && has_dil) rc = pair(a, 4, "dilation", d, NULL);
    if (!rc) rc = ts_args_bool(a, ceil_at, &ceil_mode);
    if (rc)
        return rc;
    if (empty)
        s[0] = k[0], s[1] = k[1];
    if (ts_aten_check_pool_pads(2, k, s, p, err) || ts_aten_check_pool2d_window(k, s, d, err))
        return err->code;
    g->kh = k[0], g->kw = k[1], g->sh = s[0], g->sw = s[1];
    g->ph = p[0], g->pw = p[1], g->dh = d[0], g->dw = d[1];
    g->oh = ts_aten_pool_out_size(g->h, k[0], p[0], s[0], d[0], ceil_mode);
    g->ow = ts_aten_pool_out_size(g->w, k[1], p[1], s[1], d[1], ceil_mode);
    return 0;
}

/* A new tensor of x's leading dims and oh x ow. */
static TsTensor *output(const TsTensor *x, int64_t oh, int64_t ow, TsError *err)
{
    int64_t sizes[4];
    for (int i = 0; i < x->dim - 2; i++)
        sizes[i] = x->sizes[i];
    sizes[x->dim - 2] = oh;
    sizes[x->dim - 1] = ow;
    return ts_cuda_empty(x->dtype, x->dim, sizes, err);
}

/* aten::max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0,
 *                  int[2] dilation=1, bool ceil_mode=False) -> Tensor
 * aten::avg_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0,
 *                  bool ceil_mode=False, bool count_include_pad=True,
 *                  int? divisor_override=None) -> Tensor */
static int pool_call(TsCall *c, bool avg)
{
    TsArgs a;
    TsTensor *x, *cx = NULL, *r = NULL;
    TsCudaWindow g;
    int64_t planes, divisor = 0;
    bool include_pad = false, has_div = false;
    int rc = ts_args_pop(c, TS_DEV_CUDA, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x);
    if (!rc) rc = input_shape(c->error, x, &planes, &g.h, &g.w);
    if (!rc) rc = window(&a, !avg, avg ? 4 : 5, &g);
    if (!rc && avg) rc = ts_args_bool(&a, 5, &include_pad);
    if (!rc && avg) rc = ts_args_opt_int(&a, 6, &divisor, &has_div);
    if (!rc && has_div && divisor == 0)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "divisor must be not zero");
    if (!rc && (g.oh < 1 || g.ow < 1))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Given input size: (%lldx%lldx%lld). "
                          "Calculated output size: (%lldx%lldx%lld). Output size is too small",
                          (long long)x->sizes[x->dim - 3], (long long)g.h, (long long)g.w,
                          (long long)x->sizes[x->dim - 3], (long long)g.oh, (long long)g.ow);
    if (!rc) rc = ts_cuda_use_device(x->device, c->error);
    if (!rc && !(cx = ts_cuda_contiguous_as(x, x->dtype, c->error)))
        rc = c->error->code;
    if (!rc && !(r = output(x, g.oh, g.ow, c->error)))
        rc = c->error->code;
    if (!rc && avg)
        rc = ts_cuda_launch_avg_pool2d(x->dtype, ts_tensor_data(cx), ts_tensor_data(r), planes,
                                       &g, include_pad, has_div ? divisor : 0, c->error);
    else if (!rc)
        rc = ts_cuda_launch_max_pool2d(x->dtype, ts_tensor_data(cx), ts_tensor_data(r), planes,
                                       &g, c->error);
    if (cx)
        ts_tensor_release(cx);
    return ts_args_return_tensor(&a, rc, r);
}

static int k_max_pool2d(TsCall *c) { return pool_call(c, false); }
static int k_avg_pool2d(TsCall *c) { return pool_call(c, true); }

/* aten::adaptive_avg_pool2d(Tensor self, SymInt[2] output_size) -> Tensor */
static int k_adaptive_avg_pool2d(TsCall *c)
{
    TsArgs a;
    TsTensor *x, *cx = NULL, *r = NULL;
    int64_t planes, h, w, o[2];
    int rc = ts_args_pop(c, TS_DEV_CUDA, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x);
    if (!rc) rc = pair(&a, 1, "output_size", o, NULL);
    if (!rc && (x->dim != 3 && x->dim != 4))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "adaptive_avg_pool2d(): Expected 3D or 4D "
                          "tensor, but got %d-D", (int)x->dim);
    for (int i = x->dim == 4 ? 1 : 0; !rc && i < x->dim; i++)
        if (x->sizes[i] == 0) {
            char shape[128];
            ts_aten_format_sizes(shape, sizeof shape, x->dim, x->sizes);
            rc = ts_error_set(c->error, TS_ERR_RUNTIME, "adaptive_avg_pool2d(): Expected input "
                              "to have non-zero size for non-batch dimensions, but input has "
                              "sizes %s with dimension %d being empty", shape, i);
        }
    if (!rc && (o[0] < 0 || o[1] < 0))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "adaptive_avg_pool2d: elements of "
                          "output_size must be greater than or equal to 0 but received {%lld, "
                          "%lld}", (long long)o[0], (long long)o[1]);
    if (!rc) rc = input_shape(c->error, x, &planes, &h, &w);
    if (!rc) rc = ts_cuda_use_device(x->device, c->error);
    if (!rc && !(cx = ts_cuda_contiguous_as(x, x->dtype, c->error)))
        rc = c->error->code;
    if (!rc && !(r = output(x, o[0], o[1], c->error)))
        rc = c->error->code;
    if (!rc)
        rc = ts_cuda_launch_adaptive_avg_pool2d(x->dtype, ts_tensor_data(cx), ts_tensor_data(r),
                                                planes, h, w, o[0], o[1], c->error);
    if (cx)
        ts_tensor_release(cx);
    return ts_args_return_tensor(&a, rc, r);
}

static const TsCudaOp ops[] = {
    { "aten::max_pool2d", "", k_max_pool2d },
    { "aten::avg_pool2d", "", k_avg_pool2d },
    { "aten::adaptive_avg_pool2d", "", k_adaptive_avg_pool2d },
};

const TsCudaTable ts_cuda_pool_table = { ops, sizeof ops / sizeof ops[0] };
