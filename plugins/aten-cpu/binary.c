/* binary.c — elementwise binary tensor ops: add.Tensor (with alpha) and mul.Tensor.
 *
 * This first slice computes tensors of the same shape and the same real dtype (uint8, int8,
 * int16, int32, int64, float32, float64) that are contiguous; anything else is a clear
 * RuntimeError rather than a wrong answer. Shapes that cannot broadcast get PyTorch's
 * message; broadcasting, type promotion and strided inputs come with the elementwise engine.
 *
 * Integer results wrap around (computed in uint64_t, so overflow is defined); float results
 * are the dtype's IEEE arithmetic. alpha follows PyTorch's rules: no float alpha for integer
 * tensors, no bool alpha for non-bool results.
 */
#include "cpu.h"

typedef enum BinOp { BIN_ADD, BIN_MUL } BinOp;

/* alpha in both kinds: the loops pick the one their dtype needs */
typedef struct Alpha {
    int64_t i;
    double d;
} Alpha;

static int read_alpha(TsCall *c, const char *op, TsValue v, int dtype, Alpha *alpha)
{
    bool integral = ts_dtype_is_integral(dtype, true);
    switch (v.tag) {
    case TS_TAG_INT:
        alpha->i = v.u.i;
        alpha->d = (double)v.u.i;
        return 0;
    case TS_TAG_DOUBLE:
        if (integral)
            return ts_error_set(c->error, TS_ERR_RUNTIME, "For integral input tensors, argument "
                                "alpha must not be a floating point number.");
        alpha->i = 0;
        alpha->d = v.u.d;
        return 0;
    case TS_TAG_BOOL:
        return ts_error_set(c->error, TS_ERR_RUNTIME,
                            "Boolean alpha only supported for Boolean results.");
    default:
        return ts_error_set(c->error, TS_ERR_RUNTIME, "%s: alpha must be an int or a float",
                            op);
    }
}

/* Same shape, or PyTorch's message for shapes that cannot broadcast, or ours for shapes that
 * could but are not supported yet. */
static int check_shapes(TsCall *c, const char *op, const TsTensor *a, const TsTensor *b)
{
    bool same = a->dim == b->dim;
    for (int i = 0; same && i < a->dim; i++)
        same = a->sizes[i] == b->sizes[i];
    if (same)
        return 0;
    int n = a->dim > b->dim ? a->dim : b->dim;
    for (int k = 1; k <= n; k++) {
        int64_t sa = k <= a->dim ? a->sizes[a->dim - k] : 1;
        int64_t sb = k <= b->dim ? b->sizes[b->dim - k] : 1;
        if (sa != sb && sa != 1 && sb != 1)
            return ts_error_set(c->error, TS_ERR_RUNTIME,
                                "The size of tensor a (%lld) must match the size of tensor b "
                                "(%lld) at non-singleton dimension %d",
                                (long long)sa, (long long)sb, n - k);
    }
    char sa[128], sb[128];
    ts_cpu_format_sizes(sa, sizeof sa, a->dim, a->sizes);
    ts_cpu_format_sizes(sb, sizeof sb, b->dim, b->sizes);
    return ts_error_set(c->error, TS_ERR_RUNTIME,
                        "%s: broadcasting shapes %s and %s is not supported by the cpu backend "
                        "yet", op, sa, sb);
}

static int check_operands(TsCall *c, const char *op, const TsTensor *a, const TsTensor *b)
{
    if (a->dtype != b->dtype)
        return ts_error_set(c->error, TS_ERR_RUNTIME,
                            "%s: mixing dtypes %s and %s is not supported by the cpu backend "
                            "yet", op, ts_dtype_name(a->dtype), ts_dtype_name(b->dtype));
    if (!ts_tensor_is_contiguous(a) || !ts_tensor_is_contiguous(b))
        return ts_error_set(c->error, TS_ERR_RUNTIME,
                            "%s: non-contiguous tensors are not supported by the cpu backend "
                            "yet", op);
    return check_shapes(c, op, a, b);
}

/* out = x op y over n elements of one dtype; false for a dtype without a loop. */
static bool run_loop(BinOp op, int dtype, int64_t n, const void *xv, const void *yv, void *ov,
                     Alpha alpha)
{
    switch (dtype) {
#define INT_LOOP(DT, T) \
    case DT: { \
        const T *x = xv, *y = yv; \
        T *o = ov; \
        uint64_t al = (uint64_t)alpha.i; \
        if (op == BIN_ADD) \
            for (int64_t i = 0; i < n; i++) \
                o[i] = (T)((uint64_t)x[i] + al * (uint64_t)y[i]); \
        else \
            for (int64_t i = 0; i < n; i++) \
                o[i] = (T)((uint64_t)x[i] * (uint64_t)y[i]); \
        return true; \
    }
#define FLOAT_LOOP(DT, T) \
    case DT: { \
        const T *x = xv, *y = yv; \
        T *o = ov; \
        T al = (T)alpha.d; \
        if (op == BIN_ADD && alpha.d == 1.0) \
            for (int64_t i = 0; i < n; i++) \
                o[i] = x[i] + y[i]; \
        else if (op == BIN_ADD) \
            for (int64_t i = 0; i < n; i++) \
                o[i] = x[i] + al * y[i]; \
        else \
            for (int64_t i = 0; i < n; i++) \
                o[i] = x[i] * y[i]; \
        return true; \
    }
    TS_CPU_INT_DTYPES(INT_LOOP)
    TS_CPU_FLOAT_DTYPES(FLOAT_LOOP)
#undef INT_LOOP
#undef FLOAT_LOOP
    default:
        return false;
    }
}

/* Pops (self, other[, alpha]) and pushes a new tensor self op other. */
static int binary(TsCall *c, const char *op, BinOp bop, size_t nargs)
{
    TsValue a[3];
    Alpha alpha = { 1, 1.0 };
    TsTensor *out = NULL;
    ts_cpu_pop_args(c, nargs, a);
    TsTensor *x = ts_cpu_tensor_arg(c, op, "self", a[0]);
    TsTensor *y = x ? ts_cpu_tensor_arg(c, op, "other", a[1]) : NULL;
    int rc = y ? check_operands(c, op, x, y) : (int)c->error->code;
    if (!rc && nargs == 3)
        rc = read_alpha(c, op, a[2], x->dtype, &alpha);
    if (!rc) {
        out = ts_tensor_empty(&ts_cpu_allocator, x->device, x->dtype, x->dim, x->sizes,
                              c->error);
        rc = out ? 0 : (int)c->error->code;
    }
    if (!rc && !run_loop(bop, x->dtype, ts_tensor_numel(x), ts_tensor_data(x),
                         ts_tensor_data(y), ts_tensor_data(out), alpha)) {
        rc = ts_error_set(c->error, TS_ERR_RUNTIME,
                          "%s: dtype %s is not supported by the cpu backend yet", op,
                          ts_dtype_name(x->dtype));
        ts_tensor_release(out);
    }
    ts_cpu_release_args(nargs, a);
    return rc ? rc : ts_cpu_push_tensor(c, out);
}

/* aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor */
static int k_add(TsCall *c) { return binary(c, "aten::add", BIN_ADD, 3); }
/* aten::mul.Tensor(Tensor self, Tensor other) -> Tensor */
static int k_mul(TsCall *c) { return binary(c, "aten::mul", BIN_MUL, 2); }

static const TsCpuOp ops[] = {
    { "aten::add", "Tensor", k_add },
    { "aten::mul", "Tensor", k_mul },
};

const TsCpuTable ts_cpu_binary_table = { ops, sizeof ops / sizeof ops[0] };
