/* reduce.c — the reductions on the GPU over any set of dims: sum, mean, prod, max, min
 * (whole, and .dim with indices), amax, amin, argmax, argmin, std, var, std_mean, var_mean,
 * norm, linalg_vector_norm, all, any, with their dim/keepdim/dtype/out= overloads.
 *
 * Each overload is a RedSpec: where its arguments sit on the stack and how its result dtype
 * follows PyTorch's rules (as aten-cpu's reduce.c, whose messages these are). One driver
 * reads the arguments, casts the input where dtype= asks, brings it to the outer × red ×
 * inner layout of the kernel family (reduce.h) and launches once.
 */
#include <math.h>

#include "reduce/reduce.h"

/* How the result dtype follows the input and the dtype argument. */
typedef enum RedKind {
    K_SUM,                     /* integral and bool become int64; dtype= casts the input */
    K_MEAN,                    /* floating only */
    K_SAME,                    /* max, min, amax, amin */
    K_INDEX,                   /* argmax, argmin: int64 */
    K_BOOL,                    /* all, any: bool (uint8 stays uint8) */
    K_VAR,                     /* floating only */
    K_NORM,                    /* floating only; dtype= must be floating */
    K_VNORM,                   /* linalg_vector_norm: the same with its own message */
} RedKind;

/* What an overload returns. */
typedef enum RedForm {
    F_VALUE,                   /* the reduced values */
    F_PAIR,                    /* (values, indices) of max.dim, min.dim */
    F_INDEX,                   /* argmax, argmin */
    F_STAT_PAIR,               /* (std or var, mean) */
} RedForm;

/* Where an overload's arguments are (0: absent; self is always argument 0). */
typedef struct RedSpec {
    const char *name;          /* "sum", as PyTorch's messages say it */
    TsCudaRedOp op;
    RedKind kind;
    RedForm form;
    int8_t dim, keep, dtype, out, out2, p, unbiased, correction;
} RedSpec;

typedef struct RedCall {
    const RedSpec *s;
    TsTensor *x;               /* the input, cast when dtype= asks (owned) */
    int result;                /* the result dtype */
    uint64_t mask;             /* the reduced dims */
    bool keepdim, dim_given;
    double p;                  /* norm order or var correction */
} RedCall;

/* ---- arguments ----------------------------------------------------------------------- */

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

/* A dim argument (None, int or int[]) as a mask; None and [] mean every dim. */
static int dims_arg(TsValue v, int ndim, uint64_t *mask, TsError *err)
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

static int read_scalar(TsCall *c, TsValue v, double dflt, double *out)
{
    switch (v.tag) {
    case TS_TAG_NONE: *out = dflt; return 0;
    case TS_TAG_INT: *out = (double)v.u.i; return 0;
    case TS_TAG_DOUBLE: *out = v.u.d; return 0;
    case TS_TAG_BOOL: *out = v.u.b; return 0;
    default: return ts_error_set(c->error, TS_ERR_TYPE, "expected a number");
    }
}

/* Reads the spec's arguments (all but self and the outs) into rc. */
static int read_args(TsArgs *a, RedCall *rc, int *dtype)
{
    TsCall *c = a->call;
    const RedSpec *s = rc->s;
    *dtype = -1;
    rc->p = s->op == TS_CUDA_RED_NORM ? 2 : 1;
    if (s->keep && ts_args_bool(a, (size_t)s->keep, &rc->keepdim))
        return c->error->code;
    if (s->dtype && ts_args_opt_dtype(a, (size_t)s->dtype, dtype))
        return c->error->code;
    if (s->p && read_scalar(c, a->v[(int)s->p], 2, &rc->p))
        return c->error->code;
    if (s->unbiased) {
        bool unbiased;
        if (ts_args_bool(a, (size_t)s->unbiased, &unbiased))
            return c->error->code;
        rc->p = unbiased ? 1 : 0;
    }
    if (s->correction && read_scalar(c, a->v[(int)s->correction], 1, &rc->p))
        return c->error->code;
    TsValue dv = s->dim ? a->v[(int)s->dim] : ts_none();
    rc->dim_given = dv.tag != TS_TAG_NONE;
    return dims_arg(dv, rc->x->dim, &rc->mask, c->error);
}

