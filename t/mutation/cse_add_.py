# cse_add_ — y + 1 before and after y.add_(1) are two values: CSE across the write would print a twice.
# A mutation-suite program (t/mutation/README): its .out is what PyTorch 1.13 printed
# (t/mutation/make_expected.py), and t/mutation.sh requires the same with the optimizer on.
from typing import List

import torch

def f(x: torch.Tensor):
    y = x * 2
    a = y + 1
    y.add_(1)
    b = y + 1
    return a, b


def main():
    a, b = f(torch.ones(2))
    print(a)
    print(b)
