# t/torchvision_cases.py — the operators of plugins/torchvision as TorchScript programs call
# them (torch.ops.torchvision.*), each on inputs whose answer is worked out by hand or by
# other operators: ramps (10 * y + x), whose bilinear samples are exact; constant channels;
# deformable convolution with zero offsets against conv2d. The err_* functions check
# torchvision's error messages. t/torchvision_cases.sh runs them with `tscript test` under
# plugins/torchvision/config.yaml; they pass under PyTorch + torchvision 0.14 too:
#     /usr/bin/python3 t/torchvision_cases.py
# (t/torchvision_defined.py holds the inputs torchvision leaves undefined.)
from typing import List

import torch
import torch.nn.functional as F


def close(a: torch.Tensor, b: torch.Tensor) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and torch.allclose(a, b, 1e-5, 1e-6)


def ints(t: torch.Tensor) -> List[int]:
    v: List[int] = t.tolist()
    return v


def ramp(n: int, c: int, dtype: torch.dtype) -> torch.Tensor:
    """n images of c channels, 5 x 6: pixel (y, x) of channel k of image i is
    10 * y + x + 100 * i + 1000 * k."""
    y = torch.arange(5, dtype=dtype).reshape(5, 1) * 10
    x = torch.arange(6, dtype=dtype).reshape(1, 6)
    i = torch.arange(n, dtype=dtype).reshape(n, 1, 1, 1) * 100
    k = torch.arange(c, dtype=dtype).reshape(1, c, 1, 1) * 1000
    return y + x + i + k


# ---- nms ------------------------------------------------------------------------------


def boxes4() -> torch.Tensor:
    return torch.tensor([[0.0, 0.0, 10.0, 10.0], [1.0, 1.0, 11.0, 11.0],
                         [20.0, 20.0, 30.0, 30.0], [0.0, 0.0, 10.0, 10.5]])


def test_nms_keeps_by_score_and_suppresses_overlaps():
    # IoU(3, 0) = 100 / 105, IoU(3, 1) = 85.5 / 119.5, IoU(0, 1) = 81 / 119; 2 is apart
    scores = torch.tensor([0.9, 0.8, 0.7, 0.95])
    assert ints(torch.ops.torchvision.nms(boxes4(), scores, 0.5)) == [3, 2]
    assert ints(torch.ops.torchvision.nms(boxes4(), scores, 0.9)) == [3, 1, 2]
    assert ints(torch.ops.torchvision.nms(boxes4(), scores, 0.96)) == [3, 0, 1, 2]
    keep = torch.ops.torchvision.nms(boxes4().double(), scores.double(), 0.9)
    assert keep.dtype == torch.int64 and ints(keep) == [3, 1, 2]


def test_nms_threshold_is_strict():
    # IoU exactly 0.5: suppressed only by a threshold below it
    b = torch.tensor([[0.0, 0.0, 2.0, 2.0], [0.0, 0.0, 2.0, 1.0]])
    s = torch.tensor([2.0, 1.0])
    assert ints(torch.ops.torchvision.nms(b, s, 0.5)) == [0, 1]
    assert ints(torch.ops.torchvision.nms(b, s, 0.49)) == [0]


def test_nms_ties_keep_input_order():
    same = torch.tensor([[0.0, 0.0, 1.0, 1.0], [0.0, 0.0, 1.0, 1.0], [5.0, 5.0, 6.0, 6.0],
                         [0.0, 0.0, 1.0, 1.0]])
    s = torch.tensor([0.5, 0.5, 0.5, 0.5])
    assert ints(torch.ops.torchvision.nms(same, s, 0.5)) == [0, 2]
    apart = torch.tensor([[0.0, 0.0, 1.0, 1.0], [2.0, 0.0, 3.0, 1.0], [4.0, 0.0, 5.0, 1.0]])
    assert ints(torch.ops.torchvision.nms(apart, torch.tensor([1.0, 2.0, 1.0]), 0.5)) == [1, 0, 2]


