# t/random_cases.py — the random draws of random.c: bernoulli_ (a probability or a tensor of
# them), bernoulli, uniform_, normal_, randperm, manual_seed, and the factories rand, randn,
# randint and their _like forms. tscript draws from its own generator,
# not PyTorch's, so the checks are the properties both share: exact results for p = 0 and 1,
# frequencies and ranges over many draws, permutations, and the same draws again after the
# same manual_seed. Each err_* function fails with PyTorch 1.13's message.
# t/random_cases.sh runs them under tscript; under PyTorch:
#     /usr/bin/python3 t/random_cases.py
import torch


def test_bernoulli_probability():
    x = torch.empty(20000)
    assert torch.equal(x.bernoulli_(0.0), torch.zeros(20000))
    assert torch.equal(x.bernoulli_(1.0), torch.ones(20000))
    r = x.bernoulli_(0.3)
    assert r is x
    m = float(x.mean())
    assert 0.28 < m < 0.32
    assert bool(((x == 0) | (x == 1)).all())
    i = torch.empty(1000, dtype=torch.long).bernoulli_(0.5)
    assert bool(((i == 0) | (i == 1)).all()) and 400 < int(i.sum()) < 600
    b = torch.empty(10, dtype=torch.bool).bernoulli_(1.0)
    assert bool(b.all())
    # any strides: a transposed view is filled in place
    t = torch.zeros(30, 40).t()
    t.bernoulli_(1.0)
    assert bool((t == 1).all())


def test_bernoulli_tensor():
    p = torch.tensor([0.0, 1.0, 0.0, 1.0]).repeat(100)
    x = torch.empty(400)
    x.bernoulli_(p)
    assert torch.equal(x, p)
    assert torch.equal(torch.bernoulli(p), p)
    y = torch.empty(3, 4).bernoulli_(torch.tensor([1.0, 0.0, 1.0, 0.0]))
    assert torch.equal(y, torch.tensor([1.0, 0.0, 1.0, 0.0]).expand(3, 4))
    half = torch.bernoulli(torch.full([5000], 0.5, dtype=torch.float64))
    assert half.dtype == torch.float64 and 2300 < int(half.sum()) < 2700
    q = torch.bernoulli(torch.zeros(2, 3), 1.0)
    assert torch.equal(q, torch.ones(2, 3))


def test_uniform():
    x = torch.empty(20000).uniform_(2.0, 5.0)
    assert bool((x >= 2.0).all()) and bool((x < 5.0).all())
    assert 3.4 < float(x.mean()) < 3.6
    d = torch.empty(10, dtype=torch.float64).uniform_()
    assert bool((d >= 0).all()) and bool((d < 1).all())
    e = torch.empty(5).uniform_(3.0, 3.0)
    assert torch.equal(e, torch.full([5], 3.0))


def test_randperm():
    p = torch.randperm(50)
    assert p.dtype == torch.long and torch.equal(p.sort()[0], torch.arange(50))
    assert torch.randperm(0).shape == (0,)
    f = torch.randperm(7, dtype=torch.float64)
    assert f.dtype == torch.float64 and torch.equal(f.sort()[0], torch.arange(7.0).double())
    s = torch.randperm(100)
    assert not torch.equal(s, torch.arange(100))


def test_manual_seed_repeats():
    torch.manual_seed(7)
    a = torch.empty(100).uniform_()
    pa = torch.randperm(30)
    torch.manual_seed(7)
    b = torch.empty(100).uniform_()
    pb = torch.randperm(30)
    assert torch.equal(a, b) and torch.equal(pa, pb)
    c = torch.empty(100).uniform_()
    assert not torch.equal(a, c)


def test_rand():
    x = torch.rand(4000, 3)
    assert x.dtype == torch.float32 and x.shape == (4000, 3)
    assert bool((x >= 0).all()) and bool((x < 1).all()) and 0.48 < float(x.mean()) < 0.52
    d = torch.rand([2, 3], dtype=torch.float64)
    assert d.dtype == torch.float64 and d.shape == (2, 3)
    assert torch.rand(0).shape == (0,) and torch.rand(2, 0, 3).numel() == 0
    l = torch.rand_like(torch.zeros(5, 6, dtype=torch.float64))
    assert l.dtype == torch.float64 and l.shape == (5, 6) and bool((l < 1).all())
    assert torch.rand_like(torch.zeros(2), dtype=torch.float16).dtype == torch.float16


def test_randn():
    y = torch.randn(20000, dtype=torch.float64)
    assert abs(float(y.mean())) < 0.03 and abs(float(y.std()) - 1) < 0.03
    assert bool(torch.isfinite(y).all())
    z = torch.randn_like(torch.zeros(3, 1000))
    assert z.shape == (3, 1000) and z.dtype == torch.float32 and abs(float(z.std()) - 1) < 0.06
    q = torch.zeros(20000).normal_(2.0, 0.5)
    assert abs(float(q.mean()) - 2) < 0.02 and abs(float(q.std()) - 0.5) < 0.02
    c = torch.zeros(10).normal_(3.0, 0.0)
    assert torch.equal(c, torch.full([10], 3.0))
    t = torch.zeros(30, 40).t()
    t.normal_()
    assert float(t.abs().sum()) > 0


