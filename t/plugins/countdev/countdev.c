/* countdev.c — a test-only backend: the device type "countdev", its allocator, and kernels
 * that count their calls, for what an LSTM cell needs (t/countdev.sh).
 *
 * It proves backend selection: with `default_backend: countdev` a program's factory calls
 * (torch.zeros, torch.full, torch.linspace, ...) create countdev tensors, every later call
 * on them dispatches here by their device, and countdev::count(name) tells the program how
 * often each kernel ran. It declares no aten schema — it registers kernels for the schemas
 * aten-cpu declares, loading before or after it. Its tensors are float32 in host memory
 * (malloc), computed with plain loops over strides; anything else is refused, so a call
 * that reached the wrong backend fails loudly instead of computing.
 */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "tscript/plugin.h"

#define MAX_DIMS 8

/* ---- the device and its memory ------------------------------------------------ */

static void *dev_alloc(TsAllocator *self, size_t nbytes, TsDevice device)
{
    (void)self, (void)device;
    return malloc(nbytes ? nbytes : 1);
}

static void dev_free(TsAllocator *self, void *ptr, size_t nbytes, TsDevice device)
{
    (void)self, (void)nbytes, (void)device;
    free(ptr);
}

static int dev_copy(TsAllocator *self, void *dst, const void *src, size_t nbytes,
                    TsDevice device, bool to_device, TsError *err);

/* Its memory is the host's, but it moves bytes through the copy hook as a device whose
 * memory the host cannot read would (t/countdev.sh counts the moves). */
static TsAllocator allocator = { "countdev", dev_alloc, dev_free, NULL, dev_copy, NULL, NULL };

static TsDevice device(void)
{
    TsDevice d = { (int16_t)ts_device_type_lookup("countdev"), -1 };
    return d;
}

/* ---- counting -------------------------------------------------------------------- */

enum { K_ZEROS, K_ONES, K_FULL, K_LINSPACE, K_MM, K_T, K_ADD, K_MUL, K_SIGMOID, K_TANH,
       K_CHUNK, K_RESHAPE, K_DEVICE, K_TO, K__KERNELS, K_TO_DEVICE = K__KERNELS, K_TO_HOST,
       K_HANDOFF, K__COUNT };

static const char *const names[K__COUNT] = {
    "aten::zeros", "aten::ones", "aten::full", "aten::linspace", "aten::mm", "aten::t",
    "aten::add.Tensor", "aten::mul.Tensor", "aten::sigmoid", "aten::tanh", "aten::chunk",
    "aten::reshape", "prim::device", "aten::to.prim_Device",
    "copy:to_device", "copy:to_host",   /* the allocator's copy hook, not kernels */
    "hook:handoff",                     /* tscript::handoff (plugin.h), not counted in "" */
};

static atomic_long counts[K__COUNT];

static void counted(int k) { atomic_fetch_add(&counts[k], 1); }

static int dev_copy(TsAllocator *self, void *dst, const void *src, size_t nbytes,
                    TsDevice device, bool to_device, TsError *err)
{
    (void)self, (void)device, (void)err;
    counted(to_device ? K_TO_DEVICE : K_TO_HOST);
    memcpy(dst, src, nbytes);
    return 0;
}

/* countdev::count(str name) -> int: the calls of one kernel (its name above), or of all
 * with "". */
static int k_count(TsCall *c)
{
    TsValue v = ts_stack_pop(c->stack);
    const char *name = ((const TsStr *)v.u.p)->data;
    long n = 0;
    bool known = !*name;
    for (int k = 0; k < K__COUNT; k++)   /* "" counts the kernels, not the copies */
        if ((!*name && k < K__KERNELS) || strcmp(name, names[k]) == 0) {
            n += atomic_load(&counts[k]);
            known = true;
        }
    ts_value_release(v);
    if (!known)
        return ts_error_set(c->error, TS_ERR_VALUE, "countdev has no kernel named '%s'",
                            name);
    return ts_stack_push(c->stack, ts_int(n), c->error);
}

/* tscript::handoff() -> (): the interpreter hands values to another thread (plugin.h). */
static int k_handoff(TsCall *c)
{
    (void)c;
    counted(K_HANDOFF);
    return 0;
}

