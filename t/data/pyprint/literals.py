# literals — empty and Optional containers annotated, floats to 17 digits, escapes, a long
# constant hoisted, a long call split, dtype and device arguments.
import torch
from typing import List, Dict, Optional, Tuple

def main(t: torch.Tensor, s: str):
    l: List[int] = []
    d: Dict[str, float] = {}
    e = {"a": 1, "b": 2}
    u: List[Optional[int]] = [1, None]
    f = [0.1, 1e-5, 1e20, -0.0, 2.5, 3.0]
    print(l, d, e, u, f, (1,), (1, "x"), "q\"uote\n\ttab", 'it\'s')
    w = "a long string literal that does not fit in forty columns"
    print(w, s + w, t.sum(dim=0, keepdim=True), torch.zeros(3, dtype=torch.int64))
    print(torch.arange(10, dtype=torch.float64, device="cpu"), t.to(torch.float16))
