/* join.c — ops that build a new tensor from pieces of others: cat, stack, repeat, flip,
 * roll, tril and triu.
 *
 * cat promotes its inputs' dtypes (as PyTorch 1.13 does) and copies each into a narrowed
 * view of the result, so strides and dtypes of the inputs cost nothing extra; 1-d empty
 * tensors are skipped, PyTorch's legacy rule (aten-common's join_check.c decides the dtype
 * and shape and checks, as for aten-cuda). stack is cat of unsqueezed views. repeat
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
    int dtype = 0, d = 0;
    const TsTensor *ref = NULL;
    int64_t sizes[TS_TENSOR_MAX_DIMS];
    if (ts_aten_cat_shape(n, ts, dim64, &dtype, &ref, &d, sizes, err))
        return NULL;
    if (!ref) {
        int64_t zero = 0;
        return ts_cpu_empty(dtype, 1, &zero, err);
    }
    TsTensor *out = ts_cpu_empty(dtype, ref->dim, sizes, err);
    int64_t start = 0;
    for (size_t i = 0; out && i < n; i++) {
        const TsTensor *t = ts[i];
        if ((t->dim == 1 && t->sizes[0] == 0) || t->sizes[d] == 0)
            continue;
        sizes[d] = t->sizes[d];
        TsTensor *part = ts_aten_view(out, out->dim, sizes, out->strides,
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

/* aten::cat(Tensor[] tensors, int dim=0) -> Tensor */
static int k_cat(TsCall *c)
{
    TsArgs a;
    int64_t d;
    size_t n = 0;
    TsTensor *r = NULL, **ts;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_int(&a, 1, &d);
    if (!rc) rc = ts_args_tensor_array(&a, 0, &ts, &n);
    if (!rc) {
        r = cat_tensors(c->error, n, ts, d);
        free(ts);
    }
    return ts_args_return_tensor(&a, rc, r);
}

/* aten::cat.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!): the result
 * computed as cat computes it, then copied into out (resized, converted where the dtypes
 * allow); out may not share memory with any input, nor be an expanded view. */
static int k_cat_out(TsCall *c)
{
    TsArgs a;
    int64_t d;
    size_t n = 0;
    TsTensor *out, *r = NULL, **ts = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 2, &out);
    if (!rc) rc = ts_args_int(&a, 1, &d);
    if (!rc) rc = ts_cpu_check_internal_overlap(out, c->error);
    if (!rc) rc = ts_args_tensor_array(&a, 0, &ts, &n);
    if (!rc) {
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
    return ts_args_return_arg(&a, rc, 2);
}

/* aten::stack(Tensor[] tensors, int dim=0) -> Tensor */
static int k_stack(TsCall *c)
{
    TsArgs a;
    int64_t d64;
    size_t n = 0, made = 0;
    int d;
    TsTensor *r = NULL, **ts = NULL, **views = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_int(&a, 1, &d64);
    if (!rc) rc = ts_args_tensor_array(&a, 0, &ts, &n);
    if (rc)
        return ts_args_fail(&a, rc);
    if (ts_aten_stack_check(n, ts, d64, &d, c->error))
        goto done;
    if (!(views = malloc(sizeof *views * n))) {
        ts_error_set(c->error, TS_ERR_NOMEM, "%s: out of memory", ts_args_op_name(&a));
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
        if (!(views[made] = ts_aten_view(t, t->dim + 1, sizes, strides, t->offset, c->error)))
            goto done;
    }
    r = cat_tensors(c->error, n, views, d);
done:
    for (size_t i = 0; i < made; i++)
        ts_tensor_release(views[i]);
    free(views);
    free(ts);
    return ts_args_return_tensor(&a, 0, r);
}

