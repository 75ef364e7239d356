/* strided.c — ops that address a tensor's memory by explicit strides: as_strided (and its
 * in-place form), narrow_copy and fill_diagonal_.
 *
 * as_strided is the one op that lets a program name any strides and offset; every view it
 * makes is checked to stay inside the storage (PyTorch's setStorage rule, computed with
 * overflow checks), so no later kernel can be led outside it.
 */
#include <stdio.h>
#include <string.h>

#include "reduce/reduce.h"
#include "shape/shape_ops.h"

/* as_strided's checks: equal lengths, no negative strides, and every addressable element
 * inside self's storage. */
static int strided_check(TsError *err, const TsTensor *t, int n, const int64_t *sizes,
                         int ns, const int64_t *strides, int64_t offset)
{
    char bs[256], bt[256];
    if (n != ns)
        return ts_error_set(err, TS_ERR_RUNTIME, "mismatch in length of strides and shape");
    ts_aten_format_sizes(bs, sizeof bs, n, sizes);
    ts_aten_format_sizes(bt, sizeof bt, n, strides);
    for (int k = 0; k < n; k++)
        if (strides[k] < 0)
            return ts_error_set(err, TS_ERR_RUNTIME, "as_strided: Negative strides are not "
                                "supported at the moment, got strides: %s", bt);
    if (offset < 0)
        return ts_error_set(err, TS_ERR_RUNTIME, "Tensor: invalid storage offset %lld",
                            (long long)offset);
    /* the storage size needed: (offset + sum((size - 1) * stride) + 1) * itemsize */
    int64_t span = 0, es = (int64_t)ts_dtype_size(t->dtype), need = 0;
    bool empty = false, overflow = false;
    for (int k = 0; k < n; k++) {
        int64_t step;
        if (sizes[k] < 0)
            overflow = true;
        else if (sizes[k] == 0)
            empty = true;
        else if (__builtin_mul_overflow(sizes[k] - 1, strides[k], &step) ||
                 __builtin_add_overflow(span, step, &span))
            overflow = true;
    }
    if (overflow)
        return ts_error_set(err, TS_ERR_RUNTIME, "Storage size calculation overflowed with "
                            "sizes=%s and strides=%s", bs, bt);
    if (!empty && (__builtin_add_overflow(span, offset + 1, &need) ||
                   __builtin_mul_overflow(need, es, &need)))
        return ts_error_set(err, TS_ERR_RUNTIME, "Storage size calculation overflowed with "
                            "sizes=%s and strides=%s", bs, bt);
    int64_t have = t->storage ? (int64_t)t->storage->nbytes : 0;
    if (need > have)
        return ts_error_set(err, TS_ERR_RUNTIME, "setStorage: sizes %s, strides %s, storage "
                            "offset %lld, and itemsize %lld requiring a storage size of %lld are "
                            "out of bounds for storage of size %lld", bs, bt, (long long)offset,
                            (long long)es, (long long)need, (long long)have);
    return 0;
}

/* as_strided(Tensor(a) self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) */
static int as_strided(TsCall *c, bool inplace)
{
    TsArgs a;
    int64_t sizes[TS_TENSOR_MAX_DIMS], strides[TS_TENSOR_MAX_DIMS], offset;
    int n, ns;
    bool has_offset;
    TsTensor *t;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_int_list(&a, 1, sizes, &n, TS_TENSOR_MAX_DIMS);
    if (!rc) rc = ts_args_int_list(&a, 2, strides, &ns, TS_TENSOR_MAX_DIMS);
    if (!rc) rc = ts_args_opt_int(&a, 3, &offset, &has_offset);
    if (!rc && !has_offset)
        offset = t->offset;
    if (!rc) rc = strided_check(c->error, t, n, sizes, ns, strides, offset);
    if (rc || !inplace)
        return ts_args_return_tensor(&a, rc, rc ? NULL : ts_cpu_view(t, n, sizes, strides, offset,
                                                                     c->error));
    rc = ts_tensor_set_shape(t, n, sizes, strides, offset, c->error);
    return ts_args_return_arg(&a, rc, 0);
}

static int k_as_strided(TsCall *c) { return as_strided(c, false); }
static int k_as_strided_(TsCall *c) { return as_strided(c, true); }

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
            TsTensor *v = ts_cpu_narrow(t, d, s, len, 1, c->error);
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
    { "aten::as_strided", "", k_as_strided },
    { "aten::as_strided_", "", k_as_strided_ },
    { "aten::narrow_copy", "", k_narrow_copy },
    { "aten::narrow_copy", "out", k_narrow_copy_out },
    { "aten::fill_diagonal_", "", k_fill_diagonal_ },
};

const TsCpuTable ts_cpu_strided_table = { ops, sizeof ops / sizeof ops[0] };
