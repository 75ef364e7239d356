/* roi_pool_t.h — the per-dtype loops of roi_pool.c, expanded for float32 and float64 by
 * instantiate.h (TV_T, TV_FN, TV_ROUND). Every step is torchvision 0.14's, in TV_T.
 */

/* A roi's corners rounded to pixels: x1, y1, x2, y2 (torchvision's std::round, then int). */
static void TV_FN(corners)(const RoiJob *j, const TV_T *r, int64_t q[4])
{
    TV_T scale = (TV_T)j->scale;
    for (int i = 0; i < 4; i++)
        q[i] = tv_to_index((double)TV_ROUND(r[1 + i] * scale));
}

/* One bin's pixel range [*lo, *hi) on an axis: bin i of size `bin`, offset by start,
 * clipped to [0, limit]. */
static void TV_FN(bin_range)(int64_t i, TV_T bin, int64_t start, int64_t limit, int64_t *lo,
                             int64_t *hi)
{
    int64_t a = tv_to_index(floor((double)((TV_T)i * bin))) + start;
    int64_t b = tv_to_index(ceil((double)((TV_T)(i + 1) * bin))) + start;
    *lo = a < 0 ? 0 : a > limit ? limit : a;
    *hi = b < 0 ? 0 : b > limit ? limit : b;
}

/* roi_pool over rois [b, e): each bin's maximum and its position in the plane (h * W + w);
 * an empty bin is 0 at -1. NaN pixels never win (the comparison is input > max). */
static int TV_FN(roi_pool_range)(void *ctx, int64_t b, int64_t e, TsError *err)
{
    const RoiJob *j = ctx;
    const TV_T *in = j->input, *rois = j->rois;
    TV_T *out = j->out;
    int64_t plane = j->h * j->w;
    (void)err;
    for (int64_t n = b; n < e; n++) {
        const TV_T *r = rois + 5 * n;
        int64_t q[4];
        TV_FN(corners)(j, r, q);
        int64_t rw = q[2] - q[0] + 1, rh = q[3] - q[1] + 1;    /* malformed: 1 x 1 */
        TV_T bin_h = (TV_T)(rh > 1 ? rh : 1) / (TV_T)j->ph;
        TV_T bin_w = (TV_T)(rw > 1 ? rw : 1) / (TV_T)j->pw;
        const TV_T *img = in + (int64_t)r[0] * j->c * plane;
        for (int64_t ph = 0; ph < j->ph; ph++)
            for (int64_t pw = 0; pw < j->pw; pw++) {
                int64_t h0, h1, w0, w1;
                TV_FN(bin_range)(ph, bin_h, q[1], j->h, &h0, &h1);
                TV_FN(bin_range)(pw, bin_w, q[0], j->w, &w0, &w1);
                bool empty = h1 <= h0 || w1 <= w0;
                for (int64_t c = 0; c < j->c; c++) {
                    const TV_T *p = img + c * plane;
                    TV_T best = empty ? (TV_T)0 : (TV_T)-FLT_MAX;
                    int64_t at = -1;
                    for (int64_t y = h0; y < h1; y++)
                        for (int64_t x = w0; x < w1; x++)
                            if (p[y * j->w + x] > best) {
                                best = p[y * j->w + x];
                                at = y * j->w + x;
                            }
                    int64_t o = ((n * j->c + c) * j->ph + ph) * j->pw + pw;
                    out[o] = best;
                    j->map[o] = (int32_t)at;
                }
            }
    }
    return 0;
}

/* ps_roi_pool over rois [b, e): output channel co's bin (ph, pw) is the mean of input
 * channel (co * PH + ph) * PW + pw over the bin, clipped to [0, H - 1] x [0, W - 1] (so the
 * last row and column are never pooled, as in torchvision 0.14); empty bins are 0. */
static int TV_FN(ps_roi_pool_range)(void *ctx, int64_t b, int64_t e, TsError *err)
{
    const RoiJob *j = ctx;
    const TV_T *in = j->input, *rois = j->rois;
    TV_T *out = j->out;
    int64_t plane = j->h * j->w, bins = j->ph * j->pw;
    (void)err;
    for (int64_t n = b; n < e; n++) {
        const TV_T *r = rois + 5 * n;
        int64_t q[4];
        TV_FN(corners)(j, r, q);
        int64_t rw = q[2] - q[0], rh = q[3] - q[1];            /* too small: 1 x 1 */
        TV_T bin_h = (TV_T)(rh > 1 ? rh : 1) / (TV_T)j->ph;
        TV_T bin_w = (TV_T)(rw > 1 ? rw : 1) / (TV_T)j->pw;
        const TV_T *img = in + (int64_t)r[0] * j->c * plane;
        for (int64_t i = 0; i < j->c_out * bins; i++) {        /* i is also the input channel */
            int64_t h0, h1, w0, w1;
            TV_FN(bin_range)(i / j->pw % j->ph, bin_h, q[1], j->h - 1, &h0, &h1);
            TV_FN(bin_range)(i % j->pw, bin_w, q[0], j->w - 1, &w0, &w1);
            const TV_T *p = img + i * plane;
            TV_T sum = 0;
            for (int64_t y = h0; y < h1; y++)
                for (int64_t x = w0; x < w1; x++)
                    sum += p[y * j->w + x];
            bool empty = h1 <= h0 || w1 <= w0;
            out[n * j->c_out * bins + i] = empty ? (TV_T)0 : sum / (TV_T)((h1 - h0) * (w1 - w0));
            j->map[n * j->c_out * bins + i] = (int32_t)i;
        }
    }
    return 0;
}
