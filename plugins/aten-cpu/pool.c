/* pool.c — 2-d pooling: max_pool2d, avg_pool2d and adaptive_avg_pool2d over (N, C, H, W) or
 * unbatched (C, H, W) inputs.
 *
 * Every pool walks planes (one per image and channel) of a contiguous copy of the input and
 * computes each output pixel from its window; the windows follow PyTorch's rules exactly:
 * output sizes with ceil_mode (the last window must start inside the input or its left
 * padding), max windows that skip padding and propagate NaN, average divisors that count or
 * skip padding (or divisor_override), and adaptive windows [floor(i*in/out), ceil((i+1)*in/out)).
 * The loops run in double per element and store in the tensor's dtype.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nn.h"

typedef struct Pool {
    int64_t k[2], s[2], p[2], d[2];
    bool ceil_mode, count_pad;
    int64_t divisor;           /* 0: none */
} Pool;

typedef struct Planes {
    int64_t n, c, h, w, oh, ow;
    bool batched;
} Planes;

static int64_t out_size(int64_t in, int64_t k, int64_t p, int64_t s, int64_t d, bool ceil_mode)
{
    int64_t num = in + 2 * p - d * (k - 1) - 1 + (ceil_mode ? s - 1 : 0);
    int64_t o = (num >= 0 ? num / s : -((-num + s - 1) / s)) + 1;
    if (ceil_mode && (o - 1) * s >= in + p)
        o--;
    return o;
}

/* Checks the input and the pool and fills the plane geometry. */
static int check(TsCall *c, const char *name, const TsTensor *x, const Pool *pl, Planes *g)
{
    TsError *err = c->error;
    bool ok_dim = (x->dim == 3 || x->dim == 4);
    for (int i = 1; ok_dim && i < x->dim; i++)
        ok_dim = x->sizes[i] != 0;
    if (!ok_dim)
        return ts_error_set(err, TS_ERR_RUNTIME, "non-empty 3D or 4D (batch mode) tensor "
                            "expected for input");
    if (ts_nn_check_float(c, name, x))
        return err->code;
    for (int i = 0; i < 2; i++) {
        if (pl->s[i] <= 0)
            return ts_error_set(err, TS_ERR_RUNTIME, "stride should not be zero");
        if (pl->k[i] <= 0)
            return ts_error_set(err, TS_ERR_RUNTIME, "kernel size should be greater than zero, "
                                "but got kH: %lld kW: %lld", (long long)pl->k[0],
                                (long long)pl->k[1]);
        if (pl->d[i] <= 0)
            return ts_error_set(err, TS_ERR_RUNTIME, "dilation should be greater than zero, but "
                                "got dilationH: %lld dilationW: %lld", (long long)pl->d[0],
                                (long long)pl->d[1]);
        if (pl->p[i] < 0 || pl->p[i] > pl->k[i] / 2)
            return ts_error_set(err, TS_ERR_RUNTIME, "pad should be at most half of kernel size, "
                                "but got pad=%lld and kernel_size=%lld", (long long)pl->p[i],
                                (long long)pl->k[i]);
    }
    g->batched = x->dim == 4;
    g->n = g->batched ? x->sizes[0] : 1;
    g->c = x->sizes[x->dim - 3];
    g->h = x->sizes[x->dim - 2];
    g->w = x->sizes[x->dim - 1];
    g->oh = out_size(g->h, pl->k[0], pl->p[0], pl->s[0], pl->d[0], pl->ceil_mode);
    g->ow = out_size(g->w, pl->k[1], pl->p[1], pl->s[1], pl->d[1], pl->ceil_mode);
    if (g->oh < 1 || g->ow < 1)
        return ts_error_set(err, TS_ERR_RUNTIME, "Given input size: (%lldx%lldx%lld). "
                            "Calculated output size: (%lldx%lldx%lld). Output size is too small",
                            (long long)g->c, (long long)g->h, (long long)g->w, (long long)g->c,
                            (long long)g->oh, (long long)g->ow);
    return 0;
}

