/* conv.c — the forward convolutions: conv1d, conv2d and conv3d (stride, padding as ints or
 * "same"/"valid", dilation, groups), and the generic aten::convolution / aten::_convolution
 * that traced models call, forward or transposed; by im2col + GEMM.
 *
 * Every op goes through ts_conv_run, which is PyTorch's _convolution: it expands the list
 * arguments against the weight's rank, makes the shape checks in PyTorch's order with its
 * messages, then runs the forward convolution here or the transposed one (conv_transpose.c).
 * For each image and group the input patches are unrolled into a (channels * kernel volume)
 * x (output volume) matrix, which the group's weight, read in place as an (out_channels /
 * groups) x (channels * kernel volume) matrix, multiplies by one GEMM straight into the
 * output (bias rows first, beta 1), a tile of output rows at a time so the unrolled matrix
 * stays a few MB (a 3-d video clip would otherwise unroll to hundreds); a kernel of ones
 * with stride 1 and no padding reads the input itself. "same" padding may be uneven (the extra pixel goes after, as PyTorch pads);
 * the unrolling handles each side on its own. Integer dtypes run as PyTorch's slow kernels do
 * (ts_nn_gemm has loops for them); bfloat16 runs in float32, rounded once at the end, as
 * PyTorch's mkldnn kernels run it; half and bool are refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nn/conv.h"
#include "shape/shape_ops.h"
#include "vmath.h"

/* ---- arguments ------------------------------------------------------------------------- */

/* List argument at (-1: the op has none, [0]) into out[*n]. */
static int read_list(TsArgs *args, const TsConvArgs *a, int at, int64_t *out, int *n)
{
    if (at < 0) {
        out[0] = 0;
        *n = 1;
        return 0;
    }
    TsValue v = args->v[at];
    if (v.tag == TS_TAG_INT) {           /* an int[N] argument given one int */
        int k = a->op_nd > 0 ? a->op_nd : 1;
        for (int i = 0; i < k; i++)
            out[i] = v.u.i;
        *n = k;
        return 0;
    }
    return ts_nn_int_vec(args, (size_t)at, TS_CONV_MAX_LIST, out, n);
}

int ts_conv_read_lists(TsArgs *args, TsConvArgs *a, int stride, int padding, int dilation,
                       int out_pad)
{
    if (read_list(args, a, stride, a->stride, &a->n_stride) ||
        read_list(args, a, padding, a->padding, &a->n_padding) ||
        read_list(args, a, dilation, a->dilation, &a->n_dilation))
        return args->call->error->code;
    if (out_pad >= 0 && args->v[out_pad].tag == TS_TAG_NONE)
        out_pad = -1;
    return read_list(args, a, out_pad, a->out_pad, &a->n_out_pad);
}

/* PyTorch's expand_param_if_needed: one value repeats, else the list must have nd. */
static int expand(TsError *err, const char *name, const int64_t *v, int n, int nd, int64_t *out)
{
    if (n != 1 && n != nd) {
        char s[160];
        ts_aten_format_sizes(s, sizeof s, n, v);
        return ts_error_set(err, TS_ERR_RUNTIME, "expected %s to be a single integer value or a "
                            "list of %d values to match the convolution dimensions, but got "
                            "%s=%s", name, nd, name, s);
    }
    for (int i = 0; i < nd; i++)
        out[3 - nd + i] = v[n == 1 ? 0 : i];
    return 0;
}

/* "(5 x 5 x 5)" of the op's spatial entries of v (3 entries, right-aligned). */
static void fmt_spatial(char *buf, size_t size, int nd, const int64_t *v)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 3 - nd; i < 3 && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%lld", i > 3 - nd ? " x " : "(",
                                 (long long)v[i]);
    if (used < size)
        snprintf(buf + used, size - used, ")");
}

/* ---- checks ----------------------------------------------------------------------------- */


/* A tensor's type as mkldnn's checks print it: Python's legacy name where the dtype has one
 * there (torch.FloatTensor), the C++ one for bfloat16 (CPUBFloat16Type). */
static const char *legacy_type(int dtype, char *buf, size_t n)
{
    if (dtype == TS_BFLOAT16)
        snprintf(buf, n, "CPUBFloat16Type");
    else
        snprintf(buf, n, "torch.%sTensor", ts_dtype_type_name(dtype));
    return buf;
}

