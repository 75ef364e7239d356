/* deform_conv2d.c — deformable convolution (v1, and v2 with a mask), forward only:
 *
 *   torchvision::deform_conv2d(Tensor input, Tensor weight, Tensor offset, Tensor mask,
 *       Tensor bias, int stride_h, int stride_w, int pad_h, int pad_w, int dilation_h,
 *       int dilation_w, int groups, int offset_groups, bool use_mask) -> Tensor
 *
 * As torchvision 0.14's CPU kernel: input [N, C, H, W], weight [O, C / groups, KH, KW],
 * offset [N, 2 * offset_groups * KH * KW, OH, OW] ((dy, dx) per kernel tap), mask
 * [N, offset_groups * KH * KW, OH, OW] when use_mask, bias of O elements. Each kernel tap
 * samples the input bilinearly at its place moved by its offset (zero outside the image),
 * times its mask; the samples of each image are gathered into columns (im2col) and
 * multiplied by the weights of each group, then the bias is added (with PyTorch's type
 * promotion: a float64 bias makes a float64 result).
 *
 * The checks are torchvision's, in its order, with its (and ATen's) messages; where
 * torchvision divides by zero (stride, groups or offset_groups of 0) the check that follows
 * fails instead.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tv.h"

typedef struct DeformJob {
    const void *input, *weight, *offset, *mask;   /* contiguous */
    void *columns;             /* [C * KH * KW, OH * OW] of the current image */
    void *out;                 /* [N, O, OH, OW], input's dtype */
    int64_t n, c, h, w, o, kh, kw, oh, ow;
    int64_t stride_h, stride_w, pad_h, pad_w, dil_h, dil_w, groups, offset_groups;
    bool use_mask;
    int64_t b;                 /* the image being computed */
} DeformJob;

#define TV_TEMPLATE "deform_conv2d_t.h"
#include "instantiate.h"

/* A failed TORCH_CHECK without a message of its own, as PyTorch words it. */
static int expected(TsError *err, const char *cond)
{
    return ts_error_set(err, TS_ERR_RUNTIME,
                        "Expected %s to be true, but got false.  (Could this error message be "
                        "improved?  If so, please report an enhancement request to PyTorch.)",
                        cond);
}

/* The tensors of the call, borrowed from the frame. */
typedef struct DeformArgs {
    const TsTensor *input, *weight, *offset, *mask, *bias;
} DeformArgs;

static int bind(TvFrame *f, DeformArgs *a, DeformJob *j)
{
    static const char *const ints[] = { "stride_h", "stride_w", "pad_h", "pad_w", "dilation_h",
                                        "dilation_w", "groups", "offset_groups" };
    int64_t *dst[] = { &j->stride_h, &j->stride_w, &j->pad_h, &j->pad_w, &j->dil_h, &j->dil_w,
                       &j->groups, &j->offset_groups };
    const TsTensor **tensors[] = { &a->input, &a->weight, &a->offset, &a->mask, &a->bias };
    static const char *const names[] = { "input", "weight", "offset", "mask", "bias" };
    for (size_t i = 0; i < 5; i++)
        if (!(*tensors[i] = tv_tensor_arg(f, i, names[i])))
            return f->c->error->code;
    for (size_t i = 0; i < 8; i++)
        if (tv_int_arg(f, 5 + i, ints[i], dst[i]))
            return f->c->error->code;
    return tv_bool_arg(f, 13, "use_mask", &j->use_mask);
}

/* out = (in + 2 * pad - (dil * (k - 1) + 1)) / stride + 1, false on int64 overflow. */
static bool out_size(int64_t in, int64_t pad, int64_t dil, int64_t k, int64_t stride,
                     int64_t *out)
{
    int64_t span, total;
    if (__builtin_mul_overflow(dil, k - 1, &span) || __builtin_add_overflow(span, 1, &span) ||
        __builtin_mul_overflow(pad, 2, &total) || __builtin_add_overflow(total, in, &total) ||
        __builtin_sub_overflow(total, span, &total))
        return false;
    *out = total / stride + 1;
    return true;
}

