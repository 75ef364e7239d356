# cse_dict_setitem — d['k'] before and after d['k'] = ... are different values.
# A mutation-suite program (t/mutation/README): its .out is what PyTorch 1.13 printed
# (t/mutation/make_expected.py), and t/mutation.sh requires the same with the optimizer on.
from typing import List

import torch

def f(x: int):
    d = {"k": 1}
    a = d["k"]
    d["k"] = x
    b = d["k"]
    return a, b


def main():
    print(f(5))
