# torch.jit.freeze with main preserved: list, dict and float attributes of submodules in a ModuleList folded into the code.
import torch
import torch.nn as nn
from typing import List, Dict, Tuple

class Sub(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = 0.5
        self.offsets = [1.0, 2.0]
        self.table = {"a": torch.tensor([1.0]), "b": torch.tensor([2.0])}
    def forward(self, x):
        y = x * self.scale
        for o in self.offsets:
            y = y + o
        return y + self.table["b"]
    @torch.jit.export
    def info(self) -> Tuple[float, int]:
        return self.scale, len(self.offsets)

class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.subs = nn.ModuleList([Sub(), Sub()])
        self.mutable = [0]
    def forward(self, x):
        for s in self.subs:
            x = s(x)
        return x
    @torch.jit.export
    def main(self):
        print(self.forward(torch.arange(3.0)))
        print(self.subs[0].info())
        self.mutable.append(1)
        print(self.mutable)

def build():
    m = torch.jit.script(Model().eval())
    return torch.jit.freeze(m, preserved_attrs=["main"])
