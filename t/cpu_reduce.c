/* cpu_reduce.t — the aten-cpu reductions, scans and sorts (reduce.c, scan.c, sort.c): every
 * overload family against values from PyTorch 1.13 (generated with torch and embedded), on
 * contiguous tensors, permuted views, 0-dim and empty tensors, every dtype rule (integer sums
 * widen to int64, mean of integers is an error, dtype= casts first, all/any keep uint8), nan
 * handling, multi-chunk accumulation, out= forms, and PyTorch's error messages.
 */
#include <stdio.h>
#include <string.h>

#include "kernel.h"

#define NONE ts_none()
#define ARGS(...) sizeof((TsValue[]){ __VA_ARGS__ }) / sizeof(TsValue), (TsValue[]){ __VA_ARGS__ }

static TsValue tv(TsTensor *t) { return ts_obj_value(t, TS_TAG_TENSOR); }

/* A new reference to t, as a value. */
static TsValue rt(TsTensor *t)
{
    ts_tensor_retain(t);
    return tv(t);
}

static TsValue ilist(size_t n, const int64_t *v)
{
    TsList *l = ts_list_new(ts_type_int(), n, NULL);
    for (size_t i = 0; l && i < n; i++)
        ts_list_append(l, ts_int(v[i]), NULL);
    return l ? ts_obj_value(l, TS_TAG_LIST) : NONE;
}

/* A tensor of dtype with the values (made as float64, converted by aten::to). */
static TsTensor *mk(int dtype, int dim, const int64_t *sizes, const double *values, int64_t nv)
{
    TsError err = TS_ERROR_INIT;
    TsDevice cpu = { TS_DEV_CPU, -1 };
    TsTensor *t = ts_tensor_empty(ts_runtime_allocator(kt_rt, TS_DEV_CPU), cpu, TS_FLOAT64,
                                  dim, sizes, &err);
    if (!t)
        return NULL;
    for (int64_t i = 0; i < ts_tensor_numel(t); i++)
        ((double *)ts_tensor_data(t))[i] = i < nv ? values[i] : 0;
    TsValue r, a[5] = { tv(t), ts_int(dtype), ts_bool(false), ts_bool(false), NONE };
    if (kt_call("aten::to", "dtype", "cpu", 5, a, &r, &err)) {
        diag("aten::to: %s", err.msg ? err.msg : "?");
        ts_error_clear(&err);
        return NULL;
    }
    return (TsTensor *)r.u.p;
}

/* Element i (in logical order) of t as a double. */
static double at(const TsTensor *t, int64_t i)
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
    case TS_INT32: return *(const int32_t *)p;
    case TS_INT64: return (double)*(const int64_t *)p;
    case TS_FLOAT32: return *(const float *)p;
    case TS_FLOAT64: return *(const double *)p;
    default: {
        /* float16: read through aten::to is overkill here; decode the half directly */
        uint16_t h = *(const uint16_t *)p;
        int e = (h >> 10) & 31, m = h & 1023;
        double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY)
                                                    : ldexp(m + 1024, e - 25);
        return (h & 0x8000) ? -v : v;
    }
    }
}

static bool close_to(double got, double want, double tol)
{
    if (isnan(want))
        return isnan(got);
    if (isinf(want))
        return got == want;
    return fabs(got - want) <= tol * (fabs(want) > 1 ? fabs(want) : 1);
}

/* t has dtype, the sizes and the values (within tol, relative); t is released. */
static void check(TsTensor *t, int dtype, int dim, const int64_t *sizes, const double *want,
                  int64_t n, double tol, const char *what)
{
    bool good = t && t->dtype == dtype && t->dim == dim;
    for (int d = 0; good && d < dim; d++)
        good = t->sizes[d] == sizes[d];
    if (!ok(good, "%s: dtype %s and shape", what, ts_dtype_name(dtype)))
        diag("got dtype %s, dim %d", t ? ts_dtype_name(t->dtype) : "-", t ? t->dim : -1);
    int64_t bad = -1;
    for (int64_t i = 0; good && i < n && bad < 0; i++)
        if (!close_to(at(t, i), want[i], tol))
            bad = i;
    if (!ok(good && bad < 0, "%s: values", what) && bad >= 0)
        diag("element %lld: got %.17g, want %.17g", (long long)bad, at(t, bad), want[bad]);
    if (t)
        ts_tensor_release(t);
}

/* Runs op and takes its nres results (tensors; NULL on failure, with a diagnostic). */
static int run(const char *op, const char *ov, size_t n, const TsValue *args, size_t nres,
               TsTensor **res, TsError *err)
{
    const TsOperator *o = kt_find(op, ov);
    const TsKernelEntry *k = o ? ts_operator_kernel(o, "cpu") : NULL;
    for (size_t i = 0; i < nres; i++)
        res[i] = NULL;
    if (!k || !k->fn) {
        diag("no cpu kernel for %s.%s", op, ov);
        for (size_t i = 0; i < n; i++)
            ts_value_release(args[i]);
        return -1;
    }
    TsStack s = { NULL, 0, 0 };
    for (size_t i = 0; i < n; i++)
        ts_stack_push(&s, args[i], NULL);
    TsCall call = { &s, err, NULL, kt_rt, o };
    int rc = k->fn(&call);
    if (rc == 0 && s.len != nres) {
        diag("%s.%s left %zu values on the stack", op, ov, s.len);
        rc = -1;
    }
    for (size_t i = nres; rc == 0 && i-- > 0;) {
        TsValue v = ts_stack_pop(&s);
        if (v.tag == TS_TAG_TENSOR)
            res[i] = (TsTensor *)v.u.p;
        else
            ts_value_release(v);
    }
    if (rc > 0 && err->code == TS_OK) {
        diag("%s.%s failed without setting the error", op, ov);
        rc = -1;
    }
    ts_stack_free(&s);
    return rc;
}

static void expect(const char *op, const char *ov, size_t n, const TsValue *args, int dtype,
                   int dim, const int64_t *sizes, const double *want, int64_t nw, double tol,
                   const char *what)
{
    TsError err = TS_ERROR_INIT;
    TsTensor *r;
    if (run(op, ov, n, args, 1, &r, &err))
        diag("%s: %s", what, err.msg ? err.msg : "?");
    ts_error_clear(&err);
    check(r, dtype, dim, sizes, want, nw, tol, what);
}

static void expect2(const char *op, const char *ov, size_t n, const TsValue *args, int dt1,
                    int dim1, const int64_t *s1, const double *w1, int64_t n1, int dt2, int dim2,
                    const int64_t *s2, const double *w2, int64_t n2, double tol, const char *what)
{
    TsError err = TS_ERROR_INIT;
    TsTensor *r[2];
    if (run(op, ov, n, args, 2, r, &err))
        diag("%s: %s", what, err.msg ? err.msg : "?");
    ts_error_clear(&err);
    char buf[256];
    snprintf(buf, sizeof buf, "%s (first result)", what);
    check(r[0], dt1, dim1, s1, w1, n1, tol, buf);
    snprintf(buf, sizeof buf, "%s (second result)", what);
    check(r[1], dt2, dim2, s2, w2, n2, tol, buf);
}

static void fails(const char *op, const char *ov, size_t n, const TsValue *args,
                  const char *msg, const char *what)
{
    TsError err = TS_ERROR_INIT;
    TsTensor *r[2];
    int rc = run(op, ov, n, args, 2, r, &err);
    for (int i = 0; i < 2; i++)
        if (rc == 0 && r[i])
            ts_tensor_release(r[i]);
    ok(rc > 0, "%s fails", what);
    is_str(err.msg, msg, "... saying '%s'", msg);
    ts_error_clear(&err);
}

#define EXPECT(OP, OV, ARGV, ...) expect(OP, OV, ARGV, __VA_ARGS__)
#define EXPECT2(OP, OV, ARGV, ...) expect2(OP, OV, ARGV, __VA_ARGS__)
#define FAILS(OP, OV, ARGV, MSG, WHAT) fails(OP, OV, ARGV, MSG, WHAT)

static TsTensor *A, *I, *I32, *B, *U, *S, *E, *D, *N, *H, *L, *G, *AP;

