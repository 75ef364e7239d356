# t/reliability_cases.py — the reproducers of issue 16's reliability review whose answers
# PyTorch 1.13 gets right: extreme offsets, pads and strides that once overflowed (undefined
# behaviour found by clang's UBSan) or looped, as TorchScript. t/reliability_cases.sh runs
# them through tscript; they behave the same under PyTorch:
#     /usr/bin/python3 t/reliability_cases.py
# Where PyTorch's own arithmetic overflows (it answers wrongly or fails oddly), tscript's
# answers are in t/reliability_ts_cases.py instead.
from enum import Enum

import torch


class Word(Enum):
    HELLO = "hello"
    BYE = "bye"


class Ratio(Enum):
    HALF = 0.5


class Count(Enum):
    THREE = 3


# (TorchScript reads no globals: 9223372036854775807 is 9223372036854775807, -9223372036854775807 - 1
# (-9223372036854775807 - 1).)
def test_triu_tril_diagonals():
    x = torch.ones(3, 4)
    assert torch.triu(x, 100).sum().item() == 0.0
    assert torch.tril(x, 100).sum().item() == 12.0
    assert torch.triu(x, -100).sum().item() == 12.0
    assert torch.tril(x, -100).sum().item() == 0.0
    assert torch.equal(torch.triu(x, 1), torch.tensor([[0., 1., 1., 1.], [0., 0., 1., 1.],
                                                       [0., 0., 0., 1.]]))
    assert torch.equal(torch.tril(x, -1), torch.tensor([[0., 0., 0., 0.], [1., 0., 0., 0.],
                                                        [1., 1., 0., 0.]]))
    assert torch.triu(torch.ones(2, 3, 3), 3).sum().item() == 0.0


def test_diagonal_extreme_offsets():
    x = torch.arange(9.).view(3, 3)
    assert torch.diagonal(x, (-9223372036854775807 - 1)).size() == [0]
    assert torch.diagonal(x, 9223372036854775807).size() == [0]
    assert torch.equal(torch.diagonal(x, -2), torch.tensor([6.0]))
    assert torch.equal(torch.diag(x, 2), torch.tensor([2.0]))
    assert torch.diag(x, -3).size() == [0]


def test_tri_indices_large():
    assert torch.triu_indices(4611686018427387904, 0).size() == [2, 0]
    assert torch.tril_indices(0, 4611686018427387904).size() == [2, 0]
    assert torch.triu_indices(4611686018427387904, 1, 4611686018427387904).size() == [2, 0]
    i = torch.tril_indices(4611686018427387904, 1, -4611686018427387902)
    assert torch.equal(i, torch.tensor([[4611686018427387902, 4611686018427387903], [0, 0]]))


def test_tri_indices_small():
    assert torch.equal(torch.tril_indices(3, 4, -1), torch.tensor([[1, 2, 2], [0, 0, 1]]))
    assert torch.equal(torch.triu_indices(3, 4, 2), torch.tensor([[0, 0, 1], [2, 3, 3]]))
    assert torch.equal(torch.triu_indices(4, 3, -2),
                       torch.tensor([[0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3],
                                     [0, 1, 2, 0, 1, 2, 0, 1, 2, 1, 2]]))
    assert torch.equal(torch.tril_indices(2, 5, 3), torch.tensor([[0, 0, 0, 0, 1, 1, 1, 1, 1],
                                                                  [0, 1, 2, 3, 0, 1, 2, 3, 4]]))
    assert torch.tril_indices(3, 3, 10).size() == [2, 9]
    assert torch.triu_indices(3, 3, -10).size() == [2, 9]
    assert torch.triu_indices(3, 3, 10).size() == [2, 0]
    assert torch.tril_indices(3, 3, dtype=torch.int32).dtype == torch.int32


def test_device_strings():
    assert str(torch.device("cpu")) == "cpu"
    assert str(torch.zeros(1, device="cpu").device) == "cpu"


def test_expandtabs():
    assert "a\tb".expandtabs(4) == "a   b"
    assert "\ta\tb".expandtabs(3) == "   a  b"
    assert "ab".center(6, "-") == "--ab--"


def test_enum_values_keep_their_type():
    assert Word.HELLO.value + "!" == "hello!"
    assert Ratio.HALF.value * 2.0 == 1.0
    assert Count.THREE.value + 1 == 4
    w = Word.BYE
    assert len(w.value) == 3


def err_diag_offset_int64_min():
    # raises: numel: integer multiplication overflow
    assert torch.diag(torch.ones(3, 3), (-9223372036854775807 - 1)).dim() == 1


def err_diag_vector_offset_int64_max():
    # raises: numel: integer multiplication overflow
    assert torch.diag(torch.ones(3), 9223372036854775807).dim() == 2


def err_device_with_nul():
    # raises: Invalid device string: 'cpu
    assert str(torch.device("cpu\x00x")) != ""


def err_tensor_on_device_with_nul():
    # raises: Invalid device string: 'cpu
    s = "cpu\x00"
    assert torch.zeros(2, device=s).size() == [2]


if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
