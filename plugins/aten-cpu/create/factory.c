/* factory.c — tensors from nothing (empty, zeros, ones, full, and the random rand, randn,
 * randint), their Tensor.new_* forms (self's dtype by default), Tensor.fill_ and zero_.
 *
 * The factory functions share one argument tail (dtype, layout, device, pin_memory and, for
 * empty, memory_format), checked here; memory format errors use PyTorch's messages, and
 * ts_tensor_empty checks the sizes (negative, overflowing byte counts) with PyTorch's.
 * dtype None means float32, except for full, whose dtype follows the fill value (int ->
 * int64, bool -> bool, float -> float32, complex -> complex64), as in PyTorch 1.13.
 */
#include <string.h>

#include "engine/cpu.h"
#include "create/factory.h"
#include "nn/nn.h"

/* Argument i as a list of sizes (no single int, unlike ts_args_int_list). */
static int read_sizes(TsArgs *a, size_t i, int *dim, int64_t *sizes)
{
    TsError *err = a->call->error;
    TsValue v = a->v[i];
    if (v.tag != TS_TAG_LIST)
        return ts_error_set(err, TS_ERR_TYPE, "%s: argument '%s' must be a list of ints",
                            ts_args_op_name(a), ts_args_name(a, i));
    const TsList *l = (const TsList *)v.u.p;
    if (l->len > TS_TENSOR_MAX_DIMS)
        return ts_error_set(err, TS_ERR_LIMIT, "%s: %zu dimensions is more than %d",
                            ts_args_op_name(a), l->len, TS_TENSOR_MAX_DIMS);
    *dim = (int)l->len;
    for (size_t k = 0; k < l->len; k++) {
        if (l->items[k].tag != TS_TAG_INT)
            return ts_error_set(err, TS_ERR_TYPE, "%s: argument '%s' must be a list of ints",
                                ts_args_op_name(a), ts_args_name(a, i));
        sizes[k] = l->items[k].u.i;
    }
    return 0;
}

/* Argument i as a dtype (None keeps *dtype). */
static int read_dtype(TsArgs *a, size_t i, int *dtype)
{
    TsValue v = a->v[i];
    if (v.tag == TS_TAG_NONE)
        return 0;
    if (v.tag != TS_TAG_INT || v.u.i < 0 || v.u.i >= TS_DTYPE__COUNT ||
        ts_dtype_size((int)v.u.i) == 0)
        return ts_error_set(a->call->error, TS_ERR_TYPE, "%s: argument '%s' is not a dtype",
                            ts_args_op_name(a), ts_args_name(a, i));
    *dtype = (int)v.u.i;
    return 0;
}

/* The layout, device and pin_memory of the tail at argument i (after dtype). */
static int check_placement(TsArgs *a, size_t i)
{
    TsError *err = a->call->error;
    TsValue layout = a->v[i + 1], device = a->v[i + 2], pin_memory = a->v[i + 3];
    if (layout.tag != TS_TAG_NONE && !(layout.tag == TS_TAG_INT && layout.u.i == 0))
        return ts_error_set(err, TS_ERR_RUNTIME, "%s: the cpu backend supports only the "
                            "strided layout", ts_args_op_name(a));
    if (device.tag != TS_TAG_NONE &&
        !(device.tag == TS_TAG_DEVICE && device.u.dev.type == TS_DEV_CPU)) {
        char dev[32] = "?";
        if (device.tag == TS_TAG_DEVICE)
            ts_device_str(device.u.dev, dev, sizeof dev);
        return ts_error_set(err, TS_ERR_RUNTIME, "%s: the cpu kernel cannot create a tensor "
                            "on device %s", ts_args_op_name(a), dev);
    }
    if (pin_memory.tag == TS_TAG_BOOL && pin_memory.u.b)
        return ts_error_set(err, TS_ERR_RUNTIME, "%s: pin_memory=True needs an accelerator "
                            "backend", ts_args_op_name(a));
    return 0;
}

/* Strides for the memory format in argument i (none when has is false), or an error for
 * one that does not fit the rank. */
