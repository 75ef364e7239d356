/* shape.c — questions about a tensor's shape (size, dim, numel, storage offset) and its
 * requires_grad flag.
 *
 * They read only metadata, but are registered for "cpu" (like PyTorch's, they are
 * device-specific kernels of aten ops); dimension indices wrap like Python's, with
 * PyTorch's IndexError messages.
 */
#include "engine/cpu.h"

/* Pops one tensor argument; NULL with err on a wrong value (then nothing is left owned). */
static TsTensor *pop_self(TsCall *c, const char *op, TsValue *self)
{
    ts_cpu_pop_args(c, 1, self);
    TsTensor *t = ts_cpu_tensor_arg(c, op, "self", *self);
    if (!t)
        ts_value_release(*self);
    return t;
}

/* A question answered by one int of a tensor's metadata. */
static int int_query(TsCall *c, const char *op, int64_t (*get)(const TsTensor *t))
{
    TsValue self;
    TsTensor *t = pop_self(c, op, &self);
    if (!t)
        return c->error->code;
    int64_t v = get(t);
    ts_value_release(self);
    return ts_stack_push(c->stack, ts_int(v), c->error);
}

static int64_t dim_of(const TsTensor *t) { return t->dim; }
static int64_t offset_of(const TsTensor *t) { return t->offset; }   /* in elements */

/* aten::dim(Tensor self) -> int */
static int k_dim(TsCall *c) { return int_query(c, "aten::dim", dim_of); }
/* aten::numel(Tensor self) -> int */
static int k_numel(TsCall *c) { return int_query(c, "aten::numel", ts_tensor_numel); }
/* aten::storage_offset(Tensor self) -> int */
static int k_storage_offset(TsCall *c) { return int_query(c, "aten::storage_offset", offset_of); }

/* aten::size(Tensor self) -> int[] */
static int k_sizes(TsCall *c)
{
    TsValue self;
    TsTensor *t = pop_self(c, "aten::size", &self);
    if (!t)
        return c->error->code;
    TsList *l = ts_list_new(ts_type_int(), (size_t)t->dim, c->error);
    for (int i = 0; l && i < t->dim; i++)
        l->items[l->len++] = ts_int(t->sizes[i]);
    ts_value_release(self);
    return l ? ts_stack_push(c->stack, ts_obj_value(l, TS_TAG_LIST), c->error) : (int)c->error->code;
}

/* aten::size.int(Tensor self, int dim) -> int */
static int k_size(TsCall *c)
{
    TsValue a[2];
    ts_cpu_pop_args(c, 2, a);
    TsTensor *t = ts_cpu_tensor_arg(c, "aten::size", "self", a[0]);
    int rc = t ? 0 : (int)c->error->code;
    int64_t d = a[1].u.i, n = t ? t->dim : 0, size = 0;
    if (!rc && a[1].tag != TS_TAG_INT)
        rc = ts_error_set(c->error, TS_ERR_TYPE, "aten::size: argument 'dim' must be an int");
    else if (!rc && n == 0)
        rc = ts_error_set(c->error, TS_ERR_INDEX,
                          "Dimension specified as %lld but tensor has no dimensions",
                          (long long)d);
    else if (!rc && (d < -n || d >= n))
        rc = ts_error_set(c->error, TS_ERR_INDEX,
                          "Dimension out of range (expected to be in range of [%lld, %lld], "
                          "but got %lld)", (long long)-n, (long long)(n - 1), (long long)d);
    if (!rc)
        size = t->sizes[d < 0 ? d + n : d];
    ts_cpu_release_args(2, a);
    return rc ? rc : ts_stack_push(c->stack, ts_int(size), c->error);
}

/* aten::requires_grad_(Tensor(a!) self, bool requires_grad=True) -> Tensor(a!) */
static int k_requires_grad_(TsCall *c)
{
    TsValue a[2];
    ts_cpu_pop_args(c, 2, a);
    TsTensor *t = ts_cpu_tensor_arg(c, "aten::requires_grad_", "self", a[0]);
    if (!t)
        return c->error->code;
    if (a[1].u.b && !ts_dtype_is_floating(t->dtype) && !ts_dtype_is_complex(t->dtype)) {
        ts_value_release(a[0]);
        return ts_error_set(c->error, TS_ERR_RUNTIME, "only Tensors of floating point dtype "
                            "can require gradients");
    }
    t->requires_grad = a[1].u.b;
    return ts_stack_push(c->stack, a[0], c->error);
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
