# The whole pipeline on a graph specialized to a Float(*, 3) argument, as the executor
# builds the plan for such a call: x.size(1) and x.dim() become constants, so the loop
# over range(x.dim()) has a constant trip count and is unrolled, and the accumulator made
# from torch.zeros(x.size(1)) is known to be Float(3) throughout.
# FUNCTION: f
# INPUTS: Float(*, 3, requires_grad=0, device=cpu)
# CHECK: graph(%x : Float(*, 3, requires_grad=0, device=cpu)):
# CHECK-NOT: aten::dim(
# CHECK-NOT: prim::Loop
# CHECK: Float(3, requires_grad=0, device=cpu) = aten::add(
# CHECK: Float(3, requires_grad=0, device=cpu) = aten::add(
# CHECK-NOT: aten::add(
# CHECK: return
import torch


def f(x: torch.Tensor) -> torch.Tensor:
    acc = torch.zeros(x.size(1))
    for i in range(x.dim()):
        acc = acc + x.sum(0)
    return acc


def main():
    print(f(torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])))
    print(f(torch.ones(1, 3)))
