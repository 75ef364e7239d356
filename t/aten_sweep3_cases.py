# t/aten_sweep3_cases.py — the third sweep's ops, which aten-cpu lacked: in-place reshapes
# (squeeze_, unsqueeze_, t_, transpose_), matrix transposes (mT, mH, H, adjoint), unfold,
# ravel, the conjugate family on real tensors, in-place forms (tril_, triu_, cumsum_,
# cumprod_), concat, diagflat, take_along_dim, sum_to_size, argwhere, is_nonzero,
# is_same_size, get_device, torch.range, empty_strided, logcumsumexp and isin. The test_*
# functions assert PyTorch 1.13's results; each err_* function fails with the message in its
# `# raises:` line. t/aten_sweep3_cases.sh runs both kinds through tscript; they behave the
# same under PyTorch:
#     /usr/bin/python3 t/aten_sweep3_cases.py     (scripts and runs each one)
import math
from typing import List

import torch


def test_inplace_reshapes():
    a = torch.arange(3.).reshape(1, 3, 1)
    r = a.squeeze_()
    assert a.shape == [3] and r.shape == [3] and torch.equal(a, torch.tensor([0., 1., 2.]))
    b = torch.zeros(1, 2, 1)
    b.squeeze_(0)
    assert b.shape == [2, 1]
    b.squeeze_(0)               # a dim that is not 1 stays
    assert b.shape == [2, 1]
    c = torch.arange(3)
    c.unsqueeze_(-1)
    assert c.shape == [3, 1] and c.stride() == [1, 1]
    d = torch.arange(6.).reshape(2, 3)
    view = d[0]
    d.t_()
    assert d.shape == [3, 2] and d.stride() == [1, 3] and torch.equal(d[1], torch.tensor([1., 4.]))
    view[0] = 7.0               # still the same storage
    assert d[0, 0].item() == 7.0
    e = torch.zeros(2, 3, 4)
    e.transpose_(0, 2)
    assert e.shape == [4, 3, 2] and e.stride() == [1, 4, 12]
    s = torch.tensor(5.)
    s.t_()
    assert s.dim() == 0


def test_matrix_transposes():
    a = torch.arange(6.).reshape(2, 3)
    assert torch.equal(a.mT, a.t()) and torch.equal(a.mH, a.t()) and torch.equal(a.H, a.t())
    assert torch.equal(a.adjoint(), a.t())
    b = torch.arange(24).reshape(2, 3, 4)
    assert b.mT.shape == [2, 4, 3] and b.mT.stride() == [12, 1, 4]
    assert torch.equal(b.mT[1], b[1].t()) and torch.equal(b.adjoint(), b.transpose(1, 2))
    x = torch.tensor([1., 2.])
    assert torch.equal(x.conj(), x) and torch.equal(x.resolve_conj(), x)
    assert torch.equal(x.resolve_neg(), x) and not x.is_conj() and not x.is_neg()
    assert not torch.is_conj(x)


def test_unfold_and_ravel():
    x = torch.arange(7.)
    u = x.unfold(0, 3, 2)
    assert u.shape == [3, 3] and u.stride() == [2, 1]
    assert torch.equal(u, torch.tensor([[0., 1., 2.], [2., 3., 4.], [4., 5., 6.]]))
    m = torch.arange(12).reshape(3, 4).unfold(1, 2, 1)
    assert m.shape == [3, 3, 2] and torch.equal(m[2, 1], torch.tensor([9, 10]))
    assert torch.tensor(5.).unfold(0, 1, 1).shape == [1]
    e = torch.arange(4).unfold(0, 0, 1)
    assert e.shape == [5, 0]
    t = torch.arange(6).reshape(2, 3).t()
    assert torch.equal(t.ravel(), torch.tensor([0, 3, 1, 4, 2, 5]))
    c = torch.arange(6).reshape(2, 3)
    r = c.ravel()
    r[0] = 9                    # contiguous: a view
    assert c[0, 0].item() == 9


