# A call tree that doubles at every level (f15 calls f14 twice, ..., f1 calls f0 twice:
# 32768 calls of f0) is inlined only until the graph has grown by the inliner's limit
# (20000 nodes); the calls beyond it stay calls, and the program computes the same.
# PASS: inline
# FUNCTION: f15
# CHECK: aten::add(
# CHECK: prim::CallFunction
from typing import List


def f0(x: int) -> int:
    return x + 1


def f1(x: int) -> int:
    return f0(x) + f0(x + 1)

def f2(x: int) -> int:
    return f1(x) + f1(x + 2)

def f3(x: int) -> int:
    return f2(x) + f2(x + 3)

def f4(x: int) -> int:
    return f3(x) + f3(x + 4)

def f5(x: int) -> int:
    return f4(x) + f4(x + 5)

def f6(x: int) -> int:
    return f5(x) + f5(x + 6)

def f7(x: int) -> int:
    return f6(x) + f6(x + 7)

def f8(x: int) -> int:
    return f7(x) + f7(x + 8)

def f9(x: int) -> int:
    return f8(x) + f8(x + 9)

def f10(x: int) -> int:
    return f9(x) + f9(x + 10)

def f11(x: int) -> int:
    return f10(x) + f10(x + 11)

def f12(x: int) -> int:
    return f11(x) + f11(x + 12)

def f13(x: int) -> int:
    return f12(x) + f12(x + 13)

def f14(x: int) -> int:
    return f13(x) + f13(x + 14)

def f15(x: int) -> int:
    return f14(x) + f14(x + 15)


def main():
    print(f15(1))
