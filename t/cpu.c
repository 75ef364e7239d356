/* cpu.t — the aten-cpu plugin: its allocator, the factory functions (sizes, dtypes, values,
 * PyTorch's errors), fill_, size/dim/numel, and add/mul on same-shape tensors (the
 * elementwise engine's own tests are t/cpu_ew.t). Expected values and messages come from
 * PyTorch 1.13.
 */
#include <stdio.h>
#include <string.h>

#include "kernel.h"

static TsValue int_list(size_t n, const int64_t *items)
{
    TsError err = TS_ERROR_INIT;
    TsList *l = ts_list_new(ts_type_int(), n, &err);
    for (size_t i = 0; l && i < n; i++)
        ts_list_append(l, ts_int(items[i]), &err);
    ts_error_clear(&err);
    return ts_obj_value(l, TS_TAG_LIST);
}

#define SIZES(...) int_list(sizeof((int64_t[]){ __VA_ARGS__ }) / sizeof(int64_t), \
                            (int64_t[]){ __VA_ARGS__ })
#define NONE ts_none()

static TsTensor *as_tensor(TsValue v)
{
    return v.tag == TS_TAG_TENSOR ? (TsTensor *)v.u.p : NULL;
}

/* A factory call expected to succeed; NULL (with a diagnostic) when it fails. */
static TsTensor *make(const char *op, const char *ov, size_t n, const TsValue *args)
{
    TsError err = TS_ERROR_INIT;
    TsValue r;
    if (kt_call(op, ov, "cpu", n, args, &r, &err)) {
        diag("%s failed: %s", op, err.msg ? err.msg : "?");
        ts_error_clear(&err);
        return NULL;
    }
    return as_tensor(r);
}

/* A call expected to fail with code and exactly msg. */
static void fails(const char *op, const char *ov, size_t n, const TsValue *args, int code,
                  const char *msg, const char *what)
{
    TsError err = TS_ERROR_INIT;
    TsValue r;
    int rc = kt_call(op, ov, "cpu", n, args, &r, &err);
    ts_value_release(r);
    is_int(rc, code, "%s: %s", what, ts_error_class((TsErrorCode)code));
    is_str(err.msg, msg, "... saying '%s'", msg);
    ts_error_clear(&err);
}

static TsTensor *zeros(TsValue sizes, int dtype)
{
    TsValue a[5] = { sizes, dtype < 0 ? NONE : ts_int(dtype), NONE, NONE, NONE };
    return make("aten::zeros", "", 5, a);
}

static TsTensor *full(TsValue sizes, TsValue fill, int dtype)
{
    TsValue a[6] = { sizes, fill, dtype < 0 ? NONE : ts_int(dtype), NONE, NONE, NONE };
    return make("aten::full", "", 6, a);
}

static bool all_f32(const TsTensor *t, float want)
{
    const float *d = ts_tensor_data(t);
    for (int64_t i = 0; i < ts_tensor_numel(t); i++)
        if (d[i] != want)
            return false;
    return true;
}

static bool all_i64(const TsTensor *t, int64_t want)
{
    const int64_t *d = ts_tensor_data(t);
    for (int64_t i = 0; i < ts_tensor_numel(t); i++)
        if (d[i] != want)
            return false;
    return true;
}

static void test_allocator(void)
{
    TsAllocator *a = ts_runtime_allocator(kt_rt, TS_DEV_CPU);
    ok(a != NULL, "aten-cpu registered the cpu allocator");
    if (!a)
        return;
    TsDevice cpu = { TS_DEV_CPU, -1 };
    void *p0 = a->alloc(a, 0, cpu), *p1 = a->alloc(a, 100, cpu);
    ok(p0 != NULL, "a zero-byte allocation is a real block");
    ok(p1 && (uintptr_t)p1 % 64 == 0, "blocks are 64-byte aligned");
    a->free(a, p0, 0, cpu);
    a->free(a, p1, 100, cpu);
}