def test_nms_nan_scores_come_first():
    apart = torch.tensor([[0.0, 0.0, 1.0, 1.0], [2.0, 0.0, 3.0, 1.0], [4.0, 0.0, 5.0, 1.0]])
    s = torch.tensor([1.0, float("nan"), 2.0])
    assert ints(torch.ops.torchvision.nms(apart, s, 0.5)) == [1, 2, 0]


def test_nms_empty_boxes_suppress_nothing():
    # two empty boxes: IoU 0 / 0 is NaN, and NaN > threshold is false
    b = torch.tensor([[1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0]])
    assert ints(torch.ops.torchvision.nms(b, torch.tensor([1.0, 2.0]), 0.0)) == [1, 0]


def test_nms_no_boxes():
    keep = torch.ops.torchvision.nms(torch.zeros(0, 4), torch.zeros(0), 0.5)
    assert keep.dtype == torch.int64 and keep.shape == [0]
    keep = torch.ops.torchvision.nms(torch.zeros(0, 4).double(), torch.zeros(0).double(), 0.5)
    assert keep.dtype == torch.int64 and keep.shape == [0]


def test_nms_strided_inputs():
    wide = torch.cat([boxes4(), torch.ones(4, 3)], 1)[:, :4]
    scores = torch.tensor([[0.9, 0.8, 0.7, 0.95], [0.0, 0.0, 0.0, 0.0]])[0]
    assert ints(torch.ops.torchvision.nms(wide, scores, 0.5)) == [3, 2]


# ---- roi_align --------------------------------------------------------------------------


def test_roi_align_samples_bin_centres():
    # a ramp is linear, so each bin's average is the ramp at the bin's centre
    x = ramp(1, 1, torch.float32)
    r = torch.tensor([[0.0, 1.0, 1.0, 3.0, 3.0]])
    out = torch.ops.torchvision.roi_align(x, r, 1.0, 2, 2, 2, False)
    assert close(out, torch.tensor([[[[16.5, 17.5], [26.5, 27.5]]]]))
    # aligned: the roi moves by half a pixel
    out = torch.ops.torchvision.roi_align(x, r, 1.0, 2, 2, 2, True)
    assert close(out, torch.tensor([[[[11.0, 12.0], [21.0, 22.0]]]]))
    # adaptive sampling (ceil(bin size) points per axis) and a spatial scale
    r2 = torch.tensor([[0.0, 0.0, 0.0, 8.0, 8.0]])
    out = torch.ops.torchvision.roi_align(x, r2, 0.5, 2, 2, 0, False)
    assert close(out, torch.tensor([[[[11.0, 13.0], [31.0, 33.0]]]]))


def test_roi_align_picks_images_and_channels():
    x = ramp(2, 3, torch.float64)
    r = torch.tensor([[1.0, 1.0, 1.0, 3.0, 3.0], [0.0, 1.0, 1.0, 3.0, 3.0]], dtype=torch.float64)
    out = torch.ops.torchvision.roi_align(x, r, 1.0, 1, 1, 2, False)
    assert out.dtype == torch.float64 and out.shape == [2, 3, 1, 1]
    assert close(out.reshape(2, 3), torch.tensor([[122.0, 1122.0, 2122.0],
                                                  [22.0, 1022.0, 2022.0]], dtype=torch.float64))


