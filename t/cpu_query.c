/* cpu_query.t — the aten-cpu ops that answer questions about tensors or compare whole
 * tensors: int()/float()/bool() of one-element tensors and the implicit Tensor-to-number
 * conversions, dtype/device/layout/len, torch.device, result_type, isclose/allclose/equal,
 * and the smaller ops added with them (zero_, type_as, kthvalue, max.other, outer, frac,
 * round.decimals, T, baddbmm).
 * Expected values and messages come from PyTorch 1.13.
 */
#include <stdio.h>
#include <string.h>

#include "kernel.h"

#include "tensor_util.h"

/* Runs op expecting a non-tensor result in *out (none on failure, with a diagnostic). */
static TsValue value_of(const char *op, const char *ov, size_t n, const TsValue *args)
{
    TsError err = TS_ERROR_INIT;
    TsValue r;
    if (kt_call(op, ov, "cpu", n, args, &r, &err)) {
        diag("%s.%s failed: %s", op, ov, err.msg ? err.msg : "?");
        ts_error_clear(&err);
        return ts_none();
    }
    return r;
}

static void is_int_val(TsValue v, int64_t want, const char *what)
{
    if (!ok(v.tag == TS_TAG_INT && v.u.i == want, "%s", what))
        diag("got tag %u value %lld, want int %lld", v.tag, (long long)v.u.i, (long long)want);
    ts_value_release(v);
}

static void is_float_val(TsValue v, double want, const char *what)
{
    if (!ok(v.tag == TS_TAG_DOUBLE && kt_same_float(v.u.d, want), "%s", what))
        diag("got tag %u, want float %.17g", v.tag, want);
    ts_value_release(v);
}

static void is_bool_val(TsValue v, bool want, const char *what)
{
    if (!ok(v.tag == TS_TAG_BOOL && v.u.b == want, "%s", what))
        diag("got tag %u, want bool %d", v.tag, want);
    ts_value_release(v);
}

