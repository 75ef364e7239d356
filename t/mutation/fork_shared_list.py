# fork_shared_list — A forked function appends to a list the caller reads after wait.
# A mutation-suite program (t/mutation/README): its .out is what PyTorch 1.13 printed
# (t/mutation/make_expected.py), and t/mutation.sh requires the same with the optimizer on.
from typing import List

import torch

def worker(l: List[int], x: int) -> int:
    l.append(x)
    return len(l)


def f():
    l = [1]
    a = len(l)
    fut = torch.jit.fork(worker, l, 5)
    n = torch.jit.wait(fut)
    b = len(l)
    return a, n, b


def main():
    print(f())
