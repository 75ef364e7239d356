# vendor_inplace — a vendor's in-place operator, mut::scale_(Tensor(a!) self, float s)
# (the test plugin t/plugins/inplace.c, run with vendor_inplace.config.yaml): CSE of y.sum()
# across it, or DCE of a call whose only effect is its write into the caller's tensor, would
# print wrong numbers. PyTorch has no such operator, so this one cannot be checked against it
# directly: make_expected.py runs it with PyTorch's own in-place multiply standing in (the
# line below), which computes the same.
# PYTORCH-STAND-IN: torch.ops.mut.scale_ => torch.ops.aten.mul_
from typing import List

import torch


def f(x: torch.Tensor):
    y = x + 0
    a = y.sum()
    torch.ops.mut.scale_(y, 2.0)
    b = y.sum()
    return a, b


def g(x: torch.Tensor) -> int:
    torch.ops.mut.scale_(x.view(-1), 3.0)
    return 0


def main():
    print(f(torch.ones(2)))
    x = torch.ones(2, 2)
    g(x)
    print(x)
