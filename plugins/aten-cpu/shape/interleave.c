/* interleave.c — ops that build a bigger tensor from repeated or combined pieces:
 * repeat_interleave, kron, block_diag and cartesian_prod.
 *
 * repeat_interleave turns its repeats into the source index of every output slice and
 * copies slices; kron multiplies two interleaved broadcast views (binary.c's mul does the
 * dtype promotion); block_diag copies each piece into a zeroed result; cartesian_prod writes
 * the rows of the product directly.
 */
#include <stdlib.h>
#include <string.h>

#include "reduce/reduce.h"
#include "shape/shape_ops.h"

/* ---- repeat_interleave --------------------------------------------------------------------- */

/* The count of each of n slices: one for all, or one each. */
typedef struct Repeats {
    const TsTensor *t;     /* 1-d int32/int64 counts, or NULL */
    int64_t one;           /* the count of every slice, when t is NULL */
} Repeats;

static int64_t rep_at(const Repeats *r, int64_t i)
{
    if (!r->t)
        return r->one;
    int64_t off = r->t->offset + i * r->t->strides[0];
    return r->t->dtype == TS_INT64 ? ((const int64_t *)r->t->storage->data)[off]
                                   : ((const int32_t *)r->t->storage->data)[off];
}

/* Checks the repeats of n slices and returns the source slice of each output slice
 * (*total of them, malloc'ed). */
static int64_t *repeat_index(TsError *err, const Repeats *r, int64_t n, TsValue output_size,
                             int64_t *total)
{
    *total = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t k = rep_at(r, i);
        if (k < 0) {
            ts_error_set(err, TS_ERR_RUNTIME, "repeats can not be negative");
            return NULL;
        }
        if (__builtin_add_overflow(*total, k, total)) {
            ts_error_set(err, TS_ERR_LIMIT, "repeat_interleave: the result is too large");
            return NULL;
        }
    }
    if (output_size.tag == TS_TAG_INT && output_size.u.i != *total) {
        ts_error_set(err, TS_ERR_RUNTIME, "allocated size does not match required size");
        return NULL;
    }
    int64_t *idx = malloc((size_t)(*total ? *total : 1) * sizeof *idx);
    if (!idx) {
        ts_error_set(err, TS_ERR_NOMEM, "repeat_interleave: out of memory");
        return NULL;
    }
    for (int64_t i = 0, j = 0; i < n; i++)
        for (int64_t k = rep_at(r, i); k > 0; k--)
            idx[j++] = i;
    return idx;
}

/* The repeats tensor checked as repeat_interleave.Tensor requires. */
static int repeats_check(TsError *err, const TsTensor *t)
{
    if (t->dim != 1)
        return ts_error_set(err, TS_ERR_RUNTIME, "repeat_interleave only accept 1D vector as "
                            "repeat");
    if (t->dtype != TS_INT64 && t->dtype != TS_INT32)
        return ts_error_set(err, TS_ERR_RUNTIME, "\"repeat_interleave_cpu\" not implemented for "
                            "'%s'", ts_dtype_type_name(t->dtype));
    return 0;
}

/* repeat_interleave.Tensor(Tensor repeats, *, int? output_size=None): i repeated
 * repeats[i] times, in the repeats' dtype. */
static int rep_tensor(TsCall *c, bool out)
{
    TsArgs a;
    int64_t total, *idx = NULL;
    TsTensor *t, *o, *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc && out) rc = ts_args_tensor(&a, 2, &o);
    if (!rc) rc = repeats_check(c->error, t);
    if (rc)
        return ts_args_fail(&a, rc);
    Repeats rp = { t, 0 };
    if ((idx = repeat_index(c->error, &rp, t->sizes[0], a.v[1], &total)) &&
        (r = ts_cpu_empty(t->dtype, 1, &total, c->error))) {
        char *p = ts_tensor_data(r);
        size_t es = ts_dtype_size(t->dtype);
        for (int64_t j = 0; j < total; j++)
            ts_cpu_store_double(t->dtype, p + (size_t)j * es, (double)idx[j]);
    }
    free(idx);
    return ts_cpu_return_out(&a, 0, r, out);
}

static int k_rep_tensor(TsCall *c) { return rep_tensor(c, false); }
static int k_rep_tensor_out(TsCall *c) { return rep_tensor(c, true); }

