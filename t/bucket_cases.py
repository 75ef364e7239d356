# t/bucket_cases.py — searchsorted, bucketize, bincount, histc (bucket.c), cummax, cummin
# (cumext.c) and mode, nanmedian, msort (order.c), run as TorchScript. The test_* functions assert PyTorch 1.13's results;
# each err_* function fails with the message in its `# raises:` line. t/bucket_cases.sh runs
# both kinds through tscript; they behave the same under PyTorch:
#     /usr/bin/python3 t/bucket_cases.py
import torch


def test_searchsorted():
    b = torch.tensor([1, 3, 5, 7, 9])
    v = torch.tensor([3, 6, 9])
    assert torch.equal(torch.searchsorted(b, v), torch.tensor([1, 3, 4]))
    assert torch.equal(torch.searchsorted(b, v, right=True), torch.tensor([2, 3, 5]))
    assert torch.equal(torch.searchsorted(b, v, side="right"), torch.tensor([2, 3, 5]))
    r = torch.searchsorted(b, torch.tensor([3., 6.]), out_int32=True)
    assert r.dtype == torch.int32 and torch.equal(r, torch.tensor([1, 3]).int())
    assert torch.equal(torch.searchsorted(b, 4), torch.tensor(2))
    assert torch.equal(torch.searchsorted(b, torch.tensor(3)), torch.tensor(1))
    rows = torch.tensor([[1, 3, 5], [2, 4, 6]])
    assert torch.equal(torch.searchsorted(rows, torch.tensor([[3, 0], [3, 7]])),
                       torch.tensor([[1, 0], [1, 3]]))
    assert torch.equal(torch.searchsorted(torch.tensor([5, 1, 3]), torch.tensor([2, 4]),
                                          sorter=torch.tensor([1, 2, 0])), torch.tensor([1, 2]))
    big = torch.tensor([9007199254740992, 9007199254740993])
    assert torch.equal(torch.searchsorted(big, torch.tensor([9007199254740993])), torch.tensor([1]))
    o = torch.empty(0, dtype=torch.long)
    torch.searchsorted(b, v, out=o)
    assert torch.equal(o, torch.tensor([1, 3, 4]))


def test_bucketize():
    b = torch.tensor([1, 3, 5, 7, 9])
    assert torch.equal(torch.bucketize(torch.tensor([[3, 6, 9], [3, 6, 9]]), b),
                       torch.tensor([[1, 3, 4], [1, 3, 4]]))
    assert torch.equal(torch.bucketize(torch.tensor([3, 6, 9]), b, right=True),
                       torch.tensor([2, 3, 5]))
    assert torch.bucketize(torch.tensor([3., 6.]), b, out_int32=True).dtype == torch.int32
    assert torch.equal(torch.bucketize(3, b), torch.tensor(1))
    nan = float("nan")
    assert torch.equal(torch.bucketize(torch.tensor([nan, 2.]), torch.tensor([1., nan])),
                       torch.tensor([2, 2]))
    o = torch.empty(0, dtype=torch.long)
    torch.bucketize(torch.tensor([0, 10]), b, out=o)
    assert torch.equal(o, torch.tensor([0, 5]))


def test_bincount():
    x = torch.tensor([0, 1, 1, 3])
    assert torch.equal(torch.bincount(x), torch.tensor([1, 2, 0, 1]))
    assert torch.equal(x.bincount(minlength=6), torch.tensor([1, 2, 0, 1, 0, 0]))
    w = torch.bincount(x, torch.tensor([0.5, 1., 1., 2.]))
    assert w.dtype == torch.float32 and torch.equal(w, torch.tensor([0.5, 2., 0., 2.]))
    assert torch.bincount(x, torch.tensor([1, 1, 1, 2])).dtype == torch.float64
    assert torch.bincount(torch.zeros(0, dtype=torch.long)).size() == [0]
    assert torch.equal(torch.bincount(torch.tensor([0, 1]).int()), torch.tensor([1, 1]))
    o = torch.empty(0, dtype=torch.long)
    torch.bincount(x[::2], None, 0, out=o)
    assert torch.equal(o, torch.tensor([1, 1]))


