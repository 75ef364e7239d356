/* ternary.c — pointwise ops of three operands: lerp (self, end and a Scalar or Tensor
 * weight), addcmul and addcdiv (self + value * tensor1 op tensor2), and addr (beta * self +
 * alpha * outer(vec1, vec2), the vectors viewed as a column and a row so the engine
 * broadcasts them).
 *
 * Each runs through the elementwise engine with three inputs, with the value, weight or
 * beta/alpha in the loop's arguments, and makes PyTorch's own checks first: lerp takes no
 * promotion (every tensor has self's dtype), addcdiv refuses integer division, addcmul and
 * addcdiv have no bool or float16 kernels, and addr's self must expand to the product's shape.
 */
#include "engine/elementwise.h"

#define U64(v) ((uint64_t)(int64_t)(v))

/* The end of every kernel here: push the new tensor, or give back the argument that was
 * written (self in place, out at out_index for out=), and release the arguments. */
static int finish(TsArgs *a, int rc, TsCpuEwMode mode, TsTensor *out, size_t out_index)
{
    if (mode == TS_EW_NEW)
        return ts_args_return_tensor(a, rc, rc ? NULL : out);
    return ts_args_return_arg(a, rc, mode == TS_EW_OUT ? out_index : 0);
}

/* The strided loop of a three-input op, (out, v, x, y), each element EXPR of v, x and y. */
#define TERNARY_LOOP(DT, T, OP, EXPR) \
    static void OP##_##DT(char **p, const int64_t *s, int64_t n, TsCpuEwArgs *args) \
    { \
        typedef T scalar_t; \
        (void)sizeof(scalar_t); \
        (void)args; \
        char *po = p[0], *pv = p[1], *px = p[2], *py = p[3]; \
        for (int64_t k = 0; k < n; k++, po += s[0], pv += s[1], px += s[2], py += s[3]) { \
            T v = *(const T *)pv, x = *(const T *)px, y = *(const T *)py; \
            *(T *)po = (T)(EXPR); \
        } \
    }

/* ---- lerp: self + weight * (end - self), from whichever end is nearer for accuracy ---- */

#define LERP(x, y, w) \
    ((w) < (scalar_t)0.5 ? (x) + (w) * ((y) - (x)) : (y) - ((y) - (x)) * (1 - (w)))
/* lerp.Scalar: the weight is args->d[0] */
#define LERP_SCALAR_LOOP(DT, T, OP) EW_BINARY(DT, T, OP, T, LERP(x, y, (scalar_t)args->d[0]))
EW_FLOAT_TYPES(LERP_SCALAR_LOOP, lerp_scalar)
/* lerp.Tensor: (out, self, end, weight) */
EW_FLOAT_TYPES(TERNARY_LOOP, lerp_tensor, LERP(v, x, y))
static const TsCpuLoop lerp_scalar_loops[TS_DTYPE__COUNT] = {
    EW_FLOAT_TYPES(EW_ENTRY, lerp_scalar) };
static const TsCpuLoop lerp_tensor_loops[TS_DTYPE__COUNT] = {
    EW_FLOAT_TYPES(EW_ENTRY, lerp_tensor) };
/* named for PyTorch's '"lerp_kernel_scalar" not implemented' (checked before the engine) */
static const TsCpuEwOp ew_lerp_scalar = { "lerp_kernel_scalar", TS_EW_SAME, false,
                                          lerp_scalar_loops };
static const TsCpuEwOp ew_lerp_tensor = { "lerp_kernel_tensor", TS_EW_SAME, false,
                                          lerp_tensor_loops };

/* The C++ type name PyTorch's lerp messages print for a dtype. */
static const char *cxx_type(int dtype)
{
    return dtype == TS_FLOAT16 ? "c10::Half" : dtype == TS_BFLOAT16 ? "c10::BFloat16"
                                                                     : ts_dtype_name(dtype);
}

/* lerp.Scalar(Tensor self, Tensor end, Scalar weight), lerp.Tensor(..., Tensor weight), their
 * out= and in-place forms: no promotion, end and weight must have self's dtype. */
