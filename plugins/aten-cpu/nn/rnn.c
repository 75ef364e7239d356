/* rnn.c — one step of a recurrent cell: lstm_cell, gru_cell, rnn_tanh_cell and
 * rnn_relu_cell (what torch.nn.LSTMCell, GRUCell and RNNCell compute).
 *
 * A cell is two linear maps, b_ih + input @ w_ih^T and b_hh + hx @ w_hh^T, each one GEMM
 * through ts_nn_gemm with the bias rows as C, followed by the gate arithmetic. The checks
 * come in PyTorch's order with its messages: the hidden-state count, input_size and
 * hidden_size against the weights, the batch sizes, then whatever the linear maps and the
 * gate arithmetic meet (dtype mismatches, bias sizes, gate widths that do not split into the
 * hidden size). The gate arithmetic follows PyTorch's sequence of tensor ops and rounds each
 * intermediate to the tensor dtype it would have there, so float32 and bfloat16 results
 * match PyTorch's to its last bit or so; bfloat16 GEMMs run in float32. Integer tensors pass
 * through the GEMM and the relu cell; the tanh cell returns float32 for them, and the LSTM
 * and GRU cells fail as PyTorch's in-place sigmoid_ does.
 */
#include <math.h>
#include <stdlib.h>

#include "nn/nn.h"

typedef enum CellKind { CELL_LSTM, CELL_GRU, CELL_TANH, CELL_RELU } CellKind;

/* ---- checks --------------------------------------------------------------------------- */

/* t.size(d) for d >= 0, or PyTorch's IndexError. */
static int size_at(TsError *err, const TsTensor *t, int d, int64_t *out)
{
    if (t->dim == 0)
        return ts_error_set(err, TS_ERR_INDEX, "Dimension specified as %d but tensor has no "
                            "dimensions", d);
    if (d >= t->dim)
        return ts_error_set(err, TS_ERR_INDEX, "Dimension out of range (expected to be in "
                            "range of [%d, %d], but got %d)", -(int)t->dim, (int)t->dim - 1, d);
    *out = t->sizes[d];
    return 0;
}

/* PyTorch's check_rnn_cell_forward_input: input.size(1) against w_ih.size(1). */
static int check_input(TsError *err, const TsTensor *x, const TsTensor *w_ih)
{
    int64_t got = 0, want = 0;
    if (size_at(err, x, 1, &got) || size_at(err, w_ih, 1, &want))
        return err->code;
    if (got != want)
        return ts_error_set(err, TS_ERR_RUNTIME, "input has inconsistent input_size: got %lld "
                            "expected %lld", (long long)got, (long long)want);
    return 0;
}

/* PyTorch's check_rnn_cell_forward_hidden: batch and hidden size of a hidden state (1.13
 * labels both LSTM states hidden0). */
static int check_hidden(TsError *err, const TsTensor *x, const TsTensor *h, int64_t hidden)
{
    int64_t xb = 0, hb = 0, hs = 0;
    if (size_at(err, x, 0, &xb) || size_at(err, h, 0, &hb))
        return err->code;
    if (xb != hb)
        return ts_error_set(err, TS_ERR_RUNTIME, "Input batch size %lld doesn't match hidden0 "
                            "batch size %lld", (long long)xb, (long long)hb);
    if (size_at(err, h, 1, &hs))
        return err->code;
    if (hs != hidden)
        return ts_error_set(err, TS_ERR_RUNTIME, "hidden0 has inconsistent hidden_size: got "
                            "%lld, expected %lld", (long long)hs, (long long)hidden);
    return 0;
}

/* Two widths the gate arithmetic combines elementwise (dim 1 of [batch, width] tensors). */
static int same_width(TsError *err, int64_t a, int64_t b)
{
    if (a == b)
        return 0;
    return ts_error_set(err, TS_ERR_RUNTIME, "The size of tensor a (%lld) must match the size "
                        "of tensor b (%lld) at non-singleton dimension 1", (long long)a,
                        (long long)b);
}

