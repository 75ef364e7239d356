/* scatter_views.c — writes through a view into a copy, and flat-index writes:
 *
 *   - select_scatter, slice_scatter, diagonal_scatter and as_strided_scatter: self cloned,
 *     then src copied into the view of the clone that select, slice, diagonal or as_strided
 *     would make (their own kernels make it, with their checks and messages); src must have
 *     the view's exact shape;
 *   - put_ and put: self's elements at flat indices (row-major over self's shape, negative
 *     counting from the end) set to source's, or added to them with accumulate=True.
 */
#include <string.h>

#include "shape/shape_ops.h"

/* self cloned, with src copied into view(clone, args...) made by the view kernel qualname
 * (its arguments after self: n of them from a->v[2]). */
static int scatter_into_view(TsCall *c, const char *qualname, const char *overload,
                             size_t n)
{
    TsArgs a;
    TsTensor *self, *src, *out = NULL, *view = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &self);
    if (!rc) rc = ts_args_tensor(&a, 1, &src);
    if (rc)
        return ts_args_fail(&a, rc);
    TsValue ca[2] = { a.v[0], ts_none() };
    ts_value_retain(ca[0]);
    out = ts_cpu_call_tensor(c, &ts_cpu_copy_table, "aten::clone", "", 2, ca);
    if (out) {
        TsValue va[TS_ARGS_MAX];
        ts_tensor_retain(out);
        va[0] = ts_obj_value(out, TS_TAG_TENSOR);
        for (size_t i = 0; i < n; i++) {
            va[1 + i] = a.v[2 + i];
            ts_value_retain(va[1 + i]);
        }
        view = ts_cpu_call_tensor(c, &ts_aten_view_table, qualname, overload, 1 + n, va);
    }
    if (view && !ts_aten_same_shape(src, view->dim, view->sizes)) {
        char want[256], got[256];
        ts_aten_format_sizes(got, sizeof got, src->dim, src->sizes);
        ts_aten_format_sizes(want, sizeof want, view->dim, view->sizes);
        ts_error_set(c->error, TS_ERR_RUNTIME, "expected src to have a size equal to the slice "
                     "of self. src size = %s, slice size = %s", got, want);
    } else if (view) {
        ts_cpu_copy_into(view, src);
    }
    bool ok = view && ts_aten_same_shape(src, view->dim, view->sizes);
    if (view)
        ts_tensor_release(view);
    if (!ok && out) {
        ts_tensor_release(out);
        out = NULL;
    }
    return ts_args_return_tensor(&a, out ? 0 : (int)c->error->code, out);
}

/* aten::select_scatter(Tensor self, Tensor src, int dim, int index) -> Tensor */
static int k_select_scatter(TsCall *c)
{
    return scatter_into_view(c, "aten::select", "int", 2);
}

/* aten::slice_scatter(Tensor self, Tensor src, int dim=0, SymInt? start=None,
 *     SymInt? end=None, SymInt step=1) -> Tensor */
static int k_slice_scatter(TsCall *c)
{
    return scatter_into_view(c, "aten::slice", "Tensor", 4);
}

/* aten::diagonal_scatter(Tensor self, Tensor src, int offset=0, int dim1=0, int dim2=1) */
static int k_diagonal_scatter(TsCall *c)
{
    return scatter_into_view(c, "aten::diagonal", "", 3);
}

/* aten::as_strided_scatter(Tensor self, Tensor src, SymInt[] size, SymInt[] stride,
 *     SymInt? storage_offset=None) -> Tensor */
static int k_as_strided_scatter(TsCall *c)
{
    return scatter_into_view(c, "aten::as_strided", "", 3);
}

/* ---- put -------------------------------------------------------------------------------- */

/* An integer element of dtype as int64, and back (truncated to its width, as a wrapping
 * add leaves it). */
static int64_t load_int(int dtype, const char *p)
{
    switch (dtype) {
    case TS_UINT8: { uint8_t v; memcpy(&v, p, 1); return v; }
    case TS_INT8: { int8_t v; memcpy(&v, p, 1); return v; }
    case TS_INT16: { int16_t v; memcpy(&v, p, 2); return v; }
    case TS_INT32: { int32_t v; memcpy(&v, p, 4); return v; }
    default: { int64_t v; memcpy(&v, p, 8); return v; }
    }
}

static void store_int(int dtype, char *p, int64_t v)
{
    switch (dtype) {
    case TS_UINT8: { uint8_t w = (uint8_t)v; memcpy(p, &w, 1); return; }
    case TS_INT8: { int8_t w = (int8_t)v; memcpy(p, &w, 1); return; }
    case TS_INT16: { int16_t w = (int16_t)v; memcpy(p, &w, 2); return; }
    case TS_INT32: { int32_t w = (int32_t)v; memcpy(p, &w, 4); return; }
    default: memcpy(p, &v, 8); return;
    }
}

