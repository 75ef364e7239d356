# t/env_cases.py — what a program asks of the runtime (the prim plugin's env.c): grad mode
# (on by default, set_grad_enabled switches it), autocast (never on), and what a device is
# (its type, index, equality). t/env_cases.sh runs them under tscript, with aten::warn's
# once-per-node printing; under PyTorch:
#     /usr/bin/python3 t/env_cases.py
import torch


def test_grad_mode():
    assert torch.is_grad_enabled()
    torch.set_grad_enabled(False)
    assert not torch.is_grad_enabled()
    torch.set_grad_enabled(False)
    assert not torch.is_grad_enabled()
    torch.set_grad_enabled(True)
    assert torch.is_grad_enabled()


def test_autocast_is_off():
    assert not torch.is_autocast_enabled()
    assert not torch.is_autocast_cpu_enabled()


def test_device_type():
    x = torch.zeros(2)
    assert torch.ops.prim.type(x.device) == "cpu"
    assert torch.ops.prim.type(torch.device("cpu")) == "cpu"


def test_device_attributes():
    d = torch.zeros(2).device
    assert d.type == "cpu" and d.index is None
    assert d == torch.device("cpu") and not (d != torch.device("cpu"))
    c = torch.device("cuda:1")
    i = c.index
    assert c.type == "cuda" and i is not None and i == 1
    assert c != torch.device("cuda") and c == torch.device("cuda:1")
    assert torch.device("cuda").index is None and c != d


def warn_in_loop():
    for i in range(3):
        torch.ops.aten.warn("careful: " + str(i))
    torch.ops.aten.warn("second", 3)


if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