static void make_inputs(void)
{
    A = mk(TS_FLOAT32, 3, (int64_t[]){ 2, 3, 4 }, (double[]){ -1.85, 0.75, -0.72, 1.88, 0.41, -1.06, 1.54, 0.07, -1.4, 1.2, -0.27, -1.74, 0.86, -0.61, 1.99, 0.52, -0.95, 1.65, 0.18, -1.29, 1.31, -0.16, -1.63, 0.97 }, 24);
    I = mk(TS_INT64, 2, (int64_t[]){ 2, 3 }, (double[]){ 3.0, -1.0, 4.0, 1.0, -5.0, 9.0 }, 6);
    I32 = mk(TS_INT32, 2, (int64_t[]){ 2, 3 }, (double[]){ 3.0, -1.0, 4.0, 1.0, -5.0, 9.0 }, 6);
    B = mk(TS_BOOL, 2, (int64_t[]){ 2, 3 }, (double[]){ 1.0, 0.0, 1.0, 1.0, 1.0, 0.0 }, 6);
    U = mk(TS_UINT8, 2, (int64_t[]){ 2, 3 }, (double[]){ 1.0, 0.0, 2.0, 3.0, 4.0, 5.0 }, 6);
    S = mk(TS_FLOAT32, 0, (int64_t[]){ 0 }, (double[]){ 2.5 }, 1);
    E = mk(TS_FLOAT32, 2, (int64_t[]){ 0, 3 }, (double[]){ 0 }, 0);
    D = mk(TS_FLOAT64, 1, (int64_t[]){ 5 }, (double[]){ 0.001, 2.5, -3.25, 10000000000.0, 7.0 }, 5);
    N = mk(TS_FLOAT32, 2, (int64_t[]){ 2, 3 }, (double[]){ 1.0, NAN, 3.0, -2.0, 0.0, 5.0 }, 6);
    H = mk(TS_FLOAT16, 1, (int64_t[]){ 3 }, (double[]){ 1.5, 2.25, -0.5 }, 3);
    L = mk(TS_FLOAT32, 2, (int64_t[]){ 2, 5 }, (double[]){ 1000.0, 1001.0, 1002.0, -5.0, 3.0, 0.0, -INFINITY, 0.0, 1.0, 2.0 }, 10);
    G = mk(TS_FLOAT32, 1, (int64_t[]){ 6 }, (double[]){ 2.0, 1.0, 2.0, 1.0, 1.0, 3.0 }, 6);
    /* AP = A.permute(2, 0, 1): a view whose dims run in another order than memory */
    TsError err = TS_ERROR_INIT;
    AP = ts_tensor_new(A->storage, A->dtype, 3, (int64_t[]){ 4, 2, 3 },
                       (int64_t[]){ A->strides[2], A->strides[0], A->strides[1] }, A->offset,
                       &err);
    ts_error_clear(&err);
}

static void free_inputs(void)
{
    ts_tensor_release(A);
    ts_tensor_release(I);
    ts_tensor_release(I32);
    ts_tensor_release(B);
    ts_tensor_release(U);
    ts_tensor_release(S);
    ts_tensor_release(E);
    ts_tensor_release(D);
    ts_tensor_release(N);
    ts_tensor_release(H);
    ts_tensor_release(L);
    ts_tensor_release(G);
    ts_tensor_release(AP);
}

