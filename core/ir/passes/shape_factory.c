/* shape_factory.c — shape_prop's rules for the operators that make a tensor from sizes and
 * options: zeros, ones, empty, full, arange, linspace, eye, scalar_tensor, tensor, and the
 * *_like family.
 *
 * A factory's dtype is its dtype= argument, or PyTorch's default when that is None: float32
 * for zeros/ones/empty/eye/linspace/scalar_tensor, the fill value's for full (int64, bool,
 * float32, complex64), int64 or float32 by its arguments for arange, the data's for tensor.
 * Its device is its device= argument, or the runtime's default backend's when that is the
 * CPU (another backend's default index is its plugin's business). The result is new,
 * contiguous, and requires no grad (tensor(..., requires_grad=True) does).
 */
#include <math.h>
#include <string.h>

#include "ir/passes/shape.h"
#include "registry/optable.h"
#include "runtime.h"

static bool is(const TsNode *n, const char *kind) { return strcmp(n->kind, kind) == 0; }

static const char *overload_of(const TsNode *n)
{
    const TsOperator *op = n->op;
    return op && op->schema ? op->schema->overload : "?";
}

/* the dtype argument at i: the constant, dflt for None, -1 when unknown */
static int dtype_arg(const TsNode *n, size_t i, int dflt)
{
    int d = i < n->n_inputs ? ts_shape_const_dtype(n->inputs[i]) : -2;
    return d >= 0 ? d : d == -1 ? dflt : -1;
}

/* the device argument at i (None: the default backend's, when that is the CPU) */
static void device_arg(const TsNode *n, size_t i, const TsPassEnv *env, TsShape *out)
{
    out->device_type = out->device_index = -1;
    if (i >= n->n_inputs)
        return;
    const TsIrValue *v = n->inputs[i];
    TsValue c;
    if (ts_shape_is_none(v)) {
        if (env->rt && ts_runtime_default_device_type(env->rt) == TS_DEV_CPU)
            out->device_type = TS_DEV_CPU;
    } else if (strcmp(v->node->kind, "prim::Constant") == 0 &&
               ts_constant_value(v->node, &c, NULL) == 0) {
        if (c.tag == TS_TAG_DEVICE) {
            out->device_type = c.u.dev.type;
            out->device_index = c.u.dev.index;
        }
        ts_value_release(c);
    }
}

/* The dtype a Python number of v's type gives a tensor: int64, float32, bool, complex64. */
static int number_dtype(const TsType *t)
{
    switch (ts_type_kind(t)) {
    case TS_TYPE_INT: return TS_INT64;
    case TS_TYPE_FLOAT: return TS_FLOAT32;
    case TS_TYPE_BOOL: return TS_BOOL;
    case TS_TYPE_COMPLEX: return TS_COMPLEX64;
    default: return -1;
    }
}

/* A number constant as a double; false when v is not one. */
static bool const_number(const TsIrValue *v, double *out, bool *is_float)
{
    TsValue c;
    if (strcmp(v->node->kind, "prim::Constant") != 0 || ts_constant_value(v->node, &c, NULL))
        return false;
    bool ok = c.tag == TS_TAG_INT || c.tag == TS_TAG_DOUBLE;
    if (ok) {
        *is_float = c.tag == TS_TAG_DOUBLE;
        *out = *is_float ? c.u.d : (double)c.u.i;
    }
    ts_value_release(c);
    return ok;
}

/* arange(end, ...) / arange(start, end, ...) / arange(start, end, step, ...): k numbers */
static void arange_shape(const TsNode *n, int k, TsShape *out)
{
    double v[3] = { 0, 0, 1 };
    bool any_float = false, known = true, types_known = true;
    for (int i = 0; i < k; i++) {
        bool f = false;
        int at = k == 1 ? 1 : i;   /* arange(end): end goes to v[1] */
        known &= const_number(n->inputs[i], &v[at], &f);
        /* a Scalar argument may be an int or a float: the default dtype is not known */
        types_known &= number_dtype(n->inputs[i]->type) >= 0;
        any_float |= ts_type_kind(n->inputs[i]->type) == TS_TYPE_FLOAT;
    }
    out->dtype = dtype_arg(n, (size_t)k, types_known ? (any_float ? TS_FLOAT32 : TS_INT64) : -1);
    out->dim = 1;
    out->sizes[0] = -1;
    /* an int64 result counts with its arguments cut to ints (arange(0, 4.5, dtype=long)
     * has 4 elements); other dtypes count in double */
    if (out->dtype == TS_INT64)
        for (int i = 0; i < 3; i++)
            v[i] = trunc(v[i]);
    if (!known || v[2] == 0 || (out->dtype < 0 && any_float))
        return;
    double size = ceil((v[1] - v[0]) / v[2]);
    if (size >= 0 && size < 9.0e15)
        out->sizes[0] = (int64_t)size;
}

