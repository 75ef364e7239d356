/* resample.c — padding and 2-d resizing: aten::pad (constant, reflect, replicate and
 * circular, what F.pad lowers to), constant_pad_nd, and the .vec overloads of
 * upsample_nearest2d and upsample_bilinear2d that F.interpolate lowers to.
 *
 * Padding is a gather: each output element maps, dim by dim, to a source element or to the
 * fill value; the mode decides the map of an index that falls outside (mirror, clamp, wrap).
 * Negative constant padding crops. The upsamplers compute source indices with PyTorch's
 * formulas in its precision (float for float32), so the same pixels are picked and weighed.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nn.h"

typedef enum PadMode { PAD_CONSTANT, PAD_REFLECT, PAD_REPLICATE, PAD_CIRCULAR } PadMode;

/* The source index of output index o along a dim of size n padded by lo before, or -1 for
 * the fill value. */
static int64_t pad_src(PadMode mode, int64_t o, int64_t lo, int64_t n)
{
    int64_t i = o - lo;
    if (i >= 0 && i < n)
        return i;
    switch (mode) {
    case PAD_REFLECT:
        return i < 0 ? -i : 2 * (n - 1) - i;
    case PAD_REPLICATE:
        return i < 0 ? 0 : n - 1;
    case PAD_CIRCULAR:
        return ((i % n) + n) % n;
    default:
        return -1;
    }
}

/* Pads the last npad dims of x (pad holds lo, hi pairs from the last dim backwards). */
static TsTensor *pad_gather(TsError *err, const TsTensor *x, int npad, const int64_t *pad,
                            PadMode mode, TsValue fill)
{
    int dim = x->dim;
    int64_t lo[TS_TENSOR_MAX_DIMS] = { 0 }, sizes[TS_TENSOR_MAX_DIMS];
    for (int d = 0; d < dim; d++) {
        int64_t hi = 0;
        int k = dim - 1 - d;          /* pad pair index of dim d */
        if (k < npad) {
            lo[d] = pad[2 * k];
            hi = pad[2 * k + 1];
        }
        sizes[d] = x->sizes[d] + lo[d] + hi;
        if (sizes[d] < 0) {
            ts_error_set(err, TS_ERR_RUNTIME, "The input size %lld, plus negative padding %lld "
                         "and %lld resulted in a negative output size, which is invalid. Check "
                         "dimension %d of your input.", (long long)x->sizes[d], (long long)lo[d],
                         (long long)hi, d);
            return NULL;
        }
    }
    char elem[16] = { 0 };
    if (mode == PAD_CONSTANT && ts_cpu_scalar_to_elem(fill, x->dtype, elem, err))
        return NULL;
    TsTensor *o = ts_cpu_empty(x->dtype, dim, sizes, err);
    if (!o)
        return NULL;
    int64_t n = ts_tensor_numel(o), es = (int64_t)ts_dtype_size(x->dtype);
    int64_t idx[TS_TENSOR_MAX_DIMS] = { 0 };
    const char *src = ts_tensor_data(x);
    char *dst = ts_tensor_data(o);
    int64_t last = dim ? sizes[dim - 1] : 1;
    for (int64_t e = 0; e < n; e += last) {
        /* the offset of this row's source, or a fill row */
        int64_t off = 0;
        bool fill_row = false;
        for (int d = 0; d + 1 < dim; d++) {
            int64_t s = pad_src(mode, idx[d], lo[d], x->sizes[d]);
            if (s < 0)
                fill_row = true;
            else
                off += s * x->strides[d];
        }
        for (int64_t j = 0; j < last; j++) {
            int64_t s = dim ? pad_src(mode, j, lo[dim - 1], x->sizes[dim - 1]) : 0;
            char *out = dst + (e + j) * es;
            if (fill_row || s < 0)
                memcpy(out, elem, (size_t)es);
            else
                memcpy(out, src + (off + (dim ? s * x->strides[dim - 1] : 0)) * es, (size_t)es);
        }
        for (int d = dim - 2; d >= 0; d--) {
            if (++idx[d] < sizes[d])
                break;
            idx[d] = 0;
        }
    }
    return o;
}

static int check_pad_len(TsError *err, const TsTensor *x, int len)
{
    if (len % 2)
        return ts_error_set(err, TS_ERR_RUNTIME, "Padding length must be divisible by 2");
    if (len / 2 > x->dim)
        return ts_error_set(err, TS_ERR_RUNTIME, "Padding length too large");
    return 0;
}

