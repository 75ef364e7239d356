/* factory.c — new tensors on the GPU: empty, zeros, ones, full, their *_like and new_*
 * forms, from `device="cuda"` or from a config whose default backend is cuda.
 *
 * Every factory ends its schema with the same tail (dtype, layout, device, pin_memory),
 * which is read here by the arguments' names, so one reader serves every form (random.c's
 * factories too). dtype None means self's dtype for the *_like and new_* forms, the fill
 * value's for full (int -> int64, bool -> bool, float -> float32), else float32, as in
 * PyTorch 1.13. arange, linspace and torch.tensor build their elements on the host and copy
 * them over in one transfer.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "create/factory.h"

static int arg_index(const TsArgs *a, const char *name)
{
    for (size_t i = 0; i < a->n; i++) {
        const char *n = ts_operator_arg_name(a->call->op, i);
        if (n && strcmp(n, name) == 0)
            return (int)i;
    }
    return -1;
}

int ts_cuda_read_request(TsArgs *a, TsCudaRequest *q)
{
    TsError *err = a->call->error;
    memset(q, 0, sizeof *q);
    q->dtype = -1;
    q->device.type = TS_DEV_CUDA;
    q->device.index = -1;
    q->fill = ts_none();
    int i, rc = 0;
    if ((i = arg_index(a, "self")) >= 0 && (rc = ts_args_tensor(a, (size_t)i, &q->like)))
        return rc;
    if (q->like) {
        q->dtype = q->like->dtype;
        q->device = q->like->device;
        q->dim = q->like->dim;
        memcpy(q->sizes, q->like->sizes, (size_t)q->dim * sizeof q->sizes[0]);
    }
    if ((i = arg_index(a, "size")) >= 0 &&
        (rc = ts_args_int_list(a, (size_t)i, q->sizes, &q->dim, TS_TENSOR_MAX_DIMS)))
        return rc;
    for (int d = 0; d < q->dim; d++)
        if (q->sizes[d] < 0) {
            char list[256];
            ts_aten_format_sizes(list, sizeof list, q->dim, q->sizes);
            return ts_error_set(err, TS_ERR_RUNTIME, "Trying to create tensor with negative "
                                "dimension %lld: %s", (long long)q->sizes[d], list);
        }
    if ((i = arg_index(a, "fill_value")) >= 0) {
        q->fill = a->v[i];
        if (!q->like)
            q->dtype = ts_aten_scalar_dtype(q->fill);
    }
    int dtype = -1;
    if ((i = arg_index(a, "dtype")) >= 0 && (rc = ts_args_opt_dtype(a, (size_t)i, &dtype)))
        return rc;
    if (dtype >= 0)            /* None keeps self's dtype, or the fill value's */
        q->dtype = dtype;
    if ((i = arg_index(a, "device")) >= 0 && a->v[i].tag == TS_TAG_DEVICE) {
        TsDevice d = a->v[i].u.dev;
        if (d.type != TS_DEV_CUDA)
            return ts_error_set(err, TS_ERR_RUNTIME, "%s: the cuda backend cannot make a "
                                "tensor on another device", ts_args_op_name(a));
        q->device = d;
    }
    if ((i = arg_index(a, "layout")) >= 0 && a->v[i].tag == TS_TAG_INT && a->v[i].u.i != 0)
        return ts_error_set(err, TS_ERR_RUNTIME, "%s: the cuda backend supports only the "
                            "strided layout", ts_args_op_name(a));
    if (q->dtype < 0)
        q->dtype = TS_FLOAT32;
    if (ts_aten_promote_types(q->dtype, q->dtype) < 0)
        return ts_error_set(err, TS_ERR_RUNTIME, "%s: dtype %d is not supported by the cuda "
                            "backend", ts_args_op_name(a), q->dtype);
    return 0;
}