/* The width of chunk k of n of a width w, as Tensor.chunk splits it. */
static int64_t chunk_width(int64_t w, int n, int k)
{
    int64_t c = (w + n - 1) / n, rest = w - c * k;
    return rest < c ? (rest > 0 ? rest : 0) : c;
}

/* ---- the linear maps ------------------------------------------------------------------ */

/* bias broadcast to [rows, cols], with expand's messages. */
static int check_bias(TsError *err, const TsTensor *b, int64_t rows, int64_t cols)
{
    int64_t want[2] = { rows, cols };
    char s1[256], s2[256];
    ts_aten_format_sizes(s1, sizeof s1, 2, want);
    ts_aten_format_sizes(s2, sizeof s2, b->dim, b->sizes);
    if (b->dim > 2)
        return ts_error_set(err, TS_ERR_RUNTIME, "expand(torch.%sTensor{%s}, size=%s): the "
                            "number of sizes provided (2) must be greater or equal to the "
                            "number of dimensions in the tensor (%d)",
                            ts_dtype_type_name(b->dtype), s2, s1, (int)b->dim);
    for (int i = 0; i < b->dim; i++) {
        int d = 2 - b->dim + i;
        if (b->sizes[i] != 1 && b->sizes[i] != want[d])
            return ts_error_set(err, TS_ERR_RUNTIME, "The expanded size of the tensor (%lld) "
                                "must match the existing size (%lld) at non-singleton "
                                "dimension %d.  Target sizes: %s.  Tensor sizes: %s",
                                (long long)want[d], (long long)b->sizes[i], d, s1, s2);
    }
    return 0;
}

/* b + x @ w^T (PyTorch's linear on a 2-d input: addmm, or mm without b) as a new [batch,
 * rows] tensor of w's dtype. bfloat16 multiplies in float32 and rounds once. */
static TsTensor *cell_linear(TsError *err, const TsTensor *x, const TsTensor *w,
                             const TsTensor *b)
{
    if (x->dim != 2 || w->dim != 2) {
        ts_error_set(err, TS_ERR_RUNTIME, "%s must be a matrix, got %d-D tensor",
                     x->dim != 2 ? "mat1" : "mat2", (int)(x->dim != 2 ? x->dim : w->dim));
        return NULL;
    }
    int dt = w->dtype;
    int64_t sizes[2] = { x->sizes[0], w->sizes[0] };
    if (x->dtype != dt) {
        ts_error_set(err, TS_ERR_RUNTIME, "mat1 and mat2 must have the same dtype");
        return NULL;
    }
    if (b && check_bias(err, b, sizes[0], sizes[1]))
        return NULL;
    if (b && b->dtype != dt) {
        ts_error_set(err, TS_ERR_RUNTIME, "self and mat2 must have the same dtype");
        return NULL;
    }
    if (dt != TS_FLOAT32 && dt != TS_FLOAT64 && dt != TS_BFLOAT16 &&
        !ts_dtype_is_integral(dt, false)) {
        ts_error_set(err, TS_ERR_RUNTIME, "\"addmm_impl_cpu_\" not implemented for '%s'",
                     ts_dtype_type_name(dt));
        return NULL;
    }
    int work = dt == TS_BFLOAT16 ? TS_FLOAT32 : dt;
    TsTensor *cx = NULL, *cw = NULL;
    bool have = work == dt || ((cx = ts_cpu_cast(x, work, err)) &&
                               (cw = ts_cpu_cast(w, work, err)));
    const TsTensor *mx = cx ? cx : x, *mw = cw ? cw : w;
    TsTensor *o = have ? ts_cpu_empty(work, 2, sizes, err) : NULL;
    if (o) {
        if (b)
            ts_cpu_copy_into(o, b);
        TsNnMat ma = { ts_tensor_data(mx), sizes[0], mx->sizes[1], mx->strides[0],
                       mx->strides[1] };
        TsNnMat mb = { ts_tensor_data(mw), mw->sizes[1], sizes[1], mw->strides[1],
                       mw->strides[0] };
        if (ts_nn_gemm(work, 1.0, &ma, &mb, b ? 1.0 : 0.0, ts_tensor_data(o), sizes[1], err)) {
            ts_tensor_release(o);
            o = NULL;
        }
    }
    if (cx)
        ts_tensor_release(cx);
    if (cw)
        ts_tensor_release(cw);
    if (o && work != dt) {
        TsTensor *r = ts_cpu_cast(o, dt, err);
        ts_tensor_release(o);
        o = r;
    }
    return o;
}

