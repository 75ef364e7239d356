# class_magic_methods — printed output checked by t/lang_print.sh against class_magic_methods.out (PyTorch 1.13).
import math
import torch
from typing import Any, Dict, List, NamedTuple, Optional, Tuple, Union
from enum import Enum

class V:
    def __init__(self, x: float, y: float):
        self.x = x
        self.y = y
    def __add__(self, o: "V") -> "V":
        return V(self.x + o.x, self.y + o.y)
    def __sub__(self, o: "V") -> "V":
        return V(self.x - o.x, self.y - o.y)
    def __mul__(self, k: float) -> "V":
        return V(self.x * k, self.y * k)
    def __truediv__(self, k: float) -> "V":
        return V(self.x / k, self.y / k)
    def __neg__(self) -> "V":
        return V(-self.x, -self.y)
    def __eq__(self, o: "V") -> bool:
        return self.x == o.x and self.y == o.y
    def __ne__(self, o: "V") -> bool:
        return not self == o
    def __lt__(self, o: "V") -> bool:
        return self.x < o.x
    def __le__(self, o: "V") -> bool:
        return self.x <= o.x
    def __gt__(self, o: "V") -> bool:
        return self.x > o.x
    def __ge__(self, o: "V") -> bool:
        return self.x >= o.x
    def __mod__(self, k: int) -> "V":
        return V(self.x % k, self.y % k)
    def __pow__(self, k: int) -> "V":
        return V(self.x ** k, self.y ** k)
    def __and__(self, o: "V") -> bool:
        return self.x != 0 and o.x != 0
    def __or__(self, o: "V") -> int:
        return 7
    def __xor__(self, o: "V") -> int:
        return 8
    def __lshift__(self, k: int) -> int:
        return k * 2
    def __rshift__(self, k: int) -> int:
        return k // 2
    def __str__(self) -> str:
        return "V(" + str(self.x) + ", " + str(self.y) + ")"
    def __hash__(self) -> int:
        return 5
    def __len__(self) -> int:
        return 2
    def __floordiv__(self, k: int) -> int:
        return 99
def main():
    a = V(1.0, -2.0)
    b = V(0.5, 4.0)
    print(str(a + b), str(a - b), str(a * 2.0), str(a / 4.0), str(-a), str(a % 2), str(a ** 2))
    print(a == b, a != b, a == V(1.0, -2.0), a < b, a <= b, a > b, a >= b)
    print(a & b, a | b, a ^ b, a << 3, a >> 9, len(a))
    c = a
    c += b
    print(str(c), str(a))
    l = [V(3.0, 0.0), a, b]
    l.sort()
    print([v.x for v in l], str(max(a, b)) if False else 0)
    print(sorted(l)[0].x)
