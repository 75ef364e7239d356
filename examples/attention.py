# Scaled dot-product attention with a causal mask.
import math
import torch


def attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool) -> torch.Tensor:
    scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(q.size(-1))
    if causal:
        n = scores.size(-1)
        mask = torch.triu(torch.ones(n, n), diagonal=1) > 0
        scores = scores.masked_fill(mask, float("-inf"))
    return torch.matmul(torch.softmax(scores, dim=-1), v)


def main():
    batch, seq, dim = 2, 4, 8
    q = torch.linspace(-1.0, 1.0, batch * seq * dim).reshape(batch, seq, dim)
    k = torch.cos(q * 3.0)
    v = torch.sin(q * 2.0)
    out = attention(q, k, v, True)
    print(out.sum(dim=-1))
    print(out[0, 0])
