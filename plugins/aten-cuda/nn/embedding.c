/* embedding.c — aten::embedding on the GPU: the rows of weight its indices name, gathered by
 * embedding_kernels.cu into a new tensor of the indices' shape plus the row width.
 *
 * PyTorch raises "index out of range in self" for an index outside the weight's rows; the
 * check needs every index on the host, and a GPU kernel cannot raise, so here such an index
 * gives a row of zeros instead (PyTorch's CUDA kernel stops on a device-side assert).
 * padding_idx, scale_grad_by_freq and sparse only matter for gradients.
 */
#include <string.h>

#include "nn/nn.h"

/* aten::embedding(Tensor weight, Tensor indices, int padding_idx=-1,
 *                 bool scale_grad_by_freq=False, bool sparse=False) -> Tensor */
static int k_embedding(TsCall *c)
{
    TsArgs a;
    TsTensor *w, *idx, *ci = NULL, *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CUDA, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &w);
    if (!rc) rc = ts_args_tensor(&a, 1, &idx);
    if (!rc && w->dim != 2)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "'weight' must be 2-D");
    if (!rc && idx->dtype != TS_INT64 && idx->dtype != TS_INT32)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Expected tensor for argument #1 'indices' "
                          "to have one of the following scalar types: Long, Int; but got "
                          "torch.cuda.%sTensor instead (while checking arguments for embedding)",
                          ts_dtype_type_name(idx->dtype));
    if (!rc && idx->dim + 1 > TS_TENSOR_MAX_DIMS)
        rc = ts_error_set(c->error, TS_ERR_LIMIT, "embedding: too many dimensions");
    if (!rc) rc = ts_cuda_use_device(w->device, c->error);
    if (!rc && !(ci = ts_cuda_contiguous_as(idx, idx->dtype, c->error)))
        rc = c->error->code;
    if (!rc) {
        int64_t sizes[TS_TENSOR_MAX_DIMS];
        memcpy(sizes, idx->sizes, (size_t)idx->dim * sizeof *sizes);
        sizes[idx->dim] = w->sizes[1];
        if (!(r = ts_cuda_empty(w->dtype, idx->dim + 1, sizes, c->error)))
            rc = c->error->code;
    }
    if (!rc)
        rc = ts_cuda_launch_embedding(w->dtype, ts_tensor_data(w), w->sizes[0], w->sizes[1],
                                      w->strides[0], w->strides[1], ts_tensor_data(ci),
                                      ci->dtype, ts_tensor_numel(ci), ts_tensor_data(r),
                                      c->error);
    if (ci)
        ts_tensor_release(ci);
    return ts_args_return_tensor(&a, rc, r);
}

static const TsCudaOp ops[] = {
    { "aten::embedding", "", k_embedding },
};

const TsCudaTable ts_cuda_embedding_table = { ops, sizeof ops / sizeof ops[0] };
