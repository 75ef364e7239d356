# A module traced with torch.jit.trace(strict=False) on a dict input, returning a dict, inside a scripted module.
import torch
import torch.nn as nn
from typing import Dict, List, Tuple

class T(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 2)
    def forward(self, d: Dict[str, torch.Tensor]):
        return {"out": self.lin(d["a"]) + d["b"], "sum": d["a"].sum()}

class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.t = torch.jit.trace(T(), ({"a": torch.ones(2, 3), "b": torch.zeros(2, 2)},), strict=False)
    def forward(self, x):
        return self.t({"a": x, "b": x[:, :2]})
    @torch.jit.export
    def main(self):
        r = self.forward(torch.arange(6.0).reshape(2, 3))
        print(r["out"], r["sum"])
        print(sorted(r.keys()))
