/* shape.c — shapes as every backend sees them: broadcasting, dim wrapping, printing sizes,
 * and the out= rule that reshapes an out tensor (only metadata and a new storage from the
 * tensor's own allocator: no element is touched, so no device is assumed).
 */
#include <stdio.h>

#include "tscript/aten.h"

int ts_aten_broadcast_sizes(int da, const int64_t *a, int db, const int64_t *b, int *dim,
                            int64_t *sizes, TsError *err)
{
    int m = da > db ? da : db;
    int64_t out[TS_TENSOR_MAX_DIMS];
    for (int k = 1; k <= m; k++) {
        int64_t sa = k <= da ? a[da - k] : 1;
        int64_t sb = k <= db ? b[db - k] : 1;
        if (sa != sb && sa != 1 && sb != 1)
            return ts_error_set(err, TS_ERR_RUNTIME,
                                "The size of tensor a (%lld) must match the size of tensor "
                                "b (%lld) at non-singleton dimension %d",
                                (long long)sa, (long long)sb, m - k);
        out[m - k] = sa == 1 ? sb : sa;
    }
    for (int d = 0; d < m; d++)
        sizes[d] = out[d];
    *dim = m;
    return 0;
}

int ts_aten_broadcast_shape(int n, TsTensor *const *in, int *dim, int64_t *sizes, TsError *err)
{
    /* fold the operands in one at a time, as PyTorch does: "a" is the shape so far */
    int have = 0;
    for (int i = 0; i < n; i++)
        if (ts_aten_broadcast_sizes(have, sizes, in[i]->dim, in[i]->sizes, &have, sizes, err))
            return err->code;
    *dim = have;
    return 0;
}

int ts_aten_wrap_dim(int64_t d, int64_t ndim, bool wrap_scalar, int *out, TsError *err)
{
    if (ndim <= 0) {
        if (!wrap_scalar)
            return ts_error_set(err, TS_ERR_INDEX,
                                "Dimension specified as %lld but tensor has no dimensions",
                                (long long)d);
        ndim = 1;
    }
    if (d < -ndim || d >= ndim)
        return ts_error_set(err, TS_ERR_INDEX, "Dimension out of range (expected to be in range "
                            "of [%lld, %lld], but got %lld)", (long long)-ndim,
                            (long long)(ndim - 1), (long long)d);
    *out = (int)(d < 0 ? d + ndim : d);
    return 0;
}

void ts_aten_format_sizes(char *buf, size_t size, int dim, const int64_t *sizes)
{
    size_t n = (size_t)snprintf(buf, size, "[");
    for (int i = 0; i < dim && n < size; i++)
        n += (size_t)snprintf(buf + n, size - n, "%s%lld", i ? ", " : "", (long long)sizes[i]);
    if (n < size)
        n += (size_t)snprintf(buf + n, size - n, "]");
    if (n >= size && size >= 4)
        snprintf(buf + size - 4, 4, "...");
}

bool ts_aten_same_shape(const TsTensor *t, int dim, const int64_t *sizes)
{
    if (t->dim != dim)
        return false;
    for (int d = 0; d < dim; d++)
        if (t->sizes[d] != sizes[d])
            return false;
    return true;
}

int ts_aten_resize_out(TsTensor *out, int dim, const int64_t *sizes, TsAllocator *allocator,
                       TsError *err)
{
    if (ts_aten_same_shape(out, dim, sizes))
        return 0;
    int64_t strides[TS_TENSOR_MAX_DIMS], numel = 1;
    if (dim < 0 || dim > TS_TENSOR_MAX_DIMS || !ts_contiguous_strides(dim, sizes, strides))
        return ts_error_set(err, TS_ERR_RUNTIME, "the output shape is too large");
    for (int d = 0; d < dim; d++)
        numel *= sizes[d];
    size_t es = ts_dtype_size(out->dtype);
    if (es == 0 || (uint64_t)numel > SIZE_MAX / es)
        return ts_error_set(err, TS_ERR_RUNTIME, "the output shape is too large");
    size_t need = (size_t)numel * es;
    if (!out->storage || out->storage->nbytes < need ||
        (size_t)out->offset > (out->storage->nbytes - need) / es) {
        TsAllocator *a = out->storage && out->storage->allocator ? out->storage->allocator
                                                                 : allocator;
        if (!a)
            return ts_error_set(err, TS_ERR_RUNTIME, "no allocator to resize the out tensor");
        TsStorage *s = ts_storage_new(a, need, out->device, err);
        if (!s)
            return err->code;
        if (out->storage)
            ts_storage_release(out->storage);
        out->storage = s;
        out->offset = 0;
    }
    return ts_tensor_set_shape(out, dim, sizes, NULL, out->offset, err);
}
