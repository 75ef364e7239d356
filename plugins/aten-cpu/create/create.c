/* create.c — tensors made from arguments: the *_like factories, arange, linspace, logspace, eye,
 * aten::tensor and aten::as_tensor from a number or a nested list (as_tensor of a tensor is
 * the tensor itself), and back again: item and prim::tolist.
 *
 * dtype inference follows PyTorch 1.13: arange is int64 when every bound is an int and
 * float32 (the default dtype) when any is a float; torch.tensor stores ints as int64, bools
 * as bool and floats as float32 first, then converts to a requested dtype (so a float list
 * asked for as float64 passes through float32, as TorchScript's does). Ranges compute in
 * int64 for integral results and in double (float for float32 linspace) otherwise.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "create/factory.h"
#include "shape/shape_ops.h"


/* ---- the optional tail of factories: dtype, layout, device, pin_memory ------------------ */

/* Argument i as a dtype the cpu backend makes tensors of (None keeps *dtype). */
static int read_dtype(TsArgs *a, size_t i, int *dtype)
{
    TsValue v = a->v[i];
    if (v.tag == TS_TAG_NONE)
        return 0;
    if (v.tag != TS_TAG_INT || v.u.i < 0 || v.u.i >= TS_DTYPE__COUNT ||
        ts_dtype_is_complex((int)v.u.i) || ts_dtype_size((int)v.u.i) == 0 ||
        v.u.i == TS_QINT8 || v.u.i == TS_QUINT8 || v.u.i == TS_QINT32)
        return ts_error_set(a->call->error, TS_ERR_TYPE, "%s: dtype %lld is not supported by "
                            "the cpu backend", ts_args_op_name(a), (long long)v.u.i);
    *dtype = (int)v.u.i;
    return 0;
}

/* Argument i as a device: None or the cpu. */
static int check_device(TsArgs *a, size_t i)
{
    TsValue v = a->v[i];
    if (v.tag == TS_TAG_NONE || (v.tag == TS_TAG_DEVICE && v.u.dev.type == TS_DEV_CPU))
        return 0;
    char dev[32] = "?";
    if (v.tag == TS_TAG_DEVICE)
        ts_device_str(v.u.dev, dev, sizeof dev);
    return ts_error_set(a->call->error, TS_ERR_RUNTIME, "%s: the cpu kernel cannot create a "
                        "tensor on device %s", ts_args_op_name(a), dev);
}

int ts_cpu_factory_args(TsArgs *a, size_t i, int *dtype)
{
    TsError *err = a->call->error;
    const TsValue *tail = a->v + i;
    if (read_dtype(a, i, dtype) || check_device(a, i + 2))
        return err->code;
    if (tail[1].tag != TS_TAG_NONE && !(tail[1].tag == TS_TAG_INT && tail[1].u.i == 0))
        return ts_error_set(err, TS_ERR_RUNTIME, "%s: the cpu backend supports only the "
                            "strided layout", ts_args_op_name(a));
    if (tail[3].tag == TS_TAG_BOOL && tail[3].u.b)
        return ts_error_set(err, TS_ERR_RUNTIME, "%s: pin_memory=True needs an accelerator "
                            "backend", ts_args_op_name(a));
    return 0;
}

/* Fills t with a Scalar converted to its dtype (PyTorch's overflow checks). */
static int fill_scalar(TsError *err, TsTensor *t, TsValue v)
{
    if (ts_tensor_numel(t) == 0)
        return 0;
    TsTensor *s = ts_cpu_scalar_tensor(v, t->dtype, err);
    if (!s)
        return err->code;
    ts_cpu_copy_into(t, s);
    ts_tensor_release(s);
    return 0;
}

/* ---- *_like ------------------------------------------------------------------------------ */

/* A new tensor like self (argument 0) from the factory tail at argument tail (dtype, layout,
 * device, pin_memory, memory_format): uninitialized; NULL with the error set. */
static TsTensor *like_new(TsArgs *a, size_t tail)
{
    TsError *err = a->call->error;
    TsTensor *t;
    if (ts_args_tensor(a, 0, &t))
        return NULL;
    int dtype = t->dtype;
    int64_t mf = a->v[tail + 4].tag == TS_TAG_INT ? a->v[tail + 4].u.i : TS_ATEN_MF_PRESERVE;
    if (ts_cpu_factory_args(a, tail, &dtype))
        return NULL;
    return mf == TS_ATEN_MF_PRESERVE ? ts_cpu_empty_like(t, dtype, err)
                                     : ts_cpu_empty_format(dtype, t->dim, t->sizes, mf, err);
}

/* zeros_like, ones_like, empty_like, full_like: (Tensor self, [Scalar fill_value,] *,
 * ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None,
 * MemoryFormat? memory_format=None) -> Tensor. fill is NULL for empty_like. */
static int like_kernel(TsCall *c, bool has_fill, const TsValue *fill)
{
    TsArgs a;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (rc)
        return ts_args_fail(&a, rc);
    TsTensor *r = like_new(&a, has_fill ? 2 : 1);
    TsValue v = has_fill ? a.v[1] : fill ? *fill : ts_none();
    if (r && (has_fill || fill) && fill_scalar(c->error, r, v)) {
        ts_tensor_release(r);
        r = NULL;
    }
    return ts_args_return_tensor(&a, r ? 0 : (int)c->error->code, r);
}

