/* dims.c — views that reorder, add or remove dims (transpose, permute, t, numpy_T, movedim,
 * swapaxes, squeeze, unsqueeze, atleast_1d/2d/3d), new headers over the same elements
 * (detach, alias), and as_strided, which names its strides itself.
 *
 * Every result shares self's storage; the in-place forms (swapaxes_, as_strided_) change
 * self's own sizes and strides. as_strided is the one op that lets a program name any
 * strides and offset; every view it makes is checked to stay inside the storage (PyTorch's
 * setStorage rule, computed with overflow checks), so no later kernel can be led outside it.
 */
#include <string.h>

#include "views.h"

/* Pops the arguments of a kernel whose first is its one tensor. */
static int pop_tensor(TsCall *c, TsArgs *a, TsTensor **t)
{
    int rc = ts_args_pop_same_device(c, a);
    return rc ? rc : ts_args_tensor(a, 0, t);
}

/* The in-place forms (squeeze_, unsqueeze_, t_) end here: t takes the new header and is
 * the result (argument 0); else a view of t with it. */
static int reshaped(TsArgs *a, TsTensor *t, int n, const int64_t *sizes,
                    const int64_t *strides, bool inplace, TsError *err)
{
    if (!inplace)
        return ts_args_return_tensor(a, 0, ts_aten_view(t, n, sizes, strides, t->offset, err));
    int rc = ts_tensor_set_shape(t, n, sizes, strides, t->offset, err);
    return ts_args_return_arg(a, rc, 0);
}

/* ---- reordering dims ------------------------------------------------------------------ */

/* t with dims d0 and d1 swapped, as a view or (in place) on t itself. */
static TsTensor *swap_dims(TsTensor *t, int d0, int d1, bool inplace, TsError *err)
{
    int64_t sizes[TS_TENSOR_MAX_DIMS], strides[TS_TENSOR_MAX_DIMS];
    memcpy(sizes, t->sizes, sizeof sizes[0] * (size_t)t->dim);
    memcpy(strides, t->strides, sizeof strides[0] * (size_t)t->dim);
    if (t->dim > 0) {
        sizes[d0] = t->sizes[d1];
        sizes[d1] = t->sizes[d0];
        strides[d0] = t->strides[d1];
        strides[d1] = t->strides[d0];
    }
    if (!inplace)
        return ts_aten_view(t, t->dim, sizes, strides, t->offset, err);
    return ts_tensor_set_shape(t, t->dim, sizes, strides, t->offset, err) ? NULL : t;
}

/* transpose.int, swapaxes and swapdims (self, int dim0, int dim1), and the in-place forms. */
static int swap(TsCall *c, bool inplace)
{
    TsArgs a;
    int d0, d1;
    TsTensor *t;
    int rc = pop_tensor(c, &a, &t);
    if (!rc) rc = ts_args_dim(&a, 1, t->dim, true, &d0);
    if (!rc) rc = ts_args_dim(&a, 2, t->dim, true, &d1);
    if (rc || !inplace)
        return ts_args_return_tensor(&a, rc, rc ? NULL : swap_dims(t, d0, d1, false, c->error));
    return ts_args_return_arg(&a, swap_dims(t, d0, d1, true, c->error) ? 0 : c->error->code, 0);
}

int ts_aten_k_transpose(TsCall *c) { return swap(c, false); }
int ts_aten_k_swapaxes(TsCall *c) { return swap(c, false); }
int ts_aten_k_swapaxes_(TsCall *c) { return swap(c, true); }

/* t with every dim reversed. */
static TsTensor *reversed(const TsTensor *t, TsError *err)
{
    int64_t sizes[TS_TENSOR_MAX_DIMS], strides[TS_TENSOR_MAX_DIMS];
    for (int d = 0; d < t->dim; d++) {
        sizes[d] = t->sizes[t->dim - 1 - d];
        strides[d] = t->strides[t->dim - 1 - d];
    }
    return ts_aten_view(t, t->dim, sizes, strides, t->offset, err);
}

