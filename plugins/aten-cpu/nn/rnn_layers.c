/* rnn_layers.c — the multi-layer recurrent layers torch.nn.LSTM, GRU and RNN call:
 * aten::lstm, gru, rnn_tanh and rnn_relu, each on a padded sequence (.input, time-major or
 * batch_first) or a packed one (.data: rows of all sequences by time step, with the batch
 * size of each step), bidirectional or not, with LSTM projections (proj_size) and dropout
 * between layers in training.
 *
 * A sequence is a list of time steps, step t owning rows [off[t], off[t] + bs[t]) of a row
 * matrix (padded input: bs[t] = batch for every t; packed: PyTorch's non-increasing
 * batch_sizes, the first bs[t] sequences being the ones still running). Per layer and
 * direction one GEMM projects every step's input at once (x @ w_ih^T + b_ih); each step then
 * adds h @ w_hh^T + b_hh (one GEMM) and applies the cell's gates to its rows. Rows past
 * bs[t] keep their state: in the forward direction that is the state a finished sequence
 * ends with, in the reverse one the initial state a sequence starts from when the walk back
 * reaches its last step. The directions' outputs sit side by side in the layer's output rows,
 * which are the next layer's input.
 *
 * PyTorch's parameter list holds per layer and direction w_ih, w_hh, then b_ih, b_hh (with
 * biases), then w_hr (with projections: an LSTM whose h and c states differ in size). Checks
 * and messages follow PyTorch 1.13's in its order. float32 and float64 compute in their own
 * type, bfloat16 in float32 (rounded at the end); rnn_relu also runs on integers, as
 * PyTorch's does.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nn/nn.h"
#include "create/random.h"
#include "shape/shape_ops.h"

typedef enum RnnKind { RNN_LSTM, RNN_GRU, RNN_TANH, RNN_RELU } RnnKind;

static const char *const kind_names[] = { "lstm", "gru", "rnn_tanh", "rnn_relu" };
static const int kind_gates[] = { 4, 3, 1, 1 };

/* One layer and direction's parameters (borrowed; b_* and w_hr may be NULL). */
typedef struct RnnCell {
    TsTensor *w_ih, *w_hh, *b_ih, *b_hh, *w_hr;
} RnnCell;

/* What a call computes. */
typedef struct Rnn {
    RnnKind kind;
    int64_t layers, dirs, steps, batch, rows;   /* rows: all steps' rows */
    int64_t in_size, hidden, h_out;             /* h_out < hidden with projections */
    bool bias, proj, train, batch_first, packed;
    double dropout;
    int dtype;                                  /* computing dtype */
    int64_t *off, *bs;                          /* steps entries each */
} Rnn;

/* ---- checks ---------------------------------------------------------------------------- */

/* The parameter list: the count per layer and direction, then the layers' cells. */
static int read_params(TsCall *c, Rnn *r, const TsList *params, int64_t n_hidden,
                       RnnCell *cells)
{
    TsError *err = c->error;
    int64_t stride = 2 + (r->bias ? 2 : 0) + (r->proj ? 1 : 0);
    int64_t n = (int64_t)params->len;
    if (n % stride)
        return ts_error_set(err, TS_ERR_RUNTIME, "got an incorrect number of RNN parameters");
    if (r->dirs == 2 && ((n / stride) % 2 || n_hidden % 2))
        return ts_error_set(err, TS_ERR_RUNTIME, "Odd number of params or hiddens given to a "
                            "bidirectional RNN");
    if (n_hidden != r->layers * r->dirs)
        return ts_error_set(err, TS_ERR_RUNTIME, "Expected more hidden states in stacked_rnn");
    if (n / stride != r->layers * r->dirs)
        return ts_error_set(err, TS_ERR_RUNTIME, "Expected more weights in stacked_rnn");
    for (int64_t i = 0; i < n / stride; i++) {
        TsTensor *t[5] = { NULL, NULL, NULL, NULL, NULL };
        for (int64_t k = 0; k < stride; k++)
            t[k] = (TsTensor *)params->items[i * stride + k].u.p;
        cells[i].w_ih = t[0];
        cells[i].w_hh = t[1];
        cells[i].b_ih = r->bias ? t[2] : NULL;
        cells[i].b_hh = r->bias ? t[3] : NULL;
        cells[i].w_hr = r->proj ? t[stride - 1] : NULL;
    }
    return 0;
}