def test_roi_align_edges():
    x = ramp(1, 1, torch.float32) + 1
    # a point in (-1, 0] is clamped to the first pixel
    out = torch.ops.torchvision.roi_align(x, torch.tensor([[0.0, -1.0, -1.0, 0.0, 0.0]]),
                                          1.0, 1, 1, 1, False)
    assert close(out, torch.tensor([[[[1.0]]]]))
    # points past the last pixel but within one of it take the last pixel
    out = torch.ops.torchvision.roi_align(x, torch.tensor([[0.0, 5.0, 4.0, 6.0, 5.0]]),
                                          1.0, 1, 1, 1, False)
    assert close(out, torch.tensor([[[[46.0]]]]))
    # points more than one pixel outside are 0
    out = torch.ops.torchvision.roi_align(x, torch.tensor([[0.0, 10.0, 10.0, 12.0, 12.0]]),
                                          1.0, 2, 2, 2, False)
    assert close(out, torch.zeros(1, 1, 2, 2))
    # a roi smaller than a pixel is grown to 1 x 1 unless aligned
    tiny = torch.tensor([[0.0, 2.0, 2.0, 2.0, 2.0]])
    out = torch.ops.torchvision.roi_align(x, tiny, 1.0, 1, 1, 1, False)
    assert close(out, torch.tensor([[[[(10 * 2.5 + 2.5) + 1]]]]))
    # aligned, an empty roi has no sampling points with sampling_ratio 0: the bin is 0
    out = torch.ops.torchvision.roi_align(x, tiny, 1.0, 1, 1, 0, True)
    assert close(out, torch.zeros(1, 1, 1, 1))


def test_roi_align_strided_and_empty():
    x = ramp(1, 2, torch.float32)
    xt = x.transpose(2, 3).contiguous().transpose(2, 3)
    r = torch.tensor([[9.0, 0.0, 1.0, 1.0, 3.0, 3.0]])[:, 1:]
    assert close(torch.ops.torchvision.roi_align(xt, r, 1.0, 2, 2, 2, False),
                 torch.ops.torchvision.roi_align(x, r.contiguous(), 1.0, 2, 2, 2, False))
    assert torch.ops.torchvision.roi_align(x, torch.zeros(0, 5), 1.0, 7, 7, 2, True).shape == [0, 2, 7, 7]
    assert torch.ops.torchvision.roi_align(x, r, 1.0, 0, 3, 2, True).shape == [1, 2, 0, 3]


# ---- ps_roi_align -------------------------------------------------------------------------


def test_ps_roi_align_takes_one_channel_per_bin():
    # 8 channels, channel k constant k: output channel co, bin (ph, pw) reads 4 co + 2 ph + pw
    x = torch.arange(8, dtype=torch.float32).reshape(1, 8, 1, 1).expand(2, 8, 5, 6)
    r = torch.tensor([[1.0, 1.0, 1.0, 4.0, 3.0]])
    out, chan = torch.ops.torchvision.ps_roi_align(x, r, 1.0, 2, 2, 2)
    want = torch.arange(8, dtype=torch.float32).reshape(1, 2, 2, 2)
    assert close(out, want)
    assert chan.dtype == torch.int32 and ints(chan.reshape(-1).long()) == [0, 1, 2, 3, 4, 5, 6, 7]


def test_ps_roi_align_samples_a_ramp():
    # 1 x 1 bins, always shifted by half a pixel: the centre of (1, 1)-(3, 3) is (1.5, 1.5)
    x = ramp(1, 1, torch.float64)
    out, chan = torch.ops.torchvision.ps_roi_align(
        x, torch.tensor([[0.0, 1.0, 1.0, 3.0, 3.0]], dtype=torch.float64), 1.0, 1, 1, 0)
    assert close(out, torch.tensor([[[[16.5]]]], dtype=torch.float64))
    assert ints(chan.reshape(-1).long()) == [0]


def test_ps_roi_align_empty_roi_is_nan():
    # no sampling points and no grown roi: 0 / 0, as torchvision computes it
    x = torch.ones(1, 4, 5, 6)
    out, chan = torch.ops.torchvision.ps_roi_align(x, torch.tensor([[0.0, 2.0, 2.0, 2.0, 2.0]]),
                                                   1.0, 2, 2, 0)
    assert bool(torch.isnan(out).all())


# ---- roi_pool and ps_roi_pool ------------------------------------------------------------


def test_roi_pool_max_and_argmax():
    # the roi (0, 0)-(3, 3) spans pixels 0..3: 2 x 2 bins of 2 x 2 pixels; the maximum of a
    # ramp is each bin's last pixel, at h * 6 + w
    x = ramp(1, 2, torch.float32)
    out, arg = torch.ops.torchvision.roi_pool(x, torch.tensor([[0.0, 0.0, 0.0, 3.0, 3.0]]),
                                              1.0, 2, 2)
    assert close(out[0, 0], torch.tensor([[11.0, 13.0], [31.0, 33.0]]))
    assert close(out[0, 1], torch.tensor([[1011.0, 1013.0], [1031.0, 1033.0]]))
    assert arg.dtype == torch.int32
    assert ints(arg.reshape(-1).long()) == [7, 9, 19, 21, 7, 9, 19, 21]