static void test_generated(void)
{
    EXPECT("aten::sum", "", ARGS(rt(A), NONE), TS_FLOAT32, 0, (int64_t[]){ 0 }, (double[]){ 1.649999976158142 }, 1, 1e-06, "sum of all");
    EXPECT("aten::sum", "dim_IntList", ARGS(rt(A), ilist(2, (int64_t[]){ 0, 2 }), ts_bool(false), NONE), TS_FLOAT32, 1, (int64_t[]){ 3 }, (double[]){ 2.819999933242798, 0.550000011920929, -1.7200000286102295 }, 3, 1e-06, "sum over dims [0, 2]");
    EXPECT("aten::sum", "dim_IntList", ARGS(rt(A), ilist(1, (int64_t[]){ -1 }), ts_bool(true), NONE), TS_FLOAT32, 3, (int64_t[]){ 2, 3, 1 }, (double[]){ 0.059999942779541016, 0.9599999785423279, -2.2100000381469727, 2.759999990463257, -0.4099999666213989, 0.49000000953674316 }, 6, 1e-06, "sum keepdim");
    EXPECT("aten::sum", "dim_IntList", ARGS(rt(AP), ilist(2, (int64_t[]){ 1, 2 }), ts_bool(false), NONE), TS_FLOAT32, 1, (int64_t[]){ 4 }, (double[]){ -1.6200001239776611, 1.7700001001358032, 1.090000033378601, 0.4100000858306885 }, 4, 1e-06, "sum of a permuted view");
    EXPECT("aten::sum", "dim_IntList", ARGS(rt(AP), ilist(1, (int64_t[]){ 0 }), ts_bool(true), NONE), TS_FLOAT32, 3, (int64_t[]){ 1, 2, 3 }, (double[]){ 0.059999942779541016, 0.9599999785423279, -2.2100000381469727, 2.759999990463257, -0.4099999666213989, 0.49000000953674316 }, 6, 1e-06, "sum of a permuted view over dim 0");
    EXPECT("aten::sum", "dim_IntList", ARGS(rt(A), ilist(0, (int64_t[]){ 0 }), ts_bool(false), NONE), TS_FLOAT32, 0, (int64_t[]){ 0 }, (double[]){ 1.649999976158142 }, 1, 1e-06, "sum with dim=[] reduces all");
    EXPECT("aten::sum", "dim_IntList", ARGS(rt(A), NONE, ts_bool(false), NONE), TS_FLOAT32, 0, (int64_t[]){ 0 }, (double[]){ 1.649999976158142 }, 1, 1e-06, "sum with dim=None reduces all");
    EXPECT("aten::sum", "", ARGS(rt(I), NONE), TS_INT64, 0, (int64_t[]){ 0 }, (double[]){ 11.0 }, 1, 1e-06, "sum of int64");
    EXPECT("aten::sum", "", ARGS(rt(I32), NONE), TS_INT64, 0, (int64_t[]){ 0 }, (double[]){ 11.0 }, 1, 1e-06, "sum of int32 is int64");
    EXPECT("aten::sum", "", ARGS(rt(B), NONE), TS_INT64, 0, (int64_t[]){ 0 }, (double[]){ 4.0 }, 1, 1e-06, "sum of bool is int64");
    EXPECT("aten::sum", "dim_IntList", ARGS(rt(U), ilist(1, (int64_t[]){ 1 }), ts_bool(false), NONE), TS_INT64, 1, (int64_t[]){ 2 }, (double[]){ 3.0, 12.0 }, 2, 1e-06, "sum of uint8 is int64");
    EXPECT("aten::sum", "", ARGS(rt(I), ts_int(TS_INT32)), TS_INT32, 0, (int64_t[]){ 0 }, (double[]){ 11.0 }, 1, 1e-06, "sum dtype=int32");
    EXPECT("aten::sum", "", ARGS(rt(A), ts_int(TS_FLOAT64)), TS_FLOAT64, 0, (int64_t[]){ 0 }, (double[]){ 1.650000013411045 }, 1, 1e-12, "sum dtype=float64");
    EXPECT("aten::sum", "", ARGS(rt(A), ts_int(TS_INT64)), TS_INT64, 0, (int64_t[]){ 0 }, (double[]){ 0.0 }, 1, 1e-06, "sum dtype=int64 casts the input first");
    EXPECT("aten::sum", "", ARGS(rt(H), NONE), TS_FLOAT16, 0, (int64_t[]){ 0 }, (double[]){ 3.25 }, 1, 1e-06, "sum of float16");
    EXPECT("aten::sum", "", ARGS(rt(S), NONE), TS_FLOAT32, 0, (int64_t[]){ 0 }, (double[]){ 2.5 }, 1, 1e-06, "sum of a 0-dim tensor");
    EXPECT("aten::sum", "dim_IntList", ARGS(rt(S), ilist(1, (int64_t[]){ 0 }), ts_bool(true), NONE), TS_FLOAT32, 0, (int64_t[]){ 0 }, (double[]){ 2.5 }, 1, 1e-06, "sum of a 0-dim tensor over dim 0");
    EXPECT("aten::sum", "dim_IntList", ARGS(rt(S), ilist(1, (int64_t[]){ -1 }), ts_bool(false), NONE), TS_FLOAT32, 0, (int64_t[]){ 0 }, (double[]){ 2.5 }, 1, 1e-06, "sum of a 0-dim tensor over dim -1");
    FAILS("aten::sum", "dim_IntList", ARGS(rt(S), ilist(1, (int64_t[]){ 1 }), ts_bool(false), NONE), "Dimension out of range (expected to be in range of [-1, 0], but got 1)", "sum of a 0-dim tensor over dim 1");
    EXPECT("aten::sum", "", ARGS(rt(E), NONE), TS_FLOAT32, 0, (int64_t[]){ 0 }, (double[]){ 0.0 }, 1, 1e-06, "sum of an empty tensor");
    EXPECT("aten::sum", "dim_IntList", ARGS(rt(E), ilist(1, (int64_t[]){ 0 }), ts_bool(false), NONE), TS_FLOAT32, 1, (int64_t[]){ 3 }, (double[]){ 0.0, 0.0, 0.0 }, 3, 1e-06, "sum of an empty tensor over its empty dim");
    EXPECT("aten::sum", "dim_IntList", ARGS(rt(E), ilist(1, (int64_t[]){ 1 }), ts_bool(false), NONE), TS_FLOAT32, 1, (int64_t[]){ 0 }, (double[]){ 0 }, 0, 1e-06, "sum of an empty tensor over dim 1");
    EXPECT("aten::sum", "", ARGS(rt(D), NONE), TS_FLOAT64, 0, (int64_t[]){ 0 }, (double[]){ 10000000006.251 }, 1, 1e-15, "sum of float64");
    FAILS("aten::sum", "dim_IntList", ARGS(rt(A), ilist(1, (int64_t[]){ 3 }), ts_bool(false), NONE), "Dimension out of range (expected to be in range of [-3, 2], but got 3)", "sum dim out of range");
    FAILS("aten::sum", "dim_IntList", ARGS(rt(A), ilist(2, (int64_t[]){ 1, -2 }), ts_bool(false), NONE), "dim 1 appears multiple times in the list of dims", "sum repeated dim");
    EXPECT("aten::nansum", "", ARGS(rt(N), ilist(1, (int64_t[]){ 1 }), ts_bool(false), NONE), TS_FLOAT32, 1, (int64_t[]){ 2 }, (double[]){ 4.0, 3.0 }, 2, 1e-06, "nansum skips nan");
    EXPECT("aten::mean", "", ARGS(rt(A), NONE), TS_FLOAT32, 0, (int64_t[]){ 0 }, (double[]){ 0.06875000149011612 }, 1, 1e-06, "mean of all");
    EXPECT("aten::mean", "dim", ARGS(rt(AP), ilist(2, (int64_t[]){ 0, 1 }), ts_bool(true), NONE), TS_FLOAT32, 3, (int64_t[]){ 1, 1, 3 }, (double[]){ 0.35249999165534973, 0.06875000149011612, -0.2150000035762787 }, 3, 1e-06, "mean of a view keepdim");
    FAILS("aten::mean", "", ARGS(rt(I), NONE), "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Long", "mean of int64");
    EXPECT("aten::mean", "", ARGS(rt(I), ts_int(TS_FLOAT32)), TS_FLOAT32, 0, (int64_t[]){ 0 }, (double[]){ 1.8333333730697632 }, 1, 1e-06, "mean of int64 dtype=float");
    FAILS("aten::mean", "", ARGS(rt(A), ts_int(TS_INT64)), "mean(): could not infer output dtype. Optional dtype must be either a floating point or complex dtype. Got: Long", "mean dtype=int64");
    EXPECT("aten::mean", "", ARGS(rt(E), NONE), TS_FLOAT32, 0, (int64_t[]){ 0 }, (double[]){ NAN }, 1, 1e-06, "mean of an empty tensor is nan");
    EXPECT("aten::mean", "dim", ARGS(rt(E), ilist(1, (int64_t[]){ 1 }), ts_bool(false), NONE), TS_FLOAT32, 1, (int64_t[]){ 0 }, (double[]){ 0 }, 0, 1e-06, "mean of an empty tensor over dim 1");
    EXPECT("aten::prod", "", ARGS(rt(A), NONE), TS_FLOAT32, 0, (int64_t[]){ 0 }, (double[]){ -0.004547358024865389 }, 1, 1e-05, "prod of all");
    EXPECT("aten::prod", "dim_int", ARGS(rt(A), ts_int(1), ts_bool(false), NONE), TS_FLOAT32, 2, (int64_t[]){ 2, 4 }, (double[]){ 1.0618999004364014, -0.9539999961853027, 0.2993760406970978, -0.2289840131998062, -1.0702699422836304, 0.16103999316692352, -0.5838660001754761, -0.6506760120391846 }, 8, 1e-05, "prod over dim 1");
    EXPECT("aten::prod", "dim_int", ARGS(rt(I), ts_int(0), ts_bool(true), NONE), TS_INT64, 2, (int64_t[]){ 1, 3 }, (double[]){ 3.0, 5.0, 36.0 }, 3, 1e-06, "prod of int64 keepdim");
    EXPECT("aten::prod", "", ARGS(rt(B), NONE), TS_INT64, 0, (int64_t[]){ 0 }, (double[]){ 0.0 }, 1, 1e-06, "prod of bool is int64");
    EXPECT("aten::prod", "", ARGS(rt(E), NONE), TS_FLOAT32, 0, (int64_t[]){ 0 }, (double[]){ 1.0 }, 1, 1e-06, "prod of an empty tensor is 1");
    EXPECT("aten::max", "", ARGS(rt(A)), TS_FLOAT32, 0, (int64_t[]){ 0 }, (double[]){ 1.9900000095367432 }, 1, 1e-06, "max of all");
    EXPECT("aten::min", "", ARGS(rt(AP)), TS_FLOAT32, 0, (int64_t[]){ 0 }, (double[]){ -1.850000023841858 }, 1, 1e-06, "min of a view");
    EXPECT("aten::max", "", ARGS(rt(I)), TS_INT64, 0, (int64_t[]){ 0 }, (double[]){ 9.0 }, 1, 1e-06, "max of int64");
    EXPECT("aten::max", "", ARGS(rt(B)), TS_BOOL, 0, (int64_t[]){ 0 }, (double[]){ 1.0 }, 1, 1e-06, "max of bool");
    EXPECT("aten::max", "", ARGS(rt(N)), TS_FLOAT32, 0, (int64_t[]){ 0 }, (double[]){ NAN }, 1, 1e-06, "max propagates nan");
    EXPECT("aten::min", "", ARGS(rt(N)), TS_FLOAT32, 0, (int64_t[]){ 0 }, (double[]){ NAN }, 1, 1e-06, "min propagates nan");
    FAILS("aten::max", "", ARGS(rt(E)), "max(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.", "max of an empty tensor");
    FAILS("aten::min", "", ARGS(rt(E)), "min(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.", "min of an empty tensor");
    EXPECT2("aten::max", "dim", ARGS(rt(A), ts_int(1), ts_bool(false)), TS_FLOAT32, 2, (int64_t[]){ 2, 4 }, (double[]){ 0.4099999964237213, 1.2000000476837158, 1.5399999618530273, 1.8799999952316284, 1.309999942779541, 1.649999976158142, 1.9900000095367432, 0.9700000286102295 }, 8, TS_INT64, 2, (int64_t[]){ 2, 4 }, (double[]){ 1.0, 2.0, 1.0, 0.0, 2.0, 1.0, 0.0, 2.0 }, 8, 1e-06, "max.dim");
    EXPECT2("aten::max", "dim", ARGS(rt(AP), ts_int(0), ts_bool(true)), TS_FLOAT32, 3, (int64_t[]){ 1, 2, 3 }, (double[]){ 1.8799999952316284, 1.5399999618530273, 1.2000000476837158, 1.9900000095367432, 1.649999976158142, 1.309999942779541 }, 6, TS_INT64, 3, (int64_t[]){ 1, 2, 3 }, (double[]){ 3.0, 2.0, 1.0, 2.0, 1.0, 0.0 }, 6, 1e-06, "max.dim of a view keepdim");
    EXPECT2("aten::min", "dim", ARGS(rt(I), ts_int(-1), ts_bool(false)), TS_INT64, 1, (int64_t[]){ 2 }, (double[]){ -1.0, -5.0 }, 2, TS_INT64, 1, (int64_t[]){ 2 }, (double[]){ 1.0, 1.0 }, 2, 1e-06, "min.dim of int64");
    EXPECT2("aten::max", "dim", ARGS(rt(N), ts_int(1), ts_bool(false)), TS_FLOAT32, 1, (int64_t[]){ 2 }, (double[]){ NAN, 5.0 }, 2, TS_INT64, 1, (int64_t[]){ 2 }, (double[]){ 1.0, 2.0 }, 2, 1e-06, "max.dim with nan");
    EXPECT2("aten::max", "dim", ARGS(rt(S), ts_int(0), ts_bool(false)), TS_FLOAT32, 0, (int64_t[]){ 0 }, (double[]){ 2.5 }, 1, TS_INT64, 0, (int64_t[]){ 0 }, (double[]){ 0.0 }, 1, 1e-06, "max.dim of a 0-dim tensor");
    FAILS("aten::max", "dim", ARGS(rt(E), ts_int(0), ts_bool(false)), "max(): Expected reduction dim 0 to have non-zero size.", "max.dim over an empty dim");
    EXPECT2("aten::max", "dim", ARGS(rt(E), ts_int(1), ts_bool(false)), TS_FLOAT32, 1, (int64_t[]){ 0 }, (double[]){ 0 }, 0, TS_INT64, 1, (int64_t[]){ 0 }, (double[]){ 0 }, 0, 1e-06, "max.dim of an empty tensor over a non-empty dim");
    FAILS("aten::max", "dim", ARGS(rt(A), ts_int(-4), ts_bool(false)), "Dimension out of range (expected to be in range of [-3, 2], but got -4)", "max.dim dim out of range");
    EXPECT("aten::amax", "", ARGS(rt(A), ilist(2, (int64_t[]){ 0, 2 }), ts_bool(false)), TS_FLOAT32, 1, (int64_t[]){ 3 }, (double[]){ 1.9900000095367432, 1.649999976158142, 1.309999942779541 }, 3, 1e-06, "amax over two dims");
    EXPECT("aten::amin", "", ARGS(rt(A), ilist(0, (int64_t[]){ 0 }), ts_bool(true)), TS_FLOAT32, 3, (int64_t[]){ 1, 1, 1 }, (double[]){ -1.850000023841858 }, 1, 1e-06, "amin over all dims keepdim");
    FAILS("aten::amax", "", ARGS(rt(E), ilist(1, (int64_t[]){ 0 }), ts_bool(false)), "amax(): Expected reduction dim 0 to have non-zero size.", "amax over an empty dim");
    EXPECT("aten::amax", "", ARGS(rt(N), ilist(1, (int64_t[]){ 1 }), ts_bool(false)), TS_FLOAT32, 1, (int64_t[]){ 2 }, (double[]){ NAN, 5.0 }, 2, 1e-06, "amax with nan");
    EXPECT("aten::argmax", "", ARGS(rt(A), NONE, ts_bool(false)), TS_INT64, 0, (int64_t[]){ 0 }, (double[]){ 14.0 }, 1, 1e-06, "argmax of all (flat index)");
    EXPECT("aten::argmax", "", ARGS(rt(AP), NONE, ts_bool(false)), TS_INT64, 0, (int64_t[]){ 0 }, (double[]){ 15.0 }, 1, 1e-06, "argmax of a view (flat index in its order)");
    EXPECT("aten::argmin", "", ARGS(rt(A), ts_int(2), ts_bool(true)), TS_INT64, 3, (int64_t[]){ 2, 3, 1 }, (double[]){ 0.0, 1.0, 3.0, 1.0, 3.0, 2.0 }, 6, 1e-06, "argmin over dim 2 keepdim");
    EXPECT("aten::argmax", "", ARGS(rt(G), ts_int(0), ts_bool(false)), TS_INT64, 0, (int64_t[]){ 0 }, (double[]){ 5.0 }, 1, 1e-06, "argmax picks the first of equal maxima");
    EXPECT("aten::argmin", "", ARGS(rt(G), NONE, ts_bool(false)), TS_INT64, 0, (int64_t[]){ 0 }, (double[]){ 1.0 }, 1, 1e-06, "argmin picks the first of equal minima");
    EXPECT("aten::argmin", "", ARGS(rt(N), ts_int(1), ts_bool(false)), TS_INT64, 1, (int64_t[]){ 2 }, (double[]){ 1.0, 0.0 }, 2, 1e-06, "argmin points at nan");
    FAILS("aten::argmax", "", ARGS(rt(E), NONE, ts_bool(false)), "argmax(): Expected reduction dim to be specified for input.numel() == 0.", "argmax of an empty tensor");
    FAILS("aten::argmax", "", ARGS(rt(E), ts_int(0), ts_bool(false)), "argmax(): Expected reduction dim 0 to have non-zero size.", "argmax over an empty dim");
    EXPECT("aten::argmax", "", ARGS(rt(E), ts_int(1), ts_bool(false)), TS_INT64, 1, (int64_t[]){ 0 }, (double[]){ 0 }, 0, 1e-06, "argmax of an empty tensor over a non-empty dim");
    EXPECT("aten::std", "", ARGS(rt(A), ts_bool(true)), TS_FLOAT32, 0, (int64_t[]){ 0 }, (double[]){ 1.217557430267334 }, 1, 1e-06, "std unbiased");
    EXPECT("aten::var", "", ARGS(rt(A), ts_bool(false)), TS_FLOAT32, 0, (int64_t[]){ 0 }, (double[]){ 1.4206775426864624 }, 1, 1e-06, "var biased");
    EXPECT("aten::var", "dim", ARGS(rt(AP), ilist(2, (int64_t[]){ 1, 2 }), ts_bool(true), ts_bool(true)), TS_FLOAT32, 3, (int64_t[]){ 4, 1, 1 }, (double[]){ 1.6942800283432007, 1.1448299884796143, 1.8828566074371338, 1.8828566074371338 }, 4, 1e-06, "var of a view over two dims keepdim");
    EXPECT("aten::std", "dim", ARGS(rt(A), ilist(1, (int64_t[]){ 0 }), ts_bool(true), ts_bool(false)), TS_FLOAT32, 2, (int64_t[]){ 3, 4 }, (double[]){ 1.9162594079971313, 0.9616652131080627, 1.9162594079971313, 0.9616652131080627, 0.9616652131080627, 1.9162592887878418, 0.9616652131080627, 0.9616652131080627, 1.9162592887878418, 0.9616652727127075, 0.9616652131080627, 1.9162594079971313 }, 12, 1e-06, "std over dim 0 (two elements)");
    EXPECT("aten::var", "correction", ARGS(rt(A), ilist(1, (int64_t[]){ 2 }), ts_int(0), ts_bool(false)), TS_FLOAT32, 2, (int64_t[]){ 2, 3 }, (double[]){ 2.0092251300811768, 0.8594499230384827, 1.319868803024292, 0.8594500422477722, 1.3198686838150024, 1.3198686838150024 }, 6, 1e-06, "var correction=0");
    EXPECT("aten::var", "correction", ARGS(rt(A), NONE, ts_int(2), ts_bool(false)), TS_FLOAT32, 0, (int64_t[]){ 0 }, (double[]){ 1.5498300790786743 }, 1, 1e-06, "var correction=2");
    EXPECT("aten::std", "correction", ARGS(rt(A), ilist(1, (int64_t[]){ 0 }), NONE, ts_bool(false)), TS_FLOAT32, 2, (int64_t[]){ 3, 4 }, (double[]){ 1.9162594079971313, 0.9616652131080627, 1.9162594079971313, 0.9616652131080627, 0.9616652131080627, 1.9162592887878418, 0.9616652131080627, 0.9616652131080627, 1.9162592887878418, 0.9616652727127075, 0.9616652131080627, 1.9162594079971313 }, 12, 1e-06, "std correction=None is unbiased");
    EXPECT("aten::var", "correction", ARGS(rt(A), ilist(1, (int64_t[]){ 0 }), ts_int(5), ts_bool(false)), TS_FLOAT32, 2, (int64_t[]){ 3, 4 }, (double[]){ INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY }, 12, 1e-06, "var with correction past the count is inf");
    EXPECT("aten::var", "", ARGS(rt(S), ts_bool(true)), TS_FLOAT32, 0, (int64_t[]){ 0 }, (double[]){ NAN }, 1, 1e-06, "var of one element is nan");
    EXPECT("aten::var", "", ARGS(rt(E), ts_bool(true)), TS_FLOAT32, 0, (int64_t[]){ 0 }, (double[]){ NAN }, 1, 1e-06, "var of an empty tensor is nan");
    FAILS("aten::std", "", ARGS(rt(I), ts_bool(true)), "std and var only support floating point and complex dtypes", "std of int64");
    EXPECT("aten::var", "", ARGS(rt(D), ts_bool(true)), TS_FLOAT64, 0, (int64_t[]){ 0 }, (double[]){ 1.9999999993748996e+19 }, 1, 1e-12, "var of float64");
    EXPECT2("aten::std_mean", "dim", ARGS(rt(A), ilist(1, (int64_t[]){ 1 }), ts_bool(true), ts_bool(false)), TS_FLOAT32, 2, (int64_t[]){ 2, 4 }, (double[]){ 1.1962580680847168, 1.1962580680847168, 1.1962580680847168, 1.809999942779541, 1.1962580680847168, 1.1962580680847168, 1.809999942779541, 1.1962580680847168 }, 8, TS_FLOAT32, 2, (int64_t[]){ 2, 4 }, (double[]){ -0.9466666579246521, 0.2966667115688324, 0.18333330750465393, 0.06999999284744263, 0.40666666626930237, 0.2933333218097687, 0.18000000715255737, 0.06666668504476547 }, 8, 1e-06, "std_mean over dim 1");
    EXPECT2("aten::var_mean", "", ARGS(rt(A), ts_bool(false)), TS_FLOAT32, 0, (int64_t[]){ 0 }, (double[]){ 1.4206775426864624 }, 1, TS_FLOAT32, 0, (int64_t[]){ 0 }, (double[]){ 0.06875000149011612 }, 1, 1e-06, "var_mean biased");
    EXPECT("aten::norm", "Scalar", ARGS(rt(A), ts_int(2)), TS_FLOAT32, 0, (int64_t[]){ 0 }, (double[]){ 5.84890604019165 }, 1, 1e-06, "norm p=2");
    EXPECT("aten::norm", "Scalar", ARGS(rt(A), ts_int(1)), TS_FLOAT32, 0, (int64_t[]){ 0 }, (double[]){ 25.00999641418457 }, 1, 1e-06, "norm p=1");
    EXPECT("aten::norm", "Scalar", ARGS(rt(A), ts_double(INFINITY)), TS_FLOAT32, 0, (int64_t[]){ 0 }, (double[]){ 1.9900000095367432 }, 1, 1e-06, "norm p=inf");
    EXPECT("aten::norm", "Scalar", ARGS(rt(A), ts_double(-INFINITY)), TS_FLOAT32, 0, (int64_t[]){ 0 }, (double[]){ 0.07000000029802322 }, 1, 1e-06, "norm p=-inf");
    EXPECT("aten::norm", "Scalar", ARGS(rt(A), ts_int(0)), TS_FLOAT32, 0, (int64_t[]){ 0 }, (double[]){ 24.0 }, 1, 1e-06, "norm p=0 counts non-zeros");
    EXPECT("aten::norm", "Scalar", ARGS(rt(A), ts_double(3.5)), TS_FLOAT32, 0, (int64_t[]){ 0 }, (double[]){ 3.315197706222534 }, 1, 1e-05, "norm p=3.5");
    EXPECT("aten::norm", "ScalarOpt_dim", ARGS(rt(AP), ts_double(2.0), ilist(1, (int64_t[]){ 0 }), ts_bool(true)), TS_FLOAT32, 3, (int64_t[]){ 1, 2, 3 }, (double[]){ 2.835101366043091, 1.9152544736862183, 2.549607753753662, 2.3113200664520264, 2.306837558746338, 2.3107357025146484 }, 6, 1e-06, "norm over dim 0 of a view keepdim");
    EXPECT("aten::norm", "ScalarOpt_dim", ARGS(rt(A), NONE, ilist(2, (int64_t[]){ 1, 2 }), ts_bool(false)), TS_FLOAT32, 1, (int64_t[]){ 2 }, (double[]){ 4.266907691955566, 4.000400066375732 }, 2, 1e-06, "norm p=None is 2");
    EXPECT("aten::norm", "ScalarOpt_dim_dtype", ARGS(rt(A), ts_int(1), ilist(1, (int64_t[]){ 1 }), ts_bool(false), ts_int(TS_FLOAT64)), TS_FLOAT64, 2, (int64_t[]){ 2, 4 }, (double[]){ 3.6599999964237213, 3.009999990463257, 2.530000001192093, 3.690000005066395, 3.119999945163727, 2.419999986886978, 3.800000011920929, 2.7799999713897705 }, 8, 1e-12, "norm dtype=float64");
    FAILS("aten::norm", "Scalar", ARGS(rt(I), ts_int(2)), "norm(): input dtype should be either floating point or complex. Got Long instead.", "norm of int64");
    FAILS("aten::norm", "ScalarOpt_dtype", ARGS(rt(A), ts_int(2), ts_int(TS_INT64)), "norm(): the desired output dtype should be either floating point or complex. Got Long instead.", "norm dtype=int64");
    EXPECT("aten::norm", "Scalar", ARGS(rt(E), ts_double(INFINITY)), TS_FLOAT32, 0, (int64_t[]){ 0 }, (double[]){ 0.0 }, 1, 1e-06, "norm inf of an empty tensor");
    EXPECT("aten::frobenius_norm", "dim", ARGS(rt(A), ilist(2, (int64_t[]){ 0, 1 }), ts_bool(false)), TS_FLOAT32, 1, (int64_t[]){ 4 }, (double[]){ 2.9847612380981445, 2.4992599487304688, 3.1003708839416504, 3.0728325843811035 }, 4, 1e-06, "frobenius_norm over two dims");
    EXPECT("aten::linalg_vector_norm", "", ARGS(rt(A), ts_double(INFINITY), ilist(1, (int64_t[]){ 2 }), ts_bool(true), NONE), TS_FLOAT32, 3, (int64_t[]){ 2, 3, 1 }, (double[]){ 1.8799999952316284, 1.5399999618530273, 1.7400000095367432, 1.9900000095367432, 1.649999976158142, 1.6299999952316284 }, 6, 1e-06, "linalg_vector_norm inf over dim 2");
    FAILS("aten::linalg_vector_norm", "", ARGS(rt(I), ts_int(2), NONE, ts_bool(false), NONE), "linalg.vector_norm: Expected a floating point or complex tensor as input. Got Long", "linalg_vector_norm of int64");
    EXPECT("aten::all", "", ARGS(rt(B)), TS_BOOL, 0, (int64_t[]){ 0 }, (double[]){ 0.0 }, 1, 1e-06, "all of bool");
    EXPECT("aten::any", "dim", ARGS(rt(B), ts_int(0), ts_bool(false)), TS_BOOL, 1, (int64_t[]){ 3 }, (double[]){ 1.0, 1.0, 1.0 }, 3, 1e-06, "any over dim 0");
    EXPECT("aten::all", "dim", ARGS(rt(A), ts_int(1), ts_bool(true)), TS_BOOL, 3, (int64_t[]){ 2, 1, 4 }, (double[]){ 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0 }, 8, 1e-06, "all of float keepdim");
    EXPECT("aten::all", "", ARGS(rt(U)), TS_UINT8, 0, (int64_t[]){ 0 }, (double[]){ 0.0 }, 1, 1e-06, "all of uint8 is uint8");
    EXPECT("aten::any", "dim", ARGS(rt(U), ts_int(1), ts_bool(false)), TS_UINT8, 1, (int64_t[]){ 2 }, (double[]){ 1.0, 1.0 }, 2, 1e-06, "any of uint8 is uint8");
    EXPECT("aten::all", "", ARGS(rt(E)), TS_BOOL, 0, (int64_t[]){ 0 }, (double[]){ 1.0 }, 1, 1e-06, "all of an empty tensor is True");
    EXPECT("aten::any", "", ARGS(rt(E)), TS_BOOL, 0, (int64_t[]){ 0 }, (double[]){ 0.0 }, 1, 1e-06, "any of an empty tensor is False");
    EXPECT("aten::any", "", ARGS(rt(N)), TS_BOOL, 0, (int64_t[]){ 0 }, (double[]){ 1.0 }, 1, 1e-06, "any of nan is True");
    EXPECT("aten::logsumexp", "", ARGS(rt(A), ilist(1, (int64_t[]){ 1 }), ts_bool(false)), TS_FLOAT32, 2, (int64_t[]){ 2, 4 }, (double[]){ 0.6474445462226868, 1.7550216913223267, 1.7774444818496704, 2.0543203353881836, 1.8650215864181519, 1.8874444961547852, 2.164320230484009, 1.5250216722488403 }, 8, 1e-06, "logsumexp over dim 1");
    EXPECT("aten::logsumexp", "", ARGS(rt(L), ilist(1, (int64_t[]){ 1 }), ts_bool(true)), TS_FLOAT32, 2, (int64_t[]){ 2, 1 }, (double[]){ 1002.4075927734375, 2.49381160736084 }, 2, 1e-06, "logsumexp of large values");
    EXPECT("aten::logsumexp", "", ARGS(rt(I), ilist(2, (int64_t[]){ 0, 1 }), ts_bool(false)), TS_FLOAT32, 0, (int64_t[]){ 0 }, (double[]){ 9.009552955627441 }, 1, 1e-06, "logsumexp of int64 is float");
    EXPECT("aten::logsumexp", "", ARGS(rt(E), ilist(1, (int64_t[]){ 0 }), ts_bool(false)), TS_FLOAT32, 1, (int64_t[]){ 3 }, (double[]){ -INFINITY, -INFINITY, -INFINITY }, 3, 1e-06, "logsumexp over an empty dim is -inf");
    EXPECT("aten::logsumexp", "", ARGS(rt(N), ilist(1, (int64_t[]){ 1 }), ts_bool(false)), TS_FLOAT32, 1, (int64_t[]){ 2 }, (double[]){ NAN, 5.007620811462402 }, 2, 1e-06, "logsumexp with nan");
    EXPECT("aten::count_nonzero", "", ARGS(rt(A), NONE), TS_INT64, 0, (int64_t[]){ 0 }, (double[]){ 24.0 }, 1, 1e-06, "count_nonzero of all");
    EXPECT("aten::count_nonzero", "dim_IntList", ARGS(rt(I), ilist(1, (int64_t[]){ 1 })), TS_INT64, 1, (int64_t[]){ 2 }, (double[]){ 3.0, 3.0 }, 2, 1e-06, "count_nonzero over dim 1");
    EXPECT("aten::cumsum", "", ARGS(rt(A), ts_int(1), NONE), TS_FLOAT32, 3, (int64_t[]){ 2, 3, 4 }, (double[]){ -1.850000023841858, 0.75, -0.7200000286102295, 1.8799999952316284, -1.440000057220459, -0.309999942779541, 0.8199999332427979, 1.9500000476837158, -2.8399999141693115, 0.8900001049041748, 0.5499999523162842, 0.20999997854232788, 0.8600000143051147, -0.6100000143051147, 1.9900000095367432, 0.5199999809265137, -0.0899999737739563, 1.0399999618530273, 2.1700000762939453, -0.7699999809265137, 1.2200000286102295, 0.8799999952316284, 0.5400000214576721, 0.20000004768371582 }, 24, 1e-06, "cumsum over dim 1");
    EXPECT("aten::cumsum", "", ARGS(rt(AP), ts_int(0), NONE), TS_FLOAT32, 3, (int64_t[]){ 4, 2, 3 }, (double[]){ -1.850000023841858, 0.4099999964237213, -1.399999976158142, 0.8600000143051147, -0.949999988079071, 1.309999942779541, -1.100000023841858, -0.6499999761581421, -0.19999992847442627, 0.25, 0.699999988079071, 1.149999976158142, -1.8200000524520874, 0.8899999856948853, -0.46999993920326233, 2.240000009536743, 0.8799999952316284, -0.4800000488758087, 0.059999942779541016, 0.9600000381469727, -2.2100000381469727, 2.759999990463257, -0.4099999666213989, 0.4899999797344208 }, 24, 1e-06, "cumsum of a view");
    EXPECT("aten::cumsum", "", ARGS(rt(I32), ts_int(1), NONE), TS_INT64, 2, (int64_t[]){ 2, 3 }, (double[]){ 3.0, 2.0, 6.0, 1.0, -4.0, 5.0 }, 6, 1e-06, "cumsum of int32 is int64");
    EXPECT("aten::cumsum", "", ARGS(rt(B), ts_int(0), NONE), TS_INT64, 2, (int64_t[]){ 2, 3 }, (double[]){ 1.0, 0.0, 1.0, 2.0, 1.0, 1.0 }, 6, 1e-06, "cumsum of bool is int64");
    EXPECT("aten::cumsum", "", ARGS(rt(A), ts_int(2), ts_int(TS_FLOAT64)), TS_FLOAT64, 3, (int64_t[]){ 2, 3, 4 }, (double[]){ -1.850000023841858, -1.100000023841858, -1.8200000524520874, 0.059999942779541016, 0.4099999964237213, -0.6499999463558197, 0.8900000154972076, 0.9600000157952309, -1.399999976158142, -0.19999992847442627, -0.46999993920326233, -2.2099999487400055, 0.8600000143051147, 0.25, 2.240000009536743, 2.759999990463257, -0.949999988079071, 0.699999988079071, 0.8799999952316284, -0.4099999666213989, 1.309999942779541, 1.1499999463558197, -0.4800000488758087, 0.4899999797344208 }, 24, 1e-12, "cumsum dtype=float64");
    EXPECT("aten::cumsum", "", ARGS(rt(A), ts_int(2), ts_int(TS_INT64)), TS_INT64, 3, (int64_t[]){ 2, 3, 4 }, (double[]){ -1.0, -1.0, -1.0, 0.0, 0.0, -1.0, 0.0, 0.0, -1.0, 0.0, 0.0, -1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0 }, 24, 1e-06, "cumsum dtype=int64 casts first");
    EXPECT("aten::cumsum", "", ARGS(rt(S), ts_int(0), NONE), TS_FLOAT32, 0, (int64_t[]){ 0 }, (double[]){ 2.5 }, 1, 1e-06, "cumsum of a 0-dim tensor");
    EXPECT("aten::cumsum", "", ARGS(rt(E), ts_int(0), NONE), TS_FLOAT32, 2, (int64_t[]){ 0, 3 }, (double[]){ 0 }, 0, 1e-06, "cumsum of an empty tensor");
    FAILS("aten::cumsum", "", ARGS(rt(A), ts_int(3), NONE), "Dimension out of range (expected to be in range of [-3, 2], but got 3)", "cumsum dim out of range");
    EXPECT("aten::cumprod", "", ARGS(rt(A), ts_int(-1), NONE), TS_FLOAT32, 3, (int64_t[]){ 2, 3, 4 }, (double[]){ -1.850000023841858, -1.3875000476837158, 0.999000072479248, 1.8781200647354126, 0.4099999964237213, -0.43459996581077576, -0.669283926486969, -0.04684987664222717, -1.399999976158142, -1.6800000667572021, 0.4536000192165375, -0.7892640829086304, 0.8600000143051147, -0.5246000289916992, -1.0439540147781372, -0.5428560972213745, -0.949999988079071, -1.5674999952316284, -0.282150000333786, 0.3639734983444214, 1.309999942779541, -0.20959998667240143, 0.3416479825973511, 0.33139854669570923 }, 24, 1e-05, "cumprod over the last dim");
    EXPECT("aten::cumprod", "", ARGS(rt(I), ts_int(0), NONE), TS_INT64, 2, (int64_t[]){ 2, 3 }, (double[]){ 3.0, -1.0, 4.0, 3.0, 5.0, 36.0 }, 6, 1e-06, "cumprod of int64");
    EXPECT("aten::softmax", "int", ARGS(rt(A), ts_int(-1), NONE), TS_FLOAT32, 3, (int64_t[]){ 2, 3, 4 }, (double[]){ 0.016880912706255913, 0.22728019952774048, 0.052257511764764786, 0.7035813927650452, 0.19851697981357574, 0.045644115656614304, 0.6145403385162354, 0.14129850268363953, 0.05473105236887932, 0.7368844747543335, 0.1694285124540329, 0.0389559306204319, 0.19851697981357574, 0.045644115656614304, 0.6145403385162354, 0.14129848778247833, 0.05473105236887932, 0.7368844747543335, 0.1694285124540329, 0.0389559306204319, 0.5013632774353027, 0.11527621001005173, 0.026504933834075928, 0.3568555414676666 }, 24, 1e-06, "softmax over the last dim");
    EXPECT("aten::softmax", "int", ARGS(rt(AP), ts_int(1), NONE), TS_FLOAT32, 3, (int64_t[]){ 4, 2, 3 }, (double[]){ 0.06238585337996483, 0.7957597374916077, 0.06238585337996483, 0.9376141428947449, 0.20424030721187592, 0.9376141428947449, 0.7957597374916077, 0.06238585337996483, 0.7957597374916077, 0.20424030721187592, 0.9376141428947449, 0.20424030721187592, 0.06238585337996483, 0.7957596778869629, 0.7957597374916077, 0.9376141428947449, 0.20424030721187592, 0.20424030721187592, 0.7957597374916077, 0.7957597374916077, 0.06238585337996483, 0.20424030721187592, 0.20424030721187592, 0.9376141428947449 }, 24, 1e-06, "softmax of a view over dim 1");
    EXPECT("aten::softmax", "int", ARGS(rt(L), ts_int(1), NONE), TS_FLOAT32, 2, (int64_t[]){ 2, 5 }, (double[]){ 0.09003057330846786, 0.2447284758090973, 0.6652409434318542, 0.0, 0.0, 0.08259453624486923, 0.0, 0.08259453624486923, 0.22451522946357727, 0.6102956533432007 }, 10, 1e-06, "softmax of large values is stable");
    EXPECT("aten::softmax", "int", ARGS(rt(A), ts_int(0), ts_int(TS_FLOAT64)), TS_FLOAT64, 3, (int64_t[]){ 2, 3, 4 }, (double[]){ 0.062385849148630886, 0.7957597000408642, 0.062385849148630886, 0.7957597000408642, 0.7957596951972059, 0.06238585612164213, 0.7957596903535475, 0.7957596915644622, 0.06238585612164213, 0.7957597048845224, 0.7957596951972059, 0.062385849148630886, 0.9376141508513692, 0.2042402999591358, 0.9376141508513692, 0.2042402999591358, 0.20424030480279406, 0.937614143878358, 0.2042403096464524, 0.20424030843553784, 0.937614143878358, 0.2042402951154777, 0.20424030480279406, 0.9376141508513692 }, 24, 1e-12, "softmax dtype=float64");
    FAILS("aten::softmax", "int", ARGS(rt(I), ts_int(1), NONE), "\"softmax_lastdim_kernel_impl\" not implemented for 'Long'", "softmax of int64 over the last dim");
    FAILS("aten::softmax", "int", ARGS(rt(I), ts_int(0), NONE), "\"softmax_kernel_impl\" not implemented for 'Long'", "softmax of int64 over dim 0");
    EXPECT("aten::softmax", "int", ARGS(rt(I), ts_int(0), ts_int(TS_FLOAT32)), TS_FLOAT32, 2, (int64_t[]){ 2, 3 }, (double[]){ 0.8807970285415649, 0.9820137619972229, 0.006692850962281227, 0.11920291930437088, 0.01798621006309986, 0.9933071732521057 }, 6, 1e-06, "softmax of int64 dtype=float");
    EXPECT("aten::softmax", "int", ARGS(rt(S), ts_int(0), NONE), TS_FLOAT32, 0, (int64_t[]){ 0 }, (double[]){ 1.0 }, 1, 1e-06, "softmax of a 0-dim tensor");
    EXPECT("aten::softmax", "int", ARGS(rt(E), ts_int(1), NONE), TS_FLOAT32, 2, (int64_t[]){ 0, 3 }, (double[]){ 0 }, 0, 1e-06, "softmax of an empty tensor");
    EXPECT("aten::log_softmax", "int", ARGS(rt(A), ts_int(1), NONE), TS_FLOAT32, 3, (int64_t[]){ 2, 3, 4 }, (double[]){ -2.4974446296691895, -1.0050216913223267, -2.4974446296691895, -0.17432023584842682, -0.23744453489780426, -2.815021514892578, -0.23744453489780426, -1.9843201637268066, -2.0474445819854736, -0.5550216436386108, -2.0474445819854736, -3.7943201065063477, -1.005021572113037, -2.4974446296691895, -0.17432023584842682, -1.0050216913223267, -2.815021514892578, -0.23744453489780426, -1.9843201637268066, -2.815021514892578, -0.5550216436386108, -2.0474445819854736, -3.7943201065063477, -0.5550216436386108 }, 24, 2e-06, "log_softmax over dim 1");
    EXPECT("aten::log_softmax", "int", ARGS(rt(L), ts_int(-1), NONE), TS_FLOAT32, 2, (int64_t[]){ 2, 5 }, (double[]){ -2.4076058864593506, -1.4076058864593506, -0.40760594606399536, -1007.4075927734375, -999.4075927734375, -2.49381160736084, -INFINITY, -2.49381160736084, -1.4938117265701294, -0.4938117265701294 }, 10, 2e-06, "log_softmax of large values is stable");
    FAILS("aten::log_softmax", "int", ARGS(rt(H), ts_int(0), NONE), "\"log_softmax_lastdim_kernel_impl\" not implemented for 'Half'", "log_softmax of float16");
    EXPECT2("aten::sort", "", ARGS(rt(A), ts_int(-1), ts_bool(false)), TS_FLOAT32, 3, (int64_t[]){ 2, 3, 4 }, (double[]){ -1.850000023841858, -0.7200000286102295, 0.75, 1.8799999952316284, -1.059999942779541, 0.07000000029802322, 0.4099999964237213, 1.5399999618530273, -1.7400000095367432, -1.399999976158142, -0.27000001072883606, 1.2000000476837158, -0.6100000143051147, 0.5199999809265137, 0.8600000143051147, 1.9900000095367432, -1.2899999618530273, -0.949999988079071, 0.18000000715255737, 1.649999976158142, -1.6299999952316284, -0.1599999964237213, 0.9700000286102295, 1.309999942779541 }, 24, TS_INT64, 3, (int64_t[]){ 2, 3, 4 }, (double[]){ 0.0, 2.0, 1.0, 3.0, 1.0, 3.0, 0.0, 2.0, 3.0, 0.0, 2.0, 1.0, 1.0, 3.0, 0.0, 2.0, 3.0, 0.0, 2.0, 1.0, 2.0, 1.0, 3.0, 0.0 }, 24, 1e-06, "sort the last dim");
    EXPECT2("aten::sort", "", ARGS(rt(AP), ts_int(0), ts_bool(true)), TS_FLOAT32, 3, (int64_t[]){ 4, 2, 3 }, (double[]){ 1.8799999952316284, 1.5399999618530273, 1.2000000476837158, 1.9900000095367432, 1.649999976158142, 1.309999942779541, 0.75, 0.4099999964237213, -0.27000001072883606, 0.8600000143051147, 0.18000000715255737, 0.9700000286102295, -0.7200000286102295, 0.07000000029802322, -1.399999976158142, 0.5199999809265137, -0.949999988079071, -0.1599999964237213, -1.850000023841858, -1.059999942779541, -1.7400000095367432, -0.6100000143051147, -1.2899999618530273, -1.6299999952316284 }, 24, TS_INT64, 3, (int64_t[]){ 4, 2, 3 }, (double[]){ 3.0, 2.0, 1.0, 2.0, 1.0, 0.0, 1.0, 0.0, 2.0, 0.0, 2.0, 3.0, 2.0, 3.0, 0.0, 3.0, 0.0, 1.0, 0.0, 1.0, 3.0, 1.0, 3.0, 2.0 }, 24, 1e-06, "sort a view descending");
    EXPECT2("aten::sort", "stable", ARGS(rt(G), ts_bool(true), ts_int(0), ts_bool(false)), TS_FLOAT32, 1, (int64_t[]){ 6 }, (double[]){ 1.0, 1.0, 1.0, 2.0, 2.0, 3.0 }, 6, TS_INT64, 1, (int64_t[]){ 6 }, (double[]){ 1.0, 3.0, 4.0, 0.0, 2.0, 5.0 }, 6, 1e-06, "stable sort keeps ties in order");
    EXPECT2("aten::sort", "stable", ARGS(rt(G), ts_bool(true), ts_int(0), ts_bool(true)), TS_FLOAT32, 1, (int64_t[]){ 6 }, (double[]){ 3.0, 2.0, 2.0, 1.0, 1.0, 1.0 }, 6, TS_INT64, 1, (int64_t[]){ 6 }, (double[]){ 5.0, 0.0, 2.0, 1.0, 3.0, 4.0 }, 6, 1e-06, "stable sort descending keeps ties in order");
    EXPECT2("aten::sort", "", ARGS(rt(N), ts_int(1), ts_bool(false)), TS_FLOAT32, 2, (int64_t[]){ 2, 3 }, (double[]){ 1.0, 3.0, NAN, -2.0, 0.0, 5.0 }, 6, TS_INT64, 2, (int64_t[]){ 2, 3 }, (double[]){ 0.0, 2.0, 1.0, 0.0, 1.0, 2.0 }, 6, 1e-06, "sort puts nan last");
    EXPECT2("aten::sort", "", ARGS(rt(N), ts_int(1), ts_bool(true)), TS_FLOAT32, 2, (int64_t[]){ 2, 3 }, (double[]){ NAN, 3.0, 1.0, 5.0, 0.0, -2.0 }, 6, TS_INT64, 2, (int64_t[]){ 2, 3 }, (double[]){ 1.0, 2.0, 0.0, 2.0, 1.0, 0.0 }, 6, 1e-06, "sort descending puts nan first");
    EXPECT2("aten::sort", "", ARGS(rt(I), ts_int(0), ts_bool(false)), TS_INT64, 2, (int64_t[]){ 2, 3 }, (double[]){ 1.0, -5.0, 4.0, 3.0, -1.0, 9.0 }, 6, TS_INT64, 2, (int64_t[]){ 2, 3 }, (double[]){ 1.0, 1.0, 0.0, 0.0, 0.0, 1.0 }, 6, 1e-06, "sort int64 over dim 0");
    EXPECT2("aten::sort", "", ARGS(rt(B), ts_int(1), ts_bool(false)), TS_BOOL, 2, (int64_t[]){ 2, 3 }, (double[]){ 0.0, 1.0, 1.0, 0.0, 1.0, 1.0 }, 6, TS_INT64, 2, (int64_t[]){ 2, 3 }, (double[]){ 1.0, 0.0, 2.0, 2.0, 0.0, 1.0 }, 6, 1e-06, "sort bool");
    EXPECT2("aten::sort", "", ARGS(rt(S), ts_int(0), ts_bool(false)), TS_FLOAT32, 0, (int64_t[]){ 0 }, (double[]){ 2.5 }, 1, TS_INT64, 0, (int64_t[]){ 0 }, (double[]){ 0.0 }, 1, 1e-06, "sort a 0-dim tensor");
    EXPECT2("aten::sort", "", ARGS(rt(E), ts_int(0), ts_bool(false)), TS_FLOAT32, 2, (int64_t[]){ 0, 3 }, (double[]){ 0 }, 0, TS_INT64, 2, (int64_t[]){ 0, 3 }, (double[]){ 0 }, 0, 1e-06, "sort an empty tensor");
    EXPECT("aten::argsort", "", ARGS(rt(A), ts_int(1), ts_bool(true)), TS_INT64, 3, (int64_t[]){ 2, 3, 4 }, (double[]){ 1.0, 2.0, 1.0, 0.0, 2.0, 0.0, 2.0, 1.0, 0.0, 1.0, 0.0, 2.0, 2.0, 1.0, 0.0, 2.0, 0.0, 2.0, 1.0, 0.0, 1.0, 0.0, 2.0, 1.0 }, 24, 1e-06, "argsort descending");
    EXPECT("aten::argsort", "stable", ARGS(rt(G), ts_bool(true), ts_int(-1), ts_bool(false)), TS_INT64, 1, (int64_t[]){ 6 }, (double[]){ 1.0, 3.0, 4.0, 0.0, 2.0, 5.0 }, 6, 1e-06, "argsort stable");
    EXPECT2("aten::topk", "", ARGS(rt(A), ts_int(2), ts_int(-1), ts_bool(true), ts_bool(true)), TS_FLOAT32, 3, (int64_t[]){ 2, 3, 2 }, (double[]){ 1.8799999952316284, 0.75, 1.5399999618530273, 0.4099999964237213, 1.2000000476837158, -0.27000001072883606, 1.9900000095367432, 0.8600000143051147, 1.649999976158142, 0.18000000715255737, 1.309999942779541, 0.9700000286102295 }, 12, TS_INT64, 3, (int64_t[]){ 2, 3, 2 }, (double[]){ 3.0, 1.0, 2.0, 0.0, 1.0, 2.0, 2.0, 0.0, 1.0, 2.0, 0.0, 3.0 }, 12, 1e-06, "topk 2 largest");
    EXPECT2("aten::topk", "", ARGS(rt(AP), ts_int(3), ts_int(0), ts_bool(false), ts_bool(true)), TS_FLOAT32, 3, (int64_t[]){ 3, 2, 3 }, (double[]){ -1.850000023841858, -1.059999942779541, -1.7400000095367432, -0.6100000143051147, -1.2899999618530273, -1.6299999952316284, -0.7200000286102295, 0.07000000029802322, -1.399999976158142, 0.5199999809265137, -0.949999988079071, -0.1599999964237213, 0.75, 0.4099999964237213, -0.27000001072883606, 0.8600000143051147, 0.18000000715255737, 0.9700000286102295 }, 18, TS_INT64, 3, (int64_t[]){ 3, 2, 3 }, (double[]){ 0.0, 1.0, 3.0, 1.0, 3.0, 2.0, 2.0, 3.0, 0.0, 3.0, 0.0, 1.0, 1.0, 0.0, 2.0, 0.0, 2.0, 3.0 }, 18, 1e-06, "topk 3 smallest of a view");
    EXPECT2("aten::topk", "", ARGS(rt(N), ts_int(2), ts_int(1), ts_bool(true), ts_bool(true)), TS_FLOAT32, 2, (int64_t[]){ 2, 2 }, (double[]){ NAN, 3.0, 5.0, 0.0 }, 4, TS_INT64, 2, (int64_t[]){ 2, 2 }, (double[]){ 1.0, 2.0, 2.0, 1.0 }, 4, 1e-06, "topk counts nan as largest");
    EXPECT2("aten::topk", "", ARGS(rt(A), ts_int(0), ts_int(1), ts_bool(true), ts_bool(true)), TS_FLOAT32, 3, (int64_t[]){ 2, 0, 4 }, (double[]){ 0 }, 0, TS_INT64, 3, (int64_t[]){ 2, 0, 4 }, (double[]){ 0 }, 0, 1e-06, "topk 0");
    FAILS("aten::topk", "", ARGS(rt(A), ts_int(5), ts_int(1), ts_bool(true), ts_bool(true)), "selected index k out of range", "topk k too large");
    FAILS("aten::topk", "", ARGS(rt(A), ts_int(-1), ts_int(1), ts_bool(true), ts_bool(true)), "selected index k out of range", "topk k negative");
    EXPECT2("aten::topk", "", ARGS(rt(S), ts_int(1), ts_int(0), ts_bool(true), ts_bool(true)), TS_FLOAT32, 0, (int64_t[]){ 0 }, (double[]){ 2.5 }, 1, TS_INT64, 0, (int64_t[]){ 0 }, (double[]){ 0.0 }, 1, 1e-06, "topk of a 0-dim tensor");
    EXPECT("aten::median", "", ARGS(rt(A)), TS_FLOAT32, 0, (int64_t[]){ 0 }, (double[]){ 0.07000000029802322 }, 1, 1e-06, "median of all");
    EXPECT("aten::median", "", ARGS(rt(I)), TS_INT64, 0, (int64_t[]){ 0 }, (double[]){ 1.0 }, 1, 1e-06, "median of int64 (lower middle)");
    EXPECT("aten::median", "", ARGS(rt(N)), TS_FLOAT32, 0, (int64_t[]){ 0 }, (double[]){ NAN }, 1, 1e-06, "median with nan is nan");
    EXPECT("aten::median", "", ARGS(rt(E)), TS_FLOAT32, 0, (int64_t[]){ 0 }, (double[]){ NAN }, 1, 1e-06, "median of an empty tensor is nan");
    EXPECT2("aten::median", "dim", ARGS(rt(A), ts_int(2), ts_bool(false)), TS_FLOAT32, 2, (int64_t[]){ 2, 3 }, (double[]){ -0.7200000286102295, 0.07000000029802322, -1.399999976158142, 0.5199999809265137, -0.949999988079071, -0.1599999964237213 }, 6, TS_INT64, 2, (int64_t[]){ 2, 3 }, (double[]){ 2.0, 3.0, 0.0, 3.0, 0.0, 1.0 }, 6, 1e-06, "median.dim");
    EXPECT2("aten::median", "dim", ARGS(rt(N), ts_int(1), ts_bool(true)), TS_FLOAT32, 2, (int64_t[]){ 2, 1 }, (double[]){ NAN, 0.0 }, 2, TS_INT64, 2, (int64_t[]){ 2, 1 }, (double[]){ 1.0, 1.0 }, 2, 1e-06, "median.dim with nan keepdim");
    FAILS("aten::median", "dim", ARGS(rt(E), ts_int(0), ts_bool(false)), "median(): Expected reduction dim 0 to have non-zero size.", "median.dim over an empty dim");
}