static int result_dtype(TsCall *c, RedCall *rc, int dtype)
{
    const RedSpec *s = rc->s;
    int in = rc->x->dtype;
    bool fl = ts_dtype_is_floating(in);
    switch (s->kind) {
    case K_SUM:
        rc->result = dtype >= 0 ? dtype : ts_dtype_is_integral(in, true) ? TS_INT64 : in;
        break;
    case K_MEAN:
        if (dtype >= 0 && !ts_dtype_is_floating(dtype))
            return ts_error_set(c->error, TS_ERR_RUNTIME, "%s(): could not infer output dtype. "
                                "Optional dtype must be either a floating point or complex "
                                "dtype. Got: %s", s->name, ts_dtype_type_name(dtype));
        if (dtype < 0 && !fl)
            return ts_error_set(c->error, TS_ERR_RUNTIME, "%s(): could not infer output dtype. "
                                "Input dtype must be either a floating point or complex dtype. "
                                "Got: %s", s->name, ts_dtype_type_name(in));
        rc->result = dtype >= 0 ? dtype : in;
        break;
    case K_SAME:
        rc->result = in;
        break;
    case K_INDEX:
        rc->result = TS_INT64;
        break;
    case K_BOOL:
        rc->result = in == TS_UINT8 ? TS_UINT8 : TS_BOOL;
        break;
    case K_VAR:
        if (!fl)
            return ts_error_set(c->error, TS_ERR_RUNTIME,
                                "%s only support floating point and complex dtypes",
                                s->form == F_STAT_PAIR ? s->name : "std and var");
        rc->result = in;
        break;
    case K_NORM:
    case K_VNORM:
        if (!fl && s->kind == K_VNORM)
            return ts_error_set(c->error, TS_ERR_RUNTIME, "linalg.vector_norm: Expected a "
                                "floating point or complex tensor as input. Got %s",
                                ts_dtype_type_name(in));
        if (!fl)
            return ts_error_set(c->error, TS_ERR_RUNTIME, "norm(): input dtype should be either "
                                "floating point or complex. Got %s instead.",
                                ts_dtype_type_name(in));
        if (dtype >= 0 && !ts_dtype_is_floating(dtype))
            return ts_error_set(c->error, TS_ERR_RUNTIME, "norm(): the desired output dtype "
                                "should be either floating point or complex. Got %s instead.",
                                ts_dtype_type_name(dtype));
        rc->result = dtype >= 0 ? dtype : in;
        break;
    }
    if (dtype >= 0 && dtype != in) {
        TsTensor *cast = ts_cuda_cast(rc->x, dtype, c->error);
        if (!cast)
            return c->error->code;
        ts_tensor_release(rc->x);
        rc->x = cast;
    }
    return 0;
}

/* PyTorch's checks for the reductions that have no identity (max, argmax, amax, ...). */
static int check_nonempty(TsCall *c, const RedCall *rc)
{
    const TsTensor *x = rc->x;
    const RedSpec *s = rc->s;
    if (s->op != TS_CUDA_RED_MAX && s->op != TS_CUDA_RED_MIN)
        return 0;
    if (!rc->dim_given && ts_tensor_numel(x) == 0) {
        if (s->form == F_INDEX)
            return ts_error_set(c->error, TS_ERR_INDEX, "%s(): Expected reduction dim to be "
                                "specified for input.numel() == 0.", s->name);
        return ts_error_set(c->error, TS_ERR_RUNTIME, "%s(): Expected reduction dim to be "
                            "specified for input.numel() == 0. Specify the reduction dim with "
                            "the 'dim' argument.", s->name);
    }
    for (int d = 0; d < x->dim; d++)
        if ((rc->mask & (UINT64_C(1) << d)) && x->sizes[d] == 0)
            return ts_error_set(c->error, TS_ERR_INDEX, "%s(): Expected reduction dim %d to "
                                "have non-zero size.", s->name, d);
    return 0;
}

/* ---- the layout ------------------------------------------------------------------------ */

static bool reduced(uint64_t mask, int d)
{
    return (mask >> d) & 1;
}

/* Sets r's layout for x and returns the tensor the kernel reads (a new reference): x itself
 * when it is contiguous and its reduced dims (of more than one element) are neighbours,
 * else a copy with the kept dims first. */
