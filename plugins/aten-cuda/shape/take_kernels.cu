/* take_kernels.cu — the kernel of index_select and gather (take.h): a thread per output
 * element splits its linear index into coordinates, swaps in the index along d, and copies
 * one element of the source. Elements move as unsigned integers of their width, so one
 * instantiation serves every dtype of that size.
 *
 * A bad index cannot raise from the GPU: the thread records it in a two-word flag, and the
 * launcher reads the flag back (a wait on the stream) so the host can report it.
 */
#include "engine/types.cuh"
#include "shape/take.h"

namespace {

using namespace ts_cuda;

template <typename E> __global__ void take(TsCudaTake t, unsigned long long *flag)
{
    const E *src = (const E *)t.src;
    E *out = (E *)t.out;
    TS_CUDA_GRID_STRIDE(e, t.numel) {
        int64_t rest = e, off = 0, along = 0;
        for (int k = t.dim - 1; k >= 0; k--) {
            int64_t c = rest % t.sizes[k];
            rest /= t.sizes[k];
            if (k == t.d)
                along = c;
            else
                off += c * t.strides[k];
        }
        int64_t i = t.index[t.per_element ? e : along];
        if (i < 0 || i >= t.size) {
            flag[1] = (unsigned long long)i;
            flag[0] = 1;
            continue;
        }
        out[e] = src[off + i * t.strides[t.d]];
    }
}

} // namespace

extern "C" int ts_cuda_launch_take(const TsCudaTake *t, bool *bad, int64_t *bad_index,
                                   TsError *err)
{
    *bad = false;
    if (t->numel == 0)
        return 0;
    int64_t two = 2;
    TsTensor *flag = ts_cuda_empty(TS_INT64, 1, &two, err);
    if (!flag)
        return err->code;
    unsigned long long *f = (unsigned long long *)ts_tensor_data(flag);
    unsigned long long host[2] = { 0, 0 };
    int rc = ts_cuda_check(cudaMemsetAsync(f, 0, sizeof host, TS_CUDA_STREAM), "take", err);
    if (!rc) {
        unsigned blocks = grid_for(t->numel);
        switch (t->elem) {
        case 1: take<uint8_t><<<blocks, 256, 0, TS_CUDA_STREAM>>>(*t, f); break;
        case 2: take<uint16_t><<<blocks, 256, 0, TS_CUDA_STREAM>>>(*t, f); break;
        case 4: take<uint32_t><<<blocks, 256, 0, TS_CUDA_STREAM>>>(*t, f); break;
        default: take<uint64_t><<<blocks, 256, 0, TS_CUDA_STREAM>>>(*t, f); break;
        }
        rc = launched("index kernel", err);
    }
    if (!rc)
        rc = ts_cuda_check(cudaMemcpyAsync(host, f, sizeof host, cudaMemcpyDeviceToHost,
                                           TS_CUDA_STREAM), "take", err);
    if (!rc)
        rc = ts_cuda_sync(err);
    ts_tensor_release(flag);
    *bad = host[0] != 0;
    *bad_index = (int64_t)host[1];
    return rc;
}
