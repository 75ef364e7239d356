# Equal means the same type and the same bits: 0.0 and -0.0 stay two constants (they
# print differently; PyTorch merges them and then prints 0.0 for -0.0 * x), and 1, 1.0
# and True are three.
# FUNCTION: f
# CHECK-COUNT-EXACTLY-1: float = prim::Constant[value=0.]()
# CHECK-COUNT-EXACTLY-1: float = prim::Constant[value=-0.]()
# CHECK-COUNT-EXACTLY-1: float = prim::Constant[value=1.]()
# CHECK-COUNT-EXACTLY-1: bool = prim::Constant[value=1]()
# CHECK-COUNT-EXACTLY-1: int = prim::Constant[value=1]()
from typing import Tuple


def f(x: float) -> Tuple[float, float, float, float, bool, int]:
    a = 0.0 * 1.0
    b = -0.0 * 1.0
    c = 0.0 + 0.0
    d = 0.5 + 0.5
    t = 1 > 0
    return a + x, b * x, c - x, d, t, int(d)


def main():
    print(f(2.0))
    print(f(-0.0))
