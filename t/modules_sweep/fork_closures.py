# torch.jit.fork in a saved module: the printer writes what each fork runs as a closure,
# `def __forked_function(): return (_0).forward(x, )` then `fork(__forked_function)`, which
# reads the enclosing method's values; the loader refused nested defs.
from typing import List, Tuple

import torch
import torch.nn as nn


class Worker(nn.Module):
    def __init__(self, k: float):
        super().__init__()
        self.k = k

    def forward(self, x: torch.Tensor, n: int) -> Tuple[torch.Tensor, int]:
        return x * self.k + n, n * 2


def square(x: int) -> int:
    return x * x


def bad(x: int) -> int:
    if x > 2:
        raise ValueError("too big: " + str(x))
    return x


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.ws = nn.ModuleList([Worker(2.0), Worker(3.0)])
        self.one = Worker(5.0)

    @torch.jit.export
    def compute(self, n: int) -> List[int]:
        futs: List[torch.jit.Future[int]] = []
        for i in range(n):
            futs.append(torch.jit.fork(square, i + n))
        return [torch.jit.wait(f) for f in futs]

    @torch.jit.export
    def main(self):
        x = torch.ones(2)
        futs: List[torch.jit.Future[Tuple[torch.Tensor, int]]] = []
        for w in self.ws:
            futs.append(torch.jit.fork(w, x, 1))
        for i in range(3):
            if i % 2 == 0:
                futs.append(torch.jit.fork(self.one, x, i))
            else:
                futs.append(torch.jit.fork(self.one.forward, x * 10, n=i))
        for f in futs:
            t, m = torch.jit.wait(f)
            print(t, m)
        g = torch.jit.fork(torch.add, x, 5)
        h = torch.jit.fork(self.compute, 3)
        print(torch.jit.wait(g), torch.jit.wait(h))
        print(torch.jit.wait(torch.jit.fork(bad, 1)))
