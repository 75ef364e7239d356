# cse_view_write — A write through y.view(-1) changes y: y.sum() is computed again.
# A mutation-suite program (t/mutation/README): its .out is what PyTorch 1.13 printed
# (t/mutation/make_expected.py), and t/mutation.sh requires the same with the optimizer on.
from typing import List

import torch

def f(x: torch.Tensor):
    y = x.clone()
    a = y.sum()
    v = y.view(-1)
    v[0] = 7.0
    b = y.sum()
    return a, b


def main():
    print(f(torch.ones(2, 2)))
