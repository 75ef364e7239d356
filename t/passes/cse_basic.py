# Two identical pure expressions on the same inputs: the second is the first.
# PASS: cse
# FUNCTION: f
# CHECK-COUNT-EXACTLY-1: aten::add
# CHECK: aten::mul
import torch


def f(x: torch.Tensor) -> torch.Tensor:
    a = x + 1
    b = x + 1
    return a * b


def main():
    print(f(torch.ones(2)))
