# raises: a leaf Variable that requires grad is being used in an in-place operation.
# A parameter written in place outside torch.no_grad(): autograd's error, after what was
# printed before it.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.ones(2))

    def forward(self, x):
        return x * self.w

    @torch.jit.export
    def bump(self, by: float):
        self.w.add_(by)

    @torch.jit.export
    def main(self):
        print(self.forward(torch.ones(2)))
        with torch.no_grad():
            self.bump(1.0)
        print(self.w)
        self.bump(1.0)
        print(self.w)
