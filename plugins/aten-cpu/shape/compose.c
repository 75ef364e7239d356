/* compose.c — ops PyTorch builds from others, built here the same way from aten-cpu's own
 * kernels (through ts_cpu_call_kernel): flipud/fliplr and rot90 (flip, transpose), tile
 * (repeat), vstack/row_stack/hstack/dstack/column_stack (atleast_Nd, cat), diff (narrow,
 * sub), trace (diagonal, sum); and three that make new tensors directly: tril_indices/
 * triu_indices, diag_embed and diag.
 *
 * Composing keeps the callee's checks, dtype rules and messages (cat's promotion for the
 * stacks and diff's prepend/append, sum's int64 for trace) without copies of their code.
 */
#include <stdlib.h>
#include <string.h>

#include "reduce/reduce.h"
#include "shape/shape_ops.h"

/* A new reference to t as a value. */
static TsValue tval(TsTensor *t)
{
    ts_tensor_retain(t);
    return ts_obj_value(t, TS_TAG_TENSOR);
}

static TsTensor *flip(TsCall *c, TsTensor *t, int n, const int64_t *dims)
{
    TsValue a[2] = { tval(t), ts_cpu_int_list(c->error, n, dims) };
    if (a[1].tag == TS_TAG_NONE) {
        ts_value_release(a[0]);
        return NULL;
    }
    return ts_cpu_call_tensor(c, &ts_cpu_join_table, "aten::flip", "", 2, a);
}

/* ---- flips and rotations ---------------------------------------------------------------- */

static int flip_lr_ud(TsCall *c, int min_dim)
{
    TsArgs a;
    TsTensor *t, *r = NULL;
    int64_t d = min_dim - 1;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc && t->dim < min_dim)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Input must be >= %d-d.", min_dim);
    else if (!rc)
        r = flip(c, t, 1, &d);
    return ts_args_return_tensor(&a, rc, r);
}

static int k_flipud(TsCall *c) { return flip_lr_ud(c, 1); }
static int k_fliplr(TsCall *c) { return flip_lr_ud(c, 2); }

/* rot90(Tensor self, int k=1, int[] dims=[0, 1]): k quarter turns from dims[0] toward
 * dims[1], as flips and a transpose. */
static int rot90(TsCall *c, bool out)
{
    TsArgs a;
    int64_t k, dims[TS_TENSOR_MAX_DIMS];
    int nd;
    TsTensor *t, *o, *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc && out) rc = ts_args_tensor(&a, 3, &o);
    if (!rc) rc = ts_args_int(&a, 1, &k);
    if (!rc) rc = ts_args_int_list(&a, 2, dims, &nd, TS_TENSOR_MAX_DIMS);
    if (rc)
        return ts_args_fail(&a, rc);
    int64_t rank = t->dim;
    if (nd != 2)
        ts_error_set(c->error, TS_ERR_RUNTIME, "expected total rotation dims == 2, but got dims "
                     "= %d", nd);
    else if (rank < 2)
        ts_error_set(c->error, TS_ERR_RUNTIME, "expected total dims >= 2, but got total dims = "
                     "%lld", (long long)rank);
    else if (dims[0] == dims[1] || llabs(dims[0] - dims[1]) == rank)
        ts_error_set(c->error, TS_ERR_RUNTIME, "expected rotation dims to be different, but got "
                     "dim0 = %lld and dim1 = %lld", (long long)dims[0], (long long)dims[1]);
    else if (dims[0] >= rank || dims[0] < -rank)
        ts_error_set(c->error, TS_ERR_RUNTIME, "Rotation dim0 out of range, dim0 = %lld",
                     (long long)dims[0]);
    else if (dims[1] >= rank || dims[1] < -rank)
        ts_error_set(c->error, TS_ERR_RUNTIME, "Rotation dim1 out of range, dim1 = %lld",
                     (long long)dims[1]);
    else {
        k = ((k % 4) + 4) % 4;
        if (k == 0) {
            TsValue ca[2] = { tval(t), ts_none() };
            r = ts_cpu_call_tensor(c, &ts_cpu_copy_table, "aten::clone", "", 2, ca);
        } else if (k == 2) {
            r = flip(c, t, 2, dims);
        } else {
            TsTensor *f = flip(c, t, 1, &dims[k == 1 ? 1 : 0]);
            if (f) {
                TsValue ta[3] = { ts_obj_value(f, TS_TAG_TENSOR), ts_int(dims[0]),
                                  ts_int(dims[1]) };
                r = ts_cpu_call_tensor(c, &ts_aten_view_table, "aten::transpose", "int", 3, ta);
            }
        }
    }
    return ts_cpu_return_out(&a, 0, r, out);
}

