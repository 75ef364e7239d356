# t/conv_cases.py — the convolutions of conv.c and conv_transpose.c as TorchScript calls them:
# conv1d/2d/3d (ints or "same"/"valid" padding, strides, dilation, groups, unbatched input),
# conv_transpose1d/2d/3d (output_padding, groups, dilation), and the generic
# torch.convolution / torch._convolution of traced models. Each result is checked against the
# same convolution computed another way: conv3d as a sum of conv2d over the kernel's depth,
# a transposed convolution as the forward convolution of the zero-stuffed input with the
# flipped weight, integer and bfloat16 results against float ones. Each err_* function
# fails with the message in its `# raises:` line, PyTorch 1.13's words.
# t/conv_cases.sh runs them under tscript; under PyTorch:
#     /usr/bin/python3 t/conv_cases.py
from typing import List

import torch
import torch.nn.functional as F


def rnd(shape: List[int], seed: int) -> torch.Tensor:
    """Deterministic values in [-1, 1) of the given shape (no generator needed)."""
    n = 1
    for s in shape:
        n *= s
    v = torch.sin(torch.arange(n, dtype=torch.float64) * 12.9898 + seed * 78.233)
    return (v * 43758.5453).frac().mul(2).sub(1).view(shape).float()


def close(a: torch.Tensor, b: torch.Tensor) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and torch.allclose(a, b, 1e-4, 1e-5)


def conv3d_by_2d(x: torch.Tensor, w: torch.Tensor, stride: List[int], pad: List[int],
                 dil: List[int], groups: int) -> torch.Tensor:
    """conv3d as a sum over the kernel's depth of conv2d of depth slices."""
    x = F.pad(x, [0, 0, 0, 0, pad[0], pad[0]])
    depth = x.size(2)
    kd = w.size(2)
    out_d = (depth - dil[0] * (kd - 1) - 1) // stride[0] + 1
    planes: List[torch.Tensor] = []
    for od in range(out_d):
        acc = torch.zeros(0)
        for k in range(kd):
            p = F.conv2d(x[:, :, od * stride[0] + k * dil[0]], w[:, :, k], None,
                         stride[1:], pad[1:], dil[1:], groups)
            acc = p if k == 0 else acc + p
        planes.append(acc)
    return torch.stack(planes, 2)


def transpose_by_forward(x: torch.Tensor, w: torch.Tensor, stride: List[int],
                         pad: List[int], out_pad: List[int], dil: List[int],
                         groups: int) -> torch.Tensor:
    """A 2-d transposed convolution as the forward convolution of the input with zeros
    stuffed between its pixels, padded by dil*(k-1)-pad, and the flipped, transposed weight."""
    n, c, h, wd = x.shape
    kh, kw = w.size(2), w.size(3)
    z = torch.zeros(n, c, (h - 1) * stride[0] + 1, (wd - 1) * stride[1] + 1)
    z[:, :, ::stride[0], ::stride[1]] = x
    ph = dil[0] * (kh - 1) - pad[0]
    pw = dil[1] * (kw - 1) - pad[1]
    z = F.pad(z, [pw, pw + out_pad[1], ph, ph + out_pad[0]])
    cg = c // groups
    og = w.size(1)
    wf = w.flip([2, 3]).view(groups, cg, og, kh, kw).transpose(1, 2)
    return F.conv2d(z, wf.reshape(groups * og, cg, kh, kw), None, 1, 0, dil, groups)


