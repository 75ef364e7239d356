/* sort.c — ordering along one dim: sort, argsort, topk, kthvalue and median, with their out=
 * forms.
 *
 * Each row along the dim is gathered into (value, index) pairs and ordered the way PyTorch
 * 1.13's CPU kernel orders it, so that equal values come out with PyTorch's indices: sort
 * with stable=True (and median, the lower middle of that order) by a sort with the index as
 * the tie-break; sort with stable=False by std::sort, topk by std::partial_sort (k * 64 <= n)
 * or std::nth_element and std::sort, kthvalue by PyTorch's quickselect, each as libstdc++
 * performs it (stl_order.h). nan sorts above every number, as in PyTorch: last ascending,
 * first descending; the median of a row holding a nan is nan.
 */
#include <math.h>
#include <stdlib.h>

#include "reduce/reduce.h"
#include "engine/stl_order.h"

typedef struct PairD {
    double v;
    int64_t i;
} PairD;

typedef struct PairI {
    int64_t v;
    int64_t i;
} PairI;

/* PyTorch's orders: nan above every number; integers plainly. */
#define D_LT(a, b) ((!isnan((a).v) && isnan((b).v)) || (a).v < (b).v)
#define D_GT(a, b) ((isnan((a).v) && !isnan((b).v)) || (a).v > (b).v)
#define I_LT(a, b) ((a).v < (b).v)
#define I_GT(a, b) ((a).v > (b).v)
STL_ORDER(d_asc, PairD, D_LT)
STL_ORDER(d_desc, PairD, D_GT)
STL_ORDER(i_asc, PairI, I_LT)
STL_ORDER(i_desc, PairI, I_GT)
STL_QUICKSELECT(d_desc, PairD, D_GT)
STL_QUICKSELECT(i_desc, PairI, I_GT)

/* How a row is ordered. */
typedef enum Order {
    ORDER_STABLE,              /* sort(stable=True), median: ties by index */
    ORDER_SORT,                /* sort(stable=False): std::sort */
    ORDER_TOPK,                /* the first k of topk, sorted or not */
    ORDER_KTH,                 /* the k-th smallest at k - 1: PyTorch's quickselect */
} Order;

/* Orders n pairs of type T (prefix A ascending, D descending) as `how` says. */
#define ORDER_PAIRS(A, D, pairs, n, desc, how, k, sorted) \
    do { \
        if ((how) == ORDER_SORT) { \
            if (desc) \
                D##_sort(pairs, n); \
            else \
                A##_sort(pairs, n); \
        } else if ((how) == ORDER_KTH) { \
            D##_quick_select(pairs, (k) - 1, n); \
        } else if ((k) > 0 && (k) * 64 <= (n)) { \
            if (desc) \
                D##_partial_sort(pairs, k, n); \
            else \
                A##_partial_sort(pairs, k, n); \
        } else if ((k) > 0) { \
            if (desc) \
                D##_nth_element(pairs, (k) - 1, n); \
            else \
                A##_nth_element(pairs, (k) - 1, n); \
            if ((sorted) && (desc)) \
                D##_sort(pairs, (k) - 1); \
            else if (sorted) \
                A##_sort(pairs, (k) - 1); \
        } \
    } while (0)

/* nan above everything; equal values by index */
static int cmp_d_asc(const void *pa, const void *pb)
{
    const PairD *a = pa, *b = pb;
    bool na = isnan(a->v), nb = isnan(b->v);
    if (na != nb)
        return na ? 1 : -1;
    if (!na && a->v != b->v)
        return a->v < b->v ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i);
}

static int cmp_d_desc(const void *pa, const void *pb)
{
    const PairD *a = pa, *b = pb;
    bool na = isnan(a->v), nb = isnan(b->v);
    if (na != nb)
        return na ? -1 : 1;
    if (!na && a->v != b->v)
        return a->v > b->v ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i);
}

static int cmp_i_asc(const void *pa, const void *pb)
{
    const PairI *a = pa, *b = pb;
    if (a->v != b->v)
        return a->v < b->v ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i);
}

static int cmp_i_desc(const void *pa, const void *pb)
{
    const PairI *a = pa, *b = pb;
    if (a->v != b->v)
        return a->v > b->v ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i);
}

