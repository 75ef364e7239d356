# torch.nn.init called from a module's methods: the archive holds its scripted functions,
# which fill the parameters through the aten::_no_grad_* operators (no leaf error).
import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 2)
    def forward(self, x):
        return self.lin(x)
    @torch.jit.export
    def reset(self):
        nn.init.zeros_(self.lin.bias)
        nn.init.ones_(self.lin.weight)
        nn.init.constant_(self.lin.bias, 0.5)
    @torch.jit.export
    def main(self):
        self.reset()
        print(self.forward(torch.ones(1, 3)))
        torch.manual_seed(0)
        nn.init.uniform_(self.lin.weight, -1.0, 1.0)
        nn.init.normal_(self.lin.bias)
        print(self.lin.weight, self.lin.bias)
        nn.init.xavier_uniform_(self.lin.weight)
        print(self.lin.weight)