/* rand_like, randn_like: (Tensor self, *, <the tail>) -> Tensor; randint_like: (Tensor self,
 * [int low,] int high, *, <the tail>) -> Tensor. n_bounds ints follow self. */
static int random_like(TsCall *c, TsAtenDrawKind kind, size_t n_bounds)
{
    TsArgs a;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (rc)
        return ts_args_fail(&a, rc);
    TsAtenDraw d = ts_aten_draw(kind, a.v + 1, n_bounds);
    TsTensor *r = like_new(&a, 1 + n_bounds);
    if (r && ts_aten_random_fill(r, &d, c->error)) {
        ts_tensor_release(r);
        r = NULL;
    }
    return ts_args_return_tensor(&a, r ? 0 : (int)c->error->code, r);
}

static int k_rand_like(TsCall *c) { return random_like(c, TS_ATEN_DRAW_UNIFORM, 0); }
static int k_randn_like(TsCall *c) { return random_like(c, TS_ATEN_DRAW_NORMAL, 0); }
static int k_randint_like(TsCall *c) { return random_like(c, TS_ATEN_DRAW_INT, 1); }
static int k_randint_like_low(TsCall *c) { return random_like(c, TS_ATEN_DRAW_INT, 2); }

static int k_zeros_like(TsCall *c)
{
    TsValue zero = ts_int(0);
    return like_kernel(c, false, &zero);
}

static int k_ones_like(TsCall *c)
{
    TsValue one = ts_int(1);
    return like_kernel(c, false, &one);
}

static int k_empty_like(TsCall *c) { return like_kernel(c, false, NULL); }
static int k_full_like(TsCall *c) { return like_kernel(c, true, NULL); }

/* ---- ranges ------------------------------------------------------------------------------- */

/* A real Scalar argument as both a double and an int64 (truncated). */
typedef struct Num {
    bool is_float;
    double d;
    int64_t i;
} Num;

/* Argument i as a Num. */
static int read_num(TsArgs *a, size_t i, Num *n)
{
    TsValue v = a->v[i];
    switch (v.tag) {
    case TS_TAG_INT: n->is_float = false; n->i = v.u.i; n->d = (double)v.u.i; return 0;
    case TS_TAG_BOOL: n->is_float = false; n->i = v.u.b; n->d = v.u.b; return 0;
    case TS_TAG_DOUBLE:
        n->is_float = true;
        n->d = v.u.d;
        n->i = v.u.d >= -9223372036854775808.0 && v.u.d < 9223372036854775808.0 ? (int64_t)v.u.d
                                                                              : INT64_MIN;
        return 0;
    default:
        return ts_error_set(a->call->error, TS_ERR_TYPE, "%s: expected a real number",
                            ts_args_op_name(a));
    }
}

static void num_str(const Num *n, char *buf, size_t size)
{
    if (n->is_float)
        snprintf(buf, size, "%g", n->d);
    else
        snprintf(buf, size, "%lld", (long long)n->i);
}

/* arange over [start, end) by step into a new tensor of dtype. */
static TsTensor *arange(TsError *err, Num start, Num end, Num step, int dtype)
{
    bool integral = !ts_dtype_is_floating(dtype);
    if (dtype == TS_BOOL) {
        ts_error_set(err, TS_ERR_RUNTIME, "\"arange_cpu\" not implemented for 'Bool'");
        return NULL;
    }
    double s = integral ? (double)start.i : start.d, e = integral ? (double)end.i : end.d;
    double st = integral ? (double)step.i : step.d;
    if (st == 0) {
        ts_error_set(err, TS_ERR_RUNTIME, "step must be nonzero");
        return NULL;
    }
    if (!isfinite(s) || !isfinite(e)) {
        char b1[64], b2[64];
        num_str(&start, b1, sizeof b1);
        num_str(&end, b2, sizeof b2);
        ts_error_set(err, TS_ERR_RUNTIME, "unsupported range: %s -> %s", b1, b2);
        return NULL;
    }
    if (!((st > 0 && e >= s) || (st < 0 && e <= s))) {
        ts_error_set(err, TS_ERR_RUNTIME, "upper bound and larger bound inconsistent with step "
                     "sign");
        return NULL;
    }
    double size_d = dtype == TS_INT64 ? ceil((double)(end.i - start.i) / (double)step.i)
                                      : ceil((e - s) / st);
    if (!(size_d >= 0 && size_d < 9.2e18)) {
        ts_error_set(err, TS_ERR_RUNTIME, "invalid size, possible overflow?");
        return NULL;
    }
    int64_t n = (int64_t)size_d;
    if (!integral) {           /* PyTorch's own walk, to the bit (aten-common) */
        TsTensor *r = ts_cpu_empty(dtype, 1, &n, err);
        if (r && ts_aten_arange_typed(start.d, step.d, n, dtype, ts_tensor_data(r)) != 0) {
            ts_tensor_release(r);
            ts_error_set(err, TS_ERR_RUNTIME, "\"arange_cpu\" not implemented for '%s'",
                         ts_dtype_type_name(dtype));
            return NULL;
        }
        return r;
    }
    TsTensor *tmp = ts_cpu_empty(TS_INT64, 1, &n, err);
    if (!tmp)
        return NULL;
    for (int64_t k = 0; k < n; k++)
        ((int64_t *)ts_tensor_data(tmp))[k] = (int64_t)((uint64_t)start.i +
                                                        (uint64_t)step.i * (uint64_t)k);
    if (tmp->dtype == dtype)
        return tmp;
    TsTensor *r = ts_cpu_cast(tmp, dtype, err);
    ts_tensor_release(tmp);
    return r;
}