/* ---- arguments ------------------------------------------------------------------- */

/* A float32 tensor of this device, or NULL with the error set. */
static TsTensor *tensor_arg(TsCall *c, TsValue v, const char *op)
{
    TsTensor *t = v.tag == TS_TAG_TENSOR ? (TsTensor *)v.u.p : NULL;
    if (!t || t->device.type != device().type || t->dtype != TS_FLOAT32 || t->dim > MAX_DIMS) {
        char dev[32] = "?";
        if (t)
            ts_device_str(t->device, dev, sizeof dev);
        ts_error_set(c->error, TS_ERR_RUNTIME,
                     "%s: countdev computes float32 countdev tensors of at most %d dims, "
                     "got %s on %s", op, MAX_DIMS, t ? ts_dtype_name(t->dtype) : "no tensor",
                     dev);
        return NULL;
    }
    return t;
}

static double scalar_arg(TsValue v)
{
    return v.tag == TS_TAG_INT ? (double)v.u.i : v.tag == TS_TAG_BOOL ? v.u.b : v.u.d;
}

/* The code of the error a helper set. */
static int failed(TsCall *c) { return (int)c->error->code; }

/* Ends a kernel of n arguments: drops them and pushes the result (taking it). */
static int finish(TsCall *c, size_t n, TsValue result)
{
    ts_stack_drop(c->stack, n);
    return ts_stack_push(c->stack, result, c->error);
}

static float *at(const TsTensor *t, int64_t off) { return (float *)ts_tensor_data(t) + off; }

/* The storage offset (from element 0) of element i of a tensor of dim sizes, read through
 * strides (0 for a broadcast dim). */
static int64_t offset_of(int64_t i, int dim, const int64_t *sizes, const int64_t *strides)
{
    int64_t off = 0;
    for (int d = dim - 1; d >= 0; d--) {
        off += (i % sizes[d]) * strides[d];
        i /= sizes[d];
    }
    return off;
}

static TsTensor *empty(TsCall *c, int dim, const int64_t *sizes)
{
    return ts_tensor_empty(&allocator, device(), TS_FLOAT32, dim, sizes, c->error);
}

/* ---- factories: (size..., dtype, layout, device, pin_memory) ------------------------ */

/* Checks the factory tail (the 4 values from tail on): float32 (or None), on countdev or
 * no device. */
static int factory_tail(TsCall *c, const TsValue *tail, const char *op)
{
    if (tail[0].tag != TS_TAG_NONE && !(tail[0].tag == TS_TAG_INT && tail[0].u.i == TS_FLOAT32))
        return ts_error_set(c->error, TS_ERR_RUNTIME, "%s: countdev makes float32 tensors", op);
    if (tail[2].tag == TS_TAG_DEVICE && tail[2].u.dev.type != device().type)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "%s: countdev cannot create a tensor "
                            "on another device", op);
    return 0;
}

static TsTensor *sized(TsCall *c, TsValue size)
{
    const TsList *l = (const TsList *)size.u.p;
    int64_t sizes[MAX_DIMS];
    if (l->len > MAX_DIMS) {
        ts_error_set(c->error, TS_ERR_RUNTIME, "countdev: at most %d dims", MAX_DIMS);
        return NULL;
    }
    for (size_t i = 0; i < l->len; i++)
        sizes[i] = l->items[i].u.i;
    return empty(c, (int)l->len, sizes);
}

static int fill(TsCall *c, int k, size_t nargs, double value)
{
    counted(k);
    TsValue *a = ts_stack_arg(c->stack, nargs, 0);
    if (factory_tail(c, a + nargs - 4, names[k]))
        return failed(c);
    TsTensor *t = sized(c, a[0]);
    if (!t)
        return failed(c);
    if (nargs == 6)
        value = scalar_arg(a[1]);
    for (int64_t i = 0, n = ts_tensor_numel(t); i < n; i++)
        *at(t, i) = (float)value;
    return finish(c, nargs, ts_obj_value(t, TS_TAG_TENSOR));
}

static int k_zeros(TsCall *c) { return fill(c, K_ZEROS, 5, 0.0); }
static int k_ones(TsCall *c) { return fill(c, K_ONES, 5, 1.0); }
static int k_full(TsCall *c) { return fill(c, K_FULL, 6, 0.0); }

