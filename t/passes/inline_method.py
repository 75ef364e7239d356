# A method called on a script class is known from the receiver's type, and is inlined
# like a function (PyTorch inlines prim::CallMethod the same way); the object's state is
# the same object, so a method that mutates it mutates the caller's.
# PASS: inline
# CHECK-NOT: prim::CallMethod
# CHECK: prim::SetAttr
# CHECK-NOT: prim::CallMethod
# CHECK: prim::Print
import torch
from typing import List


class Counter:
    def __init__(self, start: int):
        self.n = start

    def bump(self, by: int) -> int:
        self.n = self.n + by
        return self.n

    def twice(self) -> int:
        self.bump(1)
        return self.bump(1)


def main():
    c = Counter(5)
    a = c.bump(3)
    b = c.twice()
    print(a, b, c.n)
