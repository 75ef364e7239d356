/* conv_transpose.c — the transposed convolutions: conv_transpose1d, conv_transpose2d and
 * conv_transpose3d (stride, padding, output_padding, groups, dilation), and the transposed
 * branch of aten::convolution (conv.c's ts_conv_run checks, then calls here).
 *
 * A transposed convolution is the adjoint of the forward one: for each image and group one
 * GEMM, weight^T (out_channels/groups * kernel volume x in_channels/groups, read in place)
 * times the input (in_channels/groups x input volume), makes the columns, and col2im adds
 * each column entry into the output voxel it belongs to. The output starts as the bias (or
 * zeros); output_padding only makes it larger on the far side. PyTorch's CPU kernel takes
 * float, double, bfloat16 and long; bfloat16 computes in float and rounds once at the end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nn/conv.h"

static const char *const axis[] = { "depth", "height", "width" };

/* The first axis the kernel's messages name: 1-d runs as 2-d of height 1. */
static int first_axis(int nd) { return nd == 1 ? 1 : 3 - nd; }

/* "output padding must be smaller than either stride or dilation" per axis. */
static int check_out_pad(TsCall *c, const TsConvGeom *g)
{
    int lo = first_axis(g->nd);
    bool bad = false;
    for (int i = lo; i < 3; i++)
        bad = bad || (g->out_pad[i] >= g->stride[i] && g->out_pad[i] >= g->dil[i]);
    if (!bad)
        return 0;
    char s[400];
    size_t used = 0;
    static const char *const what[] = { "output_padding", "stride", "dilation" };
    const int64_t *vals[] = { g->out_pad, g->stride, g->dil };
    s[0] = '\0';
    for (int w = 0; w < 3; w++)
        for (int i = lo; i < 3 && used < sizeof s; i++)
            used += (size_t)snprintf(s + used, sizeof s - used, "%s%s_%s: %lld",
                                     used ? " " : "", what[w], axis[i], (long long)vals[w][i]);
    return ts_error_set(c->error, TS_ERR_RUNTIME, "output padding must be smaller than either "
                        "stride or dilation, but got %s", s);
}

