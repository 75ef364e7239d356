#!/usr/bin/env python3
"""make_models.py — the real models t/gpu/models.sh runs on cuda: torchvision's
squeezenet1_1, mobilenet_v3_small and shufflenet_v2_x0_5 (random weights from seed 0, and
random batch-norm statistics and affine terms, without which their fresh initialization
leaves the logits near 1e-10; eval
mode) and a small LSTM tagger, each scripted and saved by PyTorch 1.13 as a user ships it,
wrapped so that forward returns a short summary of the output (its sum and first values)
rather than a thousand logits. Writes DIR/NAME.pt and DIR/NAME.npy (the input, seed 1).

    /usr/bin/python3 t/gpu/make_models.py DIR     (t/gpu/bundle.sh runs it)
"""
import os
import sys
from typing import Tuple

import numpy as np
import torch
import torch.nn as nn
import torchvision


class Summary(nn.Module):
    def __init__(self, m: nn.Module):
        super().__init__()
        self.m = m

    def forward(self, x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
        y = self.m(x)
        return y.sum(), y.flatten()[:8]


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(16, 32, num_layers=2, batch_first=True)
        self.out = nn.Linear(32, 5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h, _ = self.lstm(x)
        return torch.log_softmax(self.out(h), -1)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    models = {
        "squeezenet1_1": (torchvision.models.squeezenet1_1, [1, 3, 128, 128]),
        "mobilenet_v3_small": (torchvision.models.mobilenet_v3_small, [1, 3, 128, 128]),
        "shufflenet_v2_x0_5": (torchvision.models.shufflenet_v2_x0_5, [1, 3, 128, 128]),
        "lstm_tagger": (Tagger, [2, 7, 16]),
    }
    for name, (make, shape) in models.items():
        torch.manual_seed(0)
        m = Summary(make()).eval()
        for b in m.modules():
            if isinstance(b, nn.BatchNorm2d):
                b.running_mean.copy_(torch.randn_like(b.running_mean) * 0.1)
                b.running_var.copy_(torch.rand_like(b.running_var) + 0.5)
                with torch.no_grad():
                    b.weight.copy_(torch.rand_like(b.weight) + 0.5)
                    b.bias.copy_(torch.randn_like(b.bias) * 0.1)
        torch.jit.script(m).save(os.path.join(out, name + ".pt"))
        torch.manual_seed(1)
        np.save(os.path.join(out, name + ".npy"), torch.randn(shape).numpy())


if __name__ == "__main__":
    main()