static int format_strides(TsArgs *a, size_t i, bool has, int dim, const int64_t *sizes,
                          int64_t *strides, bool *contiguous)
{
    TsError *err = a->call->error;
    TsValue v = has ? a->v[i] : ts_none();
    int64_t mf = v.tag == TS_TAG_INT ? v.u.i : TS_ATEN_MF_CONTIGUOUS;
    *contiguous = true;
    if (v.tag != TS_TAG_NONE && v.tag != TS_TAG_INT)
        return ts_error_set(err, TS_ERR_TYPE, "argument '%s' is not a memory format",
                            ts_args_name(a, i));
    if (mf == TS_ATEN_MF_CONTIGUOUS)
        return 0;
    if (mf == TS_ATEN_MF_PRESERVE)
        return ts_error_set(err, TS_ERR_RUNTIME, "unsupported memory format Preserve");
    if (ts_aten_format_strides(mf, dim, sizes, strides, err))
        return err->code;
    *contiguous = false;
    return 0;
}

/* A new uninitialized tensor of the sizes in argument size_i with the factory tail at
 * argument tail (dtype, layout, device, pin_memory and, with has_memory_format, the
 * memory_format after them); dtype is the default for a None dtype. */
static TsTensor *create(TsArgs *a, size_t size_i, size_t tail, int dtype,
                        bool has_memory_format)
{
    TsError *err = a->call->error;
    int dim = 0;
    int64_t sizes[TS_TENSOR_MAX_DIMS], strides[TS_TENSOR_MAX_DIMS];
    bool contiguous;
    if (read_sizes(a, size_i, &dim, sizes) || read_dtype(a, tail, &dtype) ||
        check_placement(a, tail) || format_strides(a, tail + 4, has_memory_format, dim, sizes, strides,
                       &contiguous))
        return NULL;
    TsDevice cpu = { TS_DEV_CPU, -1 };
    TsTensor *t = ts_tensor_empty(&ts_cpu_allocator, cpu, dtype, dim, sizes, err);
    if (t && !contiguous && ts_tensor_set_shape(t, dim, sizes, strides, 0, err)) {
        ts_tensor_release(t);
        return NULL;
    }
    return t;
}

/* Fills t with the scalar v; on failure releases t. */
static int fill_new(TsCall *c, TsTensor *t, TsValue v)
{
    unsigned char elem[16];
    if (ts_aten_scalar_to_elem(v, t->dtype, elem, c->error)) {
        ts_tensor_release(t);
        return c->error->code;
    }
    ts_cpu_fill(t, elem);
    return 0;
}

/* aten::empty.memory_format(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None,
 *     Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor */
static int k_empty(TsCall *c)
{
    TsArgs a;
    TsTensor *t = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc && !(t = create(&a, 0, 1, TS_FLOAT32, true)))
        rc = c->error->code;
    return ts_args_return_tensor(&a, rc, t);
}

/* zeros and ones: (SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None,
 *     Device? device=None, bool? pin_memory=None) -> Tensor */
static int constant_factory(TsCall *c, bool one)
{
    TsArgs a;
    TsTensor *t = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc && !(t = create(&a, 0, 1, TS_FLOAT32, false)))
        rc = c->error->code;
    if (!rc && !one) {
        void *data = ts_tensor_data(t);
        if (data)
            memset(data, 0, (size_t)ts_tensor_numel(t) * ts_dtype_size(t->dtype));
    } else if (!rc && fill_new(c, t, ts_int(1))) {
        return ts_args_fail(&a, c->error->code);
    }
    return ts_args_return_tensor(&a, rc, t);
}

/* rand and randn: (int[] size, *, ScalarType? dtype=None, Layout? layout=None,
 *     Device? device=None, bool? pin_memory=None) -> Tensor; randint: ([int low,] int high,
 *     int[] size, *, ScalarType? dtype=4, ...) -> Tensor. n_bounds ints come first. */
static int random_factory(TsCall *c, TsAtenDrawKind kind, size_t n_bounds, int dtype)
{
    TsArgs a;
    TsTensor *t = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (rc)
        return ts_args_fail(&a, rc);
    TsAtenDraw d = ts_aten_draw(kind, a.v, n_bounds);
    if (!(t = create(&a, n_bounds, n_bounds + 1, dtype, false)))
        rc = c->error->code;
    if (!rc && ts_aten_random_fill(t, &d, c->error))
        rc = c->error->code;
    return ts_args_return_tensor(&a, rc, t);
}

