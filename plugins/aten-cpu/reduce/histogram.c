/* histogram.c — aten::histogram: the counts (or weights, or density) of a float tensor's
 * elements in bins given by their number (equal widths over a range, or over the data's
 * own extremes) or by their edges.
 *
 * PyTorch 1.13 computes it as a one-dimensional histogramdd (its messages name histogramdd
 * and "dimension 0", and see the input as a column), with the edges of equal bins made by
 * linspace in the input's dtype; an element is placed by its interpolated position,
 * corrected against those edges, so the counts agree with the printed edges; the last bin
 * holds its right edge; elements outside the edges are not counted.
 */
#include <math.h>
#include <stdlib.h>

#include "engine/chain.h"
#include "engine/elementwise.h"

/* The bin of v among the n_edges ascending edges e, or -1 outside them; guess: a position
 * close to it (the interpolated one), or -1 to search all. */
static int64_t bin_of(const double *e, int64_t n_edges, double v, int64_t guess)
{
    if (!(v >= e[0] && v <= e[n_edges - 1]))
        return -1;
    int64_t lo = 0, hi = n_edges;                       /* upper_bound in [lo, hi) */
    if (guess >= 0) {
        lo = guess - 1 < 0 ? 0 : guess - 1;
        hi = guess + 2 > n_edges ? n_edges : guess + 2;
    }
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (e[mid] <= v)
            lo = mid + 1;
        else
            hi = mid;
    }
    int64_t pos = lo - 1;
    return pos == n_edges - 1 ? pos - 1 : pos;          /* the right edge is the last bin's */
}

/* histogram.bin_ct(Tensor self, int bins=100, *, float[]? range=None, Tensor? weight=None,
 * bool density=False) and histogram.bins_tensor(Tensor self, Tensor bins, *,
 * Tensor? weight=None, bool density=False) -> (Tensor hist, Tensor bin_edges) */
