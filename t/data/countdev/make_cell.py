# make_cell.py — the saved model of t/countdev.sh's map-location tests: examples/lstm.py's
# cell as a module whose weights are its parameters, scripted and saved by PyTorch 1.13.
#
#     /usr/bin/python3 t/data/countdev/make_cell.py t/data/countdev/cell.pt
import sys
from typing import List, Tuple

import torch
import torch.nn as nn


class Cell(nn.Module):
    def __init__(self, inp: int = 3, hidden: int = 4):
        super().__init__()
        self.w_ih = nn.Parameter(torch.linspace(-1.0, 1.0, 4 * hidden * inp).reshape(4 * hidden, inp))
        self.w_hh = nn.Parameter(torch.linspace(1.0, -1.0, 4 * hidden * hidden).reshape(4 * hidden, hidden))
        self.b_ih = nn.Parameter(torch.full([4 * hidden], 0.1))
        self.b_hh = nn.Parameter(torch.zeros(4 * hidden))

    def forward(self, x: torch.Tensor, hx: torch.Tensor, cx: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
        gates = x.mm(self.w_ih.t()) + hx.mm(self.w_hh.t()) + self.b_ih + self.b_hh
        ingate, forgetgate, cellgate, outgate = gates.chunk(4, 1)
        ingate = torch.sigmoid(ingate)
        forgetgate = torch.sigmoid(forgetgate)
        cellgate = torch.tanh(cellgate)
        outgate = torch.sigmoid(outgate)
        cy = (forgetgate * cx) + (ingate * cellgate)
        hy = outgate * torch.tanh(cy)
        return hy, cy

    @torch.jit.export
    def devices(self) -> List[str]:
        return [str(self.w_ih.device), str(self.w_hh.device), str(self.b_ih.device),
                str(self.b_hh.device)]


if __name__ == "__main__":
    torch.jit.script(Cell()).save(sys.argv[1])
