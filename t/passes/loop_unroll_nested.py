# Nested loops: the inner loop is unrolled first (3 iterations: fully); the outer loop's
# body then holds the three copies, small enough, and with 4 iterations it is unrolled
# fully too: 12 copies of the inner body, no loop left. The outer counter feeds the inner
# body, so both counters stay exact.
# PASS: loop_unroll
# CHECK-NOT: prim::Loop
# CHECK-COUNT-12: aten::mul(
# CHECK-NOT: prim::Loop
# CHECK: prim::Print
from typing import List


def main():
    acc = 0
    for i in range(4):
        for j in range(3):
            acc = acc + (i + 1) * (j + 2)
    print(acc)
