# Loops carrying a list and a tensor. A list appended to in the body is one object that
# every copy appends to, in order; a tensor is carried value to value. The loop whose
# count comes from len() is unrolled by 8 with its epilogue, the one of 6 fully.
# PASS: loop_unroll
# CHECK: aten::__round_to_zero_floordiv
# CHECK: prim::Loop(
# CHECK-COUNT-8: aten::append(
# CHECK: prim::Loop(
# CHECK-NOT: prim::Loop(
# CHECK-COUNT-6: aten::mul(
# CHECK-NOT: prim::Loop(
import torch
from typing import List


def main():
    xs = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5]
    out: List[int] = []
    for i in range(len(xs)):
        out.append(xs[i] * 10 + i)
    print(out)
    t = torch.ones(2, 3)
    for i in range(6):
        t = t * 2.0 + 1.0
    print(t)