static void test_conversions(void)
{
    is_int_val(value_of("aten::Int", "Tensor", 1, (TsValue[]){ tv(Z(TS_FLOAT32)) }), 0,
               "int(tensor(0.))");
    is_int_val(value_of("aten::Int", "Tensor", 1, (TsValue[]){ tv(T(TS_FLOAT32, S(1, 1), 2.75)) }),
               2, "int() of a one-element 2-d float tensor truncates");
    is_int_val(value_of("aten::Int", "Tensor", 1, (TsValue[]){ tv(T(TS_FLOAT64, S(1), -2.75)) }),
               -2, "int(tensor([-2.75])) truncates toward zero");
    is_int_val(value_of("aten::Int", "Tensor", 1, (TsValue[]){ tv(T(TS_BOOL, S(1), 1)) }), 1,
               "int(tensor([True]))");
    fails("aten::Int", "Tensor", 1, (TsValue[]){ tv(T(TS_INT64, S(2), 1, 2)) },
          "a Tensor with 2 elements cannot be converted to Scalar", "int() of two elements");
    fails("aten::Int", "Tensor", 1, (TsValue[]){ tv(T(TS_FLOAT32, S(1), NAN)) },
          "value cannot be converted to type int64_t without overflow", "int(nan)");
    fails("aten::Int", "Tensor", 1, (TsValue[]){ tv(T(TS_FLOAT64, S(1), 1e30)) },
          "value cannot be converted to type int64_t without overflow", "int(1e30)");
    is_float_val(value_of("aten::Float", "Tensor", 1, (TsValue[]){ tv(T(TS_INT32, S(1), 3)) }),
                 3.0, "float(tensor([3], dtype=int32))");
    is_float_val(value_of("aten::Float", "Tensor", 1, (TsValue[]){ tv(T(TS_FLOAT32, S(1), 0.1)) }),
                 (double)0.1f, "float() of float32 0.1 is its float32 value");
    fails("aten::Float", "Tensor", 1, (TsValue[]){ tv(T(TS_FLOAT32, S(0))) },
          "a Tensor with 0 elements cannot be converted to Scalar", "float() of no elements");

    is_bool_val(value_of("aten::Bool", "Tensor", 1, (TsValue[]){ tv(T(TS_INT64, S(1), 3)) }), true,
                "bool(tensor([3]))");
    is_bool_val(value_of("aten::Bool", "Tensor", 1, (TsValue[]){ tv(Z(TS_FLOAT32)) }), false,
                "bool(tensor(0.))");
    is_bool_val(value_of("aten::Bool", "Tensor", 1, (TsValue[]){ tv(T(TS_FLOAT64, S(1), NAN)) }),
                true, "bool(tensor([nan])) is true");
    fails("aten::Bool", "Tensor", 1, (TsValue[]){ tv(T(TS_BOOL, S(2), 1, 1)) },
          "Boolean value of Tensor with more than one value is ambiguous", "bool() of two");
    fails("aten::Bool", "Tensor", 1, (TsValue[]){ tv(T(TS_BOOL, S(0))) },
          "Boolean value of Tensor with no values is ambiguous", "bool() of none");

    is_int_val(value_of("aten::IntImplicit", "", 1, (TsValue[]){ tv(T(TS_INT8, S(), -5)) }), -5,
               "IntImplicit of a 0-dim int8");
    fails("aten::IntImplicit", "", 1, (TsValue[]){ tv(T(TS_INT64, S(1), 1)) },
          "Cannot input a tensor of dimension other than 0 as a scalar argument",
          "IntImplicit of a 1-d tensor");
    fails("aten::IntImplicit", "", 1, (TsValue[]){ tv(Z(TS_FLOAT32)) },
          "Cannot input a tensor of type Float as an integral argument", "IntImplicit of float");
    fails("aten::IntImplicit", "", 1, (TsValue[]){ tv(Z(TS_BOOL)) },
          "Cannot input a tensor of type Bool as an integral argument", "IntImplicit of bool");
    is_float_val(value_of("aten::FloatImplicit", "", 1, (TsValue[]){ tv(T(TS_INT64, S(), 3)) }),
                 3.0, "FloatImplicit of a 0-dim int64");
    fails("aten::FloatImplicit", "", 1, (TsValue[]){ tv(T(TS_FLOAT32, S(1), 1)) },
          "Cannot input a tensor of dimension other than 0 as a scalar argument",
          "FloatImplicit of a 1-d tensor");
    is_float_val(value_of("aten::ScalarImplicit", "", 1, (TsValue[]){ tv(T(TS_FLOAT64, S(), 0.5)) }),
                 0.5, "ScalarImplicit of a float tensor is a float");
    is_int_val(value_of("aten::ScalarImplicit", "", 1, (TsValue[]){ tv(T(TS_INT16, S(), 7)) }), 7,
               "ScalarImplicit of an int tensor is an int");
    is_bool_val(value_of("aten::ScalarImplicit", "", 1, (TsValue[]){ tv(T(TS_BOOL, S(), 1)) }),
                true, "ScalarImplicit of a bool tensor is a bool");
    fails("aten::Int", "Tensor", 1, (TsValue[]){ ts_int(3) }, "aten::Int: argument 'a' must be a Tensor",
          "a non-tensor argument");
}