/* One row, sorted: the pairs and plain arrays of its values and indices (n entries). */
typedef struct Row {
    bool fd;
    int64_t n;
    union { PairD *d; PairI *i; } pairs;
    union { double *d; int64_t *i; } vals;
    int64_t *idx;
} Row;

static int row_init(Row *r, bool fd, int64_t n, TsError *err)
{
    size_t m = n ? (size_t)n : 1;
    r->fd = fd;
    r->n = n;
    r->pairs.d = malloc(m * sizeof(PairD));
    r->vals.d = malloc(m * sizeof(double));
    r->idx = malloc(m * sizeof(int64_t));
    if (!r->pairs.d || !r->vals.d || !r->idx)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    return 0;
}

static void row_free(Row *r)
{
    free(r->pairs.d);
    free(r->vals.d);
    free(r->idx);
}

/* Gathers the row at base and orders it as `how` says (k for topk and kthvalue); vals/idx
 * hold the order. */
static void row_sort(Row *r, const TsCpuRed *plan, const char *base, bool desc, Order how,
                     int64_t k, bool sorted)
{
    int64_t n = r->n;
    if (r->fd) {
        ts_cpu_gather_d(plan, base, 0, n, r->vals.d);
        for (int64_t j = 0; j < n; j++)
            r->pairs.d[j] = (PairD){ r->vals.d[j], j };
        if (how == ORDER_STABLE)
            qsort(r->pairs.d, (size_t)n, sizeof(PairD), desc ? cmp_d_desc : cmp_d_asc);
        else
            ORDER_PAIRS(d_asc, d_desc, r->pairs.d, n, desc, how, k, sorted);
        for (int64_t j = 0; j < n; j++) {
            r->vals.d[j] = r->pairs.d[j].v;
            r->idx[j] = r->pairs.d[j].i;
        }
    } else {
        ts_cpu_gather_i(plan, base, 0, n, r->vals.i);
        for (int64_t j = 0; j < n; j++)
            r->pairs.i[j] = (PairI){ r->vals.i[j], j };
        if (how == ORDER_STABLE)
            qsort(r->pairs.i, (size_t)n, sizeof(PairI), desc ? cmp_i_desc : cmp_i_asc);
        else
            ORDER_PAIRS(i_asc, i_desc, r->pairs.i, n, desc, how, k, sorted);
        for (int64_t j = 0; j < n; j++) {
            r->vals.i[j] = r->pairs.i[j].v;
            r->idx[j] = r->pairs.i[j].i;
        }
    }
}

/* Orders x along d as `how` says and keeps the first k of each row: values (x's dtype) and
 * int64 indices with size k along d. */
static int sort_k(TsTensor *x, int d, bool desc, Order how, int64_t k, bool sorted,
                  TsTensor **vals, TsTensor **idx, TsError *err)
{
    uint64_t mask = x->dim ? UINT64_C(1) << d : 0;
    int64_t sizes[TS_TENSOR_MAX_DIMS];
    for (int j = 0; j < x->dim; j++)
        sizes[j] = j == d ? k : x->sizes[j];
    TsTensor *v = ts_cpu_empty(ts_cpu_work_dtype(x->dtype), x->dim, sizes, err);
    TsTensor *ix = v ? ts_cpu_empty(TS_INT64, x->dim, sizes, err) : NULL;
    TsCpuRed rin, rv, ri;
    Row row = { ts_dtype_is_floating(x->dtype), 0, { NULL }, { NULL }, NULL };
    int st = ix ? 0 : (int)err->code;
    if (!st) {
        ts_cpu_red_plan(x, mask, &rin);
        ts_cpu_red_plan(v, mask, &rv);
        ts_cpu_red_plan(ix, mask, &ri);
        st = row_init(&row, row.fd, rin.nred, err);
    }
    for (int64_t o = 0; !st && k > 0 && o < rin.nout; o++) {
        row_sort(&row, &rin, ts_cpu_red_base(&rin, o), desc, how, k, sorted);
        if (row.fd)
            ts_cpu_scatter_d(&rv, (char *)ts_cpu_red_base(&rv, o), row.vals.d);
        else
            ts_cpu_scatter_i(&rv, (char *)ts_cpu_red_base(&rv, o), row.vals.i);
        ts_cpu_scatter_i(&ri, (char *)ts_cpu_red_base(&ri, o), row.idx);
    }
    row_free(&row);
    if (!st && !(v = ts_cpu_finish(v, x->dtype, err)))
        st = err->code;
    if (st) {
        if (v)
            ts_tensor_release(v);
        if (ix)
            ts_tensor_release(ix);
        return st;
    }
    *vals = v;
    *idx = ix;
    return 0;
}

