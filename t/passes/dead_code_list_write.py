# The only effect of the loop is a write through the list's elements, which are wildcards:
# it stays (PyTorch keeps it too).
# PASS: dead_code
# FUNCTION: f
# CHECK: prim::ListConstruct
# CHECK: prim::Loop
# CHECK: aten::add_
import torch


def f(x: torch.Tensor) -> torch.Tensor:
    ts = [x, x + 2]
    for t in ts:
        t.add_(1)
    return x


def main():
    print(f(torch.zeros(2)))
