/* index_check.c — what gather and index_select check and how they shape their result, the
 * same on every backend, with PyTorch's messages. aten-cpu's and aten-cuda's shape/index.c
 * read the elements (and report an index out of range themselves, as they find it).
 */
#include <string.h>

#include "tscript/aten.h"

int ts_aten_check_gather(const TsTensor *t, int d, const TsTensor *ix, TsError *err)
{
    int sd = t->dim ? t->dim : 1, id = ix->dim ? ix->dim : 1;
    if (ix->dtype != TS_INT64)
        return ts_error_set(err, TS_ERR_RUNTIME, "gather(): Expected dtype int64 for index");
    if (ts_tensor_numel(ix) > 0 && sd != id)
        return ts_error_set(err, TS_ERR_RUNTIME,
                            "Index tensor must have the same number of dimensions as input "
                            "tensor");
    for (int k = 0; k < ix->dim && k < t->dim; k++)
        if (k != d && ix->sizes[k] > t->sizes[k]) {
            char b1[256], b2[256];
            ts_aten_format_sizes(b1, sizeof b1, ix->dim, ix->sizes);
            ts_aten_format_sizes(b2, sizeof b2, t->dim, t->sizes);
            return ts_error_set(err, TS_ERR_RUNTIME, "Size does not match at dimension %d "
                                "expected index %s to be smaller than self %s apart from "
                                "dimension %d", k, b1, b2, d);
        }
    return 0;
}

int ts_aten_index_select_shape(const TsTensor *t, int d, const TsTensor *ix, int64_t *sizes,
                               TsError *err)
{
    if (ix->dtype != TS_INT64 && ix->dtype != TS_INT32)
        return ts_error_set(err, TS_ERR_RUNTIME,
                            "index_select(): Expected dtype int32 or int64 for index");
    if (ix->dim > 1)
        return ts_error_set(err, TS_ERR_INDEX, "index_select(): Index is supposed to be a "
                            "vector");
    int64_t n = ts_tensor_numel(ix);
    if (t->dim == 0 && n != 1)
        return ts_error_set(err, TS_ERR_INDEX, "index_select(): Index to scalar can have only 1 "
                            "value, got %lld value(s)", (long long)n);
    memcpy(sizes, t->sizes, sizeof sizes[0] * (size_t)t->dim);
    if (t->dim)
        sizes[d] = n;
    return 0;
}
