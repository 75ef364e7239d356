/* unique.c — the kernels behind torch.unique and torch.unique_consecutive: _unique2,
 * _unique, unique_dim, unique_consecutive and unique_dim_consecutive.
 *
 * Every form reduces to rows: the flattened tensor is rows of one element, and with a dim
 * the slices along it are the rows. Rows become keys (int64 for integral dtypes, so exact;
 * double for floats), are stably sorted (unless only consecutive runs are merged) and equal
 * neighbours grouped; the groups give the output (the first row of each, in self's dtype),
 * the inverse (each row's group) and the counts. Outputs the caller did not ask for are
 * empty int64 tensors, as PyTorch returns them. sorted=False returns sorted output too
 * (PyTorch's CPU order then is its hash set's, which nothing should rely on).
 */
#include <stdlib.h>
#include <string.h>

#include "reduce/reduce.h"
#include "shape/shape_ops.h"

/* rows x width keys, as int64 or double. */
typedef struct Keys {
    TsTensor *t;           /* contiguous keys */
    bool ints;
    int64_t rows, width;
} Keys;

static int key_cmp(const Keys *k, int64_t a, int64_t b)
{
    for (int64_t j = 0; j < k->width; j++) {
        if (k->ints) {
            int64_t x = ((const int64_t *)ts_tensor_data(k->t))[a * k->width + j];
            int64_t y = ((const int64_t *)ts_tensor_data(k->t))[b * k->width + j];
            if (x != y)
                return x < y ? -1 : 1;
        } else {
            double x = ((const double *)ts_tensor_data(k->t))[a * k->width + j];
            double y = ((const double *)ts_tensor_data(k->t))[b * k->width + j];
            if (x < y)
                return -1;
            if (x > y)
                return 1;
            if (x != y)   /* a NaN: after every number, and never equal */
                return x != x ? (y != y ? (a < b ? -1 : 1) : 1) : -1;
        }
    }
    return 0;
}

/* Stable merge sort of idx[0, n) by key (tmp has n entries). */
static void sort_rows(const Keys *k, int64_t *idx, int64_t *tmp, int64_t n)
{
    if (n < 2)
        return;
    int64_t h = n / 2;
    sort_rows(k, idx, tmp, h);
    sort_rows(k, idx + h, tmp, n - h);
    int64_t i = 0, j = h, o = 0;
    while (i < h && j < n)
        tmp[o++] = key_cmp(k, idx[j], idx[i]) < 0 ? idx[j++] : idx[i++];
    while (i < h)
        tmp[o++] = idx[i++];
    while (j < n)
        tmp[o++] = idx[j++];
    memcpy(idx, tmp, (size_t)n * sizeof *idx);
}

/* The keys of t's rows: slices along dim (dim < 0: every element its own row). */
static int make_keys(TsError *err, const TsTensor *t, int dim, Keys *k)
{
    int64_t sizes[TS_TENSOR_MAX_DIMS], strides[TS_TENSOR_MAX_DIMS];
    int n = 0;
    k->ints = ts_dtype_is_integral(t->dtype, true);
    k->rows = dim < 0 ? ts_tensor_numel(t) : t->sizes[dim];
    k->width = k->rows ? ts_tensor_numel(t) / (k->rows ? k->rows : 1) : 0;
    if (dim >= 0) {
        sizes[n] = t->sizes[dim];
        strides[n++] = t->strides[dim];
    }
    for (int d = 0; d < t->dim; d++)
        if (d != dim) {
            sizes[n] = t->sizes[d];
            strides[n++] = t->strides[d];
        }
    TsTensor *v = ts_aten_view(t, n, sizes, strides, t->offset, err);
    k->t = v ? ts_cpu_cast(v, k->ints ? TS_INT64 : TS_FLOAT64, err) : NULL;
    if (v)
        ts_tensor_release(v);
    return k->t ? 0 : (int)err->code;
}

typedef struct Groups {
    int64_t n;             /* groups */
    int64_t *first;        /* the first row of each group */
    int64_t *inverse;      /* each row's group */
    int64_t *counts;       /* rows per group */
} Groups;

static void groups_free(Groups *g)
{
    free(g->first);
    free(g->inverse);
    free(g->counts);
}

/* Groups equal rows: sorted first (consecutive false), else runs of equal neighbours. */
static int group_rows(TsError *err, const Keys *k, bool consecutive, Groups *g)
{
    int64_t n = k->rows, m = n ? n : 1;
    int64_t *order = malloc((size_t)m * sizeof *order), *tmp = malloc((size_t)m * sizeof *tmp);
    g->first = malloc((size_t)m * sizeof *g->first);
    g->inverse = malloc((size_t)m * sizeof *g->inverse);
    g->counts = malloc((size_t)m * sizeof *g->counts);
    g->n = 0;
    if (!order || !tmp || !g->first || !g->inverse || !g->counts) {
        free(order);
        free(tmp);
        groups_free(g);
        memset(g, 0, sizeof *g);
        return ts_error_set(err, TS_ERR_NOMEM, "unique: out of memory");
    }
    for (int64_t i = 0; i < n; i++)
        order[i] = i;
    if (!consecutive)
        sort_rows(k, order, tmp, n);
    for (int64_t i = 0; i < n; i++) {
        if (i == 0 || key_cmp(k, order[i - 1], order[i]) != 0) {
            g->first[g->n] = order[i];
            g->counts[g->n++] = 0;
        }
        g->counts[g->n - 1]++;
        g->inverse[order[i]] = g->n - 1;
    }
    free(order);
    free(tmp);
    return 0;
}