/* "mat1 and mat2 shapes cannot be multiplied" unless a (rows x k) times w^T fits. */
static int check_product(TsError *err, int64_t rows, int64_t k, const TsTensor *w)
{
    if (w->dim == 2 && w->sizes[1] == k)
        return 0;
    if (w->dim != 2)
        return ts_error_set(err, TS_ERR_RUNTIME, "t() expects a tensor with <= 2 dimensions, "
                            "but self is %dD", (int)w->dim);
    return ts_error_set(err, TS_ERR_RUNTIME, "mat1 and mat2 shapes cannot be multiplied (%lldx%lld "
                        "and %lldx%lld)", (long long)rows, (long long)k, (long long)w->sizes[1],
                        (long long)w->sizes[0]);
}

/* A bias must be the gate width it is added to. */
static int check_bias(TsError *err, const TsTensor *b, int64_t width)
{
    if (!b || (b->dim == 1 && b->sizes[0] == width))
        return 0;
    return ts_error_set(err, TS_ERR_RUNTIME, "The size of tensor a (%lld) must match the size of "
                        "tensor b (%lld) at non-singleton dimension 1", (long long)width,
                        (long long)(b->dim ? b->sizes[b->dim - 1] : 1));
}

/* Shapes and dtypes of every cell against the sizes the states give. */
static int check_cells(TsCall *c, const Rnn *r, const RnnCell *cells, int in_dtype)
{
    TsError *err = c->error;
    int64_t width = kind_gates[r->kind] * r->hidden;
    for (int64_t l = 0; l < r->layers; l++)
        for (int64_t d = 0; d < r->dirs; d++) {
            const RnnCell *cell = &cells[l * r->dirs + d];
            int64_t in = l == 0 ? r->in_size : r->dirs * r->h_out;
            const TsTensor *all[] = { cell->w_ih, cell->w_hh, cell->b_ih, cell->b_hh,
                                      cell->w_hr };
            for (int i = 0; i < 5; i++)
                if (all[i] && all[i]->dtype != in_dtype)
                    return ts_error_set(err, TS_ERR_RUNTIME, "mat1 and mat2 must have the same "
                                        "dtype");
            if (check_product(err, r->rows, in, cell->w_ih) ||
                check_product(err, r->batch, r->h_out, cell->w_hh))
                return err->code;
            if (cell->w_ih->sizes[0] != width || cell->w_hh->sizes[0] != width)
                return ts_error_set(err, TS_ERR_RUNTIME, "The size of tensor a (%lld) must match "
                                    "the size of tensor b (%lld) at non-singleton dimension 1",
                                    (long long)cell->w_ih->sizes[0],
                                    (long long)cell->w_hh->sizes[0]);
            if (check_bias(err, cell->b_ih, width) || check_bias(err, cell->b_hh, width))
                return err->code;
            if (cell->w_hr && check_product(err, r->batch, r->hidden, cell->w_hr))
                return err->code;
            if (cell->w_hr && cell->w_hr->sizes[0] != r->h_out)
                return ts_error_set(err, TS_ERR_RUNTIME, "projection weights of an LSTM must be "
                                    "[proj_size, hidden_size]");
        }
    return 0;
}

/* A hidden state [layers * dirs, batch, size]: its batch against the input's. */
static int check_state(TsError *err, const TsTensor *h, int64_t batch)
{
    if (h->dim != 3)
        return ts_error_set(err, TS_ERR_RUNTIME, "Expected hidden state to have 3 dimensions, "
                            "got %d", (int)h->dim);
    if (h->sizes[1] == batch)
        return 0;
    if (h->sizes[1] == 1)
        return ts_error_set(err, TS_ERR_RUNTIME, "output with shape [1, %lld] doesn't match the "
                            "broadcast shape [%lld, %lld]", (long long)h->sizes[2],
                            (long long)batch, (long long)h->sizes[2]);
    return ts_error_set(err, TS_ERR_RUNTIME, "The size of tensor a (%lld) must match the size of "
                        "tensor b (%lld) at non-singleton dimension 0", (long long)h->sizes[1],
                        (long long)batch);
}

/* The dtypes the layers run in, with the message PyTorch's first failing op gives. */
static int check_dtype(TsCall *c, RnnKind kind, int dt)
{
    if (dt == TS_FLOAT32 || dt == TS_FLOAT64 || dt == TS_BFLOAT16)
        return 0;
    if (dt == TS_FLOAT16)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "\"addmm_impl_cpu_\" not implemented for "
                            "'Half'");
    if (kind == RNN_RELU && ts_dtype_is_integral(dt, false))
        return 0;
    if (kind == RNN_TANH)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "mat1 and mat2 must have the same dtype");
    return ts_error_set(c->error, TS_ERR_RUNTIME, "result type Float can't be cast to the "
                        "desired output type %s", ts_dtype_type_name(dt));
}

