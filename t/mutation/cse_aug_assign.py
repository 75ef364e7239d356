# cse_aug_assign — y = x; y += 1 is in place for tensors: x changes too.
# A mutation-suite program (t/mutation/README): its .out is what PyTorch 1.13 printed
# (t/mutation/make_expected.py), and t/mutation.sh requires the same with the optimizer on.
from typing import List

import torch

def f(t: torch.Tensor):
    x = t + 0
    y = x
    a = x.sum()
    y += 1
    b = x.sum()
    return a, b


def main():
    print(f(torch.ones(2)))