static int lerp_call(TsCall *c, bool tensor_weight, TsCpuEwMode mode)
{
    TsArgs a;
    TsTensor *in[3] = { NULL, NULL, NULL }, *out = NULL;
    TsCpuEwArgs args = { { 0, 0, 0 }, { 0, 0 }, 0 };
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    for (size_t i = 0; !rc && i < (tensor_weight ? 3 : 2); i++) {
        /* PyTorch's message names the argument as the schema does */
        if (!(rc = ts_args_tensor(&a, i, &in[i])) && i && in[i]->dtype != in[0]->dtype)
            rc = ts_error_set(c->error, TS_ERR_RUNTIME, "expected dtype %s for `%s` but got "
                              "dtype %s", cxx_type(in[0]->dtype), ts_args_name(&a, i),
                              cxx_type(in[i]->dtype));
    }
    /* PyTorch 1.13's cpu lerp kernels have no float16 either */
    if (!rc && (!ts_dtype_is_floating(in[0]->dtype) || in[0]->dtype == TS_FLOAT16))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "\"%s\" not implemented for '%s'",
                          tensor_weight ? "lerp_kernel_tensor" : "lerp_kernel_scalar",
                          ts_dtype_type_name(in[0]->dtype));
    if (!rc && !tensor_weight) {
        if (a.v[2].tag == TS_TAG_DOUBLE)
            args.d[0] = a.v[2].u.d;
        else if (a.v[2].tag == TS_TAG_INT)
            args.d[0] = (double)a.v[2].u.i;
        else
            rc = ts_error_set(c->error, TS_ERR_TYPE, "%s: %s must be a number",
                              ts_args_op_name(&a), ts_args_name(&a, 2));
    }
    if (!rc && mode == TS_EW_OUT)
        rc = ts_args_tensor(&a, 3, &out);
    if (!rc && mode == TS_EW_INPLACE)
        out = in[0];
    if (!rc)
        rc = ts_cpu_ew(tensor_weight ? &ew_lerp_tensor : &ew_lerp_scalar, tensor_weight ? 3 : 2,
                       in, &out, mode, &args, c->error);
    return finish(&a, rc, mode, out, 3);
}

static int k_lerp_s(TsCall *c) { return lerp_call(c, false, TS_EW_NEW); }
static int k_lerp_t(TsCall *c) { return lerp_call(c, true, TS_EW_NEW); }
static int k_lerp_s_out(TsCall *c) { return lerp_call(c, false, TS_EW_OUT); }
static int k_lerp_t_out(TsCall *c) { return lerp_call(c, true, TS_EW_OUT); }
static int k_lerp_s_(TsCall *c) { return lerp_call(c, false, TS_EW_INPLACE); }
static int k_lerp_t_(TsCall *c) { return lerp_call(c, true, TS_EW_INPLACE); }

/* ---- addr: beta * self + alpha * outer(vec1, vec2) ------------------------------------ */

/* (out, self, vec1 as a column, vec2 as a row); args: d = { beta, alpha }, i the same as
 * integers; beta 0 ignores self (nan and inf in it too), as PyTorch does. */
EW_INT_TYPES(TERNARY_LOOP, addr, (args->i[0] ? U64(args->i[0]) * U64(v) : 0) +
                                  U64(args->i[1]) * U64(x) * U64(y))
EW_FLOAT_TYPES(TERNARY_LOOP, addr, (args->d[0] != 0 ? (scalar_t)args->d[0] * v : 0) +
                                    (scalar_t)args->d[1] * x * y)
EW_BOOL_TYPES(TERNARY_LOOP, addr, (args->i[0] && v) || (args->i[1] && x && y))
static const TsCpuLoop addr_loops[TS_DTYPE__COUNT] = {
    EW_INT_TYPES(EW_ENTRY, addr) EW_FLOAT_TYPES(EW_ENTRY, addr) EW_BOOL_TYPES(EW_ENTRY, addr) };
static const TsCpuEwOp ew_addr = { "addr", TS_EW_SAME, false, addr_loops };

/* addr(Tensor self, Tensor vec1, Tensor vec2, *, Scalar beta=1, Scalar alpha=1), its out=
 * form and addr_: the engine broadcasts self against the outer product's shape. */
