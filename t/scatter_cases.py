# t/scatter_cases.py — writes through an index (scatter, scatter_add, scatter_reduce,
# index_add, index_fill, index_copy, masked_scatter) and take, gather.out, index_select.out,
# run as TorchScript. The test_* functions assert PyTorch 1.13's results; each err_*
# function fails with the message in its `# raises:` line. t/scatter_cases.sh runs both
# kinds through tscript; they behave the same under PyTorch:
#     /usr/bin/python3 t/scatter_cases.py     (scripts and runs each one)
from typing import List

import torch


def same(a: torch.Tensor, b: torch.Tensor) -> bool:
    """True when a and b are one tensor: a change to a shows in b."""
    a.add_(1)
    shared = torch.equal(a, b)
    a.sub_(1)
    return shared

def test_scatter_src_value_and_out():
    x = torch.zeros(3, 4)
    i = torch.tensor([[0, 1, 2, 0]])
    src = torch.arange(12.).reshape(3, 4)
    assert torch.equal(x.scatter(0, i, src),
                       torch.tensor([[0., 0., 0., 3.], [0., 1., 0., 0.], [0., 0., 2., 0.]]))
    assert torch.equal(torch.scatter(x, 1, torch.tensor([[3], [2], [1]]), 7.0),
                       torch.tensor([[0., 0., 0., 7.], [0., 0., 7., 0.], [0., 7., 0., 0.]]))
    # an integer self truncates a float value
    assert torch.equal(x.long().scatter(0, i, 1.5)[0], torch.tensor([1, 0, 0, 1]))
    o = torch.empty(0)
    r = torch.scatter(x, 0, i, src, out=o)
    assert torch.equal(o, x.scatter(0, i, src)) and same(r, o)
    torch.scatter(x, 0, i, 2.0, out=o)
    assert o.sum().item() == 8.0
    # index may be smaller than src and, along dim, larger than self (value form)
    assert torch.equal(torch.zeros(2, 2).scatter(1, torch.tensor([[0, 1, 0]]), 3.),
                       torch.tensor([[3., 3.], [0., 0.]]))
    # an empty index changes nothing, whatever its shape
    assert torch.equal(x.scatter(0, torch.zeros(0, dtype=torch.long), src), x)
    # 0-dim tensors count as one element
    assert torch.equal(torch.tensor(5.).scatter(0, torch.tensor([0]), torch.tensor([7.])),
                       torch.tensor(7.))


def test_scatter_in_place_and_strides():
    y = torch.zeros(3, 4)
    r = y.scatter_(1, torch.tensor([[3], [2], [1]]), 7.0)
    assert same(r, y) and y.sum().item() == 21.0
    # a transposed view of self, a strided index and a strided src
    z = torch.zeros(4, 3).t()
    idx = torch.tensor([[0, 3, 0, 3], [1, 1, 1, 1]])[:, ::2]
    src = torch.arange(8.).view(2, 4)[:, 1::2]
    z.scatter_(1, idx, src)
    assert torch.equal(z, torch.tensor([[3., 0., 0., 0.], [0., 7., 0., 0.], [0., 0., 0., 0.]]))
    w = torch.ones(2)
    w.scatter_(0, torch.tensor([0, 0]), 2.0, reduce="multiply")
    assert torch.equal(w, torch.tensor([4., 1.]))
    v = torch.zeros(3)
    v.scatter_(0, torch.tensor([0, 0, 2]), torch.tensor([1., 2., 3.]), reduce="add")
    assert torch.equal(v, torch.tensor([3., 0., 3.]))


