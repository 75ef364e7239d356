# A small multi-layer perceptron: two hidden layers with ReLU, softmax over 3 classes.
import torch
import torch.nn.functional as F
from typing import List


def mlp(x: torch.Tensor, weights: List[torch.Tensor], biases: List[torch.Tensor]) -> torch.Tensor:
    h = x
    for i in range(len(weights) - 1):
        h = F.relu(F.linear(h, weights[i], biases[i]))
    return F.softmax(F.linear(h, weights[-1], biases[-1]), dim=1)


def main():
    sizes = [4, 8, 8, 3]
    weights: List[torch.Tensor] = []
    biases: List[torch.Tensor] = []
    for i in range(len(sizes) - 1):
        n = sizes[i + 1] * sizes[i]
        weights.append(torch.linspace(-0.5, 0.5, n).reshape(sizes[i + 1], sizes[i]) * (i + 1))
        biases.append(torch.full([sizes[i + 1]], 0.01 * (i + 1)))
    x = torch.arange(8, dtype=torch.float32).reshape(2, 4) - 3.0
    p = mlp(x, weights, biases)
    print(p)
    print(p.argmax(dim=1))
