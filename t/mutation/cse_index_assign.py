# cse_index_assign — y[0] = 5 writes y through a select view: the two sums differ.
# A mutation-suite program (t/mutation/README): its .out is what PyTorch 1.13 printed
# (t/mutation/make_expected.py), and t/mutation.sh requires the same with the optimizer on.
from typing import List

import torch

def f(x: torch.Tensor):
    y = x * 1
    a = y.sum()
    y[0] = 5.0
    b = y.sum()
    return a, b


def main():
    print(f(torch.ones(3)))