def test_conv3d_against_conv2d():
    x = rnd([2, 4, 5, 6, 7], 1)
    w = rnd([6, 2, 3, 2, 3], 2)
    b = rnd([6], 3)
    want = conv3d_by_2d(x, w, [1, 2, 1], [1, 0, 2], [2, 1, 1], 2) + b.view(1, 6, 1, 1, 1)
    assert close(F.conv3d(x, w, b, (1, 2, 1), (1, 0, 2), (2, 1, 1), 2), want)
    assert close(torch.conv3d(x, w, b, [1, 2, 1], [1, 0, 2], [2, 1, 1], 2), want)
    w2 = rnd([3, 4, 2, 1, 3], 4)
    assert close(F.conv3d(x, w2, stride=2), conv3d_by_2d(x, w2, [2, 2, 2], [0, 0, 0],
                                                         [1, 1, 1], 1))
    xd = x.double()
    assert close(F.conv3d(xd, w2.double(), padding=1),
                 conv3d_by_2d(xd, w2.double(), [1, 1, 1], [1, 1, 1], [1, 1, 1], 1))


def test_conv3d_forms():
    x = rnd([2, 4, 5, 6, 7], 5)
    w = rnd([6, 4, 3, 3, 3], 6)
    # unbatched input: the batched result without its batch dim
    assert close(F.conv3d(x[1], w), F.conv3d(x, w)[1])
    # a transposed (non-contiguous) input reads the same as its contiguous copy
    xt = x.transpose(2, 4)
    assert close(F.conv3d(xt, w, padding=1), F.conv3d(xt.contiguous(), w, padding=1))
    # a 1x1x1 kernel is a matrix product over channels
    w1 = rnd([3, 4, 1, 1, 1], 7)
    assert close(F.conv3d(x, w1),
                 (x.permute(0, 2, 3, 4, 1) @ w1.view(3, 4).t()).permute(0, 4, 1, 2, 3))
    # "same" keeps the size, uneven padding after; "valid" is no padding
    s = F.conv3d(x, rnd([2, 4, 2, 3, 2], 8), padding="same")
    assert s.shape == (2, 2, 5, 6, 7)
    assert close(s, F.conv3d(F.pad(x, [0, 1, 1, 1, 0, 1]), rnd([2, 4, 2, 3, 2], 8)))
    assert close(F.conv3d(x, w, padding="valid"), F.conv3d(x, w))
    # an empty batch gives an empty batch
    assert F.conv3d(torch.zeros(0, 4, 5, 5, 5), w).shape == (0, 6, 3, 3, 3)


def test_conv_integer_and_bfloat16():
    x = rnd([2, 4, 5, 6], 9)
    w = rnd([6, 2, 3, 2], 10)
    xi = (x * 10).round()
    wi = (w * 10).round()
    want = F.conv2d(xi, wi, None, 1, 1, 1, 2)
    for dt in [torch.int8, torch.int16, torch.int32, torch.int64]:
        r = F.conv2d(xi.to(dt), wi.to(dt), None, 1, 1, 1, 2)
        assert r.dtype == dt
        assert torch.equal(r.long(), want.long().to(dt).long())
    # uint8 wraps around as the products are summed
    ru = F.conv2d(xi.abs().to(torch.uint8), wi.abs().to(torch.uint8), None, 1, 1, 1, 2)
    assert torch.equal(ru.long(), F.conv2d(xi.abs(), wi.abs(), None, 1, 1, 1, 2).long() % 256)
    r3 = F.conv3d(xi.long().unsqueeze(2), wi.long().unsqueeze(2), groups=2)
    assert torch.equal(r3.squeeze(2), F.conv2d(xi, wi, groups=2).long())
    rb = F.conv2d(x.to(torch.bfloat16), w.to(torch.bfloat16), groups=2)
    assert rb.dtype == torch.bfloat16
    ref = F.conv2d(x.to(torch.bfloat16).float(), w.to(torch.bfloat16).float(), groups=2)
    assert torch.allclose(rb.float(), ref, 1e-2, 1e-2)
    t = F.conv_transpose2d(xi.long(), wi.long().view(4, 3, 3, 2))
    assert t.dtype == torch.int64
    assert torch.equal(t.double(), F.conv_transpose2d(xi, wi.view(4, 3, 3, 2)).double())


