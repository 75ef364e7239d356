# t/dnnl/cases.py — the convolutions aten-dnnl runs on oneDNN, printed to full precision for
# t/dnnl.sh to compare: with aten-dnnl, without it (aten-cpu's im2col + GEMM) and under
# PyTorch 1.13, at rel 1e-4 (t/outcmp.py). A table of shapes: conv1d/2d/3d with stride,
# padding (ints, "same" with an odd total, "valid"), dilation, groups (depthwise too), bias or
# none, the 3x3 convolutions Winograd's algorithm takes, transposed ones with output_padding
# and dilation, the generic convolution of traced models, channels-last, strided and
# unbatched inputs, a zero batch, float64 (which aten-cpu keeps), and weights changed in place
# between two calls (through a view too), which must give the new result; then what the
# plugin's pass fuses (a convolution or a batch norm and the relu or relu6 after it, and what
# it must not: a result used twice, another clamp), batch_norm in inference (in place only on
# a result nobody else holds) and in training (aten-cpu's, the running stats updated),
# max_pool2d (ceil_mode, dilation, channels-last, a nan, which aten-cpu takes), and a chain of
# convolutions the pass runs channels-last inside, whose results keep PyTorch's strides; and
# the same convolutions on several threads at once.
#     /usr/bin/python3 t/dnnl/cases.py        prints PyTorch's
from typing import List

import torch
import torch.nn.functional as F


def data(shape: List[int], seed: int) -> torch.Tensor:
    """Values in [-1, 1) that look random, the same everywhere (no generator involved)."""
    n = 1
    for s in shape:
        n *= s
    i = torch.arange(n, dtype=torch.float64) + seed * 1000.0
    v = (torch.cos(i * 3.7191 + seed) * 9301.733).frac().abs() * 2 - 1
    # float32 on the cpu, as the optimizer can see: aten-dnnl's pass then fuses
    return v.view(shape).to(device="cpu", dtype=torch.float32)


def show(name: str, y: torch.Tensor):
    """The shape, the sum and up to ~200 of the elements, every step-th in order."""
    flat = y.double().flatten()
    step = flat.numel() // 200 + 1
    v: List[float] = flat[::step].tolist()
    print(name, y.shape, flat.sum().item(), v)


def conv1d_cases():
    x = data([2, 4, 10], 1)
    w = data([6, 4, 3], 2)
    b = data([6], 3)
    show("conv1d", F.conv1d(x, w, b, 1, 1))
    show("conv1d_stride_dil_groups", F.conv1d(x, data([6, 2, 3], 4), None, 2, 2, 2, 2))
    show("conv1d_same", F.conv1d(x, data([5, 4, 4], 5), b[:5], padding="same", dilation=3))
    show("conv1d_valid", F.conv1d(x, w, b, padding="valid"))
    show("conv1d_unbatched", F.conv1d(x[0], w, b, 1, 2))


def conv2d_cases():
    x = data([2, 3, 9, 10], 6)
    w = data([8, 3, 3, 3], 7)
    b = data([8], 8)
    show("conv2d_3x3", F.conv2d(x, w, b, 1, 1))
    xw = data([1, 16, 16, 16], 9)
    ww = data([32, 16, 3, 3], 10)
    show("conv2d_3x3_winograd", F.conv2d(xw, ww, data([32], 11), padding=1))
    show("conv2d_3x3_winograd_nopad", F.conv2d(xw, ww))
    show("conv2d_stride_pad_dil", F.conv2d(x, w, b, (2, 1), (1, 2), (2, 1)))
    xg = data([2, 8, 7, 9], 12)
    show("conv2d_groups", F.conv2d(xg, data([6, 4, 3, 2], 13), data([6], 14), 1, 1, 1, 2))
    show("conv2d_depthwise", F.conv2d(xg, data([8, 1, 3, 3], 15), data([8], 16), 2, 1, 1, 8))
    show("conv2d_depthwise_x2", F.conv2d(xg, data([16, 1, 5, 5], 17), None, 1, 2, 1, 8))
    show("conv2d_1x1", F.conv2d(xg, data([5, 8, 1, 1], 18), data([5], 19)))
    show("conv2d_7x7_s2", F.conv2d(data([1, 3, 30, 28], 20), data([4, 3, 7, 7], 21), None, 2, 3))
    show("conv2d_same_even_kernel", F.conv2d(x, data([4, 3, 4, 2], 22), None, padding="same"))
    show("conv2d_valid", F.conv2d(x, w, None, padding="valid"))
    show("conv2d_unbatched", F.conv2d(x[1], w, b, 1, 1))


