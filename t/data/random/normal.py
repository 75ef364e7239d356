# randn, randn_like, normal_ and torch.normal under manual_seed: PyTorch's CPU draws, serial
# (fewer than 16 elements: pairs with a cached second) and in blocks of 16.
import torch


def main():
    torch.manual_seed(0)
    print(torch.randn(3))
    print(torch.randn(3))      # the cached normal of the last pair comes first
    print(torch.randn(2, 2, dtype=torch.float64))
    for n in [15, 16, 17, 31, 33]:
        torch.manual_seed(n)
        x = torch.randn(n)
        print(n, x[0].item(), x[n - 1].item(), x.sum().item())
    torch.manual_seed(1)
    d = torch.randn(40, dtype=torch.float64)
    print(d[:4], d[36:])
    h = torch.randn(20, dtype=torch.float16)
    print(h[:4])
    torch.manual_seed(3)
    print(torch.empty(5).normal_(2.0, 0.5), torch.empty(18).normal_(-1.0, 3.0)[16:])
    print(torch.randn_like(torch.zeros(2, 3)))
