/* shape_ops.c — views of a tensor (view, reshape, slice, select, transpose, expand, squeeze,
 * split, diagonal, ...) and the helpers every shape kernel shares (shape_ops.h).
 *
 * A view is a new tensor header over the same storage (retained), with new sizes, strides
 * and offset, so an in-place op on either shows in both; the schemas say so with Tensor(a).
 * Only reshape (when no view exists) and flatten through it copy. The copying ops that keep
 * or make a layout (contiguous, clone, copy_) are in copy.c.
 */
#include <stdlib.h>
#include <string.h>

#include "reduce/reduce.h"
#include "shape/shape_ops.h"

/* ---- shared helpers ----------------------------------------------------------------- */

int ts_cpu_infer_size(TsError *err, int64_t numel, int dim, int64_t *sizes)
{
    int infer = -1;
    int64_t known = 1;
    bool overflow = false;
    for (int d = 0; d < dim; d++) {
        if (sizes[d] == -1) {
            if (infer >= 0)
                return ts_error_set(err, TS_ERR_RUNTIME, "only one dimension can be inferred");
            infer = d;
        } else if (sizes[d] < 0) {
            return ts_error_set(err, TS_ERR_RUNTIME, "invalid shape dimension %lld",
                                (long long)sizes[d]);
        } else {
            overflow |= __builtin_mul_overflow(known, sizes[d], &known);
        }
    }
    char buf[256];
    if (!overflow && (numel == known || (infer >= 0 && known > 0 && numel % known == 0))) {
        if (infer < 0)
            return 0;
        if (known == 0) {
            ts_aten_format_sizes(buf, sizeof buf, dim, sizes);
            return ts_error_set(err, TS_ERR_RUNTIME, "cannot reshape tensor of 0 elements into "
                                "shape %s because the unspecified dimension size -1 can be any "
                                "value and is ambiguous", buf);
        }
        sizes[infer] = numel / known;
        return 0;
    }
    ts_aten_format_sizes(buf, sizeof buf, dim, sizes);
    return ts_error_set(err, TS_ERR_RUNTIME, "shape '%s' is invalid for input of size %lld", buf,
                        (long long)numel);
}

bool ts_cpu_view_strides(const TsTensor *t, int dim, const int64_t *sizes, int64_t *strides)
{
    if (t->dim == 0 || ts_tensor_numel(t) == 0)
        return ts_contiguous_strides(dim, sizes, strides);
    /* Walk t's dims from the innermost, grouping them into chunks that are contiguous with
     * each other; the new dims must tile every chunk exactly. */
    int view_d = dim - 1;
    int64_t chunk_base = t->strides[t->dim - 1], tensor_numel = 1, view_numel = 1;
    for (int d = t->dim - 1; d >= 0; d--) {
        tensor_numel *= t->sizes[d];
        if (d == 0 || (t->sizes[d - 1] != 1 && t->strides[d - 1] != tensor_numel * chunk_base)) {
            while (view_d >= 0 && (view_numel < tensor_numel || sizes[view_d] == 1)) {
                strides[view_d] = view_numel * chunk_base;
                view_numel *= sizes[view_d];
                view_d--;
            }
            if (view_numel != tensor_numel)
                return false;
            if (d > 0) {
                chunk_base = t->strides[d - 1];
                tensor_numel = 1;
                view_numel = 1;
            }
        }
    }
    return view_d == -1;
}

/* PyTorch's is_non_overlapping_and_dense: the dims, ordered by stride, tile memory. */
static bool dense(const TsTensor *t)
{
    int order[TS_TENSOR_MAX_DIMS], n = 0;
    for (int d = 0; d < t->dim; d++) {
        if (t->sizes[d] == 1)
            continue;
        int k = n++;
        while (k > 0 && t->strides[order[k - 1]] > t->strides[d]) {
            order[k] = order[k - 1];
            k--;
        }
        order[k] = d;
    }
    int64_t want = 1;
    for (int k = 0; k < n; k++) {
        if (t->strides[order[k]] != want)
            return false;
        want *= t->sizes[order[k]];
    }
    return true;
}

TsTensor *ts_cpu_empty_like(const TsTensor *t, int dtype, TsError *err)
{
    TsTensor *r = ts_cpu_empty(dtype, t->dim, t->sizes, err);
    if (r && ts_tensor_numel(t) > 0 && !ts_tensor_is_contiguous(t) && dense(t) &&
        ts_tensor_set_shape(r, t->dim, t->sizes, t->strides, 0, err)) {
        ts_tensor_release(r);
        return NULL;
    }
    return r;
}

