# A callee that raises: inlined, its nodes remember the calls they came from, and the
# traceback names every function as the calls did (t/opt_diff.sh compares the stderr of
# the program with and without the optimizer). The outer call sits in a loop.
# PASS: inline
# FUNCTION: outer
# CHECK-NOT: prim::CallFunction
# CHECK: prim::RaiseException
from typing import List


def check(x: int) -> int:
    if x > 3:
        raise ValueError("x is too big: " + str(x))
    return x * 2


def middle(x: int) -> int:
    return check(x) + 1


def outer(n: int) -> int:
    s = 0
    for i in range(n):
        s = s + middle(i)
    return s


def main():
    print(outer(3))
    print(outer(6))
