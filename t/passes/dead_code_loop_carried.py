# A loop-carried value nothing reads after the loop and the body never reads is removed
# with what computes it (a = i * 2; PyTorch's DCE keeps a value the body reads, a = a + i).
# PASS: dead_code
# FUNCTION: f
# CHECK: prim::Loop
# CHECK-COUNT-EXACTLY-1: aten::mul
import torch


def f(x: torch.Tensor, n: int) -> torch.Tensor:
    a = 0
    for i in range(n):
        a = i * 2
        x = x * 2
    return x


def main():
    print(f(torch.ones(2), 3))
