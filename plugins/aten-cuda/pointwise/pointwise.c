/* pointwise.c — the pointwise operators on the GPU: arithmetic, comparisons, logic, the math
 * functions and activations, where, clamp and masked_fill, each as a new tensor or in place.
 *
 * One binding path serves them all: the arguments are read by their schema names (self,
 * other or exponent, alpha, rounding_mode, and the activations' parameters), the result
 * dtype follows PyTorch's promotion (aten-common), inputs of another dtype are cast first,
 * and the operation runs as one launch of the generic kernel family (kernels.cu). A number
 * operand (x + 1) travels in the launch's arguments; a 0-dim cpu tensor operand is read as
 * such a number, promoting as a 0-dim tensor does.
 */
#include <string.h>

#include "engine/cuda.h"

/* The value of argument `name`, or NULL when the schema has none. */
static const TsValue *arg_named(const TsArgs *a, const char *name)
{
    for (size_t i = 0; i < a->n; i++) {
        const char *n = ts_operator_arg_name(a->call->op, i);
        if (n && strcmp(n, name) == 0)
            return &a->v[i];
    }
    return NULL;
}

static double number(const TsValue *v, double dflt)
{
    if (!v)
        return dflt;
    switch (v->tag) {
    case TS_TAG_INT: return (double)v->u.i;
    case TS_TAG_DOUBLE: return v->u.d;
    case TS_TAG_BOOL: return v->u.b;
    default: return dflt;
    }
}

static int64_t integer(const TsValue *v, int64_t dflt)
{
    if (!v)
        return dflt;
    switch (v->tag) {
    case TS_TAG_INT: return v->u.i;
    case TS_TAG_DOUBLE: return (int64_t)v->u.d;
    case TS_TAG_BOOL: return v->u.b;
    default: return dflt;
    }
}

/* Is the operator an in-place one (add_, relu_)? */
static bool in_place(const TsArgs *a)
{
    const char *name = ts_args_op_name(a);
    size_t len = strlen(name);
    return len > 1 && name[len - 1] == '_' && name[len - 2] != '_';
}

/* An operand: a GPU tensor, or a number (a Scalar, or a 0-dim tensor of another device read
 * on the host) with a stand-in tensor for promotion. */
typedef struct Operand {
    TsTensor *t;               /* the GPU tensor (borrowed), or NULL for a number */
    TsTensor stand_in;         /* dtype, dim 0 and the wrapped flag, for promotion only */
    double d;
    int64_t i;
} Operand;

static int read_operand(TsArgs *a, size_t idx, Operand *o)
{
    TsValue v = a->v[idx];
    memset(o, 0, sizeof *o);
    if (v.tag == TS_TAG_TENSOR) {
        TsTensor *t = (TsTensor *)v.u.p;
        if (t->device.type == TS_DEV_CUDA) {
            o->t = t;
            return 0;
        }
        if (t->dim != 0 || !t->storage || (t->storage->allocator && t->storage->allocator->copy))
            return ts_args_tensor(a, idx, &o->t);   /* says which device it expected */
        /* a 0-dim tensor in host memory: read its one element */
        o->stand_in.dtype = t->dtype;
        const void *p = ts_tensor_data(t);
        switch (t->dtype) {
        case TS_FLOAT32: o->d = *(const float *)p; break;
        case TS_FLOAT64: o->d = *(const double *)p; break;
        case TS_INT64: o->i = *(const int64_t *)p; break;
        case TS_INT32: o->i = *(const int32_t *)p; break;
        case TS_INT16: o->i = *(const int16_t *)p; break;
        case TS_INT8: o->i = *(const int8_t *)p; break;
        case TS_UINT8: o->i = *(const uint8_t *)p; break;
        case TS_BOOL: o->i = *(const bool *)p; break;
        case TS_FLOAT16: o->d = ts_aten_half_to_float(*(const uint16_t *)p); break;
        case TS_BFLOAT16: o->d = ts_aten_bf16_to_float(*(const uint16_t *)p); break;
        default:
            return ts_args_tensor(a, idx, &o->t);
        }
        if (ts_dtype_is_floating(t->dtype))
            o->i = (int64_t)o->d;
        else
            o->d = (double)o->i;
        return 0;
    }
    if (v.tag != TS_TAG_INT && v.tag != TS_TAG_DOUBLE && v.tag != TS_TAG_BOOL)
        return ts_args_tensor(a, idx, &o->t);
    o->stand_in.dtype = (int8_t)ts_aten_scalar_dtype(v);
    o->stand_in.flags = TS_ATEN_WRAPPED;
    o->d = number(&v, 0);
    o->i = integer(&v, 0);
    return 0;
}

