/* resample.c — padding and resizing: aten::pad (constant, reflect, replicate and circular,
 * what F.pad lowers to), constant_pad_nd, and the upsamplers F.interpolate lowers to:
 * nearest and nearest-exact in 1 to 3 spatial dims, linear (1d), bilinear (2d), trilinear
 * (3d) and bicubic (2d), antialiased bilinear and bicubic (2d), each in its plain and .vec
 * overload.
 *
 * Padding is a gather: each output element maps, dim by dim, to a source element or to the
 * fill value; the mode decides the map of an index that falls outside (mirror, clamp, wrap).
 * Negative constant padding crops. The upsamplers check their arguments in PyTorch's order
 * with its messages, and compute source indices and weights with PyTorch 1.13's formulas in
 * its precision (which depends on the rank and, for nearest in 1-d, on the dtype), so the
 * same pixels are picked and weighed.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nn/nn.h"

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
        if (__builtin_add_overflow(x->sizes[d], lo[d], &sizes[d]) ||
            __builtin_add_overflow(sizes[d], hi, &sizes[d])) {
            ts_error_set(err, TS_ERR_RUNTIME, "The input size %lld, plus padding %lld and %lld "
                         "resulted in an output size too large to represent. Check dimension "
                         "%d of your input.", (long long)x->sizes[d], (long long)lo[d],
                         (long long)hi, d);
            return NULL;
        }
        if (sizes[d] < 0) {
            ts_error_set(err, TS_ERR_RUNTIME, "The input size %lld, plus negative padding %lld "
                         "and %lld resulted in a negative output size, which is invalid. Check "
                         "dimension %d of your input.", (long long)x->sizes[d], (long long)lo[d],
                         (long long)hi, d);
            return NULL;
        }
    }
    char elem[16] = { 0 };
    if (mode == PAD_CONSTANT && ts_aten_scalar_to_elem(fill, x->dtype, elem, err))
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
                ts_aten_format_sizes(s, sizeof s, x->dim, x->sizes);
                return ts_error_set(err, TS_ERR_RUNTIME, "Expected %dD or %dD (batch mode) tensor "
                                    "with possibly 0 batch size and other non-zero dimensions "
                                    "for input, but got: %s", npad + 1, npad + 2, s);
            }
        if (mode == PAD_REFLECT && (a >= n || b >= n || a < 0 || b < 0)) {
            ts_aten_format_sizes(s, sizeof s, x->dim, x->sizes);
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
    TsArgs args;
    TsValue *a = args.v;
    int64_t pad[2 * TS_TENSOR_MAX_DIMS];
    int len = 0;
    TsTensor *o = NULL;
    if (ts_args_pop(c, TS_DEV_CPU, &args))
        return (int)c->error->code;
    TsTensor *x = ts_nn_tensor(&args, 0);
    const char *m = a[2].tag == TS_TAG_STR ? ((const TsStr *)a[2].u.p)->data : "";
    int mode = -1;
    for (int i = 0; i < 4; i++)
        if (strcmp(m, modes[i]) == 0)
            mode = i;
    int rc = x ? ts_nn_int_vec(&args, 1, 2 * TS_TENSOR_MAX_DIMS, pad, &len)
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
    return ts_args_return_tensor(&args, 0, o);
}

/* aten::constant_pad_nd(Tensor self, int[] pad, Scalar value=0) -> Tensor */
static int k_constant_pad_nd(TsCall *c)
{
    TsArgs args;
    TsValue *a = args.v;
    int64_t pad[2 * TS_TENSOR_MAX_DIMS];
    int len = 0;
    TsTensor *o = NULL;
    if (ts_args_pop(c, TS_DEV_CPU, &args))
        return (int)c->error->code;
    TsTensor *x = ts_nn_tensor(&args, 0);
    if (x && !ts_nn_int_vec(&args, 1, 2 * TS_TENSOR_MAX_DIMS, pad, &len) &&
        !check_pad_len(c->error, x, len))
        o = pad_gather(c->error, x, len / 2, pad, PAD_CONSTANT, a[2]);
    return ts_args_return_tensor(&args, 0, o);
}

/* ---- upsampling: output sizes and PyTorch's checks ---------------------------------------- */

typedef struct Resize {
    int rank;                  /* spatial dims: 1 to 3 */
    int64_t in[3], out[3];
    double scale[3];           /* the user's scale factor of each dim, or 0 (none) */
} Resize;

#define CHECK_MSG_TAIL " to be true, but got false.  (Could this error message be improved?  " \
    "If so, please report an enhancement request to PyTorch.)"

