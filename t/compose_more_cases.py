# t/compose_more_cases.py — ops PyTorch composes from others (plugins/aten-cpu/shape/
# compose_more.c): dist, renorm and renorm_, addbmm and baddbmm_, the functional zero and
# fill, is_inference; angle of a real tensor and the in-place special functions (digamma_,
# i0_, polygamma_, mvlgamma_, igamma_, igammac_: pointwise/special.c); combinations, vander
# and linalg.vander (create/arrangements.c). Values as PyTorch 1.13 computes them, their
# dtype rules and their messages. Under PyTorch:
#     /usr/bin/python3 t/compose_more_cases.py
# t/compose_more_cases.sh runs them through t/cases.sh.
import math

import torch


def close(a: torch.Tensor, b: torch.Tensor) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and bool(torch.allclose(a, b, 1e-5, 1e-6))


def test_angle_of_real_tensors():
    x = torch.tensor([1.0, -2.0, 0.0, -0.0, float("nan")])
    a = torch.angle(x)
    assert a[0].item() == 0.0 and abs(a[1].item() - math.pi) < 1e-6 and a[2].item() == 0.0
    assert a[3].item() == 0.0 and math.isnan(a[4].item())
    assert torch.tensor([-1, 0, 3]).angle().dtype == torch.float32      # ints become float
    assert torch.tensor([True]).angle().dtype == torch.float32
    assert torch.tensor([-1.5], dtype=torch.float64).angle().dtype == torch.float64


def test_dist():
    a = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    b = torch.tensor([0.5, -1.0])                                 # broadcast
    assert close(torch.dist(a, b), torch.tensor(6.363961))
    assert close(a.dist(b, 1), torch.tensor(11.0)) and close(a.dist(b, 0), torch.tensor(4.0))
    assert close(a.dist(b, float("inf")), torch.tensor(5.0))
    assert close(a.dist(b, 3.5), torch.tensor(5.336477))
    assert torch.dist(a.double(), b).dtype == torch.float64 and torch.dist(a, b).dim() == 0


def test_renorm():
    x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    assert close(x.renorm(2, 0, 5.0), torch.tensor([[1.0, 2.0, 3.0], [2.279212, 2.849014, 3.418817]]))
    assert close(torch.renorm(x, 1, 1, 6.0), torch.tensor([[1.0, 1.714286, 2.0], [4.0, 4.285714, 4.0]]))
    assert close(x.renorm(float("inf"), 0, 2.0), torch.tensor([[0.666667, 1.333333, 2.0], [1.333333, 1.666667, 2.0]]))
    y = x.clone()
    r = y.renorm_(2, 1, 3.0)
    assert r is y and close(y, torch.tensor([[0.727607, 1.114172, 1.341641], [2.910427, 2.785430, 2.683282]]))
    h = x.half().renorm(2, -1, 3.0)
    assert h.dtype == torch.float16 and abs(h[1, 2].item() - 2.683282) < 2e-3


def test_addbmm_and_baddbmm_():
    m = torch.ones(2, 3)
    b1 = torch.arange(12.0).reshape(2, 2, 3)
    b2 = torch.arange(18.0).reshape(2, 3, 3)
    assert close(torch.addbmm(m, b1, b2), torch.tensor([[274.0, 298.0, 322.0], [409.0, 451.0, 493.0]]))
    assert close(m.addbmm(b1, b2, beta=0.5, alpha=2), torch.tensor([[546.5, 594.5, 642.5], [816.5, 900.5, 984.5]]))
    assert close(torch.addbmm(torch.ones(3), b1, b2), torch.addbmm(m, b1, b2))      # self broadcast
    nan = torch.full((2, 3), float("nan"))
    assert not bool(torch.addbmm(nan, b1, b2, beta=0).isnan().any())                # beta 0: self unread
    i = torch.ones(2, 2, 2, dtype=torch.int64)
    assert torch.addbmm(torch.ones(2, 2, dtype=torch.int64), i, i).dtype == torch.int64
    c = torch.zeros(2, 2, 2)
    r = c.baddbmm_(b1, b1.transpose(1, 2), alpha=0.5)
    assert r is c and close(c[1], torch.tensor([[74.5, 106.0], [106.0, 151.0]]))


def test_functional_zero_and_fill():
    x = torch.tensor([1.0, 2.0])
    z = torch.zero(x) if False else torch.zero_(x.clone())
    assert close(z, torch.zeros(2))
    f = torch.fill(x, 3)
    assert close(f, torch.full((2,), 3.0)) and close(x, torch.tensor([1.0, 2.0]))
    assert close(torch.fill(x, torch.tensor(2.5)), torch.full((2,), 2.5))
    n = torch.fill(torch.tensor([1, 2]), 2.7)
    assert n.dtype == torch.int64 and n[0].item() == 2 and n[1].item() == 2
    assert not torch.ones(2).is_inference()


