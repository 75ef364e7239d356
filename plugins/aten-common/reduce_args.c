/* reduce_args.c — what every backend's reductions (sum, mean, max, std, norm, all, ...) read
 * and check the same way: the dim argument as a mask of dims, keepdim, the norm order or var
 * correction, the result dtype PyTorch's rules give with their messages, the check of the
 * reductions without an identity, and the result's shape. aten-cpu's reduce.c and
 * aten-cuda's reduce.c compute; this file decides what they compute.
 */
#include "tscript/aten.h"

static int add_dim(TsValue v, int ndim, uint64_t *mask, TsError *err)
{
    int d;
    if (v.tag != TS_TAG_INT)
        return ts_error_set(err, TS_ERR_TYPE, "dim must be an int or a list of ints");
    if (ts_aten_wrap_dim(v.u.i, ndim, true, &d, err))
        return err->code;
    if (ndim == 0)
        return 0;
    if (*mask & (UINT64_C(1) << d))
        return ts_error_set(err, TS_ERR_RUNTIME, "dim %d appears multiple times in the list of "
                            "dims", d);
    *mask |= UINT64_C(1) << d;
    return 0;
}

int ts_aten_red_dims(TsValue v, int ndim, uint64_t *mask, TsError *err)
{
    uint64_t all = ndim >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << ndim) - 1;
    *mask = 0;
    if (v.tag == TS_TAG_NONE) {
        *mask = all;
        return 0;
    }
    if (v.tag != TS_TAG_LIST)
        return add_dim(v, ndim, mask, err);
    const TsList *l = (const TsList *)v.u.p;
    for (size_t i = 0; i < l->len; i++)
        if (add_dim(l->items[i], ndim, mask, err))
            return err->code;
    if (l->len == 0)
        *mask = all;
    return 0;
}

static int read_scalar(TsError *err, TsValue v, double dflt, double *out)
{
    switch (v.tag) {
    case TS_TAG_NONE: *out = dflt; return 0;
    case TS_TAG_INT: *out = (double)v.u.i; return 0;
    case TS_TAG_DOUBLE: *out = v.u.d; return 0;
    case TS_TAG_BOOL: *out = v.u.b; return 0;
    default: return ts_error_set(err, TS_ERR_TYPE, "expected a number");
    }
}

int ts_aten_red_args(TsArgs *a, const TsAtenRedPos *pos, int ndim, bool norm,
                     int (*dtype_arg)(TsArgs *, size_t, int *), TsAtenRedArgs *r)
{
    TsError *err = a->call->error;
    r->dtype = -1;
    r->keepdim = false;
    r->mask = 0;
    r->p = norm ? 2 : 1;
    if (pos->keep && ts_args_bool(a, (size_t)pos->keep, &r->keepdim))
        return err->code;
    if (pos->dtype && dtype_arg(a, (size_t)pos->dtype, &r->dtype))
        return err->code;
    if (pos->p && read_scalar(err, a->v[(int)pos->p], 2, &r->p))
        return err->code;
    if (pos->unbiased) {
        bool unbiased;
        if (ts_args_bool(a, (size_t)pos->unbiased, &unbiased))
            return err->code;
        r->p = unbiased ? 1 : 0;
    }
    if (pos->correction && read_scalar(err, a->v[(int)pos->correction], 1, &r->p))
        return err->code;
    TsValue dv = pos->dim ? a->v[(int)pos->dim] : ts_none();
    r->dim_given = dv.tag != TS_TAG_NONE;
    return ts_aten_red_dims(dv, ndim, &r->mask, err);
}

