/* index.c — indexing by tensors: gather, index_select, advanced indexing (aten::index) and
 * its assignment (index_put_), masked_select and nonzero.
 *
 * Advanced indexing is planned once and walked for both reading and writing. A plan turns
 * each boolean mask into the integer index tensors of its true elements (nonzero), checks
 * the index dtypes, broadcasts the index tensors together and wraps their negative values.
 * The result shape is PyTorch's: when the indexed dims are adjacent the broadcast shape
 * replaces them in place, otherwise it comes first, followed by the dims not indexed.
 * gather and index_select check their arguments with aten-common's index_check.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shape/shape_ops.h"

/* A planned self[indices]: every result element's offset in self, one dim at a time. */
typedef struct IndexPlan {
    TsTensor *self;                        /* self, or a view with dims for 0-dim masks */
    int n;                                 /* index tensors after mask expansion */
    int dims[TS_TENSOR_MAX_DIMS];          /* the self dim each index tensor indexes */
    TsTensor *idx[TS_TENSOR_MAX_DIMS];     /* int64, contiguous, broadcast shape, wrapped */
    int bdim;
    int64_t bsizes[TS_TENSOR_MAX_DIMS], bstrides[TS_TENSOR_MAX_DIMS];
    int out_dim;
    int64_t out_sizes[TS_TENSOR_MAX_DIMS];
    int src[TS_TENSOR_MAX_DIMS];           /* per result dim: self dim, or -1 - broadcast dim */
} IndexPlan;

static void plan_free(IndexPlan *p)
{
    for (int k = 0; k < p->n; k++)
        ts_tensor_release(p->idx[k]);
    if (p->self)
        ts_tensor_release(p->self);
    p->n = 0;
    p->self = NULL;
}

/* The offset in self's storage (elements) of the result element at idx. */
static int64_t plan_offset(const IndexPlan *p, const int64_t *idx)
{
    const TsTensor *s = p->self;
    int64_t off = s->offset, b = 0;
    for (int d = 0; d < p->out_dim; d++) {
        if (p->src[d] >= 0)
            off += idx[d] * s->strides[p->src[d]];
        else
            b += idx[d] * p->bstrides[-1 - p->src[d]];
    }
    for (int k = 0; k < p->n; k++)
        off += ((const int64_t *)ts_tensor_data(p->idx[k]))[b] * s->strides[p->dims[k]];
    return off;
}

/* Appends the 1-d int64 positions of mask's true elements along each of its dims. */
static int add_mask(TsError *err, IndexPlan *p, const TsTensor *mask, int pos)
{
    const TsTensor *s = p->self;
    for (int j = 0; j < mask->dim; j++)
        if (mask->sizes[j] != s->sizes[pos + j]) {
            char b1[256], b2[256];
            ts_aten_format_sizes(b1, sizeof b1, mask->dim, mask->sizes);
            ts_aten_format_sizes(b2, sizeof b2, s->dim, s->sizes);
            return ts_error_set(err, TS_ERR_INDEX, "The shape of the mask %s at index %d does "
                                "not match the shape of the indexed tensor %s at index %d", b1, j,
                                b2, pos + j);
        }
    int64_t count = 0, idx[TS_TENSOR_MAX_DIMS] = { 0 };
    const char *base = ts_tensor_data(mask);
    bool any = ts_tensor_numel(mask) > 0;
    if (any)
        do {
            int64_t off = 0;
            for (int j = 0; j < mask->dim; j++)
                off += idx[j] * mask->strides[j];
            count += base[off] != 0;
        } while (ts_cpu_next_index(mask->dim, mask->sizes, idx));
    int64_t *cols[TS_TENSOR_MAX_DIMS];
    for (int j = 0; j < mask->dim; j++) {
        TsTensor *t = ts_cpu_empty(TS_INT64, 1, &count, err);
        if (!t)
            return err->code;
        p->dims[p->n] = pos + j;
        p->idx[p->n++] = t;
        cols[j] = ts_tensor_data(t);
    }
    memset(idx, 0, sizeof idx);
    int64_t row = 0;
    if (any)
        do {
            int64_t off = 0;
            for (int j = 0; j < mask->dim; j++)
                off += idx[j] * mask->strides[j];
            if (base[off]) {
                for (int j = 0; j < mask->dim; j++)
                    cols[j][row] = idx[j];
                row++;
            }
        } while (ts_cpu_next_index(mask->dim, mask->sizes, idx));
    return 0;
}

