/* cpu_ew.t — the aten-cpu elementwise engine and the ops routed through it: PyTorch's type
 * promotion (checked against torch.result_type for every dtype pair and scalar kind),
 * broadcasting, strided views as inputs, in-place ops writing through views, out= with
 * resizing and cast checks, division, remainder and fmod semantics, unary math, where,
 * masked_fill, clamp, dtype conversion, filling and creating float16/bfloat16 tensors,
 * t/chunk/mm, the pointwise math ops of the sweep (erfinv, shifts, float_power, heaviside,
 * lerp, addcmul/addcdiv, ...), and PyTorch's error messages.
 * Expected values come from PyTorch 1.13.
 */
#include <stdio.h>
#include <string.h>

#include "kernel.h"
#include "tensor_util.h"

static const int promo_dtypes[10] = { 11, 0, 1, 2, 3, 4, 5, 15, 6, 7 };
/* torch.result_type(dim a, dim b), (dim a, 0-dim b), (0-dim a, 0-dim b) */
static const int promo_dd[10][10] = {
    { 11, 0, 1, 2, 3, 4, 5, 15, 6, 7 },
    { 0, 0, 2, 2, 3, 4, 5, 15, 6, 7 },
    { 1, 2, 1, 2, 3, 4, 5, 15, 6, 7 },
    { 2, 2, 2, 2, 3, 4, 5, 15, 6, 7 },
    { 3, 3, 3, 3, 3, 4, 5, 15, 6, 7 },
    { 4, 4, 4, 4, 4, 4, 5, 15, 6, 7 },
    { 5, 5, 5, 5, 5, 5, 5, 6, 6, 7 },
    { 15, 15, 15, 15, 15, 15, 6, 15, 6, 7 },
    { 6, 6, 6, 6, 6, 6, 6, 6, 6, 7 },
    { 7, 7, 7, 7, 7, 7, 7, 7, 7, 7 },
};
static const int promo_dz[10][10] = {
    { 11, 0, 1, 2, 3, 4, 5, 15, 6, 7 },
    { 0, 0, 0, 0, 0, 0, 5, 15, 6, 7 },
    { 1, 1, 1, 1, 1, 1, 5, 15, 6, 7 },
    { 2, 2, 2, 2, 2, 2, 5, 15, 6, 7 },
    { 3, 3, 3, 3, 3, 3, 5, 15, 6, 7 },
    { 4, 4, 4, 4, 4, 4, 5, 15, 6, 7 },
    { 5, 5, 5, 5, 5, 5, 5, 5, 5, 5 },
    { 15, 15, 15, 15, 15, 15, 15, 15, 15, 15 },
    { 6, 6, 6, 6, 6, 6, 6, 6, 6, 6 },
    { 7, 7, 7, 7, 7, 7, 7, 7, 7, 7 },
};
static const int promo_zz[10][10] = {
    { 11, 0, 1, 2, 3, 4, 5, 15, 6, 7 },
    { 0, 0, 2, 2, 3, 4, 5, 15, 6, 7 },
    { 1, 2, 1, 2, 3, 4, 5, 15, 6, 7 },
    { 2, 2, 2, 2, 3, 4, 5, 15, 6, 7 },
    { 3, 3, 3, 3, 3, 4, 5, 15, 6, 7 },
    { 4, 4, 4, 4, 4, 4, 5, 15, 6, 7 },
    { 5, 5, 5, 5, 5, 5, 5, 6, 6, 7 },
    { 15, 15, 15, 15, 15, 15, 6, 15, 6, 7 },
    { 6, 6, 6, 6, 6, 6, 6, 6, 6, 7 },
    { 7, 7, 7, 7, 7, 7, 7, 7, 7, 7 },
};
/* torch.result_type(dim a, True / 2 / 2.5), (0-dim a, 2.5) */
static const int promo_scalar[10][4] = {
    { 11, 4, 6, 6 },
    { 0, 0, 6, 6 },
    { 1, 1, 6, 6 },
    { 2, 2, 6, 6 },
    { 3, 3, 6, 6 },
    { 4, 4, 6, 6 },
    { 5, 5, 5, 5 },
    { 15, 15, 15, 15 },
    { 6, 6, 6, 6 },
    { 7, 7, 7, 7 },
};


static void test_promotion(void)
{
    int bad = 0;
    for (int i = 0; i < 10; i++)
        for (int j = 0; j < 10; j++) {
            int a = promo_dtypes[i], b = promo_dtypes[j];
            struct { int ka, kb; const int (*want)[10]; } kinds[3] = {
                { 1, 1, promo_dd }, { 1, 0, promo_dz }, { 0, 0, promo_zz } };
            for (int k = 0; k < 3; k++) {
                TsTensor *x = kinds[k].ka ? T(a, S(2), 1, 0) : Z(a);
                TsTensor *y = kinds[k].kb ? T(b, S(2), 1, 1) : Z(b);
                TsTensor *r = call("aten::mul", "Tensor", 2, (TsValue[]){ tv(x), tv(y) });
                int want = kinds[k].want[i][j];
                if (!r || r->dtype != want) {
                    diag("mul(%s%s, %s%s) gave %s, torch.result_type says %s",
                         kinds[k].ka ? "" : "0-dim ", ts_dtype_name(a),
                         kinds[k].kb ? "" : "0-dim ", ts_dtype_name(b),
                         r ? ts_dtype_name(r->dtype) : "an error", ts_dtype_name(want));
                    bad++;
                }
                if (r)
                    ts_tensor_release(r);
            }
        }
    ok(bad == 0, "tensor-tensor promotion matches torch.result_type for all 300 cases");
    bad = 0;
    for (int i = 0; i < 10; i++) {
        int a = promo_dtypes[i];
        TsValue scalars[4] = { ts_bool(true), ts_int(2), ts_double(2.5), ts_double(2.5) };
        for (int k = 0; k < 4; k++) {
            TsTensor *x = k < 3 ? T(a, S(2), 1, 0) : Z(a);
            TsTensor *r = call("aten::mul", "Scalar", 2, (TsValue[]){ tv(x), scalars[k] });
            if (!r || r->dtype != promo_scalar[i][k]) {
                diag("mul.Scalar(%s, kind %d) gave %s, want %s", ts_dtype_name(a), k,
                     r ? ts_dtype_name(r->dtype) : "an error",
                     ts_dtype_name(promo_scalar[i][k]));
                bad++;
            }
            if (r)
                ts_tensor_release(r);
        }
    }
    ok(bad == 0, "tensor-scalar promotion matches torch.result_type for all 40 cases");
}