/* The output (same rank as x) and a contiguous copy of x in *cx. */
static TsTensor *alloc(TsError *err, TsTensor *x, const Planes *g, TsTensor **cx)
{
    int64_t sizes[4] = { g->n, g->c, g->oh, g->ow };
    TsTensor *o = ts_cpu_empty(x->dtype, g->batched ? 4 : 3, sizes + (g->batched ? 0 : 1), err);
    *cx = o ? ts_nn_contiguous(x, err) : NULL;
    if (o && !*cx) {
        ts_tensor_release(o);
        return NULL;
    }
    return o;
}

/* Max over each window; idx (may be NULL) gets the flat in-plane index of the max. */
static void max_pool(const Pool *pl, const Planes *g, int dtype, const void *in, void *out,
                     int64_t *idx)
{
    int64_t planes = g->n * g->c, hw = g->h * g->w, ohw = g->oh * g->ow;
    for (int64_t q = 0; q < planes; q++)
        for (int64_t y = 0; y < g->oh; y++)
            for (int64_t x = 0; x < g->ow; x++) {
                int64_t h0 = y * pl->s[0] - pl->p[0], w0 = x * pl->s[1] - pl->p[1];
                double m = -INFINITY;
                int64_t at = -1;
                for (int64_t i = 0; i < pl->k[0]; i++) {
                    int64_t iy = h0 + i * pl->d[0];
                    if (iy < 0 || iy >= g->h)
                        continue;
                    for (int64_t j = 0; j < pl->k[1]; j++) {
                        int64_t ix = w0 + j * pl->d[1];
                        if (ix < 0 || ix >= g->w)
                            continue;
                        double v = ts_nn_get(dtype, in, q * hw + iy * g->w + ix);
                        if (at < 0)
                            at = iy * g->w + ix;
                        if (v > m || isnan(v)) {
                            m = v;
                            at = iy * g->w + ix;
                        }
                        if (isnan(m))
                            break;
                    }
                }
                ts_nn_set(dtype, out, q * ohw + y * g->ow + x, m);
                if (idx)
                    idx[q * ohw + y * g->ow + x] = at;
            }
}

static void avg_pool(const Pool *pl, const Planes *g, int dtype, const void *in, void *out)
{
    int64_t planes = g->n * g->c, hw = g->h * g->w, ohw = g->oh * g->ow;
    for (int64_t q = 0; q < planes; q++)
        for (int64_t y = 0; y < g->oh; y++)
            for (int64_t x = 0; x < g->ow; x++) {
                int64_t h0 = y * pl->s[0] - pl->p[0], w0 = x * pl->s[1] - pl->p[1];
                int64_t h1 = h0 + pl->k[0], w1 = w0 + pl->k[1];
                if (h1 > g->h + pl->p[0])
                    h1 = g->h + pl->p[0];
                if (w1 > g->w + pl->p[1])
                    w1 = g->w + pl->p[1];
                int64_t pool = (h1 - h0) * (w1 - w0);
                h0 = h0 < 0 ? 0 : h0;
                w0 = w0 < 0 ? 0 : w0;
                h1 = h1 > g->h ? g->h : h1;
                w1 = w1 > g->w ? g->w : w1;
                double sum = 0;
                for (int64_t iy = h0; iy < h1; iy++)
                    for (int64_t ix = w0; ix < w1; ix++)
                        sum += ts_nn_get(dtype, in, q * hw + iy * g->w + ix);
                int64_t div = pl->divisor ? pl->divisor
                            : pl->count_pad ? pool : (h1 - h0) * (w1 - w0);
                ts_nn_set(dtype, out, q * ohw + y * g->ow + x, div ? sum / (double)div : NAN);
            }
}

