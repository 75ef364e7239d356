# t/mixed_dtype_cases.py — products whose operands differ in dtype, as PyTorch 1.13 takes
# them. addmm with beta and alpha of 1 is self + mat1.mm(mat2) in a scripted function (the
# executor's DecomposeOps, core/ir/passes/decompose_ops.c): add's promotion and errors, where
# addmm itself refuses a self of another dtype. linear with a bias of another dtype: a 2-d input, or a contiguous 3-d one, goes to
# addmm, which refuses it; any other input's product gets the bias added in place (cast to
# the product's dtype, so a bfloat16 product stays bfloat16). Convolutions of bfloat16
# inputs go to mkldnn on PyTorch's reference machines (AVX-512), whose checks word a weight
# or bias of another dtype in its own way (a 2-d convolution's bias excepted). The test_*
# functions assert dtypes and values, each err_* function fails with its `# raises:` line.
# t/mixed_dtype_cases.sh runs them through tscript; under PyTorch:
#     /usr/bin/python3 t/mixed_dtype_cases.py
import torch
import torch.nn.functional as F


def third(shape: list[int], dtype: int) -> torch.Tensor:
    return torch.full(shape, 1.0 / 3.0).to(dtype)


def test_linear_1d_bias_cast_into_the_product():
    bf = torch.bfloat16
    # the product rounds to bfloat16 (1.0), the float32 bias is added into it: 1.3359375
    r = F.linear(torch.ones(3, dtype=bf), third([4, 3], bf), third([4], torch.float32))
    assert r.dtype == bf and r.shape == [4] and r[0].item() == 1.3359375
    r = F.linear(torch.ones(3), third([4, 3], torch.float32), third([4], bf))
    assert r.dtype == torch.float32 and abs(r[1].item() - 1.333984375) < 1e-6
    r = F.linear(torch.ones(3), third([4, 3], torch.float32), torch.tensor([1, 2, 3, 4]))
    assert r.dtype == torch.float32 and abs(r[3].item() - 5.0) < 1e-6


def test_linear_other_ranks_add_in_place():
    w, b = third([4, 3], torch.float32), third([4], torch.float64)
    r = F.linear(torch.ones(2, 2, 1, 3), w, b)
    assert r.dtype == torch.float32 and r.shape == [2, 2, 1, 4]
    assert abs(r[1, 1, 0, 2].item() - 4.0 / 3.0) < 1e-6
    # a 3-d input that is not contiguous is not folded into addmm's rows either
    r = F.linear(torch.ones(2, 3, 2).transpose(1, 2), w, b)
    assert r.dtype == torch.float32 and r.shape == [2, 2, 4]


def test_linear_same_dtypes():
    r = F.linear(torch.ones(2, 3), third([4, 3], torch.float64).float(), third([4], torch.float32))
    assert r.dtype == torch.float32 and abs(r[1, 3].item() - 4.0 / 3.0) < 1e-6


def test_addmm_decomposed():
    bf = torch.bfloat16
    s, m1, m2 = third([2, 4], torch.float32), third([2, 3], bf), torch.ones(3, 4, dtype=bf)
    r = torch.addmm(s, m1, m2)
    # the product rounds to bfloat16 (1.0), then float32's 1/3 is added
    assert r.dtype == torch.float32 and torch.equal(r, s + m1.mm(m2))
    assert abs(r[1, 3].item() - 4.0 / 3.0) < 1e-6
    r = torch.addmm(s.to(bf), m1.float(), m2.float(), beta=1, alpha=1.0)
    assert r.dtype == torch.float32 and abs(r[0, 0].item() - 1.3359375) < 1e-6
    r = torch.addmm(third([4], torch.float64), m1.float(), m2.float())
    assert r.dtype == torch.float64 and r.shape == [2, 4]


def err_addmm_alpha_2():
    # raises: self and mat2 must have the same dtype
    bf = torch.bfloat16
    return torch.addmm(third([2, 4], torch.float32), third([2, 3], bf), torch.ones(3, 4, dtype=bf),
                       alpha=2)


