/* grid_sample.c — sampling an image at given points, and the grids of affine maps:
 * aten::grid_sampler (which picks 2-d or 3-d by rank), grid_sampler_2d, grid_sampler_3d
 * (F.grid_sample) and affine_grid_generator (F.affine_grid).
 *
 * A grid holds one point per output pixel, (x, y[, z]) in [-1, 1] over the input's width,
 * height and depth. A point is mapped to pixel coordinates (align_corners: -1 and 1 are the
 * centres of the corner pixels, else their outer edges), then by the padding mode: zeros
 * (points outside read 0), border (clamped into the image) or reflection (mirrored at the
 * edges, then clamped). Bilinear (trilinear in 3-d) weighs the 2 (or 2x2x2) pixels around
 * the point, nearest takes the closest one (halves to even, as nearbyint does), bicubic (2-d
 * only) weighs 4x4 pixels with Keys' kernel (A = -0.75), the padding mode applied to each
 * pixel it reads. Formulas, order of checks and messages are PyTorch 1.13's; float and
 * double only, as its CPU kernels.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nn/nn.h"

enum { MODE_BILINEAR = 0, MODE_NEAREST = 1, MODE_BICUBIC = 2 };
enum { PAD_ZEROS = 0, PAD_BORDER = 1, PAD_REFLECTION = 2 };

typedef struct Sampler {
    int interp, padding;
    bool align;
} Sampler;

static double unnormalize(double c, int64_t size, bool align)
{
    return align ? (c + 1) / 2 * (double)(size - 1) : ((c + 1) * (double)size - 1) / 2;
}

static double clip(double c, int64_t size)
{
    return fmin((double)(size - 1), fmax(c, 0));
}

/* Mirrors c into [lo2 / 2, hi2 / 2] (the bounds given doubled). */
static double reflect(double c, int64_t lo2, int64_t hi2)
{
    if (lo2 == hi2)
        return 0;
    double lo = (double)lo2 / 2, span = (double)(hi2 - lo2) / 2;
    c = fabs(c - lo);
    double extra = fmod(c, span);
    int64_t flips = (int64_t)floor(c / span);
    return flips % 2 == 0 ? extra + lo : span - extra + lo;
}

/* A pixel coordinate after the padding mode (zeros leaves it as it is). */
static double pad_coord(const Sampler *s, double c, int64_t size)
{
    if (s->padding == PAD_BORDER)
        return clip(c, size);
    if (s->padding == PAD_REFLECTION) {
        c = s->align ? reflect(c, 0, 2 * (size - 1)) : reflect(c, -1, 2 * size - 1);
        return clip(c, size);
    }
    return c;
}

/* The value of one plane (sizes d, h, w; contiguous) at integer coordinates, 0 outside. */
static double at(int dt, const void *plane, int64_t d, int64_t h, int64_t w, int64_t z,
                 int64_t y, int64_t x)
{
    if (z < 0 || z >= d || y < 0 || y >= h || x < 0 || x >= w)
        return 0;
    return ts_nn_get(dt, plane, (z * h + y) * w + x);
}

static void cubic_coeffs(double t, double *c)
{
    const double A = -0.75;
    double x1 = t + 1, x2 = 1 - t, x3 = 2 - t;
    c[0] = ((A * x1 - 5 * A) * x1 + 8 * A) * x1 - 4 * A;
    c[1] = ((A + 2) * t - (A + 3)) * t * t + 1;
    c[2] = ((A + 2) * x2 - (A + 3)) * x2 * x2 + 1;
    c[3] = ((A * x3 - 5 * A) * x3 + 8 * A) * x3 - 4 * A;
}

/* A coordinate as an index, the out-of-range ones (and NaN) made an index that is outside. */
static int64_t index_of(double c)
{
    return c > -1e15 && c < 1e15 ? (int64_t)c : -1;
}