/* ---- the gates -------------------------------------------------------------------------- */

/* The cell arithmetic for n rows: gi and gh are the two linear maps (n x gates*H, gh with
 * ldg), h the state rows (ldh), c the LSTM cell rows; out gets the new h (before any
 * projection) with stride ldo. */
#define GATES(T, SUFFIX, EXP, TANH) \
    static void gates_##SUFFIX(RnnKind kind, int64_t n, int64_t H, const T *gi, const T *gh, \
                               int64_t ldg, T *h, int64_t ldh, T *c, T *out, int64_t ldo) \
    { \
        int64_t G = kind_gates[kind] * H; \
        for (int64_t b = 0; b < n; b++, gi += G, gh += ldg, h += ldh, out += ldo) \
            for (int64_t j = 0; j < H; j++) { \
                T v; \
                switch (kind) { \
                case RNN_LSTM: { \
                    T ig = 1 / (1 + EXP(-(gi[j] + gh[j]))); \
                    T fg = 1 / (1 + EXP(-(gi[H + j] + gh[H + j]))); \
                    T gg = TANH(gi[2 * H + j] + gh[2 * H + j]); \
                    T og = 1 / (1 + EXP(-(gi[3 * H + j] + gh[3 * H + j]))); \
                    T cy = fg * c[b * H + j] + ig * gg; \
                    c[b * H + j] = cy; \
                    v = og * TANH(cy); \
                    break; \
                } \
                case RNN_GRU: { \
                    T rg = 1 / (1 + EXP(-(gi[j] + gh[j]))); \
                    T zg = 1 / (1 + EXP(-(gi[H + j] + gh[H + j]))); \
                    T ng = TANH(gi[2 * H + j] + rg * gh[2 * H + j]); \
                    v = ng + zg * (h[j] - ng); \
                    break; \
                } \
                case RNN_TANH: \
                    v = TANH(gi[j] + gh[j]); \
                    break; \
                default: { \
                    T s = gi[j] + gh[j]; \
                    v = s > 0 ? s : 0; \
                    break; \
                } \
                } \
                out[j] = v; \
            } \
    }
GATES(float, f32, expf, tanhf)
GATES(double, f64, exp, tanh)
#undef GATES

/* rnn_relu on integers: relu(gi + gh), wrapping as the integer type does. */
static void gates_int(int dt, int64_t n, int64_t H, const char *gi, const char *gh, int64_t ldg,
                      char *out, int64_t ldo)
{
    size_t es = ts_dtype_size(dt);
    for (int64_t b = 0; b < n; b++)
        for (int64_t j = 0; j < H; j++) {
            int64_t s = (int64_t)ts_cpu_load_double(dt, gi + (b * H + j) * es) +
                        (int64_t)ts_cpu_load_double(dt, gh + (b * ldg + j) * es);
            ts_cpu_store_double(dt, out + (b * ldo + j) * es, (double)(s > 0 ? s : 0));
        }
}

/* ---- one layer and direction -------------------------------------------------------------- */

/* Work buffers of one call, each big enough for every layer. */
typedef struct Work {
    char *gi, *gh, *h, *c, *hh;
} Work;

/* Fills rows x width C (contiguous) with the bias per column, or zeros. */
static void fill_bias(int dt, char *p, int64_t rows, int64_t width, const TsTensor *b)
{
    size_t es = ts_dtype_size(dt);
    if (!b) {
        memset(p, 0, (size_t)(rows * width) * es);
        return;
    }
    const char *bd = (const char *)ts_tensor_data(b);
    for (int64_t j = 0; j < width; j++)
        memcpy(p + j * es, bd + j * b->strides[0] * (int64_t)es, es);
    for (int64_t i = 1; i < rows; i++)
        memcpy(p + i * width * es, p, (size_t)width * es);
}

/* A weight (out x in, any strides) as the B of x @ w^T. */
static TsNnMat weight_t(const TsTensor *w)
{
    TsNnMat m = { ts_tensor_data(w), w->sizes[1], w->sizes[0], w->strides[1], w->strides[0] };
    return m;
}

