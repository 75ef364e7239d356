# Tuples and lists of constants fold: TupleConstruct, TupleIndex, a list that is only read
# (len, indexing) and the operators on them. A list that is appended to, returned or
# printed is left as built, since a constant list is shared by every call.
# PASS: constant_prop
# FUNCTION: f
# CHECK-NOT: prim::TupleConstruct
# CHECK-NOT: prim::TupleIndex
# CHECK: prim::Constant[value=10]()
# CHECK: prim::ListConstruct
# CHECK-NOT: aten::len
# CHECK: aten::append
from typing import List


def f(x: int) -> List[int]:
    t = (1, 2.5, "s")
    r = [1, 2, 3]
    k = len(r) + r[1] + int(t[1]) + len(t[2]) + r[-1] - 1
    out = [4, 5]
    out.append(x + k)
    return out


def main():
    print(f(1))
    a = f(2)
    a.append(0)
    print(a, f(2))
