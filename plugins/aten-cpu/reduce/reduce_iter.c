/* reduce_iter.c — the plan of a reduction (see reduce.h): kept and reduced dims, and the
 * gather and scatter walks between strided tensors and plain buffers.
 *
 * Gathering visits the reduced dims with an odometer and converts each innermost run with a
 * per-dtype loop, so the cost per element is one load and one conversion whatever the
 * strides.
 */
#include <assert.h>
#include <stdlib.h>

#include "reduce/reduce.h"
#include "vhalf.h"

void ts_cpu_red_plan(const TsTensor *t, uint64_t mask, TsCpuRed *r)
{
    int64_t es = (int64_t)ts_dtype_size(t->dtype);
    r->nk = r->nr = 0;
    r->nout = r->nred = 1;
    for (int d = 0; d < t->dim; d++) {
        /* a dim of one element is never stepped along, and its stride may be anything
         * (x[::2**63-1]): only a longer dim's stride, bounded by the storage, is scaled */
        int64_t bs = t->sizes[d] > 1 ? t->strides[d] * es : 0;
        if (mask & (UINT64_C(1) << d)) {
            r->rsize[r->nr] = t->sizes[d];
            r->rstride[r->nr++] = bs;
            r->nred *= t->sizes[d];
        } else {
            r->ksize[r->nk] = t->sizes[d];
            r->kstride[r->nk++] = bs;
            r->nout *= t->sizes[d];
        }
    }
    r->dtype = t->dtype;
    r->data = ts_tensor_data(t);
}

const char *ts_cpu_red_base(const TsCpuRed *r, int64_t o)
{
    const char *p = r->data;
    for (int k = r->nk - 1; k >= 0; k--) {
        p += (o % r->ksize[k]) * r->kstride[k];
        o /= r->ksize[k];
    }
    return p;
}

/* ---- per-dtype runs ------------------------------------------------------------- */

typedef void (*LoadD)(const char *p, int64_t s, int64_t n, double *out);
typedef void (*LoadI)(const char *p, int64_t s, int64_t n, int64_t *out);
typedef void (*StoreD)(char *p, int64_t s, int64_t n, const double *in);
typedef void (*StoreI)(char *p, int64_t s, int64_t n, const int64_t *in);

#define RED_TYPES(X) EW_BOOL_TYPES(X, ) EW_INT_TYPES(X, ) EW_FLOAT_TYPES(X, )

/* Integers are stored through uint64 so a narrowing store wraps without undefined behaviour;
 * doubles reach integer dtypes only through bool and exact integral values. */
#define RUN_FNS(DT, T, ...) \
    static void load_d_##DT(const char *p, int64_t s, int64_t n, double *out) \
    { \
        for (int64_t k = 0; k < n; k++) \
            out[k] = (double)*(const T *)(p + k * s); \
    } \
    static void load_i_##DT(const char *p, int64_t s, int64_t n, int64_t *out) \
    { \
        for (int64_t k = 0; k < n; k++) \
            out[k] = (int64_t)*(const T *)(p + k * s); \
    } \
    static void store_d_##DT(char *p, int64_t s, int64_t n, const double *in) \
    { \
        for (int64_t k = 0; k < n; k++) \
            *(T *)(p + k * s) = (T)in[k]; \
    } \
    static void store_i_##DT(char *p, int64_t s, int64_t n, const int64_t *in) \
    { \
        for (int64_t k = 0; k < n; k++) \
            *(T *)(p + k * s) = (T)(uint64_t)in[k]; \
    }
RED_TYPES(RUN_FNS)
#undef RUN_FNS

/* float16 and bfloat16 load through vhalf.h's converters; they have no stores (their
 * results are computed in float32: ts_cpu_work_dtype) */
static void load_d_TS_FLOAT16(const char *p, int64_t s, int64_t n, double *out)
{
    for (int64_t k = 0; k < n; k++)
        out[k] = ts_vh_half_to_float(*(const uint16_t *)(p + k * s));
}

static void load_d_TS_BFLOAT16(const char *p, int64_t s, int64_t n, double *out)
{
    for (int64_t k = 0; k < n; k++)
        out[k] = ts_vh_bf16_to_float(*(const uint16_t *)(p + k * s));
}

#define ENTRY(DT, T, KIND) [DT] = KIND##_##DT,
#define ENTRY_LOAD_D(DT, T, ...) ENTRY(DT, T, load_d)
#define ENTRY_LOAD_I(DT, T, ...) ENTRY(DT, T, load_i)
#define ENTRY_STORE_D(DT, T, ...) ENTRY(DT, T, store_d)
#define ENTRY_STORE_I(DT, T, ...) ENTRY(DT, T, store_i)
static const LoadD load_d[TS_DTYPE__COUNT] = {
    RED_TYPES(ENTRY_LOAD_D) ENTRY(TS_FLOAT16, , load_d) ENTRY(TS_BFLOAT16, , load_d)
};
static const LoadI load_i[TS_DTYPE__COUNT] = { RED_TYPES(ENTRY_LOAD_I) };
static const StoreD store_d[TS_DTYPE__COUNT] = { RED_TYPES(ENTRY_STORE_D) };
static const StoreI store_i[TS_DTYPE__COUNT] = { RED_TYPES(ENTRY_STORE_I) };