/* Runs direction d of one layer over x (rows x in) into y's columns [d*h_out, ...), starting
 * from the states h0 (batch x h_out) and c0 (batch x hidden, LSTM), which end as the final
 * states. */
static int run_direction(TsCall *c, const Rnn *r, const RnnCell *cell, bool reverse,
                         const char *x, int64_t in, char *y, int64_t ldy, char *h, char *cs,
                         Work *w)
{
    TsError *err = c->error;
    int dt = r->dtype;
    size_t es = ts_dtype_size(dt);
    int64_t G = kind_gates[r->kind] * r->hidden;
    fill_bias(dt, w->gi, r->rows, G, cell->b_ih);
    TsNnMat xm = { x, r->rows, in, in, 1 }, wih = weight_t(cell->w_ih);
    if (ts_nn_gemm(dt, 1.0, &xm, &wih, 1.0, w->gi, G, err))
        return err->code;
    TsNnMat whh = weight_t(cell->w_hh);
    for (int64_t s = 0; s < r->steps; s++) {
        int64_t t = reverse ? r->steps - 1 - s : s, n = r->bs[t];
        if (n == 0)
            continue;
        fill_bias(dt, w->gh, n, G, cell->b_hh);
        TsNnMat hm = { h, n, r->h_out, r->h_out, 1 };
        if (ts_nn_gemm(dt, 1.0, &hm, &whh, 1.0, w->gh, G, err))
            return err->code;
        const char *gi = w->gi + r->off[t] * G * (int64_t)es;
        char *dst = r->proj ? w->hh : h;
        int64_t ldd = r->proj ? r->hidden : r->h_out;
        if (dt == TS_FLOAT32)
            gates_f32(r->kind, n, r->hidden, (const float *)gi, (const float *)w->gh, G,
                      (float *)h, r->h_out, (float *)cs, (float *)dst, ldd);
        else if (dt == TS_FLOAT64)
            gates_f64(r->kind, n, r->hidden, (const double *)gi, (const double *)w->gh, G,
                      (double *)h, r->h_out, (double *)cs, (double *)dst, ldd);
        else
            gates_int(dt, n, r->hidden, gi, w->gh, G, dst, ldd);
        if (r->proj) {
            TsNnMat hh = { w->hh, n, r->hidden, r->hidden, 1 }, whr = weight_t(cell->w_hr);
            if (ts_nn_gemm(dt, 1.0, &hh, &whr, 0.0, h, r->h_out, err))
                return err->code;
        }
        for (int64_t b = 0; b < n; b++)
            memcpy(y + ((r->off[t] + b) * ldy) * (int64_t)es, h + b * r->h_out * (int64_t)es,
                   (size_t)r->h_out * es);
    }
    return 0;
}

/* ---- the whole stack ------------------------------------------------------------------------ */

/* A contiguous copy of t in dtype (a new reference). */
static TsTensor *as_dtype(TsError *err, TsTensor *t, int dtype)
{
    return t->dtype == dtype ? ts_nn_contiguous(t, err) : ts_cpu_cast(t, dtype, err);
}

static void *alloc_rows(TsError *err, int64_t rows, int64_t cols, int dtype)
{
    size_t es = ts_dtype_size(dtype);
    if (rows < 0 || cols < 0 || (cols && (uint64_t)rows > SIZE_MAX / es / (uint64_t)cols)) {
        ts_error_set(err, TS_ERR_LIMIT, "RNN: buffers too large");
        return NULL;
    }
    void *p = malloc((size_t)(rows * cols) * es + 1);
    if (!p)
        ts_error_set(err, TS_ERR_NOMEM, "RNN: out of memory");
    return p;
}

/* Runs every layer. x: the first layer's input (rows x in_size, contiguous, computing dtype);
 * hx/cx: the initial states (layers*dirs x batch x h_out / hidden), overwritten with the
 * final ones; out: the last layer's output (rows x dirs*h_out). cells in the computing
 * dtype. */
