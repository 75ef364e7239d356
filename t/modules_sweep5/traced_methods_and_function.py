# torch.jit.trace_module tracing two methods of a module, and a traced function called from scripted code.
import torch
import torch.nn as nn

def helper(x, y):
    return x * 2 + y.sum()

traced_fn = torch.jit.trace(helper, (torch.ones(2), torch.ones(3)))

class T(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.tensor([0.5, -1.0]))
    def forward(self, x):
        return x * self.w
    def scaled(self, x):
        return x * self.w * 10

class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.t = torch.jit.trace_module(T(), {"forward": torch.ones(2), "scaled": torch.ones(2)})
    def forward(self, x):
        return traced_fn(self.t(x), x)
    @torch.jit.export
    def main(self):
        x = torch.tensor([1.0, 3.0])
        print(self.forward(x), self.t.scaled(x))
