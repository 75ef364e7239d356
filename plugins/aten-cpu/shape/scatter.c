/* scatter.c — ops that write through an index: scatter (src, value, reduce=), scatter_add,
 * scatter_reduce, index_add, index_reduce, index_fill, index_copy, masked_scatter; take, which reads
 * through a flat index; and the out= forms of gather and index_select (index.c computes,
 * this file stores).
 *
 * Every op has a new-tensor, an out= and an in-place form. All three work the same way: the
 * in-place form writes into self, the others into a copy of self (out= then stores the copy
 * in out, resized as PyTorch resizes it). Every index is checked before the first element
 * is written, so a failing in-place call leaves self as it was, and every offset is computed
 * from a checked position: no stride can make a kernel read or write outside a storage.
 * The element arithmetic per dtype is scatter_elem.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reduce/reduce.h"
#include "shape/scatter_elem.h"
#include "shape/shape_ops.h"

typedef enum Form { FORM_NEW, FORM_OUT, FORM_INPLACE } Form;

/* A 0-dim tensor counts as one dim of size 1 (PyTorch's ensure_nonempty_dim). */
static int nd(const TsTensor *t) { return t->dim ? t->dim : 1; }
static int64_t sz(const TsTensor *t, int k) { return t->dim ? t->sizes[k] : 1; }
static int64_t st(const TsTensor *t, int k) { return t->dim ? t->strides[k] : 0; }

/* The byte address of t's element at storage offset off (elements). */
static char *at(const TsTensor *t, int64_t off)
{
    return (char *)t->storage->data + off * (int64_t)ts_dtype_size(t->dtype);
}

static int out_dtype_check(TsError *err, const TsTensor *out, int dtype)
{
    if (out->dtype == dtype)
        return 0;
    return ts_error_set(err, TS_ERR_RUNTIME, "Expected out tensor to have dtype %s, but got %s "
                        "instead", ts_dtype_name(dtype), ts_dtype_name(out->dtype));
}

/* The tensor a kernel writes: self itself in place, else a new copy of self. */
static TsTensor *target(TsError *err, TsTensor *self, Form f)
{
    if (f == FORM_INPLACE) {
        ts_tensor_retain(self);
        return self;
    }
    TsTensor *r = ts_cpu_empty_like(self, self->dtype, err);
    if (r)
        ts_cpu_copy_into(r, self);
    return r;
}

/* Ends a kernel that wrote r (rc set or r NULL: failed, error set). A new result is
 * pushed; out= (the last argument) receives r and is returned; in place returns self. */
static int finish(TsArgs *a, int rc, TsTensor *r, Form f)
{
    if (rc || !r || f != FORM_INPLACE)
        return ts_cpu_return_out(a, rc, r, f == FORM_OUT);
    ts_tensor_release(r);     /* self itself: the argument is the result */
    return ts_args_return_arg(a, 0, 0);
}

/* The out= argument (the last) when f is FORM_OUT, checked to have dtype. */
static int out_arg(TsArgs *a, Form f, int dtype)
{
    TsTensor *out;
    if (f != FORM_OUT)
        return 0;
    int rc = ts_args_tensor(a, a->n - 1, &out);
    return rc ? rc : out_dtype_check(a->call->error, out, dtype);
}

/* ---- scatter, scatter_add, scatter_reduce ---------------------------------------- */

typedef enum RedArg {
    RA_NONE,        /* scatter.src / .value */
    RA_ADD_MUL,     /* scatter.reduce: *, str reduce ("add", "multiply") */
    RA_FULL,        /* scatter_reduce.two: str reduce, *, bool include_self */
    RA_SUM,         /* scatter_add */
} RedArg;

typedef struct ScatterSpec {
    bool value;     /* Scalar value instead of Tensor src */
    RedArg red;
    Form form;
} ScatterSpec;

/* PyTorch's scatter_gather shape checks; src NULL for the value forms. */
static int scatter_shape_check(TsError *err, const TsTensor *self, int dim,
                               const TsTensor *index, const TsTensor *src)
{
    if (nd(index) != nd(self))
        return ts_error_set(err, TS_ERR_RUNTIME, "Index tensor must have the same number of "
                            "dimensions as self tensor");
    if (src && nd(index) != nd(src))
        return ts_error_set(err, TS_ERR_RUNTIME, "Index tensor must have the same number of "
                            "dimensions as src tensor");
    for (int k = 0; k < nd(index); k++) {
        if ((k == dim || sz(index, k) <= sz(self, k)) && (!src || sz(index, k) <= sz(src, k)))
            continue;
        char bi[256], bs[256], bsrc[256];
        ts_aten_format_sizes(bi, sizeof bi, index->dim, index->sizes);
        ts_aten_format_sizes(bs, sizeof bs, self->dim, self->sizes);
        if (!src)
            return ts_error_set(err, TS_ERR_RUNTIME, "Expected index %s to be smaller than "
                                "self %s apart from dimension %d", bi, bs, dim);
        ts_aten_format_sizes(bsrc, sizeof bsrc, src->dim, src->sizes);
        return ts_error_set(err, TS_ERR_RUNTIME, "Expected index %s to be smaller than self %s "
                            "apart from dimension %d and to be smaller size than src %s", bi, bs,
                            dim, bsrc);
    }
    return 0;
}

static int parse_reduce(TsError *err, RedArg kind, TsValue v, TsScatterRed *out)
{
    static const char *const add_mul[] = { "add", "multiply" };
    static const char *const full[] = { "sum", "prod", "mean", "amax", "amin" };
    static const TsScatterRed add_mul_red[] = { TS_RED_SUM, TS_RED_PROD };
    static const TsScatterRed full_red[] = { TS_RED_SUM, TS_RED_PROD, TS_RED_MEAN,
                                             TS_RED_AMAX, TS_RED_AMIN };
    *out = kind == RA_SUM ? TS_RED_SUM : TS_RED_NONE;
    if (kind == RA_NONE || kind == RA_SUM)
        return 0;
    const char *s = v.tag == TS_TAG_STR ? ((const TsStr *)v.u.p)->data : "";
    const char *const *names = kind == RA_FULL ? full : add_mul;
    size_t n = kind == RA_FULL ? 5 : 2;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(s, names[i])) {
            *out = kind == RA_FULL ? full_red[i] : add_mul_red[i];
            return 0;
        }
    return ts_error_set(err, TS_ERR_RUNTIME, kind == RA_FULL
                        ? "reduce argument must be either sum, prod, mean, amax or amin."
                        : "reduce argument must be either add or multiply.");
}