static int run_stack(TsCall *c, const Rnn *r, const RnnCell *cells, const char *x, char *hx,
                     char *cx, char *out)
{
    TsError *err = c->error;
    int dt = r->dtype;
    size_t es = ts_dtype_size(dt);
    int64_t width = r->dirs * r->h_out, G = kind_gates[r->kind] * r->hidden;
    int64_t maxin = r->in_size > width ? r->in_size : width;
    Work w = { 0 };
    char *buf[2] = { NULL, NULL };
    w.gi = alloc_rows(err, r->rows, G, dt);
    w.gh = w.gi ? alloc_rows(err, r->batch, G, dt) : NULL;
    w.hh = w.gh ? alloc_rows(err, r->batch, r->hidden, dt) : NULL;
    if (w.hh && r->layers > 1) {
        buf[0] = alloc_rows(err, r->rows, maxin, dt);
        buf[1] = buf[0] ? alloc_rows(err, r->rows, maxin, dt) : NULL;
    }
    int rc = w.hh && (r->layers == 1 || buf[1]) ? 0 : (int)err->code;
    const char *in = x;
    int64_t in_size = r->in_size;
    for (int64_t l = 0; l < r->layers && !rc; l++) {
        char *y = l == r->layers - 1 ? out : buf[l % 2];
        for (int64_t d = 0; d < r->dirs && !rc; d++) {
            int64_t k = l * r->dirs + d;
            rc = run_direction(c, r, &cells[k], d == 1, in, in_size, y + d * r->h_out * es,
                               width, hx + k * r->batch * r->h_out * es,
                               cx ? cx + k * r->batch * r->hidden * es : NULL, &w);
        }
        if (!rc && r->train && r->dropout > 0 && l < r->layers - 1)
            ts_cpu_dropout_data(dt, y, r->rows * width, r->dropout);
        in = y;
        in_size = width;
    }
    free(w.gi);
    free(w.gh);
    free(w.hh);
    free(buf[0]);
    free(buf[1]);
    return rc;
}

/* ---- the calls ------------------------------------------------------------------------------ */

/* The arguments of one call, read from the stack. */
typedef struct RnnArgs {
    TsTensor *input, *batch_sizes, *h, *c;     /* c: LSTM only */
    const TsList *params;
    int64_t n_hidden;
} RnnArgs;

/* The steps of a padded (or broadcast 2-d) input, or a packed one's batch_sizes. */
static int read_steps(TsCall *c, Rnn *r, const RnnArgs *a)
{
    TsError *err = c->error;
    if (!r->packed) {
        const TsTensor *x = a->input;
        r->steps = r->batch_first && x->dim == 3 ? x->sizes[1] : x->sizes[0];
        if (r->steps == 0)
            return ts_error_set(err, TS_ERR_RUNTIME, "Expected sequence length to be larger "
                                "than 0 in RNN");
    } else {
        const TsTensor *bs = a->batch_sizes;
        if (bs->dtype != TS_INT64)
            return ts_error_set(err, TS_ERR_RUNTIME, "expected scalar type Long but found %s",
                                ts_dtype_type_name(bs->dtype));
        if (bs->dim != 1 || bs->sizes[0] == 0)
            return ts_error_set(err, TS_ERR_RUNTIME, "batch_sizes should be a non-empty 1D "
                                "tensor, but got a tensor of size [%lld]",
                                (long long)(bs->dim ? bs->sizes[0] : 1));
        r->steps = bs->sizes[0];
    }
    r->off = calloc((size_t)r->steps + 1, sizeof *r->off);
    r->bs = calloc((size_t)r->steps + 1, sizeof *r->bs);
    if (!r->off || !r->bs)
        return ts_error_set(err, TS_ERR_NOMEM, "RNN: out of memory");
    int64_t avail = r->packed ? a->input->sizes[0] : 0;
    for (int64_t t = 0; t < r->steps; t++) {
        int64_t n = r->batch;
        if (r->packed) {
            const TsTensor *bs = a->batch_sizes;
            n = ((const int64_t *)ts_tensor_data(bs))[t * bs->strides[0]];
            if (n < 0 || n > avail - r->off[t])
                return ts_error_set(err, TS_ERR_RUNTIME, "start (%lld) + length (%lld) exceeds "
                                    "dimension size (%lld).", (long long)r->off[t],
                                    (long long)n, (long long)avail);
            if (t > 0 && n > r->bs[t - 1])
                return ts_error_set(err, TS_ERR_RUNTIME, "batch_sizes must be non-increasing, "
                                    "but got %lld after %lld", (long long)n,
                                    (long long)r->bs[t - 1]);
        }
        r->bs[t] = n;
        r->off[t + 1] = r->off[t] + n;
    }
    r->rows = r->off[r->steps];
    return 0;
}

