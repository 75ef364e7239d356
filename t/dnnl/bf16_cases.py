# t/dnnl/bf16_cases.py — what aten-dnnl runs on oneDNN in bfloat16, printed for
# t/dnnl_bf16.sh to compare with PyTorch 1.13's own bfloat16 results (t/dnnl/bf16cmp.py: a
# bfloat16 result may differ from another by a rounding of its last bit, so the comparison
# is relative 1e-2 with a floor scaled to the result's magnitude): convolutions 1-d, 2-d
# (groups, depthwise, stride, dilation, "same" padding, channels-last, fused with the relu
# or relu6 after them) and 3-d, transposed ones (against float32 rounded once: see
# transposed), batch_norm in inference (bfloat16
# parameters and float32 ones, PyTorch's mixed batch norm) and fused with its relu,
# max_pool2d; the matrix products: linear with and without bias (batched input too), matmul
# 2-d, 3-d batched, 3-d by 2-d and 1-d, bmm, mm, addmm with a bias row, alpha and beta, a
# linear's weight read another way and changed in place (oneDNN's reordered copy); and
# the err_* functions, the mixed dtypes PyTorch refuses, with its messages (t/cases.sh).
#     /usr/bin/python3 t/dnnl/bf16_cases.py        prints PyTorch's
from typing import List, Optional

import torch
import torch.nn.functional as F


def data(shape: List[int], seed: int) -> torch.Tensor:
    """Values in [-1, 1) that look random, the same everywhere, as bfloat16."""
    n = 1
    for s in shape:
        n *= s
    i = torch.arange(n, dtype=torch.float64) + seed * 1000.0
    v = (torch.cos(i * 3.7191 + seed) * 9301.733).frac().abs() * 2 - 1
    return v.view(shape).to(device="cpu", dtype=torch.bfloat16)


def show(name: str, y: torch.Tensor):
    """The shape, whether the result is bfloat16, the sum of magnitudes and up to ~200 of
    the elements, every step-th in order."""
    flat = y.double().flatten()
    step = flat.numel() // 200 + 1
    v: List[float] = flat[::step].tolist()
    print(name, y.shape, y.dtype == torch.bfloat16, flat.abs().sum().item(), v)


def conv_cases():
    x = data([2, 4, 10], 1)
    show("conv1d", F.conv1d(x, data([6, 4, 3], 2), data([6], 3), 1, 1))
    show("conv1d_same_dil", F.conv1d(x, data([5, 4, 4], 5), None, padding="same", dilation=3))
    x2 = data([2, 8, 9, 10], 6)
    w2 = data([16, 8, 3, 3], 7)
    b2 = data([16], 8)
    show("conv2d_3x3", F.conv2d(x2, w2, b2, 1, 1))
    show("conv2d_stride_pad_dil", F.conv2d(x2, w2, b2, (2, 1), (1, 2), (2, 1)))
    show("conv2d_groups", F.conv2d(x2, data([6, 4, 3, 2], 13), data([6], 14), 1, 1, 1, 2))
    show("conv2d_depthwise", F.conv2d(x2, data([8, 1, 3, 3], 15), data([8], 16), 2, 1, 1, 8))
    show("conv2d_1x1", F.conv2d(x2, data([5, 8, 1, 1], 18), None))
    show("conv2d_same", F.conv2d(x2, data([4, 8, 4, 2], 22), None, padding="same"))
    show("conv2d_valid", F.conv2d(x2, w2, None, padding="valid"))
    show("conv2d_unbatched", F.conv2d(x2[1], w2, b2, 1, 1))
    xl = data([2, 9, 10, 8], 23).permute(0, 3, 1, 2)
    show("conv2d_channels_last", F.conv2d(xl, w2, b2, 1, 1))
    show("conv2d_7x7_s2", F.conv2d(data([1, 3, 30, 28], 20), data([16, 3, 7, 7], 21), None, 2, 3))
    show("conv3d", F.conv3d(data([1, 4, 5, 6, 7], 30), data([6, 4, 3, 3, 3], 31), data([6], 32),
                            1, 1))
    show("conv3d_stride_groups", F.conv3d(data([2, 4, 6, 6, 5], 33), data([4, 2, 2, 3, 3], 34),
                                          None, 2, 1, 1, 2))