/* The lower median of each row along d (every dim when all): values and indices. */
static int median(TsTensor *x, uint64_t mask, bool keepdim, TsTensor **vals, TsTensor **idx,
                  TsError *err)
{
    int dim;
    int64_t sizes[TS_TENSOR_MAX_DIMS];
    ts_aten_red_shape(x, mask, keepdim, &dim, sizes);
    bool fd = ts_dtype_is_floating(x->dtype);
    TsTensor *v = ts_cpu_empty(fd ? TS_FLOAT64 : TS_INT64, dim, sizes, err);
    TsTensor *ix = v ? ts_cpu_empty(TS_INT64, dim, sizes, err) : NULL;
    TsCpuRed r;
    Row row = { fd, 0, { NULL }, { NULL }, NULL };
    int st = ix ? 0 : (int)err->code;
    if (!st) {
        ts_cpu_red_plan(x, mask, &r);
        st = row_init(&row, fd, r.nred, err);
    }
    for (int64_t o = 0; !st && o < r.nout; o++) {
        int64_t *io = (int64_t *)ts_tensor_data(ix) + o;
        if (r.nred == 0) {
            if (fd)
                ((double *)ts_tensor_data(v))[o] = NAN;
            else
                ((int64_t *)ts_tensor_data(v))[o] = 0;
            *io = 0;
            continue;
        }
        row_sort(&row, &r, ts_cpu_red_base(&r, o), false, ORDER_STABLE, 0, true);
        int64_t m = (r.nred - 1) / 2;
        if (fd) {
            /* a nan sorts last; the median is then the first nan */
            int64_t first_nan = r.nred;
            while (first_nan > 0 && isnan(row.vals.d[first_nan - 1]))
                first_nan--;
            if (first_nan < r.nred)
                m = first_nan;
            ((double *)ts_tensor_data(v))[o] = row.vals.d[m];
        } else {
            ((int64_t *)ts_tensor_data(v))[o] = row.vals.i[m];
        }
        *io = row.idx[m];
    }
    row_free(&row);
    if (!st && !(v = ts_cpu_finish(v, x->dtype, err)))
        st = err->code;
    if (st) {
        if (v)
            ts_tensor_release(v);
        if (ix)
            ts_tensor_release(ix);
        return st;
    }
    *vals = v;
    *idx = ix;
    return 0;
}

/* The view of t (sorted with size k along d) at index k - 1 of d, without d unless keep. */
static TsTensor *select_last(TsTensor *t, int d, int64_t k, bool keep, TsError *err)
{
    int64_t sizes[TS_TENSOR_MAX_DIMS], strides[TS_TENSOR_MAX_DIMS];
    int dim = 0;
    for (int j = 0; j < t->dim; j++) {
        if (j == d && !keep)
            continue;
        sizes[dim] = j == d ? 1 : t->sizes[j];
        strides[dim++] = t->strides[j];
    }
    int64_t off = t->offset + (t->dim ? (k - 1) * t->strides[d] : 0);
    TsTensor *v = ts_aten_view(t, dim, sizes, strides, off, err);
    ts_tensor_release(t);
    return v;
}

/* The k-th smallest of each row along d (1 <= k <= the row's size) and its index. */
static int kth(TsTensor *x, int d, int64_t k, bool keep, TsTensor **vals, TsTensor **idx,
               TsError *err)
{
    TsTensor *v, *ix;
    int st = sort_k(x, d, false, ORDER_KTH, k, true, &v, &ix, err);
    if (st)
        return st;
    v = select_last(v, d, k, keep, err);
    ix = select_last(ix, d, k, keep, err);
    if (!v || !ix) {
        if (v)
            ts_tensor_release(v);
        if (ix)
            ts_tensor_release(ix);
        return err->code;
    }
    *vals = v;
    *idx = ix;
    return 0;
}

/* ---- kernels ------------------------------------------------------------------------ */

typedef enum SortForm { SORT, ARGSORT, TOPK, KTH, MEDIAN_ALL, MEDIAN_DIM } SortForm;

/* Where an overload's arguments are (0: absent; self is argument 0). */
typedef struct SortSpec {
    SortForm form;
    int8_t dim, desc, stable, k, largest, sorted, keep, out, out2;
} SortSpec;

