# class_conversions — printed output checked by t/lang_print.sh against class_conversions.out (PyTorch 1.13).
import math
import torch
from typing import Any, Dict, List, NamedTuple, Optional, Tuple, Union
from enum import Enum

class N:
    def __init__(self, v: float):
        self.v = v
    def __int__(self) -> int:
        return int(self.v)
    def __float__(self) -> float:
        return self.v
    def __bool__(self) -> bool:
        return self.v > 0
    def __str__(self) -> str:
        return f"N{self.v}"
def main():
    n = N(-2.5)
    print(int(n), float(n), bool(n), str(n), not n)
    print(n and True if False else 0)
    m = N(3.0)
    x = 0
    while m:
        m.v -= 1.0
        x += 1
    print(x, str(m), bool(m) or bool(n))
    if n or m:
        print("yes")
    else:
        print("no")
    print(str(N(1e-05)))
