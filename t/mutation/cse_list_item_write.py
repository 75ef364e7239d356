# cse_list_item_write — xs[0].add_(1) writes the tensor the list holds: xs[0].sum() twice differs.
# A mutation-suite program (t/mutation/README): its .out is what PyTorch 1.13 printed
# (t/mutation/make_expected.py), and t/mutation.sh requires the same with the optimizer on.
from typing import List

import torch

def f(t: torch.Tensor):
    xs = [t + 0, t + 1]
    a = xs[0].sum()
    xs[0].add_(1)
    b = xs[0].sum()
    return a, b


def main():
    print(f(torch.ones(2)))
