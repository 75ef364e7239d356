# ModuleList, ModuleDict and Sequential iterated with zip, enumerate, slices, items(), values() and keys.
import torch
import torch.nn as nn

class Scale(nn.Module):
    def __init__(self, k: float):
        super().__init__()
        self.k = k
    def forward(self, x):
        return x * self.k

class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.ModuleList([Scale(1.0), Scale(2.0), Scale(3.0)])
        self.d = nn.ModuleDict({"x": Scale(10.0), "y": Scale(20.0), "z": Scale(30.0)})
        self.s = nn.Sequential(Scale(0.5), Scale(4.0))
    def forward(self, x):
        return x
    @torch.jit.export
    def main(self):
        x = torch.ones(1)
        for m, n in zip(self.a, self.d.values()):
            print(m(x), n(x))
        for (k, m), l in zip(self.d.items(), self.a):
            print(k, m(x) + l(x))
        for i, (k, m) in enumerate(self.d.items()):
            print(i, k, m.k)
        for m in self.a[::-1]:
            print(m.k)
        for m in self.a[-2:]:
            print(m.k)
        for i, m in enumerate(self.s):
            print(i, m.k)
        for m, n in zip(self.s, self.a[1:]):
            print(m.k * n.k)
        print(len(self.a[1:]), len(self.s), self.s[-1].k, self.a[-3].k)
        print(self.d["y"].k, self.s(x))
        for k in self.d:
            print(k)