static int k_rot90(TsCall *c) { return rot90(c, false); }
static int k_rot90_out(TsCall *c) { return rot90(c, true); }

/* tile(Tensor self, int[] dims): repeat, with dims padded by leading ones to self's rank. */
static int k_tile(TsCall *c)
{
    TsArgs a;
    int64_t dims[TS_TENSOR_MAX_DIMS];
    int nd;
    TsTensor *t, *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_int_list(&a, 1, dims, &nd, TS_TENSOR_MAX_DIMS);
    if (!rc) {
        int pad = t->dim > nd ? t->dim - nd : 0;
        memmove(dims + pad, dims, sizeof dims[0] * (size_t)nd);
        for (int i = 0; i < pad; i++)
            dims[i] = 1;
        TsValue ra[2] = { tval(t), ts_cpu_int_list(c->error, nd + pad, dims) };
        if (ra[1].tag == TS_TAG_NONE)
            ts_value_release(ra[0]);
        else
            r = ts_cpu_call_tensor(c, &ts_cpu_join_table, "aten::repeat", "", 2, ra);
    }
    return ts_args_return_tensor(&a, rc, r);
}

/* ---- stacks ------------------------------------------------------------------------------- */

typedef enum Stack { ST_V, ST_H, ST_D, ST_COLUMN } Stack;

/* The tensors of the kernel's Tensor[] argument 0 as stack kind needs them (atleast_Nd
 * views, or columns), catted; name is PyTorch's for its messages. */
static TsTensor *stack_tensors(TsArgs *a, Stack kind, const char *name)
{
    TsCall *c = a->call;
    const TsList *in;
    if (ts_args_tensor_list(a, 0, &in))
        return NULL;
    if (in->len == 0) {
        ts_error_set(c->error, TS_ERR_RUNTIME, "%s expects a non-empty TensorList", name);
        return NULL;
    }
    TsValue parts;
    if (kind == ST_COLUMN) {
        TsList *l = ts_list_new(ts_type_tensor(), in->len, c->error);
        for (size_t i = 0; l && i < in->len; i++) {
            TsTensor *t = (TsTensor *)in->items[i].u.p, *v;
            int64_t sizes[2] = { ts_tensor_numel(t), 1 };
            if (t->dim > 1) {
                ts_tensor_retain(t);
                v = t;
            } else {
                int64_t strides[2] = { t->dim ? t->strides[0] : 1, 1 };
                v = ts_aten_view(t, 2, sizes, strides, t->offset, c->error);
            }
            if (!v || ts_list_append(l, ts_obj_value(v, TS_TAG_TENSOR), c->error)) {
                ts_heap_release(&l->h);
                l = NULL;
            }
        }
        if (!l)
            return NULL;
        parts = ts_obj_value(l, TS_TAG_LIST);
    } else {
        static const char *const atleast[] = { "aten::atleast_2d", "aten::atleast_1d",
                                               "aten::atleast_3d" };
        TsValue arg = a->v[0];
        ts_value_retain(arg);
        if (ts_cpu_call_kernel(c, &ts_aten_view_table, atleast[kind], "Sequence", 1, &arg,
                               &parts))
            return NULL;
    }
    const TsList *pl = (const TsList *)parts.u.p;
    int64_t dim = kind == ST_V ? 0 : kind == ST_D ? 2 : 1;
    if (kind == ST_H && ((const TsTensor *)pl->items[0].u.p)->dim == 1)
        dim = 0;
    TsValue ca[2] = { parts, ts_int(dim) };
    return ts_cpu_call_tensor(c, &ts_cpu_join_table, "aten::cat", "", 2, ca);
}

