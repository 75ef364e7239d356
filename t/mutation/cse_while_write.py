# cse_while_write — A while loop's condition reads a tensor the body writes.
# A mutation-suite program (t/mutation/README): its .out is what PyTorch 1.13 printed
# (t/mutation/make_expected.py), and t/mutation.sh requires the same with the optimizer on.
from typing import List

import torch

def f():
    y = torch.zeros(1)
    n = 0
    while float(y.sum()) < 3.0:
        y.add_(1)
        n += 1
    return n, y


def main():
    print(f())
