# A ModuleList indexed by an int, and a ModuleDict by a str, known only at run time: allowed
# where a module interface types the result (the archive writes
# `m : __torch__.case.Act = ml[i]`, PyTorch's prim::ModuleContainerIndex).
from typing import Tuple

import torch
import torch.nn as nn


@torch.jit.interface
class Act(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        pass


class Scale(nn.Module):
    def __init__(self, k: float):
        super().__init__()
        self.k = k

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * self.k


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.ml = nn.ModuleList([Scale(1.0), Scale(2.0), Scale(3.0)])
        self.md = nn.ModuleDict({"a": Scale(10.0), "b": Scale(-1.0)})

    def pick(self, i: int, x: torch.Tensor) -> torch.Tensor:
        m: Act = self.ml[i]
        return m.forward(x)

    def by_key(self, k: str, x: torch.Tensor) -> torch.Tensor:
        m: Act = self.md[k]
        return m.forward(x)

    @torch.jit.export
    def main(self):
        x = torch.ones(2)
        for i in range(3):
            print(i, self.pick(i, x))
        for k in ["b", "a"]:
            print(k, self.by_key(k, x))
        t: Tuple[int, int, int] = (5, 6, 7)
        for i in range(3):
            print(t[i])
