# dce_unbind_write — unbind's pieces are views of the input.
# A mutation-suite program (t/mutation/README): its .out is what PyTorch 1.13 printed
# (t/mutation/make_expected.py), and t/mutation.sh requires the same with the optimizer on.
from typing import List

import torch

def f(x: torch.Tensor) -> int:
    rows = x.unbind(0)
    rows[1].fill_(4.0)
    return 0


def main():
    x = torch.zeros(2, 2)
    f(x)
    print(x)