/* PyTorch's compute_output_size for the .vec overloads: sizes from exactly one of
 * output_size and scale_factors (a scale gives (int64)(in * scale) and is kept for the
 * source indices). check_len: see resize_call. */
static int vec_sizes(TsArgs *args, const TsTensor *x, size_t scales_at, bool check_len,
                     int64_t *out, double *scale, int *len)
{
    TsError *err = args->call->error;
    TsValue size = args->v[1], scales = args->v[scales_at];
    int spatial = x->dim - 2;
    if ((size.tag == TS_TAG_NONE) == (scales.tag == TS_TAG_NONE))
        return ts_error_set(err, TS_ERR_RUNTIME, "Must specify exactly one of output_size and "
                            "scale_factors");
    if (size.tag != TS_TAG_NONE) {
        if (ts_nn_int_vec(args, 1, TS_TENSOR_MAX_DIMS, out, len))
            return err->code;
        if (check_len && *len != spatial)
            return ts_error_set(err, TS_ERR_RUNTIME, "Expected static_cast<int64_t>(output_size"
                                "->size()) == spatial_dimensions" CHECK_MSG_TAIL);
        for (int i = 0; i < *len; i++)
            scale[i] = 0;
        return 0;
    }
    const TsList *l = scales.tag == TS_TAG_LIST ? (const TsList *)scales.u.p : NULL;
    if (!l || (int64_t)l->len != spatial)
        return ts_error_set(err, TS_ERR_RUNTIME, "Expected static_cast<int64_t>(scale_factors"
                            "->size()) == spatial_dimensions" CHECK_MSG_TAIL);
    for (int i = 0; i < spatial; i++) {
        scale[i] = ts_nn_double(l->items[i]);
        double o = (double)x->sizes[2 + i] * scale[i];
        /* out of int64's range (or nan) gives INT64_MIN, as the x86 conversion does */
        out[i] = o > -9.2e18 && o < 9.2e18 ? (int64_t)o : INT64_MIN;
    }
    *len = spatial;
    return 0;
}

/* output_size (argument 1) of a plain overload (SymInt[N]): a list, or one int for every
 * dim. */
static int plain_sizes(TsArgs *args, int rank, int64_t *out, int *len)
{
    TsValue v = args->v[1];
    if (v.tag != TS_TAG_INT)
        return ts_nn_int_vec(args, 1, TS_TENSOR_MAX_DIMS, out, len);
    for (int i = 0; i < rank; i++)
        out[i] = v.u.i;
    *len = rank;
    return 0;
}

/* The checks of PyTorch's upsample_Nd_common_check and of the ops' meta functions, then r. */
static int common_check(TsError *err, const TsTensor *x, int rank, int len, const int64_t *size,
                        const double *scale, Resize *r)
{
    static const char *const names[3][3] = { { "W" }, { "H", "W" }, { "D", "H", "W" } };
    if (len != rank)
        return ts_error_set(err, TS_ERR_RUNTIME, "It is expected output_size equals to %d, but "
                            "got size %d", rank, len);
    if (x->dim != rank + 2)
        return ts_error_set(err, TS_ERR_RUNTIME, "It is expected input_size equals to %d, but "
                            "got size %d", rank + 2, (int)x->dim);
    bool positive = true;
    r->rank = rank;
    for (int i = 0; i < rank; i++) {
        r->in[i] = x->sizes[2 + i];
        r->out[i] = size[i];
        r->scale[i] = scale[i];
        positive = positive && r->in[i] > 0 && r->out[i] > 0;
    }
    if (!positive) {
        char in[128] = "", out[128] = "";
        size_t ni = 0, no = 0;
        for (int i = 0; i < rank; i++) {
            ni += (size_t)snprintf(in + ni, sizeof in - ni, "%s%s: %lld", i ? ", " : "",
                                   names[rank - 1][i], (long long)r->in[i]);
            no += (size_t)snprintf(out + no, sizeof out - no, "%s%s: %lld", i ? ", " : "",
                                   names[rank - 1][i], (long long)r->out[i]);
        }
        return ts_error_set(err, TS_ERR_RUNTIME, "Input and output sizes should be greater than "
                            "0, but got input (%s)%s output (%s)", in, rank == 1 ? " and" : "",
                            out);
    }
    if (x->sizes[1] == 0) {
        char s[256];
        ts_aten_format_sizes(s, sizeof s, x->dim, x->sizes);
        return ts_error_set(err, TS_ERR_RUNTIME, "Non-empty %dD data tensor expected but got a "
                            "tensor with sizes %s", rank + 2, s);
    }
    return 0;
}

