# aten::warn warns once per node, the first time the node runs (PyTorch's interpreter does
# the same): a function that warns, called from two places and in a loop, warns once in
# all. Copies of its node would warn once each, so neither the inliner nor the loop
# unroller copies code holding one: the calls stay calls (the loop around three of them is
# unrolled: copies of a call share the callee's node), the loop around a warn stays.
# CHECK-COUNT-4: prim::CallFunction[name="__torch__.careful"]
# CHECK: prim::Loop(
# CHECK-NEXT: block0
# CHECK-NEXT: aten::warn
import torch
from typing import List


def careful(x: int) -> int:
    torch.ops.aten.warn("careful with " + str(x))
    return x + 1


def main():
    s = 0
    for i in range(3):
        s = s + careful(i)
    s = s + careful(10)
    for i in range(4):
        torch.ops.aten.warn("in a loop")
        s = s + i
    print(s)
