/* arith.c — arithmetic, comparisons and conversions on int, float and bool scalars.
 *
 * One kernel per operator serves all its overloads: it looks at the tags of the two values
 * it pops, computes in int64 when neither is a float and in double otherwise (PyTorch's
 * int_float and float_int overloads convert the int to double, comparisons included), and
 * pushes the result. The semantics are TorchScript's, which are Python's except where
 * PyTorch 1.13 differs, and then PyTorch's (checked against torch.jit.script):
 *
 *   - int arithmetic wraps around in 64-bit two's complement (computed unsigned: no UB);
 *   - int // and % round toward negative infinity; `x // 0` is RuntimeError "division by 0",
 *     `x % 0` is RuntimeError "modulo by 0" (PyTorch crashes with SIGFPE on it), and
 *     INT64_MIN // -1 wraps to INT64_MIN where PyTorch crashes;
 *   - int / int is a float; float / 0.0 is inf or nan, never an error;
 *   - float // is floor(a / b) (7.0 // 0.0 == inf, inf // 2.0 == inf);
 *   - float % is fmod(b + fmod(a, b), b): Python's sign rule, but 5.0 % inf is nan;
 *   - int(x) of a float truncates; nan, inf and floats outside int64 give INT64_MIN (what
 *     PyTorch's x86 conversion yields);
 *   - min(a, b) is `a < b ? a : b` and max(a, b) is `a > b ? a : b` (nan-order sensitive);
 *   - a << b and a >> b use b's low 6 bits (x86's shift: 1 << 64 is 1, 3 << -1 is INT64_MIN),
 *     >> is arithmetic and << wraps.
 *
 * The Scalar overloads (aten::add(Scalar a, Scalar b) -> Scalar, ...) are what the emitter
 * picks for mixed int and float operands where no int_float overload exists (a / b), and for
 * values typed Scalar (number): the same kernels serve them, the tags deciding the result.
 */
#include <complex.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "prim.h"

typedef enum PrimOp {
    OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_FLOORDIV, OP_REM,
    OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE,
    OP_AND, OP_OR, OP_XOR, OP_MIN, OP_MAX, OP_LSHIFT, OP_RSHIFT,
    OP_NEG, OP_ABS, OP_NOT, OP_TO_INT, OP_TO_FLOAT, OP_TO_BOOL
} PrimOp;

static const char *const op_names[] = {
    "add", "sub", "mul", "div", "floordiv", "remainder",
    "eq", "ne", "lt", "le", "gt", "ge",
    "__and__", "__or__", "__xor__", "min", "max", "__lshift__", "__rshift__",
    "neg", "abs", "__not__", "Int", "Float", "Bool"
};

static bool is_number(TsValue v)
{
    return v.tag == TS_TAG_INT || v.tag == TS_TAG_DOUBLE || v.tag == TS_TAG_BOOL;
}

static int64_t as_int(TsValue v)
{
    return v.tag == TS_TAG_BOOL ? (int64_t)v.u.b : v.u.i;
}

static double as_float(TsValue v)
{
    return v.tag == TS_TAG_DOUBLE ? v.u.d : (double)as_int(v);
}

