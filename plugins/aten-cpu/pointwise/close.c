/* close.c — comparing whole tensors: isclose, allclose and equal.
 *
 * isclose is elementwise over broadcast operands of one dtype: a == b, or both nan when
 * equal_nan, or |a - b| <= atol + |rtol * b| with a finite difference (so inf only matches
 * the same inf). float32 computes in float like PyTorch; float64, integers and bools in
 * double (exact for the differences that matter). allclose is isclose reduced with all;
 * equal needs the same sizes, not a broadcast, compares after type promotion (an int tensor
 * equals a float tensor holding the same numbers) and has nan unequal to itself.
 */
#include <math.h>

#include "engine/elementwise.h"

/* args->d[0] is rtol, d[1] atol, i[0] equal_nan. */
#define CLOSE_LOOP(DT, T, W) \
    static void close_##DT(char **p, const int64_t *s, int64_t n, TsCpuEwArgs *args) \
    { \
        const W rtol = (W)args->d[0], atol = (W)args->d[1]; \
        const bool nan_eq = args->i[0] != 0; \
        char *po = p[0], *px = p[1], *py = p[2]; \
        for (int64_t k = 0; k < n; k++, po += s[0], px += s[1], py += s[2]) { \
            W x = (W) * (const T *)px, y = (W) * (const T *)py; \
            bool c = x == y || (nan_eq && x != x && y != y); \
            if (!c && (rtol != 0 || atol != 0)) { \
                W actual = (W)fabs((double)(x - y)); \
                W allowed = atol + (W)fabs((double)(rtol * y)); \
                c = isfinite(actual) && actual <= allowed; \
            } \
            *(bool *)po = c; \
        } \
    }
#define CLOSE_DOUBLE(DT, T, _) CLOSE_LOOP(DT, T, double)
CLOSE_LOOP(TS_FLOAT32, float, float)
CLOSE_LOOP(TS_FLOAT64, double, double)
EW_INT_TYPES(CLOSE_DOUBLE, _)
EW_BOOL_TYPES(CLOSE_DOUBLE, _)
#undef CLOSE_DOUBLE
#undef CLOSE_LOOP

#define CLOSE_ENTRY(DT, T, _) [DT] = close_##DT,
static const TsCpuLoop close_loops[TS_DTYPE__COUNT] = {
    EW_INT_TYPES(CLOSE_ENTRY, _) EW_BOOL_TYPES(CLOSE_ENTRY, _) EW_FLOAT_TYPES(CLOSE_ENTRY, _)
};
#undef CLOSE_ENTRY

/* The bool tensor isclose(a, b) (same dtype, broadcast shapes) in *out. Half types compute
 * in float32. */
static int isclose(TsTensor *a, TsTensor *b, double rtol, double atol, bool equal_nan,
                   TsTensor **out, TsError *err)
{
    if (a->dtype != b->dtype)
        return ts_error_set(err, TS_ERR_RUNTIME, "%s did not match %s",
                            ts_dtype_type_name(a->dtype), ts_dtype_type_name(b->dtype));
    if (!(rtol >= 0))
        return ts_error_set(err, TS_ERR_RUNTIME, "rtol must be greater than or equal to zero, "
                            "but got %.17g", rtol);
    if (!(atol >= 0))
        return ts_error_set(err, TS_ERR_RUNTIME, "atol must be greater than or equal to zero, "
                            "but got %.17g", atol);
    int dim;
    int64_t sizes[TS_TENSOR_MAX_DIMS];
    TsTensor *in[2] = { a, b };
    if (ts_aten_broadcast_shape(2, in, &dim, sizes, err))
        return err->code;
    TsTensor *ca = NULL, *cb = NULL;
    int dtype = a->dtype;
    if (dtype == TS_FLOAT16 || dtype == TS_BFLOAT16) {
        if (!(ca = ts_cpu_cast(a, TS_FLOAT32, err)) || !(cb = ts_cpu_cast(b, TS_FLOAT32, err))) {
            if (ca)
                ts_tensor_release(ca);
            return err->code;
        }
        dtype = TS_FLOAT32;
    }
    TsCpuLoop loop = dtype >= 0 && dtype < TS_DTYPE__COUNT ? close_loops[dtype] : NULL;
    if (!loop) {
        if (ca)
            ts_tensor_release(ca);
        if (cb)
            ts_tensor_release(cb);
        return ts_error_set(err, TS_ERR_RUNTIME, "\"isclose\" not implemented for '%s'",
                            ts_dtype_type_name(a->dtype));
    }
    TsTensor *r = ts_cpu_empty(TS_BOOL, dim, sizes, err);
    if (r) {
        TsTensor *ops[3] = { r, ca ? ca : a, cb ? cb : b };
        TsCpuEwArgs args = { { rtol, atol }, { equal_nan, 0 }, 0 };
        ts_cpu_ew_iterate(3, ops, loop, &args);
    }
    if (ca)
        ts_tensor_release(ca);
    if (cb)
        ts_tensor_release(cb);
    if (!r)
        return err->code;
    *out = r;
    return 0;
}