/* aten::arange(Scalar end, ...), arange.start(Scalar start, Scalar end, ...),
 * arange.start_step(Scalar start, Scalar end, Scalar step=1, ...), each followed by
 * ScalarType? dtype, Layout? layout, Device? device, bool? pin_memory. */
static int arange_kernel(TsCall *c, int nums)
{
    TsArgs a;
    Num v[3] = { { false, 0, 0 }, { false, 0, 0 }, { false, 1, 1 } };
    TsTensor *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    int first = nums == 1 ? 1 : 0;   /* arange(end) fills only v[1] */
    for (int k = 0; !rc && k < nums; k++)
        rc = read_num(&a, (size_t)k, &v[first + k]);
    int dtype = v[0].is_float || v[1].is_float || v[2].is_float ? TS_FLOAT32 : TS_INT64;
    if (!rc)
        rc = ts_cpu_factory_args(&a, (size_t)nums, &dtype);
    if (!rc)
        r = arange(c->error, v[0], v[1], v[2], dtype);
    return ts_args_return_tensor(&a, rc, r);
}

/* aten::range(Scalar start, Scalar end, ...) and range.step(Scalar start, Scalar end, Scalar
 * step=1, ...) with arange's tail: torch.range, end included, the size truncated from
 * (end - start) / step + 1 and each value start + k * step computed in double (int64 for
 * integer dtypes), as PyTorch's cpu kernel does; float32 unless dtype= says otherwise. */
static int range_kernel(TsCall *c, int nums)
{
    TsArgs a;
    Num v[3] = { { false, 0, 0 }, { false, 0, 0 }, { false, 1, 1 } };
    TsTensor *r = NULL;
    int dtype = TS_FLOAT32;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    for (int k = 0; !rc && k < nums; k++)
        rc = read_num(&a, (size_t)k, &v[k]);
    if (!rc)
        rc = ts_cpu_factory_args(&a, (size_t)nums, &dtype);
    if (rc)
        return ts_args_fail(&a, rc);
    bool integral = !ts_dtype_is_floating(dtype);
    double s = v[0].d, e = v[1].d, st = v[2].d;
    if (integral) {
        s = (double)v[0].i;
        e = (double)v[1].i;
        st = (double)v[2].i;
    }
    if (st == 0)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "step must be nonzero");
    else if (!isfinite(s) || !isfinite(e)) {
        char b1[64], b2[64];
        num_str(&v[0], b1, sizeof b1);
        num_str(&v[1], b2, sizeof b2);
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "unsupported range: %s -> %s", b1, b2);
    } else if (!((st > 0 && e >= s) || (st < 0 && e <= s)))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "upper bound and lower bound inconsistent "
                          "with step sign");
    double size_d = integral ? (double)((v[1].i - v[0].i) / v[2].i) + 1 : (e - s) / st + 1;
    if (!rc && !(size_d >= 0 && size_d < 9.2e18))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "invalid size, possible overflow?");
    int64_t n = rc ? 0 : (int64_t)size_d;
    TsTensor *tmp = rc ? NULL : ts_cpu_empty(integral ? TS_INT64 : TS_FLOAT64, 1, &n, c->error);
    if (!rc && !tmp)
        rc = c->error->code;
    if (tmp) {
        if (integral)
            for (int64_t k = 0; k < n; k++)
                ((int64_t *)ts_tensor_data(tmp))[k] = (int64_t)((uint64_t)v[0].i +
                                                                (uint64_t)v[2].i * (uint64_t)k);
        else
            for (int64_t k = 0; k < n; k++)
                ((double *)ts_tensor_data(tmp))[k] = s + (double)k * st;
        r = tmp->dtype == dtype ? tmp : ts_cpu_cast(tmp, dtype, c->error);
        if (r != tmp)
            ts_tensor_release(tmp);
        rc = r ? 0 : (int)c->error->code;
    }
    return ts_args_return_tensor(&a, rc, r);
}

static int k_range(TsCall *c) { return range_kernel(c, 2); }
static int k_range_step(TsCall *c) { return range_kernel(c, 3); }

static int k_arange(TsCall *c) { return arange_kernel(c, 1); }
static int k_arange_start(TsCall *c) { return arange_kernel(c, 2); }
static int k_arange_step(TsCall *c) { return arange_kernel(c, 3); }

/* aten::linspace(Scalar start, Scalar end, int steps, *, ScalarType? dtype=None,
 *     Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor */
