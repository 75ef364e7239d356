# randint, random_ with bounds and randperm under manual_seed: PyTorch's CPU draws (a 32-bit
# draw modulo the range, a 64-bit one for ranges of 2**32 and more).
import torch


def main():
    torch.manual_seed(0)
    print(torch.randint(0, 10, (5,)))
    print(torch.randint(-5, 5, (2, 3), dtype=torch.int32))
    print(torch.randint(3, (4,), dtype=torch.float32))
    print(torch.randint(0, 1099511627776, (3,)))
    print(torch.randint(0, 1099511627776, (2,), dtype=torch.float64))
    print(torch.randint_like(torch.zeros(4), 100))
    torch.manual_seed(5)
    print(torch.randperm(8))
    p = torch.randperm(1000)
    print(p[:6], p[994:], p.sort()[0].equal(torch.arange(1000)))
    print(torch.randperm(5, dtype=torch.int32))