/* normal.float_float(float mean, float std, int[] size, *, Generator? generator=None,
 *     ScalarType? dtype=None, Layout? layout=None, Device? device=None,
 *     bool? pin_memory=None) -> Tensor: randn's tensor with this mean and std. */
static int k_normal_float_float(TsCall *c)
{
    TsArgs a;
    TsTensor *t = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (rc)
        return ts_args_fail(&a, rc);
    TsAtenDraw d = ts_aten_draw(TS_ATEN_DRAW_NORMAL, NULL, 0);
    d.a = ts_nn_double(a.v[0]);
    d.b = ts_nn_double(a.v[1]);
    if (!(t = create(&a, 2, 4, TS_FLOAT32, false)))
        rc = c->error->code;
    if (!rc && ts_aten_random_fill(t, &d, c->error))
        rc = c->error->code;
    return ts_args_return_tensor(&a, rc, t);
}

static int k_rand(TsCall *c) { return random_factory(c, TS_ATEN_DRAW_UNIFORM, 0, TS_FLOAT32); }
static int k_randn(TsCall *c) { return random_factory(c, TS_ATEN_DRAW_NORMAL, 0, TS_FLOAT32); }
static int k_randint(TsCall *c) { return random_factory(c, TS_ATEN_DRAW_INT, 1, TS_INT64); }
static int k_randint_low(TsCall *c) { return random_factory(c, TS_ATEN_DRAW_INT, 2, TS_INT64); }
static int k_zeros(TsCall *c) { return constant_factory(c, false); }
static int k_ones(TsCall *c) { return constant_factory(c, true); }

/* aten::full(SymInt[] size, Scalar fill_value, *, ScalarType? dtype=None, Layout? layout=None,
 *     Device? device=None, bool? pin_memory=None) -> Tensor */
static int k_full(TsCall *c)
{
    TsArgs a;
    TsTensor *t = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc && !(t = create(&a, 0, 2, ts_aten_scalar_dtype(a.v[1]), false)))
        rc = c->error->code;
    if (!rc && fill_new(c, t, a.v[1]))
        return ts_args_fail(&a, c->error->code);
    return ts_args_return_tensor(&a, rc, t);
}

/* new_empty, new_zeros, new_ones (Tensor self, SymInt[] size, *, ScalarType? dtype=None,
 *     Layout? layout=None, Device? device=None, bool? pin_memory=None) and new_full (with
 *     Scalar fill_value after size): like the factories, with self's dtype as the default. */
typedef enum NewKind { NEW_EMPTY, NEW_ZEROS, NEW_ONES, NEW_FULL } NewKind;

static int new_factory(TsCall *c, NewKind kind)
{
    TsArgs a;
    TsTensor *self, *t = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc)
        rc = ts_args_tensor(&a, 0, &self);
    if (!rc && !(t = create(&a, 1, a.n - 4, self->dtype, false)))
        rc = c->error->code;
    if (!rc && kind != NEW_EMPTY &&
        fill_new(c, t, kind == NEW_FULL ? a.v[2] : ts_int(kind == NEW_ONES)))
        return ts_args_fail(&a, c->error->code);
    return ts_args_return_tensor(&a, rc, t);
}

static int k_new_empty(TsCall *c) { return new_factory(c, NEW_EMPTY); }
static int k_new_zeros(TsCall *c) { return new_factory(c, NEW_ZEROS); }
static int k_new_ones(TsCall *c) { return new_factory(c, NEW_ONES); }
static int k_new_full(TsCall *c) { return new_factory(c, NEW_FULL); }

/* empty_strided(SymInt[] size, SymInt[] stride, *, ScalarType? dtype=None, Layout? layout=None,
 *     Device? device=None, bool? pin_memory=None) -> Tensor, and new_empty_strided with self
 *     first (self's dtype by default): storage for the furthest element the strides reach,
 *     the tensor over it with those strides (ts_tensor_new checks they stay inside). */