/* Reads the arguments of a .vec overload (input, output_size, ..., scale_factors) or of a
 * plain one (self, output_size, ..., scales of each dim) into r. extra is the number of
 * arguments between output_size and the scales (align_corners). check_len: output_size must
 * have one size per spatial dim of the input before the op's own checks run (as for every
 * .vec op but _upsample_nearest_exact1d/2d, and for the plain upsample_nearest1d and
 * upsample_linear1d when TorchScript calls them). */
static int resize_call(TsArgs *args, const TsTensor *x, int rank, bool vec, bool check_len,
                       int extra, Resize *r)
{
    TsCall *c = args->call;
    const TsValue *a = args->v;
    int64_t size[TS_TENSOR_MAX_DIMS];
    double scale[TS_TENSOR_MAX_DIMS] = { 0 };
    int len = 0;
    if (vec) {
        if (vec_sizes(args, x, 2 + (size_t)extra, check_len, size, scale, &len))
            return c->error->code;
    } else {
        if (plain_sizes(args, rank, size, &len))
            return c->error->code;
        if (check_len && len != x->dim - 2)
            return ts_error_set(c->error, TS_ERR_RUNTIME, "Expected static_cast<int64_t>("
                                "output_size->size()) == spatial_dimensions" CHECK_MSG_TAIL);
        for (int i = 0; i < rank; i++)
            scale[i] = a[2 + extra + i].tag == TS_TAG_NONE ? 0 : ts_nn_double(a[2 + extra + i]);
    }
    return common_check(c->error, x, rank, len, size, scale, r);
}

/* ---- nearest ------------------------------------------------------------------------------ */

typedef struct NearestOp {
    const char *name;          /* "aten::upsample_nearest1d" */
    int rank;
    bool exact;                /* nearest-exact: pixel centres, rounded */
    const char *kernel;        /* the name in PyTorch's dtype error */
} NearestOp;

static float round_bf16(float f)
{
    uint16_t b;
    ts_cpu_store_double(TS_BFLOAT16, &b, f);
    return (float)ts_cpu_load_double(TS_BFLOAT16, &b);
}

/* The source index of output index o along a dim, as PyTorch 1.13's cpu kernels compute it.
 * 2-d and 3-d compute in float whatever the dtype (and copy when a size is kept or doubled);
 * 1-d computes in the dtype's precision: float for float32 and uint8, double for float64,
 * and for bfloat16 a scale rounded to bfloat16. Every source position is floored as a
 * float. exact samples at pixel centres. */
static int64_t nearest_src(const NearestOp *op, int dtype, int64_t o, int64_t in, int64_t out,
                           double user)
{
    float src;
    if (op->rank > 1) {
        float s = user > 0 ? (float)(1.0 / user) : (float)in / (float)out;
        if (op->exact)
            src = (float)(((double)o + 0.5) * s);
        else if (out == in || out == 2 * in)
            return out == in ? o : o >> 1;
        else
            src = (float)o * s;
    } else if (dtype == TS_FLOAT64) {
        double s = user > 0 ? 1.0 / user : (double)in / (double)out;
        double d = op->exact ? s * ((double)o + 0.5) - 0.5 : s * (double)o;
        src = (float)(op->exact ? (d < 0 ? 0 : d) + 0.5 : d);
    } else {
        float s = user > 0 ? (float)(1.0 / user) : (float)in / (float)out;
        if (dtype == TS_BFLOAT16)
            s = round_bf16(s);
        float f = op->exact ? s * ((float)o + 0.5f) - 0.5f : s * (float)o;
        src = op->exact ? (f < 0 ? 0 : f) + 0.5f : f;
    }
    int64_t i = (int64_t)floorf(src);
    return i < in - 1 ? i : in - 1;
}

static int nearest_dtype(TsCall *c, const NearestOp *op, const TsTensor *x)
{
    int dt = x->dtype;
    if (dt == TS_FLOAT32 || dt == TS_FLOAT64 || dt == TS_UINT8 ||
        (dt == TS_BFLOAT16 && !op->exact))
        return 0;
    return ts_error_set(c->error, TS_ERR_RUNTIME, "\"%s\" not implemented for '%s'", op->kernel,
                        ts_dtype_type_name(dt));
}

/* A gather: the source of each output element, dim by dim, from index tables (the spatial
 * dims padded to three with size-1 dims in front). */
