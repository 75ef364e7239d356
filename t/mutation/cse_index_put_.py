# cse_index_put_ — index_put_ writes y: y.max() before and after differ.
# A mutation-suite program (t/mutation/README): its .out is what PyTorch 1.13 printed
# (t/mutation/make_expected.py), and t/mutation.sh requires the same with the optimizer on.
from typing import List

import torch

def f(x: torch.Tensor):
    y = x + 0
    a = y.max()
    idx = torch.tensor([1])
    y.index_put_((idx,), torch.tensor([9.0]))
    b = y.max()
    return a, b


def main():
    print(f(torch.arange(3.0)))
