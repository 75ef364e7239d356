/* conv.c — conv1d and conv2d (with stride, padding as ints or "same"/"valid", dilation and
 * groups) by im2col + GEMM.
 *
 * Both are one 2-d convolution: conv1d is conv2d over a height of 1. For each image and group
 * the input patches are unrolled into a (channels * kh * kw) x (out_h * out_w) matrix, which
 * the group's weight, read in place as an (out_channels / groups) x (channels * kh * kw)
 * matrix, multiplies by one GEMM straight into the output; a 1x1 kernel with stride 1 and no
 * padding skips the unrolling and reads the input itself. "same" padding may be uneven (the
 * extra pixel goes after, as PyTorch pads); the unrolling handles each side on its own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nn.h"

typedef struct ConvGeom {
    int nd;                    /* 1 or 2: the user's spatial dims */
    int64_t stride[2], pad_lo[2], pad_hi[2], dil[2], groups;
    bool same, valid;          /* padding given as a string */
} ConvGeom;

/* Formats the spatial part of sizes as PyTorch does in its kernel message: "(2 x 2)". */
static void fmt_spatial(char *buf, size_t size, int nd, const int64_t *v)
{
    if (nd == 1)
        snprintf(buf, size, "(%lld)", (long long)v[1]);
    else
        snprintf(buf, size, "(%lld x %lld)", (long long)v[0], (long long)v[1]);
}

static int check(TsCall *c, const ConvGeom *g, const TsTensor *x, const TsTensor *w,
                 const TsTensor *b)
{
    char s1[128], s2[128];
    TsError *err = c->error;
    int nd = g->nd;
    if (x->dim != nd + 1 && x->dim != nd + 2) {
        ts_cpu_format_sizes(s1, sizeof s1, x->dim, x->sizes);
        return ts_error_set(err, TS_ERR_RUNTIME, "Expected %dD (unbatched) or %dD (batched) "
                            "input to conv%dd, but got input of size: %s", nd + 1, nd + 2, nd,
                            s1);
    }
    for (int i = 0; i < 2; i++) {
        if (g->pad_lo[i] < 0 || g->pad_hi[i] < 0)
            return ts_error_set(err, TS_ERR_RUNTIME, "negative padding is not supported");
        if (g->stride[i] <= 0)
            return ts_error_set(err, TS_ERR_RUNTIME, "non-positive stride is not supported");
        if (g->dil[i] <= 0)
            return ts_error_set(err, TS_ERR_RUNTIME, "dilation should be greater than zero");
    }
    if (g->groups <= 0)
        return ts_error_set(err, TS_ERR_RUNTIME, "non-positive groups is not supported");
    if (w->dim != nd + 2) {
        ts_cpu_format_sizes(s1, sizeof s1, w->dim, w->sizes);
        return ts_error_set(err, TS_ERR_RUNTIME, "Expected %d-dimensional weight for conv%dd, "
                            "but got %d-dimensional weight of size %s", nd + 2, nd,
                            (int)w->dim, s1);
    }
    if (ts_nn_same_dtype(c, x, w) || ts_nn_check_float(c, "slow_conv2d_cpu", x))
        return err->code;
    if (w->sizes[0] % g->groups) {
        ts_cpu_format_sizes(s1, sizeof s1, w->dim, w->sizes);
        return ts_error_set(err, TS_ERR_RUNTIME, "Given groups=%lld, expected weight to be "
                            "divisible by %lld at dimension 0, but got weight of size [%s] "
                            "instead", (long long)g->groups, (long long)g->groups, s1);
    }
    int cdim = x->dim - nd - 1;
    if (x->sizes[cdim] != w->sizes[1] * g->groups) {
        ts_cpu_format_sizes(s1, sizeof s1, w->dim, w->sizes);
        ts_cpu_format_sizes(s2, sizeof s2, x->dim, x->sizes);
        return ts_error_set(err, TS_ERR_RUNTIME, "Given groups=%lld, weight of size %s, "
                            "expected input%s to have %lld channels, but got %lld channels "
                            "instead", (long long)g->groups, s1, s2,
                            (long long)(w->sizes[1] * g->groups), (long long)x->sizes[cdim]);
    }
    int64_t in[2] = { 1, 1 }, k[2] = { 1, 1 };
    for (int i = 0; i < nd; i++) {
        int s = 2 - nd + i;
        in[s] = x->sizes[cdim + 1 + i] + g->pad_lo[s] + g->pad_hi[s];
        k[s] = g->dil[s] * (w->sizes[2 + i] - 1) + 1;
    }
    if (in[0] < k[0] || in[1] < k[1]) {
        fmt_spatial(s1, sizeof s1, nd, in);
        fmt_spatial(s2, sizeof s2, nd, k);
        return ts_error_set(err, TS_ERR_RUNTIME, "Calculated padded input size per channel: "
                            "%s. Kernel size: %s. Kernel size can't be greater than actual "
                            "input size", s1, s2);
    }
    if (b && (b->dim != 1 || b->sizes[0] != w->sizes[0])) {
        ts_cpu_format_sizes(s1, sizeof s1, w->dim, w->sizes);
        ts_cpu_format_sizes(s2, sizeof s2, b->dim, b->sizes);
        return ts_error_set(err, TS_ERR_RUNTIME, "Given weight of size %s, expected bias to be "
                            "1-dimensional with %lld elements, but got bias of size %s instead",
                            s1, (long long)w->sizes[0], s2);
    }
    if (b)
        return ts_nn_same_dtype(c, x, b);
    return 0;
}

