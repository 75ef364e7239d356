# Equal means the same type and the same value, as PyTorch's pooling compares: 0.0 and -0.0
# are one constant, the first one (PyTorch then computes 0.0 * x for -0.0 * x, and a later
# torch.tensor([-0.0]) holds 0.0), and 1, 1.0 and True are three.
# FUNCTION: f
# CHECK-COUNT-EXACTLY-1: float = prim::Constant[value=0.]()
# CHECK-NOT: prim::Constant[value=-0.]()
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
