# t/torchvision_defined.py — inputs for which torchvision 0.14's CPU kernels are undefined
# (they read outside the input, divide by zero, or convert NaN or huge floats to int, and
# crash or return garbage), and the defined answer plugins/torchvision gives instead: an
# error naming the operator, or a documented value (plugins/torchvision/README.md).
# These run under tscript only (t/torchvision_defined.sh): PyTorch may crash on them.
from typing import List

import torch


def test_roi_align_nan_coordinates_sample_nothing():
    x = torch.ones(1, 1, 5, 6)
    nan = float("nan")
    r = torch.tensor([[0.0, nan, 1.0, 3.0, 3.0]])
    for ratio in [0, 2]:
        out = torch.ops.torchvision.roi_align(x, r, 1.0, 2, 2, ratio, True)
        assert bool((out == 0).all())
    out, chan = torch.ops.torchvision.ps_roi_align(torch.ones(1, 4, 5, 6), r, 1.0, 2, 2, 2)
    assert bool((out == 0).all())


def test_roi_pool_huge_and_nan_coordinates():
    x = torch.arange(30, dtype=torch.float32).reshape(1, 1, 5, 6)
    big = torch.tensor([[0.0, -1e30, -1e30, 1e30, 1e30]])
    out, arg = torch.ops.torchvision.roi_pool(x, big, 1.0, 1, 1)
    assert out.shape == [1, 1, 1, 1]
    nan = float("nan")
    out, arg = torch.ops.torchvision.roi_pool(x, torch.tensor([[0.0, nan, nan, nan, nan]]), 1.0,
                                              1, 1)
    assert out.shape == [1, 1, 1, 1]
    out, chan = torch.ops.torchvision.ps_roi_pool(torch.ones(1, 1, 5, 6), big, 1.0, 1, 1)
    assert out.shape == [1, 1, 1, 1]


def test_empty_planes_give_zeros():
    # an input of height 0: torchvision reads before the input; here every bin is 0
    out = torch.ops.torchvision.roi_align(torch.zeros(1, 2, 0, 4),
                                          torch.tensor([[0.0, 0.0, 0.0, 1.0, 1.0]]), 1.0, 2, 2, 2,
                                          False)
    assert out.shape == [1, 2, 2, 2] and bool((out == 0).all())


def err_roi_align_batch_index_past_the_batch():
    # raises: roi_align: roi 1 has batch index 2, outside the input's batch of 2
    r = torch.tensor([[0.0, 0.0, 0.0, 1.0, 1.0], [2.0, 0.0, 0.0, 1.0, 1.0]])
    return torch.ops.torchvision.roi_align(torch.zeros(2, 1, 5, 6), r, 1.0, 2, 2, 0, False)


def err_roi_pool_negative_batch_index():
    # raises: roi_pool: roi 0 has batch index -1, outside the input's batch of 1
    r = torch.tensor([[-1.0, 0.0, 0.0, 1.0, 1.0]])
    return torch.ops.torchvision.roi_pool(torch.zeros(1, 1, 5, 6), r, 1.0, 2, 2)


def err_ps_roi_pool_nan_batch_index():
    # raises: ps_roi_pool: roi 0 has batch index nan, outside the input's batch of 1
    r = torch.tensor([[float("nan"), 0.0, 0.0, 1.0, 1.0]])
    return torch.ops.torchvision.ps_roi_pool(torch.zeros(1, 4, 5, 6), r, 1.0, 2, 2)


def err_roi_pool_four_columns():
    # raises: rois must have shape as Tensor[K, 5]
    return torch.ops.torchvision.roi_pool(torch.zeros(1, 1, 5, 6), torch.zeros(2, 4), 1.0, 2, 2)


def err_roi_pool_1d_rois():
    # raises: Dimension out of range (expected to be in range of [-1, 0], but got 1)
    return torch.ops.torchvision.roi_pool(torch.zeros(1, 1, 5, 6), torch.zeros(5), 1.0, 2, 2)


