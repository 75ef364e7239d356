# raises: does not have a field with name '-1'
# A negative index names no submodule of a ModuleList picked at run time.
import torch
import torch.nn as nn


@torch.jit.interface
class Act(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        pass


class Neg(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return -x


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.ml = nn.ModuleList([Neg(), Neg()])

    def pick(self, i: int, x: torch.Tensor) -> torch.Tensor:
        m: Act = self.ml[i]
        return m.forward(x)

    @torch.jit.export
    def main(self):
        print(self.pick(1, torch.ones(1)))
        print(self.pick(-1, torch.ones(1)))
