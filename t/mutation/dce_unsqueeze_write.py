# dce_unsqueeze_write — unsqueeze/squeeze/narrow return views.
# A mutation-suite program (t/mutation/README): its .out is what PyTorch 1.13 printed
# (t/mutation/make_expected.py), and t/mutation.sh requires the same with the optimizer on.
from typing import List

import torch

def f(x: torch.Tensor) -> int:
    x.unsqueeze(0).squeeze(0).narrow(0, 1, 1).fill_(6.0)
    return 0


def main():
    x = torch.zeros(3)
    f(x)
    print(x)
