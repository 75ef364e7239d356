# t/aten_sweep_cases.py — pointwise ops of aten-cpu across dtypes, shapes and argument forms,
# kept from a sweep that ran variants of the conformance cases through PyTorch 1.13 and
# tscript: the ones that once differed, and the pointwise math ops and aliases added for it.
# t/aten_sweep_cases.sh runs the test_* functions with `tscript test`; they pass under
# PyTorch too:
#     /usr/bin/python3 t/aten_sweep_cases.py     (scripts and runs each one)
import math

import torch


def same(a: torch.Tensor, b: torch.Tensor) -> bool:
    """Equal dtype and shape, and equal values (nan matching nan, to the 4 decimals given)."""
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    if a.dtype == torch.bool or not a.is_floating_point():
        return torch.equal(a, b)
    return torch.allclose(a.double(), b.double(), rtol=1e-4, atol=1e-4, equal_nan=True)


def test_inverse_trig_and_hyperbolic():
    x = torch.tensor([-1.0, -0.5, 0.0, 0.5, 1.0])
    assert same(torch.asin(x), torch.tensor([-1.5708, -0.5236, 0.0, 0.5236, 1.5708]))
    assert same(x.acos(), torch.tensor([3.1416, 2.0944, 1.5708, 1.0472, 0.0]))
    assert same(torch.arctan(x), torch.atan(x))
    assert same(torch.atan(x), torch.tensor([-0.7854, -0.4636, 0.0, 0.4636, 0.7854]))
    assert same(torch.sinh(x), torch.tensor([-1.1752, -0.5211, 0.0, 0.5211, 1.1752]))
    assert same(torch.cosh(x), torch.tensor([1.5431, 1.1276, 1.0, 1.1276, 1.5431]))
    assert same(torch.asinh(x), torch.tensor([-0.8814, -0.4812, 0.0, 0.4812, 0.8814]))
    assert same(torch.arccosh(x + 2), torch.tensor([0.0, 0.9624, 1.3170, 1.5668, 1.7627]))
    assert same(torch.atanh(x), torch.tensor([-math.inf, -0.5493, 0.0, 0.5493, math.inf]))
    assert same(torch.asin(torch.tensor([2.0])), torch.tensor([math.nan]))
    # integers and bool compute in float32
    assert same(torch.asin(torch.tensor([0, 1])), torch.tensor([0.0, 1.5708]))
    assert same(torch.arcsinh(torch.tensor([True, False])), torch.tensor([0.8814, 0.0]))


def test_unary_out_and_in_place_forms():
    x = torch.tensor([0.5, 1.0, 0.0])
    o = torch.empty(3, dtype=torch.float64)
    r = torch.asin(x, out=o)
    assert same(o, torch.tensor([0.5236, 1.5708, 0.0], dtype=torch.float64))
    assert same(r, o)
    y = x.clone()
    y.arcsin_()
    assert same(y, torch.tensor([0.5236, 1.5708, 0.0]))
    z = torch.tensor([[1.0, 4.0], [9.0, 16.0]]).t()
    z.square_()
    assert same(z, torch.tensor([[1.0, 81.0], [16.0, 256.0]]))


def test_special_functions():
    x = torch.tensor([-1.0, -0.5, 0.0, 0.3, 0.999, 1.0, 1.5])
    assert same(torch.erfinv(x), torch.tensor([-math.inf, -0.4769, 0.0, 0.2725, 2.3268, math.inf, math.nan]))
    d = torch.tensor([0.1, 0.5, 0.9, 0.99999], dtype=torch.float64)
    assert torch.allclose(torch.erf(torch.erfinv(d)), d, rtol=1e-12, atol=0.0)
    assert same(torch.erfc(torch.tensor([0.0, 1.0])), torch.tensor([1.0, 0.1573]))
    assert same(torch.lgamma(torch.tensor([0.5, 0.0, -1.5, 10.0])),
                torch.tensor([0.5724, math.inf, 0.8600, 12.8018]))
    assert same(torch.exp2(torch.tensor([1, -2, 3])), torch.tensor([2.0, 0.25, 8.0]))
    # sinc rounds pi * x to float32 first, as PyTorch does: sinc(1.0) is not exactly 0
    s = torch.sinc(torch.tensor([0.0, 0.5, 1.0, -2.5]))
    assert same(s, torch.tensor([1.0, 0.63662, -2.7828e-08, 0.12732]))
    assert same(torch.deg2rad(torch.tensor([180, -90])), torch.tensor([3.1416, -1.5708]))
    assert same(torch.rad2deg(torch.tensor([3.14159265], dtype=torch.float64)),
                torch.tensor([180.0], dtype=torch.float64))


