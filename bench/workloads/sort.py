# Building and sorting a 300k-element int list (a linear congruential sequence).
from typing import List


def main() -> int:
    xs: List[int] = []
    x = 12345
    for i in range(300000):
        x = (x * 1103515245 + 12345) % 2147483648
        xs.append(x)
    xs.sort()
    return xs[0] + xs[len(xs) - 1]