static int stack_kernel(TsCall *c, Stack kind, const char *name, bool out)
{
    TsArgs a;
    TsTensor *o = NULL, *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc && out) rc = ts_args_tensor(&a, 1, &o);
    if (!rc && !(r = stack_tensors(&a, kind, name)))
        rc = c->error->code;
    if (!rc && o && !ts_aten_can_cast(r->dtype, o->dtype))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "torch.cat(): input types can't be cast to "
                          "the desired output type %s", ts_dtype_type_name(o->dtype));
    return ts_cpu_return_out(&a, rc, r, out);
}

static int k_vstack(TsCall *c) { return stack_kernel(c, ST_V, "vstack", false); }
static int k_vstack_out(TsCall *c) { return stack_kernel(c, ST_V, "vstack", true); }
static int k_row_stack(TsCall *c) { return stack_kernel(c, ST_V, "row_stack", false); }
static int k_row_stack_out(TsCall *c) { return stack_kernel(c, ST_V, "row_stack", true); }
static int k_hstack(TsCall *c) { return stack_kernel(c, ST_H, "hstack", false); }
static int k_hstack_out(TsCall *c) { return stack_kernel(c, ST_H, "hstack", true); }
static int k_dstack(TsCall *c) { return stack_kernel(c, ST_D, "dstack", false); }
static int k_dstack_out(TsCall *c) { return stack_kernel(c, ST_D, "dstack", true); }
static int k_column_stack(TsCall *c) { return stack_kernel(c, ST_COLUMN, "column_stack", false); }
static int k_column_stack_out(TsCall *c)
{
    return stack_kernel(c, ST_COLUMN, "column_stack", true);
}

/* ---- diff --------------------------------------------------------------------------------- */

/* t[start:start+len] along d (bounds known to be valid). */
static TsTensor *narrow(TsError *err, const TsTensor *t, int d, int64_t start, int64_t len)
{
    return ts_aten_narrow(t, d, start, len, 1, err);
}

/* prepend or append checked against self, as diff requires. */
static int diff_part_check(TsError *err, const TsTensor *self, const TsTensor *p, int d)
{
    if (p->dim != self->dim)
        return ts_error_set(err, TS_ERR_RUNTIME, "diff expects prepend or append to be the same "
                            "dimension as input");
    for (int k = 0; k < self->dim; k++)
        if (k != d && p->sizes[k] != self->sizes[k])
            return ts_error_set(err, TS_ERR_RUNTIME, "diff expects the shape of tensor to prepend "
                                "or append to match that of input except along the differencing "
                                "dimension; input.size(%d) = %lld, but got tensor.size(%d) = "
                                "%lld", k, (long long)self->sizes[k], k, (long long)p->sizes[k]);
    return 0;
}

