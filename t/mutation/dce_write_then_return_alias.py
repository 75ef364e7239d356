# dce_write_then_return_alias — y is written and a view of it returned: the write must stay.
# A mutation-suite program (t/mutation/README): its .out is what PyTorch 1.13 printed
# (t/mutation/make_expected.py), and t/mutation.sh requires the same with the optimizer on.
from typing import List

import torch

def f(x: torch.Tensor):
    y = x + 1
    v = y[0]
    y.add_(10)
    return v


def main():
    print(f(torch.ones(2)))
