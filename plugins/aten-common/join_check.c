/* join_check.c — what cat and stack decide before any element moves, the same on every
 * backend: the result's dtype (the inputs' promoted), its shape, the skipping of 1-d empty
 * inputs (PyTorch's legacy rule), and the checks with PyTorch's messages. aten-cpu's and
 * aten-cuda's shape/join.c allocate the result and copy the inputs into it.
 */
#include <string.h>

#include "tscript/aten.h"

int ts_aten_cat_shape(size_t n, TsTensor *const *ts, int64_t dim64, int *dtype,
                      const TsTensor **ref, int *d, int64_t *sizes, TsError *err)
{
    if (n == 0)
        return ts_error_set(err, TS_ERR_RUNTIME, "torch.cat(): expected a non-empty list of "
                            "Tensors");
    *dtype = ts[0]->dtype;
    *ref = NULL;
    for (size_t i = 0; i < n; i++) {
        if (ts[i]->dim == 0)
            return ts_error_set(err, TS_ERR_RUNTIME, "zero-dimensional tensor (at position %zu) "
                                "cannot be concatenated", i);
        *dtype = ts_aten_promote_types(*dtype, ts[i]->dtype);
        if (*dtype < 0)
            return ts_error_set(err, TS_ERR_RUNTIME, "torch.cat(): unsupported dtype %s",
                                ts_dtype_name(ts[i]->dtype));
        if (!*ref && !(ts[i]->dim == 1 && ts[i]->sizes[0] == 0))
            *ref = ts[i];
    }
    if (!*ref)
        return 0;
    const TsTensor *r = *ref;
    if (ts_aten_wrap_dim(dim64, r->dim, false, d, err))
        return err->code;
    memcpy(sizes, r->sizes, sizeof sizes[0] * (size_t)r->dim);
    sizes[*d] = 0;
    for (size_t i = 0; i < n; i++) {
        const TsTensor *t = ts[i];
        if (t->dim == 1 && t->sizes[0] == 0)
            continue;
        if (t->dim != r->dim)
            return ts_error_set(err, TS_ERR_RUNTIME, "Tensors must have same number of "
                                "dimensions: got %d and %d", r->dim, t->dim);
        for (int k = 0; k < t->dim; k++)
            if (k != *d && t->sizes[k] != r->sizes[k])
                return ts_error_set(err, TS_ERR_RUNTIME, "Sizes of tensors must match except in "
                                    "dimension %d. Expected size %lld but got size %lld for "
                                    "tensor number %zu in the list.", *d,
                                    (long long)r->sizes[k], (long long)t->sizes[k], i);
        if (__builtin_add_overflow(sizes[*d], t->sizes[*d], &sizes[*d]))
            return ts_error_set(err, TS_ERR_LIMIT, "torch.cat(): the result is too large");
    }
    return 0;
}

int ts_aten_stack_check(size_t n, TsTensor *const *ts, int64_t dim64, int *d, TsError *err)
{
    if (n == 0)
        return ts_error_set(err, TS_ERR_RUNTIME, "stack expects a non-empty TensorList");
    for (size_t i = 1; i < n; i++) {
        bool same = ts[i]->dim == ts[0]->dim;
        for (int k = 0; same && k < ts[0]->dim; k++)
            same = ts[i]->sizes[k] == ts[0]->sizes[k];
        if (!same) {
            char b1[256], b2[256];
            ts_aten_format_sizes(b1, sizeof b1, ts[0]->dim, ts[0]->sizes);
            ts_aten_format_sizes(b2, sizeof b2, ts[i]->dim, ts[i]->sizes);
            return ts_error_set(err, TS_ERR_RUNTIME, "stack expects each tensor to be equal "
                                "size, but got %s at entry 0 and %s at entry %zu", b1, b2, i);
        }
    }
    if (ts_aten_wrap_dim(dim64, (int64_t)ts[0]->dim + 1, true, d, err))
        return err->code;
    if (ts[0]->dim >= TS_TENSOR_MAX_DIMS)
        return ts_error_set(err, TS_ERR_LIMIT, "stack: a tensor has at most %d dimensions",
                            TS_TENSOR_MAX_DIMS);
    return 0;
}
