/* slice.c — parts of a tensor as views: slice, select, narrow, diagonal, and the ops that
 * cut a tensor into a list of views (unbind, split, split_with_sizes, chunk, tensor_split,
 * hsplit/vsplit/dsplit).
 *
 * Every part shares self's storage. Bounds are checked and clamped as PyTorch does, with its
 * messages.
 */
#include <stdio.h>
#include <stdlib.h>

#include "views.h"

/* The most pieces a tensor_split makes (each is a tensor object). */
enum { MAX_PIECES = 1 << 20 };

/* ---- one part ------------------------------------------------------------------------- */

/* Python's clamping of a slice bound into [0, size]. */
static int64_t slice_bound(int64_t b, int64_t size)
{
    if (b < 0)
        b = b < -size ? 0 : b + size;
    return b > size ? size : b;
}

/* aten::slice.Tensor(Tensor(a) self, int dim=0, SymInt? start=None, SymInt? end=None,
 *     SymInt step=1) -> Tensor(a) */
int ts_aten_k_slice(TsCall *c)
{
    TsArgs a;
    int64_t d64, step, start, end;
    bool has_start, has_end;
    int d;
    TsTensor *t, *r = NULL;
    int rc = ts_args_pop_same_device(c, &a);
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
        r = ts_aten_narrow(t, d, start, (end - start) / step + ((end - start) % step != 0), step,
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
    return ts_aten_view(t, n, sizes, strides, t->offset + i * t->strides[d], err);
}

/* aten::select.int(Tensor(a) self, int dim, int index) -> Tensor(a) */
int ts_aten_k_select(TsCall *c)
{
    TsArgs a;
    int64_t d64, i;
    int d;
    TsTensor *t, *r = NULL;
    int rc = ts_args_pop_same_device(c, &a);
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
    return ts_aten_narrow(t, d, s, length, 1, c->error);
}

/* aten::narrow(Tensor(a) self, int dim, int start, int length) -> Tensor(a). (narrow.Tensor,
 * whose start is a tensor, reads that tensor's element: a backend's kernel.) */
int ts_aten_k_narrow(TsCall *c)
{
    TsArgs a;
    int64_t d, start, length;
    TsTensor *t;
    int rc = ts_args_pop_same_device(c, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_int(&a, 1, &d);
    if (!rc) rc = ts_args_int(&a, 3, &length);
    if (!rc) rc = ts_args_int(&a, 2, &start);
    return ts_args_return_tensor(&a, rc, rc ? NULL : narrow_view(c, t, d, start, length));
}

/* aten::diagonal(Tensor(a) self, int offset=0, int dim1=0, int dim2=1) -> Tensor(a) */
int ts_aten_k_diagonal(TsCall *c)
{
    TsArgs a;
    int64_t off, x, y;
    int d1, d2;
    TsTensor *t;
    int rc = ts_args_pop_same_device(c, &a);
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
    return ts_args_return_tensor(&a, 0, ts_aten_view(t, n, sizes, strides, start, c->error));
}

/* ---- unbind, split, chunk --------------------------------------------------------------- */

/* aten::unbind.int(Tensor(a -> *) self, int dim=0) -> Tensor(a)[] */
int ts_aten_k_unbind(TsCall *c)
{
    TsArgs a;
    int d;
    TsTensor *t;
    TsList *l = NULL;
    int rc = ts_args_pop_same_device(c, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_dim(&a, 1, t->dim, false, &d);
    if (!rc) {
        l = ts_list_new(ts_type_tensor(), (size_t)t->sizes[d], c->error);
        for (int64_t i = 0; l && i < t->sizes[d]; i++)
            l = ts_aten_append_view(l, select_view(t, d, i, c->error), c->error);
    }
    return ts_args_return_list(&a, rc, l);
}

/* count views of t along d, every one size long but the last (the rest of the dim). */
static TsList *equal_parts(TsCall *c, const TsTensor *t, int d, int64_t count, int64_t size)
{
    int64_t dsize = t->sizes[d];
    TsList *l = ts_list_new(ts_type_tensor(), (size_t)count, c->error);
    for (int64_t i = 0; l && i < count; i++) {
        int64_t start = i * size;
        l = ts_aten_append_view(l, ts_aten_narrow(t, d, start, dsize - start < size ?
                                                  dsize - start : size, 1, c->error), c->error);
    }
    return l;
}

/* aten::split.Tensor(Tensor(a -> *) self, int split_size, int dim=0) -> Tensor(a)[] */
int ts_aten_k_split(TsCall *c)
{
    TsArgs a;
    int64_t size, d64;
    int d;
    TsTensor *t;
    TsList *l = NULL;
    int rc = ts_args_pop_same_device(c, &a);
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
        l = equal_parts(c, t, d, count < 1 ? 1 : count, size);
    }
    return ts_args_return_list(&a, 0, l);
}

/* split.sizes, split (int[]) and split_with_sizes:
 *     (Tensor(a -> *) self, int[] split_sizes, int dim=0) -> Tensor(a)[] */
int ts_aten_k_split_sizes(TsCall *c)
{
    enum { MAX_PARTS = 4096 };
    TsArgs a;
    int64_t *parts = NULL;
    int d, n;
    TsTensor *t;
    TsList *l = NULL;
    int rc = ts_args_pop_same_device(c, &a);
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
    else {
        l = ts_list_new(ts_type_tensor(), (size_t)n, c->error);
        int64_t start = 0;
        for (int i = 0; l && i < n; i++) {
            l = ts_aten_append_view(l, ts_aten_narrow(t, d, start, parts[i], 1, c->error),
                                    c->error);
            start += parts[i];
        }
    }
    free(parts);
    return ts_args_return_list(&a, 0, l);
}

/* aten::chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[] */
int ts_aten_k_chunk(TsCall *c)
{
    TsArgs a;
    TsTensor *t;
    TsList *l = NULL;
    int64_t chunks, d;
    int rc = ts_args_pop_same_device(c, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_int(&a, 1, &chunks);
    if (!rc) rc = ts_args_int(&a, 2, &d);
    if (rc)
        return ts_args_fail(&a, rc);
    int64_t n = t->dim;
    if (n == 0)
        ts_error_set(c->error, TS_ERR_RUNTIME, "chunk expects at least a 1-dimensional tensor");
    else if (chunks <= 0)
        ts_error_set(c->error, TS_ERR_RUNTIME,
                     "chunk expects `chunks` to be greater than 0, got: %lld", (long long)chunks);
    else if (d < -n || d >= n)
        ts_error_set(c->error, TS_ERR_INDEX, "Dimension out of range (expected to be in range "
                     "of [%lld, %lld], but got %lld)", (long long)-n, (long long)(n - 1),
                     (long long)d);
    else {
        if (d < 0)
            d += n;
        int64_t size = t->sizes[d], split = size / chunks + (size % chunks != 0);
        int64_t count = split == 0 ? chunks : size / split + (size % split != 0);
        l = equal_parts(c, t, (int)d, count < 1 ? 1 : count, split);
    }
    return ts_args_return_list(&a, 0, l);
}

/* ---- tensor_split and [hvd]split ---------------------------------------------------------- */

/* t[start:end] along d, with slice's clamping of the bounds. */
static TsTensor *slice_view(TsError *err, const TsTensor *t, int d, int64_t start, int64_t end)
{
    int64_t size = t->sizes[d];
    if (start < 0)
        start += size;
    if (end < 0)
        end += size;
    start = start < 0 ? 0 : start > size ? size : start;
    end = end < start ? start : end > size ? size : end;
    return ts_aten_narrow(t, d, start, end - start, 1, err);
}

/* sections pieces of nearly equal size (the first size % sections one longer). */
static TsList *split_sections(TsError *err, const TsTensor *t, int d, int64_t sections)
{
    if (sections <= 0) {
        ts_error_set(err, TS_ERR_RUNTIME, "number of sections must be larger than 0, got %lld",
                     (long long)sections);
        return NULL;
    }
    if (sections > MAX_PIECES) {
        ts_error_set(err, TS_ERR_LIMIT, "tensor_split: more than %d sections", MAX_PIECES);
        return NULL;
    }
    int64_t size = t->sizes[d], each = size / sections, extra = size % sections, start = 0;
    TsList *l = ts_list_new(ts_type_tensor(), (size_t)sections, err);
    for (int64_t i = 0; l && i < sections; i++) {
        int64_t len = each + (i < extra);
        l = ts_aten_append_view(l, slice_view(err, t, d, start, start + len), err);
        start += len;
    }
    return l;
}

/* The pieces between the given indices. */
static TsList *split_indices(TsError *err, const TsTensor *t, int d, int64_t n,
                             const int64_t *idx)
{
    TsList *l = ts_list_new(ts_type_tensor(), (size_t)n + 1, err);
    int64_t start = 0;
    for (int64_t i = 0; l && i < n; i++) {
        l = ts_aten_append_view(l, slice_view(err, t, d, start, idx[i]), err);
        start = idx[i];
    }
    return l ? ts_aten_append_view(l, slice_view(err, t, d, start, t->sizes[d]), err) : NULL;
}

/* The indices tensor of tensor_split, which PyTorch keeps on the cpu whatever self's
 * device: the one tensor these kernels read, in host memory. */
static int host_indices(TsArgs *a, size_t i, TsTensor **out)
{
    if (a->v[i].tag != TS_TAG_TENSOR ||
        ((const TsTensor *)a->v[i].u.p)->device.type == a->device_type)
        return ts_args_tensor(a, i, out);
    *out = (TsTensor *)a->v[i].u.p;
    if ((*out)->device.type == TS_DEV_CPU)
        return 0;
    char dev[32];
    ts_device_str((*out)->device, dev, sizeof dev);
    return ts_error_set(a->call->error, TS_ERR_RUNTIME, "tensor_split expected "
                        "tensor_indices_or_sections to be on cpu, but it's on %s", dev);
}

/* tensor_split(self, int sections | int[] indices | Tensor, int dim=0) */
static int tensor_split(TsCall *c, int form)
{
    enum { SECTIONS, INDICES, TENSOR };
    TsArgs a;
    int64_t sections = 0, idx[1024];
    int d, n = 0;
    TsTensor *t, *it = NULL;
    TsList *l = NULL;
    int rc = ts_args_pop_same_device(c, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc && form == TENSOR) rc = host_indices(&a, 1, &it);
    if (rc)
        return ts_args_fail(&a, rc);
    if (t->dim == 0)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "tensor_split expected at least a "
                          "1-dimensional tensor, but got a tensor with 0 dims");
    else if ((rc = ts_args_dim(&a, 2, t->dim, false, &d)))
        ;
    else if (form == SECTIONS)
        rc = ts_args_int(&a, 1, &sections);
    else if (form == INDICES)
        rc = ts_args_int_list(&a, 1, idx, &n, 1024);
    else if (it->dtype != TS_INT64)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "tensor_split expected "
                          "tensor_indices_or_sections to have dtype of long, but got %s",
                          ts_dtype_type_name(it->dtype));
    else if (it->dim > 1)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "tensor_split expected "
                          "tensor_indices_or_sections to be a zero-dimensional or one-dimensional "
                          "tensor, but got a tensor with %d dims", it->dim);
    else if (ts_tensor_numel(it) > 1024 && it->dim == 1)
        rc = ts_error_set(c->error, TS_ERR_LIMIT, "tensor_split: more than 1024 indices");
    if (!rc && form == TENSOR) {
        const int64_t *v = (const int64_t *)it->storage->data;
        if (it->dim == 0) {
            sections = v[it->offset];
        } else {
            n = (int)it->sizes[0];
            for (int i = 0; i < n; i++)
                idx[i] = v[it->offset + i * it->strides[0]];
        }
    }
    if (!rc)
        l = form == SECTIONS || (form == TENSOR && it->dim == 0)
                ? split_sections(c->error, t, d, sections)
                : split_indices(c->error, t, d, n, idx);
    return ts_args_return_list(&a, rc, l);
}

