/* roi_align_t.h — the per-dtype loops of roi_align.c, expanded for float32 and float64 by
 * instantiate.h (TV_T, TV_FN, TV_ROUND).
 *
 * Every step is computed in TV_T as torchvision 0.14 computes it (its CPU kernels are
 * templates over the scalar type), so float32 results round the way PyTorch's do.
 */
#include "bilinear.h"

/* One roi's geometry (see RoiGeom); false when a sampling grid does not fit an int. */
static bool TV_FN(geometry)(const RoiJob *j, const TV_T *r, bool ps, RoiGeom *g)
{
    TV_T scale = (TV_T)j->scale;
    TV_T off = (ps || j->aligned) ? (TV_T)0.5 : (TV_T)0;
    TV_T start_w = r[1] * scale - off, start_h = r[2] * scale - off;
    TV_T width = r[3] * scale - off - start_w, height = r[4] * scale - off - start_h;
    if (!ps && !j->aligned) {          /* malformed rois are forced to 1 x 1 (std::max) */
        width = width < (TV_T)1 ? (TV_T)1 : width;
        height = height < (TV_T)1 ? (TV_T)1 : height;
    }
    TV_T bin_h = height / (TV_T)j->ph, bin_w = width / (TV_T)j->pw;
    g->start_h = start_h;
    g->start_w = start_w;
    g->bin_h = bin_h;
    g->bin_w = bin_w;
    if (j->sampling_ratio > 0) {
        g->grid_h = g->grid_w = j->sampling_ratio;
        return j->sampling_ratio <= INT_MAX;
    }
    /* adaptive: ceil(roi size / pooled size) points per bin and axis */
    return grid_size(ceil((double)bin_h), &g->grid_h) && grid_size(ceil((double)bin_w), &g->grid_w);
}

/* Checks every roi's sampling grid before any work. */
static int TV_FN(check_rois)(const RoiJob *j, bool ps, TsError *err)
{
    const TV_T *rois = j->rois;
    for (int64_t n = 0; n < j->k; n++) {
        const TV_T *r = rois + 5 * n;
        RoiGeom g;
        if (!TV_FN(geometry)(j, r, ps, &g))
            return grid_error(j, n, err);
        int64_t points;
        if (!ps && (__builtin_mul_overflow(g.grid_h * g.grid_w, j->ph * j->pw, &points) ||
                    points > INT_MAX))
            return grid_error(j, n, err);
        if (!ps && points < 0)         /* torchvision's std::vector of that many entries */
            return ts_error_set(err, TS_ERR_RUNTIME,
                                "cannot create std::vector larger than max_size()");
    }
    return 0;
}

/* One sampling point of a roi_align bin: four pixel offsets in a plane and their weights. */
typedef struct TV_FN(point) {
    int64_t pos[4];
    TV_T w[4];
} TV_FN(point);

/* The sampling points of the bins (ph, 0..pw) of a roi, bin by bin, grid_h x grid_w
 * points each, row-major in the grid. A point outside the plane has weights 0 at offset
 * 0, as in torchvision (0 * a pixel still turns an inf pixel into NaN). */
static void TV_FN(row_points)(const RoiJob *j, const RoiGeom *g, int64_t ph, TV_FN(point) *pt)
{
    TV_T sh = (TV_T)g->start_h, sw = (TV_T)g->start_w, bh = (TV_T)g->bin_h, bw = (TV_T)g->bin_w;
    for (int64_t pw = 0; pw < j->pw; pw++)
        for (int64_t iy = 0; iy < g->grid_h; iy++) {
            TV_T y = sh + (TV_T)ph * bh + (TV_T)((float)iy + .5f) * bh / (TV_T)g->grid_h;
            for (int64_t ix = 0; ix < g->grid_w; ix++, pt++) {
                TV_T x = sw + (TV_T)pw * bw + (TV_T)((float)ix + .5f) * bw / (TV_T)g->grid_w;
                if (!TV_FN(axis_inside)(y, j->h) || !TV_FN(axis_inside)(x, j->w)) {
                    *pt = (TV_FN(point)){ { 0, 0, 0, 0 }, { 0, 0, 0, 0 } };
                    continue;
                }
                int64_t ylo, yhi, xlo, xhi;
                TV_T ly, lx;
                TV_FN(axis_split)(y, j->h, &ylo, &yhi, &ly);
                TV_FN(axis_split)(x, j->w, &xlo, &xhi, &lx);
                TV_T hy = (TV_T)1 - ly, hx = (TV_T)1 - lx;
                *pt = (TV_FN(point)){ { ylo * j->w + xlo, ylo * j->w + xhi, yhi * j->w + xlo,
                                        yhi * j->w + xhi },
                                      { hy * hx, hy * lx, ly * hx, ly * lx } };
            }
        }
}

