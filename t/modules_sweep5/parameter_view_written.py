# raises: a view of a leaf Variable that requires grad is being used in an in-place operation.
# An item of a parameter assigned outside torch.no_grad(): the write goes through a view.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 2)

    def forward(self, x):
        return self.lin(x)

    @torch.jit.export
    def main(self):
        with torch.no_grad():
            self.lin.bias[0] = 1.0
        print(self.lin.bias[0])
        self.lin.bias[1] = 2.0
        print(self.lin.bias)