static void test_factories(void)
{
    TsTensor *t = zeros(SIZES(2, 3), -1);
    ok(t && t->dtype == TS_FLOAT32 && t->dim == 2 && t->sizes[0] == 2 && t->sizes[1] == 3,
       "zeros([2, 3]) is a 2x3 float tensor");
    ok(t && t->strides[0] == 3 && t->strides[1] == 1 && t->device.type == TS_DEV_CPU,
       "... contiguous, on the cpu");
    ok(t && all_f32(t, 0.0f), "... of zeros");
    if (t)
        ts_tensor_release(t);

    t = zeros(int_list(0, NULL), -1);
    ok(t && t->dim == 0 && ts_tensor_numel(t) == 1 && all_f32(t, 0.0f),
       "zeros([]) is a 0-dim tensor with one element");
    if (t)
        ts_tensor_release(t);
    t = zeros(SIZES(0), TS_INT64);
    ok(t && t->dim == 1 && ts_tensor_numel(t) == 0 && t->dtype == TS_INT64,
       "zeros([0], dtype=long) is empty");
    if (t)
        ts_tensor_release(t);

    TsValue ones_args[5] = { SIZES(2), ts_int(TS_INT64), NONE, NONE, NONE };
    t = make("aten::ones", "", 5, ones_args);
    ok(t && t->dtype == TS_INT64 && all_i64(t, 1), "ones([2], dtype=long) is [1, 1]");
    if (t)
        ts_tensor_release(t);
    TsValue ones_bool[5] = { SIZES(3), ts_int(TS_BOOL), NONE, NONE, NONE };
    t = make("aten::ones", "", 5, ones_bool);
    ok(t && t->dtype == TS_BOOL && ((bool *)ts_tensor_data(t))[2], "ones(dtype=bool) is True");
    if (t)
        ts_tensor_release(t);

    /* full infers its dtype from the fill value */
    t = full(SIZES(2), ts_int(2), -1);
    ok(t && t->dtype == TS_INT64 && all_i64(t, 2), "full([2], 2) is a long tensor of 2s");
    if (t)
        ts_tensor_release(t);
    t = full(SIZES(2), ts_double(2.5), -1);
    ok(t && t->dtype == TS_FLOAT32 && all_f32(t, 2.5f), "full([2], 2.5) is float");
    if (t)
        ts_tensor_release(t);
    t = full(SIZES(2), ts_bool(true), -1);
    ok(t && t->dtype == TS_BOOL, "full([2], True) is bool");
    if (t)
        ts_tensor_release(t);
    t = full(SIZES(2), ts_int(7), TS_FLOAT32);
    ok(t && t->dtype == TS_FLOAT32 && all_f32(t, 7.0f), "full([2], 7, dtype=float) is 7.0");
    if (t)
        ts_tensor_release(t);
    t = full(SIZES(2), ts_double(3.7), TS_INT64);
    ok(t && all_i64(t, 3), "full([2], 3.7, dtype=long) truncates to 3");
    if (t)
        ts_tensor_release(t);
    t = full(SIZES(1, 2, 3), ts_double(-1.5), TS_FLOAT64);
    ok(t && t->dtype == TS_FLOAT64 && ((double *)ts_tensor_data(t))[5] == -1.5,
       "full([1, 2, 3], -1.5, dtype=double)");
    if (t)
        ts_tensor_release(t);

    /* empty with memory formats */
    TsValue e[6] = { SIZES(2, 3, 4, 5), NONE, NONE, NONE, NONE, ts_int(2) };
    t = make("aten::empty", "memory_format", 6, e);
    ok(t && t->strides[0] == 60 && t->strides[1] == 1 && t->strides[2] == 15 &&
       t->strides[3] == 3, "empty(..., memory_format=channels_last) has NHWC strides");
    if (t)
        ts_tensor_release(t);
    TsValue e2[6] = { SIZES(4), ts_int(TS_INT32), NONE, NONE, NONE, NONE };
    t = make("aten::empty", "memory_format", 6, e2);
    ok(t && t->dtype == TS_INT32 && t->sizes[0] == 4, "empty([4], dtype=int)");
    if (t)
        ts_tensor_release(t);
}