/* repeat_interleave.self_int / .self_Tensor(Tensor self, repeats, int? dim=None, *,
 * int? output_size=None): every slice of self along dim repeated (self flattened when dim
 * is None). */
static int rep_self(TsCall *c, bool tensor)
{
    TsArgs a;
    int64_t total, *idx = NULL, sizes[TS_TENSOR_MAX_DIMS];
    int d = 0;
    TsTensor *t, *r = NULL, *src = NULL, *rt = NULL;
    Repeats rp = { NULL, 0 };
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = tensor ? ts_args_tensor(&a, 1, &rt) : ts_args_int(&a, 1, &rp.one);
    if (rc)
        return ts_args_fail(&a, rc);
    if (a.v[2].tag == TS_TAG_NONE) {
        /* the flattened self: a contiguous copy viewed as 1-d */
        int64_t numel = ts_tensor_numel(t);
        TsTensor *flat = ts_cpu_cast(t, t->dtype, c->error);
        src = flat ? ts_aten_view(flat, 1, &numel, NULL, flat->offset, c->error) : NULL;
        if (flat)
            ts_tensor_release(flat);
        rc = src ? 0 : (int)c->error->code;
    } else if (!(rc = ts_args_dim(&a, 2, t->dim, false, &d))) {
        ts_tensor_retain(t);
        src = t;
    }
    if (!rc && rt) {
        if (rt->dim > 1 || (rt->dtype != TS_INT64 && rt->dtype != TS_INT32))
            rc = repeats_check(c->error, rt);
        else if (ts_tensor_numel(rt) == 1)
            rp.one = rt->dtype == TS_INT64 ? ((const int64_t *)rt->storage->data)[rt->offset]
                                           : ((const int32_t *)rt->storage->data)[rt->offset];
        else if (ts_tensor_numel(rt) != src->sizes[d])
            rc = ts_error_set(c->error, TS_ERR_RUNTIME, "repeats must have the same size as "
                              "input along dim");
        else
            rp.t = rt;
    }
    if (!rc && (idx = repeat_index(c->error, &rp, src->sizes[d], a.v[3], &total))) {
        memcpy(sizes, src->sizes, sizeof sizes[0] * (size_t)src->dim);
        sizes[d] = total;
        if ((r = ts_cpu_empty(src->dtype, src->dim, sizes, c->error)) && ts_tensor_numel(r) > 0) {
            size_t es = ts_dtype_size(src->dtype);
            int64_t pos[TS_TENSOR_MAX_DIMS] = { 0 };
            char *dst = ts_tensor_data(r);
            do {
                int64_t off = src->offset;
                for (int k = 0; k < src->dim; k++)
                    off += (k == d ? idx[pos[k]] : pos[k]) * src->strides[k];
                memcpy(dst, (const char *)src->storage->data + off * (int64_t)es, es);
                dst += es;
            } while (ts_cpu_next_index(r->dim, r->sizes, pos));
        }
    }
    free(idx);
    if (src)
        ts_tensor_release(src);
    return ts_args_return_tensor(&a, rc, r);
}

static int k_rep_self_int(TsCall *c) { return rep_self(c, false); }
static int k_rep_self_tensor(TsCall *c) { return rep_self(c, true); }

/* ---- kron ------------------------------------------------------------------------------------ */

/* kron(Tensor self, Tensor other): self's and other's dims (padded to one rank) interleaved
 * as broadcast views, multiplied, then each pair of dims merged. */
