/* shape_ops.c — the helpers the cpu shape, join, index and creation kernels share
 * (shape_ops.h): dense allocation that keeps a layout or makes a memory format's, and walking
 * an n-dimensional index.
 *
 * The views themselves (view, reshape, slice, transpose, expand, ...) are the same on every
 * device and live in aten-common (ts_aten_view_table); the copying ops that keep or make a
 * layout (contiguous, clone, copy_) are in copy.c.
 */
#include "shape/shape_ops.h"

/* PyTorch's is_non_overlapping_and_dense: the dims, ordered by stride, tile memory. */
static bool dense(const TsTensor *t)
{
    int order[TS_TENSOR_MAX_DIMS], n = 0;
    for (int d = 0; d < t->dim; d++) {
        if (t->sizes[d] == 1)
            continue;
        int k = n++;
        while (k > 0 && t->strides[order[k - 1]] > t->strides[d]) {
            order[k] = order[k - 1];
            k--;
        }
        order[k] = d;
    }
    int64_t want = 1;
    for (int k = 0; k < n; k++) {
        if (t->strides[order[k]] != want)
            return false;
        want *= t->sizes[order[k]];
    }
    return true;
}

TsTensor *ts_cpu_empty_like(const TsTensor *t, int dtype, TsError *err)
{
    TsTensor *r = ts_cpu_empty(dtype, t->dim, t->sizes, err);
    if (r && ts_tensor_numel(t) > 0 && !ts_tensor_is_contiguous(t) && dense(t) &&
        ts_tensor_set_shape(r, t->dim, t->sizes, t->strides, 0, err)) {
        ts_tensor_release(r);
        return NULL;
    }
    return r;
}

TsTensor *ts_cpu_empty_format(int dtype, int dim, const int64_t *sizes, int64_t mf,
                              TsError *err)
{
    int64_t strides[TS_TENSOR_MAX_DIMS];
    if (ts_aten_format_strides(mf, dim, sizes, strides, err))
        return NULL;
    TsTensor *r = ts_cpu_empty(dtype, dim, sizes, err);
    if (r && mf != TS_ATEN_MF_CONTIGUOUS && ts_tensor_set_shape(r, dim, sizes, strides, 0, err)) {
        ts_tensor_release(r);
        return NULL;
    }
    return r;
}

bool ts_cpu_next_index(int dim, const int64_t *sizes, int64_t *idx)
{
    for (int d = dim - 1; d >= 0; d--) {
        if (++idx[d] < sizes[d])
            return true;
        idx[d] = 0;
    }
    return false;
}
