/* roi.h — what the four RoI operators share (roi_align.c: roi_align, ps_roi_align;
 * roi_pool.c: roi_pool, ps_roi_pool): their arguments bound and checked into a RoiJob.
 *
 * They all take (Tensor input [N, C, H, W], Tensor rois [K, 5], float spatial_scale,
 * int pooled_height, int pooled_width, ...), where a roi row is (batch index, x1, y1, x2, y2)
 * in input coordinates times spatial_scale, and they all produce [K, C_out, PH, PW]
 * (C_out = C, or C / (PH * PW) for the position-sensitive ones). Kernels run over rois on
 * the runtime's threads; every roi writes only its own output rows.
 */
#ifndef TS_TORCHVISION_ROI_H
#define TS_TORCHVISION_ROI_H

#include "tv.h"

typedef struct RoiJob {
    const char *op;            /* "roi_align", for messages of our own */
    const char *kernel;        /* "roi_align_forward_kernel", as torchvision names it */
    const TsTensor *in_t, *rois_t;
    const void *input, *rois;  /* contiguous data of both */
    void *own_input, *own_rois;
    void *out;                 /* [K, C_out, PH, PW], input's dtype */
    int32_t *map;              /* the int32 second output (argmax or channel map), or NULL */
    int64_t n, c, h, w;        /* input's sizes */
    int64_t k;                 /* rois */
    int64_t ph, pw, c_out;
    int64_t sampling_ratio;
    double scale;
    bool aligned;
} RoiJob;

/* Pops nothing: binds the frame's arguments 0-4 (input, rois, spatial_scale, pooled_height,
 * pooled_width) and checks them as torchvision's kernel `kernel` does, rois' shape with
 * shape_msg; ps: the position-sensitive channel rule. */
int tv_roi_bind(TvFrame *f, RoiJob *j, const char *op, const char *kernel,
                const char *shape_msg, bool ps);

/* Allocates the outputs (zeroed; the int32 map too when want_map), and, when there is work,
 * checks the dtype and takes contiguous data. *work is false when the output is empty. */
int tv_roi_prepare(TvFrame *f, RoiJob *j, bool want_map, TsTensor **out, TsTensor **map,
                   bool *work);

/* Every roi's batch index, as torchvision reads it (truncated to an int), must name an
 * image of the input (torchvision reads outside the input otherwise). */
int tv_roi_check_batches(const RoiJob *j, TsError *err);

/* Frees the contiguous copies. */
void tv_roi_free(RoiJob *j);

/* Pushes out (and map when not NULL) after a run that returned rc; releases them on
 * failure. Always frees j's copies and releases the frame. */
int tv_roi_finish(TvFrame *f, RoiJob *j, int rc, TsTensor *out, TsTensor *map);

#endif
