# A bool output of an If that is True on the then-branch and False on the else-branch is the
# condition (PyTorch's peephole_non_tensor): `c and True` and `c or False` are c, so the If
# is left with no used output. An If that yields False/True (not c) or a non-constant keeps
# its output.
# PASS: peephole
# FUNCTION: f
# CHECK-NOT: prim::If(%a)
# CHECK-NOT: prim::If(%b)
# CHECK: prim::If(%n)
# CHECK: prim::If(%q)
# CHECK: return


def f(c: bool, x: int) -> int:
    a = c and True
    b = c or False
    n = False if c else True
    q = x > 3 if c else False
    r = 0
    if a:
        r += 1
    if b:
        r += 2
    if n:
        r += 4
    if q:
        r += 8
    return r


def main():
    print(f(True, 5), f(True, 1), f(False, 5))