static TsTensor *as_tensor(Operand *o)
{
    return o->t ? o->t : &o->stand_in;
}

/* The inputs cast to dtype where they differ; *owned receives what was made (release). */
static int cast_inputs(int n, TsTensor **in, int dtype, TsTensor **owned, TsError *err)
{
    for (int k = 0; k < n; k++) {
        if (in[k] && in[k]->dtype != dtype) {
            if (!(owned[k] = ts_cuda_cast(in[k], dtype, err)))
                return err->code;
            in[k] = owned[k];
        }
    }
    return 0;
}

/* Runs op over the inputs (NULL for the number operand, which is in args) into a result of
 * out_dtype: a new tensor, or self in place. */
static int run(TsArgs *a, TsCudaEwOp op, int nin, TsTensor **in, int compute, int out_dtype,
               TsCudaEwArgs *args, TsTensor *self_inplace, TsTensor **result)
{
    TsError *err = a->call->error;
    TsTensor *owned[3] = { NULL, NULL, NULL }, *present[3];
    int n = 0, dim;
    int64_t sizes[TS_TENSOR_MAX_DIMS];
    for (int k = 0; k < nin; k++)
        if (in[k])
            present[n++] = in[k];
    int rc = ts_aten_broadcast_shape(n, present, &dim, sizes, err);
    TsTensor *out = NULL;
    if (!rc && self_inplace) {
        if (!ts_aten_same_shape(self_inplace, dim, sizes)) {
            char want[128], got[128];
            ts_aten_format_sizes(want, sizeof want, self_inplace->dim, self_inplace->sizes);
            ts_aten_format_sizes(got, sizeof got, dim, sizes);
            return ts_error_set(err, TS_ERR_RUNTIME, "output with shape %s doesn't match the "
                                "broadcast shape %s", want, got);
        }
        if (!ts_aten_can_cast(out_dtype, self_inplace->dtype))
            return ts_error_set(err, TS_ERR_RUNTIME, "result type %s can't be cast to the "
                                "desired output type %s", ts_dtype_type_name(out_dtype),
                                ts_dtype_type_name(self_inplace->dtype));
        if (self_inplace->dtype == out_dtype) {
            out = self_inplace;
            ts_tensor_retain(out);
        }
    }
    /* where's condition stays bool: only the values take the computing dtype */
    int first = op == TS_CUDA_WHERE ? 1 : 0;
    if (!rc)
        rc = cast_inputs(nin - first, in + first, compute, owned + first, err);
    if (!rc && !out &&
        !(out = ts_cuda_empty_on(present[0]->device, out_dtype, dim, sizes, err)))
        rc = err->code;
    if (!rc) {
        TsTensor *ops[TS_CUDA_MAX_OPERANDS] = { out };
        int nop = 1;
        for (int k = 0; k < nin; k++)
            if (in[k])
                ops[nop++] = in[k];
        TsCudaIter it;
        rc = ts_cuda_iter_init(&it, nop, ops, err);
        if (!rc)
            rc = ts_cuda_launch_ew(op, compute, &it, args, err);
    }
    if (!rc && self_inplace && out != self_inplace)
        rc = ts_cuda_copy_into(self_inplace, out, err);
    for (int k = 0; k < nin; k++)
        if (owned[k])
            ts_tensor_release(owned[k]);
    if (rc || self_inplace) {
        if (out)
            ts_tensor_release(out);
        out = NULL;
    }
    *result = out;
    return rc;
}

static int finish(TsArgs *a, int rc, TsTensor *self_inplace, TsTensor *r)
{
    if (self_inplace)
        return ts_args_return_arg(a, rc, 0);
    return ts_args_return_tensor(a, rc, r);
}

/* ---- binary ------------------------------------------------------------------------ */

