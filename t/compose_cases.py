# t/compose_cases.py — ops PyTorch composes from others (flipud/fliplr, rot90, tile, the
# stacks, diff, trace) and tril_indices/triu_indices, diag_embed, run as TorchScript. The
# test_* functions assert PyTorch 1.13's results; each err_* function fails with the message
# in its `# raises:` line. t/compose_cases.sh runs both kinds through tscript; they behave the
# same under PyTorch:
#     /usr/bin/python3 t/compose_cases.py
from typing import List

import torch


def test_flips_and_rot90():
    x = torch.arange(6.).view(2, 3)
    assert torch.equal(x.flipud(), torch.tensor([[3., 4., 5.], [0., 1., 2.]]))
    assert torch.equal(torch.fliplr(x), torch.tensor([[2., 1., 0.], [5., 4., 3.]]))
    assert torch.equal(torch.flipud(torch.arange(3)), torch.tensor([2, 1, 0]))
    r = x.rot90()
    assert r.size() == [3, 2] and r.stride() == [1, 3]
    assert torch.equal(r, torch.tensor([[2., 5.], [1., 4.], [0., 3.]]))
    assert torch.equal(x.rot90(2), torch.tensor([[5., 4., 3.], [2., 1., 0.]]))
    assert torch.equal(torch.rot90(x, -1), torch.tensor([[3., 0.], [4., 1.], [5., 2.]]))
    assert torch.equal(x.rot90(3, [1, 0]), x.rot90(1))
    assert torch.equal(x.rot90(4), x) and x.rot90(8).stride() == [3, 1]
    o = torch.empty(0)
    torch.rot90(x, 1, [0, 1], out=o)
    assert torch.equal(o, r)


def test_tile():
    x = torch.arange(6.).view(2, 3)
    assert x.tile([2]).size() == [2, 6]
    assert torch.equal(x.tile([2])[1], torch.tensor([3., 4., 5., 3., 4., 5.]))
    assert torch.tile(x, [2, 1, 1]).size() == [2, 2, 3]
    assert torch.equal(x.tile(torch.jit.annotate(List[int], [])), x)
    assert torch.equal(torch.tensor(2.).tile([3]), torch.tensor([2., 2., 2.]))


def test_stacks():
    a = torch.ones(3)
    b = torch.zeros(3)
    assert torch.equal(torch.vstack([a, b]), torch.tensor([[1., 1., 1.], [0., 0., 0.]]))
    assert torch.equal(torch.row_stack([a, b]), torch.vstack([a, b]))
    assert torch.hstack([a, torch.ones(2)]).size() == [5]
    assert torch.hstack([torch.ones(2, 3), torch.ones(2, 2)]).size() == [2, 5]
    assert torch.dstack([a, b]).size() == [1, 3, 2]
    c = torch.column_stack([a, torch.ones(3, 2), torch.tensor([1, 2, 3])])
    assert c.size() == [3, 4] and c.dtype == torch.float32
    assert torch.equal(c[:, 3], torch.tensor([1., 2., 3.]))
    assert torch.column_stack([torch.tensor(1.), torch.tensor(2)]).size() == [1, 2]
    o = torch.empty(0, dtype=torch.double)
    torch.vstack([a, b], out=o)
    assert o.dtype == torch.float64 and o.size() == [2, 3]
    torch.hstack([a, b], out=o)
    assert o.size() == [6]
    torch.dstack([a, b], out=o)
    assert o.size() == [1, 3, 2]
    torch.column_stack([a, b], out=o)
    assert o.size() == [3, 2]


