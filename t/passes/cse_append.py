# len(l) before and after an append are different values.
# PASS: cse
# FUNCTION: f
# CHECK-COUNT-EXACTLY-2: aten::len
import torch


def f(x: int) -> int:
    l = [1, 2]
    a = len(l)
    l.append(x)
    b = len(l)
    return a * 10 + b


def main():
    print(f(3))