static const char *red_name(TsScatterRed r)
{
    static const char *const names[] = { "", "sum", "prod", "mean", "amax", "amin" };
    return names[r];
}

/* Walks index: for every position the element of self it selects and the matching element
 * of src (or value); with identity set, writes the reduction's start value instead.
 * counts (mean) gets one more per write, by self's row-major position. */
static void scatter_walk(TsTensor *self, int dim, const TsTensor *index, const TsTensor *src,
                         const char *value, const TsScatterElem *e, TsScatterRed red,
                         bool identity, int64_t *counts)
{
    int n = nd(self);
    int64_t isz[TS_TENSOR_MAX_DIMS], pos[TS_TENSOR_MAX_DIMS] = { 0 }, cst[TS_TENSOR_MAX_DIMS];
    int64_t lin_stride = 1;
    for (int k = n - 1; k >= 0; k--) {
        isz[k] = sz(index, k);
        cst[k] = lin_stride;
        lin_stride *= sz(self, k);
    }
    const int64_t *ivals = (const int64_t *)index->storage->data;
    do {
        int64_t io = index->offset, so = src ? src->offset : 0, doff = self->offset, lin = 0;
        for (int k = 0; k < n; k++) {
            io += pos[k] * st(index, k);
            if (src)
                so += pos[k] * st(src, k);
        }
        int64_t i = ivals[io];
        for (int k = 0; k < n; k++) {
            int64_t p = k == dim ? i : pos[k];
            doff += p * st(self, k);
            lin += p * cst[k];
        }
        char *d = at(self, doff);
        if (identity) {
            e->identity(d, red);
        } else if (red == TS_RED_NONE) {
            memcpy(d, src ? at(src, so) : value, ts_dtype_size(self->dtype));
        } else {
            e->combine(d, src ? at(src, so) : value, red);
            if (counts)
                counts[lin]++;
        }
    } while (ts_cpu_next_index(n, isz, pos));
}

/* Every value of index in [0, size), or PyTorch's message for the first that is not. */
static int scatter_bounds(TsError *err, const TsTensor *index, int dim, int64_t size)
{
    int n = nd(index);
    int64_t isz[TS_TENSOR_MAX_DIMS], pos[TS_TENSOR_MAX_DIMS] = { 0 };
    for (int k = 0; k < n; k++)
        isz[k] = sz(index, k);
    const int64_t *ivals = (const int64_t *)index->storage->data;
    do {
        int64_t io = index->offset;
        for (int k = 0; k < n; k++)
            io += pos[k] * st(index, k);
        if (ivals[io] < 0 || ivals[io] >= size)
            return ts_error_set(err, TS_ERR_RUNTIME, "index %lld is out of bounds for dimension "
                                "%d with size %lld", (long long)ivals[io], dim, (long long)size);
    } while (ts_cpu_next_index(n, isz, pos));
    return 0;
}

/* The mean's last step: every element of self written k times is divided by k (plus one
 * with include_self). */
static void scatter_mean(TsTensor *self, const TsScatterElem *e, const int64_t *counts,
                         bool include_self)
{
    int n = nd(self);
    int64_t ssz[TS_TENSOR_MAX_DIMS], pos[TS_TENSOR_MAX_DIMS] = { 0 }, lin = 0;
    for (int k = 0; k < n; k++)
        ssz[k] = sz(self, k);
    do {
        int64_t cnt = counts[lin++] + include_self, off = self->offset;
        if (cnt > 1 || (!include_self && cnt == 1)) {
            for (int k = 0; k < n; k++)
                off += pos[k] * st(self, k);
            e->divide(at(self, off), cnt);
        }
    } while (ts_cpu_next_index(n, ssz, pos));
}

static int scatter_into(TsError *err, const char *op, TsTensor *self, int dim,
                        const TsTensor *index, const TsTensor *src, const char *value,
                        TsScatterRed red, bool include_self)
{
    const TsScatterElem *e = ts_scatter_elem(self->dtype);
    /* complex has no arithmetic here: plain writes only */
    if ((red != TS_RED_NONE && !e) || (red == TS_RED_MEAN && self->dtype == TS_BOOL))
        return ts_error_set(err, TS_ERR_RUNTIME, "\"scatter_gather_tensor_cpu_reduce_%s\" not "
                            "implemented for '%s'", red_name(red), ts_dtype_type_name(self->dtype));
    if (scatter_bounds(err, index, dim, sz(self, dim)))
        return err->code;
    int64_t *counts = NULL;
    if (red == TS_RED_MEAN && !(counts = calloc((size_t)ts_tensor_numel(self), sizeof *counts)))
        return ts_error_set(err, TS_ERR_NOMEM, "%s: out of memory", op);
    if (!include_self)
        scatter_walk(self, dim, index, src, value, e, red, true, NULL);
    scatter_walk(self, dim, index, src, value, e, red, false, counts);
    if (counts) {
        scatter_mean(self, e, counts, include_self);
        free(counts);
    }
    return 0;
}

