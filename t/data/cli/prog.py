# Used by t/cli.sh: `tscript run` with arguments, defaults and errors.
import torch
from typing import List


class Point:
    def __init__(self, x: int, y: int):
        self.x = x
        self.y = y


def main():
    print("hello", 1.5, [1, 2])
    return Point(3, 4).x + 1


def scale(a: float, b: int = 2) -> float:
    return a * b


def total(xs: List[int]) -> int:
    return sum(xs)


def norm1(p: Point) -> int:
    return abs(p.x) + abs(p.y)


def nothing(x: int):
    x += 1


def boom(n: int) -> int:
    if n > 2:
        raise ValueError("too big")
    return n
