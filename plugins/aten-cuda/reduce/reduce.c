/* reduce.c — the reductions on the GPU over any set of dims: sum, mean, prod, max, min
 * (whole, and .dim with indices), amax, amin, argmax, argmin, std, var, std_mean, var_mean,
 * norm, linalg_vector_norm, all, any, with their dim/keepdim/dtype/out= overloads.
 *
 * Each overload is a RedSpec: where its arguments sit on the stack and how its result dtype
 * follows PyTorch's rules (aten-common's reduce_args.c reads and checks them). One driver
 * reads the arguments, casts the input where dtype= asks, brings it to the outer × red ×
 * inner layout of the kernel family (reduce.h) and launches once.
 */
#include <math.h>

#include "reduce/reduce.h"

/* What an overload returns. */
typedef enum RedForm {
    F_VALUE,                   /* the reduced values */
    F_PAIR,                    /* (values, indices) of max.dim, min.dim */
    F_INDEX,                   /* argmax, argmin */
    F_STAT_PAIR,               /* (std or var, mean) */
} RedForm;

/* An overload: PyTorch's name for it, the kernel's operation, its result dtype rule and
 * form, and where its arguments are. */
typedef struct RedSpec {
    const char *name;          /* "sum", as PyTorch's messages say it */
    TsCudaRedOp op;
    TsAtenRedKind kind;
    RedForm form;
    TsAtenRedPos at;
} RedSpec;

typedef struct RedCall {
    const RedSpec *s;
    TsTensor *x;               /* the input, cast when dtype= asks (owned) */
    int result;                /* the result dtype */
    TsAtenRedArgs g;           /* the reduced dims, keepdim, p, dtype= */
} RedCall;

/* ---- arguments ----------------------------------------------------------------------- */

static int result_dtype(TsCall *c, RedCall *rc)
{
    const RedSpec *s = rc->s;
    int cast;
    if (ts_aten_red_dtype(s->kind, s->name, s->form == F_STAT_PAIR, rc->x->dtype, rc->g.dtype,
                          &rc->result, &cast, c->error))
        return c->error->code;
    if (cast >= 0) {
        TsTensor *t = ts_cuda_cast(rc->x, cast, c->error);
        if (!t)
            return c->error->code;
        ts_tensor_release(rc->x);
        rc->x = t;
    }
    return 0;
}