/* The patches of one image's group (channels ch, planes h x w) as rows of col. */
#define IM2COL(DT, T, ...) \
    static void im2col_##DT(const T *in, int64_t ch, int64_t h, int64_t w, const int64_t *k, \
                            const int64_t *oh, const ConvGeom *g, T *col) \
    { \
        for (int64_t c = 0; c < ch; c++) \
            for (int64_t ki = 0; ki < k[0]; ki++) \
                for (int64_t kj = 0; kj < k[1]; kj++) { \
                    const T *plane = in + c * h * w; \
                    for (int64_t y = 0; y < oh[0]; y++) { \
                        int64_t iy = y * g->stride[0] - g->pad_lo[0] + ki * g->dil[0]; \
                        bool row_in = iy >= 0 && iy < h; \
                        for (int64_t x = 0; x < oh[1]; x++) { \
                            int64_t ix = x * g->stride[1] - g->pad_lo[1] + kj * g->dil[1]; \
                            *col++ = row_in && ix >= 0 && ix < w ? plane[iy * w + ix] : 0; \
                        } \
                    } \
                } \
    }
EW_FLOAT_TYPES(IM2COL, )
#undef IM2COL

static TsTensor *conv(TsCall *c, const ConvGeom *g, TsTensor *input, TsTensor *weight,
                      TsTensor *bias)
{
    if (check(c, g, input, weight, bias))
        return NULL;
    TsError *err = c->error;
    int nd = g->nd;
    bool batched = input->dim == nd + 2;
    int64_t n = batched ? input->sizes[0] : 1, cdim = batched ? 1 : 0;
    int64_t cin = input->sizes[cdim], cout = weight->sizes[0];
    int64_t h = nd == 2 ? input->sizes[cdim + 1] : 1, w = input->sizes[cdim + nd];
    int64_t k[2] = { nd == 2 ? weight->sizes[2] : 1, weight->sizes[1 + nd] };
    int64_t oh[2], in[2] = { h, w };
    for (int s = 0; s < 2; s++)
        oh[s] = (in[s] + g->pad_lo[s] + g->pad_hi[s] - g->dil[s] * (k[s] - 1) - 1) /
                g->stride[s] + 1;
    int64_t sizes[4], dim = 0;
    if (batched)
        sizes[dim++] = n;
    sizes[dim++] = cout;
    if (nd == 2)
        sizes[dim++] = oh[0];
    sizes[dim++] = oh[1];
    TsTensor *o = ts_cpu_empty(input->dtype, (int)dim, sizes, err);
    TsTensor *x = o ? ts_nn_contiguous(input, err) : NULL;
    TsTensor *wt = x ? ts_nn_contiguous(weight, err) : NULL;
    if (!wt)
        goto fail;
    int64_t cg = cin / g->groups, og = cout / g->groups, ksz = cg * k[0] * k[1];
    int64_t plane = oh[0] * oh[1], es = (int64_t)ts_dtype_size(o->dtype);
    if (bias && cout * plane > 0)
        for (int64_t i = 0; i < n; i++) {
            int64_t bs[2] = { cout, plane };
            TsTensor *slice = ts_cpu_view(o, 2, bs, NULL, i * cout * plane, err);
            int64_t vs[2] = { cout, plane }, vst[2] = { bias->strides[0], 0 };
            TsTensor *bv = slice ? ts_cpu_view(bias, 2, vs, vst, bias->offset, err) : NULL;
            if (bv)
                ts_cpu_copy_into(slice, bv);
            if (slice)
                ts_tensor_release(slice);
            if (!bv)
                goto fail;
            ts_tensor_release(bv);
        }
    bool direct = k[0] == 1 && k[1] == 1 && g->stride[0] == 1 && g->stride[1] == 1 &&
                  g->pad_lo[0] == 0 && g->pad_lo[1] == 0 && g->pad_hi[0] == 0 &&
                  g->pad_hi[1] == 0;
    void *col = NULL;
    if (!direct && ksz * plane > 0) {
        if (ksz > INT64_MAX / plane || ksz * plane > (int64_t)(SIZE_MAX / (size_t)es)) {
            ts_error_set(err, TS_ERR_LIMIT, "conv%dd: the unrolled input is too large", nd);
            goto fail;
        }
        if (!(col = malloc((size_t)(ksz * plane * es)))) {
            ts_error_set(err, TS_ERR_NOMEM, "conv%dd: out of memory", nd);
            goto fail;
        }
    }
    const char *xd = ts_tensor_data(x), *wd = ts_tensor_data(wt);
    char *od = ts_tensor_data(o);
    int rc = 0;
    for (int64_t i = 0; i < n && !rc; i++)
        for (int64_t gi = 0; gi < g->groups && !rc; gi++) {
            const char *src = xd + ((i * cin + gi * cg) * h * w) * es;
            TsNnMat b = { src, ksz, plane, plane, 1 };
            if (col) {
                if (o->dtype == TS_FLOAT32)
                    im2col_TS_FLOAT32((const float *)src, cg, h, w, k, oh, g, col);
                else
                    im2col_TS_FLOAT64((const double *)src, cg, h, w, k, oh, g, col);
                b.p = col;
            }
            TsNnMat a = { wd + gi * og * ksz * es, og, ksz, ksz, 1 };
            rc = ts_nn_gemm(o->dtype, 1.0, &a, &b, bias ? 1.0 : 0.0,
                            od + (i * cout + gi * og) * plane * es, plane, err);
        }
    free(col);
    ts_tensor_release(x);
    ts_tensor_release(wt);
    if (rc) {
        ts_tensor_release(o);
        return NULL;
    }
    return o;
fail:
    if (wt)
        ts_tensor_release(wt);
    if (x)
        ts_tensor_release(x);
    if (o)
        ts_tensor_release(o);
    return NULL;
}

