# dce_if_write — A write in a branch into the caller's tensor.
# A mutation-suite program (t/mutation/README): its .out is what PyTorch 1.13 printed
# (t/mutation/make_expected.py), and t/mutation.sh requires the same with the optimizer on.
from typing import List

import torch

def f(x: torch.Tensor, c: bool) -> int:
    if c:
        x.add_(1)
    return 0


def main():
    x = torch.zeros(2)
    f(x, True)
    f(x, False)
    print(x)
