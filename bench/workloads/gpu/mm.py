# float32 matrix products on the GPU (bench/gpu.py): five 4096x4096x4096 products (no TF32),
# 137 GFLOP each, each taking the last one's result (no optimizer can drop one as dead);
# b is scaled so that the values stay finite.
import torch
from typing import Tuple


def inputs() -> Tuple[torch.Tensor, torch.Tensor]:
    n = 4096
    a = torch.sin(torch.arange(n * n, dtype=torch.float32, device="cuda")).reshape(n, n)
    b = torch.cos(torch.arange(n * n, dtype=torch.float32, device="cuda")).reshape(n, n) / 64
    return a, b


def main(a: torch.Tensor, b: torch.Tensor) -> float:
    c = a.mm(b)
    for _ in range(4):
        c = c.mm(b)
    return float(c[1, 2])