def test_scatter_add():
    x = torch.zeros(2, 3)
    i = torch.tensor([[0, 1, 0], [1, 0, 1]])
    s = torch.tensor([[1., 2., 3.], [4., 5., 6.]])
    assert torch.equal(x.scatter_add(0, i, s), torch.tensor([[1., 5., 3.], [4., 2., 6.]]))
    assert torch.equal(torch.scatter_add(x, 1, i, s), torch.tensor([[4., 2., 0.], [5., 10., 0.]]))
    o = torch.empty(1)
    torch.scatter_add(x, 1, i, s, out=o)
    assert torch.equal(o, torch.tensor([[4., 2., 0.], [5., 10., 0.]]))
    b = torch.tensor([True, False]).scatter_add(0, torch.tensor([0, 1]), torch.tensor([True, True]))
    assert torch.equal(b, torch.tensor([True, True]))
    u = torch.tensor([250, 3], dtype=torch.uint8)
    u.scatter_add_(0, torch.tensor([0]), torch.tensor([10], dtype=torch.uint8))
    assert u[0].item() == 4           # integers wrap
    h = torch.tensor([1., 2.]).half().scatter_add(0, torch.tensor([0, 1]), torch.tensor([1., 1.]).half())
    assert torch.equal(h, torch.tensor([2., 3.]).half())


def test_scatter_reduce_two():
    s = torch.tensor([1., 2., 3.])
    i = torch.tensor([0, 0, 1])
    v = torch.tensor([4., 6., 5.])
    assert torch.equal(s.scatter_reduce(0, i, v, "sum"), torch.tensor([11., 7., 3.]))
    assert torch.equal(s.scatter_reduce(0, i, v, "prod"), torch.tensor([24., 10., 3.]))
    assert torch.equal(s.scatter_reduce(0, i, v, "mean"), torch.tensor([11. / 3, 3.5, 3.]))
    assert torch.equal(s.scatter_reduce(0, i, v, "amax"), torch.tensor([6., 5., 3.]))
    assert torch.equal(s.scatter_reduce(0, i, v, "amin"), torch.tensor([1., 2., 3.]))
    assert torch.equal(s.scatter_reduce(0, i, v, "sum", include_self=False),
                       torch.tensor([10., 5., 3.]))
    assert torch.equal(s.scatter_reduce(0, i, v, "mean", include_self=False),
                       torch.tensor([5., 5., 3.]))
    assert torch.equal(s.scatter_reduce(0, i, v, "amin", include_self=False),
                       torch.tensor([4., 5., 3.]))
    assert torch.equal(torch.scatter_reduce(s, 0, i, v, "prod", include_self=False),
                       torch.tensor([24., 5., 3.]))
    # integer mean divides with floor, after the sum wrapped
    assert torch.equal(torch.tensor([-7, 3]).scatter_reduce(0, torch.tensor([0, 0]),
                                                            torch.tensor([-2, 0]), "mean"),
                       torch.tensor([-3, 3]))
    u = torch.tensor([5, 3], dtype=torch.uint8)
    assert u.scatter_reduce(0, torch.tensor([0, 0]), torch.tensor([200, 100], dtype=torch.uint8),
                            "mean")[0].item() == 16
    # NaN wins max and min
    n = torch.tensor([1., 2.]).scatter_reduce(0, torch.tensor([0, 0]),
                                               torch.tensor([float("nan"), 4.]), "amax")
    assert bool(torch.isnan(n[0])) and n[1].item() == 2.0
    o = torch.empty(0)
    r = torch.scatter_reduce(s, 0, i, v, "amax", out=o)
    assert torch.equal(o, torch.tensor([6., 5., 3.])) and same(r, o)
    t = s.clone()
    t.scatter_reduce_(0, i, v, "sum", include_self=False)
    assert torch.equal(t, torch.tensor([10., 5., 3.]))
    b = torch.tensor([True, False]).scatter_reduce(0, torch.tensor([1, 1]),
                                                    torch.tensor([True, False]), "amin",
                                                    include_self=False)
    assert torch.equal(b, torch.tensor([True, False]))


