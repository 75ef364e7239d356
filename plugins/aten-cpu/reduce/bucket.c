/* bucket.c — ops that sort values into bins: searchsorted, bucketize, bincount, histc.
 *
 * searchsorted (and bucketize, its 1-d special case) binary-searches each value in its row
 * of the boundaries, with PyTorch's comparison so NaNs land after every number. Boundaries
 * and values are compared as int64 when both are integral (exact past 2^53), else as double.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reduce/reduce.h"
#include "shape/shape_ops.h"

/* ---- searchsorted, bucketize ------------------------------------------------------------- */

typedef struct Search {
    const TsTensor *bd, *val, *sorter;   /* sorter: int64, or NULL */
    bool right, out_int32;
} Search;

/* The first position in row (n entries, read through sorter) whose boundary is > v (right)
 * or >= v: PyTorch's loop, written so that a NaN compares after everything. */
#define SEARCH_ROW(T) \
    static int64_t search_##T(const T *row, const int64_t *sorter, int64_t n, T v, bool right) \
    { \
        int64_t lo = 0, hi = n; \
        while (lo < hi) { \
            int64_t mid = lo + (hi - lo) / 2; \
            T m = row[sorter ? sorter[mid] : mid]; \
            if ((!right && !(m >= v)) || (right && m <= v)) \
                lo = mid + 1; \
            else \
                hi = mid; \
        } \
        return lo; \
    }
SEARCH_ROW(int64_t)
SEARCH_ROW(double)

/* searchsorted's checks, then the result (int64 or int32) shaped like the values. */
static TsTensor *search(TsError *err, const Search *s)
{
    const TsTensor *bd = s->bd, *val = s->val;
    char b1[256], b2[256];
    ts_aten_format_sizes(b1, sizeof b1, bd->dim, bd->sizes);
    ts_aten_format_sizes(b2, sizeof b2, val->dim, val->sizes);
    if (bd->dim == 0) {
        ts_error_set(err, TS_ERR_RUNTIME, "torch.searchsorted(): boundaries tensor should have "
                     "positive dimension, but got 0 dimension");
        return NULL;
    }
    bool same_lead = bd->dim == val->dim;
    for (int k = 0; same_lead && k < bd->dim - 1; k++)
        same_lead = bd->sizes[k] == val->sizes[k];
    if (bd->dim > 1 && !same_lead) {
        ts_error_set(err, TS_ERR_RUNTIME, "torch.searchsorted(): boundaries tensor should be 1 "
                     "dimension or the first N-1 dimensions of boundaries tensor and input value "
                     "tensor must match, but we got boundaries tensor %s and input value tensor "
                     "%s", b1, b2);
        return NULL;
    }
    if (s->sorter) {
        char b3[256];
        ts_aten_format_sizes(b3, sizeof b3, s->sorter->dim, s->sorter->sizes);
        bool same = s->sorter->dim == bd->dim;
        for (int k = 0; same && k < bd->dim; k++)
            same = s->sorter->sizes[k] == bd->sizes[k];
        if (!same) {
            ts_error_set(err, TS_ERR_RUNTIME, "torch.searchsorted(): boundary and sorter must "
                         "have the same size, but got boundary tensor %sand got sorter tensor %s",
                         b1, b3);
            return NULL;
        }
        if (s->sorter->dtype != TS_INT64) {
            ts_error_set(err, TS_ERR_RUNTIME, "torch.searchsorted(): sorter must be a tensor of "
                         "long dtype but got %s", ts_dtype_type_name(s->sorter->dtype));
            return NULL;
        }
    }
    bool ints = ts_dtype_is_integral(bd->dtype, true) && ts_dtype_is_integral(val->dtype, true);
    int work = ints ? TS_INT64 : TS_FLOAT64;
    TsTensor *cb = ts_cpu_cast(bd, work, err), *cv = cb ? ts_cpu_cast(val, work, err) : NULL;
    TsTensor *cs = cv && s->sorter ? ts_cpu_cast(s->sorter, TS_INT64, err) : NULL;
    TsTensor *r = cv && (!s->sorter || cs)
                      ? ts_cpu_empty(s->out_int32 ? TS_INT32 : TS_INT64, val->dim, val->sizes, err)
                      : NULL;
    int64_t len = bd->sizes[bd->dim - 1], rows_numel = ts_tensor_numel(bd);
    int64_t nval = ts_tensor_numel(val);
    int64_t per_row = bd->dim > 1 && val->dim ? val->sizes[val->dim - 1] : nval;
    /* a sorter's entries index their row: check them before searching */
    const int64_t *srt = cs ? ts_tensor_data(cs) : NULL;
    for (int64_t i = 0; r && srt && i < rows_numel; i++)
        if (srt[i] < 0 || srt[i] >= len) {
            ts_error_set(err, TS_ERR_INDEX, "torch.searchsorted(): sorter index out of range");
            ts_tensor_release(r);
            r = NULL;
        }
    for (int64_t i = 0; r && i < nval; i++) {
        int64_t row = bd->dim > 1 && per_row ? i / per_row : 0, pos;
        const int64_t *so = srt ? srt + row * len : NULL;
        if (ints)
            pos = search_int64_t((const int64_t *)ts_tensor_data(cb) + row * len, so, len,
                                 ((const int64_t *)ts_tensor_data(cv))[i], s->right);
        else
            pos = search_double((const double *)ts_tensor_data(cb) + row * len, so, len,
                                ((const double *)ts_tensor_data(cv))[i], s->right);
        if (s->out_int32)
            ((int32_t *)ts_tensor_data(r))[i] = (int32_t)pos;
        else
            ((int64_t *)ts_tensor_data(r))[i] = pos;
    }
    if (cb)
        ts_tensor_release(cb);
    if (cv)
        ts_tensor_release(cv);
    if (cs)
        ts_tensor_release(cs);
    return r;
}