static int binary(TsCall *c, TsCudaEwOp op)
{
    TsArgs a;
    TsTensor *self, *r = NULL;
    Operand other;
    int rc = ts_args_pop(c, TS_DEV_CUDA, &a);
    if (!rc)
        rc = ts_args_tensor(&a, 0, &self);
    if (!rc)
        rc = read_operand(&a, 1, &other);
    if (rc)
        return ts_args_fail(&a, rc);
    const TsValue *mode = arg_named(&a, "rounding_mode");
    if (op == TS_CUDA_DIV && mode && mode->tag == TS_TAG_STR) {
        const char *m = ((const TsStr *)mode->u.p)->data;
        if (strcmp(m, "trunc") == 0)
            op = TS_CUDA_DIV_TRUNC;
        else if (strcmp(m, "floor") == 0)
            op = TS_CUDA_DIV_FLOOR;
        else
            return ts_args_fail(&a, ts_error_set(c->error, TS_ERR_RUNTIME, "div expected "
                                "rounding_mode to be one of None, 'trunc', or 'floor' but "
                                "found '%s'", m));
    }
    TsTensor *pair[2] = { self, as_tensor(&other) };
    int compute = ts_aten_result_type(2, pair), out_dtype = compute;
    if (op == TS_CUDA_DIV && !ts_dtype_is_floating(compute))
        compute = out_dtype = TS_FLOAT32;
    if (op == TS_CUDA_POW && ts_dtype_is_integral(compute, true) && !other.t &&
        other.i < 0 && ts_dtype_is_integral(other.stand_in.dtype, true))
        return ts_args_fail(&a, ts_error_set(c->error, TS_ERR_RUNTIME, "Integers to negative "
                                             "integer powers are not allowed."));
    if (op >= TS_CUDA_EQ && op <= TS_CUDA_LOGICAL_XOR)
        out_dtype = TS_BOOL;
    if (compute < 0)
        return ts_args_fail(&a, ts_error_set(c->error, TS_ERR_RUNTIME, "%s: unsupported "
                                             "dtypes", ts_args_op_name(&a)));
    const TsValue *alpha = arg_named(&a, "alpha");
    TsCudaEwArgs args = { number(alpha, 1), 0, 0, integer(alpha, 1), 0, false, false };
    args.b = other.d;
    args.ib = other.i;
    TsTensor *in[2] = { self, other.t };
    TsTensor *target = in_place(&a) ? self : NULL;
    rc = run(&a, op, 2, in, compute, out_dtype, &args, target, &r);
    return finish(&a, rc, target, r);
}

static int k_add(TsCall *c) { return binary(c, TS_CUDA_ADD); }
static int k_sub(TsCall *c) { return binary(c, TS_CUDA_SUB); }
static int k_mul(TsCall *c) { return binary(c, TS_CUDA_MUL); }
static int k_div(TsCall *c) { return binary(c, TS_CUDA_DIV); }
static int k_floor_divide(TsCall *c) { return binary(c, TS_CUDA_DIV_FLOOR); }
static int k_remainder(TsCall *c) { return binary(c, TS_CUDA_REMAINDER); }
static int k_fmod(TsCall *c) { return binary(c, TS_CUDA_FMOD); }
static int k_pow(TsCall *c) { return binary(c, TS_CUDA_POW); }
static int k_maximum(TsCall *c) { return binary(c, TS_CUDA_MAXIMUM); }
static int k_minimum(TsCall *c) { return binary(c, TS_CUDA_MINIMUM); }
static int k_atan2(TsCall *c) { return binary(c, TS_CUDA_ATAN2); }
static int k_bitand(TsCall *c) { return binary(c, TS_CUDA_BITAND); }
static int k_bitor(TsCall *c) { return binary(c, TS_CUDA_BITOR); }
static int k_bitxor(TsCall *c) { return binary(c, TS_CUDA_BITXOR); }
static int k_eq(TsCall *c) { return binary(c, TS_CUDA_EQ); }
static int k_ne(TsCall *c) { return binary(c, TS_CUDA_NE); }
static int k_lt(TsCall *c) { return binary(c, TS_CUDA_LT); }
static int k_le(TsCall *c) { return binary(c, TS_CUDA_LE); }
static int k_gt(TsCall *c) { return binary(c, TS_CUDA_GT); }
static int k_ge(TsCall *c) { return binary(c, TS_CUDA_GE); }
static int k_logical_and(TsCall *c) { return binary(c, TS_CUDA_LOGICAL_AND); }
static int k_logical_or(TsCall *c) { return binary(c, TS_CUDA_LOGICAL_OR); }
static int k_logical_xor(TsCall *c) { return binary(c, TS_CUDA_LOGICAL_XOR); }