bool ts_cpu_next_index(int dim, const int64_t *sizes, int64_t *idx)
{
    for (int d = dim - 1; d >= 0; d--) {
        if (++idx[d] < sizes[d])
            return true;
        idx[d] = 0;
    }
    return false;
}

/* ---- view and reshape ---------------------------------------------------------------- */

/* A view of t with sizes (one -1 inferred); NULL with view's errors. */
static TsTensor *view_as_sizes(TsCall *c, const TsTensor *t, int dim, int64_t *sizes,
                               bool copy_if_needed)
{
    int64_t strides[TS_TENSOR_MAX_DIMS];
    if (ts_cpu_infer_size(c->error, ts_tensor_numel(t), dim, sizes))
        return NULL;
    if (ts_cpu_view_strides(t, dim, sizes, strides))
        return ts_cpu_view(t, dim, sizes, strides, t->offset, c->error);
    if (!copy_if_needed) {
        ts_error_set(c->error, TS_ERR_RUNTIME, "view size is not compatible with input tensor's "
                     "size and stride (at least one dimension spans across two contiguous "
                     "subspaces). Use .reshape(...) instead.");
        return NULL;
    }
    TsTensor *copy = ts_cpu_cast(t, t->dtype, c->error);
    if (copy && ts_tensor_set_shape(copy, dim, sizes, NULL, 0, c->error)) {
        ts_tensor_release(copy);
        return NULL;
    }
    return copy;
}

/* Kernels of the form (Tensor self, int[] size): view and reshape. */
static int view_kernel(TsCall *c, bool reshape)
{
    TsArgs a;
    int64_t sizes[TS_TENSOR_MAX_DIMS];
    int dim;
    TsTensor *t, *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_int_list(&a, 1, sizes, &dim, TS_TENSOR_MAX_DIMS);
    if (!rc) r = view_as_sizes(c, t, dim, sizes, reshape);
    return ts_args_return_tensor(&a, rc, r);
}

/* aten::view(Tensor(a) self, SymInt[] size) -> Tensor(a) */
static int k_view(TsCall *c) { return view_kernel(c, false); }
/* aten::reshape(Tensor(a) self, SymInt[] shape) -> Tensor(a) */
static int k_reshape(TsCall *c) { return view_kernel(c, true); }

/* view_as and reshape_as: (Tensor(a) self, Tensor other) -> Tensor(a) */
static int as_kernel(TsCall *c, bool reshape)
{
    TsArgs a;
    int64_t sizes[TS_TENSOR_MAX_DIMS];
    TsTensor *t, *o, *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_tensor(&a, 1, &o);
    if (!rc) {
        memcpy(sizes, o->sizes, sizeof sizes[0] * (size_t)o->dim);
        r = view_as_sizes(c, t, o->dim, sizes, reshape);
    }
    return ts_args_return_tensor(&a, rc, r);
}

static int k_view_as(TsCall *c) { return as_kernel(c, false); }
static int k_reshape_as(TsCall *c) { return as_kernel(c, true); }

/* aten::flatten.using_ints(Tensor(a) self, int start_dim=0, int end_dim=-1) -> Tensor(a) */
static int k_flatten(TsCall *c)
{
    TsArgs a;
    int64_t sizes[TS_TENSOR_MAX_DIMS];
    int start, end;
    TsTensor *t, *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_dim(&a, 1, t->dim, true, &start);
    if (!rc) rc = ts_args_dim(&a, 2, t->dim, true, &end);
    if (!rc && start > end)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME,
                          "flatten() has invalid args: start_dim cannot come after end_dim");
    if (rc)
        return ts_args_fail(&a, rc);
    if (t->dim == 0) {
        sizes[0] = 1;
        r = view_as_sizes(c, t, 1, sizes, true);
    } else if (start == end) {
        r = ts_cpu_view(t, t->dim, t->sizes, t->strides, t->offset, c->error);
    } else {
        int n = 0;
        for (int d = 0; d < start; d++)
            sizes[n++] = t->sizes[d];
        sizes[n] = 1;
        for (int d = start; d <= end; d++)
            sizes[n] *= t->sizes[d];
        n++;
        for (int d = end + 1; d < t->dim; d++)
            sizes[n++] = t->sizes[d];
        r = view_as_sizes(c, t, n, sizes, true);
    }
    return ts_args_return_tensor(&a, 0, r);
}

