# cse_list_insert_remove — insert and remove write the list.
# A mutation-suite program (t/mutation/README): its .out is what PyTorch 1.13 printed
# (t/mutation/make_expected.py), and t/mutation.sh requires the same with the optimizer on.
from typing import List

import torch

def f():
    l = [1, 2]
    a = l[0]
    l.insert(0, 7)
    b = l[0]
    l.remove(7)
    c = l[0]
    return a, b, c


def main():
    print(f())
