/* shape_views.c — shape_prop's rules for operators that rearrange a tensor's dimensions
 * (view, reshape, flatten, squeeze, unsqueeze, permute, transpose, t, expand, select,
 * slice, cat, stack, to), for matrix products (mm, bmm, matmul, addmm, linear, dot, mv)
 * and for conv2d and max_pool2d.
 *
 * Each states the output's rank and sizes as PyTorch computes them (sizes of unknown
 * inputs stay unknown), with the input's dtype and device unless the operator says
 * otherwise. Nothing here states strides: a view's strides depend on its input's.
 */
#include <string.h>

#include "ir/passes/shape.h"
#include "registry/optable.h"

static bool is(const TsNode *n, const char *kind) { return strcmp(n->kind, kind) == 0; }

static bool tensor_in(const TsNode *n, size_t i)
{
    return i < n->n_inputs && ts_shape_is_tensor(n->inputs[i]);
}

/* numel of s, or -1 when a size (or the rank) is unknown */
static int64_t numel(const TsShape *s)
{
    if (s->dim < 0)
        return -1;
    int64_t m = 1;
    for (int i = 0; i < s->dim; i++) {
        if (s->sizes[i] < 0 || (s->sizes[i] && m > INT64_MAX / s->sizes[i]))
            return -1;
        m *= s->sizes[i];
    }
    return m;
}

/* view(self, size) / reshape: the list's length is the rank; one -1 is inferred */
static void view_shape(const TsShape *self, const TsIrValue *sizes, TsShape *out)
{
    int64_t v[TS_SHAPE_MAX_DIMS];
    bool known[TS_SHAPE_MAX_DIMS];
    int n;
    if (!ts_shape_int_list(sizes, v, known, &n))
        return;
    out->dim = n;
    int infer = -1;
    int64_t rest = 1;
    bool all = true;
    for (int i = 0; i < n; i++) {
        out->sizes[i] = known[i] && v[i] >= 0 ? v[i] : -1;
        all &= known[i];
        if (known[i] && v[i] == -1)
            infer = infer < 0 ? i : -2;
        else if (known[i] && v[i] >= 0 && rest >= 0 && (v[i] == 0 || rest <= INT64_MAX / v[i]))
            rest *= v[i];
        else
            rest = -1;
    }
    int64_t total = numel(self);
    if (infer >= 0 && all && rest > 0 && total >= 0 && total % rest == 0)
        out->sizes[infer] = total / rest;
}

static void flatten_shape(const TsShape *self, const TsNode *n, TsShape *out)
{
    int64_t s, e;
    if (self->dim < 0 || !ts_shape_const_int(n->inputs[1], &s) ||
        !ts_shape_const_int(n->inputs[2], &e))
        return;
    if (self->dim == 0) {
        out->dim = 1;
        out->sizes[0] = 1;
        return;
    }
    int a, b;
    if (!ts_shape_wrap_dim(s, self->dim, &a) || !ts_shape_wrap_dim(e, self->dim, &b) || a > b)
        return;
    int r = 0;
    for (int i = 0; i < a; i++)
        out->sizes[r++] = self->sizes[i];
    int64_t m = 1;
    for (int i = a; i <= b; i++)
        m = m < 0 || self->sizes[i] < 0 ||
                    (self->sizes[i] && m > INT64_MAX / self->sizes[i])
                ? -1
                : m * self->sizes[i];
    out->sizes[r++] = m;
    for (int i = b + 1; i < self->dim; i++)
        out->sizes[r++] = self->sizes[i];
    out->dim = r;
}

/* squeeze(self) / squeeze(self, dim) */
static void squeeze_shape(const TsShape *self, const TsNode *n, TsShape *out)
{
    if (self->dim < 0)
        return;
    int64_t d;
    int w = -1;
    if (n->n_inputs == 2 && (!ts_shape_const_int(n->inputs[1], &d) ||
                             !ts_shape_wrap_dim(d, self->dim, &w)))
        return;
    int r = 0;
    for (int i = 0; i < self->dim; i++) {
        bool mine = w < 0 || i == w;
        if (mine && self->sizes[i] < 0)
            return;                /* whether it goes is not known */
        if (!(mine && self->sizes[i] == 1))
            out->sizes[r++] = self->sizes[i];
    }
    out->dim = r;
}