/* The factory: a new tensor, filled with fill unless it is None (empty). */
static int make(TsCall *c, TsValue fill)
{
    TsArgs a;
    TsCudaRequest q;
    TsTensor *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CUDA, &a);
    if (!rc)
        rc = ts_cuda_read_request(&a, &q);
    if (!rc && !(r = ts_cuda_empty_on(q.device, q.dtype, q.dim, q.sizes, c->error)))
        rc = c->error->code;
    if (!rc && q.fill.tag != TS_TAG_NONE)
        rc = ts_cuda_fill(r, q.fill, c->error);
    else if (!rc && fill.tag != TS_TAG_NONE)
        rc = ts_cuda_fill(r, fill, c->error);
    return ts_args_return_tensor(&a, rc, r);
}

static int k_empty(TsCall *c) { return make(c, ts_none()); }
static int k_zeros(TsCall *c) { return make(c, ts_int(0)); }
static int k_ones(TsCall *c) { return make(c, ts_int(1)); }
/* full and full_like fill with their fill_value (read_request) */
static int k_full(TsCall *c) { return make(c, ts_none()); }

TsTensor *ts_cuda_from_host(TsDevice dev, int dtype, int dim, const int64_t *sizes, int64_t n,
                            int (*elem)(void *ctx, int64_t i, int dtype, void *out,
                                        TsError *err),
                            void *ctx, TsError *err)
{
    size_t es = ts_dtype_size(dtype);
    char *host = malloc(n > 0 ? (size_t)n * es : 1);
    if (!host) {
        ts_error_set(err, TS_ERR_NOMEM, "out of memory making a tensor");
        return NULL;
    }
    int rc = 0;
    for (int64_t i = 0; i < n && !rc; i++)
        rc = elem(ctx, i, dtype, host + (size_t)i * es, err);
    TsTensor *t = rc ? NULL : ts_cuda_empty_on(dev, dtype, dim, sizes, err);
    if (t && n > 0 &&
        ts_cuda_allocator.copy(&ts_cuda_allocator, ts_tensor_data(t), host, (size_t)n * es,
                               t->device, true, err)) {
        ts_tensor_release(t);
        t = NULL;
    }
    free(host);
    return t;
}

/* ---- arange ---------------------------------------------------------------------------- */

typedef struct Range {
    double start, step;
} Range;

static int range_elem(void *ctx, int64_t i, int dtype, void *out, TsError *err)
{
    const Range *r = ctx;
    double v = r->start + (double)i * r->step;
    TsValue x = ts_dtype_is_floating(dtype) ? ts_double(v) : ts_int((int64_t)v);
    return ts_aten_scalar_to_elem(x, dtype, out, err);
}

/* arange(end), arange.start(start, end), arange.start_step(start, end, step) */
static int k_arange(TsCall *c)
{
    TsArgs a;
    TsCudaRequest q;
    TsTensor *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CUDA, &a);
    if (!rc)
        rc = ts_cuda_read_request(&a, &q);
    if (rc)
        return ts_args_fail(&a, rc);
    int iend = arg_index(&a, "end"), istart = arg_index(&a, "start"), istep = arg_index(&a, "step");
    TsValue end = a.v[iend], start = istart >= 0 ? a.v[istart] : ts_int(0);
    TsValue step = istep >= 0 ? a.v[istep] : ts_int(1);
    bool floating = end.tag == TS_TAG_DOUBLE || start.tag == TS_TAG_DOUBLE ||
                    step.tag == TS_TAG_DOUBLE;
    int id = arg_index(&a, "dtype");
    int dtype = id >= 0 && a.v[id].tag == TS_TAG_INT ? (int)a.v[id].u.i
                                                    : (floating ? TS_FLOAT32 : TS_INT64);
    Range range = { start.tag == TS_TAG_DOUBLE ? start.u.d : (double)start.u.i,
                    step.tag == TS_TAG_DOUBLE ? step.u.d : (double)step.u.i };
    double e = end.tag == TS_TAG_DOUBLE ? end.u.d : (double)end.u.i;
    if (range.step == 0)
        return ts_args_fail(&a, ts_error_set(c->error, TS_ERR_RUNTIME, "step must be nonzero"));
    if ((range.step > 0 && e < range.start) || (range.step < 0 && e > range.start))
        return ts_args_fail(&a, ts_error_set(c->error, TS_ERR_RUNTIME, "upper bound and larger "
                                             "bound inconsistent with step sign"));
    double count = ceil((e - range.start) / range.step);
    if (!(count >= 0 && count < 9e18))
        return ts_args_fail(&a, ts_error_set(c->error, TS_ERR_RUNTIME, "arange: the range has "
                                             "too many elements"));
    int64_t n = (int64_t)count;
    r = ts_cuda_from_host(q.device, dtype, 1, &n, n, range_elem, &range, c->error);
    return ts_args_return_tensor(&a, r ? 0 : (int)c->error->code, r);
}