/* diff(Tensor self, int n=1, int dim=-1, Tensor? prepend=None, Tensor? append=None) */
static int diff(TsCall *c, bool out)
{
    TsArgs a;
    int64_t order;
    int d;
    TsTensor *t, *o, *r = NULL, *pre = NULL, *app = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc && out) rc = ts_args_tensor(&a, 5, &o);
    if (!rc) rc = ts_args_opt_tensor(&a, 3, &pre);
    if (!rc) rc = ts_args_opt_tensor(&a, 4, &app);
    if (!rc && t->dim == 0)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "diff expects input to be at least "
                          "one-dimensional");
    if (!rc) rc = ts_args_int(&a, 1, &order);
    if (!rc) rc = ts_args_dim(&a, 2, t->dim, false, &d);
    if (!rc && pre) rc = diff_part_check(c->error, t, pre, d);
    if (!rc && app) rc = diff_part_check(c->error, t, app, d);
    if (rc)
        return ts_args_fail(&a, rc);
    if (pre || app) {
        TsList *l = ts_list_new(ts_type_tensor(), 3, c->error);
        TsTensor *parts[3] = { pre, t, app };
        for (int i = 0; l && i < 3; i++)
            if (parts[i] && ts_list_append(l, tval(parts[i]), c->error)) {
                ts_heap_release(&l->h);
                l = NULL;
            }
        TsValue ca[2] = { l ? ts_obj_value(l, TS_TAG_LIST) : ts_none(), ts_int(d) };
        r = l ? ts_cpu_call_tensor(c, &ts_cpu_join_table, "aten::cat", "", 2, ca) : NULL;
    } else {
        TsValue ca[2] = { tval(t), ts_none() };
        r = ts_cpu_call_tensor(c, &ts_cpu_copy_table, "aten::clone", "", 2, ca);
    }
    /* bools differ by `!=` (PyTorch's logical_xor); the rest subtract */
    for (int64_t i = 0; r && i < order && r->sizes[d] > 0; i++) {
        int64_t len = r->sizes[d] - 1;
        TsTensor *hi = narrow(c->error, r, d, 1, len), *lo = hi ? narrow(c->error, r, d, 0, len)
                                                               : NULL;
        ts_tensor_release(r);
        r = NULL;
        if (!lo) {
            if (hi)
                ts_tensor_release(hi);
            break;
        }
        bool is_bool = hi->dtype == TS_BOOL;
        TsValue sa[3] = { ts_obj_value(hi, TS_TAG_TENSOR), ts_obj_value(lo, TS_TAG_TENSOR),
                          ts_int(1) };
        r = ts_cpu_call_tensor(c, &ts_cpu_binary_table, is_bool ? "aten::ne" : "aten::sub",
                               "Tensor", is_bool ? 2 : 3, sa);
    }
    return ts_cpu_return_out(&a, 0, r, out);
}

static int k_diff(TsCall *c) { return diff(c, false); }
static int k_diff_out(TsCall *c) { return diff(c, true); }

/* ---- trace -------------------------------------------------------------------------------- */

/* trace(Tensor self): the sum of the main diagonal (integers sum to int64). */
static int trace(TsCall *c, bool out)
{
    TsArgs a;
    TsTensor *t, *o, *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc && out) rc = ts_args_tensor(&a, 1, &o);
    if (!rc && t->dim != 2) {
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "trace: expected a matrix, but got tensor "
                          "with dim %d", t->dim);
    } else if (!rc && t->dtype == TS_BOOL) {
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "\"trace\" not implemented for 'Bool'");
    } else if (!rc) {
        int64_t len = t->sizes[0] < t->sizes[1] ? t->sizes[0] : t->sizes[1];
        int64_t stride = t->strides[0] + t->strides[1];
        TsTensor *diag = ts_aten_view(t, 1, &len, &stride, t->offset, c->error);
        if (diag) {
            TsValue sa[2] = { ts_obj_value(diag, TS_TAG_TENSOR), ts_none() };
            r = ts_cpu_call_tensor(c, &ts_cpu_reduce_table, "aten::sum", "", 2, sa);
        }
    }
    return ts_cpu_return_out(&a, rc, r, out);
}

static int k_trace(TsCall *c) { return trace(c, false); }
static int k_trace_out(TsCall *c) { return trace(c, true); }

/* ---- tril_indices, triu_indices ------------------------------------------------------------- */

/* Row i of the lower triangle (j - i <= k) of a rows x cols matrix holds columns
 * [0, clamp(i + k + 1, 0, cols)). With s = k + 1, rows before a = clamp(1 - s) hold none,
 * rows from b = clamp(cols - s) on hold every column, and the rows between hold i + s: the
 * count is an arithmetic series plus a rectangle, in closed form (a matrix of 2**62 rows
 * answers at once). 128-bit arithmetic: no term can overflow, whatever the offset. */
typedef __int128 Wide;

static Wide clamp_wide(Wide v, Wide lo, Wide hi) { return v < lo ? lo : v > hi ? hi : v; }

