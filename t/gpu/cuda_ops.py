# cuda_ops.py — the pointwise, conversion, factory, random and printing operators of
# aten-cuda, run once with default_backend: cpu and once with cuda (t/aten_cuda.sh compares
# the numbers). The random ops draw from a stream of each device's own, as PyTorch's do (the
# cpu's is PyTorch's cpu generator): what is compared is that a seed reproduces the draws,
# another seed changes them, and every draw has its dtype, shape, device and range.
import torch
from typing import List


def show(name: str, t: torch.Tensor):
    values: List[float] = t.to(torch.float64).cpu().flatten().tolist()
    print(name, t.dtype, t.shape, values)


def draws(x: torch.Tensor, i: torch.Tensor) -> List[torch.Tensor]:
    u = torch.empty([3, 4], device=x.device)
    r = [torch.rand(2, 7), torch.randn(2, 7), torch.randn([3, 2], dtype=torch.float64),
         torch.rand([4], dtype=torch.float16), torch.randint(10, [6]),
         torch.randint(-5, 5, [6], dtype=torch.int32),
         torch.randint(0, 2, [6], dtype=torch.bool), torch.rand_like(x),
         torch.randn_like(x, dtype=torch.float64), torch.randint_like(x, 2, 9),
         torch.randint_like(i, 4), u.uniform_(-2.0, 3.0).clone(),
         u.normal_(1.0, 0.5).clamp(-3.0, 5.0), torch.zeros([4, 3]).t().normal_(),
         torch.empty([8]).bernoulli_(0.4), torch.empty([8], dtype=torch.int64).bernoulli_(0.5),
         torch.empty([2, 4]).bernoulli_(torch.tensor([0.1, 0.5, 0.9, 0.3])),
         torch.bernoulli(torch.full([8], 0.6)),
         torch.bernoulli(torch.zeros([8], dtype=torch.float64), 0.3),
         torch.bernoulli(torch.tensor([0.0, 1.0, 1.0, 0.0])),
         torch.randperm(10), torch.randperm(6, dtype=torch.float32), torch.rand(3)]
    # normals are unbounded: keep the range checks about the others
    r[1] = r[1].clamp(-9.0, 9.0)
    r[2] = r[2].clamp(-9.0, 9.0)
    r[8] = r[8].clamp(-9.0, 9.0)
    r[13] = r[13].clamp(-9.0, 9.0)
    return r


