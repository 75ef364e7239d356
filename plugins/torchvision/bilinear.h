/* bilinear.h — one axis of the bilinear interpolation roi_align and ps_roi_align share,
 * for T = float and double (instantiated by the including file with TV_T and TV_FN).
 *
 * torchvision samples a point (y, x) of an H x W plane only when -1 <= y <= H and
 * -1 <= x <= W (NaN is outside). A coordinate inside is clamped to 0 from below; its low
 * pixel is the coordinate truncated, its high pixel the next one, both limited to the last
 * pixel (where the coordinate becomes that pixel); `l` is the weight of the high pixel and
 * 1 - l that of the low one. Both axes work the same way, so one function serves both.
 */

/* Whether v lies in the sampled range of an axis of n pixels. */
static inline bool TV_FN(axis_inside)(TV_T v, int64_t n)
{
    return v >= -1.0 && v <= (TV_T)n;
}

/* The pixels and weight of an inside coordinate v of an axis of n >= 1 pixels. */
static inline void TV_FN(axis_split)(TV_T v, int64_t n, int64_t *lo, int64_t *hi, TV_T *l)
{
    if (v <= 0)
        v = 0;
    int64_t low = (int64_t)v;
    if (low >= n - 1) {
        *lo = *hi = n - 1;
        v = (TV_T)(n - 1);
    } else {
        *lo = low;
        *hi = low + 1;
    }
    *l = v - (TV_T)*lo;
}
