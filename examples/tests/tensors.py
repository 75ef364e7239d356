# tensors.py — a few tensor operators checked against values worked out by hand. A test
# file of `tscript test` (see the README); the declarations are those of Python's unittest.
import unittest

import torch


def test_add_broadcasts():
    a = torch.ones(2, 3)
    b = torch.arange(3.0)
    assert torch.equal(a + b, torch.tensor([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]))


def test_matmul_shape():
    x = torch.ones(4, 5) @ torch.ones(5, 2)
    assert x.shape == [4, 2]
    assert float(x[0, 0]) == 5.0


@unittest.expectedFailure
def test_matmul_size_mismatch():
    # declared to raise: the inner sizes differ
    print(torch.ones(2, 3) @ torch.ones(2, 3))


@unittest.skip("needs a CUDA device")
def test_on_cuda():
    x = torch.ones(2, device="cuda")
    assert float(x.sum()) == 2.0
