# str_pad_partition — printed output checked by t/lang_print.sh against str_pad_partition.out (PyTorch 1.13).
import math
import torch
from typing import Any, Dict, List, NamedTuple, Optional, Tuple, Union
from enum import Enum

def main():
    s = "ab"
    print(s.center(7), "|" + s.center(6, "-") + "|", s.ljust(5, "*"), s.rjust(5, "0"), s.zfill(5), "-3".zfill(4) if False else 0)
    print(s.center(1), s.ljust(0), "abc".center(6, "x"), "7".zfill(1), "".zfill(3))
    print("a,b,c".partition(","), "a,b,c".rpartition(","), "abc".partition("x"), "abc".rpartition("x"))
    print("a\tb".expandtabs(), "a\tb".expandtabs(4), "ab\tc\td".expandtabs(2))
