/* index.c — index_select and gather on the GPU: one launch of the take kernel
 * (take_kernels.cu) reading the source where it lies, after aten-common's index_check.c
 * checks (aten-cpu's shape/index.c makes the same). An index out of range is reported after
 * the launch (the kernel flags it), and the partly written result is dropped.
 */
#include "shape/take.h"

/* Fills the take's shape fields from the output's sizes (dim 0 taken as one element). */
static int take_shape(TsCudaTake *tk, const TsTensor *src, int d, int dim, const int64_t *sizes,
                      TsError *err)
{
    if (dim > TS_CUDA_TAKE_MAX_DIMS)
        return ts_error_set(err, TS_ERR_LIMIT, "aten-cuda: indexing a tensor of %d dimensions "
                            "(at most %d)", dim, TS_CUDA_TAKE_MAX_DIMS);
    tk->src = ts_tensor_data(src);
    tk->elem = (int64_t)ts_dtype_size(src->dtype);
    tk->dim = dim ? dim : 1;
    tk->d = d;
    tk->size = src->dim ? src->sizes[d] : 1;
    tk->numel = 1;
    for (int k = 0; k < tk->dim; k++) {
        tk->sizes[k] = dim ? sizes[k] : 1;
        tk->strides[k] = src->dim ? src->strides[k] : 0;
        tk->numel *= tk->sizes[k];
    }
    return 0;
}

/* Runs tk into a new tensor of src's dtype and this shape; idx is the contiguous int64
 * index (owned, released). */
static TsTensor *take(TsCudaTake *tk, const TsTensor *src, TsTensor *idx, int dim,
                      const int64_t *sizes, bool gather, TsError *err)
{
    TsTensor *r = idx ? ts_cuda_empty_on(src->device, src->dtype, dim, sizes, err) : NULL;
    bool bad = false;
    int64_t bad_index = 0;
    int rc = r ? 0 : (int)err->code;
    if (!rc) {
        tk->out = ts_tensor_data(r);
        tk->index = ts_tensor_data(idx);
        rc = ts_cuda_launch_take(tk, &bad, &bad_index, err);
    }
    if (!rc && bad && gather)
        rc = ts_error_set(err, TS_ERR_RUNTIME, "index %lld is out of bounds for dimension %d "
                          "with size %lld", (long long)bad_index, tk->d, (long long)tk->size);
    else if (!rc && bad)
        rc = ts_error_set(err, TS_ERR_INDEX, "index out of range in self");
    if (idx)
        ts_tensor_release(idx);
    if (rc && r) {
        ts_tensor_release(r);
        r = NULL;
    }
    return r;
}

/* Takes from t along d with index ix into a new tensor of dim/sizes (gather: one index per
 * output element; index_select: one per slice). */
static int run_take(TsCall *c, TsTensor *t, int d, TsTensor *ix, int dim, const int64_t *sizes,
                    bool gather, TsTensor **r)
{
    TsCudaTake tk = { 0 };
    tk.per_element = gather;
    int rc = ts_cuda_use_device(t->device, c->error);
    if (!rc)
        rc = take_shape(&tk, t, d, dim, sizes, c->error);
    if (!rc && !(*r = take(&tk, t, ts_cuda_contiguous_as(ix, TS_INT64, c->error), dim, sizes,
                           gather, c->error)))
        rc = c->error->code;
    return rc;
}

/* The arguments both take: self (0), dim (1), index (2). */
static int take_args(TsArgs *a, TsTensor **t, int *d, TsTensor **ix)
{
    int rc = ts_args_tensor(a, 0, t);
    if (!rc)
        rc = ts_args_tensor(a, 2, ix);
    if (!rc)
        rc = ts_args_dim(a, 1, (*t)->dim, true, d);
    return rc;
}

/* aten::gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor */
static int k_gather(TsCall *c)
{
    TsArgs a;
    int d = 0;
    TsTensor *t = NULL, *ix = NULL, *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CUDA, &a);
    if (!rc)
        rc = take_args(&a, &t, &d, &ix);
    if (!rc)
        rc = ts_aten_check_gather(t, d, ix, c->error);
    if (!rc)
        rc = run_take(c, t, d, ix, ix->dim, ix->sizes, true, &r);
    return ts_args_return_tensor(&a, rc, r);
}

/* aten::index_select(Tensor self, int dim, Tensor index) -> Tensor */
static int k_index_select(TsCall *c)
{
    TsArgs a;
    int d = 0;
    TsTensor *t = NULL, *ix = NULL, *r = NULL;
    int64_t sizes[TS_TENSOR_MAX_DIMS];
    int rc = ts_args_pop(c, TS_DEV_CUDA, &a);
    if (!rc)
        rc = take_args(&a, &t, &d, &ix);
    if (!rc)
        rc = ts_aten_index_select_shape(t, d, ix, sizes, c->error);
    if (!rc)
        rc = run_take(c, t, d, ix, t->dim, sizes, false, &r);
    return ts_args_return_tensor(&a, rc, r);
}

static const TsCudaOp ops[] = {
    { "aten::gather", "", k_gather },
    { "aten::index_select", "", k_index_select },
};

const TsCudaTable ts_cuda_index_table = { ops, sizeof ops / sizeof ops[0] };
