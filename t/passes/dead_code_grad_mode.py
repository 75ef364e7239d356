# aten::set_grad_enabled returns nothing and writes nothing its schema declares: it is
# called for its effect on gradient mode, and stays (PyTorch registers it conservative).
# PASS: dead_code
# FUNCTION: f
# CHECK: aten::set_grad_enabled
# CHECK: aten::mul
# CHECK: aten::set_grad_enabled
import torch


def f(x: torch.Tensor) -> torch.Tensor:
    torch.set_grad_enabled(False)
    y = x * 2
    torch.set_grad_enabled(True)
    return y


def main():
    print(f(torch.ones(2)))
