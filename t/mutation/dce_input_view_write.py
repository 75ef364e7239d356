# dce_input_view_write — The only effect is a write into the caller's tensor through a view.
# A mutation-suite program (t/mutation/README): its .out is what PyTorch 1.13 printed
# (t/mutation/make_expected.py), and t/mutation.sh requires the same with the optimizer on.
from typing import List

import torch

def f(x: torch.Tensor) -> int:
    v = x.view(-1)
    v.add_(1)
    return 0


def main():
    x = torch.zeros(2, 2)
    f(x)
    print(x)
