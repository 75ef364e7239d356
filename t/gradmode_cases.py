# t/gradmode_cases.py — grad mode as TorchScript programs see it: on by default, off inside
# torch.no_grad() (and back on after it, however the block is left), set by
# torch.set_grad_enabled, inherited by forked tasks. Models pick paths by it (the fast path
# of nn.MultiheadAttention needs it off). Run by t/gradmode_cases.sh through t/cases.sh;
# they pass under PyTorch too: /usr/bin/python3 t/gradmode_cases.py
from typing import List

import torch


def test_on_by_default_off_under_no_grad():
    assert torch.is_grad_enabled()
    with torch.no_grad():
        assert not torch.is_grad_enabled()
        with torch.no_grad():
            assert not torch.is_grad_enabled()
        assert not torch.is_grad_enabled()
    assert torch.is_grad_enabled()


def test_no_grad_binds_none():
    with torch.no_grad() as g:
        assert g is None


def test_set_grad_enabled():
    torch.set_grad_enabled(False)
    off = torch.is_grad_enabled()
    torch.set_grad_enabled(True)
    assert not off and torch.is_grad_enabled()


def leave_early(n: int) -> int:
    with torch.no_grad():
        if n > 0:
            return n
    return -1


def test_no_grad_restored_after_return():
    assert leave_early(3) == 3
    assert torch.is_grad_enabled()


def test_no_grad_restored_after_break():
    seen: List[bool] = []
    for i in range(3):
        with torch.no_grad():
            seen.append(torch.is_grad_enabled())
            if i == 1:
                break
    assert seen == [False, False] and torch.is_grad_enabled()


def mode(unused: int) -> bool:
    return torch.is_grad_enabled()


def test_forked_task_inherits_the_mode():
    torch.set_grad_enabled(False)
    f = torch.jit.fork(mode, 0)
    off = torch.jit.wait(f)
    torch.set_grad_enabled(True)
    g = torch.jit.fork(mode, 0)
    assert not off and torch.jit.wait(g)


if __name__ == "__main__":
    import casedriver
    casedriver.run(dict(globals()))
