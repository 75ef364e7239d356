# print_float_repr — printed output checked by t/lang_print.sh against print_float_repr.out (PyTorch 1.13).
import math
import torch
from typing import Any, Dict, List, NamedTuple, Optional, Tuple, Union
from enum import Enum

def main():
    print(1.0e-5, 3.14159265358979, 1e308, 5e-324, 2.5e-310, 1.7976931348623157e308)
    print(0.30000000000000004, 1.1, 2.675, 1e-7 * 3, 4.35, 0.000001, 1234.5678)
    print(float(2**53), float(2**53 + 1), -123456789012345.6, 99999999999999999.0)