static void test_broadcast(void)
{
    TsTensor *a = T(TS_FLOAT32, S(2, 1, 3), 0, 1, 2, 3, 4, 5);
    TsTensor *b = T(TS_INT64, S(4, 1), 0, 10, 20, 30);
    CHECK(call("aten::add", "Tensor", 3, (TsValue[]){ tv(a), tv(b), ts_int(2) }), TS_FLOAT32,
          S(2, 4, 3), "[2,1,3] + 2 * [4,1]",
          0, 1, 2, 20, 21, 22, 40, 41, 42, 60, 61, 62, 3, 4, 5, 23, 24, 25, 43, 44, 45, 63, 64, 65);
    CHECK(call("aten::sub", "Scalar", 3, (TsValue[]){ tv(T(TS_INT8, S(3), 1, 2, 3)),
                                                        ts_int(100), ts_int(2) }),
          TS_INT8, S(3), "int8 - 2 * 100 wraps like int8", 57, 58, 59);
    CHECK(call("aten::add", "Tensor", 3, (TsValue[]){ tv(T(TS_INT32, S(0, 3))),
                                                        tv(T(TS_INT32, S(3), 1, 2, 3)), ts_int(1) }),
          TS_INT32, S(0, 3), "[0,3] + [3] is empty", 0);
    fails("aten::add", "Tensor", 3, (TsValue[]){ tv(T(TS_FLOAT32, S(3))), tv(T(TS_FLOAT32, S(4))),
                                                  ts_int(1) },
          "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 0",
          "[3] + [4]");
    fails("aten::mul", "Tensor", 2, (TsValue[]){ tv(T(TS_FLOAT32, S(2, 3))),
                                                  tv(T(TS_FLOAT32, S(2, 4))) },
          "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1",
          "[2,3] * [2,4]");
}

static void test_views(void)
{
    TsTensor *base = T(TS_FLOAT32, S(2, 3), 1, 2, 3, 4, 5, 6);
    ts_tensor_retain(base);
    TsTensor *tr = call("aten::t", "", 1, (TsValue[]){ tv(base) });
    ok(tr && tr->storage == base->storage && tr->strides[0] == 1 && tr->strides[1] == 3,
       "t() is a view with swapped strides");
    ts_tensor_retain(tr);
    CHECK(call("aten::mul", "Tensor", 2, (TsValue[]){ tv(tr), tv(T(TS_FLOAT32, S(2), 10, 100)) }),
          TS_FLOAT32, S(3, 2), "a transposed view as input", 10, 400, 20, 500, 30, 600);
    /* in-place through a chunk of the base */
    ts_tensor_retain(base);
    TsValue r;
    TsError err = TS_ERROR_INIT;
    int rc = kt_call("aten::chunk", "", "cpu", 3, (TsValue[]){ tv(base), ts_int(2), ts_int(1) },
                     &r, &err);
    TsList *l = rc == 0 && r.tag == TS_TAG_LIST ? (TsList *)r.u.p : NULL;
    ok(l && l->len == 2 && ((TsTensor *)l->items[0].u.p)->sizes[1] == 2 &&
       ((TsTensor *)l->items[1].u.p)->sizes[1] == 1, "chunk(2, dim=1) of [2,3] is [2,2], [2,1]");
    if (l) {
        ts_value_retain(l->items[0]);
        TsTensor *w = call("aten::add_", "Scalar", 3, (TsValue[]){ l->items[0], ts_int(100),
                                                                    ts_int(1) });
        ok((void *)w == (void *)l->items[0].u.p, "add_ returns its self");
        if (w)
            ts_tensor_release(w);
        ts_value_retain(l->items[1]);
        w = call("aten::mul_", "Tensor", 2, (TsValue[]){ l->items[1], tv(T(TS_INT64, S(2, 1), 2, 3)) });
        if (w)
            ts_tensor_release(w);
    }
    ts_value_release(r);
    ts_tensor_retain(base);
    CHECK(base, TS_FLOAT32, S(2, 3), "in-place ops on chunks show in the base",
          101, 102, 6, 104, 105, 18);
    /* in-place on a transposed view: self overlaps the other operand */
    ts_tensor_retain(tr);
    ts_tensor_retain(tr);
    TsTensor *w = call("aten::add_", "Tensor", 3, (TsValue[]){ tv(tr), tv(tr), ts_int(1) });
    if (w)
        ts_tensor_release(w);
    CHECK(base, TS_FLOAT32, S(2, 3), "t.add_(t) through a view doubles the base",
          202, 204, 12, 208, 210, 36);
    ts_tensor_release(tr);
    fails("aten::add_", "Tensor", 3, (TsValue[]){ tv(T(TS_FLOAT32, S(3))),
                                                   tv(T(TS_FLOAT32, S(2, 3))), ts_int(1) },
          "output with shape [3] doesn't match the broadcast shape [2, 3]", "in-place broadcast");
    fails("aten::add_", "Scalar", 3, (TsValue[]){ tv(T(TS_INT64, S(3))), ts_double(1.5), ts_int(1) },
          "result type Float can't be cast to the desired output type Long", "long.add_(1.5)");
    fails("aten::add_", "Scalar", 3, (TsValue[]){ tv(T(TS_BOOL, S(3))), ts_int(1), ts_int(1) },
          "result type Long can't be cast to the desired output type Bool", "bool.add_(1)");
    ts_error_clear(&err);
}