/* Argument i when the overload has it (i > 0), a bool or None (dflt). */
static int read_bool(TsArgs *a, int8_t i, bool dflt, bool *out)
{
    *out = dflt;
    if (!i || a->v[(int)i].tag == TS_TAG_NONE)
        return 0;
    return ts_args_bool(a, (size_t)i, out);
}

static int compute(TsArgs *a, const SortSpec *s, TsTensor *x, TsTensor **r1, TsTensor **r2)
{
    TsCall *c = a->call;
    int d = 0;
    bool desc, largest, keep, sorted, stable;
    if ((s->dim && ts_args_dim(a, (size_t)s->dim, x->dim, true, &d)) ||
        read_bool(a, s->desc, false, &desc) || read_bool(a, s->stable, false, &stable) ||
        read_bool(a, s->largest, true, &largest) || read_bool(a, s->sorted, true, &sorted) ||
        read_bool(a, s->keep, false, &keep))
        return c->error->code;
    /* PyTorch 1.13's cpu kernels have no float16 median, topk, kthvalue, nor bool median, topk */
    bool half = x->dtype == TS_FLOAT16, bool_ = x->dtype == TS_BOOL;
    const char *lacking = NULL;
    if ((s->form == MEDIAN_ALL || s->form == MEDIAN_DIM) && (half || bool_))
        lacking = s->form == MEDIAN_ALL ? "median_cpu" : "median_out";
    else if (s->form == TOPK && (half || bool_))
        lacking = "topk_cpu";
    else if (s->form == KTH && half)
        lacking = "kthvalue_cpu";
    if (lacking)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "\"%s\" not implemented for '%s'", lacking,
                            ts_dtype_type_name(x->dtype));
    if (s->form == MEDIAN_ALL || s->form == MEDIAN_DIM) {
        uint64_t mask = s->form == MEDIAN_ALL ? (x->dim >= 64 ? ~UINT64_C(0)
                                                 : (UINT64_C(1) << x->dim) - 1)
                                              : (x->dim ? UINT64_C(1) << d : 0);
        if (s->form == MEDIAN_DIM && x->dim && x->sizes[d] == 0)
            return ts_error_set(c->error, TS_ERR_INDEX, "median(): Expected reduction dim %d to "
                                "have non-zero size.", d);
        int st = median(x, mask, keep, r1, r2, c->error);
        if (!st && s->form == MEDIAN_ALL) {
            ts_tensor_release(*r2);
            *r2 = NULL;
        }
        return st;
    }
    int64_t size = x->dim ? x->sizes[d] : 1, k = size;
    if (s->form == TOPK) {
        if (ts_cpu_strict_int(a, (size_t)s->k, &k))
            return c->error->code;
        if (k < 0 || k > size)
            return ts_error_set(c->error, TS_ERR_RUNTIME, "selected index k out of range");
        desc = largest;
    }
    if (s->form == KTH) {
        if (ts_cpu_strict_int(a, (size_t)s->k, &k))
            return c->error->code;
        if (x->dtype == TS_BOOL)
            return ts_error_set(c->error, TS_ERR_RUNTIME, "\"kthvalue_cpu\" not implemented "
                                "for 'Bool'");
        if (size == 0)
            return ts_error_set(c->error, TS_ERR_INDEX, "kthvalue(): Expected reduction dim %d "
                                "to have non-zero size.", d);
        if (k < 1 || k > size)
            return ts_error_set(c->error, TS_ERR_RUNTIME, "kthvalue(): selected number k out "
                                "of range for dimension %d", d);
        return kth(x, d, k, keep, r1, r2, c->error);
    }
    Order how = s->form == TOPK ? ORDER_TOPK : stable ? ORDER_STABLE : ORDER_SORT;
    int st = sort_k(x, d, desc, how, k, sorted, r1, r2, c->error);
    if (!st && s->form == ARGSORT) {
        ts_tensor_release(*r1);
        *r1 = *r2;
        *r2 = NULL;
    }
    return st;
}

