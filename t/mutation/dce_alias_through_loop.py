# dce_alias_through_loop — The loop-carried value is the input at first: the write reaches it.
# A mutation-suite program (t/mutation/README): its .out is what PyTorch 1.13 printed
# (t/mutation/make_expected.py), and t/mutation.sh requires the same with the optimizer on.
from typing import List

import torch

def f(x: torch.Tensor, n: int) -> int:
    y = x
    for i in range(n):
        y.add_(1)
        y = y[0:1]
    return 0


def main():
    x = torch.zeros(3)
    f(x, 2)
    print(x)