static int empty_strided(TsCall *c, bool method)
{
    TsArgs a;
    TsTensor *self = NULL, *t = NULL;
    int64_t sizes[TS_TENSOR_MAX_DIMS], strides[TS_TENSOR_MAX_DIMS];
    int dim = 0, nstrides = 0, dtype = TS_FLOAT32;
    size_t at = method ? 1 : 0;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc && method) rc = ts_args_tensor(&a, 0, &self);
    if (!rc && self) dtype = self->dtype;
    if (!rc) rc = read_sizes(&a, at, &dim, sizes);
    if (!rc) rc = read_sizes(&a, at + 1, &nstrides, strides);
    if (!rc) rc = read_dtype(&a, at + 2, &dtype);
    if (!rc) rc = check_placement(&a, at + 2);
    if (!rc && nstrides != dim)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "mismatch in length of strides and shape");
    /* the elements it spans: 1 + sum((size - 1) * stride), none when a size is 0 */
    int64_t span = 1;
    for (int k = 0; !rc && k < dim; k++) {
        int64_t step;
        if (sizes[k] < 0)
            rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Trying to create tensor with negative "
                              "dimension %lld: [%lld]", (long long)sizes[k], (long long)sizes[k]);
        else if (strides[k] < 0)
            rc = ts_error_set(c->error, TS_ERR_RUNTIME, "%s: negative strides are not supported",
                              ts_args_op_name(&a));
        else if (sizes[k] == 0)
            span = 0;
        else if (span && (__builtin_mul_overflow(sizes[k] - 1, strides[k], &step) ||
                          __builtin_add_overflow(span, step, &span)))
            rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Storage size calculation overflowed "
                              "with sizes=[...] and strides=[...]");
    }
    size_t es = ts_dtype_size(dtype), bytes = 0;
    if (!rc && __builtin_mul_overflow((size_t)span, es, &bytes))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Storage size calculation overflowed");
    if (!rc) {
        TsDevice cpu = { TS_DEV_CPU, -1 };
        TsStorage *st = ts_storage_new(&ts_cpu_allocator, bytes, cpu, c->error);
        t = st ? ts_tensor_new(st, dtype, dim, sizes, strides, 0, c->error) : NULL;
        if (st)
            ts_storage_release(st);
        rc = t ? 0 : (int)c->error->code;
    }
    return ts_args_return_tensor(&a, rc, t);
}

static int k_empty_strided(TsCall *c) { return empty_strided(c, false); }
static int k_new_empty_strided(TsCall *c) { return empty_strided(c, true); }

/* aten::fill_.Scalar(Tensor(a!) self, Scalar value) -> Tensor(a!) */
static int k_fill(TsCall *c)
{
    TsArgs a;
    TsTensor *t;
    unsigned char elem[16];
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc)
        rc = ts_args_tensor(&a, 0, &t);
    if (!rc)
        rc = ts_aten_scalar_to_elem(a.v[1], t->dtype, elem, c->error);
    if (!rc)
        ts_cpu_fill(t, elem);
    return ts_args_return_arg(&a, rc, 0);
}

/* aten::zero_(Tensor(a!) self) -> Tensor(a!): all-zero bytes are 0 in every cpu dtype. */
static int k_zero(TsCall *c)
{
    TsArgs a;
    TsTensor *t;
    unsigned char elem[16] = { 0 };
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc)
        rc = ts_args_tensor(&a, 0, &t);
    if (!rc)
        ts_cpu_fill(t, elem);
    return ts_args_return_arg(&a, rc, 0);
}

static const TsCpuOp ops[] = {
    { "aten::empty", "memory_format", k_empty },
    { "aten::zeros", "", k_zeros },
    { "aten::rand", "", k_rand },
    { "aten::randn", "", k_randn },
    { "aten::normal", "float_float", k_normal_float_float },
    { "aten::randint", "", k_randint },
    { "aten::randint", "low", k_randint_low },
    { "aten::ones", "", k_ones },
    { "aten::full", "", k_full },
    { "aten::new_empty", "", k_new_empty },
    { "aten::new_zeros", "", k_new_zeros },
    { "aten::new_ones", "", k_new_ones },
    { "aten::new_full", "", k_new_full },
    { "aten::empty_strided", "", k_empty_strided },
    { "aten::new_empty_strided", "", k_new_empty_strided },
    { "aten::fill_", "Scalar", k_fill },
    { "aten::zero_", "", k_zero },
    { "aten::_no_grad_fill_", "", k_fill },
    { "aten::_no_grad_zero_", "", k_zero },
};

const TsCpuTable ts_cpu_factory_table = { ops, sizeof ops / sizeof ops[0] };
