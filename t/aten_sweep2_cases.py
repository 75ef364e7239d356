# t/aten_sweep2_cases.py — the second sweep's finds in aten-cpu: the dtypes PyTorch 1.13's
# cpu kernels lack for reductions, scans, selections, rounding, silu/gelu, lerp and the
# average pools (each fails with the kernel's name), bfloat16 matrix products, and the
# element types prim::tolist accepts. The test_* functions assert PyTorch 1.13's results;
# each err_* function fails with the message in its `# raises:` line.
# t/aten_sweep2_cases.sh runs both kinds through tscript; they behave the same under PyTorch:
#     /usr/bin/python3 t/aten_sweep2_cases.py     (scripts and runs each one)
from typing import List

import torch
import torch.nn.functional as F


def test_reduce_dtype_casts_first():
    h = torch.tensor([[1.5, 2.0], [0.5, -1.0]], dtype=torch.float16)
    # dtype= casts before the kernel is chosen, so float16 input is fine
    assert torch.equal(h.prod(dtype=torch.float32), torch.tensor(1.5 * 2.0 * 0.5 * -1.0))
    assert torch.equal(h.cumsum(0, dtype=torch.float32), torch.tensor([[1.5, 2.0], [2.0, 1.0]]))
    assert torch.equal(h.log_softmax(1, dtype=torch.float32).exp().sum(1).round(),
                       torch.ones(2))
    b = h.to(torch.bfloat16)
    assert torch.allclose(b.logsumexp(1).float(), torch.tensor([2.4740, 0.6931]), atol=0.02)
    assert torch.equal(torch.aminmax(b)[1], torch.tensor(2.0, dtype=torch.bfloat16))
    assert torch.equal(h.argmax(), torch.tensor(1)) and torch.equal(h.max(1)[1], torch.tensor([1, 0]))
    # these have float16 kernels
    assert torch.equal(h.sort(dim=1)[0], torch.tensor([[1.5, 2.0], [-1.0, 0.5]], dtype=torch.float16))
    assert torch.equal(h.mode(1)[0], torch.tensor([1.5, -1.0], dtype=torch.float16))


def test_bf16_products():
    a = torch.tensor([[1.5, 2.0, -0.5], [3.0, 0.25, 1.0]], dtype=torch.bfloat16)
    v = torch.tensor([1.0, 2.0, 3.0], dtype=torch.bfloat16)
    af = a.float()
    vf = v.float()
    assert torch.equal(a @ v, (af @ vf).to(torch.bfloat16)) and (a @ v).dtype == torch.bfloat16
    assert torch.equal(torch.mm(a, a.t()), (af @ af.t()).to(torch.bfloat16))
    assert torch.equal(torch.dot(v, v), torch.tensor(14.0, dtype=torch.bfloat16))
    assert torch.equal(v @ a.t(), (vf @ af.t()).to(torch.bfloat16))
    b = a.expand(2, 2, 3)
    assert torch.equal(torch.bmm(b, b.transpose(1, 2)),
                       (af @ af.t()).expand(2, 2, 2).to(torch.bfloat16))
    assert torch.equal(torch.addmm(a[:, :2], a, a.t(), beta=0.5, alpha=2.0),
                       (0.5 * af[:, :2] + 2.0 * (af @ af.t())).to(torch.bfloat16))
    assert torch.equal(F.linear(a, a, v[:2]), (af @ af.t() + vf[:2]).to(torch.bfloat16))
    # a single output element and an empty inner dimension
    assert torch.equal(a[:1] @ a[:1].t(), torch.tensor([[6.5]], dtype=torch.bfloat16))
    e = torch.zeros(2, 0, dtype=torch.bfloat16) @ torch.zeros(0, 3, dtype=torch.bfloat16)
    assert torch.equal(e, torch.zeros(2, 3, dtype=torch.bfloat16))


def test_tolist_dtypes():
    a: List[int] = torch.tensor([-1, 127]).tolist()
    assert a == [-1, 127]
    b: List[List[float]] = torch.tensor([[0.5, 2.0]], dtype=torch.float64).tolist()
    assert b[0] == [0.5, 2.0]
    c: List[bool] = torch.tensor([True, False]).tolist()
    assert c == [True, False]


def err_argmax_bool():
    # raises: "argmax_cpu" not implemented for 'Bool'
    return torch.tensor([True, False]).argmax()


def err_argmin_bool_dim():
    # raises: "argmin_cpu" not implemented for 'Bool'
    return torch.tensor([[True, False]]).argmin(1, True)


def err_prod_half():
    # raises: "prod_cpu" not implemented for 'Half'
    return torch.ones(2, dtype=torch.float16).prod()


def err_prod_bfloat16_dim():
    # raises: "prod_cpu" not implemented for 'BFloat16'
    return torch.ones(2, 2, dtype=torch.bfloat16).prod(0)


def err_prod_dtype_half():
    # raises: "prod_cpu" not implemented for 'Half'
    return torch.ones(2).prod(dtype=torch.float16)


def err_logsumexp_half():
    # raises: "exp_vml_cpu" not implemented for 'Half'
    return torch.ones(2, 2, dtype=torch.float16).logsumexp([0, 1])


def err_cumsum_half():
    # raises: "cumsum_out_cpu" not implemented for 'Half'
    return torch.ones(2, dtype=torch.float16).cumsum(0)


def err_cumprod_dtype_half():
    # raises: "cumprod_out_cpu" not implemented for 'Half'
    return torch.ones(2).cumprod(0, dtype=torch.float16)


def err_cummax_half():
    # raises: "cummax_cpu" not implemented for 'Half'
    return torch.ones(2, dtype=torch.float16).cummax(0)


