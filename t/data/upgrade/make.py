# make.py — writes the archives of t/upgrade.sh: a module saved by PyTorch 1.13 whose code
# calls the operators whose meaning changed over the archive versions (div, div_, full,
# linspace, logspace), with its version record rewritten to older versions PyTorch 1.13
# still loads (3, 4, 7), and what PyTorch 1.13 prints for each: its upgraders give each call
# its old meaning (integer division truncates up to version 3, full of an int fills floats
# up to 4; torch.div of two numbers is aten::div.int/.float, which no upgrader touches).
#     /usr/bin/python3 t/data/upgrade/make.py
import io
import os
import subprocess
import sys
import zipfile
from typing import Tuple

import torch
from torch import Tensor

HERE = os.path.dirname(os.path.abspath(__file__))
ARGS = "torch.tensor([7, -7, 9]), torch.tensor([2, 2, -4])"


class Ops(torch.nn.Module):
    def forward(self, a: Tensor, b: Tensor):
        c = a.float()
        c.div_(b)
        return (torch.div(a, b), a.div(2), torch.div(a.float(), 4), c, torch.full([2], 7),
                torch.linspace(0, 1, 3), torch.logspace(0, 2, 3),
                (torch.div(a.size(0), 2), torch.div(7.5, 2)))


class OldOps(torch.nn.Module):
    """In-place division of ints: only an archive of version 3 or older may do it (it
    truncated then; since, a float result cannot go into an int tensor)."""

    def forward(self, a: Tensor, b: Tensor):
        c = a.clone()
        c.div_(b)
        d = a.clone()
        d.div_(-2)
        return (torch.div(a, b), a.div(2), torch.div(a.float(), 4), c, torch.full([2], 7),
                d, torch.logspace(0, 2, 3), (torch.div(a.size(0), 2), torch.div(7.5, 2)))


def show(r: Tuple[Tensor, Tensor, Tensor, Tensor, Tensor, Tensor, Tensor,
                  Tuple[float, float]]):
    print(r)


def main():
    if len(sys.argv) == 2:     # the child: print what PyTorch gives for one archive
        m = torch.jit.load(sys.argv[1])
        torch.jit.script(show)(m(*eval(ARGS)))
        return
    for version in (3, 4, 7):
        buf = io.BytesIO()
        torch.jit.save(torch.jit.script(OldOps() if version <= 3 else Ops()), buf)
        src = zipfile.ZipFile(io.BytesIO(buf.getvalue()))
        path = os.path.join(HERE, "ops_v%d.pt" % version)
        with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
            for item in src.infolist():
                data = src.read(item.filename)
                if item.filename.endswith("/version"):
                    data = b"%d\n" % version
                z.writestr(item.filename, data)
        out = subprocess.run([sys.executable, __file__, path], capture_output=True,
                             text=True, check=True).stdout
        with open(os.path.join(HERE, "ops_v%d.out" % version), "w") as f:
            f.write(out)


if __name__ == "__main__":
    main()