/* An int64 tensor of sizes holding v (n entries), or empty when not wanted. */
static TsTensor *int_tensor(TsError *err, bool wanted, int dim, const int64_t *sizes,
                            const int64_t *v, int64_t n)
{
    int64_t zero = 0;
    TsTensor *t = wanted ? ts_cpu_empty(TS_INT64, dim, sizes, err)
                         : ts_cpu_empty(TS_INT64, 1, &zero, err);
    if (t && wanted && n > 0)
        memcpy(ts_tensor_data(t), v, (size_t)n * sizeof *v);
    return t;
}

/* The output: the first row of each group, in self's dtype (rows along dim, or elements). */
static TsTensor *group_output(TsCall *c, TsTensor *t, int dim, const Groups *g)
{
    int64_t n = g->n;
    TsTensor *ix = ts_cpu_empty(TS_INT64, 1, &n, c->error);
    if (!ix)
        return NULL;
    if (n > 0)
        memcpy(ts_tensor_data(ix), g->first, (size_t)n * sizeof *g->first);
    TsTensor *src = t;
    int64_t numel = ts_tensor_numel(t);
    if (dim < 0) {
        /* the flattened self, as a 1-d view of a contiguous copy */
        TsTensor *flat = ts_cpu_cast(t, t->dtype, c->error);
        src = flat ? ts_aten_view(flat, 1, &numel, NULL, flat->offset, c->error) : NULL;
        if (flat)
            ts_tensor_release(flat);
        if (!src) {
            ts_tensor_release(ix);
            return NULL;
        }
    } else {
        ts_tensor_retain(src);
    }
    TsValue a[3] = { ts_obj_value(src, TS_TAG_TENSOR), ts_int(dim < 0 ? 0 : dim),
                     ts_obj_value(ix, TS_TAG_TENSOR) }, r;
    if (ts_cpu_call_kernel(c, &ts_cpu_index_table, "aten::index_select", "", 3, a, &r))
        return NULL;
    return (TsTensor *)r.u.p;
}

/* One unique form over self: res gets (output, inverse, counts). */
static int unique_compute(TsCall *c, TsTensor *t, int dim, bool consecutive, bool inverse,
                          bool counts, TsTensor **res)
{
    Keys k = { NULL, false, 0, 0 };
    Groups g = { 0, NULL, NULL, NULL };
    res[0] = res[1] = res[2] = NULL;
    int rc = make_keys(c->error, t, dim, &k);
    if (!rc)
        rc = group_rows(c->error, &k, consecutive, &g);
    if (!rc) {
        int64_t rows = k.rows;
        res[0] = group_output(c, t, dim, &g);
        res[1] = res[0] ? int_tensor(c->error, inverse, dim < 0 ? t->dim : 1,
                                     dim < 0 ? t->sizes : &rows, g.inverse, k.rows) : NULL;
        res[2] = res[1] ? int_tensor(c->error, counts, 1, &g.n, g.counts, g.n) : NULL;
        rc = res[2] ? 0 : (int)c->error->code;
    }
    groups_free(&g);
    if (k.t)
        ts_tensor_release(k.t);
    for (int i = 0; rc && i < 3; i++)
        if (res[i])
            ts_tensor_release(res[i]);
    return rc;
}

/* Pushes the first nres of res (taking them), or with out (the nres last arguments) stores
 * each into its out= tensor and pushes those; releases the arguments. */
static int unique_finish(TsArgs *a, TsTensor **res, size_t nres, bool out)
{
    TsCall *c = a->call;
    size_t n = a->n;
    int rc = 0;
    TsValue v[3];
    for (size_t i = 0; i < 3; i++) {
        if (i < nres && out && !rc)
            rc = ts_cpu_store_out((TsTensor *)a->v[n - nres + i].u.p, res[i], c->error);
        if (i < nres && out) {
            v[i] = a->v[n - nres + i];
            a->v[n - nres + i] = ts_none();
        } else if (i < nres) {
            v[i] = ts_obj_value(res[i], TS_TAG_TENSOR);
            res[i] = NULL;
        }
        if (res[i])
            ts_tensor_release(res[i]);
    }
    rc = ts_args_fail(a, rc);      /* the arguments go before the results are pushed */
    for (size_t i = 0; i < nres; i++) {
        if (!rc)
            rc = ts_stack_push(c->stack, v[i], c->error);
        else
            ts_value_release(v[i]);
    }
    return rc;
}

static bool flag(TsValue v) { return v.tag == TS_TAG_BOOL && v.u.b; }

