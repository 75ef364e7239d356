# cse_dict_value_write — A dict's value written in place: d['a'].sum() before and after differ.
# A mutation-suite program (t/mutation/README): its .out is what PyTorch 1.13 printed
# (t/mutation/make_expected.py), and t/mutation.sh requires the same with the optimizer on.
from typing import List

import torch

def f(t: torch.Tensor):
    d = {"a": t + 0}
    a = d["a"].sum()
    d["a"].mul_(3)
    b = d["a"].sum()
    return a, b


def main():
    print(f(torch.ones(2)))