def test_square_sign_and_aliases():
    i = torch.tensor([1, -2, 3])
    b = torch.tensor([True, False, True])
    assert same(torch.square(i), torch.tensor([1, 4, 9]))
    assert same(torch.square(b), torch.tensor([1, 0, 1]))          # bool squares to int64
    assert same(torch.square(torch.tensor([100], dtype=torch.int8)), torch.tensor([16], dtype=torch.int8))
    assert same(torch.absolute(i), torch.tensor([1, 2, 3]))
    assert same(torch.negative(i), torch.tensor([-1, 2, -3]))
    assert same(torch.fix(torch.tensor([-1.5, 2.7])), torch.tensor([-1.0, 2.0]))
    assert same(torch.sgn(i), torch.tensor([1, -1, 1]))
    assert same(torch.sgn(b), b)
    assert torch.positive(i) is i


def test_predicates():
    s = torch.tensor([math.nan, math.inf, -math.inf, 1.0, 0.0])
    assert same(torch.isnan(s), torch.tensor([True, False, False, False, False]))
    assert same(s.isinf(), torch.tensor([False, True, True, False, False]))
    assert same(torch.isposinf(s), torch.tensor([False, True, False, False, False]))
    assert same(torch.isneginf(s), torch.tensor([False, False, True, False, False]))
    assert same(s.isfinite(), torch.tensor([False, False, False, True, True]))
    assert same(torch.isreal(s), torch.tensor([True, True, True, True, True]))
    assert same(torch.signbit(s), torch.tensor([False, False, True, False, False]))
    i = torch.tensor([-1, 0, 2])
    assert same(torch.isnan(i), torch.tensor([False, False, False]))
    assert same(torch.isfinite(i), torch.tensor([True, True, True]))
    assert same(torch.signbit(i), torch.tensor([True, False, False]))
    assert same(torch.isinf(s.half()), torch.tensor([False, True, True, False, False]))
    assert bool(torch.isnan(s).any())


def test_nan_to_num():
    s = torch.tensor([math.nan, math.inf, -math.inf, 2.0])
    assert same(torch.nan_to_num(s), torch.tensor([0.0, 3.4028234663852886e38, -3.4028234663852886e38, 2.0]))
    assert same(torch.nan_to_num(s, 1.0, posinf=1e300), torch.tensor([1.0, math.inf, -3.4028234663852886e38, 2.0]))
    assert same(s.nan_to_num(neginf=-5.0), torch.tensor([0.0, 3.4028234663852886e38, -5.0, 2.0]))
    assert same(torch.nan_to_num(s.half()), torch.tensor([0.0, 65504.0, -65504.0, 2.0], dtype=torch.float16))
    big = torch.nan_to_num(s.double())[1]
    assert bool(big.isfinite()) and float(big) > 1.79e308
    assert same(torch.nan_to_num(torch.tensor([1, 2])), torch.tensor([1, 2]))
    y = s.clone()
    y.nan_to_num_(0.5, 1.0, -1.0)
    assert same(y, torch.tensor([0.5, 1.0, -1.0, 2.0]))


