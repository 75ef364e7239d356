# objects — a class (attributes, methods in the order declared), a NamedTuple, __new__ and
# __init__, method calls.
import torch
from typing import List, NamedTuple

class Pair(NamedTuple):
    first: int
    second: torch.Tensor

class Counter:
    def __init__(self, start: int):
        self.count = start
        self.log: List[str] = []

    def bump(self, by: int) -> int:
        return by + 1

def main(t: torch.Tensor, k: int) -> Pair:
    c = Counter(2)
    c.bump(3)
    p = Pair(k, t)
    return p
