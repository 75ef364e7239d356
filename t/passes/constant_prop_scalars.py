# Constant propagation folds pure operators on constant ints, floats, bools and strs, and
# the chains they make; what depends on an input stays. As PyTorch's
# torch._C._jit_pass_constant_propagation on the same function.
# PASS: constant_prop
# FUNCTION: f
# CHECK-NOT: aten::mul
# CHECK-NOT: aten::div
# CHECK: int = prim::Constant[value=20]()
# CHECK: str = prim::Constant[value="abcd"]()
# CHECK: aten::add(%x
# CHECK: str = prim::Constant[value="2.5"]()
# CHECK: str = prim::Constant[value="True"]()
# CHECK-NOT: aten::floordiv
# CHECK-NOT: aten::gt
# CHECK: return


def f(x: int) -> str:
    a = (2 + 3) * 4
    h = 5.0 / 2
    s = "ab" + "cd"
    t = 7 // 2 > 2
    return str(x + a) + s + str(h) + str(t)


def main():
    print(f(1))
    print(f(-30))