/* aten::unflatten.int(Tensor(a) self, int dim, int[] sizes) -> Tensor(a) */
static int k_unflatten(TsCall *c)
{
    TsArgs a;
    int64_t parts[TS_TENSOR_MAX_DIMS], sizes[TS_TENSOR_MAX_DIMS];
    int d, np;
    TsTensor *t, *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_int_list(&a, 2, parts, &np, TS_TENSOR_MAX_DIMS);
    if (!rc) rc = ts_args_dim(&a, 1, t->dim, true, &d);
    if (!rc && np == 0)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "unflatten: sizes must be non-empty");
    else if (!rc && t->dim + np - 1 > TS_TENSOR_MAX_DIMS)
        rc = ts_error_set(c->error, TS_ERR_LIMIT, "unflatten: more than %d dimensions",
                          TS_TENSOR_MAX_DIMS);
    if (rc)
        return ts_args_fail(&a, rc);
    int64_t dsize = t->dim ? t->sizes[d] : 1;
    TsError sub = TS_ERROR_INIT;
    if (ts_cpu_infer_size(&sub, dsize, np, parts)) {
        char buf[256];
        ts_aten_format_sizes(buf, sizeof buf, np, parts);
        ts_error_clear(&sub);
        return ts_args_fail(&a, ts_error_set(c->error, TS_ERR_RUNTIME, "unflatten: Provided "
                                             "sizes %s don't multiply up to the size of dim %d "
                                             "(%lld) in the input tensor", buf, d,
                                             (long long)dsize));
    }
    int n = 0;
    for (int k = 0; k < d; k++)
        sizes[n++] = t->sizes[k];
    for (int k = 0; k < np; k++)
        sizes[n++] = parts[k];
    for (int k = d + 1; k < t->dim; k++)
        sizes[n++] = t->sizes[k];
    r = view_as_sizes(c, t, n, sizes, false);
    return ts_args_return_tensor(&a, 0, r);
}

/* ---- slicing ----------------------------------------------------------------------------- */

/* Python's clamping of a slice bound into [0, size]. */
static int64_t slice_bound(int64_t b, int64_t size)
{
    if (b < 0)
        b = b < -size ? 0 : b + size;
    return b > size ? size : b;
}

/* aten::slice.Tensor(Tensor(a) self, int dim=0, SymInt? start=None, SymInt? end=None,
 *     SymInt step=1) -> Tensor(a) */
static int k_slice(TsCall *c)
{
    TsArgs a;
    int64_t d64, step, start, end;
    bool has_start, has_end;
    int d;
    TsTensor *t, *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_int(&a, 1, &d64);
    if (!rc) rc = ts_args_int(&a, 4, &step);
    if (!rc) rc = ts_args_opt_int(&a, 2, &start, &has_start);
    if (!rc) rc = ts_args_opt_int(&a, 3, &end, &has_end);
    if (!rc && t->dim == 0)
        rc = ts_error_set(c->error, TS_ERR_INDEX, "slice() cannot be applied to a 0-dim tensor.");
    else if (!rc && step <= 0)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "slice step must be positive");
    else if (!rc && !(rc = ts_aten_wrap_dim(d64, t->dim, false, &d, c->error))) {
        int64_t size = t->sizes[d];
        start = has_start ? slice_bound(start, size) : 0;
        end = has_end ? slice_bound(end, size) : size;
        if (end < start)
            end = start;
        r = ts_cpu_narrow(t, d, start, (end - start) / step + ((end - start) % step != 0), step,
                          c->error);
    }
    return ts_args_return_tensor(&a, rc, r);
}

/* The view of t with dimension d removed at index i (checked by the caller). */
static TsTensor *select_view(const TsTensor *t, int d, int64_t i, TsError *err)
{
    int64_t sizes[TS_TENSOR_MAX_DIMS], strides[TS_TENSOR_MAX_DIMS];
    int n = 0;
    for (int k = 0; k < t->dim; k++)
        if (k != d) {
            sizes[n] = t->sizes[k];
            strides[n++] = t->strides[k];
        }
    return ts_cpu_view(t, n, sizes, strides, t->offset + i * t->strides[d], err);
}

/* aten::select.int(Tensor(a) self, int dim, int index) -> Tensor(a) */
static int k_select(TsCall *c)
{
    TsArgs a;
    int64_t d64, i;
    int d;
    TsTensor *t, *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_int(&a, 1, &d64);
    if (!rc) rc = ts_args_int(&a, 2, &i);
    if (rc)
        return ts_args_fail(&a, rc);
    if (t->dim == 0) {
        ts_error_set(c->error, TS_ERR_INDEX, "select() cannot be applied to a 0-dim tensor.");
    } else if (!ts_aten_wrap_dim(d64, t->dim, false, &d, c->error)) {
        int64_t size = t->sizes[d];
        if (i < -size || i >= size) {
            char buf[256];
            ts_aten_format_sizes(buf, sizeof buf, t->dim, t->sizes);
            ts_error_set(c->error, TS_ERR_INDEX, "select(): index %lld out of range for tensor "
                         "of size %s at dimension %d", (long long)i, buf, d);
        } else {
            r = select_view(t, d, i < 0 ? i + size : i, c->error);
        }
    }
    return ts_args_return_tensor(&a, 0, r);
}

