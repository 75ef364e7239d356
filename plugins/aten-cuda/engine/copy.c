/* copy.c — moving and converting tensors on the GPU, and between the GPU and other backends:
 * dtype casts, contiguous copies, fills, aten::to in all its forms (.cuda(), .cpu(),
 * .to(device), .type_as), contiguous, clone, copy_, fill_ and zero_.
 *
 * A tensor leaving the GPU is made contiguous in its new dtype here first and then moved in
 * one copy (ts_tensor_copy_to); one arriving from the host (copy_ from a cpu tensor) comes
 * as the bytes of its storage it spans, becomes a strided view here, and is converted and
 * broadcast by the copy kernel.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/cuda.h"

int ts_cuda_copy_into(TsTensor *dst, const TsTensor *src, TsError *err)
{
    TsCudaIter it;
    TsTensor *ops[2] = { dst, (TsTensor *)src };
    int rc = ts_cuda_iter_init(&it, 2, ops, err);
    if (!rc)
        rc = ts_cuda_launch_copy(&it, err);
    return rc;
}

TsTensor *ts_cuda_cast(const TsTensor *src, int dtype, TsError *err)
{
    TsTensor *r = ts_cuda_empty_on(src->device, dtype, src->dim, src->sizes, err);
    if (r && ts_cuda_copy_into(r, src, err)) {
        ts_tensor_release(r);
        r = NULL;
    }
    return r;
}

TsTensor *ts_cuda_contiguous_as(TsTensor *src, int dtype, TsError *err)
{
    if (src->dtype == dtype && ts_tensor_is_contiguous(src)) {
        ts_tensor_retain(src);
        return src;
    }
    return ts_cuda_cast(src, dtype, err);
}

int ts_cuda_fill(TsTensor *t, TsValue scalar, TsError *err)
{
    uint64_t elem = 0;
    TsCudaIter it;
    int rc = ts_aten_scalar_to_elem(scalar, t->dtype, &elem, err);
    if (!rc)
        rc = ts_cuda_iter_init(&it, 1, &t, err);
    if (!rc)
        rc = ts_cuda_launch_fill(&it, &elem, err);
    return rc;
}

/* A copy of t (a tensor of another backend: its storage holds host-readable memory or has
 * an allocator that copies) on the GPU device dev, as a view with t's shape and strides. */
static TsTensor *from_other_backend(const TsTensor *t, TsDevice dev, TsError *err)
{
    size_t es = ts_dtype_size(t->dtype);
    int64_t lo = 0, hi = 0;        /* the elements t spans around its offset */
    for (int d = 0; d < t->dim; d++) {
        if (t->sizes[d] == 0)
            return ts_cuda_empty_on(dev, t->dtype, t->dim, t->sizes, err);
        int64_t reach = (t->sizes[d] - 1) * t->strides[d];
        if (reach < 0)
            lo += reach;
        else
            hi += reach;
    }
    if (!t->storage || !es)
        return ts_cuda_empty_on(dev, t->dtype, t->dim, t->sizes, err);
    int64_t span = hi - lo + 1;
    TsTensor *flat = ts_cuda_empty_on(dev, t->dtype, 1, &span, err);
    if (!flat)
        return NULL;
    const char *src = (const char *)ts_tensor_data(t) + lo * (int64_t)es;
    size_t nbytes = (size_t)span * es;
    TsAllocator *from = t->storage->allocator;
    int rc;
    if (from && from->copy) {      /* another device: through the host */
        void *host = malloc(nbytes);
        rc = host ? from->copy(from, host, src, nbytes, t->storage->device, false, err)
                  : ts_error_set(err, TS_ERR_NOMEM, "out of memory copying a tensor to cuda");
        if (!rc)
            rc = ts_cuda_allocator.copy(&ts_cuda_allocator, ts_tensor_data(flat), host, nbytes,
                                        flat->device, true, err);
        free(host);
    } else {
        rc = ts_cuda_allocator.copy(&ts_cuda_allocator, ts_tensor_data(flat), src, nbytes,
                                    flat->device, true, err);
    }
    TsTensor *r = rc ? NULL : ts_tensor_new(flat->storage, t->dtype, t->dim, t->sizes,
                                            t->strides, -lo, err);
    ts_tensor_release(flat);
    return r;
}

