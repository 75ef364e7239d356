# Canonicalize numbers the values in the order they are defined — inputs, then each
# node's outputs, then its blocks' inputs and nodes — and keeps their names, as PyTorch's
# torch._C._jit_pass_canonicalize (keep_unique_names) numbers the same graph
# (the frontend orders the first two constants the other way round).
# PASS: canonicalize
# FUNCTION: h
# CHECK: graph(%x : int):
# CHECK-NEXT: %1 : int = prim::Constant[value=3]()
# CHECK-NEXT: %2 : bool = prim::Constant[value=1]()
# CHECK-NEXT: %3 : int = prim::Constant[value=1]()
# CHECK-NEXT: %y : int = prim::Loop(%1, %2, %x)
# CHECK-NEXT: block0(%i : int, %y.7 : int):
# CHECK-NEXT: %7 : bool = aten::gt(%i, %3)
# CHECK: return (%y)


def h(x: int) -> int:
    y = x
    for i in range(3):
        if i > 1:
            y = y + i
    return y


def main():
    print(h(1))
    print(h(-5))