static TsTensor *layout(TsTensor *x, uint64_t mask, TsCudaRed *r, TsError *err)
{
    int first = -1, last = -1;
    for (int d = 0; d < x->dim; d++)
        if (reduced(mask, d) && x->sizes[d] != 1) {
            if (first < 0)
                first = d;
            last = d;
        }
    bool run = ts_tensor_is_contiguous(x);
    for (int d = first + 1; run && d < last; d++)
        run = reduced(mask, d) || x->sizes[d] == 1;
    r->outer = r->red = r->inner = 1;
    for (int d = 0; d < x->dim; d++) {
        if (reduced(mask, d))
            r->red *= x->sizes[d];
        else if (run && d > last && last >= 0)
            r->inner *= x->sizes[d];
        else
            r->outer *= x->sizes[d];
    }
    /* a few outputs of long strided runs: rows of a copy spread better over the GPU */
    if (run && r->inner > 1 && r->outer * r->inner < 1024 && r->red >= 1024)
        run = false;
    if (run) {
        ts_tensor_retain(x);
        return x;
    }
    r->outer *= r->inner;
    r->inner = 1;
    int64_t sizes[TS_TENSOR_MAX_DIMS], strides[TS_TENSOR_MAX_DIMS];
    int n = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int d = 0; d < x->dim; d++)
            if (reduced(mask, d) == (pass == 1)) {
                sizes[n] = x->sizes[d];
                strides[n++] = x->strides[d];
            }
    TsTensor *v = ts_aten_view(x, x->dim, sizes, strides, x->offset, err);
    TsTensor *copy = v ? ts_cuda_contiguous_as(v, x->dtype, err) : NULL;
    if (v)
        ts_tensor_release(v);
    return copy;
}

/* The result's shape: reduced dims removed, or kept as 1. */
static void out_shape(const TsTensor *x, uint64_t mask, bool keepdim, int *dim, int64_t *sizes)
{
    int n = 0;
    for (int d = 0; d < x->dim; d++) {
        if (!reduced(mask, d))
            sizes[n++] = x->sizes[d];
        else if (keepdim)
            sizes[n++] = 1;
    }
    *dim = n;
}

/* t (taken) as dtype. */
static TsTensor *as_dtype(TsTensor *t, int dtype, TsError *err)
{
    if (!t || t->dtype == dtype)
        return t;
    TsTensor *r = ts_cuda_cast(t, dtype, err);
    ts_tensor_release(t);
    return r;
}

/* Runs the reduction: values in res[0] (the result dtype), and indices (max, min) or means
 * (std_mean, var_mean) in res[1] when the form has them. */
static int run_reduce(TsCall *c, const RedCall *rc, TsTensor **res)
{
    TsError *err = c->error;
    const RedSpec *s = rc->s;
    TsTensor *x = rc->x;
    int dim, kdt = ts_cuda_red_out_dtype(s->op, x->dtype);
    int64_t sizes[TS_TENSOR_MAX_DIMS];
    out_shape(x, rc->mask, rc->keepdim, &dim, sizes);
    if (ts_cuda_use_device(x->device, err))
        return err->code;
    TsCudaRed r = { 0 };
    TsTensor *in = layout(x, rc->mask, &r, err);
    res[0] = in ? ts_cuda_empty_on(x->device, kdt, dim, sizes, err) : NULL;
    bool second = s->form == F_PAIR || s->form == F_INDEX || s->form == F_STAT_PAIR;
    int dt2 = s->form == F_STAT_PAIR ? x->dtype : TS_INT64;
    res[1] = res[0] && second ? ts_cuda_empty_on(x->device, dt2, dim, sizes, err) : NULL;
    int st = res[0] && (!second || res[1]) ? 0 : (int)err->code;
    if (!st) {
        r.in = ts_tensor_data(in);
        r.dtype = in->dtype;
        r.out = ts_tensor_data(res[0]);
        r.idx = second && s->form != F_STAT_PAIR ? ts_tensor_data(res[1]) : NULL;
        r.mean = s->form == F_STAT_PAIR ? ts_tensor_data(res[1]) : NULL;
        r.p = rc->p;
        st = ts_cuda_launch_reduce(s->op, &r, err);
    }
    if (in)
        ts_tensor_release(in);
    if (!st && !(res[0] = as_dtype(res[0], rc->result, err)))
        st = err->code;
    if (st)
        for (int k = 0; k < 2; k++)
            if (res[k]) {
                ts_tensor_release(res[k]);
                res[k] = NULL;
            }
    return st;
}