/* The first layer's input as rows by time step, contiguous in the computing dtype. */
static TsTensor *input_rows(TsError *err, const Rnn *r, TsTensor *x)
{
    if (r->packed)
        return as_dtype(err, x, r->dtype);
    int64_t sizes[3] = { r->steps, r->batch, r->in_size }, strides[3];
    if (x->dim == 2) {          /* each step's vector goes to every sequence */
        strides[0] = x->strides[0];
        strides[1] = 0;
        strides[2] = x->strides[1];
    } else {
        int tdim = r->batch_first ? 1 : 0;
        strides[0] = x->strides[tdim];
        strides[1] = x->strides[1 - tdim];
        strides[2] = x->strides[2];
    }
    TsTensor *v = ts_aten_view(x, 3, sizes, strides, x->offset, err);
    TsTensor *o = v ? ts_cpu_cast(v, r->dtype, err) : NULL;
    if (v)
        ts_tensor_release(v);
    return o;
}

/* src (a contiguous buffer of the computing dtype) as a tensor of dtype shaped sizes; with
 * batch_first, src's rows are time-major [steps, batch, width] and the result is
 * [batch, steps, width]. */
static TsTensor *result(TsError *err, int dtype, const TsTensor *src, int dim,
                        const int64_t *sizes, bool batch_first)
{
    if (!batch_first && dtype == src->dtype)
        return ts_aten_view(src, dim, sizes, NULL, src->offset, err);
    int64_t st[3] = { sizes[1] * sizes[2], sizes[2], 1 };
    if (batch_first) {
        st[0] = sizes[2];
        st[1] = sizes[0] * sizes[2];
    }
    TsTensor *v = ts_aten_view(src, dim, sizes, dim == 3 ? st : NULL, src->offset, err);
    TsTensor *o = v ? ts_cpu_cast(v, dtype, err) : NULL;
    if (v)
        ts_tensor_release(v);
    return o;
}

/* Reads and checks the call, runs it, and builds its outputs (out[0] the output, out[1] h_n,
 * out[2] c_n for an LSTM). */
