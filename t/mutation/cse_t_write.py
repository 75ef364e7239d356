# cse_t_write — y.t().mul_(2) writes y through a transposed view.
# A mutation-suite program (t/mutation/README): its .out is what PyTorch 1.13 printed
# (t/mutation/make_expected.py), and t/mutation.sh requires the same with the optimizer on.
from typing import List

import torch

def f(x: torch.Tensor):
    y = x + 0
    a = y.sum()
    y.t().mul_(2)
    b = y.sum()
    return a, b


def main():
    print(f(torch.ones(2, 3)))
