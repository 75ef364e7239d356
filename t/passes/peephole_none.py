# `is None` and `is not None` where the types decide: a value that cannot be None is never
# None, None is None; an Optional stays a test. A cast to the type a value already has is
# the value, and not (not b) is b.
# PASS: peephole
# FUNCTION: f
# CHECK-NOT: aten::__not__
# CHECK: aten::__isnot__(%o
# CHECK-NOT: aten::__is__
# CHECK-NOT: aten::__not__
# CHECK: return
from typing import Optional


def f(x: int, o: Optional[int], b: bool) -> str:
    n = None
    r = o is not None
    return str(x is None) + str(n is None) + str(r) + str(not (not b))


def main():
    print(f(1, None, True))
    print(f(1, 3, False))
