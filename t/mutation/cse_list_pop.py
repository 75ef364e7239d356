# cse_list_pop — len(l) around l.pop(): pop writes the list.
# A mutation-suite program (t/mutation/README): its .out is what PyTorch 1.13 printed
# (t/mutation/make_expected.py), and t/mutation.sh requires the same with the optimizer on.
from typing import List

import torch

def f():
    l = [1, 2, 3]
    a = len(l)
    l.pop()
    b = len(l)
    return a, b


def main():
    print(f())