static int k_linspace(TsCall *c)
{
    TsArgs a;
    Num s, e;
    int64_t steps;
    int dtype = TS_FLOAT32;
    TsTensor *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (rc || read_num(&a, 0, &s) || read_num(&a, 1, &e) || ts_args_int(&a, 2, &steps) ||
        ts_cpu_factory_args(&a, 3, &dtype))
        return ts_args_fail(&a, rc ? rc : (int)c->error->code);
    if (steps < 0)
        return ts_args_fail(&a, ts_error_set(c->error, TS_ERR_RUNTIME, "number of steps must "
                                             "be non-negative"));
    /* integral results start from the bounds as integers, as PyTorch's kernel does */
    bool integral = !ts_dtype_is_floating(dtype);
    double lo = integral ? (double)s.i : s.d, hi = integral ? (double)e.i : e.d;
    if (!(r = ts_cpu_empty(dtype, 1, &steps, c->error)))
        return ts_args_fail(&a, c->error->code);
    int got = ts_aten_linspace_typed(lo, hi, steps, dtype, ts_tensor_data(r));
    if (got != 0) {            /* bool has no kernel in PyTorch either */
        ts_tensor_release(r);
        r = NULL;
        if (got > 0)
            ts_error_set(c->error, TS_ERR_RUNTIME, "\"linspace_cpu\" not implemented for '%s'",
                         ts_dtype_type_name(dtype));
        else
            ts_error_set(c->error, TS_ERR_NOMEM, "out of memory");
    }
    return ts_args_return_tensor(&a, r ? 0 : (int)c->error->code, r);
}

/* aten::logspace(Scalar start, Scalar end, int steps, float base=10., *, ScalarType? dtype=None,
 *     Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor: base to
 * the powers linspace gives, each half from its own end as linspace does, one value at a
 * time; float32 results compute in float (each exponent a fused multiply-add), the others in
 * double (not fused): to the bit what PyTorch 1.13's build gives, checked value by value. */
static int k_logspace(TsCall *c)
{
    TsArgs a;
    Num s, e;
    int64_t steps;
    int dtype = TS_FLOAT32;
    TsTensor *r = NULL, *tmp = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (rc || read_num(&a, 0, &s) || read_num(&a, 1, &e) || ts_args_int(&a, 2, &steps) ||
        ts_cpu_factory_args(&a, 4, &dtype))
        return ts_args_fail(&a, rc ? rc : (int)c->error->code);
    if (steps < 0)
        return ts_args_fail(&a, ts_error_set(c->error, TS_ERR_RUNTIME, "number of steps must "
                                             "be non-negative"));
    if (dtype == TS_FLOAT16 || dtype == TS_BOOL)   /* PyTorch's cpu kernel has neither */
        return ts_args_fail(&a, ts_error_set(c->error, TS_ERR_RUNTIME, "\"logspace_cpu\" not "
                                             "implemented for '%s'", ts_dtype_type_name(dtype)));
    double base = a.v[3].tag == TS_TAG_DOUBLE ? a.v[3].u.d : 10.0;
    bool as_float = dtype == TS_FLOAT32 || dtype == TS_FLOAT16 || dtype == TS_BFLOAT16;
    if (!(tmp = ts_cpu_empty(as_float ? TS_FLOAT32 : TS_FLOAT64, 1, &steps, c->error)))
        return ts_args_fail(&a, c->error->code);
    int64_t half = steps / 2;
    if (as_float) {
        float fs = (float)s.d, fe = (float)e.d, fb = (float)base;
        float step = steps > 1 ? (fe - fs) / (float)(steps - 1) : 0;
        float *o = ts_tensor_data(tmp);
        for (int64_t k = 0; k < steps; k++)
            o[k] = powf(fb, k < half || steps == 1 ? fmaf(step, (float)k, fs)
                                                   : fmaf(-step, (float)(steps - k - 1), fe));
    } else {
        double step = steps > 1 ? (e.d - s.d) / (double)(steps - 1) : 0;
        double *o = ts_tensor_data(tmp);
        for (int64_t k = 0; k < steps; k++)
            o[k] = pow(base, k < half || steps == 1 ? s.d + step * (double)k
                                                    : e.d - step * (double)(steps - k - 1));
    }
    if (tmp->dtype == dtype)
        r = tmp;
    else {
        r = ts_cpu_cast(tmp, dtype, c->error);
        ts_tensor_release(tmp);
    }
    return ts_args_return_tensor(&a, 0, r);
}

/* aten::eye(int n, ...) and eye.m(int n, int m, ...), with the factory tail. */
static int eye_kernel(TsCall *c, size_t nints)
{
    TsArgs a;
    int64_t sizes[2];
    int dtype = TS_FLOAT32;
    TsTensor *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (rc || ts_args_int(&a, 0, &sizes[0]) || (nints == 2 && ts_args_int(&a, 1, &sizes[1])) ||
        ts_cpu_factory_args(&a, nints, &dtype))
        return ts_args_fail(&a, rc ? rc : (int)c->error->code);
    if (nints == 1)
        sizes[1] = sizes[0];
    /* PyTorch's own message, which names the argument as its C++ does */
    if (sizes[0] < 0 || sizes[1] < 0)
        return ts_args_fail(&a, ts_error_set(c->error, TS_ERR_RUNTIME, "%s must be greater or "
                                             "equal to 0, got %lld", sizes[0] < 0 ? "n" : "m",
                                             (long long)(sizes[0] < 0 ? sizes[0] : sizes[1])));
    if (dtype == TS_BFLOAT16)        /* PyTorch 1.13's cpu eye has no bfloat16 kernel */
        return ts_args_fail(&a, ts_error_set(c->error, TS_ERR_RUNTIME, "\"eye\" not "
                                             "implemented for '%s'",
                                             ts_dtype_type_name(dtype)));
    if ((r = ts_cpu_empty(dtype, 2, sizes, c->error))) {
        size_t es = ts_dtype_size(dtype);
        TsTensor *one = ts_cpu_scalar_tensor(ts_int(1), dtype, c->error);
        if (!one) {
            ts_tensor_release(r);
            return ts_args_fail(&a, c->error->code);
        }
        char *p = ts_tensor_data(r);
        memset(p, 0, (size_t)(sizes[0] * sizes[1]) * es);
        for (int64_t k = 0; k < sizes[0] && k < sizes[1]; k++)
            memcpy(p + (size_t)(k * sizes[1] + k) * es, ts_tensor_data(one), es);
        ts_tensor_release(one);
    }
    return ts_args_return_tensor(&a, r ? 0 : (int)c->error->code, r);
}

