# After the whole pipeline the graph prints with consecutive numbers however many values
# the passes before made and removed: the folded constants, the removed If.
# FUNCTION: f
# CHECK: graph(%x : int):
# CHECK-NEXT: %1 : int = prim::Constant[value=
# CHECK-NEXT: %2 : int = aten::mul(%x, %1)
# CHECK-NEXT: %3 : int = aten::add(%2, %1)
# CHECK-NEXT: return (%3)


def f(x: int) -> int:
    n = 2 * 3
    if n > 5:
        k = n * 2
    else:
        k = n - 1
    return x * k + k


def main():
    print(f(4))
