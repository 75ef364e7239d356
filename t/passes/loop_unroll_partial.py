# A counted loop whose count is not a constant (or is 64 or more) is unrolled by 8: the
# body repeats 8 times in a loop that runs n // 8 times (rounded toward zero), and a copy
# of the original loop, the epilogue, runs the other n - 8 * (n // 8) iterations on what
# the first loop carried out, the counter included. Checked for 0, 1, 7, 8, 9, 17 and
# negative counts.
# PASS: loop_unroll
# FUNCTION: tri
# CHECK: aten::__round_to_zero_floordiv
# CHECK: aten::mul
# CHECK: aten::sub
# CHECK: prim::Loop(
# CHECK-COUNT-16: aten::add(
# CHECK: prim::Loop(
# CHECK-COUNT-EXACTLY-2: aten::add(
# CHECK: return
from typing import List


def tri(n: int) -> int:
    s = 0
    for i in range(n):
        s = s + i
    return s


def main():
    for n in [0, 1, 7, 8, 9, 17, -1, -9, 100]:
        print(n, tri(n))