static void lower_rows(int64_t rows, int64_t cols, Wide k, Wide *a, Wide *b)
{
    Wide s = k + 1;
    *a = clamp_wide(1 - s, 0, rows);
    *b = clamp_wide(cols - s, *a, rows);
}

static Wide lower_count(int64_t rows, int64_t cols, Wide k)
{
    Wide a, b;
    lower_rows(rows, cols, k, &a, &b);
    Wide s = k + 1, n = b - a;
    return n * (a + s + b - 1 + s) / 2 + (rows - b) * cols;
}

/* The [2, count] coordinates (row-major) of a row x col matrix's lower (j - i <= offset) or
 * upper (j - i >= offset) triangle, as int64 or int32. The upper triangle is what the lower
 * one of offset - 1 leaves. */
static TsTensor *tri_indices(TsError *err, const char *name, int64_t row, int64_t col,
                             int64_t offset, int dtype, bool lower)
{
    if (row < 0 || col < 0) {
        ts_error_set(err, TS_ERR_RUNTIME, "%s must be non-negative, got%lld", row < 0 ? "row" :
                     "col", (long long)(row < 0 ? row : col));
        return NULL;
    }
    if (!ts_dtype_is_integral(dtype, false)) {
        ts_error_set(err, TS_ERR_RUNTIME, "\"%s\" not implemented for '%s'", name,
                     ts_dtype_type_name(dtype));
        return NULL;
    }
    Wide count = lower ? lower_count(row, col, offset)
                       : (Wide)row * col - lower_count(row, col, (Wide)offset - 1);
    if (count > INT64_MAX) {
        ts_error_set(err, TS_ERR_RUNTIME, "%s: the triangle of a %lld x %lld matrix at offset "
                     "%lld has more than 2**63 - 1 elements", name, (long long)row,
                     (long long)col, (long long)offset);
        return NULL;
    }
    int64_t sizes[2] = { 2, (int64_t)count };
    TsTensor *r = ts_cpu_empty(dtype, 2, sizes, err);
    if (!r || count == 0)
        return r;
    char *p = ts_tensor_data(r);
    size_t es = ts_dtype_size(dtype);
    /* only the rows that hold elements: at most count of them */
    Wide first, last;
    if (lower)
        lower_rows(row, col, offset, &first, &last), last = row;
    else
        first = 0, last = clamp_wide((Wide)col - offset, 0, row);
    int64_t k = 0;
    for (int64_t i = (int64_t)first; i < (int64_t)last; i++) {
        int64_t lo = lower ? 0 : (int64_t)clamp_wide((Wide)i + offset, 0, col);
        int64_t hi = lower ? (int64_t)clamp_wide((Wide)i + offset + 1, 0, col) : col;
        for (int64_t j = lo; j < hi; j++, k++) {
            ts_cpu_store_double(dtype, p + (size_t)k * es, (double)i);
            ts_cpu_store_double(dtype, p + (size_t)(count + k) * es, (double)j);
        }
    }
    return r;
}

/* A ScalarType? argument (-1 for None) of a dtype the cpu backend has. */
static int cpu_dtype(TsArgs *a, size_t i, int *dtype)
{
    int rc = ts_args_opt_dtype(a, i, dtype);
    return rc || *dtype < 0 ? rc : ts_cpu_check_dtype(*dtype, a->call->error);
}

/* tril_indices(int row, int col, int offset=0, *, ScalarType? dtype=4, Layout?, Device?,
 * bool? pin_memory) and its out= form (int row, int col, int offset=0, *, Tensor(a!) out). */
static int tri_kernel(TsCall *c, bool lower, bool out)
{
    const char *name = lower ? "tril_indices" : "triu_indices";
    TsArgs a;
    int64_t row, col, offset;
    int dtype = TS_INT64;
    TsTensor *r = NULL, *o = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_int(&a, 0, &row);
    if (!rc) rc = ts_args_int(&a, 1, &col);
    if (!rc) rc = ts_args_int(&a, 2, &offset);
    if (!rc) rc = out ? ts_args_tensor(&a, 3, &o) : cpu_dtype(&a, 3, &dtype);
    if (!rc) {
        if (o)
            dtype = o->dtype;
        r = tri_indices(c->error, name, row, col, offset, dtype < 0 ? TS_INT64 : dtype, lower);
    }
    return ts_cpu_return_out(&a, rc, r, out);
}

