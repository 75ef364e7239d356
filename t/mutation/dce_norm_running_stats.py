# dce_norm_running_stats — batch_norm and instance_norm in training update running_mean and
# running_var in place although their schemas have no "(a!)": DCE of the unused call would
# leave the caller's statistics unchanged.
# A mutation-suite program (t/mutation/README): its .out is what PyTorch 1.13 printed
# (t/mutation/make_expected.py), and t/mutation.sh requires the same with the optimizer on.
from typing import List

import torch
import torch.nn.functional as F


def f(x: torch.Tensor, rm: torch.Tensor, rv: torch.Tensor) -> int:
    torch.batch_norm(x, None, None, rm, rv, True, 0.5, 1e-5, False)
    return 0


def g(x: torch.Tensor, rm: torch.Tensor, rv: torch.Tensor) -> int:
    F.instance_norm(x, rm, rv, None, None, True, 0.5)
    return 0


def main():
    x = torch.arange(6.0).reshape(3, 2)
    rm = torch.zeros(2)
    rv = torch.ones(2)
    f(x, rm, rv)
    print(rm, rv)
    y = torch.arange(12.0).reshape(2, 2, 3)
    m = torch.zeros(2)
    v = torch.ones(2)
    g(y, m, v)
    print(m, v)
