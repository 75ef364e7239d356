# prog.py — t/ir_pass.sh's program: relu(add(...)) in straight code, with alpha, with
# broadcasting, in float64 and inside a loop; int identities (n * 1 + 0); and patterns the
# passdemo plugin's passes must leave alone (an add used twice, a float identity).
import torch


def main(n: int):
    x = torch.arange(12, dtype=torch.float32).reshape(3, 4) - 5.5
    y = torch.linspace(-1.0, 1.0, 4)
    a = torch.relu(x + y)
    b = torch.relu(torch.add(x, y, alpha=3))
    d = torch.relu(x.double() + y.double())
    s = torch.zeros(4)
    for i in range(n * 1 + 0):
        s = torch.relu(s + y)
    t = x + y
    u = torch.relu(t)
    m = n * 1.0
    print(a)
    print(b)
    print(d)
    print(s)
    print(u - t)
    print(m)