def test_inplace_forms():
    a = torch.ones(3, 3)
    r = a.tril_()
    assert torch.equal(a, torch.tensor([[1., 0., 0.], [1., 1., 0.], [1., 1., 1.]]))
    assert torch.equal(r, a)
    b = torch.ones(2, 3, dtype=torch.int32)
    b.triu_(1)
    assert torch.equal(b, torch.tensor([[0, 1, 1], [0, 0, 1]], dtype=torch.int32))
    c = torch.tensor([1., 2., 3.])
    c.cumsum_(0)
    assert torch.equal(c, torch.tensor([1., 3., 6.]))
    d = torch.tensor([[1, 2], [3, 4]])
    d.cumprod_(1)
    assert torch.equal(d, torch.tensor([[1, 2], [3, 12]]))
    e = torch.tensor([1, 2, 3], dtype=torch.int32)
    e.cumsum_(0)                # stays int32 in place
    assert e.dtype == torch.int32 and torch.equal(e, torch.tensor([1, 3, 6], dtype=torch.int32))


def test_concat_diagflat_argwhere():
    assert torch.equal(torch.concat([torch.ones(1), torch.zeros(2)]), torch.tensor([1., 0., 0.]))
    assert torch.equal(torch.concatenate([torch.ones(1, 2), torch.zeros(1, 2)], 1),
                       torch.tensor([[1., 1., 0., 0.]]))
    assert torch.equal(torch.diagflat(torch.tensor([1, 2])), torch.tensor([[1, 0], [0, 2]]))
    d = torch.diagflat(torch.tensor([[1., 2.], [3., 4.]]), 1)
    assert d.shape == [5, 5] and d[2, 3].item() == 3.0 and d.sum().item() == 10.0
    assert torch.equal(torch.diagflat(torch.tensor([1., 2.]), -1),
                       torch.tensor([[0., 0., 0.], [1., 0., 0.], [0., 2., 0.]]))
    w = torch.argwhere(torch.tensor([[0, 1], [2, 0]]))
    assert torch.equal(w, torch.tensor([[0, 1], [1, 0]]))
    assert torch.argwhere(torch.tensor(3)).shape == [1, 0]


def test_take_along_dim():
    a = torch.tensor([[10., 30., 20.], [60., 40., 50.]])
    i = torch.argsort(a, dim=1)
    assert torch.equal(torch.take_along_dim(a, i, dim=1),
                       torch.tensor([[10., 20., 30.], [40., 50., 60.]]))
    assert torch.equal(torch.take_along_dim(a, torch.tensor([0, 5])), torch.tensor([10., 50.]))
    # indices broadcast against self in the other dims
    j = torch.tensor([[2], [0]])
    assert torch.equal(torch.take_along_dim(a, j, 1), torch.tensor([[20.], [60.]]))
    k = torch.tensor([[1, 0, 1]])
    assert torch.equal(torch.take_along_dim(a, k, 0), torch.tensor([[60., 30., 50.]]))
    m = torch.argmax(a, dim=1, keepdim=True)
    assert torch.equal(a.take_along_dim(m, dim=-1), torch.tensor([[30.], [60.]]))


def test_sum_to_size():
    x = torch.arange(6.).reshape(2, 3)
    assert torch.equal(x.sum_to_size([1, 3]), torch.tensor([[3., 5., 7.]]))
    assert torch.equal(x.sum_to_size(3), torch.tensor([3., 5., 7.]))
    assert torch.equal(x.sum_to_size([2, 1]), torch.tensor([[3.], [12.]]))
    assert torch.equal(x.sum_to_size([2, 3]), x)
    y = torch.ones(2, 3, 4)
    assert torch.equal(y.sum_to_size([3, 1]), torch.full([3, 1], 8.))


def test_facts():
    assert torch.tensor([3]).is_nonzero() and not torch.tensor(0.0).is_nonzero()
    assert torch.is_nonzero(torch.tensor([[True]]))
    assert torch.zeros(2, 3).is_same_size(torch.ones(2, 3))
    assert not torch.zeros(2, 3).is_same_size(torch.ones(3, 2))
    assert torch.zeros(2).get_device() == -1
    s = torch.Size([2, 3])
    assert s == torch.zeros(2, 3).shape and len(s) == 2 and s[1] == 3