static int rnn(TsCall *c, Rnn *r, const RnnArgs *a, TsTensor **out)
{
    TsError *err = c->error;
    int in_dtype = a->input->dtype;
    RnnCell *cells = NULL, *wcells = NULL;
    TsTensor **owned = NULL, *x = NULL, *hx = NULL, *cx = NULL, *y = NULL;
    size_t n_owned = 0;
    r->proj = r->kind == RNN_LSTM && a->h->dim == 3 && a->c->dim == 3 &&
              a->h->sizes[2] != a->c->sizes[2];
    if (a->params->len > 0 &&
        !(cells = calloc(a->params->len, sizeof *cells))) {
        ts_error_set(err, TS_ERR_NOMEM, "RNN: out of memory");
        goto done;
    }
    if (read_params(c, r, a->params, a->n_hidden, cells))
        goto done;
    int xdim = a->input->dim;
    if (r->packed ? xdim != 2 : xdim != 3 && xdim != 2) {
        ts_error_set(err, TS_ERR_RUNTIME, "%s: input must have %s dimensions, got %d",
                     kind_names[r->kind], r->packed ? "2" : "3", xdim);
        goto done;
    }
    if (a->h->dim != 3) {
        ts_error_set(err, TS_ERR_RUNTIME, "Expected hidden state to have 3 dimensions, got %d",
                     (int)a->h->dim);
        goto done;
    }
    /* a 2-d input gives each step's vector to every sequence, where PyTorch's ops allow it */
    if (!r->packed && xdim == 2 && r->batch_first) {
        const TsTensor *w = cells[0].w_ih;
        ts_error_set(err, TS_ERR_RUNTIME, "mat1 and mat2 shapes cannot be multiplied (%lldx%lld "
                     "and %lldx%lld)", (long long)a->input->sizes[1],
                     (long long)a->input->sizes[0], (long long)(w->dim == 2 ? w->sizes[1] : 0),
                     (long long)w->sizes[0]);
        goto done;
    }
    if (!r->packed && xdim == 2 && r->kind == RNN_GRU) {
        ts_error_set(err, TS_ERR_INDEX, "Dimension out of range (expected to be in range of "
                     "[-1, 0], but got 1)");
        goto done;
    }
    r->batch = r->packed ? a->h->sizes[1]
               : xdim == 2 ? a->h->sizes[1]
               : a->input->sizes[r->batch_first ? 0 : 1];
    r->in_size = a->input->sizes[xdim - 1];
    r->h_out = a->h->sizes[2];
    r->hidden = r->kind == RNN_LSTM && a->c->dim == 3 ? a->c->sizes[2] : r->h_out;
    if (read_steps(c, r, a))
        goto done;
    if (r->packed && r->bs[0] != r->batch) {
        check_state(err, a->h, r->bs[0]);
        goto done;
    }
    if (check_state(err, a->h, r->batch) || (r->kind == RNN_LSTM &&
                                              check_state(err, a->c, r->batch)))
        goto done;
    if (check_cells(c, r, cells, in_dtype) || check_dtype(c, r->kind, in_dtype))
        goto done;
    if (a->h->dtype != in_dtype || (r->kind == RNN_LSTM && a->c->dtype != in_dtype)) {
        ts_error_set(err, TS_ERR_RUNTIME, "mat1 and mat2 must have the same dtype");
        goto done;
    }
    if (r->train && r->layers > 1 && !(r->dropout >= 0 && r->dropout <= 1)) {
        ts_error_set(err, TS_ERR_RUNTIME, "dropout probability has to be between 0 and 1, but "
                     "got %g", r->dropout);
        goto done;
    }
    r->dtype = in_dtype == TS_BFLOAT16 ? TS_FLOAT32 : in_dtype;
    /* the parameters in the computing dtype (bfloat16 ones converted) */
    size_t np = a->params->len;
    if (r->dtype != in_dtype) {
        wcells = calloc(np, sizeof *wcells);
        owned = calloc(np, sizeof *owned);
        if (!wcells || !owned) {
            ts_error_set(err, TS_ERR_NOMEM, "RNN: out of memory");
            goto done;
        }
        for (size_t i = 0; i < (size_t)(r->layers * r->dirs); i++) {
            TsTensor **src = &cells[i].w_ih, **dst = &wcells[i].w_ih;
            for (int k = 0; k < 5; k++) {
                if (!src[k])
                    continue;
                if (!(dst[k] = ts_cpu_cast(src[k], r->dtype, err)))
                    goto done;
                owned[n_owned++] = dst[k];
            }
        }
    }
    int64_t width = r->dirs * r->h_out, nl = r->layers * r->dirs;
    x = input_rows(err, r, a->input);
    hx = x ? as_dtype(err, a->h, r->dtype) : NULL;
    if (hx && hx == a->h) {     /* h is overwritten: never the caller's */
        ts_tensor_release(hx);
        hx = ts_cpu_cast(a->h, r->dtype, err);
    }
    if (hx && r->kind == RNN_LSTM)
        cx = ts_cpu_cast(a->c, r->dtype, err);
    int64_t ysz[2] = { r->rows, width };
    y = hx && (r->kind != RNN_LSTM || cx) ? ts_cpu_empty(r->dtype, 2, ysz, err) : NULL;
    if (!y)
        goto done;
    if (r->rows > 0 && r->batch > 0 &&
        run_stack(c, r, wcells ? wcells : cells, ts_tensor_data(x), ts_tensor_data(hx),
                  cx ? ts_tensor_data(cx) : NULL, ts_tensor_data(y)))
        goto done;
    int64_t osz[3] = { r->steps, r->batch, width };
    if (r->packed)
        out[0] = result(err, in_dtype, y, 2, ysz, false);
    else if (r->batch_first)
        out[0] = result(err, in_dtype, y, 3, (int64_t[]){ r->batch, r->steps, width }, true);
    else
        out[0] = result(err, in_dtype, y, 3, osz, false);
    int64_t hsz[3] = { nl, r->batch, r->h_out }, csz[3] = { nl, r->batch, r->hidden };
    out[1] = out[0] ? result(err, in_dtype, hx, 3, hsz, false) : NULL;
    if (r->kind == RNN_LSTM)
        out[2] = out[1] ? result(err, in_dtype, cx, 3, csz, false) : NULL;
done:
    if (owned)
        for (size_t i = 0; i < n_owned; i++)
            ts_tensor_release(owned[i]);
    free(owned);
    free(wcells);
    free(cells);
    free(r->off);
    free(r->bs);
    TsTensor *tmp[] = { x, hx, cx, y };
    for (int i = 0; i < 4; i++)
        if (tmp[i])
            ts_tensor_release(tmp[i]);
    return err->code ? (int)err->code : 0;
}