def layout_cases():
    w = data([8, 3, 3, 3], 7)
    b = data([8], 8)
    # channels-last: the storage holds [n, h, w, c]
    xl = data([2, 9, 10, 3], 23).permute(0, 3, 1, 2)
    show("conv2d_channels_last", F.conv2d(xl, w, b, 1, 1))
    show("conv2d_channels_last_s2", F.conv2d(xl, w, b, 2, 0))
    wl = data([8, 3, 3, 3], 24).permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2)
    show("conv2d_channels_last_weight", F.conv2d(data([2, 3, 9, 10], 6), wl, b, 1, 1))
    # strided: every other column, a transposed image, a strided bias and weight
    xs = data([2, 3, 9, 20], 25)[:, :, :, ::2]
    show("conv2d_strided_input", F.conv2d(xs, w, b, 1, 1))
    xt = data([2, 3, 10, 9], 26).transpose(2, 3)
    show("conv2d_transposed_input", F.conv2d(xt, w, data([16], 27)[::2], 1, 1))
    wt = data([8, 3, 3, 3], 28).transpose(2, 3)
    show("conv2d_transposed_weight", F.conv2d(xt, wt, None, 1, 1))
    show("conv2d_zero_batch", F.conv2d(data([0, 3, 9, 10], 6), w, b, 1, 1))
    show("conv2d_float64", F.conv2d(data([2, 3, 9, 10], 6).double(), w.double(), b.double(), 1, 1))


def conv3d_cases():
    x = data([1, 4, 5, 6, 7], 29)
    show("conv3d", F.conv3d(x, data([6, 2, 3, 2, 3], 30), data([6], 31), (1, 2, 1), (1, 0, 2),
                            (2, 1, 1), 2))
    show("conv3d_same", F.conv3d(x, data([3, 4, 2, 3, 3], 32), None, padding="same"))
    show("conv3d_unbatched", F.conv3d(x[0], data([3, 4, 3, 3, 3], 33), None, 1, 1))


def transposed_cases():
    x1 = data([2, 4, 7], 34)
    show("conv_transpose1d", F.conv_transpose1d(x1, data([4, 3, 3], 35), data([3], 36), 2, 1, 1))
    show("conv_transpose1d_unbatched", F.conv_transpose1d(x1[1], data([4, 3, 3], 35), None, 3))
    x2 = data([2, 4, 5, 6], 37)
    w2 = data([4, 3, 3, 3], 38)
    show("conv_transpose2d", F.conv_transpose2d(x2, w2, data([3], 39), 2, 1, 1))
    show("conv_transpose2d_groups", F.conv_transpose2d(x2, data([4, 2, 3, 2], 40), data([4], 41),
                                                       (2, 3), (1, 0), (1, 2), 2))
    show("conv_transpose2d_dilation", F.conv_transpose2d(x2, w2, None, 2, 2, 1, 1, 2))
    x3 = data([1, 4, 3, 4, 5], 42)
    show("conv_transpose3d", F.conv_transpose3d(x3, data([4, 2, 2, 3, 3], 43), data([2], 44),
                                                2, 1, (1, 0, 1)))