/* The dtype checks of the backend PyTorch would pick. A bias of another dtype is an error for
 * 2-d, transposed and mkldnn convolutions; the slow 1-d and 3-d kernels convert it, which
 * *cast_bias asks for. */
static int check_dtypes(TsCall *c, const TsConvArgs *a, const TsTensor *x, const TsTensor *w,
                        const TsTensor *b, bool *cast_bias)
{
    /* PyTorch sends float32 1-d and 2-d convolutions that are worth it to mkldnn, whose
     * check speaks of types: grouped, batched, big, or with kernels over 3x3; and every
     * bfloat16 one (on a CPU with AVX-512, as PyTorch's reference runs were) */
    bool mkldnn = !a->transposed && x->dtype == TS_FLOAT32 && (x->dim == 3 || x->dim == 4) &&
                  w->dim == x->dim;
    if (mkldnn) {
        bool big_kernel = x->dim == 4 && w->sizes[2] > 3 && w->sizes[3] > 3;
        mkldnn = a->groups > 1 || big_kernel || x->sizes[0] > 1 || ts_tensor_numel(x) > 20480;
    }
    mkldnn = mkldnn || x->dtype == TS_BFLOAT16;
    char tx[32], tw[32];
    *cast_bias = false;
    /* a 2-d convolution checks its bias before its weight, whichever backend runs it */
    if (b && b->dtype != x->dtype && w->dim == 4 && !a->transposed)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "Input type (%s) and bias type (%s) "
                            "should be the same", ts_cpu_cxx_type(x->dtype),
                            ts_cpu_cxx_type(b->dtype));
    if (x->dtype != w->dtype && mkldnn)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "Input type (%s) and weight type (%s) "
                            "should be the same or input should be a MKLDNN tensor and weight "
                            "is a dense tensor", legacy_type(x->dtype, tx, sizeof tx),
                            legacy_type(w->dtype, tw, sizeof tw));
    if (x->dtype != w->dtype)
        return ts_nn_same_dtype(c, x, w);
    if (!b || b->dtype == x->dtype)
        return 0;
    if (a->transposed && !mkldnn)
        return ts_nn_same_dtype(c, x, b);
    if (mkldnn)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "Input type (%s) and bias type (%s) "
                            "should be the same or input should be a MKLDNN tensor and bias "
                            "is a dense tensor", legacy_type(x->dtype, tx, sizeof tx),
                            legacy_type(b->dtype, tw, sizeof tw));
    *cast_bias = true;
    return 0;
}

/* The dtypes PyTorch's CPU kernels take: the forward ones every real type but half and
 * bool, the transposed ones float, double, bfloat16 and long. */
static int check_kernel_dtype(TsCall *c, const TsConvGeom *g, const TsTensor *x,
                              const int64_t *k)
{
    int dt = x->dtype;
    bool ok = dt == TS_FLOAT32 || dt == TS_FLOAT64 || dt == TS_BFLOAT16 || dt == TS_INT64;
    if (!g->transposed)
        ok = ok || dt == TS_UINT8 || dt == TS_INT8 || dt == TS_INT16 || dt == TS_INT32;
    if (ok)
        return 0;
    const char *name = g->transposed ? (g->nd == 3 ? "slow_conv_transpose3d_out_cpu"
                                                   : "slow_conv_transpose2d_out_cpu")
                       : g->nd < 3 ? "slow_conv2d_cpu"
                       : k[0] * k[1] * k[2] == 1 ? "slow_conv3d_cpu" : "compute_columns3d";
    return ts_error_set(c->error, TS_ERR_RUNTIME, "\"%s\" not implemented for '%s'", name,
                        ts_dtype_type_name(dt));
}

/* "dilation should be greater than zero" in the words of the kernel that checks it. */
static int check_dilation(TsCall *c, const TsConvGeom *g)
{
    static const char *const axis[] = { "depth", "height", "width" };
    int lo = g->nd == 1 ? 1 : 3 - g->nd;        /* 1-d runs as 2-d of height 1 */
    bool bad = false;
    for (int i = lo; i < 3; i++)
        bad = bad || g->dil[i] <= 0;
    if (!bad)
        return 0;
    char s[200];
    size_t used = 0;
    if (!g->transposed) {
        ts_aten_format_sizes(s, sizeof s, 3 - lo, g->dil + lo);
        return ts_error_set(c->error, TS_ERR_RUNTIME, "dilation should be greater than zero, "
                            "but got %s", s);
    }
    s[0] = '\0';
    for (int i = lo; i < 3 && used < sizeof s; i++)
        used += (size_t)snprintf(s + used, sizeof s - used, "%sdilation_%s: %lld",
                                 i > lo ? ", " : "", axis[i], (long long)g->dil[i]);
    return ts_error_set(c->error, TS_ERR_RUNTIME, "dilation should be greater than zero, but "
                        "got %s", s);
}