/* self with a size-1 dim inserted at pos (a 0-dim mask indexes a new dim). */
static int insert_dim(TsError *err, IndexPlan *p, int pos)
{
    const TsTensor *s = p->self;
    int64_t sizes[TS_TENSOR_MAX_DIMS], strides[TS_TENSOR_MAX_DIMS];
    if (s->dim >= TS_TENSOR_MAX_DIMS)
        return ts_error_set(err, TS_ERR_LIMIT, "index: more than %d dimensions",
                            TS_TENSOR_MAX_DIMS);
    for (int k = 0, j = 0; k <= s->dim; k++) {
        sizes[k] = k == pos ? 1 : s->sizes[j];
        strides[k] = k == pos ? 1 : s->strides[j++];
    }
    TsTensor *v = ts_aten_view(s, s->dim + 1, sizes, strides, s->offset, err);
    if (!v)
        return err->code;
    ts_tensor_release(p->self);
    p->self = v;
    return 0;
}

/* The safety net's error for a Tensor?[] argument i of another type (aten.h has no getter
 * for these lists). */
/* Reads the indices list (checked: None or cpu tensors) into p->idx (masks expanded),
 * before broadcasting. */
static int plan_indices(TsArgs *a, IndexPlan *p, const TsList *l)
{
    TsCall *c = a->call;
    int pos = 0;
    for (size_t i = 0; i < l->len; i++) {
        TsValue v = l->items[i];
        TsTensor *t = NULL;
        if (v.tag == TS_TAG_NONE) {
            pos++;
            continue;
        }
        t = (TsTensor *)v.u.p;
        bool mask = t->dtype == TS_BOOL || t->dtype == TS_UINT8;
        int need = mask ? t->dim : 1;    /* a 0-dim mask indexes a dim of its own */
        if (pos + need > p->self->dim)
            return ts_error_set(c->error, TS_ERR_INDEX, "too many indices for tensor of "
                                "dimension %d (got %zu)", p->self->dim, l->len);
        if (p->n + need + 1 > TS_TENSOR_MAX_DIMS)
            return ts_error_set(c->error, TS_ERR_LIMIT, "index: too many index tensors");
        if (t->dtype == TS_INT64) {
            ts_tensor_retain(t);
            p->dims[p->n] = pos++;
            p->idx[p->n++] = t;
        } else if (mask && t->dim == 0) {
            bool yes = *(const char *)ts_tensor_data(t) != 0;
            int64_t len = yes;
            TsTensor *z = insert_dim(c->error, p, pos) ? NULL
                                                        : ts_cpu_empty(TS_INT64, 1, &len, c->error);
            if (!z)
                return c->error->code;
            if (yes)
                *(int64_t *)ts_tensor_data(z) = 0;
            p->dims[p->n] = pos++;
            p->idx[p->n++] = z;
        } else if (mask) {
            if (add_mask(c->error, p, t, pos))
                return c->error->code;
            pos += t->dim;
        } else {
            return ts_error_set(c->error, TS_ERR_INDEX,
                                "tensors used as indices must be long, byte or bool tensors");
        }
    }
    if (pos > p->self->dim)
        return ts_error_set(c->error, TS_ERR_INDEX, "too many indices for tensor of dimension "
                            "%d (got %zu)", p->self->dim, l->len);
    return 0;
}

