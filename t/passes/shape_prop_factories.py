# Factories with constant sizes and options make complete types: zeros/ones/empty are
# float32 unless dtype= says otherwise, contiguous (strides), on the CPU, not requiring
# grad; full takes its fill value's dtype (int64 for 7); arange int64 for ints, float32
# with a float, its length ceil((end - start) / step); tensor() the data's dtype and
# length; eye and linspace; the *_like family copies the shape, and the dtype unless given.
# An int64 arange counts with its bounds cut to ints, others in double.
# A size that is not a constant is unknown ('*').
# PASS: shape_prop
# FUNCTION: f
# CHECK: %a : Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu) = aten::zeros(
# CHECK: %b : Long(4, strides=[1], requires_grad=0, device=cpu) = aten::ones(
# CHECK: %c : Long(2, strides=[1], requires_grad=0, device=cpu) = aten::full(
# CHECK: %d : Float(2, 1, 3, strides=[3, 3, 1], requires_grad=0, device=cpu) = aten::full(
# CHECK: %e : Long(5, strides=[1], requires_grad=0, device=cpu) = aten::arange(
# CHECK: %g : Float(4, strides=[1], requires_grad=0, device=cpu) = aten::arange(
# CHECK: %h : Double(3, strides=[1], requires_grad=0, device=cpu) = aten::tensor(
# CHECK: %i : Long(2, strides=[1], requires_grad=0, device=cpu) = aten::tensor(
# CHECK: %j : Float(3, 4, strides=[4, 1], requires_grad=0, device=cpu) = aten::eye(
# CHECK: %k : Float(5, strides=[1], requires_grad=0, device=cpu) = aten::linspace(
# CHECK: %l : Int(2, 3, requires_grad=0, device=cpu) = aten::zeros_like(
# CHECK: %m : Long(2, 3, requires_grad=0, device=cpu) = aten::full_like(
# CHECK: %o : Float(*, 3, requires_grad=0, device=cpu) = aten::empty(
# CHECK: %p : Bool(requires_grad=0, device=cpu) = aten::tensor(
# CHECK: %q : Long(4, strides=[1], requires_grad=0, device=cpu) = aten::arange(
# CHECK: %r : Int(5, strides=[1], requires_grad=0, device=cpu) = aten::arange(
import torch
from typing import Tuple


def f(n: int) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor,
                       torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor,
                       torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor,
                       torch.Tensor]:
    a = torch.zeros(2, 3)
    b = torch.ones([4], dtype=torch.long)
    c = torch.full([2], 7)
    d = torch.full([2, 1, 3], 0.5)
    e = torch.arange(5)
    g = torch.arange(0, 1, 0.3)
    h = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)
    i = torch.tensor([4, 5])
    j = torch.eye(3, 4)
    k = torch.linspace(0, 1, 5)
    l = torch.zeros_like(a, dtype=torch.int32)
    m = torch.full_like(l, 2, dtype=torch.long)
    o = torch.empty(n, 3)
    p = torch.tensor(True)
    q = torch.arange(0, 4.5, 1, dtype=torch.long)
    r = torch.arange(0.5, 5.0, 1.0, dtype=torch.int32)
    return a, b, c, d, e, g, h, i, j, k, l, m, o, p, q, r


def main():
    for t in f(6):
        print(t.dtype, t.shape, t.stride(), t.requires_grad)
