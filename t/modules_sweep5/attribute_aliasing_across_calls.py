# Containers and a buffer of a submodule, returned by a method and changed by the caller: the attributes change.
import torch
import torch.nn as nn
from typing import Dict, List, Tuple

class Sub(nn.Module):
    hist: List[int]
    cache: Dict[str, torch.Tensor]
    def __init__(self):
        super().__init__()
        self.hist: List[int] = []
        self.cache: Dict[str, torch.Tensor] = {}
        self.register_buffer("state", torch.zeros(2))
    def forward(self, x):
        self.hist.append(int(x.sum()))
        self.cache[str(len(self.hist))] = x
        self.state += x
        return self.state

class Model(nn.Module):
    pair: Tuple[List[int], int]
    def __init__(self):
        super().__init__()
        self.sub = Sub()
        self.pair: Tuple[List[int], int] = ([1], 2)
    def forward(self, x):
        return x
    @torch.jit.export
    def view(self) -> Tuple[List[int], Dict[str, torch.Tensor], torch.Tensor]:
        return self.sub.hist, self.sub.cache, self.sub.state
    @torch.jit.export
    def main(self):
        s1 = self.sub(torch.ones(2))
        s2 = self.sub(torch.full((2,), 2.0))
        print(s1, s2, s1 is s2)
        h, c, st = self.view()
        h.append(99)
        c["new"] = torch.zeros(1)
        st.mul_(10.0)
        print(self.sub.hist, sorted(self.sub.cache.keys()), self.sub.state)
        x = torch.ones(2)
        self.sub(x)
        x.add_(5.0)
        print(self.sub.cache["4"], self.sub.state)
        self.pair[0].append(3)
        print(self.pair)
        l, n = self.pair
        l.append(4)
        print(self.pair, n)