/* aten::t(Tensor(a) self) -> Tensor(a), and t_ (Tensor(a!) self) -> Tensor(a!) in place */
static int t_kernel(TsCall *c, bool inplace)
{
    TsArgs a;
    TsTensor *t;
    int rc = pop_tensor(c, &a, &t);
    if (!rc && t->dim > 2)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME,
                          "%s expects a tensor with <= 2 dimensions, but self is %dD",
                          inplace ? "t_()" : "t()", t->dim);
    if (rc)
        return ts_args_fail(&a, rc);
    int64_t sizes[2], strides[2];
    for (int d = 0; d < t->dim; d++) {
        sizes[d] = t->sizes[t->dim - 1 - d];
        strides[d] = t->strides[t->dim - 1 - d];
    }
    return reshaped(&a, t, t->dim, sizes, strides, inplace, c->error);
}

int ts_aten_k_t(TsCall *c) { return t_kernel(c, false); }
int ts_aten_k_t_(TsCall *c) { return t_kernel(c, true); }

/* aten::numpy_T(Tensor(a) self) -> Tensor(a): t.T, every dim reversed. (PyTorch warns that
 * it may reject dims other than 2 one day; 1.13 reverses them all.) */
int ts_aten_k_numpy_t(TsCall *c)
{
    TsArgs a;
    TsTensor *t;
    int rc = pop_tensor(c, &a, &t);
    return ts_args_return_tensor(&a, rc, rc ? NULL : reversed(t, c->error));
}

/* t with its dims in the order perm (n entries, checked by the caller). */
static TsTensor *permuted(const TsTensor *t, int n, const int *perm, TsError *err)
{
    int64_t sizes[TS_TENSOR_MAX_DIMS], strides[TS_TENSOR_MAX_DIMS];
    for (int k = 0; k < n; k++) {
        sizes[k] = t->sizes[perm[k]];
        strides[k] = t->strides[perm[k]];
    }
    return ts_aten_view(t, n, sizes, strides, t->offset, err);
}

/* aten::permute(Tensor(a) self, int[] dims) -> Tensor(a) */
int ts_aten_k_permute(TsCall *c)
{
    TsArgs a;
    int64_t dims[TS_TENSOR_MAX_DIMS];
    bool seen[TS_TENSOR_MAX_DIMS] = { false };
    int n, perm[TS_TENSOR_MAX_DIMS];
    TsTensor *t;
    int rc = pop_tensor(c, &a, &t);
    if (!rc) rc = ts_args_int_list(&a, 1, dims, &n, TS_TENSOR_MAX_DIMS);
    if (!rc && n != t->dim)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "permute(sparse_coo): number of dimensions in "
                          "the tensor input does not match the length of the desired ordering of "
                          "dimensions i.e. input.dim() = %d is not equal to len(dims) = %d",
                          t->dim, n);
    for (int k = 0; !rc && k < n; k++) {
        if ((rc = ts_aten_wrap_dim(dims[k], t->dim, true, &perm[k], c->error)))
            break;
        if (seen[perm[k]])
            rc = ts_error_set(c->error, TS_ERR_RUNTIME, "permute(): duplicate dims are not "
                              "allowed.");
        seen[perm[k]] = true;
    }
    return ts_args_return_tensor(&a, rc, rc ? NULL : permuted(t, n, perm, c->error));
}

/* The permutation movedim makes: dims in src go to dst, the others keep their order. */
static int movedim_perm(TsError *err, const TsTensor *t, int n, const int64_t *src,
                        int nd, const int64_t *dst, int *perm)
{
    char b1[256], b2[256];
    ts_aten_format_sizes(b1, sizeof b1, n, src);
    ts_aten_format_sizes(b2, sizeof b2, nd, dst);
    if (n != nd)
        return ts_error_set(err, TS_ERR_RUNTIME, "movedim: Invalid source or destination dims: "
                            "source (%s dims) should contain the same number of dims as "
                            "destination (%s dims)", b1, b2);
    bool used_src[TS_TENSOR_MAX_DIMS] = { false }, used_dst[TS_TENSOR_MAX_DIMS] = { false };
    int s[TS_TENSOR_MAX_DIMS], d[TS_TENSOR_MAX_DIMS];
    for (int i = 0; i < n; i++)
        if (ts_aten_wrap_dim(src[i], t->dim, true, &s[i], err))
            return err->code;
    for (int i = 0; i < n; i++)
        if (ts_aten_wrap_dim(dst[i], t->dim, true, &d[i], err))
            return err->code;
    int rank = t->dim ? t->dim : 1;
    for (int i = 0; i < n; i++) {
        if (used_src[s[i]])
            return ts_error_set(err, TS_ERR_RUNTIME, "movedim: repeated dim in `source` (%s)", b1);
        used_src[s[i]] = true;
    }
    for (int i = 0; i < n; i++) {
        if (used_dst[d[i]])
            return ts_error_set(err, TS_ERR_RUNTIME, "movedim: repeated dim in `destination` "
                                "(%s)", b2);
        used_dst[d[i]] = true;
    }
    for (int k = 0; k < rank; k++)
        perm[k] = -1;
    for (int i = 0; i < n; i++)
        perm[d[i]] = s[i];
    for (int k = 0, next = 0; k < rank; k++) {
        if (perm[k] >= 0)
            continue;
        while (used_src[next])
            next++;
        perm[k] = next++;
    }
    return 0;
}