def test_roi_pool_rounds_and_handles_empty_bins():
    x = ramp(2, 1, torch.float64)
    # 0.5 * (1, 1, 3, 3) rounds half away from zero to (1, 1, 2, 2): pixels 1..2
    out, arg = torch.ops.torchvision.roi_pool(
        x, torch.tensor([[1.0, 1.0, 1.0, 3.0, 3.0]], dtype=torch.float64), 0.5, 1, 1)
    assert close(out, torch.tensor([[[[122.0]]]], dtype=torch.float64))
    assert ints(arg.reshape(-1).long()) == [14]
    # a roi outside the image pools nothing: 0 at -1
    out, arg = torch.ops.torchvision.roi_pool(
        x, torch.tensor([[0.0, 20.0, 20.0, 30.0, 30.0]], dtype=torch.float64), 1.0, 2, 2)
    assert close(out, torch.zeros(1, 1, 2, 2, dtype=torch.float64))
    assert ints(arg.reshape(-1).long()) == [-1, -1, -1, -1]


def test_ps_roi_pool_means():
    x = torch.arange(8, dtype=torch.float32).reshape(1, 8, 1, 1).expand(1, 8, 5, 6)
    out, chan = torch.ops.torchvision.ps_roi_pool(x, torch.tensor([[0.0, 0.0, 0.0, 4.0, 4.0]]),
                                                  1.0, 2, 2)
    assert close(out, torch.arange(8, dtype=torch.float32).reshape(1, 2, 2, 2))
    assert ints(chan.reshape(-1).long()) == [0, 1, 2, 3, 4, 5, 6, 7]
    # torchvision 0.14 clips bins to [0, H - 1) x [0, W - 1): the last row and column of the
    # image are never pooled; the mean of the ramp over rows 0..3, columns 0..4 is 17
    r = ramp(1, 1, torch.float32)
    out, chan = torch.ops.torchvision.ps_roi_pool(r, torch.tensor([[0.0, 0.0, 0.0, 6.0, 5.0]]),
                                                  1.0, 1, 1)
    assert close(out, torch.tensor([[[[17.0]]]]))


# ---- deform_conv2d ------------------------------------------------------------------------


def deform(x: torch.Tensor, w: torch.Tensor, off: torch.Tensor, mask: torch.Tensor,
           b: torch.Tensor, stride: List[int], pad: List[int], dil: List[int], groups: int,
           offset_groups: int, use_mask: bool) -> torch.Tensor:
    return torch.ops.torchvision.deform_conv2d(x, w, off, mask, b, stride[0], stride[1], pad[0],
                                               pad[1], dil[0], dil[1], groups, offset_groups,
                                               use_mask)


def test_deform_conv2d_without_offsets_is_conv2d():
    x = torch.arange(2 * 4 * 7 * 8, dtype=torch.float32).reshape(2, 4, 7, 8).sin()
    w = torch.arange(6 * 2 * 3 * 3, dtype=torch.float32).reshape(6, 2, 3, 3).cos()
    b = torch.tensor([0.5, -1.0, 2.0, 0.0, 1.0, -0.5])
    for stride, pad, dil in [([1, 1], [1, 1], [1, 1]), ([2, 1], [0, 2], [1, 2]),
                             ([1, 2], [2, 1], [2, 1])]:
        want = F.conv2d(x, w, b, stride, pad, dil, 2)
        oh, ow = want.shape[2], want.shape[3]
        off = torch.zeros(2, 2 * 2 * 9, oh, ow)
        got = deform(x, w, off, torch.zeros(2, 0), b, stride, pad, dil, 2, 2, False)
        assert close(got, want)
        ones = torch.ones(2, 2 * 9, oh, ow)
        assert close(deform(x, w, off, ones, b, stride, pad, dil, 2, 2, True), want)
        half = deform(x, w, off, ones * 0.5, b * 0.0, stride, pad, dil, 2, 2, True)
        assert close(half, F.conv2d(x, w, None, stride, pad, dil, 2) * 0.5)


