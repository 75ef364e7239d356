# cse_call_writes — A called function writes its argument: sums around the call differ.
# A mutation-suite program (t/mutation/README): its .out is what PyTorch 1.13 printed
# (t/mutation/make_expected.py), and t/mutation.sh requires the same with the optimizer on.
from typing import List

import torch

def bump(x: torch.Tensor):
    x.add_(1)


def f(t: torch.Tensor):
    y = t + 0
    a = y.sum()
    bump(y)
    b = y.sum()
    return a, b


def main():
    print(f(torch.ones(2)))