def test_in_place_special_functions():
    x = torch.tensor([0.5, 1.5, 3.0])
    y = x.clone()
    assert y.digamma_() is y and close(y, torch.digamma(x))
    y = x.clone()
    y.i0_()
    assert close(y, torch.i0(x))
    y = x.clone()
    y.polygamma_(1)
    assert close(y, torch.polygamma(1, x))
    y = x.clone() + 2
    y.mvlgamma_(2)
    assert close(y, torch.mvlgamma(x + 2, 2))
    o = torch.tensor([1.0, 2.0, 0.5])
    y = x.clone()
    y.igamma_(o)
    assert close(y, torch.igamma(x, o))
    y = x.clone()
    y.igammac_(o)
    assert close(y, torch.igammac(x, o))
    v = torch.ones(2, 3)
    v[:, 1].digamma_()                                            # through a view
    assert abs(v[0, 1].item() + 0.5772157) < 1e-5 and v[0, 0].item() == 1.0


def test_combinations():
    a = torch.tensor([1, 2, 3, 4])
    c = torch.combinations(a)
    assert c.shape == [6, 2] and torch.equal(c[0], torch.tensor([1, 2])) and torch.equal(c[5], torch.tensor([3, 4]))
    c3 = torch.combinations(a, 3)
    assert c3.shape == [4, 3] and torch.equal(c3[1], torch.tensor([1, 2, 4])) and torch.equal(c3[3], torch.tensor([2, 3, 4]))
    w = torch.combinations(a, with_replacement=True)
    assert w.shape == [10, 2] and torch.equal(w[1], torch.tensor([1, 2])) and torch.equal(w[4], torch.tensor([2, 2]))
    assert torch.combinations(a, 0).shape == [0] and torch.combinations(a, 0).dtype == torch.int64
    e = torch.combinations(torch.tensor([1.5, 2.5]), 3)
    assert e.shape == [0, 3] and e.dtype == torch.float32
    assert torch.combinations(a, 1).shape == [4, 1]
    assert torch.combinations(torch.tensor([1.0, 2.0]), 3, True).shape == [4, 3]


def test_vander():
    x = torch.tensor([1, 2, 3])
    v = torch.vander(x)
    assert v.dtype == torch.int64 and torch.equal(v[2], torch.tensor([9, 3, 1]))
    assert torch.equal(torch.vander(x, 2)[1], torch.tensor([2, 1]))
    assert torch.equal(torch.vander(x, 4, True)[2], torch.tensor([1, 3, 9, 27]))
    assert torch.vander(x.float()).dtype == torch.float32 and torch.vander(x, 0).shape == [3, 0]
    assert torch.vander(torch.tensor([1, 2], dtype=torch.int32)).dtype == torch.int64
    assert torch.equal(torch.vander(torch.tensor([True, False]))[0], torch.tensor([1, 1]))
    lv = torch.linalg.vander(torch.tensor([1.0, 2.0, 3.0]), N=4)
    assert lv.dtype == torch.float32 and torch.equal(lv[2], torch.tensor([1.0, 3.0, 9.0, 27.0]))
    b = torch.linalg.vander(torch.tensor([[1, 2], [3, 4]]))
    assert b.shape == [2, 2, 2] and torch.equal(b[1, 1], torch.tensor([1, 4]))


def err_combinations_of_a_matrix():
    # raises: Expect a 1D vector, but got shape [2, 2]
    print(torch.combinations(torch.ones(2, 2)))


def err_combinations_negative_r():
    # raises: Expect a non-negative number, but got -1
    print(torch.combinations(torch.ones(3), -1))


def err_combinations_too_many():
    # raises: numel: integer multiplication overflow
    print(torch.combinations(torch.arange(200), 100).shape)


def err_vander_of_a_matrix():
    # raises: x must be a one-dimensional tensor.
    print(torch.vander(torch.ones(2, 2)))


def err_vander_negative_n():
    # raises: N must be non-negative.
    print(torch.vander(torch.ones(2), -1))


def err_linalg_vander_n():
    # raises: N must be greater than 1.
    print(torch.linalg.vander(torch.ones(3), N=1))


def test_addbmm_and_ldexp_in_place():
    m = torch.ones(2, 3)
    b1 = torch.arange(12.0).reshape(2, 2, 3)
    b2 = torch.arange(18.0).reshape(2, 3, 3)
    r = m.addbmm_(b1, b2, beta=0.5)
    assert r is m and close(m, torch.tensor([[273.5, 297.5, 321.5], [408.5, 450.5, 492.5]]))
    v = torch.ones(3)
    v.addbmm_(torch.ones(2, 2, 3), torch.ones(2, 3, 3))              # resized as out= is
    assert v.shape == [2, 3] and v[1, 2].item() == 7.0
    x = torch.tensor([1.0, 3.0])
    assert x.ldexp_(torch.tensor([2, 3])) is x and torch.equal(x, torch.tensor([4.0, 24.0]))
    assert not torch.ones(2).is_pinned()


def err_addbmm_in_place_dtype():
    # raises: self and mat2 must have the same dtype
    m = torch.ones(2, 2, dtype=torch.int64)
    m.addbmm_(torch.ones(2, 2, 2), torch.ones(2, 2, 2))
    print(m)


