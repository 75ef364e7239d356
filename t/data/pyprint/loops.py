# loops — for over a list, while, for over range: carried values assigned before the loop
# and at the end of each trip.
import torch
from typing import List

def main(a: List[int], n: int) -> int:
    s = 0
    for v in a:
        s = s + v
    i = 0
    while i < n:
        i = i + 2
    for j in range(3):
        s = s - j * i
    return s
