# cse_dict_of_lists — A list inside a dict appended to: its length changes.
# A mutation-suite program (t/mutation/README): its .out is what PyTorch 1.13 printed
# (t/mutation/make_expected.py), and t/mutation.sh requires the same with the optimizer on.
from typing import List

import torch

def f():
    d = {"k": [1]}
    a = len(d["k"])
    d["k"].append(2)
    b = len(d["k"])
    return a, b


def main():
    print(f())
