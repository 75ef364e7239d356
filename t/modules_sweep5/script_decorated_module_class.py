# raises: cannot be compiled since it inherits from nn.Module, pass an instance instead
# torch.jit.script given an nn.Module class (not an instance) refuses it.
import torch
import torch.nn as nn


@torch.jit.script
class Net(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x


def main():
    print("unreached")
