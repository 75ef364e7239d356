# A function that writes a tensor through out= (which resizes what it writes): the value
# written keeps nothing; values nothing writes keep their types. (A tensor put in a tuple
# or list joins the wildcards, which a write may reach too: this one is not.)
# PASS: shape_prop
# FUNCTION: f
# INPUTS: Float(2, 3, requires_grad=0, device=cpu), Float(3, requires_grad=0, device=cpu)
# CHECK: %a : Tensor = aten::zeros(
# CHECK: %b : Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu) = aten::ones(
# CHECK: %c : Tensor = aten::add(%x, %y,
# CHECK: %d : Float(2, 3, requires_grad=0, device=cpu) = aten::mul(%b, %x)
# CHECK: Tensor(2, 3) = aten::add(%d
import torch


def f(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    a = torch.zeros(0)
    b = torch.ones(2, 3)
    c = torch.add(x, y, out=a)
    d = b * x
    return d + c.sum() + a.sum()


def main():
    print(f(torch.ones(2, 3), torch.ones(3)))
