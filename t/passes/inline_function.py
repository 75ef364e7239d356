# Calls of script functions are replaced by the callee's nodes, as PyTorch's Inline pass
# (torch._C._jit_pass_inline) does, recursively: main calls add3, which calls add1 three
# times; no call is left.
# PASS: inline
# CHECK-NOT: prim::CallFunction
# CHECK-COUNT-3: aten::add(
# CHECK: aten::mul(
# CHECK-NOT: prim::CallFunction
# CHECK: prim::Print
from typing import List


def add1(x: int) -> int:
    return x + 1


def add3(x: int) -> int:
    return add1(add1(add1(x)))


def twice(xs: List[int]) -> List[int]:
    return [v * 2 for v in xs]


def main():
    print(add3(4))
    print(twice([1, 2, 3]))