static int scatter_kernel(TsCall *c, const ScatterSpec *s)
{
    TsArgs a;
    int dim;
    char value[16];
    TsScatterRed red;
    TsTensor *self, *index, *r = NULL, *src = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &self);
    if (!rc) rc = ts_args_tensor(&a, 2, &index);
    if (!rc && !s->value) rc = ts_args_tensor(&a, 3, &src);
    if (!rc) rc = ts_args_dim(&a, 1, self->dim, true, &dim);
    if (!rc) rc = out_arg(&a, s->form, self->dtype);
    if (rc)
        return ts_args_fail(&a, rc);
    bool include_self = s->red != RA_FULL || a.v[5].tag != TS_TAG_BOOL || a.v[5].u.b;
    if (index->dtype != TS_INT64)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "scatter(): Expected dtype int64 for index");
    else if (src && src->dtype != self->dtype)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME,
                          "scatter(): Expected self.dtype to be equal to src.dtype");
    else if (ts_tensor_numel(index) > 0)
        rc = scatter_shape_check(c->error, self, dim, index, src);
    if (!rc)
        rc = parse_reduce(c->error, s->red, s->red == RA_ADD_MUL || s->red == RA_FULL
                                                ? a.v[4] : ts_none(), &red);
    if (!rc && s->value)
        rc = ts_aten_scalar_to_elem(a.v[3], self->dtype, value, c->error);
    if (!rc && (r = target(c->error, self, s->form)) && ts_tensor_numel(index) > 0)
        rc = scatter_into(c->error, ts_args_op_name(&a), r, dim, index, src, value, red,
                          include_self);
    return finish(&a, rc, r, s->form);
}

#define SCATTER(FN, VALUE, RED, FORM) \
    static int FN(TsCall *c) \
    { \
        static const ScatterSpec spec = { VALUE, RED, FORM }; \
        return scatter_kernel(c, &spec); \
    }

SCATTER(k_scatter_src, false, RA_NONE, FORM_NEW)
SCATTER(k_scatter_value, true, RA_NONE, FORM_NEW)
SCATTER(k_scatter_reduce, false, RA_ADD_MUL, FORM_NEW)
SCATTER(k_scatter_value_reduce, true, RA_ADD_MUL, FORM_NEW)
SCATTER(k_scatter_src_out, false, RA_NONE, FORM_OUT)
SCATTER(k_scatter_value_out, true, RA_NONE, FORM_OUT)
SCATTER(k_scatter_reduce_out, false, RA_ADD_MUL, FORM_OUT)
SCATTER(k_scatter_value_reduce_out, true, RA_ADD_MUL, FORM_OUT)
SCATTER(k_scatter__src, false, RA_NONE, FORM_INPLACE)
SCATTER(k_scatter__value, true, RA_NONE, FORM_INPLACE)
SCATTER(k_scatter__reduce, false, RA_ADD_MUL, FORM_INPLACE)
SCATTER(k_scatter__value_reduce, true, RA_ADD_MUL, FORM_INPLACE)
SCATTER(k_scatter_add, false, RA_SUM, FORM_NEW)
SCATTER(k_scatter_add_out, false, RA_SUM, FORM_OUT)
SCATTER(k_scatter_add_, false, RA_SUM, FORM_INPLACE)
SCATTER(k_scatter_reduce_two, false, RA_FULL, FORM_NEW)
SCATTER(k_scatter_reduce_two_out, false, RA_FULL, FORM_OUT)
SCATTER(k_scatter_reduce__two, false, RA_FULL, FORM_INPLACE)

/* ---- index_add, index_fill, index_copy: whole slices along dim -------------------- */

/* The n values of a 0- or 1-dim int32/int64 index as int64, negatives wrapped by size when
 * wrap is set. */
