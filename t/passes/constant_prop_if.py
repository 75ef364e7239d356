# An If on a constant condition becomes the branch it takes (folded there too); an If
# whose branches both yield a value from outside it loses that output. As PyTorch's
# constant propagation.
# PASS: constant_prop
# FUNCTION: f
# CHECK-NOT: prim::If
# CHECK: int = prim::Constant[value=12]()
# CHECK-NOT: prim::If
# CHECK: aten::mul(%x
# CHECK-NOT: prim::If


def f(x: int) -> int:
    n = 3
    if n > 2:
        y = n * 4
        z = x * y
    else:
        y = n - 1
        z = x + y
    return z + y


def main():
    print(f(2))
    print(f(-7))
