# A constant trip count of 64 or more is not unrolled fully (PyTorch's kMaxBodyRepeats)
# but by 8, as a count known only at run time is: 100 iterations are 12 of the unrolled
# loop and 4 of the epilogue, the counter carried from one into the other. 63 iterations
# are still unrolled fully.
# PASS: loop_unroll
# CHECK: aten::__round_to_zero_floordiv
# CHECK: prim::Loop(
# CHECK-COUNT-8: aten::mul(
# CHECK: prim::Loop(
# CHECK-NOT: prim::Loop(
# CHECK: prim::Print
# CHECK-COUNT-63: aten::sub(
# CHECK-NOT: prim::Loop(
from typing import List


def main():
    h = 7
    for i in range(100):
        h = (h * 31 + i) % 1000003
    print(h)
    d = 1000
    for i in range(63):
        d = d - i
    print(d)