static void test_metadata(void)
{
    is_int_val(value_of("prim::dtype", "", 1, (TsValue[]){ tv(T(TS_FLOAT64, S(2))) }), 7,
               "prim::dtype of float64 is 7");
    is_int_val(value_of("prim::dtype", "", 1, (TsValue[]){ tv(Z(TS_BOOL)) }), 11,
               "prim::dtype of bool is 11");
    TsValue d = value_of("prim::device", "", 1, (TsValue[]){ tv(Z(TS_INT64)) });
    ok(d.tag == TS_TAG_DEVICE && d.u.dev.type == TS_DEV_CPU, "prim::device is cpu");
    is_int_val(value_of("prim::layout", "", 1, (TsValue[]){ tv(Z(TS_INT64)) }), 0,
               "prim::layout is torch.strided (0)");
    is_int_val(value_of("aten::len", "Tensor", 1, (TsValue[]){ tv(T(TS_FLOAT32, S(4, 2))) }), 4,
               "len() of a 4x2 tensor");
    is_int_val(value_of("aten::len", "Tensor", 1, (TsValue[]){ tv(T(TS_FLOAT32, S(0, 2))) }), 0,
               "len() of a 0x2 tensor");
    fails("aten::len", "Tensor", 1, (TsValue[]){ tv(Z(TS_FLOAT32)) }, "len() of a 0-d tensor",
          "len() of a 0-d tensor");

    TsError err = TS_ERROR_INIT;
    TsStr *s = ts_str_new("cpu", 3, &err);
    d = value_of("aten::device", "", 1, (TsValue[]){ ts_obj_value(s, TS_TAG_STR) });
    ok(d.tag == TS_TAG_DEVICE && d.u.dev.type == TS_DEV_CPU && d.u.dev.index == -1,
       "torch.device('cpu')");
    s = ts_str_new("cuda:1", 6, &err);
    d = value_of("aten::device", "", 1, (TsValue[]){ ts_obj_value(s, TS_TAG_STR) });
    ok(d.tag == TS_TAG_DEVICE && d.u.dev.type == TS_DEV_CUDA && d.u.dev.index == 1,
       "torch.device('cuda:1')");
    s = ts_str_new("foo", 3, &err);
    TsValue r;
    ok(kt_call("aten::device", "", "cpu", 1, (TsValue[]){ ts_obj_value(s, TS_TAG_STR) }, &r,
               &err) > 0, "torch.device('foo') fails");
    like(err.msg, "foo", "... naming the string");
    ts_error_clear(&err);
}

static void test_result_type(void)
{
    is_int_val(value_of("aten::result_type", "Scalar", 2,
                        (TsValue[]){ tv(T(TS_INT32, S(2))), ts_double(1.5) }), TS_FLOAT32,
               "result_type(int32 tensor, 1.5) is float32");
    is_int_val(value_of("aten::result_type", "Tensor", 2,
                        (TsValue[]){ tv(T(TS_UINT8, S(2))), tv(T(TS_INT32, S(2))) }), TS_INT32,
               "result_type(uint8, int32) is int32");
    is_int_val(value_of("aten::result_type", "Tensor", 2,
                        (TsValue[]){ tv(T(TS_FLOAT32, S(1))), tv(Z(TS_FLOAT64)) }), TS_FLOAT32,
               "a 0-dim float64 does not widen a float32 tensor");
    is_int_val(value_of("aten::result_type", "Tensor", 2,
                        (TsValue[]){ tv(T(TS_INT32, S(1))), tv(Z(TS_FLOAT64)) }), TS_FLOAT64,
               "a 0-dim float64 makes an int32 tensor float64");
    is_int_val(value_of("aten::result_type", "Scalar_Tensor", 2,
                        (TsValue[]){ ts_double(1.5), tv(T(TS_INT8, S(1))) }), TS_FLOAT32,
               "result_type(1.5, int8 tensor) is float32");
    is_int_val(value_of("aten::result_type", "Scalar", 2,
                        (TsValue[]){ tv(T(TS_INT8, S(1))), ts_int(1000) }), TS_INT8,
               "an int Scalar does not widen int8");
    is_int_val(value_of("aten::result_type", "Scalar_Scalar", 2,
                        (TsValue[]){ ts_int(2), ts_double(1.5) }), TS_FLOAT32,
               "result_type(2, 1.5) is float32");
    is_int_val(value_of("aten::result_type", "Scalar_Scalar", 2,
                        (TsValue[]){ ts_bool(true), ts_int(3) }), TS_INT64,
               "result_type(True, 3) is int64");
}