static void unsqueeze_shape(const TsShape *self, const TsNode *n, TsShape *out)
{
    int64_t d;
    int w;
    if (self->dim < 0 || self->dim >= TS_SHAPE_MAX_DIMS ||
        !ts_shape_const_int(n->inputs[1], &d) || !ts_shape_wrap_dim(d, self->dim + 1, &w))
        return;
    int r = 0;
    for (int i = 0; i <= self->dim; i++) {
        if (i == w)
            out->sizes[r++] = 1;
        if (i < self->dim)
            out->sizes[r++] = self->sizes[i];
    }
    out->dim = r;
}

static void permute_shape(const TsShape *self, const TsNode *n, TsShape *out)
{
    int64_t v[TS_SHAPE_MAX_DIMS];
    bool known[TS_SHAPE_MAX_DIMS], seen[TS_SHAPE_MAX_DIMS] = { false };
    int k;
    if (self->dim < 0 || !ts_shape_int_list(n->inputs[1], v, known, &k) || k != self->dim)
        return;
    for (int i = 0; i < k; i++) {
        int w;
        if (!known[i] || !ts_shape_wrap_dim(v[i], self->dim, &w) || seen[w])
            return;
        seen[w] = true;
        out->sizes[i] = self->sizes[w];
    }
    out->dim = k;
}

static void transpose_shape(const TsShape *self, int64_t d0, int64_t d1, TsShape *out)
{
    int a, b;
    if (self->dim < 0 || !ts_shape_wrap_dim(d0, self->dim, &a) ||
        !ts_shape_wrap_dim(d1, self->dim, &b))
        return;
    out->dim = self->dim;
    memcpy(out->sizes, self->sizes, sizeof out->sizes);
    if (self->dim > 0) {
        out->sizes[a] = self->sizes[b];
        out->sizes[b] = self->sizes[a];
    }
}

/* expand(self, size): -1 keeps self's size; new dims lead */
static void expand_shape(const TsShape *self, const TsIrValue *sizes, TsShape *out)
{
    int64_t v[TS_SHAPE_MAX_DIMS];
    bool known[TS_SHAPE_MAX_DIMS];
    int k;
    if (self->dim < 0 || !ts_shape_int_list(sizes, v, known, &k) || k < self->dim)
        return;
    for (int i = 0; i < k; i++) {
        int j = i - (k - self->dim);
        if (!known[i])
            out->sizes[i] = -1;
        else if (v[i] == -1 && j >= 0)
            out->sizes[i] = self->sizes[j];
        else
            out->sizes[i] = v[i] >= 0 ? v[i] : -1;
    }
    out->dim = k;
}

static void select_shape(const TsShape *self, const TsNode *n, TsShape *out)
{
    int64_t d;
    int w;
    if (self->dim <= 0 || !ts_shape_const_int(n->inputs[1], &d) ||
        !ts_shape_wrap_dim(d, self->dim, &w))
        return;
    int r = 0;
    for (int i = 0; i < self->dim; i++)
        if (i != w)
            out->sizes[r++] = self->sizes[i];
    out->dim = r;
}

/* a slice bound: from the end when negative, then clamped to [lo, size] */
static int64_t slice_bound(int64_t b, int64_t size, int64_t lo)
{
    b = b < 0 ? b + size : b;
    return b < lo ? lo : b > size ? size : b;
}

/* slice(self, dim, start, end, step): PyTorch's clamping of start and end */
static void slice_shape(const TsShape *self, const TsNode *n, TsShape *out)
{
    int64_t d, step, start = 0, end = INT64_MAX;
    int w;
    if (self->dim <= 0 || n->n_inputs != 5 || !ts_shape_const_int(n->inputs[1], &d) ||
        !ts_shape_wrap_dim(d, self->dim, &w))
        return;
    out->dim = self->dim;
    memcpy(out->sizes, self->sizes, sizeof out->sizes);
    out->sizes[w] = -1;
    int64_t size = self->sizes[w];
    if (size < 0 || !ts_shape_const_int(n->inputs[4], &step) || step <= 0 ||
        (!ts_shape_is_none(n->inputs[2]) && !ts_shape_const_int(n->inputs[2], &start)) ||
        (!ts_shape_is_none(n->inputs[3]) && !ts_shape_const_int(n->inputs[3], &end)))
        return;
    start = slice_bound(start, size, 0);
    end = slice_bound(end, size, start);
    int64_t len = end - start;     /* 0 <= len <= size: no overflow, whatever step is */
    out->sizes[w] = len ? (len - 1) / step + 1 : 0;
}

