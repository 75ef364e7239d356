/* pool_adaptive.c — adaptive pooling: adaptive_avg_pool1d/2d/3d and adaptive_max_pool1d/2d/3d
 * (the max forms return (values, indices)).
 *
 * Output element i of a dim of input size n and output size m pools the window
 * [floor(i * n / m), ceil((i + 1) * n / m)), as PyTorch does; max lets NaN win and keeps the
 * flat in-plane index of the maximum. The 1-d forms check like other 1-d ops and then run as
 * 2-d pools over (N, C, 1, W), so their later messages are the 2-d ones, as in PyTorch. The
 * geometry and dtype handling are pool.c's (pool.h).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "nn/pool.h"

/* Which dtypes a kernel has. */
enum { DT_FLOAT = 1, DT_BF16 = 2, DT_HALF = 4 };

typedef struct AdaptDef {
    const char *name;          /* "adaptive_avg_pool2d" */
    int nsp;
    bool max;
    int dtypes;
    const char *kernel;        /* the name in '"..." not implemented for 'Long'' */
} AdaptDef;

static const AdaptDef avg1 = { "adaptive_avg_pool1d", 1, false,
                               DT_FLOAT | DT_BF16, "adaptive_avg_pool2d" };
static const AdaptDef avg2 = { "adaptive_avg_pool2d", 2, false,
                               DT_FLOAT | DT_BF16, "adaptive_avg_pool2d" };
static const AdaptDef avg3 = { "adaptive_avg_pool3d", 3, false,
                               DT_FLOAT | DT_HALF, "adaptive_avg_pool3d_cpu" };
static const AdaptDef max1 = { "adaptive_max_pool1d", 1, true,
                               DT_FLOAT | DT_BF16, "adaptive_max_pool2d" };
static const AdaptDef max2 = { "adaptive_max_pool2d", 2, true,
                               DT_FLOAT | DT_BF16, "adaptive_max_pool2d" };
static const AdaptDef max3 = { "adaptive_max_pool3d", 3, true,
                               DT_FLOAT, "adaptive_max_pool3d_cpu" };

/* output_size into os (n entries); *len gets the list length (n for an int). */
static int read_size(TsArgs *args, const AdaptDef *def, int64_t *os, size_t *len)
{
    TsValue v = args->v[1];
    if (v.tag == TS_TAG_INT) {
        for (int i = 0; i < def->nsp; i++)
            os[i] = v.u.i;
        *len = (size_t)def->nsp;
        return 0;
    }
    const TsList *l = v.tag == TS_TAG_LIST ? (const TsList *)v.u.p : NULL;
    for (size_t i = 0; l && i < l->len; i++)
        if (l->items[i].tag != TS_TAG_INT)
            l = NULL;
    if (!l)
        return ts_error_set(args->call->error, TS_ERR_TYPE, "%s: argument '%s' must be a list "
                            "of ints", ts_args_op_name(args), ts_args_name(args, 1));
    *len = l->len;
    for (size_t i = 0; i < l->len && i < 3; i++)
        os[i] = l->items[i].u.i;
    return 0;
}

static int check_dtype(TsCall *c, const AdaptDef *def, int dtype)
{
    bool ok = dtype == TS_FLOAT32 || dtype == TS_FLOAT64 ? (def->dtypes & DT_FLOAT)
            : dtype == TS_BFLOAT16 ? (def->dtypes & DT_BF16)
            : dtype == TS_FLOAT16 ? (def->dtypes & DT_HALF) : 0;
    if (ok)
        return 0;
    return ts_error_set(c->error, TS_ERR_RUNTIME, "\"%s\" not implemented for '%s'", def->kernel,
                        ts_dtype_type_name(dtype));
}