static void test_close(void)
{
    TsTensor *a = T(TS_FLOAT32, S(6), 1.0, 1.0001, INFINITY, NAN, -INFINITY, 1e-9);
    TsTensor *b = T(TS_FLOAT32, S(6), 1.0, 1.0, INFINITY, NAN, INFINITY, 0.0);
    for (int i = 0; i < 6; i++) {  /* six calls below take a reference each */
        ts_tensor_retain(a);
        ts_tensor_retain(b);
    }
    CHECK(call("aten::isclose", "", 5, (TsValue[]){ tv(a), tv(b), ts_double(1e-5),
                                                    ts_double(1e-8), ts_bool(false) }),
          TS_BOOL, S(6), "isclose defaults", 1, 0, 1, 0, 0, 1);
    CHECK(call("aten::isclose", "", 5, (TsValue[]){ tv(a), tv(b), ts_double(1e-5),
                                                    ts_double(1e-8), ts_bool(true) }),
          TS_BOOL, S(6), "isclose equal_nan", 1, 0, 1, 1, 0, 1);
    CHECK(call("aten::isclose", "", 5, (TsValue[]){ tv(a), tv(b), ts_double(1e-3),
                                                    ts_double(1e-8), ts_bool(false) }),
          TS_BOOL, S(6), "isclose rtol=1e-3", 1, 1, 1, 0, 0, 1);
    CHECK(call("aten::isclose", "", 5, (TsValue[]){ tv(a), tv(b), ts_double(0), ts_double(0),
                                                    ts_bool(false) }),
          TS_BOOL, S(6), "isclose with no tolerance is ==", 1, 0, 1, 0, 0, 0);
    CHECK(call("aten::isclose", "", 5,
               (TsValue[]){ tv(T(TS_INT8, S(2), 100, -100)), tv(T(TS_INT8, S(2), -100, 100)),
                            ts_double(0), ts_double(60), ts_bool(false) }),
          TS_BOOL, S(2), "isclose of int8 does not wrap the difference", 0, 0);
    CHECK(call("aten::isclose", "", 5,
               (TsValue[]){ tv(T(TS_INT64, S(2), 1, 5)), tv(T(TS_INT64, S(2), 2, 5)),
                            ts_double(1), ts_double(0), ts_bool(false) }),
          TS_BOOL, S(2), "isclose of int64 with rtol=1", 1, 1);
    fails("aten::isclose", "", 5, (TsValue[]){ tv(T(TS_INT64, S(1), 1)), tv(T(TS_FLOAT32, S(1), 1)),
                                               ts_double(1e-5), ts_double(1e-8), ts_bool(false) },
          "Long did not match Float", "isclose of two dtypes");
    fails("aten::isclose", "", 5, (TsValue[]){ tv(a), tv(b), ts_double(-1), ts_double(1e-8),
                                               ts_bool(false) },
          "rtol must be greater than or equal to zero, but got -1", "a negative rtol");

    TsValue r = value_of("aten::allclose", "", 5,
                         (TsValue[]){ tv(T(TS_FLOAT32, S(2, 2), 1, 2, 1, 2)),
                                      tv(T(TS_FLOAT32, S(2), 1, 2.000001)), ts_double(1e-5),
                                      ts_double(1e-8), ts_bool(false) });
    is_bool_val(r, true, "allclose broadcasts");
    r = value_of("aten::allclose", "", 5, (TsValue[]){ tv(a), tv(b), ts_double(1e-5),
                                                       ts_double(1e-8), ts_bool(true) });
    is_bool_val(r, false, "allclose is false when one element differs");
    fails("aten::allclose", "", 5,
          (TsValue[]){ tv(T(TS_FLOAT32, S(2))), tv(T(TS_FLOAT32, S(3))), ts_double(1e-5),
                       ts_double(1e-8), ts_bool(false) },
          "The size of tensor a (2) must match the size of tensor b (3) at non-singleton "
          "dimension 0", "allclose of unbroadcastable shapes");

    is_bool_val(value_of("aten::equal", "", 2, (TsValue[]){ tv(T(TS_INT64, S(2), 1, 2)),
                                                            tv(T(TS_FLOAT64, S(2), 1, 2)) }),
                true, "equal compares after promotion");
    is_bool_val(value_of("aten::equal", "", 2, (TsValue[]){ tv(T(TS_INT64, S(2), 1, 2)),
                                                            tv(T(TS_FLOAT32, S(2), 1.5, 2)) }),
                false, "equal sees 1 != 1.5");
    is_bool_val(value_of("aten::equal", "", 2, (TsValue[]){ tv(T(TS_UINT8, S(1), 255)),
                                                            tv(T(TS_INT8, S(1), -1)) }),
                false, "equal: uint8 255 is not int8 -1");
    is_bool_val(value_of("aten::equal", "", 2, (TsValue[]){ tv(T(TS_INT64, S(1, 1), 1)),
                                                            tv(T(TS_INT64, S(1), 1)) }),
                false, "equal does not broadcast");
    is_bool_val(value_of("aten::equal", "", 2, (TsValue[]){ tv(T(TS_FLOAT32, S(1), NAN)),
                                                            tv(T(TS_FLOAT32, S(1), NAN)) }),
                false, "equal: nan is not nan");
    is_bool_val(value_of("aten::equal", "", 2, (TsValue[]){ tv(T(TS_FLOAT32, S(1), -0.0)),
                                                            tv(T(TS_FLOAT32, S(1), 0.0)) }),
                true, "equal: -0 is 0");
    /* a transposed view against its contiguous copy */
    TsTensor *m = T(TS_FLOAT32, S(2, 3), 1, 2, 3, 4, 5, 6);
    ts_tensor_retain(m);
    TsTensor *mt = call("aten::t", "", 1, (TsValue[]){ tv(m) });
    TsTensor *want = T(TS_FLOAT32, S(3, 2), 1, 4, 2, 5, 3, 6);
    is_bool_val(value_of("aten::equal", "", 2, (TsValue[]){ tv(mt), tv(want) }), true,
                "equal reads a transposed view in logical order");
    ts_tensor_release(m);
    ts_tensor_release(a);
    ts_tensor_release(b);
}