/* Pops and runs one of the eight ops: .input (packed false) or .data. */
static int rnn_call(TsCall *c, RnnKind kind, bool packed)
{
    TsArgs args;
    TsValue *v = args.v;
    if (ts_args_pop(c, TS_DEV_CPU, &args))
        return (int)c->error->code;
    Rnn r = { .kind = kind, .packed = packed };
    RnnArgs a = { 0 };
    TsTensor *out[3] = { NULL, NULL, NULL };
    int p = packed ? 1 : 0;      /* .data has batch_sizes before the states */
    int rc = ts_args_tensor(&args, 0, &a.input);
    if (!rc && packed)
        rc = ts_args_tensor(&args, 1, &a.batch_sizes);
    if (!rc && kind == RNN_LSTM) {
        const TsList *hx = NULL;
        rc = ts_args_tensor_list(&args, 1 + (size_t)p, &hx);
        if (!rc && hx->len != 2) {
            rc = ts_error_set(c->error, TS_ERR_RUNTIME, "lstm expects two hidden states");
        } else if (!rc) {
            a.h = (TsTensor *)hx->items[0].u.p;
            a.c = (TsTensor *)hx->items[1].u.p;
        }
    } else if (!rc) {
        rc = ts_args_tensor(&args, 1 + (size_t)p, &a.h);
    }
    if (!rc)
        rc = ts_args_tensor_list(&args, 2 + (size_t)p, &a.params);
    if (!rc) {
        a.n_hidden = a.h->dim ? a.h->sizes[0] : 1;
        r.bias = v[3 + p].tag == TS_TAG_BOOL && v[3 + p].u.b;
        r.layers = ts_nn_int(v[4 + p]);
        r.dropout = ts_nn_double(v[5 + p]);
        r.train = v[6 + p].tag == TS_TAG_BOOL && v[6 + p].u.b;
        r.dirs = v[7 + p].tag == TS_TAG_BOOL && v[7 + p].u.b ? 2 : 1;
        r.batch_first = !packed && v[8].tag == TS_TAG_BOOL && v[8].u.b;
        if (r.layers <= 0)
            rc = ts_error_set(c->error, TS_ERR_RUNTIME, "num_layers should be positive, but got "
                              "%lld", (long long)r.layers);
        else
            rc = rnn(c, &r, &a, out);
    }
    return ts_args_return_tensors(&args, rc, kind == RNN_LSTM ? 3 : 2, out);
}

/* aten::lstm.input(Tensor input, Tensor[] hx, Tensor[] params, bool has_biases,
 *     int num_layers, float dropout, bool train, bool bidirectional, bool batch_first)
 *     -> (Tensor, Tensor, Tensor) */
static int k_lstm_input(TsCall *c) { return rnn_call(c, RNN_LSTM, false); }
/* aten::lstm.data(Tensor data, Tensor batch_sizes, Tensor[] hx, Tensor[] params, ...,
 *     bool bidirectional) -> (Tensor, Tensor, Tensor) */
static int k_lstm_data(TsCall *c) { return rnn_call(c, RNN_LSTM, true); }
/* aten::gru.input(Tensor input, Tensor hx, Tensor[] params, ...) -> (Tensor, Tensor) and
 * .data(Tensor data, Tensor batch_sizes, Tensor hx, ...); rnn_tanh and rnn_relu alike. */
static int k_gru_input(TsCall *c) { return rnn_call(c, RNN_GRU, false); }
static int k_gru_data(TsCall *c) { return rnn_call(c, RNN_GRU, true); }
static int k_rnn_tanh_input(TsCall *c) { return rnn_call(c, RNN_TANH, false); }
static int k_rnn_tanh_data(TsCall *c) { return rnn_call(c, RNN_TANH, true); }
static int k_rnn_relu_input(TsCall *c) { return rnn_call(c, RNN_RELU, false); }
static int k_rnn_relu_data(TsCall *c) { return rnn_call(c, RNN_RELU, true); }

static const TsCpuOp ops[] = {
    { "aten::lstm", "input", k_lstm_input },
    { "aten::lstm", "data", k_lstm_data },
    { "aten::gru", "input", k_gru_input },
    { "aten::gru", "data", k_gru_data },
    { "aten::rnn_tanh", "input", k_rnn_tanh_input },
    { "aten::rnn_tanh", "data", k_rnn_tanh_data },
    { "aten::rnn_relu", "input", k_rnn_relu_input },
    { "aten::rnn_relu", "data", k_rnn_relu_data },
};

const TsCpuTable ts_cpu_rnn_layers_table = { ops, sizeof ops / sizeof ops[0] };