/* cat(tensors, dim) / stack(tensors, dim) of a list built here */
static void join_shape(const TsNode *n, bool stack, TsShape *out)
{
    const TsIrValue *l = n->inputs[0];
    int64_t d;
    if (strcmp(l->node->kind, "prim::ListConstruct") != 0 || l->node->n_inputs == 0 ||
        !ts_shape_const_int(n->inputs[1], &d))
        return;
    const TsNode *ln = l->node;
    TsShape first, s;
    ts_shape_of(ln->inputs[0], &first);
    out->dtype = first.dtype;
    int rank = first.dim;
    for (size_t i = 1; i < ln->n_inputs; i++) {
        ts_shape_of(ln->inputs[i], &s);
        out->dtype = ts_shape_promote(out->dtype, s.dtype);
        if (s.dim != rank)
            rank = -1;
    }
    if (rank < 0 || (!stack && rank == 0) || (stack && rank >= TS_SHAPE_MAX_DIMS))
        return;
    int w;
    if (!ts_shape_wrap_dim(d, stack ? rank + 1 : rank, &w))
        return;
    int64_t sizes[TS_SHAPE_MAX_DIMS];
    memcpy(sizes, first.sizes, sizeof sizes);
    int64_t total = first.sizes[stack ? 0 : w];
    for (size_t i = 1; i < ln->n_inputs; i++) {
        ts_shape_of(ln->inputs[i], &s);
        for (int j = 0; j < rank; j++) {
            if (!stack && j == w)
                continue;
            if (sizes[j] < 0)
                sizes[j] = s.sizes[j];     /* they must all agree */
        }
        if (!stack)
            total = total < 0 || s.sizes[w] < 0 ? -1 : total + s.sizes[w];
    }
    int r = 0;
    for (int j = 0; j <= rank; j++) {
        if (stack && j == w)
            out->sizes[r++] = (int64_t)ln->n_inputs;
        if (j < rank)
            out->sizes[r++] = !stack && j == w ? total : sizes[j];
    }
    out->dim = r;
}

/* to(...): the shape of self; the dtype and device its arguments name */
static bool to_rule(const TsNode *n, const TsShape *self, TsShape *out)
{
    const TsOperator *op = n->op;
    const char *ov = op && op->schema ? op->schema->overload : "";
    *out = *self;
    out->has_strides = false;
    out->requires_grad = TS_SHAPE_DERIVE;
    int dtype_at = -1, device_at = -1;
    if (!strcmp(ov, "dtype") || !strcmp(ov, "prim_dtype"))
        dtype_at = 1;
    else if (!strcmp(ov, "device"))
        device_at = 1, dtype_at = 2;
    else if (!strcmp(ov, "prim_Device"))
        device_at = 1, dtype_at = 2;
    else if (!strcmp(ov, "dtype_layout"))
        dtype_at = 1, device_at = 3;
    else if (!strcmp(ov, "other") && tensor_in(n, 1)) {
        TsShape other;
        ts_shape_of(n->inputs[1], &other);
        out->dtype = other.dtype;
        out->device_type = other.device_type;
        out->device_index = other.device_index;
    } else if (strcmp(ov, "prim_other") != 0) {
        return false;
    }
    if (dtype_at >= 0) {
        int d = (size_t)dtype_at < n->n_inputs ? ts_shape_const_dtype(n->inputs[dtype_at]) : -2;
        out->dtype = d >= 0 ? d : d == -1 ? self->dtype : -1;
    }
    if (device_at >= 0) {
        const TsIrValue *dv = (size_t)device_at < n->n_inputs ? n->inputs[device_at] : NULL;
        TsValue c;
        if (dv && ts_shape_is_none(dv)) {
            /* keeps self's */
        } else if (dv && strcmp(dv->node->kind, "prim::Constant") == 0 &&
                   ts_constant_value(dv->node, &c, NULL) == 0 && c.tag == TS_TAG_DEVICE) {
            out->device_type = c.u.dev.type;
            out->device_index = c.u.dev.index;
        } else {
            out->device_type = out->device_index = -1;
        }
    }
    return true;
}

