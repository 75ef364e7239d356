/* memory_format.c — PyTorch's memory formats as strides: contiguous (row-major),
 * channels_last (rank 4, NHWC in memory) and channels_last_3d (rank 5, NDHWC), and whether
 * a tensor is laid out in one.
 *
 * A layout test skips size-1 dims, whose stride nothing reads, as PyTorch's
 * is_contiguous(memory_format=...) does: a [1, 1, 3, 4] row-major tensor is channels-last
 * too, and contiguous(memory_format=torch.channels_last) returns it unchanged. New
 * channels-last strides count a size-0 or size-1 dim as 1 (PyTorch's
 * get_channels_last_strides), so they are never 0.
 */
#include "tscript/aten.h"

/* The dims of a rank-4 or rank-5 tensor from innermost to outermost in channels-last
 * order: C, then the spatial dims from the last, then N. */
static void channels_last_order(int rank, int *order)
{
    order[0] = 1;
    for (int k = 1; k < rank - 1; k++)
        order[k] = rank - k;
    order[rank - 1] = 0;
}

int ts_aten_format_strides(int64_t mf, int dim, const int64_t *sizes, int64_t *strides,
                           TsError *err)
{
    if (mf == TS_ATEN_MF_CONTIGUOUS) {
        int64_t s = 1;
        for (int d = dim - 1; d >= 0; d--) {
            strides[d] = s;
            s *= sizes[d] > 1 ? sizes[d] : 1;
        }
        return 0;
    }
    if (mf != TS_ATEN_MF_CHANNELS_LAST && mf != TS_ATEN_MF_CHANNELS_LAST_3D)
        return ts_error_set(err, TS_ERR_RUNTIME, "unsupported memory format %lld",
                            (long long)mf);
    int rank = mf == TS_ATEN_MF_CHANNELS_LAST ? 4 : 5;
    if (dim != rank)
        return ts_error_set(err, TS_ERR_RUNTIME, "required rank %d tensor to use %s format",
                            rank, rank == 4 ? "channels_last" : "channels_last_3d");
    int order[5];
    channels_last_order(rank, order);
    int64_t s = 1;
    for (int k = 0; k < rank; k++) {
        strides[order[k]] = s;
        s *= sizes[order[k]] > 1 ? sizes[order[k]] : 1;
    }
    return 0;
}

bool ts_aten_is_contiguous_as(const TsTensor *t, int64_t mf)
{
    if (mf == TS_ATEN_MF_CONTIGUOUS)
        return ts_tensor_is_contiguous(t);
    int rank = mf == TS_ATEN_MF_CHANNELS_LAST ? 4 : mf == TS_ATEN_MF_CHANNELS_LAST_3D ? 5 : 0;
    if (!rank || t->dim != rank)
        return false;
    if (ts_tensor_numel(t) == 0)
        return true;
    int order[5];
    channels_last_order(rank, order);
    int64_t want = 1;
    for (int k = 0; k < rank; k++) {
        int d = order[k];
        if (t->sizes[d] != 1 && t->strides[d] != want)
            return false;
        want *= t->sizes[d];
    }
    return true;
}
