# union_lists — printed output checked by t/lang_print.sh against union_lists.out (PyTorch 1.13).
import math
import torch
from typing import Any, Dict, List, NamedTuple, Optional, Tuple, Union
from enum import Enum

def main():
    y = [1, None, 3]
    print(y)
    z = [torch.ones(1), None]
    print(len(z))
    w = [1, 2.5, "x", True, None]
    print(w)
    for v in w:
        if isinstance(v, int):
            print("int", v + 1)
        elif isinstance(v, str):
            print("str", v)
        else:
            print("other", v)
    q = [(1, 2), (1, "a")]
    print(q)