/* Wrapping arithmetic: unsigned in C is modular; converting back is two's complement. */
static int64_t wrap_add(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
static int64_t wrap_sub(int64_t a, int64_t b) { return (int64_t)((uint64_t)a - (uint64_t)b); }
static int64_t wrap_mul(int64_t a, int64_t b) { return (int64_t)((uint64_t)a * (uint64_t)b); }
static int64_t wrap_neg(int64_t a) { return (int64_t)(0u - (uint64_t)a); }

/* x86's shifts: the count is taken mod 64; >> of a negative value fills with ones (written
 * without right-shifting a negative number, which C leaves to the implementation). */
static int64_t shift_left(int64_t a, int64_t b) { return (int64_t)((uint64_t)a << (b & 63)); }
static int64_t shift_right(int64_t a, int64_t b)
{
    return a < 0 ? ~(int64_t)(~(uint64_t)a >> (b & 63)) : (int64_t)((uint64_t)a >> (b & 63));
}

static int64_t float_to_int(double d)
{
    if (isnan(d) || d >= 9223372036854775808.0 || d < -9223372036854775808.0)
        return INT64_MIN;
    return (int64_t)d;
}

static int int_binop(PrimOp op, int64_t a, int64_t b, TsValue *out, TsError *err)
{
    int64_t r;
    switch (op) {
    case OP_ADD: r = wrap_add(a, b); break;
    case OP_SUB: r = wrap_sub(a, b); break;
    case OP_MUL: r = wrap_mul(a, b); break;
    case OP_DIV: *out = ts_double((double)a / (double)b); return 0;
    case OP_FLOORDIV:
        if (b == 0)
            return ts_error_set(err, TS_ERR_RUNTIME, "division by 0");
        if (b == -1) {
            r = wrap_neg(a);
            break;
        }
        r = a / b;
        if (a % b != 0 && (a < 0) != (b < 0))
            r--;
        break;
    case OP_REM:
        if (b == 0)
            return ts_error_set(err, TS_ERR_RUNTIME, "modulo by 0");
        if (b == -1) {
            r = 0;
            break;
        }
        r = a % b;
        if (r != 0 && (r < 0) != (b < 0))
            r += b;
        break;
    case OP_EQ: *out = ts_bool(a == b); return 0;
    case OP_NE: *out = ts_bool(a != b); return 0;
    case OP_LT: *out = ts_bool(a < b); return 0;
    case OP_LE: *out = ts_bool(a <= b); return 0;
    case OP_GT: *out = ts_bool(a > b); return 0;
    case OP_GE: *out = ts_bool(a >= b); return 0;
    case OP_AND: r = a & b; break;
    case OP_OR: r = a | b; break;
    case OP_XOR: r = a ^ b; break;
    case OP_MIN: r = a < b ? a : b; break;
    case OP_MAX: r = a > b ? a : b; break;
    case OP_LSHIFT: r = shift_left(a, b); break;
    case OP_RSHIFT: r = shift_right(a, b); break;
    default:
        return ts_error_set(err, TS_ERR_TYPE, "%s: not a binary operator", op_names[op]);
    }
    *out = ts_int(r);
    return 0;
}

static int float_binop(PrimOp op, double a, double b, TsValue *out, TsError *err)
{
    double r;
    switch (op) {
    case OP_ADD: r = a + b; break;
    case OP_SUB: r = a - b; break;
    case OP_MUL: r = a * b; break;
    case OP_DIV: r = a / b; break;
    case OP_FLOORDIV: r = floor(a / b); break;
    case OP_REM: r = fmod(b + fmod(a, b), b); break;
    case OP_EQ: *out = ts_bool(a == b); return 0;
    case OP_NE: *out = ts_bool(a != b); return 0;
    case OP_LT: *out = ts_bool(a < b); return 0;
    case OP_LE: *out = ts_bool(a <= b); return 0;
    case OP_GT: *out = ts_bool(a > b); return 0;
    case OP_GE: *out = ts_bool(a >= b); return 0;
    case OP_MIN: r = a < b ? a : b; break;
    case OP_MAX: r = a > b ? a : b; break;
    default:
        return ts_error_set(err, TS_ERR_TYPE, "%s: unsupported operand type float",
                            op_names[op]);
    }
    *out = ts_double(r);
    return 0;
}

static int operand_error(TsCall *c, PrimOp op, TsValue a, TsValue b)
{
    ts_value_release(a);
    ts_value_release(b);
    return ts_error_set(c->error, TS_ERR_TYPE, "%s: operands must be int, float or bool",
                        op_names[op]);
}

/* Pops b and a, pushes a op b. */
static inline int binary(TsCall *c, PrimOp op)
{
    TsValue b = ts_stack_pop(c->stack), a = ts_stack_pop(c->stack), r;
    if (a.tag == TS_TAG_COMPLEX || b.tag == TS_TAG_COMPLEX)
        return ts_prim_complex_binop(c, op_names[op], a, b);
    if (!is_number(a) || !is_number(b))
        return operand_error(c, op, a, b);
    int rc;
    if (a.tag == TS_TAG_DOUBLE || b.tag == TS_TAG_DOUBLE) {
        rc = float_binop(op, as_float(a), as_float(b), &r, c->error);
    } else {
        rc = int_binop(op, as_int(a), as_int(b), &r, c->error);
        /* bool & bool is a bool (__and__.bool); comparisons already are */
        if (!rc && r.tag == TS_TAG_INT && a.tag == TS_TAG_BOOL && b.tag == TS_TAG_BOOL)
            r = ts_bool(r.u.i != 0);
    }
    return rc ? rc : ts_stack_push(c->stack, r, c->error);
}

/* op z of a complex z (a Scalar overload's argument): int() of one with an imaginary part
 * is PyTorch's error, float() is the real part. Takes z's reference. */
static int complex_unary(TsCall *c, PrimOp op, TsValue z)
{
    double complex x;
    ts_prim_to_complex(z, &x);
    ts_value_release(z);
    double re = creal(x), im = cimag(x);
    switch (op) {
    case OP_NEG: return ts_prim_push_complex(c, -x);
    case OP_ABS: return ts_stack_push(c->stack, ts_double(cabs(x)), c->error);
    case OP_NOT: return ts_stack_push(c->stack, ts_bool(re == 0 && im == 0), c->error);
    case OP_TO_BOOL: return ts_stack_push(c->stack, ts_bool(re != 0 || im != 0), c->error);
    case OP_TO_FLOAT: return ts_stack_push(c->stack, ts_double(re), c->error);
    case OP_TO_INT:
        if (im != 0 || isnan(re) || re >= 9223372036854775808.0 ||
            re < -9223372036854775808.0)
            return ts_error_set(c->error, TS_ERR_RUNTIME, "value cannot be converted to type "
                                "int without overflow");
        return ts_stack_push(c->stack, ts_int((int64_t)re), c->error);
    default:
        return ts_error_set(c->error, TS_ERR_TYPE, "%s: not a unary operator", op_names[op]);
    }
}

/* Pops a, pushes op a. */
static inline int unary(TsCall *c, PrimOp op)
{
    TsValue a = ts_stack_pop(c->stack), r;
    if (a.tag == TS_TAG_COMPLEX)
        return complex_unary(c, op, a);
    if (!is_number(a))
        return operand_error(c, op, a, ts_none());
    bool f = a.tag == TS_TAG_DOUBLE;
    int64_t i = f ? 0 : as_int(a);
    switch (op) {
    case OP_NEG: r = f ? ts_double(-a.u.d) : ts_int(wrap_neg(i)); break;
    case OP_ABS: r = f ? ts_double(fabs(a.u.d)) : ts_int(i < 0 ? wrap_neg(i) : i); break;
    case OP_NOT: r = ts_bool(f ? a.u.d == 0.0 : i == 0); break;
    case OP_TO_INT: r = ts_int(f ? float_to_int(a.u.d) : i); break;
    case OP_TO_FLOAT: r = ts_double(f ? a.u.d : (double)i); break;
    case OP_TO_BOOL: r = ts_bool(f ? a.u.d != 0.0 : i != 0); break;
    default:
        return ts_error_set(c->error, TS_ERR_TYPE, "%s: not a unary operator", op_names[op]);
    }
    return ts_stack_push(c->stack, r, c->error);
}

/* One kernel function per operator, each a call of binary() or unary() with a constant op
 * (which the compiler folds into a specialized body). */
#define BINARY_KERNELS(X) \
    X(add, ADD) X(sub, SUB) X(mul, MUL) X(div, DIV) X(floordiv, FLOORDIV) X(rem, REM) \
    X(eq, EQ) X(ne, NE) X(lt, LT) X(le, LE) X(gt, GT) X(ge, GE) \
    X(and, AND) X(or, OR) X(xor, XOR) X(min, MIN) X(max, MAX) X(lshift, LSHIFT) \
    X(rshift, RSHIFT)
#define UNARY_KERNELS(X) \
    X(neg, NEG) X(abs, ABS) X(not, NOT) X(to_int, TO_INT) X(to_float, TO_FLOAT) \
    X(to_bool, TO_BOOL)

#define DEFINE_BINARY(name, OP) \
    static int k_##name(TsCall *c) { return binary(c, OP_##OP); }
#define DEFINE_UNARY(name, OP) \
    static int k_##name(TsCall *c) { return unary(c, OP_##OP); }
BINARY_KERNELS(DEFINE_BINARY)
UNARY_KERNELS(DEFINE_UNARY)

static const TsPrimOp ops[] = {
    { "aten::add", k_add, { "int", "float", "int_float", "float_int", "" } },
    { "aten::sub", k_sub, { "int", "float", "int_float", "float_int", "" } },
    { "aten::mul", k_mul, { "int", "float", "int_float", "float_int", "" } },
    { "aten::div", k_div, { "int", "float", "" } },
    { "aten::floordiv", k_floordiv, { "int", "float", "int_float", "float_int", "" } },
    { "aten::remainder", k_rem, { "int", "float", "int_float", "float_int", "" } },
    { "aten::eq", k_eq, { "int", "float", "int_float", "float_int", "bool", "" } },
    { "aten::ne", k_ne, { "int", "float", "int_float", "float_int", "bool", "" } },
    { "aten::lt", k_lt, { "int", "float", "int_float", "float_int", "" } },
    { "aten::le", k_le, { "int", "float", "int_float", "float_int", "" } },
    { "aten::gt", k_gt, { "int", "float", "int_float", "float_int", "" } },
    { "aten::ge", k_ge, { "int", "float", "int_float", "float_int", "" } },
    { "aten::__and__", k_and, { "int", "bool" } },
    { "aten::__or__", k_or, { "int", "bool" } },
    { "aten::__xor__", k_xor, { "int", "bool" } },
    { "aten::__lshift__", k_lshift, { "int" } },
    { "aten::__rshift__", k_rshift, { "int" } },
    { "prim::min", k_min, { "int", "float", "int_float", "float_int", "" } },
    { "prim::max", k_max, { "int", "float", "int_float", "float_int", "" } },
    { "aten::neg", k_neg, { "int", "float", "Scalar" } },
    { "prim::abs", k_abs, { "int", "float", "Scalar" } },
    { "aten::__not__", k_not, { "" } },
    { "aten::Int", k_to_int, { "float", "bool", "Scalar" } },
    { "aten::Float", k_to_float, { "int", "bool", "Scalar" } },
    { "aten::Bool", k_to_bool, { "int", "float" } },
};

const TsPrimTable ts_prim_arith_table = { ops, sizeof ops / sizeof ops[0] };