/* PyTorch's check_shape_forward, after the parameters are expanded. */
static int check_shape(TsCall *c, const TsConvGeom *g, const TsTensor *x, const TsTensor *w,
                       const TsTensor *b)
{
    char s1[200], s2[200];
    TsError *err = c->error;
    for (int i = 0; i < 3; i++)
        if (g->pad_lo[i] < 0 || g->pad_hi[i] < 0)
            return ts_error_set(err, TS_ERR_RUNTIME, "negative padding is not supported");
    for (int i = 0; i < 3; i++)
        if (g->out_pad[i] < 0)
            return ts_error_set(err, TS_ERR_RUNTIME, "negative output_padding is not supported");
    for (int i = 0; i < 3; i++)
        if (g->stride[i] <= 0)
            return ts_error_set(err, TS_ERR_RUNTIME, "non-positive stride is not supported");
    if (ts_aten_check_conv_weight(x, w, b, g->groups, g->transposed, err))
        return err->code;
    if (g->transposed)
        return check_dilation(c, g);
    int64_t in[3] = { 1, 1, 1 }, k[3] = { 1, 1, 1 };
    bool fits = true;
    for (int i = 3 - g->nd; i < 3; i++) {
        int d = 2 + i - (3 - g->nd);
        in[i] = x->sizes[d] + g->pad_lo[i] + g->pad_hi[i];
        k[i] = g->dil[i] * (w->sizes[d] - 1) + 1;
        fits = fits && in[i] >= k[i];
    }
    if (!fits) {
        fmt_spatial(s1, sizeof s1, g->nd, in);
        fmt_spatial(s2, sizeof s2, g->nd, k);
        return ts_error_set(err, TS_ERR_RUNTIME, "Calculated padded input size per channel: "
                            "%s. Kernel size: %s. Kernel size can't be greater than actual "
                            "input size", s1, s2);
    }
    return check_dilation(c, g);
}

/* ---- im2col and its adjoint ---------------------------------------------------------------- */

/* ceil(a / b) for b > 0 and any a. */
static int64_t ceil_div(int64_t a, int64_t b) { return a >= 0 ? (a + b - 1) / b : -(-a / b); }

/* The outputs o in [*lo, *hi) along one axis whose input index o*s - p + kk*d lies in [0, n). */
static void valid_range(int64_t n, int64_t s, int64_t p, int64_t off, int64_t out, int64_t *lo,
                        int64_t *hi)
{
    int64_t a = ceil_div(p - off, s), b = ceil_div(n + p - off, s);
    *lo = a < 0 ? 0 : a > out ? out : a;
    *hi = b < *lo ? *lo : b > out ? out : b;
}

/* The loop nest im2col and col2im share: one row of col per (channel, kernel offset, output
 * row r in [r0, r1), a row being an output depth and height). ROW runs for each with `col`
 * at the row, `img` at the image row it reads (NULL when that lies in the padding) shifted so
 * that img[ow * stride] is output ow's pixel, and [lo, hi) the outputs whose pixel lies
 * inside the image. */
#define PATCH_ROWS(T, IMAGE, COL, ROW) \
    do { \
        int64_t ivol = isz[0] * isz[1] * isz[2]; \
        for (int64_t c = 0; c < ch; c++) \
            for (int64_t kd = 0; kd < k[0]; kd++) \
                for (int64_t kh = 0; kh < k[1]; kh++) \
                    for (int64_t kw = 0; kw < k[2]; kw++) { \
                        int64_t lo, hi, off = kw * g->dil[2] - g->pad_lo[2]; \
                        valid_range(isz[2], g->stride[2], g->pad_lo[2], kw * g->dil[2], \
                                    osz[2], &lo, &hi); \
                        for (int64_t r = r0; r < r1; r++, COL += osz[2]) { \
                            int64_t od = r / osz[1], oh = r % osz[1]; \
                            int64_t id = od * g->stride[0] - g->pad_lo[0] + kd * g->dil[0]; \
                            int64_t ih = oh * g->stride[1] - g->pad_lo[1] + kh * g->dil[1]; \
                            T *img = id < 0 || id >= isz[0] || ih < 0 || ih >= isz[1] \
                                         ? NULL \
                                         : IMAGE + c * ivol + (id * isz[1] + ih) * isz[2] + off; \
                            ROW; \
                        } \
                    } \
    } while (0)

