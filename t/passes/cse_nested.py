# An expression of the enclosing block is reused inside an If's branch; the branches' own
# copies of one expression are not merged with each other.
# PASS: cse
# FUNCTION: f
# CHECK-COUNT-EXACTLY-1: aten::mul
# CHECK: prim::If
# CHECK: aten::sub
# CHECK: aten::sub
import torch


def f(x: torch.Tensor, c: bool) -> torch.Tensor:
    a = x * 3
    if c:
        b = x * 3 - 1
    else:
        b = x * 3 - 1
    return a + b


def main():
    print(f(torch.ones(2), True))
