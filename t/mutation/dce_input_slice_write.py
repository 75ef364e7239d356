# dce_input_slice_write — x[1:] = 5 writes the input through a slice.
# A mutation-suite program (t/mutation/README): its .out is what PyTorch 1.13 printed
# (t/mutation/make_expected.py), and t/mutation.sh requires the same with the optimizer on.
from typing import List

import torch

def f(x: torch.Tensor) -> int:
    x[1:] = 5.0
    return 0


def main():
    x = torch.zeros(3)
    f(x)
    print(x)
