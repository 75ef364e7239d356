/* conv.c — conv1d, conv2d and the generic convolution/_convolution on the GPU, as implicit
 * GEMMs: a chunk of images is unrolled into columns (im2col.cu), then each image's output
 * channels are the weight (out x in*kh*kw, per group) times its columns, one strided-batched
 * GEMM on cuBLAS (linalg/gemm.h) per chunk (groups == 1: a batch over the images sharing the
 * weight) or per image (grouped and depthwise: a batch over the groups). A bias is copied
 * into the output first and the products added to it.
 *
 * A 1-d convolution is a 2-d one of height 1 (views of the input and weight, no copies). Not
 * here: transposed convolutions, 3-d ones, and the string paddings ("same", "valid") of
 * conv1d.padding and conv2d.padding; those operators are left to the cpu.
 */
#include <stdio.h>
#include <string.h>

#include "linalg/gemm.h"
#include "nn/nn.h"

/* The elements of one chunk's columns are kept under about this many. */
#define COL_ELEMS ((int64_t)32 * 1024 * 1024)

/* A convolution's arguments, spatial entries for height then width (1-d: height 1). */
typedef struct Conv {
    const char *op;
    int nd;                    /* spatial dims: 1 or 2 */
    int64_t stride[2], pad[2], dil[2], groups;
} Conv;

/* int list argument i into the last nd entries of out[2] (one value repeats), the first
 * entry `neutral` for a 1-d convolution. */
static int read_list(TsArgs *a, size_t i, const char *name, int nd, int64_t neutral,
                     int64_t *out)
{
    int64_t v[8];
    int n = 0;
    int rc = ts_args_int_list(a, i, v, &n, 8);
    if (rc)
        return rc;
    if (n != 1 && n != nd)
        return ts_error_set(a->call->error, TS_ERR_RUNTIME, "expected %s to be a single integer "
                            "value or a list of %d values to match the convolution dimensions, "
                            "but got %s=[%lld%s]", name, nd, name, (long long)(n ? v[0] : 0),
                            n > 1 ? ", ..." : "");
    out[0] = nd == 1 ? neutral : v[0];
    out[1] = v[n - 1];
    return 0;
}

/* The view of t with a height of 1 inserted before its last dim (1-d as 2-d). */
static TsTensor *as_2d(TsTensor *t, TsError *err)
{
    int64_t sizes[4], strides[4];
    int d = t->dim;
    memcpy(sizes, t->sizes, (size_t)(d - 1) * sizeof *sizes);
    memcpy(strides, t->strides, (size_t)(d - 1) * sizeof *strides);
    sizes[d - 1] = 1, strides[d - 1] = t->strides[d - 1] * t->sizes[d - 1];
    sizes[d] = t->sizes[d - 1], strides[d] = t->strides[d - 1];
    return ts_aten_view(t, d + 1, sizes, strides, t->offset, err);
}

static int check(TsError *err, const Conv *cv, const TsTensor *x, const TsTensor *w,
                 const TsTensor *b)
{
    if (x->dtype != w->dtype)
        return ts_error_set(err, TS_ERR_RUNTIME, "Input type (torch.cuda.%sTensor) and weight "
                            "type (torch.cuda.%sTensor) should be the same",
                            ts_dtype_type_name(x->dtype), ts_dtype_type_name(w->dtype));
    if (b && b->dtype != x->dtype)
        return ts_error_set(err, TS_ERR_RUNTIME, "Input type (torch.cuda.%sTensor) and bias "
                            "type (torch.cuda.%sTensor) should be the same",
                            ts_dtype_type_name(x->dtype), ts_dtype_type_name(b->dtype));
    if (cv->groups <= 0)
        return ts_error_set(err, TS_ERR_RUNTIME, "non-positive groups is not supported");
    for (int i = 0; i < 2; i++) {
        if (cv->pad[i] < 0)
            return ts_error_set(err, TS_ERR_RUNTIME, "negative padding is not supported");
        if (cv->stride[i] <= 0)
            return ts_error_set(err, TS_ERR_RUNTIME, "non-positive stride is not supported");
    }
    if (cv->dil[0] <= 0 || cv->dil[1] <= 0) {
        char s[64];
        ts_aten_format_sizes(s, sizeof s, cv->nd, cv->dil + 2 - cv->nd);
        return ts_error_set(err, TS_ERR_RUNTIME, "dilation should be greater than zero, but got "
                            "%s", s);
    }
    return ts_aten_check_conv_weight(x, w, b, cv->groups, false, err);
}