#define IM2COL(T) \
    static void im2col_##T(const T *in, int64_t ch, const int64_t *isz, const int64_t *k, \
                           const int64_t *osz, const TsConvGeom *g, int64_t r0, int64_t r1, \
                           T *col) \
    { \
        PATCH_ROWS(const T, in, col, { \
            if (!img) { \
                memset(col, 0, (size_t)osz[2] * sizeof(T)); \
                continue; \
            } \
            memset(col, 0, (size_t)lo * sizeof(T)); \
            if (g->stride[2] == 1) \
                memcpy(col + lo, img + lo, (size_t)(hi - lo) * sizeof(T)); \
            else \
                for (int64_t ow = lo; ow < hi; ow++) \
                    col[ow] = img[ow * g->stride[2]]; \
            memset(col + hi, 0, (size_t)(osz[2] - hi) * sizeof(T)); \
        }); \
    }
IM2COL(uint8_t)
IM2COL(uint16_t)
IM2COL(uint32_t)
IM2COL(uint64_t)
#undef IM2COL

void ts_conv_im2col(size_t esize, const void *in, int64_t ch, const int64_t *isz,
                    const int64_t *k, const int64_t *osz, const TsConvGeom *g, int64_t r0,
                    int64_t r1, void *col)
{
    switch (esize) {
    case 1: im2col_uint8_t(in, ch, isz, k, osz, g, r0, r1, col); break;
    case 2: im2col_uint16_t(in, ch, isz, k, osz, g, r0, r1, col); break;
    case 4: im2col_uint32_t(in, ch, isz, k, osz, g, r0, r1, col); break;
    default: im2col_uint64_t(in, ch, isz, k, osz, g, r0, r1, col); break;
    }
}

#define COL2IM(T) \
    static void col2im_##T(const T *col, int64_t ch, const int64_t *isz, const int64_t *k, \
                           const int64_t *osz, const TsConvGeom *g, int64_t r0, int64_t r1, \
                           T *out) \
    { \
        PATCH_ROWS(T, out, col, { \
            if (img) \
                for (int64_t ow = lo; ow < hi; ow++) \
                    img[ow * g->stride[2]] += col[ow]; \
        }); \
    }
COL2IM(float)
COL2IM(double)
COL2IM(int64_t)
#undef COL2IM
#undef PATCH_ROWS

void ts_conv_col2im(int dtype, const void *col, int64_t ch, const int64_t *isz,
                    const int64_t *k, const int64_t *osz, const TsConvGeom *g, int64_t r0,
                    int64_t r1, void *out)
{
    if (dtype == TS_FLOAT32)
        col2im_float(col, ch, isz, k, osz, g, r0, r1, out);
    else if (dtype == TS_FLOAT64)
        col2im_double(col, ch, isz, k, osz, g, r0, r1, out);
    else
        col2im_int64_t(col, ch, isz, k, osz, g, r0, r1, out);
}

int64_t ts_conv_tile_rows(int64_t rows, int64_t row_len, int64_t n_rows)
{
    if (rows <= 0 || row_len <= 0)
        return n_rows > 0 ? n_rows : 1;
    int64_t tile = rows > TS_CONV_COL_ELEMS / row_len ? 1 : TS_CONV_COL_ELEMS / (rows * row_len);
    return tile < 1 ? 1 : tile > n_rows ? n_rows : tile;
}

void *ts_conv_col_alloc(TsError *err, int64_t rows, int64_t tile, int64_t row_len, size_t es)
{
    uint64_t cols = (uint64_t)tile * (uint64_t)row_len;
    if (rows < 0 || tile < 0 || row_len < 0 || (row_len && (uint64_t)tile > UINT64_MAX / (uint64_t)row_len) ||
        (rows && cols > SIZE_MAX / es / (uint64_t)rows)) {
        ts_error_set(err, TS_ERR_LIMIT, "convolution: the unrolled input is too large");
        return NULL;
    }
    void *p = malloc((size_t)rows * (size_t)cols * es + 1);
    if (!p)
        ts_error_set(err, TS_ERR_NOMEM, "convolution: out of memory");
    return p;
}

