/* shape_rules.c — shape_prop's rules for pointwise operators and reductions, what every
 * rule reads (constants, dims, type promotion, broadcasting) and the dispatch to the rule
 * families (shape.h).
 *
 * Type promotion is c10's: promoteTypes' table (checked against torch.promote_types of
 * torch 1.13 for every pair) and result_type's three priority groups — tensors of rank >= 1,
 * zero-dim tensors, Python numbers ("wrapped" scalars, a float one standing for the default
 * dtype float32) — whose categories (bool < integral < floating < complex) combine so that a
 * lower group only raises the category. A tensor of unknown rank is tried in both groups:
 * the dtype is known only when both give the same answer.
 */
#include <string.h>

#include "ir/passes/shape.h"
#include "registry/optable.h"

/* ---- constants ------------------------------------------------------------------------- */
static bool const_value(const TsIrValue *v, TsValue *out)
{
    if (strcmp(v->node->kind, "prim::Constant") != 0 || ts_constant_value(v->node, out, NULL))
        return false;
    return true;
}

/* The scalar constant v holds when it is of kind tag. */
static bool const_scalar(const TsIrValue *v, TsTag tag, TsValue *out)
{
    if (!const_value(v, out))
        return false;
    ts_value_release(*out);        /* a scalar: nothing to own */
    return out->tag == tag;
}

bool ts_shape_const_int(const TsIrValue *v, int64_t *out)
{
    TsValue c;
    if (!const_scalar(v, TS_TAG_INT, &c))
        return false;
    *out = c.u.i;
    return true;
}

bool ts_shape_const_bool(const TsIrValue *v, bool *out)
{
    TsValue c;
    if (!const_scalar(v, TS_TAG_BOOL, &c))
        return false;
    *out = c.u.b;
    return true;
}

bool ts_shape_is_none(const TsIrValue *v)
{
    TsValue c;
    if (!const_value(v, &c))
        return false;
    ts_value_release(c);
    return c.tag == TS_TAG_NONE;
}

int ts_shape_const_dtype(const TsIrValue *v)
{
    TsValue c;
    if (!const_value(v, &c))
        return -2;
    int d = c.tag == TS_TAG_NONE ? -1
            : c.tag == TS_TAG_INT && c.u.i >= 0 && c.u.i < TS_DTYPE__COUNT ? (int)c.u.i : -2;
    ts_value_release(c);
    return d;
}

bool ts_shape_list_only_read(const TsIrValue *v)
{
    for (size_t i = 0; i < v->n_uses; i++) {
        const TsNode *u = v->uses[i].user;
        const TsOperator *op = u->op;
        size_t k = v->uses[i].offset;
        if (!op || !op->schema || k >= op->schema->n_args || op->schema->args[k].alias)
            return false;
    }
    return true;
}

bool ts_shape_int_list(const TsIrValue *v, int64_t *out, bool *known, int *n)
{
    int64_t one;
    if (ts_type_kind(v->type) == TS_TYPE_INT && ts_shape_const_int(v, &one)) {
        *n = 1;                    /* an int given for an int[1] */
        out[0] = one;
        known[0] = true;
        return true;
    }
    if (ts_type_kind(v->type) != TS_TYPE_LIST)
        return false;
    TsValue c;
    if (const_value(v, &c)) {
        bool ok = c.tag == TS_TAG_LIST;
        const TsList *l = ok ? (const TsList *)c.u.p : NULL;
        ok = ok && l->len <= TS_SHAPE_MAX_DIMS;
        for (size_t i = 0; ok && i < l->len; i++) {
            ok = l->items[i].tag == TS_TAG_INT;
            out[i] = ok ? l->items[i].u.i : -1;
            known[i] = true;
        }
        if (ok)
            *n = (int)l->len;
        ts_value_release(c);
        return ok;
    }
    const TsNode *ln = v->node;
    if (strcmp(ln->kind, "prim::ListConstruct") != 0 || ln->n_inputs > TS_SHAPE_MAX_DIMS ||
        !ts_shape_list_only_read(v))
        return false;
    for (size_t i = 0; i < ln->n_inputs; i++) {
        known[i] = ts_shape_const_int(ln->inputs[i], &out[i]);
        if (!known[i])
            out[i] = -1;
    }
    *n = (int)ln->n_inputs;
    return true;
}

