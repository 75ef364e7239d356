# A 1024x1024 float32 matrix product (OpenBLAS's sgemm underneath).
import torch
from typing import Tuple


def inputs() -> Tuple[torch.Tensor, torch.Tensor]:
    n = 1024
    a = torch.sin(torch.arange(n * n, dtype=torch.float32) * 0.7).reshape(n, n)
    b = torch.cos(torch.arange(n * n, dtype=torch.float32) * 0.3).reshape(n, n)
    return a, b


def main(a: torch.Tensor, b: torch.Tensor) -> float:
    c = torch.mm(a, b)
    return float(c[3, 5])