def test_binary_math():
    x = torch.tensor([-2.0, -0.5, 0.0, 1.0, math.inf, math.nan])
    y = torch.tensor([1.0, -1.0, 0.0, 2.0, math.inf, 1.0])
    assert same(torch.atan2(x, y), torch.tensor([-1.1071, -2.6779, 0.0, 0.4636, 0.7854, math.nan]))
    assert same(x.arctan2(y), torch.atan2(x, y))
    assert same(torch.hypot(x, y), torch.tensor([2.2361, 1.1180, 0.0, 2.2361, math.inf, math.nan]))
    assert same(torch.logaddexp(x, y), torch.tensor([1.0486, -0.0259, 0.6931, 2.3133, math.inf, math.nan]))
    assert same(torch.logaddexp2(x, y), torch.tensor([1.1699, 0.2716, 1.0, 2.5850, math.inf, math.nan]))
    assert same(torch.fmax(x, y), torch.tensor([1.0, -0.5, 0.0, 2.0, math.inf, 1.0]))
    assert same(torch.fmin(x, y), torch.tensor([-2.0, -1.0, 0.0, 1.0, math.inf, 1.0]))
    assert same(torch.heaviside(x, torch.tensor([0.5])), torch.tensor([0.0, 0.0, 0.5, 1.0, 1.0, 0.0]))
    assert same(torch.copysign(y, x), torch.tensor([-1.0, -1.0, 0.0, 2.0, math.inf, 1.0]))
    assert same(torch.copysign(y, -1), torch.tensor([-1.0, -1.0, -0.0, -2.0, -math.inf, -1.0]))
    n = torch.nextafter(torch.tensor([1.0, 1.0]), torch.tensor([2.0, 0.0]))
    assert same(n - 1.0, torch.tensor([1.1920929e-07, -5.9604645e-08]))
    # integer inputs: atan2, xlogy and copysign compute in float32, fmax/heaviside keep int
    i = torch.tensor([1, -2, 3])
    assert same(torch.atan2(i, i), torch.tensor([0.7854, -2.3562, 0.7854]))
    assert same(torch.fmax(i, torch.tensor([0])), torch.tensor([1, 0, 3]))
    assert same(torch.fmax(i, torch.tensor([0.5])), torch.tensor([1.0, 0.5, 3.0]))
    assert same(torch.heaviside(i, i), torch.tensor([1, 0, 1]))
    assert same(torch.copysign(i, -1), torch.tensor([-1.0, -2.0, -3.0]))


def test_xlogy_forms():
    x = torch.tensor([0.0, 1.0, 2.0, math.nan])
    y = torch.tensor([0.0, 2.0, math.nan, 1.0])
    assert same(torch.xlogy(x, y), torch.tensor([0.0, 0.6931, math.nan, math.nan]))
    assert same(torch.xlogy(2, torch.tensor([1, 3])), torch.tensor([0.0, 2.1972]))
    assert same(torch.xlogy(torch.tensor([1, -2]), 3), torch.tensor([1.0986, -2.1972]))
    z = x.clone()
    z.xlogy_(2.0)
    assert same(z, torch.tensor([0.0, 0.6931, 1.3863, math.nan]))


def test_float_power():
    i = torch.tensor([1, 2, 3])
    assert same(torch.float_power(i, 2), torch.tensor([1.0, 4.0, 9.0], dtype=torch.float64))
    assert same(torch.float_power(2, i), torch.tensor([2.0, 4.0, 8.0], dtype=torch.float64))
    assert same(i.float_power(torch.tensor([0.5])), torch.tensor([1.0, 1.4142, 1.7321], dtype=torch.float64))
    d = torch.tensor([2.0, 3.0], dtype=torch.float64)
    d.float_power_(2)
    assert same(d, torch.tensor([4.0, 9.0], dtype=torch.float64))


def test_lerp():
    a = torch.zeros(2, 1)
    b = torch.tensor([1.0, 2.0, 4.0])
    assert same(torch.lerp(a, b, 0.25), torch.tensor([[0.25, 0.5, 1.0], [0.25, 0.5, 1.0]]))
    w = torch.tensor([0.0, 0.5, 1.0])
    assert same(torch.lerp(torch.ones(3), b, w), torch.tensor([1.0, 1.5, 4.0]))
    c = torch.ones(3)
    c.lerp_(b, 0.5)
    assert same(c, torch.tensor([1.0, 1.5, 2.5]))
    assert same(b.lerp(torch.zeros(3), 1.0), torch.zeros(3))


def test_shifts():
    assert same(torch.tensor([1, 8]) << 2, torch.tensor([4, 32]))
    assert same(torch.tensor([-16, 8]) >> 2, torch.tensor([-4, 2]))
    # counts wrap modulo the operand width, as on PyTorch's CPU
    assert same(torch.tensor([1, 8]) << torch.tensor([-1, 64]), torch.tensor([-9223372036854775807 - 1, 8]))
    assert same(torch.tensor([-16, 8]) >> torch.tensor([-1, 70]), torch.tensor([-1, 0]))
    assert same(torch.tensor([1, 64], dtype=torch.int8) << 1, torch.tensor([2, -128], dtype=torch.int8))
    assert same(torch.tensor([True, False]) << 1, torch.tensor([2, 0]))
    assert same(torch.bitwise_left_shift(3, torch.tensor([1, 2])), torch.tensor([6, 12]))
    j = torch.tensor([1, 2, 3], dtype=torch.int32)
    j <<= 2
    j >>= torch.tensor([1], dtype=torch.int32)
    assert same(j, torch.tensor([2, 4, 6], dtype=torch.int32))


