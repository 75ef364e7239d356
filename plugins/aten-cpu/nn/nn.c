/* nn.c — the argument readers and result helpers the nn files share (nn.h), and two ops that
 * need no family of their own: embedding (a row gather) and dropout.
 *
 * Dropout in training mode draws from aten-cpu's own generator (random.c), not PyTorch's:
 * each element is kept with probability 1 - p and scaled by 1 / (1 - p), as in PyTorch; the
 * masks themselves differ from torch's.
 */
#include <string.h>

#include "nn/nn.h"
#include "create/random.h"

/* ---- arguments ----------------------------------------------------------------------- */

int ts_nn_int_vec(TsArgs *a, size_t i, int max, int64_t *out, int *len)
{
    const TsList *l = i < a->n && a->v[i].tag == TS_TAG_LIST ? (const TsList *)a->v[i].u.p
                                                             : NULL;
    for (size_t k = 0; l && k < l->len; k++)
        if (l->items[k].tag != TS_TAG_INT)
            l = NULL;
    if (!l)
        return ts_error_set(a->call->error, TS_ERR_TYPE, "%s: argument '%s' must be a list of "
                            "ints", ts_args_op_name(a), ts_args_name(a, i));
    if (l->len > (size_t)max)
        return ts_error_set(a->call->error, TS_ERR_LIMIT, "%s: argument '%s' has %zu values, "
                            "at most %d are supported", ts_args_op_name(a), ts_args_name(a, i),
                            l->len, max);
    for (size_t k = 0; k < l->len; k++)
        out[k] = l->items[k].u.i;
    *len = (int)l->len;
    return 0;
}

double ts_nn_double(TsValue v)
{
    switch (v.tag) {
    case TS_TAG_INT: return (double)v.u.i;
    case TS_TAG_DOUBLE: return v.u.d;
    case TS_TAG_BOOL: return v.u.b;
    default: return 0;
    }
}

int64_t ts_nn_int(TsValue v)
{
    switch (v.tag) {
    case TS_TAG_INT: return v.u.i;
    case TS_TAG_BOOL: return v.u.b;
    default: return 0;
    }
}

int ts_nn_check_float(TsCall *c, const char *name, const TsTensor *t)
{
    if (t->dtype == TS_FLOAT32 || t->dtype == TS_FLOAT64)
        return 0;
    return ts_error_set(c->error, TS_ERR_RUNTIME, "\"%s\" not implemented for '%s'", name,
                        ts_dtype_type_name(t->dtype));
}

int ts_nn_check_reduction(TsCall *c, int64_t reduction)
{
    if (reduction == TS_NN_NONE || reduction == TS_NN_MEAN || reduction == TS_NN_SUM)
        return 0;
    return ts_error_set(c->error, TS_ERR_RUNTIME, "%lld is not a valid value for reduction",
                        (long long)reduction);
}

int ts_nn_same_dtype(TsCall *c, const TsTensor *a, const TsTensor *b)
{
    if (a->dtype == b->dtype)
        return 0;
    return ts_error_set(c->error, TS_ERR_RUNTIME, "expected scalar type %s but found %s",
                        ts_dtype_type_name(a->dtype), ts_dtype_type_name(b->dtype));
}

/* ---- results --------------------------------------------------------------------------- */

TsTensor *ts_nn_contiguous(TsTensor *t, TsError *err)
{
    if (ts_tensor_is_contiguous(t)) {
        ts_tensor_retain(t);
        return t;
    }
    return ts_cpu_cast(t, t->dtype, err);
}

/* ---- embedding -------------------------------------------------------------------------- */