static int addr_call(TsCall *c, TsCpuEwMode mode)
{
    TsArgs a;
    TsTensor *in[3] = { NULL, NULL, NULL }, *out = NULL;
    TsCpuEwArgs args = { { 0, 0, 0 }, { 0, 0 }, 0 };
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (rc)
        return ts_args_fail(&a, rc);
    if (!(rc = ts_args_tensor(&a, 0, &in[0])))
        ts_tensor_retain(in[0]);
    for (int i = 1; !rc && i < 3; i++) {
        TsTensor *v;
        if ((rc = ts_args_tensor(&a, (size_t)i, &v)))
            break;
        if (v->dim != 1) {
            rc = ts_error_set(c->error, TS_ERR_RUNTIME, "addr: Expected 1-D argument vec%d, but "
                              "got %d-D", i, (int)v->dim);
            break;
        }
        int64_t sizes[2] = { i == 1 ? v->sizes[0] : 1, i == 1 ? 1 : v->sizes[0] };
        int64_t strides[2] = { i == 1 ? v->strides[0] : 0, i == 1 ? 0 : v->strides[0] };
        if (!(in[i] = ts_aten_view(v, 2, sizes, strides, v->offset, c->error)))
            rc = c->error->code;
    }
    for (int k = 0; !rc && k < 2; k++) {
        TsValue v = a.v[3 + k];
        args.d[k] = v.tag == TS_TAG_DOUBLE ? v.u.d : v.tag == TS_TAG_INT ? (double)v.u.i
                                                                          : (double)v.u.b;
        args.i[k] = v.tag == TS_TAG_INT ? v.u.i : v.tag == TS_TAG_BOOL ? v.u.b
                                                                       : (int64_t)v.u.d;
    }
    /* self must expand to the product's shape (expand's message) */
    int64_t shape[2] = { in[1] ? in[1]->sizes[0] : 0, in[2] ? in[2]->sizes[1] : 0 };
    for (int i = 0; !rc && i < in[0]->dim; i++) {
        int d = 2 - in[0]->dim + i;
        if (d < 0 || (in[0]->sizes[i] != 1 && in[0]->sizes[i] != shape[d])) {
            char want[64], have[256];
            ts_aten_format_sizes(want, sizeof want, 2, shape);
            ts_aten_format_sizes(have, sizeof have, in[0]->dim, in[0]->sizes);
            rc = d < 0 ? ts_error_set(c->error, TS_ERR_RUNTIME, "The number of sizes provided "
                                      "(2) must be greater or equal to the number of dimensions "
                                      "in the tensor (%d)", (int)in[0]->dim)
                       : ts_error_set(c->error, TS_ERR_RUNTIME, "The expanded size of the "
                                      "tensor (%lld) must match the existing size (%lld) at "
                                      "non-singleton dimension %d.  Target sizes: %s.  Tensor "
                                      "sizes: %s", (long long)shape[d],
                                      (long long)in[0]->sizes[i], d, want, have);
        }
    }
    if (!rc && mode == TS_EW_OUT)
        rc = ts_args_tensor(&a, 5, &out);
    if (!rc && mode == TS_EW_INPLACE)
        out = in[0];
    if (!rc)
        rc = ts_cpu_ew(&ew_addr, 3, in, &out, mode, &args, c->error);
    for (int i = 0; i < 3; i++)
        if (in[i])
            ts_tensor_release(in[i]);
    return finish(&a, rc, mode, out, 5);
}

static int k_addr(TsCall *c) { return addr_call(c, TS_EW_NEW); }
static int k_addr_out(TsCall *c) { return addr_call(c, TS_EW_OUT); }
static int k_addr_(TsCall *c) { return addr_call(c, TS_EW_INPLACE); }

/* ---- addcmul, addcdiv: self + value * tensor1 (* or /) tensor2 ---------------------- */

/* (out, self, tensor1, tensor2); the value is args->d[0] (args->i[0] for integers: PyTorch
 * converts it to the result's dtype first). */
EW_INT_TYPES(TERNARY_LOOP, addcmul, U64(v) + U64(args->i[0]) * U64(x) * U64(y))
EW_FLOAT_TYPES(TERNARY_LOOP, addcmul, v + (scalar_t)args->d[0] * x * y)
EW_FLOAT_TYPES(TERNARY_LOOP, addcdiv, v + (scalar_t)args->d[0] * (x / y))
static const TsCpuLoop addcmul_loops[TS_DTYPE__COUNT] = {
    EW_INT_TYPES(EW_ENTRY, addcmul) EW_FLOAT_TYPES(EW_ENTRY, addcmul) };