/* linspace(Scalar start, Scalar end, int steps, dtype, layout, device, pin_memory) */
static int k_linspace(TsCall *c)
{
    counted(K_LINSPACE);
    TsValue *a = ts_stack_arg(c->stack, 7, 0);
    if (factory_tail(c, a + 3, "aten::linspace"))
        return failed(c);
    double start = scalar_arg(a[0]), end = scalar_arg(a[1]);
    int64_t steps = a[2].u.i;
    if (steps < 0)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "number of steps must be non-negative");
    TsTensor *t = empty(c, 1, &steps);
    if (!t)
        return failed(c);
    double step = steps > 1 ? (end - start) / (double)(steps - 1) : 0.0;
    for (int64_t i = 0; i < steps; i++)
        *at(t, i) = (float)(start + step * (double)i);
    return finish(c, 7, ts_obj_value(t, TS_TAG_TENSOR));
}

/* ---- compute ----------------------------------------------------------------------- */

static int k_mm(TsCall *c)
{
    counted(K_MM);
    TsValue *a = ts_stack_arg(c->stack, 2, 0);
    TsTensor *x = tensor_arg(c, a[0], "aten::mm"), *y = x ? tensor_arg(c, a[1], "aten::mm") : NULL;
    if (!y)
        return failed(c);
    if (x->dim != 2 || y->dim != 2 || x->sizes[1] != y->sizes[0])
        return ts_error_set(c->error, TS_ERR_RUNTIME, "aten::mm: shapes cannot be multiplied");
    int64_t sizes[2] = { x->sizes[0], y->sizes[1] }, inner = x->sizes[1];
    TsTensor *o = empty(c, 2, sizes);
    if (!o)
        return failed(c);
    for (int64_t i = 0; i < sizes[0]; i++)
        for (int64_t j = 0; j < sizes[1]; j++) {
            double s = 0;
            for (int64_t k = 0; k < inner; k++)
                s += (double)*at(x, i * x->strides[0] + k * x->strides[1]) *
                     *at(y, k * y->strides[0] + j * y->strides[1]);
            *at(o, i * sizes[1] + j) = (float)s;
        }
    return finish(c, 2, ts_obj_value(o, TS_TAG_TENSOR));
}

/* A view of t (sharing its storage) with the given shape. */
static int push_view(TsCall *c, size_t nargs, const TsTensor *t, int dim, const int64_t *sizes,
                     const int64_t *strides, int64_t offset)
{
    TsTensor *v = ts_tensor_new(t->storage, t->dtype, dim, sizes, strides, offset, c->error);
    return v ? finish(c, nargs, ts_obj_value(v, TS_TAG_TENSOR)) : failed(c);
}

static int k_t(TsCall *c)
{
    counted(K_T);
    TsTensor *t = tensor_arg(c, *ts_stack_arg(c->stack, 1, 0), "aten::t");
    if (!t)
        return failed(c);
    if (t->dim > 2)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "t() expects a tensor with <= 2 dimensions, but self is %dD", t->dim);
    int64_t sizes[2] = { t->dim == 2 ? t->sizes[1] : 0, t->dim ? t->sizes[0] : 0 };
    int64_t strides[2] = { t->dim == 2 ? t->strides[1] : 0, t->dim ? t->strides[0] : 0 };
    if (t->dim < 2)
        return push_view(c, 1, t, t->dim, t->sizes, t->strides, t->offset);
    return push_view(c, 1, t, 2, sizes, strides, t->offset);
}

