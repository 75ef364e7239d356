/* roi_align.c — the bilinear RoI operators, as torchvision 0.14's CPU kernels compute them:
 *
 *   torchvision::roi_align(Tensor input, Tensor rois, float spatial_scale, int pooled_height,
 *       int pooled_width, int sampling_ratio, bool aligned) -> Tensor
 *   torchvision::ps_roi_align(Tensor input, Tensor rois, float spatial_scale,
 *       int pooled_height, int pooled_width, int sampling_ratio) -> (Tensor, Tensor)
 *
 * A roi (x1, y1, x2, y2), scaled by spatial_scale, is cut into PH x PW bins; each bin is the
 * average of a grid of bilinear samples, sampling_ratio per axis, or when sampling_ratio <= 0
 * ceil(bin size) per axis (adaptive). roi_align with aligned=True shifts the roi by -0.5
 * (pixel centres at half-integers); with aligned=False a roi smaller than 1 x 1 is grown to
 * 1 x 1. A bin with no samples is 0 (roi_align) or NaN (ps_roi_align divides by zero
 * samples, as torchvision does). ps_roi_align always shifts by -0.5 and takes bin (ph, pw) of
 * output channel co from input channel (co * PH + ph) * PW + pw, the second output (int32).
 *
 * Where torchvision is undefined we are not: a roi whose batch index is outside the input is
 * an IndexError, NaN coordinates sample nothing, and a sampling grid beyond int (or, for
 * roi_align, more than INT_MAX points per roi) is an error.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include "roi.h"

/* A roi's geometry in its dtype (values of TV_T kept exactly in doubles). */
typedef struct RoiGeom {
    double start_h, start_w, bin_h, bin_w;
    int64_t grid_h, grid_w;    /* sampling points per bin and axis; <= 0: none */
} RoiGeom;

/* ceil(bin size) as the int torchvision converts it to: NaN samples nothing; false when it
 * does not fit an int. */
static bool grid_size(double c, int64_t *out)
{
    if (isnan(c)) {
        *out = 0;
        return true;
    }
    if (c > INT_MAX || c < INT_MIN)
        return false;
    *out = (int64_t)c;
    return true;
}

static int grid_error(const RoiJob *j, int64_t roi, TsError *err)
{
    return ts_error_set(err, TS_ERR_RUNTIME, "%s: the sampling grid of roi %lld is too large",
                        j->op, (long long)roi);
}

#define TV_TEMPLATE "roi_align_t.h"
#include "instantiate.h"

/* Checks the rois, then runs range over them on the runtime's threads. */
static int run(RoiJob *j, bool ps, TsError *err)
{
    bool f32 = j->in_t->dtype == TS_FLOAT32;
    if (tv_roi_check_batches(j, err) ||
        (f32 ? check_rois_f32(j, ps, err) : check_rois_f64(j, ps, err)))
        return err->code;
    TsParallelFn range = ps ? (f32 ? ps_roi_align_range_f32 : ps_roi_align_range_f64)
                            : (f32 ? roi_align_range_f32 : roi_align_range_f64);
    /* a roi's work: every output element of it, times the samples of a bin (at least 4) */
    int64_t per_roi = j->c_out * j->ph * j->pw * 16;
    return tv_parallel(j->k, per_roi, range, j, err);
}

/* Both kernels: bind, allocate, check the rois, sample on the runtime's threads. */
static int align(TsCall *c, bool ps)
{
    TvFrame f;
    RoiJob j;
    TsTensor *out = NULL, *map = NULL;
    bool work = false;
    tv_frame_pop(&f, c, ps ? "torchvision::ps_roi_align" : "torchvision::roi_align", ps ? 6 : 7);
    int rc = ps ? tv_roi_bind(&f, &j, "ps_roi_align", "ps_roi_align_forward_kernel",
                              "Tensor rois should have shape as Tensor[K, 5]", true)
                : tv_roi_bind(&f, &j, "roi_align", "roi_align_forward_kernel",
                              "rois must have shape as Tensor[K, 5]", false);
    if (!rc)
        rc = tv_int_arg(&f, 5, "sampling_ratio", &j.sampling_ratio);
    if (!rc && !ps)
        rc = tv_bool_arg(&f, 6, "aligned", &j.aligned);
    if (!rc)
        rc = tv_roi_prepare(&f, &j, ps, &out, &map, &work);
    if (!rc && work)
        rc = run(&j, ps, c->error);
    return tv_roi_finish(&f, &j, rc, out, map);
}

int tv_roi_align(TsCall *c)
{
    return align(c, false);
}

int tv_ps_roi_align(TsCall *c)
{
    return align(c, true);
}
