# t/rnn_layers_cases.py — the multi-layer recurrent layers of rnn_layers.c as torch.nn.LSTM,
# GRU and RNN call them: aten::lstm/gru/rnn_tanh/rnn_relu on padded sequences (time-major
# and batch_first, bidirectional, stacked, with and without biases, LSTM projections) and on
# packed ones (batch_sizes). Each result is checked against the same recurrence written out
# with the single-step cells (lstm_cell, gru_cell, rnn_*_cell), step by step and layer by
# layer; a packed batch against each sequence run alone. Each err_* function fails with
# PyTorch 1.13's message. t/rnn_layers_cases.sh runs them under tscript; under PyTorch:
#     /usr/bin/python3 t/rnn_layers_cases.py
from typing import List, Optional, Tuple

import torch


def rnd(shape: List[int], seed: int) -> torch.Tensor:
    """Deterministic values in [-1, 1) of the given shape (no generator needed)."""
    n = 1
    for s in shape:
        n *= s
    v = torch.sin(torch.arange(n, dtype=torch.float64) * 12.9898 + seed * 78.233)
    return (v * 43758.5453).frac().mul(2).sub(1).view(shape).float()


def close(a: torch.Tensor, b: torch.Tensor) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and torch.allclose(a, b, 1e-4, 1e-5)


def params(gates: int, inp: int, hid: int, layers: int, dirs: int, bias: bool,
           proj: int) -> List[torch.Tensor]:
    """PyTorch's flat parameter list: per layer and direction w_ih, w_hh[, b_ih, b_hh][, w_hr]."""
    ps: List[torch.Tensor] = []
    seed = 100
    hout = proj if proj > 0 else hid
    for layer in range(layers):
        for d in range(dirs):
            i = inp if layer == 0 else hout * dirs
            ps.append(rnd([gates * hid, i], seed) * 0.5)
            ps.append(rnd([gates * hid, hout], seed + 1) * 0.5)
            if bias:
                ps.append(rnd([gates * hid], seed + 2) * 0.5)
                ps.append(rnd([gates * hid], seed + 3) * 0.5)
            if proj > 0:
                ps.append(rnd([proj, hid], seed + 4) * 0.5)
            seed += 5
    return ps


def cell_step(kind: str, x: torch.Tensor, h: torch.Tensor, c: torch.Tensor,
              p: List[torch.Tensor], bias: bool) -> Tuple[torch.Tensor, torch.Tensor]:
    b_ih: Optional[torch.Tensor] = None
    b_hh: Optional[torch.Tensor] = None
    if bias:
        b_ih = p[2]
        b_hh = p[3]
    if kind == "lstm" and h.size(-1) != c.size(-1):
        # with projections lstm_cell does not apply: the gates written out
        gates = x @ p[0].t() + h @ p[1].t()
        i, f, g, o = gates.chunk(4, 1)
        c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
        return torch.sigmoid(o) * torch.tanh(c), c
    if kind == "lstm":
        hc = torch.lstm_cell(x, [h, c], p[0], p[1], b_ih, b_hh)
        return hc[0], hc[1]
    if kind == "gru":
        return torch.gru_cell(x, h, p[0], p[1], b_ih, b_hh), c
    if kind == "rnn_tanh":
        return torch.rnn_tanh_cell(x, h, p[0], p[1], b_ih, b_hh), c
    return torch.rnn_relu_cell(x, h, p[0], p[1], b_ih, b_hh), c


def reference(kind: str, x: torch.Tensor, h0: torch.Tensor, c0: torch.Tensor,
              ps: List[torch.Tensor], layers: int, dirs: int, bias: bool,
              proj: bool) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """The stacked recurrence over a time-major x, one cell step at a time."""
    stride = 2 + (2 if bias else 0) + (1 if proj else 0)
    hn: List[torch.Tensor] = []
    cn: List[torch.Tensor] = []
    inp = x
    steps = x.size(0)
    for layer in range(layers):
        outs: List[torch.Tensor] = []
        for d in range(dirs):
            k = layer * dirs + d
            p = ps[k * stride:(k + 1) * stride]
            h = h0[k]
            c = c0[k]
            ys: List[torch.Tensor] = [h] * steps
            for s in range(steps):
                t = steps - 1 - s if d == 1 else s
                h, c = cell_step(kind, inp[t], h, c, p, bias)
                if proj:
                    h = h @ p[stride - 1].t()
                ys[t] = h
            outs.append(torch.stack(ys))
            hn.append(h)
            cn.append(c)
        inp = torch.cat(outs, 2)
    return inp, torch.stack(hn), torch.stack(cn)