static TsTensor *nearest(TsError *err, const NearestOp *op, TsTensor *x, const Resize *r)
{
    int64_t sizes[5] = { x->sizes[0], x->sizes[1] }, in[3] = { 1, 1, 1 }, out[3] = { 1, 1, 1 };
    double user[3] = { 0, 0, 0 };
    for (int d = 0; d < r->rank; d++) {
        sizes[2 + d] = r->out[d];
        in[3 - r->rank + d] = r->in[d];
        out[3 - r->rank + d] = r->out[d];
        user[3 - r->rank + d] = r->scale[d];
    }
    int64_t *idx = malloc((size_t)(out[0] + out[1] + out[2]) * sizeof *idx);
    if (!idx) {
        ts_error_set(err, TS_ERR_NOMEM, "%s: out of memory", op->name);
        return NULL;
    }
    int64_t *id[3] = { idx, idx + out[0], idx + out[0] + out[1] };
    for (int d = 0; d < 3; d++)
        for (int64_t o = 0; o < out[d]; o++)
            id[d][o] = d < 3 - r->rank ? 0 : nearest_src(op, x->dtype, o, in[d], out[d], user[d]);
    TsTensor *o = ts_cpu_empty(x->dtype, r->rank + 2, sizes, err);
    TsTensor *cx = o ? ts_nn_contiguous(x, err) : NULL;
    if (cx) {
        size_t es = ts_dtype_size(x->dtype);
        int64_t planes = sizes[0] * sizes[1];
        const char *src = ts_tensor_data(cx);
        char *dst = ts_tensor_data(o);
        for (int64_t q = 0; q < planes; q++)
            for (int64_t i0 = 0; i0 < out[0]; i0++)
                for (int64_t i1 = 0; i1 < out[1]; i1++) {
                    const char *row = src + (size_t)(((q * in[0] + id[0][i0]) * in[1] +
                                                      id[1][i1]) * in[2]) * es;
                    for (int64_t i2 = 0; i2 < out[2]; i2++, dst += es)
                        memcpy(dst, row + (size_t)id[2][i2] * es, es);
                }
        ts_tensor_release(cx);
    } else if (o) {
        ts_tensor_release(o);
        o = NULL;
    }
    free(idx);
    return o;
}

/* upsample_nearest{1,2,3}d and _upsample_nearest_exact{1,2,3}d, plain and .vec:
 *   (Tensor self, SymInt[N] output_size, float? scales...) -> Tensor
 *   .vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor */
static int nearest_call(TsCall *c, const NearestOp *op, bool vec)
{
    TsArgs args;
    Resize r;
    TsTensor *o = NULL;
    if (ts_args_pop(c, TS_DEV_CPU, &args))
        return (int)c->error->code;
    TsTensor *x = ts_nn_tensor(&args, 0);
    bool check_len = vec ? !op->exact || op->rank == 3 : !op->exact && op->rank == 1;
    if (x && !resize_call(&args, x, op->rank, vec, check_len, 0, &r) &&
        !nearest_dtype(c, op, x))
        o = nearest(c->error, op, x, &r);
    return ts_args_return_tensor(&args, 0, o);
}

static const NearestOp nearest_ops[] = {
    { "aten::upsample_nearest1d", 1, false, "compute_indices_weights_nearest" },
    { "aten::upsample_nearest2d", 2, false, "upsample_nearest2d_channels_last" },
    { "aten::upsample_nearest3d", 3, false, "upsample_nearest3d_channels_last" },
    { "aten::_upsample_nearest_exact1d", 1, true, "compute_indices_weights_nearest" },
    { "aten::_upsample_nearest_exact2d", 2, true, "upsample_nearest2d_channels_last" },
    { "aten::_upsample_nearest_exact3d", 3, true, "upsample_nearest3d_channels_last" },
};

#define NEAREST_KERNELS(X) \
    X(upsample_nearest1d, 0) X(upsample_nearest2d, 1) X(upsample_nearest3d, 2) \
    X(_upsample_nearest_exact1d, 3) X(_upsample_nearest_exact2d, 4) \
    X(_upsample_nearest_exact3d, 5)
#define NEAREST_KERNEL(NAME, I) \
    static int k_##NAME(TsCall *c) { return nearest_call(c, &nearest_ops[I], false); } \
    static int k_##NAME##_vec(TsCall *c) { return nearest_call(c, &nearest_ops[I], true); }
NEAREST_KERNELS(NEAREST_KERNEL)
#undef NEAREST_KERNEL

