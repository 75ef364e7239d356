/* rnn_cell.c — aten::lstm_cell and aten::gru_cell on the GPU: the input and hidden
 * projections as GEMMs on cuBLAS (linalg/gemm.h) with the input bias copied in first, then
 * one fused kernel for the gate math (cell_kernels.cu), which the fuser cannot reach inside
 * these ops. An LSTM sums both projections into one gates buffer (its hidden bias added by
 * the kernel); a GRU keeps them apart, since its new gate scales the hidden part by r.
 */
#include <string.h>

#include "linalg/gemm.h"
#include "nn/nn.h"

typedef struct Cell {
    TsTensor *x, *h, *c, *w_ih, *w_hh, *b_ih, *b_hh;
    int64_t batch, hidden, gates;     /* gates: 4 (LSTM) or 3 (GRU) times hidden */
} Cell;

static int check(TsError *err, const char *op, Cell *k, int ngates)
{
    TsTensor *all[7] = { k->x, k->h, k->c, k->w_ih, k->w_hh, k->b_ih, k->b_hh };
    for (int i = 0; i < 7; i++) {
        if (!all[i])
            continue;
        if (all[i]->dtype != k->x->dtype)
            return ts_error_set(err, TS_ERR_RUNTIME, "expected scalar type %s but found %s",
                                ts_dtype_type_name(k->x->dtype),
                                ts_dtype_type_name(all[i]->dtype));
        if (all[i]->device.index != k->x->device.index)
            return ts_error_set(err, TS_ERR_RUNTIME, "Expected all tensors to be on the same "
                                "device, but found at least two devices, cuda:%d and cuda:%d!",
                                k->x->device.index, all[i]->device.index);
    }
    if (k->x->dim != 2 || k->w_ih->dim != 2 || k->w_hh->dim != 2)
        return ts_error_set(err, TS_ERR_RUNTIME, "%s: expected a 2-D input and 2-D weights, "
                            "got %d-D, %d-D and %d-D", op, (int)k->x->dim, (int)k->w_ih->dim,
                            (int)k->w_hh->dim);
    if (k->x->sizes[1] != k->w_ih->sizes[1])
        return ts_error_set(err, TS_ERR_RUNTIME, "input has inconsistent input_size: got %lld "
                            "expected %lld", (long long)k->x->sizes[1],
                            (long long)k->w_ih->sizes[1]);
    k->batch = k->x->sizes[0];
    k->hidden = k->w_hh->sizes[1];
    k->gates = ngates * k->hidden;
    TsTensor *states[2] = { k->h, k->c };
    for (int i = 0; i < 2; i++) {
        TsTensor *s = states[i];
        if (!s)
            continue;
        if (s->dim != 2)
            return ts_error_set(err, TS_ERR_RUNTIME, "%s: expected a 2-D hidden state, got "
                                "%d-D", op, (int)s->dim);
        if (s->sizes[0] != k->batch)
            return ts_error_set(err, TS_ERR_RUNTIME, "Input batch size %lld doesn't match "
                                "hidden0 batch size %lld", (long long)k->batch,
                                (long long)s->sizes[0]);
        if (s->sizes[1] != k->hidden)
            return ts_error_set(err, TS_ERR_RUNTIME, "hidden0 has inconsistent hidden_size: got "
                                "%lld, expected %lld", (long long)s->sizes[1],
                                (long long)k->hidden);
    }
    if (k->w_ih->sizes[0] != k->gates || k->w_hh->sizes[0] != k->gates)
        return ts_error_set(err, TS_ERR_RUNTIME, "%s: expected weights of %lld rows (%d gates of "
                            "%lld), got %lld and %lld", op, (long long)k->gates, ngates,
                            (long long)k->hidden, (long long)k->w_ih->sizes[0],
                            (long long)k->w_hh->sizes[0]);
    TsTensor *biases[2] = { k->b_ih, k->b_hh };
    for (int i = 0; i < 2; i++)
        if (biases[i] && (biases[i]->dim != 1 || biases[i]->sizes[0] != k->gates))
            return ts_error_set(err, TS_ERR_RUNTIME, "%s: expected biases of %lld elements",
                                op, (long long)k->gates);
    int rc = ts_cuda_gemm_check_dtype(k->x->dtype, err);
    return rc ? rc : ts_cuda_use_device(k->x->device, err);
}

/* out (batch x gates, contiguous) = [bias +] x @ w.t(), or out += x @ w.t() when acc. */
static int project(TsError *err, const TsTensor *x, const TsTensor *w, const TsTensor *bias,
                   bool acc, TsTensor *out)
{
    if (bias && ts_cuda_copy_into(out, bias, err))
        return err->code;
    TsCudaMat mx = { ts_tensor_data(x), x->sizes[0], x->sizes[1], x->strides[0],
                     x->strides[1] };
    TsCudaMat mw = { ts_tensor_data(w), w->sizes[1], w->sizes[0], w->strides[1],
                     w->strides[0] };
    return ts_cuda_gemm(x->dtype, 1.0, &mx, 0, &mw, 0, bias || acc ? 1.0 : 0.0,
                        ts_tensor_data(out), 1, err);
}