/* The parameter checks, up to the output size. */
static int check_params(TsError *err, const DeformArgs *a, DeformJob *j)
{
    if (a->input->dim != 4)
        return expected(err, "input_c.ndimension() == 4");
    if (a->offset->dim != 4)
        return expected(err, "offset_c.ndimension() == 4");
    if (j->use_mask && a->mask->dim != 4)
        return expected(err, "!use_mask || mask_c.ndimension() == 4");
    if (a->weight->dim != 4)
        return expected(err, "weight_c.ndimension() == 4");
    j->n = a->input->sizes[0];
    j->c = a->input->sizes[1];
    j->h = a->input->sizes[2];
    j->w = a->input->sizes[3];
    j->o = a->weight->sizes[0];
    j->kh = a->weight->sizes[2];
    j->kw = a->weight->sizes[3];
    if (!(j->kh > 0 && j->kw > 0))
        return ts_error_set(err, TS_ERR_RUNTIME, "weight_h: %lld weight_w: %lld",
                            (long long)j->kh, (long long)j->kw);
    int64_t taps;              /* an empty weight may claim any kernel size */
    if (__builtin_mul_overflow(j->kh, j->kw, &taps) || __builtin_mul_overflow(taps, 2, &taps))
        return ts_error_set(err, TS_ERR_RUNTIME, "deform_conv2d: a kernel of %lld x %lld is "
                            "too large", (long long)j->kh, (long long)j->kw);
    if (!(j->stride_h > 0 && j->stride_w > 0))
        return ts_error_set(err, TS_ERR_RUNTIME, "stride_h: %lld stride_w: %lld",
                            (long long)j->stride_h, (long long)j->stride_w);
    if (!(j->pad_h >= 0 && j->pad_w >= 0))
        return ts_error_set(err, TS_ERR_RUNTIME, "pad_h: %lld pad_w: %lld",
                            (long long)j->pad_h, (long long)j->pad_w);
    if (!(j->dil_h > 0 && j->dil_w > 0))
        return ts_error_set(err, TS_ERR_RUNTIME, "dilation_h: %lld dilation_w: %lld",
                            (long long)j->dil_h, (long long)j->dil_w);
    if (!out_size(j->h, j->pad_h, j->dil_h, j->kh, j->stride_h, &j->oh) ||
        !out_size(j->w, j->pad_w, j->dil_w, j->kw, j->stride_w, &j->ow))
        return ts_error_set(err, TS_ERR_RUNTIME, "deform_conv2d: output size overflows");
    return 0;
}