def err_addmm_self_shape():
    # raises: The size of tensor a (5) must match the size of tensor b (4) at non-singleton dimension 1
    return torch.addmm(torch.ones(5), torch.ones(2, 3), torch.ones(3, 4))


def err_linear_2d_bias():
    # raises: self and mat2 must have the same dtype
    return F.linear(torch.ones(2, 3), third([4, 3], torch.float32), third([4], torch.float64))


def err_linear_3d_bias():
    # raises: self and mat2 must have the same dtype
    return F.linear(torch.ones(2, 1, 3), third([4, 3], torch.float32), third([4], torch.bfloat16))


def err_linear_2d_bfloat16_bias():
    # raises: self and mat2 must have the same dtype
    bf = torch.bfloat16
    return F.linear(torch.ones(2, 3, dtype=bf), third([4, 3], bf), third([4], torch.float32))


def err_linear_2d_weight_first():
    # raises: expected scalar type Float but found BFloat16
    return F.linear(torch.ones(2, 3), third([4, 3], torch.bfloat16), third([4], torch.float64))


def err_linear_1d_bias_shape():
    # raises: output with shape [4] doesn't match the broadcast shape [5]
    return F.linear(torch.ones(3), third([4, 3], torch.float32), third([5], torch.float64))


def err_linear_1d_bias_cannot_cast():
    # raises: result type Float can't be cast to the desired output type Long
    return F.linear(torch.ones(3, dtype=torch.int64), torch.ones(4, 3, dtype=torch.int64),
                    third([4], torch.float32))


def err_conv2d_bfloat16_float_weight():
    # raises: Input type (CPUBFloat16Type) and weight type (torch.FloatTensor) should be the same or input should be a MKLDNN tensor and weight is a dense tensor
    return F.conv2d(torch.ones(1, 2, 5, 5, dtype=torch.bfloat16), torch.ones(3, 2, 3, 3))


def err_conv1d_bfloat16_double_weight():
    # raises: Input type (CPUBFloat16Type) and weight type (torch.DoubleTensor) should be the same or input should be a MKLDNN tensor and weight is a dense tensor
    return F.conv1d(torch.ones(1, 2, 5, dtype=torch.bfloat16),
                    torch.ones(3, 2, 3, dtype=torch.float64))


def err_conv_transpose2d_bfloat16_float_weight():
    # raises: Input type (CPUBFloat16Type) and weight type (torch.FloatTensor) should be the same or input should be a MKLDNN tensor and weight is a dense tensor
    return F.conv_transpose2d(torch.ones(1, 2, 5, 5, dtype=torch.bfloat16), torch.ones(2, 3, 3, 3))


def err_conv_float_big_bfloat16_weight():
    # raises: Input type (torch.FloatTensor) and weight type (CPUBFloat16Type) should be the same or input should be a MKLDNN tensor and weight is a dense tensor
    return F.conv2d(torch.ones(2, 2, 5, 5), torch.ones(3, 2, 3, 3, dtype=torch.bfloat16))


def err_conv3d_bfloat16_float_bias():
    # raises: Input type (CPUBFloat16Type) and bias type (torch.FloatTensor) should be the same or input should be a MKLDNN tensor and bias is a dense tensor
    bf = torch.bfloat16
    return F.conv3d(torch.ones(1, 2, 5, 5, 5, dtype=bf), torch.ones(3, 2, 3, 3, 3, dtype=bf),
                    torch.ones(3))


def err_conv_transpose2d_bfloat16_float_bias():
    # raises: Input type (CPUBFloat16Type) and bias type (torch.FloatTensor) should be the same or input should be a MKLDNN tensor and bias is a dense tensor
    bf = torch.bfloat16
    return F.conv_transpose2d(torch.ones(1, 2, 5, 5, dtype=bf), torch.ones(2, 3, 3, 3, dtype=bf),
                              torch.ones(3))


def err_conv2d_bfloat16_float_bias():
    # raises: Input type (c10::BFloat16) and bias type (float) should be the same
    bf = torch.bfloat16
    return F.conv2d(torch.ones(1, 2, 5, 5, dtype=bf), torch.ones(3, 2, 3, 3, dtype=bf),
                    torch.ones(3))


if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
