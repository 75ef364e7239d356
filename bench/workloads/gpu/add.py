# Memory bandwidth on the GPU (bench/gpu.py): ten adds of two 16M-element float32 tensors,
# each reading 128 MiB and writing 64 MiB. Each add takes the last one's result, so that no
# optimizer can drop the first nine as dead.
import torch
from typing import Tuple


def inputs() -> Tuple[torch.Tensor, torch.Tensor]:
    n = 16 * 1024 * 1024
    a = torch.arange(n, dtype=torch.float32, device="cuda") * 0.5
    b = torch.ones([n], device="cuda")
    return a, b


def main(a: torch.Tensor, b: torch.Tensor) -> float:
    c = a + b
    for _ in range(9):
        c = c + b
    return float(c[7])