def test_conv1d_forms():
    x = rnd([3, 4, 9], 11)
    w = rnd([6, 4, 3], 12)
    want = F.conv2d(x.unsqueeze(2), w.unsqueeze(2), None, [1, 2], [0, 2], [1, 2]).squeeze(2)
    assert close(F.conv1d(x, w, None, 2, 2, 2), want)
    assert close(F.conv1d(x, w, padding="same", dilation=2),
                 F.conv1d(F.pad(x, [2, 2]), w, dilation=2))
    assert close(F.conv1d(x[0], w), F.conv1d(x, w)[0])


def test_conv_transpose2d_against_forward():
    x = rnd([2, 4, 5, 6], 13)
    w = rnd([4, 3, 3, 2], 14)
    b = rnd([6], 15)
    got = F.conv_transpose2d(x, w, b, (2, 3), (1, 0), (1, 2), 2, (1, 2))
    want = transpose_by_forward(x, w, [2, 3], [1, 0], [1, 2], [1, 2], 2) + b.view(1, 6, 1, 1)
    assert close(got, want)
    assert close(F.conv_transpose2d(x, w), transpose_by_forward(x, w, [1, 1], [0, 0], [0, 0],
                                                                [1, 1], 1))
    assert close(F.conv_transpose2d(x, w, stride=2, padding=1),
                 transpose_by_forward(x, w, [2, 2], [1, 1], [0, 0], [1, 1], 1))
    # padding larger than dil*(k-1) crops the stuffed input
    assert close(F.conv_transpose2d(x, w, stride=3, padding=(2, 1), output_padding=1),
                 transpose_by_forward(x, w, [3, 3], [2, 1], [1, 1], [1, 1], 1))
    xd = x.double()
    assert close(F.conv_transpose2d(xd, w.double(), padding=1),
                 transpose_by_forward(xd.float(), w, [1, 1], [1, 1], [0, 0], [1, 1],
                                      1).double())
    # a 1x1 kernel with stride 1 is a matrix product over channels, plus the bias
    w1 = rnd([4, 5, 1, 1], 16)
    b1 = rnd([5], 17)
    assert close(F.conv_transpose2d(x, w1, b1),
                 (x.permute(0, 2, 3, 1) @ w1.view(4, 5) + b1).permute(0, 3, 1, 2))
    assert close(F.conv_transpose2d(x[1], w, stride=2), F.conv_transpose2d(x, w, stride=2)[1])
    assert close(F.conv_transpose2d(x.transpose(2, 3), w),
                 F.conv_transpose2d(x.transpose(2, 3).contiguous(), w))
    e = F.conv_transpose2d(torch.zeros(0, 4, 5, 6), w, rnd([3], 1))
    assert e.shape == (0, 3, 7, 7)


def test_conv_transpose1d_3d():
    x = rnd([3, 4, 9], 18)
    w = rnd([4, 2, 3], 19)
    got = F.conv_transpose1d(x, w, None, 3, 2, 2)
    want = transpose_by_forward(x.unsqueeze(2), w.unsqueeze(2), [1, 3], [0, 2], [0, 2],
                                [1, 1], 1).squeeze(2)
    assert close(got, want)
    assert close(F.conv_transpose1d(x[0], w, None, 3, 2, 2), got[0])
    x3 = rnd([1, 2, 3, 4, 5], 20)
    w3 = rnd([2, 3, 1, 3, 2], 21)
    b3 = rnd([3], 22)
    got3 = F.conv_transpose3d(x3, w3, b3, (2, 1, 2), (0, 1, 1), 0, 1, (1, 2, 1))
    # a kernel of depth 1 with depth stride 2 puts each input plane at every other plane
    planes = transpose_by_forward(x3[:, :, 0], w3[:, :, 0], [1, 2], [1, 1], [0, 0], [2, 1], 1)
    assert got3.shape == (1, 3, 5, 6, 8)
    assert close(got3[:, :, 0], planes + b3.view(1, 3, 1, 1))
    assert close(got3[:, :, 1], b3.view(1, 3, 1, 1).expand(1, 3, 6, 8))