/* ---- unary ------------------------------------------------------------------------- */

/* Ops that compute in floating point: an integral input gives a float32 result. */
static bool float_only(TsCudaEwOp op)
{
    switch (op) {
    case TS_CUDA_NEG: case TS_CUDA_ABS: case TS_CUDA_RELU: case TS_CUDA_SIGN:
    case TS_CUDA_SQUARE: case TS_CUDA_BITNOT: case TS_CUDA_CLAMP: case TS_CUDA_HARDTANH:
    case TS_CUDA_FLOOR: case TS_CUDA_CEIL: case TS_CUDA_ROUND: case TS_CUDA_TRUNC:
    case TS_CUDA_LOGICAL_NOT: case TS_CUDA_ISNAN:
        return false;
    default:
        return true;
    }
}

static int unary(TsCall *c, TsCudaEwOp op)
{
    TsArgs a;
    TsTensor *self, *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CUDA, &a);
    if (!rc)
        rc = ts_args_tensor(&a, 0, &self);
    if (rc)
        return ts_args_fail(&a, rc);
    int compute = self->dtype, out_dtype;
    if (float_only(op) && !ts_dtype_is_floating(compute))
        compute = TS_FLOAT32;
    if ((op == TS_CUDA_NEG) && compute == TS_BOOL)
        return ts_args_fail(&a, ts_error_set(c->error, TS_ERR_RUNTIME, "Negation, the `-` "
                                             "operator, on a bool tensor is not supported. If "
                                             "you are trying to invert a mask, use the `~` or "
                                             "`logical_not()` operator instead."));
    out_dtype = op == TS_CUDA_LOGICAL_NOT || op == TS_CUDA_ISNAN ? TS_BOOL : compute;
    TsCudaEwArgs args = { 0, 0, 0, 0, 0, false, false };
    const TsValue *v;
    switch (op) {
    case TS_CUDA_LEAKY_RELU:
        args.a = number(arg_named(&a, "negative_slope"), 0.01);
        break;
    case TS_CUDA_HARDTANH:
        args.a = number(arg_named(&a, "min_val"), -1);
        args.b = number(arg_named(&a, "max_val"), 1);
        args.ia = integer(arg_named(&a, "min_val"), -1);
        args.ib = integer(arg_named(&a, "max_val"), 1);
        break;
    case TS_CUDA_ELU:
        args.a = number(arg_named(&a, "alpha"), 1);
        args.b = number(arg_named(&a, "scale"), 1);
        args.c = number(arg_named(&a, "input_scale"), 1);
        break;
    case TS_CUDA_SOFTPLUS:
        args.a = number(arg_named(&a, "beta"), 1);
        args.b = number(arg_named(&a, "threshold"), 20);
        break;
    case TS_CUDA_GELU:
        v = arg_named(&a, "approximate");
        if (v && v->tag == TS_TAG_STR && strcmp(((const TsStr *)v->u.p)->data, "tanh") == 0)
            op = TS_CUDA_GELU_TANH;
        break;
    case TS_CUDA_CLAMP: {
        const TsValue *lo = arg_named(&a, "min"), *hi = arg_named(&a, "max");
        args.has_min = lo && lo->tag != TS_TAG_NONE;
        args.has_max = hi && hi->tag != TS_TAG_NONE;
        if (!args.has_min && !args.has_max)
            return ts_args_fail(&a, ts_error_set(c->error, TS_ERR_RUNTIME, "torch.clamp: At "
                                                 "least one of 'min' or 'max' must not be "
                                                 "None"));
        if ((args.has_min && lo->tag == TS_TAG_TENSOR) || (args.has_max && hi->tag == TS_TAG_TENSOR))
            return ts_args_fail(&a, ts_error_set(c->error, TS_ERR_RUNTIME, "%s: tensor bounds "
                                                 "are not implemented on cuda",
                                                 ts_args_op_name(&a)));
        /* a float bound on an integer tensor makes a float result */
        if (!ts_dtype_is_floating(compute) &&
            ((args.has_min && lo->tag == TS_TAG_DOUBLE) || (args.has_max && hi->tag == TS_TAG_DOUBLE)))
            compute = out_dtype = TS_FLOAT32;
        args.a = number(lo, 0);
        args.b = number(hi, 0);
        args.ia = integer(lo, 0);
        args.ib = integer(hi, 0);
        break;
    }
    default:
        break;
    }
    TsTensor *in[1] = { self };
    TsTensor *target = in_place(&a) ? self : NULL;
    rc = run(&a, op, 1, in, compute, out_dtype, &args, target, &r);
    return finish(&a, rc, target, r);
}

