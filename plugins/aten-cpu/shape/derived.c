/* derived.c — ops PyTorch derives from others, derived here from aten-cpu's own kernels
 * (through ts_cpu_call_kernel), so they keep the callee's checks, dtype rules and messages:
 *
 *   - the in-place forms of functional kernels: tril_, triu_, cumsum_ and cumprod_ compute
 *     the functional result and store it into self (cast to self's dtype), as PyTorch's
 *     out= forms with out=self do;
 *   - other names of one op: concat and concatenate (cat);
 *   - composites: diagflat (diag of the flattened tensor), take_along_dim (gather after
 *     broadcasting) and sum_to_size (sum over the dims a broadcast to self's shape added).
 */
#include <string.h>

#include "shape/shape_ops.h"

/* A new reference to t as a value. */
static TsValue tval(TsTensor *t)
{
    ts_tensor_retain(t);
    return ts_obj_value(t, TS_TAG_TENSOR);
}

/* t.reshape(-1): a view where one exists, else a copy; NULL with the error set. */
static TsTensor *flat(TsCall *c, TsTensor *t)
{
    int64_t all = -1;
    TsValue shape = ts_cpu_int_list(c->error, 1, &all);
    if (shape.tag == TS_TAG_NONE)
        return NULL;
    TsValue ra[2] = { tval(t), shape };
    return ts_cpu_call_tensor(c, &ts_aten_view_table, "aten::reshape", "", 2, ra);
}

/* ---- in-place forms --------------------------------------------------------------------- */

/* An in-place op whose arguments are its functional form's (self first): that form's result
 * stored into self, which is the result. */
static int inplace_of(TsCall *c, const TsCpuTable *table, const char *qualname,
                      const char *overload)
{
    TsArgs a;
    TsTensor *self;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &self);
    if (rc)
        return ts_args_fail(&a, rc);
    TsValue args[TS_ARGS_MAX];
    for (size_t i = 0; i < a.n; i++) {
        args[i] = a.v[i];
        ts_value_retain(args[i]);
    }
    TsTensor *r = ts_cpu_call_tensor(c, table, qualname, overload, a.n, args);
    rc = r ? ts_cpu_store_out(self, r, c->error) : (int)c->error->code;
    if (r)
        ts_tensor_release(r);
    return ts_args_return_arg(&a, rc, 0);
}

/* aten::tril_(Tensor(a!) self, int diagonal=0) -> Tensor(a!), and triu_ */
static int k_tril_(TsCall *c) { return inplace_of(c, &ts_cpu_join_table, "aten::tril", ""); }
static int k_triu_(TsCall *c) { return inplace_of(c, &ts_cpu_join_table, "aten::triu", ""); }
/* aten::cumsum_(Tensor(a!) self, int dim, *, ScalarType? dtype=None) -> Tensor(a!), cumprod_ */
static int k_cumsum_(TsCall *c) { return inplace_of(c, &ts_cpu_scan_table, "aten::cumsum", ""); }
static int k_cumprod_(TsCall *c)
{
    return inplace_of(c, &ts_cpu_scan_table, "aten::cumprod", "");
}

/* ---- other names ------------------------------------------------------------------------ */

/* concat and concatenate (Tensor[] tensors, int dim=0), and their out= forms: cat's. */
static int same_args(TsCall *c, const char *overload)
{
    TsArgs a;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (rc)
        return ts_args_fail(&a, rc);
    TsValue args[TS_ARGS_MAX], r;
    size_t n = a.n;
    for (size_t i = 0; i < n; i++) {
        args[i] = a.v[i];
        ts_value_retain(args[i]);
    }
    rc = ts_cpu_call_kernel(c, &ts_cpu_join_table, "aten::cat", overload, n, args, &r);
    return ts_args_return(&a, rc, r);
}

static int k_concat(TsCall *c) { return same_args(c, ""); }
static int k_concat_out(TsCall *c) { return same_args(c, "out"); }

/* ---- composites ------------------------------------------------------------------------- */