static int64_t *read_index(TsError *err, const TsTensor *index, int64_t size, bool wrap)
{
    int64_t n = ts_tensor_numel(index), s = st(index, 0);
    int64_t *v = malloc((size_t)(n ? n : 1) * sizeof *v);
    if (!v) {
        ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    for (int64_t j = 0; j < n; j++) {
        int64_t off = index->offset + j * s;
        v[j] = index->dtype == TS_INT64 ? ((const int64_t *)index->storage->data)[off]
                                        : ((const int32_t *)index->storage->data)[off];
        if (wrap && v[j] < 0 && v[j] >= -size)
            v[j] += size;
    }
    return v;
}

typedef enum SliceOp { SLICE_COPY, SLICE_AXPY } SliceOp;

/* For j < n: self's slice at ivals[j] along dim gets the source slice j: copied, or added
 * times alpha. sst holds the source's stride for each of self's dims (0 where it
 * broadcasts; at dim, the step from slice j to j + 1). */
static void slice_walk(TsTensor *self, int dim, int64_t n, const int64_t *ivals,
                       const char *sbase, const int64_t *sst, SliceOp op, const char *alpha)
{
    int nds = nd(self);
    int64_t vsz[TS_TENSOR_MAX_DIMS], pos[TS_TENSOR_MAX_DIMS] = { 0 };
    for (int k = 0; k < nds; k++)
        vsz[k] = k == dim ? n : sz(self, k);
    for (int k = 0; k < nds; k++)
        if (vsz[k] == 0)
            return;
    size_t es = ts_dtype_size(self->dtype);
    const TsScatterElem *e = ts_scatter_elem(self->dtype);
    do {
        int64_t doff = self->offset, soff = 0;
        for (int k = 0; k < nds; k++) {
            doff += (k == dim ? ivals[pos[k]] : pos[k]) * st(self, k);
            soff += pos[k] * sst[k];
        }
        const char *s = sbase + soff * (int64_t)es;
        if (op == SLICE_COPY)
            memcpy(at(self, doff), s, es);
        else
            e->axpy(at(self, doff), s, alpha);
    } while (ts_cpu_next_index(nds, vsz, pos));
}

/* Source strides for index_add: source.select(dim, j) broadcast to self.select(dim, i),
 * with the errors of that in-place add. */
static int add_strides(TsError *err, const TsTensor *self, int dim, const TsTensor *source,
                       int64_t *sst)
{
    int ns = self->dim ? self->dim - 1 : 0, nr = source->dim ? source->dim - 1 : 0;
    int64_t ss[TS_TENSOR_MAX_DIMS], rs[TS_TENSOR_MAX_DIMS], rst[TS_TENSOR_MAX_DIMS];
    int sdim[TS_TENSOR_MAX_DIMS];
    for (int k = 0, j = 0; k < self->dim; k++)
        if (k != dim) {
            sdim[j] = k;
            ss[j++] = self->sizes[k];
        }
    for (int k = 0, j = 0; k < source->dim; k++)
        if (k != dim) {
            rst[j] = source->strides[k];
            rs[j++] = source->sizes[k];
        }
    int nb = ns > nr ? ns : nr;
    int64_t bs[TS_TENSOR_MAX_DIMS];
    for (int k = 0; k < nb; k++) {
        int ks = k - (nb - ns), kr = k - (nb - nr);
        int64_t a = ks >= 0 ? ss[ks] : 1, b = kr >= 0 ? rs[kr] : 1;
        if (a != b && a != 1 && b != 1)
            return ts_error_set(err, TS_ERR_RUNTIME, "The size of tensor a (%lld) must match "
                                "the size of tensor b (%lld) at non-singleton dimension %d",
                                (long long)a, (long long)b, k);
        bs[k] = a == 1 ? b : a;
    }
    bool same = nb == ns;
    for (int k = 0; same && k < ns; k++)
        same = bs[k] == ss[k];
    if (!same) {
        char b1[256], b2[256];
        ts_aten_format_sizes(b1, sizeof b1, ns, ss);
        ts_aten_format_sizes(b2, sizeof b2, nb, bs);
        return ts_error_set(err, TS_ERR_RUNTIME, "output with shape %s doesn't match the "
                            "broadcast shape %s", b1, b2);
    }
    for (int k = 0; k < nd(self); k++)
        sst[k] = 0;
    sst[dim] = source->dim ? source->strides[dim] : 0;
    for (int j = 0; j < ns; j++) {
        int kr = j - (ns - nr);
        sst[sdim[j]] = kr >= 0 && rs[kr] == ss[j] ? rst[kr] : 0;
    }
    return 0;
}

/* Pops the arguments the index_* ops with a source share: (Tensor self, int dim,
 * Tensor index, Tensor source, ...), and out= when f is FORM_OUT. */
static int index_args(TsCall *c, Form f, TsArgs *a, TsTensor **self, TsTensor **index,
                      TsTensor **src, int *dim)
{
    int rc = ts_args_pop(c, TS_DEV_CPU, a);
    if (!rc) rc = ts_args_tensor(a, 0, self);
    if (!rc) rc = ts_args_tensor(a, 2, index);
    if (!rc) rc = ts_args_tensor(a, 3, src);
    if (!rc) rc = ts_args_dim(a, 1, (*self)->dim, true, dim);
    if (!rc) rc = out_arg(a, f, (*self)->dtype);
    return rc;
}

/* PyTorch's checks of index_add_ and index_reduce_ (name) on their arguments, in its order:
 * a vector of int32/int64 indices, one per slice of source along dim, self's dtype. */
static int index_func_check(TsError *err, const char *name, const TsTensor *self, int dim,
                            const TsTensor *index, const TsTensor *src)
{
    int64_t count = ts_tensor_numel(index);
    int rc = 0;
    if (index->dim > 1) {
        char b[256];
        ts_aten_format_sizes(b, sizeof b, index->dim, index->sizes);
        rc = ts_error_set(err, TS_ERR_INDEX, "%s(): Index is supposed to be a "
                          "vector, but got dim: %d with type: %s and size: %s", name, index->dim,
                          ts_dtype_type_name(index->dtype), b);
    } else if (index->dtype != TS_INT64 && index->dtype != TS_INT32) {
        rc = ts_error_set(err, TS_ERR_RUNTIME, "%s(): Expected dtype int32/int64 "
                          "for index but got: %s", name, ts_dtype_type_name(index->dtype));
    } else if (src->dtype != self->dtype) {
        rc = ts_error_set(err, TS_ERR_RUNTIME, "%s(): self (%s) and source (%s) "
                          "must have the same scalar type", name, ts_dtype_type_name(self->dtype),
                          ts_dtype_type_name(src->dtype));
    } else if (src->dim > 0 && dim >= src->dim) {
        rc = ts_error_set(err, TS_ERR_RUNTIME, "%s(): Indexing dim %d is out of "
                          "bounds of the source tensor with dim %d", name, dim, src->dim);
    } else if (src->dim == 0 && count != 1) {
        rc = ts_error_set(err, TS_ERR_INDEX, "Dimension specified as 0 but tensor has no "
                          "dimensions");
    } else if (src->dim > 0 && count != src->sizes[dim]) {
        rc = ts_error_set(err, TS_ERR_RUNTIME, "%s(): Number of indices (%lld) "
                          "should be equal to source.size(dim): (%lld), for dim: %d", name,
                          (long long)count, (long long)src->sizes[dim], dim);
    } else if (src->dim == 0 && self->dim > 1) {
        rc = ts_error_set(err, TS_ERR_INDEX, "select() cannot be applied to a 0-dim "
                          "tensor.");
    }
    return rc;
}

/* index_add(Tensor self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) */
static int index_add_kernel(TsCall *c, Form f)
{
    TsArgs a;
    int64_t sst[TS_TENSOR_MAX_DIMS], *iv = NULL;
    int dim;
    char alpha[16];
    TsTensor *self, *index, *src, *r = NULL;
    int rc = index_args(c, f, &a, &self, &index, &src, &dim);
    if (rc)
        return ts_args_fail(&a, rc);
    int64_t count = ts_tensor_numel(index);
    rc = index_func_check(c->error, "index_add_", self, dim, index, src);
    if (!rc && self->dim > 0)
        rc = add_strides(c->error, self, dim, src, sst);
    else if (!rc)
        sst[0] = src->dim ? src->strides[0] : 0;
    if (!rc && src->dim == 0)
        sst[0] = 0;
    if (!rc)
        rc = ts_aten_scalar_to_elem(a.v[4], self->dtype, alpha, c->error);
    if (!rc && !ts_scatter_elem(self->dtype))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "\"index_add_cpu_\" not implemented for '%s'",
                          ts_dtype_type_name(self->dtype));
    if (!rc && !(iv = read_index(c->error, index, 0, false)))
        rc = c->error->code;
    for (int64_t j = 0; !rc && j < count; j++)
        if (iv[j] < 0 || iv[j] >= sz(self, dim))
            rc = ts_error_set(c->error, TS_ERR_INDEX, "index out of range in self");
    if (!rc && (r = target(c->error, self, f)) && count > 0 && ts_tensor_numel(src) > 0)
        slice_walk(r, dim, count, iv, at(src, src->offset), sst, SLICE_AXPY, alpha);
    free(iv);
    return finish(&a, rc, r, f);
}

