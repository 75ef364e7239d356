/* iter.c — the elementwise iteration the GPU kernels walk (TsCudaIter, cuda.h).
 *
 * The host does the shape work once per call so that a GPU thread does only index
 * arithmetic: inputs are broadcast to the output's shape (stride 0 along a broadcast dim),
 * size-1 dims are dropped, and neighbouring dims that are contiguous in every operand merge
 * into one. Most calls end with one flat dim, which the kernels index directly.
 */
#include <string.h>

#include "engine/cuda.h"

int ts_cuda_iter_init(TsCudaIter *it, int nop, TsTensor *const *t, TsError *err)
{
    if (nop < 1 || nop > TS_CUDA_MAX_OPERANDS)
        return ts_error_set(err, TS_ERR_USAGE, "aten-cuda: %d operands (at most %d)", nop,
                            TS_CUDA_MAX_OPERANDS);
    memset(it, 0, sizeof *it);
    it->nop = nop;
    const TsTensor *out = t[0];
    int ndim = out->dim;
    it->numel = ts_tensor_numel(out);
    for (int k = 0; k < nop; k++) {
        it->data[k] = ts_tensor_data(t[k]);
        it->dtype[k] = t[k]->dtype;
        if (t[k]->dim > ndim)
            return ts_error_set(err, TS_ERR_USAGE, "aten-cuda: an input has more dims than "
                                "the output");
    }
    if (ts_cuda_use_device(out->device, err))
        return err->code;

    /* Strides of every operand along the output's dims, innermost last; broadcast dims and
     * size-1 dims left out. */
    int64_t sizes[TS_TENSOR_MAX_DIMS], strides[TS_CUDA_MAX_OPERANDS][TS_TENSOR_MAX_DIMS];
    int n = 0;
    for (int d = 0; d < ndim; d++) {
        int64_t size = out->sizes[d];
        if (size == 1)
            continue;
        for (int k = 0; k < nop; k++) {
            int kd = d - (ndim - t[k]->dim);
            strides[k][n] = kd < 0 || t[k]->sizes[kd] == 1 ? 0 : t[k]->strides[kd];
        }
        sizes[n++] = size;
    }
    /* Merge dim i into dim i + 1 (outer into inner) where every operand steps over the inner
     * one exactly: stride[i] == stride[i + 1] * size[i + 1]. */
    int m = 0;
    int64_t msizes[TS_TENSOR_MAX_DIMS], mstrides[TS_CUDA_MAX_OPERANDS][TS_TENSOR_MAX_DIMS];
    for (int d = 0; d < n; d++) {
        if (m > 0) {
            bool merge = true;
            for (int k = 0; k < nop && merge; k++)
                merge = mstrides[k][m - 1] == strides[k][d] * sizes[d];
            if (merge) {
                msizes[m - 1] *= sizes[d];
                for (int k = 0; k < nop; k++)
                    mstrides[k][m - 1] = strides[k][d];
                continue;
            }
        }
        msizes[m] = sizes[d];
        for (int k = 0; k < nop; k++)
            mstrides[k][m] = strides[k][d];
        m++;
    }
    if (m == 0) {              /* one element, or none */
        m = 1;
        msizes[0] = it->numel;
        for (int k = 0; k < nop; k++)
            mstrides[k][0] = 1;
    }
    if (m > TS_CUDA_MAX_DIMS)
        return ts_error_set(err, TS_ERR_RUNTIME, "aten-cuda: an elementwise operation over "
                            "%d dimensions that do not merge (at most %d)", m, TS_CUDA_MAX_DIMS);
    it->dim = m;
    memcpy(it->sizes, msizes, (size_t)m * sizeof msizes[0]);
    bool flat = m == 1;
    for (int k = 0; k < nop; k++) {
        memcpy(it->strides[k], mstrides[k], (size_t)m * sizeof mstrides[k][0]);
        flat = flat && mstrides[k][0] == 1;
    }
    it->flat = flat;
    return 0;
}