static void test_out(void)
{
    TsTensor *out = T(TS_INT32, S(0));
    ts_tensor_retain(out);
    TsTensor *r = call("aten::add", "out", 4, (TsValue[]){ tv(T(TS_INT64, S(3), 1, 2, 3)),
                                                           tv(T(TS_INT64, S(3), 1, 2, 3)),
                                                           ts_int(1), tv(out) });
    ok(r == out, "add.out returns out");
    if (r)
        ts_tensor_release(r);
    CHECK(out, TS_INT32, S(3), "out= resizes an empty int32 out and casts into it", 2, 4, 6);
    fails("aten::add", "out", 4, (TsValue[]){ tv(T(TS_INT64, S(3))), tv(T(TS_FLOAT32, S(3))),
                                              ts_int(1), tv(T(TS_INT64, S(3))) },
          "result type Float can't be cast to the desired output type Long", "float into long out=");
    out = T(TS_FLOAT32, S(3));
    ts_tensor_retain(out);
    r = call("aten::lt", "Tensor_out", 3, (TsValue[]){ tv(T(TS_INT64, S(3), 1, 5, 3)),
                                                       tv(T(TS_INT64, S(3), 2, 2, 3)), tv(out) });
    if (r)
        ts_tensor_release(r);
    CHECK(out, TS_FLOAT32, S(3), "a comparison into a float out=", 1, 0, 0);
}

