# Type promotion as PyTorch's result_type: a Python number only raises the category
# (int tensor + float number is float32, the default dtype), a zero-dim tensor likewise
# (Float(*) + Double() stays Float), tensors of rank >= 1 promote fully; true division of
# integers is float32, floor division keeps int64; comparisons are Bool. Sizes broadcast.
# A tensor whose dtype is unknown gives an unknown dtype.
# PASS: shape_prop
# FUNCTION: f
# INPUTS: Long(2, 3, requires_grad=0, device=cpu), Float(3, requires_grad=0, device=cpu), Double(requires_grad=0, device=cpu), Bool(*, requires_grad=0, device=cpu), Tensor
# CHECK: %a : Float(2, 3, requires_grad=0, device=cpu) = aten::add(%x, %
# CHECK: %b : Float(2, 3, requires_grad=0, device=cpu) = aten::add(%x, %y
# CHECK: %c : Float(3, requires_grad=0, device=cpu) = aten::mul(%y, %z
# CHECK: %d : Double(2, 3, requires_grad=0, device=cpu) = aten::sub(%x, %z
# CHECK: %e : Long(*, requires_grad=0, device=cpu) = aten::add(%w, %
# CHECK: %g : Bool(*, requires_grad=0, device=cpu) = aten::mul(%w, %w
# CHECK: %h : Float(2, 3, requires_grad=0, device=cpu) = aten::div(%x, %
# CHECK: %i : Long(2, 3, requires_grad=0, device=cpu) = aten::floor_divide(%x, %
# CHECK: %j : Bool(2, 3, requires_grad=0, device=cpu) = aten::gt(%x, %y
# CHECK: %k : Float(3, requires_grad=0, device=cpu) = aten::where(%w2, %y, %
# CHECK: %l : Tensor = aten::add(%x, %u
# CHECK: %m : Float(2, 3, requires_grad=0, device=cpu) = aten::clamp(%x, %
# CHECK: %n : Float(2, 3, requires_grad=0, device=cpu) = aten::sigmoid(%x)
# CHECK: %o : Long(2, 3, requires_grad=0, device=cpu) = aten::neg(%x)
import torch
from typing import Tuple


def f(x: torch.Tensor, y: torch.Tensor, z: torch.Tensor, w: torch.Tensor,
      u: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor,
                                torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor,
                                torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor,
                                torch.Tensor, torch.Tensor]:
    a = x + 1.5
    b = x + y
    c = y * z
    d = x - z
    e = w + 1
    g = w * w
    h = x / 2
    i = x // 2
    j = x > y
    w2 = w[:3]
    k = torch.where(w2, y, 2)
    l = x + u
    m = torch.clamp(x, min=0.5)
    n = torch.sigmoid(x)
    o = -x
    return a, b, c, d, e, g, h, i, j, k, l, m, n, o


def main():
    r = f(torch.tensor([[1, 2, 3], [4, 5, 6]]), torch.tensor([0.5, 1.5, 2.5]),
          torch.tensor(2.0, dtype=torch.float64), torch.tensor([True, False, True, True]),
          torch.tensor([1, 1, 1], dtype=torch.int32))
    for t in r:
        print(t.dtype, t.shape)