static int k_neg(TsCall *c) { return unary(c, TS_CUDA_NEG); }
static int k_abs(TsCall *c) { return unary(c, TS_CUDA_ABS); }
static int k_exp(TsCall *c) { return unary(c, TS_CUDA_EXP); }
static int k_exp2(TsCall *c) { return unary(c, TS_CUDA_EXP2); }
static int k_expm1(TsCall *c) { return unary(c, TS_CUDA_EXPM1); }
static int k_log(TsCall *c) { return unary(c, TS_CUDA_LOG); }
static int k_log2(TsCall *c) { return unary(c, TS_CUDA_LOG2); }
static int k_log10(TsCall *c) { return unary(c, TS_CUDA_LOG10); }
static int k_log1p(TsCall *c) { return unary(c, TS_CUDA_LOG1P); }
static int k_sqrt(TsCall *c) { return unary(c, TS_CUDA_SQRT); }
static int k_rsqrt(TsCall *c) { return unary(c, TS_CUDA_RSQRT); }
static int k_sin(TsCall *c) { return unary(c, TS_CUDA_SIN); }
static int k_cos(TsCall *c) { return unary(c, TS_CUDA_COS); }
static int k_tan(TsCall *c) { return unary(c, TS_CUDA_TAN); }
static int k_asin(TsCall *c) { return unary(c, TS_CUDA_ASIN); }
static int k_acos(TsCall *c) { return unary(c, TS_CUDA_ACOS); }
static int k_atan(TsCall *c) { return unary(c, TS_CUDA_ATAN); }
static int k_sinh(TsCall *c) { return unary(c, TS_CUDA_SINH); }
static int k_cosh(TsCall *c) { return unary(c, TS_CUDA_COSH); }
static int k_tanh(TsCall *c) { return unary(c, TS_CUDA_TANH); }
static int k_sigmoid(TsCall *c) { return unary(c, TS_CUDA_SIGMOID); }
static int k_relu(TsCall *c) { return unary(c, TS_CUDA_RELU); }
static int k_silu(TsCall *c) { return unary(c, TS_CUDA_SILU); }
static int k_gelu(TsCall *c) { return unary(c, TS_CUDA_GELU); }
static int k_erf(TsCall *c) { return unary(c, TS_CUDA_ERF); }
static int k_erfc(TsCall *c) { return unary(c, TS_CUDA_ERFC); }
static int k_floor(TsCall *c) { return unary(c, TS_CUDA_FLOOR); }
static int k_ceil(TsCall *c) { return unary(c, TS_CUDA_CEIL); }
static int k_round(TsCall *c) { return unary(c, TS_CUDA_ROUND); }
static int k_trunc(TsCall *c) { return unary(c, TS_CUDA_TRUNC); }
static int k_frac(TsCall *c) { return unary(c, TS_CUDA_FRAC); }
static int k_reciprocal(TsCall *c) { return unary(c, TS_CUDA_RECIPROCAL); }
static int k_sign(TsCall *c) { return unary(c, TS_CUDA_SIGN); }
static int k_square(TsCall *c) { return unary(c, TS_CUDA_SQUARE); }
static int k_logical_not(TsCall *c) { return unary(c, TS_CUDA_LOGICAL_NOT); }
static int k_bitnot(TsCall *c) { return unary(c, TS_CUDA_BITNOT); }
static int k_isnan(TsCall *c) { return unary(c, TS_CUDA_ISNAN); }
static int k_hardtanh(TsCall *c) { return unary(c, TS_CUDA_HARDTANH); }
static int k_leaky_relu(TsCall *c) { return unary(c, TS_CUDA_LEAKY_RELU); }
static int k_elu(TsCall *c) { return unary(c, TS_CUDA_ELU); }
static int k_softplus(TsCall *c) { return unary(c, TS_CUDA_SOFTPLUS); }
static int k_clamp(TsCall *c) { return unary(c, TS_CUDA_CLAMP); }