/* The checks of the non-constant modes, with PyTorch's messages. */
static int check_mode(TsError *err, const TsTensor *x, int npad, const int64_t *pad,
                      PadMode mode)
{
    char s[256];
    if (npad < 1 || npad > 3 || (x->dim != npad + 1 && x->dim != npad + 2))
        return ts_error_set(err, TS_ERR_RUNTIME, "Only 2D, 3D, 4D, 5D padding with non-constant "
                            "padding are supported for now");
    for (int k = 0; k < npad; k++) {
        int d = x->dim - 1 - k;
        int64_t n = x->sizes[d], a = pad[2 * k], b = pad[2 * k + 1];
        for (int i = 1; i < x->dim; i++)
            if (x->sizes[i] == 0 && mode != PAD_CIRCULAR) {
                ts_cpu_format_sizes(s, sizeof s, x->dim, x->sizes);
                return ts_error_set(err, TS_ERR_RUNTIME, "Expected %dD or %dD (batch mode) tensor "
                                    "with possibly 0 batch size and other non-zero dimensions "
                                    "for input, but got: %s", npad + 1, npad + 2, s);
            }
        if (mode == PAD_REFLECT && (a >= n || b >= n || a < 0 || b < 0)) {
            ts_cpu_format_sizes(s, sizeof s, x->dim, x->sizes);
            return ts_error_set(err, TS_ERR_RUNTIME, "Argument #4: Padding size should be less "
                                "than the corresponding input dimension, but got: padding "
                                "(%lld, %lld) at dimension %d of input %s", (long long)a,
                                (long long)b, d, s);
        }
        if ((mode == PAD_REPLICATE || mode == PAD_CIRCULAR) && (a < 0 || b < 0))
            return ts_error_set(err, TS_ERR_RUNTIME, "padding: negative padding is only "
                                "supported in constant mode");
        if (mode == PAD_CIRCULAR && (a > n || b > n))
            return ts_error_set(err, TS_ERR_RUNTIME, "Padding value causes wrapping around more "
                                "than once.");
    }
    return 0;
}

/* aten::pad(Tensor self, int[] pad, str mode="constant", float? value=None) -> Tensor */
static int k_pad(TsCall *c)
{
    static const char *const modes[] = { "constant", "reflect", "replicate", "circular" };
    TsValue a[4];
    int64_t pad[2 * TS_TENSOR_MAX_DIMS];
    int len = 0;
    TsTensor *o = NULL;
    ts_cpu_pop_args(c, 4, a);
    TsTensor *x = ts_cpu_tensor_arg(c, "aten::pad", "self", a[0]);
    const char *m = a[2].tag == TS_TAG_STR ? ((const TsStr *)a[2].u.p)->data : "";
    int mode = -1;
    for (int i = 0; i < 4; i++)
        if (strcmp(m, modes[i]) == 0)
            mode = i;
    int rc = x ? ts_nn_int_vec(c, "aten::pad", "pad", a[1], 2 * TS_TENSOR_MAX_DIMS, pad, &len)
               : (int)c->error->code;
    if (!rc)
        rc = check_pad_len(c->error, x, len);
    if (!rc && mode < 0)
        rc = ts_error_set(c->error, TS_ERR_NOT_IMPL, "Unrecognised padding mode %s", m);
    else if (!rc && mode != PAD_CONSTANT && a[3].tag != TS_TAG_NONE)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Padding mode \"%s\" doesn't take in value "
                          "argument", m);
    else if (!rc && mode != PAD_CONSTANT)
        rc = check_mode(c->error, x, len / 2, pad, (PadMode)mode);
    if (!rc)
        o = pad_gather(c->error, x, len / 2, pad, (PadMode)mode,
                       a[3].tag == TS_TAG_DOUBLE ? a[3] : ts_int(0));
    return ts_nn_finish(c, 4, a, o);
}

/* aten::constant_pad_nd(Tensor self, int[] pad, Scalar value=0) -> Tensor */
static int k_constant_pad_nd(TsCall *c)
{
    TsValue a[3];
    int64_t pad[2 * TS_TENSOR_MAX_DIMS];
    int len = 0;
    TsTensor *o = NULL;
    ts_cpu_pop_args(c, 3, a);
    TsTensor *x = ts_cpu_tensor_arg(c, "aten::constant_pad_nd", "self", a[0]);
    if (x && !ts_nn_int_vec(c, "aten::constant_pad_nd", "pad", a[1], 2 * TS_TENSOR_MAX_DIMS,
                            pad, &len) && !check_pad_len(c->error, x, len))
        o = pad_gather(c->error, x, len / 2, pad, PAD_CONSTANT, a[2]);
    return ts_nn_finish(c, 3, a, o);
}

/* ---- upsampling ---------------------------------------------------------------------- */