bool ts_shape_wrap_dim(int64_t d, int rank, int *out)
{
    int64_t r = rank > 0 ? rank : 1;
    if (d < -r || d >= r)
        return false;
    *out = (int)(d < 0 ? d + r : d);
    return true;
}

/* ---- promotion -------------------------------------------------------------------------- */
/* torch.promote_types over the dtypes' numbers (TsDType); -1: refused */
static const signed char promote_table[16][16] = {
    { 0,  2,  2,  3,  4,  5,  6,  7,  8,  9, 10,  0, -1, -1, -1, 15},
    { 2,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10,  1, -1, -1, -1, 15},
    { 2,  2,  2,  3,  4,  5,  6,  7,  8,  9, 10,  2, -1, -1, -1, 15},
    { 3,  3,  3,  3,  4,  5,  6,  7,  8,  9, 10,  3, -1, -1, -1, 15},
    { 4,  4,  4,  4,  4,  5,  6,  7,  8,  9, 10,  4, -1, -1, -1, 15},
    { 5,  5,  5,  5,  5,  5,  6,  7,  8,  9, 10,  5, -1, -1, -1,  6},
    { 6,  6,  6,  6,  6,  6,  6,  7,  9,  9, 10,  6, -1, -1, -1,  6},
    { 7,  7,  7,  7,  7,  7,  7,  7, 10, 10, 10,  7, -1, -1, -1,  7},
    { 8,  8,  8,  8,  8,  8,  9, 10,  8,  9, 10,  8, -1, -1, -1,  9},
    { 9,  9,  9,  9,  9,  9,  9, 10,  9,  9, 10,  9, -1, -1, -1,  9},
    {10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, -1, -1, -1, 10},
    { 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, -1, -1, -1, 15},
    {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1},
    {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1},
    {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1},
    {15, 15, 15, 15, 15,  6,  6,  7,  9,  9, 10, 15, -1, -1, -1, 15},
};

int ts_shape_promote(int a, int b)
{
    if (a < 0 || b < 0 || a >= 16 || b >= 16)
        return -1;
    return promote_table[a][b];
}

static bool is_float(int d) { return d >= 0 && ts_dtype_is_floating(d); }
static bool is_complex(int d) { return d >= 0 && ts_dtype_is_complex(d); }

/* -1 is "no operand yet" here (result_type's Undefined) */
static int promote_skip(int a, int b)
{
    return a < 0 ? b : b < 0 ? a : ts_shape_promote(a, b);
}

static int to_complex(int d)
{
    switch (d) {
    case TS_FLOAT16: return TS_COMPLEX32;
    case TS_FLOAT32: return TS_COMPLEX64;
    case TS_FLOAT64: return TS_COMPLEX128;
    default: return -1;
    }
}

static int combine_categories(int higher, int lower)
{
    if (is_complex(higher))
        return higher;
    if (is_complex(lower))
        return is_float(higher) ? to_complex(higher) : lower;
    if (is_float(higher))
        return higher;
    if (higher == TS_BOOL || is_float(lower))
        return promote_skip(higher, lower);
    return higher >= 0 ? higher : lower;
}

/* An operand of result_type: a tensor's dtype and rank, or a Python number's dtype. */
typedef struct Operand {
    int dtype;                 /* -1: unknown */
    int dim;                   /* -1: unknown rank */
    bool wrapped;              /* a Python number */
} Operand;

