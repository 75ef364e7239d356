# cse_list_setitem — l[0] before and after l[0] = x are different.
# A mutation-suite program (t/mutation/README): its .out is what PyTorch 1.13 printed
# (t/mutation/make_expected.py), and t/mutation.sh requires the same with the optimizer on.
from typing import List

import torch

def f(x: int):
    l = [1, 2, 3]
    a = l[0]
    l[0] = x
    b = l[0]
    return a, b


def main():
    print(f(9))
