# Nondeterministic operators never fold, constant inputs or not: torch.randperm(5) and
# dropout in training mode on a constant tensor run at every call (PyTorch's
# isNondeterministic list), while the deterministic len("abc") beside them folds.
# PASS: constant_prop
# FUNCTION: f
# CHECK: aten::randperm(
# CHECK: aten::dropout(
# CHECK-NOT: aten::len
# CHECK: return
import torch
import torch.nn.functional as F


def f(x: int) -> int:
    a = torch.randperm(5)[0].item()
    b = F.dropout(torch.ones(8), 0.5, True).sum().item()
    return int(a) + int(b) + len("abc") + x


def main():
    torch.manual_seed(0)
    first = f(1)
    differs = False
    for _ in range(20):
        differs = differs or f(1) != first
    print(differs)
