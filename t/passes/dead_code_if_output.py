# An If output nothing uses is removed, and so is what computed it in each branch.
# PASS: dead_code
# FUNCTION: f
# CHECK: prim::If
# CHECK-NOT: aten::sub
# CHECK: aten::mul
# CHECK-NOT: aten::sub
# CHECK: aten::div
# CHECK-NOT: aten::sub
# CHECK: return
import torch


def f(x: torch.Tensor, c: bool) -> torch.Tensor:
    if c:
        a = x - 1
        b = x * 2
    else:
        a = x - 2
        b = x / 2
    return b


def main():
    print(f(torch.ones(2), True))
    print(f(torch.ones(2), False))
