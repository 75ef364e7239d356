# cse_nested_list — The inner list is appended to through the outer one.
# A mutation-suite program (t/mutation/README): its .out is what PyTorch 1.13 printed
# (t/mutation/make_expected.py), and t/mutation.sh requires the same with the optimizer on.
from typing import List

import torch

def f():
    inner = [1]
    outer = [inner]
    a = len(inner)
    outer[0].append(2)
    b = len(inner)
    return a, b


def main():
    print(f())