static int k_eye(TsCall *c) { return eye_kernel(c, 1); }
static int k_eye_m(TsCall *c) { return eye_kernel(c, 2); }

/* ---- aten::tensor -------------------------------------------------------------------------- */

/* requires_grad=True of aten::tensor: r (taken) with the flag set, or NULL with PyTorch's
 * error for a dtype that cannot require gradients. */
static TsTensor *with_requires_grad(TsError *err, TsTensor *r, TsValue flag)
{
    if (!r || flag.tag != TS_TAG_BOOL || !flag.u.b)
        return r;
    if (!ts_dtype_is_floating(r->dtype) && !ts_dtype_is_complex(r->dtype)) {
        ts_tensor_release(r);
        ts_error_set(err, TS_ERR_RUNTIME, "Only Tensors of floating point and complex dtype "
                     "can require gradients");
        return NULL;
    }
    r->requires_grad = 1;
    return r;
}

/* tensor.int, tensor.float, tensor.bool (t, *, ScalarType? dtype=None, Device? device=None,
 * bool requires_grad=False) and as_tensor.int/.float/.bool (the same without requires_grad,
 * which is then False): the tensor of the number t. */
static int k_tensor_scalar(TsCall *c)
{
    TsArgs a;
    TsTensor *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (rc)
        return ts_args_fail(&a, rc);
    int dtype = ts_aten_scalar_dtype(a.v[0]);
    TsValue requires_grad = a.n > 3 ? a.v[3] : ts_bool(false);
    if (a.v[0].tag == TS_TAG_COMPLEX)   /* tensor.complex: no kernel has a complex dtype */
        ts_error_set(c->error, TS_ERR_RUNTIME, "complex tensors are not supported");
    else if (a.v[0].tag != TS_TAG_INT && a.v[0].tag != TS_TAG_DOUBLE &&
             a.v[0].tag != TS_TAG_BOOL)
        ts_error_set(c->error, TS_ERR_TYPE, "%s: expected an int, float or bool",
                     ts_args_op_name(&a));
    else if (!read_dtype(&a, 1, &dtype) && !check_device(&a, 2)) {
        TsTensor *base = ts_cpu_scalar_tensor(a.v[0], ts_aten_scalar_dtype(a.v[0]), c->error);
        if (base && base->dtype != dtype) {
            r = ts_cpu_cast(base, dtype, c->error);
            ts_tensor_release(base);
        } else {
            r = base;
        }
        r = with_requires_grad(c->error, r, requires_grad);
    }
    return ts_args_return_tensor(&a, r ? 0 : (int)c->error->code, r);
}

/* Whether a nested list holds a list other threads reach (value.h). Unshared lists are
 * this thread's alone, so looking into them needs no lock; the walk stops at the first
 * shared one. Shared flags are never cleared, and nothing else can put a shared list into
 * an unshared one meanwhile: the answer holds for the whole kernel. */
static bool holds_shared(TsValue v)
{
    if (v.tag != TS_TAG_LIST)
        return false;
    if (ts_value_is_shared(v))
        return true;
    const TsList *l = (const TsList *)v.u.p;
    for (size_t i = 0; i < l->len; i++)
        if (holds_shared(l->items[i]))
            return true;
    return false;
}

/* The shape of a nested list: the lengths of the first items, level by level. */
static int list_shape(TsError *err, TsValue v, int *dim, int64_t *sizes)
{
    *dim = 0;
    while (v.tag == TS_TAG_LIST) {
        const TsList *l = (const TsList *)v.u.p;
        if (*dim == TS_TENSOR_MAX_DIMS)
            return ts_error_set(err, TS_ERR_LIMIT, "aten::tensor: more than %d nested lists",
                                TS_TENSOR_MAX_DIMS);
        sizes[(*dim)++] = (int64_t)l->len;
        if (l->len == 0)
            break;
        v = l->items[0];
    }
    return 0;
}

/* The dtype of the leaves: from the list's static element type, else from the values. */
static int list_kind(TsValue v)
{
    const TsType *t = ts_type_list(ts_type_any());
    if (v.tag == TS_TAG_LIST)
        t = ((const TsList *)v.u.p)->elem_type;
    while (ts_type_kind(t) == TS_TYPE_LIST)
        t = ts_type_elem(t, 0);
    switch (ts_type_kind(t)) {
    case TS_TYPE_INT: return TS_INT64;
    case TS_TYPE_FLOAT: return TS_FLOAT32;
    case TS_TYPE_BOOL: return TS_BOOL;
    default: return -1;
    }
}

