# A type is a fact about a value for its whole life. An in-place operator on its self
# (add_, mul_) keeps the dtype and sizes of what it writes, but may make it require grad:
# such a value, and whatever may alias it, keeps all but requires_grad. In a function that
# also reshapes a tensor in place (unsqueeze_), or writes one through out=, a written value
# keeps nothing; values nothing writes keep everything.
# PASS: shape_prop
# FUNCTION: f
# INPUTS: Float(2, 3, requires_grad=0, device=cpu), Float(2, 3, requires_grad=0, device=cpu)
# CHECK: %a : Float(2, 3, strides=[3, 1], device=cpu) = aten::zeros(
# CHECK: %b : Float(2, 3, strides=[3, 1], device=cpu) = aten::add_(%a, %x
# CHECK: %c : Float(2, 3, requires_grad=0, device=cpu) = aten::mul(%x, %y)
import torch


def f(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    a = torch.zeros(2, 3)
    b = a.add_(x)
    c = x * y
    return a + b + c


def main():
    print(f(torch.ones(2, 3), torch.ones(2, 3)))
    x = torch.ones(2, 3).requires_grad_()
    print(f(torch.ones(2, 3), x).requires_grad)
