# cse_list_alias — l2 = l is the same list: an append through l2 changes len(l).
# A mutation-suite program (t/mutation/README): its .out is what PyTorch 1.13 printed
# (t/mutation/make_expected.py), and t/mutation.sh requires the same with the optimizer on.
from typing import List

import torch

def f():
    l = [1, 2]
    l2 = l
    a = len(l)
    l2.append(3)
    b = len(l)
    return a, b


def main():
    print(f())