def err_ldexp_in_place_integers():
    # raises: result type Float can't be cast to the desired output type Long
    x = torch.tensor([1, 3])
    x.ldexp_(torch.tensor([2, 3]))
    print(x)


def test_out_forms():
    o = torch.zeros(7)
    r = torch.angle(torch.tensor([-1.0, 2.0]), out=o)
    assert r is o and o.shape == [2] and abs(o[0].item() - 3.1415927) < 1e-6
    d = torch.zeros(0, dtype=torch.int64)
    torch.dist(torch.tensor([1.0, 2.0]), torch.tensor([0.0, 0.0]), out=d)     # cast into int64
    assert d.dim() == 0 and d.item() == 2
    n = torch.zeros(0)
    torch.renorm(torch.ones(2, 3), 2, 0, 1.0, out=n)
    assert n.shape == [2, 3] and abs(n[1, 2].item() - 0.5773503) < 1e-5
    a = torch.zeros(2, 2)
    torch.addbmm(torch.ones(2, 2), torch.ones(2, 2, 3), torch.ones(2, 3, 2), out=a)
    assert a[1, 1].item() == 7.0
    f = torch.zeros(2, dtype=torch.int64)
    torch.fill(torch.ones(2), 3, out=f)
    assert f.dtype == torch.int64 and f[1].item() == 3


def err_angle_out_of_integers():
    # raises: result type Float can't be cast to the desired output type Long
    o = torch.zeros(2, dtype=torch.int64)
    print(torch.angle(torch.tensor([-1.0, 2.0]), out=o))


def err_renorm_out_dtype():
    # raises: Expected out tensor to have dtype float, but got double instead
    o = torch.zeros(2, 3, dtype=torch.float64)
    print(torch.renorm(torch.ones(2, 3), 2, 0, 1.0, out=o))


def err_addbmm_out_dtype():
    # raises: self and mat2 must have the same dtype
    o = torch.zeros(2, 2, dtype=torch.int64)
    print(torch.addbmm(torch.ones(2, 2), torch.ones(2, 2, 3), torch.ones(2, 3, 2), out=o))


def err_dist_of_integers():
    # raises: norm(): input dtype should be either floating point or complex. Got Long instead.
    print(torch.dist(torch.tensor([1, 2]), torch.tensor([3, 4])))


def err_renorm_negative_maxnorm():
    # raises: renorm: expected maxnorm to be >= 0 but got -1
    print(torch.ones(2, 3).renorm(2, 0, -1.0))


def err_renorm_vector():
    # raises: renorm: input needs at least 2 dimensions, got 1 dimensions
    print(torch.ones(2).renorm(2, 0, 1.0))


def err_renorm_non_positive_p():
    # raises: renorm: non-positive-norm not supported
    print(torch.ones(2, 3).renorm(0, 0, 1.0))


def err_renorm_integers():
    # raises: linalg.vector_norm: Expected a floating point or complex tensor as input. Got Long
    print(torch.ones(2, 2, dtype=torch.int64).renorm(2, 0, 1.0))


def err_addbmm_batches():
    # raises: batch1 and batch2 must have same number of batches, got 2 and 3
    print(torch.addbmm(torch.ones(2, 3), torch.ones(2, 2, 3), torch.ones(3, 3, 3)))


def err_addbmm_inner_sizes():
    # raises: Incompatible matrix sizes for bmm (2x3 and 2x2)
    print(torch.addbmm(torch.ones(2, 2), torch.ones(2, 2, 3), torch.ones(2, 2, 2)))


def err_addbmm_self_shape():
    # raises: The expanded size of the tensor (3) must match the existing size (4) at non-singleton dimension 1.  Target sizes: [2, 3].  Tensor sizes: [2, 4]
    print(torch.addbmm(torch.ones(2, 4), torch.ones(2, 2, 3), torch.ones(2, 3, 3)))


def err_addbmm_matrices():
    # raises: Dimension out of range (expected to be in range of [-2, 1], but got 2)
    print(torch.addbmm(torch.ones(2, 2), torch.ones(2, 2), torch.ones(2, 2)))


def err_baddbmm_in_place_shape():
    # raises: Bad in-place call: input tensor size [2, 1] and output tensor size [2, 2, 1] should match
    c = torch.zeros(2, 1)
    c.baddbmm_(torch.ones(2, 2, 3), torch.ones(2, 3, 1))
    print(c)


def err_fill_with_a_vector():
    # raises: fill_ only supports 0-dimension value tensor but got tensor with 1 dimensions.
    print(torch.fill(torch.ones(2), torch.tensor([1.0])))


def err_digamma_in_place_of_integers():
    # raises: result type Float can't be cast to the desired output type Long
    x = torch.tensor([1, 2])
    x.digamma_()
    print(x)


def err_polygamma_in_place_negative():
    # raises: polygamma(n, x) does not support negative n.
    x = torch.tensor([1.0])
    x.polygamma_(-1)
    print(x)


def err_mvlgamma_in_place_p():
    # raises: p has to be greater than or equal to 1
    x = torch.tensor([3.0])
    x.mvlgamma_(0)
    print(x)


if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
