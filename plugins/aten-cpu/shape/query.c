/* query.c — a tensor's metadata and one-element tensors as TorchScript values.
 *
 * int(t), float(t), bool(t) (aten::Int/Float/Bool.Tensor) and the implicit conversions the
 * compiler inserts where a Tensor meets an int, float or Scalar parameter
 * (aten::IntImplicit, FloatImplicit, ScalarImplicit); t.dtype, t.device, t.layout, len(t),
 * is_floating_point, is_signed, is_complex, element_size, promote_types, can_cast,
 * torch.device("cpu") and torch.result_type. The explicit conversions take any one-element
 * tensor; the implicit ones only 0-dim tensors, and IntImplicit only integral ones, with
 * PyTorch's messages.
 */
#include <math.h>
#include <string.h>

#include "engine/elementwise.h"
#include "nn/nested.h"

/* Pops one tensor argument into *self; NULL (nothing left owned) with err when it is not. */
static TsTensor *pop_tensor(TsCall *c, const char *op, TsValue *self)
{
    ts_cpu_pop_args(c, 1, self);
    TsTensor *t = ts_cpu_tensor_arg(c, op, "a", *self);
    if (!t)
        ts_value_release(*self);
    return t;
}

/* The one element of t as an int, float or bool value (t has exactly one element). */
static TsValue only_elem(const TsTensor *t)
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
static int convert(TsCall *c, const char *op, Want want, bool implicit)
{
    TsValue a;
    TsTensor *t = pop_tensor(c, op, &a);
    if (!t)
        return c->error->code;
    int rc = 0;
    TsValue v = ts_none();
    if (implicit && t->dim != 0)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Cannot input a tensor of dimension other "
                          "than 0 as a scalar argument");
    else if (implicit && want == WANT_INT && !ts_dtype_is_integral(t->dtype, false))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Cannot input a tensor of type %s as an "
                          "integral argument", ts_dtype_type_name(t->dtype));
    else if (!(rc = one_element(c, t))) {
        v = only_elem(t);
        int64_t i;
        if (want == WANT_INT && !(rc = to_int(c, v, &i)))
            v = ts_int(i);
        else if (want == WANT_FLOAT)
            v = ts_double(to_double(v));
    }
    ts_value_release(a);
    return rc ? rc : ts_stack_push(c->stack, v, c->error);
}

/* aten::Int.Tensor(Tensor a) -> int */
static int k_int(TsCall *c) { return convert(c, "aten::Int", WANT_INT, false); }
/* aten::Float.Tensor(Tensor a) -> float */
static int k_float(TsCall *c) { return convert(c, "aten::Float", WANT_FLOAT, false); }
/* aten::IntImplicit(Tensor a) -> int */
static int k_int_implicit(TsCall *c) { return convert(c, "aten::IntImplicit", WANT_INT, true); }
/* aten::FloatImplicit(Tensor a) -> float */
static int k_float_implicit(TsCall *c)
{
    return convert(c, "aten::FloatImplicit", WANT_FLOAT, true);
}
/* aten::ScalarImplicit(Tensor a) -> Scalar */
static int k_scalar_implicit(TsCall *c)
{
    return convert(c, "aten::ScalarImplicit", WANT_SCALAR, true);
}

/* aten::Bool.Tensor(Tensor a) -> bool: Tensor.is_nonzero (nan is true). */
static int k_bool(TsCall *c)
{
    TsValue a;
    TsTensor *t = pop_tensor(c, "aten::Bool", &a);
    if (!t)
        return c->error->code;
    int64_t n = ts_tensor_numel(t);
    int rc = 0;
    bool b = false;
    if (n == 0)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Boolean value of Tensor with no values is "
                          "ambiguous");
    else if (n > 1)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Boolean value of Tensor with more than one "
                          "value is ambiguous");
    else {
        TsValue v = only_elem(t);
        b = v.tag == TS_TAG_BOOL ? v.u.b : v.tag == TS_TAG_INT ? v.u.i != 0 : v.u.d != 0.0;
    }
    ts_value_release(a);
    return rc ? rc : ts_stack_push(c->stack, ts_bool(b), c->error);
}

/* The prim:: flags of a tensor (x.requires_grad, x.is_cuda, ...): which one is the op's
 * name; a cpu tensor is strided and not quantized, dense unless nested (nested.h), and
 * nothing here records grads. */
