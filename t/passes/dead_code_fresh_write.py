# An in-place write into a fresh tensor that nothing reads afterwards goes, with the tensor
# (torch._C._jit_pass_dce does the same); the input x is untouched.
# PASS: dead_code
# FUNCTION: f
# CHECK-NOT: aten::add
# CHECK: return
import torch


def f(x: torch.Tensor) -> torch.Tensor:
    y = x + 1
    y.add_(1)
    return x


def main():
    print(f(torch.ones(2)))
