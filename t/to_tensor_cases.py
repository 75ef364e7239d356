# t/to_tensor_cases.py — tensors made from data (create.c) as models call them: aten::as_tensor
# and aten::scalar_tensor (torchvision's detection models) and prim::NumToTensor (what traced
# graphs make of x.size(0)). t/to_tensor_cases.sh runs them under tscript; under PyTorch:
#     /usr/bin/python3 t/to_tensor_cases.py
import torch


def test_as_tensor():
    a = torch.as_tensor([1, 2, 3])
    assert a.dtype == torch.long and torch.equal(a, torch.tensor([1, 2, 3]))
    b = torch.as_tensor([[1.5, 2.0]], dtype=torch.float64)
    assert b.dtype == torch.float64 and b.shape == (1, 2)
    assert torch.as_tensor(3).dtype == torch.long and torch.as_tensor(2.5).item() == 2.5
    assert torch.as_tensor(True).dtype == torch.bool
    x = torch.ones(2)
    assert torch.as_tensor(x) is x
    y = torch.as_tensor(x, dtype=torch.float64)
    assert y.dtype == torch.float64 and torch.equal(y, torch.ones(2, dtype=torch.float64))
    assert not torch.as_tensor([1.0]).requires_grad


def test_scalar_tensor():
    a = torch.scalar_tensor(3)
    assert a.dtype == torch.float32 and a.dim() == 0 and float(a) == 3.0
    b = torch.scalar_tensor(2.5, dtype=torch.int64)
    assert b.dtype == torch.int64 and int(b) == 2
    assert torch.scalar_tensor(7, dtype=torch.float64).dtype == torch.float64


def test_num_to_tensor():
    x = torch.ones(3)
    n = torch.ops.prim.NumToTensor(x.size(0))
    assert n.dtype == torch.long and n.dim() == 0 and int(n) == 3
    f = torch.ops.prim.NumToTensor(2.5)
    assert f.dtype == torch.float64 and float(f) == 2.5
    b = torch.ops.prim.NumToTensor(True)
    assert b.dtype == torch.bool and bool(b)
    # not a wrapped number: a 0-dim float64 tensor sets the dtype against integer tensors
    assert (f * torch.ones(2, dtype=torch.int32)).dtype == torch.float64
    assert (n * 0.5).dtype == torch.float32


if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
