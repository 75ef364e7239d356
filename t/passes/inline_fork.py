# A forked call is not inlined: it runs in the fork's subgraph, as its own function
# (PyTorch's Inline pass leaves prim::fork alone too). A direct call of the same function
# is inlined.
# PASS: inline
# CHECK: prim::fork
# CHECK-NOT: prim::CallFunction
# CHECK: aten::wait
import torch
from typing import List


def work(x: int) -> int:
    return x * x + 1


def main():
    fut = torch.jit.fork(work, 7)
    direct = work(3)
    print(torch.jit.wait(fut), direct)
