# make_model.py — builds the small image classifier the README's quick start runs, the way
# a user of PyTorch 1.13 ships one: scripted and saved with torch.jit.save.
#
#     /usr/bin/python3 examples/model/make_model.py [OUTDIR]
#
# writes OUTDIR/model.pt (the model, random weights from seed 0), OUTDIR/input.npy (one
# 3x32x32 image, seed 1) and OUTDIR/model.out (what PyTorch prints for model(input)); the
# committed copies in examples/model/ were made by it.
import os
import sys

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyNet(nn.Module):
    """Two conv blocks and a classifier: conv, batch norm, ReLU, pooling, dropout, linear."""

    def __init__(self, classes: int = 10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.AdaptiveAvgPool2d(4))
        self.dropout = nn.Dropout(0.2)
        self.fc = nn.Linear(16 * 4 * 4, classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = torch.flatten(self.features(x), 1)
        return F.softmax(self.fc(self.dropout(x)), dim=1)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    torch.manual_seed(0)
    model = TinyNet().eval()
    torch.jit.save(torch.jit.script(model), os.path.join(out, "model.pt"))
    torch.manual_seed(1)
    x = torch.randn(1, 3, 32, 32)
    np.save(os.path.join(out, "input.npy"), x.numpy())
    with torch.no_grad():
        y = model(x)
    with open(os.path.join(out, "model.out"), "w") as f:
        f.write(show(y) + "\n")


@torch.jit.script
def show(t: torch.Tensor) -> str:
    # print(tensor) in TorchScript: the C++ format, which tscript prints too
    return str(t)


if __name__ == "__main__":
    main()