/* True when every element of the contiguous bool tensor t is set. */
static bool all_set(const TsTensor *t)
{
    const bool *p = ts_tensor_data(t);
    int64_t n = ts_tensor_numel(t);
    for (int64_t i = 0; i < n; i++)
        if (!p[i])
            return false;
    return true;
}

/* isclose and allclose: (Tensor self, Tensor other, float rtol=1e-05, float atol=1e-08,
 * bool equal_nan=False); all_ reduces to one bool. */
static int close_kernel(TsCall *c, bool all_)
{
    TsArgs a;
    double rtol = 0, atol = 0;
    bool equal_nan = false;
    TsTensor *x, *y, *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (rc || ts_args_tensor(&a, 0, &x) || ts_args_tensor(&a, 1, &y) ||
        ts_args_float(&a, 2, &rtol) || ts_args_float(&a, 3, &atol) ||
        ts_args_bool(&a, 4, &equal_nan))
        return ts_args_fail(&a, rc ? rc : (int)c->error->code);
    rc = isclose(x, y, rtol, atol, equal_nan, &r, c->error);
    if (rc || !all_)
        return ts_args_return_tensor(&a, rc, r);
    bool b = all_set(r);
    ts_tensor_release(r);
    return ts_args_return(&a, 0, ts_bool(b));
}

/* aten::isclose(Tensor self, Tensor other, float rtol=..., float atol=..., bool equal_nan=False)
 * -> Tensor */
static int k_isclose(TsCall *c) { return close_kernel(c, false); }
/* aten::allclose(...same...) -> bool */
static int k_allclose(TsCall *c) { return close_kernel(c, true); }

/* aten::equal(Tensor self, Tensor other) -> bool */
static int k_equal(TsCall *c)
{
    TsArgs a;
    TsTensor *x, *y;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (rc || ts_args_tensor(&a, 0, &x) || ts_args_tensor(&a, 1, &y))
        return ts_args_fail(&a, rc ? rc : (int)c->error->code);
    bool same = x->dim == y->dim;
    for (int i = 0; same && i < x->dim; i++)
        same = x->sizes[i] == y->sizes[i];
    if (same) {
        int dtype = ts_aten_promote_types(x->dtype, y->dtype);
        TsTensor *cx = NULL, *cy = NULL, *r = NULL;
        if (dtype < 0)
            rc = ts_error_set(c->error, TS_ERR_RUNTIME, "\"equal\" not implemented for '%s' and "
                              "'%s'", ts_dtype_type_name(x->dtype), ts_dtype_type_name(y->dtype));
        if (!rc && x->dtype != dtype && !(cx = ts_cpu_cast(x, dtype, c->error)))
            rc = c->error->code;
        if (!rc && y->dtype != dtype && !(cy = ts_cpu_cast(y, dtype, c->error)))
            rc = c->error->code;
        if (!rc)
            rc = isclose(cx ? cx : x, cy ? cy : y, 0.0, 0.0, false, &r, c->error);
        if (!rc) {
            same = all_set(r);
            ts_tensor_release(r);
        }
        if (cx)
            ts_tensor_release(cx);
        if (cy)
            ts_tensor_release(cy);
    }
    return ts_args_return(&a, rc, ts_bool(same));
}

static const TsCpuOp ops[] = {
    { "aten::isclose", "", k_isclose },
    { "aten::allclose", "", k_allclose },
    { "aten::equal", "", k_equal },
};

const TsCpuTable ts_cpu_close_table = { ops, sizeof ops / sizeof ops[0] };