/* aten::diagflat(Tensor self, int offset=0) -> Tensor: self flattened, on a diagonal. */
static int k_diagflat(TsCall *c)
{
    TsArgs a;
    TsTensor *t, *r = NULL;
    int64_t offset;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_int(&a, 1, &offset);
    if (!rc) {
        TsTensor *f = flat(c, t);
        if (f) {
            TsValue da[2] = { ts_obj_value(f, TS_TAG_TENSOR), ts_int(offset) };
            r = ts_cpu_call_tensor(c, &ts_cpu_compose_table, "aten::diag", "", 2, da);
        }
        rc = r ? 0 : (int)c->error->code;
    }
    return ts_args_return_tensor(&a, rc, r);
}

/* t broadcast to sizes (dim of them) as a view; NULL with expand's error. */
static TsTensor *broadcast(TsCall *c, TsTensor *t, int dim, const int64_t *sizes)
{
    TsValue l = ts_cpu_int_list(c->error, dim, sizes);
    if (l.tag == TS_TAG_NONE)
        return NULL;
    TsValue ea[3] = { tval(t), l, ts_bool(false) };
    return ts_cpu_call_tensor(c, &ts_aten_view_table, "aten::expand", "", 3, ea);
}

/* take_along_dim(Tensor self, Tensor indices, int? dim=None): self.view(-1).gather(0,
 * indices.view(-1)) without dim; with it, self and indices broadcast against each other in
 * every dim but dim, then gather along it. */
static int take_along_dim(TsCall *c, bool out)
{
    TsArgs a;
    TsTensor *t, *ix, *r = NULL;
    int64_t d64 = 0;
    bool has_dim = false;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_tensor(&a, 1, &ix);
    if (!rc) rc = ts_args_opt_int(&a, 2, &d64, &has_dim);
    if (rc)
        return ts_args_fail(&a, rc);
    if (!has_dim) {
        TsTensor *ft = flat(c, t), *fi = ft ? flat(c, ix) : NULL;
        if (fi) {
            TsValue ga[4] = { ts_obj_value(ft, TS_TAG_TENSOR), ts_int(0),
                              ts_obj_value(fi, TS_TAG_TENSOR), ts_bool(false) };
            r = ts_cpu_call_tensor(c, &ts_cpu_index_table, "aten::gather", "", 4, ga);
        } else if (ft) {
            ts_tensor_release(ft);
        }
        return ts_cpu_return_out(&a, r ? 0 : (int)c->error->code, r, out);
    }
    int d;
    if (ts_aten_wrap_dim(d64, t->dim, true, &d, c->error))
        return ts_args_fail(&a, c->error->code);
    if (t->dim != ix->dim)
        return ts_args_fail(&a, ts_error_set(c->error, TS_ERR_RUNTIME, "torch.take_along_dim(): "
                                             "input and indices should have the same number of "
                                             "dimensions, but got %d dimensions for input, and "
                                             "%d dimensions for indices", t->dim, ix->dim));
    int64_t shape[TS_TENSOR_MAX_DIMS], ts_[TS_TENSOR_MAX_DIMS], is_[TS_TENSOR_MAX_DIMS];
    for (int k = 0; k < t->dim; k++) {
        int64_t x = t->sizes[k], y = ix->sizes[k];
        if (k != d && x != y && x != 1 && y != 1)
            return ts_args_fail(&a, ts_error_set(c->error, TS_ERR_RUNTIME, "The size of tensor "
                                                 "a (%lld) must match the size of tensor b (%lld) "
                                                 "at non-singleton dimension %d", (long long)x,
                                                 (long long)y, k));
        shape[k] = x == 1 ? y : x;
        ts_[k] = k == d ? x : shape[k];
        is_[k] = k == d ? y : shape[k];
    }
    TsTensor *bt = t->dim ? broadcast(c, t, t->dim, ts_) : NULL;
    TsTensor *bi = bt ? broadcast(c, ix, ix->dim, is_) : NULL;
    if (!t->dim) {                 /* 0-d: nothing to broadcast */
        ts_tensor_retain(t);
        ts_tensor_retain(ix);
        bt = t;
        bi = ix;
    }
    if (bi) {
        TsValue ga[4] = { ts_obj_value(bt, TS_TAG_TENSOR), ts_int(d),
                          ts_obj_value(bi, TS_TAG_TENSOR), ts_bool(false) };
        r = ts_cpu_call_tensor(c, &ts_cpu_index_table, "aten::gather", "", 4, ga);
    } else if (bt) {
        ts_tensor_release(bt);
    }
    return ts_cpu_return_out(&a, r ? 0 : (int)c->error->code, r, out);
}

