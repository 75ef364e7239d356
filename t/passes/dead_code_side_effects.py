# print and raise stay although they produce nothing; an unused pure op goes.
# PASS: dead_code
# FUNCTION: f
# CHECK-NOT: aten::neg
# CHECK: prim::Print
# CHECK: prim::RaiseException
import torch


def f(x: torch.Tensor) -> torch.Tensor:
    y = -x
    print("x is", x)
    if bool(x.sum() > 100):
        raise ValueError("too big")
    return x


def main():
    print(f(torch.ones(2)))