static int tensor_flag(TsCall *c, const char *op)
{
    TsValue a;
    TsTensor *t = pop_tensor(c, op, &a);
    if (!t)
        return c->error->code;
    bool b = strcmp(op, "prim::requires_grad") == 0 ? t->requires_grad != 0
             : strcmp(op, "prim::is_cuda") == 0     ? t->device.type == TS_DEV_CUDA
             : strcmp(op, "prim::is_nested") == 0   ? ts_cpu_nested_lengths(t) != NULL
                                                    : false;
    ts_value_release(a);
    return ts_stack_push(c->stack, ts_bool(b), c->error);
}

static int k_requires_grad(TsCall *c) { return tensor_flag(c, "prim::requires_grad"); }
static int k_is_cuda(TsCall *c) { return tensor_flag(c, "prim::is_cuda"); }
static int k_is_sparse(TsCall *c) { return tensor_flag(c, "prim::is_sparse"); }
static int k_is_quantized(TsCall *c) { return tensor_flag(c, "prim::is_quantized"); }
static int k_is_meta(TsCall *c) { return tensor_flag(c, "prim::is_meta"); }
static int k_is_mkldnn(TsCall *c) { return tensor_flag(c, "prim::is_mkldnn"); }
static int k_is_nested(TsCall *c) { return tensor_flag(c, "prim::is_nested"); }

/* prim::data(Tensor(a) a) -> Tensor(a): the same data, without autograd (which is not here) */
static int k_data(TsCall *c)
{
    TsValue a;
    if (!pop_tensor(c, "prim::data", &a))
        return c->error->code;
    return ts_stack_push(c->stack, a, c->error);
}

/* prim::dtype(Tensor a) -> int */
static int k_dtype(TsCall *c)
{
    TsValue a;
    TsTensor *t = pop_tensor(c, "prim::dtype", &a);
    if (!t)
        return c->error->code;
    int64_t d = t->dtype;
    ts_value_release(a);
    return ts_stack_push(c->stack, ts_int(d), c->error);
}

/* prim::device(Tensor a) -> Device */
static int k_device_of(TsCall *c)
{
    TsValue a;
    TsTensor *t = pop_tensor(c, "prim::device", &a);
    if (!t)
        return c->error->code;
    TsDevice d = t->device;
    ts_value_release(a);
    return ts_stack_push(c->stack, ts_device(d), c->error);
}

/* Facts of a tensor's dtype: is_floating_point, is_signed, is_complex (-> bool) and
 * element_size (-> int). */
typedef enum DtypeFact { IS_FLOATING, IS_SIGNED, IS_COMPLEX, ELEMENT_SIZE } DtypeFact;

static int dtype_fact(TsCall *c, const char *op, DtypeFact f)
{
    TsValue a;
    TsTensor *t = pop_tensor(c, op, &a);
    if (!t)
        return c->error->code;
    int d = t->dtype;
    ts_value_release(a);
    bool b = f == IS_FLOATING ? ts_dtype_is_floating(d)
             : f == IS_SIGNED ? d != TS_UINT8 && d != TS_BOOL
                              : false;    /* the cpu backend has no complex dtypes */
    TsValue v = f == ELEMENT_SIZE ? ts_int((int64_t)ts_dtype_size(d)) : ts_bool(b);
    return ts_stack_push(c->stack, v, c->error);
}

static int k_is_floating_point(TsCall *c)
{
    return dtype_fact(c, "aten::is_floating_point", IS_FLOATING);
}
static int k_is_signed(TsCall *c) { return dtype_fact(c, "aten::is_signed", IS_SIGNED); }
static int k_is_complex(TsCall *c) { return dtype_fact(c, "aten::is_complex", IS_COMPLEX); }
static int k_element_size(TsCall *c) { return dtype_fact(c, "aten::element_size", ELEMENT_SIZE); }

/* promote_types(ScalarType type1, ScalarType type2) -> ScalarType and
 * can_cast(ScalarType from, ScalarType to) -> bool: the dtype rules themselves. */
static int dtype_pair(TsCall *c, const char *op, bool cast)
{
    TsValue a[2];
    ts_cpu_pop_args(c, 2, a);
    int d[2];
    for (int i = 0; i < 2; i++) {
        d[i] = a[i].tag == TS_TAG_INT ? (int)a[i].u.i : -1;
        if (d[i] < 0 || d[i] >= TS_DTYPE__COUNT || ts_aten_promote_types(d[i], d[i]) < 0)
            return ts_error_set(c->error, TS_ERR_RUNTIME, "%s: dtype %d is not supported by "
                                "the cpu backend", op, d[i]);
    }
    TsValue r = cast ? ts_bool(ts_aten_can_cast(d[0], d[1]))
                     : ts_int(ts_aten_promote_types(d[0], d[1]));
    return ts_stack_push(c->stack, r, c->error);
}

static int k_promote_types(TsCall *c) { return dtype_pair(c, "aten::promote_types", false); }
static int k_can_cast(TsCall *c) { return dtype_pair(c, "aten::can_cast", true); }