/* One output value of a plane at grid point (gx, gy, gz) (gz unused in 2-d: d == 1). */
static double sample(const Sampler *s, int dt, const void *p, int64_t d, int64_t h, int64_t w,
                     double gx, double gy, double gz, bool three)
{
    if (s->interp == MODE_BICUBIC) {
        double ix = unnormalize(gx, w, s->align), iy = unnormalize(gy, h, s->align);
        double fx = floor(ix), fy = floor(iy), cx[4], cy[4], acc = 0;
        cubic_coeffs(ix - fx, cx);
        cubic_coeffs(iy - fy, cy);
        for (int j = 0; j < 4; j++) {
            double row = 0;
            double yy = pad_coord(s, fy - 1 + j, h);
            for (int i = 0; i < 4; i++) {
                double xx = pad_coord(s, fx - 1 + i, w);
                row += cx[i] * at(dt, p, 1, h, w, 0, index_of(yy), index_of(xx));
            }
            acc += cy[j] * row;
        }
        return acc;
    }
    double ix = pad_coord(s, unnormalize(gx, w, s->align), w);
    double iy = pad_coord(s, unnormalize(gy, h, s->align), h);
    double iz = three ? pad_coord(s, unnormalize(gz, d, s->align), d) : 0;
    if (s->interp == MODE_NEAREST)
        return at(dt, p, d, h, w, index_of(nearbyint(iz)), index_of(nearbyint(iy)),
                  index_of(nearbyint(ix)));
    double fx = floor(ix), fy = floor(iy), fz = floor(iz);
    double tx = ix - fx, ty = iy - fy, tz = iz - fz, acc = 0;
    int64_t x0 = index_of(fx), y0 = index_of(fy), z0 = index_of(fz);
    for (int k = 0; k < (three ? 2 : 1); k++)
        for (int j = 0; j < 2; j++)
            for (int i = 0; i < 2; i++) {
                double wgt = (i ? tx : 1 - tx) * (j ? ty : 1 - ty) * (three ? (k ? tz : 1 - tz) : 1);
                if (wgt != 0)
                    acc += wgt * at(dt, p, d, h, w, z0 + k, y0 + j, x0 + i);
            }
    return acc;
}

/* ---- checks ------------------------------------------------------------------------------ */

static int check(TsError *err, const TsTensor *x, const TsTensor *g, int want_dim,
                 const char *kernel, const Sampler *s)
{
    char s1[200], s2[200];
    ts_aten_format_sizes(s1, sizeof s1, x->dim, x->sizes);
    ts_aten_format_sizes(s2, sizeof s2, g->dim, g->sizes);
    if (x->dim < 1 || g->dim < 1 || x->sizes[0] != g->sizes[0])
        return ts_error_set(err, TS_ERR_RUNTIME, "grid_sampler(): expected grid and input to have "
                            "same batch size, but got input with sizes %s and grid with sizes %s",
                            s1, s2);
    if (x->dim < 3 || g->sizes[g->dim - 1] != x->dim - 2)
        return ts_error_set(err, TS_ERR_RUNTIME, "grid_sampler(): expected grid to have size %d in "
                            "last dimension, but got grid with sizes %s", (int)x->dim - 2, s2);
    for (int d = 2; d < x->dim; d++)
        if (x->sizes[d] == 0)
            return ts_error_set(err, TS_ERR_RUNTIME, "grid_sampler(): expected input to have "
                                "non-empty spatial dimensions, but input has sizes %s with "
                                "dimension %d being empty", s1, d);
    if (x->dim != want_dim || g->dim != want_dim) {
        if (s->interp == MODE_BICUBIC && want_dim == 5)
            return ts_error_set(err, TS_ERR_RUNTIME, "grid_sampler(): bicubic interpolation only "
                                "supports 4D input");
        return ts_error_set(err, TS_ERR_RUNTIME, "grid_sampler(): expected %dD input and grid with "
                            "same number of dimensions, but got input with sizes %s and grid "
                            "with sizes %s", want_dim, s1, s2);
    }
    if (s->interp == MODE_BICUBIC && want_dim == 5)
        return ts_error_set(err, TS_ERR_RUNTIME, "grid_sampler(): bicubic interpolation only "
                            "supports 4D input");
    if (s->interp < MODE_BILINEAR || s->interp > MODE_BICUBIC)
        return ts_error_set(err, TS_ERR_RUNTIME, "grid_sampler(): unknown interpolation mode %d",
                            s->interp);
    if (s->padding < PAD_ZEROS || s->padding > PAD_REFLECTION)
        return ts_error_set(err, TS_ERR_RUNTIME, "grid_sampler(): unknown padding mode %d",
                            s->padding);
    if (g->dtype != x->dtype)
        return ts_error_set(err, TS_ERR_RUNTIME, "expected scalar type %s but found %s",
                            ts_dtype_type_name(x->dtype), ts_dtype_type_name(g->dtype));
    if (x->dtype != TS_FLOAT32 && x->dtype != TS_FLOAT64)
        return ts_error_set(err, TS_ERR_RUNTIME, "%s not implemented for %s", kernel,
                            ts_dtype_type_name(x->dtype));
    return 0;
}

