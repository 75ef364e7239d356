/* query.c — one-element tensors as TorchScript values, and the cpu's answers to questions
 * that are not about a tensor's header alone.
 *
 * int(t), float(t), bool(t), complex(t, u) (aten::Int/Float/Bool.Tensor, Complex.Tensor_*)
 * and the implicit conversions the compiler inserts where a Tensor meets an int, float or
 * Scalar parameter
 * (aten::IntImplicit, FloatImplicit, ScalarImplicit); x.is_nested (the cpu's nested
 * stand-in), promote_types, can_cast, torch.device("cpu") and torch.result_type. The
 * explicit conversions take any one-element tensor; the implicit ones only 0-dim tensors,
 * and IntImplicit only integral ones, with PyTorch's messages. The header's own questions
 * (t.dtype, t.device, len(t), element_size, ...) are aten-common's, the same on every
 * device.
 */
#include <math.h>
#include <string.h>

#include "engine/elementwise.h"
#include "nn/nested.h"

/* Pops the arguments of a kernel whose first is its one tensor. */
static int pop_tensor(TsCall *c, TsArgs *a, TsTensor **t)
{
    int rc = ts_args_pop(c, TS_DEV_CPU, a);
    return rc ? rc : ts_args_tensor(a, 0, t);
}

/* The one element of t as an int, float or bool value (t has exactly one element). */
TsValue ts_cpu_one_value(const TsTensor *t)
{
    const char *p = ts_tensor_data(t);
    if (t->dtype == TS_BOOL)
        return ts_bool(*p != 0);
    if (t->dtype == TS_INT64) {
        int64_t i;
        memcpy(&i, p, sizeof i);
        return ts_int(i);
    }
    if (ts_dtype_is_integral(t->dtype, false))
        return ts_int((int64_t)ts_cpu_load_double(t->dtype, p));
    return ts_double(ts_cpu_load_double(t->dtype, p));
}

static int one_element(TsCall *c, const TsTensor *t)
{
    int64_t n = ts_tensor_numel(t);
    if (n == 1)
        return 0;
    return ts_error_set(c->error, TS_ERR_RUNTIME, "a Tensor with %lld elements cannot be "
                        "converted to Scalar", (long long)n);
}

/* v (a number) as an int, truncating a float like item<int64_t>() does. */
static int to_int(TsCall *c, TsValue v, int64_t *out)
{
    if (v.tag == TS_TAG_DOUBLE) {
        /* [-2^63, 2^63) truncates into int64; nan fails both tests */
        if (!(v.u.d >= -9223372036854775808.0 && v.u.d < 9223372036854775808.0))
            return ts_error_set(c->error, TS_ERR_RUNTIME, "value cannot be converted to type "
                                "int64_t without overflow");
        *out = (int64_t)v.u.d;
    } else {
        *out = v.tag == TS_TAG_BOOL ? (int64_t)v.u.b : v.u.i;
    }
    return 0;
}

static double to_double(TsValue v)
{
    return v.tag == TS_TAG_DOUBLE ? v.u.d : v.tag == TS_TAG_BOOL ? (double)v.u.b
                                                                  : (double)v.u.i;
}

typedef enum Want { WANT_INT, WANT_FLOAT, WANT_SCALAR } Want;

/* The Int/Float.Tensor and *Implicit kernels: implicit ones check the dims (and IntImplicit
 * the dtype) first. */
static int convert(TsCall *c, Want want, bool implicit)
{
    TsArgs a;
    TsTensor *t;
    TsValue v = ts_none();
    int rc = pop_tensor(c, &a, &t);
    if (rc)
        ;
    else if (implicit && t->dim != 0)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Cannot input a tensor of dimension other "
                          "than 0 as a scalar argument");
    else if (implicit && want == WANT_INT && !ts_dtype_is_integral(t->dtype, false))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Cannot input a tensor of type %s as an "
                          "integral argument", ts_dtype_type_name(t->dtype));
    else if (!(rc = one_element(c, t))) {
        v = ts_cpu_one_value(t);
        int64_t i = 0;
        if (want == WANT_INT && !(rc = to_int(c, v, &i)))
            v = ts_int(i);
        else if (want == WANT_FLOAT)
            v = ts_double(to_double(v));
    }
    return ts_args_return(&a, rc, v);
}