def test_index_add():
    x = torch.zeros(3, 4)
    i = torch.tensor([0, 2])
    assert torch.equal(x.index_add(0, i, torch.ones(2, 4), alpha=2)[:, 0],
                       torch.tensor([2., 0., 2.]))
    assert torch.equal(x.index_add(0, i.int(), torch.ones(2, 4)).sum(1),
                       torch.tensor([4., 0., 4.]))
    # repeated indices accumulate; the source slice broadcasts to self's
    assert torch.equal(x.index_add(0, torch.tensor([0, 0, 2]), torch.ones(3, 4))[:, 1],
                       torch.tensor([2., 0., 1.]))
    assert torch.equal(x.index_add(0, i, torch.ones(2, 1)).sum(), torch.tensor(8.))
    assert torch.equal(x.index_add(1, torch.tensor([3]), torch.arange(3.).view(3, 1))[:, 3],
                       torch.tensor([0., 1., 2.]))
    assert torch.equal(torch.zeros(2, dtype=torch.long).index_add(
        0, torch.tensor([0]), torch.ones(1, dtype=torch.long), alpha=2.5), torch.tensor([2, 0]))
    assert torch.equal(torch.tensor(1.).index_add(0, torch.tensor(0), torch.tensor(2.)),
                       torch.tensor(3.))
    o = torch.empty(0)
    torch.index_add(x, 1, torch.tensor([1]), torch.ones(3, 1), out=o)
    assert torch.equal(o.sum(0), torch.tensor([0., 3., 0., 0.]))
    y = torch.zeros(4, 3).t()
    r = y.index_add_(1, torch.tensor([3, 0]), torch.arange(6.).view(3, 2))
    assert same(r, y)
    assert torch.equal(y, torch.tensor([[1., 0., 0., 0.], [3., 0., 0., 2.], [5., 0., 0., 4.]]))


def test_index_fill():
    x = torch.zeros(3, 4)
    assert torch.equal(x.index_fill(1, torch.tensor([0, -1]), 5)[0], torch.tensor([5., 0., 0., 5.]))
    assert torch.equal(x.index_fill(0, torch.tensor([1]), torch.tensor(2.))[:, 0],
                       torch.tensor([0., 2., 0.]))
    assert torch.equal(torch.zeros(2, dtype=torch.long).index_fill(0, torch.tensor([0]),
                                                                   torch.tensor(2.7)),
                       torch.tensor([2, 0]))
    assert torch.equal(torch.tensor(1.).index_fill(0, torch.tensor([-1]), 2.), torch.tensor(2.))
    y = torch.zeros(2, 3)
    r = y.index_fill_(1, torch.tensor([1]), -1.)
    assert same(r, y) and y.sum().item() == -2.0
    y.index_fill_(0, torch.tensor([0]), torch.tensor(4))
    assert torch.equal(y[0], torch.tensor([4., 4., 4.]))
    o = torch.empty(0)
    torch.index_fill(x, 0, torch.tensor([2]), 1., out=o)
    assert torch.equal(o.sum(1), torch.tensor([0., 0., 4.]))


def test_index_copy():
    x = torch.zeros(3, 4)
    assert torch.equal(x.index_copy(0, torch.tensor([0, 2]), torch.ones(2, 4)).sum(1),
                       torch.tensor([4., 0., 4.]))
    # the last of repeated indices wins
    assert torch.equal(x.index_copy(1, torch.tensor([1, 1]), torch.arange(6.).view(3, 2))[:, 1],
                       torch.tensor([1., 3., 5.]))
    assert torch.equal(torch.zeros(3).index_copy(0, torch.tensor([1]), torch.tensor(1.)),
                       torch.tensor([0., 1., 0.]))
    assert torch.equal(torch.tensor(1.).index_copy(0, torch.tensor([0, 0]), torch.tensor([2., 3.])),
                       torch.tensor(3.))
    y = torch.zeros(2, 3)
    r = y.index_copy_(1, torch.tensor([2, 0]), torch.tensor([[1., 2.], [3., 4.]]))
    assert same(r, y)
    assert torch.equal(y, torch.tensor([[2., 0., 1.], [4., 0., 3.]]))
    o = torch.empty(0, 0)
    torch.index_copy(x, 0, torch.tensor([1]), torch.ones(1, 4), out=o)
    assert torch.equal(o.sum(1), torch.tensor([0., 4., 0.]))