static int k_take_along_dim(TsCall *c) { return take_along_dim(c, false); }
static int k_take_along_dim_out(TsCall *c) { return take_along_dim(c, true); }

/* aten::sum_to_size(Tensor self, int[] size) -> Tensor: self summed over the leading dims
 * size lacks and the dims where size is 1 and self is not (keeping them), so that the
 * result has shape size; self itself when nothing is summed. */
static int k_sum_to_size(TsCall *c)
{
    TsArgs a;
    TsTensor *t, *r = NULL;
    int64_t size[TS_TENSOR_MAX_DIMS];
    int n;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_int_list(&a, 1, size, &n, TS_TENSOR_MAX_DIMS);
    if (rc)
        return ts_args_fail(&a, rc);
    bool expandable = n <= t->dim;
    for (int i = 0; expandable && i < n; i++) {
        int64_t have = t->sizes[t->dim - n + i];
        expandable = size[i] == have || size[i] == 1;
    }
    if (!expandable) {
        char want[256], got[256];
        ts_aten_format_sizes(want, sizeof want, n, size);
        ts_aten_format_sizes(got, sizeof got, t->dim, t->sizes);
        return ts_args_fail(&a, ts_error_set(c->error, TS_ERR_RUNTIME, "size {%s} is not "
                                             "expandable to size {%s}.", want, got));
    }
    int lead = t->dim - n, nd = 0;
    int64_t summed[TS_TENSOR_MAX_DIMS];
    for (int k = 0; k < t->dim; k++)
        if (k < lead || (size[k - lead] == 1 && t->sizes[k] != 1))
            summed[nd++] = k;
    if (nd == 0) {
        ts_tensor_retain(t);
        return ts_args_return_tensor(&a, 0, t);
    }
    TsValue dims = ts_cpu_int_list(c->error, nd, summed);
    if (dims.tag == TS_TAG_NONE)
        return ts_args_fail(&a, c->error->code);
    TsValue sa[4] = { tval(t), dims, ts_bool(true), ts_none() };
    TsTensor *s = ts_cpu_call_tensor(c, &ts_cpu_reduce_table, "aten::sum", "dim_IntList", 4, sa);
    if (s && lead > 0) {           /* the leading dims summed were kept as 1s: drop them */
        int64_t strides[TS_TENSOR_MAX_DIMS];
        for (int i = 0; i < n; i++)
            strides[i] = s->strides[lead + i];
        r = ts_aten_view(s, n, size, strides, s->offset, c->error);
        ts_tensor_release(s);
    } else {
        r = s;
    }
    return ts_args_return_tensor(&a, r ? 0 : (int)c->error->code, r);
}

static const TsCpuOp ops[] = {
    { "aten::tril_", "", k_tril_ }, { "aten::triu_", "", k_triu_ },
    { "aten::cumsum_", "", k_cumsum_ }, { "aten::cumprod_", "", k_cumprod_ },
    { "aten::concat", "", k_concat }, { "aten::concat", "out", k_concat_out },
    { "aten::concatenate", "", k_concat }, { "aten::concatenate", "out", k_concat_out },
    { "aten::diagflat", "", k_diagflat },
    { "aten::take_along_dim", "", k_take_along_dim },
    { "aten::take_along_dim", "out", k_take_along_dim_out },
    { "aten::sum_to_size", "", k_sum_to_size },
};

const TsCpuTable ts_cpu_derived_table = { ops, sizeof ops / sizeof ops[0] };
