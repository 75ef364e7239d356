# The LSTM cell of PyTorch's JIT overview (examples/lstm.py) run over a sequence: main()
# feeds each step's input with the previous step's state, as an RNN layer does. inputs()
# builds the sequence and the weights (compare.py passes the sizes): batch 64, input 256,
# hidden 512 measures the products and large pointwise ops; batch 1, hidden 32 measures
# what each operator costs beyond its arithmetic. With cuda=1 (bench/gpu.py) every tensor
# is made on the GPU, and the sum main returns waits for it.
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


def wave(n: int, scale: float, dev: torch.device) -> torch.Tensor:
    return torch.sin(torch.arange(n, dtype=torch.float32, device=dev) * 0.7) * scale


def inputs(steps: int, batch: int, inp: int, hidden: int, cuda: int = 0) -> Tuple[
        torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor,
        torch.Tensor]:
    dev = torch.device("cuda" if cuda else "cpu")
    xs = wave(steps * batch * inp, 1.0, dev).reshape(steps, batch, inp)
    hx = wave(batch * hidden, 0.5, dev).reshape(batch, hidden)
    cx = wave(batch * hidden, 0.25, dev).reshape(batch, hidden)
    w_ih = wave(4 * hidden * inp, 0.05, dev).reshape(4 * hidden, inp)
    w_hh = wave(4 * hidden * hidden, 0.05, dev).reshape(4 * hidden, hidden)
    b_ih = wave(4 * hidden, 0.1, dev)
    b_hh = wave(4 * hidden, 0.1, dev)
    return xs, hx, cx, w_ih, w_hh, b_ih, b_hh


def main(xs: torch.Tensor, hx: torch.Tensor, cx: torch.Tensor, w_ih: torch.Tensor,
         w_hh: torch.Tensor, b_ih: torch.Tensor, b_hh: torch.Tensor) -> float:
    for t in range(xs.size(0)):
        hx, cx = cell(xs[t], hx, cx, w_ih, w_hh, b_ih, b_hh)
    return float(hx.sum())
