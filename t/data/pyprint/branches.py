# branches — If outputs assigned in each branch, Optional refined by unchecked_cast, raise.
import torch
from typing import Optional

def main(x: torch.Tensor, flag: bool, o: Optional[int]) -> torch.Tensor:
    if flag:
        y = x * 2
        z = y + 1
    else:
        y = x - 1
        z = y
    if o is not None:
        k = o + 1
    else:
        k = 0
    if x.sum() > 3:
        raise ValueError("too big")
    return y + z + k
