# The LSTM cell of PyTorch's JIT overview, run on fixed inputs.
#
#     tscript run examples/lstm.py
#     tscript run examples/lstm.py -f cell 'torch.ones(2, 4)' ...   (any inputs)
import torch
from typing import Tuple


def cell(x, hx, cx, w_ih, w_hh, b_ih, b_hh) -> Tuple[torch.Tensor, torch.Tensor]:
    gates = x.mm(w_ih.t()) + hx.mm(w_hh.t()) + b_ih + b_hh
    ingate, forgetgate, cellgate, outgate = gates.chunk(4, 1)
    ingate = torch.sigmoid(ingate)
    forgetgate = torch.sigmoid(forgetgate)
    cellgate = torch.tanh(cellgate)
    outgate = torch.sigmoid(outgate)
    cy = (forgetgate * cx) + (ingate * cellgate)
    hy = outgate * torch.tanh(cy)
    return hy, cy


def main():
    batch, inp, hidden = 2, 3, 4
    x = torch.arange(batch * inp, dtype=torch.float32).reshape(batch, inp) / 10.0
    hx = torch.zeros(batch, hidden)
    cx = torch.ones(batch, hidden) * 0.5
    w_ih = torch.linspace(-1.0, 1.0, 4 * hidden * inp).reshape(4 * hidden, inp)
    w_hh = torch.linspace(1.0, -1.0, 4 * hidden * hidden).reshape(4 * hidden, hidden)
    b_ih = torch.full([4 * hidden], 0.1)
    b_hh = torch.zeros(4 * hidden)
    h, c = x, cx
    for step in range(3):
        h, c = cell(x, hx, c, w_ih, w_hh, b_ih, b_hh)
        hx = h
    print(h)
    print(c)