static TsTensor *empty2(const Cell *k, int64_t cols, TsError *err)
{
    int64_t sizes[2] = { k->batch, cols };
    return ts_cuda_empty(k->x->dtype, 2, sizes, err);
}

static int bind(TsArgs *a, Cell *k)
{
    int rc = ts_args_tensor(a, 0, &k->x);
    if (!rc) rc = ts_args_tensor(a, 2, &k->w_ih);
    if (!rc) rc = ts_args_tensor(a, 3, &k->w_hh);
    if (!rc) rc = ts_args_opt_tensor(a, 4, &k->b_ih);
    if (!rc) rc = ts_args_opt_tensor(a, 5, &k->b_hh);
    return rc;
}

/* aten::lstm_cell(Tensor input, Tensor[] hx, Tensor w_ih, Tensor w_hh, Tensor? b_ih=None,
 *                 Tensor? b_hh=None) -> (Tensor, Tensor) */
static int k_lstm_cell(TsCall *c)
{
    TsArgs a;
    Cell k;
    const TsList *hx;
    TsTensor *g = NULL, *cx = NULL, *bh = NULL, *out[2] = { NULL, NULL };
    memset(&k, 0, sizeof k);
    int rc = ts_args_pop(c, TS_DEV_CUDA, &a);
    if (!rc) rc = bind(&a, &k);
    if (!rc) rc = ts_args_tensor_list(&a, 1, &hx);
    if (!rc && hx->len != 2)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "lstm_cell expects two hidden states");
    if (!rc) {
        k.h = (TsTensor *)hx->items[0].u.p;
        k.c = (TsTensor *)hx->items[1].u.p;
        rc = check(c->error, "lstm_cell", &k, 4);
    }
    if (!rc && (!(g = empty2(&k, k.gates, c->error)) || !(out[0] = empty2(&k, k.hidden, c->error))
                || !(out[1] = empty2(&k, k.hidden, c->error)) ||
                !(cx = ts_cuda_contiguous_as(k.c, k.x->dtype, c->error)) ||
                (k.b_hh && !(bh = ts_cuda_contiguous_as(k.b_hh, k.x->dtype, c->error)))))
        rc = c->error->code;
    if (!rc) rc = project(c->error, k.x, k.w_ih, k.b_ih, false, g);
    if (!rc) rc = project(c->error, k.h, k.w_hh, NULL, true, g);
    if (!rc)
        rc = ts_cuda_launch_lstm_gates(k.x->dtype, ts_tensor_data(g),
                                       bh ? ts_tensor_data(bh) : NULL, ts_tensor_data(cx),
                                       ts_tensor_data(out[0]), ts_tensor_data(out[1]), k.batch,
                                       k.hidden, c->error);
    TsTensor *tmp[3] = { g, cx, bh };
    for (int i = 0; i < 3; i++)
        if (tmp[i])
            ts_tensor_release(tmp[i]);
    if (rc)
        for (int i = 0; i < 2; i++)
            if (out[i])
                ts_tensor_release(out[i]);
    if (rc)
        return ts_args_fail(&a, rc);
    return ts_args_return_tensors(&a, 0, 2, out);
}

/* aten::gru_cell(Tensor input, Tensor hx, Tensor w_ih, Tensor w_hh, Tensor? b_ih=None,
 *                Tensor? b_hh=None) -> Tensor */
static int k_gru_cell(TsCall *c)
{
    TsArgs a;
    Cell k;
    TsTensor *gi = NULL, *gh = NULL, *hx = NULL, *r = NULL;
    memset(&k, 0, sizeof k);
    int rc = ts_args_pop(c, TS_DEV_CUDA, &a);
    if (!rc) rc = bind(&a, &k);
    if (!rc) rc = ts_args_tensor(&a, 1, &k.h);
    if (!rc) rc = check(c->error, "gru_cell", &k, 3);
    if (!rc && (!(gi = empty2(&k, k.gates, c->error)) || !(gh = empty2(&k, k.gates, c->error)) ||
                !(r = empty2(&k, k.hidden, c->error)) ||
                !(hx = ts_cuda_contiguous_as(k.h, k.x->dtype, c->error))))
        rc = c->error->code;
    if (!rc) rc = project(c->error, k.x, k.w_ih, k.b_ih, false, gi);
    if (!rc) rc = project(c->error, k.h, k.w_hh, k.b_hh, false, gh);
    if (!rc)
        rc = ts_cuda_launch_gru_gates(k.x->dtype, ts_tensor_data(gi), ts_tensor_data(gh),
                                      ts_tensor_data(hx), ts_tensor_data(r), k.batch, k.hidden,
                                      c->error);
    TsTensor *tmp[3] = { gi, gh, hx };
    for (int i = 0; i < 3; i++)
        if (tmp[i])
            ts_tensor_release(tmp[i]);
    return ts_args_return_tensor(&a, rc, r);
}

static const TsCudaOp ops[] = {
    { "aten::lstm_cell", "", k_lstm_cell },
    { "aten::gru_cell", "", k_gru_cell },
};

const TsCudaTable ts_cuda_rnn_cell_table = { ops, sizeof ops / sizeof ops[0] };
