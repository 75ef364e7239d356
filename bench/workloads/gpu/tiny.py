# The cost of one tiny operator on the GPU (bench/gpu.py): n dependent adds on a
# one-element cuda tensor, each a dispatch and a kernel launch; the sum read back at the
# end waits for the last.
import torch
from typing import Tuple


def inputs(n: int) -> Tuple[torch.Tensor, int]:
    return torch.zeros([1], device="cuda"), n


def main(x: torch.Tensor, n: int) -> float:
    for _ in range(n):
        x = x + 1.0
    return float(x.sum())
