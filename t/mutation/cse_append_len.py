# cse_append_len — len(l) before and after l.append: merging them would print 2 twice.
# A mutation-suite program (t/mutation/README): its .out is what PyTorch 1.13 printed
# (t/mutation/make_expected.py), and t/mutation.sh requires the same with the optimizer on.
from typing import List

import torch

def f(x: int):
    l = [1, 2]
    a = len(l)
    l.append(x)
    b = len(l)
    return a, b


def main():
    print(f(3))