def test_convolution_generic():
    x = rnd([2, 4, 5, 6], 23)
    w = rnd([4, 3, 3, 2], 24)
    assert close(torch.convolution(x, w, None, [2], [1], [1], True, [1], 1),
                 F.conv_transpose2d(x, w, None, 2, 1, 1))
    wf = w.transpose(0, 1).contiguous()
    assert close(torch._convolution(x, wf, None, [1], [1], [1], False, [0], 1, False, False,
                                    True, True), F.conv2d(x, wf, None, 1, 1))
    x1 = rnd([2, 4, 7], 25)
    w1 = rnd([6, 2, 3], 26)
    assert close(torch.convolution(x1, w1, rnd([6], 2), [2], [1], [2], False, [0], 2),
                 F.conv1d(x1, w1, rnd([6], 2), 2, 1, 2, 2))


def test_large_inputs_in_tiles():
    # big enough that the unrolled patches are made a tile of rows at a time
    x = rnd([1, 32, 32, 512], 30)
    w = rnd([16, 32, 3, 3], 31) * 0.1
    y = F.conv2d(x, w, padding=(0, 1))
    top = F.conv2d(x[:, :, :18], w, padding=(0, 1))
    bottom = F.conv2d(x[:, :, 16:], w, padding=(0, 1))
    assert close(y, torch.cat([top, bottom], 2))
    xt = rnd([1, 8, 32, 256], 32)
    wt = rnd([8, 64, 3, 3], 33) * 0.1
    assert close(F.conv_transpose2d(xt, wt, stride=1),
                 transpose_by_forward(xt, wt, [1, 1], [0, 0], [0, 0], [1, 1], 1))


def test_conv_bias_converted():
    # the slow 1-d and 3-d kernels take a bias of another dtype and convert it
    x = rnd([1, 4, 5], 27)
    w = rnd([6, 4, 3], 28)
    b = rnd([6], 29)
    r = F.conv1d(x, w, b.double())
    assert close(r, F.conv1d(x, w, b))


def err_conv3d_channels():
    # raises: Given groups=1, weight of size [6, 3, 3, 3, 3], expected input[1, 4, 5, 5, 5] to have 3 channels, but got 4 channels instead
    return F.conv3d(torch.zeros(1, 4, 5, 5, 5), torch.zeros(6, 3, 3, 3, 3))


def err_conv3d_weight_rank():
    # raises: expected stride to be a single integer value or a list of 2 values to match the convolution dimensions, but got stride=[1, 1, 1]
    return F.conv3d(torch.zeros(1, 4, 5, 5, 5), torch.zeros(6, 4, 3, 3))


def err_conv3d_input_rank():
    # raises: Expected 4D (unbatched) or 5D (batched) input to conv3d, but got input of size: [5, 5, 5]
    return F.conv3d(torch.zeros(5, 5, 5), torch.zeros(6, 4, 3, 3, 3))


def err_conv3d_kernel_too_big():
    # raises: Calculated padded input size per channel: (5 x 5 x 5). Kernel size: (7 x 3 x 3). Kernel size can't be greater than actual input size
    return F.conv3d(torch.zeros(1, 4, 5, 5, 5), torch.zeros(6, 4, 7, 3, 3))


def err_conv3d_groups():
    # raises: Given groups=4, expected weight to be divisible by 4 at dimension 0, but got weight of size [[6, 2, 3, 3, 3]] instead
    return F.conv3d(torch.zeros(1, 4, 5, 5, 5), torch.zeros(6, 2, 3, 3, 3), groups=4)


def err_conv3d_bias():
    # raises: Given weight of size [6, 4, 3, 3, 3], expected bias to be 1-dimensional with 6 elements, but got bias of size [5] instead
    return F.conv3d(torch.zeros(1, 4, 5, 5, 5), torch.zeros(6, 4, 3, 3, 3), torch.zeros(5))


