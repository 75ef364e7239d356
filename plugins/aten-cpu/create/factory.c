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
#include "create/random.h"

/* PyTorch's MemoryFormat numbering. */
enum { MF_CONTIGUOUS = 0, MF_PRESERVE = 1, MF_CHANNELS_LAST = 2, MF_CHANNELS_LAST_3D = 3 };

/* The optional arguments every factory takes; memory_format is None for all but empty. */
typedef struct FactoryOpts {
    TsValue dtype, layout, device, pin_memory, memory_format;
} FactoryOpts;

static int read_sizes(TsCall *c, const char *op, TsValue v, int *dim, int64_t *sizes)
{
    if (v.tag != TS_TAG_LIST)
        return ts_error_set(c->error, TS_ERR_TYPE, "%s: argument 'size' must be a list of ints",
                            op);
    const TsList *l = (const TsList *)v.u.p;
    if (l->len > TS_TENSOR_MAX_DIMS)
        return ts_error_set(c->error, TS_ERR_LIMIT, "%s: %zu dimensions is more than %d", op,
                            l->len, TS_TENSOR_MAX_DIMS);
    *dim = (int)l->len;
    for (size_t i = 0; i < l->len; i++) {
        if (l->items[i].tag != TS_TAG_INT)
            return ts_error_set(c->error, TS_ERR_TYPE,
                                "%s: argument 'size' must be a list of ints", op);
        sizes[i] = l->items[i].u.i;
    }
    return 0;
}

static int read_dtype(TsCall *c, const char *op, TsValue v, int *dtype)
{
    if (v.tag == TS_TAG_NONE)
        return 0;
    if (v.tag != TS_TAG_INT || v.u.i < 0 || v.u.i >= TS_DTYPE__COUNT ||
        ts_dtype_size((int)v.u.i) == 0)
        return ts_error_set(c->error, TS_ERR_TYPE, "%s: argument 'dtype' is not a dtype", op);
    *dtype = (int)v.u.i;
    return 0;
}

static int check_placement(TsCall *c, const char *op, const FactoryOpts *o)
{
    if (o->layout.tag != TS_TAG_NONE && !(o->layout.tag == TS_TAG_INT && o->layout.u.i == 0))
        return ts_error_set(c->error, TS_ERR_RUNTIME,
                            "%s: the cpu backend supports only the strided layout", op);
    if (o->device.tag != TS_TAG_NONE &&
        !(o->device.tag == TS_TAG_DEVICE && o->device.u.dev.type == TS_DEV_CPU)) {
        char dev[32] = "?";
        if (o->device.tag == TS_TAG_DEVICE)
            ts_device_str(o->device.u.dev, dev, sizeof dev);
        return ts_error_set(c->error, TS_ERR_RUNTIME,
                            "%s: the cpu kernel cannot create a tensor on device %s", op, dev);
    }
    if (o->pin_memory.tag == TS_TAG_BOOL && o->pin_memory.u.b)
        return ts_error_set(c->error, TS_ERR_RUNTIME,
                            "%s: pin_memory=True needs an accelerator backend", op);
    return 0;
}

/* Strides for a memory format, or an error for one that does not fit the rank. */
static int format_strides(TsCall *c, TsValue v, int dim, const int64_t *sizes, int64_t *strides,
                          bool *contiguous)
{
    int64_t mf = v.tag == TS_TAG_INT ? v.u.i : MF_CONTIGUOUS;
    *contiguous = true;
    if (v.tag != TS_TAG_NONE && v.tag != TS_TAG_INT)
        return ts_error_set(c->error, TS_ERR_TYPE, "argument 'memory_format' is not a memory format");
    if (mf == MF_CONTIGUOUS)
        return 0;
    if (mf == MF_PRESERVE)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "unsupported memory format Preserve");
    int rank = mf == MF_CHANNELS_LAST ? 4 : 5;
    if (mf != MF_CHANNELS_LAST && mf != MF_CHANNELS_LAST_3D)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "unsupported memory format %lld",
                            (long long)mf);
    if (dim != rank)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "required rank %d tensor to use %s format",
                            rank, rank == 4 ? "channels_last" : "channels_last_3d");
    /* channels innermost, then the spatial dims from the last, then the batch */
    int64_t s = 1;
    strides[1] = s;
    s *= sizes[1] > 1 ? sizes[1] : 1;
    for (int k = dim - 1; k >= 2; k--) {
        strides[k] = s;
        s *= sizes[k] > 1 ? sizes[k] : 1;
    }
    strides[0] = s;
    *contiguous = false;
    return 0;
}

