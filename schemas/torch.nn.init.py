# torch.nn.init.py — torch.nn.init as TorchScript, shipped by the aten plugins.
#
# PyTorch writes torch.nn.init in Python and scripts the functions a program calls (a
# module's reset method, say); its scripted functions fill the tensor through the
# aten::_no_grad_* operators, which write in place with autograd off, so a parameter (a leaf
# that requires grad) may be filled. tscript's frontend compiles this file as it does
# torch.nn.functional.py (core/frontend/library.c). Written from PyTorch 1.13's documented
# semantics: the functions 1.13 can script, with its argument names and defaults.

import math

import torch
from torch import Tensor
from typing import Tuple


def _calculate_fan_in_and_fan_out(tensor: Tensor) -> Tuple[int, int]:
    # a weight's inputs and outputs: dims 1 and 0, each times the product of the rest
    if tensor.dim() < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    field = 1
    for s in tensor.shape[2:]:
        field = field * s
    return tensor.size(1) * field, tensor.size(0) * field


def uniform_(tensor: Tensor, a: float = 0., b: float = 1.) -> Tensor:
    return torch._no_grad_uniform_(tensor, a, b)


def normal_(tensor: Tensor, mean: float = 0., std: float = 1.) -> Tensor:
    return torch._no_grad_normal_(tensor, mean, std)


def constant_(tensor: Tensor, val: float) -> Tensor:
    return torch._no_grad_fill_(tensor, val)


def ones_(tensor: Tensor) -> Tensor:
    return torch._no_grad_fill_(tensor, 1.)


def zeros_(tensor: Tensor) -> Tensor:
    return torch._no_grad_zero_(tensor)


def xavier_uniform_(tensor: Tensor, gain: float = 1.) -> Tensor:
    # Glorot's bound: the uniform draw whose deviation is gain * sqrt(2 / (in + out))
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    bound = math.sqrt(3.0) * std
    return torch._no_grad_uniform_(tensor, -bound, bound)


def xavier_normal_(tensor: Tensor, gain: float = 1.) -> Tensor:
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return torch._no_grad_normal_(tensor, 0., std)
