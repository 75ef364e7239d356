# dce_split_write — A chunk of split is a view: zeroing it zeroes part of the input.
# A mutation-suite program (t/mutation/README): its .out is what PyTorch 1.13 printed
# (t/mutation/make_expected.py), and t/mutation.sh requires the same with the optimizer on.
from typing import List

import torch

def f(x: torch.Tensor) -> int:
    parts = x.split(2)
    parts[0].zero_()
    return 0


def main():
    x = torch.ones(5)
    f(x)
    print(x)