static int k_tril_indices(TsCall *c) { return tri_kernel(c, true, false); }
static int k_tril_indices_out(TsCall *c) { return tri_kernel(c, true, true); }
static int k_triu_indices(TsCall *c) { return tri_kernel(c, false, false); }
static int k_triu_indices_out(TsCall *c) { return tri_kernel(c, false, true); }

/* ---- diag_embed --------------------------------------------------------------------------- */

/* Zeros with t's last dim on the offset diagonal of the new dims d1 and d2 (wrapped, and
 * different) of a result with one dim more than t. */
static TsTensor *embed(TsError *err, const TsTensor *t, int64_t offset, int d1, int d2)
{
    /* a 0-dim t cannot get here: its two dims would both wrap to 0 */
    if (t->dim < 1 || t->dim + 1 > TS_TENSOR_MAX_DIMS) {
        ts_error_set(err, TS_ERR_LIMIT, "diag_embed: %d dimensions", t->dim);
        return NULL;
    }
    int nd = t->dim + 1, lo = d1 < d2 ? d1 : d2, hi = d1 < d2 ? d2 : d1;
    int64_t len = t->sizes[t->dim - 1], size;
    uint64_t mag = offset < 0 ? 0 - (uint64_t)offset : (uint64_t)offset;
    /* PyTorch's message where its own size arithmetic overflows (diag(x, 2**63-1)) */
    if (mag > (uint64_t)(INT64_MAX - len)) {
        ts_error_set(err, TS_ERR_RUNTIME, "numel: integer multiplication overflow");
        return NULL;
    }
    size = len + (int64_t)mag;
    int64_t sizes[TS_TENSOR_MAX_DIMS] = { 0 };
    for (int k = 0, j = 0; k < nd; k++)
        sizes[k] = k == lo || k == hi ? size : t->sizes[j++];
    TsTensor *r = ts_cpu_empty(t->dtype, nd, sizes, err);
    if (!r)
        return NULL;
    memset(ts_tensor_data(r), 0, (size_t)ts_tensor_numel(r) * ts_dtype_size(t->dtype));
    /* the diagonal view of r: its other dims in order, then the diagonal */
    int64_t vs[TS_TENSOR_MAX_DIMS], vst[TS_TENSOR_MAX_DIMS];
    for (int k = 0, j = 0; k < nd; k++)
        if (k != lo && k != hi) {
            vs[j] = sizes[k];
            vst[j++] = r->strides[k];
        }
    vs[t->dim - 1] = len;
    vst[t->dim - 1] = r->strides[d1] + r->strides[d2];
    int64_t start = offset >= 0 ? offset * r->strides[d2] : -offset * r->strides[d1];
    TsTensor *view = ts_aten_view(r, t->dim, vs, vst, start, err);
    if (!view) {
        ts_tensor_release(r);
        return NULL;
    }
    if (len > 0)
        ts_cpu_copy_into(view, t);
    ts_tensor_release(view);
    return r;
}

/* diag_embed(Tensor self, int offset=0, int dim1=-2, int dim2=-1) */
static int diag_embed(TsCall *c, bool out)
{
    TsArgs a;
    int64_t offset, x, y;
    int d1, d2;
    TsTensor *t, *o, *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc && out) rc = ts_args_tensor(&a, 4, &o);
    if (!rc) rc = ts_args_int(&a, 1, &offset);
    if (!rc) rc = ts_args_int(&a, 2, &x);
    if (!rc) rc = ts_args_int(&a, 3, &y);
    if (!rc) rc = ts_aten_wrap_dim(x, (int64_t)t->dim + 1, false, &d1, c->error);
    if (!rc) rc = ts_aten_wrap_dim(y, (int64_t)t->dim + 1, false, &d2, c->error);
    if (!rc && d1 == d2)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "diagonal dimensions cannot be identical "
                          "%lld, %lld", (long long)x, (long long)y);
    else if (!rc)
        r = embed(c->error, t, offset, d1, d2);
    return ts_cpu_return_out(&a, rc, r, out);
}

