# A function that reshapes a tensor in place (swapaxes_): every value that may be written
# keeps nothing (a's zeros and what aliases it); values nothing writes keep their types.
# PASS: shape_prop
# FUNCTION: f
# INPUTS: Float(2, 3, requires_grad=0, device=cpu), Float(2, 3, requires_grad=0, device=cpu)
# CHECK: %a : Tensor = aten::zeros(
# CHECK: %b : Tensor = aten::swapaxes_(%a
# CHECK: %c : Float(3, 2, strides=[2, 1], requires_grad=0, device=cpu) = aten::ones(
# CHECK: %d : Tensor = aten::add(%b
import torch
from typing import Tuple


def f(x: torch.Tensor, y: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    a = torch.zeros(2, 3)
    b = a.swapaxes_(0, 1)
    c = torch.ones(3, 2)
    d = b + c.sum()
    return a, b, d


def main():
    for t in f(torch.ones(2, 3), torch.ones(2, 3)):
        print(t.dtype, t.shape, t.requires_grad)
