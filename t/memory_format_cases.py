# t/memory_format_cases.py — memory formats on the cpu backend: contiguous(), clone(),
# to(), the *_like factories and empty() with memory_format= (contiguous_format,
# preserve_format, channels_last, channels_last_3d), is_contiguous(memory_format=), and the
# layout ops keep, run as TorchScript. The test_* functions assert PyTorch 1.13's strides
# and values; each err_* function fails with the message in its `# raises:` line.
# t/memory_format_cases.sh runs both kinds through tscript; they behave the same under
# PyTorch:
#     /usr/bin/python3 t/memory_format_cases.py
import torch


def test_contiguous_channels_last():
    x = torch.arange(24.).reshape(1, 2, 3, 4)
    y = x.contiguous(memory_format=torch.channels_last)
    assert y.stride() == [24, 1, 8, 2] and torch.equal(y, x)
    assert not y.is_contiguous() and y.is_contiguous(memory_format=torch.channels_last)
    y[0, 1, 2, 3] = -1.
    assert x[0, 1, 2, 3].item() == 23.          # a copy
    z = y.contiguous(memory_format=torch.channels_last)
    z[0, 0, 0, 0] = 5.
    assert y[0, 0, 0, 0].item() == 5.           # already so: self itself
    u = y.contiguous()
    assert u.stride() == [24, 12, 4, 1] and torch.equal(u, y)
    p = u.contiguous(memory_format=torch.preserve_format)   # contiguous already: self
    p[0, 0, 0, 0] = 9.
    assert u[0, 0, 0, 0].item() == 9.


def test_contiguous_channels_last_3d():
    v = torch.arange(48.).reshape(1, 2, 2, 3, 4)
    w = v.contiguous(memory_format=torch.channels_last_3d)
    assert w.stride() == [48, 1, 24, 8, 2] and torch.equal(w, v)
    assert w.is_contiguous(memory_format=torch.channels_last_3d)
    assert not w.is_contiguous(memory_format=torch.channels_last)


def test_size_one_dims():
    s = torch.zeros(1, 1, 3, 4)
    assert s.is_contiguous(memory_format=torch.channels_last)
    assert s.contiguous(memory_format=torch.channels_last).stride() == [12, 12, 4, 1]
    e = torch.empty(0, 3, 2, 2).contiguous(memory_format=torch.channels_last)
    assert e.is_contiguous(memory_format=torch.channels_last)
    c = torch.zeros(2, 1, 3, 1).clone(memory_format=torch.channels_last)
    assert c.stride() == [3, 1, 1, 1]


def test_clone_formats():
    x = torch.arange(24.).reshape(2, 3, 2, 2)
    c = x.clone(memory_format=torch.channels_last)
    assert c.stride() == [12, 1, 6, 3] and torch.equal(c, x)
    assert c.clone().stride() == [12, 1, 6, 3]          # preserve_format keeps it
    assert c.clone(memory_format=torch.contiguous_format).stride() == [12, 4, 2, 1]
    t = x.transpose(1, 3)
    assert t.clone(memory_format=torch.channels_last).is_contiguous(
        memory_format=torch.channels_last)


def test_to_memory_format():
    x = torch.arange(24.).reshape(1, 2, 3, 4)
    t = x.to(memory_format=torch.channels_last)
    assert t.stride() == [24, 1, 8, 2] and torch.equal(t, x)
    d = x.to(torch.float64, memory_format=torch.channels_last)
    assert d.dtype == torch.float64 and d.stride() == [24, 1, 8, 2]
    back = t.to(memory_format=torch.contiguous_format)
    assert back.stride() == [24, 12, 4, 1]
    assert t.to(torch.float32).stride() == [24, 1, 8, 2]   # preserve


def test_like_factories():
    x = torch.arange(24.).reshape(1, 2, 3, 4)
    assert torch.empty_like(x, memory_format=torch.channels_last).stride() == [24, 1, 8, 2]
    z = torch.zeros_like(x, memory_format=torch.channels_last)
    assert z.stride() == [24, 1, 8, 2] and z.sum().item() == 0.
    o = torch.ones_like(x, memory_format=torch.channels_last)
    assert o.stride() == [24, 1, 8, 2] and o.sum().item() == 24.
    f = torch.full_like(x, 2., memory_format=torch.channels_last)
    assert f.stride() == [24, 1, 8, 2] and f.sum().item() == 48.
    y = x.contiguous(memory_format=torch.channels_last)
    assert torch.empty_like(y).stride() == [24, 1, 8, 2]
    assert torch.empty_like(y, memory_format=torch.contiguous_format).stride() == [24, 12, 4, 1]
    e = torch.empty([2, 3, 4, 5], memory_format=torch.channels_last)
    assert e.stride() == [60, 1, 15, 3]


def test_ops_keep_channels_last():
    x = torch.arange(24.).reshape(1, 2, 3, 4)
    y = x.contiguous(memory_format=torch.channels_last)
    assert (y + 1).stride() == [24, 1, 8, 2]
    assert torch.relu(y).stride() == [24, 1, 8, 2]
    assert torch.equal(y * 2, x * 2)
    assert torch.equal(torch.nn.functional.avg_pool2d(y, 2), torch.nn.functional.avg_pool2d(x, 2))


def err_channels_last_rank():
    # raises: required rank 4 tensor to use channels_last format
    return torch.zeros(2, 3).contiguous(memory_format=torch.channels_last)


def err_channels_last_3d_rank():
    # raises: required rank 5 tensor to use channels_last_3d format
    return torch.zeros(2, 3, 4, 5).clone(memory_format=torch.channels_last_3d)


def err_contiguous_preserve():
    # raises: preserve memory format is unsupported by the contiguous operator
    return torch.zeros(2, 3).t().contiguous(memory_format=torch.preserve_format)


def err_to_channels_last_rank():
    # raises: required rank 4 tensor to use channels_last format
    return torch.zeros(3).to(memory_format=torch.channels_last)


if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
