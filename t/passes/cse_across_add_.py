# y is written in place between the two y + 1: they must stay two (PyTorch's CSE keeps
# both: y has writers).
# PASS: cse
# FUNCTION: f
# CHECK: aten::add(%y
# CHECK-NEXT: aten::add_(%y
# CHECK-NEXT: aten::add(%y
import torch


def f(x: torch.Tensor) -> torch.Tensor:
    y = x * 2
    a = y + 1
    y.add_(1)
    b = y + 1
    return a + b


def main():
    print(f(torch.ones(2)))