def generic_cases():
    x = data([2, 3, 9, 10], 6)
    w = data([8, 3, 3, 3], 7)
    b = data([8], 8)
    show("convolution", torch.convolution(x, w, b, [1, 2], [1, 1], [1, 1], False, [0, 0], 1))
    show("_convolution", torch._convolution(x, w, None, [2], [0], [1], False, [0], 1, False,
                                            False, True, True))
    wt = data([3, 2, 3, 3], 45)
    show("convolution_transposed", torch.convolution(x, wt, None, [2, 2], [1, 1], [1, 1], True,
                                                     [1, 0], 1))


def inplace_cases():
    x = data([1, 4, 8, 8], 46)
    w = data([6, 4, 3, 3], 47)
    b = data([6], 48)
    show("weight_before", F.conv2d(x, w, b, 1, 1))
    w.mul_(2)
    show("weight_after_mul_", F.conv2d(x, w, b, 1, 1))
    w[2].fill_(0.25)
    show("weight_after_view_fill_", F.conv2d(x, w, b, 1, 1))
    with torch.no_grad():
        w.copy_(data([6, 4, 3, 3], 49))
    show("weight_after_copy_", F.conv2d(x, w, b, 1, 1))
    b.add_(1)
    show("bias_after_add_", F.conv2d(x, w, b, 1, 1))
    wt = data([4, 3, 3, 3], 50)
    show("transposed_before", F.conv_transpose2d(x, wt, None, 2))
    wt.neg_()
    show("transposed_after_neg_", F.conv_transpose2d(x, wt, None, 2))


def fused_cases():
    x = data([2, 4, 9, 10], 51)
    w = data([6, 4, 3, 3], 52)
    b = data([6], 53)
    show("conv2d_relu", F.relu(F.conv2d(x, w, b, 1, 1)))
    show("conv2d_relu_", torch.relu_(F.conv2d(x, w, None, 2, 1)))
    show("conv2d_relu6", F.relu6(F.conv2d(x, w, b, 1, 0)))
    show("conv2d_hardtanh_0_6", F.hardtanh(F.conv2d(x, w * 2, b, 1, 1), 0.0, 6.0))
    show("conv2d_hardtanh_other", F.hardtanh(F.conv2d(x, w * 3, b, 1, 1), -1.0, 1.0))
    show("conv1d_relu", F.relu(F.conv1d(x[:, :, 0], data([5, 4, 3], 54), None, 1, 1)))
    show("conv3d_relu", F.relu(F.conv3d(x.unsqueeze(2), data([3, 4, 1, 3, 3], 55), None, 1,
                                        (0, 1, 1))))
    shared = F.conv2d(x, w * 4, b, 1, 1)
    show("conv2d_shared_relu", F.relu(shared) + shared)
    xl = data([2, 9, 10, 4], 56).permute(0, 3, 1, 2)
    show("conv2d_relu_channels_last", F.relu(F.conv2d(xl, w, b, 1, 1)))
    show("conv2d_relu_float64", F.relu(F.conv2d(x.double(), w.double(), b.double(), 1, 1)))
    show("conv2d_relu_unbatched", F.relu(F.conv2d(x[0], w, b, 1, 1)))


def norm_cases():
    x = data([2, 6, 5, 7], 57)
    rm = data([6], 58)
    rv = data([6], 59).abs() + 0.5
    g = data([6], 60)
    be = data([6], 61)
    show("batch_norm", F.batch_norm(x, rm, rv, g, be, False, 0.1, 1e-5))
    show("batch_norm_relu", F.relu(F.batch_norm(x, rm, rv, g, be, False, 0.1, 1e-3)))
    show("batch_norm_relu6_", F.relu6(F.batch_norm(x * 4, rm, rv, None, None, False), True))
    xl = data([2, 5, 7, 6], 62).permute(0, 3, 1, 2)
    show("batch_norm_channels_last", F.relu(F.batch_norm(xl, rm, rv, g, be, False)))
    show("batch_norm_1d", F.relu(F.batch_norm(x[:, :, 0], rm, rv, g, be, False)))
    show("batch_norm_float64", F.relu(F.batch_norm(x.double(), rm.double(), rv.double(), None,
                                                   None, False)))
    y = F.batch_norm(x, rm, rv, g, be, False)
    show("batch_norm_input_kept", x)
    show("batch_norm_of_conv_relu", F.relu(F.batch_norm(F.conv2d(x, data([6, 6, 1, 1], 63)),
                                                         rm, rv, g, be, False)) + y)
    trm = rm.clone()
    trv = rv.clone()
    show("batch_norm_training_relu", F.relu(F.batch_norm(x, trm, trv, g, be, True, 0.1)))
    show("batch_norm_training_stats", torch.cat([trm, trv]))