/* narrow's checks and view: start wraps like a dimension of the dim's size (PyTorch 1.13). */
static TsTensor *narrow_view(TsCall *c, const TsTensor *t, int64_t d64, int64_t start,
                             int64_t length)
{
    int d, s;
    if (t->dim == 0) {
        ts_error_set(c->error, TS_ERR_RUNTIME, "narrow() cannot be applied to a 0-dim tensor.");
        return NULL;
    }
    if (ts_aten_wrap_dim(d64, t->dim, false, &d, c->error))
        return NULL;
    int64_t size = t->sizes[d];
    if (ts_aten_wrap_dim(start, size, false, &s, c->error))
        return NULL;
    if (length < 0 || s > size - length) {
        ts_error_set(c->error, TS_ERR_RUNTIME, "start (%lld) + length (%lld) exceeds dimension "
                     "size (%lld).", (long long)s, (long long)length, (long long)size);
        return NULL;
    }
    return ts_cpu_narrow(t, d, s, length, 1, c->error);
}

/* aten::narrow(Tensor(a) self, int dim, int start, int length) -> Tensor(a)
 * aten::narrow.Tensor(Tensor(a) self, int dim, Tensor start, int length) -> Tensor(a) */
static int k_narrow(TsCall *c)
{
    TsArgs a;
    int64_t d, start = 0, length;
    TsTensor *t, *st;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_int(&a, 1, &d);
    if (!rc) rc = ts_args_int(&a, 3, &length);
    if (!rc && a.v[2].tag == TS_TAG_TENSOR && !(rc = ts_args_tensor(&a, 2, &st))) {
        if (st->dim != 0 || !ts_dtype_is_integral(st->dtype, false))
            rc = ts_error_set(c->error, TS_ERR_RUNTIME, "start must be an 0-dim integral Tensor.");
        else
            start = (int64_t)ts_cpu_load_double(st->dtype, ts_tensor_data(st));
    } else if (!rc) {
        rc = ts_args_int(&a, 2, &start);
    }
    return ts_args_return_tensor(&a, rc, rc ? NULL : narrow_view(c, t, d, start, length));
}

/* ---- reordering dims ----------------------------------------------------------------------- */

/* aten::transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a) */
static int k_transpose(TsCall *c)
{
    TsArgs a;
    int d0, d1;
    TsTensor *t, *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_dim(&a, 1, t->dim, true, &d0);
    if (!rc) rc = ts_args_dim(&a, 2, t->dim, true, &d1);
    if (!rc) {
        int64_t sizes[TS_TENSOR_MAX_DIMS], strides[TS_TENSOR_MAX_DIMS];
        memcpy(sizes, t->sizes, sizeof sizes[0] * (size_t)t->dim);
        memcpy(strides, t->strides, sizeof strides[0] * (size_t)t->dim);
        if (t->dim > 0) {
            sizes[d0] = t->sizes[d1];
            sizes[d1] = t->sizes[d0];
            strides[d0] = t->strides[d1];
            strides[d1] = t->strides[d0];
        }
        r = ts_cpu_view(t, t->dim, sizes, strides, t->offset, c->error);
    }
    return ts_args_return_tensor(&a, rc, r);
}

/* aten::permute(Tensor(a) self, int[] dims) -> Tensor(a) */
static int k_permute(TsCall *c)
{
    TsArgs a;
    int64_t dims[TS_TENSOR_MAX_DIMS], sizes[TS_TENSOR_MAX_DIMS], strides[TS_TENSOR_MAX_DIMS];
    bool seen[TS_TENSOR_MAX_DIMS] = { false };
    int n;
    TsTensor *t;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_int_list(&a, 1, dims, &n, TS_TENSOR_MAX_DIMS);
    if (!rc && n != t->dim)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "permute(sparse_coo): number of dimensions in "
                          "the tensor input does not match the length of the desired ordering of "
                          "dimensions i.e. input.dim() = %d is not equal to len(dims) = %d",
                          t->dim, n);
    for (int k = 0; !rc && k < n; k++) {
        int d;
        if ((rc = ts_aten_wrap_dim(dims[k], t->dim, true, &d, c->error)))
            break;
        if (seen[d])
            rc = ts_error_set(c->error, TS_ERR_RUNTIME, "permute(): duplicate dims are not "
                              "allowed.");
        seen[d] = true;
        sizes[k] = t->sizes[d];
        strides[k] = t->strides[d];
    }
    return ts_args_return_tensor(&a, rc, rc ? NULL : ts_cpu_view(t, n, sizes, strides, t->offset,
                                                                 c->error));
}