/* t converted to dtype on device `to` of another backend, or another GPU. */
static TsTensor *to_elsewhere(TsCall *c, TsTensor *t, int dtype, TsDevice to)
{
    TsError *err = c->error;
    TsAllocator *alloc = ts_runtime_allocator(c->runtime, to.type);
    if (!alloc) {
        char name[32];
        ts_device_str(to, name, sizeof name);
        ts_error_set(err, TS_ERR_RUNTIME, "no backend is loaded for device %s", name);
        return NULL;
    }
    if (to.type == TS_DEV_CUDA && to.index < 0)
        to = ts_cuda_current_device();
    if (to.type != TS_DEV_CUDA && to.index < 0 && to.type != TS_DEV_CPU)
        to.index = 0;
    TsTensor *dense = ts_cuda_contiguous_as(t, dtype, err);
    if (!dense)
        return NULL;
    TsTensor *r = NULL;
    if (to.type == TS_DEV_CUDA) {  /* another GPU: a peer copy (unified addressing) */
        r = ts_cuda_empty_on(to, dtype, dense->dim, dense->sizes, err);
        size_t nbytes = (size_t)ts_tensor_numel(dense) * ts_dtype_size(dtype);
        if (r && nbytes && ts_cuda_check(cudaMemcpyAsync(ts_tensor_data(r), ts_tensor_data(dense),
                                                         nbytes, cudaMemcpyDeviceToDevice,
                                                         TS_CUDA_STREAM), "copy", err)) {
            ts_tensor_release(r);
            r = NULL;
        }
    } else {
        r = ts_tensor_copy_to(dense, alloc, to, err);
    }
    ts_tensor_release(dense);
    return r;
}

/* The conversions: aten::to (every overload), cpu, cuda, type_as. */
static int k_to(TsCall *c)
{
    TsArgs a;
    TsAtenTo to;
    TsTensor *t, *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CUDA, &a);
    if (!rc)
        rc = ts_aten_to_target(&a, &to);
    if (!rc)
        rc = ts_args_tensor(&a, 0, &t);
    if (rc)
        return ts_args_fail(&a, rc);
    bool here = !to.has_device || (to.device.type == TS_DEV_CUDA &&
                                   (to.device.index < 0 || to.device.index == t->device.index));
    if (!here)
        r = to_elsewhere(c, t, to.dtype, to.device);
    else if (to.dtype == t->dtype && !to.copy)
        return ts_args_return_arg(&a, 0, 0);
    else
        r = ts_cuda_cast(t, to.dtype, c->error);
    return ts_args_return_tensor(&a, r ? 0 : (int)c->error->code, r);
}

/* aten::contiguous(Tensor(a) self, *, MemoryFormat memory_format=0) -> Tensor(a) */
static int k_contiguous(TsCall *c)
{
    TsArgs a;
    TsTensor *t;
    int rc = ts_args_pop(c, TS_DEV_CUDA, &a);
    if (!rc)
        rc = ts_args_tensor(&a, 0, &t);
    if (!rc && ts_tensor_is_contiguous(t))
        return ts_args_return_arg(&a, 0, 0);
    TsTensor *r = rc ? NULL : ts_cuda_cast(t, t->dtype, c->error);
    return ts_args_return_tensor(&a, r ? 0 : (int)c->error->code, r);
}

/* aten::clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor */
static int k_clone(TsCall *c)
{
    TsArgs a;
    TsTensor *t;
    int rc = ts_args_pop(c, TS_DEV_CUDA, &a);
    if (!rc)
        rc = ts_args_tensor(&a, 0, &t);
    TsTensor *r = rc ? NULL : ts_cuda_cast(t, t->dtype, c->error);
    return ts_args_return_tensor(&a, r ? 0 : (int)c->error->code, r);
}

/* aten::copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!): src may
 * be on any device (x.copy_(cpu_tensor)). */