/* ---- linear and cubic -------------------------------------------------------------------- */

typedef struct InterpOp {
    const char *name;          /* "aten::upsample_linear1d" */
    int rank;
    bool cubic;                /* bicubic: 4 taps per dim, else linear: 2 */
    const char *kernel;        /* the name in PyTorch's dtype error */
} InterpOp;

/* The source indices and weights one output index reads along a dim. */
typedef struct Taps {
    int64_t idx[4];
    double w[4];
} Taps;

/* PyTorch's area_pixel_compute_scale, in float or double. */
static double scale_value(bool single, bool align, double user, int64_t in, int64_t out)
{
    if (align)
        return out > 1 ? (single ? (double)((float)(in - 1) / (float)(out - 1))
                                 : (double)(in - 1) / (double)(out - 1)) : 0;
    if (single)
        return user > 0 ? (double)(float)(1.0 / user) : (double)((float)in / (float)out);
    return user > 0 ? 1.0 / user : (double)in / (double)out;
}

/* PyTorch's area_pixel_compute_source_index: the source position of output index o (linear
 * clamps it at 0, cubic does not). float's scale s (rounded by scale_value) is taken in its
 * accumulate type, double (acc_type<float> on the CPU): float's positions and weights are
 * double's rounded once, not float products, whose weights differ by up to 4e-6 (a resized
 * uint8 image's pixel by 1). */
static double source_pos(bool align, bool cubic, double s, int64_t o)
{
    double d = align ? s * (double)o : s * ((double)o + 0.5) - 0.5;
    return !align && !cubic && d < 0 ? 0 : d;
}

/* The taps of output index o: two for linear, four for cubic (Keys' kernel, A = -0.75, with
 * indices clamped into the input). Linear copies a kept size whatever the user's scale, as
 * PyTorch does; cubic applies the scale. */
static void taps_of(const InterpOp *op, bool single, bool align, double user, int64_t o,
                    int64_t in, int64_t out, Taps *t)
{
    int n = op->cubic ? 4 : 2;
    for (int k = 0; k < n; k++) {
        t->idx[k] = o < in ? o : in - 1;
        t->w[k] = 0;
    }
    if (in == out && !op->cubic) {
        t->w[0] = 1;
        return;
    }
    double s = scale_value(single, align, user, in, out);
    double src = source_pos(align, op->cubic, s, o);
    if (!op->cubic) {
        /* a user scale that does not fit the sizes could point past the input: clamp there */
        int64_t i0 = (int64_t)src < in - 1 ? (int64_t)src : in - 1;
        double w1 = single ? (double)(float)(src - (double)i0) : src - (double)i0;
        t->idx[0] = i0;
        t->idx[1] = i0 + (i0 < in - 1 ? 1 : 0);
        t->w[0] = single ? (double)(1.0f - (float)w1) : 1 - w1;
        t->w[1] = w1;
        return;
    }
    const double A = -0.75;
    double fl = floor(src), x = src - fl;
    double x1 = x + 1, x2 = 1 - x, x3 = 2 - x;
    t->w[0] = ((A * x1 - 5 * A) * x1 + 8 * A) * x1 - 4 * A;
    t->w[1] = ((A + 2) * x - (A + 3)) * x * x + 1;
    t->w[2] = ((A + 2) * x2 - (A + 3)) * x2 * x2 + 1;
    t->w[3] = ((A * x3 - 5 * A) * x3 + 8 * A) * x3 - 4 * A;
    for (int k = 0; k < 4; k++) {
        int64_t i = (int64_t)fl - 1 + k;
        t->idx[k] = i < 0 ? 0 : i > in - 1 ? in - 1 : i;
    }
}

/* Each output element is the weighted sum over the taps of every dim, the innermost dim
 * summed first (PyTorch's order); spatial dims are padded to three with size-1 dims. */
