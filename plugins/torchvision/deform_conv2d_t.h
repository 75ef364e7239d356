/* deform_conv2d_t.h — the per-dtype loops of deform_conv2d.c, expanded for float32 and
 * float64 by instantiate.h (TV_T, TV_FN, TV_ROUND). The sampling is torchvision 0.14's, step
 * by step in TV_T.
 */

/* A bilinear sample of an H x W plane at (y, x): 0 outside (-1, H) x (-1, W) (NaN too), and
 * a corner outside the plane counts as 0. */
static TV_T TV_FN(sample)(const TV_T *p, int64_t h, int64_t w, TV_T y, TV_T x)
{
    if (!(y > -1 && y < (TV_T)h && x > -1 && x < (TV_T)w))
        return 0;
    int64_t y0 = (int64_t)floor((double)y), x0 = (int64_t)floor((double)x);
    int64_t y1 = y0 + 1, x1 = x0 + 1;
    TV_T ly = y - (TV_T)y0, lx = x - (TV_T)x0, hy = 1 - ly, hx = 1 - lx;
    TV_T v1 = y0 >= 0 && x0 >= 0 ? p[y0 * w + x0] : 0;
    TV_T v2 = y0 >= 0 && x1 <= w - 1 ? p[y0 * w + x1] : 0;
    TV_T v3 = y1 <= h - 1 && x0 >= 0 ? p[y1 * w + x0] : 0;
    TV_T v4 = y1 <= h - 1 && x1 <= w - 1 ? p[y1 * w + x1] : 0;
    return hy * hx * v1 + hy * lx * v2 + ly * hx * v3 + ly * lx * v4;
}

/* Columns of image j->b for input channels [b, e): row (c * KH + i) * KW + j holds, for
 * every output position, kernel tap (i, j)'s sample of channel c, moved by the offsets of
 * c's offset group and scaled by its mask. */
static int TV_FN(im2col)(void *ctx, int64_t b, int64_t e, TsError *err)
{
    const DeformJob *j = ctx;
    const TV_T *in = j->input, *offset = j->offset, *mask = j->mask;
    TV_T *col = j->columns;
    int64_t taps = j->kh * j->kw, npos = j->oh * j->ow;
    (void)err;
    for (int64_t c = b; c < e; c++) {
        int64_t grp = c / (j->c / j->offset_groups);
        const TV_T *p = in + (j->b * j->c + c) * j->h * j->w;
        const TV_T *off = offset + (j->b * j->offset_groups + grp) * 2 * taps * npos;
        const TV_T *m = j->use_mask ? mask + (j->b * j->offset_groups + grp) * taps * npos : NULL;
        for (int64_t t = 0; t < taps; t++) {
            TV_T *row = col + (c * taps + t) * npos;
            int64_t ti = t / j->kw, tj = t % j->kw;
            for (int64_t oy = 0; oy < j->oh; oy++)
                for (int64_t ox = 0; ox < j->ow; ox++) {
                    int64_t q = oy * j->ow + ox;
                    TV_T y = (TV_T)(oy * j->stride_h - j->pad_h + ti * j->dil_h) +
                             off[2 * t * npos + q];
                    TV_T x = (TV_T)(ox * j->stride_w - j->pad_w + tj * j->dil_w) +
                             off[(2 * t + 1) * npos + q];
                    TV_T mv = m ? m[t * npos + q] : (TV_T)1;
                    row[q] = mv * TV_FN(sample)(p, j->h, j->w, y, x);
                }
        }
    }
    return 0;
}

/* Output channels [b, e) of image j->b: the product of each channel's weights with its
 * group's columns, accumulated over the weights in order. */
static int TV_FN(gemm)(void *ctx, int64_t b, int64_t e, TsError *err)
{
    const DeformJob *j = ctx;
    const TV_T *wt = j->weight, *col = j->columns;
    TV_T *out = j->out;
    int64_t npos = j->oh * j->ow, kg = j->c / j->groups * j->kh * j->kw;
    int64_t per_group = j->o / j->groups;
    (void)err;
    for (int64_t o = b; o < e; o++) {
        TV_T *row = out + (j->b * j->o + o) * npos;
        const TV_T *gcol = col + o / per_group * kg * npos;
        for (int64_t k = 0; k < kg; k++) {
            TV_T wk = wt[o * kg + k];
            const TV_T *cr = gcol + k * npos;
            for (int64_t q = 0; q < npos; q++)
                row[q] += wk * cr[q];
        }
    }
    return 0;
}

/* The bias as TV_T, from any of the dtypes deform_conv2d.c accepts for it. */
static TV_T TV_FN(bias_at)(const void *bias, int dtype, int64_t i)
{
    switch (dtype) {
    case TS_FLOAT32: return (TV_T)((const float *)bias)[i];
    case TS_FLOAT64: return (TV_T)((const double *)bias)[i];
    case TS_INT64: return (TV_T)((const int64_t *)bias)[i];
    case TS_INT32: return (TV_T)((const int32_t *)bias)[i];
    case TS_INT16: return (TV_T)((const int16_t *)bias)[i];
    case TS_INT8: return (TV_T)((const int8_t *)bias)[i];
    case TS_UINT8: return (TV_T)((const uint8_t *)bias)[i];
    default: return (TV_T)((const bool *)bias)[i];
    }
}

/* out[n, o, :, :] += bias[o], in place, for a bias whose type does not widen the result. */
static void TV_FN(add_bias)(const DeformJob *j, const void *bias, int dtype)
{
    TV_T *out = j->out;
    int64_t npos = j->oh * j->ow;
    for (int64_t n = 0; n < j->n; n++)
        for (int64_t o = 0; o < j->o; o++) {
            TV_T bo = TV_FN(bias_at)(bias, dtype, o);
            TV_T *row = out + (n * j->o + o) * npos;
            for (int64_t q = 0; q < npos; q++)
                row[q] = row[q] + bo;
        }
}