/* aten::numpy_T(Tensor(a) self) -> Tensor(a): t.T, every dim reversed. (PyTorch warns that
 * it may reject dims other than 2 one day; 1.13 reverses them all.) */
static int k_numpy_t(TsCall *c)
{
    TsArgs a;
    int64_t sizes[TS_TENSOR_MAX_DIMS], strides[TS_TENSOR_MAX_DIMS];
    TsTensor *t, *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) {
        for (int k = 0; k < t->dim; k++) {
            sizes[k] = t->sizes[t->dim - 1 - k];
            strides[k] = t->strides[t->dim - 1 - k];
        }
        r = ts_cpu_view(t, t->dim, sizes, strides, t->offset, c->error);
    }
    return ts_args_return_tensor(&a, rc, r);
}

/* ---- expand ------------------------------------------------------------------------------ */

/* t broadcast to sizes (-1 keeps a dim) as a view with stride 0 on the new dims. */
static TsTensor *expand_view(TsError *err, const TsTensor *t, int n, const int64_t *want)
{
    int64_t sizes[TS_TENSOR_MAX_DIMS], strides[TS_TENSOR_MAX_DIMS];
    char b1[256], b2[256];
    if (n < t->dim) {
        ts_aten_format_sizes(b1, sizeof b1, t->dim, t->sizes);
        ts_aten_format_sizes(b2, sizeof b2, n, want);
        ts_error_set(err, TS_ERR_RUNTIME, "expand(torch.%sTensor{%s}, size=%s): the number of "
                     "sizes provided (%d) must be greater or equal to the number of dimensions "
                     "in the tensor (%d)", ts_dtype_type_name(t->dtype), b1, b2, n, t->dim);
        return NULL;
    }
    for (int k = n - 1; k >= 0; k--) {
        int od = k - (n - t->dim);
        if (od < 0) {
            if (want[k] < 0) {
                ts_error_set(err, TS_ERR_RUNTIME, "The expanded size of the tensor (%lld) isn't "
                             "allowed in a leading, non-existing dimension %d",
                             (long long)want[k], k);
                return NULL;
            }
            sizes[k] = want[k];
            strides[k] = 0;
            continue;
        }
        int64_t have = t->sizes[od], size = want[k] == -1 ? have : want[k];
        if (have != size && have != 1) {
            ts_aten_format_sizes(b1, sizeof b1, n, want);
            ts_aten_format_sizes(b2, sizeof b2, t->dim, t->sizes);
            ts_error_set(err, TS_ERR_RUNTIME, "The expanded size of the tensor (%lld) must match "
                         "the existing size (%lld) at non-singleton dimension %d.  Target sizes: "
                         "%s.  Tensor sizes: %s", (long long)size, (long long)have, k, b1, b2);
            return NULL;
        }
        if (size < 0) {
            ts_error_set(err, TS_ERR_RUNTIME, "Trying to create tensor with negative dimension "
                         "%lld", (long long)size);
            return NULL;
        }
        sizes[k] = size;
        strides[k] = have == size ? t->strides[od] : 0;
    }
    return ts_cpu_view(t, n, sizes, strides, t->offset, err);
}

/* aten::expand(Tensor(a) self, SymInt[] size, *, bool implicit=False) -> Tensor(a) */
static int k_expand(TsCall *c)
{
    TsArgs a;
    int64_t want[TS_TENSOR_MAX_DIMS];
    int n;
    TsTensor *t, *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_int_list(&a, 1, want, &n, TS_TENSOR_MAX_DIMS);
    if (!rc) r = expand_view(c->error, t, n, want);
    return ts_args_return_tensor(&a, rc, r);
}

/* aten::expand_as(Tensor(a) self, Tensor other) -> Tensor(a) */
static int k_expand_as(TsCall *c)
{
    TsArgs a;
    TsTensor *t, *o, *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_tensor(&a, 1, &o);
    if (!rc) r = expand_view(c->error, t, o->dim, o->sizes);
    return ts_args_return_tensor(&a, rc, r);
}

/* ---- squeeze and unsqueeze ------------------------------------------------------------------ */

