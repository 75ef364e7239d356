/* args.c — the plumbing every torchvision kernel shares: popping and checking arguments
 * with torchvision's (and ATen's) messages, contiguous views of inputs, zeroed outputs,
 * pushing results, and splitting work over the runtime's threads. See tv.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tv.h"

void tv_frame_pop(TvFrame *f, TsCall *c, const char *op, size_t n)
{
    f->c = c;
    f->op = op;
    f->n = n;
    for (size_t i = n; i-- > 0;)
        f->argv[i] = ts_stack_pop(c->stack);
}

void tv_frame_release(TvFrame *f)
{
    for (size_t i = 0; i < f->n; i++)
        ts_value_release(f->argv[i]);
    f->n = 0;
}

const TsTensor *tv_tensor_arg(TvFrame *f, size_t i, const char *name)
{
    TsValue v = f->argv[i];
    if (v.tag != TS_TAG_TENSOR) {
        ts_error_set(f->c->error, TS_ERR_TYPE, "%s: argument '%s' must be a Tensor", f->op, name);
        return NULL;
    }
    const TsTensor *t = (const TsTensor *)v.u.p;
    if (t->device.type != TS_DEV_CPU) {
        ts_error_set(f->c->error, TS_ERR_RUNTIME, "%s must be a CPU tensor", name);
        return NULL;
    }
    return t;
}

static int bad_arg(TvFrame *f, const char *name, const char *type)
{
    return ts_error_set(f->c->error, TS_ERR_TYPE, "%s: argument '%s' must be %s", f->op, name,
                        type);
}

int tv_int_arg(TvFrame *f, size_t i, const char *name, int64_t *out)
{
    if (f->argv[i].tag != TS_TAG_INT)
        return bad_arg(f, name, "an int");
    *out = f->argv[i].u.i;
    return 0;
}

int tv_float_arg(TvFrame *f, size_t i, const char *name, double *out)
{
    if (f->argv[i].tag == TS_TAG_INT)
        *out = (double)f->argv[i].u.i;
    else if (f->argv[i].tag == TS_TAG_DOUBLE)
        *out = f->argv[i].u.d;
    else
        return bad_arg(f, name, "a float");
    return 0;
}

int tv_bool_arg(TvFrame *f, size_t i, const char *name, bool *out)
{
    if (f->argv[i].tag != TS_TAG_BOOL)
        return bad_arg(f, name, "a bool");
    *out = f->argv[i].u.b;
    return 0;
}

int tv_size(TsError *err, const TsTensor *t, int d, int64_t *out)
{
    if (t->dim == 0)
        return ts_error_set(err, TS_ERR_INDEX,
                            "Dimension specified as %d but tensor has no dimensions", d);
    if (d >= t->dim)
        return ts_error_set(err, TS_ERR_INDEX,
                            "Dimension out of range (expected to be in range of [%d, %d], but "
                            "got %d)", -(int)t->dim, (int)t->dim - 1, d);
    *out = t->sizes[d];
    return 0;
}

int tv_check_same_type(TsError *err, const char *kernel, const TsTensor *a, const char *aname,
                       const TsTensor *b, const char *bname)
{
    if (a->dtype == b->dtype)
        return 0;
    return ts_error_set(err, TS_ERR_RUNTIME,
                        "Expected tensor for argument #1 '%s' to have the same type as tensor "
                        "for argument #2 '%s'; but type torch.%sTensor does not equal "
                        "torch.%sTensor (while checking arguments for %s)",
                        aname, bname, ts_dtype_type_name(a->dtype),
                        ts_dtype_type_name(b->dtype), kernel);
}

int tv_check_floating(TsError *err, const char *kernel, int dtype)
{
    if (dtype == TS_FLOAT32 || dtype == TS_FLOAT64)
        return 0;
    return ts_error_set(err, TS_ERR_RUNTIME, "\"%s\" not implemented for '%s'", kernel,
                        ts_dtype_type_name(dtype));
}

int tv_check_scalar_type(TsError *err, const TsTensor *t, int dtype)
{
    if (t->dtype == dtype)
        return 0;
    return ts_error_set(err, TS_ERR_RUNTIME, "expected scalar type %s but found %s",
                        ts_dtype_type_name(dtype), ts_dtype_type_name(t->dtype));
}

/* Copies t's elements in row-major order into dst (esize bytes each). */
static void gather(const TsTensor *t, size_t esize, char *dst)
{
    int64_t idx[TS_TENSOR_MAX_DIMS] = { 0 };
    const char *base = (const char *)ts_tensor_data(t);
    int64_t n = ts_tensor_numel(t), off = 0;
    for (int64_t k = 0; k < n; k++) {
        memcpy(dst + (size_t)k * esize, base + off * (int64_t)esize, esize);
        for (int d = t->dim - 1; d >= 0; d--) {     /* odometer step: the last dim first */
            off += t->strides[d];
            if (++idx[d] < t->sizes[d])
                break;
            off -= t->strides[d] * t->sizes[d];
            idx[d] = 0;
        }
    }
}