static void test_factory_errors(void)
{
    TsValue a[5] = { SIZES(-1), NONE, NONE, NONE, NONE };
    fails("aten::zeros", "", 5, a, TS_ERR_RUNTIME,
          "Trying to create tensor with negative dimension -1: [-1]", "zeros([-1])");
    TsValue b[6] = { SIZES(2, -3), NONE, NONE, NONE, NONE, NONE };
    fails("aten::empty", "memory_format", 6, b, TS_ERR_RUNTIME,
          "Trying to create tensor with negative dimension -3: [2, -3]", "empty([2, -3])");
    TsValue c[5] = { SIZES(INT64_C(1) << 62, 4), NONE, NONE, NONE, NONE };
    fails("aten::zeros", "", 5, c, TS_ERR_RUNTIME,
          "Storage size calculation overflowed with sizes=[4611686018427387904, 4]",
          "zeros([2**62, 4])");
    TsValue d[5] = { SIZES(INT64_C(1) << 40, INT64_C(1) << 40), NONE, NONE, NONE, NONE };
    fails("aten::ones", "", 5, d, TS_ERR_RUNTIME,
          "Storage size calculation overflowed with sizes=[1099511627776, 1099511627776]",
          "ones([2**40, 2**40])");
    TsValue e[6] = { SIZES(2), NONE, NONE, NONE, NONE, ts_int(2) };
    fails("aten::empty", "memory_format", 6, e, TS_ERR_RUNTIME,
          "required rank 4 tensor to use channels_last format", "empty([2], channels_last)");
    TsValue f[6] = { SIZES(2, 3), NONE, NONE, NONE, NONE, ts_int(1) };
    fails("aten::empty", "memory_format", 6, f, TS_ERR_RUNTIME,
          "unsupported memory format Preserve", "empty(preserve_format)");
    TsDevice cuda = { TS_DEV_CUDA, 0 };
    TsValue g[5] = { SIZES(2), NONE, NONE, ts_device(cuda), NONE };
    fails("aten::zeros", "", 5, g, TS_ERR_RUNTIME,
          "aten::zeros: the cpu kernel cannot create a tensor on device cuda:0",
          "zeros(device='cuda:0') on the cpu kernel");
    TsValue h[5] = { SIZES(2), NONE, ts_int(1), NONE, NONE };
    fails("aten::zeros", "", 5, h, TS_ERR_RUNTIME,
          "aten::zeros: the cpu backend supports only the strided layout",
          "zeros(layout=sparse_coo)");
    TsValue i[6] = { SIZES(2), ts_double(1e300), ts_int(TS_FLOAT32), NONE, NONE, NONE };
    fails("aten::full", "", 6, i, TS_ERR_RUNTIME,
          "value cannot be converted to type float without overflow", "full(1e300, float)");
    TsValue j[6] = { SIZES(2), ts_int(INT64_C(1) << 40), ts_int(TS_INT32), NONE, NONE, NONE };
    fails("aten::full", "", 6, j, TS_ERR_RUNTIME,
          "value cannot be converted to type int without overflow", "full(2**40, int)");
    TsValue k[6] = { SIZES(2), ts_double(nan("")), ts_int(TS_INT64), NONE, NONE, NONE };
    fails("aten::full", "", 6, k, TS_ERR_RUNTIME,
          "value cannot be converted to type int64_t without overflow", "full(nan, long)");
    TsValue l[5] = { ts_int(3), NONE, NONE, NONE, NONE };
    fails("aten::zeros", "", 5, l, TS_ERR_TYPE, "aten::zeros: argument 'size' must be a list of ints",
          "zeros(3) with a bare int");
}

/* fill_ on a fresh tensor of dtype with v; the first element's bytes go to out. */
static int fill(int dtype, TsValue v, void *out, size_t size, TsError *err)
{
    TsTensor *t = zeros(SIZES(2), dtype);
    if (!t)
        return -1;
    ts_tensor_retain(t);
    TsValue a[2] = { ts_obj_value(t, TS_TAG_TENSOR), v }, r;
    int rc = kt_call("aten::fill_", "Scalar", "cpu", 2, a, &r, err);
    if (!rc) {
        if (r.u.p != &t->h)
            rc = -1;
        memcpy(out, ts_tensor_data(t), size);
        ts_value_release(r);
    }
    ts_tensor_release(t);
    return rc;
}

