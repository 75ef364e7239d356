# make_model.py — the model the embedding examples (embed.c, embed.cpp) run: a linear layer
# and a ReLU, scripted and saved by PyTorch 1.13 with torch.jit.save, with weights set by
# hand so that the result is easy to check by eye.
#
#     /usr/bin/python3 examples/embed/make_model.py [OUTDIR]
#
# writes OUTDIR/linear.pt and prints what PyTorch computes for the examples' input; the
# committed examples/embed/linear.pt was made by it.
import os
import sys

import torch
import torch.nn as nn


class Linear(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)
        with torch.no_grad():
            self.fc.weight.copy_(torch.tensor([[0.1, 0.2, 0.3, 0.4], [-0.1, 0.0, 0.1, 0.0]]))
            self.fc.bias.copy_(torch.tensor([0.5, -0.5]))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(self.fc(x)) * 2


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    model = torch.jit.script(Linear().eval())
    torch.jit.save(model, os.path.join(out, "linear.pt"))
    print(model(torch.tensor([[1.0, 2.0, 3.0, 4.0]])))


if __name__ == "__main__":
    main()