def test_arithmetic_and_comparison_aliases():
    i = torch.tensor([1, -2, 3])
    assert same(torch.rsub(i, 1, alpha=2), torch.tensor([-1, 5, -5]))
    assert same(i.rsub(torch.tensor([10, 20, 30])), torch.tensor([9, 22, 27]))
    assert same(torch.true_divide(i, 2), torch.tensor([0.5, -1.0, 1.5]))
    assert same(torch.divide(i, 2, rounding_mode="floor"), torch.tensor([0, -1, 1]))
    assert same(torch.multiply(i, 3), torch.tensor([3, -6, 9]))
    assert same(torch.subtract(i, 1, alpha=2), torch.tensor([-1, -4, 1]))
    assert same(torch.greater(i, 1), torch.tensor([False, False, True]))
    assert same(i.less_equal(1), torch.tensor([True, True, False]))
    assert same(torch.not_equal(i, torch.tensor([1])), torch.tensor([False, True, True]))
    assert same(torch.clip(i, -1, 1), torch.tensor([1, -1, 1]))
    # one scalar nan bound leaves the values; clamp_min and a nan with two bounds give nan
    x = torch.tensor([-1.0, 2.0])
    assert same(torch.clamp(x, min=math.nan), x) and same(x.clamp(max=math.nan), x)
    assert same(torch.clamp(x, min=math.nan, max=1.0), torch.tensor([math.nan, math.nan]))
    assert same(torch.clamp_min(x, math.nan), torch.tensor([math.nan, math.nan]))
    f = i.float()
    f.clip_(min=0.0)
    assert same(f, torch.tensor([1.0, 0.0, 3.0]))


def test_where_condition_only():
    x = torch.tensor([[1.0, -1.0], [0.0, 2.0]])
    r = torch.where(x > 0)
    assert len(r) == 2
    assert same(r[0], torch.tensor([0, 1])) and same(r[1], torch.tensor([0, 1]))
    assert same(torch.where(torch.tensor(3.0))[0], torch.tensor([0]))
    e = torch.where(torch.zeros(2, 0))
    assert len(e) == 2 and e[0].shape == [0] and e[0].dtype == torch.int64
    assert same(torch.where(x > 0, x, 0.0), torch.tensor([[1.0, 0.0], [0.0, 2.0]]))


def test_aminmax():
    a = torch.tensor([[3, 1, 4], [1, 5, 9]])
    lo, hi = torch.aminmax(a)
    assert same(lo, torch.tensor(1)) and same(hi, torch.tensor(9))
    lo, hi = torch.aminmax(a, dim=1, keepdim=True)
    assert same(lo, torch.tensor([[1], [1]])) and same(hi, torch.tensor([[4], [9]]))
    lo, hi = torch.aminmax(a.t().float(), dim=-1)
    assert same(lo, torch.tensor([1.0, 1.0, 4.0])) and same(hi, torch.tensor([3.0, 5.0, 9.0]))
    lo, hi = torch.aminmax(torch.zeros(0, 3), dim=1)
    assert lo.shape == [0] and hi.shape == [0]


def test_small_int_and_half_arithmetic():
    a = torch.tensor([[1, -2, 3], [100, 120, -128]], dtype=torch.int8)
    b = torch.tensor([1, 2, 3], dtype=torch.int8)
    assert same(a + b, torch.tensor([[2, 0, 6], [101, 122, -125]], dtype=torch.int8))
    assert same(a * b, torch.tensor([[1, -4, 9], [100, -16, 128 - 256]], dtype=torch.int8))
    assert same(a / b, torch.tensor([[1.0, -1.0, 1.0], [100.0, 60.0, -42.6667]]))
    u = torch.tensor([200, 250, 255], dtype=torch.uint8)
    assert same(u + torch.tensor([1, 1, 1], dtype=torch.int8), torch.tensor([201, 251, 256], dtype=torch.int16))
    h = torch.tensor([1.5, -2.25], dtype=torch.float16)
    assert same(h * 2.5, torch.tensor([3.75, -5.625], dtype=torch.float16))
    assert same(h + torch.tensor([1.0, 1.0]), torch.tensor([2.5, -1.25]))