def test_diff():
    x = torch.arange(6.).view(2, 3) ** 2
    assert torch.equal(torch.diff(x), torch.tensor([[1., 3.], [7., 9.]]))
    assert torch.equal(x.diff(dim=0), torch.tensor([[9., 15., 21.]]))
    assert torch.equal(x.diff(2), torch.tensor([[2.], [2.]]))
    assert x.diff(5).size() == [2, 0] and x.diff(2, 0).size() == [0, 3]
    assert torch.equal(x.diff(0), x)
    assert torch.equal(torch.diff(torch.tensor([True, False, False])), torch.tensor([True, False]))
    assert torch.equal(torch.diff(torch.tensor([1, 5, 2])), torch.tensor([4, -3]))
    assert torch.equal(torch.diff(torch.tensor([1, 5, 2], dtype=torch.uint8)),
                       torch.tensor([4, 253], dtype=torch.uint8))
    d = torch.diff(x, prepend=torch.ones(2, 1), append=torch.zeros(2, 2))
    assert torch.equal(d, torch.tensor([[-1., 1., 3., -4., 0.], [8., 7., 9., -25., 0.]]))
    assert torch.diff(x, prepend=torch.ones(2, 1).double()).dtype == torch.float64
    o = torch.empty(0)
    torch.diff(x, 1, -1, None, None, out=o)
    assert torch.equal(o, torch.tensor([[1., 3.], [7., 9.]]))


def test_trace():
    x = torch.arange(6.).view(2, 3)
    assert torch.equal(x.trace(), torch.tensor(4.))
    assert torch.equal(x.t().trace(), torch.tensor(4.))
    t = torch.ones(2, 2, dtype=torch.int32).trace()
    assert t.dtype == torch.int64 and t.item() == 2
    o = torch.empty(3)
    torch.trace(x, out=o)
    assert torch.equal(o, torch.tensor(4.))


def test_tri_indices():
    assert torch.equal(torch.tril_indices(3, 3), torch.tensor([[0, 1, 1, 2, 2, 2],
                                                               [0, 0, 1, 0, 1, 2]]))
    assert torch.equal(torch.tril_indices(3, 4, 1), torch.tensor([[0, 0, 1, 1, 1, 2, 2, 2, 2],
                                                                  [0, 1, 0, 1, 2, 0, 1, 2, 3]]))
    assert torch.triu_indices(3, 4, -1).size() == [2, 11]
    assert torch.equal(torch.triu_indices(2, 3), torch.tensor([[0, 0, 0, 1, 1], [0, 1, 2, 1, 2]]))
    assert torch.triu_indices(0, 3).size() == [2, 0]
    assert torch.tril_indices(3, 3, dtype=torch.int32).dtype == torch.int32
    assert torch.tril_indices(2, 2, -5).size() == [2, 0]
    o = torch.empty(0, dtype=torch.long)
    torch.triu_indices(2, 2, 0, out=o)
    assert torch.equal(o, torch.tensor([[0, 0, 1], [0, 1, 1]]))


def test_diag_embed():
    v = torch.arange(1., 4.)
    assert torch.equal(torch.diag_embed(v), torch.diag(v))
    assert torch.equal(v.diag_embed(1), torch.diag(v, 1))
    assert torch.equal(v.diag_embed(-2), torch.diag(v, -2))
    m = torch.arange(6.).view(2, 3)
    e = torch.diag_embed(m, -1, 0, 2)
    assert e.size() == [4, 2, 4]
    assert torch.equal(e[:, 1, :], torch.diag(m[1], -1))
    assert torch.equal(torch.diag_embed(m.t(), 1, 2, 0), torch.diag_embed(m.t(), -1, 0, 2))
    assert torch.equal(torch.diag_embed(m.t(), 1, 2, 0)[:, 1, :], torch.diag(m[:, 1], -1))
    o = torch.empty(0)
    torch.diag_embed(v, out=o)
    assert torch.equal(o, torch.diag(v))