/* x op y with broadcasting; op 0 adds alpha * y, 1 multiplies. */
static int binary(TsCall *c, int k, size_t nargs, int op)
{
    counted(k);
    TsValue *a = ts_stack_arg(c->stack, nargs, 0);
    TsTensor *x = tensor_arg(c, a[0], names[k]), *y = x ? tensor_arg(c, a[1], names[k]) : NULL;
    if (!y)
        return failed(c);
    double alpha = nargs == 3 ? scalar_arg(a[2]) : 1.0;
    int dim = x->dim > y->dim ? x->dim : y->dim;
    int64_t sizes[MAX_DIMS], sx[MAX_DIMS], sy[MAX_DIMS];
    for (int d = 0; d < dim; d++) {
        int dx = d - (dim - x->dim), dy = d - (dim - y->dim);
        int64_t nx = dx >= 0 ? x->sizes[dx] : 1, ny = dy >= 0 ? y->sizes[dy] : 1;
        if (nx != ny && nx != 1 && ny != 1)
            return ts_error_set(c->error, TS_ERR_RUNTIME,
                                "The size of tensor a (%lld) must match the size of tensor b "
                                "(%lld) at non-singleton dimension %d",
                                (long long)nx, (long long)ny, d);
        sizes[d] = nx == 1 ? ny : nx;
        sx[d] = nx == 1 ? 0 : x->strides[dx];
        sy[d] = ny == 1 ? 0 : y->strides[dy];
    }
    TsTensor *o = empty(c, dim, sizes);
    if (!o)
        return failed(c);
    for (int64_t i = 0, n = ts_tensor_numel(o); i < n; i++) {
        float u = *at(x, offset_of(i, dim, sizes, sx)), v = *at(y, offset_of(i, dim, sizes, sy));
        *at(o, i) = op == 0 ? (float)(u + alpha * v) : u * v;
    }
    return finish(c, nargs, ts_obj_value(o, TS_TAG_TENSOR));
}

static int k_add(TsCall *c) { return binary(c, K_ADD, 3, 0); }
static int k_mul(TsCall *c) { return binary(c, K_MUL, 2, 1); }

static int unary(TsCall *c, int k, double (*f)(double))
{
    counted(k);
    TsTensor *t = tensor_arg(c, *ts_stack_arg(c->stack, 1, 0), names[k]);
    if (!t)
        return failed(c);
    TsTensor *o = empty(c, t->dim, t->sizes);
    if (!o)
        return failed(c);
    for (int64_t i = 0, n = ts_tensor_numel(o); i < n; i++)
        *at(o, i) = (float)f(*at(t, offset_of(i, t->dim, t->sizes, t->strides)));
    return finish(c, 1, ts_obj_value(o, TS_TAG_TENSOR));
}

static double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }
static int k_sigmoid(TsCall *c) { return unary(c, K_SIGMOID, sigmoid); }
static int k_tanh(TsCall *c) { return unary(c, K_TANH, tanh); }

/* chunk(Tensor self, int chunks, int dim) -> Tensor[]: views of ceil(n / chunks) along dim */
static int k_chunk(TsCall *c)
{
    counted(K_CHUNK);
    TsValue *a = ts_stack_arg(c->stack, 3, 0);
    TsTensor *t = tensor_arg(c, a[0], "aten::chunk");
    if (!t)
        return failed(c);
    int64_t chunks = a[1].u.i, dim = a[2].u.i < 0 ? a[2].u.i + t->dim : a[2].u.i;
    if (chunks <= 0 || dim < 0 || dim >= t->dim)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "aten::chunk: bad chunks or dim");
    int64_t n = t->sizes[dim], each = (n + chunks - 1) / chunks;
    TsList *l = ts_list_new(ts_type_tensor(), 0, c->error);
    int64_t sizes[MAX_DIMS];
    memcpy(sizes, t->sizes, (size_t)t->dim * sizeof *sizes);
    for (int64_t start = 0; l && start < n; start += each) {
        sizes[dim] = n - start < each ? n - start : each;
        TsTensor *v = ts_tensor_new(t->storage, t->dtype, t->dim, sizes, t->strides,
                                    t->offset + start * t->strides[dim], c->error);
        if (!v || ts_list_append(l, ts_obj_value(v, TS_TAG_TENSOR), c->error)) {
            ts_heap_release(&l->h);
            l = NULL;
        }
    }
    return l ? finish(c, 3, ts_obj_value(l, TS_TAG_LIST)) : failed(c);
}

