/* resize.c — Tensor.resize_ and resize_as_: self takes new sizes (contiguous strides, or a
 * memory format's), keeping its elements in storage order.
 *
 * Where the storage is too small for the new sizes it grows, the old bytes kept at the
 * front and the new ones uninitialized, as PyTorch's resize_ does. PyTorch grows the storage
 * object itself, so views of the old storage see the new one too; here self moves to a new
 * storage holding a copy, and other views keep the old (the elements self had are in both).
 */
#include <string.h>

#include "shape/shape_ops.h"

/* self resized to sizes (dim of them) in memory format mf (has_mf: one was given; without
 * one, sizes self already has leave it as it is, strides included). */
static int resize_to(TsCall *c, TsTensor *self, int dim, const int64_t *sizes, int64_t mf,
                     bool has_mf)
{
    if (!has_mf && ts_aten_same_shape(self, dim, sizes))
        return 0;
    int64_t strides[TS_TENSOR_MAX_DIMS], numel = 1;
    for (int d = 0; d < dim; d++) {
        if (sizes[d] < 0)
            return ts_error_set(c->error, TS_ERR_RUNTIME, "Trying to create tensor with "
                                "negative dimension %lld: [%lld]", (long long)sizes[d],
                                (long long)sizes[d]);
        if (__builtin_mul_overflow(numel, sizes[d], &numel))
            return ts_error_set(c->error, TS_ERR_RUNTIME, "numel: integer multiplication "
                                "overflow");
    }
    if (mf == TS_ATEN_MF_CONTIGUOUS || mf == TS_ATEN_MF_PRESERVE) {
        if (!ts_contiguous_strides(dim, sizes, strides))
            return ts_error_set(c->error, TS_ERR_RUNTIME, "numel: integer multiplication "
                                "overflow");
    } else if (ts_aten_format_strides(mf, dim, sizes, strides, c->error)) {
        return c->error->code;
    }
    size_t es = ts_dtype_size(self->dtype), need;
    int64_t last = self->offset + numel;
    if (__builtin_mul_overflow((size_t)last, es, &need))
        return ts_error_set(c->error, TS_ERR_RUNTIME, "numel: integer multiplication overflow");
    TsStorage *old = self->storage;
    if (numel > 0 && (!old || old->nbytes < need)) {
        TsStorage *s = ts_storage_new(&ts_cpu_allocator, need, self->device, c->error);
        if (!s)
            return c->error->code;
        if (old && old->nbytes)
            memcpy(s->data, old->data, old->nbytes);
        self->storage = s;
        if (old)
            ts_storage_release(old);
    }
    return ts_tensor_set_shape(self, dim, sizes, strides, self->offset, c->error);
}

/* The MemoryFormat? at argument i: contiguous when None. */
static int64_t memory_format(const TsArgs *a, size_t i)
{
    return a->v[i].tag == TS_TAG_INT ? a->v[i].u.i : TS_ATEN_MF_CONTIGUOUS;
}

static bool has_format(const TsArgs *a, size_t i)
{
    return a->v[i].tag == TS_TAG_INT;
}

/* aten::resize_(Tensor(a!) self, SymInt[] size, *, MemoryFormat? memory_format=None) */
static int k_resize_(TsCall *c)
{
    TsArgs a;
    TsTensor *self;
    int64_t sizes[TS_TENSOR_MAX_DIMS];
    int dim;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &self);
    if (!rc) rc = ts_args_int_list(&a, 1, sizes, &dim, TS_TENSOR_MAX_DIMS);
    if (!rc) rc = resize_to(c, self, dim, sizes, memory_format(&a, 2), has_format(&a, 2));
    return ts_args_return_arg(&a, rc, 0);
}

/* aten::resize_as_(Tensor(a!) self, Tensor the_template, *, MemoryFormat? memory_format=None) */
static int k_resize_as_(TsCall *c)
{
    TsArgs a;
    TsTensor *self, *like;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &self);
    if (!rc) rc = ts_args_tensor(&a, 1, &like);
    if (!rc) rc = resize_to(c, self, like->dim, like->sizes, memory_format(&a, 2),
                             has_format(&a, 2));
    return ts_args_return_arg(&a, rc, 0);
}

static const TsCpuOp ops[] = {
    { "aten::resize_", "", k_resize_ },
    { "aten::resize_as_", "", k_resize_as_ },
};

const TsCpuTable ts_cpu_resize_table = { ops, sizeof ops / sizeof ops[0] };
