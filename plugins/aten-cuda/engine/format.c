/* format.c — printing a GPU tensor: its elements converted to float64 on the GPU, brought to
 * the host in one copy, and laid out by aten-common's formatter, whose footer then names
 * the backend as PyTorch's does ("[ CUDAFloatType{2,3} ]").
 */
#include <stdlib.h>

#include "tscript/print.h"

#include "engine/cuda.h"

static int format_tensor(TsTensor *t, TsBuf *out, TsError *err)
{
    int64_t n = ts_tensor_numel(t);
    double *v = NULL;
    if (n > 0 && ts_aten_promote_types(t->dtype, t->dtype) >= 0) {
        TsTensor *d = ts_cuda_cast(t, TS_FLOAT64, err);
        if (!d)
            return err->code;
        size_t nbytes = (size_t)n * sizeof *v;
        v = malloc(nbytes);
        int rc = v ? ts_cuda_allocator.copy(&ts_cuda_allocator, v, ts_tensor_data(d), nbytes,
                                            d->device, false, err)
                   : ts_error_set(err, TS_ERR_NOMEM, "out of memory printing a tensor");
        ts_tensor_release(d);
        if (rc) {
            free(v);
            return rc;
        }
    }
    int rc = ts_aten_format_values(v, t->dim, t->sizes, t->dtype, "CUDA", out, err);
    free(v);
    return rc;
}

/* tscript::format_tensor(Tensor self) -> str */
static int k_format_tensor(TsCall *c)
{
    TsArgs a;
    TsTensor *t;
    TsBuf b = TS_BUF_INIT;
    TsStr *str = NULL;
    int rc = ts_args_pop(c, TS_DEV_CUDA, &a);
    if (!rc)
        rc = ts_args_tensor(&a, 0, &t);
    if (!rc)
        rc = format_tensor(t, &b, c->error);
    if (!rc && !(str = ts_str_new(b.p ? b.p : "", b.len, c->error)))
        rc = c->error->code;
    ts_buf_free(&b);
    return ts_args_return(&a, rc, str ? ts_str_value(str) : ts_none());
}

static const TsCudaOp ops[] = {
    { TS_FORMAT_TENSOR_OP, "", k_format_tensor },
};

const TsCudaTable ts_cuda_format_table = { ops, sizeof ops / sizeof ops[0] };