/* index_reduce(Tensor self, int dim, Tensor index, Tensor source, str reduce, *,
 *              bool include_self=True): slice j of source along dim reduced into slice
 * index[j] of self; a scatter_reduce whose index holds index[j] at every element of
 * source's slice j. */
static int index_reduce_kernel(TsCall *c, Form f)
{
    TsArgs a;
    int64_t sst[TS_TENSOR_MAX_DIMS], *iv = NULL;
    int dim;
    TsScatterRed red = TS_RED_NONE;
    TsTensor *self, *index, *src, *r = NULL, *full = NULL;
    int rc = index_args(c, f, &a, &self, &index, &src, &dim);
    if (rc)
        return ts_args_fail(&a, rc);
    static const char *const names[] = { "prod", "mean", "amax", "amin" };
    static const TsScatterRed reds[] = { TS_RED_PROD, TS_RED_MEAN, TS_RED_AMAX, TS_RED_AMIN };
    const char *rs = a.v[4].tag == TS_TAG_STR ? ((const TsStr *)a.v[4].u.p)->data : "";
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(rs, names[i]))
            red = reds[i];
    bool include_self = a.v[5].tag != TS_TAG_BOOL || a.v[5].u.b;
    int64_t count = ts_tensor_numel(index);
    if (red == TS_RED_NONE)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "index_reduce(): Expected reduce to be one "
                          "of prod, mean, amax or amin but got %s.", rs);
    if (!rc)
        rc = index_func_check(c->error, "index_reduce_", self, dim, index, src);
    if (!rc && self->dim > 0)
        rc = add_strides(c->error, self, dim, src, sst);
    if (!rc && !(iv = read_index(c->error, index, 0, false)))
        rc = c->error->code;
    for (int64_t j = 0; !rc && j < count; j++)
        if (iv[j] < 0 || iv[j] >= sz(self, dim))
            rc = ts_error_set(c->error, TS_ERR_INDEX, "index out of range in self");
    if (!rc && !(full = ts_cpu_empty(TS_INT64, src->dim, src->sizes, c->error)))
        rc = c->error->code;
    if (!rc) {
        int64_t inner = 1, n = ts_tensor_numel(full), *fd = ts_tensor_data(full);
        for (int k = dim + 1; k < src->dim; k++)
            inner *= src->sizes[k];
        for (int64_t i = 0; i < n; i++)
            fd[i] = iv[(i / inner) % sz(src, dim)];
    }
    if (!rc && (r = target(c->error, self, f)) && count > 0)
        rc = scatter_into(c->error, "index_reduce", r, dim, full, src, NULL, red, include_self);
    free(iv);
    if (full)
        ts_tensor_release(full);
    return finish(&a, rc, r, f);
}

static int k_index_reduce(TsCall *c) { return index_reduce_kernel(c, FORM_NEW); }
static int k_index_reduce_out(TsCall *c) { return index_reduce_kernel(c, FORM_OUT); }
static int k_index_reduce_(TsCall *c) { return index_reduce_kernel(c, FORM_INPLACE); }

static int k_index_add(TsCall *c) { return index_add_kernel(c, FORM_NEW); }
static int k_index_add_out(TsCall *c) { return index_add_kernel(c, FORM_OUT); }
static int k_index_add_(TsCall *c) { return index_add_kernel(c, FORM_INPLACE); }

/* A 0-dim tensor's element as the Scalar it reads as (item()). */
static TsValue tensor_scalar(const TsTensor *t)
{
    const char *p = at(t, t->offset);
    if (t->dtype == TS_BOOL)
        return ts_bool(*p != 0);
    if (ts_dtype_is_integral(t->dtype, false)) {
        int64_t i = 0;
        switch (t->dtype) {
#define LOAD(DT, T) case DT: { T x; memcpy(&x, p, sizeof x); i = (int64_t)x; break; }
        TS_ATEN_INT_DTYPES(LOAD)
#undef LOAD
        default: break;
        }
        return ts_int(i);
    }
    return ts_double(ts_cpu_load_double(t->dtype, p));
}

/* index_fill(Tensor self, int dim, Tensor index, Scalar|Tensor value) */
static int index_fill_kernel(TsCall *c, Form f, bool tensor_value)
{
    TsArgs a;
    TsValue value;
    int64_t d64, *iv = NULL;
    int dim;
    char elem[16];
    TsTensor *self, *index, *r = NULL, *vt = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &self);
    if (!rc) rc = ts_args_tensor(&a, 2, &index);
    if (!rc && tensor_value) rc = ts_args_tensor(&a, 3, &vt);
    if (!rc) rc = ts_args_int(&a, 1, &d64);
    if (rc)
        return ts_args_fail(&a, rc);
    if (vt && vt->dim != 0)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "index_fill_ only supports a 0-dimensional "
                          "value tensor, but got tensor with %d dimension(s).", vt->dim);
    else if (index->dtype != TS_INT64)
        rc = ts_error_set(c->error, TS_ERR_INDEX, "index_fill_(): Expected dtype int64 for "
                          "index.");
    if (!rc) rc = ts_aten_wrap_dim(d64, self->dim, true, &dim, c->error);
    if (!rc) rc = out_arg(&a, f, self->dtype);
    if (!rc && index->dim > 1)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Index has to be a vector/scalar");
    value = vt ? tensor_scalar(vt) : a.v[3];
    if (!rc)
        rc = ts_aten_scalar_to_elem(value, self->dtype, elem, c->error);
    if (rc)
        return ts_args_fail(&a, rc);
    int64_t count = ts_tensor_numel(index), size = sz(self, dim);
    if (!(iv = read_index(c->error, index, size, true)))
        rc = c->error->code;
    for (int64_t j = 0; !rc && j < count; j++)
        if (iv[j] < 0 || iv[j] >= size)
            rc = ts_error_set(c->error, TS_ERR_INDEX, "index %lld is out of bounds for dimension "
                              "%d with size %lld", (long long)iv[j], dim, (long long)size);
    int64_t zero[TS_TENSOR_MAX_DIMS] = { 0 };
    if (!rc && (r = target(c->error, self, f)) && count > 0)
        slice_walk(r, dim, count, iv, elem, zero, SLICE_COPY, NULL);
    free(iv);
    return finish(&a, rc, r, f);
}