static TsTensor *grid_sample(TsError *err, const Sampler *s, TsTensor *input, TsTensor *grid)
{
    bool three = input->dim == 5;
    int dt = input->dtype;
    int64_t N = input->sizes[0], C = input->sizes[1];
    int64_t d = three ? input->sizes[2] : 1, h = input->sizes[input->dim - 2];
    int64_t w = input->sizes[input->dim - 1];
    int64_t od = three ? grid->sizes[1] : 1, oh = grid->sizes[grid->dim - 3];
    int64_t ow = grid->sizes[grid->dim - 2], sizes[5] = { N, C };
    for (int i = 2; i < input->dim; i++)
        sizes[i] = grid->sizes[i - 1];
    TsTensor *o = ts_cpu_empty(dt, input->dim, sizes, err);
    TsTensor *x = o ? ts_nn_contiguous(input, err) : NULL;
    TsTensor *g = x ? ts_nn_contiguous(grid, err) : NULL;
    if (!g) {
        if (x)
            ts_tensor_release(x);
        if (o)
            ts_tensor_release(o);
        return NULL;
    }
    const void *xd = ts_tensor_data(x), *gd = ts_tensor_data(g);
    void *od_ = ts_tensor_data(o);
    int64_t plane = d * h * w, pts = od * oh * ow, k = three ? 3 : 2;
    size_t es = ts_dtype_size(dt);
    for (int64_t n = 0; n < N; n++)
        for (int64_t p = 0; p < pts; p++) {
            int64_t gi = (n * pts + p) * k;
            double gx = ts_nn_get(dt, gd, gi), gy = ts_nn_get(dt, gd, gi + 1);
            double gz = three ? ts_nn_get(dt, gd, gi + 2) : 0;
            for (int64_t c = 0; c < C; c++) {
                const char *pl = (const char *)xd + (n * C + c) * plane * (int64_t)es;
                ts_nn_set(dt, od_, (n * C + c) * pts + p,
                          sample(s, dt, pl, d, h, w, gx, gy, gz, three));
            }
        }
    ts_tensor_release(x);
    ts_tensor_release(g);
    return o;
}

/* grid_sampler, grid_sampler_2d, grid_sampler_3d: (Tensor input, Tensor grid,
 * int interpolation_mode, int padding_mode, bool align_corners) -> Tensor. rank: 0 picks by
 * the input's. */
static int sampler_call(TsCall *c, int rank)
{
    TsArgs args;
    TsValue *a = args.v;
    TsTensor *o = NULL;
    if (ts_args_pop(c, TS_DEV_CPU, &args))
        return (int)c->error->code;
    TsTensor *x = ts_nn_tensor(&args, 0);
    TsTensor *g = x ? ts_nn_tensor(&args, 1) : NULL;
    Sampler s = { (int)ts_nn_int(a[2]), (int)ts_nn_int(a[3]),
                  a[4].tag == TS_TAG_BOOL && a[4].u.b };
    if (g) {
        int r = rank ? rank : x->dim == 5 ? 3 : 2;
        const char *kernel = r == 3 ? "grid_sampler_3d_cpu" : "grid_sampler_2d_cpu";
        if (!check(c->error, x, g, r + 2, kernel, &s))
            o = grid_sample(c->error, &s, x, g);
    }
    return ts_args_return_tensor(&args, 0, o);
}

static int k_grid_sampler(TsCall *c) { return sampler_call(c, 0); }
static int k_grid_sampler_2d(TsCall *c) { return sampler_call(c, 2); }
static int k_grid_sampler_3d(TsCall *c) { return sampler_call(c, 3); }

/* ---- affine_grid_generator ----------------------------------------------------------------- */

/* PyTorch's linspace_from_neg_one: n points over [-1, 1], pulled in to the pixel centres
 * without align_corners. */