/* Reads kernel_size, stride (empty: the kernel), padding, dilation (when has_dil). */
static int read_pool(TsCall *c, const char *name, TsValue *a, bool has_dil, Pool *pl)
{
    if (ts_nn_int_list(c, name, "kernel_size", a[1], 2, pl->k, -1) ||
        ts_nn_int_list(c, name, "stride", a[2], 2, pl->s, 0) ||
        ts_nn_int_list(c, name, "padding", a[3], 2, pl->p, -1))
        return c->error->code;
    if (pl->s[0] == 0 && pl->s[1] == 0 && a[2].tag == TS_TAG_LIST &&
        ((const TsList *)a[2].u.p)->len == 0) {
        pl->s[0] = pl->k[0];
        pl->s[1] = pl->k[1];
    }
    pl->d[0] = pl->d[1] = 1;
    if (has_dil && ts_nn_int_list(c, name, "dilation", a[4], 2, pl->d, -1))
        return c->error->code;
    return 0;
}

/* aten::max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0,
 *                  int[2] dilation=1, bool ceil_mode=False) -> Tensor */
static int k_max_pool2d(TsCall *c)
{
    TsValue a[6];
    Pool pl;
    memset(&pl, 0, sizeof pl);
    Planes g;
    TsTensor *o = NULL, *cx;
    ts_cpu_pop_args(c, 6, a);
    TsTensor *x = ts_cpu_tensor_arg(c, "aten::max_pool2d", "self", a[0]);
    pl.ceil_mode = a[5].tag == TS_TAG_BOOL && a[5].u.b;
    if (x && !read_pool(c, "max_pool2d", a, true, &pl) && !check(c, "max_pool2d", x, &pl, &g) &&
        (o = alloc(c->error, x, &g, &cx))) {
        max_pool(&pl, &g, x->dtype, ts_tensor_data(cx), ts_tensor_data(o), NULL);
        ts_tensor_release(cx);
    }
    return ts_nn_finish(c, 6, a, o);
}

/* aten::max_pool2d_with_indices(Tensor self, int[2] kernel_size, int[2] stride=[],
 *   int[2] padding=0, int[2] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor) */
static int k_max_pool2d_with_indices(TsCall *c)
{
    TsValue a[6];
    Pool pl;
    Planes g;
    TsTensor *o = NULL, *ix = NULL, *cx;
    memset(&pl, 0, sizeof pl);
    ts_cpu_pop_args(c, 6, a);
    TsTensor *x = ts_cpu_tensor_arg(c, "aten::max_pool2d_with_indices", "self", a[0]);
    pl.ceil_mode = a[5].tag == TS_TAG_BOOL && a[5].u.b;
    if (x && !read_pool(c, "max_pool2d_with_indices", a, true, &pl) &&
        !check(c, "max_pool2d", x, &pl, &g) && (o = alloc(c->error, x, &g, &cx))) {
        ix = ts_cpu_empty(TS_INT64, o->dim, o->sizes, c->error);
        if (ix)
            max_pool(&pl, &g, x->dtype, ts_tensor_data(cx), ts_tensor_data(o),
                     ts_tensor_data(ix));
        ts_tensor_release(cx);
    }
    if (o && !ix) {
        ts_tensor_release(o);
        o = NULL;
    }
    int rc = ts_nn_finish(c, 6, a, o);
    if (rc) {
        if (ix)
            ts_tensor_release(ix);
        return rc;
    }
    return ts_cpu_push_tensor(c, ix);
}

/* aten::avg_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0,
 *   bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) -> Tensor */
static int k_avg_pool2d(TsCall *c)
{
    TsValue a[7];
    Pool pl;
    memset(&pl, 0, sizeof pl);
    Planes g;
    TsTensor *o = NULL, *cx;
    ts_cpu_pop_args(c, 7, a);
    TsTensor *x = ts_cpu_tensor_arg(c, "aten::avg_pool2d", "self", a[0]);
    pl.ceil_mode = a[4].tag == TS_TAG_BOOL && a[4].u.b;
    pl.count_pad = !(a[5].tag == TS_TAG_BOOL && !a[5].u.b);
    pl.divisor = a[6].tag == TS_TAG_INT ? a[6].u.i : 0;
    if (x && a[6].tag == TS_TAG_INT && a[6].u.i == 0)
        ts_error_set(c->error, TS_ERR_RUNTIME, "divisor must be not zero");
    else if (x && !read_pool(c, "avg_pool2d", a, false, &pl) &&
             !check(c, "avg_pool2d", x, &pl, &g) && (o = alloc(c->error, x, &g, &cx))) {
        avg_pool(&pl, &g, x->dtype, ts_tensor_data(cx), ts_tensor_data(o));
        ts_tensor_release(cx);
    }
    return ts_nn_finish(c, 7, a, o);
}