def err_conv3d_padding_length():
    # raises: expected padding to be a single integer value or a list of 3 values to match the convolution dimensions, but got padding=[1, 2]
    return F.conv3d(torch.zeros(1, 4, 5, 5, 5), torch.zeros(6, 4, 3, 3, 3), padding=(1, 2))


def err_conv3d_half():
    # raises: "compute_columns3d" not implemented for 'Half'
    return F.conv3d(torch.zeros(1, 4, 5, 5, 5).half(), torch.zeros(6, 4, 3, 3, 3).half())


def err_conv3d_same_strided():
    # raises: padding='same' is not supported for strided convolutions
    return F.conv3d(torch.zeros(1, 4, 5, 5, 5), torch.zeros(6, 4, 3, 3, 3), padding="same",
                    stride=2)


def err_conv3d_dilation():
    # raises: dilation should be greater than zero, but got [-1, -1, -1]
    return F.conv3d(torch.zeros(1, 4, 5, 5, 5), torch.zeros(6, 4, 3, 3, 3), dilation=-1)


def err_conv1d_dilation():
    # raises: dilation should be greater than zero, but got [1, 0]
    return F.conv1d(torch.zeros(1, 4, 5), torch.zeros(6, 4, 3), dilation=0)


def err_conv2d_empty_height():
    # raises: Only zero batch or zero channel inputs are supported, but got input shape: [1, 4, 0, 5]
    return F.conv2d(torch.zeros(1, 4, 0, 5), torch.zeros(6, 4, 3, 3), padding=2)


def err_conv2d_bool():
    # raises: "slow_conv2d_cpu" not implemented for 'Bool'
    return F.conv2d(torch.zeros(1, 4, 5, 5).to(torch.bool), torch.zeros(6, 4, 1, 1).to(torch.bool))


def err_conv2d_weight_dtype_mkldnn():
    # raises: Input type (torch.FloatTensor) and weight type (torch.DoubleTensor) should be the same or input should be a MKLDNN tensor and weight is a dense tensor
    return F.conv2d(torch.zeros(2, 4, 5, 5), torch.zeros(6, 4, 3, 3).double())


def err_conv2d_weight_dtype():
    # raises: expected scalar type Float but found Double
    return F.conv2d(torch.zeros(1, 4, 5, 5), torch.zeros(6, 4, 3, 3).double())


def err_conv2d_bias_dtype():
    # raises: Input type (long int) and bias type (float) should be the same
    return F.conv2d(torch.zeros(1, 4, 5, 5).long(), torch.zeros(6, 4, 3, 3).long(), torch.zeros(6))


def err_conv2d_bias_before_weight():
    # raises: Input type (float) and bias type (double) should be the same
    return F.conv2d(torch.zeros(1, 4, 5, 5), torch.zeros(6, 4, 3, 3).long(), torch.zeros(6).double())


def err_conv2d_bias_before_mkldnn_weight():
    # raises: Input type (float) and bias type (double) should be the same
    return F.conv2d(torch.zeros(2, 4, 5, 5), torch.zeros(6, 4, 3, 3).double(),
                    torch.zeros(6).double())


def err_conv2d_weight_empty():
    # raises: Given groups=1, expected weight to be at least 1 at dimension 0, but got weight of size [0, 4, 3, 3] instead
    return F.conv2d(torch.zeros(1, 4, 5, 5), torch.zeros(0, 4, 3, 3))


def err_conv_transpose2d_output_padding():
    # raises: output padding must be smaller than either stride or dilation, but got output_padding_height: 1 output_padding_width: 1 stride_height: 1 stride_width: 1 dilation_height: 1 dilation_width: 1
    return F.conv_transpose2d(torch.zeros(2, 4, 5, 5), torch.zeros(4, 3, 3, 3), output_padding=1)


def err_conv_transpose1d_output_padding():
    # raises: output padding must be smaller than either stride or dilation, but got output_padding_height: 0 output_padding_width: 1 stride_height: 1 stride_width: 1 dilation_height: 1 dilation_width: 1
    return F.conv_transpose1d(torch.zeros(1, 4, 5), torch.zeros(4, 3, 3), output_padding=1)