static int k_copy(TsCall *c)
{
    TsArgs a;
    TsTensor *self;
    int rc = ts_args_pop(c, TS_DEV_CUDA, &a);
    if (!rc)
        rc = ts_args_tensor(&a, 0, &self);
    if (!rc && a.v[1].tag != TS_TAG_TENSOR)
        rc = ts_error_set(c->error, TS_ERR_TYPE, "aten::copy_: argument 'src' must be a Tensor");
    if (rc)
        return ts_args_fail(&a, rc);
    TsTensor *src = (TsTensor *)a.v[1].u.p, *in[2] = { self, src };
    int dim;
    int64_t sizes[TS_TENSOR_MAX_DIMS];
    rc = ts_aten_broadcast_shape(2, in, &dim, sizes, c->error);
    if (!rc && !ts_aten_same_shape(self, dim, sizes)) {
        char want[128], got[128];
        ts_aten_format_sizes(want, sizeof want, self->dim, self->sizes);
        ts_aten_format_sizes(got, sizeof got, dim, sizes);
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "output with shape %s doesn't match the "
                          "broadcast shape %s", want, got);
    }
    if (rc)
        return ts_args_fail(&a, rc);
    TsTensor *here = src;
    if (src->device.type != TS_DEV_CUDA || src->device.index != self->device.index) {
        if (src->device.type == TS_DEV_CUDA)
            here = to_elsewhere(c, src, src->dtype, self->device);
        else
            here = from_other_backend(src, self->device, c->error);
        if (!here)
            return ts_args_fail(&a, c->error->code);
    } else if (src->storage == self->storage) {  /* views of one storage: through a copy */
        if (!(here = ts_cuda_cast(src, src->dtype, c->error)))
            return ts_args_fail(&a, c->error->code);
    } else {
        ts_tensor_retain(here);
    }
    rc = ts_cuda_copy_into(self, here, c->error);
    ts_tensor_release(here);
    return ts_args_return_arg(&a, rc, 0);
}

/* aten::fill_.Scalar(Tensor(a!) self, Scalar value) and aten::zero_(Tensor(a!) self): self
 * filled with value, or with 0. */
static int k_fill(TsCall *c)
{
    TsArgs a;
    TsTensor *t;
    int rc = ts_args_pop(c, TS_DEV_CUDA, &a);
    if (!rc)
        rc = ts_args_tensor(&a, 0, &t);
    if (!rc)
        rc = ts_cuda_fill(t, a.n > 1 ? a.v[1] : ts_int(0), c->error);
    return ts_args_return_arg(&a, rc, 0);
}

/* ---- one element as a TorchScript value ------------------------------------------- */

/* The one element of t read back to the host as a bool, int or float value. */
static int read_one(const TsTensor *t, TsValue *out, TsError *err)
{
    int64_t n = ts_tensor_numel(t);
    if (n != 1)
        return ts_error_set(err, TS_ERR_RUNTIME, "a Tensor with %lld elements cannot be "
                            "converted to Scalar", (long long)n);
    bool integral = ts_dtype_is_integral(t->dtype, true);
    int as = t->dtype == TS_BOOL ? TS_BOOL : integral ? TS_INT64 : TS_FLOAT64;
    TsTensor *one = ts_cuda_cast(t, as, err);
    if (!one)
        return err->code;
    union { bool b; int64_t i; double d; } v = { 0 };
    int rc = ts_cuda_allocator.copy(&ts_cuda_allocator, &v, ts_tensor_data(one),
                                    ts_dtype_size(as), one->device, false, err);
    ts_tensor_release(one);
    if (!rc)
        *out = as == TS_BOOL ? ts_bool(v.b) : as == TS_INT64 ? ts_int(v.i) : ts_double(v.d);
    return rc;
}

/* aten::fill_.Tensor(Tensor(a!) self, Tensor value): fill_ with the element of value, a
 * 0-dim tensor here or on the host (brought here to be read as the implicit conversion
 * reads it). */
static int k_fill_tensor(TsCall *c)
{
    TsArgs a;
    TsTensor *t, *value, *here = NULL;
    TsValue v = ts_none();
    int rc = ts_args_pop(c, TS_DEV_CUDA, &a);
    if (!rc)
        rc = ts_args_tensor(&a, 0, &t);
    if (!rc && a.v[1].tag != TS_TAG_TENSOR)
        rc = ts_error_set(c->error, TS_ERR_TYPE, "%s: argument 'value' must be a Tensor",
                          ts_args_op_name(&a));
    value = rc ? NULL : (TsTensor *)a.v[1].u.p;
    if (!rc && value->dim != 0)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "fill_ only supports 0-dimension value "
                          "tensor but got tensor with %d dimensions.", value->dim);
    if (!rc && value->device.type != TS_DEV_CUDA &&
        !(here = ts_tensor_copy_to(value, &ts_cuda_allocator, t->device, c->error)))
        rc = c->error->code;
    if (!rc)
        rc = read_one(here ? here : value, &v, c->error);
    if (here)
        ts_tensor_release(here);
    if (!rc)
        rc = ts_cuda_fill(t, v, c->error);
    return ts_args_return_arg(&a, rc, 0);
}