/* ---- where and masked_fill --------------------------------------------------------- */

/* A 0-dim GPU tensor of dtype holding a number operand (a fill: no copy from the host). */
static TsTensor *number_tensor(const Operand *o, int dtype, TsDevice dev, TsError *err)
{
    TsTensor *t = ts_cuda_empty_on(dev, dtype, 0, NULL, err);
    TsValue v = ts_dtype_is_floating(dtype) ? ts_double(o->d) : ts_int(o->i);
    if (t && ts_cuda_fill(t, v, err)) {
        ts_tensor_release(t);
        t = NULL;
    }
    return t;
}

/* out = cond ? x : y with x, y promoted; either may be a number. */
static int select_values(TsArgs *a, TsTensor *cond, Operand *x, Operand *y, TsTensor *inplace,
                         TsTensor **r)
{
    TsError *err = a->call->error;
    if (cond->dtype != TS_BOOL && cond->dtype != TS_UINT8)
        return ts_error_set(err, TS_ERR_RUNTIME, "where expected condition to be a boolean "
                            "tensor, but got a tensor with dtype %s", ts_dtype_type_name(cond->dtype));
    TsTensor *pair[2] = { as_tensor(x), as_tensor(y) };
    int dtype = inplace ? inplace->dtype : ts_aten_result_type(2, pair);
    TsTensor *xt = x->t, *yt = y->t, *made[2] = { NULL, NULL };
    if (!xt && !(xt = made[0] = number_tensor(x, dtype, cond->device, err)))
        return err->code;
    if (!yt && !(yt = made[1] = number_tensor(y, dtype, cond->device, err))) {
        ts_tensor_release(made[0]);
        return err->code;
    }
    TsTensor *c8 = NULL;
    int rc = 0;
    if (cond->dtype != TS_BOOL && !(cond = c8 = ts_cuda_cast(cond, TS_BOOL, err)))
        rc = err->code;
    TsTensor *in[3] = { cond, xt, yt };
    TsCudaEwArgs args = { 0, 0, 0, 0, 0, false, false };
    if (!rc)
        rc = run(a, TS_CUDA_WHERE, 3, in, dtype, dtype, &args, inplace, r);
    for (int k = 0; k < 2; k++)
        if (made[k])
            ts_tensor_release(made[k]);
    if (c8)
        ts_tensor_release(c8);
    return rc;
}

/* where.self(Tensor condition, Tensor self, Tensor other), and its Scalar forms */
static int k_where(TsCall *c)
{
    TsArgs a;
    TsTensor *cond, *r = NULL;
    Operand x, y;
    int rc = ts_args_pop(c, TS_DEV_CUDA, &a);
    if (!rc)
        rc = ts_args_tensor(&a, 0, &cond);
    if (!rc)
        rc = read_operand(&a, 1, &x);
    if (!rc)
        rc = read_operand(&a, 2, &y);
    if (!rc)
        rc = select_values(&a, cond, &x, &y, NULL, &r);
    return ts_args_return_tensor(&a, rc, r);
}

/* masked_fill(Tensor self, Tensor mask, Scalar value) and masked_fill_: where(mask, value,
 * self) */