/* Which leaves occur: 1 bool, 2 int, 4 float, 8 anything else. */
static unsigned leaf_kinds(TsValue v)
{
    if (v.tag != TS_TAG_LIST)
        return v.tag == TS_TAG_BOOL ? 1u : v.tag == TS_TAG_INT ? 2u : v.tag == TS_TAG_DOUBLE ? 4u
                                                                                         : 8u;
    const TsList *l = (const TsList *)v.u.p;
    unsigned k = 0;
    for (size_t i = 0; i < l->len; i++)
        k |= leaf_kinds(l->items[i]);
    return k;
}

/* Stores the leaves of v (at depth d) into out, checking the shape; *pos counts elements. */
static int store_list(TsError *err, TsValue v, int d, int dim, const int64_t *sizes,
                      TsTensor *out, int64_t *pos)
{
    if (d == dim) {
        if (v.tag != TS_TAG_INT && v.tag != TS_TAG_DOUBLE && v.tag != TS_TAG_BOOL)
            return ts_error_set(err, TS_ERR_TYPE, "Expected a number at dim %d, got a %s", d,
                                v.tag == TS_TAG_LIST ? "list" : "non-number");
        char *p = (char *)ts_tensor_data(out) + *pos * (int64_t)ts_dtype_size(out->dtype);
        if (out->dtype == TS_FLOAT32)
            *(float *)p = (float)(v.tag == TS_TAG_DOUBLE ? v.u.d
                                  : v.tag == TS_TAG_INT ? (double)v.u.i : v.u.b);
        else if (out->dtype == TS_INT64)
            *(int64_t *)p = v.tag == TS_TAG_INT ? v.u.i : v.tag == TS_TAG_BOOL ? v.u.b
                                                                             : (int64_t)v.u.d;
        else
            *(bool *)p = v.tag == TS_TAG_BOOL ? v.u.b : v.tag == TS_TAG_INT ? v.u.i != 0
                                                                          : v.u.d != 0;
        (*pos)++;
        return 0;
    }
    if (v.tag != TS_TAG_LIST)
        return ts_error_set(err, TS_ERR_TYPE, "Expected a list at dim %d", d);
    const TsList *l = (const TsList *)v.u.p;
    if ((int64_t)l->len != sizes[d])
        return ts_error_set(err, TS_ERR_RUNTIME, "Expected sequence of length %lld at dim %d "
                            "(got %zu)", (long long)sizes[d], d, l->len);
    for (size_t i = 0; i < l->len; i++)
        if (store_list(err, l->items[i], d + 1, dim, sizes, out, pos))
            return err->code;
    return 0;
}

/* PyTorch's checks of the static element type of data: numbers and bools only (an empty
 * list literal is a List[Tensor]), and no Union even of numbers. */
static int check_list_type(TsError *err, TsValue v)
{
    const TsType *t = ((const TsList *)v.u.p)->elem_type;
    while (ts_type_kind(t) == TS_TYPE_LIST)
        t = ts_type_elem(t, 0);
    TsTypeKind k = ts_type_kind(t);
    char name[256];
    ts_type_repr(t, name, sizeof name);
    if (k == TS_TYPE_TENSOR || k == TS_TYPE_STR || k == TS_TYPE_NONE || k == TS_TYPE_OPTIONAL ||
        k == TS_TYPE_TUPLE || k == TS_TYPE_DICT || k == TS_TYPE_CLASS)
        return ts_error_set(err, TS_ERR_RUNTIME, "Input must be of ints, floats, or bools, got "
                            "%s%s", name, k == TS_TYPE_TENSOR && ((const TsList *)v.u.p)->len == 0
                            ? "\nEmpty lists default to List[Tensor]. Add a variable annotation "
                              "to the assignment to create an empty list of another type "
                              "(torch.jit.annotate(List[T, []]) where T is the type of elements "
                              "in the list for Python 2)" : "");
    if (k == TS_TYPE_UNION || k == TS_TYPE_COMPLEX)   /* PyTorch's words for both */
        return ts_error_set(err, TS_ERR_RUNTIME, "Add new condition, expected Float, Complex, "
                            "Int, or Bool but got%s", name);
    return 0;
}

/* The tensor of the nested list data (argument 0) with the dtype and device of arguments
 * 1 and 2 and requires_grad. */
static TsTensor *tensor_of_list(TsArgs *a, TsValue requires_grad)
{
    TsError *err = a->call->error;
    int64_t sizes[TS_TENSOR_MAX_DIMS], pos = 0;
    int dim;
    TsTensor *r = NULL;
    if (check_list_type(err, a->v[0]))
        return NULL;
    int kind = list_kind(a->v[0]);
    if (kind < 0) {
        unsigned k = leaf_kinds(a->v[0]);
        if (k & 8u) {
            ts_error_set(err, TS_ERR_TYPE, "Input must be of ints, floats, or bools");
            return NULL;
        }
        kind = k & 4u ? TS_FLOAT32 : k & 2u ? TS_INT64 : k & 1u ? TS_BOOL : TS_FLOAT32;
    }
    int dtype = kind;
    if (list_shape(err, a->v[0], &dim, sizes) || read_dtype(a, 1, &dtype) ||
        check_device(a, 2) || !(r = ts_cpu_empty(kind, dim, sizes, err)))
        return NULL;
    if (store_list(err, a->v[0], 0, dim, sizes, r, &pos)) {
        ts_tensor_release(r);
        return NULL;
    }
    if (dtype != kind) {
        TsTensor *cast = ts_cpu_cast(r, dtype, err);
        ts_tensor_release(r);
        r = cast;
    }
    return with_requires_grad(err, r, requires_grad);
}