static int result_type_fixed(const Operand *o, int n, unsigned zero_mask)
{
    int dim_r = -1, zero_r = -1, wrapped_r = -1;
    for (int i = 0; i < n; i++) {
        int d = o[i].dtype;
        if (o[i].wrapped) {
            if (is_complex(d))
                d = TS_COMPLEX64;
            else if (is_float(d))
                d = TS_FLOAT32;
            wrapped_r = promote_skip(wrapped_r, d);
        } else if (o[i].dim > 0 || (o[i].dim < 0 && !(zero_mask >> i & 1))) {
            dim_r = promote_skip(dim_r, d);
        } else {
            zero_r = promote_skip(zero_r, d);
        }
    }
    return combine_categories(dim_r, combine_categories(zero_r, wrapped_r));
}

/* result_type over the operands, or -1 when their facts do not decide it */
static int result_type(const Operand *o, int n)
{
    unsigned unknown = 0;
    for (int i = 0; i < n; i++) {
        if (o[i].dtype < 0)
            return -1;
        if (!o[i].wrapped && o[i].dim < 0)
            unknown |= 1u << i;
    }
    int r = -2;
    /* every subset of the unknown-rank tensors taken as zero-dim */
    for (unsigned m = 0; m < 1u << n; m++) {
        if (m & ~unknown)
            continue;
        int t = result_type_fixed(o, n, m);
        if (r != -2 && t != r)
            return -1;
        r = t;
    }
    return r < 0 ? -1 : r;
}

/* v as an operand: a tensor, or a number (its type; Scalar is unknown) */
static bool operand_of(const TsIrValue *v, Operand *o)
{
    TsShape s;
    switch (ts_type_kind(v->type)) {
    case TS_TYPE_TENSOR:
        ts_shape_of(v, &s);
        *o = (Operand){ s.dtype, s.dim, false };
        return true;
    case TS_TYPE_INT: *o = (Operand){ TS_INT64, 0, true }; return true;
    case TS_TYPE_FLOAT: *o = (Operand){ TS_FLOAT64, 0, true }; return true;
    case TS_TYPE_BOOL: *o = (Operand){ TS_BOOL, 0, true }; return true;
    case TS_TYPE_COMPLEX: *o = (Operand){ TS_COMPLEX128, 0, true }; return true;
    default: *o = (Operand){ -1, -1, true }; return false;
    }
}

/* result_type of the inputs listed (indices into n's inputs; -1 ends) that are not None */
static int promote_inputs(const TsNode *n, const int *which)
{
    Operand o[4];
    int k = 0;
    for (; *which >= 0 && k < 4; which++) {
        if ((size_t)*which >= n->n_inputs)
            return -1;
        const TsIrValue *v = n->inputs[*which];
        if (ts_type_kind(v->type) == TS_TYPE_NONE || ts_shape_is_none(v))
            continue;
        operand_of(v, &o[k++]);
    }
    return k ? result_type(o, k) : -1;
}

/* ---- broadcasting ------------------------------------------------------------------------ */
void ts_shape_broadcast(TsShape *a, const TsShape *b)
{
    a->has_strides = false;
    if (a->dim < 0 || b->dim < 0) {
        a->dim = -1;
        return;
    }
    int r = a->dim > b->dim ? a->dim : b->dim;
    int64_t out[TS_SHAPE_MAX_DIMS];
    for (int i = 0; i < r; i++) {
        int ia = a->dim - r + i, ib = b->dim - r + i;
        int64_t x = ia >= 0 ? a->sizes[ia] : 1, y = ib >= 0 ? b->sizes[ib] : 1;
        if (x == 1)
            out[i] = y;
        else if (y == 1 || x == y)
            out[i] = x;
        else if (x < 0)
            out[i] = y;            /* x must be y or 1, and 1 gives y */
        else if (y < 0)
            out[i] = x;
        else
            out[i] = -1;           /* an error at run time: nothing to state */
    }
    a->dim = r;
    memcpy(a->sizes, out, (size_t)r * sizeof *out);
}