static TsTensor *embedding(TsError *err, TsTensor *w, TsTensor *idx)
{
    if (w->dim != 2) {
        ts_error_set(err, TS_ERR_RUNTIME, "'weight' must be 2-D");
        return NULL;
    }
    if (idx->dtype != TS_INT64 && idx->dtype != TS_INT32) {
        ts_error_set(err, TS_ERR_RUNTIME, "Expected tensor for argument #1 'indices' to have one "
                     "of the following scalar types: Long, Int; but got torch.%sTensor instead "
                     "(while checking arguments for embedding)", ts_dtype_type_name(idx->dtype));
        return NULL;
    }
    if (idx->dim + 1 > TS_TENSOR_MAX_DIMS) {
        ts_error_set(err, TS_ERR_LIMIT, "embedding: too many dimensions");
        return NULL;
    }
    int64_t sizes[TS_TENSOR_MAX_DIMS];
    memcpy(sizes, idx->sizes, (size_t)idx->dim * sizeof *sizes);
    sizes[idx->dim] = w->sizes[1];
    TsTensor *ci = ts_nn_contiguous(idx, err);
    TsTensor *o = ci ? ts_cpu_empty(w->dtype, idx->dim + 1, sizes, err) : NULL;
    if (!o) {
        if (ci)
            ts_tensor_release(ci);
        return NULL;
    }
    int64_t n = ts_tensor_numel(ci), d = w->sizes[1], rows = w->sizes[0];
    size_t es = ts_dtype_size(w->dtype);
    const char *src = ts_tensor_data(w);
    char *dst = ts_tensor_data(o);
    for (int64_t i = 0; i < n; i++) {
        int64_t r = ci->dtype == TS_INT64 ? ((const int64_t *)ts_tensor_data(ci))[i]
                                          : ((const int32_t *)ts_tensor_data(ci))[i];
        if (r < 0 || r >= rows) {
            ts_error_set(err, TS_ERR_INDEX, "index out of range in self");
            ts_tensor_release(o);
            o = NULL;
            break;
        }
        const char *row = src + r * w->strides[0] * (int64_t)es;
        if (w->strides[1] == 1)
            memcpy(dst + i * d * (int64_t)es, row, (size_t)d * es);
        else
            for (int64_t j = 0; j < d; j++)
                memcpy(dst + (i * d + j) * (int64_t)es, row + j * w->strides[1] * (int64_t)es,
                       es);
    }
    ts_tensor_release(ci);
    return o;
}

/* aten::embedding(Tensor weight, Tensor indices, int padding_idx=-1,
 *                 bool scale_grad_by_freq=False, bool sparse=False) -> Tensor
 * (padding_idx and the rest only matter for gradients) */
static int k_embedding(TsCall *c)
{
    TsArgs a;
    TsTensor *w, *idx, *o = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &w);
    if (!rc) rc = ts_args_tensor(&a, 1, &idx);
    if (!rc && !(o = embedding(c->error, w, idx)))
        rc = c->error->code;
    return ts_args_return_tensor(&a, rc, o);
}

/* ---- dropout ----------------------------------------------------------------------------- */

static int dropout_call(TsCall *c, bool inplace)
{
    TsArgs a;
    TsTensor *x = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x);
    double p = rc ? 0 : ts_nn_double(a.v[1]);
    bool train = !rc && a.v[2].tag == TS_TAG_BOOL && a.v[2].u.b;
    if (!rc && (p < 0 || p > 1))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "dropout probability has to be between 0 "
                          "and 1, but got %g", p);
    if (rc || !train || p == 0 || ts_tensor_numel(x) == 0)
        return ts_args_return_arg(&a, rc, 0);    /* the input itself, as PyTorch */
    if ((rc = ts_nn_check_float(c, "dropout", x)))
        return ts_args_fail(&a, rc);
    TsTensor *o = ts_cpu_cast(x, x->dtype, c->error);
    if (o)
        ts_cpu_dropout_data(o->dtype, ts_tensor_data(o), ts_tensor_numel(o), p);
    if (!inplace || !o)
        return ts_args_return_tensor(&a, o ? 0 : (int)c->error->code, o);
    ts_cpu_copy_into(x, o);
    ts_tensor_release(o);
    return ts_args_return_arg(&a, 0, 0);
}

/* aten::dropout(Tensor input, float p, bool train) -> Tensor */
static int k_dropout(TsCall *c) { return dropout_call(c, false); }
/* aten::dropout_(Tensor(a!) self, float p, bool train) -> Tensor(a!) */
static int k_dropout_(TsCall *c) { return dropout_call(c, true); }

static const TsCpuOp ops[] = {
    { "aten::embedding", "", k_embedding },
    { "aten::dropout", "", k_dropout },
    { "aten::dropout_", "", k_dropout_ },
};

const TsCpuTable ts_cpu_nn_table = { ops, sizeof ops / sizeof ops[0] };