static double grid_coord(int64_t i, int64_t n, bool align)
{
    if (n <= 1)
        return 0;
    double v = -1 + 2.0 * (double)i / (double)(n - 1);
    return align ? v : v * (double)(n - 1) / (double)n;
}

/* aten::affine_grid_generator(Tensor theta, int[] size, bool align_corners) -> Tensor */
static int k_affine_grid_generator(TsCall *c)
{
    TsArgs args;
    TsValue *a = args.v;
    int64_t size[TS_TENSOR_MAX_DIMS];
    int n = 0;
    TsTensor *o = NULL;
    if (ts_args_pop(c, TS_DEV_CPU, &args))
        return (int)c->error->code;
    TsTensor *theta = ts_nn_tensor(&args, 0);
    bool align = a[2].tag == TS_TAG_BOOL && a[2].u.b;
    if (theta && !ts_nn_int_vec(&args, 1, TS_TENSOR_MAX_DIMS, size, &n)) {
        if (n != 4 && n != 5) {
            ts_error_set(c->error, TS_ERR_RUNTIME, "AffineGridGenerator needs 4d (spatial) or 5d "
                         "(volumetric) inputs.");
            return ts_args_return_tensor(&args, 0, NULL);
        }
        int k = n - 2;                  /* coordinates per point */
        int64_t N = size[0], D = n == 5 ? size[2] : 1, H = size[n - 2], W = size[n - 1];
        int64_t pts = D * H * W;
        /* PyTorch builds the grid as base [N, points, k+1] @ theta^T, then views it */
        if (theta->dim != 3) {
            ts_error_set(c->error, TS_ERR_RUNTIME, "batch2 must be a 3D tensor");
            return ts_args_return_tensor(&args, 0, NULL);
        }
        if (theta->sizes[0] != N || theta->sizes[2] != k + 1) {
            ts_error_set(c->error, TS_ERR_RUNTIME, "Expected size for first two dimensions of "
                         "batch2 tensor to be: [%lld, %d] but got: [%lld, %lld].", (long long)N,
                         k + 1, (long long)theta->sizes[0], (long long)theta->sizes[2]);
            return ts_args_return_tensor(&args, 0, NULL);
        }
        if (theta->sizes[1] != k) {
            char s[160];
            int64_t shape[5] = { N, D, H, W, k };
            if (k == 2)
                shape[1] = H, shape[2] = W, shape[3] = k;
            ts_aten_format_sizes(s, sizeof s, k + 2, shape);
            ts_error_set(c->error, TS_ERR_RUNTIME, "shape '%s' is invalid for input of size %lld",
                         s, (long long)(N * pts * theta->sizes[1]));
            return ts_args_return_tensor(&args, 0, NULL);
        }
        int64_t osz[5] = { N };
        for (int i = 2; i < n; i++)
            osz[i - 1] = size[i];
        osz[n - 1] = k;
        o = ts_cpu_empty(theta->dtype, n, osz, c->error);
        const char *td = ts_tensor_data(theta);
        size_t es = ts_dtype_size(theta->dtype);
        for (int64_t b = 0; o && b < N; b++)
            for (int64_t p = 0; p < pts; p++) {
                double base[4] = { grid_coord(p % W, W, align), grid_coord(p / W % H, H, align),
                                   grid_coord(p / (W * H), D, align), 1 };
                if (k == 2)
                    base[2] = 1;
                for (int r = 0; r < k; r++) {
                    double v = 0;
                    for (int q = 0; q <= k; q++)
                        v += base[q] * ts_cpu_load_double(
                                           theta->dtype,
                                           td + (b * theta->strides[0] + r * theta->strides[1] +
                                                 q * theta->strides[2]) * (int64_t)es);
                    ts_cpu_store_double(theta->dtype,
                                        (char *)ts_tensor_data(o) + ((b * pts + p) * k + r) *
                                                                        (int64_t)es, v);
                }
            }
    }
    return ts_args_return_tensor(&args, 0, o);
}

static const TsCpuOp ops[] = {
    { "aten::grid_sampler", "", k_grid_sampler },
    { "aten::grid_sampler_2d", "", k_grid_sampler_2d },
    { "aten::grid_sampler_3d", "", k_grid_sampler_3d },
    { "aten::affine_grid_generator", "", k_affine_grid_generator },
};

const TsCpuTable ts_cpu_grid_sample_table = { ops, sizeof ops / sizeof ops[0] };