def test_range():
    assert torch.equal(torch.range(1, 4), torch.tensor([1., 2., 3., 4.]))
    assert torch.range(1, 4).dtype == torch.float32
    assert torch.equal(torch.range(0, 1, 0.25), torch.tensor([0., 0.25, 0.5, 0.75, 1.]))
    assert torch.equal(torch.range(1, 4, dtype=torch.int64), torch.tensor([1, 2, 3, 4]))
    assert torch.equal(torch.range(5, 1, -2), torch.tensor([5., 3., 1.]))
    # (0.9 - 0) / 0.3 is a little over 3 in double: four elements
    assert torch.range(0, 0.9, 0.3).shape == [4]


def test_empty_strided():
    a = torch.empty_strided([2, 3], [1, 2])
    assert a.shape == [2, 3] and a.stride() == [1, 2] and a.dtype == torch.float32
    a.fill_(1.0)
    assert a.sum().item() == 6.0
    b = torch.zeros(1, dtype=torch.int32).new_empty_strided([2, 2], [2, 1])
    assert b.stride() == [2, 1] and b.dtype == torch.int32
    c = torch.empty_strided([3, 0], [1, 1], dtype=torch.float64)
    assert c.shape == [3, 0] and c.dtype == torch.float64


def test_logcumsumexp():
    x = torch.tensor([[0.5, 1.0], [2.0, -1.0]])
    assert torch.allclose(torch.logcumsumexp(x, 1), torch.tensor([[0.5, 1.4740770], [2.0, 2.0485873]]))
    assert torch.allclose(x.logcumsumexp(0), torch.tensor([[0.5, 1.0], [2.2014132, 1.1269280]]))
    inf = float("inf")
    y = torch.logcumsumexp(torch.tensor([-inf, -inf, 1.0, 2.0]), 0)
    assert y[0].item() == -inf and y[1].item() == -inf and abs(y[3].item() - 2.3132617) < 1e-6
    z = torch.logcumsumexp(torch.tensor([1.0, inf, 2.0]), 0)
    assert z[1].item() == inf and z[2].item() == inf
    assert torch.logcumsumexp(torch.tensor(3.0, dtype=torch.float64), 0).item() == 3.0


def test_isin():
    assert torch.equal(torch.isin(torch.tensor([1, 2, 3, 4]), torch.tensor([2, 4])),
                       torch.tensor([False, True, False, True]))
    assert torch.equal(torch.isin(torch.tensor([1, 2]), 2, invert=True), torch.tensor([True, False]))
    assert torch.equal(torch.isin(torch.tensor([1., 2.5]), torch.tensor([2, 1])),
                       torch.tensor([True, False]))
    assert torch.isin(3, torch.tensor([[1, 3]])).item()
    nan = float("nan")
    assert torch.equal(torch.isin(torch.tensor([nan, 0.0]), torch.tensor([nan, -0.0])),
                       torch.tensor([False, True]))
    m = torch.isin(torch.arange(6).reshape(2, 3), torch.arange(100, 0, -2))
    assert m.shape == [2, 3] and torch.equal(m, torch.tensor([[False, False, True], [False, True, False]]))



def test_windows():
    assert torch.allclose(torch.hann_window(5), torch.tensor([0.0, 0.3454915, 0.9045085, 0.9045085, 0.3454915]))
    assert torch.allclose(torch.hamming_window(4, periodic=False), torch.tensor([0.08, 0.77, 0.77, 0.08]))
    assert torch.allclose(torch.blackman_window(5), torch.tensor([0.0, 0.2007701, 0.8492299, 0.8492299, 0.2007701]), atol=1e-6)
    assert torch.allclose(torch.bartlett_window(6), torch.tensor([0.0, 1 / 3, 2 / 3, 1.0, 2 / 3, 1 / 3]))
    assert torch.allclose(torch.kaiser_window(5), torch.tensor([5.2773e-05, 1.0172e-01, 7.9294e-01, 7.9294e-01, 1.0172e-01]), rtol=1e-4)
    assert torch.allclose(torch.kaiser_window(6, False, 5.0), torch.tensor([0.0367, 0.4149, 0.9138, 0.9138, 0.4149, 0.0367]), atol=1e-4)
    w = torch.bartlett_window(5, False, dtype=torch.float64)
    assert w.dtype == torch.float64 and torch.equal(w, torch.tensor([0.0, 0.5, 1.0, 0.5, 0.0], dtype=torch.float64))
    assert torch.equal(torch.hann_window(1), torch.ones(1)) and torch.hann_window(0).shape == [0]
    h = torch.hamming_window(7, True, 0.6, 0.3, dtype=torch.float64)
    assert abs(h[0].item() - 0.3) < 1e-12 and abs(h[4].item() - (0.6 - 0.3 * math.cos(8 * math.pi / 7))) < 1e-12