/* The checks of the 2-d and 3-d ops on the input as they see it (sizes/dim), in order. */
static int check_nd(TsCall *c, const AdaptDef *def, int nsp, int dim, const int64_t *sizes,
                    const int64_t *os, size_t len)
{
    TsError *err = c->error;
    char shape[128], what[32];
    ts_aten_format_sizes(shape, sizeof shape, dim, sizes);
    snprintf(what, sizeof what, "adaptive_%s_pool%dd", def->max ? "max" : "avg", nsp);
    const char *nd = nsp == 2 ? "3D or 4D" : "4D or 5D";
    if (!def->max) {
        if (len != (size_t)nsp)
            return ts_error_set(err, TS_ERR_RUNTIME, "%s: output_size must be %d", what, nsp);
        if (os[0] < 0 || os[1] < 0 || (nsp == 3 && os[2] < 0)) {
            if (nsp == 2)
                return ts_error_set(err, TS_ERR_RUNTIME, "adaptive_avg_pool2d: elements of "
                                    "output_size must be greater than or equal to 0 but received "
                                    "{%lld, %lld}", (long long)os[0], (long long)os[1]);
            return ts_error_set(err, TS_ERR_RUNTIME, "adaptive_avg_pool2d: elements of "
                                "output_size must be greater than or equal to 0 but received "
                                "{%lld, %lld,%lld}", (long long)os[0], (long long)os[1],
                                (long long)os[2]);
        }
    }
    if (dim != nsp + 1 && dim != nsp + 2)
        return ts_error_set(err, TS_ERR_RUNTIME, "%s(): Expected %s tensor, but got%s %s", what,
                            nd, def->max ? ":" : "", shape);
    /* adaptive_avg_pool2d checks the pooled dims, the others every dim after the first */
    for (int i = def->max || nsp == 3 ? 1 : dim - nsp; i < dim; i++)
        if (sizes[i] == 0)
            return ts_error_set(err, TS_ERR_RUNTIME, "%s(): Expected input to have non-zero size "
                                "for non-batch dimensions, but input has sizes %s with dimension "
                                "%d being empty", what, shape, i);
    if (def->max) {
        if (len != (size_t)nsp)
            return ts_error_set(err, TS_ERR_RUNTIME, "%s(): internal error: output_size.size() "
                                "must be %d", what, nsp);
        for (int i = 0; i < nsp; i++)
            if (os[i] < 0) {
                int64_t out[5];
                memcpy(out, sizes, sizeof(int64_t) * (size_t)(dim - nsp));
                memcpy(out + dim - nsp, os, sizeof(int64_t) * (size_t)nsp);
                ts_aten_format_sizes(shape, sizeof shape, dim, out);
                return ts_error_set(err, TS_ERR_RUNTIME, "Trying to create tensor with negative "
                                    "dimension %lld: %s", (long long)os[i], shape);
            }
    }
    return 0;
}

static int check(TsCall *c, const AdaptDef *def, const TsTensor *x, TsArgs *args, TsPoolGeo *g,
                 bool *mean_path)
{
    TsError *err = c->error;
    int64_t os[3] = { 0, 0, 0 }, sizes[5];
    size_t len = 0;
    int dim = x->dim, nsp = def->nsp;
    if (nsp == 1) {
        if (x->dim < 2 || x->dim > 3)
            return ts_error_set(err, TS_ERR_RUNTIME, "Expected 2 to 3 dimensions, but got "
                                "%d-dimensional tensor for argument #1 'self' (while checking "
                                "arguments for %s)", (int)x->dim, def->name);
        if (read_size(args, def, os, &len))
            return err->code;
        if (len != 1)
            return ts_error_set(err, TS_ERR_RUNTIME, "%s() argument 'output_size' should "
                                "contain one int (got %zu)", def->name, len);
        /* from here on a 2-d pool over the input with an H of 1 */
        memcpy(sizes, x->sizes, sizeof(int64_t) * (size_t)(x->dim - 1));
        sizes[x->dim - 1] = 1;
        sizes[x->dim] = x->sizes[x->dim - 1];
        dim = x->dim + 1;
        os[1] = os[0];
        os[0] = 1;
        len = 2;
        nsp = 2;
    } else {
        if (read_size(args, def, os, &len))
            return err->code;
        if (x->dim > 5) {
            char shape[128];
            ts_aten_format_sizes(shape, sizeof shape, x->dim, x->sizes);
            return ts_error_set(err, TS_ERR_RUNTIME, "adaptive_%s_pool%dd(): Expected %s tensor, "
                                "but got%s %s", def->max ? "max" : "avg", nsp,
                                nsp == 2 ? "3D or 4D" : "4D or 5D", def->max ? ":" : "", shape);
        }
        memcpy(sizes, x->sizes, sizeof(int64_t) * (size_t)x->dim);
    }
    bool mean = !def->max && len == (size_t)nsp && os[0] == 1 && os[1] == 1 &&
                (nsp == 2 || os[2] == 1);
    if (mean && !(os[0] < 0 || os[1] < 0)) {
        /* PyTorch takes all-ones output sizes as a mean over the pooled dims, with mean's
         * checks instead of the pool's */
        if (dim < nsp)
            return ts_error_set(err, TS_ERR_INDEX, "Dimension out of range (expected to be in "
                                "range of [%d, %d], but got %d)", -dim, dim - 1, -nsp);
        if (!ts_dtype_is_floating(x->dtype))
            return ts_error_set(err, TS_ERR_RUNTIME, "mean(): could not infer output dtype. "
                                "Input dtype must be either a floating point or complex dtype. "
                                "Got: %s", ts_dtype_type_name(x->dtype));
    } else if (check_nd(c, def, nsp, dim, sizes, os, len) || check_dtype(c, def, x->dtype)) {
        return err->code;
    }
    *mean_path = mean;
    g->nsp = def->nsp;
    g->planes = 1;
    for (int i = 0; i < dim - nsp; i++)
        g->planes *= sizes[i];
    for (int i = 0; i < 3; i++) {
        g->in[i] = i < 3 - nsp ? 1 : sizes[dim - 3 + i];
        g->out[i] = i < 3 - nsp ? 1 : os[i - (3 - nsp)];
    }
    return 0;
}