def test_histc():
    x = torch.tensor([1., 2., 1.])
    assert torch.equal(torch.histc(x, bins=4, min=0, max=3), torch.tensor([0., 2., 1., 0.]))
    assert torch.equal(x.histc(4), torch.tensor([2., 0., 0., 1.]))
    assert torch.equal(torch.histc(torch.tensor([1., 1.]), bins=3), torch.tensor([0., 2., 0.]))
    assert torch.equal(torch.histc(torch.tensor([3., 0., 1.5, 4.]), bins=3, min=0, max=3),
                       torch.tensor([1., 1., 1.]))
    assert torch.histc(x.double(), bins=2).dtype == torch.float64
    o = torch.empty(0)
    torch.histc(x, 2, 0, 2, out=o)
    assert torch.equal(o, torch.tensor([0., 3.]))


def test_cummax_cummin():
    nan = float("nan")
    v, i = torch.cummax(torch.tensor([1., 3., 2., 3., nan, 5.]), 0)
    assert torch.equal(i, torch.tensor([0, 1, 1, 3, 4, 4]))
    assert v[3].item() == 3. and bool(torch.isnan(v[5]))
    v, i = torch.cummin(torch.tensor([[3, 1], [1, 2]]), 1)
    assert torch.equal(v, torch.tensor([[3, 1], [1, 1]])) and torch.equal(i, torch.tensor([[0, 1], [0, 0]]))
    v, i = torch.tensor([2, 1, 1, 3]).cummin(0)
    assert torch.equal(i, torch.tensor([0, 1, 2, 2]))
    v, i = torch.cummax(torch.tensor([True, False, True]), 0)
    assert torch.equal(v, torch.tensor([True, True, True])) and torch.equal(i, torch.tensor([0, 0, 2]))
    v, i = torch.cummax(torch.tensor(3.), 0)
    assert v.item() == 3. and i.item() == 0
    m = torch.tensor([[1., 5.], [4., 2.], [3., 6.]]).t()
    v, i = m.cummax(-1)
    assert torch.equal(v, torch.tensor([[1., 4., 4.], [5., 5., 6.]]))
    ov = torch.empty(0)
    oi = torch.empty(0, dtype=torch.long)
    torch.cummin(m, 0, values=ov, indices=oi)
    assert torch.equal(ov, torch.tensor([[1., 4., 3.], [1., 2., 3.]]))
    assert torch.equal(oi, torch.tensor([[0, 0, 0], [0, 1, 0]]))


def test_mode():
    v, i = torch.mode(torch.tensor([1, 2, 2, 3, 3]))
    assert v.item() == 2 and i.item() == 2
    v, i = torch.mode(torch.tensor([[1, 2, 2], [3, 3, 1]]), 1)
    assert torch.equal(v, torch.tensor([2, 3])) and torch.equal(i, torch.tensor([2, 1]))
    v, i = torch.tensor([[1, 2, 2], [3, 3, 1]]).mode(0, True)
    assert torch.equal(v, torch.tensor([[1, 2, 1]])) and torch.equal(i, torch.tensor([[0, 0, 1]]))
    v, i = torch.tensor([5, 1, 5, 1]).mode()
    assert v.item() == 1 and i.item() == 3
    v, i = torch.mode(torch.tensor(3.))
    assert v.item() == 3. and i.item() == 0
    ov = torch.empty(0, dtype=torch.long)
    oi = torch.empty(0, dtype=torch.long)
    torch.mode(torch.tensor([4, 4, 2]), 0, False, values=ov, indices=oi)
    assert ov.item() == 4 and oi.item() == 1


