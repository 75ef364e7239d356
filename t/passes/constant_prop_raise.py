# A fold that would raise is left for run time, so the error happens where and as it did
# (t/constant_prop_run.sh checks the message): 1 // 0 and [1][5] stay operations,
# as PyTorch leaves them; the list itself becomes a constant, as PyTorch's does.
# PASS: constant_prop
# FUNCTION: f
# CHECK: aten::floordiv
# CHECK: aten::__getitem__
# CHECK: aten::add(%x


def f(x: int) -> int:
    if x > 0:
        return x + (1 // 0)
    return x + [1][5]


def main():
    print(1)
    print(f(1))
