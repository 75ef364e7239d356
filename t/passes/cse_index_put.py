# y[0] = 5 writes y through a view (select + copy_/fill_): the sums before and after
# differ, so both stay.
# PASS: cse
# FUNCTION: f
# CHECK-COUNT-EXACTLY-2: aten::sum
import torch


def f(x: torch.Tensor) -> torch.Tensor:
    y = x * 1
    a = y.sum()
    y[0] = 5.0
    b = y.sum()
    return torch.stack([a, b])


def main():
    print(f(torch.ones(3)))
