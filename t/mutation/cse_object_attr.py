# cse_object_attr — A method writes an attribute's tensor in place.
# A mutation-suite program (t/mutation/README): its .out is what PyTorch 1.13 printed
# (t/mutation/make_expected.py), and t/mutation.sh requires the same with the optimizer on.
from typing import List

import torch

@torch.jit.script
class Acc(object):
    def __init__(self, t: torch.Tensor):
        self.t = t

    def bump(self):
        self.t.add_(1)


def f():
    o = Acc(torch.zeros(2))
    a = o.t.sum()
    o.bump()
    b = o.t.sum()
    return a, b


def main():
    print(f())
