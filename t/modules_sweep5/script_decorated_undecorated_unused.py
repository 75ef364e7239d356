# An undecorated class or function compiles only when main reaches it: an error in one main
# never uses is no error; a decorated class main uses compiles once.
import torch
from typing import List


class NeverUsed:
    def __init__(self):
        self.a = undefined_anywhere  # noqa: F821


def never_called() -> int:
    return undefined_too  # noqa: F821


@torch.jit.script
class Counter:
    def __init__(self, start: int):
        self.n = start
        self.seen: List[int] = []

    def bump(self) -> int:
        self.n += 1
        self.seen.append(self.n)
        return self.n


def main():
    c = Counter(3)
    print(c.bump(), c.bump(), c.seen)
