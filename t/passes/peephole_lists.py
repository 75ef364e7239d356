# len() of a list built here that nothing writes is its length, and an item at a constant
# index in range is the value put there; the list then goes. A list that is appended to
# keeps its len(), and an index out of range is left to raise at run time.
# PASS: peephole
# FUNCTION: f
# CHECK-NOT: aten::len(%l
# CHECK: aten::append(%m
# CHECK: aten::len(%m
# CHECK: aten::__getitem__
# CHECK: return
from typing import List


def f(x: int, y: int) -> int:
    l = [x, y, 3]
    a = len(l) + l[0] + l[-2]
    m = [x]
    m.append(y)
    b = len(m)
    k = [x, y]
    c = k[x]
    return a + b + c


def main():
    print(f(1, 7))
    print(f(0, 2))
