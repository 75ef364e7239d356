/* join.c — cat and stack on the GPU: the result is allocated once and each input copied into
 * its narrowed view of it by the copy kernel, which converts dtypes and follows any strides,
 * so an input costs one launch. The checks, the dtype promotion and the skipping of 1-d
 * empty tensors (PyTorch's legacy rule) are aten-common's join_check.c, as for aten-cpu.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/cuda.h"

/* n tensors joined along dim64, or NULL with err set. */
static TsTensor *cat_tensors(TsError *err, size_t n, TsTensor *const *ts, int64_t dim64)
{
    int dtype = 0, d = 0;
    const TsTensor *ref = NULL;
    int64_t sizes[TS_TENSOR_MAX_DIMS];
    if (ts_aten_cat_shape(n, ts, dim64, &dtype, &ref, &d, sizes, err))
        return NULL;
    if (!ref) {
        int64_t zero = 0;
        return ts_cuda_empty_on(ts[0]->device, dtype, 1, &zero, err);
    }
    if (ts_cuda_use_device(ref->device, err))
        return NULL;
    TsTensor *out = ts_cuda_empty_on(ref->device, dtype, ref->dim, sizes, err);
    int64_t start = 0;
    for (size_t i = 0; out && i < n; i++) {
        const TsTensor *t = ts[i];
        if ((t->dim == 1 && t->sizes[0] == 0) || t->sizes[d] == 0)
            continue;
        TsTensor *part = ts_aten_narrow(out, d, start, t->sizes[d], 1, err);
        int rc = part ? ts_cuda_copy_into(part, t, err) : (int)err->code;
        if (part)
            ts_tensor_release(part);
        if (rc) {
            ts_tensor_release(out);
            return NULL;
        }
        start += t->sizes[d];
    }
    return out;
}

/* aten::cat(Tensor[] tensors, int dim=0) -> Tensor, and the out= form (out_form). */
static int cat(TsCall *c, bool out_form)
{
    TsArgs a;
    int64_t d = 0;
    size_t n = 0;
    TsTensor *out = NULL, *r = NULL, **ts = NULL;
    int rc = ts_args_pop(c, TS_DEV_CUDA, &a);
    if (!rc && out_form)
        rc = ts_args_tensor(&a, 2, &out);
    if (!rc)
        rc = ts_args_int(&a, 1, &d);
    if (!rc)
        rc = ts_args_tensor_array(&a, 0, &ts, &n);
    if (!rc && !(r = cat_tensors(c->error, n, ts, d)))
        rc = c->error->code;
    free(ts);
    if (!out_form)
        return ts_args_return_tensor(&a, rc, r);
    if (!rc && !ts_aten_can_cast(r->dtype, out->dtype))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "torch.cat(): input types can't be cast to "
                          "the desired output type %s", ts_dtype_type_name(out->dtype));
    if (!rc)
        rc = ts_aten_resize_out(out, r->dim, r->sizes, &ts_cuda_allocator, c->error);
    if (!rc)
        rc = ts_cuda_copy_into(out, r, c->error);
    if (r)
        ts_tensor_release(r);
    return ts_args_return_arg(&a, rc, 2);
}

static int k_cat(TsCall *c) { return cat(c, false); }
static int k_cat_out(TsCall *c) { return cat(c, true); }

/* aten::stack(Tensor[] tensors, int dim=0) -> Tensor: cat of the inputs unsqueezed at dim. */
static int k_stack(TsCall *c)
{
    TsArgs a;
    int64_t d64 = 0;
    size_t n = 0, made = 0;
    int d = 0;
    TsTensor *r = NULL, **ts = NULL, **views = NULL;
    int rc = ts_args_pop(c, TS_DEV_CUDA, &a);
    if (!rc)
        rc = ts_args_int(&a, 1, &d64);
    if (!rc)
        rc = ts_args_tensor_array(&a, 0, &ts, &n);
    if (!rc)
        rc = ts_aten_stack_check(n, ts, d64, &d, c->error);
    if (!rc && !(views = malloc(sizeof *views * n)))
        rc = ts_error_set(c->error, TS_ERR_NOMEM, "%s: out of memory", ts_args_op_name(&a));
    for (; !rc && made < n; made++) {
        const TsTensor *t = ts[made];
        int64_t sizes[TS_TENSOR_MAX_DIMS], strides[TS_TENSOR_MAX_DIMS];
        for (int k = 0, j = 0; k <= t->dim; k++) {
            sizes[k] = k == d ? 1 : t->sizes[j];
            strides[k] = k == d ? 1 : t->strides[j++];
        }
        if (!(views[made] = ts_aten_view(t, t->dim + 1, sizes, strides, t->offset, c->error)))
            rc = c->error->code;
    }
    if (!rc && !(r = cat_tensors(c->error, n, views, d)))
        rc = c->error->code;
    for (size_t i = 0; i < made; i++)
        if (views[i])
            ts_tensor_release(views[i]);
    free(views);
    free(ts);
    return ts_args_return_tensor(&a, rc, r);
}

static const TsCudaOp ops[] = {
    { "aten::cat", "", k_cat },
    { "aten::cat", "out", k_cat_out },
    { "aten::stack", "", k_stack },
};

const TsCudaTable ts_cuda_join_table = { ops, sizeof ops / sizeof ops[0] };