def test_diag():
    m = torch.arange(6.).view(2, 3)
    assert torch.equal(torch.diag(m), torch.tensor([0., 4.]))
    assert torch.equal(m.diag(1), torch.tensor([1., 5.]))
    assert torch.equal(m.t().diag(-1), torch.tensor([1., 5.]))
    assert m.diag(3).size() == [0] and m.diag(-2).size() == [0]
    assert torch.equal(torch.diag(torch.tensor([1, 2])),
                       torch.tensor([[1, 0], [0, 2]]))
    assert torch.equal(torch.diag(torch.tensor([1., 2.]), -1),
                       torch.tensor([[0., 0., 0.], [1., 0., 0.], [0., 2., 0.]]))
    o = torch.empty(0)
    torch.diag(m, 0, out=o)
    assert torch.equal(o, torch.tensor([0., 4.]))


def err_diag_dims():
    # raises: matrix or a vector expected
    return torch.diag(torch.ones(2, 2, 2))


def err_diag_past_the_matrix():
    # raises: numel: integer multiplication overflow
    return torch.diag(torch.ones(2, 3), 4)


def err_flipud():
    # raises: Input must be >= 1-d.
    return torch.flipud(torch.tensor(1.))


def err_fliplr():
    # raises: Input must be >= 2-d.
    return torch.fliplr(torch.ones(3))


def err_rot90_dims():
    # raises: expected total rotation dims == 2, but got dims = 1
    return torch.ones(2, 3).rot90(1, [0])


def err_rot90_rank():
    # raises: expected total dims >= 2, but got total dims = 1
    return torch.ones(3).rot90()


def err_rot90_same():
    # raises: expected rotation dims to be different, but got dim0 = 0 and dim1 = -2
    return torch.ones(2, 3).rot90(1, [0, -2])


def err_rot90_range():
    # raises: Rotation dim1 out of range, dim1 = 5
    return torch.ones(2, 3).rot90(1, [0, 5])


def err_vstack_empty():
    # raises: vstack expects a non-empty TensorList
    return torch.vstack([])


def err_column_stack_empty():
    # raises: column_stack expects a non-empty TensorList
    return torch.column_stack([])


def err_hstack_out_dtype():
    # raises: torch.cat(): input types can't be cast to the desired output type Long
    return torch.hstack([torch.ones(3)], out=torch.empty(0, dtype=torch.long))


def err_diff_scalar():
    # raises: diff expects input to be at least one-dimensional
    return torch.diff(torch.tensor(1.))


def err_diff_prepend_dims():
    # raises: diff expects prepend or append to be the same dimension as input
    return torch.diff(torch.ones(2, 3), prepend=torch.ones(2))


def err_diff_append_shape():
    # raises: diff expects the shape of tensor to prepend or append to match that of input except along the differencing dimension; input.size(0) = 2, but got tensor.size(0) = 3
    return torch.diff(torch.ones(2, 3), append=torch.ones(3, 1))


def err_diff_dim():
    # raises: Dimension out of range (expected to be in range of [-2, 1], but got 3)
    return torch.diff(torch.ones(2, 3), dim=3)


def err_trace_dims():
    # raises: trace: expected a matrix, but got tensor with dim 1
    return torch.ones(3).trace()


def err_trace_bool():
    # raises: "trace" not implemented for 'Bool'
    return torch.ones(2, 2, dtype=torch.bool).trace()


def err_tril_indices_row():
    # raises: row must be non-negative, got-1
    return torch.tril_indices(-1, 3)


def err_triu_indices_col():
    # raises: col must be non-negative, got-2
    return torch.triu_indices(3, -2)


def err_tril_indices_dtype():
    # raises: "tril_indices" not implemented for 'Float'
    return torch.tril_indices(3, 3, dtype=torch.float)


def err_diag_embed_same():
    # raises: diagonal dimensions cannot be identical 0, 0
    return torch.diag_embed(torch.arange(3.), 0, 0, 0)


def err_diag_embed_dim():
    # raises: Dimension out of range (expected to be in range of [-1, 0], but got -2)
    return torch.diag_embed(torch.tensor(1.))


if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
