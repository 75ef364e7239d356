# A body that reads the iteration counter gets an explicit one, carried from 0 and
# incremented by each copy (PyTorch's replaceLoopCounter): the copies see 0, 1, 2, ...
# A loop of 8 iterations is unrolled fully, a loop of 9 too; the sums are exact.
# PASS: loop_unroll
# CHECK-NOT: prim::Loop
# CHECK: prim::Print
# CHECK-NOT: prim::Loop
from typing import List


def main():
    s = 0
    for i in range(8):
        s = s + i * i
    t = 0
    for i in range(9):
        t = t + 2 * i + 1
    print(s, t)