/* ---- linspace ------------------------------------------------------------------------- */

/* A Scalar bound of linspace: integral results start from it as an integer, as on the cpu. */
static double linspace_bound(TsValue v, bool integral)
{
    double d = v.tag == TS_TAG_DOUBLE ? v.u.d : v.tag == TS_TAG_BOOL ? v.u.b : (double)v.u.i;
    if (!integral || v.tag != TS_TAG_DOUBLE)
        return d;
    return d >= -9223372036854775808.0 && d < 9223372036854775808.0 ? (double)(int64_t)d
                                                                    : (double)INT64_MIN;
}

static int copy_elem(void *ctx, int64_t i, int dtype, void *out, TsError *err)
{
    size_t es = ts_dtype_size(dtype);
    memcpy(out, (const char *)ctx + (size_t)i * es, es);
    return 0;
}

/* linspace(Scalar start, Scalar end, int steps, *, ScalarType? dtype=None, ...): the values
 * aten-cpu computes (aten-common's ts_aten_linspace_typed), copied over. */
static int k_linspace(TsCall *c)
{
    TsArgs a;
    TsCudaRequest q;
    TsTensor *r = NULL;
    int64_t steps = 0;
    int rc = ts_args_pop(c, TS_DEV_CUDA, &a);
    if (!rc)
        rc = ts_cuda_read_request(&a, &q);
    if (!rc)
        rc = ts_args_int(&a, 2, &steps);
    if (!rc && steps < 0)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "number of steps must be non-negative");
    if (rc)
        return ts_args_fail(&a, rc);
    bool integral = !ts_dtype_is_floating(q.dtype);
    void *host = malloc(steps > 0 ? (size_t)steps * sizeof(double) : 1);
    if (!host)
        return ts_args_fail(&a, ts_error_set(c->error, TS_ERR_NOMEM, "out of memory"));
    int got = ts_aten_linspace_typed(linspace_bound(a.v[0], integral),
                                     linspace_bound(a.v[1], integral), steps, q.dtype, host);
    if (got == 0)
        r = ts_cuda_from_host(q.device, q.dtype, 1, &steps, steps, copy_elem, host, c->error);
    else if (got > 0)
        ts_error_set(c->error, TS_ERR_RUNTIME, "\"linspace_cuda\" not implemented for '%s'",
                     ts_dtype_type_name(q.dtype));
    else
        ts_error_set(c->error, TS_ERR_NOMEM, "out of memory");
    free(host);
    return ts_args_return_tensor(&a, r ? 0 : (int)c->error->code, r);
}

/* ---- torch.tensor ---------------------------------------------------------------------- */

/* The shape of nested lists of numbers; *floating / *integral when such leaves occur. */
static int list_shape(TsValue v, int depth, int *dim, int64_t *sizes, bool *floating,
                      bool *integral, TsError *err)
{
    if (v.tag != TS_TAG_LIST) {
        if (depth != *dim && *dim >= 0)
            return ts_error_set(err, TS_ERR_VALUE, "expected sequence of length %lld at dim %d "
                                "(got %s)", (long long)sizes[depth], depth, "a number");
        *dim = depth;
        *floating |= v.tag == TS_TAG_DOUBLE;
        *integral |= v.tag == TS_TAG_INT;
        return 0;
    }
    const TsList *l = (const TsList *)v.u.p;
    if (depth >= TS_TENSOR_MAX_DIMS)
        return ts_error_set(err, TS_ERR_VALUE, "torch.tensor: too many dimensions");
    if (*dim >= 0 && depth >= *dim)
        return ts_error_set(err, TS_ERR_VALUE, "torch.tensor: ragged nested sequence");
    if (sizes[depth] < 0)
        sizes[depth] = (int64_t)l->len;
    else if (sizes[depth] != (int64_t)l->len)
        return ts_error_set(err, TS_ERR_VALUE, "expected sequence of length %lld at dim %d "
                            "(got %lld)", (long long)sizes[depth], depth, (long long)l->len);
    if (l->len == 0 && *dim < 0)
        *dim = depth + 1;
    for (size_t i = 0; i < l->len; i++) {
        int rc = list_shape(l->items[i], depth + 1, dim, sizes, floating, integral, err);
        if (rc)
            return rc;
    }
    return 0;
}