static int kron(TsCall *c, bool out)
{
    TsArgs a;
    TsValue res;
    TsTensor *x, *y, *o, *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &x);
    if (!rc) rc = ts_args_tensor(&a, 1, &y);
    if (!rc && out) rc = ts_args_tensor(&a, 2, &o);
    int nd = rc ? 0 : x->dim > y->dim ? x->dim : y->dim;
    if (!rc && 2 * nd > TS_TENSOR_MAX_DIMS)
        rc = ts_error_set(c->error, TS_ERR_LIMIT, "kron: more than %d dimensions",
                          TS_TENSOR_MAX_DIMS / 2);
    if (rc)
        return ts_args_fail(&a, rc);
    int64_t xs[TS_TENSOR_MAX_DIMS], xst[TS_TENSOR_MAX_DIMS], ys[TS_TENSOR_MAX_DIMS],
        yst[TS_TENSOR_MAX_DIMS], sizes[TS_TENSOR_MAX_DIMS];
    for (int k = 0; k < nd; k++) {
        int kx = k - (nd - x->dim), ky = k - (nd - y->dim);
        xs[2 * k] = kx >= 0 ? x->sizes[kx] : 1;
        xst[2 * k] = kx >= 0 ? x->strides[kx] : 0;
        xs[2 * k + 1] = 1;
        xst[2 * k + 1] = 0;
        ys[2 * k] = 1;
        yst[2 * k] = 0;
        ys[2 * k + 1] = ky >= 0 ? y->sizes[ky] : 1;
        yst[2 * k + 1] = ky >= 0 ? y->strides[ky] : 0;
        sizes[k] = xs[2 * k] * ys[2 * k + 1];
    }
    TsTensor *vx = ts_aten_view(x, 2 * nd, xs, xst, x->offset, c->error);
    TsTensor *vy = vx ? ts_aten_view(y, 2 * nd, ys, yst, y->offset, c->error) : NULL;
    if (!vy) {
        if (vx)
            ts_tensor_release(vx);
        return ts_args_fail(&a, c->error->code);
    }
    TsValue ma[2] = { ts_obj_value(vx, TS_TAG_TENSOR), ts_obj_value(vy, TS_TAG_TENSOR) };
    if (!ts_cpu_call_kernel(c, &ts_cpu_binary_table, "aten::mul", "Tensor", 2, ma, &res)) {
        TsTensor *p = (TsTensor *)res.u.p;     /* new and contiguous: merging is a view */
        r = ts_aten_view(p, nd, sizes, NULL, p->offset, c->error);
        ts_value_release(res);
    }
    return ts_cpu_return_out(&a, 0, r, out);
}

static int k_kron(TsCall *c) { return kron(c, false); }
static int k_kron_out(TsCall *c) { return kron(c, true); }

/* ---- block_diag ------------------------------------------------------------------------------ */

/* block_diag(Tensor[] tensors): each (as a matrix: 0-d 1x1, 1-d a row) on the diagonal of a
 * zeroed result of the promoted dtype. */
static int block_diag(TsCall *c, bool out)
{
    TsArgs a;
    const TsList *in;
    TsTensor *o, *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor_list(&a, 0, &in);
    if (!rc && out) rc = ts_args_tensor(&a, 1, &o);
    if (rc)
        return ts_args_fail(&a, rc);
    int64_t rows = 0, cols = 0;
    int dtype = in->len ? ((const TsTensor *)in->items[0].u.p)->dtype : TS_FLOAT32;
    for (size_t i = 0; i < in->len; i++) {
        const TsTensor *t = (const TsTensor *)in->items[i].u.p;
        if (t->dim > 2)
            return ts_args_fail(&a, ts_error_set(c->error, TS_ERR_RUNTIME, "torch.block_diag: "
                                                 "Input tensors must have 2 or fewer dimensions. "
                                                 "Input %zu has %d dimensions", i, t->dim));
        dtype = ts_aten_promote_types(dtype, t->dtype);
        rows += t->dim == 2 ? t->sizes[0] : 1;
        cols += t->dim == 2 ? t->sizes[1] : t->dim == 1 ? t->sizes[0] : 1;
    }
    if (dtype < 0)
        return ts_args_fail(&a, ts_error_set(c->error, TS_ERR_RUNTIME, "torch.block_diag: "
                                             "unsupported dtype"));
    /* PyTorch's result for no tensors is 1 x 0 */
    int64_t sizes[2] = { in->len ? rows : 1, cols };
    if (!(r = ts_cpu_empty(dtype, 2, sizes, c->error)))
        return ts_args_fail(&a, c->error->code);
    memset(ts_tensor_data(r), 0, (size_t)ts_tensor_numel(r) * ts_dtype_size(dtype));
    int64_t row = 0, col = 0;
    for (size_t i = 0; i < in->len; i++) {
        const TsTensor *t = (const TsTensor *)in->items[i].u.p;
        int64_t bs[2] = { t->dim == 2 ? t->sizes[0] : 1,
                          t->dim == 2 ? t->sizes[1] : t->dim == 1 ? t->sizes[0] : 1 };
        if (bs[0] > 0 && bs[1] > 0) {
            TsTensor *v = ts_aten_view(r, 2, bs, r->strides, row * r->strides[0] + col, c->error);
            if (!v)
                return ts_args_return_tensor(&a, c->error->code, r);
            ts_cpu_copy_into(v, t);
            ts_tensor_release(v);
        }
        row += bs[0];
        col += bs[1];
    }
    return ts_cpu_return_out(&a, 0, r, out);
}