static TsTensor *interpolate(TsError *err, const InterpOp *op, TsTensor *x, const Resize *r,
                             bool align)
{
    int64_t sizes[5] = { x->sizes[0], x->sizes[1] }, in[3] = { 1, 1, 1 }, out[3] = { 1, 1, 1 };
    double user[3] = { 0, 0, 0 };
    for (int d = 0; d < r->rank; d++) {
        sizes[2 + d] = r->out[d];
        in[3 - r->rank + d] = r->in[d];
        out[3 - r->rank + d] = r->out[d];
        user[3 - r->rank + d] = r->scale[d];
    }
    Taps *taps = malloc((size_t)(out[0] + out[1] + out[2]) * sizeof *taps);
    if (!taps) {
        ts_error_set(err, TS_ERR_NOMEM, "%s: out of memory", op->name);
        return NULL;
    }
    bool single = x->dtype == TS_FLOAT32;
    int n = op->cubic ? 4 : 2, dt = x->dtype;
    Taps *tp[3] = { taps, taps + out[0], taps + out[0] + out[1] }, one = { { 0 }, { 1 } };
    for (int d = 0; d < 3; d++)
        for (int64_t o = 0; o < out[d]; o++) {
            if (d < 3 - r->rank)
                tp[d][o] = one;
            else
                taps_of(op, single, align, user[d], o, in[d], out[d], &tp[d][o]);
        }
    int nt[3] = { 3 - r->rank > 0 ? 1 : n, 3 - r->rank > 1 ? 1 : n, n };
    TsTensor *o = ts_cpu_empty(dt, r->rank + 2, sizes, err);
    TsTensor *cx = o ? ts_nn_contiguous(x, err) : NULL;
    if (cx) {
        const void *src = ts_tensor_data(cx);
        void *dst = ts_tensor_data(o);
        int64_t planes = sizes[0] * sizes[1], e = 0;
        for (int64_t q = 0; q < planes; q++)
            for (int64_t a = 0; a < out[0]; a++)
                for (int64_t b = 0; b < out[1]; b++)
                    for (int64_t c = 0; c < out[2]; c++, e++) {
                        const Taps *ta = &tp[0][a], *tb = &tp[1][b], *tc = &tp[2][c];
                        double va = 0;
                        for (int i = 0; i < nt[0]; i++) {
                            double vb = 0;
                            for (int j = 0; j < nt[1]; j++) {
                                int64_t row = ((q * in[0] + ta->idx[i]) * in[1] + tb->idx[j]) *
                                              in[2];
                                double vc = 0;
                                for (int k = 0; k < nt[2]; k++)
                                    vc += tc->w[k] * ts_nn_get(dt, src, row + tc->idx[k]);
                                vb += tb->w[j] * vc;
                            }
                            va += ta->w[i] * vb;
                        }
                        ts_nn_set(dt, dst, e, va);
                    }
        ts_tensor_release(cx);
    } else if (o) {
        ts_tensor_release(o);
        o = NULL;
    }
    free(taps);
    return o;
}

/* upsample_linear1d, upsample_bilinear2d, upsample_trilinear3d and upsample_bicubic2d:
 *   (Tensor self, SymInt[N] output_size, bool align_corners, float? scales...) -> Tensor
 *   .vec(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors) */
static int interp_call(TsCall *c, const InterpOp *op, bool vec)
{
    TsArgs args;
    TsValue *a = args.v;
    Resize r;
    TsTensor *o = NULL;
    if (ts_args_pop(c, TS_DEV_CPU, &args))
        return (int)c->error->code;
    TsTensor *x = ts_nn_tensor(&args, 0);
    bool align = a[2].tag == TS_TAG_BOOL && a[2].u.b;
    if (x && !resize_call(&args, x, op->rank, vec, vec || op->rank == 1, 1, &r) &&
        !ts_nn_check_float(c, op->kernel, x))
        o = interpolate(c->error, op, x, &r, align);
    return ts_args_return_tensor(&args, 0, o);
}

static const InterpOp interp_ops[] = {
    { "aten::upsample_linear1d", 1, false, "compute_indices_weights_linear" },
    { "aten::upsample_bilinear2d", 2, false, "upsample_bilinear2d_channels_last" },
    { "aten::upsample_trilinear3d", 3, false, "upsample_trilinear3d_channels_last" },
    { "aten::upsample_bicubic2d", 2, true, "compute_indices_weights_cubic" },
};

#define INTERP_KERNELS(X) \
    X(upsample_linear1d, 0) X(upsample_bilinear2d, 1) X(upsample_trilinear3d, 2) \
    X(upsample_bicubic2d, 3)
#define INTERP_KERNEL(NAME, I) \
    static int k_##NAME(TsCall *c) { return interp_call(c, &interp_ops[I], false); } \
    static int k_##NAME##_vec(TsCall *c) { return interp_call(c, &interp_ops[I], true); }
INTERP_KERNELS(INTERP_KERNEL)
#undef INTERP_KERNEL

/* ---- antialiased bilinear and bicubic -------------------------------------------------- */

