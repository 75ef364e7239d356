/* view.c — views that the elementwise and matrix ops need first: t and chunk.
 *
 * A view is a new tensor header over the same storage (retained), so writes through either
 * show in both; the schemas say so with alias annotations (Tensor(a) -> Tensor(a)).
 */
#include "shape/shape_ops.h"

/* aten::t(Tensor(a) self) -> Tensor(a) */
static int k_t(TsCall *c)
{
    TsArgs a;
    TsTensor *t, *v = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc && t->dim > 2)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME,
                          "t() expects a tensor with <= 2 dimensions, but self is %dD", t->dim);
    else if (!rc) {
        int64_t sizes[2], strides[2];
        for (int d = 0; d < t->dim; d++) {
            sizes[d] = t->sizes[t->dim - 1 - d];
            strides[d] = t->strides[t->dim - 1 - d];
        }
        v = ts_cpu_view(t, t->dim, sizes, strides, t->offset, c->error);
    }
    return ts_args_return_tensor(&a, rc, v);
}

/* aten::chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[] */
static int k_chunk(TsCall *c)
{
    TsArgs a;
    TsTensor *t;
    TsList *l = NULL;
    int64_t chunks, d;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_int(&a, 1, &chunks);
    if (!rc) rc = ts_args_int(&a, 2, &d);
    if (rc)
        return ts_args_fail(&a, rc);
    int64_t n = t->dim;
    if (n == 0)
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
    return ts_args_return_list(&a, 0, l);
}

static const TsCpuOp ops[] = {
    { "aten::t", "", k_t },
    { "aten::chunk", "", k_chunk },
};

const TsCpuTable ts_cpu_view_table = { ops, sizeof ops / sizeof ops[0] };