static int k_masked_fill(TsCall *c)
{
    TsArgs a;
    TsTensor *mask, *r = NULL;
    Operand self, value;
    int rc = ts_args_pop(c, TS_DEV_CUDA, &a);
    if (!rc)
        rc = read_operand(&a, 0, &self);
    if (!rc)
        rc = ts_args_tensor(&a, 1, &mask);
    if (!rc)
        rc = read_operand(&a, 2, &value);
    if (!rc && !self.t)
        rc = ts_args_tensor(&a, 0, &self.t);
    if (rc)
        return ts_args_fail(&a, rc);
    if (value.t) {
        if (value.t->dim != 0)
            return ts_args_fail(&a, ts_error_set(c->error, TS_ERR_RUNTIME, "masked_fill_ only "
                                                 "supports a 0-dimensional value tensor, but "
                                                 "got tensor with %d dimension(s).",
                                                 (int)value.t->dim));
    }
    /* the value converts to self's dtype, not promoting it */
    value.stand_in.dtype = self.t->dtype;
    value.stand_in.flags = TS_ATEN_WRAPPED;
    TsTensor *target = in_place(&a) ? self.t : NULL;
    if (!target) {
        rc = select_values(&a, mask, &value, &self, NULL, &r);
        if (!rc && r && r->dtype != self.t->dtype) {
            TsTensor *cast = ts_cuda_cast(r, self.t->dtype, c->error);
            ts_tensor_release(r);
            r = cast;
            rc = r ? 0 : (int)c->error->code;
        }
    } else {
        rc = select_values(&a, mask, &value, &self, target, &r);
    }
    return finish(&a, rc, target, r);
}

/* ---- ternary ------------------------------------------------------------------------ */

static int ternary(TsCall *c, TsCudaEwOp op, const char *scale_name)
{
    TsArgs a;
    TsTensor *x, *y, *z, *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CUDA, &a);
    if (!rc)
        rc = ts_args_tensor(&a, 0, &x);
    if (!rc)
        rc = ts_args_tensor(&a, 1, &y);
    if (!rc)
        rc = ts_args_tensor(&a, 2, &z);
    if (rc)
        return ts_args_fail(&a, rc);
    TsTensor *three[3] = { x, y, z };
    int dtype = ts_aten_result_type(3, three);
    TsCudaEwArgs args = { number(scale_name ? arg_named(&a, scale_name) : NULL, 1), 0, 0, 0, 0,
                          false, false };
    TsTensor *in[3] = { x, y, z };
    TsTensor *target = in_place(&a) ? x : NULL;
    rc = run(&a, op, 3, in, dtype, dtype, &args, target, &r);
    return finish(&a, rc, target, r);
}

static int k_lerp(TsCall *c) { return ternary(c, TS_CUDA_LERP, NULL); }
static int k_addcmul(TsCall *c) { return ternary(c, TS_CUDA_ADDCMUL, "value"); }
static int k_addcdiv(TsCall *c) { return ternary(c, TS_CUDA_ADDCDIV, "value"); }