/* t without its size-1 dims (only dim `only` when it is >= 0). */
static TsTensor *squeeze_view(const TsTensor *t, int only, TsError *err)
{
    int64_t sizes[TS_TENSOR_MAX_DIMS], strides[TS_TENSOR_MAX_DIMS];
    int n = 0;
    for (int k = 0; k < t->dim; k++)
        if (t->sizes[k] != 1 || (only >= 0 && k != only)) {
            sizes[n] = t->sizes[k];
            strides[n++] = t->strides[k];
        }
    return ts_cpu_view(t, n, sizes, strides, t->offset, err);
}

/* aten::squeeze(Tensor(a) self) -> Tensor(a) */
static int k_squeeze(TsCall *c)
{
    TsArgs a;
    TsTensor *t;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    return ts_args_return_tensor(&a, rc, rc ? NULL : squeeze_view(t, -1, c->error));
}

/* aten::squeeze.dim(Tensor(a) self, int dim) -> Tensor(a) */
static int k_squeeze_dim(TsCall *c)
{
    TsArgs a;
    int d;
    TsTensor *t, *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_dim(&a, 1, t->dim, true, &d);
    if (!rc) r = squeeze_view(t, t->dim ? d : 0, c->error);
    return ts_args_return_tensor(&a, rc, r);
}

/* aten::unsqueeze(Tensor(a) self, int dim) -> Tensor(a) */
static int k_unsqueeze(TsCall *c)
{
    TsArgs a;
    int64_t sizes[TS_TENSOR_MAX_DIMS], strides[TS_TENSOR_MAX_DIMS];
    int d;
    TsTensor *t;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_dim(&a, 1, (int64_t)t->dim + 1, true, &d);
    if (!rc && t->dim >= TS_TENSOR_MAX_DIMS)
        rc = ts_error_set(c->error, TS_ERR_LIMIT, "unsqueeze: a tensor has at most %d dimensions",
                          TS_TENSOR_MAX_DIMS);
    if (rc)
        return ts_args_fail(&a, rc);
    for (int k = 0, n = 0; k <= t->dim; k++) {
        if (k == d) {
            sizes[k] = 1;
            strides[k] = d < t->dim ? t->sizes[d] * t->strides[d] : 1;
        } else {
            sizes[k] = t->sizes[n];
            strides[k] = t->strides[n++];
        }
    }
    return ts_args_return_tensor(&a, 0, ts_cpu_view(t, t->dim + 1, sizes, strides, t->offset,
                                                    c->error));
}

/* ---- unbind, split, diagonal ---------------------------------------------------------------- */

/* Appends a view (or drops the list when v is NULL); returns the list or NULL. */
static TsList *append_view(TsList *l, TsTensor *v, TsError *err)
{
    if (!v || ts_list_append(l, ts_obj_value(v, TS_TAG_TENSOR), err)) {
        ts_heap_release(&l->h);
        return NULL;
    }
    return l;
}

/* aten::unbind.int(Tensor(a -> *) self, int dim=0) -> Tensor(a)[] */
static int k_unbind(TsCall *c)
{
    TsArgs a;
    int d;
    TsTensor *t;
    TsList *l = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_dim(&a, 1, t->dim, false, &d);
    if (!rc) {
        l = ts_list_new(ts_type_tensor(), (size_t)t->sizes[d], c->error);
        for (int64_t i = 0; l && i < t->sizes[d]; i++)
            l = append_view(l, select_view(t, d, i, c->error), c->error);
    }
    return ts_args_return_list(&a, rc, l);
}

/* The views of t along d with the given sizes (checked to sum to the dim's size). */
static TsList *split_views(TsCall *c, const TsTensor *t, int d, int n, const int64_t *parts)
{
    TsList *l = ts_list_new(ts_type_tensor(), (size_t)n, c->error);
    int64_t start = 0;
    for (int i = 0; l && i < n; i++) {
        l = append_view(l, ts_cpu_narrow(t, d, start, parts[i], 1, c->error), c->error);
        start += parts[i];
    }
    return l;
}

