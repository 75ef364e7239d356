# A body bigger than PyTorch's limit (32 nodes that run, nested blocks counted) is not
# unrolled, even with a constant trip count; a nested loop whose unrolled copies make the
# outer body too big leaves the outer loop in place while the inner one is unrolled.
# PASS: loop_unroll
# CHECK: prim::Loop(
# CHECK-NOT: prim::Loop(
# CHECK: prim::Print
# CHECK: prim::Loop(
# CHECK-NOT: prim::Loop(
# CHECK: prim::Print
from typing import List


def main():
    a = 1
    b = 2
    for i in range(5):
        a = a + b
        b = b * 2 - a
        a = a - b + 3
        b = b + a * 2
        a = a * 3 - b
        b = b - a + 7
        a = a + b * 5
        b = b * 2 - 1
        a = a % 1000003
        b = b % 1000033
        b = b + a // 3
        a = a * 7 + 11
        b = b - (a ^ 5)
        a = a - (b & 255)
        b = b * 3 + (a | 1)
        a = a % 999983
        b = b % 999979
        a = (a << 1) - (b >> 2)
        b = b + a % 17
    print(a, b)
    t = 0
    for i in range(10):
        for j in range(8):
            t = t + i * j + (i ^ j) + 1
    print(t)