/* roi_align over rois [b, e): the average of each bin's bilinear samples. */
static int TV_FN(roi_align_range)(void *ctx, int64_t b, int64_t e, TsError *err)
{
    const RoiJob *j = ctx;
    const TV_T *in = j->input, *rois = j->rois;
    TV_T *out = j->out;
    int64_t plane = j->h * j->w;
    for (int64_t n = b; n < e; n++) {
        const TV_T *r = rois + 5 * n;
        RoiGeom g;
        TV_FN(geometry)(j, r, false, &g);
        int64_t grid = g.grid_h > 0 && g.grid_w > 0 ? g.grid_h * g.grid_w : 0;
        TV_T count = (TV_T)(g.grid_h * g.grid_w > 1 ? g.grid_h * g.grid_w : 1);
        TV_FN(point) *pts = malloc((size_t)(j->pw * grid) * sizeof *pts + 1);
        if (!pts)
            return ts_error_set(err, TS_ERR_NOMEM, "%s: out of memory for %lld sampling points",
                                j->op, (long long)(j->pw * grid));
        const TV_T *img = in + (int64_t)r[0] * j->c * plane;
        for (int64_t ph = 0; ph < j->ph; ph++) {
            TV_FN(row_points)(j, &g, ph, pts);
            for (int64_t c = 0; c < j->c; c++) {
                const TV_T *p = img + c * plane;
                TV_T *o = out + ((n * j->c + c) * j->ph + ph) * j->pw;
                const TV_FN(point) *pt = pts;
                for (int64_t pw = 0; pw < j->pw; pw++) {
                    TV_T acc = 0;
                    for (int64_t s = 0; s < grid; s++, pt++)
                        acc += pt->w[0] * p[pt->pos[0]] + pt->w[1] * p[pt->pos[1]] +
                               pt->w[2] * p[pt->pos[2]] + pt->w[3] * p[pt->pos[3]];
                    o[pw] = acc / count;
                }
            }
        }
        free(pts);
    }
    return 0;
}

/* One bilinear sample of plane p at (y, x); 0 outside, as ps_roi_align's interpolation. */
static TV_T TV_FN(sample)(const RoiJob *j, const TV_T *p, TV_T y, TV_T x)
{
    if (!TV_FN(axis_inside)(y, j->h) || !TV_FN(axis_inside)(x, j->w))
        return 0;
    int64_t ylo, yhi, xlo, xhi;
    TV_T ly, lx;
    TV_FN(axis_split)(y, j->h, &ylo, &yhi, &ly);
    TV_FN(axis_split)(x, j->w, &xlo, &xhi, &lx);
    TV_T hy = (TV_T)1 - ly, hx = (TV_T)1 - lx;
    return hy * hx * p[ylo * j->w + xlo] + hy * lx * p[ylo * j->w + xhi] +
           ly * hx * p[yhi * j->w + xlo] + ly * lx * p[yhi * j->w + xhi];
}

/* ps_roi_align over rois [b, e): output channel co's bin (ph, pw) averages input channel
 * (co * PH + ph) * PW + pw, which the channel map records. */
static int TV_FN(ps_roi_align_range)(void *ctx, int64_t b, int64_t e, TsError *err)
{
    const RoiJob *j = ctx;
    const TV_T *in = j->input, *rois = j->rois;
    TV_T *out = j->out;
    int64_t plane = j->h * j->w, bins = j->ph * j->pw;
    (void)err;
    for (int64_t n = b; n < e; n++) {
        const TV_T *r = rois + 5 * n;
        RoiGeom g;
        TV_FN(geometry)(j, r, true, &g);
        TV_T sh = (TV_T)g.start_h, sw = (TV_T)g.start_w, bh = (TV_T)g.bin_h, bw = (TV_T)g.bin_w;
        TV_T count = (TV_T)(g.grid_h * g.grid_w);
        const TV_T *img = in + (int64_t)r[0] * j->c * plane;
        for (int64_t i = 0; i < j->c_out * bins; i++) {    /* i is also the input channel */
            int64_t ph = i / j->pw % j->ph, pw = i % j->pw;
            const TV_T *p = img + i * plane;
            TV_T hstart = (TV_T)ph * bh + sh, wstart = (TV_T)pw * bw + sw, acc = 0;
            for (int64_t iy = 0; iy < g.grid_h; iy++) {
                TV_T y = hstart + (TV_T)((float)iy + .5f) * bh / (TV_T)g.grid_h;
                for (int64_t ix = 0; ix < g.grid_w; ix++)
                    acc += TV_FN(sample)(j, p, y,
                                         wstart + (TV_T)((float)ix + .5f) * bw / (TV_T)g.grid_w);
            }
            out[n * j->c_out * bins + i] = acc / count;
            j->map[n * j->c_out * bins + i] = (int32_t)i;
        }
    }
    return 0;
}