/* The broadcast shape of the listed inputs (tensors; numbers count as zero-dim) into s. */
static void broadcast_inputs(const TsNode *n, const int *which, TsShape *s)
{
    bool first = true;
    for (; *which >= 0; which++) {
        if ((size_t)*which >= n->n_inputs) {
            s->dim = -1;
            return;
        }
        TsShape o;
        const TsIrValue *v = n->inputs[*which];
        TsTypeKind k = ts_type_kind(v->type);
        if (k == TS_TYPE_TENSOR) {
            ts_shape_of(v, &o);
        } else if (k == TS_TYPE_INT || k == TS_TYPE_FLOAT || k == TS_TYPE_BOOL ||
                   k == TS_TYPE_COMPLEX || k == TS_TYPE_NUMBER) {
            ts_shape_unknown(&o);
            o.dim = 0;
        } else if (k == TS_TYPE_NONE || ts_shape_is_none(v)) {
            continue;
        } else {
            s->dim = -1;
            return;
        }
        if (first) {
            s->dim = o.dim;
            memcpy(s->sizes, o.sizes, sizeof s->sizes);
            first = false;
        } else {
            ts_shape_broadcast(s, &o);
        }
    }
    s->has_strides = false;
}

/* ---- pointwise ---------------------------------------------------------------------- */
static bool named(const char *kind, const char *const *names)
{
    for (; *names; names++)
        if (strcmp(kind, *names) == 0)
            return true;
    return false;
}

/* the result of a binary operator whose output is promoted (and for some, made floating) */
static const char *const binary_promoting[] = {
    "aten::add", "aten::sub", "aten::mul", "aten::rsub", "aten::maximum", "aten::minimum",
    "aten::fmax", "aten::fmin", "aten::fmod", "aten::remainder", "aten::pow",
    "aten::floor_divide", "aten::bitwise_and", "aten::bitwise_or", "aten::bitwise_xor",
    "aten::__and__", "aten::__or__", "aten::__xor__", "aten::div", "aten::true_divide",
    "aten::atan2", "aten::copysign", "aten::xlogy", "aten::max", "aten::min", NULL
};
/* of those, the ones whose integral result becomes the default float */
static const char *const binary_floating[] = {
    "aten::div", "aten::true_divide", "aten::atan2", "aten::copysign", "aten::xlogy", NULL
};
static const char *const comparisons[] = {
    "aten::eq", "aten::ne", "aten::lt", "aten::le", "aten::gt", "aten::ge",
    "aten::logical_and", "aten::logical_or", "aten::logical_xor", NULL
};
/* unary, same dtype and shape */
static const char *const unary_same[] = {
    "aten::neg", "aten::abs", "aten::relu", "aten::clone", "aten::floor", "aten::ceil",
    "aten::round", "aten::trunc", "aten::sign", "aten::sgn", "aten::bitwise_not",
    "aten::hardtanh", "aten::leaky_relu", "aten::elu", "aten::gelu", "aten::silu",
    "aten::hardsigmoid", "aten::hardswish", "aten::softplus", "aten::dropout", "aten::relu6",
    "aten::mish", "aten::celu", "aten::selu", "aten::positive", "aten::contiguous",
    "aten::detach", "aten::softmax", "aten::log_softmax", NULL
};
/* unary, integral and bool inputs give the default float */
static const char *const unary_floating[] = {
    "aten::sigmoid", "aten::tanh", "aten::exp", "aten::expm1", "aten::log", "aten::log2",
    "aten::log10", "aten::log1p", "aten::sqrt", "aten::rsqrt", "aten::sin", "aten::cos",
    "aten::tan", "aten::asin", "aten::acos", "aten::atan", "aten::sinh", "aten::cosh",
    "aten::erf", "aten::erfc", "aten::erfinv", "aten::reciprocal", "aten::lgamma",
    "aten::digamma", "aten::exp2", NULL
};
static const char *const unary_bool[] = {
    "aten::logical_not", "aten::isnan", "aten::isinf", "aten::isfinite", "aten::signbit", NULL
};

