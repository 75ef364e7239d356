#!/usr/bin/env python3
"""make_fixtures.py [DIR] — PyTorch 1.13 archives for the serialize tests, with the
canonical text of each (canon.py) beside it as NAME.canon. DIR defaults to this folder,
where the results are committed so the tests run without torch; t/unpickle.t runs this
again into a temporary folder when torch is installed and compares against fresh files.

    module.pt      torch.jit.save of a scripted module: objects, typed lists and dicts,
                   an enum, a device, complex, views sharing a storage, __getstate__
    state_dict.pt  torch.save of a state dict (OrderedDict with _metadata, protocol 2)
    values2.pt     torch.save of assorted values, pickle protocol 2
    values5.pt     the same with protocol 5 (FRAME, MEMOIZE, STACK_GLOBAL, ...)
"""
import os
import subprocess
import sys
from enum import Enum
from typing import Dict, List, NamedTuple, Optional, Tuple

import torch

HERE = os.path.dirname(os.path.abspath(__file__))


class Color(Enum):
    RED = 1
    GREEN = 2


class Point(NamedTuple):
    x: int
    y: torch.Tensor


class Keeper(torch.nn.Module):
    """A module with __getstate__/__setstate__: its state is a tuple, not a dict."""

    def __init__(self):
        super().__init__()
        self.k = 3

    @torch.jit.export
    def __getstate__(self) -> Tuple[int, bool]:
        return (self.k, self.training)

    @torch.jit.export
    def __setstate__(self, s: Tuple[int, bool]) -> None:
        self.k = s[0]
        self.training = s[1]

    def forward(self, x):
        return x + self.k


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(3, 2)
        self.keeper = Keeper()
        self.ints: List[int] = [1, 2, 300, -70000, 2**40]
        self.floats: List[float] = [1.5, -0.25]
        self.bools: List[bool] = [True, False]
        self.strs: List[str] = ["a", "b"]
        self.nested: List[List[int]] = [[1], [2, 3]]
        self.by_name: Dict[str, torch.Tensor] = {"w": torch.arange(4.0).reshape(2, 2)}
        self.by_int: Dict[int, List[str]] = {7: ["x"]}
        self.pair: Tuple[int, str] = (1, "x")
        self.maybe: Optional[int] = 5
        self.nothing: Optional[int] = None
        self.tensors: List[torch.Tensor] = [torch.ones(2), torch.zeros(2, dtype=torch.half)]
        self.color = Color.GREEN
        self.text = "héllo"
        self.dev = torch.device("cpu")
        self.row = self.lin.weight[1]          # a view: shares the weight's storage
        self.bf = torch.ones(2, dtype=torch.bfloat16)
        self.cx = torch.tensor([1 + 2j, 3 - 4j], dtype=torch.complex64)
        self.flags = torch.tensor([True, False, True])
        self.t64 = torch.arange(6, dtype=torch.int64).reshape(2, 3).t()   # strided
        self.point = Point(4, torch.ones(1))
        self.z = 1.5 - 2j

    def forward(self, x):
        return self.keeper(self.lin(x))


def save_values(path, protocol):
    base = torch.arange(12.0)
    values = {
        "param": torch.nn.Parameter(torch.ones(2)),
        "slice": base[2:8:2],               # offset and stride
        "again": base.reshape(3, 4),        # the same storage again
        "half": torch.ones(3, dtype=torch.half)[1:],
        "long": torch.tensor(7),            # 0-dim
        "int8": torch.tensor([-1, 2], dtype=torch.int8),
        "u8": torch.tensor([255], dtype=torch.uint8),
        "i16": torch.tensor([-300], dtype=torch.int16),
        "i32": torch.tensor([70000], dtype=torch.int32),
        "f64": torch.tensor([0.1], dtype=torch.float64),
        "c128": torch.tensor([1 - 1j], dtype=torch.complex128),
        "empty": torch.zeros(0, 3),
        "list": [1, 2, (3, "x"), [4.5, None]],
        "complex": 1 + 2j,
        "device": torch.device("cuda", 1),
        "cpu": torch.device("cpu"),
        "size": torch.Size([2, 3]),
        "big": 2**62, "neg": -(2**40), "small": -3,
        "text": "é∑😀",
        "bool": True,
        "many": [str(i) for i in range(300)],      # past 256 memo entries: LONG_BINPUT
        "long_list": list(range(1200)),             # more than one APPENDS batch
    }
    torch.save(values, path, pickle_protocol=protocol)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else HERE
    torch.manual_seed(0)
    torch.jit.save(torch.jit.script(Model()), os.path.join(out, "module.pt"))
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.BatchNorm1d(2))
    torch.save(net.state_dict(), os.path.join(out, "state_dict.pt"))
    save_values(os.path.join(out, "values2.pt"), 2)
    save_values(os.path.join(out, "values5.pt"), 5)
    for name in ("module", "state_dict", "values2", "values5"):
        text = subprocess.check_output([sys.executable, os.path.join(HERE, "canon.py"),
                                        os.path.join(out, name + ".pt")])
        with open(os.path.join(out, name + ".canon"), "wb") as f:
            f.write(text)


if __name__ == "__main__":
    main()