/* out (argument i) given result's shape and elements; result released. */
static int store_out(TsArgs *a, size_t i, TsTensor *result)
{
    TsTensor *out;
    int st = ts_args_tensor(a, i, &out);
    if (!st)
        st = ts_aten_resize_out(out, result->dim, result->sizes, &ts_cuda_allocator,
                                a->call->error);
    if (!st)
        st = ts_cuda_copy_into(out, result, a->call->error);
    ts_tensor_release(result);
    return st;
}

static TsValue take_arg(TsArgs *a, size_t i)
{
    TsValue v = a->v[i];
    a->v[i] = ts_none();
    return v;
}

static int run(TsCall *c, const RedSpec *s)
{
    TsArgs a;
    RedCall rc = { s, NULL, 0, 0, false, false, 0 };
    TsTensor *x = NULL, *res[2] = { NULL, NULL };
    int dtype = -1, st = ts_args_pop(c, TS_DEV_CUDA, &a);
    if (!st)
        st = ts_args_tensor(&a, 0, &x);
    if (!st) {
        ts_tensor_retain(x);
        rc.x = x;
        st = read_args(&a, &rc, &dtype);
    }
    if (!st)
        st = result_dtype(c, &rc, dtype);
    if (!st)
        st = check_nonempty(c, &rc);
    if (!st)
        st = run_reduce(c, &rc, res);
    if (rc.x)
        ts_tensor_release(rc.x);
    if (!st && s->form == F_INDEX) {
        ts_tensor_release(res[0]);
        res[0] = res[1];
        res[1] = NULL;
    }
    TsValue r1 = ts_none(), r2 = ts_none();
    if (!st && s->out) {
        st = store_out(&a, (size_t)s->out, res[0]);
        int st2 = 0;
        if (s->out2)
            st2 = store_out(&a, (size_t)s->out2, res[1]);
        else if (res[1])
            ts_tensor_release(res[1]);
        st = st ? st : st2;
        r1 = take_arg(&a, (size_t)s->out);
        if (s->out2)
            r2 = take_arg(&a, (size_t)s->out2);
    } else if (!st) {
        r1 = ts_obj_value(res[0], TS_TAG_TENSOR);
        if (res[1])
            r2 = ts_obj_value(res[1], TS_TAG_TENSOR);
    }
    if (s->form == F_PAIR || s->form == F_STAT_PAIR)
        return ts_args_return_values(&a, st, 2, (TsValue[]){ r1, r2 });
    return ts_args_return(&a, st, r1);
}

/* ---- the overloads ------------------------------------------------------------------ */