/* aten::split.Tensor(Tensor(a -> *) self, int split_size, int dim=0) -> Tensor(a)[] */
static int k_split(TsCall *c)
{
    TsArgs a;
    int64_t size, d64;
    int d;
    TsTensor *t;
    TsList *l = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_int(&a, 1, &size);
    if (!rc) rc = ts_args_int(&a, 2, &d64);
    if (rc)
        return ts_args_fail(&a, rc);
    if (t->dim == 0)
        ts_error_set(c->error, TS_ERR_RUNTIME, "split expects at least a 1-dimensional tensor");
    else if (size < 0)
        ts_error_set(c->error, TS_ERR_RUNTIME, "split expects split_size be non-negative, but "
                     "got split_size=%lld", (long long)size);
    else if (!ts_aten_wrap_dim(d64, t->dim, false, &d, c->error)) {
        int64_t dsize = t->sizes[d];
        if (size == 0 && dsize != 0)
            return ts_args_fail(&a, ts_error_set(c->error, TS_ERR_RUNTIME, "split_size can only "
                                                 "be 0 if dimension size is 0, but got dimension "
                                                 "size of %lld", (long long)dsize));
        int64_t count = size == 0 ? 1 : dsize / size + (dsize % size != 0);
        if (count < 1)
            count = 1;
        l = ts_list_new(ts_type_tensor(), (size_t)count, c->error);
        for (int64_t i = 0; l && i < count; i++) {
            int64_t start = i * size;
            l = append_view(l, ts_cpu_narrow(t, d, start, dsize - start < size ? dsize - start
                                                                                : size, 1, c->error),
                            c->error);
        }
    }
    return ts_args_return_list(&a, 0, l);
}

/* split.sizes, split (int[]) and split_with_sizes:
 *     (Tensor(a -> *) self, int[] split_sizes, int dim=0) -> Tensor(a)[] */
static int k_split_sizes(TsCall *c)
{
    enum { MAX_PARTS = 4096 };
    TsArgs a;
    int64_t *parts = NULL;
    int d, n;
    TsTensor *t;
    TsList *l = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    size_t len = !rc && a.v[1].tag == TS_TAG_LIST ? ((const TsList *)a.v[1].u.p)->len : 1;
    if (!rc && !(parts = malloc(sizeof *parts * (len ? len : 1))))
        rc = ts_error_set(c->error, TS_ERR_NOMEM, "%s: out of memory", ts_args_op_name(&a));
    if (!rc) rc = ts_args_int_list(&a, 1, parts, &n, MAX_PARTS);
    if (!rc) rc = ts_args_dim(&a, 2, t->dim, false, &d);
    if (rc) {
        free(parts);
        return ts_args_fail(&a, rc);
    }
    int64_t sum = 0;
    bool negative = false;
    for (int i = 0; i < n; i++) {
        negative |= parts[i] < 0;
        if (!negative && __builtin_add_overflow(sum, parts[i], &sum))
            sum = -1;
    }
    char buf[256];
    ts_aten_format_sizes(buf, sizeof buf, n, parts);
    if (negative)
        ts_error_set(c->error, TS_ERR_RUNTIME, "split_with_sizes expects split_sizes have only "
                     "non-negative entries, but got split_sizes=%s", buf);
    else if (sum != t->sizes[d])
        ts_error_set(c->error, TS_ERR_RUNTIME, "split_with_sizes expects split_sizes to sum "
                     "exactly to %lld (input tensor's size at dimension %d), but got "
                     "split_sizes=%s", (long long)t->sizes[d], d, buf);
    else
        l = split_views(c, t, d, n, parts);
    free(parts);
    return ts_args_return_list(&a, 0, l);
}

/* aten::diagonal(Tensor(a) self, int offset=0, int dim1=0, int dim2=1) -> Tensor(a) */
static int k_diagonal(TsCall *c)
{
    TsArgs a;
    int64_t off, x, y;
    int d1, d2;
    TsTensor *t;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_int(&a, 1, &off);
    if (!rc) rc = ts_args_int(&a, 2, &x);
    if (!rc) rc = ts_args_int(&a, 3, &y);
    if (!rc) rc = ts_aten_wrap_dim(x, t->dim, false, &d1, c->error);
    if (!rc) rc = ts_aten_wrap_dim(y, t->dim, false, &d2, c->error);
    if (!rc && d1 == d2)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "diagonal dimensions cannot be identical "
                          "%lld, %lld", (long long)x, (long long)y);
    if (rc)
        return ts_args_fail(&a, rc);
    int64_t s1 = t->sizes[d1], s2 = t->sizes[d2], len, start = t->offset;
    if (off >= 0) {
        len = off >= s2 ? 0 : (s1 < s2 - off ? s1 : s2 - off);
        if (len > 0)
            start += off * t->strides[d2];
    } else {
        len = off <= -s1 ? 0 : (s1 + off < s2 ? s1 + off : s2);   /* -off: INT64_MIN */
        if (len > 0)
            start -= off * t->strides[d1];
    }
    int64_t sizes[TS_TENSOR_MAX_DIMS], strides[TS_TENSOR_MAX_DIMS];
    int n = 0;
    for (int k = 0; k < t->dim; k++)
        if (k != d1 && k != d2) {
            sizes[n] = t->sizes[k];
            strides[n++] = t->strides[k];
        }
    sizes[n] = len;
    strides[n++] = t->strides[d1] + t->strides[d2];
    return ts_args_return_tensor(&a, 0, ts_cpu_view(t, n, sizes, strides, start, c->error));
}