static void test_arith(void)
{
    CHECK(call("aten::div", "Tensor", 2, (TsValue[]){ tv(T(TS_INT64, S(3), 7, -7, 1)),
                                                      tv(T(TS_INT64, S(3), 2, 2, 0)) }),
          TS_FLOAT32, S(3), "long / long is float", 3.5, -3.5, INFINITY);
    TsStr *floor = ts_str_from_cstr("floor", NULL), *trunc_ = ts_str_from_cstr("trunc", NULL);
    CHECK(call("aten::div", "Tensor_mode", 3, (TsValue[]){ tv(T(TS_INT64, S(2), 7, -7)),
                                                           tv(T(TS_INT64, S(2), 2, 2)),
                                                           ts_str_value(floor) }),
          TS_INT64, S(2), "div rounding_mode=floor", 3, -4);
    CHECK(call("aten::div", "Tensor_mode", 3, (TsValue[]){ tv(T(TS_INT64, S(2), 7, -7)),
                                                           tv(T(TS_INT64, S(2), 2, 2)),
                                                           ts_str_value(trunc_) }),
          TS_INT64, S(2), "div rounding_mode=trunc", 3, -3);
    CHECK(call("aten::floor_divide", "Scalar", 2, (TsValue[]){ tv(T(TS_FLOAT32, S(3), 7, -7, 5.5)),
                                                                ts_int(2) }),
          TS_FLOAT32, S(3), "float // 2", 3, -4, 2);
    CHECK(call("aten::remainder", "Tensor", 2, (TsValue[]){ tv(T(TS_INT64, S(4), 7, -7, 7, -7)),
                                                            tv(T(TS_INT64, S(4), 3, 3, -3, -3)) }),
          TS_INT64, S(4), "long % long takes the divisor's sign", 1, 2, -2, -1);
    CHECK(call("aten::remainder", "Scalar", 2, (TsValue[]){ tv(T(TS_FLOAT64, S(2), -7.5, 7.5)),
                                                            ts_double(2) }),
          TS_FLOAT64, S(2), "double % 2.0", 0.5, 1.5);
    /* fmod truncates: the result takes the dividend's sign (C's fmod and %) */
    CHECK(call("aten::fmod", "Scalar", 2, (TsValue[]){ tv(T(TS_INT64, S(4), 7, -7, 8, -9)),
                                                       ts_int(-3) }),
          TS_INT64, S(4), "fmod(long, -3)", 1, -1, 2, 0);
    CHECK(call("aten::fmod", "Scalar", 2, (TsValue[]){ tv(T(TS_INT64, S(2), 7, -7)),
                                                       ts_double(2.5) }),
          TS_FLOAT32, S(2), "fmod(long, 2.5) is float", 2, -2);
    CHECK(call("aten::fmod", "Tensor", 2, (TsValue[]){ tv(T(TS_FLOAT32, S(5), 7.5, -7.5, INFINITY,
                                                            1, -4)),
                                                       tv(T(TS_FLOAT32, S(5), 2, 2, 1, 0, 2)) }),
          TS_FLOAT32, S(5), "fmod of floats: inf and 0 give nan, -4 fmod 2 is -0", 1.5, -1.5, NAN,
          NAN, -0.0);
    CHECK(call("aten::fmod", "Tensor", 2, (TsValue[]){ tv(T(TS_INT8, S(2), 100, -100)),
                                                       tv(T(TS_INT8, S(1), 7)) }),
          TS_INT8, S(2), "fmod(int8, int8) broadcasts", 2, -2);
    CHECK(call("aten::fmod", "Scalar", 2, (TsValue[]){ tv(T(TS_UINT8, S(2), 1, 2)), ts_int(-1) }),
          TS_UINT8, S(2), "fmod(uint8, -1): -1 wraps to 255", 1, 2);
    CHECK(call("aten::fmod", "Scalar", 2, (TsValue[]){ tv(T(TS_INT64, S(1), INT64_MIN)),
                                                       ts_int(-1) }),
          TS_INT64, S(1), "fmod(INT64_MIN, -1) is 0", 0);
    TsTensor *fm = T(TS_INT64, S(3), 9, -9, 10);
    ts_tensor_retain(fm);
    TsTensor *fr = call("aten::fmod_", "Scalar", 2, (TsValue[]){ tv(fm), ts_int(4) });
    ok(fr == fm, "fmod_ returns self");
    CHECK(fr, TS_INT64, S(3), "fmod_(long, 4) in place", 1, -1, 2);
    TsTensor *fo = T(TS_FLOAT64, S(0));
    ts_tensor_retain(fo);
    fr = call("aten::fmod", "Scalar_out", 3, (TsValue[]){ tv(T(TS_FLOAT32, S(2), 5.5, -5.5)),
                                                          ts_int(2), tv(fo) });
    ok(fr == fo, "fmod out= returns out");
    CHECK(fr, TS_FLOAT64, S(2), "fmod out= resizes and casts", 1.5, -1.5);
    ts_tensor_release(fm);
    ts_tensor_release(fo);
    CHECK(call("aten::fmod", "Tensor", 2, (TsValue[]){ tv(T(TS_BFLOAT16, S(2), 1.5, -2.25)),
                                                       tv(T(TS_FLOAT32, S(1), 1)) }),
          TS_FLOAT32, S(2), "fmod(bfloat16, float) promotes to float", 0.5, -0.25);
    CHECK(call("aten::pow", "Tensor_Scalar", 2, (TsValue[]){ tv(T(TS_INT64, S(3), 2, -3, 0)),
                                                             ts_int(3) }),
          TS_INT64, S(3), "long ** 3", 8, -27, 0);
    CHECK(call("aten::pow", "Scalar", 2, (TsValue[]){ ts_int(2), tv(T(TS_FLOAT32, S(2), 0.5, -1)) }),
          TS_FLOAT32, S(2), "2 ** float tensor", 1.4142135381698608, 0.5);
    CHECK(call("aten::maximum", "", 2, (TsValue[]){ tv(T(TS_FLOAT32, S(3), 1, NAN, 3)),
                                                    tv(T(TS_FLOAT32, S(3), 2, 0, NAN)) }),
          TS_FLOAT32, S(3), "maximum propagates nan", 2, NAN, NAN);
    CHECK(call("aten::bitwise_xor", "Scalar", 2, (TsValue[]){ tv(T(TS_INT32, S(2), 5, 12)),
                                                              ts_int(6) }),
          TS_INT32, S(2), "int32 ^ 6", 3, 10);
    CHECK(call("aten::logical_and", "", 2, (TsValue[]){ tv(T(TS_FLOAT32, S(3), 0, 2, NAN)),
                                                        tv(T(TS_INT64, S(3), 1, 1, 1)) }),
          TS_BOOL, S(3), "logical_and of float and long is bool", 0, 1, 1);
    CHECK(call("aten::eq", "Scalar", 2, (TsValue[]){ tv(T(TS_FLOAT16, S(2), 0.5, 1)),
                                                     ts_double(0.5) }),
          TS_BOOL, S(2), "half == 0.5", 1, 0);
    fails("aten::floor_divide", "Scalar", 2, (TsValue[]){ tv(T(TS_INT64, S(2), 1, 2)), ts_int(0) },
          "ZeroDivisionError", "long // 0");
    fails("aten::remainder", "Tensor", 2, (TsValue[]){ tv(T(TS_INT64, S(2), 1, 2)),
                                                       tv(T(TS_INT64, S(2), 1, 0)) },
          "ZeroDivisionError", "long % 0");
    fails("aten::fmod", "Scalar", 2, (TsValue[]){ tv(T(TS_INT64, S(2), 1, 2)), ts_int(0) },
          "ZeroDivisionError", "fmod(long, 0)");
    fails("aten::fmod", "Tensor", 2, (TsValue[]){ tv(T(TS_INT32, S(2), 1, 2)),
                                                  tv(T(TS_INT32, S(2), 1, 0)) },
          "ZeroDivisionError", "fmod by a long tensor holding 0");
    fails("aten::fmod", "Scalar", 2, (TsValue[]){ tv(T(TS_BOOL, S(2), 1, 0)), ts_bool(true) },
          "\"fmod_cpu\" not implemented for 'Bool'", "fmod of bools");
    fails("aten::fmod_", "Scalar", 2, (TsValue[]){ tv(T(TS_INT64, S(2), 3, 4)), ts_double(2.5) },
          "result type Float can't be cast to the desired output type Long",
          "in-place fmod of longs by a float");
    fails("aten::fmod_", "Tensor", 2, (TsValue[]){ tv(T(TS_FLOAT32, S(1), 3)),
                                                   tv(T(TS_FLOAT32, S(2), 2, 2)) },
          "output with shape [1] doesn't match the broadcast shape [2]",
          "in-place fmod cannot broadcast self");
    fails("aten::pow", "Tensor_Scalar", 2, (TsValue[]){ tv(T(TS_INT64, S(2), 1, 2)), ts_int(-1) },
          "Integers to negative integer powers are not allowed.", "long ** -1");
    fails("aten::bitwise_and", "Tensor", 2, (TsValue[]){ tv(T(TS_INT64, S(2))), tv(T(TS_FLOAT32, S(2))) },
          "\"bitwise_and_cpu\" not implemented for 'Float'", "long & float");
    fails("aten::sub", "Tensor", 3, (TsValue[]){ tv(T(TS_BOOL, S(2))), tv(T(TS_BOOL, S(2))), ts_int(1) },
          "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
          "`logical_xor()` operator instead.", "bool - bool");
    fails("aten::add", "Tensor", 3, (TsValue[]){ tv(T(TS_INT64, S(2))), tv(T(TS_INT64, S(2))),
                                                 ts_double(1.5) },
          "For integral input tensors, argument alpha must not be a floating point number.",
          "float alpha with longs");
}