TS_VM_VECTORIZE int ts_conv_init_bias(TsTensor *out, int64_t n, int64_t cout, int64_t plane,
                                      const TsTensor *b, TsError *err)
{
    if (!b) {
        memset(ts_tensor_data(out), 0, (size_t)(n * cout * plane) * ts_dtype_size(out->dtype));
        return 0;
    }
    if (out->dtype == TS_FLOAT32 && b->dtype == TS_FLOAT32) {
        /* each output plane a fill of its channel's bias (the general copy below walks the
         * broadcast one element at a time) */
        float *o = ts_tensor_data(out);
        const float *bd = ts_tensor_data(b);
        for (int64_t i = 0; i < n; i++)
            for (int64_t c = 0; c < cout; c++, o += plane) {
                float v = bd[c * b->strides[0]];
                for (int64_t j = 0; j < plane; j++)
                    o[j] = v;
            }
        return 0;
    }
    int64_t vs[3] = { n, cout, plane }, vst[3] = { 0, b->strides[0], 0 };
    TsTensor *bv = ts_aten_view(b, 3, vs, vst, b->offset, err);
    TsTensor *ov = bv ? ts_aten_view(out, 3, vs, NULL, out->offset, err) : NULL;
    if (ov)
        ts_cpu_copy_into(ov, bv);
    if (bv)
        ts_tensor_release(bv);
    if (!ov)
        return err->code;
    ts_tensor_release(ov);
    return 0;
}

/* ---- the forward convolution --------------------------------------------------------------- */

/* The spatial sizes of t (dims 2..) right-aligned into 3 entries. */
static void spatial(const TsTensor *t, int nd, int64_t *out)
{
    for (int i = 0; i < 3; i++)
        out[i] = i < 3 - nd ? 1 : t->sizes[2 + i - (3 - nd)];
}

static TsTensor *forward(TsCall *c, const TsConvGeom *g, TsTensor *input, TsTensor *weight,
                         TsTensor *bias)
{
    TsError *err = c->error;
    int nd = g->nd;
    int64_t n = input->sizes[0], cin = input->sizes[1], cout = weight->sizes[0];
    int64_t isz[3], k[3], osz[3], sizes[5] = { n, cout };
    spatial(input, nd, isz);
    spatial(weight, nd, k);
    for (int s = 0; s < 3; s++)
        osz[s] = (isz[s] + g->pad_lo[s] + g->pad_hi[s] - g->dil[s] * (k[s] - 1) - 1) /
                 g->stride[s] + 1;
    for (int i = 0; i < nd; i++)
        sizes[2 + i] = osz[3 - nd + i];
    if (cin == 0)
        sizes[1] = 0;                   /* PyTorch's empty backend: no channels in or out */
    TsTensor *o = ts_cpu_empty(input->dtype, 2 + nd, sizes, err);
    TsTensor *x = o ? ts_nn_contiguous(input, err) : NULL;
    TsTensor *wt = x ? ts_nn_contiguous(weight, err) : NULL;
    void *col = NULL;
    int64_t cg = cin / g->groups, og = cout / g->groups, ksz = cg * k[0] * k[1] * k[2];
    int64_t plane = osz[0] * osz[1] * osz[2], ivol = isz[0] * isz[1] * isz[2];
    int64_t es = (int64_t)ts_dtype_size(input->dtype);
    if (!wt || ts_tensor_numel(o) == 0 || ts_conv_init_bias(o, n, cout, plane, bias, err))
        goto done;
    bool direct = k[0] * k[1] * k[2] == 1;
    for (int s = 0; s < 3; s++)
        direct = direct && g->stride[s] == 1 && g->pad_lo[s] == 0 && g->pad_hi[s] == 0;
    /* the unrolled patches of a tile of output rows (depth x height) at a time */
    int64_t rows = osz[0] * osz[1], tile = ts_conv_tile_rows(ksz, osz[2], rows);
    if (!direct && ksz > 0 && !(col = ts_conv_col_alloc(err, ksz, tile, osz[2], (size_t)es)))
        goto done;
    const char *xd = ts_tensor_data(x), *wd = ts_tensor_data(wt);
    char *od = ts_tensor_data(o);
    for (int64_t i = 0; i < n && !err->code; i++)
        for (int64_t gi = 0; gi < g->groups && !err->code; gi++) {
            const char *src = xd + (i * cin + gi * cg) * ivol * es;
            char *dst = od + (i * cout + gi * og) * plane * es;
            TsNnMat a = { wd + gi * og * ksz * es, og, ksz, ksz, 1 };
            if (!col) {
                TsNnMat b = { src, ksz, plane, plane, 1 };
                ts_nn_gemm(o->dtype, 1.0, &a, &b, 1.0, dst, plane, err);
                continue;
            }
            for (int64_t r0 = 0; r0 < rows && !err->code; r0 += tile) {
                int64_t r1 = r0 + tile < rows ? r0 + tile : rows, cols = (r1 - r0) * osz[2];
                ts_conv_im2col((size_t)es, src, cg, isz, k, osz, g, r0, r1, col);
                TsNnMat b = { col, ksz, cols, cols, 1 };
                ts_nn_gemm(o->dtype, 1.0, &a, &b, 1.0, dst + r0 * osz[2] * es, plane, err);
            }
        }
done:
    free(col);
    if (wt)
        ts_tensor_release(wt);
    if (x)
        ts_tensor_release(x);
    if (o && err->code) {
        ts_tensor_release(o);
        o = NULL;
    }
    return o;
}

