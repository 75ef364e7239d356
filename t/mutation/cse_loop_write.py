# cse_loop_write — Inside a loop the sum is recomputed after each add_.
# A mutation-suite program (t/mutation/README): its .out is what PyTorch 1.13 printed
# (t/mutation/make_expected.py), and t/mutation.sh requires the same with the optimizer on.
from typing import List

import torch

def f(n: int):
    y = torch.zeros(2)
    out: List[float] = []
    for i in range(n):
        out.append(float(y.sum()))
        y.add_(1)
        out.append(float(y.sum()))
    return out


def main():
    print(f(3))