def transposed(x: torch.Tensor, w: torch.Tensor, b: Optional[torch.Tensor], stride: int,
               padding: List[int], out_pad: int, groups: int, dilation: int, ref: bool):
    """conv_transpose{1,2}d in bfloat16; the reference: float32 of the same values, rounded
    once (PyTorch 1.13's own bfloat16 transposed convolution on the cpu computes a forward
    one: a result of the wrong shape, or an error)."""
    if ref:
        bf = b.float() if b is not None else None
        if x.dim() == 3:
            y = F.conv_transpose1d(x.float(), w.float(), bf, stride, padding, out_pad, groups,
                                   dilation)
        else:
            y = F.conv_transpose2d(x.float(), w.float(), bf, stride, padding, out_pad, groups,
                                   dilation)
        return y.to(torch.bfloat16)
    if x.dim() == 3:
        return F.conv_transpose1d(x, w, b, stride, padding, out_pad, groups, dilation)
    return F.conv_transpose2d(x, w, b, stride, padding, out_pad, groups, dilation)


def transposed_cases(ref: bool):
    xt = data([2, 6, 5, 7], 40)
    show("conv_transpose2d", transposed(xt, data([6, 4, 3, 3], 41), data([4], 42), 2, [1, 1], 1,
                                        1, 1, ref))
    show("conv_transpose2d_groups_dil", transposed(xt, data([6, 2, 3, 2], 43), None, 1, [1, 0],
                                                   0, 3, 2, ref))
    show("conv_transpose1d", transposed(data([2, 4, 10], 1), data([4, 3, 5], 44), None, 3, [2],
                                        1, 1, 1, ref))


def fused_cases():
    # the pass makes these dnnl::conv and dnnl::batch_norm nodes
    x = data([2, 8, 12, 12], 50)
    w = data([16, 8, 3, 3], 51)
    b = data([16], 52)
    show("fused_conv_relu", F.relu(F.conv2d(x, w, b, 1, 1)))
    show("fused_conv_relu6", F.hardtanh(F.conv2d(x, w, b, 2, 1), 0.0, 6.0))
    y = F.conv2d(F.relu(F.conv2d(x, data([16, 8, 3, 3], 54), b, 1, 1)), data([8, 16, 1, 1], 53),
                 None)
    show("fused_chain", F.max_pool2d(F.relu(y), 3, 2, 1))


def norm_cases():
    x = data([2, 6, 5, 7], 60)
    rm = data([6], 61)
    rv = data([6], 62).abs() + 0.5
    w = data([6], 63)
    b = data([6], 64)
    show("batch_norm", F.batch_norm(x, rm, rv, w, b, False, 0.1, 1e-5))
    show("batch_norm_float_params", F.batch_norm(x, rm.float(), rv.float(), w.float(), b.float(),
                                                 False, 0.1, 1e-5))
    show("batch_norm_no_affine", F.batch_norm(x, rm, rv, None, None, False, 0.1, 1e-3))
    xl = data([2, 5, 7, 6], 65).permute(0, 3, 1, 2)
    show("batch_norm_channels_last_relu", F.relu(F.batch_norm(xl, rm, rv, w, b, False, 0.1,
                                                              1e-5)))
    show("max_pool2d", F.max_pool2d(x, 3, 2, 1))
    show("max_pool2d_ceil_dil", F.max_pool2d(x, 2, 2, 0, 2, True))
    show("max_pool2d_channels_last", F.max_pool2d(xl, 2))


