# t/models_ops_cases.py — what real models (torchvision's models and its scripted transforms,
# saved by PyTorch 1.13: t/models/check_models.py) needed, each checked here without the
# model: the in-place dim views (unsqueeze_ builds the affine grid of RandomAffine,
# RandomRotation and the AutoAugment family), torch.tensor of a number (Scalar) as a float
# tensor, torch._C._nn.* and the other bindings model code calls, float's bilinear and
# antialiased resize weights to PyTorch's bit (a resized uint8 image rounds as in PyTorch),
# and the optimizer keeping a shape's unpacked dims when an item of their list is taken
# (rgb_to_grayscale crashed it).
# t/models_ops_cases.sh runs them with `tscript test`; they pass under PyTorch 1.13 too:
#     /usr/bin/python3 t/models_ops_cases.py
from typing import List

import torch
import torch.nn.functional as F


def dims_of(img: torch.Tensor) -> List[int]:
    h, w = img.shape[-2:]
    return [img.shape[-3], h, w]


def test_item_of_a_list_of_unpacked_dims():
    # [c, h, w][0] is c: h and w, the two outputs of one unpack, die together
    x = torch.zeros(2, 3, 4)
    assert dims_of(x)[0] == 2


def test_last_item_of_a_list_of_unpacked_dims():
    assert dims_of(torch.zeros(2, 3, 4))[-1] == 4


def test_unsqueeze_in_place():
    a = torch.arange(6.0).reshape(2, 3)
    b = a.unsqueeze_(-1)
    assert a.shape == [2, 3, 1] and a.stride() == [3, 1, 1]
    b.add_(1)              # b is a itself
    assert a[1, 2, 0].item() == 6.0
    a.unsqueeze_(0)
    assert a.shape == [1, 2, 3, 1]
    s = torch.tensor(5.0)
    assert s.unsqueeze_(0).shape == [1]


def test_squeeze_in_place():
    a = torch.zeros(2, 1, 3, 1)
    v = a[0]
    assert a.squeeze_(1).shape == [2, 3, 1]
    assert a.squeeze_().shape == [2, 3]
    assert a.squeeze_(0).shape == [2, 3]      # a dim that is not 1 stays
    assert v.shape == [1, 3, 1]               # a view taken before keeps its shape
    s = torch.tensor(1.0)
    assert s.squeeze_(0).dim() == 0


def test_transpose_and_t_in_place():
    a = torch.arange(6.0).reshape(2, 3)
    a.transpose_(0, 1)
    assert a.shape == [3, 2] and a.stride() == [1, 3] and not a.is_contiguous()
    assert a[2, 1].item() == 5.0
    b = torch.arange(4.0).reshape(2, 2)
    b.t_()
    assert torch.equal(b, torch.tensor([[0.0, 2.0], [1.0, 3.0]]))
    c = torch.arange(3.0)
    assert c.t_().shape == [3]


def err_t_in_place_of_3d():
    # raises: t_() expects a tensor with <= 2 dimensions, but self is 3D
    return torch.zeros(2, 3, 4).t_()


def err_unsqueeze_in_place_dim():
    # raises: Dimension out of range (expected to be in range of [-4, 3], but got 5)
    return torch.zeros(2, 3, 4).unsqueeze_(5)


def test_tensor_of_a_number_is_float():
    # item() is a number (Scalar): torch.tensor and as_tensor take their float overload, the
    # first (torchvision's RandomErasing and perspective compute with such numbers)
    s = torch.tensor(2.5).item()
    t = torch.tensor(s * 3.0 - 0.25)
    assert t.dtype == torch.float32 and t.item() == 7.25
    u = torch.tensor(s, dtype=torch.float64)
    assert u.dtype == torch.float64 and u.item() == 2.5
    assert torch.as_tensor(s * 1.5).item() == 3.75
    assert torch.tensor(3).dtype == torch.int64


def test_torch_c_bindings():
    # the bindings torch.nn.functional calls, called by model code directly, are the aten
    # operators; torch._C._get_tracing_state() is False when scripted
    x = torch.tensor([[[[0.0, 1.0], [2.0, 3.0]]]])
    y = torch._C._nn.upsample_bilinear2d(x, [4, 4], True, None)
    assert y.shape == [1, 1, 4, 4] and abs(y[0, 0, 3, 3].item() - 3.0) < 1e-6
    assert torch.allclose(torch._C._nn.gelu(x), F.gelu(x))
    assert torch._C._linalg.linalg_vector_norm(x, 1.0, None, False).item() == 6.0
    assert not torch._C._get_tracing_state()


def test_bilinear_weights_of_float():
    # row 41 of 70 alone is 1: output row 19 of 33 is its weight, the source position
    # computed in double from float's scale 70/33 (float products give 0.8636322)
    y = torch.zeros(1, 1, 70, 1)
    y[0, 0, 41, 0] = 1.0
    got = F.interpolate(y, size=[33, 1], mode="bilinear", align_corners=False)[0, 0, 19, 0]
    s = torch.tensor(70.0 / 33.0, dtype=torch.float32).item()
    assert bool(got == torch.tensor(s * 19.5 - 0.5 - 40.0, dtype=torch.float32))
    # a 2x2 patch of a uint8 image resized as torchvision resizes it: PyTorch's 163.821884
    img = torch.zeros(1, 1, 70, 90)
    img[0, 0, 40:42, 68:70] = torch.tensor([[35.0, 6.0], [85.0, 243.0]])
    v = F.interpolate(img, size=[33, 41], mode="bilinear", align_corners=False)[0, 0, 19, 31]
    assert abs(v.item() - 163.821884) < 2e-5
    e = torch.eye(90).reshape(1, 1, 90, 90)
    c = F.interpolate(e, size=[90, 41], mode="bilinear", align_corners=True)[0, 0, 44, 20]
    assert c.item() == 0.5000019073486328


def test_antialiased_weights_of_float():
    # the identity resized along its rows: each row holds one output's weights, PyTorch's
    e = torch.eye(90).reshape(1, 1, 90, 90)
    a = F.interpolate(e, size=[90, 41], mode="bilinear", antialias=True)[0, 0, 44]
    assert a[19].item() == 0.10459186881780624
    assert a[20].item() == 0.35459184646606445
    assert a[18].item() == 0.0 and a[21].item() == 0.0


if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
