# A write through x.t() (a view) writes y: y.sum() before and after are not the same.
# PASS: cse
# FUNCTION: f
# CHECK-COUNT-EXACTLY-2: aten::sum
import torch


def f(x: torch.Tensor) -> torch.Tensor:
    y = x + 0
    a = y.sum()
    y.t().mul_(2)
    b = y.sum()
    return torch.stack([a, b])


def main():
    print(f(torch.ones(2, 2)))