/* A new uninitialized tensor from a factory's arguments. */
static TsTensor *create(TsCall *c, const char *op, TsValue size, int dtype, const FactoryOpts *o)
{
    int dim = 0;
    int64_t sizes[TS_TENSOR_MAX_DIMS], strides[TS_TENSOR_MAX_DIMS];
    bool contiguous;
    if (read_sizes(c, op, size, &dim, sizes) || read_dtype(c, op, o->dtype, &dtype) ||
        check_placement(c, op, o) ||
        format_strides(c, o->memory_format, dim, sizes, strides, &contiguous))
        return NULL;
    TsDevice cpu = { TS_DEV_CPU, -1 };
    TsTensor *t = ts_tensor_empty(&ts_cpu_allocator, cpu, dtype, dim, sizes, c->error);
    if (t && !contiguous && ts_tensor_set_shape(t, dim, sizes, strides, 0, c->error)) {
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

static FactoryOpts opts_of(const TsValue *tail, bool has_memory_format)
{
    FactoryOpts o = { tail[0], tail[1], tail[2], tail[3],
                      has_memory_format ? tail[4] : ts_none() };
    return o;
}

/* aten::empty.memory_format(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None,
 *     Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor */
static int k_empty(TsCall *c)
{
    TsValue a[6];
    ts_cpu_pop_args(c, 6, a);
    FactoryOpts o = opts_of(a + 1, true);
    TsTensor *t = create(c, "aten::empty", a[0], TS_FLOAT32, &o);
    ts_cpu_release_args(6, a);
    return t ? ts_cpu_push_tensor(c, t) : (int)c->error->code;
}

/* zeros and ones: (SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None,
 *     Device? device=None, bool? pin_memory=None) -> Tensor */
static int constant_factory(TsCall *c, const char *op, bool one)
{
    TsValue a[5];
    ts_cpu_pop_args(c, 5, a);
    FactoryOpts o = opts_of(a + 1, false);
    TsTensor *t = create(c, op, a[0], TS_FLOAT32, &o);
    ts_cpu_release_args(5, a);
    if (!t)
        return c->error->code;
    if (!one) {
        void *data = ts_tensor_data(t);
        if (data)
            memset(data, 0, (size_t)ts_tensor_numel(t) * ts_dtype_size(t->dtype));
    } else if (fill_new(c, t, ts_int(1))) {
        return c->error->code;
    }
    return ts_cpu_push_tensor(c, t);
}

/* rand and randn: (int[] size, *, ScalarType? dtype=None, Layout? layout=None,
 *     Device? device=None, bool? pin_memory=None) -> Tensor; randint: ([int low,] int high,
 *     int[] size, *, ScalarType? dtype=4, ...) -> Tensor. n_bounds ints come first. */
static int random_factory(TsCall *c, const char *op, TsCpuDrawKind kind, size_t n_bounds,
                          int dtype)
{
    TsValue a[7];
    size_t n = 5 + n_bounds;
    ts_cpu_pop_args(c, n, a);
    TsCpuDraw d = ts_cpu_draw(kind, a, n_bounds);
    FactoryOpts o = opts_of(a + n_bounds + 1, false);
    TsTensor *t = create(c, op, a[n_bounds], dtype, &o);
    ts_cpu_release_args(n, a);
    if (t && ts_cpu_random_fill(c->error, t, &d)) {
        ts_tensor_release(t);
        t = NULL;
    }
    return t ? ts_cpu_push_tensor(c, t) : (int)c->error->code;
}

static int k_rand(TsCall *c)
{
    return random_factory(c, "aten::rand", TS_DRAW_UNIFORM, 0, TS_FLOAT32);
}

static int k_randn(TsCall *c)
{
    return random_factory(c, "aten::randn", TS_DRAW_NORMAL, 0, TS_FLOAT32);
}

static int k_randint(TsCall *c)
{
    return random_factory(c, "aten::randint", TS_DRAW_INT, 1, TS_INT64);
}

static int k_randint_low(TsCall *c)
{
    return random_factory(c, "aten::randint", TS_DRAW_INT, 2, TS_INT64);
}

static int k_zeros(TsCall *c) { return constant_factory(c, "aten::zeros", false); }
static int k_ones(TsCall *c) { return constant_factory(c, "aten::ones", true); }

/* aten::full(SymInt[] size, Scalar fill_value, *, ScalarType? dtype=None, Layout? layout=None,
 *     Device? device=None, bool? pin_memory=None) -> Tensor */
static int k_full(TsCall *c)
{
    TsValue a[6];
    ts_cpu_pop_args(c, 6, a);
    FactoryOpts o = opts_of(a + 2, false);
    TsTensor *t = create(c, "aten::full", a[0], ts_aten_scalar_dtype(a[1]), &o);
    int rc = t ? fill_new(c, t, a[1]) : (int)c->error->code;
    ts_cpu_release_args(6, a);
    return rc ? rc : ts_cpu_push_tensor(c, t);
}

/* new_empty, new_zeros, new_ones (Tensor self, SymInt[] size, *, ScalarType? dtype=None,
 *     Layout? layout=None, Device? device=None, bool? pin_memory=None) and new_full (with
 *     Scalar fill_value after size): like the factories, with self's dtype as the default. */
typedef enum NewKind { NEW_EMPTY, NEW_ZEROS, NEW_ONES, NEW_FULL } NewKind;

static int new_factory(TsCall *c, const char *op, NewKind kind)
{
    TsValue a[7];
    size_t n = kind == NEW_FULL ? 7 : 6;
    ts_cpu_pop_args(c, n, a);
    const TsTensor *self = ts_cpu_tensor_arg(c, op, "self", a[0]);
    FactoryOpts o = opts_of(a + n - 4, false);
    TsTensor *t = self ? create(c, op, a[1], self->dtype, &o) : NULL;
    int rc = t ? 0 : (int)c->error->code;
    if (!rc && kind != NEW_EMPTY)
        rc = fill_new(c, t, kind == NEW_FULL ? a[2] : ts_int(kind == NEW_ONES));
    ts_cpu_release_args(n, a);
    return rc ? rc : ts_cpu_push_tensor(c, t);
}

static int k_new_empty(TsCall *c) { return new_factory(c, "aten::new_empty", NEW_EMPTY); }
static int k_new_zeros(TsCall *c) { return new_factory(c, "aten::new_zeros", NEW_ZEROS); }
static int k_new_ones(TsCall *c) { return new_factory(c, "aten::new_ones", NEW_ONES); }
static int k_new_full(TsCall *c) { return new_factory(c, "aten::new_full", NEW_FULL); }

/* aten::fill_.Scalar(Tensor(a!) self, Scalar value) -> Tensor(a!) */
static int k_fill(TsCall *c)
{
    TsValue a[2];
    unsigned char elem[16];
    ts_cpu_pop_args(c, 2, a);
    TsTensor *t = ts_cpu_tensor_arg(c, "aten::fill_", "self", a[0]);
    if (!t || ts_aten_scalar_to_elem(a[1], t->dtype, elem, c->error)) {
        ts_cpu_release_args(2, a);
        return c->error->code;
    }
    ts_cpu_fill(t, elem);
    ts_value_release(a[1]);
    return ts_stack_push(c->stack, a[0], c->error);
}

/* aten::zero_(Tensor(a!) self) -> Tensor(a!): all-zero bytes are 0 in every cpu dtype. */
static int k_zero(TsCall *c)
{
    TsValue a;
    unsigned char elem[16] = { 0 };
    ts_cpu_pop_args(c, 1, &a);
    if (!ts_cpu_tensor_arg(c, "aten::zero_", "self", a)) {
        ts_value_release(a);
        return c->error->code;
    }
    ts_cpu_fill((TsTensor *)a.u.p, elem);
    return ts_stack_push(c->stack, a, c->error);
}

static const TsCpuOp ops[] = {
    { "aten::empty", "memory_format", k_empty },
    { "aten::zeros", "", k_zeros },
    { "aten::rand", "", k_rand },
    { "aten::randn", "", k_randn },
    { "aten::randint", "", k_randint },
    { "aten::randint", "low", k_randint_low },
    { "aten::ones", "", k_ones },
    { "aten::full", "", k_full },
    { "aten::new_empty", "", k_new_empty },
    { "aten::new_zeros", "", k_new_zeros },
    { "aten::new_ones", "", k_new_ones },
    { "aten::new_full", "", k_new_full },
    { "aten::fill_", "Scalar", k_fill },
    { "aten::zero_", "", k_zero },
};

const TsCpuTable ts_cpu_factory_table = { ops, sizeof ops / sizeof ops[0] };