/* prim::layout(Tensor a) -> Layout: every cpu tensor is strided (torch.strided is 0). */
static int k_layout(TsCall *c)
{
    TsValue a;
    if (!pop_tensor(c, "prim::layout", &a))
        return c->error->code;
    ts_value_release(a);
    return ts_stack_push(c->stack, ts_int(0), c->error);
}

/* aten::len.Tensor(Tensor t) -> int */
static int k_len(TsCall *c)
{
    TsValue a;
    TsTensor *t = pop_tensor(c, "aten::len", &a);
    if (!t)
        return c->error->code;
    int64_t n = t->dim ? t->sizes[0] : 0;
    int dim = t->dim;
    ts_value_release(a);
    if (dim == 0)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "len() of a 0-d tensor");
    return ts_stack_push(c->stack, ts_int(n), c->error);
}

/* aten::device(str a) -> Device */
static int k_device(TsCall *c)
{
    TsValue a;
    ts_cpu_pop_args(c, 1, &a);
    TsDevice d;
    const TsStr *s = a.tag == TS_TAG_STR ? (const TsStr *)a.u.p : NULL;
    int rc = s ? ts_device_parse_n(s->data, s->len, &d, c->error)
                                 : ts_error_set(c->error, TS_ERR_TYPE, "aten::device: argument "
                                                "'a' must be a str");
    ts_value_release(a);
    return rc ? rc : ts_stack_push(c->stack, ts_device(d), c->error);
}

/* ---- torch.result_type ------------------------------------------------------------ */

/* The result dtype of the two arguments, each a tensor or a Scalar (wrapped as a Python
 * number is in arithmetic). */
static int result_type(TsCall *c)
{
    TsValue a[2];
    TsTensor *t[2] = { NULL, NULL };
    bool wrapped[2] = { false, false };
    int rc = 0;
    ts_cpu_pop_args(c, 2, a);
    for (int i = 0; !rc && i < 2; i++) {
        if (a[i].tag == TS_TAG_TENSOR) {
            t[i] = ts_cpu_tensor_arg(c, "aten::result_type", i ? "other" : "tensor", a[i]);
        } else {
            t[i] = ts_cpu_wrap_scalar(a[i], c->error);
            wrapped[i] = true;
        }
        if (!t[i])
            rc = c->error->code;
    }
    int dtype = rc ? -1 : ts_aten_result_type(2, t);
    if (!rc && dtype < 0)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "aten::result_type: the cpu backend does "
                          "not promote %s with %s", ts_dtype_type_name(t[0]->dtype),
                          ts_dtype_type_name(t[1]->dtype));
    for (int i = 0; i < 2; i++)
        if (wrapped[i] && t[i])
            ts_tensor_release(t[i]);
    ts_cpu_release_args(2, a);
    return rc ? rc : ts_stack_push(c->stack, ts_int(dtype), c->error);
}

static const TsCpuOp ops[] = {
    { "aten::is_floating_point", "", k_is_floating_point },
    { "aten::promote_types", "", k_promote_types },
    { "aten::can_cast", "", k_can_cast },
    { "aten::is_signed", "", k_is_signed },
    { "aten::is_complex", "", k_is_complex },
    { "aten::element_size", "", k_element_size },
    { "aten::Int", "Tensor", k_int },
    { "aten::Float", "Tensor", k_float },
    { "aten::Bool", "Tensor", k_bool },
    { "aten::IntImplicit", "", k_int_implicit },
    { "aten::FloatImplicit", "", k_float_implicit },
    { "aten::ScalarImplicit", "", k_scalar_implicit },
    { "prim::dtype", "", k_dtype },
    { "prim::requires_grad", "", k_requires_grad },
    { "prim::is_cuda", "", k_is_cuda },
    { "prim::is_sparse", "", k_is_sparse },
    { "prim::is_quantized", "", k_is_quantized },
    { "prim::is_meta", "", k_is_meta },
    { "prim::is_mkldnn", "", k_is_mkldnn },
    { "prim::is_nested", "", k_is_nested },
    { "prim::data", "", k_data },
    { "prim::device", "", k_device_of },
    { "prim::layout", "", k_layout },
    { "aten::len", "Tensor", k_len },
    { "aten::device", "", k_device },
    { "aten::result_type", "Tensor", result_type },
    { "aten::result_type", "Scalar", result_type },
    { "aten::result_type", "Scalar_Tensor", result_type },
    { "aten::result_type", "Scalar_Scalar", result_type },
};

const TsCpuTable ts_cpu_query_table = { ops, sizeof ops / sizeof ops[0] };
