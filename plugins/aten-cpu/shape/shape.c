/* shape.c — questions about a tensor's shape (size, dim, numel, storage offset) and its
 * requires_grad flag.
 *
 * They read only metadata, but are registered for "cpu" (like PyTorch's, they are
 * device-specific kernels of aten ops); dimension indices wrap like Python's, with
 * PyTorch's IndexError messages.
 */
#include "shape/shape_ops.h"

/* A question answered by one int of a tensor's metadata. */
static int int_query(TsCall *c, int64_t (*get)(const TsTensor *t))
{
    TsArgs a;
    TsTensor *t;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    return ts_args_return(&a, rc, ts_int(rc ? 0 : get(t)));
}

static int64_t dim_of(const TsTensor *t) { return t->dim; }
static int64_t offset_of(const TsTensor *t) { return t->offset; }   /* in elements */

/* aten::dim(Tensor self) -> int */
static int k_dim(TsCall *c) { return int_query(c, dim_of); }
/* aten::numel(Tensor self) -> int */
static int k_numel(TsCall *c) { return int_query(c, ts_tensor_numel); }
/* aten::storage_offset(Tensor self) -> int */
static int k_storage_offset(TsCall *c) { return int_query(c, offset_of); }

/* aten::size(Tensor self) -> int[] */
static int k_sizes(TsCall *c)
{
    TsArgs a;
    TsTensor *t;
    TsList *l = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc && (l = ts_list_new(ts_type_int(), (size_t)t->dim, c->error)))
        for (int i = 0; i < t->dim; i++)
            l->items[l->len++] = ts_int(t->sizes[i]);
    return ts_args_return_list(&a, rc, l);
}

/* aten::size.int(Tensor self, int dim) -> int */
static int k_size(TsCall *c)
{
    TsArgs a;
    TsTensor *t;
    int64_t d, n = 0, size = 0;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_int(&a, 1, &d);
    if (!rc)
        n = t->dim;
    if (!rc && n == 0)
        rc = ts_error_set(c->error, TS_ERR_INDEX,
                          "Dimension specified as %lld but tensor has no dimensions",
                          (long long)d);
    else if (!rc && (d < -n || d >= n))
        rc = ts_error_set(c->error, TS_ERR_INDEX,
                          "Dimension out of range (expected to be in range of [%lld, %lld], "
                          "but got %lld)", (long long)-n, (long long)(n - 1), (long long)d);
    if (!rc)
        size = t->sizes[d < 0 ? d + n : d];
    return ts_args_return(&a, rc, ts_int(size));
}

/* aten::requires_grad_(Tensor(a!) self, bool requires_grad=True) -> Tensor(a!) */
static int k_requires_grad_(TsCall *c)
{
    TsArgs a;
    TsTensor *t;
    bool on;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_bool(&a, 1, &on);
    if (!rc && on && !ts_dtype_is_floating(t->dtype) && !ts_dtype_is_complex(t->dtype))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "only Tensors of floating point dtype "
                          "can require gradients");
    if (!rc)
        t->requires_grad = on;
    return ts_args_return_arg(&a, rc, 0);
}

static const TsCpuOp ops[] = {
    { "aten::dim", "", k_dim },
    { "aten::numel", "", k_numel },
    { "aten::storage_offset", "", k_storage_offset },
    { "aten::requires_grad_", "", k_requires_grad_ },
    { "aten::size", "", k_sizes },
    { "aten::size", "int", k_size },
};

const TsCpuTable ts_cpu_shape_table = { ops, sizeof ops / sizeof ops[0] };