/* PyTorch's _upsample_bilinear2d_aa and _upsample_bicubic2d_aa (F.interpolate with
 * antialias=True): separable passes, the last dim first, each output pixel a normalized
 * weighted sum over a window that widens with the downscale factor (PIL's filters: the
 * triangle, or Keys' cubic with A = -0.5). A dim whose size does not change is copied. */
typedef struct AaOp {
    const char *name;
    bool cubic;
} AaOp;

static double aa_filter(bool cubic, double x)
{
    x = fabs(x);
    if (!cubic)
        return x < 1 ? 1 - x : 0;
    const double A = -0.5;
    if (x < 1)
        return ((A + 2) * x - (A + 3)) * x * x + 1;
    if (x < 2)
        return ((A * x - 5 * A) * x + 8 * A) * x - 4 * A;
    return 0;
}

/* The window and weights of output index o in float, as PyTorch computes them for float
 * (its scalar type): the centre and each filter argument are computed in double (C++'s 0.5)
 * and rounded to float, the filter's value rounded to float, the sum and the normalization
 * in float (bilinear's weights are then PyTorch's to the bit, bicubic's within an ulp). */
static void aa_weights_float(bool cubic, float scale, float support, float inv, int64_t o,
                             int64_t n, int64_t taps, double *w, int64_t *lo, int64_t *cnt)
{
    float center = (float)((double)scale * ((double)o + 0.5)), total = 0;
    int64_t a = (int64_t)((double)(center - support) + 0.5);
    int64_t b = (int64_t)((double)(center + support) + 0.5);
    a = a < 0 ? 0 : a;
    b = b > n ? n : b;
    *lo = a;
    *cnt = b - a < taps ? b - a : taps;
    for (int64_t j = 0; j < *cnt; j++) {
        float x = (float)(((double)((float)(j + a) - center) + 0.5) * (double)inv);
        float v = (float)aa_filter(cubic, x);
        w[j] = v;
        total += v;
    }
    for (int64_t j = 0; j < *cnt && total != 0; j++)
        w[j] = (float)w[j] / total;
}

/* One pass along a dim of n -> m entries: rows runs of `inner` contiguous elements each, the
 * dim being the middle one of [outer, n, inner] (src) and [outer, m, inner] (dst). */
static int aa_pass(TsError *err, const AaOp *op, int dt, const void *src, void *dst,
                   int64_t outer, int64_t n, int64_t m, int64_t inner, bool align, double user)
{
    bool single = dt == TS_FLOAT32;
    double scale = scale_value(single, align, user, n, m);
    double support = (op->cubic ? 2.0 : 1.0) * (scale >= 1 ? scale : 1);
    double inv = scale >= 1 ? 1 / scale : 1;
    if (single) {
        support = (float)((op->cubic ? 2.0 : 1.0) * (scale >= 1 ? scale : 1));
        inv = scale >= 1 ? (float)(1.0 / scale) : 1;
    }
    int64_t taps = (int64_t)ceil(support) * 2 + 1;
    double *w = malloc((size_t)(m * taps) * sizeof *w + 1);
    int64_t *lo = malloc((size_t)m * sizeof *lo + 1), *cnt = malloc((size_t)m * sizeof *cnt + 1);
    if (!w || !lo || !cnt) {
        free(w);
        free(lo);
        free(cnt);
        return ts_error_set(err, TS_ERR_NOMEM, "%s: out of memory", op->name);
    }
    for (int64_t o = 0; o < m && single; o++)
        aa_weights_float(op->cubic, (float)scale, (float)support, (float)inv, o, n, taps,
                         w + o * taps, &lo[o], &cnt[o]);
    for (int64_t o = 0; o < m && !single; o++) {
        double center = scale * ((double)o + 0.5), total = 0;
        int64_t a = (int64_t)(center - support + 0.5), b = (int64_t)(center + support + 0.5);
        a = a < 0 ? 0 : a;
        b = b > n ? n : b;
        lo[o] = a;
        cnt[o] = b - a < taps ? b - a : taps;
        for (int64_t j = 0; j < cnt[o]; j++) {
            w[o * taps + j] = aa_filter(op->cubic, ((double)(j + a) - center + 0.5) * inv);
            total += w[o * taps + j];
        }
        for (int64_t j = 0; j < cnt[o] && total != 0; j++)
            w[o * taps + j] /= total;
    }
    for (int64_t q = 0; q < outer; q++)
        for (int64_t o = 0; o < m; o++)
            for (int64_t e = 0; e < inner; e++) {
                double acc = 0;
                for (int64_t j = 0; j < cnt[o]; j++)
                    acc += w[o * taps + j] *
                           ts_nn_get(dt, src, (q * n + lo[o] + j) * inner + e);
                ts_nn_set(dt, dst, (q * m + o) * inner + e, acc);
            }
    free(w);
    free(lo);
    free(cnt);
    return 0;
}

