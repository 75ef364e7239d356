/* acme.c — an example vendor plugin: two operators of its own in namespace acme.
 *
 *   acme::saxpy(Tensor x, Tensor y, float a) -> Tensor    a * x + y, cpu kernel (float32)
 *   acme::clamp_int(int x, int lo, int hi) -> int         x limited to [lo, hi], any device
 *
 * It shows everything a vendor needs (README.md says how to build and load it): the one
 * exported symbol, the schema file it names (acme.yaml, found beside the plugin or on the
 * config's schema_path), kernels on the stack calling convention, errors that name the
 * operator, and allocating an output through the runtime's allocator for the device.
 * Only the public headers are used.
 */
#include <stdio.h>

#include <tscript/plugin.h>

/* Pops a kernel's n arguments, deepest first, into argv (the kernel owns them). */
static void pop_args(TsCall *c, size_t n, TsValue *argv)
{
    for (size_t i = n; i-- > 0;)
        argv[i] = ts_stack_pop(c->stack);
}

/* acme::clamp_int(int x, int lo, int hi) -> int */
static int clamp_int(TsCall *c)
{
    TsValue a[3];
    pop_args(c, 3, a);          /* ints are inline values: nothing to release */
    int64_t x = a[0].u.i, lo = a[1].u.i, hi = a[2].u.i;
    if (lo > hi)
        return ts_error_set(c->error, TS_ERR_VALUE,
                            "acme::clamp_int: lo (%lld) is greater than hi (%lld)",
                            (long long)lo, (long long)hi);
    return ts_stack_push(c->stack, ts_int(x < lo ? lo : x > hi ? hi : x), c->error);
}

/* Checks one saxpy operand: a contiguous float32 cpu tensor. */
static int check_operand(TsCall *c, const char *name, TsValue v)
{
    if (v.tag != TS_TAG_TENSOR)
        return ts_error_set(c->error, TS_ERR_TYPE, "acme::saxpy: %s must be a Tensor", name);
    const TsTensor *t = (const TsTensor *)v.u.p;
    if (t->dtype != TS_FLOAT32 || t->device.type != TS_DEV_CPU || !ts_tensor_is_contiguous(t))
        return ts_error_set(c->error, TS_ERR_RUNTIME,
                            "acme::saxpy: %s must be a contiguous float32 cpu tensor", name);
    return 0;
}

static int same_shape(const TsTensor *x, const TsTensor *y)
{
    if (x->dim != y->dim)
        return 0;
    for (int i = 0; i < x->dim; i++)
        if (x->sizes[i] != y->sizes[i])
            return 0;
    return 1;
}

static TsTensor *saxpy_compute(TsCall *c, const TsTensor *x, const TsTensor *y, float a)
{
    if (!same_shape(x, y)) {
        ts_error_set(c->error, TS_ERR_RUNTIME, "acme::saxpy: x and y must have the same shape");
        return NULL;
    }
    TsAllocator *cpu = ts_runtime_allocator(c->runtime, TS_DEV_CPU);
    if (!cpu) {
        ts_error_set(c->error, TS_ERR_RUNTIME, "acme::saxpy: no allocator for the cpu device");
        return NULL;
    }
    TsTensor *out = ts_tensor_empty(cpu, x->device, TS_FLOAT32, x->dim, x->sizes, c->error);
    if (!out)
        return NULL;
    const float *xs = ts_tensor_data(x), *ys = ts_tensor_data(y);
    float *os = ts_tensor_data(out);
    for (int64_t i = 0, n = ts_tensor_numel(x); i < n; i++)
        os[i] = a * xs[i] + ys[i];
    return out;
}

/* acme::saxpy(Tensor x, Tensor y, float a) -> Tensor */
static int saxpy(TsCall *c)
{
    TsValue a[3];
    TsTensor *out = NULL;
    pop_args(c, 3, a);
    int rc = check_operand(c, "x", a[0]);
    if (!rc)
        rc = check_operand(c, "y", a[1]);
    if (!rc) {
        out = saxpy_compute(c, (TsTensor *)a[0].u.p, (TsTensor *)a[1].u.p, (float)a[2].u.d);
        rc = out ? 0 : c->error->code;
    }
    ts_value_release(a[0]);     /* we own what we popped */
    ts_value_release(a[1]);
    if (rc)
        return rc;
    return ts_stack_push(c->stack, ts_obj_value(out, TS_TAG_TENSOR), c->error);
}

static int init(TsRegistry *r, TsError *err)
{
    int rc = ts_register_kernel(r, "acme::saxpy", "", "cpu", saxpy, err);
    if (!rc)
        rc = ts_register_kernel(r, "acme::clamp_int", "", TS_BACKEND_ANY, clamp_int, err);
    return rc;
}

static const char *const schema_files[] = { "acme.yaml", NULL };

TS_PLUGIN_EXPORT const TsPluginInfo tscript_plugin = {
    TS_PLUGIN_ABI_VERSION, "acme", schema_files, init, NULL
};
