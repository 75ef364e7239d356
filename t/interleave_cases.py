# t/interleave_cases.py — repeat_interleave, kron, block_diag, cartesian_prod (interleave.c)
# and as_strided, narrow_copy, fill_diagonal_ (strided.c), run as TorchScript. The test_*
# functions assert PyTorch 1.13's results; each err_* function fails with the message in its
# `# raises:` line. t/interleave_cases.sh runs both kinds through tscript; they behave the
# same under PyTorch:
#     /usr/bin/python3 t/interleave_cases.py
import torch


def test_repeat_interleave():
    assert torch.equal(torch.repeat_interleave(torch.tensor([1, 0, 2])), torch.tensor([0, 2, 2]))
    r = torch.repeat_interleave(torch.tensor([1, 2]).int(), output_size=3)
    assert r.dtype == torch.int32 and torch.equal(r, torch.tensor([0, 1, 1]).int())
    x = torch.arange(6.).view(2, 3)
    assert torch.equal(x.repeat_interleave(2), torch.tensor([0., 0., 1., 1., 2., 2., 3., 3.,
                                                             4., 4., 5., 5.]))
    assert torch.equal(x.repeat_interleave(2, 1)[1], torch.tensor([3., 3., 4., 4., 5., 5.]))
    assert torch.equal(torch.repeat_interleave(x, torch.tensor([1, 2]), 0),
                       torch.tensor([[0., 1., 2.], [3., 4., 5.], [3., 4., 5.]]))
    assert x.repeat_interleave(torch.tensor([2]), 1).size() == [2, 6]
    assert x.repeat_interleave(torch.tensor(2), dim=-1).size() == [2, 6]
    assert torch.equal(x.t().repeat_interleave(torch.tensor([0, 1, 0]), 0), torch.tensor([[1., 4.]]))
    assert torch.equal(torch.tensor(3.).repeat_interleave(2), torch.tensor([3., 3.]))
    o = torch.empty(0, dtype=torch.long)
    torch.repeat_interleave(torch.tensor([2, 1]), out=o)
    assert torch.equal(o, torch.tensor([0, 0, 1]))


def test_kron():
    a = torch.tensor([[1, 2], [3, 4]])
    b = torch.tensor([[0, 1], [1, 0]])
    assert torch.equal(torch.kron(a, b), torch.tensor([[0, 1, 0, 2], [1, 0, 2, 0],
                                                       [0, 3, 0, 4], [3, 0, 4, 0]]))
    assert torch.kron(torch.ones(2), torch.ones(3, 1)).size() == [3, 2]
    assert torch.equal(torch.kron(torch.tensor(2.), torch.ones(3)), torch.tensor([2., 2., 2.]))
    assert torch.kron(torch.ones(2), torch.ones(2).int()).dtype == torch.float32
    o = torch.empty(0, dtype=torch.long)
    torch.kron(a, b, out=o)
    assert o.size() == [4, 4]


def test_block_diag():
    r = torch.block_diag(torch.ones(2, 2), torch.tensor(3), torch.tensor([1, 2]))
    assert r.size() == [4, 5] and r.dtype == torch.float32
    assert torch.equal(r, torch.tensor([[1., 1., 0., 0., 0.], [1., 1., 0., 0., 0.],
                                        [0., 0., 3., 0., 0.], [0., 0., 0., 1., 2.]]))
    assert torch.block_diag(torch.ones(0, 2), torch.ones(1, 0)).size() == [1, 2]
    assert torch.block_diag([]).size() == [1, 0]
    o = torch.empty(0)
    torch.block_diag(torch.ones(1, 1), torch.ones(1, 1), out=o)
    assert torch.equal(o, torch.eye(2))


def test_cartesian_prod():
    r = torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4, 5]))
    assert torch.equal(r, torch.tensor([[1, 3], [1, 4], [1, 5], [2, 3], [2, 4], [2, 5]]))
    assert torch.equal(torch.cartesian_prod(torch.tensor([1, 2])), torch.tensor([1, 2]))
    assert torch.cartesian_prod(torch.ones(2), torch.ones(0), torch.ones(3)).size() == [0, 3]


def test_as_strided():
    x = torch.arange(6.).view(2, 3)
    v = x.as_strided([2, 2], [1, 2])
    assert v.stride() == [1, 2] and torch.equal(v, torch.tensor([[0., 2.], [1., 3.]]))
    assert torch.equal(torch.as_strided(x, [2], [1], 4), torch.tensor([4., 5.]))
    assert torch.equal(x[1].as_strided([3], [1]), torch.tensor([3., 4., 5.]))
    assert x.as_strided([0], [1], 100).size() == [0]
    x.as_strided([2], [3])[1] = 9.
    assert x[1, 0].item() == 9.
    y = torch.arange(4.)
    r = y.as_strided_([2, 2], [2, 1])
    assert y.size() == [2, 2] and r.size() == [2, 2]


