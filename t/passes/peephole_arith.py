# Arithmetic identities on ints: x + 0, 0 + x, x - 0, x * 1, 1 * x and x // 1 are x, as
# PyTorch's peephole makes them. Floats only where exact: y * 1.0 and y - 0.0 are y, but
# y + 0.0 stays (it makes 0.0 of -0.0); x - 1 and 0 - x stay.
# PASS: peephole
# FUNCTION: f
# CHECK-NOT: aten::mul
# CHECK-NOT: aten::floordiv
# CHECK: %c : int = aten::sub(%x,
# CHECK: %d : int = aten::sub(%
# CHECK-SAME: , %x)
# CHECK: %z : float = aten::add(%y,
# CHECK-NOT: aten::mul
# CHECK: return


def f(x: int, y: float) -> float:
    a = (((x + 0) * 1) - 0) // 1
    b = 1 * (0 + a)
    c = b - 1
    d = 0 - x
    z = ((y * 1.0) - 0.0) + 0.0
    w = 1.0 * y
    return float(b + c + d) + z + w


def main():
    print(f(3, -0.0))
    print(f(-4, 2.5))