/* ---- aliases and layout questions ------------------------------------------------------------ */

/* detach and alias: (Tensor(a) self) -> Tensor(a), a new header over the same elements. */
static int k_alias(TsCall *c)
{
    TsArgs a;
    TsTensor *t, *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc && (r = ts_cpu_view(t, t->dim, t->sizes, t->strides, t->offset, c->error)))
        r->flags = t->flags;
    return ts_args_return_tensor(&a, rc, r);
}

/* aten::stride(Tensor self) -> int[] */
static int k_strides(TsCall *c)
{
    TsArgs a;
    TsTensor *t;
    TsList *l = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc && (l = ts_list_new(ts_type_int(), (size_t)t->dim, c->error)))
        for (int d = 0; d < t->dim; d++)
            l->items[l->len++] = ts_int(t->strides[d]);
    return ts_args_return_list(&a, rc, l);
}

/* aten::stride.int(Tensor self, int dim) -> int */
static int k_stride(TsCall *c)
{
    TsArgs a;
    int d;
    TsTensor *t;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_dim(&a, 1, t->dim, false, &d);
    return ts_args_return(&a, rc, ts_int(rc ? 0 : t->strides[d]));
}

/* True when t is laid out channels-last (rank 4) or channels-last-3d (rank 5). */
static bool channels_last(const TsTensor *t, int rank)
{
    if (t->dim != rank)
        return false;
    int order[5] = { 1, 4, 3, 2, 0 };
    if (rank == 4) {
        order[1] = 3;
        order[2] = 2;
        order[3] = 0;
    }
    int64_t want = 1;
    for (int k = 0; k < rank; k++) {
        int d = order[k];
        if (t->sizes[d] != 1 && t->strides[d] != want)
            return false;
        want *= t->sizes[d];
    }
    return true;
}

/* aten::is_contiguous(Tensor self) -> bool
 * aten::is_contiguous.memory_format(Tensor self, MemoryFormat memory_format) -> bool */
static int k_is_contiguous(TsCall *c)
{
    TsArgs a;
    TsTensor *t;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    int64_t mf = a.n == 2 && a.v[1].tag == TS_TAG_INT ? a.v[1].u.i : 0;
    bool yes = false;
    if (!rc && mf == 0)
        yes = ts_tensor_is_contiguous(t);
    else if (!rc && (mf == 2 || mf == 3))
        yes = ts_tensor_numel(t) == 0 || channels_last(t, mf == 2 ? 4 : 5);
    else if (!rc)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME,
                          "is_contiguous: unsupported memory format %lld", (long long)mf);
    return ts_args_return(&a, rc, ts_bool(yes));
}

static const TsCpuOp ops[] = {
    { "aten::view", "", k_view },
    { "aten::view_as", "", k_view_as },
    { "aten::reshape", "", k_reshape },
    { "aten::reshape_as", "", k_reshape_as },
    { "aten::flatten", "using_ints", k_flatten },
    { "aten::unflatten", "int", k_unflatten },
    { "aten::slice", "Tensor", k_slice },
    { "aten::select", "int", k_select },
    { "aten::narrow", "", k_narrow },
    { "aten::narrow", "Tensor", k_narrow },
    { "aten::transpose", "int", k_transpose },
    { "aten::permute", "", k_permute },
    { "aten::numpy_T", "", k_numpy_t },
    { "aten::numpy_T", "a", k_numpy_t },
    { "aten::expand", "", k_expand },
    { "aten::expand_as", "", k_expand_as },
    { "aten::squeeze", "", k_squeeze },
    { "aten::squeeze", "dim", k_squeeze_dim },
    { "aten::unsqueeze", "", k_unsqueeze },
    { "aten::unbind", "int", k_unbind },
    { "aten::split", "Tensor", k_split },
    { "aten::split", "sizes", k_split_sizes },
    { "aten::split", "", k_split_sizes },
    { "aten::split_with_sizes", "", k_split_sizes },
    { "aten::diagonal", "", k_diagonal },
    { "aten::detach", "", k_alias },
    { "aten::alias", "", k_alias },
    { "aten::stride", "", k_strides },
    { "aten::stride", "int", k_stride },
    { "aten::is_contiguous", "", k_is_contiguous },
    { "aten::is_contiguous", "memory_format", k_is_contiguous },
};

const TsCpuTable ts_cpu_shape_ops_table = { ops, sizeof ops / sizeof ops[0] };