/* Big reductions run in chunks: the running sums, extremes, means and M2s must merge. */
static void test_chunks(void)
{
    TsError err = TS_ERROR_INIT;
    TsDevice cpu = { TS_DEV_CPU, -1 };
    TsAllocator *al = ts_runtime_allocator(kt_rt, TS_DEV_CPU);
    TsTensor *ones = ts_tensor_empty(al, cpu, TS_FLOAT32, 1, (int64_t[]){ 1000000 }, &err);
    for (int64_t i = 0; i < 1000000; i++)
        ((float *)ts_tensor_data(ones))[i] = 1;
    EXPECT("aten::sum", "", ARGS(tv(ones), NONE), TS_FLOAT32, 0, (int64_t[]){ 0 },
           (double[]){ 1000000 }, 1, 0.0, "the sum of a million float32 ones is exact");
    TsTensor *x = ts_tensor_empty(al, cpu, TS_FLOAT32, 1, (int64_t[]){ 5000 }, &err);
    for (int64_t i = 0; i < 5000; i++)
        ((float *)ts_tensor_data(x))[i] = (float)i * 0.001f - 1.7f;
    EXPECT("aten::var", "", ARGS(rt(x), ts_bool(true)), TS_FLOAT32, 0, (int64_t[]){ 0 },
           (double[]){ 2.0837502479553223 }, 1, 1e-6, "var over 5 chunks");
    EXPECT("aten::std", "", ARGS(rt(x), ts_bool(false)), TS_FLOAT32, 0, (int64_t[]){ 0 },
           (double[]){ 1.4433757066726685 }, 1, 1e-6, "biased std over 5 chunks");
    EXPECT("aten::logsumexp", "", ARGS(rt(x), ilist(1, (int64_t[]){ 0 }), ts_bool(false)),
           TS_FLOAT32, 0, (int64_t[]){ 0 }, (double[]){ 10.200494766235352 }, 1, 1e-6,
           "logsumexp over 5 chunks");
    EXPECT("aten::sum", "", ARGS(rt(x), NONE), TS_FLOAT32, 0, (int64_t[]){ 0 },
           (double[]){ 3997.500244140625 }, 1, 1e-6, "sum over 5 chunks");
    EXPECT("aten::mean", "", ARGS(rt(x), NONE), TS_FLOAT32, 0, (int64_t[]){ 0 },
           (double[]){ 0.799500048160553 }, 1, 1e-6, "mean over 5 chunks");
    EXPECT("aten::norm", "Scalar", ARGS(rt(x), ts_int(2)), TS_FLOAT32, 0, (int64_t[]){ 0 },
           (double[]){ 116.67334747314453 }, 1, 1e-6, "norm over 5 chunks");
    EXPECT("aten::argmax", "", ARGS(rt(x), NONE, ts_bool(false)), TS_INT64, 0,
           (int64_t[]){ 0 }, (double[]){ 4999 }, 1, 0.0, "argmax in the last chunk");
    /* x.reshape(50, 100).t(): 100 rows of 50 elements 100 apart */
    TsTensor *y = ts_tensor_new(x->storage, TS_FLOAT32, 2, (int64_t[]){ 100, 50 },
                                (int64_t[]){ 1, 100 }, 0, &err);
    EXPECT("aten::sum", "dim_IntList", ARGS(rt(y), ilist(1, (int64_t[]){ 1 }), ts_bool(false),
           NONE), TS_FLOAT32, 1, (int64_t[]){ 100 },
           (double[]){ 37.5, 37.55000305175781, 37.599998474121094 }, 3, 1e-6,
           "sum along a strided dim");
    EXPECT("aten::var", "dim", ARGS(rt(y), ilist(1, (int64_t[]){ 0 }), ts_bool(true),
           ts_bool(false)), TS_FLOAT32, 1, (int64_t[]){ 50 },
           (double[]){ 0.0008416667114943266, 0.0008416666532866657 }, 2, 1e-5,
           "var along the contiguous dim of a transposed view");
    ts_tensor_release(x);
    ts_tensor_release(y);
    ts_error_clear(&err);
}

