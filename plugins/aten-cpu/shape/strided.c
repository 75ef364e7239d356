/* strided.c — the cpu's ops on strided parts of a tensor that read or write elements:
 * narrow.Tensor (its start is an element of a tensor), narrow_copy and fill_diagonal_.
 *
 * The views themselves (narrow, as_strided, ...) read no element and are aten-common's,
 * shared by every backend; narrow.Tensor reads its start and then calls that narrow.
 */
#include <stdio.h>
#include <string.h>

#include "reduce/reduce.h"
#include "shape/shape_ops.h"

/* aten::narrow.Tensor(Tensor(a) self, int dim, Tensor start, int length) -> Tensor(a): start
 * read from its 0-dim tensor, then aten-common's narrow with its checks. */
static int k_narrow_tensor(TsCall *c)
{
    TsArgs a;
    int64_t d, length;
    TsTensor *t, *st;
    TsValue r = ts_none();
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_int(&a, 1, &d);
    if (!rc) rc = ts_args_int(&a, 3, &length);
    if (!rc) rc = ts_args_tensor(&a, 2, &st);
    if (!rc && (st->dim != 0 || !ts_dtype_is_integral(st->dtype, false)))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "start must be an 0-dim integral Tensor.");
    if (rc)
        return ts_args_fail(&a, rc);
    ts_tensor_retain(t);    /* narrow takes these references */
    TsValue na[4] = { ts_obj_value(t, TS_TAG_TENSOR), ts_int(d),
                      ts_int((int64_t)ts_cpu_load_double(st->dtype, ts_tensor_data(st))),
                      ts_int(length) };
    rc = ts_cpu_call_kernel(c, &ts_aten_view_table, "aten::narrow", "", 4, na, &r);
    return ts_args_return(&a, rc, r);
}

/* narrow_copy(Tensor self, int dim, SymInt start, SymInt length): a contiguous copy of
 * self.narrow(dim, start, length). */
static int narrow_copy(TsCall *c, bool out)
{
    TsArgs a;
    int64_t d64, start, len;
    int d;
    TsTensor *t, *o, *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc && out) rc = ts_args_tensor(&a, 4, &o);
    if (!rc) rc = ts_args_int(&a, 1, &d64);
    if (!rc) rc = ts_args_int(&a, 2, &start);
    if (!rc) rc = ts_args_int(&a, 3, &len);
    if (rc)
        return ts_args_fail(&a, rc);
    if (t->dim == 0)
        ts_error_set(c->error, TS_ERR_RUNTIME, "narrow() cannot be applied to a 0-dim tensor.");
    else if (d64 >= t->dim)
        ts_error_set(c->error, TS_ERR_RUNTIME, "Expected dim < static_cast<int64_t>(self_sizes."
                     "size()) to be true, but got false.  (Could this error message be improved?"
                     "  If so, please report an enhancement request to PyTorch.)");
    else if (!ts_aten_wrap_dim(d64, t->dim, false, &d, c->error)) {
        int64_t size = t->sizes[d], s = start < 0 ? start + size : start;
        if (s < 0 || len < 0 || s > size - len)
            ts_error_set(c->error, TS_ERR_RUNTIME, "start (%lld) + length (%lld) exceeds "
                         "dimension size (%lld).", (long long)start, (long long)len,
                         (long long)size);
        else {
            TsTensor *v = ts_aten_narrow(t, d, s, len, 1, c->error);
            r = v ? ts_cpu_cast(v, t->dtype, c->error) : NULL;
            if (v)
                ts_tensor_release(v);
        }
    }
    return ts_cpu_return_out(&a, 0, r, out);
}

static int k_narrow_copy(TsCall *c) { return narrow_copy(c, false); }
static int k_narrow_copy_out(TsCall *c) { return narrow_copy(c, true); }

/* fill_diagonal_(Tensor(a!) self, Scalar fill_value, bool wrap=False): self[i, i, ..] = v;
 * a tall matrix with wrap starts again every cols + 1 rows (NumPy's rule). */
static int k_fill_diagonal_(TsCall *c)
{
    TsArgs a;
    char elem[16];
    TsTensor *t;
    bool wrap;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_bool(&a, 2, &wrap);
    if (!rc && t->dim < 2)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "dimensions must larger than 1");
    for (int k = 1; !rc && t->dim > 2 && k < t->dim; k++)
        if (t->sizes[k] != t->sizes[0])
            rc = ts_error_set(c->error, TS_ERR_RUNTIME,
                              "all dimensions of input must be of equal length");
    if (!rc)
        rc = ts_aten_scalar_to_elem(a.v[1], t->dtype, elem, c->error);
    if (rc)
        return ts_args_fail(&a, rc);
    size_t es = ts_dtype_size(t->dtype);
    int64_t n = t->sizes[0], step = 0;
    for (int k = 0; k < t->dim; k++) {
        n = t->sizes[k] < n ? t->sizes[k] : n;
        step += t->strides[k];
    }
    char *base = ts_tensor_numel(t) > 0 ? ts_tensor_data(t) : NULL;
    for (int64_t i = 0; base && i < n; i++)
        memcpy(base + i * step * (int64_t)es, elem, es);
    if (base && wrap && t->dim == 2 && t->sizes[0] > t->sizes[1] + 1) {
        int64_t rows = t->sizes[0], cols = t->sizes[1];
        for (int64_t top = cols + 1; top < rows; top += cols + 1)
            for (int64_t j = 0; j < cols && top + j < rows; j++)
                memcpy(base + ((top + j) * t->strides[0] + j * t->strides[1]) * (int64_t)es,
                       elem, es);
    }
    return ts_args_return_arg(&a, 0, 0);
}

static const TsCpuOp ops[] = {
    { "aten::narrow", "Tensor", k_narrow_tensor },
    { "aten::narrow_copy", "", k_narrow_copy },
    { "aten::narrow_copy", "out", k_narrow_copy_out },
    { "aten::fill_diagonal_", "", k_fill_diagonal_ },
};

const TsCpuTable ts_cpu_strided_table = { ops, sizeof ops / sizeof ops[0] };
