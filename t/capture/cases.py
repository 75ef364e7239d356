# capture/cases.py — programs for t/capture.sh: where the capture_regions pass (cuda_graphs:
# true) makes prim::CaptureRegion nodes, where it must not, and what a run prints (the same
# with regions as without: on the cpu every region runs its Subgraph plainly).
import torch
from typing import List, Tuple


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


def lstm(xs: torch.Tensor, hx: torch.Tensor, cx: torch.Tensor, w_ih: torch.Tensor,
         w_hh: torch.Tensor, b_ih: torch.Tensor, b_hh: torch.Tensor) -> torch.Tensor:
    for t in range(xs.size(0)):
        hx, cx = cell(xs[t], hx, cx, w_ih, w_hh, b_ih, b_hh)
    return hx + cx


def from_list(ts: List[torch.Tensor], k: int) -> torch.Tensor:
    a = ts[0]
    b = ts[1]
    c = (a.mm(b) + a).relu() * a.size(0)
    return c.sum(1) + k


def printed(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    c = (a + b).exp() * b
    print("between")
    return (c - a).abs() + b


def reads_back(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    c = (a * b).sum()
    s = c.item()
    return (a + s).relu() * b


def random(a: torch.Tensor) -> torch.Tensor:
    return (a + 1).exp() * torch.rand_like(a) + a.tanh() * 2


def in_place(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    c = (a * b).exp()
    a.add_(c)
    return (a - b).abs() * c


def counter(xs: List[torch.Tensor], n: int) -> torch.Tensor:
    acc = xs[0] * 0
    for i in range(n):
        acc = (acc + xs[0] * i).tanh() * 2
    return acc


class Lin:
    def __init__(self, w: torch.Tensor, b: torch.Tensor):
        self.w = w
        self.b = b

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = (x.mm(self.w) + self.b).relu()
        return h.mm(self.w) + self.b


def module(m: Lin, x: torch.Tensor) -> torch.Tensor:
    return m.forward(x) * 2


def forked(a: torch.Tensor) -> List[torch.Tensor]:
    futures = [torch.jit.fork(from_list, [a, a.t()], k) for k in range(4)]
    return [torch.jit.wait(f) for f in futures]


def main():
    torch.manual_seed(0)
    xs = torch.randn(11, 3, 5)
    w_ih = torch.randn(16, 5) * 0.3
    w_hh = torch.randn(16, 4) * 0.3
    b_ih = torch.randn(16)
    b_hh = torch.randn(16)
    h = torch.zeros(3, 4)
    print(lstm(xs, h, h, w_ih, w_hh, b_ih, b_hh))
    # 43 steps: the unrolled body 5 times and the remainder 3, twice over: on a GPU each
    # region is captured on its third run and replayed from then on (t/gpu/capture.sh)
    long = torch.randn(43, 3, 5)
    for _ in range(2):
        print(lstm(long, h, h, w_ih, w_hh, b_ih, b_hh))
    a = torch.arange(9, dtype=torch.float32).view(3, 3) / 10
    for k in range(3):
        print(from_list([a, a.t()], k))
    print(printed(a, a.t()))
    print(reads_back(a, a.t()))
    b = a.clone()
    print(in_place(b, a), b)
    print(counter([a, a], 4))
    print(forked(a))
    m = Lin(a, torch.ones(3))
    for _ in range(3):
        print(module(m, a))