def matmul_cases():
    x = data([5, 24], 70)
    w = data([12, 24], 71)
    b = data([12], 72)
    show("linear", F.linear(x, w, b))
    show("linear_no_bias", F.linear(x, w))
    show("linear_batched", F.linear(data([2, 3, 24], 73), w, b))
    show("linear_row", F.linear(data([24], 74), w, b))
    show("linear_permuted", F.linear(data([3, 2, 24], 85).transpose(0, 1), w, b))
    show("matmul_2d", torch.matmul(x, data([24, 9], 75)))
    show("matmul_3d", torch.matmul(data([3, 5, 24], 76), data([3, 24, 9], 77)))
    show("matmul_3d_2d", torch.matmul(data([3, 5, 24], 76), data([24, 9], 75)))
    show("matmul_2d_1d", torch.matmul(x, data([24], 78)))
    show("matmul_transposed", torch.matmul(x, data([9, 24], 79).t()))
    show("bmm", torch.bmm(data([4, 6, 8], 80), data([4, 8, 7], 81)))
    show("mm", torch.mm(x, data([24, 9], 75)))
    show("addmm", torch.addmm(data([9], 82), x, data([24, 9], 75)))
    show("addmm_alpha_beta", torch.addmm(data([5, 9], 83), x, data([24, 9], 75), beta=0.5,
                                         alpha=2.0))
    show("addmm_column", torch.addmm(data([5, 1], 84), x, data([24, 9], 75), beta=1.5))


def weight_cases():
    # a linear's weight is reordered once and kept: the same storage read another way (a
    # product by it, not by its transpose) and changed in place must give the new results
    w = data([16, 16], 90)
    x = data([6, 16], 91)
    show("linear_weight", F.linear(x, w))
    show("mm_of_that_weight", torch.mm(x, w))
    w.mul_(-2.0)
    show("linear_weight_changed", F.linear(x, w))


def attention_cases():
    # the fused fast paths (attention.c): self-attention without weights, with a key padding
    # mask and without, and the encoder layer, norm first or last, relu or gelu
    E, H = 16, 4
    x = data([2, 6, E], 100)
    qw = data([3 * E, E], 101) * 0.5
    qb = data([3 * E], 102)
    pw = data([E, E], 103) * 0.5
    pb = data([E], 104)
    kpm = torch.tensor([[False, False, False, False, True, True],
                        [False, False, False, False, False, False]])
    o, w = torch._native_multi_head_attention(x, x, x, E, H, qw, qb, pw, pb, None, False)
    show("mha", o)
    o, w = torch._native_multi_head_attention(x, x, x, E, H, qw, qb, pw, pb, kpm, False, True, 1)
    show("mha_key_padding", o)
    n1w, n1b, n2w, n2b = data([E], 105) + 1, data([E], 106), data([E], 107) + 1, data([E], 108)
    f1w, f1b, f2w, f2b = data([32, E], 109) * 0.5, data([32], 110), data([E, 32], 111) * 0.5, data([E], 112)
    for gelu in [False, True]:
        for norm_first in [False, True]:
            y = torch._transformer_encoder_layer_fwd(x, E, H, qw, qb, pw, pb, gelu, norm_first,
                                                     1e-5, n1w, n1b, n2w, n2b, f1w, f1b, f2w,
                                                     f2b, kpm if gelu else None,
                                                     1 if gelu else None)
            show("encoder_layer_gelu_" + str(gelu) + "_norm_first_" + str(norm_first), y)


def main(ref: bool = False):
    conv_cases()
    transposed_cases(ref)
    fused_cases()
    norm_cases()
    matmul_cases()
    weight_cases()
    attention_cases()


def err_conv_bias_dtype():
    # raises: Input type (c10::BFloat16) and bias type (float) should be the same
    return F.conv2d(data([1, 4, 5, 5], 1), data([6, 4, 3, 3], 2), data([6], 3).float())


def err_linear_weight_dtype():
    # raises: expected scalar type BFloat16 but found Float
    return F.linear(data([2, 3], 1), data([4, 3], 2).float())


def err_mm_dtype():
    # raises: expected scalar type BFloat16 but found Float
    return torch.mm(data([2, 3], 1), data([3, 4], 2).float())


if __name__ == "__main__":
    torch.jit.script(main)(True)
