# enum_values — printed output checked by t/lang_print.sh against enum_values.out (PyTorch 1.13).
import math
import torch
from typing import Any, Dict, List, NamedTuple, Optional, Tuple, Union
from enum import Enum

class Color(Enum):
    RED = 1
    GREEN = 2
    BLUE = 3
class Shape(Enum):
    SQ = "square"
    CI = "circle"
class F(Enum):
    A = 0.5
    B = 1.5
def pick(c: Color) -> str:
    if c == Color.RED:
        return "r"
    elif c == Color.GREEN:
        return "g"
    return "other"
def main():
    print(Color.RED, Color.GREEN.name, Color.BLUE.value, Shape.SQ.value, F.B.value, F.A)
    print(pick(Color.RED), pick(Color.BLUE), Color.RED == Color.RED, Color.RED != Color.GREEN)
    for c in Color:
        print(c.name, c.value)
    l = [Color.RED, Color.BLUE]
    print(l, Color.BLUE in l if False else 0)
    d = {Color.RED.name: Color.RED.value}
    print(d, Color(2) if False else 0)