const void *tv_contiguous(const TsTensor *t, void **owned, TsError *err)
{
    static const double nothing = 0;
    *owned = NULL;
    int64_t n = ts_tensor_numel(t);
    if (n == 0)
        return &nothing;
    if (ts_tensor_is_contiguous(t))
        return ts_tensor_data(t);
    size_t esize = ts_dtype_size(t->dtype), bytes;
    /* an expanded tensor (stride 0) may have far more elements than its storage */
    void *copy = __builtin_mul_overflow((size_t)n, esize, &bytes) ? NULL : malloc(bytes);
    if (!copy) {
        ts_error_set(err, TS_ERR_NOMEM, "out of memory copying a tensor of %lld elements",
                     (long long)n);
        return NULL;
    }
    gather(t, esize, copy);
    *owned = copy;
    return copy;
}

TsTensor *tv_zeros(TvFrame *f, int dtype, int dim, const int64_t *sizes)
{
    TsAllocator *cpu = ts_runtime_allocator(f->c->runtime, TS_DEV_CPU);
    if (!cpu) {
        ts_error_set(f->c->error, TS_ERR_RUNTIME, "%s: no allocator for the cpu device", f->op);
        return NULL;
    }
    TsDevice dev = { TS_DEV_CPU, -1 };
    TsTensor *t = ts_tensor_empty(cpu, dev, dtype, dim, sizes, f->c->error);
    if (t && ts_tensor_numel(t) > 0)
        memset(ts_tensor_data(t), 0, (size_t)ts_tensor_numel(t) * ts_dtype_size(dtype));
    return t;
}

int tv_push(TvFrame *f, TsTensor *t)
{
    return ts_stack_push(f->c->stack, ts_obj_value(t, TS_TAG_TENSOR), f->c->error);
}

int tv_push_pair(TvFrame *f, TsTensor *a, TsTensor *b)
{
    int rc = tv_push(f, a);
    if (rc) {
        ts_tensor_release(b);
        return rc;
    }
    return tv_push(f, b);
}

int64_t tv_to_index(double v)
{
    const double lim = 4503599627370496.0;         /* 2^52 */
    if (isnan(v))
        return 0;
    if (v >= lim)
        return (int64_t)lim;
    if (v <= -lim)
        return -(int64_t)lim;
    return (int64_t)v;
}

/* About 20 us of work: below this a chunk is not worth waking a thread for. */
#define TV_CHUNK_WORK 65536

int tv_parallel(int64_t n, int64_t work_per_item, TsParallelFn fn, void *ctx, TsError *err)
{
    int64_t grain = work_per_item > 0 ? TV_CHUNK_WORK / work_per_item : TV_CHUNK_WORK;
    return ts_parallel_for(0, n, grain > 0 ? grain : 1, fn, ctx, err);
}