def test_nanmedian_msort():
    nan = float("nan")
    assert torch.nanmedian(torch.tensor([1., nan, 3., 2.])).item() == 2.
    assert torch.nanmedian(torch.tensor([1., nan, 3., 2., 4.])).item() == 2.
    assert bool(torch.isnan(torch.nanmedian(torch.tensor([nan, nan]))))
    assert bool(torch.isnan(torch.nanmedian(torch.zeros(0))))
    assert torch.nanmedian(torch.tensor([2, 1, 4, 3])).item() == 2
    v, i = torch.nanmedian(torch.tensor([[1., nan, 3.], [nan, nan, nan]]), 1)
    assert v[0].item() == 1. and bool(torch.isnan(v[1])) and torch.equal(i, torch.tensor([0, 0]))
    v, i = torch.tensor([[3., 1.], [2., 2.]]).nanmedian(0, True)
    assert torch.equal(v, torch.tensor([[2., 1.]])) and torch.equal(i, torch.tensor([[1, 0]]))
    assert torch.equal(torch.msort(torch.tensor([[3, 1], [1, 2]])), torch.tensor([[1, 1], [3, 2]]))
    assert torch.equal(torch.tensor(2.).msort(), torch.tensor(2.))
    o = torch.empty(0)
    torch.msort(torch.tensor([2., 1.]), out=o)
    assert torch.equal(o, torch.tensor([1., 2.]))


def err_mode_empty():
    # raises: mode(): Expected reduction dim 0 to have non-zero size.
    return torch.mode(torch.zeros(0))


def err_bucketize_dims():
    # raises: boundaries tensor must be 1 dimension, but got dim(2)
    return torch.bucketize(torch.tensor([3]), torch.tensor([[1, 2]]))


def err_searchsorted_side():
    # raises: torch.searchsorted(): side can only be 'left' or 'right' but got foo
    return torch.searchsorted(torch.tensor([1, 2]), torch.tensor([1]), side="foo")


def err_searchsorted_opposites():
    # raises: torch.searchsorted(): side and right can't be set to opposites, got side of left while right was True
    return torch.searchsorted(torch.tensor([1, 2]), torch.tensor([1]), side="left", right=True)


def err_searchsorted_rows():
    # raises: torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions of boundaries tensor and input value tensor must match, but we got boundaries tensor [2, 3] and input value tensor [2]
    return torch.searchsorted(torch.tensor([[1, 3, 5], [2, 4, 6]]), torch.tensor([3, 3]))


def err_searchsorted_scalar_boundaries():
    # raises: torch.searchsorted(): boundaries tensor should have positive dimension, but got 0 dimension
    return torch.searchsorted(torch.tensor(1), torch.tensor([3]))


def err_searchsorted_sorter_size():
    # raises: torch.searchsorted(): boundary and sorter must have the same size, but got boundary tensor [3]and got sorter tensor [2]
    return torch.searchsorted(torch.tensor([5, 1, 3]), torch.tensor([2]), sorter=torch.tensor([1, 2]))


def err_bincount_negative():
    # raises: bincount only supports 1-d non-negative integral inputs.
    return torch.bincount(torch.tensor([0, -1]))


def err_bincount_dims():
    # raises: bincount only supports 1-d non-negative integral inputs.
    return torch.bincount(torch.tensor([[0, 1]]))


def err_bincount_dtype():
    # raises: "bincount_cpu" not implemented for 'Float'
    return torch.bincount(torch.tensor([0., 1.]))


def err_bincount_minlength():
    # raises: minlength should be >= 0
    return torch.bincount(torch.tensor([0, 1]), minlength=-1)


def err_bincount_weights():
    # raises: weights should be 1-d and have the same length as input
    return torch.bincount(torch.tensor([0, 1]), torch.tensor([1.]))


def err_histc_bins():
    # raises: torch.histogram(): bins must be > 0, but got 0 for dimension 0
    return torch.histc(torch.tensor([1., 2.]), bins=0)


def err_histc_range():
    # raises: torch.histc: max must be larger than min
    return torch.histc(torch.tensor([1., 2.]), bins=4, min=3, max=0)


def err_histc_dtype():
    # raises: "histogram_cpu" not implemented for 'Long'
    return torch.histc(torch.tensor([1, 2]))


def err_histc_inf():
    # raises: torch.histc: range of [1, inf] is not finite
    return torch.histc(torch.tensor([1., float("inf")]), bins=3)


def err_histc_nan():
    # raises: torch.histc: range of [-nan, -nan] is not finite
    return torch.histc(torch.tensor([1., float("nan")]), bins=3)


def err_cummax_dim():
    # raises: Dimension out of range (expected to be in range of [-1, 0], but got 1)
    return torch.cummax(torch.ones(2), 1)


if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