/* Broadcasts the index tensors, makes them contiguous int64 and wraps their values. */
static int plan_broadcast(TsError *err, IndexPlan *p)
{
    TsTensor *const *in = p->idx;
    TsError sub = TS_ERROR_INIT;
    if (ts_aten_broadcast_shape(p->n, in, &p->bdim, p->bsizes, &sub)) {
        char msg[1024];
        size_t len = 0;
        ts_error_clear(&sub);
        for (int k = 0; k < p->n && len < sizeof msg; k++) {
            char b[256];
            ts_aten_format_sizes(b, sizeof b, in[k]->dim, in[k]->sizes);
            len += (size_t)snprintf(msg + len, sizeof msg - len, "%s%s", k ? ", " : "", b);
        }
        return ts_error_set(err, TS_ERR_INDEX, "shape mismatch: indexing tensors could not be "
                            "broadcast together with shapes %s", msg);
    }
    ts_contiguous_strides(p->bdim, p->bsizes, p->bstrides);
    for (int k = 0; k < p->n; k++) {
        TsTensor *t = p->idx[k];
        int64_t st[TS_TENSOR_MAX_DIMS];
        for (int d = 0; d < p->bdim; d++) {
            int od = d - (p->bdim - t->dim);
            st[d] = od < 0 || t->sizes[od] != p->bsizes[d] ? 0 : t->strides[od];
        }
        TsTensor *v = ts_aten_view(t, p->bdim, p->bsizes, st, t->offset, err);
        TsTensor *w = v ? ts_cpu_cast(v, TS_INT64, err) : NULL;
        if (v)
            ts_tensor_release(v);
        if (!w)
            return err->code;
        ts_tensor_release(t);
        p->idx[k] = w;
        int64_t size = p->self->sizes[p->dims[k]], n = ts_tensor_numel(w);
        int64_t *vals = ts_tensor_data(w);
        for (int64_t i = 0; i < n; i++) {
            if (vals[i] < -size || vals[i] >= size)
                return ts_error_set(err, TS_ERR_INDEX, "index %lld is out of bounds for "
                                    "dimension %d with size %lld", (long long)vals[i], k,
                                    (long long)size);
            if (vals[i] < 0)
                vals[i] += size;
        }
    }
    return 0;
}

/* The result shape: the broadcast shape in place of adjacent indexed dims, else first. */
static int plan_shape(TsError *err, IndexPlan *p)
{
    const TsTensor *s = p->self;
    bool indexed[TS_TENSOR_MAX_DIMS] = { false }, adjacent = true;
    for (int k = 0; k < p->n; k++) {
        indexed[p->dims[k]] = true;
        if (k > 0 && p->dims[k] != p->dims[k - 1] + 1)
            adjacent = false;
    }
    if (s->dim - p->n + p->bdim > TS_TENSOR_MAX_DIMS)
        return ts_error_set(err, TS_ERR_LIMIT, "index: the result has more than %d dimensions",
                            TS_TENSOR_MAX_DIMS);
    int first = p->n && adjacent ? p->dims[0] : 0, n = 0;
    for (int d = 0; d < first; d++)
        p->src[n++] = d;
    for (int j = 0; p->n && j < p->bdim; j++)
        p->src[n++] = -1 - j;
    for (int d = first; d < s->dim; d++)
        if (!indexed[d])
            p->src[n++] = d;
    p->out_dim = n;
    for (int d = 0; d < n; d++)
        p->out_sizes[d] = p->src[d] >= 0 ? s->sizes[p->src[d]] : p->bsizes[-1 - p->src[d]];
    return 0;
}

/* The plan of self[indices], indices the Tensor?[] argument 1 of the kernel. */
static int plan_make(TsArgs *a, IndexPlan *p, TsTensor *self)
{
    TsError *err = a->call->error;
    memset(p, 0, sizeof *p);
    ts_tensor_retain(self);
    p->self = self;
    const TsList *l;
    if (ts_args_opt_tensor_list(a, 1, &l) || plan_indices(a, p, l) || plan_broadcast(err, p) ||
        plan_shape(err, p))
        return err->code;
    return 0;
}

/* aten::index.Tensor(Tensor self, Tensor?[] indices) -> Tensor */
static int k_index(TsCall *c)
{
    TsArgs a;
    IndexPlan p;
    TsTensor *t, *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc && !plan_make(&a, &p, t) &&
        (r = ts_cpu_empty(t->dtype, p.out_dim, p.out_sizes, c->error)) &&
        ts_tensor_numel(r) > 0) {
        size_t es = ts_dtype_size(t->dtype);
        const char *src = p.self->storage->data;
        char *dst = ts_tensor_data(r);
        int64_t idx[TS_TENSOR_MAX_DIMS] = { 0 };
        do {
            memcpy(dst, src + plan_offset(&p, idx) * (int64_t)es, es);
            dst += es;
        } while (ts_cpu_next_index(p.out_dim, p.out_sizes, idx));
    }
    if (!rc)
        plan_free(&p);
    return ts_args_return_tensor(&a, rc, r);
}

/* dst += src for one element of dtype (the accumulate of index_put_). */
static void accumulate(int dtype, char *dst, const char *src)
{
    switch (dtype) {
#define ACC(DT, T) \
    case DT: { \
        T x, y; \
        memcpy(&x, dst, sizeof x); \
        memcpy(&y, src, sizeof y); \
        x = (T)(x + y); \
        memcpy(dst, &x, sizeof x); \
        break; \
    }
    TS_ATEN_INT_DTYPES(ACC)
    TS_ATEN_FLOAT_DTYPES(ACC)
#undef ACC
    case TS_BOOL:
        *dst = *dst || *src;
        break;
    default:
        break;
    }
}