def err_roi_align_5d_input():
    # raises: roi_align: input must be a 4-D tensor [N, C, H, W], got 5D
    return torch.ops.torchvision.roi_align(torch.zeros(1, 1, 1, 5, 6), torch.zeros(1, 5), 1.0, 2,
                                           2, 0, False)


def err_ps_roi_align_zero_pooled_size():
    # raises: ps_roi_align: pooled_height * pooled_width must be a nonzero int, got 0 and 2
    return torch.ops.torchvision.ps_roi_align(torch.zeros(1, 4, 5, 6), torch.zeros(1, 5), 1.0, 0,
                                              2, 0)


def err_ps_roi_pool_zero_pooled_size():
    # raises: ps_roi_pool: pooled_height * pooled_width must be a nonzero int, got 2 and 0
    return torch.ops.torchvision.ps_roi_pool(torch.zeros(1, 4, 5, 6), torch.zeros(1, 5), 1.0, 2, 0)


def err_roi_align_huge_sampling_grid():
    # raises: roi_align: the sampling grid of roi 0 is too large
    r = torch.tensor([[0.0, 0.0, 0.0, 1e12, 1e12]])
    return torch.ops.torchvision.roi_align(torch.zeros(1, 1, 5, 6), r, 1.0, 2, 2, 0, False)


def err_roi_align_huge_sampling_ratio():
    # raises: roi_align: the sampling grid of roi 0 is too large
    r = torch.tensor([[0.0, 0.0, 0.0, 1.0, 1.0]])
    return torch.ops.torchvision.roi_align(torch.zeros(1, 1, 5, 6), r, 1.0, 2, 2, 1 << 40, False)


def err_ps_roi_align_huge_sampling_grid():
    # raises: ps_roi_align: the sampling grid of roi 0 is too large
    r = torch.tensor([[0.0, 0.0, 0.0, 1e12, 1e12]])
    return torch.ops.torchvision.ps_roi_align(torch.zeros(1, 4, 5, 6), r, 1.0, 2, 2, 0)


def err_deform_conv2d_zero_stride():
    # raises: stride_h: 0 stride_w: 1
    return torch.ops.torchvision.deform_conv2d(torch.zeros(1, 2, 5, 5), torch.zeros(2, 2, 3, 3),
                                               torch.zeros(1, 18, 3, 3), torch.zeros(1, 9, 3, 3),
                                               torch.zeros(2), 0, 1, 0, 0, 1, 1, 1, 1, True)


def err_deform_conv2d_zero_groups():
    # raises: Expected weight_c.size(0) % n_weight_grps == 0 to be true, but got false.
    return torch.ops.torchvision.deform_conv2d(torch.zeros(1, 0, 5, 5), torch.zeros(2, 2, 3, 3),
                                               torch.zeros(1, 18, 3, 3), torch.zeros(1, 9, 3, 3),
                                               torch.zeros(2), 1, 1, 0, 0, 1, 1, 0, 1, True)


def err_deform_conv2d_zero_offset_groups():
    # raises: Expected input_c.size(1) % n_offset_grps == 0 to be true, but got false.
    return torch.ops.torchvision.deform_conv2d(torch.zeros(1, 2, 5, 5), torch.zeros(2, 2, 3, 3),
                                               torch.zeros(1, 0, 3, 3), torch.zeros(1, 0, 3, 3),
                                               torch.zeros(2), 1, 1, 0, 0, 1, 1, 1, 0, True)


def err_deform_conv2d_huge_kernel():
    # raises: deform_conv2d: a kernel of 4294967296 x 4294967296 is too large
    return torch.ops.torchvision.deform_conv2d(torch.zeros(1, 1, 5, 5),
                                               torch.zeros(0, 1, 1 << 32, 1 << 32),
                                               torch.zeros(1, 2, 1, 1), torch.zeros(1, 0),
                                               torch.zeros(0), 1, 1, 0, 0, 1, 1, 1, 1, False)
