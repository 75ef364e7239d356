# dce_list_of_tensors_write — The function's only effect is a write through a list of tensors.
# A mutation-suite program (t/mutation/README): its .out is what PyTorch 1.13 printed
# (t/mutation/make_expected.py), and t/mutation.sh requires the same with the optimizer on.
from typing import List

import torch

def f(ts: List[torch.Tensor]) -> int:
    for t in ts:
        t.mul_(2)
    return len(ts)


def main():
    ts = [torch.ones(2), torch.ones(1)]
    f(ts)
    print(ts)