/* The shape checks of weight, offset and mask against input. */
static int check_shapes(TsError *err, const DeformArgs *a, DeformJob *j)
{
    int64_t taps = j->kh * j->kw, want, m0;   /* 2 * taps fits: check_params */
    if (__builtin_mul_overflow(a->weight->sizes[1], j->groups, &want) || want != j->c)
        return expected(err, "weight_c.size(1) * n_weight_grps == input_c.size(1)");
    if (j->groups == 0 || j->o % j->groups != 0)
        return expected(err, "weight_c.size(0) % n_weight_grps == 0");
    if (__builtin_mul_overflow(j->offset_groups, 2 * taps, &want))
        return ts_error_set(err, TS_ERR_RUNTIME, "deform_conv2d: offset_groups %lld is too large",
                            (long long)j->offset_groups);
    if (a->offset->sizes[1] != want)
        return ts_error_set(err, TS_ERR_RUNTIME,
                            "offset.shape[1] is not valid: got: %lld expected: %lld",
                            (long long)a->offset->sizes[1], (long long)want);
    if (j->use_mask && a->mask->sizes[1] != j->offset_groups * taps)
        return ts_error_set(err, TS_ERR_RUNTIME,
                            "mask.shape[1] is not valid: got: %lld expected: %lld",
                            (long long)a->mask->sizes[1], (long long)(j->offset_groups * taps));
    if (j->offset_groups == 0 || j->c % j->offset_groups != 0)
        return expected(err, "input_c.size(1) % n_offset_grps == 0");
    if (a->offset->sizes[0] != j->n)
        return ts_error_set(err, TS_ERR_RUNTIME, "invalid batch size of offset");
    if (a->offset->sizes[2] != j->oh || a->offset->sizes[3] != j->ow)
        return ts_error_set(err, TS_ERR_RUNTIME,
                            "offset output dims: (%lld, %lld) - computed output dims: (%lld, "
                            "%lld)", (long long)a->offset->sizes[2],
                            (long long)a->offset->sizes[3], (long long)j->oh, (long long)j->ow);
    if (tv_size(err, a->mask, 0, &m0))
        return err->code;
    if (m0 != j->n)
        return ts_error_set(err, TS_ERR_RUNTIME, "invalid batch size of mask");
    if (j->use_mask && (a->mask->sizes[2] != j->oh || a->mask->sizes[3] != j->ow))
        return ts_error_set(err, TS_ERR_RUNTIME,
                            "mask output dims: (%lld, %lld) - computed output dims: (%lld, "
                            "%lld)", (long long)a->mask->sizes[2], (long long)a->mask->sizes[3],
                            (long long)j->oh, (long long)j->ow);
    if (!(j->oh > 0 && j->ow > 0))
        return ts_error_set(err, TS_ERR_RUNTIME,
                            "Calculated output size too small - out_h: %lld out_w: %lld",
                            (long long)j->oh, (long long)j->ow);
    return 0;
}

/* The dtype checks torchvision meets while computing: the dispatch on input, then each
 * tensor's data pointer, then the matrix product with the weights. */
static int check_dtypes(TsError *err, const DeformArgs *a)
{
    int dt = a->input->dtype;
    if (tv_check_floating(err, "deformable_im2col", dt) ||
        tv_check_scalar_type(err, a->offset, dt) || tv_check_scalar_type(err, a->mask, dt))
        return err->code;
    if (a->weight->dtype != dt)
        return ts_error_set(err, TS_ERR_RUNTIME, "mat1 and mat2 must have the same dtype");
    return 0;
}

/* The bias: O elements (any shape, as view does), of a dtype the result can take. */
static int check_bias(TsError *err, const TsTensor *bias, int64_t o)
{
    if (ts_tensor_numel(bias) != o)
        return ts_error_set(err, TS_ERR_RUNTIME,
                            "shape '[1, %lld, 1, 1]' is invalid for input of size %lld",
                            (long long)o, (long long)ts_tensor_numel(bias));
    if (ts_dtype_is_complex(bias->dtype) || bias->dtype == TS_FLOAT16 ||
        bias->dtype == TS_BFLOAT16 || ts_dtype_size(bias->dtype) == 0 ||
        (bias->dtype >= TS_QINT8 && bias->dtype <= TS_QINT32))
        return ts_error_set(err, TS_ERR_RUNTIME,
                            "deform_conv2d: a bias of dtype %s is not supported",
                            ts_dtype_name(bias->dtype));
    return 0;
}

/* Convolves every image into *out (zeroed, input's dtype). */
static int convolve(TsError *err, DeformJob *j, TsTensor *out)
{
    bool f32 = out->dtype == TS_FLOAT32;
    size_t esize = ts_dtype_size(out->dtype), bytes;
    int64_t rows, npos = j->oh * j->ow, nelem;     /* npos: out has N * O * npos elements */
    if (__builtin_mul_overflow(j->c, j->kh * j->kw, &rows) ||
        __builtin_mul_overflow(rows, npos, &nelem) ||
        __builtin_mul_overflow((size_t)nelem, esize, &bytes) || !(j->columns = malloc(bytes + 1)))
        return ts_error_set(err, TS_ERR_NOMEM, "deform_conv2d: out of memory for the columns of "
                            "%lld channels x %lld taps x %lld positions", (long long)j->c,
                            (long long)(j->kh * j->kw), (long long)npos);
    j->out = ts_tensor_data(out);
    int64_t kg = j->c / j->groups * j->kh * j->kw;
    int rc = 0;
    for (j->b = 0; j->b < j->n && !rc; j->b++) {
        rc = tv_parallel(j->c, j->kh * j->kw * npos * 8, f32 ? im2col_f32 : im2col_f64, j, err);
        if (!rc)
            rc = tv_parallel(j->o, kg * npos, f32 ? gemm_f32 : gemm_f64, j, err);
    }
    free(j->columns);
    j->columns = NULL;
    return rc;
}