/* The forward convolution of a batched 4-d x and weight (after the checks). */
static TsTensor *forward(TsError *err, const Conv *cv, TsTensor *x, TsTensor *w, TsTensor *b)
{
    int64_t n = x->sizes[0], cin = x->sizes[1], cout = w->sizes[0], g = cv->groups;
    TsCudaWindow win = { x->sizes[2], x->sizes[3], w->sizes[2], w->sizes[3], cv->stride[0],
                         cv->stride[1], cv->pad[0], cv->pad[1], cv->dil[0], cv->dil[1], 0, 0 };
    int64_t in_h = win.h + 2 * win.ph, in_w = win.w + 2 * win.pw;
    int64_t ek_h = win.dh * (win.kh - 1) + 1, ek_w = win.dw * (win.kw - 1) + 1;
    if (in_h < ek_h || in_w < ek_w) {
        char s1[64], s2[64];
        if (cv->nd == 1) {
            snprintf(s1, sizeof s1, "(%lld)", (long long)in_w);
            snprintf(s2, sizeof s2, "(%lld)", (long long)ek_w);
        } else {
            snprintf(s1, sizeof s1, "(%lld x %lld)", (long long)in_h, (long long)in_w);
            snprintf(s2, sizeof s2, "(%lld x %lld)", (long long)ek_h, (long long)ek_w);
        }
        ts_error_set(err, TS_ERR_RUNTIME, "Calculated padded input size per channel: %s. "
                     "Kernel size: %s. Kernel size can't be greater than actual input size",
                     s1, s2);
        return NULL;
    }
    win.oh = (in_h - ek_h) / win.sh + 1;
    win.ow = (in_w - ek_w) / win.sw + 1;
    int64_t l = win.oh * win.ow, kg = (cin / g) * win.kh * win.kw, cog = cout / g;
    int64_t sizes[4] = { n, cout, win.oh, win.ow };
    TsTensor *all[3] = { x, w, b };
    for (int i = 1; i < 3; i++)
        if (all[i] && (all[i]->device.index != x->device.index)) {
            ts_error_set(err, TS_ERR_RUNTIME, "Expected all tensors to be on the same device, "
                         "but found at least two devices, cuda:%d and cuda:%d!",
                         x->device.index, all[i]->device.index);
            return NULL;
        }
    if (ts_cuda_use_device(x->device, err) || ts_cuda_gemm_check_dtype(x->dtype, err))
        return NULL;
    TsTensor *o = ts_cuda_empty(x->dtype, 4, sizes, err);
    TsTensor *cw = o ? ts_cuda_contiguous_as(w, w->dtype, err) : NULL;
    TsTensor *col = NULL;
    int rc = cw ? 0 : (int)err->code;
    int64_t per_image = cin * win.kh * win.kw * l;
    int64_t chunk = per_image > 0 && COL_ELEMS / per_image > 1 ? COL_ELEMS / per_image : 1;
    if (chunk > n)
        chunk = n;
    if (!rc && b) {
        int64_t bs[3] = { cout, 1, 1 }, bst[3] = { b->strides[0], 0, 0 };
        TsTensor *bv = ts_aten_view(b, 3, bs, bst, b->offset, err);
        rc = bv ? ts_cuda_copy_into(o, bv, err) : (int)err->code;
        if (bv)
            ts_tensor_release(bv);
    }
    if (!rc && n > 0 && per_image > 0) {
        int64_t csz[3] = { chunk, cin * win.kh * win.kw, l };
        if (!(col = ts_cuda_empty(x->dtype, 3, csz, err)))
            rc = err->code;
    }
    size_t es = ts_dtype_size(x->dtype);
    char *xp = ts_tensor_data(x), *op = o ? ts_tensor_data(o) : NULL;
    for (int64_t i0 = 0; !rc && col && i0 < n; i0 += chunk) {
        int64_t m = n - i0 < chunk ? n - i0 : chunk;
        char *cp = ts_tensor_data(col);
        rc = ts_cuda_launch_im2col(x->dtype, xp + i0 * x->strides[0] * (int64_t)es, x->strides,
                                   m, cin, &win, cp, err);
        TsCudaMat wm = { ts_tensor_data(cw), cog, kg, kg, 1 };
        double beta = b ? 1.0 : 0.0;
        if (!rc && g == 1) {
            TsCudaMat cm = { cp, kg, l, l, 1 };
            rc = ts_cuda_gemm(x->dtype, 1.0, &wm, 0, &cm, kg * l, beta,
                              op + i0 * cout * l * (int64_t)es, m, err);
        }
        for (int64_t j = 0; !rc && g > 1 && j < m; j++) {
            TsCudaMat cm = { cp + j * g * kg * l * (int64_t)es, kg, l, l, 1 };
            rc = ts_cuda_gemm(x->dtype, 1.0, &wm, cog * kg, &cm, kg * l, beta,
                              op + (i0 + j) * cout * l * (int64_t)es, g, err);
        }
    }
    if (!rc && !b && (n == 0 || per_image == 0) && ts_tensor_numel(o) > 0)
        rc = ts_cuda_check(cudaMemsetAsync(op, 0, (size_t)ts_tensor_numel(o) * es,
                                           TS_CUDA_STREAM), "cudaMemsetAsync", err);
    if (col)
        ts_tensor_release(col);
    if (cw)
        ts_tensor_release(cw);
    if (rc && o) {
        ts_tensor_release(o);
        o = NULL;
    }
    return o;
}