typedef struct Resize {
    int64_t in[2], out[2];
    double scale[2];           /* the user's scale factor, or 0 */
} Resize;

/* Output sizes from output_size or scale_factors (exactly one given). */
static int resize_args(TsCall *c, const char *name, const TsTensor *x, TsValue size,
                       TsValue scales, Resize *r)
{
    TsError *err = c->error;
    char s[256];
    if (x->dim != 4) {
        ts_cpu_format_sizes(s, sizeof s, x->dim, x->sizes);
        return ts_error_set(err, TS_ERR_RUNTIME, "%s: expected a 4D input (N, C, H, W), but got "
                            "input of size %s", name, s);
    }
    if ((size.tag == TS_TAG_NONE) == (scales.tag == TS_TAG_NONE))
        return ts_error_set(err, TS_ERR_RUNTIME, "Must specify exactly one of output_size and "
                            "scale_factors");
    for (int i = 0; i < 2; i++)
        r->in[i] = x->sizes[2 + i];
    if (size.tag != TS_TAG_NONE) {
        int len;
        if (ts_nn_int_vec(c, name, "output_size", size, 2, r->out, &len))
            return err->code;
        if (len != 2)
            return ts_error_set(err, TS_ERR_RUNTIME, "Expected static_cast<int64_t>(output_size->"
                                "size()) == spatial_dimensions to be true, but got false.  (Could "
                                "this error message be improved?  If so, please report an "
                                "enhancement request to PyTorch.)");
        r->scale[0] = r->scale[1] = 0;
    } else {
        const TsList *l = scales.tag == TS_TAG_LIST ? (const TsList *)scales.u.p : NULL;
        if (!l || l->len != 2)
            return ts_error_set(err, TS_ERR_RUNTIME, "Expected static_cast<int64_t>(scale_factors"
                                "->size()) == spatial_dimensions to be true, but got false.  "
                                "(Could this error message be improved?  If so, please report "
                                "an enhancement request to PyTorch.)");
        for (int i = 0; i < 2; i++) {
            r->scale[i] = ts_nn_double(l->items[i]);
            double o = (double)r->in[i] * r->scale[i];
            r->out[i] = isfinite(o) && fabs(o) < 9e18 ? (int64_t)o : -1;
        }
    }
    if (r->in[0] <= 0 || r->in[1] <= 0 || r->out[0] <= 0 || r->out[1] <= 0)
        return ts_error_set(err, TS_ERR_RUNTIME, "Input and output sizes should be greater than "
                            "0, but got input (H: %lld, W: %lld) output (H: %lld, W: %lld)",
                            (long long)r->in[0], (long long)r->in[1], (long long)r->out[0],
                            (long long)r->out[1]);
    return 0;
}

/* PyTorch's compute_scales_value in float or double. */
static double scale_value(bool single, double user, int64_t in, int64_t out)
{
    if (single)
        return user > 0 ? (double)(float)(1.0 / user) : (double)((float)in / (float)out);
    return user > 0 ? 1.0 / user : (double)in / (double)out;
}

static int64_t nearest_idx(bool single, int64_t o, int64_t in, int64_t out, double user)
{
    if (out == in)
        return o;
    if (out == 2 * in)
        return o >> 1;
    double s = scale_value(single, user, in, out);
    double p = single ? (double)((float)o * (float)s) : (double)o * s;
    int64_t i = (int64_t)floor(p);
    return i < in - 1 ? i : in - 1;
}

static TsTensor *resize_alloc(TsError *err, TsTensor *x, const Resize *r, TsTensor **cx)
{
    int64_t sizes[4] = { x->sizes[0], x->sizes[1], r->out[0], r->out[1] };
    TsTensor *o = ts_cpu_empty(x->dtype, 4, sizes, err);
    *cx = o ? ts_nn_contiguous(x, err) : NULL;
    if (o && !*cx) {
        ts_tensor_release(o);
        return NULL;
    }
    return o;
}