/* side= against right=, as PyTorch checks them. */
static int read_side(TsError *err, TsValue side, bool *right)
{
    if (side.tag != TS_TAG_STR)
        return 0;
    const char *s = ((const TsStr *)side.u.p)->data;
    if (strcmp(s, "left") && strcmp(s, "right"))
        return ts_error_set(err, TS_ERR_RUNTIME, "torch.searchsorted(): side can only be 'left' "
                            "or 'right' but got %s", s);
    bool r = !strcmp(s, "right");
    if (!r && *right)
        return ts_error_set(err, TS_ERR_RUNTIME, "torch.searchsorted(): side and right can't be "
                            "set to opposites, got side of left while right was True");
    *right = r;
    return 0;
}

/* searchsorted(Tensor sorted_sequence, Tensor|Scalar self, *, bool out_int32=False,
 * bool right=False, str? side=None, Tensor? sorter=None) */
static int searchsorted(TsCall *c, bool scalar, bool out)
{
    TsArgs a;
    TsTensor *r = NULL, *val = NULL, *bd, *sorter, *o;
    Search s = { NULL, NULL, NULL, false, false };
    if (ts_args_pop(c, TS_DEV_CPU, &a) || ts_args_tensor(&a, 0, &bd))
        return ts_cpu_return_out(&a, 0, NULL, out);
    s.bd = bd;
    s.out_int32 = a.v[2].tag == TS_TAG_BOOL && a.v[2].u.b;
    s.right = a.v[3].tag == TS_TAG_BOOL && a.v[3].u.b;
    if ((out && ts_args_tensor(&a, 6, &o)) || ts_args_opt_tensor(&a, 5, &sorter) ||
        read_side(c->error, a.v[4], &s.right))
        return ts_cpu_return_out(&a, 0, NULL, out);
    s.sorter = sorter;
    if (scalar) {
        if (s.bd->dim != 1) {
            ts_error_set(c->error, TS_ERR_RUNTIME, "torch.searchsorted(): input value can be a "
                         "scalar only when boundaries tensor dimension is 1, but we got "
                         "boundaries tensor dim(%d) and input value's dim(0) numel(1)", s.bd->dim);
            return ts_cpu_return_out(&a, 0, NULL, out);
        }
        if (!(val = ts_cpu_wrap_scalar(a.v[1], c->error)))
            return ts_cpu_return_out(&a, 0, NULL, out);
        s.val = val;
    } else {
        TsTensor *self;
        if (ts_args_tensor(&a, 1, &self))
            return ts_cpu_return_out(&a, 0, NULL, out);
        s.val = self;
    }
    r = search(c->error, &s);
    if (val)
        ts_tensor_release(val);
    return ts_cpu_return_out(&a, 0, r, out);
}

