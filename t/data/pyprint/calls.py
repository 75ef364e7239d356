# calls — keyword-only arguments by name, trailing defaults left out, multiple outputs,
# methods as aten calls, prim ops as ops.prim.X.
import torch
from typing import Tuple

def main(x: torch.Tensor, y: torch.Tensor) -> Tuple[torch.Tensor, int]:
    a = torch.add(x, y, alpha=2)
    b = x.mm(y).relu().sum()
    c = torch.cat([x, y], dim=0)
    d = torch.softmax(c, dim=1)
    e, f = torch.max(d, 1)
    n = len([1, 2, 3]) + int(b) + x.size(0)
    q, r = divmod(n, 3)
    print(a, b, e, f, q, r, x.shape, x.dtype, x.device)
    return torch.where(a > 0, a, b), n