/* aten::upsample_nearest2d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) */
static int k_upsample_nearest2d(TsCall *c)
{
    TsValue a[3];
    Resize r;
    TsTensor *o = NULL, *cx;
    ts_cpu_pop_args(c, 3, a);
    TsTensor *x = ts_cpu_tensor_arg(c, "aten::upsample_nearest2d", "input", a[0]);
    if (x && !resize_args(c, "upsample_nearest2d", x, a[1], a[2], &r) &&
        !ts_nn_check_float(c, "upsample_nearest2d_channels_last", x) &&
        (o = resize_alloc(c->error, x, &r, &cx))) {
        bool single = x->dtype == TS_FLOAT32;
        int64_t planes = x->sizes[0] * x->sizes[1], es = (int64_t)ts_dtype_size(x->dtype);
        const char *in = ts_tensor_data(cx);
        char *out = ts_tensor_data(o);
        for (int64_t q = 0; q < planes; q++)
            for (int64_t y = 0; y < r.out[0]; y++) {
                int64_t iy = nearest_idx(single, y, r.in[0], r.out[0], r.scale[0]);
                for (int64_t xx = 0; xx < r.out[1]; xx++) {
                    int64_t ix = nearest_idx(single, xx, r.in[1], r.out[1], r.scale[1]);
                    memcpy(out + ((q * r.out[0] + y) * r.out[1] + xx) * es,
                           in + ((q * r.in[0] + iy) * r.in[1] + ix) * es, (size_t)es);
                }
            }
        ts_tensor_release(cx);
    }
    return ts_nn_finish(c, 3, a, o);
}

/* Source position, lower index, upper index and weight of the upper one for output o. */
static void linear_src(bool single, bool align, double user, int64_t o, int64_t in, int64_t out,
                       int64_t *i0, int64_t *i1, double *w1)
{
    double s;
    if (align)
        s = out > 1 ? (single ? (double)((float)(in - 1) / (float)(out - 1))
                              : (double)(in - 1) / (double)(out - 1)) : 0;
    else
        s = scale_value(single, user, in, out);
    double src;
    if (single) {
        float f = align ? (float)s * (float)o : (float)s * ((float)o + 0.5f) - 0.5f;
        src = f < 0 ? 0 : f;
    } else {
        src = align ? s * (double)o : s * ((double)o + 0.5) - 0.5;
        src = src < 0 ? 0 : src;
    }
    *i0 = (int64_t)src;
    *i1 = *i0 + (*i0 < in - 1 ? 1 : 0);
    *w1 = single ? (double)((float)src - (float)*i0) : src - (double)*i0;
}

/* aten::upsample_bilinear2d.vec(Tensor input, SymInt[]? output_size, bool align_corners,
 *                               float[]? scale_factors) -> Tensor */
static int k_upsample_bilinear2d(TsCall *c)
{
    TsValue a[4];
    Resize r;
    TsTensor *o = NULL, *cx;
    ts_cpu_pop_args(c, 4, a);
    TsTensor *x = ts_cpu_tensor_arg(c, "aten::upsample_bilinear2d", "input", a[0]);
    bool align = a[2].tag == TS_TAG_BOOL && a[2].u.b;
    if (x && !resize_args(c, "upsample_bilinear2d", x, a[1], a[3], &r) &&
        !ts_nn_check_float(c, "upsample_bilinear2d_channels_last", x) &&
        (o = resize_alloc(c->error, x, &r, &cx))) {
        bool single = x->dtype == TS_FLOAT32;
        int dt = x->dtype;
        int64_t planes = x->sizes[0] * x->sizes[1];
        const void *in = ts_tensor_data(cx);
        void *out = ts_tensor_data(o);
        for (int64_t y = 0; y < r.out[0]; y++) {
            int64_t y0, y1;
            double wy;
            linear_src(single, align, r.scale[0], y, r.in[0], r.out[0], &y0, &y1, &wy);
            for (int64_t xx = 0; xx < r.out[1]; xx++) {
                int64_t x0, x1;
                double wx;
                linear_src(single, align, r.scale[1], xx, r.in[1], r.out[1], &x0, &x1, &wx);
                for (int64_t q = 0; q < planes; q++) {
                    int64_t base = q * r.in[0] * r.in[1];
                    double v00 = ts_nn_get(dt, in, base + y0 * r.in[1] + x0);
                    double v01 = ts_nn_get(dt, in, base + y0 * r.in[1] + x1);
                    double v10 = ts_nn_get(dt, in, base + y1 * r.in[1] + x0);
                    double v11 = ts_nn_get(dt, in, base + y1 * r.in[1] + x1);
                    double v = (1 - wy) * ((1 - wx) * v00 + wx * v01) +
                               wy * ((1 - wx) * v10 + wx * v11);
                    ts_nn_set(dt, out, (q * r.out[0] + y) * r.out[1] + xx, v);
                }
            }
        }
        ts_tensor_release(cx);
    }
    return ts_nn_finish(c, 4, a, o);
}

static const TsCpuOp ops[] = {
    { "aten::pad", "", k_pad },
    { "aten::constant_pad_nd", "", k_constant_pad_nd },
    { "aten::upsample_nearest2d", "vec", k_upsample_nearest2d },
    { "aten::upsample_bilinear2d", "vec", k_upsample_bilinear2d },
};

const TsCpuTable ts_cpu_resample_table = { ops, sizeof ops / sizeof ops[0] };