static int k_searchsorted_tensor(TsCall *c) { return searchsorted(c, false, false); }
static int k_searchsorted_tensor_out(TsCall *c) { return searchsorted(c, false, true); }
static int k_searchsorted_scalar(TsCall *c) { return searchsorted(c, true, false); }
static int k_searchsorted_scalar_out(TsCall *c) { return searchsorted(c, true, true); }

/* bucketize(Tensor|Scalar self, Tensor boundaries, *, bool out_int32=False,
 * bool right=False): searchsorted over 1-d boundaries. */
static int bucketize(TsCall *c, bool scalar, bool out)
{
    TsArgs a;
    TsTensor *r = NULL, *val = NULL, *bd, *o;
    Search s = { NULL, NULL, NULL, false, false };
    if (ts_args_pop(c, TS_DEV_CPU, &a) || ts_args_tensor(&a, 1, &bd) ||
        (out && ts_args_tensor(&a, 4, &o)))
        return ts_cpu_return_out(&a, 0, NULL, out);
    s.bd = bd;
    s.out_int32 = a.v[2].tag == TS_TAG_BOOL && a.v[2].u.b;
    s.right = a.v[3].tag == TS_TAG_BOOL && a.v[3].u.b;
    if (s.bd->dim != 1) {
        ts_error_set(c->error, TS_ERR_RUNTIME, "boundaries tensor must be 1 dimension, but got "
                     "dim(%d)", s.bd->dim);
        return ts_cpu_return_out(&a, 0, NULL, out);
    }
    if (scalar ? !(val = ts_cpu_wrap_scalar(a.v[0], c->error)) : ts_args_tensor(&a, 0, &val))
        return ts_cpu_return_out(&a, 0, NULL, out);
    s.val = val;
    r = search(c->error, &s);
    if (scalar)
        ts_tensor_release(val);
    return ts_cpu_return_out(&a, 0, r, out);
}

static int k_bucketize_tensor(TsCall *c) { return bucketize(c, false, false); }
static int k_bucketize_tensor_out(TsCall *c) { return bucketize(c, false, true); }
static int k_bucketize_scalar(TsCall *c) { return bucketize(c, true, false); }
static int k_bucketize_scalar_out(TsCall *c) { return bucketize(c, true, true); }

/* ---- bincount ----------------------------------------------------------------------------- */

/* bincount(Tensor self, Tensor? weights=None, int minlength=0): occurrences of each value
 * (int64), or the sums of their weights (float32 weights: float32, any other: double). */
