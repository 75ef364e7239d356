# rrelu with training=True under manual_seed: a slope drawn from PyTorch's CPU generator for
# each element at or below 0, in order; in place and not, float32, float64 and strided.
import torch
import torch.nn.functional as F


def main():
    torch.manual_seed(0)
    x = torch.linspace(-3.0, 3.0, 13)
    print(F.rrelu(x, training=True))
    print(F.rrelu(x, 0.1, 0.9, True))
    print(torch.rrelu(x.double(), 0.2, 0.4, True))
    y = x.reshape(13, 1).repeat(1, 2).t()
    F.rrelu_(y, training=True)
    print(y)
    print(F.rrelu(x, training=False))
