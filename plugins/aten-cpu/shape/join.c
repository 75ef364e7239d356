/* join.c — ops that build a new tensor from pieces of others: cat, stack, repeat, flip,
 * roll, tril and triu.
 *
 * cat promotes its inputs' dtypes (as PyTorch 1.13 does) and copies each into a narrowed
 * view of the result, so strides and dtypes of the inputs cost nothing extra; 1-d empty
 * tensors are skipped, PyTorch's legacy rule. stack is cat of unsqueezed views. repeat
 * copies self broadcast into a view of the result split as (repeat, size) per dim. flip and
 * roll move elements one by one with computed source offsets (a view cannot have negative
 * strides).
 */
#include <stdlib.h>
#include <string.h>

#include "shape/shape_ops.h"

/* n tensors joined along dim (not yet wrapped); NULL with PyTorch's errors. */
static TsTensor *cat_tensors(TsError *err, size_t n, TsTensor *const *ts, int64_t dim64)
{
    if (n == 0) {
        ts_error_set(err, TS_ERR_RUNTIME, "torch.cat(): expected a non-empty list of Tensors");
        return NULL;
    }
    int dtype = ts[0]->dtype;
    const TsTensor *ref = NULL;
    for (size_t i = 0; i < n; i++) {
        if (ts[i]->dim == 0) {
            ts_error_set(err, TS_ERR_RUNTIME, "zero-dimensional tensor (at position %zu) cannot "
                         "be concatenated", i);
            return NULL;
        }
        dtype = ts_aten_promote_types(dtype, ts[i]->dtype);
        if (dtype < 0) {
            ts_error_set(err, TS_ERR_RUNTIME, "torch.cat(): unsupported dtype %s",
                         ts_dtype_name(ts[i]->dtype));
            return NULL;
        }
        if (!ref && !(ts[i]->dim == 1 && ts[i]->sizes[0] == 0))
            ref = ts[i];
    }
    if (!ref) {
        int64_t zero = 0;
        return ts_cpu_empty(dtype, 1, &zero, err);
    }
    int d;
    if (ts_aten_wrap_dim(dim64, ref->dim, false, &d, err))
        return NULL;
    int64_t sizes[TS_TENSOR_MAX_DIMS];
    memcpy(sizes, ref->sizes, sizeof sizes[0] * (size_t)ref->dim);
    sizes[d] = 0;
    for (size_t i = 0; i < n; i++) {
        const TsTensor *t = ts[i];
        if (t->dim == 1 && t->sizes[0] == 0)
            continue;
        if (t->dim != ref->dim) {
            ts_error_set(err, TS_ERR_RUNTIME, "Tensors must have same number of dimensions: got "
                         "%d and %d", ref->dim, t->dim);
            return NULL;
        }
        for (int k = 0; k < t->dim; k++)
            if (k != d && t->sizes[k] != ref->sizes[k]) {
                ts_error_set(err, TS_ERR_RUNTIME, "Sizes of tensors must match except in "
                             "dimension %d. Expected size %lld but got size %lld for tensor "
                             "number %zu in the list.", d, (long long)ref->sizes[k],
                             (long long)t->sizes[k], i);
                return NULL;
            }
        if (__builtin_add_overflow(sizes[d], t->sizes[d], &sizes[d])) {
            ts_error_set(err, TS_ERR_LIMIT, "torch.cat(): the result is too large");
            return NULL;
        }
    }
    TsTensor *out = ts_cpu_empty(dtype, ref->dim, sizes, err);
    int64_t start = 0;
    for (size_t i = 0; out && i < n; i++) {
        const TsTensor *t = ts[i];
        if ((t->dim == 1 && t->sizes[0] == 0) || t->sizes[d] == 0)
            continue;
        sizes[d] = t->sizes[d];
        TsTensor *part = ts_cpu_view(out, out->dim, sizes, out->strides,
                                     start * out->strides[d], err);
        if (!part) {
            ts_tensor_release(out);
            return NULL;
        }
        ts_cpu_copy_into(part, t);
        ts_tensor_release(part);
        start += t->sizes[d];
    }
    return out;
}