/* out= forms write into the given tensor (resized) and return that very tensor. */
static void test_out(void)
{
    TsError err = TS_ERROR_INIT;
    TsTensor *out = mk(TS_FLOAT32, 1, (int64_t[]){ 7 }, (double[]){ 0 }, 1), *r[2];
    run("aten::sum", "IntList_out", ARGS(rt(A), ilist(1, (int64_t[]){ 2 }), ts_bool(false),
        NONE, rt(out)), 1, r, &err);
    ok(r[0] == out, "sum.IntList_out returns its out tensor");
    if (r[0])
        ts_tensor_release(r[0]);
    check(out, TS_FLOAT32, 2, (int64_t[]){ 2, 3 },
          (double[]){ 0.06, 0.96, -2.21, 2.76, -0.41, 0.49 }, 6, 1e-6,
          "sum.IntList_out resizes and fills out");
    TsTensor *vals = mk(TS_FLOAT32, 1, (int64_t[]){ 1 }, (double[]){ 0 }, 1);
    TsTensor *idx = mk(TS_INT64, 1, (int64_t[]){ 1 }, (double[]){ 0 }, 1);
    run("aten::max", "dim_max", ARGS(rt(I32), ts_int(0), ts_bool(false), rt(vals), rt(idx)), 2,
        r, &err);
    ok(r[0] == vals && r[1] == idx, "max.dim_max returns its two out tensors");
    for (int i = 0; i < 2; i++)
        if (r[i])
            ts_tensor_release(r[i]);
    check(vals, TS_FLOAT32, 1, (int64_t[]){ 3 }, (double[]){ 3, -1, 9 }, 3, 0.0,
          "max.dim_max values (cast to the out dtype)");
    check(idx, TS_INT64, 1, (int64_t[]){ 3 }, (double[]){ 0, 0, 1 }, 3, 0.0,
          "max.dim_max indices");
    TsTensor *sv = mk(TS_FLOAT32, 0, NULL, (double[]){ 0 }, 1);
    TsTensor *si = mk(TS_INT64, 0, NULL, (double[]){ 0 }, 1);
    run("aten::sort", "values", ARGS(rt(G), ts_int(0), ts_bool(false), rt(sv), rt(si)), 2, r,
        &err);
    for (int i = 0; i < 2; i++)
        if (r[i])
            ts_tensor_release(r[i]);
    check(sv, TS_FLOAT32, 1, (int64_t[]){ 6 }, (double[]){ 1, 1, 1, 2, 2, 3 }, 6, 0.0,
          "sort.values values");
    check(si, TS_INT64, 1, (int64_t[]){ 6 }, (double[]){ 1, 3, 4, 0, 2, 5 }, 6, 0.0,
          "sort.values indices");
    TsTensor *so = mk(TS_FLOAT32, 0, NULL, (double[]){ 0 }, 1);
    run("aten::softmax", "int_out", ARGS(rt(S), ts_int(0), NONE, rt(so)), 1, r, &err);
    if (r[0])
        ts_tensor_release(r[0]);
    check(so, TS_FLOAT32, 0, NULL, (double[]){ 1 }, 1, 0.0, "softmax.int_out");
    ts_error_clear(&err);
}

static void test_bad_args(void)
{
    FAILS("aten::sum", "", ARGS(ts_int(3), NONE), "aten::sum: argument 'self' must be a Tensor",
          "sum of an int");
    FAILS("aten::sum", "dim_IntList", ARGS(rt(A), ts_double(1.5), ts_bool(false), NONE),
          "dim must be an int or a list of ints", "sum with a float dim");
    FAILS("aten::sum", "", ARGS(rt(A), ts_int(99)), "argument 'dtype' must be a ScalarType",
          "sum with a bad dtype");
    FAILS("aten::topk", "", ARGS(rt(A), ts_double(1), ts_int(0), ts_bool(true), ts_bool(true)),
          "aten::topk: k must be an int", "topk with a float k");
    FAILS("aten::cumsum", "", ARGS(rt(A), NONE, NONE), "aten::cumsum: dim must be an int",
          "cumsum without a dim");
}

int main(void)
{
    if (!kt_open())
        return done_testing();
    make_inputs();
    test_generated();
    test_chunks();
    test_out();
    test_bad_args();
    free_inputs();
    ts_runtime_close(kt_rt);
    return done_testing();
}
