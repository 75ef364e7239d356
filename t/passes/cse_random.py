# Two random permutations are two draws: never merged.
# PASS: cse
# FUNCTION: f
# CHECK-COUNT-EXACTLY-2: aten::randperm
import torch


def f(n: int) -> torch.Tensor:
    a = torch.randperm(n)
    b = torch.randperm(n)
    return torch.stack([a, b])


def main():
    torch.manual_seed(0)
    print(f(3).shape)
