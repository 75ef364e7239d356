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


def test_outputs_require_grad_when_an_input_does():
    w = torch.tensor([1.0, 1.0, 1.0], requires_grad=True)
    x = torch.arange(3.0)
    assert (w * x).requires_grad and not (x * 2).requires_grad
    assert torch.cat([x, w]).requires_grad
    assert all([p.requires_grad for p in torch.split(w * 1, 1)])
    assert torch.lstm_cell(torch.ones(1, 3), [torch.zeros(1, 1), torch.zeros(1, 1)],
                           torch.ones(4, 3).requires_grad_(), torch.ones(4, 1))[0].requires_grad
    with torch.no_grad():
        assert not (w + x).requires_grad   # PyTorch's CSE would reuse an outer w * x
    assert (w - x).requires_grad


def err_requires_grad_needs_a_floating_dtype():
    # raises: Only Tensors of floating point and complex dtype can require gradients
    x = torch.tensor([1, 2], requires_grad=True)
    print(x)


def test_detached_shaped_like_and_integral_results_do_not():
    w = torch.tensor([1.0, 1.0, 1.0], requires_grad=True)
    assert not w.detach().requires_grad and not torch.zeros_like(w).requires_grad
    assert not (w > 0).requires_grad and not w.argmax().requires_grad
    assert not w.new_zeros([2]).requires_grad
    assert (w.floor() + w.sign()).requires_grad


# Last: in PyTorch the code after wait() may resume on the thread that ran the task, so
# the caller's thread can be left with grad mode off.
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