/* One pass of the odometer: which converter moves elements between the tensor and buf. */
typedef struct Walk {
    const TsCpuRed *r;
    char *base;
    int64_t start, n;
    LoadD load_d;              /* exactly one of these is set */
    LoadI load_i;
    StoreD store_d;
    StoreI store_i;
    void *buf;                 /* double or int64 elements; element 0 is element start */
} Walk;

static void visit(const Walk *w, char *p, int64_t s, int64_t m, int64_t off)
{
    if (w->load_d)
        w->load_d(p, s, m, (double *)w->buf + off);
    else if (w->load_i)
        w->load_i(p, s, m, (int64_t *)w->buf + off);
    else if (w->store_d)
        w->store_d(p, s, m, (const double *)w->buf + off);
    else
        w->store_i(p, s, m, (const int64_t *)w->buf + off);
}

/* Visits elements start .. start+n of the reduced dims at base, one innermost run at a time. */
static void walk(const Walk *w)
{
    const TsCpuRed *r = w->r;
    int64_t idx[TS_TENSOR_MAX_DIMS], rest = w->start, left = w->n, off = 0;
    char *p = w->base;
    if (left <= 0)
        return;
    for (int k = r->nr - 1; k >= 0; k--) {
        idx[k] = rest % r->rsize[k];
        rest /= r->rsize[k];
        p += idx[k] * r->rstride[k];
    }
    if (r->nr == 0) {                           /* a 0-dim run: the one element */
        visit(w, p, 0, 1, 0);
        return;
    }
    int last = r->nr - 1;
    int64_t s = r->rstride[last];
    while (left > 0) {
        int64_t m = r->rsize[last] - idx[last];
        if (m > left)
            m = left;
        visit(w, p, s, m, off);
        off += m;
        left -= m;
        p += m * s;
        idx[last] += m;
        for (int k = last; k > 0 && idx[k] == r->rsize[k]; k--) {
            p -= idx[k] * r->rstride[k];
            idx[k] = 0;
            idx[k - 1]++;
            p += r->rstride[k - 1];
        }
    }
}

void ts_cpu_gather_d(const TsCpuRed *r, const char *base, int64_t start, int64_t n, double *out)
{
    Walk w = { r, (char *)base, start, n, load_d[r->dtype], NULL, NULL, NULL, out };
    walk(&w);
}

void ts_cpu_gather_i(const TsCpuRed *r, const char *base, int64_t start, int64_t n,
                     int64_t *out)
{
    assert(load_i[r->dtype]);
    Walk w = { r, (char *)base, start, n, NULL, load_i[r->dtype], NULL, NULL, out };
    walk(&w);
}

void ts_cpu_scatter_d(const TsCpuRed *r, char *base, const double *in)
{
    assert(store_d[r->dtype]);
    Walk w = { r, base, 0, r->nred, NULL, NULL, store_d[r->dtype], NULL, (void *)in };
    walk(&w);
}

void ts_cpu_scatter_i(const TsCpuRed *r, char *base, const int64_t *in)
{
    assert(store_i[r->dtype]);
    Walk w = { r, base, 0, r->nred, NULL, NULL, NULL, store_i[r->dtype], (void *)in };
    walk(&w);
}

int ts_cpu_work_dtype(int dtype)
{
    return store_d[dtype] ? dtype : TS_FLOAT32;
}

TsTensor *ts_cpu_finish(TsTensor *t, int dtype, TsError *err)
{
    if (!t || t->dtype == dtype)
        return t;
    TsTensor *c = ts_cpu_cast(t, dtype, err);
    ts_tensor_release(t);
    return c;
}

/* ---- arguments ---------------------------------------------------------------- */

int ts_cpu_dtype_arg(TsArgs *a, size_t i, int *dtype)
{
    TsValue v = a->v[i];
    *dtype = -1;
    if (v.tag == TS_TAG_NONE)
        return 0;
    if (v.tag != TS_TAG_INT || v.u.i < 0 || v.u.i >= TS_DTYPE__COUNT ||
        ts_dtype_size((int)v.u.i) == 0)
        return ts_error_set(a->call->error, TS_ERR_TYPE, "argument '%s' must be a ScalarType",
                            ts_args_name(a, i));
    if (ts_cpu_check_dtype((int)v.u.i, a->call->error))
        return a->call->error->code;
    *dtype = (int)v.u.i;
    return 0;
}

int ts_cpu_strict_int(TsArgs *a, size_t i, int64_t *out)
{
    if (a->v[i].tag != TS_TAG_INT)
        return ts_error_set(a->call->error, TS_ERR_TYPE, "%s: %s must be an int",
                            ts_args_op_name(a), ts_args_name(a, i));
    *out = a->v[i].u.i;
    return 0;
}