static int k_block_diag(TsCall *c) { return block_diag(c, false); }
static int k_block_diag_out(TsCall *c) { return block_diag(c, true); }

/* ---- cartesian_prod -------------------------------------------------------------------------- */

/* cartesian_prod(Tensor[] tensors): every combination of their elements, one per row
 * (the first tensor varying slowest); one tensor gives itself. */
static int k_cartesian_prod(TsCall *c)
{
    TsArgs a;
    const TsList *in;
    TsTensor *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor_list(&a, 0, &in);
    int64_t total = 1;
    int m = rc ? 0 : (int)in->len;
    for (int i = 0; !rc && i < m; i++) {
        const TsTensor *t = (const TsTensor *)in->items[i].u.p;
        if (t->dim != 1) {
            char b[256];
            ts_aten_format_sizes(b, sizeof b, t->dim, t->sizes);
            rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Expect a 1D vector, but got shape %s", b);
        }
    }
    if (!rc && (m == 0 || m > TS_TENSOR_MAX_DIMS))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, m ? "cartesian_prod: too many tensors"
                                                      : "meshgrid expects a non-empty TensorList");
    if (rc)
        return ts_args_fail(&a, rc);
    const TsTensor *t0 = (const TsTensor *)in->items[0].u.p;
    if (m == 1)
        return ts_args_return_tensor(&a, 0, ts_aten_view(t0, 1, t0->sizes, t0->strides,
                                                        t0->offset, c->error));
    int64_t sizes[TS_TENSOR_MAX_DIMS];
    for (int i = 0; !rc && i < m; i++) {
        const TsTensor *t = (const TsTensor *)in->items[i].u.p;
        sizes[i] = t->sizes[0];
        if (t->dtype != t0->dtype)
            rc = ts_error_set(c->error, TS_ERR_RUNTIME,
                              "meshgrid expects all tensors to have the same dtype");
        else if (__builtin_mul_overflow(total, sizes[i], &total))
            rc = ts_error_set(c->error, TS_ERR_LIMIT, "cartesian_prod: the result is too large");
    }
    if (rc)
        return ts_args_fail(&a, rc);
    int64_t rs[2] = { total, m };
    if (!(r = ts_cpu_empty(t0->dtype, 2, rs, c->error)) || total == 0)
        return ts_args_return_tensor(&a, 0, r);
    size_t es = ts_dtype_size(t0->dtype);
    int64_t pos[TS_TENSOR_MAX_DIMS] = { 0 };
    char *dst = ts_tensor_data(r);
    do {
        for (int i = 0; i < m; i++, dst += es) {
            const TsTensor *t = (const TsTensor *)in->items[i].u.p;
            memcpy(dst, (const char *)t->storage->data +
                            (t->offset + pos[i] * t->strides[0]) * (int64_t)es, es);
        }
    } while (ts_cpu_next_index(m, sizes, pos));
    return ts_args_return_tensor(&a, 0, r);
}

static const TsCpuOp ops[] = {
    { "aten::repeat_interleave", "Tensor", k_rep_tensor },
    { "aten::repeat_interleave", "Tensor_out", k_rep_tensor_out },
    { "aten::repeat_interleave", "self_int", k_rep_self_int },
    { "aten::repeat_interleave", "self_Tensor", k_rep_self_tensor },
    { "aten::kron", "", k_kron },
    { "aten::kron", "out", k_kron_out },
    { "aten::block_diag", "", k_block_diag },
    { "aten::block_diag", "out", k_block_diag_out },
    { "aten::cartesian_prod", "", k_cartesian_prod },
};

const TsCpuTable ts_cpu_interleave_table = { ops, sizeof ops / sizeof ops[0] };