bool ts_shape_rule_view(const TsNode *n, TsShape *out)
{
    if (n->n_outputs != 1)
        return false;
    if ((is(n, "aten::cat") || is(n, "aten::stack")) && n->n_inputs == 2 &&
        ts_shape_list_only_read(n->inputs[0])) {
        join_shape(n, is(n, "aten::stack"), out);
        out->device_type = out->requires_grad = TS_SHAPE_DERIVE;
        return true;
    }
    if (!tensor_in(n, 0))
        return false;
    TsShape self;
    ts_shape_of(n->inputs[0], &self);
    out->dtype = self.dtype;
    out->device_type = self.device_type;
    out->device_index = self.device_index;
    out->requires_grad = TS_SHAPE_DERIVE;
    if ((is(n, "aten::view") || is(n, "aten::reshape")) && n->n_inputs == 2 &&
        ts_type_kind(n->inputs[1]->type) == TS_TYPE_LIST) {
        view_shape(&self, n->inputs[1], out);
    } else if ((is(n, "aten::view_as") || is(n, "aten::reshape_as") ||
                is(n, "aten::expand_as")) && tensor_in(n, 1)) {
        TsShape other;
        ts_shape_of(n->inputs[1], &other);
        out->dim = other.dim;
        memcpy(out->sizes, other.sizes, sizeof out->sizes);
    } else if (is(n, "aten::flatten") && n->n_inputs == 3) {
        flatten_shape(&self, n, out);
    } else if (is(n, "aten::squeeze") && n->n_inputs <= 2) {
        squeeze_shape(&self, n, out);
    } else if (is(n, "aten::unsqueeze") && n->n_inputs == 2) {
        unsqueeze_shape(&self, n, out);
    } else if (is(n, "aten::permute") && n->n_inputs == 2) {
        permute_shape(&self, n, out);
    } else if (is(n, "aten::transpose") && n->n_inputs == 3) {
        int64_t a, b;
        if (ts_shape_const_int(n->inputs[1], &a) && ts_shape_const_int(n->inputs[2], &b))
            transpose_shape(&self, a, b, out);
    } else if (is(n, "aten::t") && n->n_inputs == 1) {
        if (self.dim >= 0 && self.dim <= 2)
            transpose_shape(&self, 0, self.dim == 2 ? 1 : 0, out);
    } else if (is(n, "aten::expand") && n->n_inputs >= 2) {
        expand_shape(&self, n->inputs[1], out);
    } else if (is(n, "aten::select") && n->n_inputs == 3 &&
               ts_type_kind(n->inputs[1]->type) == TS_TYPE_INT) {
        select_shape(&self, n, out);
    } else if (is(n, "aten::slice")) {
        slice_shape(&self, n, out);
    } else if (is(n, "aten::to")) {
        return to_rule(n, &self, out);
    } else {
        return false;
    }
    return true;
}

/* the product of a (rank ra) and b (rank rb) as torch.matmul shapes it */
static void matmul_shape(const TsShape *a, const TsShape *b, TsShape *out)
{
    if (a->dim < 1 || b->dim < 1)
        return;
    TsShape ba, bb;
    ts_shape_unknown(&ba);
    ts_shape_unknown(&bb);
    ba.dim = a->dim >= 2 ? a->dim - 2 : 0;
    bb.dim = b->dim >= 2 ? b->dim - 2 : 0;
    memcpy(ba.sizes, a->sizes, (size_t)ba.dim * sizeof *a->sizes);
    memcpy(bb.sizes, b->sizes, (size_t)bb.dim * sizeof *b->sizes);
    ts_shape_broadcast(&ba, &bb);
    int r = ba.dim;
    if (r + 2 > TS_SHAPE_MAX_DIMS)
        return;
    memcpy(out->sizes, ba.sizes, (size_t)r * sizeof *out->sizes);
    if (a->dim > 1)
        out->sizes[r++] = a->sizes[a->dim - 2];
    if (b->dim > 1)
        out->sizes[r++] = b->sizes[b->dim - 1];
    out->dim = r;
}

bool ts_shape_rule_linalg(const TsNode *n, TsShape *out)
{
    if (n->n_outputs != 1)
        return false;
    size_t first = is(n, "aten::addmm") ? 1 : 0;
    if (!tensor_in(n, first) || !tensor_in(n, first + 1))
        return false;
    TsShape a, b;
    ts_shape_of(n->inputs[first], &a);
    ts_shape_of(n->inputs[first + 1], &b);
    /* these refuse mixed dtypes: a result has its operands' one dtype */
    out->dtype = a.dtype >= 0 ? a.dtype : b.dtype;
    out->device_type = out->requires_grad = TS_SHAPE_DERIVE;
    if (is(n, "aten::mm") || is(n, "aten::addmm")) {
        if ((a.dim >= 0 && a.dim != 2) || (b.dim >= 0 && b.dim != 2))
            return true;
        out->dim = 2;
        out->sizes[0] = a.dim == 2 ? a.sizes[0] : -1;
        out->sizes[1] = b.dim == 2 ? b.sizes[1] : -1;
    } else if (is(n, "aten::bmm")) {
        if (a.dim != 3 || b.dim != 3)
            return true;
        out->dim = 3;
        out->sizes[0] = a.sizes[0] >= 0 ? a.sizes[0] : b.sizes[0];
        out->sizes[1] = a.sizes[1];
        out->sizes[2] = b.sizes[2];
    } else if (is(n, "aten::matmul")) {
        matmul_shape(&a, &b, out);
    } else if (is(n, "aten::dot")) {
        out->dim = 0;
    } else if (is(n, "aten::mv")) {
        out->dim = 1;
        out->sizes[0] = a.dim == 2 ? a.sizes[0] : -1;
    } else if (is(n, "aten::linear") && n->n_inputs == 3) {
        /* input (*, in) and weight (out, in) or (in) */
        if (a.dim < 1 || (b.dim != 1 && b.dim != 2) || a.dim >= TS_SHAPE_MAX_DIMS)
            return true;
        out->dim = a.dim - 1;
        memcpy(out->sizes, a.sizes, (size_t)out->dim * sizeof *out->sizes);
        if (b.dim == 2)
            out->sizes[out->dim++] = b.sizes[0];
    } else {
        return false;
    }
    return true;
}

