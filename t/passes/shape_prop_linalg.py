# Matrix products: mm and addmm (n, k) x (k, m) -> (n, m); bmm batch by batch; matmul as
# torch.matmul shapes it (a vector on either side drops that dim, batch dims broadcast);
# linear (*, in) x (out, in) -> (*, out), with or without a bias.
# PASS: shape_prop
# FUNCTION: f
# INPUTS: Float(2, 3, requires_grad=0, device=cpu), Float(3, 4, requires_grad=0, device=cpu), Float(5, 1, 3, requires_grad=0, device=cpu), Float(3, requires_grad=0, device=cpu), Float(7, 3, requires_grad=0, device=cpu)
# CHECK: %a : Float(2, 4, requires_grad=0, device=cpu) = aten::mm(%x, %y)
# CHECK: %b : Float(2, 4, requires_grad=0, device=cpu) = aten::addmm(
# CHECK: %c : Float(5, 1, 4, requires_grad=0, device=cpu) = aten::matmul(%z, %y)
# CHECK: %d : Float(2, requires_grad=0, device=cpu) = aten::matmul(%x, %v)
# CHECK: %e : Float(requires_grad=0, device=cpu) = aten::matmul(%v, %v)
# CHECK: %g : Float(5, 2, 1, requires_grad=0, device=cpu) = aten::matmul(
# CHECK: %h : Float(5, 1, 7, requires_grad=0, device=cpu) = aten::linear(%z, %w,
# CHECK: %i : Float(2, 7, requires_grad=0, device=cpu) = aten::linear(%x, %w,
# CHECK: %j : Float(5, 1, 1, requires_grad=0, device=cpu) = aten::bmm(%z,
import torch
import torch.nn.functional as F
from typing import Tuple


def f(x: torch.Tensor, y: torch.Tensor, z: torch.Tensor, v: torch.Tensor,
      w: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor,
                                torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor,
                                torch.Tensor]:
    a = torch.mm(x, y)
    b = torch.addmm(torch.zeros(4), x, y)
    c = torch.matmul(z, y)
    d = torch.matmul(x, v)
    e = torch.matmul(v, v)
    g = torch.matmul(torch.zeros(2, 3), z.transpose(1, 2))
    h = F.linear(z, w, torch.zeros(7))
    i = F.linear(x, w)
    j = torch.bmm(z, z.transpose(1, 2))
    return a, b, c, d, e, g, h, i, j


def main():
    for t in f(torch.ones(2, 3), torch.ones(3, 4), torch.ones(5, 1, 3), torch.ones(3),
               torch.ones(7, 3)):
        print(t.dtype, t.shape)
