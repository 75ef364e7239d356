# raises: too big: 5
# An error inside a forked closure of a saved module surfaces at wait().
import torch
import torch.nn as nn


def bad(x: int) -> int:
    if x > 2:
        raise ValueError("too big: " + str(x))
    return x


class Model(nn.Module):
    @torch.jit.export
    def main(self):
        g = torch.jit.fork(bad, 5)
        print("forked")
        print(torch.jit.wait(g))
