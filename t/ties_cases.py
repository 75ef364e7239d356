# t/ties_cases.py — which of several equal values sort, argsort, topk, kthvalue and median
# return (sort.c, stl_order.h): PyTorch 1.13 orders with libstdc++'s std::sort,
# std::partial_sort and std::nth_element and its own quickselect, none of them stable, and
# programs see the indices (a detection model keeps boxes among equal scores by them). The
# expected indices are what PyTorch 1.13 returns for these inputs; the values are checked
# against the sorted row too. t/ties_cases.sh runs them under tscript; under PyTorch:
#     /usr/bin/python3 t/ties_cases.py
from typing import List

import torch


def same(indices: torch.Tensor, want: List[int]) -> bool:
    return torch.equal(indices, torch.tensor(want))


def row() -> torch.Tensor:
    return torch.tensor([1.0, 2.0, 2.0, 1.0, 2.0, 3.0, 2.0, 1.0, 2.0, 2.0])


def sparse() -> torch.Tensor:
    return torch.zeros(300).index_fill(0, torch.tensor([5, 100, 200]), 1.0)


def test_short_rows():
    x = row()
    # ten values: std::sort ends in an insertion sort, which keeps equal values in order
    s = x.sort(descending=True)
    assert same(s[1], [5, 1, 2, 4, 6, 8, 9, 0, 3, 7])
    assert torch.equal(s[0], x[s[1]])
    assert same(x.topk(5)[1], [5, 9, 8, 6, 2])
    assert same(x.topk(5, largest=False)[1], [3, 7, 0, 8, 9])
    assert same(x.topk(5, sorted=False)[1], [9, 8, 6, 5, 2])
    assert int(x.kthvalue(4)[1]) == 6 and int(x.kthvalue(7)[1]) == 1
    assert int(x.median(0)[1]) == 2
    assert same(torch.ones(10).topk(4)[1], [8, 6, 7, 5])


def test_long_rows():
    w = sparse()
    assert same(w.sort(descending=True)[1][:8], [5, 100, 200, 197, 205, 204, 203, 202])
    assert same(w.sort()[1][:8], [195, 205, 204, 203, 202, 201, 199, 198])
    assert same(w.argsort(descending=True)[:5], [5, 100, 200, 197, 205])
    # stable=True keeps equal values in index order
    assert same(w.sort(descending=True, stable=True)[1][:8], [5, 100, 200, 0, 1, 2, 3, 4])
    # k * 64 <= n: a partial sort
    assert same(w.topk(5)[1], [200, 100, 5, 199, 197])
    assert int(w.kthvalue(150)[1]) == 0
    t = torch.tensor([3, 1, 3, 2, 3, 1] * 30)
    assert same(t.topk(4)[1], [82, 80, 78, 152])


def test_nan_ties():
    n = torch.tensor([1.0, float("nan"), 2.0, float("nan"), 2.0, 1.0] * 4)
    assert same(n.sort()[1], [12, 23, 18, 17, 0, 11, 5, 6, 8, 22, 10, 4, 14, 16, 20, 2, 15, 1,
                              21, 19, 3, 13, 9, 7])
    assert same(n.sort(descending=True)[1], [9, 19, 15, 13, 21, 7, 3, 1, 22, 8, 10, 4, 20, 14,
                                             2, 16, 0, 23, 18, 17, 12, 11, 6, 5])
    assert same(n.topk(3)[1], [13, 7, 21])


def test_values_follow_indices():
    x = torch.sin(torch.arange(500.0)).mul(3).round()
    for descending in [False, True]:
        s = x.sort(descending=descending)
        assert torch.equal(s[0], x[s[1]])
        assert torch.equal(s[0], x.sort(descending=descending, stable=True)[0])
    t = x.topk(20)
    assert torch.equal(t[0], x[t[1]]) and torch.equal(t[0], x.sort(descending=True)[0][:20])


if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