/* The tensors of a Tensor[] argument as an array (borrowed), or NULL with err. */
static TsTensor **tensor_items(TsCall *c, const char *op, TsValue v, size_t *n)
{
    const TsList *l = ts_cpu_tensor_list(c, op, "tensors", v);
    if (!l)
        return NULL;
    TsTensor **ts = malloc(sizeof *ts * (l->len ? l->len : 1));
    if (!ts) {
        ts_error_set(c->error, TS_ERR_NOMEM, "%s: out of memory", op);
        return NULL;
    }
    for (size_t i = 0; i < l->len; i++)
        ts[i] = (TsTensor *)l->items[i].u.p;
    *n = l->len;
    return ts;
}

/* aten::cat(Tensor[] tensors, int dim=0) -> Tensor */
static int k_cat(TsCall *c)
{
    TsValue a[2];
    int64_t d;
    size_t n = 0;
    TsTensor *r = NULL, **ts;
    ts_cpu_pop_args(c, 2, a);
    if (!ts_cpu_int_arg(c->error, "aten::cat", "dim", a[1], &d) &&
        (ts = tensor_items(c, "aten::cat", a[0], &n))) {
        r = cat_tensors(c->error, n, ts, d);
        free(ts);
    }
    return ts_cpu_kernel_end(c, 2, a, r);
}

/* aten::cat.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!): the result
 * computed as cat computes it, then copied into out (resized, converted where the dtypes
 * allow); out may not share memory with any input, nor be an expanded view. */
static int k_cat_out(TsCall *c)
{
    TsValue a[3];
    int64_t d;
    size_t n = 0;
    TsTensor *r = NULL, **ts = NULL;
    ts_cpu_pop_args(c, 3, a);
    TsTensor *out = ts_cpu_tensor_arg(c, "aten::cat", "out", a[2]);
    int rc = out ? 0 : (int)c->error->code;
    if (!rc && !ts_cpu_int_arg(c->error, "aten::cat", "dim", a[1], &d) &&
        !ts_cpu_check_internal_overlap(out, c->error) &&
        (ts = tensor_items(c, "aten::cat", a[0], &n))) {
        for (size_t i = 0; i < n && !rc; i++)
            if (ts_cpu_may_overlap(out, ts[i]))
                rc = ts_cpu_input_overlap_error(c->error);
        if (!rc)
            r = cat_tensors(c->error, n, ts, d);
        free(ts);
    }
    if (!rc && !r)
        rc = (int)c->error->code;
    if (!rc && !ts_aten_can_cast(r->dtype, out->dtype))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "torch.cat(): input types can't be cast to "
                          "the desired output type %s", ts_dtype_type_name(out->dtype));
    if (!rc && !(rc = ts_aten_resize_out(out, r->dim, r->sizes, &ts_cpu_allocator, c->error)))
        ts_cpu_copy_into(out, r);
    if (r)
        ts_tensor_release(r);
    if (rc) {
        ts_cpu_release_args(3, a);
        return rc;
    }
    TsValue result = a[2];
    a[2] = ts_none();
    ts_cpu_release_args(3, a);
    return ts_stack_push(c->stack, result, c->error);
}

