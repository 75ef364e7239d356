# torch.jit.optimize_for_inference keeping main: linear layers, layer norm and softmax after the inference passes.
import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(4, 8)
        self.l2 = nn.Linear(8, 3)
        self.ln = nn.LayerNorm(8)
        self.names = ["a", "b", "c"]
    def forward(self, x):
        return self.l2(torch.relu(self.ln(self.l1(x)))).softmax(-1)
    @torch.jit.export
    def main(self):
        torch.manual_seed(1)
        x = torch.randn(2, 4)
        y = self.forward(x)
        print(y)
        print(self.names[int(y[0].argmax())])

def build():
    m = torch.jit.script(Model().eval())
    return torch.jit.optimize_for_inference(m, other_methods=["main"])
