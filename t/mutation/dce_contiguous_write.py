# dce_contiguous_write — contiguous() of a contiguous tensor is the tensor itself.
# A mutation-suite program (t/mutation/README): its .out is what PyTorch 1.13 printed
# (t/mutation/make_expected.py), and t/mutation.sh requires the same with the optimizer on.
from typing import List

import torch

def f(x: torch.Tensor) -> int:
    y = x.contiguous()
    y.add_(2)
    return 0


def main():
    x = torch.zeros(2)
    f(x)
    print(x)
