# cse_setattr — An attribute set between two reads of it.
# A mutation-suite program (t/mutation/README): its .out is what PyTorch 1.13 printed
# (t/mutation/make_expected.py), and t/mutation.sh requires the same with the optimizer on.
from typing import List

import torch

@torch.jit.script
class Box(object):
    def __init__(self, x: int):
        self.x = x


def f():
    b = Box(1)
    a = b.x + 1
    b.x = 10
    c = b.x + 1
    return a, c


def main():
    print(f())
