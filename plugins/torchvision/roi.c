/* roi.c — binding and checking the arguments of the RoI operators, their outputs, and their
 * ending (see roi.h). The checks run in torchvision 0.14's order, so a call with several
 * faults reports the one PyTorch reports.
 */
#include <stdlib.h>

#include "roi.h"

/* input [N, C, H, W]: torchvision reads sizes 1-3, so fewer dims fail there with ATen's
 * IndexError; more would be read as if flattened, which we refuse. */
static int bind_input(TvFrame *f, RoiJob *j)
{
    TsError *err = f->c->error;
    if (tv_size(err, j->in_t, 1, &j->c) || tv_size(err, j->in_t, 2, &j->h) ||
        tv_size(err, j->in_t, 3, &j->w))
        return err->code;
    if (j->in_t->dim != 4)
        return ts_error_set(err, TS_ERR_RUNTIME,
                            "%s: input must be a 4-D tensor [N, C, H, W], got %dD", j->op,
                            (int)j->in_t->dim);
    j->n = j->in_t->sizes[0];
    return 0;
}

/* The position-sensitive ops' channel rule: C = C_out * PH * PW. */
static int bind_ps_channels(TvFrame *f, RoiJob *j)
{
    TsError *err = f->c->error;
    int64_t bins;
    if (__builtin_mul_overflow(j->ph, j->pw, &bins) || bins == 0)
        return ts_error_set(err, TS_ERR_RUNTIME,
                            "%s: pooled_height * pooled_width must be a nonzero int, got %lld "
                            "and %lld", j->op, (long long)j->ph, (long long)j->pw);
    if (j->c % bins != 0)
        return ts_error_set(err, TS_ERR_RUNTIME,
                            "input channels must be a multiple of pooling height * pooling "
                            "width");
    j->c_out = j->c / bins;
    return 0;
}

int tv_roi_bind(TvFrame *f, RoiJob *j, const char *op, const char *kernel,
                const char *shape_msg, bool ps)
{
    TsError *err = f->c->error;
    *j = (RoiJob){ .op = op, .kernel = kernel };
    j->in_t = tv_tensor_arg(f, 0, "input");
    j->rois_t = j->in_t ? tv_tensor_arg(f, 1, "rois") : NULL;
    if (!j->rois_t || tv_float_arg(f, 2, "spatial_scale", &j->scale) ||
        tv_int_arg(f, 3, "pooled_height", &j->ph) || tv_int_arg(f, 4, "pooled_width", &j->pw))
        return err->code;
    int64_t cols;
    if (tv_size(err, j->rois_t, 1, &cols))
        return err->code;
    if (cols != 5 || j->rois_t->dim != 2)
        return ts_error_set(err, TS_ERR_RUNTIME, "%s", shape_msg);
    j->k = j->rois_t->sizes[0];
    if (tv_check_same_type(err, kernel, j->in_t, "input", j->rois_t, "rois") ||
        bind_input(f, j))
        return err->code;
    j->c_out = j->c;
    return ps ? bind_ps_channels(f, j) : 0;
}

int tv_roi_prepare(TvFrame *f, RoiJob *j, bool want_map, TsTensor **out, TsTensor **map,
                   bool *work)
{
    TsError *err = f->c->error;
    int64_t sizes[4] = { j->k, j->c_out, j->ph, j->pw };
    *map = NULL;
    *work = false;
    *out = tv_zeros(f, j->in_t->dtype, 4, sizes);
    if (!*out)
        return err->code;
    if (want_map && !(*map = tv_zeros(f, TS_INT32, 4, sizes)))
        return err->code;
    if (ts_tensor_numel(*out) == 0)
        return 0;
    if (tv_check_floating(err, j->kernel, j->in_t->dtype))
        return err->code;
    j->input = tv_contiguous(j->in_t, &j->own_input, err);
    j->rois = j->input ? tv_contiguous(j->rois_t, &j->own_rois, err) : NULL;
    if (!j->rois)
        return err->code;
    j->out = ts_tensor_data(*out);
    j->map = *map ? ts_tensor_data(*map) : NULL;
    /* a plane without pixels has nothing to sample: the output stays zero */
    *work = j->h > 0 && j->w > 0;
    return 0;
}

int tv_roi_check_batches(const RoiJob *j, TsError *err)
{
    for (int64_t roi = 0; roi < j->k; roi++) {
        double index = j->in_t->dtype == TS_FLOAT32 ? ((const float *)j->rois)[5 * roi]
                                                    : ((const double *)j->rois)[5 * roi];
        if (!(index > -1.0 && index < (double)j->n))    /* truncates to 0 .. N-1 */
            return ts_error_set(err, TS_ERR_INDEX,
                                "%s: roi %lld has batch index %g, outside the input's batch "
                                "of %lld", j->op, (long long)roi, index, (long long)j->n);
    }
    return 0;
}

void tv_roi_free(RoiJob *j)
{
    free(j->own_input);
    free(j->own_rois);
    j->own_input = j->own_rois = NULL;
}

int tv_roi_finish(TvFrame *f, RoiJob *j, int rc, TsTensor *out, TsTensor *map)
{
    tv_roi_free(j);
    tv_frame_release(f);
    if (rc) {
        if (out)
            ts_tensor_release(out);
        if (map)
            ts_tensor_release(map);
        return rc;
    }
    return map ? tv_push_pair(f, out, map) : tv_push(f, out);
}
