# fork_writes_tensor — A forked function writes a tensor in place; sums around it differ.
# A mutation-suite program (t/mutation/README): its .out is what PyTorch 1.13 printed
# (t/mutation/make_expected.py), and t/mutation.sh requires the same with the optimizer on.
from typing import List

import torch

def worker(t: torch.Tensor) -> int:
    t.add_(1)
    return 0


def f():
    t = torch.zeros(2)
    a = t.sum()
    fut = torch.jit.fork(worker, t)
    torch.jit.wait(fut)
    b = t.sum()
    return a, b


def main():
    print(f())
