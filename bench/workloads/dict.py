# Filling a str-keyed dict with 300k updates, then iterating it.
from typing import Dict


def main() -> int:
    d: Dict[str, int] = {}
    for i in range(300000):
        k = str(i % 50000)
        d[k] = d.get(k, 0) + i
    total = 0
    for k in d.keys():
        total += d[k] + len(k)
    return total
