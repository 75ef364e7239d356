# An archive that calls no upgraded operator is version 3, where torch.div of tensors meant
# truncation; torch.div(float, int) there is the scalar division (sum(xs) / len(xs)), which
# the loader sent to the tensor upgrader.
import torch
import torch.nn as nn
from typing import List


@torch.jit.script
class Stats:
    def __init__(self, n: int):
        self.n = n
        self.vals: List[float] = []

    def add(self, v: float):
        self.vals.append(v)
        self.n += 1

    def mean(self) -> float:
        return sum(self.vals) / len(self.vals)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.stats = Stats(0)
        self.vals = [1.0, 2.5]
        self.ints = [3, 4]

    @torch.jit.export
    def main(self):
        self.stats.add(1.0)
        self.stats.add(2.5)
        print(self.stats.n, self.stats.vals, self.stats.mean())
        print(sum(self.vals) / len(self.vals), sum(self.ints) / len(self.ints))
        print(len(self.ints) / 8, 7.5 / len(self.vals))
