/* fold.c — im2col and col2im, what F.unfold and F.fold call: im2col lays every kernel-sized
 * sliding block of an (N, C, H, W) input out as a column of (N, C * kh * kw, L); col2im
 * sums such columns back into an image, overlapping blocks adding up.
 *
 * Both check their arguments as PyTorch 1.13 does, in its order and words (including the
 * input height printed twice in im2col's "spatial size" message), and run for the floating
 * dtypes. float16 and bfloat16 compute through float32; col2im's sums are rounded to them
 * after each addition, as PyTorch adds in the tensor's own dtype.
 */
#include <stdio.h>
#include <string.h>

#include "nn/nn_out.h"

typedef struct Fold {
    int64_t k[2], d[2], p[2], s[2];
} Fold;

static int64_t div_floor(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/* List argument i of exactly 2 ints (an int counts as both). */
static int pair(TsArgs *args, size_t i, int64_t *out)
{
    TsError *err = args->call->error;
    TsValue v = args->v[i];
    if (v.tag == TS_TAG_INT) {
        out[0] = out[1] = v.u.i;
        return 0;
    }
    const TsList *l = v.tag == TS_TAG_LIST ? (const TsList *)v.u.p : NULL;
    for (size_t k = 0; l && k < l->len; k++)
        if (l->items[k].tag != TS_TAG_INT)
            l = NULL;
    if (!l)
        return ts_error_set(err, TS_ERR_TYPE, "%s: argument '%s' must be a list of ints",
                            ts_args_op_name(args), ts_args_name(args, i));
    if (l->len != 2)
        return ts_error_set(err, TS_ERR_RUNTIME, "It is expected %s equals to 2, but got "
                            "size %zu", ts_args_name(args, i), l->len);
    out[0] = l->items[0].u.i;
    out[1] = l->items[1].u.i;
    return 0;
}

/* kernel_size, dilation, padding, stride from arguments base..base + 3 (their lengths
 * first, then values in the order each op checks them). */
static int read_fold(TsArgs *args, size_t base, bool col2im, Fold *f)
{
    TsError *err = args->call->error;
    if (pair(args, base, f->k) || pair(args, base + 1, f->d) || pair(args, base + 2, f->p) ||
        pair(args, base + 3, f->s))
        return err->code;
    if (f->k[0] <= 0 || f->k[1] <= 0)
        return ts_error_set(err, TS_ERR_RUNTIME, "kernel size should be greater than zero, but "
                            "got kernel_height: %lld kernel_width: %lld", (long long)f->k[0],
                            (long long)f->k[1]);
    if (col2im && (f->s[0] <= 0 || f->s[1] <= 0))
        return ts_error_set(err, TS_ERR_RUNTIME, "stride should be greater than zero, but got "
                            "stride_height: %lld stride_width: %lld", (long long)f->s[0],
                            (long long)f->s[1]);
    if (f->d[0] <= 0 || f->d[1] <= 0)
        return ts_error_set(err, TS_ERR_RUNTIME, "dilation should be greater than zero, but got "
                            "dilation_height: %lld dilation_width: %lld", (long long)f->d[0],
                            (long long)f->d[1]);
    if (f->p[0] < 0 || f->p[1] < 0)
        return ts_error_set(err, TS_ERR_RUNTIME, "padding should be non-negative, but got "
                            "pad_height: %lld pad_width: %lld", (long long)f->p[0],
                            (long long)f->p[1]);
    if (!col2im && (f->s[0] <= 0 || f->s[1] <= 0))
        return ts_error_set(err, TS_ERR_RUNTIME, "stride should be greater than zero, but got "
                            "stride_height: %lld stride_width: %lld", (long long)f->s[0],
                            (long long)f->s[1]);
    return 0;
}

/* The number of blocks along a dim of size n. */
static int64_t blocks(const Fold *f, int i, int64_t n)
{
    return div_floor(n + 2 * f->p[i] - (f->d[i] * (f->k[i] - 1) + 1), f->s[i]) + 1;
}

static int check_dtype(TsCall *c, const char *kernel, int dtype)
{
    if (ts_dtype_is_floating(dtype))
        return 0;
    return ts_error_set(c->error, TS_ERR_RUNTIME, "\"%s\" not implemented for '%s'", kernel,
                        ts_dtype_type_name(dtype));
}

/* size(i) of a tensor with dim dims, or PyTorch's error for a dim it lacks. */
static int size_at(TsCall *c, const TsTensor *x, int i, int64_t *out)
{
    if (x->dim == 0)
        return ts_error_set(c->error, TS_ERR_INDEX, "Dimension specified as %d but tensor has "
                            "no dimensions", i);
    if (i >= x->dim)
        return ts_error_set(c->error, TS_ERR_INDEX, "Dimension out of range (expected to be in "
                            "range of [%d, %d], but got %d)", -(int)x->dim, (int)x->dim - 1, i);
    *out = x->sizes[i];
    return 0;
}

/* The floating work copy: contiguous, float32 for the half types. */
static TsTensor *work_input(TsTensor *x, TsError *err)
{
    if (x->dtype == TS_FLOAT16 || x->dtype == TS_BFLOAT16)
        return ts_cpu_cast(x, TS_FLOAT32, err);
    return ts_nn_contiguous(x, err);
}

/* Pushes o, or with out_form delivers it into the last argument and pushes that. */
static int fold_finish(TsArgs *args, bool out_form, TsTensor *o)
{
    if (!out_form)
        return ts_args_return_tensor(args, 0, o);
    TsTensor *out = o ? ts_nn_tensor(args, args->n - 1) : NULL;
    int rc = out ? ts_nn_deliver(args->call, o, out, TS_NN_OUT_SCALAR)
                 : (int)args->call->error->code;
    if (o)
        ts_tensor_release(o);
    return ts_nn_return_outs(args, 1, rc);
}

static TsTensor *finish_dtype(TsTensor *o, int dtype, TsError *err)
{
    if (!o || o->dtype == dtype)
        return o;
    TsTensor *r = ts_cpu_cast(o, dtype, err);
    ts_tensor_release(o);
    return r;
}

/* aten::im2col(Tensor self, int[2] kernel_size, int[2] dilation, int[2] padding,
 *   int[2] stride) -> Tensor */
static int im2col_call(TsCall *c, bool out_form)
{
    TsArgs args;
    Fold f;
    TsError *err = c->error;
    if (ts_args_pop(c, TS_DEV_CPU, &args))
        return (int)c->error->code;
    TsTensor *x = ts_nn_tensor(&args, 0), *cx = NULL, *o = NULL;
    int64_t s1, s2;
    if (!x || read_fold(&args, 1, false, &f) || size_at(c, x, 1, &s1) || size_at(c, x, 2, &s2))
        return ts_args_return_tensor(&args, 0, NULL);
    int nd = x->dim;
    bool ok = (nd == 3 && x->sizes[0] && s1 && s2) || (nd == 4 && s1 && s2 && x->sizes[3]);
    if (!ok) {
        char shape[128];
        ts_aten_format_sizes(shape, sizeof shape, nd, x->sizes);
        ts_error_set(err, TS_ERR_RUNTIME, "Expected 3D or 4D (batch mode) tensor with possibly 0 "
                     "batch size and other non-zero dimensions for input, but got: %s", shape);
        return ts_args_return_tensor(&args, 0, NULL);
    }
    int64_t n = nd == 4 ? x->sizes[0] : 1, ch = x->sizes[nd - 3];
    int64_t h = x->sizes[nd - 2], w = x->sizes[nd - 1];
    int64_t oh = blocks(&f, 0, h), ow = blocks(&f, 1, w);
    if (oh < 1 || ow < 1) {
        ts_error_set(err, TS_ERR_RUNTIME, "Given input with spatial size (%lld, %lld), "
                     "kernel_size=(%lld, %lld), dilation=(%lld, %lld), padding=(%lld, %lld), "
                     "calculated shape of the array of sliding blocks as (%lld, %lld), but its "
                     "components must be at least one.", (long long)h, (long long)h,
                     (long long)f.k[0], (long long)f.k[1], (long long)f.d[0], (long long)f.d[1],
                     (long long)f.p[0], (long long)f.p[1], (long long)oh, (long long)ow);
        return ts_args_return_tensor(&args, 0, NULL);
    }
    if (check_dtype(c, "im2col_out_cpu", x->dtype) || !(cx = work_input(x, err)))
        return ts_args_return_tensor(&args, 0, NULL);
    int64_t rows = ch * f.k[0] * f.k[1], cols = oh * ow;
    int64_t sizes[3] = { n, rows, cols };
    o = ts_cpu_empty(cx->dtype, nd - 1, sizes + (nd == 4 ? 0 : 1), err);
    int dt = cx->dtype;
    const void *in = o ? ts_tensor_data(cx) : NULL;
    void *out = o ? ts_tensor_data(o) : NULL;
    for (int64_t b = 0; o && b < n; b++)
        for (int64_t r = 0; r < rows; r++) {
            int64_t cc = r / (f.k[0] * f.k[1]), i = r / f.k[1] % f.k[0], j = r % f.k[1];
            for (int64_t y = 0; y < oh; y++)
                for (int64_t xx = 0; xx < ow; xx++) {
                    int64_t iy = y * f.s[0] - f.p[0] + i * f.d[0];
                    int64_t ix = xx * f.s[1] - f.p[1] + j * f.d[1];
                    double v = iy < 0 || iy >= h || ix < 0 || ix >= w
                             ? 0 : ts_nn_get(dt, in, ((b * ch + cc) * h + iy) * w + ix);
                    ts_nn_set(dt, out, (b * rows + r) * cols + y * ow + xx, v);
                }
        }
    ts_tensor_release(cx);
    return fold_finish(&args, out_form, finish_dtype(o, x->dtype, err));
}

/* d rounded to dtype (float16 or bfloat16), for sums PyTorch keeps in that dtype. */
static double round_half(int dtype, double d)
{
    unsigned char e[2];
    ts_cpu_store_double(dtype, e, d);
    return ts_cpu_load_double(dtype, e);
}

/* aten::col2im(Tensor self, SymInt[2] output_size, int[2] kernel_size, int[2] dilation,
 *   int[2] padding, int[2] stride) -> Tensor */
static int col2im_call(TsCall *c, bool out_form)
{
    TsArgs args;
    Fold f;
    int64_t os[2];
    TsError *err = c->error;
    if (ts_args_pop(c, TS_DEV_CPU, &args))
        return (int)c->error->code;
    TsTensor *x = ts_nn_tensor(&args, 0), *cx = NULL, *o = NULL;
    if (!x || pair(&args, 1, os) || read_fold(&args, 2, true, &f))
        return ts_args_return_tensor(&args, 0, NULL);
    int nd = x->dim;
    bool ok = (nd == 2 && x->sizes[0] && x->sizes[1]) ||
              (nd == 3 && x->sizes[1] && x->sizes[2]);
    if (!ok) {
        char shape[128];
        ts_aten_format_sizes(shape, sizeof shape, nd, x->sizes);
        ts_error_set(err, TS_ERR_RUNTIME, "Expected 2D or 3D (batch mode) tensor for input with "
                     "possibly 0 batch size and non-zero dimensions for input, but got: %s",
                     shape);
        return ts_args_return_tensor(&args, 0, NULL);
    }
    int64_t n = nd == 3 ? x->sizes[0] : 1, planes = x->sizes[nd - 2], len = x->sizes[nd - 1];
    int64_t kk = f.k[0] * f.k[1];
    int64_t bh = blocks(&f, 0, os[0]), bw = blocks(&f, 1, os[1]);
    if (planes % kk) {
        ts_error_set(err, TS_ERR_RUNTIME, "Expected size of input's dimension 1 to be divisible "
                     "by the product of kernel_size, but got input.size(1)=%lld and "
                     "kernel_size=(%lld, %lld).", (long long)planes, (long long)f.k[0],
                     (long long)f.k[1]);
    } else if (len != bh * bw) {
        ts_error_set(err, TS_ERR_RUNTIME, "Given output_size=(%lld, %lld), kernel_size=(%lld, "
                     "%lld), dilation=(%lld, %lld), padding=(%lld, %lld), stride=(%lld, %lld), "
                     "expected size of input's dimension 2 to match the calculated number of "
                     "sliding blocks %lld * %lld = %lld, but got input.size(2)=%lld.",
                     (long long)os[0], (long long)os[1], (long long)f.k[0], (long long)f.k[1],
                     (long long)f.d[0], (long long)f.d[1], (long long)f.p[0], (long long)f.p[1],
                     (long long)f.s[0], (long long)f.s[1], (long long)bh, (long long)bw,
                     (long long)(bh * bw), (long long)len);
    } else if (bh < 1 || bw < 1) {
        ts_error_set(err, TS_ERR_RUNTIME, "Given output_size=(%lld, %lld), kernel_size=(%lld, "
                     "%lld), dilation=(%lld, %lld), padding=(%lld, %lld), stride=(%lld, %lld), "
                     "calculated shape of the array of sliding blocks as (%lld, %lld), which is "
                     "too small (non-positive)", (long long)os[0], (long long)os[1],
                     (long long)f.k[0], (long long)f.k[1], (long long)f.d[0], (long long)f.d[1],
                     (long long)f.p[0], (long long)f.p[1], (long long)f.s[0], (long long)f.s[1],
                     (long long)bh, (long long)bw);
    } else if (!check_dtype(c, "col2im_out_cpu", x->dtype) && (cx = work_input(x, err))) {
        int64_t ch = planes / kk, h = os[0], w = os[1];
        int64_t sizes[4] = { n, ch, h, w };
        o = ts_cpu_empty(cx->dtype, nd + 1, sizes + (nd == 3 ? 0 : 1), err);
        int dt = cx->dtype, half = x->dtype != cx->dtype ? x->dtype : -1;
        const void *in = ts_tensor_data(cx);
        void *out = o ? ts_tensor_data(o) : NULL;
        if (o)
            memset(out, 0, ts_dtype_size(dt) * (size_t)(n * ch * h * w));
        for (int64_t b = 0; o && b < n; b++)
            for (int64_t r = 0; r < planes; r++) {
                int64_t cc = r / kk, i = r / f.k[1] % f.k[0], j = r % f.k[1];
                for (int64_t y = 0; y < bh; y++)
                    for (int64_t xx = 0; xx < bw; xx++) {
                        int64_t iy = y * f.s[0] - f.p[0] + i * f.d[0];
                        int64_t ix = xx * f.s[1] - f.p[1] + j * f.d[1];
                        if (iy < 0 || iy >= h || ix < 0 || ix >= w)
                            continue;
                        int64_t at = ((b * ch + cc) * h + iy) * w + ix;
                        double v = ts_nn_get(dt, out, at) +
                                   ts_nn_get(dt, in, (b * planes + r) * len + y * bw + xx);
                        ts_nn_set(dt, out, at, half >= 0 ? round_half(half, v) : v);
                    }
            }
        ts_tensor_release(cx);
    }
    return fold_finish(&args, out_form, finish_dtype(o, x->dtype, err));
}

static int k_im2col(TsCall *c) { return im2col_call(c, false); }
static int k_col2im(TsCall *c) { return col2im_call(c, false); }
/* ... and their .out forms (*, Tensor(a!) out) -> Tensor(a!) */
static int k_im2col_out(TsCall *c) { return im2col_call(c, true); }
static int k_col2im_out(TsCall *c) { return col2im_call(c, true); }

static const TsCpuOp ops[] = {
    { "aten::im2col", "", k_im2col },
    { "aten::col2im", "", k_col2im },
    { "aten::im2col", "out", k_im2col_out },
    { "aten::col2im", "out", k_col2im_out },
};

const TsCpuTable ts_cpu_fold_table = { ops, sizeof ops / sizeof ops[0] };