static void test_fill(void)
{
    TsError err = TS_ERROR_INIT;
    int64_t i64 = 0;
    uint8_t u8 = 0;
    bool b = false;
    float f = 0;
    ok(fill(TS_INT64, ts_double(2.7), &i64, 8, &err) == 0 && i64 == 2,
       "long.fill_(2.7) truncates to 2 and returns self");
    ok(fill(TS_INT64, ts_double(-2.7), &i64, 8, &err) == 0 && i64 == -2, "long.fill_(-2.7) is -2");
    ok(fill(TS_UINT8, ts_int(-1), &u8, 1, &err) == 0 && u8 == 255, "uint8.fill_(-1) wraps to 255");
    ok(fill(TS_UINT8, ts_int(-129), &u8, 1, &err) == 0 && u8 == 127, "uint8.fill_(-129) is 127");
    ok(fill(TS_BOOL, ts_double(0.5), &b, 1, &err) == 0 && b, "bool.fill_(0.5) is True");
    ok(fill(TS_FLOAT32, ts_bool(true), &f, 4, &err) == 0 && f == 1.0f, "float.fill_(True) is 1");
    ok(fill(TS_FLOAT32, ts_int(INT64_MAX), &f, 4, &err) == 0 && f == 9223372036854775808.0f,
       "float.fill_(2**63 - 1) rounds");

    struct { int dtype; TsValue v; const char *type; } bad[] = {
        { TS_INT8, ts_int(300), "int8_t" },
        { TS_INT16, ts_int(70000), "int16_t" },
        { TS_UINT8, ts_int(256), "uint8_t" },
        { TS_INT64, ts_double(INFINITY), "int64_t" },
        { TS_INT64, ts_double(1e30), "int64_t" },
        { TS_INT64, ts_double(-9.3e18), "int64_t" },
        { TS_FLOAT32, ts_double(1e300), "float" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char want[96];
        snprintf(want, sizeof want, "value cannot be converted to type %s without overflow",
                 bad[i].type);
        is_int(fill(bad[i].dtype, bad[i].v, &i64, 1, &err), TS_ERR_RUNTIME,
               "fill_ out of range for %s is a RuntimeError", bad[i].type);
        is_str(err.msg, want, "... '%s'", want);
        ts_error_clear(&err);
    }

    /* a strided view: only the elements it addresses change */
    TsTensor *base = zeros(SIZES(4), TS_FLOAT32);
    TsTensor *view = base ? ts_tensor_new(base->storage, TS_FLOAT32, 1, (int64_t[]){ 2 },
                                          (int64_t[]){ 2 }, 0, &err) : NULL;
    TsValue r, a[2] = { ts_obj_value(view, TS_TAG_TENSOR), ts_double(9.0) };
    int rc = view ? kt_call("aten::fill_", "Scalar", "cpu", 2, a, &r, &err) : -1;
    const float *d = base ? ts_tensor_data(base) : NULL;
    ok(rc == 0 && d[0] == 9 && d[1] == 0 && d[2] == 9 && d[3] == 0,
       "fill_ on a strided view writes through its strides");
    if (rc == 0)
        ts_value_release(r);
    if (base)
        ts_tensor_release(base);
    ts_error_clear(&err);
}

static void test_shape(void)
{
    TsError err = TS_ERROR_INIT;
    TsTensor *t = zeros(SIZES(2, 3), -1), *s = zeros(int_list(0, NULL), -1);
    if (!t || !s)
        return;
    TsValue r;
#define T(x) (ts_tensor_retain(x), ts_obj_value(x, TS_TAG_TENSOR))
    int rc = kt_call("aten::dim", "", "cpu", 1, (TsValue[]){ T(t) }, &r, &err);
    ok(rc == 0 && r.u.i == 2, "dim() of a 2x3 tensor is 2");
    rc = kt_call("aten::dim", "", "cpu", 1, (TsValue[]){ T(s) }, &r, &err);
    ok(rc == 0 && r.u.i == 0, "dim() of a 0-dim tensor is 0");
    rc = kt_call("aten::numel", "", "cpu", 1, (TsValue[]){ T(t) }, &r, &err);
    ok(rc == 0 && r.u.i == 6, "numel() is 6");
    rc = kt_call("aten::size", "int", "cpu", 2, (TsValue[]){ T(t), ts_int(-1) }, &r, &err);
    ok(rc == 0 && r.u.i == 3, "size(-1) is 3");
    rc = kt_call("aten::size", "", "cpu", 1, (TsValue[]){ T(t) }, &r, &err);
    const TsList *l = r.tag == TS_TAG_LIST ? (const TsList *)r.u.p : NULL;
    ok(rc == 0 && l && l->len == 2 && l->items[0].u.i == 2 && l->items[1].u.i == 3,
       "size() is [2, 3]");
    ts_value_release(r);

    fails("aten::size", "int", 2, (TsValue[]){ T(t), ts_int(2) }, TS_ERR_INDEX,
          "Dimension out of range (expected to be in range of [-2, 1], but got 2)", "size(2)");
    fails("aten::size", "int", 2, (TsValue[]){ T(t), ts_int(-3) }, TS_ERR_INDEX,
          "Dimension out of range (expected to be in range of [-2, 1], but got -3)",
          "size(-3)");
    fails("aten::size", "int", 2, (TsValue[]){ T(s), ts_int(0) }, TS_ERR_INDEX,
          "Dimension specified as 0 but tensor has no dimensions", "size(0) of a 0-dim tensor");
    fails("aten::dim", "", 1, (TsValue[]){ ts_int(1) }, TS_ERR_TYPE,
          "aten::dim: argument 'self' must be a Tensor", "dim() of an int");
#undef T
    ok(ts_value_refcount(ts_obj_value(t, TS_TAG_TENSOR)) == 1, "the kernels kept counts right");
    ts_tensor_release(t);
    ts_tensor_release(s);
    ts_error_clear(&err);
}

/* A 1-d tensor of n values of dtype (int64 or float64 given as doubles). */
static TsTensor *vec(int dtype, size_t n, const double *v)
{
    TsTensor *t = zeros(int_list(1, (int64_t[]){ (int64_t)n }), dtype);
    for (size_t i = 0; t && i < n; i++) {
        if (dtype == TS_FLOAT32)
            ((float *)ts_tensor_data(t))[i] = (float)v[i];
        else if (dtype == TS_FLOAT64)
            ((double *)ts_tensor_data(t))[i] = v[i];
        else
            ((int64_t *)ts_tensor_data(t))[i] = (int64_t)v[i];
    }
    return t;
}

static TsValue tv(TsTensor *t)
{
    return ts_obj_value(t, TS_TAG_TENSOR);
}

static void test_binary(void)
{
    TsError err = TS_ERROR_INIT;
    TsValue r;
    int rc = kt_call("aten::add", "Tensor", "cpu", 3,
                     (TsValue[]){ tv(vec(TS_FLOAT32, 3, (double[]){ 1.5, 2.5, -1 })),
                                  tv(vec(TS_FLOAT32, 3, (double[]){ 0.25, -1, 1 })), ts_int(1) },
                     &r, &err);
    const float *f = rc == 0 ? ts_tensor_data(as_tensor(r)) : NULL;
    ok(f && as_tensor(r)->dtype == TS_FLOAT32 && f[0] == 1.75f && f[1] == 1.5f && f[2] == 0,
       "float add");
    ts_value_release(r);

    rc = kt_call("aten::add", "Tensor", "cpu", 3,
                 (TsValue[]){ tv(vec(TS_FLOAT64, 2, (double[]){ 1, 2 })),
                              tv(vec(TS_FLOAT64, 2, (double[]){ 10, 20 })), ts_double(2.5) },
                 &r, &err);
    const double *d = rc == 0 ? ts_tensor_data(as_tensor(r)) : NULL;
    ok(d && d[0] == 26 && d[1] == 52, "double add with alpha=2.5");
    ts_value_release(r);

    rc = kt_call("aten::add", "Tensor", "cpu", 3,
                 (TsValue[]){ tv(vec(TS_INT64, 2, (double[]){ 1, 5 })),
                              tv(vec(TS_INT64, 2, (double[]){ 1, 5 })), ts_int(3) }, &r, &err);
    const int64_t *i = rc == 0 ? ts_tensor_data(as_tensor(r)) : NULL;
    ok(i && i[0] == 4 && i[1] == 20, "long add with alpha=3");
    ts_value_release(r);

    TsTensor *big = full(SIZES(2), ts_int(INT64_MAX), -1), *one = full(SIZES(2), ts_int(1), -1);
    rc = kt_call("aten::add", "Tensor", "cpu", 3, (TsValue[]){ tv(big), tv(one), ts_int(1) }, &r,
                 &err);
    ok(rc == 0 && all_i64(as_tensor(r), INT64_MIN), "long add wraps around");
    ts_value_release(r);
    TsTensor *p62 = full(SIZES(2), ts_int(INT64_C(1) << 62), -1), *four = full(SIZES(2), ts_int(4), -1);
    rc = kt_call("aten::mul", "Tensor", "cpu", 2, (TsValue[]){ tv(p62), tv(four) }, &r, &err);
    ok(rc == 0 && all_i64(as_tensor(r), 0), "long mul wraps around: 2**62 * 4 == 0");
    ts_value_release(r);

    rc = kt_call("aten::mul", "Tensor", "cpu", 2,
                 (TsValue[]){ tv(vec(TS_FLOAT32, 2, (double[]){ 1.5, -2 })),
                              tv(vec(TS_FLOAT32, 2, (double[]){ 2, 0.25 })) }, &r, &err);
    f = rc == 0 ? ts_tensor_data(as_tensor(r)) : NULL;
    ok(f && f[0] == 3.0f && f[1] == -0.5f, "float mul");
    ts_value_release(r);

    rc = kt_call("aten::mul", "Tensor", "cpu", 2,
                 (TsValue[]){ tv(zeros(SIZES(0, 3), TS_FLOAT64)), tv(zeros(SIZES(0, 3), TS_FLOAT64)) },
                 &r, &err);
    ok(rc == 0 && as_tensor(r)->dim == 2 && ts_tensor_numel(as_tensor(r)) == 0,
       "mul of empty tensors is empty");
    ts_value_release(r);
    ts_error_clear(&err);
}

static void test_binary_errors(void)
{
    fails("aten::add", "Tensor", 3,
          (TsValue[]){ tv(zeros(SIZES(2), TS_INT64)), tv(zeros(SIZES(2), TS_INT64)), ts_double(2.5) },
          TS_ERR_RUNTIME,
          "For integral input tensors, argument alpha must not be a floating point number.",
          "long add with a float alpha");
    fails("aten::add", "Tensor", 3,
          (TsValue[]){ tv(zeros(SIZES(2), -1)), tv(zeros(SIZES(2), -1)), ts_bool(true) },
          TS_ERR_RUNTIME, "Boolean alpha only supported for Boolean results.",
          "float add with a bool alpha");
    fails("aten::add", "Tensor", 3,
          (TsValue[]){ tv(zeros(SIZES(2), -1)), tv(zeros(SIZES(3), -1)), ts_int(1) },
          TS_ERR_RUNTIME,
          "The size of tensor a (2) must match the size of tensor b (3) at non-singleton "
          "dimension 0", "add of [2] and [3]");
    fails("aten::mul", "Tensor", 2, (TsValue[]){ tv(zeros(SIZES(2, 3), -1)), tv(zeros(SIZES(2), -1)) },
          TS_ERR_RUNTIME,
          "The size of tensor a (3) must match the size of tensor b (2) at non-singleton "
          "dimension 1", "mul of [2, 3] and [2]");
    fails("aten::mul", "Tensor", 2, (TsValue[]){ tv(zeros(SIZES(2), -1)), ts_int(2) },
          TS_ERR_TYPE, "aten::mul: argument 'other' must be a Tensor", "mul of a tensor and an int");
}

int main(void)
{
    if (!kt_open())
        return done_testing();
    test_allocator();
    test_factories();
    test_factory_errors();
    test_fill();
    test_shape();
    test_binary();
    test_binary_errors();
    ts_runtime_close(kt_rt);
    return done_testing();
}
