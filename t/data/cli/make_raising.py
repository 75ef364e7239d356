# make_raising.py — writes raising.pt beside this file: a module saved by PyTorch 1.13 whose
# forward raises for a negative input, for t/cli.sh's traceback test (serialized code first,
# then the original code from the archive's .debug_pkl).
#     /usr/bin/python3 t/data/cli/make_raising.py
import os

import torch


class Checked(torch.nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.check(x) * 2

    def check(self, x: torch.Tensor) -> torch.Tensor:
        if bool((x < 0).any()):
            raise ValueError("negative input")
        return x


torch.jit.save(torch.jit.script(Checked()),
               os.path.join(os.path.dirname(os.path.abspath(__file__)), "raising.pt"))