def main():
    x = torch.arange(12).view(3, 4).to(torch.float32) / 4.0 - 1.0
    y = torch.ones([4]) * 0.5
    i = torch.arange(12).view(3, 4)
    show("add", x + y)
    show("add_alpha", torch.add(x, y, alpha=2))
    show("sub_scalar", x - 1)
    show("mul", x * x)
    show("div", x / (y + 1))
    show("div_int", i / 5)
    show("floor_div", torch.div(i, 5, rounding_mode="floor"))
    show("trunc_div", torch.div(x, 0.3, rounding_mode="trunc"))
    show("remainder", torch.remainder(i - 6, 5))
    show("pow", torch.pow(x, 2))
    show("pow_t", torch.pow(y + 1, x))
    show("maximum", torch.maximum(x, y))
    show("minimum", torch.minimum(x, y))
    show("eq", x == 0.5)
    show("lt_t", x < y)
    show("ge_scalar", i >= 6)
    show("logical", torch.logical_and(x > 0, i < 10))
    for name, t in [("neg", -x), ("abs", x.abs()), ("exp", x.exp()), ("log", (x + 2).log()),
                    ("sqrt", (x + 2).sqrt()), ("rsqrt", (x + 2).rsqrt()), ("sin", x.sin()),
                    ("cos", x.cos()), ("tanh", x.tanh()), ("sigmoid", x.sigmoid()),
                    ("relu", x.relu()), ("silu", torch.nn.functional.silu(x)),
                    ("gelu", torch.nn.functional.gelu(x)), ("erf", x.erf()),
                    ("floor", x.floor()), ("ceil", x.ceil()), ("round", (x * 2.5).round()),
                    ("trunc", x.trunc()), ("reciprocal", (x + 2).reciprocal()),
                    ("sign", x.sign()), ("square", x.square()),
                    ("leaky", torch.nn.functional.leaky_relu(x, 0.2)),
                    ("hardtanh", torch.nn.functional.hardtanh(x, -0.5, 0.5)),
                    ("elu", torch.nn.functional.elu(x)),
                    ("softplus", torch.nn.functional.softplus(x)),
                    ("clamp", x.clamp(-0.5, 0.25)), ("clamp_min", x.clamp(min=0.0)),
                    ("sqrt_int", i.sqrt()), ("abs_int", (i - 5).abs())]:
        show(name, t)
    show("where", torch.where(x > 0, x, y))
    show("where_scalar", torch.where(x > 0, x, 0.0))
    show("masked_fill", x.masked_fill(x < 0, -7.0))
    show("lerp", torch.lerp(x, y, torch.full([4], 0.25)))
    show("addcmul", torch.addcmul(x, x, y, value=0.5))
    z = x.clone()
    z.add_(1)
    z.mul_(y)
    z.relu_()
    show("inplace", z)
    show("transposed", x.t() * 2)
    show("broadcast", x.view(3, 4, 1) + y.view(1, 1, 4))
    show("to_long", x.to(torch.int64))
    show("to_half", x.to(torch.float16) * 2)
    show("to_double", x.double() + 1)
    show("bool", x.to(torch.bool))
    show("zeros", torch.zeros([2, 3]))
    show("ones_int", torch.ones([2], dtype=torch.int32))
    show("full", torch.full([2, 2], 7))
    show("zeros_like", torch.zeros_like(x))
    show("full_like", torch.full_like(x, 3.5))
    w = torch.empty([3, 4])
    w.copy_(x)
    show("copy_", w)
    w.fill_(2)
    show("fill_", w)
    w.zero_()
    show("zero_", w)
    show("full_bool", torch.full([2], 1, dtype=torch.bool))
    show("full_int_double", torch.full([2], 3, dtype=torch.float64))
    show("full_float", torch.full([2], 2.5))
    show("full_like_int", torch.full_like(i, 3.5))
    show("new_full", i.new_full([2], 7.5))
    show("zeros_like_int", torch.zeros_like(i))
    show("linspace", torch.linspace(-2, 2, 9))
    show("linspace_double", torch.linspace(0.0, 1.0, 7, dtype=torch.float64))
    show("linspace_int", torch.linspace(0, 10, 4, dtype=torch.int64))
    # contiguous operands run 4 elements to a vector load when aligned: a tail, views off
    # the alignment, one, two and three operands, 1-, 2- and 8-byte elements
    v = torch.arange(23).to(torch.float32)
    show("flat_tail", v + v * 0.5)
    show("flat_offset", v[1:] + v[:-1])
    show("flat_unary_offset", v[3:].neg())
    show("flat_where", torch.where(v > 5.0, v, -v))
    show("flat_addcmul_offset", torch.addcmul(v[2:], v[1:-1], v[:-2], value=0.5))
    show("flat_half", (v.to(torch.float16) * 3).to(torch.float32))
    show("flat_double_offset", v[1:].to(torch.float64) / 7)
    show("flat_bool", (v > 3.0) & (v < 20.0))
    show("flat_int_convert", (v * 1.5).to(torch.int64))
    big = torch.arange(100003).to(torch.float32)
    show("flat_big", (big * 2 + 1).sum().view(1))
    # random ops: each device has its own stream (as in PyTorch, whose cuda numbers differ
    # from its cpu's), so what both print alike is how a seed reproduces a device's draws
    # and what every draw must satisfy
    torch.manual_seed(3)
    first = draws(x, i)
    torch.manual_seed(3)
    again = draws(x, i)
    torch.manual_seed(4)
    other = draws(x, i)
    names = ["rand", "randn", "randn_double", "rand_half", "randint", "randint_low",
             "randint_bool", "rand_like", "randn_like", "randint_like", "randint_like_high",
             "uniform_", "normal_", "normal_strided", "bernoulli_", "bernoulli_int",
             "bernoulli_tensor", "bernoulli", "bernoulli_p", "bernoulli_certain",
             "randperm", "randperm_float", "rand_after"]
    lows = [0.0, -9.0, -9.0, 0.0, 0.0, -5.0, 0.0, 0.0, -9.0, 2.0, 0.0, -2.0, -3.0, -9.0,
            0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    highs = [1.0, 9.0, 9.0, 1.0, 9.0, 4.0, 1.0, 1.0, 9.0, 8.0, 3.0, 3.0, 5.0, 9.0,
             1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 9.0, 5.0, 1.0]
    distinct = 0
    for k in range(len(names)):
        a = first[k]
        v = a.to(torch.float64)
        inside = bool((v >= lows[k]).all()) and bool((v <= highs[k]).all())
        same = bool((v == again[k].to(torch.float64)).all())
        if not bool((v == other[k].to(torch.float64)).all()):
            distinct += 1
        print(names[k], a.dtype, a.shape, a.device.type == x.device.type, same, inside)
    # a seed changes most draws (a few tiny ones may agree by chance)
    print("another seed draws differently", distinct >= 15)
    # the integer draws are integers, the permutations permutations, a certain bernoulli exact
    print(bool((first[4] == first[4].round()).all()), bool((first[9] == first[9].floor()).all()))
    show("randperm_sorted", first[20].cpu().sort()[0])
    show("randperm_float_sorted", first[21].cpu().sort()[0])
    show("bernoulli_certain", first[19])
    # the mean of many uniforms and normals
    torch.manual_seed(5)
    print(abs(float(torch.rand(100000).mean()) - 0.5) < 0.01,
          abs(float(torch.randn(100000).mean())) < 0.02,
          abs(float(torch.randn(100000).std()) - 1.0) < 0.02)
    print(x.t().contiguous().is_contiguous(), x.device.type)
    print(torch.ones([2, 2]) * 3)
