/* join.c — cat and stack on the GPU: the result is allocated once and each input copied into
 * its narrowed view of it by the copy kernel, which converts dtypes and follows any strides,
 * so an input costs one launch. The checks, the dtype promotion and the skipping of 1-d
 * empty tensors (PyTorch's legacy rule) are aten-cpu's shape/join.c, with its messages.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/cuda.h"

/* The result's dtype and shape for n tensors joined along dim64; *ref NULL when every
 * input is a skipped 1-d empty one. */
static int cat_shape(TsError *err, size_t n, TsTensor *const *ts, int64_t dim64, int *dtype,
                     const TsTensor **ref, int *d, int64_t *sizes)
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

/* n tensors joined along dim64, or NULL with err set. */
static TsTensor *cat_tensors(TsError *err, size_t n, TsTensor *const *ts, int64_t dim64)
{
    int dtype = 0, d = 0;
    const TsTensor *ref = NULL;
    int64_t sizes[TS_TENSOR_MAX_DIMS];
    if (cat_shape(err, n, ts, dim64, &dtype, &ref, &d, sizes))
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

/* The tensors of Tensor[] argument i, borrowed, as a new array in *out. */
static int tensor_items(TsArgs *a, size_t i, TsTensor ***out, size_t *n)
{
    const TsList *l;
    *out = NULL;
    int rc = ts_args_tensor_list(a, i, &l);
    if (rc)
        return rc;
    TsTensor **ts = malloc(sizeof *ts * (l->len ? l->len : 1));
    if (!ts)
        return ts_error_set(a->call->error, TS_ERR_NOMEM, "%s: out of memory",
                            ts_args_op_name(a));
    for (size_t k = 0; k < l->len; k++)
        ts[k] = (TsTensor *)l->items[k].u.p;
    *n = l->len;
    *out = ts;
    return 0;
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
        rc = tensor_items(&a, 0, &ts, &n);
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
        rc = tensor_items(&a, 0, &ts, &n);
    if (!rc && n == 0)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "stack expects a non-empty TensorList");
    for (size_t i = 1; !rc && i < n; i++) {
        bool same = ts[i]->dim == ts[0]->dim;
        for (int k = 0; same && k < ts[0]->dim; k++)
            same = ts[i]->sizes[k] == ts[0]->sizes[k];
        if (!same) {
            char b1[256], b2[256];
            ts_aten_format_sizes(b1, sizeof b1, ts[0]->dim, ts[0]->sizes);
            ts_aten_format_sizes(b2, sizeof b2, ts[i]->dim, ts[i]->sizes);
            rc = ts_error_set(c->error, TS_ERR_RUNTIME, "stack expects each tensor to be equal "
                              "size, but got %s at entry 0 and %s at entry %zu", b1, b2, i);
        }
    }
    if (!rc)
        rc = ts_aten_wrap_dim(d64, (int64_t)ts[0]->dim + 1, true, &d, c->error);
    if (!rc && ts[0]->dim >= TS_TENSOR_MAX_DIMS)
        rc = ts_error_set(c->error, TS_ERR_LIMIT, "stack: a tensor has at most %d dimensions",
                          TS_TENSOR_MAX_DIMS);
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