/* Writes (or adds) values into self at the positions of the kernel's indices (argument 1);
 * self is changed in place. */
static int index_put(TsArgs *a, TsTensor *self, TsTensor *values, bool acc)
{
    TsCall *c = a->call;
    IndexPlan p;
    if (values->dtype != self->dtype)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "Index put requires the source and "
                            "destination dtypes match, got %s for the destination and %s for "
                            "the source.", ts_dtype_type_name(self->dtype),
                            ts_dtype_type_name(values->dtype));
    if (acc && (self->dtype == TS_FLOAT16 || self->dtype == TS_BFLOAT16))
        return ts_error_set(c->error, TS_ERR_RUNTIME, "index_put_ with accumulate=True is not "
                            "supported for %s on the cpu backend", ts_dtype_name(self->dtype));
    if (plan_make(a, &p, self)) {
        plan_free(&p);
        return c->error->code;
    }
    /* values broadcast to the result shape, copied (they may alias self) */
    int64_t st[TS_TENSOR_MAX_DIMS];
    bool fits = values->dim <= p.out_dim;
    for (int d = 0; fits && d < p.out_dim; d++) {
        int od = d - (p.out_dim - values->dim);
        fits = od < 0 || values->sizes[od] == 1 || values->sizes[od] == p.out_sizes[d];
        st[d] = od < 0 || values->sizes[od] != p.out_sizes[d] ? 0 : values->strides[od];
    }
    if (!fits) {
        char b1[256], b2[256];
        ts_aten_format_sizes(b1, sizeof b1, values->dim, values->sizes);
        ts_aten_format_sizes(b2, sizeof b2, p.out_dim, p.out_sizes);
        plan_free(&p);
        return ts_error_set(c->error, TS_ERR_RUNTIME, "shape mismatch: value tensor of shape %s "
                            "cannot be broadcast to indexing result of shape %s", b1, b2);
    }
    TsTensor *v = ts_aten_view(values, p.out_dim, p.out_sizes, st, values->offset, c->error);
    TsTensor *vals = v ? ts_cpu_cast(v, self->dtype, c->error) : NULL;
    if (v)
        ts_tensor_release(v);
    if (vals && ts_tensor_numel(vals) > 0) {
        size_t es = ts_dtype_size(self->dtype);
        char *dst = p.self->storage->data;
        const char *src = ts_tensor_data(vals);
        int64_t idx[TS_TENSOR_MAX_DIMS] = { 0 };
        do {
            char *q = dst + plan_offset(&p, idx) * (int64_t)es;
            if (acc)
                accumulate(self->dtype, q, src);
            else
                memcpy(q, src, es);
            src += es;
        } while (ts_cpu_next_index(p.out_dim, p.out_sizes, idx));
    }
    plan_free(&p);
    if (!vals)
        return c->error->code;
    ts_tensor_release(vals);
    return 0;
}

/* aten::index_put_(Tensor(a!) self, Tensor?[] indices, Tensor values, bool accumulate=False)
 *     -> Tensor(a!) */
static int k_index_put_(TsCall *c)
{
    TsArgs a;
    TsTensor *t, *v;
    bool acc;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_tensor(&a, 2, &v);
    if (!rc) rc = ts_args_bool(&a, 3, &acc);
    if (!rc) rc = index_put(&a, t, v, acc);
    return ts_args_return_arg(&a, rc, 0);
}

/* aten::index_put(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False)
 *     -> Tensor */
static int k_index_put(TsCall *c)
{
    TsArgs a;
    TsTensor *t, *v, *r = NULL;
    bool acc;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_tensor(&a, 2, &v);
    if (!rc) rc = ts_args_bool(&a, 3, &acc);
    if (!rc && (r = ts_cpu_empty_like(t, t->dtype, c->error))) {
        ts_cpu_copy_into(r, t);
        rc = index_put(&a, r, v, acc);
    }
    return ts_args_return_tensor(&a, rc, r);
}