int ts_aten_k_tensor_split_sections(TsCall *c) { return tensor_split(c, 0); }
int ts_aten_k_tensor_split_indices(TsCall *c) { return tensor_split(c, 1); }
int ts_aten_k_tensor_split_tensor(TsCall *c) { return tensor_split(c, 2); }

/* hsplit/vsplit/dsplit(self, int sections | int[] indices): tensor_split along dim 1 (0 for
 * 1-d hsplit), 0 or 2, with sections that must divide the dim. */
static int nsplit(TsCall *c, char which, bool indices)
{
    char name[16];
    TsArgs a;
    int64_t sections = 0, idx[1024];
    int n = 0;
    TsTensor *t;
    TsList *l = NULL;
    snprintf(name, sizeof name, "torch.%csplit", which);
    int rc = ts_args_pop_same_device(c, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (rc)
        return ts_args_fail(&a, rc);
    int need = which == 'h' ? 1 : which == 'v' ? 2 : 3;
    int d = which == 'h' ? (t->dim == 1 ? 0 : 1) : which == 'v' ? 0 : 2;
    if (t->dim < need)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "%s requires a tensor with at least %d "
                          "dimension, but got a tensor with %d dimensions!", name, need, t->dim);
    else if (indices)
        rc = ts_args_int_list(&a, 1, idx, &n, 1024);
    else if ((rc = ts_args_int(&a, 1, &sections)))
        ;
    else if (sections == 0 || t->sizes[d] % sections != 0)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "%s attempted to split along dimension %d, "
                          "but the size of the dimension %lld is not divisible by the split_size "
                          "%lld!", name, d, (long long)t->sizes[d], (long long)sections);
    if (!rc)
        l = indices ? split_indices(c->error, t, d, n, idx)
                    : split_sections(c->error, t, d, sections);
    return ts_args_return_list(&a, rc, l);
}

int ts_aten_k_hsplit_int(TsCall *c) { return nsplit(c, 'h', false); }
int ts_aten_k_hsplit_array(TsCall *c) { return nsplit(c, 'h', true); }
int ts_aten_k_vsplit_int(TsCall *c) { return nsplit(c, 'v', false); }
int ts_aten_k_vsplit_array(TsCall *c) { return nsplit(c, 'v', true); }
int ts_aten_k_dsplit_int(TsCall *c) { return nsplit(c, 'd', false); }
int ts_aten_k_dsplit_array(TsCall *c) { return nsplit(c, 'd', true); }