/* reshape of a contiguous tensor: a view */
static int k_reshape(TsCall *c)
{
    counted(K_RESHAPE);
    TsValue *a = ts_stack_arg(c->stack, 2, 0);
    TsTensor *t = tensor_arg(c, a[0], "aten::reshape");
    if (!t)
        return failed(c);
    const TsList *l = (const TsList *)a[1].u.p;
    int64_t sizes[MAX_DIMS], known = 1;
    int infer = -1;
    if (!ts_tensor_is_contiguous(t) || l->len > MAX_DIMS)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "aten::reshape: countdev reshapes "
                            "contiguous tensors to at most %d dims", MAX_DIMS);
    for (size_t i = 0; i < l->len; i++) {
        sizes[i] = l->items[i].u.i;
        if (sizes[i] == -1)
            infer = (int)i;
        else
            known *= sizes[i];
    }
    if (infer >= 0)
        sizes[infer] = known ? ts_tensor_numel(t) / known : 0;
    return push_view(c, 2, t, (int)l->len, sizes, NULL, t->offset);
}

/* prim::device(Tensor a) -> Device */
static int k_device(TsCall *c)
{
    counted(K_DEVICE);
    TsTensor *t = tensor_arg(c, *ts_stack_arg(c->stack, 1, 0), "prim::device");
    return t ? finish(c, 1, ts_device(t->device)) : failed(c);
}

/* to.prim_Device(Tensor self, Device? device, int? dtype, bool non_blocking, bool copy):
 * to the CPU (a contiguous copy in the cpu backend's memory), or this device (self). */
static int k_to(TsCall *c)
{
    counted(K_TO);
    TsValue *a = ts_stack_arg(c->stack, 5, 0);
    TsTensor *t = tensor_arg(c, a[0], "aten::to");
    if (!t)
        return failed(c);
    if (a[2].tag != TS_TAG_NONE && a[2].u.i != TS_FLOAT32)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "aten::to: countdev keeps float32");
    if (a[1].tag == TS_TAG_NONE || a[1].u.dev.type == t->device.type) {
        ts_tensor_retain(t);
        return finish(c, 5, ts_obj_value(t, TS_TAG_TENSOR));
    }
    TsAllocator *cpu = ts_runtime_allocator(c->runtime, TS_DEV_CPU);
    if (a[1].u.dev.type != TS_DEV_CPU || !cpu)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "aten::to: countdev copies to the cpu "
                            "backend only");
    /* contiguous here, then across by the copy hook, as a real device's kernel would */
    TsTensor *dense = ts_tensor_empty(&allocator, device(), TS_FLOAT32, t->dim, t->sizes,
                                      c->error);
    if (!dense)
        return failed(c);
    for (int64_t i = 0, n = ts_tensor_numel(dense); i < n; i++)
        ((float *)ts_tensor_data(dense))[i] = *at(t, offset_of(i, t->dim, t->sizes, t->strides));
    TsDevice host = { TS_DEV_CPU, -1 };
    TsTensor *o = ts_tensor_copy_to(dense, cpu, host, c->error);
    ts_tensor_release(dense);
    if (!o)
        return failed(c);
    return finish(c, 5, ts_obj_value(o, TS_TAG_TENSOR));
}

/* ---- registration ------------------------------------------------------------------- */

static const TsKernelFn kernels[K__KERNELS] = {
    k_zeros, k_ones, k_full, k_linspace, k_mm, k_t, k_add, k_mul, k_sigmoid, k_tanh, k_chunk,
    k_reshape, k_device, k_to,
};

static int init(TsRegistry *r, TsError *err)
{
    int rc = ts_register_allocator(r, "countdev", &allocator, err);
    for (int k = 0; !rc && k < K__KERNELS; k++) {
        const char *dot = strchr(names[k], '.');
        char name[64];
        size_t n = dot ? (size_t)(dot - names[k]) : strlen(names[k]);
        memcpy(name, names[k], n);
        name[n] = '\0';
        rc = ts_register_kernel(r, name, dot ? dot + 1 : "", "countdev", kernels[k], err);
    }
    if (!rc)
        rc = ts_register_schema(r, "countdev::count(str name) -> int", err);
    if (!rc)
        rc = ts_register_kernel(r, "countdev::count", "", TS_BACKEND_ANY, k_count, err);
    if (!rc)
        rc = ts_register_schema(r, "tscript::handoff() -> ()", err);
    if (!rc)
        rc = ts_register_kernel(r, "tscript::handoff", "", "countdev", k_handoff, err);
    return rc;
}

TS_PLUGIN_EXPORT const TsPluginInfo tscript_plugin = {
    TS_PLUGIN_ABI_VERSION, "countdev", NULL, init, NULL
};
