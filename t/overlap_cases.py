# t/overlap_cases.py — out= forms and writes into tensors that share memory: aten::matmul.out
# and aten::cat.out (blas.c, join.c), and the check PyTorch makes before writing through an
# expanded view (convert.c ts_cpu_check_internal_overlap: pointwise in-place and out= ops,
# copy_; fill_ and zero_ may write such a view). t/overlap_cases.sh runs them under tscript;
# under PyTorch (each err_ function returns what it wrote: PyTorch drops writes into
# tensors nothing returns before running):
#     /usr/bin/python3 t/overlap_cases.py
import torch


def test_matmul_out():
    mm = torch.zeros(2, 2)
    r = torch.matmul(torch.eye(2), torch.tensor([[1.0, 2.0], [3.0, 4.0]]), out=mm)
    assert torch.equal(mm, torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
    r.add_(1)
    assert float(mm.sum()) == 14.0
    v = torch.zeros(5)
    torch.matmul(torch.ones(2, 3), torch.ones(3), out=v)
    assert v.shape == (2,) and torch.equal(v, torch.tensor([3.0, 3.0]))
    b = torch.zeros(1)
    torch.matmul(torch.ones(4, 2, 3), torch.ones(3, 5), out=b)
    assert b.shape == (4, 2, 5) and float(b.sum()) == 120.0
    d = torch.zeros(3)
    torch.matmul(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]), out=d)
    assert d.dim() == 0 and float(d) == 11.0


def err_matmul_out_dtype():
    # raises: Expected out tensor to have dtype float, but got double instead
    o = torch.zeros(2, 2, dtype=torch.float64)
    torch.matmul(torch.ones(2, 2), torch.ones(2, 2), out=o)
    return o


def err_matmul_out_dot_dtype():
    # raises: result dtype Double does not match input dtype Float
    o = torch.zeros(1, dtype=torch.float64)
    torch.matmul(torch.ones(3), torch.ones(3), out=o)
    return o


def test_cat_out():
    c = torch.tensor([0.0, 0.5, 1.0])
    o = torch.zeros(4)
    r = torch.cat([c[:2], c[1:]], out=o[:4])
    assert torch.equal(o, torch.tensor([0.0, 0.5, 0.5, 1.0])) and torch.equal(r, o)
    m = torch.zeros(1)
    torch.cat([torch.ones(2, 2), torch.zeros(2, 2)], 1, out=m)
    assert m.shape == (2, 4) and float(m.sum()) == 4.0
    f = torch.zeros(1, dtype=torch.float64)
    torch.cat([torch.ones(2), torch.ones(1)], out=f)
    assert f.dtype == torch.float64 and float(f.sum()) == 3.0


def err_cat_out_cast():
    # raises: torch.cat(): input types can't be cast to the desired output type Long
    o = torch.zeros(4, dtype=torch.long)
    torch.cat([torch.ones(2), torch.ones(2)], out=o)
    return o


def err_cat_out_overlaps_input():
    # raises: some elements of the input tensor and the written-to tensor refer to a single memory location
    a = torch.ones(4)
    torch.cat([a[:2], a[2:]], out=a)
    return a


def test_expanded_writes():
    a = torch.arange(3.0)
    e = a[:1].expand(3)
    e.fill_(4.0)
    assert torch.equal(a, torch.tensor([4.0, 1.0, 2.0]))
    e.zero_()
    assert torch.equal(a, torch.tensor([0.0, 1.0, 2.0]))
    # a size-1 dim with stride 0 writes each location once: allowed
    s = torch.zeros(2, 1).expand(2, 1)
    s.add_(1)
    assert float(s.sum()) == 2.0
    x = torch.ones(2)
    x.copy_(x)
    assert torch.equal(x, torch.ones(2))


def err_add_into_expanded():
    # raises: unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.
    e = torch.arange(3.0)[:1].expand(3)
    e.add_(torch.tensor([1.0, 2.0, 3.0]))
    return e


def err_neg_into_expanded():
    # raises: more than one element of the written-to tensor refers to a single memory location
    e = torch.zeros(1).expand(2, 3)
    e.neg_()
    return e


def err_out_is_expanded():
    # raises: more than one element of the written-to tensor refers to a single memory location
    e = torch.zeros(1).expand(3)
    torch.mul(torch.ones(3), 2, out=e)
    return e


def err_overlap_before_shape():
    # raises: more than one element of the written-to tensor refers to a single memory location
    e = torch.zeros(1).expand(3)
    e.add_(torch.ones(4))
    return e


def err_copy_into_expanded():
    # raises: more than one element of the written-to tensor refers to a single memory location
    e = torch.zeros(1).expand(3)
    e.copy_(torch.ones(3))
    return e


if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