/* aten::stack(Tensor[] tensors, int dim=0) -> Tensor */
static int k_stack(TsCall *c)
{
    TsValue a[2];
    int64_t d64;
    size_t n = 0, made = 0;
    int d;
    TsTensor *r = NULL, **ts = NULL, **views = NULL;
    ts_cpu_pop_args(c, 2, a);
    if (ts_cpu_int_arg(c->error, "aten::stack", "dim", a[1], &d64) ||
        !(ts = tensor_items(c, "aten::stack", a[0], &n)))
        return ts_cpu_kernel_end(c, 2, a, NULL);
    if (n == 0) {
        ts_error_set(c->error, TS_ERR_RUNTIME, "stack expects a non-empty TensorList");
        goto done;
    }
    for (size_t i = 1; i < n; i++) {
        bool same = ts[i]->dim == ts[0]->dim;
        for (int k = 0; same && k < ts[0]->dim; k++)
            same = ts[i]->sizes[k] == ts[0]->sizes[k];
        if (!same) {
            char b1[256], b2[256];
            ts_aten_format_sizes(b1, sizeof b1, ts[0]->dim, ts[0]->sizes);
            ts_aten_format_sizes(b2, sizeof b2, ts[i]->dim, ts[i]->sizes);
            ts_error_set(c->error, TS_ERR_RUNTIME, "stack expects each tensor to be equal size, "
                         "but got %s at entry 0 and %s at entry %zu", b1, b2, i);
            goto done;
        }
    }
    if (ts_aten_wrap_dim(d64, (int64_t)ts[0]->dim + 1, true, &d, c->error))
        goto done;
    if (ts[0]->dim >= TS_TENSOR_MAX_DIMS) {
        ts_error_set(c->error, TS_ERR_LIMIT, "stack: a tensor has at most %d dimensions",
                     TS_TENSOR_MAX_DIMS);
        goto done;
    }
    if (!(views = malloc(sizeof *views * n))) {
        ts_error_set(c->error, TS_ERR_NOMEM, "aten::stack: out of memory");
        goto done;
    }
    for (; made < n; made++) {
        const TsTensor *t = ts[made];
        int64_t sizes[TS_TENSOR_MAX_DIMS], strides[TS_TENSOR_MAX_DIMS];
        for (int k = 0, j = 0; k <= t->dim; k++) {
            if (k == d) {
                sizes[k] = 1;
                strides[k] = 1;
            } else {
                sizes[k] = t->sizes[j];
                strides[k] = t->strides[j++];
            }
        }
        if (!(views[made] = ts_cpu_view(t, t->dim + 1, sizes, strides, t->offset, c->error)))
            goto done;
    }
    r = cat_tensors(c->error, n, views, d);
done:
    for (size_t i = 0; i < made; i++)
        ts_tensor_release(views[i]);
    free(views);
    free(ts);
    return ts_cpu_kernel_end(c, 2, a, r);
}

/* aten::repeat(Tensor self, SymInt[] repeats) -> Tensor */
static int k_repeat(TsCall *c)
{
    static const char op[] = "aten::repeat";
    enum { MAX = TS_TENSOR_MAX_DIMS / 2 };
    TsValue a[2];
    int64_t rep[TS_TENSOR_MAX_DIMS], sizes[TS_TENSOR_MAX_DIMS];
    int n;
    TsTensor *r = NULL;
    ts_cpu_pop_args(c, 2, a);
    TsTensor *t = ts_cpu_tensor_arg(c, op, "self", a[0]);
    if (!t || ts_cpu_int_list(c->error, op, "repeats", a[1], rep, &n, TS_TENSOR_MAX_DIMS))
        return ts_cpu_kernel_end(c, 2, a, NULL);
    if (n < t->dim) {
        ts_error_set(c->error, TS_ERR_RUNTIME, "Number of dimensions of repeat dims can not be "
                     "smaller than number of dimensions of tensor");
        return ts_cpu_kernel_end(c, 2, a, NULL);
    }
    if (n > MAX) {
        ts_error_set(c->error, TS_ERR_LIMIT, "repeat: at most %d dimensions", MAX);
        return ts_cpu_kernel_end(c, 2, a, NULL);
    }
    int lead = n - t->dim;
    for (int k = 0; k < n; k++) {
        int64_t have = k < lead ? 1 : t->sizes[k - lead];
        if (__builtin_mul_overflow(have, rep[k], &sizes[k])) {
            ts_error_set(c->error, TS_ERR_LIMIT, "repeat: the result is too large");
            return ts_cpu_kernel_end(c, 2, a, NULL);
        }
    }
    r = ts_cpu_empty(t->dtype, n, sizes, c->error);   /* checks negative sizes */
    if (!r || ts_tensor_numel(r) == 0)
        return ts_cpu_kernel_end(c, 2, a, r);
    /* dst as (rep[k], size[k]) pairs; src broadcast along the rep dims */
    int64_t dsz[TS_TENSOR_MAX_DIMS], dst[TS_TENSOR_MAX_DIMS], ssz[TS_TENSOR_MAX_DIMS],
        sst[TS_TENSOR_MAX_DIMS];
    for (int k = 0; k < n; k++) {
        int64_t have = k < lead ? 1 : t->sizes[k - lead];
        dsz[2 * k] = rep[k];
        dsz[2 * k + 1] = have;
        dst[2 * k] = have * r->strides[k];
        dst[2 * k + 1] = r->strides[k];
        ssz[2 * k] = rep[k];
        ssz[2 * k + 1] = have;
        sst[2 * k] = 0;
        sst[2 * k + 1] = k < lead ? 0 : t->strides[k - lead];
    }
    TsTensor *dv = ts_cpu_view(r, 2 * n, dsz, dst, 0, c->error);
    TsTensor *sv = dv ? ts_cpu_view(t, 2 * n, ssz, sst, t->offset, c->error) : NULL;
    if (sv)
        ts_cpu_copy_into(dv, sv);
    else {
        ts_tensor_release(r);
        r = NULL;
    }
    if (dv)
        ts_tensor_release(dv);
    if (sv)
        ts_tensor_release(sv);
    return ts_cpu_kernel_end(c, 2, a, r);
}

