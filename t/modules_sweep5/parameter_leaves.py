# A module's parameters are leaves that require grad: what forward computes from them is
# not a leaf; under torch.no_grad() they may be written in place, and a parameter made with
# requires_grad=False, a buffer, or a detached copy may be written at any time.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.tensor([1.0, 2.0]))
        self.frozen = nn.Parameter(torch.tensor([0.5]), requires_grad=False)
        self.lin = nn.Linear(2, 1)
        self.register_buffer("steps", torch.zeros(1))

    def forward(self, x):
        return self.lin(x * self.w)

    @torch.jit.export
    def main(self):
        y = self.forward(torch.ones(1, 2))
        print(y.requires_grad, y.is_leaf, self.w.requires_grad, self.w.is_leaf)
        print(self.lin.weight.is_leaf, self.lin.weight[0].is_leaf, self.w.t().is_leaf)
        print(self.frozen.requires_grad, self.frozen.is_leaf, self.steps.is_leaf)
        with torch.no_grad():
            self.w.mul_(2.0)
            z = self.forward(torch.ones(1, 2))
            print(z.requires_grad, z.is_leaf)
        print(self.w, self.w.is_leaf, self.w.requires_grad)
        self.frozen.add_(1.0)
        self.steps += 1
        d = self.w.detach()
        d.add_(1.0)
        print(self.frozen, self.steps, self.w)
        acc = torch.zeros(2)
        acc.add_(self.w)
        print(acc.requires_grad, acc.is_leaf, self.w.is_cpu, self.w.name)