/* ---- the common entry ----------------------------------------------------------------------- */

/* A bfloat16 convolution as PyTorch's CPU kernels compute it (mkldnn's): input, weight and
 * bias widened to float32, the float32 convolution (products, bias, and a transposed one's
 * overlapping columns all summed in float32), its result rounded once. */
static TsTensor *run_widened(TsCall *c, const TsConvGeom *g, TsTensor *x, TsTensor *w,
                             TsTensor *b)
{
    TsError *err = c->error;
    TsTensor *xf = ts_cpu_cast(x, TS_FLOAT32, err), *o = NULL, *of = NULL;
    TsTensor *wf = xf ? ts_cpu_cast(w, TS_FLOAT32, err) : NULL;
    TsTensor *bf = wf && b ? ts_cpu_cast(b, TS_FLOAT32, err) : NULL;
    if (wf && (!b || bf))
        of = g->transposed ? ts_conv_transposed(c, g, xf, wf, bf) : forward(c, g, xf, wf, bf);
    if (of) {
        o = ts_cpu_cast(of, x->dtype, err);
        ts_tensor_release(of);
    }
    if (bf)
        ts_tensor_release(bf);
    if (wf)
        ts_tensor_release(wf);
    if (xf)
        ts_tensor_release(xf);
    return o;
}

TsTensor *ts_conv_run(TsCall *c, const TsConvArgs *a, TsTensor *x, TsTensor *w, TsTensor *b,
                      const int64_t *same_pad)
{
    TsError *err = c->error;
    TsConvGeom g;
    bool cast_bias;
    if (check_dtypes(c, a, x, w, b, &cast_bias))
        return NULL;
    if (w->dim < 3) {
        ts_error_set(err, TS_ERR_RUNTIME, "weight should have at least three dimensions");
        return NULL;
    }
    if (a->groups <= 0) {
        ts_error_set(err, TS_ERR_RUNTIME, "non-positive groups is not supported");
        return NULL;
    }
    int nd = (int)w->dim - 2;
    if (nd > 3) {
        ts_error_set(err, TS_ERR_RUNTIME, "%s: only 1, 2 and 3 spatial dimensions are "
                     "supported, but the weight has %d", a->op, nd);
        return NULL;
    }
    memset(&g, 0, sizeof g);
    g.nd = nd;
    g.groups = a->groups;
    g.transposed = a->transposed;
    for (int i = 0; i < 3; i++)
        g.stride[i] = g.dil[i] = 1;
    if (expand(err, "stride", a->stride, a->n_stride, nd, g.stride) ||
        expand(err, "padding", a->padding, a->n_padding, nd, g.pad_lo) ||
        expand(err, "dilation", a->dilation, a->n_dilation, nd, g.dil) ||
        expand(err, "output_padding", a->out_pad, a->n_out_pad, nd, g.out_pad))
        return NULL;
    memcpy(g.pad_hi, g.pad_lo, sizeof g.pad_hi);
    if (same_pad) {
        memcpy(g.pad_lo, same_pad, sizeof g.pad_lo);
        memcpy(g.pad_hi, same_pad + 3, sizeof g.pad_hi);
    }
    if (check_shape(c, &g, x, w, b))
        return NULL;
    int64_t k[3];
    spatial(w, nd, k);
    if (ts_tensor_numel(x) == 0 && x->sizes[0] != 0 && x->sizes[1] != 0) {
        char s[200];
        ts_aten_format_sizes(s, sizeof s, x->dim, x->sizes);
        ts_error_set(err, TS_ERR_RUNTIME, "Only zero batch or zero channel inputs are "
                     "supported, but got input shape: %s", s);
        return NULL;
    }
    if (check_kernel_dtype(c, &g, x, k))
        return NULL;
    if (x->dtype == TS_BFLOAT16)
        return run_widened(c, &g, x, w, b);
    if (g.transposed)
        return ts_conv_transposed(c, &g, x, w, b);
    TsTensor *cb = cast_bias ? ts_cpu_cast(b, x->dtype, err) : NULL;
    if (cast_bias && !cb)
        return NULL;
    TsTensor *o = forward(c, &g, x, w, cb ? cb : b);
    if (cb)
        ts_tensor_release(cb);
    return o;
}