static int bincount(TsCall *c, bool out)
{
    TsArgs a;
    int64_t minlength;
    TsTensor *r = NULL, *w = NULL, *t, *o;
    if (ts_args_pop(c, TS_DEV_CPU, &a) || ts_args_tensor(&a, 0, &t) ||
        (out && ts_args_tensor(&a, 3, &o)) || ts_args_opt_tensor(&a, 1, &w) ||
        ts_args_int(&a, 2, &minlength))
        return ts_cpu_return_out(&a, 0, NULL, out);
    int rc = 0;
    TsTensor *iv = NULL, *wv = NULL;
    if (!ts_dtype_is_integral(t->dtype, false))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "\"bincount_cpu\" not implemented for '%s'",
                          ts_dtype_type_name(t->dtype));
    else if (minlength < 0)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "minlength should be >= 0");
    else if (t->dim != 1)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "bincount only supports 1-d non-negative "
                          "integral inputs.");
    else if (!(iv = ts_cpu_cast(t, TS_INT64, c->error)))
        rc = c->error->code;
    int64_t count = t->dim == 1 ? t->sizes[0] : 0, len = minlength;
    const int64_t *v = iv ? ts_tensor_data(iv) : NULL;
    for (int64_t i = 0; !rc && i < count; i++) {
        if (v[i] < 0)
            rc = ts_error_set(c->error, TS_ERR_RUNTIME, "bincount only supports 1-d non-negative "
                              "integral inputs.");
        else if (v[i] >= len)
            len = v[i] + 1;
    }
    if (!rc && w && (w->dim != 1 || w->sizes[0] != count))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "weights should be 1-d and have the same "
                          "length as input");
    int dtype = !w ? TS_INT64 : w->dtype == TS_FLOAT32 ? TS_FLOAT32 : TS_FLOAT64;
    if (!rc && w && !(wv = ts_cpu_cast(w, TS_FLOAT64, c->error)))
        rc = c->error->code;
    if (!rc && (r = ts_cpu_empty(dtype, 1, &len, c->error))) {
        char *p = ts_tensor_data(r);
        size_t es = ts_dtype_size(dtype);
        double *acc = calloc((size_t)(len ? len : 1), sizeof *acc);
        if (!acc) {
            ts_error_set(c->error, TS_ERR_NOMEM, "bincount: out of memory");
            ts_tensor_release(r);
            r = NULL;
        }
        const double *wd = wv ? ts_tensor_data(wv) : NULL;
        for (int64_t i = 0; acc && i < count; i++)
            acc[v[i]] += wd ? wd[i] : 1.0;
        for (int64_t j = 0; acc && j < len; j++)
            ts_cpu_store_double(dtype, p + (size_t)j * es, acc[j]);
        free(acc);
    }
    if (iv)
        ts_tensor_release(iv);
    if (wv)
        ts_tensor_release(wv);
    return ts_cpu_return_out(&a, 0, r, out);
}

static int k_bincount(TsCall *c) { return bincount(c, false); }
static int k_bincount_out(TsCall *c) { return bincount(c, true); }

/* ---- histc -------------------------------------------------------------------------------- */

/* A bound as C++ streams print it in histc's message ("1", "inf", "-nan"). */
static void format_bound(char *buf, size_t size, double x)
{
    if (isnan(x))
        snprintf(buf, size, "-nan");
    else
        snprintf(buf, size, "%g", x);
}

/* histc(Tensor self, int bins=100, Scalar min=0, Scalar max=0): counts in bins equal
 * parts of [min, max] (the data's range when both are equal), in self's dtype. */
