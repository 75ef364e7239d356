# t/arrange_cases.py — views that rearrange or split a tensor (broadcast_to,
# broadcast_tensors, meshgrid, movedim/moveaxis, swapaxes/swapdims, atleast_Nd, tensor_split,
# hsplit/vsplit/dsplit), run as TorchScript. The test_* functions assert PyTorch 1.13's
# results (shapes, strides, values, and that the results are views); each err_* function
# fails with the message in its `# raises:` line. t/arrange_cases.sh runs both kinds
# through tscript; they behave the same under PyTorch:
#     /usr/bin/python3 t/arrange_cases.py
from typing import List

import torch


def shapes(ts: List[torch.Tensor]) -> str:
    return str([t.size() for t in ts])


def test_broadcast_to_and_tensors():
    x = torch.arange(24.).view(2, 3, 4)
    b = x.broadcast_to([2, 2, 3, 4])
    assert b.size() == [2, 2, 3, 4] and b.stride() == [0, 12, 4, 1]
    assert torch.broadcast_to(x, [-1, 3, 4]).stride() == [12, 4, 1]
    x[0, 0, 0] = 7.
    assert b[1, 0, 0, 0].item() == 7.         # a view
    ts = torch.broadcast_tensors(x, torch.ones(4), torch.ones(1, 1, 1))
    assert shapes(ts) == "[[2, 3, 4], [2, 3, 4], [2, 3, 4]]"
    assert ts[1].stride() == [0, 0, 1] and ts[2].stride() == [0, 0, 0]
    assert len(torch.broadcast_tensors([x])) == 1


def test_meshgrid():
    a = torch.arange(3)
    b = torch.arange(2)
    g = torch.meshgrid(a, b)
    assert shapes(g) == "[[3, 2], [3, 2]]"
    assert g[0].stride() == [1, 0] and g[1].stride() == [0, 1]
    assert torch.equal(g[0], torch.tensor([[0, 0], [1, 1], [2, 2]]))
    h = torch.meshgrid([a, b], indexing="xy")
    assert shapes(h) == "[[2, 3], [2, 3]]"
    assert torch.equal(h[0], torch.tensor([[0, 1, 2], [0, 1, 2]]))
    assert torch.equal(h[1], torch.tensor([[0, 0, 0], [1, 1, 1]]))
    k = torch.meshgrid([torch.tensor(1.), torch.arange(2.)], indexing="ij")
    assert k[0].stride() == [1, 0] and k[1].stride() == [2, 1]
    c = torch.meshgrid(a, b, torch.arange(4), indexing="xy")
    assert shapes(c) == "[[2, 3, 4], [2, 3, 4], [2, 3, 4]]"


def test_movedim():
    x = torch.arange(24.).view(2, 3, 4)
    m = x.movedim(0, 2)
    assert m.size() == [3, 4, 2] and m.stride() == [4, 1, 12]
    assert torch.equal(x.movedim([0, 1], [2, 0]), m)
    assert torch.moveaxis(x, -1, 0).stride() == [1, 12, 4]
    assert torch.movedim(x, [2, 0], [0, 1]).size() == [4, 2, 3]
    assert x.moveaxis([1], [-1]).size() == [2, 4, 3]
    assert torch.tensor(1.).movedim(0, -1).dim() == 0


def test_swapaxes():
    x = torch.arange(24.).view(2, 3, 4)
    s = x.swapaxes(0, 2)
    assert s.size() == [4, 3, 2] and s.stride() == [1, 4, 12]
    assert torch.equal(torch.swapdims(x, 1, -1), x.transpose(1, 2))
    y = x.clone()
    r = y.swapaxes_(0, 1)
    assert y.size() == [3, 2, 4] and y.stride() == [4, 12, 1] and r.size() == [3, 2, 4]
    y.swapdims_(0, 2)
    assert y.size() == [4, 2, 3] and y.stride() == [1, 12, 4]


def test_atleast():
    s = torch.tensor(1.)
    assert torch.atleast_1d(s).size() == [1]
    assert torch.atleast_2d(s).size() == [1, 1]
    assert torch.atleast_3d(s).size() == [1, 1, 1]
    v = torch.ones(3)
    assert torch.atleast_2d(v).size() == [1, 3] and torch.atleast_2d(v).stride() == [3, 1]
    assert torch.atleast_3d(v).size() == [1, 3, 1] and torch.atleast_3d(v).stride() == [3, 1, 1]
    assert torch.atleast_3d(torch.ones(2, 3)).size() == [2, 3, 1]
    assert torch.atleast_1d(torch.ones(2, 3)).size() == [2, 3]
    assert shapes(torch.atleast_2d(v, torch.ones(2, 3, 4))) == "[[1, 3], [2, 3, 4]]"
    assert shapes(torch.atleast_3d([v, s])) == "[[1, 3, 1], [1, 1, 1]]"


def test_tensor_split():
    x = torch.arange(24.).view(2, 3, 4)
    assert shapes(x.tensor_split(2, 1)) == "[[2, 2, 4], [2, 1, 4]]"
    assert shapes(torch.tensor_split(x, [1, 5, 2], 2)) == "[[2, 3, 1], [2, 3, 3], [2, 3, 0], [2, 3, 2]]"
    assert shapes(x.tensor_split(torch.tensor(2), 2)) == "[[2, 3, 2], [2, 3, 2]]"
    assert shapes(x.tensor_split(torch.tensor([1, 3]), dim=2)) == "[[2, 3, 1], [2, 3, 2], [2, 3, 1]]"
    assert shapes(x.tensor_split([-1], -1)) == "[[2, 3, 3], [2, 3, 1]]"
    p = x.tensor_split(3, 2)
    assert torch.equal(p[1], x[:, :, 2:3]) and p[2].size() == [2, 3, 1]
    assert len(torch.arange(2).tensor_split(5)) == 5