/* Fills out (new, contiguous, t's shape) with t's element at src_index(out index) per dim:
 * flip reverses flagged dims, roll shifts them. */
static void move_elements(TsTensor *out, const TsTensor *t, const bool *flip,
                          const int64_t *shift)
{
    size_t es = ts_dtype_size(t->dtype);
    const char *src = ts_tensor_data(t);
    char *dst = ts_tensor_data(out);
    int64_t idx[TS_TENSOR_MAX_DIMS] = { 0 };
    if (ts_tensor_numel(out) == 0)
        return;
    do {
        int64_t off = 0;
        for (int d = 0; d < t->dim; d++) {
            int64_t i = idx[d], n = t->sizes[d];
            if (flip && flip[d])
                i = n - 1 - i;
            if (shift && shift[d]) {
                i -= shift[d];
                if (i < 0)
                    i += n;
            }
            off += i * t->strides[d];
        }
        memcpy(dst, src + off * (int64_t)es, es);
        dst += es;
    } while (ts_cpu_next_index(t->dim, t->sizes, idx));
}

/* aten::flip(Tensor self, int[] dims) -> Tensor */
static int k_flip(TsCall *c)
{
    TsValue a[2];
    int64_t dims[TS_TENSOR_MAX_DIMS];
    bool flip[TS_TENSOR_MAX_DIMS] = { false };
    int n;
    TsTensor *r = NULL;
    ts_cpu_pop_args(c, 2, a);
    TsTensor *t = ts_cpu_tensor_arg(c, "aten::flip", "self", a[0]);
    if (!t || ts_cpu_int_list(c->error, "aten::flip", "dims", a[1], dims, &n,
                              TS_TENSOR_MAX_DIMS))
        return ts_cpu_kernel_end(c, 2, a, NULL);
    for (int k = 0; k < n; k++) {
        int d;
        if (ts_aten_wrap_dim(dims[k], t->dim, true, &d, c->error))
            return ts_cpu_kernel_end(c, 2, a, NULL);
        if (flip[d]) {
            ts_error_set(c->error, TS_ERR_RUNTIME,
                         "dim %d appears multiple times in the list of dims", d);
            return ts_cpu_kernel_end(c, 2, a, NULL);
        }
        flip[d] = t->dim > 0;
    }
    if ((r = ts_cpu_empty(t->dtype, t->dim, t->sizes, c->error)))
        move_elements(r, t, flip, NULL);
    return ts_cpu_kernel_end(c, 2, a, r);
}