def test_narrow_copy():
    x = torch.arange(6.).view(2, 3)
    assert torch.equal(x.narrow_copy(1, 1, 2), torch.tensor([[1., 2.], [4., 5.]]))
    assert torch.equal(x.narrow_copy(1, -1, 1), torch.tensor([[2.], [5.]]))
    c = x.t().narrow_copy(0, 1, 2)
    assert c.stride() == [2, 1] and torch.equal(c, torch.tensor([[1., 4.], [2., 5.]]))
    c[0, 0] = 7.
    assert x[0, 1].item() == 1.
    o = torch.empty(0)
    torch.narrow_copy(x, 0, 1, 1, out=o)
    assert torch.equal(o, torch.tensor([[3., 4., 5.]]))


def test_fill_diagonal_():
    a = torch.zeros(3, 4)
    r = a.fill_diagonal_(5)
    assert a.sum().item() == 15. and r.sum().item() == 15.
    assert torch.equal(a[1], torch.tensor([0., 5., 0., 0.]))
    w = torch.zeros(7, 3).fill_diagonal_(5, wrap=True)
    assert torch.equal(w.sum(1), torch.tensor([5., 5., 5., 0., 5., 5., 5.]))
    assert torch.zeros(7, 3).fill_diagonal_(5).sum().item() == 15.
    c = torch.zeros(2, 2, 2).fill_diagonal_(1)
    assert c[0, 0, 0].item() == 1. and c[1, 1, 1].item() == 1. and c.sum().item() == 2.
    t = torch.zeros(3, 3).t().fill_diagonal_(2)
    assert torch.equal(t, torch.eye(3) * 2)


def err_repeat_interleave_negative():
    # raises: repeats can not be negative
    return torch.repeat_interleave(torch.tensor([1, -1, 2]))


def err_repeat_interleave_dims():
    # raises: repeat_interleave only accept 1D vector as repeat
    return torch.repeat_interleave(torch.tensor([[1, 2]]))


def err_repeat_interleave_dtype():
    # raises: "repeat_interleave_cpu" not implemented for 'Float'
    return torch.repeat_interleave(torch.tensor([1., 2.]))


def err_repeat_interleave_output_size():
    # raises: allocated size does not match required size
    return torch.repeat_interleave(torch.tensor([1, 2]), output_size=4)


def err_repeat_interleave_size():
    # raises: repeats must have the same size as input along dim
    return torch.ones(2, 3).repeat_interleave(torch.tensor([1, 2]), 1)


def err_repeat_interleave_int_negative():
    # raises: repeats can not be negative
    return torch.ones(2, 3).repeat_interleave(-1)


def err_repeat_interleave_dim():
    # raises: Dimension out of range (expected to be in range of [-2, 1], but got 5)
    return torch.ones(2, 3).repeat_interleave(2, 5)


def err_block_diag_dims():
    # raises: torch.block_diag: Input tensors must have 2 or fewer dimensions. Input 1 has 3 dimensions
    return torch.block_diag(torch.ones(2), torch.ones(2, 2, 2))


def err_cartesian_prod_dims():
    # raises: Expect a 1D vector, but got shape [2, 2]
    return torch.cartesian_prod(torch.ones(2), torch.ones(2, 2))


def err_cartesian_prod_dtype():
    # raises: meshgrid expects all tensors to have the same dtype
    return torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3.]))


def err_as_strided_bounds():
    # raises: setStorage: sizes [3, 3], strides [3, 1], storage offset 0, and itemsize 4 requiring a storage size of 36 are out of bounds for storage of size 24
    return torch.arange(6.).view(2, 3).as_strided([3, 3], [3, 1])


def err_as_strided_offset_bounds():
    # raises: setStorage: sizes [3], strides [1], storage offset 4, and itemsize 4 requiring a storage size of 28 are out of bounds for storage of size 24
    return torch.arange(6.).view(2, 3)[1].as_strided([3], [1], 4)


def err_as_strided_negative_stride():
    # raises: as_strided: Negative strides are not supported at the moment, got strides: [-1]
    return torch.arange(6.).as_strided([2], [-1])


def err_as_strided_lengths():
    # raises: mismatch in length of strides and shape
    return torch.arange(6.).as_strided([2, 2], [1])


def err_as_strided_negative_size():
    # raises: Storage size calculation overflowed with sizes=[-1] and strides=[1]
    return torch.arange(6.).as_strided([-1], [1])


def err_as_strided_huge():
    # raises: Storage size calculation overflowed with sizes=[4611686018427387904, 2] and strides=[4, 1]
    return torch.arange(6.).as_strided([4611686018427387904, 2], [4, 1])


def err_narrow_copy_bounds():
    # raises: start (2) + length (2) exceeds dimension size (3).
    return torch.ones(2, 3).narrow_copy(1, 2, 2)


def err_narrow_copy_scalar():
    # raises: narrow() cannot be applied to a 0-dim tensor.
    return torch.tensor(1.).narrow_copy(0, 0, 1)


def err_fill_diagonal_dims():
    # raises: dimensions must larger than 1
    return torch.zeros(3).fill_diagonal_(5)


def err_fill_diagonal_lengths():
    # raises: all dimensions of input must be of equal length
    return torch.zeros(2, 2, 3).fill_diagonal_(5)


def err_fill_diagonal_overflow():
    # raises: value cannot be converted to type int8_t without overflow
    return torch.zeros(3, 3, dtype=torch.int8).fill_diagonal_(300)


if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
