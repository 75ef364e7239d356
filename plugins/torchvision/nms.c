/* nms.c — torchvision::nms(Tensor dets, Tensor scores, float iou_threshold) -> Tensor
 *
 * Greedy non-maximum suppression as torchvision 0.14's CPU kernel does it. Boxes are
 * (x1, y1, x2, y2) rows; their areas and overlaps are computed in the boxes' own dtype. Boxes
 * are visited by score, highest first, in a stable order (equal scores keep their input
 * order, NaN scores come first, as torch.sort(descending=True, stable=True) orders them);
 * each box not yet suppressed is kept and suppresses every later box whose IoU with it is
 * greater than (strictly) iou_threshold. The result is the kept indices, int64, in the order
 * they were kept. A pair of empty boxes has IoU 0/0 = NaN, which suppresses nothing.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tv.h"

/* Sort order: a comes before b when it is greater, NaN being greater than any number. */
static bool before(double a, double b)
{
    return (isnan(a) && !isnan(b)) || a > b;
}

/* Stable merge sort of idx[0, n) by key, descending; tmp holds n entries. */
static void sort_desc(int64_t *idx, int64_t *tmp, int64_t n, const double *key)
{
    for (int64_t width = 1; width < n; width *= 2) {
        for (int64_t lo = 0; lo < n; lo += 2 * width) {
            int64_t mid = lo + width < n ? lo + width : n;
            int64_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            int64_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] = before(key[idx[j]], key[idx[i]]) ? idx[j++] : idx[i++];
            while (i < mid)
                tmp[k++] = idx[i++];
            while (j < hi)
                tmp[k++] = idx[j++];
        }
        memcpy(idx, tmp, (size_t)n * sizeof *idx);
    }
}

/* The suppression loop over boxes b[n][4] visited in `order`; fills keep, returns its
 * length. suppressed starts zeroed; areas has room for n values of T. */
#define NMS_LOOP(T, SUF)                                                                   \
    static int64_t nms_##SUF(const T *b, int64_t n, const int64_t *order, double thr,     \
                             uint8_t *suppressed, void *area_buf, int64_t *keep)           \
    {                                                                                      \
        T *area = area_buf;                                                                \
        for (int64_t i = 0; i < n; i++)                                                    \
            area[i] = (b[4 * i + 2] - b[4 * i]) * (b[4 * i + 3] - b[4 * i + 1]);           \
        int64_t nkeep = 0;                                                                 \
        for (int64_t oi = 0; oi < n; oi++) {                                               \
            int64_t i = order[oi];                                                         \
            if (suppressed[i])                                                             \
                continue;                                                                  \
            keep[nkeep++] = i;                                                             \
            const T *bi = b + 4 * i;                                                       \
            for (int64_t oj = oi + 1; oj < n; oj++) {                                      \
                int64_t j = order[oj];                                                     \
                if (suppressed[j])                                                         \
                    continue;                                                              \
                const T *bj = b + 4 * j;                                                   \
                T xx1 = bi[0] < bj[0] ? bj[0] : bi[0];  /* std::max: the first unless less */\
                T yy1 = bi[1] < bj[1] ? bj[1] : bi[1];                                     \
                T xx2 = bj[2] < bi[2] ? bj[2] : bi[2];  /* std::min: the first unless more */\
                T yy2 = bj[3] < bi[3] ? bj[3] : bi[3];                                     \
                T w = (T)0 < xx2 - xx1 ? xx2 - xx1 : (T)0;                                 \
                T h = (T)0 < yy2 - yy1 ? yy2 - yy1 : (T)0;                                 \
                T inter = w * h;                                                           \
                T ovr = inter / (area[i] + area[j] - inter);                               \
                if ((double)ovr > thr)                                                     \
                    suppressed[j] = 1;                                                     \
            }                                                                              \
        }                                                                                  \
        return nkeep;                                                                      \
    }
NMS_LOOP(float, f32)
NMS_LOOP(double, f64)

