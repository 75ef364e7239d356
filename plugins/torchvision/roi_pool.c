/* roi_pool.c — the max and average RoI pooling operators, as torchvision 0.14's CPU kernels
 * compute them:
 *
 *   torchvision::roi_pool(Tensor input, Tensor rois, float spatial_scale, int pooled_height,
 *       int pooled_width) -> (Tensor, Tensor)
 *   torchvision::ps_roi_pool(Tensor input, Tensor rois, float spatial_scale,
 *       int pooled_height, int pooled_width) -> (Tensor, Tensor)
 *
 * Unlike the align operators these snap the scaled roi to whole pixels (std::round) and pool
 * whole pixels: roi_pool takes each bin's maximum (second output: its position h * W + w in
 * the plane, int32, -1 for an empty bin), ps_roi_pool the mean of the bin over one input
 * channel per output channel and bin (second output: that channel, int32).
 *
 * torchvision's roi_pool reads rois of any shape as rows of 5 and any batch index as valid;
 * here rois must be [K, 5] and a batch index outside the input is an IndexError.
 */
#include <float.h>
#include <math.h>

#include "roi.h"

#define TV_TEMPLATE "roi_pool_t.h"
#include "instantiate.h"

/* Both kernels: bind, allocate, check the rois, pool on the runtime's threads. */
static int pool(TsCall *c, const char *qualname, const char *op, const char *kernel,
                const char *shape_msg, bool ps)
{
    TvFrame f;
    RoiJob j;
    TsTensor *out = NULL, *map = NULL;
    bool work = false;
    tv_frame_pop(&f, c, qualname, 5);
    int rc = tv_roi_bind(&f, &j, op, kernel, shape_msg, ps);
    if (!rc)
        rc = tv_roi_prepare(&f, &j, true, &out, &map, &work);
    if (!rc && work)
        rc = tv_roi_check_batches(&j, c->error);
    if (!rc && work) {
        bool f32 = j.in_t->dtype == TS_FLOAT32;
        TsParallelFn range = ps ? (f32 ? ps_roi_pool_range_f32 : ps_roi_pool_range_f64)
                                : (f32 ? roi_pool_range_f32 : roi_pool_range_f64);
        /* a roi's work: every output element of it, times a few pixels of a bin */
        rc = tv_parallel(j.k, j.c_out * j.ph * j.pw * 8, range, &j, c->error);
    }
    return tv_roi_finish(&f, &j, rc, out, map);
}

int tv_roi_pool(TsCall *c)
{
    return pool(c, "torchvision::roi_pool", "roi_pool", "roi_pool_forward_kernel",
                "rois must have shape as Tensor[K, 5]", false);
}

int tv_ps_roi_pool(TsCall *c)
{
    return pool(c, "torchvision::ps_roi_pool", "ps_roi_pool", "ps_roi_pool_forward_kernel",
                "Tensor rois should have shape as Tensor[K, 5]", true);
}