/* ---- the ops -------------------------------------------------------------------------------- */

/* "same" padding: dil * (k - 1) split with the extra pixel after. */
static void same_padding(int nd, const TsConvArgs *a, const TsTensor *w, int64_t *pad)
{
    for (int i = 0; i < 6; i++)
        pad[i] = 0;
    for (int i = 0; i < nd && (int)w->dim == nd + 2; i++) {
        int64_t d = a->dilation[a->n_dilation == 1 ? 0 : i];
        int64_t total = d * (w->sizes[2 + i] - 1);
        pad[3 - nd + i] = total / 2;
        pad[6 - nd + i] = total - total / 2;
    }
}

/* The string padding of conv{1,2,3}d.padding: "valid" is none, "same" keeps the size. */
static int string_padding(TsCall *c, int nd, TsValue v, TsConvArgs *a, const TsTensor *w,
                          int64_t *pad, bool *same)
{
    const char *p = v.tag == TS_TAG_STR ? ((const TsStr *)v.u.p)->data : "";
    a->padding[0] = 0;
    a->n_padding = 1;
    *same = false;
    if (strcmp(p, "valid") == 0)
        return 0;
    if (strcmp(p, "same") != 0)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "Invalid padding string: '%s'", p);
    for (int i = 0; i < a->n_stride; i++)
        if (a->stride[i] != 1)
            return ts_error_set(c->error, TS_ERR_RUNTIME, "padding='same' is not supported for "
                                "strided convolutions");
    same_padding(nd, a, w, pad);
    *same = true;
    return 0;
}

TsTensor *ts_conv_batchify(TsCall *c, const TsConvArgs *a, TsTensor *x, TsTensor *w,
                           TsTensor *b, const int64_t *same_pad)
{
    int nd = a->op_nd;
    if (x->dim != nd + 1 && x->dim != nd + 2) {
        char s[200];
        ts_aten_format_sizes(s, sizeof s, x->dim, x->sizes);
        ts_error_set(c->error, TS_ERR_RUNTIME, "Expected %dD (unbatched) or %dD (batched) input "
                     "to %s, but got input of size: %s", nd + 1, nd + 2, a->op, s);
        return NULL;
    }
    if (x->dim == nd + 2)
        return ts_conv_run(c, a, x, w, b, same_pad);
    int64_t sizes[5] = { 1 }, strides[5] = { 0 };
    memcpy(sizes + 1, x->sizes, (size_t)x->dim * sizeof *sizes);
    memcpy(strides + 1, x->strides, (size_t)x->dim * sizeof *strides);
    TsTensor *xb = ts_aten_view(x, x->dim + 1, sizes, strides, x->offset, c->error);
    TsTensor *ob = xb ? ts_conv_run(c, a, xb, w, b, same_pad) : NULL;
    if (xb)
        ts_tensor_release(xb);
    if (!ob)
        return NULL;
    TsTensor *o = ts_aten_view(ob, ob->dim - 1, ob->sizes + 1, ob->strides + 1, ob->offset,
                              c->error);
    ts_tensor_release(ob);
    return o;
}

