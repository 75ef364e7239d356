# cuda_linalg.py — aten-cuda's matrix products (cuBLAS) and the layers built on them:
# mm, bmm, addmm, baddbmm, matmul's rank cases, linear, dot, mv, conv1d/conv2d, the pools,
# embedding and the LSTM and GRU cells. Run once with default_backend: cpu and once with
# cuda (t/aten_cuda.sh compares the numbers); PyTorch prints the same on the cpu.
import torch
from typing import List


def show(name: str, t: torch.Tensor):
    values: List[float] = t.to(torch.float64).cpu().flatten().tolist()
    print(name, t.dtype, t.shape, values)


def seq(n: int, scale: float) -> torch.Tensor:
    """n values in [-1, 1) that do not repeat in a short period."""
    return (torch.arange(n).to(torch.float32) * 0.37).sin() * scale


def exact(n: int) -> torch.Tensor:
    """n small multiples of 0.25: products and short sums are exact even in float16."""
    return (torch.remainder(torch.arange(n), 7) - 3).to(torch.float32) * 0.25


def products():
    a = seq(12, 1.0).view(3, 4)
    b = seq(20, 0.5).view(4, 5)
    show("mm", torch.mm(a, b))
    show("mm_f64", torch.mm(a.double(), b.double()))
    show("mm_t", torch.mm(b.t(), a.t()))
    show("mm_strided", torch.mm(seq(24, 1.0).view(3, 8)[:, ::2], b))
    show("mm_rowvec", torch.mm(a[1:2], b))
    show("mm_colvec", torch.mm(a, b[:, 2:3]))
    show("mm_empty_k", torch.mm(torch.ones([3, 0]), torch.ones([0, 4])))
    show("mm_expanded", torch.mm(seq(4, 1.0).view(1, 4).expand(3, 4), b))
    x = seq(24, 1.0).view(2, 3, 4)
    y = seq(40, 0.5).view(2, 4, 5)
    show("bmm", torch.bmm(x, y))
    show("bmm_t", torch.bmm(y.transpose(1, 2), x.transpose(1, 2)))
    show("bmm_permuted", torch.bmm(seq(24, 1.0).view(3, 2, 4).permute(1, 0, 2), y))
    bias = seq(5, 2.0)
    show("addmm", torch.addmm(bias, a, b))
    show("addmm_scaled", torch.addmm(seq(15, 1.0).view(3, 5), a, b, beta=0.5, alpha=2.0))
    show("addmm_beta0", torch.addmm(torch.full([3, 5], float("nan")), a, b, beta=0.0))
    show("addmm_empty_k", torch.addmm(bias, torch.ones([3, 0]), torch.ones([0, 5]), beta=2.0))
    c = seq(15, 1.0).view(3, 5)
    c.addmm_(a, b, beta=0.25)
    show("addmm_", c)
    show("baddbmm", torch.baddbmm(seq(30, 1.0).view(2, 3, 5), x, y, beta=0.5, alpha=-1.5))
    show("baddbmm_bcast", torch.baddbmm(bias, x, y))
    v = seq(4, 1.0)
    show("dot", torch.dot(v, seq(4, 0.5) + 1))
    show("vdot", torch.vdot(v, v))
    show("mv", torch.mv(a, v))
    show("mv_t", torch.mv(b.t(), seq(4, 1.0)))


def matmuls():
    v4 = seq(4, 1.0)
    a = seq(12, 1.0).view(3, 4)
    b = seq(20, 0.5).view(4, 5)
    x = seq(24, 1.0).view(2, 3, 4)
    y = seq(40, 0.5).view(2, 4, 5)
    show("matmul_1d_1d", torch.matmul(v4, v4))
    show("matmul_2d_1d", torch.matmul(a, v4))
    show("matmul_1d_2d", torch.matmul(v4, b))
    show("matmul_2d_2d", torch.matmul(a, b))
    show("matmul_3d_2d", torch.matmul(x, b))
    show("matmul_3d_1d", torch.matmul(x, v4))
    show("matmul_1d_3d", torch.matmul(v4, y))
    show("matmul_2d_3d", torch.matmul(a, y))
    show("matmul_3d_3d", torch.matmul(x, y))
    show("matmul_bcast", torch.matmul(seq(48, 1.0).view(2, 1, 6, 4), seq(60, 0.5).view(3, 4, 5)))
    show("matmul_bcast1", torch.matmul(x[0:1], y))
    z = seq(72, 1.0).view(3, 2, 3, 4).transpose(0, 1)
    show("matmul_nofold", torch.matmul(z, b))
    show("matmul_nofold_b", torch.matmul(a, seq(60, 0.5).view(4, 3, 5).permute(1, 0, 2)))
    show("matmul_rows1", torch.matmul(seq(8, 1.0).view(2, 1, 4), b))
    show("matmul_op", x @ b)
    w = seq(20, 0.5).view(5, 4)
    show("linear", torch.nn.functional.linear(a, w, seq(5, 1.0)))
    show("linear_nobias", torch.nn.functional.linear(x, w))
    show("linear_3d", torch.nn.functional.linear(x, w, seq(5, 1.0)))
    show("linear_1d", torch.nn.functional.linear(v4, w, seq(5, 1.0)))
    show("linear_f64", torch.nn.functional.linear(x.double(), w.double(), seq(5, 1.0).double()))