static int k_index_fill_scalar(TsCall *c) { return index_fill_kernel(c, FORM_NEW, false); }
static int k_index_fill_tensor(TsCall *c) { return index_fill_kernel(c, FORM_NEW, true); }
static int k_index_fill_scalar_out(TsCall *c) { return index_fill_kernel(c, FORM_OUT, false); }
static int k_index_fill_tensor_out(TsCall *c) { return index_fill_kernel(c, FORM_OUT, true); }
static int k_index_fill__scalar(TsCall *c) { return index_fill_kernel(c, FORM_INPLACE, false); }
static int k_index_fill__tensor(TsCall *c) { return index_fill_kernel(c, FORM_INPLACE, true); }

/* "2 4": the sizes of t without dim, as index_copy_'s message prints them. */
static void slice_sizes(char *buf, size_t size, const TsTensor *t, int dim)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int k = 0; k < t->dim && len < size; k++)
        if (k != dim)
            len += (size_t)snprintf(buf + len, size - len, "%s%lld", len ? " " : "",
                                    (long long)t->sizes[k]);
}

/* index_copy(Tensor self, int dim, Tensor index, Tensor source) */
static int index_copy_kernel(TsCall *c, Form f)
{
    TsArgs a;
    int64_t sst[TS_TENSOR_MAX_DIMS] = { 0 }, *iv = NULL;
    int dim;
    TsTensor *self, *index, *src, *r = NULL;
    int rc = index_args(c, f, &a, &self, &index, &src, &dim);
    if (rc)
        return ts_args_fail(&a, rc);
    int64_t count = ts_tensor_numel(index);
    char b1[256], b2[256];
    slice_sizes(b1, sizeof b1, self, dim);
    slice_sizes(b2, sizeof b2, src, dim);
    if (index->dim > 1)
        rc = ts_error_set(c->error, TS_ERR_INDEX, "index_copy_(): Index should have dimension 1 "
                          "or 0 (got %d)", index->dim);
    else if (src->dim == 0 && count != 1)
        rc = ts_error_set(c->error, TS_ERR_INDEX, "index_copy_(): When source is scalar, index "
                          "should have one element (got %lld)", (long long)count);
    else if (src->dim != self->dim && src->dim != 0 && self->dim != 0)
        rc = ts_error_set(c->error, TS_ERR_INDEX, "index_copy_(): When source and destination "
                          "are not scalars, their dimensionality must match. Source "
                          "dimensionality (%d), destination dimensionality (%d)", src->dim,
                          self->dim);
    else if (index->dtype != TS_INT64)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "index_copy_(): Expected a long tensor for "
                          "index, but got %s", ts_dtype_type_name(index->dtype));
    else if (src->dtype != self->dtype)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "index_copy_(): self and source expected to "
                          "have the same dtype, but got (self) %s and (source) %s",
                          ts_dtype_type_name(self->dtype), ts_dtype_type_name(src->dtype));
    else if (strcmp(b1, b2))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "index_copy_(): Source/destination tensor "
                          "must have same slice shapes. Destination slice shape: %s at dimension "
                          "%d and source slice shape: %s at dimension 0.", b1, dim, b2);
    else if (src->dim > 0 && count != src->sizes[dim])
        rc = ts_error_set(c->error, TS_ERR_INDEX, "index_copy_(): Number of indices (%lld) "
                          "should be equal to source.size(dim) (%lld)", (long long)count,
                          (long long)src->sizes[dim]);
    if (!rc && !(iv = read_index(c->error, index, 0, false)))
        rc = c->error->code;
    for (int64_t j = 0; !rc && j < count; j++)
        if (iv[j] < 0 || iv[j] >= sz(self, dim))
            rc = ts_error_set(c->error, TS_ERR_INDEX, "index_copy_(): index %lld is out of "
                              "bounds for dimension %d with size %lld", (long long)iv[j], dim,
                              (long long)sz(self, dim));
    /* equal slice shapes: the source walks with its own strides (none for a scalar; a
     * 0-dim self takes a 1-dim source's) */
    for (int k = 0; k < src->dim && k < nd(self); k++)
        sst[k] = src->strides[k];
    if (!rc && (r = target(c->error, self, f)) && count > 0 && ts_tensor_numel(src) > 0)
        slice_walk(r, dim, count, iv, at(src, src->offset), sst, SLICE_COPY, NULL);
    free(iv);
    return finish(&a, rc, r, f);
}

static int k_index_copy(TsCall *c) { return index_copy_kernel(c, FORM_NEW); }
static int k_index_copy_out(TsCall *c) { return index_copy_kernel(c, FORM_OUT); }
static int k_index_copy_(TsCall *c) { return index_copy_kernel(c, FORM_INPLACE); }

/* ---- masked_scatter -------------------------------------------------------------- */

