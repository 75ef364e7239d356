# dictcomp_key_is_value — printed output checked by t/lang_print.sh against dictcomp_key_is_value.out (PyTorch 1.13).
import math
import torch
from typing import Any, Dict, List, NamedTuple, Optional, Tuple, Union
from enum import Enum

def main():
    d = {str(i): i * 0.5 for i in range(3)}
    e = {k: len(k) for k in ["a", "bb", "a"]}
    f = {i: [i] * i for i in range(3)}
    g = {v: k for k, v in d.items()}
    print(d, e, f, g)
    print({k: v for k, v in zip([1, 2], ["x", "y"])}, {x: x for x in "ab"})