/* Runs a kernel with two results (values, indices) into v and ix; false on failure. */
static bool call2(const char *op, const char *ov, size_t n, const TsValue *args, TsTensor **v,
                  TsTensor **ix)
{
    TsError err = TS_ERROR_INIT;
    const TsOperator *o = kt_find(op, ov);
    const TsKernelEntry *k = o ? ts_operator_kernel(o, "cpu") : NULL;
    TsStack st = { NULL, 0, 0 };
    *v = *ix = NULL;
    for (size_t i = 0; i < n; i++)
        if (!k || ts_stack_push(&st, args[i], &err))
            ts_value_release(args[i]);
    TsCall c = { &st, &err, NULL, kt_rt, o };
    int rc = k && st.len == n ? k->fn(&c) : -1;
    if (rc == 0 && st.len == 2 && st.data[0].tag == TS_TAG_TENSOR &&
        st.data[1].tag == TS_TAG_TENSOR) {
        *ix = (TsTensor *)ts_stack_pop(&st).u.p;
        *v = (TsTensor *)ts_stack_pop(&st).u.p;
    } else {
        diag("%s.%s failed: %s", op, ov, err.msg ? err.msg : "?");
    }
    ts_stack_free(&st);
    ts_error_clear(&err);
    return *v != NULL;
}

