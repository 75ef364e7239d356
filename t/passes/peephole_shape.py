# With the tensors' types known, what reads only them is a constant: x.size() of known
# sizes (a list only read), x.size(1), x.shape[1] and x.dim() of known ones, len(x.size()),
# x.dtype, x.device, x.is_cuda. What the types leave open stays: a size that is '*', the
# dtype of a plain Tensor, a size list that is appended to (it must be a new list each
# call), and x.requires_grad (the grad mode of a call is not in the type).
# PASS: peephole
# FUNCTION: f
# INPUTS: Float(2, 3, requires_grad=0, device=cpu), Long(*, 4, requires_grad=0, device=cpu), Tensor
# CHECK-NOT: aten::dim(
# CHECK-NOT: prim::dtype(%x)
# CHECK-NOT: prim::device(
# CHECK-NOT: prim::is_cuda(
# CHECK: aten::size(%y, %
# CHECK: prim::dtype(%z)
# CHECK: aten::__getitem__(
# CHECK: %q : int[] = aten::size(%x)
# CHECK: aten::append(%q,
# CHECK: prim::requires_grad(%x)
# CHECK: return
import torch
from typing import List, Tuple


def f(x: torch.Tensor, y: torch.Tensor, z: torch.Tensor) -> Tuple[
        int, int, int, int, int, int, int, torch.device, int, int, int, bool, int, bool]:
    a = x.size()
    s = a[0] * 10 + a[1]
    b = x.dim()
    c = y.size(1)
    d = y.size(0)
    e = y.dim()
    g = x.dtype
    h = z.dtype
    i = x.device
    j = len(y.size())
    k = y.shape[1]
    l = y.shape[0]
    m = y.is_cuda
    q = x.size()
    q.append(1)
    n = x.requires_grad
    return s, b, c, d, e, g, h, i, j, k, l, m, len(q), n


def main():
    print(f(torch.zeros(2, 3), torch.zeros(5, 4, dtype=torch.long), torch.zeros(1)))