/* Reads the int lists of conv(nd) into g; the padding is an int list or, with str_pad, a
 * string. */
static int geometry(TsCall *c, const char *name, int nd, TsValue *a, bool str_pad, ConvGeom *g)
{
    int64_t v[2];
    memset(g, 0, sizeof *g);
    g->nd = nd;
    for (int i = 0; i < 2; i++)
        g->stride[i] = g->dil[i] = 1;
    int s = 2 - nd;
    if (ts_nn_int_list(c, name, "stride", a[3], nd, v, -1))
        return c->error->code;
    memcpy(g->stride + s, v, (size_t)nd * sizeof *v);
    if (ts_nn_int_list(c, name, "dilation", a[5], nd, v, -1))
        return c->error->code;
    memcpy(g->dil + s, v, (size_t)nd * sizeof *v);
    g->groups = ts_nn_int(a[6]);
    if (!str_pad) {
        if (ts_nn_int_list(c, name, "padding", a[4], nd, v, -1))
            return c->error->code;
        memcpy(g->pad_lo + s, v, (size_t)nd * sizeof *v);
        memcpy(g->pad_hi + s, v, (size_t)nd * sizeof *v);
        return 0;
    }
    const char *p = a[4].tag == TS_TAG_STR ? ((const TsStr *)a[4].u.p)->data : "";
    if (strcmp(p, "valid") == 0)
        return 0;
    if (strcmp(p, "same") != 0)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "Invalid padding string: '%s'", p);
    for (int i = s; i < 2; i++)
        if (g->stride[i] != 1)
            return ts_error_set(c->error, TS_ERR_RUNTIME, "padding='same' is not supported for "
                                "strided convolutions");
    g->same = true;
    return 0;
}

static int conv_call(TsCall *c, int nd, bool str_pad)
{
    const char *name = nd == 1 ? "aten::conv1d" : "aten::conv2d";
    TsValue a[7];
    ConvGeom g;
    TsTensor *bias = NULL, *o = NULL;
    ts_cpu_pop_args(c, 7, a);
    TsTensor *x = ts_cpu_tensor_arg(c, name, "input", a[0]);
    TsTensor *w = x ? ts_cpu_tensor_arg(c, name, "weight", a[1]) : NULL;
    if (w && !ts_nn_opt_tensor(c, name, "bias", a[2], &bias) &&
        !geometry(c, name, nd, a, str_pad, &g)) {
        if (g.same && w->dim == nd + 2)
            for (int i = 0; i < nd; i++) {
                int s = 2 - nd + i;
                int64_t total = g.dil[s] * (w->sizes[2 + i] - 1);
                g.pad_lo[s] = total / 2;
                g.pad_hi[s] = total - total / 2;
            }
        o = conv(c, &g, x, w, bias);
    }
    return ts_nn_finish(c, 7, a, o);
}

/* aten::conv1d(Tensor input, Tensor weight, Tensor? bias=None, int[1] stride=[1],
 *              int[1] padding=[0], int[1] dilation=[1], int groups=1) -> Tensor */
static int k_conv1d(TsCall *c) { return conv_call(c, 1, false); }
/* aten::conv1d.padding(..., str padding="valid", ...) */
static int k_conv1d_padding(TsCall *c) { return conv_call(c, 1, true); }
/* aten::conv2d(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1,
 *              int[2] padding=0, int[2] dilation=1, int groups=1) -> Tensor */
static int k_conv2d(TsCall *c) { return conv_call(c, 2, false); }
/* aten::conv2d.padding(..., str padding="valid", ...) */
static int k_conv2d_padding(TsCall *c) { return conv_call(c, 2, true); }

static const TsCpuOp ops[] = {
    { "aten::conv1d", "", k_conv1d },
    { "aten::conv1d", "padding", k_conv1d_padding },
    { "aten::conv2d", "", k_conv2d },
    { "aten::conv2d", "padding", k_conv2d_padding },
};

const TsCpuTable ts_cpu_conv_table = { ops, sizeof ops / sizeof ops[0] };
