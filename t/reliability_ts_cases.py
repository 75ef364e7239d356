# t/reliability_ts_cases.py — issue 16's reproducers where PyTorch 1.13's own integer
# arithmetic overflows, so it answers wrongly or fails with an unrelated message: tscript
# gives the mathematically right answer or a clear error, never undefined behaviour.
# Run through tscript by t/reliability_ts_cases.sh (the same harness as the *_cases.py files,
# but not checked under PyTorch, which gets these wrong; each says what PyTorch does).
from enum import Enum

import torch


class Word(Enum):
    HELLO = "hello"


class Ratio(Enum):
    HALF = 0.5


class Count(Enum):
    THREE = 3


def test_triu_tril_diagonal_near_int64_limits():
    # PyTorch: triu(x, 2**63-1).sum() is 6 (i + k wraps)
    x = torch.ones(3, 4)
    assert torch.triu(x, 9223372036854775807).sum().item() == 0.0
    assert torch.tril(x, 9223372036854775807).sum().item() == 12.0
    assert torch.triu(x, -9223372036854775807 - 1).sum().item() == 12.0
    assert torch.tril(x, -9223372036854775807 - 1).sum().item() == 0.0
    assert torch.triu(x, 9223372036854775806).sum().item() == 0.0
    assert torch.tril(x, -9223372036854775807).sum().item() == 0.0


def test_slice_step_int64_max():
    # PyTorch: size [0] for 1-D (its length formula wraps), and for 2-D "as_strided:
    # Negative strides are not supported" (stride * step wraps)
    x = torch.arange(10.)
    y = x[::9223372036854775807]
    assert y.size() == [1]
    assert y.sum().item() == 0.0
    assert y.max().item() == 0.0
    z = x[3::9223372036854775807]
    assert z.sum().item() == 3.0
    assert z[1:].size() == [0]
    assert z[1:].sum().item() == 0.0
    m = torch.arange(12.).view(3, 4)[::9223372036854775807]
    assert m.size() == [1, 4]
    assert m.sum().item() == 6.0
    assert torch.equal(m.sum(0), torch.tensor([0.0, 1.0, 2.0, 3.0]))
    assert m[:, 1::9223372036854775807].sum().item() == 1.0


def test_tri_indices_offset_near_int64_limits():
    # PyTorch: tril_indices(3, 3, 2**63-1) fails "Storage size calculation overflowed",
    # triu_indices(3, 3, 2**63-1) returns six garbage pairs
    assert torch.tril_indices(3, 3, 9223372036854775807).size() == [2, 9]
    assert torch.triu_indices(3, 3, 9223372036854775807).size() == [2, 0]
    assert torch.tril_indices(3, 3, -9223372036854775807 - 1).size() == [2, 0]
    assert torch.triu_indices(3, 3, -9223372036854775807 - 1).size() == [2, 9]


def test_enum_value_op_picks_the_value_type():
    # PyTorch: torch.ops.prim.EnumValue binds its first overload (.int) whatever the enum, so
    # a str flows through int-typed code (print(EnumValue(Word.HELLO) + 0) prints a pointer)
    s = torch.ops.prim.EnumValue(Word.HELLO)
    assert s + "!" == "hello!"
    assert torch.ops.prim.EnumValue(Ratio.HALF) * 2.0 == 1.0
    assert torch.ops.prim.EnumValue(Count.THREE) + 1 == 4


def err_tril_indices_count_past_int64():
    # raises: tril_indices: the triangle of a 4294967296 x 4294967296 matrix at offset 0 has more than 2**63 - 1 elements
    # PyTorch: its count wraps, and it tries to allocate 32 GiB
    assert torch.tril_indices(4294967296, 4294967296).dim() == 2


def err_pad_past_int64():
    # raises: resulted in an output size too large to represent
    # PyTorch: "Dimension out of range (expected to be in range of [-1, 0], but got ...)"
    import torch.nn.functional as F
    assert F.pad(torch.ones(3), [9223372036854775807, 9223372036854775807]).dim() == 1


def err_pad_negative_past_int64():
    # raises: resulted in an output size too large to represent
    import torch.nn.functional as F
    assert F.pad(torch.ones(3), [-9223372036854775807 - 1, -5]).dim() == 1


def err_diag_embed_offset_past_int64():
    # raises: numel: integer multiplication overflow
    # PyTorch: "IntArrayRef contains an int that cannot be represented as a SymInt"
    assert torch.diag_embed(torch.ones(3), 9223372036854775806).dim() == 2


def err_expandtabs_huge():
    # raises: text longer than 2147483648 bytes
    # PyTorch: fills memory a space at a time
    assert len("a\tb".expandtabs(4611686018427387904)) > 0


def err_center_huge_fill():
    # raises: text longer than 2147483648 bytes
    assert len("ab".center(9223372036854775807, "€")) > 0
