/* cumext.c — running extremes: cummax and cummin, with the index of each running value.
 *
 * A tie moves the index to the later element and a NaN, once met, stays (with its index),
 * as PyTorch's kernels do. Integers compare as int64 and floats as double, so neither loses
 * exactness; values are copied bytewise from self.
 */
#include <math.h>
#include <string.h>

#include "reduce/reduce.h"
#include "shape/shape_ops.h"

/* x, as int64 (integral, bool) or double, at p. */
static void load(int dtype, const char *p, bool integral, int64_t *i, double *d)
{
    if (!integral) {
        *d = ts_cpu_load_double(dtype, p);
        return;
    }
    switch (dtype) {
#define LOAD(DT, T) case DT: { T x; memcpy(&x, p, sizeof x); *i = (int64_t)x; break; }
    TS_ATEN_INT_DTYPES(LOAD)
#undef LOAD
    default:
        *i = *p != 0;      /* bool */
        break;
    }
}

/* cummax/cummin(Tensor self, int dim) and their out= forms (values, indices). */
static int cumext(TsCall *c, bool max, bool out)
{
    TsArgs a;
    TsTensor *t = NULL, *ov = NULL, *oi = NULL;
    int d;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (rc || ts_args_tensor(&a, 0, &t) ||
        (out && (ts_args_tensor(&a, 2, &ov) || ts_args_tensor(&a, 3, &oi))) ||
        ts_args_dim(&a, 1, t->dim, true, &d))
        return ts_args_fail(&a, rc ? rc : (int)c->error->code);
    if (t->dtype == TS_FLOAT16)        /* PyTorch 1.13 has no float16 kernel on the cpu */
        return ts_args_fail(&a, ts_error_set(c->error, TS_ERR_RUNTIME, "\"%s_cpu\" not "
                                             "implemented for 'Half'",
                                             max ? "cummax" : "cummin"));
    TsTensor *vals = ts_cpu_empty(t->dtype, t->dim, t->sizes, c->error);
    TsTensor *idx = vals ? ts_cpu_empty(TS_INT64, t->dim, t->sizes, c->error) : NULL;
    if (!idx) {
        if (vals)
            ts_tensor_release(vals);
        return ts_args_fail(&a, c->error->code);
    }
    int64_t numel = ts_tensor_numel(t);
    if (numel > 0) {
        /* walk every line along d: outer positions with the d index held at 0 */
        int nd = t->dim ? t->dim : 1;
        int64_t sizes[TS_TENSOR_MAX_DIMS], strides[TS_TENSOR_MAX_DIMS], cst[TS_TENSOR_MAX_DIMS];
        int64_t pos[TS_TENSOR_MAX_DIMS] = { 0 }, run = 1;
        for (int k = nd - 1; k >= 0; k--) {
            sizes[k] = t->dim ? t->sizes[k] : 1;
            strides[k] = t->dim ? t->strides[k] : 0;
            cst[k] = run;
            run *= sizes[k];
        }
        int64_t len = sizes[d];
        sizes[d] = 1;
        size_t es = ts_dtype_size(t->dtype);
        bool integral = ts_dtype_is_integral(t->dtype, true);
        const char *src = t->storage->data;
        char *vo = ts_tensor_data(vals);
        int64_t *io = ts_tensor_data(idx);
        do {
            int64_t off = t->offset, lin = 0;
            for (int k = 0; k < nd; k++) {
                off += pos[k] * strides[k];
                lin += pos[k] * cst[k];
            }
            int64_t bi = 0, best_i = 0;
            double bd = 0;
            for (int64_t j = 0; j < len; j++) {
                const char *p = src + (off + j * strides[d]) * (int64_t)es;
                int64_t xi = 0;
                double xd = 0;
                load(t->dtype, p, integral, &xi, &xd);
                bool take = j == 0 || (integral ? (max ? xi >= bi : xi <= bi)
                                                : !isnan(bd) && (isnan(xd) ||
                                                                 (max ? xd >= bd : xd <= bd)));
                if (take) {
                    bi = xi;
                    bd = xd;
                    best_i = j;
                }
                int64_t at = lin + j * cst[d];
                memcpy(vo + at * (int64_t)es, src + (off + best_i * strides[d]) * (int64_t)es, es);
                io[at] = best_i;
            }
        } while (ts_cpu_next_index(nd, sizes, pos));
    }
    if (out) {
        rc = ts_cpu_store_out(ov, vals, c->error);
        if (!rc)
            rc = ts_cpu_store_out(oi, idx, c->error);
        ts_tensor_release(vals);
        ts_tensor_release(idx);
        TsValue r1 = a.v[2], r2 = a.v[3];
        a.v[2] = a.v[3] = ts_none();
        return ts_args_return_values(&a, rc, 2, (TsValue[]){ r1, r2 });
    }
    return ts_args_return_values(&a, 0, 2, (TsValue[]){ ts_obj_value(vals, TS_TAG_TENSOR),
                              ts_obj_value(idx, TS_TAG_TENSOR) });
}

static int k_cummax(TsCall *c) { return cumext(c, true, false); }
static int k_cummax_out(TsCall *c) { return cumext(c, true, true); }
static int k_cummin(TsCall *c) { return cumext(c, false, false); }
static int k_cummin_out(TsCall *c) { return cumext(c, false, true); }

static const TsCpuOp ops[] = {
    { "aten::cummax", "", k_cummax },
    { "aten::cummax", "out", k_cummax_out },
    { "aten::cummin", "", k_cummin },
    { "aten::cummin", "out", k_cummin_out },
};

const TsCpuTable ts_cpu_cumext_table = { ops, sizeof ops / sizeof ops[0] };
