# Loops with a constant trip count below 64 and a small body are unrolled fully, as
# PyTorch's _jit_pass_loop_unrolling does: no loop is left; the body is repeated once per
# iteration, each copy taking the carried values of the one before. A count of 0 or a
# negative one leaves the initial values.
# PASS: loop_unroll
# CHECK-NOT: prim::Loop
# CHECK-COUNT-7: aten::mul
# CHECK-NOT: aten::mul
# CHECK: prim::Print
from typing import List


def main():
    x = 1
    for i in range(7):
        x = x * 3
    print(x)
    y = 5
    for i in range(0):
        y = y + 1
    print(y)
    z = 2
    for i in range(-4):
        z = z + 1
    print(z)
    w = 0
    for i in range(1):
        w = w + 10
    print(w)
