/* view.c — making views: a new tensor header over another's storage (ts_aten_view,
 * ts_aten_narrow), the strides that let new sizes view old memory, the -1 of a shape, and
 * the list of views that split ops return.
 *
 * A view retains its base's storage, so writes through either show in both; nothing here
 * touches elements, so it serves every device.
 */
#include <string.h>

#include "views.h"

TsTensor *ts_aten_view(const TsTensor *t, int dim, const int64_t *sizes, const int64_t *strides,
                       int64_t offset, TsError *err)
{
    TsTensor *v = ts_tensor_new(t->storage, t->dtype, dim, sizes, strides, offset, err);
    if (v)
        v->device = t->device;
    return v;
}

TsTensor *ts_aten_narrow(const TsTensor *t, int d, int64_t start, int64_t len, int64_t step,
                         TsError *err)
{
    int64_t sizes[TS_TENSOR_MAX_DIMS], strides[TS_TENSOR_MAX_DIMS], at, offset;
    memcpy(sizes, t->sizes, sizeof sizes[0] * (size_t)t->dim);
    memcpy(strides, t->strides, sizeof strides[0] * (size_t)t->dim);
    sizes[d] = len;
    /* both overflow only where no element is stepped to: keep t's stride or offset there */
    if (__builtin_mul_overflow(t->strides[d], step, &strides[d]))
        strides[d] = t->strides[d];
    if (__builtin_mul_overflow(start, t->strides[d], &at) ||
        __builtin_add_overflow(t->offset, at, &offset))
        offset = t->offset;
    return ts_aten_view(t, t->dim, sizes, strides, offset, err);
}

int ts_aten_infer_size(TsError *err, int64_t numel, int dim, int64_t *sizes)
{
    int infer = -1;
    int64_t known = 1;
    bool overflow = false;
    for (int d = 0; d < dim; d++) {
        if (sizes[d] == -1) {
            if (infer >= 0)
                return ts_error_set(err, TS_ERR_RUNTIME, "only one dimension can be inferred");
            infer = d;
        } else if (sizes[d] < 0) {
            return ts_error_set(err, TS_ERR_RUNTIME, "invalid shape dimension %lld",
                                (long long)sizes[d]);
        } else {
            overflow |= __builtin_mul_overflow(known, sizes[d], &known);
        }
    }
    char buf[256];
    if (!overflow && (numel == known || (infer >= 0 && known > 0 && numel % known == 0))) {
        if (infer < 0)
            return 0;
        if (known == 0) {
            ts_aten_format_sizes(buf, sizeof buf, dim, sizes);
            return ts_error_set(err, TS_ERR_RUNTIME, "cannot reshape tensor of 0 elements into "
                                "shape %s because the unspecified dimension size -1 can be any "
                                "value and is ambiguous", buf);
        }
        sizes[infer] = numel / known;
        return 0;
    }
    ts_aten_format_sizes(buf, sizeof buf, dim, sizes);
    return ts_error_set(err, TS_ERR_RUNTIME, "shape '%s' is invalid for input of size %lld", buf,
                        (long long)numel);
}

bool ts_aten_view_strides(const TsTensor *t, int dim, const int64_t *sizes, int64_t *strides)
{
    if (t->dim == 0 || ts_tensor_numel(t) == 0)
        return ts_contiguous_strides(dim, sizes, strides);
    /* Walk t's dims from the innermost, grouping them into chunks that are contiguous with
     * each other; the new dims must tile every chunk exactly. */
    int view_d = dim - 1;
    int64_t chunk_base = t->strides[t->dim - 1], tensor_numel = 1, view_numel = 1;
    for (int d = t->dim - 1; d >= 0; d--) {
        tensor_numel *= t->sizes[d];
        if (d == 0 || (t->sizes[d - 1] != 1 && t->strides[d - 1] != tensor_numel * chunk_base)) {
            while (view_d >= 0 && (view_numel < tensor_numel || sizes[view_d] == 1)) {
                strides[view_d] = view_numel * chunk_base;
                view_numel *= sizes[view_d];
                view_d--;
            }
            if (view_numel != tensor_numel)
                return false;
            if (d > 0) {
                chunk_base = t->strides[d - 1];
                tensor_numel = 1;
                view_numel = 1;
            }
        }
    }
    return view_d == -1;
}

TsList *ts_aten_append_view(TsList *l, TsTensor *v, TsError *err)
{
    if (!l || !v || ts_list_append(l, ts_obj_value(v, TS_TAG_TENSOR), err)) {
        if (l)
            ts_heap_release(&l->h);
        else if (v)
            ts_tensor_release(v);
        return NULL;
    }
    return l;
}
