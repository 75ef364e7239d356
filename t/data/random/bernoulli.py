# bernoulli_, bernoulli (float32 and float64 probabilities) and dropout in training under
# manual_seed: PyTorch's CPU draws.
import torch
import torch.nn.functional as F


def main():
    torch.manual_seed(0)
    print(torch.empty(8).bernoulli_(0.5))
    print(torch.empty(6, dtype=torch.int64).bernoulli_(0.3))
    p = torch.tensor([0.1, 0.5, 0.9, 0.3, 0.7, 0.5])
    print(torch.bernoulli(p), torch.bernoulli(p.double()))
    print(torch.bernoulli(p, 0.8))
    print(torch.zeros(2, 6).bernoulli_(p))
    torch.manual_seed(3)
    x = torch.arange(1.0, 13.0).reshape(3, 4)
    print(F.dropout(x, 0.5, True))
    print(F.dropout(x, 0.2, True).sum())
    print(F.dropout(x.double(), 0.9, True))
    print(F.dropout(x, 0.5, False).equal(x))
