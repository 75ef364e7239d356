# cse_tuple_holds_list — A tuple holds a list; appending through the tuple changes the list.
# A mutation-suite program (t/mutation/README): its .out is what PyTorch 1.13 printed
# (t/mutation/make_expected.py), and t/mutation.sh requires the same with the optimizer on.
from typing import List

import torch

def f():
    l = [1]
    t = (l, 2)
    a = len(l)
    t[0].append(5)
    b = len(l)
    return a, b


def main():
    print(f())
