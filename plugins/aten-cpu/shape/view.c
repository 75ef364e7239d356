/* view.c — views that the elementwise and matrix ops need first: t and chunk.
 *
 * A view is a new tensor header over the same storage (retained), so writes through either
 * show in both; the schemas say so with alias annotations (Tensor(a) -> Tensor(a)).
 */
#include "engine/elementwise.h"

/* aten::t(Tensor(a) self) -> Tensor(a) */
static int k_t(TsCall *c)
{
    TsValue self;
    ts_cpu_pop_args(c, 1, &self);
    TsTensor *t = ts_cpu_tensor_arg(c, "aten::t", "self", self), *v = NULL;
    if (t && t->dim > 2)
        ts_error_set(c->error, TS_ERR_RUNTIME,
                     "t() expects a tensor with <= 2 dimensions, but self is %dD", t->dim);
    else if (t) {
        int64_t sizes[2], strides[2];
        for (int d = 0; d < t->dim; d++) {
            sizes[d] = t->sizes[t->dim - 1 - d];
            strides[d] = t->strides[t->dim - 1 - d];
        }
        v = ts_cpu_view(t, t->dim, sizes, strides, t->offset, c->error);
    }
    ts_value_release(self);
    return v ? ts_cpu_push_tensor(c, v) : (int)c->error->code;
}

/* aten::chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[] */
static int k_chunk(TsCall *c)
{
    TsValue a[3];
    TsList *l = NULL;
    ts_cpu_pop_args(c, 3, a);
    TsTensor *t = ts_cpu_tensor_arg(c, "aten::chunk", "self", a[0]);
    int64_t chunks = a[1].u.i, d = a[2].u.i, n = t ? t->dim : 0;
    if (!t)
        ;
    else if (a[1].tag != TS_TAG_INT || a[2].tag != TS_TAG_INT)
        ts_error_set(c->error, TS_ERR_TYPE, "aten::chunk: chunks and dim must be ints");
    else if (n == 0)
        ts_error_set(c->error, TS_ERR_RUNTIME, "chunk expects at least a 1-dimensional tensor");
    else if (chunks <= 0)
        ts_error_set(c->error, TS_ERR_RUNTIME,
                     "chunk expects `chunks` to be greater than 0, got: %lld", (long long)chunks);
    else if (d < -n || d >= n)
        ts_error_set(c->error, TS_ERR_INDEX, "Dimension out of range (expected to be in range "
                     "of [%lld, %lld], but got %lld)", (long long)-n, (long long)(n - 1),
                     (long long)d);
    else {
        if (d < 0)
            d += n;
        int64_t size = t->sizes[d], split = size / chunks + (size % chunks != 0);
        int64_t count = split == 0 ? chunks : size / split + (size % split != 0);
        if (count < 1)
            count = 1;
        l = ts_list_new(ts_type_tensor(), (size_t)count, c->error);
        for (int64_t i = 0; l && i < count; i++) {
            int64_t start = i * split;
            TsTensor *v = ts_cpu_narrow(t, d, start, split == 0 ? 0 : (size - start < split ?
                                                                  size - start : split), 1,
                                        c->error);
            if (!v || ts_list_append(l, ts_obj_value(v, TS_TAG_TENSOR), c->error)) {
                ts_heap_release(&l->h);
                l = NULL;
            }
        }
    }
    ts_cpu_release_args(3, a);
    return l ? ts_stack_push(c->stack, ts_obj_value(l, TS_TAG_LIST), c->error)
             : (int)c->error->code;
}

static const TsCpuOp ops[] = {
    { "aten::t", "", k_t },
    { "aten::chunk", "", k_chunk },
};

const TsCpuTable ts_cpu_view_table = { ops, sizeof ops / sizeof ops[0] };