static bool tensor_in(const TsNode *n, size_t i)
{
    return i < n->n_inputs && ts_shape_is_tensor(n->inputs[i]);
}

static int floating_of(int d)
{
    return d >= 0 && !is_float(d) && !is_complex(d) ? TS_FLOAT32 : d;
}

bool ts_shape_rule_pointwise(const TsNode *n, TsShape *out)
{
    static const int in01[] = { 0, 1, -1 }, in12[] = { 1, 2, -1 }, in012[] = { 0, 1, 2, -1 };
    static const int in0[] = { 0, -1 };
    const char *k = n->kind;
    if (n->n_outputs != 1)
        return false;
    if (named(k, binary_promoting) && n->n_inputs >= 2 &&
        (tensor_in(n, 0) || tensor_in(n, 1))) {
        if ((!strcmp(k, "aten::max") || !strcmp(k, "aten::min")) &&
            !(tensor_in(n, 0) && tensor_in(n, 1)))
            return false;          /* max.dim and friends are reductions */
        out->dtype = promote_inputs(n, in01);
        /* div(a, b, rounding_mode="floor") keeps the promoted dtype */
        int rounding = 0;
        if (!strcmp(k, "aten::div") && n->n_inputs == 3) {
            TsValue mode;
            if (ts_shape_is_none(n->inputs[2]))
                rounding = 0;
            else if (const_value(n->inputs[2], &mode)) {
                rounding = mode.tag == TS_TAG_STR ? 1 : -1;
                ts_value_release(mode);
            } else {
                rounding = -1;
            }
        }
        if (rounding < 0)
            out->dtype = -1;
        if (named(k, binary_floating) && !rounding)
            out->dtype = floating_of(out->dtype);
        broadcast_inputs(n, in01, out);
    } else if (named(k, comparisons) && n->n_inputs == 2 && tensor_in(n, 0)) {
        out->dtype = TS_BOOL;
        broadcast_inputs(n, in01, out);
    } else if (!strcmp(k, "aten::where") && n->n_inputs == 3) {
        out->dtype = promote_inputs(n, in12);
        broadcast_inputs(n, in012, out);
    } else if ((!strcmp(k, "aten::clamp") || !strcmp(k, "aten::clamp_min") ||
                !strcmp(k, "aten::clamp_max")) && tensor_in(n, 0)) {
        static const int clamp_in[] = { 0, 1, 2, -1 };
        out->dtype = n->n_inputs <= 3 ? promote_inputs(n, clamp_in) : -1;
        broadcast_inputs(n, clamp_in, out);
    } else if (!strcmp(k, "aten::masked_fill") && n->n_inputs == 3 && tensor_in(n, 0)) {
        TsShape self;
        ts_shape_of(n->inputs[0], &self);
        out->dtype = self.dtype;
        broadcast_inputs(n, in01, out);
    } else if (n->n_inputs >= 1 && tensor_in(n, 0) &&
               (named(k, unary_same) || named(k, unary_floating) || named(k, unary_bool))) {
        TsShape self;
        ts_shape_of(n->inputs[0], &self);
        *out = self;
        out->has_strides = false;
        if (named(k, unary_floating))
            out->dtype = floating_of(self.dtype);
        else if (named(k, unary_bool))
            out->dtype = TS_BOOL;
        if ((!strcmp(k, "aten::softmax") || !strcmp(k, "aten::log_softmax")) &&
            n->n_inputs == 3) {
            int d = ts_shape_const_dtype(n->inputs[2]);
            out->dtype = d >= 0 ? d : d == -1 ? self.dtype : -1;
        }
        int64_t format = 0;        /* torch.contiguous_format */
        if (!strcmp(k, "aten::contiguous") &&
            (n->n_inputs == 1 || (ts_shape_const_int(n->inputs[1], &format) && format == 0)))
            ts_shape_set_contiguous(out);
        out->device_type = self.device_type;
        out->device_index = self.device_index;
        out->requires_grad = !strcmp(k, "aten::detach") ? 0 : TS_SHAPE_DERIVE;
        return true;
    } else if (!strcmp(k, "aten::type_as") && n->n_inputs == 2 && tensor_in(n, 1)) {
        TsShape other;
        ts_shape_of(n->inputs[1], &other);
        broadcast_inputs(n, in0, out);
        out->dtype = other.dtype;
    } else {
        return false;
    }
    out->device_type = out->requires_grad = TS_SHAPE_DERIVE;
    return true;
}

