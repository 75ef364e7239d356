# A ParameterList's class in the archive opens `__annotations__ = []` before naming its
# parameters "0", "1", ...: the loader took that line for a statement a class cannot hold.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.ps = nn.ParameterList([nn.Parameter(torch.full((2,), float(i))) for i in range(3)])
        self.pd = nn.ParameterDict({"a": nn.Parameter(torch.ones(2)), "b": nn.Parameter(torch.zeros(2) + 3)})

    @torch.jit.export
    def main(self):
        x = torch.ones(2)
        for p in self.ps:
            x = x + p
        print(x)
        i = 0
        for p in self.ps:
            print(i, p, p.requires_grad)
            i += 1
        print(self.pd["a"] + self.pd["b"], self.pd["b"].shape)