/* Checks of nms_kernel, in its order. */
static int check(TsError *err, const TsTensor *dets, const TsTensor *scores)
{
    if (dets->dim != 2)
        return ts_error_set(err, TS_ERR_RUNTIME, "boxes should be a 2d tensor, got %dD",
                            (int)dets->dim);
    if (dets->sizes[1] != 4)
        return ts_error_set(err, TS_ERR_RUNTIME,
                            "boxes should have 4 elements in dimension 1, got %lld",
                            (long long)dets->sizes[1]);
    if (scores->dim != 1)
        return ts_error_set(err, TS_ERR_RUNTIME, "scores should be a 1d tensor, got %dD",
                            (int)scores->dim);
    if (dets->sizes[0] != scores->sizes[0])
        return ts_error_set(err, TS_ERR_RUNTIME,
                            "boxes and scores should have same number of elements in dimension "
                            "0, got %lld and %lld",
                            (long long)dets->sizes[0], (long long)scores->sizes[0]);
    if (tv_check_floating(err, "nms_kernel", dets->dtype))
        return err->code;
    if (dets->dtype != scores->dtype)
        return ts_error_set(err, TS_ERR_RUNTIME, "dets should have the same type as scores");
    return 0;
}

/* The scores as doubles (exact for both dtypes), for sorting. */
static void score_keys(const void *s, int dtype, int64_t n, double *key)
{
    for (int64_t i = 0; i < n; i++)
        key[i] = dtype == TS_FLOAT32 ? (double)((const float *)s)[i] : ((const double *)s)[i];
}

/* Runs nms on checked arguments; *out is the int64 result. */
static int run(TvFrame *f, const TsTensor *dets, const TsTensor *scores, double thr,
               TsTensor **out)
{
    TsError *err = f->c->error;
    int64_t n = dets->sizes[0], nkeep = 0;
    size_t esize = ts_dtype_size(dets->dtype);
    void *own_b = NULL, *own_s = NULL;
    const void *b = tv_contiguous(dets, &own_b, err);
    const void *s = b ? tv_contiguous(scores, &own_s, err) : NULL;
    /* n boxes exist in memory, so these sizes cannot overflow */
    int64_t *order = malloc((size_t)n * sizeof *order + 1);
    int64_t *tmp = malloc((size_t)n * sizeof *tmp + 1);
    int64_t *keep = malloc((size_t)n * sizeof *keep + 1);
    double *key = malloc((size_t)n * sizeof *key + 1);
    void *area = malloc((size_t)n * esize + 1);
    uint8_t *suppressed = calloc((size_t)n + 1, 1);
    int rc = 0;
    if (!s) {
        rc = err->code;
    } else if (!order || !tmp || !keep || !key || !area || !suppressed) {
        rc = ts_error_set(err, TS_ERR_NOMEM, "out of memory in nms of %lld boxes", (long long)n);
    } else {
        for (int64_t i = 0; i < n; i++)
            order[i] = i;
        score_keys(s, scores->dtype, n, key);
        sort_desc(order, tmp, n, key);
        nkeep = dets->dtype == TS_FLOAT32 ? nms_f32(b, n, order, thr, suppressed, area, keep)
                                          : nms_f64(b, n, order, thr, suppressed, area, keep);
        *out = tv_zeros(f, TS_INT64, 1, &nkeep);
        if (*out)
            memcpy(ts_tensor_data(*out), keep, (size_t)nkeep * sizeof *keep);
        else
            rc = err->code;
    }
    free(own_b);
    free(own_s);
    free(order);
    free(tmp);
    free(keep);
    free(key);
    free(area);
    free(suppressed);
    return rc;
}

int tv_nms(TsCall *c)
{
    TvFrame f;
    tv_frame_pop(&f, c, "torchvision::nms", 3);
    const TsTensor *dets = tv_tensor_arg(&f, 0, "dets");
    const TsTensor *scores = dets ? tv_tensor_arg(&f, 1, "scores") : NULL;
    double thr = 0;
    TsTensor *out = NULL;
    int rc = scores ? tv_float_arg(&f, 2, "iou_threshold", &thr) : (int)c->error->code;
    if (!rc)
        rc = check(c->error, dets, scores);
    if (!rc && ts_tensor_numel(dets) == 0) {
        int64_t zero = 0;
        out = tv_zeros(&f, TS_INT64, 1, &zero);
        rc = out ? 0 : c->error->code;
    } else if (!rc) {
        rc = run(&f, dets, scores, thr, &out);
    }
    tv_frame_release(&f);
    return rc ? rc : tv_push(&f, out);
}