/* out + bias: in place, or into a new float64 tensor when a float64 bias widens a float32
 * result (out is then released). *res is the result; on failure it is left alone and out
 * is still the caller's. */
static int add_bias(TvFrame *f, DeformJob *j, TsTensor *out, const TsTensor *bias,
                    TsTensor **res)
{
    void *own = NULL;
    const void *b = tv_contiguous(bias, &own, f->c->error);
    if (!b)
        return f->c->error->code;
    if (out->dtype == TS_FLOAT32 && bias->dtype == TS_FLOAT64) {
        int64_t sizes[4] = { j->n, j->o, j->oh, j->ow }, npos = j->oh * j->ow;
        TsTensor *wide = tv_zeros(f, TS_FLOAT64, 4, sizes);
        if (!wide) {
            free(own);
            return f->c->error->code;
        }
        const float *src = ts_tensor_data(out);
        double *dst = ts_tensor_data(wide);
        for (int64_t i = 0, n = ts_tensor_numel(out); i < n; i++)
            dst[i] = (double)src[i] + ((const double *)b)[i / npos % j->o];
        ts_tensor_release(out);
        out = wide;
    } else if (out->dtype == TS_FLOAT32) {
        add_bias_f32(j, b, bias->dtype);
    } else {
        add_bias_f64(j, b, bias->dtype);
    }
    free(own);
    *res = out;
    return 0;
}

/* Takes contiguous data of the operands, convolves, adds the bias. */
static int run(TvFrame *f, const DeformArgs *a, DeformJob *j, TsTensor *out, TsTensor **res)
{
    TsError *err = f->c->error;
    void *own[4] = { NULL, NULL, NULL, NULL };
    int rc = check_dtypes(err, a);
    if (!rc && (!(j->input = tv_contiguous(a->input, &own[0], err)) ||
                !(j->weight = tv_contiguous(a->weight, &own[1], err)) ||
                !(j->offset = tv_contiguous(a->offset, &own[2], err)) ||
                !(j->mask = tv_contiguous(a->mask, &own[3], err))))
        rc = err->code;
    if (!rc)
        rc = convolve(err, j, out);
    for (int i = 0; i < 4; i++)
        free(own[i]);
    if (!rc)
        rc = check_bias(err, a->bias, j->o);
    if (!rc)
        rc = add_bias(f, j, out, a->bias, res);
    return rc;
}

int tv_deform_conv2d(TsCall *c)
{
    TvFrame f;
    DeformArgs a = { NULL, NULL, NULL, NULL, NULL };
    DeformJob j;
    TsTensor *out = NULL, *res = NULL;
    memset(&j, 0, sizeof j);
    tv_frame_pop(&f, c, "torchvision::deform_conv2d", 14);
    int rc = bind(&f, &a, &j);
    if (!rc)
        rc = check_params(c->error, &a, &j);
    if (!rc)
        rc = check_shapes(c->error, &a, &j);
    if (!rc) {
        int64_t sizes[4] = { j.n, j.o, j.oh, j.ow };
        out = tv_zeros(&f, a.input->dtype, 4, sizes);
        rc = out ? 0 : c->error->code;
    }
    if (!rc && j.n == 0)
        res = out;
    else if (!rc)
        rc = run(&f, &a, &j, out, &res);
    if (rc && out && res != out)
        ts_tensor_release(out);
    tv_frame_release(&f);
    return rc ? rc : tv_push(&f, res);
}