/* *dst += *from for one element of dtype: integers exactly (wrapping), bool as or, the
 * floating dtypes through double. */
static void add_elem(int dtype, char *dst, const char *from)
{
    if (dtype == TS_BOOL)
        *dst = (char)(*dst || *from);
    else if (ts_dtype_is_integral(dtype, false))
        store_int(dtype, dst, (int64_t)((uint64_t)load_int(dtype, dst) +
                                        (uint64_t)load_int(dtype, from)));
    else
        ts_cpu_store_double(dtype, dst, ts_cpu_load_double(dtype, dst) +
                                        ts_cpu_load_double(dtype, from));
}

/* Writes source's elements into self at index's flat positions (self in place). */
static int put_into(TsCall *c, TsTensor *self, TsTensor *index, TsTensor *source,
                    bool accumulate)
{
    if (index->dtype != TS_INT64)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "put_(): Expected a long tensor for "
                            "index, but got %s", ts_dtype_type_name(index->dtype));
    if (self->dtype != source->dtype)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "put_(): self and source expected to have "
                            "the same dtype, but got self.dtype = %s and source.dtype = %s",
                            ts_dtype_type_name(self->dtype), ts_dtype_type_name(source->dtype));
    int64_t n = ts_tensor_numel(index), total = ts_tensor_numel(self);
    if (ts_tensor_numel(source) != n)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "put_(): Expected source and index to "
                            "have the same number of elements, but got source.numel() = %lld, "
                            "index.numel() = %lld", (long long)ts_tensor_numel(source),
                            (long long)n);
    TsTensor *ix = ts_cpu_cast(index, TS_INT64, c->error);
    TsTensor *src = ix ? ts_cpu_cast(source, source->dtype, c->error) : NULL;
    int rc = src ? 0 : (int)c->error->code;
    const int64_t *iv = ix ? ts_tensor_data(ix) : NULL;
    size_t es = ts_dtype_size(self->dtype);
    for (int64_t k = 0; !rc && k < n; k++) {
        int64_t at = iv[k];
        if (at < -total || at >= total) {
            rc = ts_error_set(c->error, TS_ERR_INDEX, "out of range: tried to access index "
                              "%lld on a tensor of %lld elements.", (long long)at,
                              (long long)total);
            break;
        }
        if (at < 0)
            at += total;
        /* the element at row-major position `at` of self's shape, through its strides */
        int64_t off = self->offset;
        for (int d = self->dim - 1; d >= 0; d--) {
            off += (at % self->sizes[d]) * self->strides[d];
            at /= self->sizes[d];
        }
        char *dst = (char *)ts_tensor_data(self) + (off - self->offset) * (int64_t)es;
        const char *from = (const char *)ts_tensor_data(src) + k * (int64_t)es;
        if (accumulate)
            add_elem(self->dtype, dst, from);
        else
            memcpy(dst, from, es);
    }
    if (ix)
        ts_tensor_release(ix);
    if (src)
        ts_tensor_release(src);
    return rc;
}

/* put_(Tensor(a!) self, Tensor index, Tensor source, bool accumulate=False), and put on a
 * clone of self. */
static int put(TsCall *c, bool inplace)
{
    TsArgs a;
    TsTensor *self, *index, *source, *out = NULL;
    bool accumulate;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &self);
    if (!rc) rc = ts_args_tensor(&a, 1, &index);
    if (!rc) rc = ts_args_tensor(&a, 2, &source);
    if (!rc) rc = ts_args_bool(&a, 3, &accumulate);
    if (!rc && !inplace && !(out = ts_cpu_cast(self, self->dtype, c->error)))
        rc = c->error->code;
    if (!rc)
        rc = put_into(c, inplace ? self : out, index, source, accumulate);
    if (inplace)
        return ts_args_return_arg(&a, rc, 0);
    return ts_args_return_tensor(&a, rc, out);
}

static int k_put_(TsCall *c) { return put(c, true); }
static int k_put(TsCall *c) { return put(c, false); }

static const TsCpuOp ops[] = {
    { "aten::select_scatter", "", k_select_scatter },
    { "aten::slice_scatter", "", k_slice_scatter },
    { "aten::diagonal_scatter", "", k_diagonal_scatter },
    { "aten::as_strided_scatter", "", k_as_strided_scatter },
    { "aten::put_", "", k_put_ }, { "aten::put", "", k_put },
};

const TsCpuTable ts_cpu_scatter_views_table = { ops, sizeof ops / sizeof ops[0] };
