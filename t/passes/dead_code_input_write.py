# A write into a graph input is a side effect the caller sees: it stays.
# PASS: dead_code
# FUNCTION: f
# CHECK: aten::add_
import torch


def f(x: torch.Tensor) -> int:
    x.add_(1)
    return 1


def main():
    x = torch.zeros(2)
    f(x)
    print(x)