/* conv{nd}d(Tensor input, Tensor weight, Tensor? bias, stride, padding (ints or a string),
 * dilation, int groups) */
static int conv_call(TsCall *c, int nd, bool str_pad)
{
    static const char *const names[] = { "conv1d", "conv2d", "conv3d" };
    TsArgs args;
    TsValue *v = args.v;
    TsTensor *bias = NULL, *o = NULL;
    TsConvArgs a = { .op_nd = nd, .op = names[nd - 1] };
    if (ts_args_pop(c, TS_DEV_CPU, &args))
        return (int)c->error->code;
    TsTensor *x = ts_nn_tensor(&args, 0);
    TsTensor *w = x ? ts_nn_tensor(&args, 1) : NULL;
    int64_t pad[6];
    bool same = false;
    a.groups = ts_nn_int(v[6]);
    if (w && !ts_args_opt_tensor(&args, 2, &bias) &&
        !ts_conv_read_lists(&args, &a, 3, str_pad ? -1 : 4, 5, -1) &&
        !(str_pad && string_padding(c, nd, v[4], &a, w, pad, &same)))
        o = ts_conv_batchify(c, &a, x, w, bias, same ? pad : NULL);
    return ts_args_return_tensor(&args, 0, o);
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
/* aten::conv3d(Tensor input, Tensor weight, Tensor? bias=None, int[3] stride=1,
 *              int[3] padding=0, int[3] dilation=1, int groups=1) -> Tensor */
static int k_conv3d(TsCall *c) { return conv_call(c, 3, false); }
/* aten::conv3d.padding(..., str padding="valid", ...) */
static int k_conv3d_padding(TsCall *c) { return conv_call(c, 3, true); }

/* convolution(Tensor input, Tensor weight, Tensor? bias, int[] stride, int[] padding,
 * int[] dilation, bool transposed, int[] output_padding, int groups, ...) (the extra flags
 * of _convolution choose backends and change nothing here); op names it in PyTorch's
 * messages. */
static int convolution_call(TsCall *c, const char *op)
{
    TsArgs args;
    TsValue *v = args.v;
    TsTensor *bias = NULL, *o = NULL;
    TsConvArgs a = { .op = op };
    if (ts_args_pop(c, TS_DEV_CPU, &args))
        return (int)c->error->code;
    TsTensor *x = ts_nn_tensor(&args, 0);
    TsTensor *w = x ? ts_nn_tensor(&args, 1) : NULL;
    a.transposed = v[6].tag == TS_TAG_BOOL && v[6].u.b;
    a.groups = ts_nn_int(v[8]);
    if (w && !ts_args_opt_tensor(&args, 2, &bias) &&
        !ts_conv_read_lists(&args, &a, 3, 4, 5, 7))
        o = ts_conv_run(c, &a, x, w, bias, NULL);
    return ts_args_return_tensor(&args, 0, o);
}

/* aten::convolution(Tensor input, Tensor weight, Tensor? bias, int[] stride, int[] padding,
 *                   int[] dilation, bool transposed, int[] output_padding, int groups) */
static int k_convolution(TsCall *c) { return convolution_call(c, "convolution"); }
/* aten::_convolution(..., int groups, bool benchmark, bool deterministic, bool cudnn_enabled,
 *                    bool allow_tf32) -> Tensor */
static int k__convolution(TsCall *c) { return convolution_call(c, "_convolution"); }
/* aten::_convolution.deprecated(..., bool benchmark, bool deterministic,
 *                               bool cudnn_enabled) -> Tensor */
static int k__convolution_deprecated(TsCall *c)
{
    return convolution_call(c, "_convolution");
}

static const TsCpuOp ops[] = {
    { "aten::conv1d", "", k_conv1d },
    { "aten::conv1d", "padding", k_conv1d_padding },
    { "aten::conv2d", "", k_conv2d },
    { "aten::conv2d", "padding", k_conv2d_padding },
    { "aten::conv3d", "", k_conv3d },
    { "aten::conv3d", "padding", k_conv3d_padding },
    { "aten::convolution", "", k_convolution },
    { "aten::_convolution", "", k__convolution },
    { "aten::_convolution", "deprecated", k__convolution_deprecated },
};

const TsCpuTable ts_cpu_conv_table = { ops, sizeof ops / sizeof ops[0] };