static int64_t lo(int64_t i, int64_t in, int64_t out) { return i * in / out; }
static int64_t hi(int64_t i, int64_t in, int64_t out) { return ((i + 1) * in + out - 1) / out; }

/* d rounded to float16: adaptive_avg_pool3d on float16 sums and divides in float16. */
static double to_half(double d)
{
    uint16_t h;
    ts_cpu_store_double(TS_FLOAT16, &h, d);
    return ts_cpu_load_double(TS_FLOAT16, &h);
}

static void adaptive(const TsPoolGeo *g, bool max, bool half, int dt, const void *in, void *out,
                     int64_t *idx)
{
    int64_t id = g->in[0], ih = g->in[1], iw = g->in[2];
    int64_t od = g->out[0], oh = g->out[1], ow = g->out[2];
    int64_t isz = id * ih * iw, osz = od * oh * ow;
    for (int64_t q = 0; q < g->planes; q++)
        for (int64_t z = 0; z < od; z++)
            for (int64_t y = 0; y < oh; y++)
                for (int64_t x = 0; x < ow; x++) {
                    int64_t t0 = lo(z, id, od), t1 = hi(z, id, od);
                    int64_t h0 = lo(y, ih, oh), h1 = hi(y, ih, oh);
                    int64_t w0 = lo(x, iw, ow), w1 = hi(x, iw, ow);
                    double acc = max ? -INFINITY : 0;
                    int64_t at = (t0 * ih + h0) * iw + w0;
                    for (int64_t it = t0; it < t1; it++)
                        for (int64_t iy = h0; iy < h1; iy++)
                            for (int64_t ix = w0; ix < w1; ix++) {
                                int64_t k = (it * ih + iy) * iw + ix;
                                double v = ts_pool_get(dt, in, q * isz + k);
                                if (!max) {
                                    acc = half ? to_half(acc + v) : acc + v;
                                } else if (v > acc || isnan(v)) {
                                    acc = v;
                                    at = k;
                                }
                            }
                    int64_t o = q * osz + (z * oh + y) * ow + x;
                    if (!max && half)
                        acc = to_half(to_half(to_half(acc / (double)(t1 - t0)) /
                                              (double)(h1 - h0)) / (double)(w1 - w0));
                    else if (!max)
                        acc /= (double)((t1 - t0) * (h1 - h0) * (w1 - w0));
                    ts_pool_set(dt, out, o, acc);
                    if (idx)
                        idx[o] = at;
                }
}