def test_lstm_stacked_bidirectional():
    x = rnd([5, 3, 4], 1)
    h0 = rnd([4, 3, 8], 2)
    c0 = rnd([4, 3, 8], 3)
    p = params(4, 4, 8, 2, 2, True, 0)
    o, h, c = torch.lstm(x, [h0, c0], p, True, 2, 0.0, False, True, False)
    ro, rh, rc = reference("lstm", x, h0, c0, p, 2, 2, True, False)
    assert close(o, ro) and close(h, rh) and close(c, rc)
    # batch_first: the same sequences with batch and time swapped
    o2, h2, c2 = torch.lstm(x.transpose(0, 1), [h0, c0], p, True, 2, 0.0, False, True, True)
    assert close(o2, ro.transpose(0, 1)) and close(h2, rh) and close(c2, rc)
    # float64 end to end
    pd = [q.double() for q in p]
    o3, h3, c3 = torch.lstm(x.double(), [h0.double(), c0.double()], pd, True, 2, 0.0, False,
                            True, False)
    assert close(o3, ro.double()) and close(h3, rh.double())


def test_lstm_projections_without_bias():
    x = rnd([6, 2, 5], 4)
    h0 = rnd([3, 2, 3], 5)
    c0 = rnd([3, 2, 7], 6)
    p = params(4, 5, 7, 3, 1, False, 3)
    o, h, c = torch.lstm(x, [h0, c0], p, False, 3, 0.0, False, False, False)
    ro, rh, rc = reference("lstm", x, h0, c0, p, 3, 1, False, True)
    assert o.shape == (6, 2, 3) and c.shape == (3, 2, 7)
    assert close(o, ro) and close(h, rh) and close(c, rc)


def test_gru_and_simple_rnns():
    x = rnd([4, 3, 5], 7)
    h0 = rnd([4, 3, 6], 8)
    none = torch.zeros(0)
    for kind in ["gru", "rnn_tanh", "rnn_relu"]:
        gates = 3 if kind == "gru" else 1
        p = params(gates, 5, 6, 2, 2, True, 0)
        if kind == "gru":
            o, h = torch.gru(x, h0, p, True, 2, 0.0, False, True, False)
        elif kind == "rnn_tanh":
            o, h = torch.rnn_tanh(x, h0, p, True, 2, 0.0, False, True, False)
        else:
            o, h = torch.rnn_relu(x, h0, p, True, 2, 0.0, False, True, False)
        ro, rh, rc = reference(kind, x, h0, h0, p, 2, 2, True, False)
        assert close(o, ro) and close(h, rh)
    p1 = params(3, 5, 6, 1, 1, False, 0)
    o, h = torch.gru(x.transpose(0, 1), h0[:1], p1, False, 1, 0.0, False, False, True)
    ro, rh, rc = reference("gru", x, h0[:1], h0[:1], p1, 1, 1, False, False)
    assert close(o, ro.transpose(0, 1)) and close(h, rh)


def test_rnn_relu_integers():
    x = (rnd([4, 2, 3], 9) * 5).round().long()
    h0 = (rnd([1, 2, 4], 10) * 5).round().long()
    p = [(q * 4).round().long() for q in params(1, 3, 4, 1, 1, True, 0)]
    o, h = torch.rnn_relu(x, h0, p, True, 1, 0.0, False, False, False)
    assert o.dtype == torch.int64
    want = h0[0]
    for t in range(4):
        want = torch.relu(x[t] @ p[0].t() + p[2] + want @ p[1].t() + p[3])
        assert torch.equal(o[t], want)
    assert torch.equal(h[0], want)