/* aten::roll(Tensor self, int[1] shifts, int[1] dims=[]) -> Tensor */
static int k_roll(TsCall *c)
{
    static const char op[] = "aten::roll";
    TsValue a[3];
    int64_t shifts[TS_TENSOR_MAX_DIMS], dims[TS_TENSOR_MAX_DIMS], shift[TS_TENSOR_MAX_DIMS] = {0};
    int ns, nd;
    TsTensor *r = NULL;
    ts_cpu_pop_args(c, 3, a);
    TsTensor *t = ts_cpu_tensor_arg(c, op, "self", a[0]);
    if (!t || ts_cpu_int_list(c->error, op, "shifts", a[1], shifts, &ns, TS_TENSOR_MAX_DIMS) ||
        ts_cpu_int_list(c->error, op, "dims", a[2], dims, &nd, TS_TENSOR_MAX_DIMS))
        return ts_cpu_kernel_end(c, 3, a, NULL);
    if (ns == 0) {
        ts_error_set(c->error, TS_ERR_RUNTIME, "`shifts` required");
        return ts_cpu_kernel_end(c, 3, a, NULL);
    }
    if (nd == 0 && ns == 1) {
        /* roll the flattened elements, then give back the shape */
        TsTensor *flat = ts_cpu_cast(t, t->dtype, c->error);
        int64_t numel = flat ? ts_tensor_numel(flat) : 0;
        if (flat && ts_tensor_set_shape(flat, 1, &numel, NULL, 0, c->error)) {
            ts_tensor_release(flat);
            flat = NULL;
        }
        if (flat && (r = ts_cpu_empty(t->dtype, 1, &numel, c->error))) {
            int64_t s = numel ? shifts[0] % numel : 0;
            shift[0] = s < 0 ? s + numel : s;
            move_elements(r, flat, NULL, shift);
            if (ts_tensor_set_shape(r, t->dim, t->sizes, NULL, 0, c->error)) {
                ts_tensor_release(r);
                r = NULL;
            }
        }
        if (flat)
            ts_tensor_release(flat);
        return ts_cpu_kernel_end(c, 3, a, r);
    }
    if (ns != nd) {
        ts_error_set(c->error, TS_ERR_RUNTIME, "shifts and dimensions must align. shifts: %d, "
                     "dims:%d", ns, nd);
        return ts_cpu_kernel_end(c, 3, a, NULL);
    }
    for (int k = 0; k < nd; k++) {
        int d;
        if (ts_aten_wrap_dim(dims[k], t->dim, false, &d, c->error))
            return ts_cpu_kernel_end(c, 3, a, NULL);
        int64_t n = t->sizes[d];
        if (n > 0) {
            int64_t s = (shift[d] + shifts[k] % n) % n;
            shift[d] = s < 0 ? s + n : s;
        }
    }
    if ((r = ts_cpu_empty(t->dtype, t->dim, t->sizes, c->error)))
        move_elements(r, t, NULL, shift);
    return ts_cpu_kernel_end(c, 3, a, r);
}

/* tril and triu: (Tensor self, int diagonal=0) -> Tensor; a copy with the elements above
 * (tril) or below (triu) the diagonal zeroed in every matrix of the batch. */
static int triangle(TsCall *c, const char *op, bool lower)
{
    TsValue a[2];
    int64_t k;
    int rows_dim;
    TsTensor *r = NULL;
    ts_cpu_pop_args(c, 2, a);
    TsTensor *t = ts_cpu_tensor_arg(c, op, "self", a[0]);
    if (!t || ts_cpu_int_arg(c->error, op, "diagonal", a[1], &k) ||
        ts_aten_wrap_dim(-2, t->dim, false, &rows_dim, c->error) ||
        !(r = ts_cpu_cast(t, t->dtype, c->error)))
        return ts_cpu_kernel_end(c, 2, a, NULL);
    int64_t rows = t->sizes[rows_dim], cols = t->sizes[rows_dim + 1];
    /* past either corner the result no longer changes: clamping k keeps i + k + 1 from
     * overflowing when the diagonal is near INT64_MIN or INT64_MAX */
    k = k > cols ? cols : k < -rows ? -rows : k;
    int64_t numel = ts_tensor_numel(r), mats = rows * cols != 0 ? numel / (rows * cols) : 0;
    size_t es = ts_dtype_size(r->dtype);
    char *p = ts_tensor_data(r);
    for (int64_t m = 0; m < mats; m++)
        for (int64_t i = 0; i < rows; i++, p += (size_t)cols * es) {
            /* tril zeroes columns j > i + k; triu zeroes columns j < i + k */
            int64_t lo = lower ? i + k + 1 : 0, hi = lower ? cols : i + k;
            lo = lo < 0 ? 0 : lo > cols ? cols : lo;
            hi = hi < 0 ? 0 : hi > cols ? cols : hi;
            if (hi > lo)
                memset(p + (size_t)lo * es, 0, (size_t)(hi - lo) * es);
        }
    return ts_cpu_kernel_end(c, 2, a, r);
}

static int k_tril(TsCall *c) { return triangle(c, "aten::tril", true); }
static int k_triu(TsCall *c) { return triangle(c, "aten::triu", false); }

static const TsCpuOp ops[] = {
    { "aten::cat", "", k_cat },
    { "aten::cat", "out", k_cat_out },
    { "aten::stack", "", k_stack },
    { "aten::repeat", "", k_repeat },
    { "aten::flip", "", k_flip },
    { "aten::roll", "", k_roll },
    { "aten::tril", "", k_tril },
    { "aten::triu", "", k_triu },
};

const TsCpuTable ts_cpu_join_table = { ops, sizeof ops / sizeof ops[0] };