static TsTensor *adaptive(TsCall *c, TsTensor *x, const int64_t *os)
{
    char s[128];
    if (x->dim != 3 && x->dim != 4) {
        ts_cpu_format_sizes(s, sizeof s, x->dim, x->sizes);
        ts_error_set(c->error, TS_ERR_RUNTIME, "adaptive_avg_pool2d(): Expected 3D or 4D tensor, "
                     "but got %s", s);
        return NULL;
    }
    for (int i = 1; i < x->dim; i++)
        if (x->sizes[i] == 0) {
            ts_cpu_format_sizes(s, sizeof s, x->dim, x->sizes);
            ts_error_set(c->error, TS_ERR_RUNTIME, "adaptive_avg_pool2d(): Expected input to "
                         "have non-zero size for non-batch dimensions, but input has sizes %s "
                         "with dimension %d being empty", s, i);
            return NULL;
        }
    if (os[0] < 0 || os[1] < 0) {
        ts_error_set(c->error, TS_ERR_RUNTIME, "adaptive_avg_pool2d: elements of output_size "
                     "must be greater than or equal to 0 but received {%lld, %lld}",
                     (long long)os[0], (long long)os[1]);
        return NULL;
    }
    if (ts_nn_check_float(c, "adaptive_avg_pool2d", x))
        return NULL;
    Planes g = { x->dim == 4 ? x->sizes[0] : 1, x->sizes[x->dim - 3], x->sizes[x->dim - 2],
                 x->sizes[x->dim - 1], os[0], os[1], x->dim == 4 };
    TsTensor *cx, *o = alloc(c->error, x, &g, &cx);
    if (!o)
        return NULL;
    const void *in = ts_tensor_data(cx);
    void *out = ts_tensor_data(o);
    int64_t planes = g.n * g.c;
    for (int64_t q = 0; q < planes; q++)
        for (int64_t y = 0; y < g.oh; y++) {
            int64_t h0 = y * g.h / g.oh, h1 = ((y + 1) * g.h + g.oh - 1) / g.oh;
            for (int64_t xx = 0; xx < g.ow; xx++) {
                int64_t w0 = xx * g.w / g.ow, w1 = ((xx + 1) * g.w + g.ow - 1) / g.ow;
                double sum = 0;
                for (int64_t iy = h0; iy < h1; iy++)
                    for (int64_t ix = w0; ix < w1; ix++)
                        sum += ts_nn_get(x->dtype, in, (q * g.h + iy) * g.w + ix);
                ts_nn_set(x->dtype, out, (q * g.oh + y) * g.ow + xx,
                          sum / (double)((h1 - h0) * (w1 - w0)));
            }
        }
    ts_tensor_release(cx);
    return o;
}

/* aten::adaptive_avg_pool2d(Tensor self, SymInt[2] output_size) -> Tensor */
static int k_adaptive_avg_pool2d(TsCall *c)
{
    TsValue a[2];
    int64_t os[2];
    ts_cpu_pop_args(c, 2, a);
    TsTensor *x = ts_cpu_tensor_arg(c, "aten::adaptive_avg_pool2d", "self", a[0]);
    TsTensor *o = NULL;
    if (x && !ts_nn_int_list(c, "adaptive_avg_pool2d", "output_size", a[1], 2, os, -1))
        o = adaptive(c, x, os);
    return ts_nn_finish(c, 2, a, o);
}

static const TsCpuOp ops[] = {
    { "aten::max_pool2d", "", k_max_pool2d },
    { "aten::max_pool2d_with_indices", "", k_max_pool2d_with_indices },
    { "aten::avg_pool2d", "", k_avg_pool2d },
    { "aten::adaptive_avg_pool2d", "", k_adaptive_avg_pool2d },
};

const TsCpuTable ts_cpu_pool_table = { ops, sizeof ops / sizeof ops[0] };