/* The out= tensors of a form (the nres last arguments), checked to be tensors. */
static int check_outs(TsArgs *a, size_t nres)
{
    TsTensor *o;
    for (size_t i = a->n - nres; i < a->n; i++)
        if (ts_args_tensor(a, i, &o))
            return a->call->error->code;
    return 0;
}

/* _unique2(Tensor self, bool sorted=True, bool return_inverse=False,
 * bool return_counts=False) -> (Tensor, Tensor, Tensor), and .out (out0, out1, out2) */
static int unique2(TsCall *c, bool out)
{
    TsArgs a;
    TsTensor *res[3], *t;
    if (ts_args_pop(c, TS_DEV_CPU, &a) || ts_args_tensor(&a, 0, &t) ||
        (out && check_outs(&a, 3)) ||
        unique_compute(c, t, -1, false, flag(a.v[2]), flag(a.v[3]), res))
        return ts_args_fail(&a, c->error->code);
    return unique_finish(&a, res, 3, out);
}

static int k_unique2(TsCall *c) { return unique2(c, false); }
static int k_unique2_out(TsCall *c) { return unique2(c, true); }

/* _unique(Tensor self, bool sorted=True, bool return_inverse=False) -> (Tensor, Tensor),
 * and .out (out0, out1) */
static int unique1(TsCall *c, bool out)
{
    TsArgs a;
    TsTensor *res[3], *t;
    if (ts_args_pop(c, TS_DEV_CPU, &a) || ts_args_tensor(&a, 0, &t) ||
        (out && check_outs(&a, 2)) ||
        unique_compute(c, t, -1, false, flag(a.v[2]), false, res))
        return ts_args_fail(&a, c->error->code);
    return unique_finish(&a, res, 2, out);
}

static int k_unique(TsCall *c) { return unique1(c, false); }
static int k_unique_out(TsCall *c) { return unique1(c, true); }

/* unique_dim(Tensor self, int dim, bool sorted=True, bool return_inverse=False,
 * bool return_counts=False) and unique_dim_consecutive(Tensor self, int dim,
 * bool return_inverse=False, bool return_counts=False), and their .out forms: the two
 * flags end the inputs, before the outs. */
static int unique_dim(TsCall *c, bool consecutive, bool out)
{
    TsArgs a;
    TsTensor *res[3], *t;
    int d;
    if (ts_args_pop(c, TS_DEV_CPU, &a) || ts_args_tensor(&a, 0, &t) ||
        (out && check_outs(&a, 3)) || ts_args_dim(&a, 1, t->dim, false, &d))
        return ts_args_fail(&a, c->error->code);
    size_t nin = a.n - (out ? 3 : 0);
    if (unique_compute(c, t, d, consecutive, flag(a.v[nin - 2]), flag(a.v[nin - 1]), res))
        return ts_args_fail(&a, c->error->code);
    return unique_finish(&a, res, 3, out);
}

static int k_unique_dim(TsCall *c) { return unique_dim(c, false, false); }
static int k_unique_dim_out(TsCall *c) { return unique_dim(c, false, true); }
static int k_unique_dim_consecutive(TsCall *c) { return unique_dim(c, true, false); }
static int k_unique_dim_consecutive_out(TsCall *c) { return unique_dim(c, true, true); }

/* unique_consecutive(Tensor self, bool return_inverse=False, bool return_counts=False,
 * int? dim=None), and .out (out0, out1, out2) */
static int unique_consecutive(TsCall *c, bool out)
{
    TsArgs a;
    TsTensor *res[3], *t;
    int d = -1;
    if (ts_args_pop(c, TS_DEV_CPU, &a) || ts_args_tensor(&a, 0, &t) ||
        (out && check_outs(&a, 3)) ||
        (a.v[3].tag != TS_TAG_NONE && ts_args_dim(&a, 3, t->dim, false, &d)) ||
        unique_compute(c, t, d, true, flag(a.v[1]), flag(a.v[2]), res))
        return ts_args_fail(&a, c->error->code);
    return unique_finish(&a, res, 3, out);
}

static int k_unique_consecutive(TsCall *c) { return unique_consecutive(c, false); }
static int k_unique_consecutive_out(TsCall *c) { return unique_consecutive(c, true); }

static const TsCpuOp ops[] = {
    { "aten::_unique2", "", k_unique2 },
    { "aten::_unique2", "out", k_unique2_out },
    { "aten::_unique", "", k_unique },
    { "aten::_unique", "out", k_unique_out },
    { "aten::unique_dim", "", k_unique_dim },
    { "aten::unique_dim", "out", k_unique_dim_out },
    { "aten::unique_dim_consecutive", "", k_unique_dim_consecutive },
    { "aten::unique_dim_consecutive", "out", k_unique_dim_consecutive_out },
    { "aten::unique_consecutive", "", k_unique_consecutive },
    { "aten::unique_consecutive", "out", k_unique_consecutive_out },
};

const TsCpuTable ts_cpu_unique_table = { ops, sizeof ops / sizeof ops[0] };
