# The constants other passes make are pooled: the 5 that 2 + 3 folds into is the 5
# written in the source, the 12 of two folds is one constant (constants keep the order they first appear in), and a constant from a
# branch or loop body moves to the top of the graph. As PyTorch's constant propagation
# followed by torch._C._jit_pass_constant_pooling.
# FUNCTION: f
# CHECK-COUNT-EXACTLY-1: prim::Constant[value=5]()
# CHECK-COUNT-EXACTLY-1: prim::Constant[value=12]()
# CHECK: prim::Loop
# CHECK-NOT: prim::Constant
# CHECK: return


def f(x: int) -> int:
    a = 2 + 3
    b = x * 5
    c = 3 * 4 + x
    d = 6 * 2
    s = 0
    for i in range(x):
        s = s + len("x" + "") + 10 + 2
    e = len("x")
    return a + b + c + d + s + e


def main():
    print(f(2))
    print(f(0))