def test_packed_sequences():
    # three sequences of lengths 4, 3 and 1, packed by time step
    lengths = [4, 3, 1]
    seqs = [rnd([n, 4], 20 + i) for i, n in enumerate(lengths)]
    rows: List[torch.Tensor] = []
    for t in range(4):
        for i in range(3):
            if lengths[i] > t:
                rows.append(seqs[i][t])
    data = torch.stack(rows)
    batch_sizes = torch.tensor([3, 2, 2, 1])
    h0 = rnd([4, 3, 8], 30)
    c0 = rnd([4, 3, 8], 31)
    p = params(4, 4, 8, 2, 2, True, 0)
    o, h, c = torch.lstm(data, batch_sizes, [h0, c0], p, True, 2, 0.0, False, True)
    assert o.shape == (8, 16)
    g = params(3, 4, 8, 2, 2, True, 0)
    og, hg = torch.gru(data, batch_sizes, h0, g, True, 2, 0.0, False, True)
    for i in range(3):
        n = lengths[i]
        ro, rh, rc = reference("lstm", seqs[i].unsqueeze(1), h0[:, i:i + 1], c0[:, i:i + 1], p,
                               2, 2, True, False)
        go, gh, gc = reference("gru", seqs[i].unsqueeze(1), h0[:, i:i + 1], h0[:, i:i + 1], g,
                               2, 2, True, False)
        for t in range(n):
            row = int(batch_sizes[:t].sum()) + i
            assert close(o[row], ro[t, 0]) and close(og[row], go[t, 0])
        assert close(h[:, i], rh[:, 0]) and close(c[:, i], rc[:, 0])
        assert close(hg[:, i], gh[:, 0])


def test_dropout_between_layers():
    x = rnd([3, 2, 4], 40)
    h0 = rnd([2, 2, 5], 41)
    p = params(1, 4, 5, 2, 1, True, 0)
    # p = 1 in training: the second layer sees zeros
    o, h = torch.rnn_tanh(x, h0, p, True, 2, 1.0, True, False, False)
    o2, h2 = torch.rnn_tanh(torch.zeros(3, 2, 5), h0[1:], p[4:], True, 1, 0.0, False, False,
                            False)
    assert close(o, o2) and close(h[1], h2[0])
    # not in training, dropout does nothing
    o3, h3 = torch.rnn_tanh(x, h0, p, True, 2, 1.0, False, False, False)
    ro, rh, rc = reference("rnn_tanh", x, h0, h0, p, 2, 1, True, False)
    assert close(o3, ro)


def test_edge_shapes():
    p = params(3, 4, 8, 1, 1, True, 0)
    # an empty batch gives empty outputs
    o, h = torch.gru(torch.zeros(5, 0, 4), torch.zeros(1, 0, 8), p, True, 1, 0.0, False, False,
                     False)
    assert o.shape == (5, 0, 8) and h.shape == (1, 0, 8)
    # a 2-d input gives each step's vector to every sequence (not for GRU)
    x = rnd([5, 4], 50)
    h0 = rnd([1, 3, 8], 51)
    r = params(1, 4, 8, 1, 1, True, 0)
    o2, h2 = torch.rnn_tanh(x, h0, r, True, 1, 0.0, False, False, False)
    o3, h3 = torch.rnn_tanh(x.unsqueeze(1).expand(5, 3, 4), h0, r, True, 1, 0.0, False, False,
                            False)
    assert close(o2, o3) and close(h2, h3)
    # bfloat16 runs, close to float32
    l4 = params(4, 4, 8, 1, 1, True, 0)
    xb = rnd([3, 2, 4], 52)
    hb = rnd([1, 2, 8], 53)
    ob, hbo, cb = torch.lstm(xb.to(torch.bfloat16), [hb.to(torch.bfloat16), hb.to(torch.bfloat16)],
                             [q.to(torch.bfloat16) for q in l4], True, 1, 0.0, False, False, False)
    of, hf, cf = torch.lstm(xb, [hb, hb], l4, True, 1, 0.0, False, False, False)
    assert ob.dtype == torch.bfloat16 and torch.allclose(ob.float(), of, 0.05, 0.05)


def lstm_args() -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor, List[torch.Tensor]]:
    return rnd([5, 3, 4], 1), rnd([4, 3, 8], 2), rnd([4, 3, 8], 3), params(4, 4, 8, 2, 2, True, 0)


def err_lstm_one_state():
    # raises: lstm expects two hidden states
    x, h0, c0, p = lstm_args()
    return torch.lstm(x, [h0], p, True, 2, 0.0, False, True, False)


