# What PyTorch's printer writes into an archive's code and its parser reads back:
# INT64_MIN as the literal -9223372036854775808 (out of range in a program's source), and
# torch.jit._unwrap_optional(x) as torch._unwrap_optional(x).
import math
from typing import Dict, Optional

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.table: Dict[str, Optional[torch.Tensor]] = {"a": torch.ones(1), "b": None}
        self.lowest = -(2 ** 63)

    def get(self, k: str) -> Optional[torch.Tensor]:
        return self.table.get(k)

    @torch.jit.export
    def main(self):
        print(-9223372036854775807 - 1, self.lowest, self.lowest == -9223372036854775807 - 1)
        print(float("inf"), -math.inf, 1e-300, 5e-324, 9007199254740993)
        print("é \u2603 \t|\n|", 'q"uote', "s'ingle", "back\\slash")
        y = torch.jit._unwrap_optional(self.get("a"))
        print(y * 3)
        for k in ["a", "b"]:
            v = self.get(k)
            print(k, v is None)
