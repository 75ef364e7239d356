# Tensors fold when nothing can write them: torch.zeros(3) + 1 and its sum become one
# constant. A tensor that is written in place (c.add_), returned, or larger than the
# size limit (1024 elements) is computed at run time, since a constant is shared by every
# call of the function.
# PASS: constant_prop
# FUNCTION: f
# CHECK-NOT: aten::zeros(
# CHECK: aten::ones(
# CHECK: aten::add_(
# CHECK: aten::zeros(
# CHECK: aten::ones(
# CHECK: return
import torch
from typing import Tuple


def f(x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
    a = torch.zeros(3)
    b = (a + 1).sum()
    c = torch.ones(2)
    c.add_(1)
    big = torch.zeros(2000)
    r = torch.ones(2)
    return x + b + c.sum() + big.sum(), r


def main():
    x = torch.tensor([1.0, 2.0])
    y, r = f(x)
    r.add_(5)
    print(y, r)
    y, r = f(x)
    print(y, r)