def err_lstm_param_count():
    # raises: got an incorrect number of RNN parameters
    x, h0, c0, p = lstm_args()
    return torch.lstm(x, [h0, c0], p[:-1], True, 2, 0.0, False, True, False)


def err_lstm_too_few_states():
    # raises: Expected more hidden states in stacked_rnn
    x, h0, c0, p = lstm_args()
    return torch.lstm(x, [h0, c0], p, True, 3, 0.0, False, True, False)


def err_rnn_too_many_weights():
    # raises: Expected more weights in stacked_rnn
    r = params(1, 4, 8, 1, 1, True, 0)
    return torch.rnn_tanh(rnd([5, 3, 4], 1), torch.zeros(1, 3, 8), r + r, True, 1, 0.0, False,
                          False, False)


def err_lstm_odd_bidirectional():
    # raises: Odd number of params or hiddens given to a bidirectional RNN
    x, h0, c0, p = lstm_args()
    return torch.lstm(x, [h0[:3], c0[:3]], p, True, 2, 0.0, False, True, False)


def err_lstm_dtype():
    # raises: mat1 and mat2 must have the same dtype
    x, h0, c0, p = lstm_args()
    return torch.lstm(x.double(), [h0.double(), c0.double()], p, True, 2, 0.0, False, True, False)


def err_lstm_input_size():
    # raises: mat1 and mat2 shapes cannot be multiplied (15x3 and 4x32)
    x, h0, c0, p = lstm_args()
    return torch.lstm(x[:, :, :3], [h0, c0], p, True, 2, 0.0, False, True, False)


def err_lstm_batch():
    # raises: The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0
    x, h0, c0, p = lstm_args()
    return torch.lstm(x, [h0[:, :2], c0], p, True, 2, 0.0, False, True, False)


def err_rnn_state_batch_one():
    # raises: output with shape [1, 8] doesn't match the broadcast shape [3, 8]
    r = params(1, 4, 8, 1, 1, True, 0)
    return torch.rnn_tanh(rnd([5, 3, 4], 1), torch.zeros(1, 1, 8), r, True, 1, 0.0, False,
                          False, False)


def err_lstm_integer():
    # raises: result type Float can't be cast to the desired output type Long
    x, h0, c0, p = lstm_args()
    return torch.lstm(x.long(), [h0.long(), c0.long()], [q.long() for q in p], True, 2, 0.0,
                      False, True, False)


def err_lstm_half():
    # raises: "addmm_impl_cpu_" not implemented for 'Half'
    x, h0, c0, p = lstm_args()
    return torch.lstm(x.half(), [h0.half(), c0.half()], [q.half() for q in p], True, 2, 0.0,
                      False, True, False)


def err_lstm_no_steps():
    # raises: Expected sequence length to be larger than 0 in RNN
    x, h0, c0, p = lstm_args()
    return torch.lstm(x[:0], [h0, c0], p, True, 2, 0.0, False, True, False)


def err_lstm_dropout_probability():
    # raises: dropout probability has to be between 0 and 1, but got 1.5
    x, h0, c0, p = lstm_args()
    return torch.lstm(x, [h0, c0], p, True, 2, 1.5, True, True, False)


def err_gru_two_dims():
    # raises: Dimension out of range (expected to be in range of [-1, 0], but got 1)
    return torch.gru(rnd([5, 4], 1), torch.zeros(1, 3, 8), params(3, 4, 8, 1, 1, True, 0), True,
                     1, 0.0, False, False, False)


def err_packed_batch_sizes_dtype():
    # raises: expected scalar type Long but found Int
    return torch.gru(rnd([9, 4], 1), torch.tensor([3, 3, 2, 1]).int(), torch.zeros(1, 3, 8),
                     params(3, 4, 8, 1, 1, True, 0), True, 1, 0.0, False, False)


def err_packed_too_few_rows():
    # raises: start (8) + length (2) exceeds dimension size (9).
    return torch.gru(rnd([9, 4], 1), torch.tensor([3, 3, 2, 2]), torch.zeros(1, 3, 8),
                     params(3, 4, 8, 1, 1, True, 0), True, 1, 0.0, False, False)


if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
