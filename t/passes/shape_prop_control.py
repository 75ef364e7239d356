# Control flow: an If's output has what both branches agree on (the dtype; a size they
# differ in becomes '*'); a loop-carried tensor that keeps its type through the body keeps
# it after the loop, one whose size grows each trip loses that size, one whose dtype may
# change loses its dtype. An operator with no rule gives the plain Tensor.
# PASS: shape_prop
# FUNCTION: f
# INPUTS: Float(2, 3, requires_grad=0, device=cpu), int
# CHECK: %a : Float(*, 3, requires_grad=0, device=cpu) = prim::If(
# CHECK: %b : Float(2, 3, requires_grad=0, device=cpu) = prim::Loop(
# CHECK: %c : Float(*, 3, requires_grad=0, device=cpu) = prim::Loop(
# CHECK: %d : Tensor(2, 3, requires_grad=0, device=cpu) = prim::Loop(
# CHECK: %e : Tensor = aten::nonzero(
import torch
from typing import Tuple


def f(x: torch.Tensor, n: int) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor,
                                        torch.Tensor, torch.Tensor]:
    if n > 2:
        a = x
    else:
        a = torch.cat([x, x])
    b = x
    for i in range(n):
        b = b * 2 + 1
    c = x
    for i in range(n):
        c = torch.cat([c, x])
    d = x
    for i in range(n):
        if i == 3:
            d = d.double()
        else:
            d = d + 1
    e = torch.nonzero(x)
    return a, b, c, d, e


def main():
    for n in [0, 1, 3, 5]:
        for t in f(torch.zeros(2, 3), n):
            print(t.dtype, t.shape)
