# dce_masked_fill_view — masked_fill_ through a view of the input.
# A mutation-suite program (t/mutation/README): its .out is what PyTorch 1.13 printed
# (t/mutation/make_expected.py), and t/mutation.sh requires the same with the optimizer on.
from typing import List

import torch

def f(x: torch.Tensor) -> int:
    x[0].masked_fill_(x[0] < 1.0, 2.0)
    return 0


def main():
    x = torch.zeros(2, 2)
    f(x)
    print(x)
