/* order.c — order statistics along a dim: mode (the most frequent value, the smallest of
 * equally frequent ones, with the index of its last occurrence), nanmedian (the lower
 * median of the values that are not NaN) and msort (sort along dim 0, through sort.c).
 *
 * Each line along the dim is read into keys (int64 for integral dtypes, else double) with
 * the elements' positions, stably sorted with NaNs last, and the statistic read from the
 * sorted run; the value is copied bytewise from self.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reduce/reduce.h"
#include "shape/shape_ops.h"

typedef struct Line {
    bool ints;
    int64_t *ik;           /* keys as int64 (ints) */
    double *dk;            /* or as double */
    int64_t *pos, *tmp;    /* positions in the line; merge space */
} Line;

/* a before b: smaller, NaNs last. */
static bool before(const Line *l, int64_t a, int64_t b)
{
    if (l->ints)
        return l->ik[a] < l->ik[b];
    double x = l->dk[a], y = l->dk[b];
    return isnan(y) ? !isnan(x) : x < y;
}

static void sort_line(Line *l, int64_t *p, int64_t n)
{
    if (n < 2)
        return;
    int64_t h = n / 2, i = 0, j = h, o = 0;
    sort_line(l, p, h);
    sort_line(l, p + h, n - h);
    while (i < h && j < n)
        l->tmp[o++] = before(l, p[j], p[i]) ? p[j++] : p[i++];
    while (i < h)
        l->tmp[o++] = p[i++];
    while (j < n)
        l->tmp[o++] = p[j++];
    memcpy(p, l->tmp, (size_t)n * sizeof *p);
}

static bool same(const Line *l, int64_t a, int64_t b)
{
    return l->ints ? l->ik[a] == l->ik[b] : l->dk[a] == l->dk[b];
}

typedef enum Stat { ST_MODE, ST_NANMEDIAN } Stat;

/* The position in the line (len elements, sorted order in l->pos) of the statistic. */
static int64_t line_stat(Line *l, int64_t len, Stat s)
{
    int64_t *p = l->pos;
    if (s == ST_NANMEDIAN) {
        int64_t k = 0;
        while (k < len && (l->ints || !isnan(l->dk[p[k]])))
            k++;
        return k == 0 ? p[0] : p[(k - 1) / 2];
    }
    int64_t best = 0, best_n = 0;
    for (int64_t i = 0; i < len;) {
        int64_t j = i + 1;
        while (j < len && same(l, p[i], p[j]))
            j++;
        if (j - i > best_n) {
            best_n = j - i;
            best = i;
        }
        i = j;
    }
    /* the last occurrence of that value: the largest position in its run */
    int64_t last = p[best];
    for (int64_t i = best; i < best + best_n; i++)
        last = p[i] > last ? p[i] : last;
    return last;
}

/* Reduces self along d (already wrapped; -1: the whole tensor flattened) to values and
 * indices, keepdim as asked. */