static void test_unary(void)
{
    CHECK(call("aten::exp", "", 1, (TsValue[]){ tv(T(TS_INT64, S(2), 0, 1)) }), TS_FLOAT32, S(2),
          "exp of long is float", 1, 2.7182817459106445);
    CHECK(call("aten::sigmoid", "", 1, (TsValue[]){ tv(T(TS_FLOAT64, S(2), 0, 2)) }), TS_FLOAT64,
          S(2), "sigmoid", 0.5, 0.88079707797788231);
    CHECK(call("aten::relu", "", 1, (TsValue[]){ tv(T(TS_INT32, S(3), -1, 0, 4)) }), TS_INT32, S(3),
          "relu keeps int32", 0, 0, 4);
    CHECK(call("aten::round", "", 1, (TsValue[]){ tv(T(TS_FLOAT32, S(4), 0.5, 1.5, 2.5, -0.5)) }),
          TS_FLOAT32, S(4), "round halves to even", 0, 2, 2, -0.0);
    CHECK(call("aten::sign", "", 1, (TsValue[]){ tv(T(TS_FLOAT32, S(3), NAN, -0.0, -2)) }),
          TS_FLOAT32, S(3), "sign of nan is 0", 0, 0, -1);
    CHECK(call("aten::abs", "", 1, (TsValue[]){ tv(T(TS_INT8, S(2), -128, -5)) }), TS_INT8, S(2),
          "abs wraps at int8's minimum", -128, 5);
    CHECK(call("aten::bitwise_not", "", 1, (TsValue[]){ tv(T(TS_BOOL, S(2), 0, 1)) }), TS_BOOL,
          S(2), "~bool", 1, 0);
    CHECK(call("aten::logical_not", "", 1, (TsValue[]){ tv(T(TS_FLOAT32, S(2), 0, 3)) }), TS_BOOL,
          S(2), "logical_not of float is bool", 1, 0);
    TsStr *tanh_ = ts_str_from_cstr("tanh", NULL);
    CHECK(call("aten::gelu", "", 2, (TsValue[]){ tv(T(TS_FLOAT64, S(2), 1, -1)), ts_str_value(tanh_) }),
          TS_FLOAT64, S(2), "gelu(approximate='tanh')", 0.8411919906082768, -0.15880800939172324);
    fails("aten::neg", "", 1, (TsValue[]){ tv(T(TS_BOOL, S(2))) },
          "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
          "invert a mask, use the `~` or `logical_not()` operator instead.", "-bool");
    fails("aten::abs", "", 1, (TsValue[]){ tv(T(TS_BOOL, S(2))) },
          "\"abs_cpu\" not implemented for 'Bool'", "abs(bool)");
}

static void test_select(void)
{
    CHECK(call("aten::where", "ScalarOther", 3, (TsValue[]){ tv(T(TS_BOOL, S(3), 1, 0, 1)),
                                                             tv(T(TS_INT64, S(3), 1, 2, 3)),
                                                             ts_double(0.5) }),
          TS_FLOAT32, S(3), "where(c, long, 0.5) is float", 1, 0.5, 3);
    fails("aten::where", "self", 3, (TsValue[]){ tv(T(TS_FLOAT32, S(2))), tv(T(TS_FLOAT32, S(2))),
                                                 tv(T(TS_FLOAT32, S(2))) },
          "where expected condition to be a boolean tensor, but got a tensor with dtype Float",
          "where with a float condition");
    CHECK(call("aten::masked_fill", "Scalar", 3, (TsValue[]){ tv(T(TS_FLOAT32, S(3), 1, 2, 3)),
                                                              tv(T(TS_BOOL, S(2, 1), 1, 0)),
                                                              ts_double(-1) }),
          TS_FLOAT32, S(2, 3), "masked_fill broadcasts self with the mask", -1, -1, -1, 1, 2, 3);
    fails("aten::masked_fill_", "Scalar", 3, (TsValue[]){ tv(T(TS_FLOAT32, S(3))),
                                                          tv(T(TS_BOOL, S(2, 3))), ts_int(0) },
          "output with shape [3] doesn't match the broadcast shape [2, 3]", "masked_fill_ grow");
    fails("aten::masked_fill_", "Scalar", 3, (TsValue[]){ tv(T(TS_INT8, S(3))),
                                                          tv(T(TS_BOOL, S(3))), ts_int(300) },
          "value cannot be converted to type int8_t without overflow", "int8 filled with 300");
    CHECK(call("aten::clamp", "", 3, (TsValue[]){ tv(T(TS_INT64, S(3), -5, 0, 5)), ts_double(0.5),
                                                  NONE }),
          TS_FLOAT32, S(3), "clamp(long, min=0.5) is float", 0.5, 0.5, 5);
    CHECK(call("aten::clamp", "", 3, (TsValue[]){ tv(T(TS_FLOAT32, S(3), -5, NAN, 5)), ts_int(-1),
                                                  ts_int(1) }),
          TS_FLOAT32, S(3), "clamp keeps nan", -1, NAN, 1);
    fails("aten::clamp", "", 3, (TsValue[]){ tv(T(TS_FLOAT32, S(3))), NONE, NONE },
          "torch.clamp: At least one of 'min' or 'max' must not be None", "clamp()");
}