/* "(1 x 5)" of v's entries from the first named axis. */
static void fmt_axes(char *buf, size_t size, int nd, const int64_t *v)
{
    size_t used = 0;
    int lo = first_axis(nd);
    for (int i = lo; i < 3 && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%lld", i > lo ? " x " : "(",
                                 (long long)v[i]);
    if (used < size)
        snprintf(buf + used, size - used, ")");
}

/* The transposed convolution in x's dtype (float, double or long), all tensors contiguous. */
static TsTensor *compute(TsCall *c, const TsConvGeom *g, const TsTensor *x, const TsTensor *w,
                         const TsTensor *b, const int64_t *isz, const int64_t *k,
                         const int64_t *osz)
{
    TsError *err = c->error;
    int nd = g->nd;
    int64_t n = x->sizes[0], cin = x->sizes[1], og = w->sizes[1], cout = og * g->groups;
    int64_t cg = cin / g->groups, kvol = k[0] * k[1] * k[2];
    int64_t ivol = isz[0] * isz[1] * isz[2], ovol = osz[0] * osz[1] * osz[2];
    int64_t es = (int64_t)ts_dtype_size(x->dtype), sizes[5] = { n, cout };
    for (int i = 0; i < nd; i++)
        sizes[2 + i] = osz[3 - nd + i];
    TsTensor *o = ts_cpu_empty(x->dtype, nd + 2, sizes, err);
    if (!o || ts_tensor_numel(o) == 0)
        return o;
    if (ts_conv_init_bias(o, n, cout, ovol, b, err)) {
        ts_tensor_release(o);
        return NULL;
    }
    int64_t rows = og * kvol;
    bool direct = kvol == 1;
    for (int s = 0; s < 3; s++)
        direct = direct && g->stride[s] == 1 && g->pad_lo[s] == 0 && g->out_pad[s] == 0;
    /* the columns of a tile of input rows (depth x height) at a time */
    int64_t in_rows = isz[0] * isz[1], tile = ts_conv_tile_rows(rows, isz[2], in_rows);
    void *col = NULL;
    if (!direct && rows > 0 && ivol > 0 &&
        !(col = ts_conv_col_alloc(err, rows, tile, isz[2], (size_t)es))) {
        ts_tensor_release(o);
        return NULL;
    }
    const char *xd = ts_tensor_data(x), *wd = ts_tensor_data(w);
    char *od = ts_tensor_data(o);
    for (int64_t i = 0; i < n && !err->code; i++)
        for (int64_t gi = 0; gi < g->groups && !err->code; gi++) {
            TsNnMat a = { wd + gi * cg * rows * es, rows, cg, 1, rows };
            const char *src = xd + (i * cin + gi * cg) * ivol * es;
            char *dst = od + (i * cout + gi * og) * ovol * es;
            if (direct) {
                TsNnMat bm = { src, cg, ivol, ivol, 1 };
                ts_nn_gemm(x->dtype, 1.0, &a, &bm, 1.0, dst, ovol, err);
                continue;
            }
            for (int64_t r0 = 0; col && r0 < in_rows && !err->code; r0 += tile) {
                int64_t r1 = r0 + tile < in_rows ? r0 + tile : in_rows;
                int64_t cols = (r1 - r0) * isz[2];
                TsNnMat bm = { src + r0 * isz[2] * es, cg, cols, ivol, 1 };
                if (!ts_nn_gemm(x->dtype, 1.0, &a, &bm, 0.0, col, cols, err))
                    ts_conv_col2im(x->dtype, col, og, osz, k, isz, g, r0, r1, dst);
            }
        }
    free(col);
    if (err->code) {
        ts_tensor_release(o);
        return NULL;
    }
    return o;
}

/* x, w and b as contiguous tensors of dtype (new references; b may be NULL). */
static int operands(TsError *err, int dtype, TsTensor *x, TsTensor *w, TsTensor *b,
                    TsTensor **ox, TsTensor **ow, TsTensor **ob)
{
    TsTensor *in[3] = { x, w, b }, **out[3] = { ox, ow, ob };
    for (int i = 0; i < 3; i++) {
        *out[i] = NULL;
        if (!in[i])
            continue;
        *out[i] = in[i]->dtype == dtype ? ts_nn_contiguous(in[i], err)
                                        : ts_cpu_cast(in[i], dtype, err);
        if (!*out[i]) {
            for (int j = 0; j < i; j++)
                if (*out[j])
                    ts_tensor_release(*out[j]);
            return err->code;
        }
    }
    return 0;
}

TsTensor *ts_conv_transposed(TsCall *c, const TsConvGeom *g, TsTensor *x, TsTensor *w,
                             TsTensor *b)
{
    int nd = g->nd;
    int64_t isz[3], k[3], osz[3];
    for (int i = 0; i < 3; i++) {
        isz[i] = i < 3 - nd ? 1 : x->sizes[2 + i - (3 - nd)];
        k[i] = i < 3 - nd ? 1 : w->sizes[2 + i - (3 - nd)];
    }
    if (check_out_pad(c, g))
        return NULL;
    bool small = false;
    for (int i = 0; i < 3; i++) {
        osz[i] = (isz[i] - 1) * g->stride[i] - g->pad_lo[i] - g->pad_hi[i] +
                 g->dil[i] * (k[i] - 1) + g->out_pad[i] + 1;
        small = small || osz[i] < 1;
    }
    if (small) {
        char s1[160], s2[160];
        fmt_axes(s1, sizeof s1, nd, isz);
        fmt_axes(s2, sizeof s2, nd, osz);
        ts_error_set(c->error, TS_ERR_RUNTIME, "Given input size per channel: %s. Calculated "
                     "output size per channel: %s. Output size is too small", s1, s2);
        return NULL;
    }
    int dtype = x->dtype == TS_BFLOAT16 ? TS_FLOAT32 : x->dtype;
    TsTensor *cx, *cw, *cb;
    if (operands(c->error, dtype, x, w, b, &cx, &cw, &cb))
        return NULL;
    TsTensor *o = compute(c, g, cx, cw, cb, isz, k, osz);
    ts_tensor_release(cx);
    ts_tensor_release(cw);
    if (cb)
        ts_tensor_release(cb);
    if (o && x->dtype != dtype) {
        TsTensor *r = ts_cpu_cast(o, x->dtype, c->error);
        ts_tensor_release(o);
        o = r;
    }
    return o;
}

/* conv_transpose{nd}d(Tensor input, Tensor weight, Tensor? bias, stride, padding,
 * output_padding, int groups, dilation) */
static int transpose_call(TsCall *c, int nd)
{
    static const char *const names[] = { "conv_transpose1d", "conv_transpose2d",
                                         "conv_transpose3d" };
    TsArgs args;
    TsValue *v = args.v;
    TsTensor *bias = NULL, *o = NULL;
    TsConvArgs a = { .op_nd = nd, .op = names[nd - 1], .transposed = true };
    if (ts_args_pop(c, TS_DEV_CPU, &args))
        return (int)c->error->code;
    TsTensor *x = ts_nn_tensor(&args, 0);
    TsTensor *w = x ? ts_nn_tensor(&args, 1) : NULL;
    a.groups = ts_nn_int(v[6]);
    if (w && !ts_args_opt_tensor(&args, 2, &bias) &&
        !ts_conv_read_lists(&args, &a, 3, 4, 7, 5))
        o = ts_conv_batchify(c, &a, x, w, bias, NULL);
    return ts_args_return_tensor(&args, 0, o);
}

/* aten::conv_transpose1d(Tensor input, Tensor weight, Tensor? bias=None, int[1] stride=[1],
 *     int[1] padding=[0], int[1] output_padding=[0], int groups=1, int[1] dilation=[1]) */
static int k_conv_transpose1d(TsCall *c) { return transpose_call(c, 1); }
/* aten::conv_transpose2d.input(Tensor input, Tensor weight, Tensor? bias=None,
 *     int[2] stride=1, int[2] padding=0, int[2] output_padding=0, int groups=1,
 *     int[2] dilation=1) -> Tensor */
static int k_conv_transpose2d(TsCall *c) { return transpose_call(c, 2); }
/* aten::conv_transpose3d.input(..., int[3] stride=1, ...) -> Tensor */
static int k_conv_transpose3d(TsCall *c) { return transpose_call(c, 3); }

static const TsCpuOp ops[] = {
    { "aten::conv_transpose1d", "", k_conv_transpose1d },
    { "aten::conv_transpose2d", "input", k_conv_transpose2d },
    { "aten::conv_transpose3d", "input", k_conv_transpose3d },
};

const TsCpuTable ts_cpu_conv_transpose_table = { ops, sizeof ops / sizeof ops[0] };
