# print_floats_containers — printed output checked by t/lang_print.sh against print_floats_containers.out (PyTorch 1.13).
import math
import torch
from typing import Any, Dict, List, NamedTuple, Optional, Tuple, Union
from enum import Enum

def main():
    print(1e16, 1e15, 123456789.0, 1.5e-5, 1e-4, 0.0001234, 1e100, -1e-100, 2.0**60)
    print(0.1 + 0.2, 1.0 / 3.0, 2.0 / 3.0, 100.0, 1e22, 1e21, 12345678901234567.0)
    print(math.nan, -math.inf, [math.nan, math.inf], (0.5, -0.0), {"a": -0.0})
    print([], {}, (), [[]], [()], ((), ()), [{}])
    print(None, [None], (None, 1))
    print("multi\nline", "tab\there", 'q"uote', "back\\slash")
    print(["multi\nline", 'q"uote', "it's"], ("a'b",), {"k'": "v\""})
    print(True, [True], (False,), {True: False})
    print(9223372036854775807, -9223372036854775807 - 1, [-1, 0])
    print(torch.tensor(1.5), [torch.tensor([1, 2])])
