# dce_fresh_write_unused — A write into a fresh tensor nobody reads may go; the answer is the same.
# A mutation-suite program (t/mutation/README): its .out is what PyTorch 1.13 printed
# (t/mutation/make_expected.py), and t/mutation.sh requires the same with the optimizer on.
from typing import List

import torch

def f(x: torch.Tensor):
    y = x + 1
    y.add_(1)
    z = x * 2
    return z


def main():
    print(f(torch.ones(2)))