static const TsCudaOp ops[] = {
    { "aten::add", "Tensor", k_add }, { "aten::add", "Scalar", k_add },
    { "aten::add_", "Tensor", k_add }, { "aten::add_", "Scalar", k_add },
    { "aten::sub", "Tensor", k_sub }, { "aten::sub", "Scalar", k_sub },
    { "aten::sub_", "Tensor", k_sub }, { "aten::sub_", "Scalar", k_sub },
    { "aten::mul", "Tensor", k_mul }, { "aten::mul", "Scalar", k_mul },
    { "aten::mul_", "Tensor", k_mul }, { "aten::mul_", "Scalar", k_mul },
    { "aten::div", "Tensor", k_div }, { "aten::div", "Scalar", k_div },
    { "aten::div_", "Tensor", k_div }, { "aten::div_", "Scalar", k_div },
    { "aten::div", "Tensor_mode", k_div }, { "aten::div", "Scalar_mode", k_div },
    { "aten::div_", "Tensor_mode", k_div }, { "aten::div_", "Scalar_mode", k_div },
    { "aten::floor_divide", "", k_floor_divide }, { "aten::floor_divide", "Scalar", k_floor_divide },
    { "aten::remainder", "Tensor", k_remainder }, { "aten::remainder", "Scalar", k_remainder },
    { "aten::fmod", "Tensor", k_fmod }, { "aten::fmod", "Scalar", k_fmod },
    { "aten::pow", "Tensor_Tensor", k_pow }, { "aten::pow", "Tensor_Scalar", k_pow },
    { "aten::pow_", "Tensor", k_pow }, { "aten::pow_", "Scalar", k_pow },
    { "aten::maximum", "", k_maximum }, { "aten::minimum", "", k_minimum },
    { "aten::atan2", "", k_atan2 },
    { "aten::bitwise_and", "Tensor", k_bitand }, { "aten::bitwise_or", "Tensor", k_bitor },
    { "aten::bitwise_xor", "Tensor", k_bitxor }, { "aten::__and__", "Tensor", k_bitand },
    { "aten::__or__", "Tensor", k_bitor }, { "aten::__xor__", "Tensor", k_bitxor },
    { "aten::eq", "Tensor", k_eq }, { "aten::eq", "Scalar", k_eq },
    { "aten::ne", "Tensor", k_ne }, { "aten::ne", "Scalar", k_ne },
    { "aten::lt", "Tensor", k_lt }, { "aten::lt", "Scalar", k_lt },
    { "aten::le", "Tensor", k_le }, { "aten::le", "Scalar", k_le },
    { "aten::gt", "Tensor", k_gt }, { "aten::gt", "Scalar", k_gt },
    { "aten::ge", "Tensor", k_ge }, { "aten::ge", "Scalar", k_ge },
    { "aten::logical_and", "", k_logical_and }, { "aten::logical_or", "", k_logical_or },
    { "aten::logical_xor", "", k_logical_xor }, { "aten::logical_not", "", k_logical_not },
    { "aten::neg", "", k_neg }, { "aten::neg_", "", k_neg }, { "aten::abs", "", k_abs },
    { "aten::abs_", "", k_abs }, { "aten::exp", "", k_exp }, { "aten::exp_", "", k_exp },
    { "aten::exp2", "", k_exp2 }, { "aten::expm1", "", k_expm1 }, { "aten::log", "", k_log },
    { "aten::log_", "", k_log }, { "aten::log2", "", k_log2 }, { "aten::log10", "", k_log10 },
    { "aten::log1p", "", k_log1p }, { "aten::sqrt", "", k_sqrt }, { "aten::sqrt_", "", k_sqrt },
    { "aten::rsqrt", "", k_rsqrt }, { "aten::sin", "", k_sin }, { "aten::cos", "", k_cos },
    { "aten::tan", "", k_tan }, { "aten::asin", "", k_asin }, { "aten::acos", "", k_acos },
    { "aten::atan", "", k_atan }, { "aten::sinh", "", k_sinh }, { "aten::cosh", "", k_cosh },
    { "aten::tanh", "", k_tanh }, { "aten::tanh_", "", k_tanh },
    { "aten::sigmoid", "", k_sigmoid }, { "aten::sigmoid_", "", k_sigmoid },
    { "aten::relu", "", k_relu }, { "aten::relu_", "", k_relu }, { "aten::silu", "", k_silu },
    { "aten::silu_", "", k_silu }, { "aten::gelu", "", k_gelu }, { "aten::erf", "", k_erf },
    { "aten::erfc", "", k_erfc }, { "aten::floor", "", k_floor }, { "aten::ceil", "", k_ceil },
    { "aten::round", "", k_round }, { "aten::trunc", "", k_trunc }, { "aten::frac", "", k_frac },
    { "aten::reciprocal", "", k_reciprocal }, { "aten::sign", "", k_sign },
    { "aten::square", "", k_square }, { "aten::bitwise_not", "", k_bitnot },
    { "aten::isnan", "", k_isnan }, { "aten::hardtanh", "", k_hardtanh },
    { "aten::hardtanh_", "", k_hardtanh }, { "aten::leaky_relu", "", k_leaky_relu },
    { "aten::leaky_relu_", "", k_leaky_relu }, { "aten::elu", "", k_elu },
    { "aten::softplus", "", k_softplus }, { "aten::clamp", "", k_clamp },
    { "aten::clamp_", "", k_clamp },
    { "aten::where", "self", k_where }, { "aten::where", "ScalarSelf", k_where },
    { "aten::where", "ScalarOther", k_where }, { "aten::where", "Scalar", k_where },
    { "aten::masked_fill", "Scalar", k_masked_fill }, { "aten::masked_fill", "Tensor", k_masked_fill },
    { "aten::masked_fill_", "Scalar", k_masked_fill }, { "aten::masked_fill_", "Tensor", k_masked_fill },
    { "aten::lerp", "Tensor", k_lerp }, { "aten::addcmul", "", k_addcmul },
    { "aten::addcdiv", "", k_addcdiv },
};

const TsCudaTable ts_cuda_pointwise_table = { ops, sizeof ops / sizeof ops[0] };
