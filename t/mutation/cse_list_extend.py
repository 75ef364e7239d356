# cse_list_extend — extend and clear write the list; the three lengths differ.
# A mutation-suite program (t/mutation/README): its .out is what PyTorch 1.13 printed
# (t/mutation/make_expected.py), and t/mutation.sh requires the same with the optimizer on.
from typing import List

import torch

def f():
    l = [1]
    a = len(l)
    l.extend([2, 3])
    b = len(l)
    l.clear()
    c = len(l)
    return a, b, c


def main():
    print(f())
