# cse_pure_positive — No write at all: the merged sums give the same answers.
# A mutation-suite program (t/mutation/README): its .out is what PyTorch 1.13 printed
# (t/mutation/make_expected.py), and t/mutation.sh requires the same with the optimizer on.
from typing import List

import torch

def f(t: torch.Tensor):
    a = (t * 2).sum()
    b = (t * 2).sum()
    return a, b, a + b


def main():
    print(f(torch.arange(4.0)))