def test_deform_conv2d_offsets_move_the_samples():
    x = torch.arange(12, dtype=torch.float64).reshape(1, 1, 3, 4) + 1
    w = torch.ones(1, 1, 1, 1, dtype=torch.float64)
    b = torch.zeros(1, dtype=torch.float64)
    none = torch.zeros(1, 0, dtype=torch.float64)
    # one row down: the last row samples outside the image, which is 0
    down = torch.zeros(1, 2, 3, 4, dtype=torch.float64)
    down[:, 0] = 1.0
    want = torch.cat([x[:, :, 1:], torch.zeros(1, 1, 1, 4, dtype=torch.float64)], 2)
    assert close(deform(x, w, down, none, b, [1, 1], [0, 0], [1, 1], 1, 1, False), want)
    # half a pixel right: the mean of two neighbours; the last column's right one is 0
    right = torch.zeros(1, 2, 3, 4, dtype=torch.float64)
    right[:, 1] = 0.5
    nxt = torch.cat([x[:, :, :, 1:], torch.zeros(1, 1, 3, 1, dtype=torch.float64)], 3)
    assert close(deform(x, w, right, none, b, [1, 1], [0, 0], [1, 1], 1, 1, False), (x + nxt) / 2)


def test_deform_conv2d_bias_promotes_and_empty_batch():
    x = torch.ones(1, 1, 2, 2)
    w = torch.ones(1, 1, 1, 1)
    off = torch.zeros(1, 2, 2, 2)
    out = deform(x, w, off, torch.zeros(1, 0), torch.tensor([0.25], dtype=torch.float64),
                 [1, 1], [0, 0], [1, 1], 1, 1, False)
    assert close(out, torch.full([1, 1, 2, 2], 1.25, dtype=torch.float64))
    empty = deform(torch.ones(0, 1, 2, 2), w, torch.zeros(0, 2, 2, 2), torch.zeros(0, 0),
                   torch.ones(1), [1, 1], [0, 0], [1, 1], 1, 1, False)
    assert empty.shape == [0, 1, 2, 2]


def test_cuda_version():
    assert torch.ops.torchvision._cuda_version() == -1 or torch.ops.torchvision._cuda_version() > 0


# ---- errors -----------------------------------------------------------------------------


def err_nms_1d_boxes():
    # raises: boxes should be a 2d tensor, got 1D
    return torch.ops.torchvision.nms(torch.zeros(4), torch.zeros(4), 0.5)


def err_nms_five_columns():
    # raises: boxes should have 4 elements in dimension 1, got 5
    return torch.ops.torchvision.nms(torch.zeros(3, 5), torch.zeros(3), 0.5)


def err_nms_2d_scores():
    # raises: scores should be a 1d tensor, got 2D
    return torch.ops.torchvision.nms(torch.zeros(3, 4), torch.zeros(3, 1), 0.5)


def err_nms_counts():
    # raises: boxes and scores should have same number of elements in dimension 0, got 3 and 2
    return torch.ops.torchvision.nms(torch.zeros(3, 4), torch.zeros(2), 0.5)


def err_nms_dtypes():
    # raises: dets should have the same type as scores
    return torch.ops.torchvision.nms(torch.zeros(3, 4), torch.zeros(3).double(), 0.5)


def err_nms_integer_boxes():
    # raises: "nms_kernel" not implemented for 'Long'
    return torch.ops.torchvision.nms(torch.zeros(3, 4).long(), torch.zeros(3).long(), 0.5)


def err_roi_align_3d_input():
    # raises: Dimension out of range (expected to be in range of [-3, 2], but got 3)
    return torch.ops.torchvision.roi_align(torch.zeros(1, 5, 6), torch.zeros(1, 5), 1.0, 2, 2, 0,
                                           False)