/* aten::gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor */
static int k_gather(TsCall *c)
{
    TsArgs a;
    int d;
    TsTensor *t, *ix, *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_tensor(&a, 2, &ix);
    if (!rc) rc = ts_args_dim(&a, 1, t->dim, true, &d);
    if (!rc) rc = ts_aten_check_gather(t, d, ix, c->error);
    if (rc)
        return ts_args_fail(&a, rc);
    if (!(r = ts_cpu_empty(t->dtype, ix->dim, ix->sizes, c->error)) || ts_tensor_numel(r) == 0)
        return ts_args_return_tensor(&a, 0, r);
    size_t es = ts_dtype_size(t->dtype);
    int64_t size = t->dim ? t->sizes[d] : 1, idx[TS_TENSOR_MAX_DIMS] = { 0 };
    const char *src = t->storage->data;
    char *dst = ts_tensor_data(r);
    const int64_t *ivals = ts_tensor_data(ix);
    do {
        int64_t ioff = 0, off = t->offset;
        for (int k = 0; k < ix->dim; k++)
            ioff += idx[k] * ix->strides[k];
        int64_t i = ivals[ioff];
        if (i < 0 || i >= size) {
            rc = ts_error_set(c->error, TS_ERR_RUNTIME, "index %lld is out of bounds for "
                              "dimension %d with size %lld", (long long)i, d, (long long)size);
            return ts_args_return_tensor(&a, rc, r);
        }
        for (int k = 0; k < t->dim; k++)
            off += (k == d ? i : idx[k]) * t->strides[k];
        memcpy(dst, src + off * (int64_t)es, es);
        dst += es;
    } while (ts_cpu_next_index(ix->dim, ix->sizes, idx));
    return ts_args_return_tensor(&a, 0, r);
}

/* aten::index_select(Tensor self, int dim, Tensor index) -> Tensor */
static int k_index_select(TsCall *c)
{
    TsArgs a;
    int d;
    TsTensor *t, *ix, *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_tensor(&a, 2, &ix);
    if (!rc) rc = ts_args_dim(&a, 1, t->dim, true, &d);
    int64_t sizes[TS_TENSOR_MAX_DIMS];
    if (!rc) rc = ts_aten_index_select_shape(t, d, ix, sizes, c->error);
    if (rc)
        return ts_args_fail(&a, rc);
    int64_t n = ts_tensor_numel(ix), size = t->dim ? t->sizes[d] : 1;
    if (!(r = ts_cpu_empty(t->dtype, t->dim, sizes, c->error)) || ts_tensor_numel(r) == 0)
        return ts_args_return_tensor(&a, 0, r);
    size_t es = ts_dtype_size(t->dtype);
    int64_t idx[TS_TENSOR_MAX_DIMS] = { 0 };
    const char *src = t->storage->data, *iv = ts_tensor_data(ix);
    int64_t istride = ix->dim ? ix->strides[0] : 0;
    /* check every index first: no partial result to undo */
    for (int64_t j = 0; j < n; j++) {
        int64_t i = ix->dtype == TS_INT64 ? ((const int64_t *)iv)[j * istride]
                                          : ((const int32_t *)iv)[j * istride];
        if (i < 0 || i >= size)
            return ts_args_return_tensor(&a, ts_error_set(c->error, TS_ERR_INDEX, "index out of "
                                                          "range in self"), r);
    }
    char *dst = ts_tensor_data(r);
    do {
        int64_t off = t->offset;
        for (int k = 0; k < t->dim; k++) {
            int64_t i = idx[k];
            if (k == d)
                i = ix->dtype == TS_INT64 ? ((const int64_t *)iv)[i * istride]
                                          : ((const int32_t *)iv)[i * istride];
            off += i * t->strides[k];
        }
        memcpy(dst, src + off * (int64_t)es, es);
        dst += es;
    } while (ts_cpu_next_index(r->dim, r->sizes, idx));
    return ts_args_return_tensor(&a, 0, r);
}

/* True when the element at p (of dtype) is nonzero (nan is). */
static bool nonzero_elem(int dtype, const char *p)
{
    if (dtype == TS_BOOL || ts_dtype_size(dtype) == 1)
        return *p != 0;
    return ts_cpu_load_double(dtype, p) != 0;
}

