# Programs the CPU fuser groups (t/fuser_cpu.sh): each prints what it computes, and the
# output must be the same with the fuser, without it, and with the optimizer off.
import torch
from typing import List, Tuple


def cell(x: torch.Tensor, hx: torch.Tensor, cx: torch.Tensor, w_ih: torch.Tensor,
         w_hh: torch.Tensor, b_ih: torch.Tensor, b_hh: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
    gates = x.mm(w_ih.t()) + hx.mm(w_hh.t()) + b_ih + b_hh
    ingate, forgetgate, cellgate, outgate = gates.chunk(4, 1)
    ingate = torch.sigmoid(ingate)
    forgetgate = torch.sigmoid(forgetgate)
    cellgate = torch.tanh(cellgate)
    outgate = torch.sigmoid(outgate)
    cy = (forgetgate * cx) + (ingate * cellgate)
    hy = outgate * torch.tanh(cy)
    return hy, cy


def shapes(a: torch.Tensor, row: torch.Tensor, col: torch.Tensor) -> List[torch.Tensor]:
    # outputs of three shapes from one run of operators
    return [a + row * 2 - 1, row * 3 + 1, col / 4 - col, torch.relu(a - col)]


def scalars(x: torch.Tensor, k: float, n: int) -> torch.Tensor:
    # numbers that are not constants: an alpha, a float and an int operand
    return torch.add(x * k, x, alpha=n) - torch.sub(x, k, alpha=2) / n


def unary(x: torch.Tensor) -> torch.Tensor:
    y = torch.abs(x) + 1
    return torch.sqrt(y) * torch.rsqrt(y) + torch.log(y) - torch.exp(-y) + torch.reciprocal(y) + torch.neg(torch.relu(x))


def strided(x: torch.Tensor) -> torch.Tensor:
    # a transposed view and a broadcast one in the same group
    t = x.t()
    return torch.tanh(t * 2) + torch.sigmoid(t) * x[0]


def twice(x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
    y = torch.sigmoid(x) * 2
    return y, y


def pieces(x: torch.Tensor) -> torch.Tensor:
    # a chunk whose pieces differ in size (7 columns in 3: 3, 3 and 1), folded into the group
    a, b, c = x.chunk(3, 1)
    return torch.sigmoid(a) * 2 + torch.tanh(b) - c


def badchunk(x: torch.Tensor) -> torch.Tensor:
    # 2 rows make 2 chunks, not 4: unpacking fails, fused or not
    a, b, c, d = x.chunk(4, 0)
    return a * 2 + b - c * d


def pre_chunk(a: torch.Tensor, col: torch.Tensor, row: torch.Tensor) -> torch.Tensor:
    # the chunk of a sum whose operands broadcast (col is one column: the same for every
    # piece; row has fewer dims): fuser-cuda moves the chunk to the operands
    g = a * 0.5 + col + row
    p, q, r = g.chunk(3, 1)
    return torch.sigmoid(p) * q - torch.tanh(r)


def pre_chunk_bad(a: torch.Tensor, row: torch.Tensor) -> torch.Tensor:
    # 4 columns make 2 chunks of 2, not 3: unpacking fails, fused or not
    g = a + row
    p, q, r = g.chunk(3, 1)
    return p * q + r


def gates_kept(a: torch.Tensor, b: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
    # the chunked tensor is returned too: what computes it stays outside the chunk's group
    g = a * 2.0 + b
    p, q = g.chunk(2, 1)
    return torch.sigmoid(p) * q, g


def ints(x: torch.Tensor) -> torch.Tensor:
    return x * 2 + x - 1


def main():
    torch.manual_seed(0)
    for b, h in [(1, 8), (5, 33), (64, 256)]:
        hy, cy = cell(torch.randn(b, 7), torch.randn(b, h), torch.randn(b, h),
                      torch.randn(4 * h, 7), torch.randn(4 * h, h), torch.randn(4 * h), torch.randn(4 * h))
        print(b, h, hy.sum().item(), cy.sum().item(), hy[0, :4], cy[-1, -4:])
    for r in shapes(torch.arange(6.0).view(2, 3), torch.tensor([10.0, 20.0, 30.0]), torch.tensor([[1.0], [2.0]])):
        print(r)
    print(scalars(torch.linspace(-2, 2, 9), 0.3, 3))
    x = torch.tensor([-2.0, -0.0, 0.0, 0.5, float("nan"), float("inf"), -float("inf"), 3e38])
    print(unary(x))
    print(strided(torch.randn(4, 4)))
    a, b = twice(torch.randn(3))
    print(a, b, a is b)
    print(ints(torch.arange(5)))
    print(pieces(torch.randn(2, 7)))
    print(pre_chunk(torch.randn(3, 6), torch.randn(3, 1), torch.randn(6)))
    print(pre_chunk(torch.randn(1, 6), torch.randn(1, 1), torch.randn(6)))
    print(pre_chunk(torch.randn(6, 4).t(), torch.randn(1), torch.randn(4, 6)))
    print(gates_kept(torch.randn(3, 4), torch.randn(4)))
    print(pieces(torch.randn(5, 7).t().contiguous().t()))
    big = torch.randn(3, 100000)
    s = unary(big) * 2 + big
    print(s.shape, s.sum().item(), s[2, -3:])
    print(unary(torch.zeros(0, 3)).shape, unary(torch.tensor(2.5)))