/* diag(Tensor self, int diagonal=0): a vector's matrix, or a copy of a matrix's diagonal. */
static int diag(TsCall *c, bool out)
{
    TsArgs a;
    int64_t offset;
    TsTensor *t, *o, *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc && out) rc = ts_args_tensor(&a, 2, &o);
    if (!rc) rc = ts_args_int(&a, 1, &offset);
    if (rc)
        return ts_args_fail(&a, rc);
    if (t->dim == 1) {
        r = embed(c->error, t, offset, 0, 1);
    } else if (t->dim == 2) {
        int64_t rows = t->sizes[0], cols = t->sizes[1];
        int64_t len = offset >= 0 ? (rows < cols - offset ? rows : cols - offset)
                                  : (rows + offset < cols ? rows + offset : cols);
        int64_t stride = t->strides[0] + t->strides[1];
        TsTensor *v = NULL;
        /* PyTorch 1.13 gives this odd message for a diagonal past the matrix */
        if (len < 0)
            ts_error_set(c->error, TS_ERR_RUNTIME, "numel: integer multiplication overflow");
        else if (len == 0)
            r = ts_cpu_empty(t->dtype, 1, &len, c->error);
        /* the diagonal starts inside the matrix (|offset| < rows or cols): no overflow */
        else if ((v = ts_aten_view(t, 1, &len, &stride,
                                  t->offset + (offset >= 0 ? offset * t->strides[1]
                                                           : -offset * t->strides[0]),
                                  c->error)))
            r = ts_cpu_cast(v, t->dtype, c->error);
        if (v)
            ts_tensor_release(v);
    } else {
        ts_error_set(c->error, TS_ERR_RUNTIME, "matrix or a vector expected");
    }
    return ts_cpu_return_out(&a, 0, r, out);
}

static int k_diag(TsCall *c) { return diag(c, false); }
static int k_diag_out(TsCall *c) { return diag(c, true); }

static int k_diag_embed(TsCall *c) { return diag_embed(c, false); }
static int k_diag_embed_out(TsCall *c) { return diag_embed(c, true); }

static const TsCpuOp ops[] = {
    { "aten::flipud", "", k_flipud },
    { "aten::fliplr", "", k_fliplr },
    { "aten::rot90", "", k_rot90 },
    { "aten::rot90", "out", k_rot90_out },
    { "aten::tile", "", k_tile },
    { "aten::vstack", "", k_vstack },
    { "aten::vstack", "out", k_vstack_out },
    { "aten::row_stack", "", k_row_stack },
    { "aten::row_stack", "out", k_row_stack_out },
    { "aten::hstack", "", k_hstack },
    { "aten::hstack", "out", k_hstack_out },
    { "aten::dstack", "", k_dstack },
    { "aten::dstack", "out", k_dstack_out },
    { "aten::column_stack", "", k_column_stack },
    { "aten::column_stack", "out", k_column_stack_out },
    { "aten::diff", "", k_diff },
    { "aten::diff", "out", k_diff_out },
    { "aten::trace", "", k_trace },
    { "aten::trace", "out", k_trace_out },
    { "aten::tril_indices", "", k_tril_indices },
    { "aten::tril_indices", "out", k_tril_indices_out },
    { "aten::triu_indices", "", k_triu_indices },
    { "aten::triu_indices", "out", k_triu_indices_out },
    { "aten::diag_embed", "", k_diag_embed },
    { "aten::diag_embed", "out", k_diag_embed_out },
    { "aten::diag", "", k_diag },
    { "aten::diag", "out", k_diag_out },
};

const TsCpuTable ts_cpu_compose_table = { ops, sizeof ops / sizeof ops[0] };
