# bound_names — printed output checked by t/lang_print.sh against bound_names.out (PyTorch 1.13):
# names bound to builtins, functions, methods, modules and classes are called through.
import math
from typing import List

import torch


def twice(x: int) -> int:
    return 2 * x


class Pair:
    def __init__(self, a: int, b: str):
        self.a = a
        self.b = b


def main():
    p = print
    f = len
    g = twice
    relu = torch.relu
    m = math
    K = Pair
    xs: List[str] = []
    add = xs.append
    for i in range(3):
        add(str(g(i)))
    p("joined", ",".join(xs), f(xs))
    p(relu(torch.tensor([-1.0, 2.5])))
    p(m.floor(2.5), m.sqrt(2.0))
    k = K(1, "b")
    p(k.a, k.b)
    g = len
    p(g([1, 2, 3]))
