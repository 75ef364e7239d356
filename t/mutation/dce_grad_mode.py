# dce_grad_mode — torch.no_grad()'s __enter__ and __exit__ call aten::set_grad_enabled,
# which returns nothing: DCE that took it for pure would drop it and z would require grad.
# A mutation-suite program (t/mutation/README): its .out is what PyTorch 1.13 printed
# (t/mutation/make_expected.py), and t/mutation.sh requires the same with the optimizer on.
from typing import List

import torch


def f(w: torch.Tensor):
    a = torch.is_grad_enabled()
    with torch.no_grad():
        z = w * 2.0
        b = torch.is_grad_enabled()
    c = torch.is_grad_enabled()
    return z.requires_grad, (w * 3.0).requires_grad, a, b, c


def main():
    print(f(torch.ones(2).requires_grad_()))
