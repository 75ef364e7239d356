# fork_two_writers — Two forks write one shared list.
# A mutation-suite program (t/mutation/README): its .out is what PyTorch 1.13 printed
# (t/mutation/make_expected.py), and t/mutation.sh requires the same with the optimizer on.
from typing import List

import torch

def worker(l: List[int], x: int) -> int:
    l.append(x)
    return x


def f():
    l: List[int] = []
    f1 = torch.jit.fork(worker, l, 1)
    f2 = torch.jit.fork(worker, l, 2)
    torch.jit.wait(f1)
    torch.jit.wait(f2)
    l.sort()
    return l


def main():
    print(f())
