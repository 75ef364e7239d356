# t/view_copies_cases.py — the *_copy forms of the view ops (plugins/aten-cpu/shape/
# view_copies.c): the view's values in a tensor of their own (a write to it leaves the input
# alone), with clone's strides (a dense view such as a permutation keeps its strides, an
# expanded one becomes contiguous), lists for split/unbind, and the view's own messages.
# Under PyTorch:
#     /usr/bin/python3 t/view_copies_cases.py
# t/view_copies_cases.sh runs them through t/cases.sh.
import torch


def test_copies_do_not_share_memory():
    x = torch.arange(12.0).reshape(3, 4)
    p = torch.permute_copy(x, [1, 0])
    p[0, 0] = 100.0
    assert x[0, 0].item() == 0.0 and p.shape == [4, 3] and not p.is_contiguous()
    t = torch.t_copy(x)
    t[1, 0] = -1.0
    assert x[0, 1].item() == 1.0 and t.stride() == [1, 4]
    v = torch.view_copy(x, [2, 6])
    v[0, 0] = 7.0
    assert x[0, 0].item() == 0.0 and v.is_contiguous()
    d = torch.detach_copy(x)
    d[2, 3] = 0.0
    assert x[2, 3].item() == 11.0
    a = torch.alias_copy(x)
    a[1, 1] = 0.0
    assert x[1, 1].item() == 5.0


def test_copies_values_and_shapes():
    x = torch.arange(12.0).reshape(3, 4)
    assert torch.equal(torch.transpose_copy(x, 0, 1), x.transpose(0, 1))
    assert torch.unsqueeze_copy(x, 0).shape == [1, 3, 4]
    assert torch.squeeze_copy(torch.ones(1, 3)).shape == [3]
    assert torch.squeeze_copy(torch.ones(1, 3), 0).shape == [3]
    assert torch.equal(torch.select_copy(x, 1, 2), torch.tensor([2.0, 6.0, 10.0]))
    assert torch.equal(torch.slice_copy(x, 1, 1, 3), x[:, 1:3])
    assert torch.equal(torch.diagonal_copy(x), torch.tensor([0.0, 5.0, 10.0]))
    e = torch.expand_copy(torch.ones(3, 1), [3, 2])
    assert e.shape == [3, 2] and e.stride() == [2, 1]
    assert torch.equal(torch.unfold_copy(torch.arange(6.0), 0, 2, 2), torch.tensor([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]))
    assert torch.equal(torch.as_strided_copy(x, [2, 2], [1, 4]), torch.tensor([[0.0, 4.0], [1.0, 5.0]]))


def test_copies_of_lists():
    x = torch.arange(12.0).reshape(3, 4)
    s = torch.split_copy(x, 2, 1)
    assert len(s) == 2 and torch.equal(s[1], x[:, 2:])
    w = torch.split_with_sizes_copy(x, [1, 2])
    assert len(w) == 2 and w[1].shape == [2, 4]
    u = torch.unbind_copy(x, 1)
    assert len(u) == 4 and torch.equal(u[3], torch.tensor([3.0, 7.0, 11.0]))
    u[0][0] = 50.0
    assert x[0, 0].item() == 0.0


def err_permute_copy_dims():
    # raises: number of dimensions in the tensor input does not match the length of the desired ordering of dimensions
    print(torch.permute_copy(torch.ones(2, 3), [0]))


def err_view_copy_size():
    # raises: shape '[4]' is invalid for input of size 6
    print(torch.view_copy(torch.ones(2, 3), [4]))


if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