/* tensor(data, dtype, device, requires_grad) for a number or a flat list of numbers */
static void tensor_shape(const TsNode *n, TsShape *out)
{
    const TsIrValue *data = n->inputs[0];
    int dflt = number_dtype(data->type);
    if (dflt >= 0) {
        out->dim = 0;
    } else if (ts_type_kind(data->type) == TS_TYPE_LIST &&
               (dflt = number_dtype(ts_type_elem(data->type, 0))) >= 0) {
        int64_t len = -1;
        TsValue c;
        if (strcmp(data->node->kind, "prim::ListConstruct") == 0 &&
            ts_shape_list_only_read(data)) {
            len = (int64_t)data->node->n_inputs;
        } else if (strcmp(data->node->kind, "prim::Constant") == 0 &&
                   ts_constant_value(data->node, &c, NULL) == 0) {
            if (c.tag == TS_TAG_LIST)
                len = (int64_t)((const TsList *)c.u.p)->len;
            ts_value_release(c);
        }
        out->dim = 1;
        out->sizes[0] = len;
    } else {
        return;                    /* nested lists: their depth is not in the type */
    }
    out->dtype = dtype_arg(n, 1, dflt);
    bool rg;
    out->requires_grad = n->n_inputs == 4 && ts_shape_const_bool(n->inputs[3], &rg) ? rg : -1;
}

/* zeros_like(self, dtype, layout, device, ...) / full_like(self, fill, dtype, ...) */
static void like_shape(const TsNode *n, size_t dtype_at, const TsPassEnv *env, TsShape *out)
{
    TsShape self;
    ts_shape_of(n->inputs[0], &self);
    out->dim = self.dim;
    memcpy(out->sizes, self.sizes, sizeof out->sizes);
    out->dtype = dtype_arg(n, dtype_at, self.dtype);
    if (dtype_at + 2 < n->n_inputs && ts_shape_is_none(n->inputs[dtype_at + 2])) {
        out->device_type = self.device_type;
        out->device_index = self.device_index;
    } else {
        device_arg(n, dtype_at + 2, env, out);
    }
}

bool ts_shape_rule_factory(const TsNode *n, const TsPassEnv *env, TsShape *out)
{
    if (n->n_outputs != 1)
        return false;
    const char *ov = overload_of(n);
    size_t dtype_at;               /* where the dtype argument is; device is 2 later */
    int dflt = TS_FLOAT32;
    bool sized = false, contiguous = true;
    if ((is(n, "aten::zeros") || is(n, "aten::ones") || is(n, "aten::empty") ||
         is(n, "aten::rand") || is(n, "aten::randn")) &&
        (!strcmp(ov, "") || !strcmp(ov, "memory_format"))) {
        dtype_at = 1;
        sized = true;
        contiguous = !is(n, "aten::empty") || n->n_inputs < 6 || ts_shape_is_none(n->inputs[5]);
    } else if (is(n, "aten::full") && !strcmp(ov, "") && n->n_inputs >= 3) {
        dtype_at = 2;
        dflt = number_dtype(n->inputs[1]->type);
        sized = true;
    } else if (is(n, "aten::arange") && (!strcmp(ov, "") || !strcmp(ov, "start") ||
                                        !strcmp(ov, "start_step"))) {
        int k = !strcmp(ov, "") ? 1 : !strcmp(ov, "start") ? 2 : 3;
        if (n->n_inputs < (size_t)k + 3)
            return false;
        arange_shape(n, k, out);
        dtype_at = (size_t)k;
    } else if (is(n, "aten::linspace") && n->n_inputs >= 4) {
        int64_t steps;
        out->dim = 1;
        out->sizes[0] = ts_shape_const_int(n->inputs[2], &steps) && steps >= 0 ? steps : -1;
        out->dtype = dtype_arg(n, 3, TS_FLOAT32);
        dtype_at = 3;
    } else if (is(n, "aten::eye") && (!strcmp(ov, "") || !strcmp(ov, "m"))) {
        dtype_at = !strcmp(ov, "") ? 1 : 2;
        if (n->n_inputs < dtype_at + 3)
            return false;
        int64_t a, b;
        out->dim = 2;
        out->sizes[0] = ts_shape_const_int(n->inputs[0], &a) && a >= 0 ? a : -1;
        out->sizes[1] = dtype_at == 1 ? out->sizes[0]
                        : ts_shape_const_int(n->inputs[1], &b) && b >= 0 ? b : -1;
        out->dtype = dtype_arg(n, dtype_at, TS_FLOAT32);
    } else if (is(n, "aten::scalar_tensor") && n->n_inputs >= 4) {
        dtype_at = 1;
        out->dim = 0;
        out->dtype = dtype_arg(n, 1, TS_FLOAT32);
    } else if (is(n, "aten::tensor") && n->n_inputs == 4) {
        tensor_shape(n, out);
        device_arg(n, 2, env, out);
        ts_shape_set_contiguous(out);
        return true;
    } else if ((is(n, "aten::zeros_like") || is(n, "aten::ones_like") ||
                is(n, "aten::empty_like") || is(n, "aten::rand_like") ||
                is(n, "aten::randn_like") || is(n, "aten::full_like")) &&
               n->n_inputs >= 5 && ts_shape_is_tensor(n->inputs[0])) {
        like_shape(n, is(n, "aten::full_like") ? 2 : 1, env, out);
        out->requires_grad = 0;
        return true;
    } else {
        return false;
    }
    if (sized) {
        int64_t v[TS_SHAPE_MAX_DIMS];
        bool known[TS_SHAPE_MAX_DIMS];
        int k;
        if (ts_shape_int_list(n->inputs[0], v, known, &k)) {
            out->dim = k;
            for (int i = 0; i < k; i++)
                out->sizes[i] = known[i] && v[i] >= 0 ? v[i] : -1;
        }
        out->dtype = dtype_arg(n, dtype_at, dflt);
    }
    device_arg(n, dtype_at + 2, env, out);
    out->requires_grad = 0;
    if (contiguous)
        ts_shape_set_contiguous(out);
    return true;
}