static void test_convert(void)
{
    TsValue a[5] = { tv(T(TS_FLOAT32, S(4), 300, -1, -2.7, NAN)), ts_int(TS_INT8), ts_bool(false),
                     ts_bool(false), NONE };
    CHECK(call("aten::to", "dtype", 5, a), TS_INT8, S(4), "float to int8 wraps like PyTorch",
          44, -1, -2, 0);
    TsTensor *h = T(TS_FLOAT16, S(3), 0.1, 65519, 1e-7);
    TsValue b[5] = { tv(h), ts_int(TS_FLOAT64), ts_bool(false), ts_bool(false), NONE };
    CHECK(call("aten::to", "dtype", 5, b), TS_FLOAT64, S(3), "float16 rounds to nearest",
          0.0999755859375, 65504, 1.1920928955078125e-07);
    TsTensor *bf = T(TS_BFLOAT16, S(2), 1.00390625, 3.14159);
    TsValue d[5] = { tv(bf), ts_int(TS_FLOAT32), ts_bool(false), ts_bool(false), NONE };
    CHECK(call("aten::to", "dtype", 5, d), TS_FLOAT32, S(2), "bfloat16 rounds to nearest even",
          1, 3.140625);
    TsTensor *same = T(TS_INT64, S(2), 1, 2);
    ts_tensor_retain(same);
    TsValue e[5] = { tv(same), ts_int(TS_INT64), ts_bool(false), ts_bool(false), NONE };
    TsTensor *r = call("aten::to", "dtype", 5, e);
    ok(r == same, "to(its own dtype) is the tensor itself");
    if (r)
        ts_tensor_release(r);
    ts_tensor_release(same);
}

/* t (any dtype, released) converted to float64, for checking half-precision results. */
static TsTensor *as_f64(TsTensor *t)
{
    if (!t)
        return NULL;
    TsValue a[5] = { tv(t), ts_int(TS_FLOAT64), ts_bool(false), ts_bool(false), NONE };
    return call("aten::to", "dtype", 5, a);
}

/* full, fill_, zero_ and the *_like factories on float16 and bfloat16, with PyTorch's
 * rounding and overflow checks. */
