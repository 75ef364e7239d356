/* tensor_util.h — building and checking CPU tensors in the aten-cpu tests (with kernel.h):
 * mk() makes a tensor of any dtype from double values, check()/CHECK compare a result's
 * dtype, sizes and values with a diagnostic on mismatch.
 */
#ifndef TS_T_TENSOR_UTIL_H
#define TS_T_TENSOR_UTIL_H

#include "kernel.h"

#define NONE ts_none()
static TsValue tv(TsTensor *t) { return ts_obj_value(t, TS_TAG_TENSOR); }

/* A tensor of dtype with the values (made as float64, converted by aten::to). */
static TsTensor *mk(int dtype, int dim, const int64_t *sizes, const double *values, size_t nv)
{
    TsError err = TS_ERROR_INIT;
    TsDevice cpu = { TS_DEV_CPU, -1 };
    TsTensor *t = ts_tensor_empty(ts_runtime_allocator(kt_rt, TS_DEV_CPU), cpu, TS_FLOAT64,
                                  dim, sizes, &err);
    if (!t)
        return NULL;
    int64_t n = ts_tensor_numel(t);
    for (int64_t i = 0; i < n; i++)
        ((double *)ts_tensor_data(t))[i] = (size_t)i < nv ? values[i] : 0;
    TsValue r, a[5] = { tv(t), ts_int(dtype), ts_bool(false), ts_bool(false), NONE };
    if (kt_call("aten::to", "dtype", "cpu", 5, a, &r, &err)) {
        diag("aten::to: %s", err.msg ? err.msg : "?");
        ts_error_clear(&err);
        return NULL;
    }
    return (TsTensor *)r.u.p;
}

/* T(dtype, S(sizes), values...): missing values are 0 */
#define T(DT, SIZES, ...) mk(DT, sizeof((int64_t[])SIZES) / sizeof(int64_t), (int64_t[])SIZES, \
                             (double[]){ 0, __VA_ARGS__ } + 1, \
                             sizeof((double[]){ 0, __VA_ARGS__ }) / sizeof(double) - 1)
#define Z(DT) mk(DT, 0, NULL, (double[]){ 0 }, 1)

/* Runs op and returns its tensor result (NULL with a diagnostic on failure). */
static TsTensor *call(const char *op, const char *ov, size_t n, const TsValue *args)
{
    TsError err = TS_ERROR_INIT;
    TsValue r;
    if (kt_call(op, ov, "cpu", n, args, &r, &err)) {
        diag("%s.%s failed: %s", op, ov, err.msg ? err.msg : "?");
        ts_error_clear(&err);
        return NULL;
    }
    if (r.tag != TS_TAG_TENSOR) {
        ts_value_release(r);
        return NULL;
    }
    return (TsTensor *)r.u.p;
}

static void fails(const char *op, const char *ov, size_t n, const TsValue *args,
                  const char *msg, const char *what)
{
    TsError err = TS_ERROR_INIT;
    TsValue r;
    int rc = kt_call(op, ov, "cpu", n, args, &r, &err);
    ts_value_release(r);
    ok(rc > 0, "%s fails", what);
    is_str(err.msg, msg, "... saying '%s'", msg);
    ts_error_clear(&err);
}

/* Element i (in logical order) of t as a double. */
static double at(TsTensor *t, int64_t i)
{
    int64_t off = 0;
    for (int d = t->dim - 1; d >= 0; d--) {
        off += (i % t->sizes[d]) * t->strides[d];
        i /= t->sizes[d];
    }
    const char *p = (const char *)ts_tensor_data(t) + off * (int64_t)ts_dtype_size(t->dtype);
    switch (t->dtype) {
    case TS_BOOL: return *(const bool *)p;
    case TS_UINT8: return *(const uint8_t *)p;
    case TS_INT8: return *(const int8_t *)p;
    case TS_INT16: return *(const int16_t *)p;
    case TS_INT32: return *(const int32_t *)p;
    case TS_INT64: return (double)*(const int64_t *)p;
    case TS_FLOAT32: return *(const float *)p;
    case TS_FLOAT64: return *(const double *)p;
    default: return NAN;
    }
}

/* t has dtype, the sizes, and the values (then t is released). */
static void check(TsTensor *t, int dtype, int dim, const int64_t *sizes, const double *want,
                  const char *what)
{
    bool good = t && t->dtype == dtype && t->dim == dim;
    for (int d = 0; good && d < dim; d++)
        good = t->sizes[d] == sizes[d];
    if (!ok(good, "%s: dtype %s and shape", what, ts_dtype_name(dtype)))
        diag("got dtype %s, dim %d", t ? ts_dtype_name(t->dtype) : "-", t ? t->dim : -1);
    int64_t n = good ? ts_tensor_numel(t) : 0, bad = -1;
    for (int64_t i = 0; i < n && bad < 0; i++)
        if (!kt_same_float(at(t, i), want[i]) && !(want[i] == 0 && at(t, i) == 0))
            bad = i;
    if (!ok(good && bad < 0, "%s: values", what) && bad >= 0)
        diag("element %lld: got %.17g, want %.17g", (long long)bad, at(t, bad), want[bad]);
    if (t)
        ts_tensor_release(t);
}

#define CHECK(t, DT, SIZES, WHAT, ...) \
    check(t, DT, sizeof((int64_t[])SIZES) / sizeof(int64_t), (int64_t[])SIZES, \
          (double[]){ __VA_ARGS__ }, WHAT)
#define S(...) { __VA_ARGS__ }

#endif
