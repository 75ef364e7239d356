# A value compared with itself: x == x and l != l on ints, bools and lists of them are
# constants (PyTorch's peephole_non_tensor). Not on floats: PyTorch 1.13 folds y == y for a
# float too, so its scripted f prints 14 for a nan y where Python prints 12; tscript keeps
# Python's answer (nan == nan is False) with the optimizer on and off. math.ceil of an int
# is the int.
# PASS: peephole
# FUNCTION: f
# CHECK-NOT: aten::eq(%x, %x)
# CHECK: aten::eq(%y, %y)
# CHECK-NOT: aten::ne(%l, %l)
# CHECK-NOT: aten::ne(%b, %b)
# CHECK-NOT: aten::ceil
# CHECK: return
import math
from typing import Dict, List


def f(x: int, y: float, l: List[int], d: Dict[int, bool], b: bool) -> int:
    n = 0
    if x == x:
        n += 1
    if y == y:
        n += 2
    if l != l:
        n += 4
    if len(d) == len(d):
        n += 8
    if b != b:
        n += 16
    n += math.ceil(x)
    return n


def main():
    print(f(3, math.nan, [1, 2], {1: True}, True))
    e: Dict[int, bool] = {}
    print(f(-5, 0.5, [], e, False))