static TsTensor *interpolate_aa(TsError *err, const AaOp *op, TsTensor *x, const Resize *r,
                                bool align)
{
    int dt = x->dtype;
    int64_t planes = x->sizes[0] * x->sizes[1], H = r->in[0], W = r->in[1];
    int64_t OH = r->out[0], OW = r->out[1];
    int64_t sizes[4] = { x->sizes[0], x->sizes[1], OH, OW }, mid[4] = { x->sizes[0],
                                                                        x->sizes[1], H, OW };
    TsTensor *cx = ts_nn_contiguous(x, err);
    TsTensor *t = cx ? ts_cpu_empty(dt, 4, mid, err) : NULL;
    TsTensor *o = t ? ts_cpu_empty(dt, 4, sizes, err) : NULL;
    int rc = o ? 0 : (int)err->code;
    if (!rc && W == OW)
        memcpy(ts_tensor_data(t), ts_tensor_data(cx), (size_t)ts_tensor_numel(t) *
                                                          ts_dtype_size(dt));
    else if (!rc)
        rc = aa_pass(err, op, dt, ts_tensor_data(cx), ts_tensor_data(t), planes * H, W, OW, 1,
                     align, r->scale[1]);
    if (!rc && H == OH)
        memcpy(ts_tensor_data(o), ts_tensor_data(t), (size_t)ts_tensor_numel(o) *
                                                         ts_dtype_size(dt));
    else if (!rc)
        rc = aa_pass(err, op, dt, ts_tensor_data(t), ts_tensor_data(o), planes, H, OH, OW, align,
                     r->scale[0]);
    if (cx)
        ts_tensor_release(cx);
    if (t)
        ts_tensor_release(t);
    if (rc && o) {
        ts_tensor_release(o);
        o = NULL;
    }
    return o;
}

/* _upsample_bilinear2d_aa / _upsample_bicubic2d_aa: (Tensor self, SymInt[2] output_size,
 * bool align_corners, float? scales_h=None, float? scales_w=None) -> Tensor, and .vec(Tensor
 * input, SymInt[]? output_size, bool align_corners, float[]? scale_factors) -> Tensor */
static int aa_call(TsCall *c, const AaOp *op, bool vec)
{
    TsArgs args;
    TsValue *a = args.v;
    Resize r;
    TsTensor *o = NULL;
    if (ts_args_pop(c, TS_DEV_CPU, &args))
        return (int)c->error->code;
    TsTensor *x = ts_nn_tensor(&args, 0);
    bool align = a[2].tag == TS_TAG_BOOL && a[2].u.b;
    if (x && !resize_call(&args, x, 2, vec, vec, 1, &r) &&
        !ts_nn_check_float(c, "compute_indices_weights_aa", x))
        o = interpolate_aa(c->error, op, x, &r, align);
    return ts_args_return_tensor(&args, 0, o);
}

static const AaOp aa_ops[] = {
    { "aten::_upsample_bilinear2d_aa", false },
    { "aten::_upsample_bicubic2d_aa", true },
};

#define AA_KERNELS(X) X(_upsample_bilinear2d_aa, 0) X(_upsample_bicubic2d_aa, 1)
#define AA_KERNEL(NAME, I) \
    static int k_##NAME(TsCall *c) { return aa_call(c, &aa_ops[I], false); } \
    static int k_##NAME##_vec(TsCall *c) { return aa_call(c, &aa_ops[I], true); }
AA_KERNELS(AA_KERNEL)
#undef AA_KERNEL

#define RESIZE_ROWS(NAME, I) \
    { "aten::" #NAME, "", k_##NAME }, { "aten::" #NAME, "vec", k_##NAME##_vec },
static const TsCpuOp ops[] = {
    { "aten::pad", "", k_pad },
    { "aten::constant_pad_nd", "", k_constant_pad_nd },
    NEAREST_KERNELS(RESIZE_ROWS)
    INTERP_KERNELS(RESIZE_ROWS)
    AA_KERNELS(RESIZE_ROWS)
};
#undef RESIZE_ROWS

const TsCpuTable ts_cpu_resample_table = { ops, sizeof ops / sizeof ops[0] };
