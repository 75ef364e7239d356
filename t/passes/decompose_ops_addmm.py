# An addmm whose beta and alpha are constants equal to 1 (written or defaulted, int or
# float) becomes self + mm(mat1, mat2), as PyTorch's DecomposeOps makes it; one with another
# beta or alpha, or one read from a variable, stays an addmm, and the in-place addmm_ stays too.
# PASS: decompose_ops
# FUNCTION: f
# CHECK: : Tensor = aten::mm(%m1, %m2)
# CHECK-NEXT: prim::Constant[value=1]()
# CHECK-NEXT: %a : Tensor = aten::add(%s,
# CHECK: : Tensor = aten::mm(%m1, %m2)
# CHECK-NEXT: prim::Constant[value=1]()
# CHECK-NEXT: %b : Tensor = aten::add(%s,
# CHECK: %c : Tensor = aten::addmm(%s, %m1, %m2,
# CHECK: %d : Tensor = aten::addmm(%s, %m1, %m2,
# CHECK: %e : Tensor = aten::addmm(%s, %m1, %m2,
# CHECK: aten::addmm_(%t, %m1, %m2,
# CHECK-NOT: aten::mm
import torch


def f(s: torch.Tensor, m1: torch.Tensor, m2: torch.Tensor, k: float) -> torch.Tensor:
    a = torch.addmm(s, m1, m2)
    b = torch.addmm(s, m1, m2, beta=1.0, alpha=1)
    c = torch.addmm(s, m1, m2, beta=0.5)
    d = torch.addmm(s, m1, m2, alpha=2)
    e = torch.addmm(s, m1, m2, beta=k)
    t = s.clone()
    t.addmm_(m1, m2)
    return a + b + c + d + e + t


def main():
    s = torch.arange(8, dtype=torch.float32).reshape(2, 4) / 8.0
    m1 = torch.arange(6, dtype=torch.float32).reshape(2, 3) - 2.5
    m2 = torch.arange(12, dtype=torch.float32).reshape(3, 4) / 4.0
    print(f(s, m1, m2, 1.0))
    print(torch.addmm(s, m1, m2))
    print(torch.addmm(torch.ones(4), m1, m2))
