# cse_copy_ — y.copy_(z) writes y, not z: z.sum() may be merged, y.sum() may not.
# A mutation-suite program (t/mutation/README): its .out is what PyTorch 1.13 printed
# (t/mutation/make_expected.py), and t/mutation.sh requires the same with the optimizer on.
from typing import List

import torch

def f(t: torch.Tensor):
    y = t + 0
    z = t * 3
    a = y.sum()
    c = z.sum()
    y.copy_(z)
    b = y.sum()
    d = z.sum()
    return a, b, c, d


def main():
    print(f(torch.ones(2)))