def test_resize():
    x = torch.arange(6.)
    x.resize_(2, 3)
    assert torch.equal(x, torch.tensor([[0., 1., 2.], [3., 4., 5.]]))
    y = torch.arange(4)
    y.resize_(6)                # grows: the old elements stay in front
    assert y.shape == [6] and torch.equal(y[:4], torch.tensor([0, 1, 2, 3]))
    z = torch.arange(6.).reshape(2, 3).t()
    z.resize_(3, 2)             # the same sizes: strides left as they are
    assert z.stride() == [1, 3]
    z.resize_(2, 3)
    assert z.stride() == [3, 1]
    w = torch.zeros(5)
    w.resize_as_(torch.zeros(2, 2))
    assert w.shape == [2, 2]


def test_put():
    a = torch.zeros(2, 3)
    a.put_(torch.tensor([0, 4]), torch.tensor([9., 8.]))
    assert torch.equal(a, torch.tensor([[9., 0., 0.], [0., 8., 0.]]))
    b = torch.zeros(3, dtype=torch.int64)
    b.put_(torch.tensor([1, 1, -1]), torch.tensor([4, 5, 7]), accumulate=True)
    assert torch.equal(b, torch.tensor([0, 9, 7]))
    t = torch.zeros(2, 2).t()   # positions count over the shape, not the memory
    assert torch.equal(t.put(torch.tensor([1]), torch.tensor([9.])), torch.tensor([[0., 9.], [0., 0.]]))
    assert torch.equal(t, torch.zeros(2, 2))


def test_scatter_views():
    assert torch.equal(torch.select_scatter(torch.zeros(2, 3), torch.ones(3), 0, 1),
                       torch.tensor([[0., 0., 0.], [1., 1., 1.]]))
    s = torch.slice_scatter(torch.zeros(3, 4), torch.ones(3, 2), 1, 1, 4, 2)
    assert torch.equal(s[0], torch.tensor([0., 1., 0., 1.])) and s.sum().item() == 6.0
    d = torch.diagonal_scatter(torch.zeros(3, 3), torch.arange(2.), 1)
    assert torch.equal(d, torch.tensor([[0., 0., 0.], [0., 0., 1.], [0., 0., 0.]]))
    assert torch.equal(torch.as_strided_scatter(torch.zeros(4), torch.ones(2), [2], [2], 1),
                       torch.tensor([0., 1., 0., 1.]))


def test_float_to_narrow_ints_as_x86():
    # to int32 and narrower the conversion is x86's 32-bit one (out of range and nan give
    # INT32_MIN), then wraps; to int64 out of range gives INT64_MIN
    x = torch.tensor([1e10, -1e10, 3e9, 300.0, -129.5, float("nan"), 65537.0, -1.0, 255.7])
    i32 = torch.tensor([-2147483648, -2147483648, -2147483648, 300, -129, -2147483648, 65537,
                        -1, 255], dtype=torch.int32)
    assert torch.equal(x.to(torch.int32), i32)
    i16 = torch.tensor([0, 0, 0, 300, -129, 0, 1, -1, 255], dtype=torch.int16)
    assert torch.equal(x.to(torch.int16), i16)
    i8 = torch.tensor([0, 0, 0, 44, 127, 0, 1, -1, -1], dtype=torch.int8)
    assert torch.equal(x.to(torch.int8), i8)
    u8 = torch.tensor([0, 0, 0, 44, 127, 0, 1, 255, 255], dtype=torch.uint8)
    assert torch.equal(x.double().to(torch.uint8), u8)
    assert torch.equal(x[:3].to(torch.int64), torch.tensor([10000000000, -10000000000, 3000000000]))


