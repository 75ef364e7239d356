# Rearranging dimensions: view/reshape (one -1 inferred from the known element count),
# flatten, squeeze of a known 1 (a size that is not known keeps squeeze's rank unknown),
# unsqueeze, permute, transpose, t, expand (-1 keeps a size), select, slicing (start and
# end clamped as PyTorch clamps them), cat (sizes along the dim add up; dtypes promote) and
# stack; to(dtype) keeps the shape.
# PASS: shape_prop
# FUNCTION: f
# INPUTS: Float(2, 3, 4, requires_grad=0, device=cpu), Float(*, 1, requires_grad=0, device=cpu), Long(2, 3, 4, requires_grad=0, device=cpu)
# CHECK: %a : Float(6, 4, requires_grad=0, device=cpu) = aten::view(%x
# CHECK: %b : Float(4, 6, requires_grad=0, device=cpu) = aten::reshape(%x
# CHECK: %c : Float(2, 12, requires_grad=0, device=cpu) = aten::flatten(%x
# CHECK: %d : Float(*, requires_grad=0, device=cpu) = aten::squeeze(%y
# CHECK: %e : FloatTensor(requires_grad=0, device=cpu) = aten::squeeze(%y)
# CHECK: %g : Float(2, 1, 3, 4, requires_grad=0, device=cpu) = aten::unsqueeze(%x
# CHECK: %h : Float(4, 2, 3, requires_grad=0, device=cpu) = aten::permute(%x
# CHECK: %i : Float(2, 4, 3, requires_grad=0, device=cpu) = aten::transpose(%x
# CHECK: %j : Float(1, *, requires_grad=0, device=cpu) = aten::t(%y)
# CHECK: %k : Float(5, *, 7, requires_grad=0, device=cpu) = aten::expand(%y
# CHECK: %l : Float(2, 4, requires_grad=0, device=cpu) = aten::select(%x
# CHECK: %m : Float(2, 2, 4, requires_grad=0, device=cpu) = aten::slice(%
# CHECK: %o : Float(2, 0, 4, requires_grad=0, device=cpu) = aten::slice(%
# CHECK: %p : Float(4, 3, 4, requires_grad=0, device=cpu) = aten::cat(
# CHECK: %q : Float(2, 3, 8, requires_grad=0, device=cpu) = aten::cat(
# CHECK: %r : Float(2, 2, 3, 4, requires_grad=0, device=cpu) = aten::stack(
# CHECK: %s : Double(2, 3, 4, requires_grad=0, device=cpu) = aten::to(%x
import torch
from typing import Tuple


def f(x: torch.Tensor, y: torch.Tensor, z: torch.Tensor) -> Tuple[
        torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor,
        torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor,
        torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    a = x.view(-1, 4)
    b = x.reshape(4, -1)
    c = x.flatten(1)
    d = y.squeeze(1)
    e = y.squeeze()
    g = x.unsqueeze(1)
    h = x.permute(2, 0, 1)
    i = x.transpose(1, 2)
    j = y.t()
    k = y.expand(5, -1, 7)
    l = x.select(1, 0)
    m = x[:, 1:]
    o = x[:, 5:-9]
    p = torch.cat([x, z], dim=0)
    q = torch.cat([x, x], dim=-1)
    r = torch.stack([x, x])
    s = x.to(torch.float64)
    return a, b, c, d, e, g, h, i, j, k, l, m, o, p, q, r, s


def main():
    for t in f(torch.zeros(2, 3, 4), torch.zeros(5, 1), torch.ones(2, 3, 4, dtype=torch.long)):
        print(t.dtype, t.shape)