def test_masked_scatter():
    x = torch.zeros(3, 4)
    m = torch.tensor([True, False, True, False])
    assert torch.equal(x.masked_scatter(m, torch.arange(12.)),
                       torch.tensor([[0., 0., 1., 0.], [2., 0., 3., 0.], [4., 0., 5., 0.]]))
    # out of place, self broadcasts with the mask
    assert x.masked_scatter(torch.ones(2, 3, 4, dtype=torch.bool),
                            torch.arange(30.)).size() == [2, 3, 4]
    # a strided source is read in its logical order
    assert torch.equal(x.masked_scatter(m, torch.arange(12.).view(3, 4)[:, ::2])[:, 2],
                       torch.tensor([2., 6., 10.]))
    y = torch.zeros(3, 4)
    r = y.masked_scatter_(torch.ones(3, 1, dtype=torch.bool), torch.arange(12.).view(3, 4).t())
    assert same(r, y)
    assert torch.equal(y[0], torch.tensor([0., 4., 8., 1.]))


def test_take():
    t = torch.arange(6).view(2, 3)
    assert torch.equal(t.take(torch.tensor([[0, 5], [-1, -6]])), torch.tensor([[0, 5], [5, 0]]))
    assert torch.equal(torch.take(t.t(), torch.tensor([1, 2])), torch.tensor([3, 1]))
    assert torch.equal(torch.tensor(3).take(torch.tensor([0])), torch.tensor([3]))
    assert torch.take(torch.zeros(0), torch.zeros(0, dtype=torch.long)).size() == [0]
    o = torch.empty(0, dtype=torch.long)
    torch.take(t, torch.tensor([4]), out=o)
    assert torch.equal(o, torch.tensor([4]))


def test_gather_and_index_select_out():
    x = torch.arange(12.).view(3, 4)
    o = torch.empty(0)
    r = torch.gather(x, 0, torch.tensor([[0, 1]]), out=o)
    assert torch.equal(o, torch.tensor([[0., 5.]])) and same(r, o)
    p = torch.empty(5)
    torch.index_select(x, 1, torch.tensor([3, 0]), out=p)
    assert torch.equal(p, torch.tensor([[3., 0.], [7., 4.], [11., 8.]]))


def err_scatter_index_dtype():
    # raises: scatter(): Expected dtype int64 for index
    return torch.zeros(3, 4).scatter(0, torch.tensor([[1]]).int(), 1.0)


def err_scatter_src_dtype():
    # raises: scatter(): Expected self.dtype to be equal to src.dtype
    return torch.zeros(3, 4).scatter_add(0, torch.tensor([[1]]), torch.ones(1, 1).double())


def err_scatter_index_dims():
    # raises: Index tensor must have the same number of dimensions as self tensor
    return torch.zeros(2).scatter(0, torch.tensor([[0]]), 3.)


def err_scatter_src_dims():
    # raises: Index tensor must have the same number of dimensions as src tensor
    return torch.zeros(3, 4).scatter(0, torch.tensor([[1]]), torch.tensor(1.), reduce="add")


def err_scatter_sizes():
    # raises: Expected index [1, 4] to be smaller than self [3, 4] apart from dimension 0 and to be smaller size than src [3, 2]
    return torch.zeros(3, 4).scatter(0, torch.tensor([[0, 1, 2, 0]]), torch.ones(3, 2))


def err_scatter_value_sizes():
    # raises: Expected index [4, 4] to be smaller than self [3, 4] apart from dimension 1
    return torch.zeros(3, 4).scatter(1, torch.zeros(4, 4, dtype=torch.long), 1.)


def err_scatter_bounds():
    # raises: index 5 is out of bounds for dimension 0 with size 3
    return torch.zeros(3, 4).scatter(0, torch.tensor([[5]]), 1.0)


def err_scatter_negative():
    # raises: index -1 is out of bounds for dimension 1 with size 4
    return torch.zeros(3, 4).scatter_add(1, torch.tensor([[-1]]), torch.ones(1, 1))


def err_scatter_dim():
    # raises: Dimension out of range (expected to be in range of [-2, 1], but got 2)
    return torch.zeros(3, 4).scatter(2, torch.tensor([[1]]), 1.0)


def err_scatter_reduce_name():
    # raises: reduce argument must be either add or multiply.
    return torch.zeros(3).scatter(0, torch.tensor([1]), 2.0, reduce="sum")


