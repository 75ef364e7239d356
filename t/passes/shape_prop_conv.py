# conv2d and max_pool2d: (N, C, H, W) to (N, C_out, H_out, W_out) with each spatial size
# floor((H + 2 padding - dilation (k - 1) - 1) / stride) + 1 (max_pool2d's ceil_mode rounds
# up unless the last window would start in the padding; its stride defaults to the
# kernel size); an unbatched (C, H, W) input keeps its rank. A size that is not known stays
# unknown.
# PASS: shape_prop
# FUNCTION: f
# INPUTS: Float(2, 3, 10, 9, requires_grad=0, device=cpu), Float(8, 3, 3, 2, requires_grad=0, device=cpu), Float(3, *, 7, requires_grad=0, device=cpu)
# CHECK: %a : Float(2, 8, 8, 8, requires_grad=0, device=cpu) = aten::conv2d(%x, %w
# CHECK: %b : Float(2, 8, 5, 5, requires_grad=0, device=cpu) = aten::conv2d(%x, %w
# CHECK: %c : Float(2, 8, 6, 10, requires_grad=0, device=cpu) = aten::conv2d(%x, %w
# CHECK: %d : Float(2, 3, 5, 4, requires_grad=0, device=cpu) = aten::max_pool2d(%x
# CHECK: %e : Float(2, 3, 5, 4, requires_grad=0, device=cpu) = aten::max_pool2d(%x
# CHECK: %g : Float(2, 3, 5, 5, requires_grad=0, device=cpu) = aten::max_pool2d(%x
# CHECK: %h : Float(3, *, 3, requires_grad=0, device=cpu) = aten::max_pool2d(%u
import torch
import torch.nn.functional as F
from typing import Tuple


def f(x: torch.Tensor, w: torch.Tensor, u: torch.Tensor) -> Tuple[
        torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor,
        torch.Tensor]:
    a = F.conv2d(x, w)
    b = F.conv2d(x, w, stride=2, padding=1)
    c = F.conv2d(x, w, torch.zeros(8), stride=1, padding=[0, 1], dilation=[2, 1])
    d = F.max_pool2d(x, 2)
    e = F.max_pool2d(x, 3, stride=2, padding=1, dilation=2, ceil_mode=True)
    g = F.max_pool2d(x, [2, 3], stride=[2, 2], padding=[0, 1], ceil_mode=True)
    h = F.max_pool2d(u, 2)
    return a, b, c, d, e, g, h


def main():
    for t in f(torch.ones(2, 3, 10, 9), torch.ones(8, 3, 3, 2), torch.ones(3, 5, 7)):
        print(t.dtype, t.shape)