/* expand(mask, sizes)'s errors, for the in-place form whose shape cannot change. */
static int expand_check(TsError *err, const TsTensor *m, int dim, const int64_t *sizes)
{
    char bm[256], bt[256];
    ts_aten_format_sizes(bm, sizeof bm, m->dim, m->sizes);
    ts_aten_format_sizes(bt, sizeof bt, dim, sizes);
    if (m->dim > dim)
        return ts_error_set(err, TS_ERR_RUNTIME, "expand(CPU%sType{%s}, size=%s): the number of "
                            "sizes provided (%d) must be greater or equal to the number of "
                            "dimensions in the tensor (%d)", ts_dtype_type_name(m->dtype), bm, bt,
                            dim, m->dim);
    for (int k = 0; k < m->dim; k++) {
        int64_t want = sizes[k + dim - m->dim];
        if (m->sizes[k] != 1 && m->sizes[k] != want)
            return ts_error_set(err, TS_ERR_RUNTIME, "The expanded size of the tensor (%lld) must "
                                "match the existing size (%lld) at non-singleton dimension %d.  "
                                "Target sizes: %s.  Tensor sizes: %s", (long long)want,
                                (long long)m->sizes[k], k + dim - m->dim, bt, bm);
    }
    return 0;
}

/* Writes source's elements, in order, to r where mask (broadcast to r) is set. */
static int masked_scatter_into(TsError *err, TsTensor *r, const TsTensor *mask,
                               const TsTensor *source)
{
    int64_t mst[TS_TENSOR_MAX_DIMS], pos[TS_TENSOR_MAX_DIMS] = { 0 }, ones = 0;
    int n = r->dim;
    for (int k = 0; k < n; k++) {
        int km = k - (n - mask->dim);
        mst[k] = km < 0 || mask->sizes[km] != r->sizes[k] ? 0 : mask->strides[km];
    }
    int64_t numel = ts_tensor_numel(r);
    if (numel == 0)
        return 0;
    const char *mb = (const char *)mask->storage->data;
    do {
        int64_t mo = mask->offset;
        for (int k = 0; k < n; k++)
            mo += pos[k] * mst[k];
        ones += mb[mo] != 0;
    } while (ts_cpu_next_index(n, r->sizes, pos));
    if (ones > ts_tensor_numel(source))
        return ts_error_set(err, TS_ERR_RUNTIME, "Number of elements of source < number of ones "
                            "in mask");
    if (ones == 0)
        return 0;
    /* a contiguous copy: source may share memory with r */
    TsTensor *sc = ts_cpu_cast(source, source->dtype, err);
    if (!sc)
        return err->code;
    size_t es = ts_dtype_size(r->dtype);
    const char *sp = ts_tensor_data(sc);
    memset(pos, 0, sizeof pos);
    do {
        int64_t mo = mask->offset, ro = r->offset;
        for (int k = 0; k < n; k++) {
            mo += pos[k] * mst[k];
            ro += pos[k] * r->strides[k];
        }
        if (mb[mo]) {
            memcpy(at(r, ro), sp, es);
            sp += es;
        }
    } while (ts_cpu_next_index(n, r->sizes, pos));
    ts_tensor_release(sc);
    return 0;
}

/* masked_scatter(Tensor self, Tensor mask, Tensor source) */
static int masked_scatter_kernel(TsCall *c, Form f)
{
    TsArgs a;
    TsTensor *self, *mask, *src, *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &self);
    if (!rc) rc = ts_args_tensor(&a, 1, &mask);
    if (!rc) rc = ts_args_tensor(&a, 2, &src);
    if (!rc) rc = out_arg(&a, f, self->dtype);
    if (rc)
        ;
    else if (src->dtype != self->dtype)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "masked_scatter: expected self and source to "
                          "have same dtypes but got%s and %s", ts_dtype_type_name(self->dtype),
                          ts_dtype_type_name(src->dtype));
    else if (mask->dtype != TS_BOOL && mask->dtype != TS_UINT8)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "masked_scatter_ only supports boolean "
                          "masks, but got mask with dtype %s", ts_dtype_name(mask->dtype));
    if (rc)
        return ts_args_fail(&a, rc);
    if (f == FORM_INPLACE) {
        if (!expand_check(c->error, mask, self->dim, self->sizes))
            r = target(c->error, self, f);
    } else {
        /* self broadcast with mask: the result may be larger than self */
        TsTensor *pair[2] = { mask, self };
        int64_t sizes[TS_TENSOR_MAX_DIMS];
        int dim;
        if (!ts_aten_broadcast_shape(2, pair, &dim, sizes, c->error) &&
            (r = ts_cpu_empty(self->dtype, dim, sizes, c->error)))
            ts_cpu_copy_into(r, self);
    }
    if (r)
        rc = masked_scatter_into(c->error, r, mask, src);
    return finish(&a, rc, r, f);
}

static int k_masked_scatter(TsCall *c) { return masked_scatter_kernel(c, FORM_NEW); }
static int k_masked_scatter_out(TsCall *c) { return masked_scatter_kernel(c, FORM_OUT); }
static int k_masked_scatter_(TsCall *c) { return masked_scatter_kernel(c, FORM_INPLACE); }

/* ---- take ------------------------------------------------------------------------- */

