# Forward hooks of a scripted submodule: the class in the archive lists them
# (__forward_pre_hooks__ = ["pre", ], __forward_hooks__ = [...]) and the caller's code calls
# them as Cls.hook(obj, inputs) around the module's forward.
from typing import Tuple

import torch
import torch.nn as nn


class Sub(nn.Module):
    def __init__(self):
        super().__init__()
        self.k = 3

    def forward(self, x: torch.Tensor, y: int) -> torch.Tensor:
        return x * y


def pre_none(m: Sub, inp: Tuple[torch.Tensor, int]) -> None:
    print("pre", inp[1], m.k)


def pre_change(m: Sub, inp: Tuple[torch.Tensor, int]) -> Tuple[torch.Tensor, int]:
    return (inp[0] + m.k, inp[1] + 1)


def post(m: Sub, inp: Tuple[torch.Tensor, int], out: torch.Tensor) -> torch.Tensor:
    return out - inp[1]


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        a = Sub()
        a.register_forward_pre_hook(pre_none)
        a.register_forward_pre_hook(pre_change)
        a.register_forward_hook(post)
        self.layers = nn.ModuleList([a, Sub()])
        self.one = Sub()
        self.one.register_forward_hook(post)

    @torch.jit.export
    def main(self):
        x = torch.ones(2)
        for l in self.layers:
            print(l(x, 2))
        print(self.one(x, 5), self.one.forward(x, 5))