/* movedim.intlist(self, int[] source, int[] destination) / movedim.int(self, int, int), and
 * moveaxis */
static int movedim(TsCall *c, bool lists)
{
    TsArgs a;
    int64_t src[TS_TENSOR_MAX_DIMS], dst[TS_TENSOR_MAX_DIMS];
    int n = 1, nd = 1, perm[TS_TENSOR_MAX_DIMS];
    TsTensor *t;
    int rc = pop_tensor(c, &a, &t);
    if (!rc && lists) {
        rc = ts_args_int_list(&a, 1, src, &n, TS_TENSOR_MAX_DIMS);
        if (!rc) rc = ts_args_int_list(&a, 2, dst, &nd, TS_TENSOR_MAX_DIMS);
    } else if (!rc) {
        rc = ts_args_int(&a, 1, &src[0]);
        if (!rc) rc = ts_args_int(&a, 2, &dst[0]);
    }
    if (!rc) rc = movedim_perm(c->error, t, n, src, nd, dst, perm);
    return ts_args_return_tensor(&a, rc, rc ? NULL : permuted(t, t->dim, perm, c->error));
}

int ts_aten_k_movedim_intlist(TsCall *c) { return movedim(c, true); }
int ts_aten_k_movedim_int(TsCall *c) { return movedim(c, false); }

/* ---- squeeze and unsqueeze ------------------------------------------------------------ */

/* squeeze and squeeze.dim (only: the dim, else -1), and their in-place forms: t without
 * its size-1 dims. */
static int squeeze(TsCall *c, bool has_dim, bool inplace)
{
    TsArgs a;
    int64_t sizes[TS_TENSOR_MAX_DIMS], strides[TS_TENSOR_MAX_DIMS];
    int only = -1;
    TsTensor *t;
    int rc = pop_tensor(c, &a, &t);
    if (!rc && has_dim) rc = ts_args_dim(&a, 1, t->dim, true, &only);
    if (rc)
        return ts_args_fail(&a, rc);
    if (has_dim && t->dim == 0)
        only = 0;
    int n = 0;
    for (int k = 0; k < t->dim; k++)
        if (t->sizes[k] != 1 || (only >= 0 && k != only)) {
            sizes[n] = t->sizes[k];
            strides[n++] = t->strides[k];
        }
    return reshaped(&a, t, n, sizes, strides, inplace, c->error);
}

/* aten::squeeze(Tensor(a) self) -> Tensor(a)
 * aten::squeeze.dim(Tensor(a) self, int dim) -> Tensor(a)
 * aten::squeeze_(Tensor(a!) self) -> Tensor(a!)
 * aten::squeeze_.dim(Tensor(a!) self, int dim) -> Tensor(a!) */
int ts_aten_k_squeeze(TsCall *c) { return squeeze(c, false, false); }
int ts_aten_k_squeeze_dim(TsCall *c) { return squeeze(c, true, false); }
int ts_aten_k_squeeze_(TsCall *c) { return squeeze(c, false, true); }
int ts_aten_k_squeeze_dim_(TsCall *c) { return squeeze(c, true, true); }

/* unsqueeze(Tensor(a) self, int dim) -> Tensor(a), and unsqueeze_ in place. */
static int unsqueeze(TsCall *c, bool inplace)
{
    TsArgs a;
    int64_t sizes[TS_TENSOR_MAX_DIMS], strides[TS_TENSOR_MAX_DIMS];
    int d;
    TsTensor *t;
    int rc = pop_tensor(c, &a, &t);
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
    return reshaped(&a, t, t->dim + 1, sizes, strides, inplace, c->error);
}

int ts_aten_k_unsqueeze(TsCall *c) { return unsqueeze(c, false); }
int ts_aten_k_unsqueeze_(TsCall *c) { return unsqueeze(c, true); }