static int order_stat(TsError *err, const TsTensor *t, int d, bool keep, Stat s,
                      TsTensor **vals, TsTensor **idx)
{
    int nd = t->dim;
    int64_t sizes[TS_TENSOR_MAX_DIMS] = { 0 }, rsizes[TS_TENSOR_MAX_DIMS] = { 0 }, len, lstride;
    int rn = 0;
    TsTensor *src = NULL;
    if (d < 0) {
        /* the flattened self: a contiguous copy read as one line */
        src = ts_cpu_cast(t, t->dtype, err);
        if (!src)
            return err->code;
        len = ts_tensor_numel(t);
        lstride = 1;
        nd = 0;
    } else {
        ts_tensor_retain((TsTensor *)t);
        src = (TsTensor *)t;
        len = t->dim ? t->sizes[d] : 1;
        lstride = t->dim ? t->strides[d] : 0;
        for (int k = 0; k < t->dim; k++) {
            sizes[k] = k == d ? 1 : t->sizes[k];
            if (k != d || keep)
                rsizes[rn++] = sizes[k];
        }
    }
    *vals = ts_cpu_empty(t->dtype, rn, rsizes, err);
    *idx = *vals ? ts_cpu_empty(TS_INT64, rn, rsizes, err) : NULL;
    Line l = { ts_dtype_is_integral(t->dtype, true), NULL, NULL, NULL, NULL };
    size_t m = (size_t)(len ? len : 1);
    l.ik = malloc(m * sizeof *l.ik);
    l.dk = malloc(m * sizeof *l.dk);
    l.pos = malloc(m * sizeof *l.pos);
    l.tmp = malloc(m * sizeof *l.tmp);
    int rc = 0;
    if (!*idx)
        rc = err->code;
    else if (!l.ik || !l.dk || !l.pos || !l.tmp)
        rc = ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    size_t es = ts_dtype_size(t->dtype);
    int64_t pos[TS_TENSOR_MAX_DIMS] = { 0 }, out = 0;
    bool any = !rc && ts_tensor_numel(*vals) > 0;
    while (any) {
        int64_t off = src->offset;
        for (int k = 0; k < nd; k++)
            off += pos[k] * src->strides[k];
        const char *base = (const char *)src->storage->data;
        for (int64_t j = 0; j < len; j++) {
            const char *p = base + (off + j * lstride) * (int64_t)es;
            if (l.ints) {
                switch (t->dtype) {
#define LOAD(DT, T) case DT: { T x; memcpy(&x, p, sizeof x); l.ik[j] = (int64_t)x; break; }
                TS_ATEN_INT_DTYPES(LOAD)
#undef LOAD
                default: l.ik[j] = *p != 0; break;
                }
            } else {
                l.dk[j] = ts_cpu_load_double(t->dtype, p);
            }
            l.pos[j] = j;
        }
        sort_line(&l, l.pos, len);
        int64_t at = line_stat(&l, len, s);
        memcpy((char *)ts_tensor_data(*vals) + out * (int64_t)es,
               base + (off + at * lstride) * (int64_t)es, es);
        ((int64_t *)ts_tensor_data(*idx))[out++] = at;
        any = nd > 0 && ts_cpu_next_index(nd, sizes, pos);
    }
    free(l.ik);
    free(l.dk);
    free(l.pos);
    free(l.tmp);
    ts_tensor_release(src);
    if (rc) {
        if (*vals)
            ts_tensor_release(*vals);
        if (*idx)
            ts_tensor_release(*idx);
        *vals = *idx = NULL;
    }
    return rc;
}

/* Pushes (values, indices), or stores them into the out= pair, the last two arguments. */
static int return_pair(TsArgs *a, TsTensor *v, TsTensor *i, bool out)
{
    if (!out)
        return ts_args_return_values(a, 0, 2, (TsValue[]){ ts_obj_value(v, TS_TAG_TENSOR),
                                  ts_obj_value(i, TS_TAG_TENSOR) });
    size_t n = a->n;
    int rc = ts_cpu_store_out((TsTensor *)a->v[n - 2].u.p, v, a->call->error);
    if (!rc)
        rc = ts_cpu_store_out((TsTensor *)a->v[n - 1].u.p, i, a->call->error);
    ts_tensor_release(v);
    ts_tensor_release(i);
    TsValue r1 = a->v[n - 2], r2 = a->v[n - 1];
    a->v[n - 2] = a->v[n - 1] = ts_none();
    return ts_args_return_values(a, rc, 2, (TsValue[]){ r1, r2 });
}

/* mode(Tensor self, int dim=-1, bool keepdim=False) / nanmedian.dim(Tensor self, int dim,
 * bool keepdim=False) and their out= forms (values, indices). */
static int dim_stat(TsCall *c, Stat s, bool out)
{
    TsArgs a;
    int d;
    TsTensor *t = NULL, *v = NULL, *i = NULL, *ov, *oi;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (rc || ts_args_tensor(&a, 0, &t) ||
        (out && (ts_args_tensor(&a, 3, &ov) || ts_args_tensor(&a, 4, &oi))) ||
        ts_args_dim(&a, 1, t->dim, true, &d))
        return ts_args_fail(&a, rc ? rc : (int)c->error->code);
    if (s == ST_NANMEDIAN && (t->dtype == TS_FLOAT16 || t->dtype == TS_BOOL))
        ts_error_set(c->error, TS_ERR_RUNTIME, "\"median_out\" not implemented for '%s'",
                     ts_dtype_type_name(t->dtype));
    else if (s == ST_MODE && t->dim && t->sizes[d] == 0)
        ts_error_set(c->error, TS_ERR_INDEX, "mode(): Expected reduction dim %d to have non-zero "
                     "size.", d);
    else if (s == ST_NANMEDIAN && t->dim && t->sizes[d] == 0)
        ts_error_set(c->error, TS_ERR_INDEX, "nanmedian(): Expected reduction dim %d to have "
                     "non-zero size.", d);
    else if (!order_stat(c->error, t, d, a.v[2].tag == TS_TAG_BOOL && a.v[2].u.b, s, &v, &i))
        return return_pair(&a, v, i, out);
    return ts_args_fail(&a, c->error->code);
}