static int adaptive_call(TsCall *c, const AdaptDef *def, size_t nout, TsNnOutRule rule)
{
    TsArgs args;
    TsPoolGeo g;
    TsTensor *o = NULL, *ix = NULL, *cx = NULL;
    bool mean = false;
    if (ts_args_pop(c, TS_DEV_CPU, &args))
        return (int)c->error->code;
    TsTensor *x = ts_nn_tensor(&args, 0);
    if (x && !check(c, def, x, &args, &g, &mean) && (cx = ts_pool_input(x, c->error)) &&
        (o = ts_pool_alloc(x, &g, c->error))) {
        if (def->max && !(ix = ts_cpu_empty(TS_INT64, o->dim, o->sizes, c->error))) {
            ts_tensor_release(o);
            o = NULL;
        } else {
            adaptive(&g, def->max, x->dtype == TS_FLOAT16 && !mean, cx->dtype,
                     ts_tensor_data(cx), ts_tensor_data(o), ix ? ts_tensor_data(ix) : NULL);
        }
    }
    if (cx)
        ts_tensor_release(cx);
    if (!x)
        return ts_args_fail(&args, c->error->code);
    return ts_pool_finish(&args, x->dtype, o, ix, def->max, nout, rule);
}

/* aten::adaptive_avg_pool1d(Tensor self, int[1] output_size) -> Tensor; 2d (SymInt[2]) and
 * 3d (int[3]) alike; aten::adaptive_max_poolNd(Tensor self, int[N] output_size)
 * -> (Tensor, Tensor) */
static int k_adaptive_avg_pool1d(TsCall *c) { return adaptive_call(c, &avg1, 0, 0); }
static int k_adaptive_avg_pool2d(TsCall *c) { return adaptive_call(c, &avg2, 0, 0); }
static int k_adaptive_avg_pool3d(TsCall *c) { return adaptive_call(c, &avg3, 0, 0); }
static int k_adaptive_max_pool1d(TsCall *c) { return adaptive_call(c, &max1, 0, 0); }
static int k_adaptive_max_pool2d(TsCall *c) { return adaptive_call(c, &max2, 0, 0); }
static int k_adaptive_max_pool3d(TsCall *c) { return adaptive_call(c, &max3, 0, 0); }
/* ... and the .out forms of the 2-d and 3-d ones (*, Tensor(a!) out[, Tensor(b!) indices]) */
static int k_adaptive_avg_pool2d_out(TsCall *c)
{
    return adaptive_call(c, &avg2, 1, TS_NN_OUT_OUTPUT);
}
static int k_adaptive_avg_pool3d_out(TsCall *c)
{
    return adaptive_call(c, &avg3, 1, TS_NN_OUT_OUTPUT);
}
static int k_adaptive_max_pool2d_out(TsCall *c)
{
    return adaptive_call(c, &max2, 2, TS_NN_OUT_EXPECTED);
}
static int k_adaptive_max_pool3d_out(TsCall *c)
{
    return adaptive_call(c, &max3, 2, TS_NN_OUT_EXPECTED);
}

static const TsCpuOp ops[] = {
    { "aten::adaptive_avg_pool1d", "", k_adaptive_avg_pool1d },
    { "aten::adaptive_avg_pool2d", "", k_adaptive_avg_pool2d },
    { "aten::adaptive_avg_pool3d", "", k_adaptive_avg_pool3d },
    { "aten::adaptive_max_pool1d", "", k_adaptive_max_pool1d },
    { "aten::adaptive_max_pool2d", "", k_adaptive_max_pool2d },
    { "aten::adaptive_max_pool3d", "", k_adaptive_max_pool3d },
    { "aten::adaptive_avg_pool2d", "out", k_adaptive_avg_pool2d_out },
    { "aten::adaptive_avg_pool3d", "out", k_adaptive_avg_pool3d_out },
    { "aten::adaptive_max_pool2d", "out", k_adaptive_max_pool2d_out },
    { "aten::adaptive_max_pool3d", "out", k_adaptive_max_pool3d_out },
};

const TsCpuTable ts_cpu_pool_adaptive_table = { ops, sizeof ops / sizeof ops[0] };