/* ---- reductions -------------------------------------------------------------------------- */
/* sum's and prod's dtype: integral and bool give int64 */
static int sum_dtype(int d)
{
    return d >= 0 && !is_float(d) && !is_complex(d) ? TS_INT64 : d;
}

/* out = self reduced over dims (n_dims of them; 0 or all: every dim), keepdim or not */
static void reduce_shape(const TsShape *self, const int64_t *dims, const bool *known,
                         int n_dims, int keepdim, TsShape *out)
{
    out->dim = -1;
    if (n_dims == 0 && keepdim == 0)
        out->dim = 0;              /* all of it, whatever the rank */
    if (self->dim < 0 || keepdim < 0)
        return;
    bool drop[TS_SHAPE_MAX_DIMS] = { false };
    for (int i = 0; i < n_dims; i++) {
        int d;
        if (!known[i] || !ts_shape_wrap_dim(dims[i], self->dim, &d))
            return;
        if (self->dim > 0)
            drop[d] = true;
    }
    if (n_dims == 0)
        for (int i = 0; i < self->dim; i++)
            drop[i] = true;
    int r = 0;
    for (int i = 0; i < self->dim; i++) {
        if (!drop[i])
            out->sizes[r++] = self->sizes[i];
        else if (keepdim)
            out->sizes[r++] = 1;
    }
    out->dim = r;
}

bool ts_shape_rule_reduce(const TsNode *n, TsShape *out)
{
    const char *k = n->kind;
    if (!tensor_in(n, 0))
        return false;
    TsShape self;
    ts_shape_of(n->inputs[0], &self);
    int64_t dims[TS_SHAPE_MAX_DIMS] = { 0 };
    bool known[TS_SHAPE_MAX_DIMS] = { false };
    int n_dims = 0;
    bool keep = false;
    int keepdim = 0;
    bool is_sum = !strcmp(k, "aten::sum") || !strcmp(k, "aten::prod");
    bool is_mean = !strcmp(k, "aten::mean");
    bool is_amax = !strcmp(k, "aten::amax") || !strcmp(k, "aten::amin");
    bool is_max = !strcmp(k, "aten::max") || !strcmp(k, "aten::min");
    bool is_arg = !strcmp(k, "aten::argmax") || !strcmp(k, "aten::argmin");
    if (!is_sum && !is_mean && !is_amax && !is_max && !is_arg)
        return false;
    int dtype_arg = -2;        /* the dtype= argument's index, if any */
    if (n->n_inputs == 1 || (n->n_inputs == 2 && (is_sum || is_mean))) {
        /* sum(self, dtype) / max(self): all of it, to a zero-dim tensor */
        if (n->n_inputs == 2)
            dtype_arg = 1;
        reduce_shape(&self, dims, known, 0, 0, out);
    } else if (n->n_inputs >= 3) {
        const TsIrValue *d = n->inputs[1];
        if (!ts_shape_const_bool(n->inputs[2], &keep))
            keepdim = -1;
        else
            keepdim = keep;
        if (ts_shape_is_none(d))
            n_dims = 0;
        else if (!ts_shape_int_list(d, dims, known, &n_dims))
            n_dims = -1;
        if (n_dims < 0)
            out->dim = -1;
        else if (is_arg && n_dims == 0 && keepdim)
            out->dim = -1;         /* argmax(keepdim=True) with no dim: left alone */
        else
            reduce_shape(&self, dims, known, n_dims, keepdim, out);
        if ((is_sum || is_mean) && n->n_inputs == 4)
            dtype_arg = 3;
        if (is_max && n->n_outputs != 2)
            return false;
    } else {
        return false;
    }
    int d = dtype_arg >= 0 ? ts_shape_const_dtype(n->inputs[dtype_arg]) : -1;
    if (d == -2)
        out->dtype = -1;
    else if (d >= 0)
        out->dtype = d;
    else
        out->dtype = is_sum ? sum_dtype(self.dtype) : is_arg ? TS_INT64 : self.dtype;
    out->device_type = out->requires_grad = TS_SHAPE_DERIVE;
    if (n->n_outputs == 2 && is_max) {     /* (values, indices) */
        out[1] = out[0];
        out[1].dtype = TS_INT64;
        out[1].requires_grad = 0;
    } else if (n->n_outputs != 1) {
        return false;
    }
    if (is_arg)
        out->requires_grad = 0;
    return true;
}