/* aten::Int.Tensor(Tensor a) -> int */
static int k_int(TsCall *c) { return convert(c, WANT_INT, false); }
/* aten::Float.Tensor(Tensor a) -> float */
static int k_float(TsCall *c) { return convert(c, WANT_FLOAT, false); }
/* aten::IntImplicit(Tensor a) -> int */
static int k_int_implicit(TsCall *c) { return convert(c, WANT_INT, true); }
/* aten::FloatImplicit(Tensor a) -> float */
static int k_float_implicit(TsCall *c) { return convert(c, WANT_FLOAT, true); }
/* aten::ScalarImplicit(Tensor a) -> Scalar */
static int k_scalar_implicit(TsCall *c) { return convert(c, WANT_SCALAR, true); }

/* aten::Complex.Tensor_Tensor(Tensor a, Tensor b) -> complex, and the overloads with a
 * number on one side (Tensor_float, int_Tensor, ...): each tensor's one element (item()) as
 * a float, the real and imaginary parts. */
static int k_complex(TsCall *c)
{
    TsArgs a;
    double part[2];
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    for (size_t i = 0; !rc && i < 2; i++) {
        TsTensor *t;
        if (a.v[i].tag != TS_TAG_TENSOR)
            part[i] = to_double(a.v[i]);
        else if (!(rc = ts_args_tensor(&a, i, &t)) && !(rc = one_element(c, t)))
            part[i] = to_double(ts_cpu_one_value(t));
    }
    TsComplex *z = rc ? NULL : ts_complex_new(part[0], part[1], c->error);
    if (!rc && !z)
        rc = c->error->code;
    return ts_args_return(&a, rc, z ? ts_obj_value(z, TS_TAG_COMPLEX) : ts_none());
}

/* aten::Bool.Tensor(Tensor a) -> bool: Tensor.is_nonzero (nan is true). */
static int k_bool(TsCall *c)
{
    TsArgs a;
    TsTensor *t;
    bool b = false;
    int rc = pop_tensor(c, &a, &t);
    int64_t n = rc ? 1 : ts_tensor_numel(t);
    if (rc)
        ;
    else if (n == 0)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Boolean value of Tensor with no values is "
                          "ambiguous");
    else if (n > 1)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Boolean value of Tensor with more than one "
                          "value is ambiguous");
    else {
        TsValue v = ts_cpu_one_value(t);
        b = v.tag == TS_TAG_BOOL ? v.u.b : v.tag == TS_TAG_INT ? v.u.i != 0 : v.u.d != 0.0;
    }
    return ts_args_return(&a, rc, ts_bool(b));
}

/* prim::is_nested(Tensor a) -> bool: a cpu tensor is nested when it is the padded stand-in
 * of nested.h. */
static int k_is_nested(TsCall *c)
{
    TsArgs a;
    TsTensor *t;
    int rc = pop_tensor(c, &a, &t);
    return ts_args_return(&a, rc, ts_bool(!rc && ts_cpu_nested_lengths(t) != NULL));
}

/* promote_types(ScalarType type1, ScalarType type2) -> ScalarType and
 * can_cast(ScalarType from, ScalarType to) -> bool: the dtype rules themselves. */
static int dtype_pair(TsCall *c, bool cast)
{
    TsArgs a;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    int d[2];
    for (int i = 0; !rc && i < 2; i++) {
        d[i] = a.v[i].tag == TS_TAG_INT ? (int)a.v[i].u.i : -1;
        if (d[i] < 0 || d[i] >= TS_DTYPE__COUNT || ts_aten_promote_types(d[i], d[i]) < 0)
            rc = ts_error_set(c->error, TS_ERR_RUNTIME, "%s: dtype %d is not supported by "
                              "the cpu backend", ts_args_op_name(&a), d[i]);
    }
    if (rc)
        return ts_args_fail(&a, rc);
    TsValue r = cast ? ts_bool(ts_aten_can_cast(d[0], d[1]))
                     : ts_int(ts_aten_promote_types(d[0], d[1]));
    return ts_args_return(&a, 0, r);
}

static int k_promote_types(TsCall *c) { return dtype_pair(c, false); }
static int k_can_cast(TsCall *c) { return dtype_pair(c, true); }