def err_scatter_reduce_two_name():
    # raises: reduce argument must be either sum, prod, mean, amax or amin.
    return torch.zeros(3).scatter_reduce(0, torch.tensor([1]), torch.ones(1), "max")


def err_scatter_reduce_bool_mean():
    # raises: "scatter_gather_tensor_cpu_reduce_mean" not implemented for 'Bool'
    return torch.tensor([True]).scatter_reduce(0, torch.tensor([0]), torch.tensor([True]), "mean")


def err_scatter_value_overflow():
    # raises: value cannot be converted to type int8_t without overflow
    return torch.zeros(2, dtype=torch.int8).scatter(0, torch.tensor([0]), 300)


def err_scatter_out_dtype():
    # raises: Expected out tensor to have dtype float, but got double instead
    return torch.scatter(torch.zeros(2), 0, torch.tensor([0]), 1., out=torch.empty(0).double())


def err_index_add_vector():
    # raises: index_add_(): Index is supposed to be a vector, but got dim: 2 with type: Long and size: [2, 1]
    return torch.zeros(3, 4).index_add(0, torch.tensor([[0], [2]]), torch.ones(2, 4))


def err_index_add_index_dtype():
    # raises: index_add_(): Expected dtype int32/int64 for index but got: Float
    return torch.zeros(3, 4).index_add(0, torch.tensor([0.]), torch.ones(1, 4))


def err_index_add_dtype():
    # raises: index_add_(): self (Float) and source (Double) must have the same scalar type
    return torch.zeros(3, 4).index_add(0, torch.tensor([0]), torch.ones(1, 4).double())


def err_index_add_count():
    # raises: index_add_(): Number of indices (2) should be equal to source.size(dim): (3), for dim: 0
    return torch.zeros(3, 4).index_add(0, torch.tensor([0, 2]), torch.ones(3, 4))


def err_index_add_source_dim():
    # raises: index_add_(): Indexing dim 1 is out of bounds of the source tensor with dim 1
    return torch.zeros(3, 4).index_add(1, torch.tensor([0]), torch.ones(3))


def err_index_add_slice():
    # raises: The size of tensor a (4) must match the size of tensor b (3) at non-singleton dimension 0
    return torch.zeros(3, 4).index_add(0, torch.tensor([0, 2]), torch.ones(2, 3))


def err_index_add_broadcast():
    # raises: output with shape [4] doesn't match the broadcast shape [4, 4]
    return torch.zeros(3, 4).index_add(0, torch.tensor([0]), torch.ones(1, 4, 1))


def err_index_add_bounds():
    # raises: index out of range in self
    return torch.zeros(3, 4).index_add(0, torch.tensor([-1]), torch.ones(1, 4))


def err_index_add_alpha():
    # raises: value cannot be converted to type float without overflow
    return torch.zeros(3, 4).index_add(0, torch.tensor([0]), torch.ones(1, 4), alpha=1e40)


def err_index_fill_value_dim():
    # raises: index_fill_ only supports a 0-dimensional value tensor, but got tensor with 1 dimension(s).
    return torch.zeros(3, 4).index_fill(1, torch.tensor([0]), torch.tensor([5.]))


def err_index_fill_index_dtype():
    # raises: index_fill_(): Expected dtype int64 for index.
    return torch.zeros(3, 4).index_fill(1, torch.tensor([0]).int(), 5)


def err_index_fill_vector():
    # raises: Index has to be a vector/scalar
    return torch.zeros(3, 4).index_fill(1, torch.tensor([[0]]), 5)


def err_index_fill_bounds():
    # raises: index -5 is out of bounds for dimension 1 with size 4
    return torch.zeros(3, 4).index_fill(1, torch.tensor([-5]), 5)


def err_index_copy_index_dim():
    # raises: index_copy_(): Index should have dimension 1 or 0 (got 2)
    return torch.zeros(3).index_copy(0, torch.tensor([[1]]), torch.tensor(1.))


def err_index_copy_scalar_count():
    # raises: index_copy_(): When source is scalar, index should have one element (got 2)
    return torch.zeros(2, 3, 4).index_copy(1, torch.tensor([0, 1]), torch.tensor(1.))