def test_addmv_and_addr():
    m = torch.arange(6.0).view(2, 3)
    assert same(torch.addmv(torch.ones(2), m, torch.ones(3), beta=0.5, alpha=2), torch.tensor([6.5, 24.5]))
    assert same(torch.addmv(torch.tensor(1.0), m.t().contiguous().t(), torch.tensor([1.0, 2.0, 3.0])),
                torch.tensor([9.0, 27.0]))
    assert same(torch.addmv(torch.ones(2, dtype=torch.int64), torch.ones(2, 3, dtype=torch.int64),
                            torch.ones(3, dtype=torch.int64)), torch.tensor([4, 4]))
    x = torch.zeros(2)
    x.addmv_(torch.ones(2, 2), torch.ones(2))
    assert same(x, torch.tensor([2.0, 2.0]))
    assert same(torch.addr(torch.ones(2, 3, dtype=torch.int64), torch.tensor([1, 2]), torch.tensor([1, 2, 3]), alpha=2),
                torch.tensor([[3, 5, 7], [5, 9, 13]]))
    # beta=0 ignores self, nan included; int and float vectors promote
    nan = torch.full([2, 2], math.nan)
    assert same(torch.addr(nan, torch.ones(2), torch.ones(2), beta=0), torch.ones(2, 2))
    assert same(torch.addr(torch.ones(2, 2), torch.tensor([1, 2]), torch.tensor([1.5, 2.5])),
                torch.tensor([[2.5, 3.5], [4.0, 6.0]]))
    y = torch.zeros(2, 2)
    y.addr_(torch.ones(2), torch.tensor([1.0, 2.0]), alpha=3)
    assert same(y, torch.tensor([[3.0, 6.0], [3.0, 6.0]]))


def test_logspace_linspace_and_new_factories():
    assert same(torch.logspace(0, 2, 3), torch.tensor([1.0, 10.0, 100.0]))
    assert same(torch.logspace(-1, 1, 4, base=2.0), torch.tensor([0.5, 0.7937, 1.2599, 2.0]))
    assert same(torch.logspace(0, 2, 5, dtype=torch.int32), torch.tensor([1, 3, 10, 31, 100], dtype=torch.int32))
    # one step gives the start
    assert same(torch.logspace(0, 1, 1), torch.tensor([1.0]))
    assert same(torch.linspace(0, 10, 1), torch.tensor([0.0]))
    t = torch.ones(2, dtype=torch.int8)
    assert same(t.new_zeros([2, 1]), torch.zeros(2, 1, dtype=torch.int8))
    assert same(t.new_ones([2], dtype=torch.int64), torch.tensor([1, 1]))
    assert same(t.new_full([2], 3), torch.tensor([3, 3], dtype=torch.int8))
    assert t.new_empty([0]).dtype == torch.int8
    assert torch.ones(1).is_floating_point() and not t.is_floating_point()
    assert t.is_signed() and not torch.ones(1, dtype=torch.uint8).is_signed()
    assert t.element_size() == 1 and torch.ones(1, dtype=torch.float64).element_size() == 8


def test_addcmul_addcdiv():
    i = torch.tensor([1, 2])
    f = torch.tensor([1.0, 2.0])
    assert same(torch.addcmul(i, i, i, value=2), torch.tensor([3, 10]))
    assert same(torch.addcmul(i, i, i, value=0.5), i)              # value becomes an int first
    assert same(torch.addcmul(f, i, i, value=0.5), torch.tensor([1.5, 4.0]))
    assert same(torch.addcmul(f, f.double(), f), torch.tensor([2.0, 6.0], dtype=torch.float64))
    assert same(torch.addcdiv(torch.ones(2, 1), f, torch.tensor([[2.0], [4.0]])),
                torch.tensor([[1.5, 2.0], [1.25, 1.5]]))
    x = torch.zeros(2)
    x.addcmul_(f, f, value=-1)
    x.addcdiv_(f, torch.tensor([2.0, 0.0]))
    assert same(x, torch.tensor([-0.5, math.inf]))