/* PyTorch's checks for the reductions that have no identity (max, argmax, amax, ...). */
static int check_nonempty(TsCall *c, const RedCall *rc)
{
    const RedSpec *s = rc->s;
    if (s->op != TS_CUDA_RED_MAX && s->op != TS_CUDA_RED_MIN)
        return 0;
    return ts_aten_red_check_nonempty(s->name, s->form == F_INDEX, rc->x, &rc->g, c->error);
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
    ts_aten_red_shape(x, rc->g.mask, rc->g.keepdim, &dim, sizes);
    if (ts_cuda_use_device(x->device, err))
        return err->code;
    TsCudaRed r = { 0 };
    TsTensor *in = layout(x, rc->g.mask, &r, err);
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
        r.p = rc->g.p;
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
    RedCall rc = { s, NULL, 0, { 0, false, false, 0, -1 } };
    TsTensor *x = NULL, *res[2] = { NULL, NULL };
    int st = ts_args_pop(c, TS_DEV_CUDA, &a);
    if (!st)
        st = ts_args_tensor(&a, 0, &x);
    if (!st) {
        ts_tensor_retain(x);
        rc.x = x;
        st = ts_aten_red_args(&a, &s->at, x->dim, s->op == TS_CUDA_RED_NORM,
                              ts_args_opt_dtype, &rc.g);
    }
    if (!st)
        st = result_dtype(c, &rc);
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
    if (!st && s->at.out) {
        st = store_out(&a, (size_t)s->at.out, res[0]);
        int st2 = 0;
        if (s->at.out2)
            st2 = store_out(&a, (size_t)s->at.out2, res[1]);
        else if (res[1])
            ts_tensor_release(res[1]);
        st = st ? st : st2;
        r1 = take_arg(&a, (size_t)s->at.out);
        if (s->at.out2)
            r2 = take_arg(&a, (size_t)s->at.out2);
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

/* KERNEL(fn, name, op, kind, form, ...fields): a RedSpec and its kernel function; kind is
 * a TsAtenRedKind without its TS_ATEN_RED_ prefix, fields a TsAtenRedPos. */
#define KERNEL(FN, NAME, OP, KIND, FORM, ...) \
    static const RedSpec FN##_spec = { NAME, OP, TS_ATEN_RED_##KIND, FORM, { __VA_ARGS__ } }; \
    static int FN(TsCall *c) { return run(c, &FN##_spec); }

/* fields: dim, keep, dtype, out, out2, p, unbiased, correction */
#define SUMLIKE(P, NAME, OP) \
    KERNEL(k_##P, NAME, OP, SUM, F_VALUE, 0, 0, 1, 0, 0, 0, 0, 0) \
    KERNEL(k_##P##_out, NAME, OP, SUM, F_VALUE, 0, 0, 1, 2, 0, 0, 0, 0) \
    KERNEL(k_##P##_dim, NAME, OP, SUM, F_VALUE, 1, 2, 3, 0, 0, 0, 0, 0) \
    KERNEL(k_##P##_dim_out, NAME, OP, SUM, F_VALUE, 1, 2, 3, 4, 0, 0, 0, 0)
SUMLIKE(sum, "sum", TS_CUDA_RED_SUM)
SUMLIKE(prod, "prod", TS_CUDA_RED_PROD)
KERNEL(k_mean, "mean", TS_CUDA_RED_MEAN, MEAN, F_VALUE, 0, 0, 1, 0, 0, 0, 0, 0)
KERNEL(k_mean_dim, "mean", TS_CUDA_RED_MEAN, MEAN, F_VALUE, 1, 2, 3, 0, 0, 0, 0, 0)
KERNEL(k_mean_dim_out, "mean", TS_CUDA_RED_MEAN, MEAN, F_VALUE, 1, 2, 3, 4, 0, 0, 0, 0)

#define MAXLIKE(P, NAME, ANAME, ARGNAME, OP) \
    KERNEL(k_##P, NAME, OP, SAME, F_VALUE, 0, 0, 0, 0, 0, 0, 0, 0) \
    KERNEL(k_##P##_dim, NAME, OP, SAME, F_PAIR, 1, 2, 0, 0, 0, 0, 0, 0) \
    KERNEL(k_##P##_dim_out, NAME, OP, SAME, F_PAIR, 1, 2, 0, 3, 4, 0, 0, 0) \
    KERNEL(k_##P##_a, ANAME, OP, SAME, F_VALUE, 1, 2, 0, 0, 0, 0, 0, 0) \
    KERNEL(k_##P##_a_out, ANAME, OP, SAME, F_VALUE, 1, 2, 0, 3, 0, 0, 0, 0) \
    KERNEL(k_##P##_arg, ARGNAME, OP, INDEX, F_INDEX, 1, 2, 0, 0, 0, 0, 0, 0) \
    KERNEL(k_##P##_arg_out, ARGNAME, OP, INDEX, F_INDEX, 1, 2, 0, 3, 0, 0, 0, 0)
MAXLIKE(max, "max", "amax", "argmax", TS_CUDA_RED_MAX)
MAXLIKE(min, "min", "amin", "argmin", TS_CUDA_RED_MIN)

#define VARLIKE(P, NAME, OP, FORM) \
    KERNEL(k_##P, NAME, OP, VAR, FORM, 0, 0, 0, 0, 0, 0, 1, 0) \
    KERNEL(k_##P##_dim, NAME, OP, VAR, FORM, 1, 3, 0, 0, 0, 0, 2, 0) \
    KERNEL(k_##P##_corr, NAME, OP, VAR, FORM, 1, 3, 0, 0, 0, 0, 0, 2)
VARLIKE(std, "std", TS_CUDA_RED_STD, F_VALUE)
VARLIKE(var, "var", TS_CUDA_RED_VAR, F_VALUE)
VARLIKE(std_mean, "std_mean", TS_CUDA_RED_STD, F_STAT_PAIR)
VARLIKE(var_mean, "var_mean", TS_CUDA_RED_VAR, F_STAT_PAIR)
KERNEL(k_std_out, "std", TS_CUDA_RED_STD, VAR, F_VALUE, 1, 3, 0, 4, 0, 0, 2, 0)
KERNEL(k_std_corr_out, "std", TS_CUDA_RED_STD, VAR, F_VALUE, 1, 3, 0, 4, 0, 0, 0, 2)
KERNEL(k_var_out, "var", TS_CUDA_RED_VAR, VAR, F_VALUE, 1, 3, 0, 4, 0, 0, 2, 0)
KERNEL(k_var_corr_out, "var", TS_CUDA_RED_VAR, VAR, F_VALUE, 1, 3, 0, 4, 0, 0, 0, 2)

#define OP_NORM TS_CUDA_RED_NORM
KERNEL(k_norm, "norm", OP_NORM, NORM, F_VALUE, 0, 0, 0, 0, 0, 1, 0, 0)
KERNEL(k_norm_out, "norm", OP_NORM, NORM, F_VALUE, 0, 0, 0, 2, 0, 1, 0, 0)
KERNEL(k_norm_dim, "norm", OP_NORM, NORM, F_VALUE, 2, 3, 0, 0, 0, 1, 0, 0)
KERNEL(k_norm_dim_out, "norm", OP_NORM, NORM, F_VALUE, 2, 3, 0, 4, 0, 1, 0, 0)
KERNEL(k_norm_dim_dtype, "norm", OP_NORM, NORM, F_VALUE, 2, 3, 4, 0, 0, 1, 0, 0)
KERNEL(k_norm_dim_dtype_out, "norm", OP_NORM, NORM, F_VALUE, 2, 3, 4, 5, 0, 1, 0, 0)
KERNEL(k_norm_dtype, "norm", OP_NORM, NORM, F_VALUE, 0, 0, 2, 0, 0, 1, 0, 0)
KERNEL(k_fro, "frobenius_norm", OP_NORM, NORM, F_VALUE, 0, 0, 0, 0, 0, 0, 0, 0)
KERNEL(k_fro_dim, "frobenius_norm", OP_NORM, NORM, F_VALUE, 1, 2, 0, 0, 0, 0, 0, 0)
KERNEL(k_vnorm, "linalg_vector_norm", OP_NORM, VNORM, F_VALUE, 2, 3, 4, 0, 0, 1, 0, 0)
KERNEL(k_vnorm_out, "linalg_vector_norm", OP_NORM, VNORM, F_VALUE, 2, 3, 4, 5, 0, 1, 0, 0)

#define BOOLLIKE(P, NAME, OP) \
    KERNEL(k_##P, NAME, OP, BOOL, F_VALUE, 0, 0, 0, 0, 0, 0, 0, 0) \
    KERNEL(k_##P##_out, NAME, OP, BOOL, F_VALUE, 0, 0, 0, 1, 0, 0, 0, 0) \
    KERNEL(k_##P##_dim, NAME, OP, BOOL, F_VALUE, 1, 2, 0, 0, 0, 0, 0, 0) \
    KERNEL(k_##P##_dim_out, NAME, OP, BOOL, F_VALUE, 1, 2, 0, 3, 0, 0, 0, 0)
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