/* take(Tensor self, Tensor index): self read as if flattened, negatives from the end. */
static int take_kernel(TsCall *c, Form f)
{
    TsArgs a;
    TsTensor *self, *index, *out = NULL, *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &self);
    if (!rc) rc = ts_args_tensor(&a, 1, &index);
    if (!rc && f == FORM_OUT) rc = ts_args_tensor(&a, 2, &out);
    if (rc)
        return ts_args_fail(&a, rc);
    int64_t numel = ts_tensor_numel(self), count = ts_tensor_numel(index);
    if (out && out->dtype != self->dtype)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "take(): self and out expected to have the "
                          "same dtype, but got self.dtype = %s and out.dtype = %s",
                          ts_dtype_type_name(self->dtype), ts_dtype_type_name(out->dtype));
    else if (index->dtype != TS_INT64)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "take(): Expected a long tensor for index, "
                          "but got %s", ts_dtype_type_name(index->dtype));
    else if (numel == 0 && count > 0)
        rc = ts_error_set(c->error, TS_ERR_INDEX, "take(): tried to take from an empty tensor");
    if (rc || !(r = ts_cpu_empty(self->dtype, index->dim, index->sizes, c->error)) || count == 0)
        return finish(&a, rc, r, f);
    size_t es = ts_dtype_size(self->dtype);
    int64_t pos[TS_TENSOR_MAX_DIMS] = { 0 };
    const int64_t *iv = (const int64_t *)index->storage->data;
    char *dst = ts_tensor_data(r);
    do {
        int64_t io = index->offset;
        for (int k = 0; k < index->dim; k++)
            io += pos[k] * index->strides[k];
        int64_t i = iv[io];
        if (i < -numel || i >= numel)
            return finish(&a, ts_error_set(c->error, TS_ERR_INDEX, "out of range: tried to access "
                                           "index %lld on a tensor of %lld elements.",
                                           (long long)i, (long long)numel), r, f);
        if (i < 0)
            i += numel;
        int64_t off = self->offset;
        for (int k = self->dim - 1; k >= 0; k--) {
            off += (i % self->sizes[k]) * self->strides[k];
            i /= self->sizes[k];
        }
        memcpy(dst, at(self, off), es);
        dst += es;
    } while (ts_cpu_next_index(index->dim, index->sizes, pos));
    return finish(&a, 0, r, f);
}

static int k_take(TsCall *c) { return take_kernel(c, FORM_NEW); }
static int k_take_out(TsCall *c) { return take_kernel(c, FORM_OUT); }

/* ---- gather.out, index_select.out ------------------------------------------------- */

/* Runs index.c's kernel of the out= form's operator (its default overload) on the
 * arguments but the last, and stores its result in out (the last), after checking out's
 * dtype (msg: PyTorch's own message for it). */
static int run_into_out(TsCall *c, const char *msg)
{
    TsArgs a;
    TsValue res = ts_none();
    TsTensor *t, *out;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_tensor(&a, a.n - 1, &out);
    if (!rc && t->dtype != out->dtype)
        rc = msg ? ts_error_set(c->error, TS_ERR_RUNTIME, "%s", msg)
                 : out_dtype_check(c->error, out, t->dtype);
    if (rc)
        return ts_args_fail(&a, rc);
    TsValue in[TS_ARGS_MAX];
    size_t n = a.n - 1;
    for (size_t i = 0; i < n; i++) {
        in[i] = a.v[i];
        ts_value_retain(in[i]);     /* the callee takes these references */
    }
    rc = ts_cpu_call_kernel(c, &ts_cpu_index_table, ts_args_op_name(&a), "", n, in, &res);
    if (!rc)
        rc = ts_cpu_store_out(out, (const TsTensor *)res.u.p, c->error);
    ts_value_release(res);
    return ts_args_return_arg(&a, rc, n);
}

/* gather.out(Tensor self, int dim, Tensor index, *, bool sparse_grad=False, Tensor(a!) out) */
static int k_gather_out(TsCall *c) { return run_into_out(c, NULL); }

/* index_select.out(Tensor self, int dim, Tensor index, *, Tensor(a!) out) */
static int k_index_select_out(TsCall *c)
{
    return run_into_out(c, "index_select(): self and result must have the same scalar type");
}

static const TsCpuOp ops[] = {
    { "aten::scatter", "src", k_scatter_src },
    { "aten::scatter", "value", k_scatter_value },
    { "aten::scatter", "reduce", k_scatter_reduce },
    { "aten::scatter", "value_reduce", k_scatter_value_reduce },
    { "aten::scatter", "src_out", k_scatter_src_out },
    { "aten::scatter", "value_out", k_scatter_value_out },
    { "aten::scatter", "reduce_out", k_scatter_reduce_out },
    { "aten::scatter", "value_reduce_out", k_scatter_value_reduce_out },
    { "aten::scatter_", "src", k_scatter__src },
    { "aten::scatter_", "value", k_scatter__value },
    { "aten::scatter_", "reduce", k_scatter__reduce },
    { "aten::scatter_", "value_reduce", k_scatter__value_reduce },
    { "aten::scatter_add", "", k_scatter_add },
    { "aten::scatter_add", "out", k_scatter_add_out },
    { "aten::scatter_add_", "", k_scatter_add_ },
    { "aten::scatter_reduce", "two", k_scatter_reduce_two },
    { "aten::scatter_reduce", "two_out", k_scatter_reduce_two_out },
    { "aten::scatter_reduce_", "two", k_scatter_reduce__two },
    { "aten::index_reduce", "", k_index_reduce },
    { "aten::index_reduce", "out", k_index_reduce_out },
    { "aten::index_reduce_", "", k_index_reduce_ },
    { "aten::index_add", "", k_index_add },
    { "aten::index_add", "out", k_index_add_out },
    { "aten::index_add_", "", k_index_add_ },
    { "aten::index_fill", "int_Scalar", k_index_fill_scalar },
    { "aten::index_fill", "int_Tensor", k_index_fill_tensor },
    { "aten::index_fill", "int_Scalar_out", k_index_fill_scalar_out },
    { "aten::index_fill", "int_Tensor_out", k_index_fill_tensor_out },
    { "aten::index_fill_", "int_Scalar", k_index_fill__scalar },
    { "aten::index_fill_", "int_Tensor", k_index_fill__tensor },
    { "aten::index_copy", "", k_index_copy },
    { "aten::index_copy", "out", k_index_copy_out },
    { "aten::index_copy_", "", k_index_copy_ },
    { "aten::masked_scatter", "", k_masked_scatter },
    { "aten::masked_scatter", "out", k_masked_scatter_out },
    { "aten::masked_scatter_", "", k_masked_scatter_ },
    { "aten::take", "", k_take },
    { "aten::take", "out", k_take_out },
    { "aten::gather", "out", k_gather_out },
    { "aten::index_select", "out", k_index_select_out },
};

const TsCpuTable ts_cpu_scatter_table = { ops, sizeof ops / sizeof ops[0] };
