# dce_alias_through_if — r is a or b; writing r writes one of the inputs.
# A mutation-suite program (t/mutation/README): its .out is what PyTorch 1.13 printed
# (t/mutation/make_expected.py), and t/mutation.sh requires the same with the optimizer on.
from typing import List

import torch

def f(a: torch.Tensor, b: torch.Tensor, c: bool) -> int:
    if c:
        r = a
    else:
        r = b
    r.add_(1)
    return 0


def main():
    a = torch.zeros(1)
    b = torch.zeros(1)
    f(a, b, True)
    f(a, b, False)
    f(a, b, False)
    print(a, b)