def err_roi_align_four_columns():
    # raises: rois must have shape as Tensor[K, 5]
    return torch.ops.torchvision.roi_align(torch.zeros(1, 1, 5, 6), torch.zeros(1, 4), 1.0, 2, 2,
                                           0, False)


def err_roi_align_1d_rois():
    # raises: Dimension out of range (expected to be in range of [-1, 0], but got 1)
    return torch.ops.torchvision.roi_align(torch.zeros(1, 1, 5, 6), torch.zeros(5), 1.0, 2, 2, 0,
                                           False)


def err_roi_align_dtypes():
    # raises: Expected tensor for argument #1 'input' to have the same type as tensor for argument #2 'rois'; but type torch.FloatTensor does not equal torch.DoubleTensor (while checking arguments for roi_align_forward_kernel)
    return torch.ops.torchvision.roi_align(torch.zeros(1, 1, 5, 6), torch.zeros(1, 5).double(),
                                           1.0, 2, 2, 0, False)


def err_roi_align_integer_input():
    # raises: "roi_align_forward_kernel" not implemented for 'Long'
    return torch.ops.torchvision.roi_align(torch.zeros(1, 1, 5, 6).long(),
                                           torch.zeros(1, 5).long(), 1.0, 2, 2, 0, False)


def err_roi_align_negative_pooled_size():
    # raises: Trying to create tensor with negative dimension -1: [1, 1, -1, 2]
    return torch.ops.torchvision.roi_align(torch.zeros(1, 1, 5, 6), torch.zeros(1, 5), 1.0, -1, 2,
                                           0, False)


def err_ps_roi_align_channels():
    # raises: input channels must be a multiple of pooling height * pooling width
    return torch.ops.torchvision.ps_roi_align(torch.zeros(1, 3, 5, 6), torch.zeros(1, 5), 1.0, 2,
                                              2, 0)


def err_ps_roi_align_four_columns():
    # raises: Tensor rois should have shape as Tensor[K, 5]
    return torch.ops.torchvision.ps_roi_align(torch.zeros(1, 4, 5, 6), torch.zeros(1, 4), 1.0, 2,
                                              2, 0)


def err_roi_pool_dtypes():
    # raises: Expected tensor for argument #1 'input' to have the same type as tensor for argument #2 'rois'; but type torch.DoubleTensor does not equal torch.FloatTensor (while checking arguments for roi_pool_forward_kernel)
    return torch.ops.torchvision.roi_pool(torch.zeros(1, 1, 5, 6).double(), torch.zeros(1, 5),
                                          1.0, 2, 2)


def err_roi_pool_integer_input():
    # raises: "roi_pool_forward_kernel" not implemented for 'Int'
    return torch.ops.torchvision.roi_pool(torch.zeros(1, 1, 5, 6).int(), torch.zeros(1, 5).int(),
                                          1.0, 2, 2)


def err_ps_roi_pool_four_columns():
    # raises: Tensor rois should have shape as Tensor[K, 5]
    return torch.ops.torchvision.ps_roi_pool(torch.zeros(1, 4, 5, 6), torch.zeros(1, 4), 1.0, 2, 2)


def err_ps_roi_pool_channels():
    # raises: input channels must be a multiple of pooling height * pooling width
    return torch.ops.torchvision.ps_roi_pool(torch.zeros(1, 6, 5, 6), torch.zeros(1, 5), 1.0, 2, 2)


def dc_args(c: int, og: int) -> List[torch.Tensor]:
    return [torch.zeros(1, c, 5, 5), torch.zeros(2, c, 3, 3), torch.zeros(1, 2 * og * 9, 3, 3),
            torch.zeros(1, og * 9, 3, 3), torch.zeros(2)]


def err_deform_conv2d_3d_input():
    # raises: Expected input_c.ndimension() == 4 to be true, but got false.
    a = dc_args(2, 1)
    return torch.ops.torchvision.deform_conv2d(a[0][0], a[1], a[2], a[3], a[4], 1, 1, 0, 0, 1, 1,
                                               1, 1, True)