static void test_small_ops(void)
{
    /* zero_ through a column view writes only the column */
    TsTensor *m = T(TS_FLOAT32, S(2, 3), 1, 2, 3, 4, 5, 6);
    ts_tensor_retain(m);
    TsTensor *col = call("aten::select", "int", 3, (TsValue[]){ tv(m), ts_int(1), ts_int(1) });
    TsTensor *z = call("aten::zero_", "", 1, (TsValue[]){ tv(col) });
    ok(z == col, "zero_ returns self");
    if (z)
        ts_tensor_release(z);
    CHECK(m, TS_FLOAT32, S(2, 3), "zero_ of a column view", 1, 0, 3, 4, 0, 6);
    CHECK(call("aten::zero_", "", 1, (TsValue[]){ tv(T(TS_BOOL, S(2), 1, 1)) }), TS_BOOL, S(2),
          "zero_ of bool", 0, 0);

    TsTensor *x = T(TS_FLOAT32, S(2), 1.5, -2.7);
    CHECK(call("aten::type_as", "", 2, (TsValue[]){ tv(x), tv(T(TS_INT64, S(1), 1)) }), TS_INT64,
          S(2), "type_as long truncates", 1, -2);
    x = T(TS_FLOAT32, S(2), 1.5, -2.7);
    ts_tensor_retain(x);
    TsTensor *same = call("aten::type_as", "", 2, (TsValue[]){ tv(x), tv(Z(TS_FLOAT32)) });
    ok(same == x, "type_as of the same dtype is self");
    if (same)
        ts_tensor_release(same);
    ts_tensor_release(x);

    /* kthvalue: values and indices */
    TsTensor *v, *ix;
    if (ok(call2("aten::kthvalue", "", 4, (TsValue[]){ tv(T(TS_INT64, S(2, 3), 3, 1, 2, 9, 8, 7)),
                                                       ts_int(2), ts_int(-1), ts_bool(false) },
                 &v, &ix), "kthvalue(2) along the last dim")) {
        CHECK(v, TS_INT64, S(2), "... values", 2, 8);
        CHECK(ix, TS_INT64, S(2), "... indices", 2, 1);
    }
    if (ok(call2("aten::kthvalue", "", 4, (TsValue[]){ tv(T(TS_FLOAT32, S(2, 3), 3, 1, 2, 9, 8, 7)),
                                                       ts_int(2), ts_int(0), ts_bool(true) },
                 &v, &ix), "kthvalue along dim 0 with keepdim")) {
        CHECK(v, TS_FLOAT32, S(1, 3), "... values", 9, 8, 7);
        CHECK(ix, TS_INT64, S(1, 3), "... indices", 1, 1, 1);
    }
    if (ok(call2("aten::kthvalue", "", 4, (TsValue[]){ tv(T(TS_FLOAT32, S(), 5)), ts_int(1),
                                                       ts_int(-1), ts_bool(false) }, &v, &ix),
           "kthvalue of a 0-dim tensor")) {
        CHECK(v, TS_FLOAT32, S(), "... is its element", 5);
        CHECK(ix, TS_INT64, S(), "... at index 0", 0);
    }
    fails("aten::kthvalue", "", 4, (TsValue[]){ tv(T(TS_FLOAT32, S(2), 1, 2)), ts_int(3),
                                                ts_int(-1), ts_bool(false) },
          "kthvalue(): selected number k out of range for dimension 0", "k past the row");
    fails("aten::kthvalue", "", 4, (TsValue[]){ tv(T(TS_FLOAT32, S(2), 1, 2)), ts_int(0),
                                                ts_int(-1), ts_bool(false) },
          "kthvalue(): selected number k out of range for dimension 0", "k = 0");
    fails("aten::kthvalue", "", 4, (TsValue[]){ tv(T(TS_FLOAT32, S(0))), ts_int(1), ts_int(-1),
                                                ts_bool(false) },
          "kthvalue(): Expected reduction dim 0 to have non-zero size.", "an empty row");
    fails("aten::kthvalue", "", 4, (TsValue[]){ tv(T(TS_BOOL, S(1), 1)), ts_int(1), ts_int(-1),
                                                ts_bool(false) },
          "\"kthvalue_cpu\" not implemented for 'Bool'", "kthvalue of bool");

    CHECK(call("aten::max", "other", 2, (TsValue[]){ tv(T(TS_INT64, S(2), 1, 5)),
                                                     tv(T(TS_INT64, S(2), 3, 2)) }),
          TS_INT64, S(2), "max.other is maximum", 3, 5);
    CHECK(call("aten::min", "other", 2, (TsValue[]){ tv(T(TS_FLOAT32, S(2), 1, 5)),
                                                     tv(T(TS_FLOAT32, S(2, 1), 3, 2)) }),
          TS_FLOAT32, S(2, 2), "min.other broadcasts", 1, 3, 1, 2);

    CHECK(call("aten::outer", "", 2, (TsValue[]){ tv(T(TS_INT64, S(2), 1, 2)),
                                                  tv(T(TS_FLOAT32, S(2), 1.5, 2)) }),
          TS_FLOAT32, S(2, 2), "outer promotes", 1.5, 2, 3, 4);
    CHECK(call("aten::ger", "", 2, (TsValue[]){ tv(T(TS_INT64, S(2), 1, 2)),
                                                tv(T(TS_INT64, S(3), 3, 4, 5)) }),
          TS_INT64, S(2, 3), "ger is outer", 3, 4, 5, 6, 8, 10);
    fails("aten::outer", "", 2, (TsValue[]){ tv(T(TS_FLOAT32, S(2, 2))), tv(T(TS_FLOAT32, S(2))) },
          "outer: Expected 1-D argument self, but got 2-D", "outer of a matrix");
    fails("aten::outer", "", 2, (TsValue[]){ tv(T(TS_FLOAT32, S(2))), tv(Z(TS_FLOAT32)) },
          "outer: Expected 1-D argument vec2, but got 0-D", "outer with a 0-dim vec2");

    CHECK(call("aten::frac", "", 1, (TsValue[]){ tv(T(TS_FLOAT32, S(4), -1.25, INFINITY, NAN,
                                                      2.5)) }),
          TS_FLOAT32, S(4), "frac", -0.25, NAN, NAN, 0.5);
    fails("aten::frac", "", 1, (TsValue[]){ tv(T(TS_INT64, S(1), 1)) },
          "\"frac_cpu\" not implemented for 'Long'", "frac of an int tensor");

    CHECK(call("aten::round", "decimals", 2,
               (TsValue[]){ tv(T(TS_FLOAT32, S(5), 1.2345, 9.8765, 2.5, -1250.0, 0.125)),
                            ts_int(2) }),
          TS_FLOAT32, S(5), "round(decimals=2) in float32", (double)1.23f, (double)9.88f, 2.5,
          -1250.0, (double)0.12f);
    CHECK(call("aten::round", "decimals", 2,
               (TsValue[]){ tv(T(TS_FLOAT64, S(2), 1250.0, 1350.0)), ts_int(-2) }),
          TS_FLOAT64, S(2), "round(decimals=-2) rounds halves to even", 1200, 1400);
    fails("aten::round", "decimals", 2, (TsValue[]){ tv(T(TS_INT64, S(1), 1)), ts_int(1) },
          "\"round_cpu\" not implemented for 'Long'", "round(decimals=1) of an int tensor");

    /* baddbmm: self broadcast, batch1 a transposed view (values from PyTorch) */
    TsTensor *b1 = call("aten::transpose", "int", 3,
                        (TsValue[]){ tv(T(TS_FLOAT32, S(2, 2, 3), 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
                                          11)), ts_int(1), ts_int(2) });
    CHECK(call("aten::baddbmm", "", 5,
               (TsValue[]){ tv(T(TS_FLOAT32, S(2), 1, 2)), tv(b1),
                            tv(T(TS_FLOAT32, S(2, 2, 2), 1, 1, 1, 1, 1, 1, 1, 1)),
                            ts_double(0.5), ts_double(2.0) }),
          TS_FLOAT32, S(2, 3, 2), "baddbmm with beta and alpha", 6.5, 7.0, 10.5, 11.0, 14.5, 15.0,
          30.5, 31.0, 34.5, 35.0, 38.5, 39.0);
    fails("aten::baddbmm", "", 5,
          (TsValue[]){ tv(T(TS_FLOAT32, S(3))), tv(T(TS_FLOAT32, S(2, 2, 3))),
                       tv(T(TS_FLOAT32, S(2, 3, 2))), ts_int(1), ts_int(1) },
          "The expanded size of the tensor (2) must match the existing size (3) at "
          "non-singleton dimension 2.  Target sizes: [2, 2, 2].  Tensor sizes: [3]",
          "baddbmm with a self that does not broadcast");
    fails("aten::baddbmm", "", 5,
          (TsValue[]){ tv(T(TS_FLOAT32, S(2))), tv(T(TS_FLOAT32, S(2, 2, 3))),
                       tv(T(TS_FLOAT64, S(2, 3, 2))), ts_int(1), ts_int(1) },
          "expected scalar type Float but found Double", "baddbmm of mixed dtypes");
    fails("aten::baddbmm", "", 5,
          (TsValue[]){ tv(T(TS_FLOAT32, S(2))), tv(T(TS_FLOAT32, S(2, 3))),
                       tv(T(TS_FLOAT32, S(2, 3, 2))), ts_int(1), ts_int(1) },
          "batch1 must be a 3D tensor", "baddbmm of a matrix");

    TsTensor *t = call("aten::numpy_T", "", 1, (TsValue[]){ tv(T(TS_FLOAT32, S(2, 3, 4))) });
    ok(t && t->dim == 3 && t->sizes[0] == 4 && t->sizes[1] == 3 && t->sizes[2] == 2 &&
       t->strides[0] == 1 && t->strides[1] == 4 && t->strides[2] == 12,
       "t.T reverses every dim as a view");
    if (t)
        ts_tensor_release(t);
}

int main(void)
{
    if (!kt_open())
        return done_testing();
    test_conversions();
    test_metadata();
    test_result_type();
    test_close();
    test_small_ops();
    ts_runtime_close(kt_rt);
    return done_testing();
}