/* aten::masked_select(Tensor self, Tensor mask) -> Tensor */
static int k_masked_select(TsCall *c)
{
    TsArgs a;
    TsTensor *t, *m, *r = NULL;
    int64_t sizes[TS_TENSOR_MAX_DIMS], ms[TS_TENSOR_MAX_DIMS], ts[TS_TENSOR_MAX_DIMS];
    int dim;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_tensor(&a, 1, &m);
    if (!rc && m->dtype != TS_BOOL && m->dtype != TS_UINT8)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME,
                          "masked_select: expected BoolTensor or ByteTensor for mask");
    if (!rc) {
        TsTensor *pair[2] = { m, t };
        rc = ts_aten_broadcast_shape(2, pair, &dim, sizes, c->error);
    }
    if (rc)
        return ts_args_fail(&a, rc);
    for (int d = 0; d < dim; d++) {
        int om = d - (dim - m->dim), ot = d - (dim - t->dim);
        ms[d] = om < 0 || m->sizes[om] != sizes[d] ? 0 : m->strides[om];
        ts[d] = ot < 0 || t->sizes[ot] != sizes[d] ? 0 : t->strides[ot];
    }
    int64_t count = 0, idx[TS_TENSOR_MAX_DIMS] = { 0 }, total = 1;
    for (int d = 0; d < dim; d++)
        total *= sizes[d];
    const char *mp = ts_tensor_data(m), *tp = t->storage ? t->storage->data : NULL;
    if (total > 0)
        do {
            int64_t off = 0;
            for (int d = 0; d < dim; d++)
                off += idx[d] * ms[d];
            count += mp[off] != 0;
        } while (ts_cpu_next_index(dim, sizes, idx));
    if (!(r = ts_cpu_empty(t->dtype, 1, &count, c->error)) || count == 0)
        return ts_args_return_tensor(&a, 0, r);
    size_t es = ts_dtype_size(t->dtype);
    char *dst = ts_tensor_data(r);
    memset(idx, 0, sizeof idx);
    do {
        int64_t mo = 0, to = t->offset;
        for (int d = 0; d < dim; d++) {
            mo += idx[d] * ms[d];
            to += idx[d] * ts[d];
        }
        if (mp[mo]) {
            memcpy(dst, tp + to * (int64_t)es, es);
            dst += es;
        }
    } while (ts_cpu_next_index(dim, sizes, idx));
    return ts_args_return_tensor(&a, 0, r);
}

/* aten::nonzero(Tensor self) -> Tensor */
static int k_nonzero(TsCall *c)
{
    TsArgs a;
    TsTensor *t, *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (rc)
        return ts_args_fail(&a, rc);
    size_t es = ts_dtype_size(t->dtype);
    int64_t count = 0, idx[TS_TENSOR_MAX_DIMS] = { 0 }, numel = ts_tensor_numel(t);
    const char *base = ts_tensor_data(t);
    if (numel > 0)
        do {
            int64_t off = 0;
            for (int d = 0; d < t->dim; d++)
                off += idx[d] * t->strides[d];
            count += nonzero_elem(t->dtype, base + off * (int64_t)es);
        } while (ts_cpu_next_index(t->dim, t->sizes, idx));
    int64_t sizes[2] = { count, t->dim };
    if (!(r = ts_cpu_empty(TS_INT64, 2, sizes, c->error)) || count == 0)
        return ts_args_return_tensor(&a, 0, r);
    int64_t *out = ts_tensor_data(r);
    memset(idx, 0, sizeof idx);
    do {
        int64_t off = 0;
        for (int d = 0; d < t->dim; d++)
            off += idx[d] * t->strides[d];
        if (nonzero_elem(t->dtype, base + off * (int64_t)es))
            for (int d = 0; d < t->dim; d++)
                *out++ = idx[d];
    } while (ts_cpu_next_index(t->dim, t->sizes, idx));
    return ts_args_return_tensor(&a, 0, r);
}

static const TsCpuOp ops[] = {
    { "aten::index", "Tensor", k_index },
    { "aten::index_put_", "", k_index_put_ },
    { "aten::index_put", "", k_index_put },
    /* Tensor[] is a Tensor?[] without a None */
    { "aten::index", "Tensor_hacked_twin", k_index },
    { "aten::index_put_", "hacked_twin", k_index_put_ },
    { "aten::index_put", "hacked_twin", k_index_put },
    { "aten::gather", "", k_gather },
    { "aten::index_select", "", k_index_select },
    { "aten::masked_select", "", k_masked_select },
    { "aten::nonzero", "", k_nonzero },
    { "aten::argwhere", "", k_nonzero },
};

const TsCpuTable ts_cpu_index_table = { ops, sizeof ops / sizeof ops[0] };