/* aten::device(str a) -> Device */
static int k_device(TsCall *c)
{
    TsArgs a;
    TsDevice d;
    const TsStr *s;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc)
        rc = ts_args_str(&a, 0, &s);
    if (!rc)
        rc = ts_device_parse_n(s->data, s->len, &d, c->error);
    return ts_args_return(&a, rc, rc ? ts_none() : ts_device(d));
}

/* aten::_infer_size(int[] a, int[] b) -> int[]: the shape two shapes broadcast to
 * (F.binary_cross_entropy checks its weight with it), with broadcasting's error. */
static int k_infer_size(TsCall *c)
{
    TsArgs a;
    TsTensor shape[2];
    int64_t given[2][TS_TENSOR_MAX_DIMS];
    memset(shape, 0, sizeof shape);
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    for (int i = 0; !rc && i < 2; i++) {
        int n = 0;
        rc = ts_args_int_list(&a, (size_t)i, given[i], &n, TS_TENSOR_MAX_DIMS);
        shape[i].sizes = given[i];
        shape[i].dim = n;
    }
    int dim = 0;
    int64_t sizes[TS_TENSOR_MAX_DIMS];
    /* the broadcast reads only the headers' sizes; b goes first, as PyTorch 1.13's
     * scripted _infer_size's error names b's size as "tensor a" (the shape is the same) */
    if (!rc)
        rc = ts_aten_broadcast_shape(2, (TsTensor *const[]){ &shape[1], &shape[0] }, &dim,
                                     sizes, c->error);
    TsValue r = rc ? ts_none() : ts_cpu_int_list(c->error, dim, sizes);
    if (!rc && r.tag == TS_TAG_NONE)
        rc = c->error->code;
    return ts_args_return(&a, rc, r);
}

/* ---- torch.result_type ------------------------------------------------------------ */

/* The result dtype of the two arguments, each a tensor or a Scalar (wrapped as a Python
 * number is in arithmetic). */
static int result_type(TsCall *c)
{
    TsArgs a;
    TsTensor *t[2] = { NULL, NULL };
    bool wrapped[2] = { false, false };
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    for (int i = 0; !rc && i < 2; i++) {
        if (a.v[i].tag == TS_TAG_TENSOR) {
            rc = ts_args_tensor(&a, (size_t)i, &t[i]);
        } else {
            wrapped[i] = true;
            if (!(t[i] = ts_cpu_wrap_scalar(a.v[i], c->error)))
                rc = c->error->code;
        }
    }
    int dtype = rc ? -1 : ts_aten_result_type(2, t);
    if (!rc && dtype < 0)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "%s: the cpu backend does not promote %s "
                          "with %s", ts_args_op_name(&a), ts_dtype_type_name(t[0]->dtype),
                          ts_dtype_type_name(t[1]->dtype));
    for (int i = 0; i < 2; i++)
        if (wrapped[i] && t[i])
            ts_tensor_release(t[i]);
    return ts_args_return(&a, rc, ts_int(dtype));
}

static const TsCpuOp ops[] = {
    { "aten::promote_types", "", k_promote_types },
    { "aten::can_cast", "", k_can_cast },
    { "aten::_infer_size", "", k_infer_size },
    { "aten::Int", "Tensor", k_int },
    { "aten::Float", "Tensor", k_float },
    { "aten::Bool", "Tensor", k_bool },
    { "aten::Complex", "Tensor_Tensor", k_complex },
    { "aten::Complex", "Tensor_float", k_complex },
    { "aten::Complex", "float_Tensor", k_complex },
    { "aten::Complex", "Tensor_int", k_complex },
    { "aten::Complex", "int_Tensor", k_complex },
    { "aten::Complex", "Tensor_bool", k_complex },
    { "aten::Complex", "bool_Tensor", k_complex },
    { "aten::is_nonzero", "", k_bool },
    { "aten::IntImplicit", "", k_int_implicit },
    { "aten::FloatImplicit", "", k_float_implicit },
    { "aten::ScalarImplicit", "", k_scalar_implicit },
    { "prim::is_nested", "", k_is_nested },
    { "aten::device", "", k_device },
    { "aten::result_type", "Tensor", result_type },
    { "aten::result_type", "Scalar", result_type },
    { "aten::result_type", "Scalar_Tensor", result_type },
    { "aten::result_type", "Scalar_Scalar", result_type },
};

const TsCpuTable ts_cpu_query_table = { ops, sizeof ops / sizeof ops[0] };