static int histogram(TsCall *c, bool by_count)
{
    TsArgs a;
    TsTensor *x, *edges_in = NULL, *w = NULL;
    int64_t bins = 0;
    bool density;
    size_t wi = by_count ? 3 : 2, di = by_count ? 4 : 3;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x);
    if (!rc && by_count) rc = ts_args_int(&a, 1, &bins);
    if (!rc && !by_count) rc = ts_args_tensor(&a, 1, &edges_in);
    if (!rc) rc = ts_args_opt_tensor(&a, wi, &w);
    if (!rc) rc = ts_args_bool(&a, di, &density);
    TsError *err = c->error;
    int64_t n = rc ? 0 : ts_tensor_numel(x);
    if (!rc && edges_in && edges_in->dtype != x->dtype)
        rc = ts_error_set(err, TS_ERR_RUNTIME, "torch.histogramdd: input tensor and bins tensors "
                          "should have the same dtype, but got input with dtype %s and bins "
                          "for dimension 0 with dtype %s", ts_cpu_cxx_type(x->dtype),
                          ts_cpu_cxx_type(edges_in->dtype));
    if (!rc && w && ts_tensor_numel(w) != n) {
        char ws[256];
        ts_aten_format_sizes(ws, sizeof ws, w->dim, w->sizes);
        rc = ts_error_set(err, TS_ERR_RUNTIME, "torch.histogramdd: if weight tensor is provided "
                          "it should have the same shape as the input tensor excluding its "
                          "innermost dimension, but got input with shape [%lld, 1] and weight "
                          "with shape %s", (long long)n, ws);
    }
    if (!rc && edges_in && edges_in->dim != 1)
        rc = ts_error_set(err, TS_ERR_RUNTIME, "torch.histogramdd: bins tensor should have one "
                          "dimension, but got %d dimensions in the bins tensor for dimension 0",
                          edges_in->dim);
    if (!rc && edges_in)
        bins = ts_tensor_numel(edges_in) - 1;
    if (!rc && bins <= 0)
        rc = ts_error_set(err, TS_ERR_RUNTIME, "torch.histogram(): bins must be > 0, but got "
                          "%lld for dimension 0", (long long)bins);
    if (!rc && bins > (INT64_MAX - 1) / 8)    /* the counts' bytes would overflow */
        rc = ts_error_set(err, TS_ERR_RUNTIME, "numel: integer multiplication overflow");
    if (!rc && x->dtype != TS_FLOAT32 && x->dtype != TS_FLOAT64)
        rc = ts_error_set(err, TS_ERR_RUNTIME, "\"histogramdd\" not implemented for '%s'",
                          ts_dtype_type_name(x->dtype));
    double left = 0, right = 1;
    bool has_range = by_count && !rc && a.v[2].tag == TS_TAG_LIST;
    if (has_range) {
        const TsList *r = (const TsList *)a.v[2].u.p;
        if (r->len != 2)
            rc = ts_error_set(err, TS_ERR_RUNTIME, "torch.histogramdd: for a 1-dimensional "
                              "histogram range should have 2 elements, but got %zu", r->len);
        else {
            left = r->items[0].tag == TS_TAG_INT ? (double)r->items[0].u.i : r->items[0].u.d;
            right = r->items[1].tag == TS_TAG_INT ? (double)r->items[1].u.i : r->items[1].u.d;
        }
    }
    if (rc)
        return ts_args_fail(&a, rc);
    TsTensor *xd = ts_cpu_cast(x, TS_FLOAT64, err);
    TsTensor *wd = xd && w ? ts_cpu_cast(w, TS_FLOAT64, err) : NULL;
    const double *v = xd ? ts_tensor_data(xd) : NULL;
    if (by_count && !has_range && v && n > 0) {
        left = INFINITY, right = -INFINITY;
        for (int64_t i = 0; i < n; i++) {
            if (isnan(v[i])) {             /* aminmax propagates NaN */
                left = right = NAN;
                break;
            }
            left = v[i] < left ? v[i] : left;
            right = v[i] > right ? v[i] : right;
        }
    }
    TsChain k;
    ts_chain_init(&k, c);
    TsTensor *edges = NULL;
    if (v && (!w || wd)) {
        if (by_count && !(isfinite(left) && isfinite(right))) {
            ts_error_set(err, TS_ERR_RUNTIME, "torch.histogramdd: dimension 0's range [%g, %g] "
                         "is not finite", left, right);
        } else if (by_count && !(left <= right)) {
            ts_error_set(err, TS_ERR_RUNTIME, "torch.histogramdd: min should not exceed max, but "
                         "got min %g max %g for dimension 0", left, right);
        } else if (by_count) {
            if (left == right) {               /* numpy widens an empty range */
                left -= 0.5;
                right += 0.5;
            }
            edges = ts_chain_op(&k, "aten::linspace", "", "ddiinnn", left, right, bins + 1,
                                (int64_t)x->dtype);
        } else {
            edges = ts_chain_keep(&k, ts_cpu_cast(edges_in, x->dtype, err));
        }
    }
    TsTensor *ed = edges ? ts_chain_keep(&k, ts_cpu_cast(edges, TS_FLOAT64, err)) : NULL;
    TsTensor *hist = ed ? ts_chain_keep(&k, ts_cpu_empty(TS_FLOAT64, 1, &bins, err)) : NULL;
    if (hist) {
        const double *e = ts_tensor_data(ed), *wv = wd ? ts_tensor_data(wd) : NULL;
        double *h = ts_tensor_data(hist), span = e[bins] - e[0];
        for (int64_t b = 0; b < bins; b++)
            h[b] = 0;
        for (int64_t i = 0; i < n; i++) {
            int64_t guess = -1;
            if (by_count && span > 0 && v[i] >= e[0] && v[i] <= e[bins])
                guess = (int64_t)((v[i] - e[0]) * (double)bins / span);
            int64_t b = bin_of(e, bins + 1, v[i], guess);
            if (b >= 0)
                h[b] += wv ? wv[i] : 1.0;
        }
        if (density) {                         /* hist / (its sum * each bin's width) */
            double total = 0;
            for (int64_t b = 0; b < bins; b++)
                total += h[b];
            for (int64_t b = 0; b < bins; b++)
                h[b] /= total * (e[b + 1] - e[b]);
        }
    }
    TsTensor *out[2] = { NULL, NULL };
    if (hist && (out[0] = ts_cpu_cast(hist, x->dtype, err)) != NULL)
        out[1] = ts_cpu_cast(edges, x->dtype, err);
    rc = out[0] && out[1] ? 0 : (int)(err->code ? err->code : TS_ERR_NOMEM);
    ts_chain_end(&k);
    if (xd)
        ts_tensor_release(xd);
    if (wd)
        ts_tensor_release(wd);
    return ts_args_return_tensors(&a, rc, 2, out);
}

static int k_histogram_bin_ct(TsCall *c) { return histogram(c, true); }
static int k_histogram_bins_tensor(TsCall *c) { return histogram(c, false); }

static const TsCpuOp ops[] = {
    { "aten::histogram", "bin_ct", k_histogram_bin_ct },
    { "aten::histogram", "bins_tensor", k_histogram_bins_tensor },
};

const TsCpuTable ts_cpu_histogram_table = { ops, sizeof ops / sizeof ops[0] };