static int run(TsCall *c, const SortSpec *s)
{
    TsArgs a;
    TsTensor *x = NULL, *r1 = NULL, *r2 = NULL, *out = NULL, *out2 = NULL;
    int st = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!st)
        st = ts_args_tensor(&a, 0, &x);
    if (!st && s->out)
        st = ts_args_tensor(&a, (size_t)s->out, &out);
    if (!st && s->out2)
        st = ts_args_tensor(&a, (size_t)s->out2, &out2);
    if (!st)
        st = compute(&a, s, x, &r1, &r2);
    TsValue v1 = ts_none(), v2 = ts_none();
    if (!st && out) {
        st = ts_cpu_store_out(out, r1, c->error);
        if (!st && out2)
            st = ts_cpu_store_out(out2, r2, c->error);
        v1 = a.v[(int)s->out];
        a.v[(int)s->out] = ts_none();
        if (out2) {
            v2 = a.v[(int)s->out2];
            a.v[(int)s->out2] = ts_none();
        }
    } else if (!st) {
        v1 = ts_obj_value(r1, TS_TAG_TENSOR);
        r1 = NULL;
        if (r2) {
            v2 = ts_obj_value(r2, TS_TAG_TENSOR);
            r2 = NULL;
        }
    }
    if (r1)
        ts_tensor_release(r1);
    if (r2)
        ts_tensor_release(r2);
    if (s->form == SORT || s->form == TOPK || s->form == KTH || s->form == MEDIAN_DIM)
        return ts_args_return_values(&a, st, 2, (TsValue[]){ v1, v2 });
    return ts_args_return(&a, st, v1);
}

/* KERNEL(fn, form, dim, desc, stable, k, largest, sorted, keep, out, out2) */
#define KERNEL(FN, FORM, ...) \
    static const SortSpec FN##_spec = { FORM, __VA_ARGS__ }; \
    static int FN(TsCall *c) { return run(c, &FN##_spec); }
KERNEL(k_sort, SORT, 1, 2, 0, 0, 0, 0, 0, 0, 0)
KERNEL(k_sort_stable, SORT, 2, 3, 1, 0, 0, 0, 0, 0, 0)
KERNEL(k_sort_values, SORT, 1, 2, 0, 0, 0, 0, 0, 3, 4)
KERNEL(k_sort_values_stable, SORT, 2, 3, 1, 0, 0, 0, 0, 4, 5)
KERNEL(k_argsort, ARGSORT, 1, 2, 0, 0, 0, 0, 0, 0, 0)
KERNEL(k_argsort_stable, ARGSORT, 2, 3, 1, 0, 0, 0, 0, 0, 0)
KERNEL(k_argsort_stable_out, ARGSORT, 2, 3, 1, 0, 0, 0, 0, 4, 0)
KERNEL(k_topk, TOPK, 2, 0, 0, 1, 3, 4, 0, 0, 0)
KERNEL(k_topk_values, TOPK, 2, 0, 0, 1, 3, 4, 0, 5, 6)
KERNEL(k_kthvalue, KTH, 2, 0, 0, 1, 0, 0, 3, 0, 0)
KERNEL(k_kthvalue_values, KTH, 2, 0, 0, 1, 0, 0, 3, 4, 5)
KERNEL(k_median, MEDIAN_ALL, 0, 0, 0, 0, 0, 0, 0, 0, 0)
KERNEL(k_median_out, MEDIAN_ALL, 0, 0, 0, 0, 0, 0, 0, 1, 0)
KERNEL(k_median_dim, MEDIAN_DIM, 1, 0, 0, 0, 0, 0, 2, 0, 0)
KERNEL(k_median_dim_values, MEDIAN_DIM, 1, 0, 0, 0, 0, 0, 2, 3, 4)

static const TsCpuOp ops[] = {
    { "aten::sort", "", k_sort }, { "aten::sort", "stable", k_sort_stable },
    { "aten::sort", "values", k_sort_values },
    { "aten::sort", "values_stable", k_sort_values_stable },
    { "aten::argsort", "", k_argsort }, { "aten::argsort", "stable", k_argsort_stable },
    { "aten::argsort", "stable_out", k_argsort_stable_out },
    { "aten::topk", "", k_topk }, { "aten::topk", "values", k_topk_values },
    { "aten::kthvalue", "", k_kthvalue }, { "aten::kthvalue", "values", k_kthvalue_values },
    { "aten::median", "", k_median }, { "aten::median", "out", k_median_out },
    { "aten::median", "dim", k_median_dim }, { "aten::median", "dim_values", k_median_dim_values },
};

const TsCpuTable ts_cpu_sort_table = { ops, sizeof ops / sizeof ops[0] };