def halves():
    a = exact(24).view(4, 6)
    b = exact(18).view(6, 3)
    bias = exact(3)
    ah, bh, ch = a.half(), b.half(), bias.half()
    if ah.is_cuda:
        show("mm_f16", torch.mm(ah, bh))
        show("linear_f16", torch.nn.functional.linear(ah, bh.t(), ch))
        show("bmm_f16", torch.bmm(ah.view(2, 2, 6), bh.view(1, 6, 3).expand(2, 6, 3)))
    else:
        show("mm_f16", torch.mm(a, b).half())
        show("linear_f16", torch.nn.functional.linear(a, b.t(), bias).half())
        show("bmm_f16", torch.bmm(a.view(2, 2, 6), b.view(1, 6, 3).expand(2, 6, 3)).half())


def convs():
    F = torch.nn.functional
    x = seq(2 * 4 * 7 * 6, 1.0).view(2, 4, 7, 6)
    w = seq(3 * 4 * 3 * 3, 0.5).view(3, 4, 3, 3)
    bias = seq(3, 1.0)
    show("conv2d", F.conv2d(x, w))
    show("conv2d_bias", F.conv2d(x, w, bias, stride=2, padding=1))
    show("conv2d_dilation", F.conv2d(x, w, bias, padding=[2, 1], dilation=[2, 1]))
    show("conv2d_stride_hw", F.conv2d(x, w, None, stride=[1, 2], padding=[0, 1]))
    show("conv2d_groups", F.conv2d(x, seq(6 * 2 * 2 * 3, 0.5).view(6, 2, 2, 3), seq(6, 1.0),
                                   groups=2))
    show("conv2d_depthwise", F.conv2d(x, seq(4 * 3 * 3, 0.5).view(4, 1, 3, 3), None,
                                      padding=1, groups=4))
    show("conv2d_unbatched", F.conv2d(x[0], w, bias, padding=1))
    show("conv2d_noncontig", F.conv2d(x.transpose(2, 3), w, bias))
    show("conv2d_f64", F.conv2d(x.double(), w.double(), bias.double(), padding=1))
    show("conv2d_1x1", F.conv2d(x, seq(5 * 4, 0.5).view(5, 4, 1, 1)))
    show("convolution", torch.convolution(x, w, bias, [1, 1], [1, 1], [1, 1], False, [0, 0], 1))
    x1 = seq(2 * 4 * 9, 1.0).view(2, 4, 9)
    w1 = seq(6 * 4 * 3, 0.5).view(6, 4, 3)
    show("conv1d", F.conv1d(x1, w1, seq(6, 1.0), stride=2, padding=1))
    show("conv1d_groups", F.conv1d(x1, seq(4 * 2 * 3, 0.5).view(4, 2, 3), None, groups=2,
                                   dilation=2))


def pools():
    F = torch.nn.functional
    x = seq(2 * 3 * 7 * 6, 1.0).view(2, 3, 7, 6)
    show("max_pool2d", F.max_pool2d(x, 2))
    show("max_pool2d_pad", F.max_pool2d(x, 3, stride=2, padding=1))
    show("max_pool2d_ceil", F.max_pool2d(x, [3, 2], stride=[2, 2], ceil_mode=True))
    show("max_pool2d_dil", F.max_pool2d(x, 2, stride=1, dilation=2))
    show("max_pool2d_3d", F.max_pool2d(x[0], 2))
    show("avg_pool2d", F.avg_pool2d(x, 2))
    show("avg_pool2d_pad", F.avg_pool2d(x, 3, stride=2, padding=1))
    show("avg_pool2d_nopad", F.avg_pool2d(x, 3, stride=2, padding=1, count_include_pad=False))
    show("avg_pool2d_ceil", F.avg_pool2d(x, 3, stride=2, ceil_mode=True))
    show("avg_pool2d_div", F.avg_pool2d(x, 2, divisor_override=3))
    show("adaptive_avg", F.adaptive_avg_pool2d(x, [3, 4]))
    show("adaptive_avg_1", F.adaptive_avg_pool2d(x, 1))
    show("adaptive_avg_up", F.adaptive_avg_pool2d(x[0], [9, 8]))
    show("pool_f64", F.max_pool2d(x.double().transpose(2, 3), 2))


def layers():
    F = torch.nn.functional
    w = seq(10 * 4, 1.0).view(10, 4)
    idx = torch.tensor([[0, 3, 9], [2, 2, 5]])
    show("embedding", F.embedding(idx, w))
    show("embedding_int", F.embedding(idx.to(torch.int32), w.double()))
    show("embedding_t", F.embedding(torch.tensor([1, 0, 3]), w.t()))
    x = seq(3 * 5, 1.0).view(3, 5)
    h = seq(3 * 4, 0.5).view(3, 4)
    c = seq(3 * 4, 0.8).view(3, 4) + 0.1
    w_ih = seq(16 * 5, 0.4).view(16, 5)
    w_hh = seq(16 * 4, 0.3).view(16, 4) + 0.05
    b_ih = seq(16, 0.2)
    b_hh = seq(16, 0.1) - 0.05
    hy, cy = torch.lstm_cell(x, [h, c], w_ih, w_hh, b_ih, b_hh)
    show("lstm_h", hy)
    show("lstm_c", cy)
    hy2, cy2 = torch.lstm_cell(x, [h, c], w_ih, w_hh)
    show("lstm_nobias_h", hy2)
    show("lstm_nobias_c", cy2)
    g_ih = seq(12 * 5, 0.4).view(12, 5)
    g_hh = seq(12 * 4, 0.3).view(12, 4) - 0.05
    show("gru", torch.gru_cell(x, h, g_ih, g_hh, seq(12, 0.2), seq(12, 0.1)))
    show("gru_nobias", torch.gru_cell(x, h, g_ih, g_hh))
    show("gru_f64", torch.gru_cell(x.double(), h.double(), g_ih.double(), g_hh.double()))


def main():
    products()
    matmuls()
    halves()
    convs()
    pools()
    layers()