def err_index_copy_dims():
    # raises: index_copy_(): When source and destination are not scalars, their dimensionality must match. Source dimensionality (2), destination dimensionality (3)
    return torch.zeros(2, 3, 4).index_copy(1, torch.tensor([0, 1]), torch.ones(2, 4))


def err_index_copy_index_dtype():
    # raises: index_copy_(): Expected a long tensor for index, but got Int
    return torch.zeros(3, 4).index_copy(0, torch.tensor([0]).int(), torch.ones(1, 4))


def err_index_copy_dtype():
    # raises: index_copy_(): self and source expected to have the same dtype, but got (self) Float and (source) Double
    return torch.zeros(3, 4).index_copy(0, torch.tensor([0]), torch.ones(1, 4).double())


def err_index_copy_slices():
    # raises: index_copy_(): Source/destination tensor must have same slice shapes. Destination slice shape: 2 4 at dimension 1 and source slice shape: 2 5 at dimension 0.
    return torch.zeros(2, 3, 4).index_copy(1, torch.tensor([0]), torch.ones(2, 1, 5))


def err_index_copy_count():
    # raises: index_copy_(): Number of indices (2) should be equal to source.size(dim) (1)
    return torch.zeros(2, 3, 4).index_copy(1, torch.tensor([0, 1]), torch.ones(2, 1, 4))


def err_index_copy_bounds():
    # raises: index_copy_(): index -3 is out of bounds for dimension 0 with size 3
    return torch.zeros(3, 4).index_copy(0, torch.tensor([-3]), torch.ones(1, 4))


def err_masked_scatter_dtype():
    # raises: masked_scatter: expected self and source to have same dtypes but gotFloat and Double
    return torch.zeros(3, 4).masked_scatter(torch.ones(4, dtype=torch.bool), torch.ones(12).double())


def err_masked_scatter_count():
    # raises: Number of elements of source < number of ones in mask
    return torch.zeros(3, 4).masked_scatter(torch.ones(4, dtype=torch.bool), torch.ones(5))


def err_masked_scatter_broadcast():
    # raises: The size of tensor a (5) must match the size of tensor b (4) at non-singleton dimension 1
    return torch.zeros(3, 4).masked_scatter(torch.ones(5, dtype=torch.bool), torch.ones(30))


def err_masked_scatter_expand():
    # raises: The expanded size of the tensor (4) must match the existing size (5) at non-singleton dimension 1.  Target sizes: [3, 4].  Tensor sizes: [5]
    return torch.zeros(3, 4).masked_scatter_(torch.ones(5, dtype=torch.bool), torch.ones(30))


def err_masked_scatter_expand_dims():
    # raises: expand(CPUBoolType{[2, 3, 4]}, size=[3, 4]): the number of sizes provided (2) must be greater or equal to the number of dimensions in the tensor (3)
    return torch.zeros(3, 4).masked_scatter_(torch.ones(2, 3, 4, dtype=torch.bool), torch.ones(30))


def err_take_bounds():
    # raises: out of range: tried to access index -7 on a tensor of 6 elements.
    return torch.arange(6).take(torch.tensor([-7]))


def err_take_dtype():
    # raises: take(): Expected a long tensor for index, but got Int
    return torch.arange(6).take(torch.tensor([1]).int())


def err_take_empty():
    # raises: take(): tried to take from an empty tensor
    return torch.zeros(0).take(torch.tensor([0]))


def err_take_out_dtype():
    # raises: take(): self and out expected to have the same dtype, but got self.dtype = Float and out.dtype = Double
    return torch.take(torch.zeros(3), torch.tensor([0]), out=torch.empty(0).double())


def err_gather_out_dtype():
    # raises: Expected out tensor to have dtype float, but got double instead
    return torch.gather(torch.zeros(3), 0, torch.tensor([0]), out=torch.empty(0).double())


def err_index_select_out_dtype():
    # raises: index_select(): self and result must have the same scalar type
    return torch.index_select(torch.zeros(3), 0, torch.tensor([0]), out=torch.empty(0).double())


if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