static int k_mode(TsCall *c) { return dim_stat(c, ST_MODE, false); }
static int k_mode_values(TsCall *c) { return dim_stat(c, ST_MODE, true); }
static int k_nanmedian_dim(TsCall *c) { return dim_stat(c, ST_NANMEDIAN, false); }
static int k_nanmedian_dim_values(TsCall *c) { return dim_stat(c, ST_NANMEDIAN, true); }

/* Pops the arguments of (Tensor self) or its out= form (out): self, or NULL with the error
 * set. */
static TsTensor *self_and_out(TsCall *c, TsArgs *a, bool out)
{
    TsTensor *t = NULL, *o;
    if (ts_args_pop(c, TS_DEV_CPU, a) || ts_args_tensor(a, 0, &t) ||
        (out && ts_args_tensor(a, 1, &o)))
        return NULL;
    return t;
}

/* nanmedian(Tensor self): over every element; NaN when there are none. */
static int nanmedian_all(TsCall *c, bool out)
{
    TsArgs a;
    TsTensor *v = NULL, *i = NULL, *r = NULL;
    TsTensor *t = self_and_out(c, &a, out);
    if (t && (t->dtype == TS_FLOAT16 || t->dtype == TS_BOOL)) {
        ts_error_set(c->error, TS_ERR_RUNTIME, "\"median_cpu\" not implemented for '%s'",
                     ts_dtype_type_name(t->dtype));
        t = NULL;
    }
    if (t && ts_tensor_numel(t) == 0) {
        if ((r = ts_cpu_empty(t->dtype, 0, NULL, c->error)))
            ts_cpu_store_double(t->dtype, ts_tensor_data(r), NAN);
    } else if (t && !order_stat(c->error, t, -1, false, ST_NANMEDIAN, &v, &i)) {
        ts_tensor_release(i);
        r = v;
    }
    return ts_cpu_return_out(&a, r ? 0 : (int)c->error->code, r, out);
}

static int k_nanmedian(TsCall *c) { return nanmedian_all(c, false); }
static int k_nanmedian_out(TsCall *c) { return nanmedian_all(c, true); }

/* msort(Tensor self): the values of sort(self, dim=0). */
static int msort(TsCall *c, bool out)
{
    TsArgs a;
    TsTensor *r = NULL;
    TsTensor *t = self_and_out(c, &a, out);
    if (t) {
        ts_tensor_retain(t);
        TsValue sa[3] = { ts_obj_value(t, TS_TAG_TENSOR), ts_int(0), ts_bool(false) }, idx;
        /* sort pushes (values, indices): call leaves indices in idx and values below it */
        if (!ts_cpu_call_kernel(c, &ts_cpu_sort_table, "aten::sort", "", 3, sa, &idx)) {
            ts_value_release(idx);
            r = (TsTensor *)ts_stack_pop(c->stack).u.p;
        }
    }
    return ts_cpu_return_out(&a, r ? 0 : (int)c->error->code, r, out);
}

static int k_msort(TsCall *c) { return msort(c, false); }
static int k_msort_out(TsCall *c) { return msort(c, true); }

static const TsCpuOp ops[] = {
    { "aten::mode", "", k_mode },
    { "aten::mode", "values", k_mode_values },
    { "aten::nanmedian", "", k_nanmedian },
    { "aten::nanmedian", "out", k_nanmedian_out },
    { "aten::nanmedian", "dim", k_nanmedian_dim },
    { "aten::nanmedian", "dim_values", k_nanmedian_dim_values },
    { "aten::msort", "", k_msort },
    { "aten::msort", "out", k_msort_out },
};

const TsCpuTable ts_cpu_order_table = { ops, sizeof ops / sizeof ops[0] };