int ts_aten_red_dtype(TsAtenRedKind kind, const char *name, bool stat_pair, int in, int dtype,
                      int *result, int *cast, TsError *err)
{
    bool fl = ts_dtype_is_floating(in);
    switch (kind) {
    case TS_ATEN_RED_SUM:
        *result = dtype >= 0 ? dtype : ts_dtype_is_integral(in, true) ? TS_INT64 : in;
        break;
    case TS_ATEN_RED_MEAN:
        if (dtype >= 0 && !ts_dtype_is_floating(dtype))
            return ts_error_set(err, TS_ERR_RUNTIME, "%s(): could not infer output dtype. "
                                "Optional dtype must be either a floating point or complex "
                                "dtype. Got: %s", name, ts_dtype_type_name(dtype));
        if (dtype < 0 && !fl)
            return ts_error_set(err, TS_ERR_RUNTIME, "%s(): could not infer output dtype. "
                                "Input dtype must be either a floating point or complex dtype. "
                                "Got: %s", name, ts_dtype_type_name(in));
        *result = dtype >= 0 ? dtype : in;
        break;
    case TS_ATEN_RED_SAME:
        *result = in;
        break;
    case TS_ATEN_RED_INDEX:
    case TS_ATEN_RED_COUNT:
        *result = TS_INT64;
        break;
    case TS_ATEN_RED_BOOL:
        *result = in == TS_UINT8 ? TS_UINT8 : TS_BOOL;
        break;
    case TS_ATEN_RED_VAR:
        if (!fl)
            return ts_error_set(err, TS_ERR_RUNTIME,
                                "%s only support floating point and complex dtypes",
                                stat_pair ? name : "std and var");
        *result = in;
        break;
    case TS_ATEN_RED_NORM:
    case TS_ATEN_RED_VNORM:
        if (!fl && kind == TS_ATEN_RED_VNORM)
            return ts_error_set(err, TS_ERR_RUNTIME, "linalg.vector_norm: Expected a "
                                "floating point or complex tensor as input. Got %s",
                                ts_dtype_type_name(in));
        if (!fl)
            return ts_error_set(err, TS_ERR_RUNTIME, "norm(): input dtype should be either "
                                "floating point or complex. Got %s instead.",
                                ts_dtype_type_name(in));
        if (dtype >= 0 && !ts_dtype_is_floating(dtype))
            return ts_error_set(err, TS_ERR_RUNTIME, "norm(): the desired output dtype "
                                "should be either floating point or complex. Got %s instead.",
                                ts_dtype_type_name(dtype));
        *result = dtype >= 0 ? dtype : in;
        break;
    case TS_ATEN_RED_LSE:
        *result = fl ? in : TS_FLOAT32;
        dtype = *result;
        break;
    }
    /* dtype= (and logsumexp of integers) computes on the input cast to that dtype */
    *cast = dtype >= 0 && dtype != in ? dtype : -1;
    return 0;
}

int ts_aten_red_check_nonempty(const char *name, bool index_form, const TsTensor *x,
                               const TsAtenRedArgs *r, TsError *err)
{
    if (!r->dim_given && ts_tensor_numel(x) == 0) {
        if (index_form)
            return ts_error_set(err, TS_ERR_INDEX, "%s(): Expected reduction dim to be "
                                "specified for input.numel() == 0.", name);
        return ts_error_set(err, TS_ERR_RUNTIME, "%s(): Expected reduction dim to be "
                            "specified for input.numel() == 0. Specify the reduction dim with "
                            "the 'dim' argument.", name);
    }
    for (int d = 0; d < x->dim; d++)
        if ((r->mask & (UINT64_C(1) << d)) && x->sizes[d] == 0)
            return ts_error_set(err, TS_ERR_INDEX, "%s(): Expected reduction dim %d to "
                                "have non-zero size.", name, d);
    return 0;
}

void ts_aten_red_shape(const TsTensor *t, uint64_t mask, bool keepdim, int *dim,
                       int64_t *sizes)
{
    int n = 0;
    for (int d = 0; d < t->dim; d++) {
        if (!(mask & (UINT64_C(1) << d)))
            sizes[n++] = t->sizes[d];
        else if (keepdim)
            sizes[n++] = 1;
    }
    *dim = n;
}