def err_deform_conv2d_3d_mask():
    # raises: Expected !use_mask || mask_c.ndimension() == 4 to be true, but got false.
    a = dc_args(2, 1)
    return torch.ops.torchvision.deform_conv2d(a[0], a[1], a[2], a[3][0], a[4], 1, 1, 0, 0, 1, 1,
                                               1, 1, True)


def err_deform_conv2d_padding():
    # raises: pad_h: 0 pad_w: -1
    a = dc_args(2, 1)
    return torch.ops.torchvision.deform_conv2d(a[0], a[1], a[2], a[3], a[4], 1, 1, 0, -1, 1, 1, 1,
                                               1, True)


def err_deform_conv2d_dilation():
    # raises: dilation_h: 0 dilation_w: 1
    a = dc_args(2, 1)
    return torch.ops.torchvision.deform_conv2d(a[0], a[1], a[2], a[3], a[4], 1, 1, 0, 0, 0, 1, 1,
                                               1, True)


def err_deform_conv2d_groups():
    # raises: Expected weight_c.size(1) * n_weight_grps == input_c.size(1) to be true, but got false.
    a = dc_args(2, 1)
    return torch.ops.torchvision.deform_conv2d(a[0], a[1], a[2], a[3], a[4], 1, 1, 0, 0, 1, 1, 2,
                                               1, True)


def err_deform_conv2d_offset_channels():
    # raises: offset.shape[1] is not valid: got: 18 expected: 36
    a = dc_args(2, 1)
    return torch.ops.torchvision.deform_conv2d(a[0], a[1], a[2], torch.zeros(1, 36, 3, 3), a[4],
                                               1, 1, 0, 0, 1, 1, 1, 2, True)


def err_deform_conv2d_offset_size():
    # raises: offset output dims: (3, 3) - computed output dims: (5, 5)
    a = dc_args(2, 1)
    return torch.ops.torchvision.deform_conv2d(a[0], a[1], a[2], a[3], a[4], 1, 1, 1, 1, 1, 1, 1,
                                               1, True)


def err_deform_conv2d_mask_batch():
    # raises: invalid batch size of mask
    a = dc_args(2, 1)
    return torch.ops.torchvision.deform_conv2d(a[0], a[1], a[2], torch.zeros(2, 9, 3, 3), a[4], 1,
                                               1, 0, 0, 1, 1, 1, 1, True)


def err_deform_conv2d_too_small():
    # raises: Calculated output size too small - out_h: 0 out_w: 0
    return torch.ops.torchvision.deform_conv2d(torch.zeros(1, 1, 2, 2), torch.zeros(1, 1, 3, 3),
                                               torch.zeros(1, 18, 0, 0), torch.zeros(1, 0),
                                               torch.zeros(1), 1, 1, 0, 0, 1, 1, 1, 1, False)


def err_deform_conv2d_offset_dtype():
    # raises: expected scalar type Float but found Double
    a = dc_args(2, 1)
    return torch.ops.torchvision.deform_conv2d(a[0], a[1], a[2].double(), a[3], a[4], 1, 1, 0, 0,
                                               1, 1, 1, 1, True)


def err_deform_conv2d_weight_dtype():
    # raises: mat1 and mat2 must have the same dtype
    a = dc_args(2, 1)
    return torch.ops.torchvision.deform_conv2d(a[0], a[1].double(), a[2], a[3], a[4], 1, 1, 0, 0,
                                               1, 1, 1, 1, True)


def err_deform_conv2d_bias_size():
    # raises: shape '[1, 2, 1, 1]' is invalid for input of size 3
    a = dc_args(2, 1)
    return torch.ops.torchvision.deform_conv2d(a[0], a[1], a[2], a[3], torch.zeros(3), 1, 1, 0, 0,
                                               1, 1, 1, 1, True)


if __name__ == "__main__":
    import torchvision  # noqa: F401  (registers torch.ops.torchvision)
    import casedriver
    casedriver.run(globals())
