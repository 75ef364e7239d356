# rand, rand_like and uniform_ under manual_seed, every floating dtype: PyTorch's CPU draws.
import torch


def main():
    torch.manual_seed(0)
    print(torch.rand(5))
    print(torch.rand(2, 3, dtype=torch.float64))
    print(torch.rand(4, dtype=torch.float16), torch.rand(4, dtype=torch.bfloat16))
    torch.manual_seed(7)
    x = torch.empty(6).uniform_(-2.0, 3.0)
    print(x, torch.rand_like(x))
    print(torch.empty(3, dtype=torch.float64).uniform_(10.0, 10.5))
    print(torch.empty(3, dtype=torch.float16).uniform_(-1.0, 1.0))
    big = torch.rand(1000)
    print(big.sum(), big[997:])
    # a seed of more than 32 bits: only its low 32 are used
    torch.manual_seed(4294967303)
    a = torch.rand(3)
    torch.manual_seed(7)
    print(a, torch.equal(a, torch.rand(3)))
