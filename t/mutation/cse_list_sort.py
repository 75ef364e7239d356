# cse_list_sort — l.sort() reorders the list in place: l[0] before and after differ.
# A mutation-suite program (t/mutation/README): its .out is what PyTorch 1.13 printed
# (t/mutation/make_expected.py), and t/mutation.sh requires the same with the optimizer on.
from typing import List

import torch

def f():
    l = [3, 1, 2]
    a = l[0]
    l.sort()
    b = l[0]
    return a, b


def main():
    print(f())
