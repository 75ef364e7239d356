# A loop that never runs (a constant trip count <= 0) becomes its initial values; a loop
# that runs is folded inside. As PyTorch's constant propagation.
# PASS: constant_prop
# FUNCTION: f
# CHECK-COUNT-EXACTLY-1: prim::Loop(%x
# CHECK: prim::Constant[value=6]()
# CHECK-NOT: aten::mul
# CHECK: return (%s)


def f(x: int) -> int:
    s = x
    for i in range(0):
        s = s + i
    for j in range(x):
        s = s + 2 * 3
    return s


def main():
    print(f(3))
    print(f(0))
