# A write through a view of a graph input writes the input: the view and the write stay.
# PASS: dead_code
# FUNCTION: f
# CHECK: aten::view
# CHECK: aten::add_
import torch


def f(x: torch.Tensor) -> int:
    y = x.view(-1)
    y.add_(1)
    return 1


def main():
    x = torch.zeros(2, 2)
    f(x)
    print(x)