def test_inner_vdot_gcd_lcm():
    assert torch.inner(torch.ones(2, 3), torch.ones(4, 3)).shape == [2, 4]
    assert same(torch.inner(torch.tensor([1, 2]), torch.tensor([3, 4])), torch.tensor(11))
    assert same(torch.inner(torch.ones(2), torch.tensor(2.0)), torch.tensor([2.0, 2.0]))
    assert same(torch.inner(torch.ones(2, 2).t(), torch.arange(6.0).view(3, 2)),
                torch.tensor([[1.0, 5.0, 9.0], [1.0, 5.0, 9.0]]))
    assert same(torch.vdot(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])), torch.tensor(11.0))
    a = torch.tensor([12, -18, 0, 7, 0])
    b = torch.tensor([8, 12, 5, 0, 0])
    assert same(torch.gcd(a, b), torch.tensor([4, 6, 5, 7, 0]))
    assert same(torch.lcm(a, b), torch.tensor([24, 36, 0, 0, 0]))
    assert torch.promote_types(torch.uint8, torch.int8) == torch.int16
    assert torch.can_cast(torch.int32, torch.float32) and not torch.can_cast(torch.float32, torch.int32)


def test_elementwise_output_keeps_input_layout():
    # a new result is laid out in its inputs' memory order, as PyTorch's TensorIterator does
    t = torch.arange(6.).reshape(2, 3).t()
    assert (t * 2).stride() == [1, 3] and not (t * 2).is_contiguous()
    assert (torch.ones(3, 2) + t).stride() == [2, 1] and (t + torch.ones(3, 2)).stride() == [1, 3]
    x = torch.arange(24.).reshape(2, 3, 4)
    assert (x.transpose(0, 2) * 2).stride() == [1, 4, 12]
    assert (x[:, :, ::2] + 1).stride() == [6, 2, 1]
    y = torch.arange(12.).reshape(3, 1, 4).permute(2, 1, 0)
    assert (y + 1).stride() == [1, 4, 4] and y.sin().stride() == [1, 4, 4]
    p = torch.arange(8.).reshape(2, 2, 2).permute(1, 2, 0)
    q = torch.arange(8.).reshape(2, 2, 2).permute(2, 0, 1)
    assert (p + q).stride() == [2, 1, 4] and (q + p).stride() == [1, 4, 2]
    assert torch.where(p > 2, p, q).stride() == [2, 1, 4]
    m = torch.arange(6).reshape(2, 3).t()
    assert (m + 1.5).stride() == [1, 3] and (m == 2).stride() == [1, 3]
    assert m.to(torch.float64).stride() == [1, 3] and m.float().stride() == [1, 3]
    c = torch.arange(3.).reshape(3, 1) + torch.arange(4.).reshape(1, 4)
    assert c.stride() == [4, 1] and (t + 1).t().is_contiguous()


def test_tensor_flags():
    x = torch.ones(2)
    assert not x.requires_grad and not x.is_cuda and not x.is_sparse and not x.is_quantized
    assert not x.is_meta and not x.is_mkldnn and x.layout == torch.strided
    d = x.data
    d.add_(1)           # .data shares the tensor's memory
    assert torch.equal(x, torch.tensor([2.0, 2.0]))


def test_index_put_with_a_list_literal():
    # a list literal of tensors is a Tensor[]: the hacked_twin overloads take it
    x = torch.zeros(3)
    assert torch.equal(x.index_put([torch.tensor([1])], torch.tensor(5.0)),
                       torch.tensor([0.0, 5.0, 0.0]))
    x.index_put_([torch.tensor([0, 2])], torch.tensor(1.0), accumulate=True)
    assert torch.equal(x, torch.tensor([1.0, 0.0, 1.0]))


def test_torch_linalg_names_resolve():
    t = torch.arange(6.).reshape(2, 3)
    assert torch.allclose(torch.linalg.vector_norm(t, 2, [1]), torch.tensor([2.2361, 7.0711]),
                          atol=1e-4)


def err_tensor_of_empty_list():
    # raises: Empty lists default to List[Tensor]. Add a variable annotation
    return torch.tensor([])


def err_tensor_of_tensors():
    # raises: Input must be of ints, floats, or bools, got Tensor
    return torch.tensor([torch.ones(1)])


def err_tensor_of_mixed_numbers():
    # raises: Add new condition, expected Float, Complex, Int, or Bool but gotUnion(float, int)
    return torch.tensor([1, 2.5])


if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