/* ---- the gate arithmetic -------------------------------------------------------------- */

/* v rounded to dtype (the precision of an intermediate tensor of that dtype). */
static double rnd(int dtype, double v)
{
    if (dtype == TS_FLOAT32)
        return (float)v;
    if (dtype == TS_BFLOAT16) {
        uint16_t b;
        ts_cpu_store_double(dtype, &b, v);
        return ts_cpu_load_double(dtype, &b);
    }
    return v;
}

static double sigmoid(double v) { return 1.0 / (1.0 + exp(-v)); }

/* The operands of the gate arithmetic as contiguous doubles (or int64s for the integer relu
 * cell), and the results written the same way before the cast to their dtype. */
typedef struct Gates {
    int dtype;                 /* the gates' dtype */
    int64_t batch, hidden;
    TsTensor *gi, *gh, *h, *c; /* float64 (int64) copies; h and c may be NULL */
} Gates;

static void gates_release(Gates *g)
{
    TsTensor *all[4] = { g->gi, g->gh, g->h, g->c };
    for (int i = 0; i < 4; i++)
        if (all[i])
            ts_tensor_release(all[i]);
}

/* Element (b, k * w + j) of g->F, a [batch, n_F] buffer: column j of gate k. */
#define AT(F, k, w, b, j) \
    (((const double *)ts_tensor_data(g->F))[(b) * (n_##F) + (k) * (w) + (j)])

/* (hy, cy) of the LSTM cell: gates = gh + gi split into input, forget, cell and output gates;
 * cy = f * cx + i * g; hy = o * tanh(cy). cx may have another dtype (the results take the
 * promoted one). */
static int lstm_gates(TsError *err, const Gates *g, int cx_dtype, TsTensor **hy, TsTensor **cy)
{
    int dt = g->dtype, ot = ts_aten_promote_types(dt, cx_dtype);
    if (ot < 0)
        return ts_error_set(err, TS_ERR_RUNTIME, "\"mul_cpu\" not implemented for '%s'",
                            ts_dtype_type_name(cx_dtype));
    int64_t n_gi = 4 * g->hidden, n_gh = n_gi, H = g->hidden, sizes[2] = { g->batch, H };
    TsTensor *h = ts_cpu_empty(TS_FLOAT64, 2, sizes, err);
    TsTensor *c = h ? ts_cpu_empty(TS_FLOAT64, 2, sizes, err) : NULL;
    if (!c) {
        if (h)
            ts_tensor_release(h);
        return err->code;
    }
    double *ph = ts_tensor_data(h), *pc = ts_tensor_data(c);
    const double *pcx = ts_tensor_data(g->c);
    for (int64_t b = 0; b < g->batch; b++)
        for (int64_t j = 0; j < H; j++) {
            double v[4];
            for (int k = 0; k < 4; k++)
                v[k] = rnd(dt, AT(gh, k, H, b, j) + AT(gi, k, H, b, j));
            double i = rnd(dt, sigmoid(v[0])), f = rnd(dt, sigmoid(v[1]));
            double cg = rnd(dt, tanh(v[2])), o = rnd(dt, sigmoid(v[3]));
            double cnew = rnd(ot, rnd(ot, f * pcx[b * H + j]) + rnd(dt, i * cg));
            pc[b * H + j] = cnew;
            ph[b * H + j] = rnd(ot, o * rnd(ot, tanh(cnew)));
        }
    *hy = ts_cpu_cast(h, ot, err);
    *cy = *hy ? ts_cpu_cast(c, ot, err) : NULL;
    ts_tensor_release(h);
    ts_tensor_release(c);
    if (*hy && !*cy)
        ts_tensor_release(*hy);
    return *cy ? 0 : (int)err->code;
}

/* hy of the GRU cell: r = sigmoid(h_r + i_r), z = sigmoid(h_z + i_z),
 * n = tanh(i_n + h_n * r), hy = (hx - n) * z + n. */
static TsTensor *gru_gates(TsError *err, const Gates *g)
{
    int dt = g->dtype;
    int64_t n_gi = 3 * g->hidden, n_gh = n_gi, H = g->hidden, sizes[2] = { g->batch, H };
    TsTensor *h = ts_cpu_empty(TS_FLOAT64, 2, sizes, err);
    if (!h)
        return NULL;
    double *ph = ts_tensor_data(h);
    const double *phx = ts_tensor_data(g->h);
    for (int64_t b = 0; b < g->batch; b++)
        for (int64_t j = 0; j < H; j++) {
            double r = rnd(dt, sigmoid(rnd(dt, AT(gh, 0, H, b, j) + AT(gi, 0, H, b, j))));
            double z = rnd(dt, sigmoid(rnd(dt, AT(gh, 1, H, b, j) + AT(gi, 1, H, b, j))));
            double nn = rnd(dt, tanh(rnd(dt, AT(gi, 2, H, b, j) +
                                         rnd(dt, AT(gh, 2, H, b, j) * r))));
            double hx = phx[b * H + j];
            ph[b * H + j] = rnd(dt, rnd(dt, rnd(dt, hx - nn) * z) + nn);
        }
    TsTensor *o = ts_cpu_cast(h, dt, err);
    ts_tensor_release(h);
    return o;
}

/* hy of the simple cells: tanh or relu of gh + gi ([batch, width] each). */
static TsTensor *simple_float(TsError *err, const Gates *g, bool relu)
{
    int dt = g->dtype;
    int64_t n = g->batch * g->hidden, sizes[2] = { g->batch, g->hidden };
    TsTensor *h = ts_cpu_empty(TS_FLOAT64, 2, sizes, err);
    if (!h)
        return NULL;
    const double *a = ts_tensor_data(g->gh), *b = ts_tensor_data(g->gi);
    double *o = ts_tensor_data(h);
    for (int64_t k = 0; k < n; k++) {
        double s = rnd(dt, a[k] + b[k]);
        o[k] = relu ? (s < 0 ? 0 : s) : rnd(dt, tanh(s));
    }
    TsTensor *r = ts_cpu_cast(h, dt, err);
    ts_tensor_release(h);
    return r;
}

/* The same for integer gates: the sum wraps in their dtype; relu keeps it, tanh gives
 * float32 (torch.tanh of an integer tensor). */
static TsTensor *simple_int(TsError *err, const Gates *g, bool relu)
{
    int64_t n = g->batch * g->hidden, sizes[2] = { g->batch, g->hidden };
    TsTensor *sum = ts_cpu_empty(TS_INT64, 2, sizes, err), *wrapped = NULL, *v = NULL, *r = NULL;
    if (sum) {
        const int64_t *a = ts_tensor_data(g->gh), *b = ts_tensor_data(g->gi);
        int64_t *o = ts_tensor_data(sum);
        for (int64_t k = 0; k < n; k++)
            o[k] = (int64_t)((uint64_t)a[k] + (uint64_t)b[k]);
        wrapped = ts_cpu_cast(sum, g->dtype, err);
    }
    if (wrapped)
        v = ts_cpu_cast(wrapped, relu ? TS_INT64 : TS_FLOAT32, err);
    if (v && relu) {
        int64_t *o = ts_tensor_data(v);
        for (int64_t k = 0; k < n; k++)
            o[k] = o[k] < 0 ? 0 : o[k];
        r = ts_cpu_cast(v, g->dtype, err);
    } else if (v) {
        float *o = ts_tensor_data(v);
        for (int64_t k = 0; k < n; k++)
            o[k] = (float)tanh((double)o[k]);
        ts_tensor_retain(v);
        r = v;
    }
    TsTensor *all[3] = { sum, wrapped, v };
    for (int i = 0; i < 3; i++)
        if (all[i])
            ts_tensor_release(all[i]);
    return r;
}

/* ---- kernels ---------------------------------------------------------------------------- */

/* The widths PyTorch's gate arithmetic combines, checked in its order. ri and rh are the
 * rows of w_ih and w_hh, H the hidden size. */
static int check_widths(TsError *err, CellKind kind, int64_t ri, int64_t rh, int64_t H)
{
    switch (kind) {
    case CELL_LSTM:            /* gh.add_(gi), then f * cx and o * tanh(cy) */
        if (same_width(err, rh, ri) || same_width(err, chunk_width(rh, 4, 1), H))
            return err->code;
        return same_width(err, chunk_width(rh, 4, 3), H);
    case CELL_GRU:             /* h_r + i_r, h_n * r, i_n + ..., hx - n, ... * z */
        if (same_width(err, chunk_width(rh, 3, 0), chunk_width(ri, 3, 0)) ||
            same_width(err, chunk_width(rh, 3, 2), chunk_width(rh, 3, 0)) ||
            same_width(err, chunk_width(ri, 3, 2), chunk_width(rh, 3, 2)))
            return err->code;
        return same_width(err, H, chunk_width(ri, 3, 2));
    default:                   /* gh.add_(gi) */
        return same_width(err, rh, ri);
    }
}

/* cx of another rank than 2: PyTorch's error when forget_gate * cx cannot broadcast (hx has
 * the gate's shape), else ours; the cell does not broadcast its state. */
static int check_cx(TsError *err, TsTensor *hx, TsTensor *cx)
{
    TsTensor *pair[2] = { hx, cx };
    int dim;
    int64_t sizes[TS_TENSOR_MAX_DIMS];
    if (ts_aten_broadcast_shape(2, pair, &dim, sizes, err))
        return err->code;
    return ts_error_set(err, TS_ERR_RUNTIME, "lstm_cell: expected cx to be 2-D, got %d-D",
                        (int)cx->dim);
}

/* The cell's tensors: input, hidden state(s), weights, biases (NULL when None). */
typedef struct CellArgs {
    TsTensor *x, *h, *c, *w_ih, *w_hh, *b_ih, *b_hh;
} CellArgs;

static int read_args(TsArgs *args, CellKind kind, CellArgs *p)
{
    TsError *err = args->call->error;
    if (ts_args_tensor(args, 0, &p->x))
        return err->code;
    if (kind == CELL_LSTM) {
        TsValue hx = args->v[1];
        const TsList *l = hx.tag == TS_TAG_LIST ? (const TsList *)hx.u.p : NULL;
        if (!l || l->len != 2)
            return ts_error_set(err, TS_ERR_RUNTIME, "lstm_cell expects two hidden states");
        if (ts_args_tensor_list(args, 1, &l))
            return err->code;
        p->h = (TsTensor *)l->items[0].u.p;
        p->c = (TsTensor *)l->items[1].u.p;
    } else if (ts_args_tensor(args, 1, &p->h)) {
        return err->code;
    }
    if (ts_args_tensor(args, 2, &p->w_ih) || ts_args_tensor(args, 3, &p->w_hh) ||
        ts_args_opt_tensor(args, 4, &p->b_ih) || ts_args_opt_tensor(args, 5, &p->b_hh))
        return err->code;
    int64_t H = 0;
    if (check_input(err, p->x, p->w_ih) || size_at(err, p->w_hh, 1, &H) ||
        check_hidden(err, p->x, p->h, H) || (p->c && check_hidden(err, p->x, p->c, H)))
        return err->code;
    return 0;
}

/* A contiguous copy of t as dtype, into *out. */
static int wide_copy(TsError *err, const TsTensor *t, int dtype, TsTensor **out)
{
    *out = ts_cpu_cast(t, dtype, err);
    return *out ? 0 : (int)err->code;
}

static int cell_call(TsCall *c, CellKind kind)
{
    TsArgs args;
    CellArgs p = { 0 };
    Gates g = { 0 };
    TsTensor *lin_i = NULL, *lin_h = NULL, *hy = NULL, *cy = NULL;
    TsError *err = c->error;
    if (ts_args_pop(c, TS_DEV_CPU, &args))
        return (int)c->error->code;
    int rc = read_args(&args, kind, &p);
    /* LSTM and the simple cells compute the hidden map first, GRU the input map */
    if (!rc && kind != CELL_GRU && !(lin_h = cell_linear(err, p.h, p.w_hh, p.b_hh)))
        rc = err->code;
    if (!rc && !(lin_i = cell_linear(err, p.x, p.w_ih, p.b_ih)))
        rc = err->code;
    if (!rc && kind == CELL_GRU && !(lin_h = cell_linear(err, p.h, p.w_hh, p.b_hh)))
        rc = err->code;
    if (!rc && (kind == CELL_LSTM || kind == CELL_GRU) &&
        !ts_dtype_is_floating(lin_i->dtype))   /* sigmoid_ in place on an integer tensor */
        rc = ts_error_set(err, TS_ERR_RUNTIME, "result type Float can't be cast to the desired "
                          "output type %s", ts_dtype_type_name(lin_i->dtype));
    if (!rc)
        rc = check_widths(err, kind, lin_i->sizes[1], lin_h->sizes[1], p.w_hh->sizes[1]);
    if (!rc && lin_h->dtype != lin_i->dtype)
        rc = ts_nn_same_dtype(c, lin_h, lin_i);
    if (!rc && kind == CELL_LSTM && p.c->dim != 2)
        rc = check_cx(err, p.h, p.c);
    if (!rc) {
        g.dtype = lin_i->dtype;
        g.batch = p.x->sizes[0];
        g.hidden = kind == CELL_LSTM || kind == CELL_GRU ? p.w_hh->sizes[1] : lin_h->sizes[1];
        /* the gates in double, or int64 for the integer simple cells */
        int wide = ts_dtype_is_integral(g.dtype, false) ? TS_INT64 : TS_FLOAT64;
        rc = wide_copy(err, lin_i, wide, &g.gi) || wide_copy(err, lin_h, wide, &g.gh) ||
             (kind == CELL_GRU && wide_copy(err, p.h, TS_FLOAT64, &g.h)) ||
             (kind == CELL_LSTM && wide_copy(err, p.c, TS_FLOAT64, &g.c)) ? (int)err->code : 0;
    }
    if (!rc) {
        if (kind == CELL_LSTM)
            rc = lstm_gates(err, &g, p.c->dtype, &hy, &cy);
        else if (!(hy = kind == CELL_GRU ? gru_gates(err, &g)
                        : ts_dtype_is_integral(g.dtype, false)
                        ? simple_int(err, &g, kind == CELL_RELU)
                        : simple_float(err, &g, kind == CELL_RELU)))
            rc = err->code;
    }
    gates_release(&g);
    if (lin_i)
        ts_tensor_release(lin_i);
    if (lin_h)
        ts_tensor_release(lin_h);
    if (kind != CELL_LSTM)
        return ts_args_return_tensor(&args, rc, hy);
    TsTensor *res[2] = { hy, cy };
    return ts_args_return_tensors(&args, rc, 2, res);
}

/* aten::lstm_cell(Tensor input, Tensor[] hx, Tensor w_ih, Tensor w_hh, Tensor? b_ih=None,
 *                 Tensor? b_hh=None) -> (Tensor, Tensor) */
static int k_lstm_cell(TsCall *c) { return cell_call(c, CELL_LSTM); }
/* aten::gru_cell(Tensor input, Tensor hx, Tensor w_ih, Tensor w_hh, Tensor? b_ih=None,
 *                Tensor? b_hh=None) -> Tensor; rnn_tanh_cell and rnn_relu_cell alike */
static int k_gru_cell(TsCall *c) { return cell_call(c, CELL_GRU); }
static int k_rnn_tanh_cell(TsCall *c) { return cell_call(c, CELL_TANH); }
static int k_rnn_relu_cell(TsCall *c) { return cell_call(c, CELL_RELU); }

static const TsCpuOp ops[] = {
    { "aten::lstm_cell", "", k_lstm_cell },
    { "aten::gru_cell", "", k_gru_cell },
    { "aten::rnn_tanh_cell", "", k_rnn_tanh_cell },
    { "aten::rnn_relu_cell", "", k_rnn_relu_cell },
};

const TsCpuTable ts_cpu_rnn_table = { ops, sizeof ops / sizeof ops[0] };