static void test_half_fill(void)
{
    static const struct { int dtype; double v, want; const char *over; } cases[] = {
        { TS_FLOAT16, 0.1, 0.0999755859375, "at::Half" },
        { TS_FLOAT16, 65504, 65504, "at::Half" },
        { TS_FLOAT16, 1e-8, 0, "at::Half" },
        { TS_BFLOAT16, 0.1, 0.10009765625, "at::BFloat16" },
        { TS_BFLOAT16, 70000, 70144, "at::BFloat16" },
        { TS_BFLOAT16, 1e38, 9.969209968386869e+37, "at::BFloat16" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        int dt = cases[i].dtype;
        char what[96];
        snprintf(what, sizeof what, "full([2], %g, dtype=%s)", cases[i].v, ts_dtype_name(dt));
        TsValue size = ts_obj_value(ts_list_new(ts_type_int(), 1, NULL), TS_TAG_LIST);
        ts_list_append((TsList *)size.u.p, ts_int(2), NULL);
        TsTensor *f = call("aten::full", "", 6, (TsValue[]){ size, ts_double(cases[i].v),
                                                             ts_int(dt), NONE, NONE, NONE });
        ok(f && f->dtype == dt, "%s has its dtype", what);
        CHECK(as_f64(f), TS_FLOAT64, S(2), what, cases[i].want, cases[i].want);
        TsTensor *e = T(dt, S(2, 2));
        ts_tensor_retain(e);
        TsTensor *r = call("aten::fill_", "Scalar", 2, (TsValue[]){ tv(e), ts_double(cases[i].v) });
        ok(r == e, "fill_ on %s returns self", ts_dtype_name(dt));
        if (r)
            ts_tensor_release(r);
        CHECK(as_f64(e), TS_FLOAT64, S(2, 2), "... filled", cases[i].want, cases[i].want,
              cases[i].want, cases[i].want);
    }
    fails("aten::fill_", "Scalar", 2, (TsValue[]){ tv(T(TS_FLOAT16, S(2))), ts_double(65519) },
          "value cannot be converted to type at::Half without overflow", "half fill_ 65519");
    fails("aten::fill_", "Scalar", 2, (TsValue[]){ tv(T(TS_FLOAT16, S(2))), ts_int(100000) },
          "value cannot be converted to type at::Half without overflow", "half fill_ 100000");
    fails("aten::fill_", "Scalar", 2, (TsValue[]){ tv(T(TS_BFLOAT16, S(2))), ts_double(3.4e38) },
          "value cannot be converted to type at::BFloat16 without overflow",
          "bfloat16 fill_ 3.4e38");
    CHECK(as_f64(call("aten::fill_", "Scalar", 2, (TsValue[]){ tv(T(TS_FLOAT16, S(2))),
                                                               ts_double(INFINITY) })),
          TS_FLOAT64, S(2), "half fill_ inf", INFINITY, INFINITY);
    CHECK(as_f64(call("aten::fill_", "Scalar", 2, (TsValue[]){ tv(T(TS_BFLOAT16, S(2))),
                                                               ts_double(NAN) })),
          TS_FLOAT64, S(2), "bfloat16 fill_ nan", NAN, NAN);
    TsTensor *h = T(TS_FLOAT16, S(2), 1.5, -2);
    CHECK(as_f64(call("aten::zero_", "", 1, (TsValue[]){ tv(h) })), TS_FLOAT64, S(2),
          "half zero_", 0, 0);
    CHECK(as_f64(call("aten::ones_like", "", 6, (TsValue[]){ tv(T(TS_BFLOAT16, S(3))), NONE, NONE,
                                                            NONE, NONE, NONE })),
          TS_FLOAT64, S(3), "ones_like of bfloat16", 1, 1, 1);
    CHECK(as_f64(call("aten::full_like", "", 7, (TsValue[]){ tv(T(TS_FLOAT16, S(2))),
                                                            ts_double(0.333), NONE, NONE, NONE,
                                                            NONE, NONE })),
          TS_FLOAT64, S(2), "full_like of half rounds", 0.3330078125, 0.3330078125);
    TsValue eye_size = ts_int(2);
    fails("aten::eye", "", 5, (TsValue[]){ eye_size, ts_int(TS_BFLOAT16), NONE, NONE, NONE },
          "\"eye\" not implemented for 'BFloat16'", "eye of bfloat16");
    CHECK(as_f64(call("aten::eye", "", 5, (TsValue[]){ ts_int(2), ts_int(TS_FLOAT16), NONE, NONE,
                                                       NONE })),
          TS_FLOAT64, S(2, 2), "eye of half", 1, 0, 0, 1);
}

static void test_mm(void)
{
    TsTensor *a = T(TS_FLOAT32, S(2, 3), 1, 2, 3, 4, 5, 6);
    TsTensor *b = T(TS_FLOAT32, S(2, 3), 1, 0, -1, 2, 1, 0);
    TsTensor *bt = call("aten::t", "", 1, (TsValue[]){ tv(b) });
    CHECK(call("aten::mm", "", 2, (TsValue[]){ tv(a), tv(bt) }), TS_FLOAT32, S(2, 2),
          "mm with a transposed operand", -2, 4, -2, 13);
    CHECK(call("aten::mm", "", 2, (TsValue[]){ tv(T(TS_INT64, S(1, 2), 2, 3)),
                                               tv(T(TS_INT64, S(2, 1), 4, 5)) }),
          TS_INT64, S(1, 1), "long mm", 23);
    CHECK(call("aten::mm", "", 2, (TsValue[]){ tv(T(TS_FLOAT64, S(2, 0))), tv(T(TS_FLOAT64, S(0, 2))) }),
          TS_FLOAT64, S(2, 2), "an empty inner dimension gives zeros", 0, 0, 0, 0);
    fails("aten::mm", "", 2, (TsValue[]){ tv(T(TS_FLOAT32, S(2, 3))), tv(T(TS_FLOAT32, S(2, 3))) },
          "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)", "mm shape mismatch");
    fails("aten::mm", "", 2, (TsValue[]){ tv(T(TS_FLOAT32, S(2, 3))), tv(T(TS_FLOAT64, S(3, 2))) },
          "expected scalar type Float but found Double", "mm dtype mismatch");
    fails("aten::t", "", 1, (TsValue[]){ tv(T(TS_FLOAT32, S(2, 3, 4))) },
          "t() expects a tensor with <= 2 dimensions, but self is 3D", "t of 3-d");
    fails("aten::chunk", "", 3, (TsValue[]){ tv(T(TS_FLOAT32, S(3))), ts_int(0), ts_int(0) },
          "chunk expects `chunks` to be greater than 0, got: 0", "chunk(0)");
}

/* The pointwise math ops added with the sweep: values PyTorch gives and its error messages. */
static void test_math_ops(void)
{
    CHECK(call("aten::erfinv", "", 1, (TsValue[]){ tv(T(TS_FLOAT64, S(3), 0.5, -0.9, 1)) }),
          TS_FLOAT64, S(3), "erfinv in double", 0.47693627620446987, -1.1630871536766743,
          INFINITY);
    CHECK(call("aten::__lshift__", "Scalar", 2, (TsValue[]){ tv(T(TS_INT8, S(2), 1, 64)),
                                                             ts_int(1) }),
          TS_INT8, S(2), "int8 << 1 wraps", 2, -128);
    CHECK(call("aten::__rshift__", "Tensor", 2, (TsValue[]){ tv(T(TS_INT64, S(2), -16, 8)),
                                                             tv(T(TS_INT64, S(2), -1, 70)) }),
          TS_INT64, S(2), "shift counts wrap modulo 64", -1, 0);
    CHECK(call("aten::float_power", "Tensor_Scalar", 2, (TsValue[]){ tv(T(TS_INT64, S(2), 2, 3)),
                                                                    ts_int(2) }),
          TS_FLOAT64, S(2), "float_power is double", 4, 9);
    CHECK(call("aten::heaviside", "", 2, (TsValue[]){ tv(T(TS_FLOAT32, S(3), -1, 0, 2)),
                                                      tv(T(TS_FLOAT32, S(1), 0.5)) }),
          TS_FLOAT32, S(3), "heaviside", 0, 0.5, 1);
    fails("aten::heaviside", "", 2, (TsValue[]){ tv(T(TS_INT64, S(1), 1)),
                                                 tv(T(TS_FLOAT32, S(1), 1)) },
          "heaviside is not yet implemented for tensors with different dtypes.",
          "heaviside of mixed dtypes");
    fails("aten::float_power", "Tensor_Scalar_out", 3,
          (TsValue[]){ tv(T(TS_FLOAT32, S(1), 2)), ts_int(2), tv(T(TS_FLOAT32, S(1))) },
          "the output given to float_power has dtype Float but the operation's result requires "
          "dtype Double", "float_power into a float out=");
    fails("aten::float_power_", "Scalar", 2, (TsValue[]){ tv(T(TS_FLOAT32, S(1), 2)), ts_int(2) },
          "the base given to float_power_ has dtype Float but the operation's result requires "
          "dtype Double", "float_power_ of float");
    fails("aten::lerp", "Scalar", 3, (TsValue[]){ tv(T(TS_FLOAT32, S(1), 1)),
                                                  tv(T(TS_FLOAT64, S(1), 2)), ts_double(0.5) },
          "expected dtype float for `end` but got dtype double", "lerp of mixed dtypes");
    fails("aten::lerp", "Tensor", 3, (TsValue[]){ tv(T(TS_INT64, S(1), 1)), tv(T(TS_INT64, S(1), 2)),
                                                  tv(T(TS_INT64, S(1), 1)) },
          "\"lerp_kernel_tensor\" not implemented for 'Long'", "lerp of long");
    fails("aten::hypot", "", 2, (TsValue[]){ tv(T(TS_FLOAT16, S(1), 1)), tv(T(TS_FLOAT16, S(1), 1)) },
          "\"hypot_cpu\" not implemented for 'Half'", "hypot of half");
    fails("aten::exp", "", 1, (TsValue[]){ tv(T(TS_FLOAT16, S(1), 1)) },
          "\"exp_vml_cpu\" not implemented for 'Half'", "exp of half");
    fails("aten::__lshift__", "Scalar", 2, (TsValue[]){ tv(T(TS_FLOAT32, S(1), 1)), ts_int(1) },
          "\"lshift_cpu\" not implemented for 'Float'", "float << 1");
    fails("aten::positive", "", 1, (TsValue[]){ tv(T(TS_BOOL, S(1), 1)) },
          "The `+` operator, on a bool tensor is not supported.", "positive of bool");
    fails("aten::addcdiv", "", 4, (TsValue[]){ tv(T(TS_FLOAT32, S(1), 1)), tv(T(TS_INT64, S(1), 1)),
                                               tv(T(TS_INT64, S(1), 1)), ts_int(1) },
          "Integer division with addcdiv is no longer supported, and in a future  release addcdiv "
          "will perform a true division of tensor1 and tensor2. The historic addcdiv behavior "
          "can be implemented as (input + value * torch.trunc(tensor1 / tensor2))"
          ".to(input.dtype) for integer inputs and as (input + value * tensor1 / tensor2) for "
          "float inputs. The future addcdiv behavior is just the latter implementation: (input "
          "+ value * tensor1 / tensor2), for all dtypes.", "addcdiv of longs");
    fails("aten::addcmul", "", 4, (TsValue[]){ tv(T(TS_BOOL, S(1), 1)), tv(T(TS_BOOL, S(1), 1)),
                                               tv(T(TS_BOOL, S(1), 1)), ts_int(1) },
          "\"addcmul_cpu_out\" not implemented for 'Bool'", "addcmul of bools");
    fails("aten::aminmax", "", 3, (TsValue[]){ tv(T(TS_FLOAT32, S(0))), ts_none(), ts_bool(false) },
          "aminmax(): cannot compute aminmax over an empty dimension as the operation has no "
          "identity.", "aminmax of empty");
    fails("aten::inner", "", 2, (TsValue[]){ tv(T(TS_FLOAT32, S(2, 3))), tv(T(TS_FLOAT32, S(4))) },
          "inner() the last dimension must match on both input tensors but got shapes [2, 3] "
          "and [4]", "inner shape mismatch");
    fails("aten::addr", "", 5, (TsValue[]){ tv(T(TS_FLOAT32, S(2, 2))), tv(T(TS_FLOAT32, S(2))),
                                            tv(T(TS_FLOAT32, S(3))), ts_int(1), ts_int(1) },
          "The expanded size of the tensor (3) must match the existing size (2) at non-singleton "
          "dimension 1.  Target sizes: [2, 3].  Tensor sizes: [2, 2]", "addr self shape");
    fails("aten::addmv", "", 5, (TsValue[]){ tv(T(TS_FLOAT32, S(2))), tv(T(TS_FLOAT32, S(2, 3))),
                                             tv(T(TS_FLOAT32, S(4))), ts_int(1), ts_int(1) },
          "size mismatch, got 2, 2x3,4", "addmv size mismatch");
}

int main(void)
{
    if (!kt_open())
        return done_testing();
    test_promotion();
    test_broadcast();
    test_views();
    test_out();
    test_arith();
    test_unary();
    test_select();
    test_convert();
    test_half_fill();
    test_mm();
    test_math_ops();
    ts_runtime_close(kt_rt);
    return done_testing();
}
