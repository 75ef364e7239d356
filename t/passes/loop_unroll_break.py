# Loops whose body breaks or continues, and while loops, are not for loops (their
# condition is computed, not the constant true): PyTorch leaves them, and so do we; what
# they compute is unchanged.
# PASS: loop_unroll
# CHECK: prim::Loop(
# CHECK: prim::Loop(
# CHECK: prim::Loop(
from typing import List


def main():
    s = 0
    for i in range(10):
        if i == 6:
            break
        s = s + i
    r: List[int] = []
    for i in range(7):
        if i % 3 == 0:
            continue
        r.append(i)
    k = 1
    while k < 100:
        k = k * 3
    print(s, r, k)