static int histc(TsCall *c, bool out)
{
    TsArgs a;
    int64_t bins;
    double lo, hi;
    TsTensor *r = NULL, *x = NULL, *t, *o;
    if (ts_args_pop(c, TS_DEV_CPU, &a) || ts_args_tensor(&a, 0, &t) ||
        (out && ts_args_tensor(&a, 4, &o)) || ts_args_int(&a, 1, &bins))
        return ts_cpu_return_out(&a, 0, NULL, out);
    TsValue vlo = a.v[2], vhi = a.v[3];
    lo = vlo.tag == TS_TAG_INT ? (double)vlo.u.i : vlo.tag == TS_TAG_DOUBLE ? vlo.u.d : 0;
    hi = vhi.tag == TS_TAG_INT ? (double)vhi.u.i : vhi.tag == TS_TAG_DOUBLE ? vhi.u.d : 0;
    int rc = 0;
    if (t->dtype != TS_FLOAT32 && t->dtype != TS_FLOAT64)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "\"histogram_cpu\" not implemented for '%s'",
                          ts_dtype_type_name(t->dtype));
    else if (bins <= 0)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "torch.histogram(): bins must be > 0, but "
                          "got %lld for dimension 0", (long long)bins);
    else if (lo > hi)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "torch.histc: max must be larger than min");
    else if (!(x = ts_cpu_cast(t, TS_FLOAT64, c->error)))
        rc = c->error->code;
    int64_t numel = ts_tensor_numel(t);
    const double *v = x ? ts_tensor_data(x) : NULL;
    if (!rc && lo == hi && numel > 0) {
        lo = hi = v[0];
        for (int64_t i = 0; i < numel; i++) {
            if (isnan(v[i]) || isnan(lo)) {
                lo = hi = NAN;
                break;
            }
            lo = v[i] < lo ? v[i] : lo;
            hi = v[i] > hi ? v[i] : hi;
        }
    }
    if (!rc && lo == hi) {
        lo -= 1;
        hi += 1;
    }
    if (!rc && !(isfinite(lo) && isfinite(hi))) {
        char b1[64], b2[64];
        format_bound(b1, sizeof b1, lo);
        format_bound(b2, sizeof b2, hi);
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "torch.histc: range of [%s, %s] is not "
                          "finite", b1, b2);
    }
    if (!rc && (r = ts_cpu_empty(t->dtype, 1, &bins, c->error))) {
        double *acc = calloc((size_t)bins, sizeof *acc);
        if (!acc) {
            ts_error_set(c->error, TS_ERR_NOMEM, "histc: out of memory");
            ts_tensor_release(r);
            r = NULL;
        }
        /* computed in self's own precision, as PyTorch bins */
        bool f32 = t->dtype == TS_FLOAT32;
        for (int64_t i = 0; acc && i < numel; i++) {
            double e = v[i];
            if (!(e >= lo && e <= hi))
                continue;
            int64_t pos = f32 ? (int64_t)(((float)e - (float)lo) / ((float)hi - (float)lo) *
                                          (float)bins)
                              : (int64_t)((e - lo) / (hi - lo) * (double)bins);
            pos = pos >= bins ? bins - 1 : pos < 0 ? 0 : pos;
            acc[pos] += 1;
        }
        for (int64_t j = 0; acc && j < bins; j++)
            ts_cpu_store_double(t->dtype, (char *)ts_tensor_data(r) + (size_t)j *
                                ts_dtype_size(t->dtype), acc[j]);
        free(acc);
    }
    if (x)
        ts_tensor_release(x);
    return ts_cpu_return_out(&a, 0, r, out);
}

static int k_histc(TsCall *c) { return histc(c, false); }
static int k_histc_out(TsCall *c) { return histc(c, true); }

static const TsCpuOp ops[] = {
    { "aten::searchsorted", "Tensor", k_searchsorted_tensor },
    { "aten::searchsorted", "Tensor_out", k_searchsorted_tensor_out },
    { "aten::searchsorted", "Scalar", k_searchsorted_scalar },
    { "aten::searchsorted", "Scalar_out", k_searchsorted_scalar_out },
    { "aten::bucketize", "Tensor", k_bucketize_tensor },
    { "aten::bucketize", "Tensor_out", k_bucketize_tensor_out },
    { "aten::bucketize", "Scalar", k_bucketize_scalar },
    { "aten::bucketize", "Scalar_out", k_bucketize_scalar_out },
    { "aten::bincount", "", k_bincount },
    { "aten::bincount", "out", k_bincount_out },
    { "aten::histc", "", k_histc },
    { "aten::histc", "out", k_histc_out },
};

const TsCpuTable ts_cpu_bucket_table = { ops, sizeof ops / sizeof ops[0] };