/* aten::tensor(t[] data, *, ScalarType? dtype=None, Device? device=None,
 *     bool requires_grad=False) -> Tensor, and as_tensor.list (the same without
 * requires_grad, which is then False). The walks read lists nested in data: when one is
 * shared, all of them run with the shared lock held (share.c's rule 3), so they agree. */
static int k_tensor_list(TsCall *c)
{
    TsArgs a;
    TsTensor *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (rc)
        return ts_args_fail(&a, rc);
    if (a.v[0].tag != TS_TAG_LIST) {
        ts_error_set(c->error, TS_ERR_TYPE, "%s: argument '%s' must be a list",
                     ts_args_op_name(&a), ts_args_name(&a, 0));
    } else {
        bool locked = holds_shared(a.v[0]);
        if (locked)
            ts_shared_lock();
        r = tensor_of_list(&a, a.n > 3 ? a.v[3] : ts_bool(false));
        if (locked)
            ts_shared_unlock();
    }
    return ts_args_return_tensor(&a, r ? 0 : (int)c->error->code, r);
}

/* ---- back to numbers ------------------------------------------------------------------------ */

/* The element at p of dtype as a TorchScript number: int, float or bool. */
static TsValue elem_value(int dtype, const char *p)
{
    if (dtype == TS_BOOL)
        return ts_bool(*p != 0);
    if (dtype == TS_INT64) {
        int64_t i;
        memcpy(&i, p, sizeof i);
        return ts_int(i);
    }
    if (ts_dtype_is_integral(dtype, false))
        return ts_int((int64_t)ts_cpu_load_double(dtype, p));
    return ts_double(ts_cpu_load_double(dtype, p));
}

/* aten::item(Tensor self) -> Scalar */
static int k_item(TsCall *c)
{
    TsArgs a;
    TsTensor *t = NULL;
    TsValue v = ts_none();
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc)
        rc = ts_args_tensor(&a, 0, &t);
    if (!rc && ts_tensor_numel(t) != 1)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "a Tensor with %lld elements cannot be "
                          "converted to Scalar", (long long)ts_tensor_numel(t));
    else if (!rc)
        v = elem_value(t->dtype, ts_tensor_data(t));
    return ts_args_return(&a, rc, v);
}

/* The nested list of t's elements from dim d at offset off (elements). */
static int to_list(TsError *err, const TsTensor *t, int d, int64_t off, const TsType *leaf,
                   TsValue *out)
{
    size_t es = ts_dtype_size(t->dtype);
    if (d == t->dim) {
        *out = elem_value(t->dtype, (const char *)t->storage->data + off * (int64_t)es);
        return 0;
    }
    const TsType *elem = leaf;
    for (int k = d + 1; k < t->dim; k++)
        elem = ts_type_list(elem);
    TsList *l = ts_list_new(elem, (size_t)t->sizes[d], err);
    if (!l)
        return err->code;
    for (int64_t i = 0; i < t->sizes[d]; i++) {
        TsValue v;
        if (to_list(err, t, d + 1, off + i * t->strides[d], leaf, &v) ||
            ts_list_append(l, v, err)) {
            ts_heap_release(&l->h);
            return err->code;
        }
    }
    *out = ts_obj_value(l, TS_TAG_LIST);
    return 0;
}

/* prim::tolist(...) -> ...: (Tensor self, int dim, int elem_type) where dim is the
 * annotation's list depth and elem_type 0 int, 1 float, 2 bool (TorchScript's constants). */
static int k_tolist(TsCall *c)
{
    TsArgs a;
    TsValue out = ts_none();
    TsTensor *t = NULL;
    int64_t dim = 0, kind = 0;
    /* a vararg schema: its three arguments are the kernel's to count */
    int rc = ts_args_pop_n(c, TS_DEV_CPU, 3, &a);
    if (!rc)
        rc = ts_args_tensor(&a, 0, &t);
    if (!rc && (ts_args_int(&a, 1, &dim) || ts_args_int(&a, 2, &kind)))
        rc = c->error->code;
    if (!rc) {
        /* int is int64 only; float admits every floating dtype here, but only float32 and
         * float64 convert (PyTorch 1.13 then fails an internal assert) */
        bool match = kind == 0 ? t->dtype == TS_INT64
                   : kind == 1 ? ts_dtype_is_floating(t->dtype)
                   : kind == 2 && t->dtype == TS_BOOL;
        const TsType *leaf = kind == 0 ? ts_type_int() : kind == 1 ? ts_type_float()
                                                                   : ts_type_bool();
        if (!match)
            rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Output annotation element type and "
                              "runtime tensor element type must match for tolist()");
        else if (dim != t->dim)
            rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Output annotation list dimension and "
                              "runtime tensor dimension must match for tolist()");
        else if (kind == 1 && t->dtype != TS_FLOAT32 && t->dtype != TS_FLOAT64)
            rc = ts_error_set(c->error, TS_ERR_RUNTIME, "scalar_ty == at::ScalarType::Float || "
                              "scalar_ty == at::ScalarType::Double INTERNAL ASSERT FAILED at "
                              "\"./torch/csrc/jit/mobile/register_ops_common_utils.cpp\":35, "
                              "please report a bug to PyTorch. Unexpected scalar type for "
                              "Tensor");
        else
            rc = to_list(c->error, t, 0, t->offset, leaf, &out);
    }
    return ts_args_return(&a, rc, out);
}

