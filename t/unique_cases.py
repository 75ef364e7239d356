# t/unique_cases.py — torch.unique and torch.unique_consecutive (Python functions in
# PyTorch, lowered by core/frontend/functional.c) and the kernels behind them (unique.c), run as
# TorchScript. The test_* functions assert PyTorch 1.13's results; each err_* function fails
# with the message in its `# raises:` line. t/unique_cases.sh runs both kinds through
# tscript; they behave the same under PyTorch:
#     /usr/bin/python3 t/unique_cases.py
import torch


def test_unique():
    x = torch.tensor([3, 1, 2, 1, 3, 3])
    assert torch.equal(torch.unique(x), torch.tensor([1, 2, 3]))
    u, inv = torch.unique(x, return_inverse=True)
    assert torch.equal(u, torch.tensor([1, 2, 3])) and torch.equal(inv, torch.tensor([2, 0, 1, 0, 2, 2]))
    u, cnt = torch.unique(x, return_counts=True)
    assert torch.equal(cnt, torch.tensor([2, 1, 3]))
    u, inv, cnt = torch.unique(torch.tensor([[3, 1], [2, 1]]), sorted=True, return_inverse=True,
                               return_counts=True)
    assert torch.equal(u, torch.tensor([1, 2, 3])) and torch.equal(inv, torch.tensor([[2, 0], [1, 0]]))
    assert torch.equal(cnt, torch.tensor([2, 1, 1]))
    f = torch.unique(torch.tensor([0.5, -1.0, 0.5]).t())
    assert torch.equal(f, torch.tensor([-1.0, 0.5]))
    assert torch.equal(torch.unique(torch.tensor([True, False, True])), torch.tensor([False, True]))
    assert torch.unique(torch.zeros(0)).size() == [0]
    big = torch.tensor([9007199254740993, 9007199254740992, 9007199254740993])
    assert torch.unique(big).size() == [2]


def test_unique_dim():
    m = torch.tensor([[3, 1], [2, 1], [3, 1]])
    u, inv, cnt = torch.unique(m, dim=0, return_inverse=True, return_counts=True)
    assert torch.equal(u, torch.tensor([[2, 1], [3, 1]]))
    assert torch.equal(inv, torch.tensor([1, 0, 1])) and torch.equal(cnt, torch.tensor([1, 2]))
    u2 = torch.unique(m, dim=1)
    assert torch.equal(u2, torch.tensor([[1, 3], [1, 2], [1, 3]]))
    assert torch.equal(torch._unique2(torch.tensor([2, 2]))[1], torch.zeros(0, dtype=torch.long))


def test_unique_consecutive():
    x = torch.tensor([1, 1, 2, 2, 3, 1, 1, 2])
    assert torch.equal(torch.unique_consecutive(x), torch.tensor([1, 2, 3, 1, 2]))
    u, inv, cnt = torch.unique_consecutive(x, return_inverse=True, return_counts=True)
    assert torch.equal(inv, torch.tensor([0, 0, 1, 1, 2, 3, 3, 4]))
    assert torch.equal(cnt, torch.tensor([2, 2, 1, 2, 1]))
    u, cnt = torch.unique_consecutive(torch.tensor([[1, 1], [1, 1], [2, 3]]), return_counts=True,
                                      dim=0)
    assert torch.equal(u, torch.tensor([[1, 1], [2, 3]])) and torch.equal(cnt, torch.tensor([2, 1]))
    u, inv = torch.unique_consecutive(torch.tensor([[1, 1], [1, 1]]), return_inverse=True)
    assert torch.equal(u, torch.tensor([1])) and torch.equal(inv, torch.tensor([[0, 0], [0, 0]]))


def test_unique_out_forms():
    x = torch.tensor([3, 1, 3])
    o0 = torch.empty(0, dtype=torch.long)
    o1 = torch.empty(0, dtype=torch.long)
    o2 = torch.empty(0, dtype=torch.long)
    torch._unique2(x, True, True, True, out0=o0, out1=o1, out2=o2)
    assert torch.equal(o0, torch.tensor([1, 3])) and torch.equal(o1, torch.tensor([1, 0, 1]))
    assert torch.equal(o2, torch.tensor([1, 2]))
    m = torch.tensor([[1, 2], [1, 2]])
    torch.ops.aten.unique_dim(m, 1, True, False, True, out0=o0, out1=o1, out2=o2)
    assert torch.equal(o0, torch.tensor([[1, 2], [1, 2]])) and torch.equal(o2, torch.tensor([1, 1]))


def err_unique_dim_range():
    # raises: Dimension out of range (expected to be in range of [-2, 1], but got 2)
    return torch.unique(torch.zeros(2, 3), dim=2)


if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