def test_randint():
    z = torch.randint(3, 7, (5000,))
    assert z.dtype == torch.long and int(z.min()) == 3 and int(z.max()) == 6
    h = torch.randint(4, [2, 3])
    assert h.shape == (2, 3) and int(h.min()) >= 0 and int(h.max()) <= 3
    f = torch.randint(-5, 5, (100,), dtype=torch.float32)
    assert f.dtype == torch.float32 and bool((f == f.floor()).all()) and int(f.min()) >= -5
    b = torch.randint(0, 2, (1000,), dtype=torch.bool)
    assert b.dtype == torch.bool and 300 < int(b.sum()) < 700
    u = torch.randint(250, 256, (100,), dtype=torch.uint8)
    assert int(u.min()) >= 250
    big = torch.randint(-9223372036854775807, 9223372036854775807, (100,))
    assert not torch.equal(big, torch.zeros(100, dtype=torch.long))
    x = torch.zeros(40, 50)
    li = torch.randint_like(x, 10)
    assert li.dtype == torch.float32 and li.shape == (40, 50) and int(li.max()) <= 9
    lo = torch.randint_like(x, -3, 3, dtype=torch.int32)
    assert lo.dtype == torch.int32 and int(lo.min()) >= -3 and int(lo.max()) <= 2
    one = torch.randint_like(torch.zeros(7, dtype=torch.long), 1, 2)
    assert torch.equal(one, torch.ones(7, dtype=torch.long))


def test_factories_repeat_after_seed():
    torch.manual_seed(11)
    a, b, c = torch.rand(50), torch.randn(50), torch.randint(100, (50,))
    torch.manual_seed(11)
    assert torch.equal(a, torch.rand(50)) and torch.equal(b, torch.randn(50))
    assert torch.equal(c, torch.randint(100, (50,)))


def err_rand_integer():
    # raises: "check_uniform_bounds" not implemented for 'Long'
    return torch.rand(2, dtype=torch.int64)


def err_randn_integer():
    # raises: "normal_kernel_cpu" not implemented for 'Long'
    return torch.randn(2, dtype=torch.int64)


def err_randn_like_integer():
    # raises: "normal_kernel_cpu" not implemented for 'Int'
    return torch.randn_like(torch.zeros(2, dtype=torch.int32))


def err_normal_std():
    # raises: normal expects std >= 0.0, but found std -1
    return torch.zeros(3).normal_(0.0, -1.0)


def err_randint_empty_range():
    # raises: random_ expects 'from' to be less than 'to', but got from=3 >= to=3
    return torch.randint(3, 3, (2,))


def err_randint_high_zero():
    # raises: random_ expects 'from' to be less than 'to', but got from=0 >= to=0
    return torch.randint(0, (2,))


def err_randint_dtype_bounds():
    # raises: to - 1 is out of bounds for unsigned char
    return torch.randint(0, 300, (2,), dtype=torch.uint8)


def err_randint_dtype_from():
    # raises: from is out of bounds for unsigned char
    return torch.randint(-1, 3, (2,), dtype=torch.uint8)


def err_randint_bool():
    # raises: to - 1 is out of bounds for bool
    return torch.randint(0, 3, (2,), dtype=torch.bool)


def err_randint_complex():
    # raises: check_random_bounds handles only integral, floating-point and boolean types
    return torch.randint(0, 3, (2,), dtype=torch.complex64)


def err_rand_negative():
    # raises: Trying to create tensor with negative dimension -1: [-1]
    return torch.rand(-1)


def err_bernoulli_p():
    # raises: bernoulli_ expects p to be in [0, 1], but got p=1.5
    return torch.empty(3).bernoulli_(1.5)


def err_bernoulli_tensor_p():
    # raises: Expected p_in >= 0 && p_in <= 1 to be true, but got false.
    return torch.bernoulli(torch.tensor([0.5, 2.0]))


def err_bernoulli_integer_p():
    # raises: "bernoulli_tensor_cpu_p_" not implemented for 'Long'
    return torch.bernoulli(torch.tensor([1, 0]))


def err_bernoulli_tensor_p_dims():
    # raises: expand(torch.FloatTensor{[2, 3]}, size=[3]): the number of sizes provided (1) must be greater or equal to the number of dimensions in the tensor (2)
    return torch.empty(3).bernoulli_(torch.rand(2, 3))


def err_bernoulli_tensor_p_size():
    # raises: The expanded size of the tensor (3) must match the existing size (2) at non-singleton dimension 0.  Target sizes: [3].  Tensor sizes: [2]
    return torch.empty(3).bernoulli_(torch.rand(2))


def err_uniform_range():
    # raises: uniform_ expects to return a [from, to) range, but found from=1 > to=0
    return torch.empty(3).uniform_(1.0, 0.0)


def err_uniform_integer():
    # raises: "check_uniform_bounds" not implemented for 'Long'
    return torch.empty(3, dtype=torch.long).uniform_()


def err_randperm_negative():
    # raises: Trying to create tensor with negative dimension -1: [-1]
    return torch.randperm(-1)


def err_randperm_bool():
    # raises: "randperm" not implemented for 'Bool'
    return torch.randperm(3, dtype=torch.bool)


def err_randperm_overflow():
    # raises: value cannot be converted to type int8_t without overflow
    return torch.randperm(3000, dtype=torch.int8)


if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