/* Runs a 1-d or 2-d convolution on x (batched: nd + 2 dims) as a 2-d one. */
static TsTensor *run(TsError *err, const Conv *cv, TsTensor *x, TsTensor *w, TsTensor *b)
{
    if (check(err, cv, x, w, b))
        return NULL;
    if (cv->nd == 2)
        return forward(err, cv, x, w, b);
    TsTensor *x2 = as_2d(x, err);
    TsTensor *w2 = x2 ? as_2d(w, err) : NULL;
    TsTensor *o2 = w2 ? forward(err, cv, x2, w2, b) : NULL, *o = NULL;
    if (o2) {
        int64_t sizes[3] = { o2->sizes[0], o2->sizes[1], o2->sizes[3] };
        int64_t strides[3] = { o2->strides[0], o2->strides[1], o2->strides[3] };
        o = ts_aten_view(o2, 3, sizes, strides, o2->offset, err);
    }
    TsTensor *tmp[3] = { x2, w2, o2 };
    for (int i = 0; i < 3; i++)
        if (tmp[i])
            ts_tensor_release(tmp[i]);
    return o;
}

/* conv1d and conv2d take an unbatched input too: it gets a batch of one and loses it. */
static TsTensor *batchify(TsError *err, const Conv *cv, TsTensor *x, TsTensor *w, TsTensor *b)
{
    int nd = cv->nd;
    if (x->dim != nd + 1 && x->dim != nd + 2) {
        char s[200];
        ts_aten_format_sizes(s, sizeof s, x->dim, x->sizes);
        ts_error_set(err, TS_ERR_RUNTIME, "Expected %dD (unbatched) or %dD (batched) input to "
                     "%s, but got input of size: %s", nd + 1, nd + 2, cv->op, s);
        return NULL;
    }
    if (x->dim == nd + 2)
        return run(err, cv, x, w, b);
    int64_t sizes[4] = { 1 }, strides[4] = { 0 };
    memcpy(sizes + 1, x->sizes, (size_t)x->dim * sizeof *sizes);
    memcpy(strides + 1, x->strides, (size_t)x->dim * sizeof *strides);
    TsTensor *xb = ts_aten_view(x, x->dim + 1, sizes, strides, x->offset, err);
    TsTensor *ob = xb ? run(err, cv, xb, w, b) : NULL;
    if (xb)
        ts_tensor_release(xb);
    if (!ob)
        return NULL;
    TsTensor *o = ts_aten_view(ob, ob->dim - 1, ob->sizes + 1, ob->strides + 1, ob->offset, err);
    ts_tensor_release(ob);
    return o;
}

