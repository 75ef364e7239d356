# A write at the end of a loop body is read at the start of the next iteration: the body is
# marked until nothing changes, and the write stays.
# PASS: dead_code
# FUNCTION: f
# CHECK: prim::Loop
# CHECK: aten::sum
# CHECK: aten::add_
import torch


def f(n: int) -> float:
    acc = torch.zeros(1)
    total = 0.0
    for i in range(n):
        total += float(acc.sum())
        acc.add_(1)
    return total


def main():
    print(f(4))