/* an int[2] argument (one int stands for both): false unless both are constants */
static bool pair(const TsIrValue *v, int64_t *out)
{
    int64_t l[TS_SHAPE_MAX_DIMS];
    bool known[TS_SHAPE_MAX_DIMS];
    int n;
    if (!ts_shape_int_list(v, l, known, &n) || n < 1 || n > 2 || !known[0] ||
        !known[n - 1])
        return false;
    out[0] = l[0];
    out[1] = l[n - 1];
    return true;
}

/* a window's output size: floor((in + 2 pad - dil (k - 1) - 1) / stride) + 1, or with
 * ceil_mode rounded up unless the last window would start in the right padding */
static int64_t window_out(int64_t in, int64_t k, int64_t stride, int64_t pad, int64_t dil,
                          bool ceil_mode)
{
    if (in < 0 || k <= 0 || stride <= 0 || pad < 0 || dil <= 0)
        return -1;
    int64_t span = in + 2 * pad - dil * (k - 1) - 1;
    if (span < 0)
        return -1;                 /* an error at run time */
    int64_t o = span / stride + 1;
    if (ceil_mode && span % stride != 0 && (o * stride) < in + pad)
        o++;
    return o;
}

/* conv2d(input, weight, bias, stride, padding, dilation, groups) with int paddings;
 * max_pool2d(self, kernel_size, stride, padding, dilation, ceil_mode) */
bool ts_shape_rule_window(const TsNode *n, TsShape *out)
{
    bool conv = is(n, "aten::conv2d"), pool = is(n, "aten::max_pool2d");
    if ((!conv && !pool) || n->n_outputs != 1 || n->n_inputs != (conv ? 7u : 6u) ||
        !tensor_in(n, 0))
        return false;
    TsShape self, w;
    ts_shape_of(n->inputs[0], &self);
    out->dtype = self.dtype;
    out->device_type = out->requires_grad = TS_SHAPE_DERIVE;
    if (self.dim != 3 && self.dim != 4)
        return true;
    int64_t k[2], st[2], pad[2], dil[2];
    bool ceil_mode = false;
    if (conv) {
        if (!tensor_in(n, 1))
            return true;
        ts_shape_of(n->inputs[1], &w);
        if (w.dim != 4)
            return true;
        k[0] = w.sizes[2];
        k[1] = w.sizes[3];
    } else if (!pair(n->inputs[1], k) ||
               !ts_shape_const_bool(n->inputs[5], &ceil_mode)) {
        return true;
    }
    size_t at = conv ? 3 : 2;      /* stride, padding, dilation follow */
    int64_t l[TS_SHAPE_MAX_DIMS];
    bool known[TS_SHAPE_MAX_DIMS];
    int len;
    if (pool && ts_shape_int_list(n->inputs[at], l, known, &len) && len == 0)
        memcpy(st, k, sizeof st);  /* max_pool2d's stride=[] is the kernel size */
    else if (!pair(n->inputs[at], st))
        return true;
    if (!pair(n->inputs[at + 1], pad) || !pair(n->inputs[at + 2], dil))
        return true;
    int lead = self.dim - 3;       /* the batch dim, when there is one */
    out->dim = self.dim;
    if (lead)
        out->sizes[0] = self.sizes[0];
    out->sizes[lead] = conv ? w.sizes[0] : self.sizes[lead];
    for (int i = 0; i < 2; i++)
        out->sizes[lead + 1 + i] =
            window_out(self.sizes[lead + 1 + i], k[i], st[i], pad[i], dil[i], ceil_mode);
    return true;
}
