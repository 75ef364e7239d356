# raises: TorchScript classes does not support inheritance yet. Please directly inherit from 'object'.
# A NamedTuple's base is tuple: torch.jit.script refuses it as a class that inherits (an
# Enum it passes as it is).
from enum import Enum
from typing import NamedTuple

import torch


@torch.jit.script
class Color(Enum):
    RED = 1


@torch.jit.script
class Point(NamedTuple):
    x: int
    y: int


def main():
    print(Color.RED, Point(1, 2))