def err_conv_transpose3d_output_padding():
    # raises: output padding must be smaller than either stride or dilation, but got output_padding_depth: 1 output_padding_height: 1 output_padding_width: 1 stride_depth: 1 stride_height: 1 stride_width: 1 dilation_depth: 1 dilation_height: 1 dilation_width: 1
    return F.conv_transpose3d(torch.zeros(1, 4, 5, 5, 5), torch.zeros(4, 3, 3, 3, 3),
                              output_padding=1)


def err_conv_transpose2d_channels():
    # raises: Given transposed=1, weight of size [3, 3, 3, 3], expected input[2, 4, 5, 5] to have 3 channels, but got 4 channels instead
    return F.conv_transpose2d(torch.zeros(2, 4, 5, 5), torch.zeros(3, 3, 3, 3))


def err_conv_transpose2d_bias():
    # raises: Given transposed=1, weight of size [4, 3, 3, 3], expected bias to be 1-dimensional with 3 elements, but got bias of size [4] instead
    return F.conv_transpose2d(torch.zeros(2, 4, 5, 5), torch.zeros(4, 3, 3, 3), torch.zeros(4))


def err_conv_transpose2d_too_small():
    # raises: Given input size per channel: (5 x 5). Calculated output size per channel: (-3 x -3). Output size is too small
    return F.conv_transpose2d(torch.zeros(2, 4, 5, 5), torch.zeros(4, 3, 3, 3), padding=5)


def err_conv_transpose1d_too_small():
    # raises: Given input size per channel: (1 x 5). Calculated output size per channel: (1 x -1). Output size is too small
    return F.conv_transpose1d(torch.zeros(1, 4, 5), torch.zeros(4, 3, 3), padding=4)


def err_conv_transpose2d_negative_output_padding():
    # raises: negative output_padding is not supported
    return F.conv_transpose2d(torch.zeros(2, 4, 5, 5), torch.zeros(4, 3, 3, 3), output_padding=-1)


def err_conv_transpose2d_int():
    # raises: "slow_conv_transpose2d_out_cpu" not implemented for 'Int'
    return F.conv_transpose2d(torch.zeros(2, 4, 5, 5).int(), torch.zeros(4, 3, 3, 3).int())


def err_conv_transpose3d_half():
    # raises: "slow_conv_transpose3d_out_cpu" not implemented for 'Half'
    return F.conv_transpose3d(torch.zeros(1, 4, 5, 5, 5).half(),
                              torch.zeros(4, 3, 3, 3, 3).half())


def err_conv_transpose1d_dilation():
    # raises: dilation should be greater than zero, but got dilation_height: 1, dilation_width: 0
    return F.conv_transpose1d(torch.zeros(2, 4, 5), torch.zeros(4, 3, 3), dilation=0)


def err_conv_transpose2d_input_rank():
    # raises: Expected 3D (unbatched) or 4D (batched) input to conv_transpose2d, but got input of size: [5, 5]
    return F.conv_transpose2d(torch.zeros(5, 5), torch.zeros(4, 3, 3, 3))


def err_convolution_input_rank():
    # raises: Expected 4-dimensional input for 4-dimensional weight [4, 6, 3, 3], but got 3-dimensional input of size [2, 4, 5] instead
    return torch.convolution(torch.zeros(2, 4, 5), torch.zeros(4, 6, 3, 3), None, [1], [0], [1],
                             True, [0], 1)


def err_convolution_weight_rank():
    # raises: weight should have at least three dimensions
    return torch.convolution(torch.zeros(2, 4, 5), torch.zeros(4, 6), None, [1], [0], [1], True,
                             [0], 1)


def err_convolution_groups():
    # raises: non-positive groups is not supported
    return torch.convolution(torch.zeros(2, 4, 5), torch.zeros(4, 4, 3), None, [1], [0], [1],
                             False, [0], 0)


if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