/* Binds input, weight, bias and the lists at stride_at (stride, padding, dilation). */
static int bind(TsArgs *a, Conv *cv, size_t stride_at, TsTensor **x, TsTensor **w,
                TsTensor **b)
{
    int rc = ts_args_tensor(a, 0, x);
    if (!rc) rc = ts_args_tensor(a, 1, w);
    if (!rc) rc = ts_args_opt_tensor(a, 2, b);
    if (!rc && cv->nd == 0) {
        if ((*w)->dim != 3 && (*w)->dim != 4)
            return ts_error_set(a->call->error, TS_ERR_RUNTIME, "%s: aten-cuda has 1-d and "
                                "2-d convolutions, not a weight of %d dims", cv->op,
                                (int)(*w)->dim);
        cv->nd = (int)(*w)->dim - 2;
    }
    if (!rc) rc = read_list(a, stride_at, "stride", cv->nd, 1, cv->stride);
    if (!rc) rc = read_list(a, stride_at + 1, "padding", cv->nd, 0, cv->pad);
    if (!rc) rc = read_list(a, stride_at + 2, "dilation", cv->nd, 1, cv->dil);
    return rc;
}

/* conv{1,2}d(Tensor input, Tensor weight, Tensor? bias, stride, padding, dilation, int groups) */
static int conv_call(TsCall *c, int nd)
{
    TsArgs a;
    TsTensor *x, *w, *b, *r = NULL;
    Conv cv = { nd == 1 ? "conv1d" : "conv2d", nd, { 1, 1 }, { 0, 0 }, { 1, 1 }, 1 };
    int rc = ts_args_pop(c, TS_DEV_CUDA, &a);
    if (!rc) rc = bind(&a, &cv, 3, &x, &w, &b);
    if (!rc) rc = ts_args_int(&a, 6, &cv.groups);
    if (!rc && !(r = batchify(c->error, &cv, x, w, b)))
        rc = c->error->code;
    return ts_args_return_tensor(&a, rc, r);
}

/* aten::conv1d(Tensor input, Tensor weight, Tensor? bias=None, int[1] stride=[1],
 *              int[1] padding=[0], int[1] dilation=[1], int groups=1) -> Tensor */
static int k_conv1d(TsCall *c) { return conv_call(c, 1); }
/* aten::conv2d(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1,
 *              int[2] padding=0, int[2] dilation=1, int groups=1) -> Tensor */
static int k_conv2d(TsCall *c) { return conv_call(c, 2); }

/* aten::convolution(Tensor input, Tensor weight, Tensor? bias, int[] stride, int[] padding,
 *                   int[] dilation, bool transposed, int[] output_padding, int groups), and
 * _convolution with its backend flags after (they change nothing here). */
static int k_convolution(TsCall *c)
{
    TsArgs a;
    TsTensor *x, *w, *b, *r = NULL;
    bool transposed = false;
    Conv cv = { "convolution", 0, { 1, 1 }, { 0, 0 }, { 1, 1 }, 1 };
    int rc = ts_args_pop(c, TS_DEV_CUDA, &a);
    if (!rc) rc = bind(&a, &cv, 3, &x, &w, &b);
    if (!rc) rc = ts_args_bool(&a, 6, &transposed);
    if (!rc) rc = ts_args_int(&a, 8, &cv.groups);
    if (!rc && transposed)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "%s: aten-cuda has no transposed "
                          "convolution", ts_args_op_name(&a));
    if (!rc && !(r = run(c->error, &cv, x, w, b)))
        rc = c->error->code;
    return ts_args_return_tensor(&a, rc, r);
}

static const TsCudaOp ops[] = {
    { "aten::conv1d", "", k_conv1d },
    { "aten::conv2d", "", k_conv2d },
    { "aten::convolution", "", k_convolution },
    { "aten::_convolution", "", k_convolution },
    { "aten::_convolution", "deprecated", k_convolution },
};

const TsCudaTable ts_cuda_conv_table = { ops, sizeof ops / sizeof ops[0] };