def err_cummin_half():
    # raises: "cummin_cpu" not implemented for 'Half'
    return torch.ones(2, dtype=torch.float16).cummin(0)


def err_median_half():
    # raises: "median_cpu" not implemented for 'Half'
    return torch.ones(2, dtype=torch.float16).median()


def err_median_dim_bool():
    # raises: "median_out" not implemented for 'Bool'
    return torch.tensor([True, False]).median(0)


def err_nanmedian_bool():
    # raises: "median_cpu" not implemented for 'Bool'
    return torch.tensor([True, False]).nanmedian()


def err_nanmedian_dim_half():
    # raises: "median_out" not implemented for 'Half'
    return torch.ones(2, dtype=torch.float16).nanmedian(0)


def err_aminmax_half():
    # raises: "aminmax_cpu" not implemented for 'Half'
    return torch.aminmax(torch.ones(2, dtype=torch.float16))


def err_aminmax_bfloat16_dim():
    # raises: "aminmax_cpu" not implemented for 'BFloat16'
    return torch.aminmax(torch.ones(2, dtype=torch.bfloat16), dim=0)


def err_topk_half():
    # raises: "topk_cpu" not implemented for 'Half'
    return torch.ones(2, dtype=torch.float16).topk(1)


def err_topk_bool():
    # raises: "topk_cpu" not implemented for 'Bool'
    return torch.tensor([True, False]).topk(1, largest=False)


def err_kthvalue_half():
    # raises: "kthvalue_cpu" not implemented for 'Half'
    return torch.ones(2, dtype=torch.float16).kthvalue(1)


def err_log_softmax_int_inner_dim():
    # raises: "softmax_kernel_impl" not implemented for 'Long'
    return torch.ones(2, 2, dtype=torch.long).log_softmax(0)


def err_var_mean_int():
    # raises: var_mean only support floating point and complex dtypes
    return torch.var_mean(torch.tensor([1, 2]))


def err_std_mean_bool():
    # raises: std_mean only support floating point and complex dtypes
    return torch.std_mean(torch.tensor([True, False]), [0])


def test_rounding_and_activations_of_ints():
    i = torch.tensor([-2, 3])
    # integers round to themselves; bfloat16 has the kernels float16 lacks
    assert torch.equal(i.floor(), i) and torch.equal(i.round(), i) and torch.equal(i.trunc(), i)
    b = torch.tensor([-1.5, 2.25], dtype=torch.bfloat16)
    assert torch.equal(b.floor(), torch.tensor([-2.0, 2.0], dtype=torch.bfloat16))
    assert torch.equal(F.silu(b.float()).to(torch.bfloat16), F.silu(b))
    assert torch.equal(torch.lerp(b, b * 3, 0.5), b * 2)


def err_floor_bool():
    # raises: "floor_vml_cpu" not implemented for 'Bool'
    return torch.tensor([True]).floor()


def err_round_bool():
    # raises: "round_vml_cpu" not implemented for 'Bool'
    return torch.tensor([True]).round()


def err_trunc_bool():
    # raises: "trunc_vml_cpu" not implemented for 'Bool'
    return torch.tensor([True]).trunc()


def err_gelu_int():
    # raises: "GeluKernelImpl" not implemented for 'Long'
    return F.gelu(torch.tensor([1, 2]), approximate='tanh')


def err_silu_bool():
    # raises: "silu_cpu" not implemented for 'Bool'
    return F.silu(torch.tensor([True]))


def err_silu_int_inplace():
    # raises: "silu_cpu" not implemented for 'Char'
    return F.silu(torch.tensor([1], dtype=torch.int8), inplace=True)


def err_lerp_half():
    # raises: "lerp_kernel_scalar" not implemented for 'Half'
    h = torch.ones(2, dtype=torch.float16)
    return torch.lerp(h, h, 0.5)


def err_lerp_half_tensor_weight():
    # raises: "lerp_kernel_tensor" not implemented for 'Half'
    h = torch.ones(2, dtype=torch.float16)
    return h.lerp(h, h)


def test_avg_pool_int64():
    x = torch.arange(8).reshape(1, 1, 8)
    assert torch.equal(F.avg_pool1d(x, 2), torch.tensor([[[0, 2, 4, 6]]]))
    assert torch.equal(F.avg_pool2d(x.reshape(1, 1, 2, 4), 2), torch.tensor([[[[2, 4]]]]))


def err_avg_pool1d_int32():
    # raises: "avg_pool2d" not implemented for 'Int'
    return F.avg_pool1d(torch.ones(1, 1, 4, dtype=torch.int32), 2)


def err_avg_pool2d_uint8():
    # raises: "avg_pool2d" not implemented for 'Byte'
    return F.avg_pool2d(torch.ones(1, 1, 4, 4, dtype=torch.uint8), 2)


def err_avg_pool3d_int16():
    # raises: "avg_pool3d_out_frame" not implemented for 'Short'
    return F.avg_pool3d(torch.ones(1, 1, 2, 4, 4, dtype=torch.int16), 2)


def err_tolist_int32():
    # raises: Output annotation element type and runtime tensor element type must match for tolist()
    a: List[int] = torch.tensor([1, 2], dtype=torch.int32).tolist()
    return a


def err_tolist_bool_as_int():
    # raises: Output annotation element type and runtime tensor element type must match for tolist()
    a: List[int] = torch.tensor([True]).tolist()
    return a


def err_tolist_half():
    # raises: Unexpected scalar type for Tensor
    a: List[float] = torch.tensor([1.5], dtype=torch.float16).tolist()
    return a


if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