def pool_cases():
    x = data([2, 3, 11, 12], 64)
    show("max_pool2d", F.max_pool2d(x, 3, 2, 1))
    show("max_pool2d_ceil", F.max_pool2d(x, 3, 2, 0, 1, True))
    show("max_pool2d_ceil_pad", F.max_pool2d(x, (3, 2), (2, 3), (1, 1), 1, True))
    show("max_pool2d_dilation", F.max_pool2d(x, 2, 1, 1, 2))
    show("max_pool2d_default_stride", F.max_pool2d(x, 2))
    show("max_pool2d_unbatched", F.max_pool2d(x[1], 3, 2, 1))
    xl = data([2, 11, 12, 3], 65).permute(0, 3, 1, 2)
    show("max_pool2d_channels_last", F.max_pool2d(xl, 3, 2, 1))
    xn = x.clone()
    xn[1, 2, 5, 5] = float("nan")
    show("max_pool2d_nan", F.max_pool2d(xn, 3, 2, 1))
    show("max_pool2d_float64", F.max_pool2d(x.double(), 3, 2, 1))


def chain_cases():
    # a chain the pass runs channels-last inside (nothing outside it sees the layout): the
    # result is contiguous as in PyTorch
    x = data([1, 8, 12, 12], 66)
    rm = data([16], 67)
    rv = data([16], 68).abs() + 0.5
    y = F.relu(F.batch_norm(F.conv2d(x, data([16, 8, 1, 1], 69)), rm, rv, None, None, False))
    y = F.max_pool2d(y, 2)
    y = F.relu6(F.conv2d(y, data([16, 1, 3, 3], 70), None, 1, 1, 1, 16) * 4)
    y = F.conv2d(F.relu(F.conv2d(y, data([16, 16, 1, 1], 71))), data([16, 16, 3, 3], 72),
                 None, 1, 1)
    z = F.conv2d(F.relu(y), data([8, 16, 1, 1], 73))
    show("chain", z)
    print("chain_strides", z.stride(), y.stride())


def forked_block(x: torch.Tensor, w: torch.Tensor, rm: torch.Tensor,
                 rv: torch.Tensor) -> torch.Tensor:
    y = F.relu(F.batch_norm(F.conv2d(x, w, None, 1, 1), rm, rv, None, None, False))
    return F.max_pool2d(F.relu(F.conv2d(y, w, None, 1, 1)), 2)


def fork_cases():
    # the same convolutions on several threads at once (fork/wait): the caches and the
    # thread team shared
    w = data([8, 8, 3, 3], 74)
    rm = data([8], 75)
    rv = data([8], 76).abs() + 0.5
    futures: List[torch.jit.Future[torch.Tensor]] = []
    for i in range(6):
        futures.append(torch.jit.fork(forked_block, data([2, 8, 10, 10], 77 + i), w, rm, rv))
    for i in range(6):
        show("forked_" + str(i), torch.jit.wait(futures[i]))


def main():
    conv1d_cases()
    conv2d_cases()
    layout_cases()
    conv3d_cases()
    transposed_cases()
    generic_cases()
    inplace_cases()
    fused_cases()
    norm_cases()
    pool_cases()
    chain_cases()
    fork_cases()


def err_fused_conv_weight_dtype():
    # raises: expected scalar type Float but found Double
    return F.relu(F.conv2d(data([1, 4, 5, 5], 1), data([6, 4, 3, 3], 2).double()))


if __name__ == "__main__":
    torch.jit.script(main)()