/* ---- dispatch ------------------------------------------------------------------------------ */
/* A tensor constant: everything about it. */
static bool constant_rule(const TsNode *n, TsShape *out)
{
    TsValue c;
    if (!const_value(n->outputs[0], &c))
        return false;
    bool ok = c.tag == TS_TAG_TENSOR;
    const TsTensor *t = ok ? (const TsTensor *)c.u.p : NULL;
    if (ok && t->dim <= TS_SHAPE_MAX_DIMS) {
        out->dtype = t->dtype;
        out->device_type = t->device.type;
        out->device_index = t->device.index;
        out->requires_grad = t->requires_grad;
        out->dim = t->dim;
        out->has_strides = true;
        for (int i = 0; i < t->dim; i++) {
            out->sizes[i] = t->sizes[i];
            out->strides[i] = t->strides[i];
        }
    }
    ts_value_release(c);
    return ok;
}

/* An aten in-place operator (add_, copy_, ...) returns its self: the same facts. */
static bool inplace_rule(const TsNode *n, TsShape *out)
{
    const TsOperator *op = n->op;
    if (!op || !op->schema || op->schema->n_args == 0 || op->schema->n_returns != 1 ||
        n->n_outputs != 1 || !tensor_in(n, 0))
        return false;
    const TsAlias *a = op->schema->args[0].alias, *r = op->schema->returns[0].alias;
    if (!a || !a->is_write || !r || strncmp(n->kind, "aten::", 6) != 0)
        return false;
    size_t len = strlen(n->kind);
    if (n->kind[len - 1] != '_')
        return false;
    ts_shape_of(n->inputs[0], out);
    return true;
}

void ts_shape_rule(const TsNode *n, const TsPassEnv *env, TsShape *out)
{
    if (strcmp(n->kind, "prim::Constant") == 0) {
        if (n->n_outputs == 1)
            constant_rule(n, out);
        return;
    }
    /* a tuple unpacked where it was built: its items (a tuple never changes) */
    const TsNode *t = n->n_inputs == 1 ? n->inputs[0]->node : NULL;
    if (strcmp(n->kind, "prim::TupleUnpack") == 0 && t &&
        strcmp(t->kind, "prim::TupleConstruct") == 0 && t->n_inputs == n->n_outputs) {
        for (size_t i = 0; i < n->n_outputs; i++)
            ts_shape_of(t->inputs[i], &out[i]);
        return;
    }
    if (strncmp(n->kind, "aten::", 6) != 0 || !n->op)
        return;
    if (inplace_rule(n, out) || ts_shape_rule_pointwise(n, out) ||
        ts_shape_rule_reduce(n, out) || ts_shape_rule_view(n, out) ||
        ts_shape_rule_linalg(n, out) || ts_shape_rule_window(n, out) ||
        ts_shape_rule_factory(n, env, out))
        return;
    for (size_t i = 0; i < n->n_outputs; i++)
        ts_shape_unknown(&out[i]);
}