static const TsCpuLoop addcdiv_loops[TS_DTYPE__COUNT] = { EW_FLOAT_TYPES(EW_ENTRY, addcdiv) };
static const TsCpuEwOp ew_addcmul = { "addcmul", TS_EW_SAME, false, addcmul_loops };
static const TsCpuEwOp ew_addcdiv = { "addcdiv", TS_EW_SAME, false, addcdiv_loops };

/* addcmul/addcdiv(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1), their out=
 * forms and in-place forms, with PyTorch's checks. */
static int addc_call(TsCall *c, bool div, TsCpuEwMode mode)
{
    const TsCpuEwOp *ew = div ? &ew_addcdiv : &ew_addcmul;
    TsArgs a;
    TsTensor *in[3] = { NULL, NULL, NULL }, *out = NULL;
    TsCpuEwArgs args = { { 0, 0, 0 }, { 0, 0 }, 0 };
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    for (size_t i = 0; !rc && i < 3; i++)
        rc = ts_args_tensor(&a, i, &in[i]);
    if (!rc && div && ts_dtype_is_integral(in[1]->dtype, true) &&
        ts_dtype_is_integral(in[2]->dtype, true))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Integer division with addcdiv is no longer "
                          "supported, and in a future  release addcdiv will perform a true "
                          "division of tensor1 and tensor2. The historic addcdiv behavior can "
                          "be implemented as (input + value * torch.trunc(tensor1 / tensor2))"
                          ".to(input.dtype) for integer inputs and as (input + value * tensor1 "
                          "/ tensor2) for float inputs. The future addcdiv behavior is just the "
                          "latter implementation: (input + value * tensor1 / tensor2), for all "
                          "dtypes.");
    int dt = rc ? 0 : ts_aten_result_type(3, in);
    if (!rc && (dt == TS_BOOL || dt == TS_FLOAT16))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "\"%s_cpu_out\" not implemented for '%s'",
                          ew->name, ts_dtype_type_name(dt));
    if (!rc) {
        TsValue v = a.v[3];
        args.d[0] = v.tag == TS_TAG_DOUBLE ? v.u.d : v.tag == TS_TAG_INT ? (double)v.u.i
                                                                          : (double)v.u.b;
        args.i[0] = v.tag == TS_TAG_INT ? v.u.i : v.tag == TS_TAG_BOOL ? v.u.b
                                                                       : (int64_t)v.u.d;
    }
    if (!rc && mode == TS_EW_OUT)
        rc = ts_args_tensor(&a, 4, &out);
    if (!rc && mode == TS_EW_INPLACE)
        out = in[0];
    if (!rc)
        rc = ts_cpu_ew(ew, 3, in, &out, mode, &args, c->error);
    return finish(&a, rc, mode, out, 4);
}

static int k_addcmul(TsCall *c) { return addc_call(c, false, TS_EW_NEW); }
static int k_addcmul_out(TsCall *c) { return addc_call(c, false, TS_EW_OUT); }
static int k_addcmul_(TsCall *c) { return addc_call(c, false, TS_EW_INPLACE); }
static int k_addcdiv(TsCall *c) { return addc_call(c, true, TS_EW_NEW); }
static int k_addcdiv_out(TsCall *c) { return addc_call(c, true, TS_EW_OUT); }
static int k_addcdiv_(TsCall *c) { return addc_call(c, true, TS_EW_INPLACE); }

static const TsCpuOp ops[] = {
    { "aten::addcmul", "", k_addcmul }, { "aten::addcmul", "out", k_addcmul_out },
    { "aten::addcmul_", "", k_addcmul_ }, { "aten::addcdiv", "", k_addcdiv },
    { "aten::addcdiv", "out", k_addcdiv_out }, { "aten::addcdiv_", "", k_addcdiv_ },
    { "aten::addr", "", k_addr }, { "aten::addr", "out", k_addr_out },
    { "aten::addr_", "", k_addr_ },
    { "aten::lerp", "Scalar", k_lerp_s }, { "aten::lerp", "Tensor", k_lerp_t },
    { "aten::lerp", "Scalar_out", k_lerp_s_out }, { "aten::lerp", "Tensor_out", k_lerp_t_out },
    { "aten::lerp_", "Scalar", k_lerp_s_ }, { "aten::lerp_", "Tensor", k_lerp_t_ },
};

const TsCpuTable ts_cpu_ternary_table = { ops, sizeof ops / sizeof ops[0] };