typedef enum Want { WANT_INT, WANT_FLOAT, WANT_BOOL, WANT_SCALAR } Want;

/* Int/Float/Bool.Tensor, item and the implicit conversions the compiler inserts (which take
 * 0-dim tensors only, IntImplicit integral ones only), with PyTorch's messages. */
static int to_value(TsCall *c, Want want, bool implicit)
{
    TsArgs a;
    TsTensor *t;
    TsValue v = ts_none();
    int rc = ts_args_pop(c, TS_DEV_CUDA, &a);
    if (!rc)
        rc = ts_args_tensor(&a, 0, &t);
    if (!rc && implicit && t->dim != 0)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Cannot input a tensor of dimension other "
                          "than 0 as a scalar argument");
    if (!rc && implicit && want == WANT_INT && !ts_dtype_is_integral(t->dtype, false))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Cannot input a tensor of type %s as an "
                          "integral argument", ts_dtype_type_name(t->dtype));
    if (!rc && want == WANT_BOOL && ts_tensor_numel(t) != 1)   /* Tensor.is_nonzero */
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Boolean value of Tensor with %s values "
                          "is ambiguous", ts_tensor_numel(t) ? "more than one" : "no");
    if (!rc)
        rc = read_one(t, &v, c->error);
    if (!rc) {
        double d = v.tag == TS_TAG_DOUBLE ? v.u.d : v.tag == TS_TAG_BOOL ? v.u.b : (double)v.u.i;
        if (want == WANT_INT && v.tag == TS_TAG_DOUBLE) {
            if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0))
                rc = ts_error_set(c->error, TS_ERR_RUNTIME, "value cannot be converted to type "
                                  "int64_t without overflow");
            v = ts_int((int64_t)d);
        } else if (want == WANT_INT) {
            v = ts_int(v.tag == TS_TAG_BOOL ? v.u.b : v.u.i);
        } else if (want == WANT_FLOAT) {
            v = ts_double(d);
        } else if (want == WANT_BOOL) {
            v = ts_bool(d != 0 || d != d);
        }
    }
    return ts_args_return(&a, rc, v);
}

static int k_int(TsCall *c) { return to_value(c, WANT_INT, false); }
static int k_float(TsCall *c) { return to_value(c, WANT_FLOAT, false); }
static int k_bool(TsCall *c) { return to_value(c, WANT_BOOL, false); }
static int k_item(TsCall *c) { return to_value(c, WANT_SCALAR, false); }
static int k_int_implicit(TsCall *c) { return to_value(c, WANT_INT, true); }
static int k_float_implicit(TsCall *c) { return to_value(c, WANT_FLOAT, true); }
static int k_scalar_implicit(TsCall *c) { return to_value(c, WANT_SCALAR, true); }

static const TsCudaOp ops[] = {
    { "aten::Int", "Tensor", k_int }, { "aten::Float", "Tensor", k_float },
    { "aten::Bool", "Tensor", k_bool }, { "aten::item", "", k_item },
    { "aten::IntImplicit", "", k_int_implicit }, { "aten::FloatImplicit", "", k_float_implicit },
    { "aten::ScalarImplicit", "", k_scalar_implicit },
    { "aten::to", "dtype", k_to }, { "aten::to", "device", k_to }, { "aten::to", "other", k_to },
    { "aten::to", "dtype_layout", k_to }, { "aten::to", "prim_dtype", k_to },
    { "aten::to", "prim_Device", k_to }, { "aten::to", "prim_other", k_to },
    { "aten::type_as", "", k_to }, { "aten::cpu", "", k_to }, { "aten::cuda", "", k_to },
    { "aten::contiguous", "", k_contiguous },
    { "aten::clone", "", k_clone },
    { "aten::copy_", "", k_copy },
    { "aten::fill_", "Scalar", k_fill }, { "aten::fill_", "Tensor", k_fill_tensor },
    { "aten::zero_", "", k_fill },
    { "aten::_no_grad_fill_", "", k_fill },
    { "aten::_no_grad_zero_", "", k_fill },
};

const TsCudaTable ts_cuda_copy_table = { ops, sizeof ops / sizeof ops[0] };