def err_t_inplace_3d():
    # raises: t_() expects a tensor with <= 2 dimensions, but self is 3D
    return torch.zeros(2, 2, 2).t_()


def err_mT_of_a_vector():
    # raises: tensor.mT is only supported on matrices or batches of matrices. Got 1-D tensor.
    return torch.zeros(3).mT


def err_H_of_a_batch():
    # raises: tensor.H is only supported on matrices (2-D tensors). Got 3-D tensor. For batches of matrices, consider using tensor.mH
    return torch.zeros(2, 2, 2).H


def err_adjoint_of_a_vector():
    # raises: tensor.adjoint() is only supported on matrices or batches of matrices. Got 1-D tensor.
    return torch.zeros(3).adjoint()


def err_unfold_window_too_big():
    # raises: maximum size for tensor at dimension 0 is 3 but size is 4
    return torch.zeros(3).unfold(0, 4, 1)


def err_unfold_step_zero():
    # raises: step is 0 but must be > 0
    return torch.zeros(3).unfold(0, 2, 0)


def err_squeeze_inplace_dim():
    # raises: Dimension out of range (expected to be in range of [-1, 0], but got 3)
    return torch.zeros(2).squeeze_(3)


def err_is_nonzero_of_two():
    # raises: Boolean value of Tensor with more than one value is ambiguous
    return torch.zeros(2).is_nonzero()


def err_range_sign():
    # raises: upper bound and lower bound inconsistent with step sign
    return torch.range(1, 0)


def err_range_step_zero():
    # raises: step must be nonzero
    return torch.range(0, 1, 0)


def err_sum_to_size_not_expandable():
    # raises: size {[2]} is not expandable to size {[2, 3]}.
    return torch.ones(2, 3).sum_to_size([2])


def err_take_along_dim_ranks():
    # raises: torch.take_along_dim(): input and indices should have the same number of dimensions, but got 2 dimensions for input, and 1 dimensions for indices
    return torch.take_along_dim(torch.ones(2, 3), torch.zeros(3, dtype=torch.long), 1)


def err_take_along_dim_float_index():
    # raises: gather(): Expected dtype int64 for index
    return torch.take_along_dim(torch.ones(2, 3), torch.zeros(2, 3))


def err_logcumsumexp_long():
    # raises: "logcumsumexp_out_cpu" not implemented for 'Long'
    return torch.logcumsumexp(torch.tensor([1, 2]), 0)


def err_window_dtype():
    # raises: hann_window expects floating point dtypes, got: TensorOptions(dtype=long int, device=cpu, layout=Strided (default), requires_grad=false (default), pinned_memory=false, memory_format=(nullopt))
    return torch.hann_window(3, dtype=torch.int64)


def err_window_length():
    # raises: hann_window requires non-negative window_length, got window_length=-1
    return torch.hann_window(-1)


def err_put_dtype():
    # raises: put_(): self and source expected to have the same dtype, but got self.dtype = Float and source.dtype = Long
    return torch.zeros(3).put_(torch.tensor([1]), torch.tensor([1]))


def err_put_out_of_range():
    # raises: out of range: tried to access index -4 on a tensor of 3 elements.
    return torch.zeros(3).put_(torch.tensor([-4]), torch.tensor([1.]))


def err_put_counts():
    # raises: put_(): Expected source and index to have the same number of elements, but got source.numel() = 1, index.numel() = 2
    return torch.zeros(3).put_(torch.tensor([0, 1]), torch.tensor([1.]))


def err_select_scatter_shape():
    # raises: expected src to have a size equal to the slice of self. src size = [2], slice size = [3]
    return torch.select_scatter(torch.zeros(2, 3), torch.ones(2), 0, 1)


if __name__ == "__main__":
    import casedriver
    casedriver.run(dict(globals()))