/* The leaves of nested lists in order. */
typedef struct Leaves {
    TsValue *v;
    int64_t n;
} Leaves;

static void collect(TsValue v, Leaves *out)
{
    if (v.tag != TS_TAG_LIST) {
        out->v[out->n++] = v;
        return;
    }
    const TsList *l = (const TsList *)v.u.p;
    for (size_t i = 0; i < l->len; i++)
        collect(l->items[i], out);
}

static int leaf_elem(void *ctx, int64_t i, int dtype, void *out, TsError *err)
{
    return ts_aten_scalar_to_elem(((Leaves *)ctx)->v[i], dtype, out, err);
}

/* tensor(t[] data, ...), tensor.int, tensor.float, tensor.bool */
static int k_tensor(TsCall *c)
{
    TsArgs a;
    TsCudaRequest q;
    int rc = ts_args_pop(c, TS_DEV_CUDA, &a);
    if (!rc)
        rc = ts_cuda_read_request(&a, &q);
    if (rc)
        return ts_args_fail(&a, rc);
    int dim = -1;
    int64_t sizes[TS_TENSOR_MAX_DIMS];
    for (int d = 0; d < TS_TENSOR_MAX_DIMS; d++)
        sizes[d] = -1;
    bool floating = false, integral = false;
    if ((rc = list_shape(a.v[0], 0, &dim, sizes, &floating, &integral, c->error)))
        return ts_args_fail(&a, rc);
    int64_t n = 1;
    for (int d = 0; d < dim; d++)
        n *= sizes[d];
    int id = arg_index(&a, "dtype");
    int dtype = id >= 0 && a.v[id].tag == TS_TAG_INT ? (int)a.v[id].u.i
                : floating ? TS_FLOAT32 : integral ? TS_INT64 : (n > 0 ? TS_BOOL : TS_FLOAT32);
    Leaves leaves = { malloc(n > 0 ? (size_t)n * sizeof(TsValue) : 1), 0 };
    if (!leaves.v)
        return ts_args_fail(&a, ts_error_set(c->error, TS_ERR_NOMEM, "out of memory"));
    collect(a.v[0], &leaves);
    TsTensor *r = ts_cuda_from_host(q.device, dtype, dim, sizes, n, leaf_elem, &leaves, c->error);
    free(leaves.v);
    return ts_args_return_tensor(&a, r ? 0 : (int)c->error->code, r);
}

static const TsCudaOp ops[] = {
    { "aten::arange", "", k_arange },
    { "aten::arange", "start", k_arange },
    { "aten::arange", "start_step", k_arange },
    { "aten::linspace", "", k_linspace },
    { "aten::tensor", "", k_tensor },
    { "aten::tensor", "int", k_tensor },
    { "aten::tensor", "float", k_tensor },
    { "aten::tensor", "bool", k_tensor },
    { "aten::empty", "memory_format", k_empty },
    { "aten::zeros", "", k_zeros },
    { "aten::ones", "", k_ones },
    { "aten::full", "", k_full },
    { "aten::empty_like", "", k_empty },
    { "aten::zeros_like", "", k_zeros },
    { "aten::ones_like", "", k_ones },
    { "aten::full_like", "", k_full },
    { "aten::new_empty", "", k_empty },
    { "aten::new_zeros", "", k_zeros },
    { "aten::new_ones", "", k_ones },
    { "aten::new_full", "", k_full },
};

const TsCudaTable ts_cuda_factory_table = { ops, sizeof ops / sizeof ops[0] };