def test_hvdsplit():
    x = torch.arange(24.).view(2, 3, 4)
    assert shapes(x.hsplit(3)) == "[[2, 1, 4], [2, 1, 4], [2, 1, 4]]"
    assert shapes(torch.hsplit(x, [1])) == "[[2, 1, 4], [2, 2, 4]]"
    assert shapes(x.vsplit(2)) == "[[1, 3, 4], [1, 3, 4]]"
    assert shapes(torch.dsplit(x, [1, 2])) == "[[2, 3, 1], [2, 3, 1], [2, 3, 2]]"
    assert shapes(x.dsplit(2)) == "[[2, 3, 2], [2, 3, 2]]"
    assert shapes(torch.ones(4).hsplit(2)) == "[[2], [2]]"
    assert torch.equal(x.vsplit([1])[1], x[1:])


def err_broadcast_to():
    # raises: The expanded size of the tensor (3) must match the existing size (2) at non-singleton dimension 0.  Target sizes: [3, 3, 4].  Tensor sizes: [2, 3, 4]
    return torch.zeros(2, 3, 4).broadcast_to([3, 3, 4])


def err_broadcast_tensors():
    # raises: The size of tensor a (4) must match the size of tensor b (5) at non-singleton dimension 2
    return torch.broadcast_tensors(torch.zeros(2, 3, 4), torch.ones(5))


def err_meshgrid_indexing():
    # raises: torch.meshgrid: indexing must be one of "xy" or "ij", but received: foo
    return torch.meshgrid([torch.arange(3), torch.arange(2)], indexing="foo")


def err_meshgrid_dtype():
    # raises: meshgrid expects all tensors to have the same dtype
    return torch.meshgrid([torch.arange(3), torch.arange(2.)], indexing="ij")


def err_meshgrid_empty():
    # raises: meshgrid expects a non-empty TensorList
    return torch.meshgrid([], indexing="ij")


def err_meshgrid_dims():
    # raises: torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got
    return torch.meshgrid([torch.ones(2, 2)], indexing="ij")


def err_movedim_dim():
    # raises: Dimension out of range (expected to be in range of [-3, 2], but got 3)
    return torch.zeros(2, 3, 4).movedim(3, 0)


def err_movedim_repeated_source():
    # raises: movedim: repeated dim in `source` ([0, 0])
    return torch.zeros(2, 3, 4).movedim([0, 0], [1, 2])


def err_movedim_repeated_destination():
    # raises: movedim: repeated dim in `destination` ([1, -2])
    return torch.zeros(2, 3, 4).movedim([0, 1], [1, -2])


def err_movedim_lengths():
    # raises: movedim: Invalid source or destination dims: source ([0, 1] dims) should contain the same number of dims as destination ([1] dims)
    return torch.zeros(2, 3, 4).movedim([0, 1], [1])


def err_swapdims():
    # raises: Dimension out of range (expected to be in range of [-3, 2], but got 3)
    return torch.zeros(2, 3, 4).swapdims(0, 3)


def err_tensor_split_sections():
    # raises: number of sections must be larger than 0, got 0
    return torch.zeros(2, 3, 4).tensor_split(0, 1)


def err_tensor_split_scalar():
    # raises: tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims
    return torch.tensor(1.).tensor_split(2)


def err_tensor_split_dim():
    # raises: Dimension out of range (expected to be in range of [-3, 2], but got 5)
    return torch.zeros(2, 3, 4).tensor_split(2, 5)


def err_tensor_split_tensor_dtype():
    # raises: tensor_split expected tensor_indices_or_sections to have dtype of long, but got Float
    return torch.zeros(2, 3, 4).tensor_split(torch.tensor([1., 3.]), 2)


def err_tensor_split_tensor_dims():
    # raises: tensor_split expected tensor_indices_or_sections to be a zero-dimensional or one-dimensional tensor, but got a tensor with 2 dims
    return torch.zeros(2, 3, 4).tensor_split(torch.tensor([[1, 3]]), 2)


def err_hsplit_divisible():
    # raises: torch.hsplit attempted to split along dimension 1, but the size of the dimension 3 is not divisible by the split_size 2!
    return torch.zeros(2, 3, 4).hsplit(2)


def err_hsplit_zero():
    # raises: torch.hsplit attempted to split along dimension 1, but the size of the dimension 3 is not divisible by the split_size 0!
    return torch.zeros(2, 3, 4).hsplit(0)


def err_vsplit_dims():
    # raises: torch.vsplit requires a tensor with at least 2 dimension, but got a tensor with 1 dimensions!
    return torch.ones(4).vsplit(2)


def err_dsplit_dims():
    # raises: torch.dsplit requires a tensor with at least 3 dimension, but got a tensor with 2 dimensions!
    return torch.ones(3, 4).dsplit([1])


def err_hsplit_scalar():
    # raises: torch.hsplit requires a tensor with at least 1 dimension, but got a tensor with 0 dimensions!
    return torch.tensor(1.).hsplit(1)


if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