/* t with at least n (1, 2 or 3) dims, as numpy adds them: [] -> [1]*n, [a] -> [1, a] or
 * [1, a, 1], [a, b] -> [a, b, 1]; new dims take unsqueeze's strides. */
static TsTensor *atleast(TsError *err, const TsTensor *t, int n)
{
    if (t->dim >= n)
        return ts_aten_view(t, t->dim, t->sizes, t->strides, t->offset, err);
    int64_t sizes[3], strides[3];
    if (t->dim == 0) {
        for (int k = 0; k < n; k++)
            sizes[k] = strides[k] = 1;
    } else if (t->dim == 1) {
        /* [a] -> [1, a] (and [1, a, 1]) */
        sizes[0] = 1;
        strides[0] = t->sizes[0] * t->strides[0];
        sizes[1] = t->sizes[0];
        strides[1] = t->strides[0];
        sizes[2] = strides[2] = 1;
    } else {
        sizes[0] = t->sizes[0];
        sizes[1] = t->sizes[1];
        strides[0] = t->strides[0];
        strides[1] = t->strides[1];
        sizes[2] = strides[2] = 1;
    }
    return ts_aten_view(t, n, sizes, strides, t->offset, err);
}

static int atleast_one(TsCall *c, int n)
{
    TsArgs a;
    TsTensor *t;
    int rc = pop_tensor(c, &a, &t);
    return ts_args_return_tensor(&a, rc, rc ? NULL : atleast(c->error, t, n));
}

static int atleast_seq(TsCall *c, int n)
{
    TsArgs a;
    const TsList *in;
    TsList *l = NULL;
    int rc = ts_args_pop_same_device(c, &a);
    if (!rc) rc = ts_args_tensor_list(&a, 0, &in);
    if (!rc)
        l = ts_list_new(ts_type_tensor(), in->len, c->error);
    for (size_t i = 0; l && i < in->len; i++)
        l = ts_aten_append_view(l, atleast(c->error, (const TsTensor *)in->items[i].u.p, n),
                                c->error);
    return ts_args_return_list(&a, rc, l);
}

int ts_aten_k_atleast_1d(TsCall *c) { return atleast_one(c, 1); }
int ts_aten_k_atleast_2d(TsCall *c) { return atleast_one(c, 2); }
int ts_aten_k_atleast_3d(TsCall *c) { return atleast_one(c, 3); }
int ts_aten_k_atleast_1d_seq(TsCall *c) { return atleast_seq(c, 1); }
int ts_aten_k_atleast_2d_seq(TsCall *c) { return atleast_seq(c, 2); }
int ts_aten_k_atleast_3d_seq(TsCall *c) { return atleast_seq(c, 3); }

/* ---- aliases -------------------------------------------------------------------------- */

/* detach, alias and prim::data (x.data): (Tensor(a) self) -> Tensor(a), a new header over
 * the same elements, which requires no grad. */
int ts_aten_k_alias(TsCall *c)
{
    TsArgs a;
    TsTensor *t, *r = NULL;
    int rc = pop_tensor(c, &a, &t);
    if (!rc && (r = ts_aten_view(t, t->dim, t->sizes, t->strides, t->offset, c->error)))
        r->flags = t->flags;
    return ts_args_return_tensor(&a, rc, r);
}

/* ---- as_strided ----------------------------------------------------------------------- */

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
    int rc = pop_tensor(c, &a, &t);
    if (!rc) rc = ts_args_int_list(&a, 1, sizes, &n, TS_TENSOR_MAX_DIMS);
    if (!rc) rc = ts_args_int_list(&a, 2, strides, &ns, TS_TENSOR_MAX_DIMS);
    if (!rc) rc = ts_args_opt_int(&a, 3, &offset, &has_offset);
    if (!rc && !has_offset)
        offset = t->offset;
    if (!rc) rc = strided_check(c->error, t, n, sizes, ns, strides, offset);
    if (rc || !inplace)
        return ts_args_return_tensor(&a, rc, rc ? NULL : ts_aten_view(t, n, sizes, strides,
                                                                      offset, c->error));
    rc = ts_tensor_set_shape(t, n, sizes, strides, offset, c->error);
    return ts_args_return_arg(&a, rc, 0);
}

int ts_aten_k_as_strided(TsCall *c) { return as_strided(c, false); }
int ts_aten_k_as_strided_(TsCall *c) { return as_strided(c, true); }