/* aten::repeat(Tensor self, SymInt[] repeats) -> Tensor */
static int k_repeat(TsCall *c)
{
    enum { MAX = TS_TENSOR_MAX_DIMS / 2 };
    TsArgs a;
    int64_t rep[TS_TENSOR_MAX_DIMS], sizes[TS_TENSOR_MAX_DIMS];
    int n;
    TsTensor *t, *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_int_list(&a, 1, rep, &n, TS_TENSOR_MAX_DIMS);
    if (!rc && n < t->dim)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Number of dimensions of repeat dims can not "
                          "be smaller than number of dimensions of tensor");
    else if (!rc && n > MAX)
        rc = ts_error_set(c->error, TS_ERR_LIMIT, "repeat: at most %d dimensions", MAX);
    int lead = rc ? 0 : n - t->dim;
    for (int k = 0; !rc && k < n; k++) {
        int64_t have = k < lead ? 1 : t->sizes[k - lead];
        if (__builtin_mul_overflow(have, rep[k], &sizes[k]))
            rc = ts_error_set(c->error, TS_ERR_LIMIT, "repeat: the result is too large");
    }
    if (rc)
        return ts_args_fail(&a, rc);
    r = ts_cpu_empty(t->dtype, n, sizes, c->error);   /* checks negative sizes */
    if (!r || ts_tensor_numel(r) == 0)
        return ts_args_return_tensor(&a, 0, r);
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
    TsTensor *dv = ts_aten_view(r, 2 * n, dsz, dst, 0, c->error);
    TsTensor *sv = dv ? ts_aten_view(t, 2 * n, ssz, sst, t->offset, c->error) : NULL;
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
    return ts_args_return_tensor(&a, 0, r);
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
    TsArgs a;
    int64_t dims[TS_TENSOR_MAX_DIMS];
    bool flip[TS_TENSOR_MAX_DIMS] = { false };
    int n;
    TsTensor *t, *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_int_list(&a, 1, dims, &n, TS_TENSOR_MAX_DIMS);
    for (int k = 0; !rc && k < n; k++) {
        int d;
        if ((rc = ts_aten_wrap_dim(dims[k], t->dim, true, &d, c->error)))
            break;
        if (flip[d])
            rc = ts_error_set(c->error, TS_ERR_RUNTIME,
                              "dim %d appears multiple times in the list of dims", d);
        flip[d] = t->dim > 0;
    }
    if (!rc && (r = ts_cpu_empty(t->dtype, t->dim, t->sizes, c->error)))
        move_elements(r, t, flip, NULL);
    return ts_args_return_tensor(&a, rc, r);
}

/* aten::roll(Tensor self, int[1] shifts, int[1] dims=[]) -> Tensor */
static int k_roll(TsCall *c)
{
    TsArgs a;
    int64_t shifts[TS_TENSOR_MAX_DIMS], dims[TS_TENSOR_MAX_DIMS], shift[TS_TENSOR_MAX_DIMS] = {0};
    int ns, nd;
    TsTensor *t, *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_int_list(&a, 1, shifts, &ns, TS_TENSOR_MAX_DIMS);
    if (!rc) rc = ts_args_int_list(&a, 2, dims, &nd, TS_TENSOR_MAX_DIMS);
    if (!rc && ns == 0)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "`shifts` required");
    if (rc)
        return ts_args_fail(&a, rc);
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
        return ts_args_return_tensor(&a, 0, r);
    }
    if (ns != nd)
        return ts_args_fail(&a, ts_error_set(c->error, TS_ERR_RUNTIME, "shifts and dimensions "
                                             "must align. shifts: %d, dims:%d", ns, nd));
    for (int k = 0; k < nd; k++) {
        int d;
        if ((rc = ts_aten_wrap_dim(dims[k], t->dim, false, &d, c->error)))
            return ts_args_fail(&a, rc);
        int64_t n = t->sizes[d];
        if (n > 0) {
            int64_t s = (shift[d] + shifts[k] % n) % n;
            shift[d] = s < 0 ? s + n : s;
        }
    }
    if ((r = ts_cpu_empty(t->dtype, t->dim, t->sizes, c->error)))
        move_elements(r, t, NULL, shift);
    return ts_args_return_tensor(&a, 0, r);
}

/* tril and triu: (Tensor self, int diagonal=0) -> Tensor; a copy with the elements above
 * (tril) or below (triu) the diagonal zeroed in every matrix of the batch. */
static int triangle(TsCall *c, bool lower)
{
    TsArgs a;
    int64_t k;
    int rows_dim;
    TsTensor *t, *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_int(&a, 1, &k);
    if (!rc) rc = ts_aten_wrap_dim(-2, t->dim, false, &rows_dim, c->error);
    if (!rc && !(r = ts_cpu_cast(t, t->dtype, c->error)))
        rc = c->error->code;
    if (rc)
        return ts_args_fail(&a, rc);
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
    return ts_args_return_tensor(&a, 0, r);
}

static int k_tril(TsCall *c) { return triangle(c, true); }
static int k_triu(TsCall *c) { return triangle(c, false); }

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
