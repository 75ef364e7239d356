# tuple_zip_enumerate — printed output checked by t/lang_print.sh against tuple_zip_enumerate.out (PyTorch 1.13).
import math
import torch
from typing import Any, Dict, List, NamedTuple, Optional, Tuple, Union
from enum import Enum

def main():
    for i, x in enumerate((3, "a", 2.5), start=-1):
        print(i, x)
    for a, b, c in zip((1, 2), ("x", "y", "z"), (True, 1.5)):
        print(a, b, c)
    for i, (a, b) in enumerate(zip((1, 2), ("x", "y"))):
        print(i, a, b)
    e = ()
    for q in zip(e, (1,)):
        print(q)
    print("end")