/* ---- aten::as_tensor ------------------------------------------------------------------ */

/* aten::as_tensor(Tensor(a) data, *, ScalarType? dtype=None, Device? device=None)
 *     -> Tensor(b|a): data itself unless another dtype is asked for (then a converted copy). */
static int k_as_tensor(TsCall *c)
{
    TsArgs a;
    TsTensor *t = NULL, *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc)
        rc = ts_args_tensor(&a, 0, &t);
    int dtype = t ? t->dtype : 0;
    if (!rc && !read_dtype(&a, 1, &dtype) && !check_device(&a, 2)) {
        if (dtype == t->dtype) {
            ts_tensor_retain(t);
            r = t;
        } else {
            r = ts_cpu_cast(t, dtype, c->error);
        }
    }
    return ts_args_return_tensor(&a, rc ? rc : r ? 0 : (int)c->error->code, r);
}

/* aten::scalar_tensor(Scalar s, *, ScalarType? dtype=None, Layout? layout=None,
 *     Device? device=None, bool? pin_memory=None) -> Tensor: a 0-dim tensor of the default
 * dtype (float32) unless another is asked for, whatever the number's kind. */
static int k_scalar_tensor(TsCall *c)
{
    TsArgs a;
    TsTensor *r = NULL;
    int dtype = TS_FLOAT32;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (rc)
        return ts_args_fail(&a, rc);
    if (a.v[0].tag == TS_TAG_COMPLEX)   /* tensor.complex: no kernel has a complex dtype */
        ts_error_set(c->error, TS_ERR_RUNTIME, "complex tensors are not supported");
    else if (a.v[0].tag != TS_TAG_INT && a.v[0].tag != TS_TAG_DOUBLE &&
             a.v[0].tag != TS_TAG_BOOL)
        ts_error_set(c->error, TS_ERR_TYPE, "%s: expected an int, float or bool",
                     ts_args_op_name(&a));
    else if (!ts_cpu_factory_args(&a, 1, &dtype))
        r = ts_cpu_scalar_tensor(a.v[0], dtype, c->error);
    return ts_args_return_tensor(&a, r ? 0 : (int)c->error->code, r);
}

/* prim::NumToTensor.Scalar(Scalar a) -> Tensor and .bool(bool a): a 0-dim tensor of the
 * number (int64, float64 or bool, PyTorch's scalar_to_tensor), what traced graphs make of
 * x.size(0); it is not a wrapped number, so it promotes as a 0-dim tensor. */
static int k_num_to_tensor(TsCall *c)
{
    TsArgs a;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (rc)
        return ts_args_fail(&a, rc);
    TsValue v = a.v[0];
    int dtype = v.tag == TS_TAG_INT ? TS_INT64 : v.tag == TS_TAG_DOUBLE ? TS_FLOAT64
              : v.tag == TS_TAG_BOOL ? TS_BOOL : -1;
    TsTensor *r = NULL;
    if (dtype < 0)
        ts_error_set(c->error, TS_ERR_TYPE, "%s: expected an int, float or bool",
                     ts_args_op_name(&a));
    else
        r = ts_cpu_scalar_tensor(v, dtype, c->error);
    return ts_args_return_tensor(&a, r ? 0 : (int)c->error->code, r);
}

static const TsCpuOp ops[] = {
    { "aten::zeros_like", "", k_zeros_like },
    { "aten::ones_like", "", k_ones_like },
    { "aten::empty_like", "", k_empty_like },
    { "aten::full_like", "", k_full_like },
    { "aten::rand_like", "", k_rand_like },
    { "aten::randn_like", "", k_randn_like },
    { "aten::randint_like", "", k_randint_like },
    { "aten::randint_like", "low_dtype", k_randint_like_low },
    { "aten::range", "", k_range },
    { "aten::range", "step", k_range_step },
    { "aten::arange", "", k_arange },
    { "aten::arange", "start", k_arange_start },
    { "aten::arange", "start_step", k_arange_step },
    { "aten::linspace", "", k_linspace },
    { "aten::logspace", "", k_logspace },
    { "aten::eye", "", k_eye },
    { "aten::eye", "m", k_eye_m },
    { "aten::tensor", "int", k_tensor_scalar },
    { "aten::tensor", "float", k_tensor_scalar },
    { "aten::tensor", "bool", k_tensor_scalar },
    { "aten::tensor", "complex", k_tensor_scalar },
    { "aten::tensor", "", k_tensor_list },
    { "aten::as_tensor", "list", k_tensor_list },
    { "aten::as_tensor", "int", k_tensor_scalar },
    { "aten::as_tensor", "float", k_tensor_scalar },
    { "aten::as_tensor", "bool", k_tensor_scalar },
    { "aten::as_tensor", "complex", k_tensor_scalar },
    { "aten::as_tensor", "", k_as_tensor },
    { "aten::scalar_tensor", "", k_scalar_tensor },
    { "prim::NumToTensor", "Scalar", k_num_to_tensor },
    { "prim::NumToTensor", "bool", k_num_to_tensor },
    { "aten::item", "", k_item },
    { "prim::tolist", "", k_tolist },
};

const TsCpuTable ts_cpu_create_table = { ops, sizeof ops / sizeof ops[0] };
