# Chains of int additions and subtractions of constants merge (PyTorch's
# peephole_non_tensor keeps the outer node's kind): (x + 3) - 1 is x - (-2), 5 + (x - 2) is
# x + 3, (x - 4) - 6 is x - 10, (x + 7) - 7 is x, x + 1 + 2 + 3 + 4 is one x + 10. A float chain stays (float addition does not reassociate), and so does
# an int chain whose first operand is not constant.
# PASS: peephole
# FUNCTION: f
# CHECK: %a : int = aten::sub(%x, %
# CHECK: %b : int = aten::add(%x, %
# CHECK: %c : int = aten::sub(%x, %
# CHECK-NOT: %d : int
# CHECK: %j : int = aten::add(%x, %
# CHECK: %e : float = aten::add(%
# CHECK: %g : float = aten::sub(%e,
# CHECK: %h : int = aten::add(%
# CHECK: %i : int = aten::add(%h,
# CHECK: return


def f(x: int, y: float, z: int) -> float:
    a = (x + 3) - 1
    b = 5 + (x - 2)
    c = (x - 4) - 6
    d = (x + 7) - 7
    j = x + 1 + 2 + 3 + 4
    e = y + 0.1
    g = e - 0.1
    h = x + z
    i = h + 1
    return float(a + b + c + d + i + j) + g


def main():
    print(f(3, 0.2, 1))
    print(f(-9223372036854775807, -1.5, 2))
    print(f(9223372036854775807, 1e300, -7))