/* KERNEL(fn, name, op, kind, form, ...fields): a RedSpec and its kernel function. */
#define KERNEL(FN, NAME, OP, KIND, FORM, ...) \
    static const RedSpec FN##_spec = { NAME, OP, KIND, FORM, __VA_ARGS__ }; \
    static int FN(TsCall *c) { return run(c, &FN##_spec); }

/* fields: dim, keep, dtype, out, out2, p, unbiased, correction */
#define SUMLIKE(P, NAME, OP) \
    KERNEL(k_##P, NAME, OP, K_SUM, F_VALUE, 0, 0, 1, 0, 0, 0, 0, 0) \
    KERNEL(k_##P##_out, NAME, OP, K_SUM, F_VALUE, 0, 0, 1, 2, 0, 0, 0, 0) \
    KERNEL(k_##P##_dim, NAME, OP, K_SUM, F_VALUE, 1, 2, 3, 0, 0, 0, 0, 0) \
    KERNEL(k_##P##_dim_out, NAME, OP, K_SUM, F_VALUE, 1, 2, 3, 4, 0, 0, 0, 0)
SUMLIKE(sum, "sum", TS_CUDA_RED_SUM)
SUMLIKE(prod, "prod", TS_CUDA_RED_PROD)
KERNEL(k_mean, "mean", TS_CUDA_RED_MEAN, K_MEAN, F_VALUE, 0, 0, 1, 0, 0, 0, 0, 0)
KERNEL(k_mean_dim, "mean", TS_CUDA_RED_MEAN, K_MEAN, F_VALUE, 1, 2, 3, 0, 0, 0, 0, 0)
KERNEL(k_mean_dim_out, "mean", TS_CUDA_RED_MEAN, K_MEAN, F_VALUE, 1, 2, 3, 4, 0, 0, 0, 0)

#define MAXLIKE(P, NAME, ANAME, ARGNAME, OP) \
    KERNEL(k_##P, NAME, OP, K_SAME, F_VALUE, 0, 0, 0, 0, 0, 0, 0, 0) \
    KERNEL(k_##P##_dim, NAME, OP, K_SAME, F_PAIR, 1, 2, 0, 0, 0, 0, 0, 0) \
    KERNEL(k_##P##_dim_out, NAME, OP, K_SAME, F_PAIR, 1, 2, 0, 3, 4, 0, 0, 0) \
    KERNEL(k_##P##_a, ANAME, OP, K_SAME, F_VALUE, 1, 2, 0, 0, 0, 0, 0, 0) \
    KERNEL(k_##P##_a_out, ANAME, OP, K_SAME, F_VALUE, 1, 2, 0, 3, 0, 0, 0, 0) \
    KERNEL(k_##P##_arg, ARGNAME, OP, K_INDEX, F_INDEX, 1, 2, 0, 0, 0, 0, 0, 0) \
    KERNEL(k_##P##_arg_out, ARGNAME, OP, K_INDEX, F_INDEX, 1, 2, 0, 3, 0, 0, 0, 0)
MAXLIKE(max, "max", "amax", "argmax", TS_CUDA_RED_MAX)
MAXLIKE(min, "min", "amin", "argmin", TS_CUDA_RED_MIN)

#define VARLIKE(P, NAME, OP, FORM) \
    KERNEL(k_##P, NAME, OP, K_VAR, FORM, 0, 0, 0, 0, 0, 0, 1, 0) \
    KERNEL(k_##P##_dim, NAME, OP, K_VAR, FORM, 1, 3, 0, 0, 0, 0, 2, 0) \
    KERNEL(k_##P##_corr, NAME, OP, K_VAR, FORM, 1, 3, 0, 0, 0, 0, 0, 2)
VARLIKE(std, "std", TS_CUDA_RED_STD, F_VALUE)
VARLIKE(var, "var", TS_CUDA_RED_VAR, F_VALUE)
VARLIKE(std_mean, "std_mean", TS_CUDA_RED_STD, F_STAT_PAIR)
VARLIKE(var_mean, "var_mean", TS_CUDA_RED_VAR, F_STAT_PAIR)
KERNEL(k_std_out, "std", TS_CUDA_RED_STD, K_VAR, F_VALUE, 1, 3, 0, 4, 0, 0, 2, 0)
KERNEL(k_std_corr_out, "std", TS_CUDA_RED_STD, K_VAR, F_VALUE, 1, 3, 0, 4, 0, 0, 0, 2)
KERNEL(k_var_out, "var", TS_CUDA_RED_VAR, K_VAR, F_VALUE, 1, 3, 0, 4, 0, 0, 2, 0)
KERNEL(k_var_corr_out, "var", TS_CUDA_RED_VAR, K_VAR, F_VALUE, 1, 3, 0, 4, 0, 0, 0, 2)

#define NORM TS_CUDA_RED_NORM
KERNEL(k_norm, "norm", NORM, K_NORM, F_VALUE, 0, 0, 0, 0, 0, 1, 0, 0)
KERNEL(k_norm_out, "norm", NORM, K_NORM, F_VALUE, 0, 0, 0, 2, 0, 1, 0, 0)
KERNEL(k_norm_dim, "norm", NORM, K_NORM, F_VALUE, 2, 3, 0, 0, 0, 1, 0, 0)
KERNEL(k_norm_dim_out, "norm", NORM, K_NORM, F_VALUE, 2, 3, 0, 4, 0, 1, 0, 0)
KERNEL(k_norm_dim_dtype, "norm", NORM, K_NORM, F_VALUE, 2, 3, 4, 0, 0, 1, 0, 0)
KERNEL(k_norm_dim_dtype_out, "norm", NORM, K_NORM, F_VALUE, 2, 3, 4, 5, 0, 1, 0, 0)
KERNEL(k_norm_dtype, "norm", NORM, K_NORM, F_VALUE, 0, 0, 2, 0, 0, 1, 0, 0)
KERNEL(k_fro, "frobenius_norm", NORM, K_NORM, F_VALUE, 0, 0, 0, 0, 0, 0, 0, 0)
KERNEL(k_fro_dim, "frobenius_norm", NORM, K_NORM, F_VALUE, 1, 2, 0, 0, 0, 0, 0, 0)
KERNEL(k_vnorm, "linalg_vector_norm", NORM, K_VNORM, F_VALUE, 2, 3, 4, 0, 0, 1, 0, 0)
KERNEL(k_vnorm_out, "linalg_vector_norm", NORM, K_VNORM, F_VALUE, 2, 3, 4, 5, 0, 1, 0, 0)

#define BOOLLIKE(P, NAME, OP) \
    KERNEL(k_##P, NAME, OP, K_BOOL, F_VALUE, 0, 0, 0, 0, 0, 0, 0, 0) \
    KERNEL(k_##P##_out, NAME, OP, K_BOOL, F_VALUE, 0, 0, 0, 1, 0, 0, 0, 0) \
    KERNEL(k_##P##_dim, NAME, OP, K_BOOL, F_VALUE, 1, 2, 0, 0, 0, 0, 0, 0) \
    KERNEL(k_##P##_dim_out, NAME, OP, K_BOOL, F_VALUE, 1, 2, 0, 3, 0, 0, 0, 0)
BOOLLIKE(all, "all", TS_CUDA_RED_ALL)
BOOLLIKE(any, "any", TS_CUDA_RED_ANY)

static const TsCudaOp ops[] = {
    { "aten::sum", "", k_sum }, { "aten::sum", "out", k_sum_out },
    { "aten::sum", "dim_IntList", k_sum_dim }, { "aten::sum", "IntList_out", k_sum_dim_out },
    { "aten::mean", "", k_mean }, { "aten::mean", "dim", k_mean_dim },
    { "aten::mean", "out", k_mean_dim_out },
    { "aten::prod", "", k_prod }, { "aten::prod", "out", k_prod_out },
    { "aten::prod", "dim_int", k_prod_dim }, { "aten::prod", "int_out", k_prod_dim_out },
    { "aten::max", "", k_max }, { "aten::max", "dim", k_max_dim },
    { "aten::max", "dim_max", k_max_dim_out },
    { "aten::amax", "", k_max_a }, { "aten::amax", "out", k_max_a_out },
    { "aten::argmax", "", k_max_arg }, { "aten::argmax", "out", k_max_arg_out },
    { "aten::min", "", k_min }, { "aten::min", "dim", k_min_dim },
    { "aten::min", "dim_min", k_min_dim_out },
    { "aten::amin", "", k_min_a }, { "aten::amin", "out", k_min_a_out },
    { "aten::argmin", "", k_min_arg }, { "aten::argmin", "out", k_min_arg_out },
    { "aten::std", "", k_std }, { "aten::std", "dim", k_std_dim },
    { "aten::std", "correction", k_std_corr }, { "aten::std", "out", k_std_out },
    { "aten::std", "correction_out", k_std_corr_out },
    { "aten::var", "", k_var }, { "aten::var", "dim", k_var_dim },
    { "aten::var", "correction", k_var_corr }, { "aten::var", "out", k_var_out },
    { "aten::var", "correction_out", k_var_corr_out },
    { "aten::std_mean", "", k_std_mean }, { "aten::std_mean", "dim", k_std_mean_dim },
    { "aten::std_mean", "correction", k_std_mean_corr },
    { "aten::var_mean", "", k_var_mean }, { "aten::var_mean", "dim", k_var_mean_dim },
    { "aten::var_mean", "correction", k_var_mean_corr },
    { "aten::norm", "Scalar", k_norm }, { "aten::norm", "Scalar_out", k_norm_out },
    { "aten::norm", "ScalarOpt_dim", k_norm_dim }, { "aten::norm", "out", k_norm_dim_out },
    { "aten::norm", "ScalarOpt_dim_dtype", k_norm_dim_dtype },
    { "aten::norm", "dtype_out", k_norm_dim_dtype_out },
    { "aten::norm", "ScalarOpt_dtype", k_norm_dtype },
    { "aten::frobenius_norm", "", k_fro }, { "aten::frobenius_norm", "dim", k_fro_dim },
    { "aten::linalg_vector_norm", "", k_vnorm }, { "aten::linalg_vector_norm", "out", k_vnorm_out },
    { "aten::all", "", k_all }, { "aten::all", "all_out", k_all_out },
    { "aten::all", "dim", k_all_dim }, { "aten::all", "out", k_all_dim_out },
    { "aten::any", "", k_any }, { "aten::any", "all_out", k_any_out },
    { "aten::any", "dim", k_any_dim }, { "aten::any", "out", k_any_dim_out },
};

const TsCudaTable ts_cuda_reduce_table = { ops, sizeof ops / sizeof ops[0] };
