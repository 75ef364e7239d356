# Reductions: over all dims to a zero-dim tensor, over the dims given (negative ones
# counted from the end) keeping them as 1 with keepdim; sum of integers is int64 unless
# dtype= says otherwise, mean keeps the dtype or takes dtype=; amax keeps the dtype;
# max(x, dim) gives the values and int64 indices (a tuple unpacked where it was built
# keeps them); argmax is int64.
# PASS: shape_prop
# FUNCTION: f
# INPUTS: Int(2, 3, 4, requires_grad=0, device=cpu), Float(*, 5, requires_grad=0, device=cpu)
# CHECK: %a : Long(requires_grad=0, device=cpu) = aten::sum(%x
# CHECK: %b : Long(2, 4, requires_grad=0, device=cpu) = aten::sum(%x
# CHECK: %c : Double(2, 1, 1, requires_grad=0, device=cpu) = aten::sum(%x
# CHECK: %d : Float(*, requires_grad=0, device=cpu) = aten::mean(%y
# CHECK: %e : Double(1, 5, requires_grad=0, device=cpu) = aten::mean(%y
# CHECK: %g : Int(3, requires_grad=0, device=cpu) = aten::amax(%x
# CHECK: Float(*, requires_grad=0, device=cpu), %
# CHECK-SAME: : Long(*, requires_grad=0, device=cpu) = aten::max(%y
# CHECK: %h : Float(*, requires_grad=0, device=cpu), %i : Long(*, requires_grad=0, device=cpu) = prim::TupleUnpack(
# CHECK: %j : Long(2, 1, 4, requires_grad=0, device=cpu) = aten::argmax(%x
# CHECK: %k : Float(requires_grad=0, device=cpu) = aten::max(%y)
import torch
from typing import Tuple


def f(x: torch.Tensor, y: torch.Tensor) -> Tuple[
        torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor,
        torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    a = x.sum()
    b = x.sum(dim=1)
    c = x.sum(dim=[1, -1], keepdim=True, dtype=torch.float64)
    d = y.mean(dim=1)
    e = y.mean(dim=0, keepdim=True, dtype=torch.float64)
    g = x.amax(dim=[0, 2])
    h, i = y.max(dim=1)
    j = x.argmax(dim=1, keepdim=True)
    k = y.max()
    return a, b, c, d, e, g, h, i, j, k


def main():
    for t in f(torch.ones(2, 3, 4, dtype=torch.int32), torch.ones(3, 5)):
        print(t.dtype, t.shape)
