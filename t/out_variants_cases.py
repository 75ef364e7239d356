# t/out_variants_cases.py — the out= forms of schemas/aten_out.yaml (engine/out_variants.c):
# each writes what its functional form returns into the out tensor, which it returns (the
# same object); an out of the wrong shape is resized, an out that is a view of a bigger
# tensor is written through, leaving the rest alone. Each err_* function fails with the
# message of PyTorch's kernel for that op's dtype rule, or lists the out= variants when a
# call matches no overload. t/out_variants_cases.sh runs them under tscript; under PyTorch:
#     /usr/bin/python3 t/out_variants_cases.py
from typing import List, Tuple

import torch


def same(r: torch.Tensor, o: torch.Tensor, want: torch.Tensor) -> bool:
    """r is the out tensor o, which holds want (its dtype, shape and values)."""
    return (r is o and o.dtype == want.dtype and o.shape == want.shape and
            torch.allclose(o.double(), want.double(), 1e-5, 1e-6, equal_nan=True))


def holder(want: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
    """A bigger tensor of want's dtype filled with -7, and a view of it with want's shape
    (every other element of the last dim: not contiguous)."""
    if want.dim() == 0:
        big = torch.full([2], -7, dtype=want.dtype)
        return big, big[1]
    shape: List[int] = want.shape
    wide = shape[:-1] + [shape[-1] * 2]
    big = torch.full(wide, -7, dtype=want.dtype)
    return big, big.transpose(0, -1)[::2].transpose(0, -1)


def untouched(big: torch.Tensor) -> bool:
    """The elements of holder's big tensor outside its view are still -7."""
    if big.dim() == 1 and big.numel() == 2:
        return bool(big[0] == -7)
    return bool((big.transpose(0, -1)[1::2] == -7).all())


def spd() -> torch.Tensor:
    a = torch.tensor([[2.0, 0.5, 0.1], [0.3, 1.5, 0.2], [0.1, 0.4, 3.0]])
    return a @ a.t() + torch.eye(3)


def sq() -> torch.Tensor:
    return torch.tensor([[4.0, 1.0, 0.5], [0.2, 3.0, 1.0], [0.7, 0.1, 5.0]])


def test_matrix_products():
    a = torch.arange(24.0).reshape(2, 3, 4) / 10
    b = torch.arange(40.0).reshape(2, 4, 5) / 10
    m = torch.arange(12.0).reshape(3, 4) / 4
    v = torch.tensor([1.0, -2.0, 0.5, 3.0])
    want = torch.bmm(a, b)
    o = torch.zeros(7)
    assert same(torch.bmm(a, b, out=o), o, want)
    big, w = holder(want)
    assert same(torch.bmm(a, b, out=w), w, want) and untouched(big)
    want = torch.addmm(m, m, torch.ones(4, 4), beta=0.5, alpha=2)
    o = torch.zeros(2, 2)
    assert same(torch.addmm(m, m, torch.ones(4, 4), beta=0.5, alpha=2, out=o), o, want)
    big, w = holder(want)
    assert same(torch.addmm(m, m, torch.ones(4, 4), beta=0.5, alpha=2, out=w), w, want) and untouched(big)
    c = torch.ones(2, 3, 5)
    want = torch.baddbmm(c, a, b, alpha=0.5)
    o = torch.zeros(0)
    assert same(torch.baddbmm(c, a, b, alpha=0.5, out=o), o, want)
    want = torch.mv(m, v)
    big, w = holder(want)
    assert same(torch.mv(m, v, out=w), w, want) and untouched(big)
    want = torch.dot(v, v)
    o = torch.zeros(3)
    assert same(torch.dot(v, v, out=o), o, want)
    big, w = holder(want)
    assert same(torch.vdot(v, v, out=w), w, want) and untouched(big)
    want = torch.inner(m, m)
    o = torch.zeros(1)
    assert same(torch.inner(m, m, out=o), o, want)
    want = torch.linalg.multi_dot([m, m.t(), m])
    o = torch.zeros(1)
    assert same(torch.linalg.multi_dot([m, m.t(), m], out=o), o, want)
    want = torch.linalg.matmul(m, m.t())
    big, w = holder(want)
    assert same(torch.linalg.matmul(m, m.t(), out=w), w, want) and untouched(big)
    want = torch.linalg.vecdot(m, m)
    o = torch.zeros(5, 5)
    assert same(torch.linalg.vecdot(m, m, out=o), o, want)
    want = torch._C._nn.linear(m, m, v[:3])
    o = torch.zeros(0)
    assert same(torch._C._nn.linear(m, m, v[:3], out=o), o, want)


def test_linalg():
    s = spd()
    q = sq()
    want = torch.linalg.inv(q)
    o = torch.zeros(1)
    assert same(torch.linalg.inv(q, out=o), o, want)
    big, w = holder(want)
    assert same(torch.inverse(q, out=w), w, want) and untouched(big)
    want = torch.linalg.cholesky(s)
    o = torch.zeros(0)
    assert same(torch.linalg.cholesky(s, out=o), o, want)
    big, w = holder(want)
    assert same(torch.cholesky(s, out=w), w, want) and untouched(big)
    want = torch.cholesky_inverse(want)
    o = torch.zeros(2)
    assert same(torch.cholesky_inverse(torch.linalg.cholesky(s), out=o), o, want)
    want = torch.cholesky_solve(q, torch.linalg.cholesky(s))
    o = torch.zeros(2)
    assert same(torch.cholesky_solve(q, torch.linalg.cholesky(s), out=o), o, want)
    want = torch.linalg.det(q)
    o = torch.zeros(4)
    assert same(torch.linalg.det(q, out=o), o, want)
    want = torch.linalg.eigvalsh(s)
    big, w = holder(want)
    assert same(torch.linalg.eigvalsh(s, out=w), w, want) and untouched(big)
    want = torch.linalg.solve(q, s)
    o = torch.zeros(0)
    assert same(torch.linalg.solve(q, s, out=o), o, want)
    want = torch.linalg.solve_triangular(q.triu(), s, upper=True)
    o = torch.zeros(0)
    assert same(torch.linalg.solve_triangular(q.triu(), s, upper=True, out=o), o, want)
    want = torch.linalg.svdvals(q)
    o = torch.zeros(0)
    assert same(torch.linalg.svdvals(q, out=o), o, want)
    want = torch.linalg.matrix_power(q, 3)
    o = torch.zeros(0)
    assert same(torch.linalg.matrix_power(q, 3, out=o), o, want)
    o = torch.zeros(0)
    assert same(torch.matrix_power(q, 3, out=o), o, want)
    want = torch.linalg.matrix_exp(q / 10)
    o = torch.zeros(0)
    assert same(torch.linalg.matrix_exp(q / 10, out=o), o, want)
    want = torch.linalg.tensorinv(q, 1)
    o = torch.zeros(0)
    assert same(torch.linalg.tensorinv(q, 1, out=o), o, want)
    want = torch.linalg.cross(q, s)
    big, w = holder(want)
    assert same(torch.linalg.cross(q, s, out=w), w, want) and untouched(big)
    o = torch.zeros(0)
    assert same(torch.cross(q, s, dim=1, out=o), o, want)
    tau = torch.tensor([0.5, 0.25])
    want = torch.linalg.householder_product(q, tau)
    o = torch.zeros(0)
    assert same(torch.linalg.householder_product(q, tau, out=o), o, want)
    o = torch.zeros(0)
    assert same(torch.orgqr(q, tau, out=o), o, want)


def test_linalg_lu():
    q = sq()
    LU, piv = torch.linalg.lu_factor(q)
    lu = torch.zeros(0)
    pv = torch.zeros(0, dtype=torch.int32)
    r1, r2 = torch.linalg.lu_factor(q, LU=lu, pivots=pv)
    assert same(r1, lu, LU) and same(r2, pv, piv)
    want = torch.linalg.lu_solve(LU, piv, q.t())
    o = torch.zeros(0)
    assert same(torch.linalg.lu_solve(LU, piv, q.t(), out=o), o, want)
    want = torch.lu_solve(q.t(), LU, piv)
    big, w = holder(want)
    assert same(torch.lu_solve(q.t(), LU, piv, out=w), w, want) and untouched(big)
    P, L, U = torch.linalg.lu(q)
    p = torch.zeros(0)
    l = torch.zeros(0)
    u = torch.zeros(0)
    r1, r2, r3 = torch.linalg.lu(q, P=p, L=l, U=u)
    assert same(r1, p, P) and same(r2, l, L) and same(r3, u, U)
    P, L, U = torch.lu_unpack(LU, piv)
    p = torch.zeros(0)
    l = torch.zeros(0)
    u = torch.zeros(0)
    r1, r2, r3 = torch.lu_unpack(LU, piv, P=p, L=l, U=u)
    assert same(r1, p, P) and same(r2, l, L) and same(r3, u, U)


def test_linalg_pairs():
    s = spd()
    q = sq()
    E, V = torch.linalg.eigh(s)
    e = torch.zeros(0)
    v = torch.zeros(5)
    r1, r2 = torch.linalg.eigh(s, eigvals=e, eigvecs=v)
    assert same(r1, e, E) and same(r2, v, V)
    Q, R = torch.linalg.qr(q)
    a = torch.zeros(0)
    b = torch.zeros(0)
    r1, r2 = torch.linalg.qr(q, Q=a, R=b)
    assert same(r1, a, Q) and same(r2, b, R)
    a = torch.zeros(0)
    b = torch.zeros(0)
    r1, r2 = torch.qr(q, Q=a, R=b)
    assert same(r1, a, Q) and same(r2, b, R)
    S, LD = torch.linalg.slogdet(q)
    a = torch.zeros(2)
    b = torch.zeros(0)
    r1, r2 = torch.linalg.slogdet(q, sign=a, logabsdet=b)
    assert same(r1, a, S) and same(r2, b, LD)
    a = torch.zeros(0)
    b = torch.zeros(0)
    r1, r2 = torch.slogdet(q, sign=a, logabsdet=b)
    assert same(r1, a, S) and same(r2, b, LD)
    L, info = torch.linalg.cholesky_ex(s)
    a = torch.zeros(0)
    b = torch.zeros(0, dtype=torch.int32)
    r1, r2 = torch.linalg.cholesky_ex(s, L=a, info=b)
    assert same(r1, a, L) and same(r2, b, info)
    I, info = torch.linalg.inv_ex(q)
    a = torch.zeros(0)
    b = torch.zeros(0, dtype=torch.int32)
    r1, r2 = torch.linalg.inv_ex(q, inverse=a, info=b)
    assert same(r1, a, I) and same(r2, b, info)
    X, info = torch.linalg.solve_ex(q, s)
    a = torch.zeros(0)
    b = torch.zeros(0, dtype=torch.int32)
    r1, r2 = torch.linalg.solve_ex(q, s, result=a, info=b)
    assert same(r1, a, X) and same(r2, b, info)
    X, M = torch.triangular_solve(s, q.triu())
    a = torch.zeros(0)
    b = torch.zeros(0)
    r1, r2 = torch.triangular_solve(s, q.triu(), X=a, M=b)
    assert same(r1, a, X) and same(r2, b, M)
    U, S, Vh = torch.linalg.svd(q)
    a = torch.zeros(0)
    b = torch.zeros(0)
    c = torch.zeros(0)
    r1, r2, r3 = torch.linalg.svd(q, U=a, S=b, Vh=c)
    assert r1 is a and r2 is b and r3 is c
    assert torch.allclose(a @ torch.diag(b) @ c, q, 1e-4, 1e-5) and torch.allclose(b, S)
    U, S, V = torch.svd(q)
    a = torch.zeros(0)
    b = torch.zeros(0)
    c = torch.zeros(0)
    r1, r2, r3 = torch.svd(q, U=a, S=b, V=c)
    assert r1 is a and r3 is c and torch.allclose(a @ torch.diag(b) @ c.t(), q, 1e-4, 1e-5)


def test_shape_ops():
    m = torch.arange(12.0).reshape(3, 4)
    want = torch.clone(m)
    big, w = holder(want)
    assert same(torch.clone(m, out=w), w, want) and untouched(big)
    want = torch.flip(m, [0, 1])
    o = torch.zeros(7)
    assert same(torch.flip(m, [0, 1], out=o), o, want)
    want = torch.roll(m, 1, 1)
    big, w = holder(want)
    assert same(torch.roll(m, 1, 1, out=w), w, want) and untouched(big)
    want = torch.tril(m, 1)
    big, w = holder(want)
    assert same(torch.tril(m, 1, out=w), w, want) and untouched(big)
    want = torch.triu(m, -1)
    o = torch.zeros(0)
    assert same(torch.triu(m, -1, out=o), o, want)
    want = torch.stack([m, m * 2], 1)
    o = torch.zeros(2)
    assert same(torch.stack([m, m * 2], 1, out=o), o, want)
    want = torch.ops.aten.repeat(m, [2, 1])
    o = torch.zeros(0)
    assert same(torch.ops.aten.repeat(m, [2, 1], out=o), o, want)
    want = torch.constant_pad_nd(m, [1, 2], 5.0)
    big, w = holder(want)
    assert same(torch.constant_pad_nd(m, [1, 2], 5.0, out=w), w, want) and untouched(big)
    want = torch.masked_select(m, m > 4.5)
    o = torch.zeros(2, 2)
    assert same(torch.masked_select(m, m > 4.5, out=o), o, want)
    want = torch.nonzero(m > 4.5)
    o = torch.zeros(0, dtype=torch.long)
    assert same(torch.nonzero(m > 4.5, out=o), o, want)
    idx = torch.tensor([2, 0, 2])
    want = torch.embedding(m, idx)
    big, w = holder(want)
    assert same(torch.embedding(m, idx, out=w), w, want) and untouched(big)
    want = torch.select_scatter(m, torch.ones(4), 0, 1)
    o = torch.zeros(0)
    assert same(torch.select_scatter(m, torch.ones(4), 0, 1, out=o), o, want)
    want = torch.slice_scatter(m, torch.ones(3, 2), 1, 0, 4, 2)
    o = torch.zeros(0)
    assert same(torch.slice_scatter(m, torch.ones(3, 2), 1, 0, 4, 2, out=o), o, want)
    want = torch.diagonal_scatter(m, torch.ones(3), 1)
    big, w = holder(want)
    assert same(torch.diagonal_scatter(m, torch.ones(3), 1, out=w), w, want) and untouched(big)
    want = torch.as_strided_scatter(m, torch.ones(2, 2), [2, 2], [4, 1], 1)
    o = torch.zeros(0)
    assert same(torch.as_strided_scatter(m, torch.ones(2, 2), [2, 2], [4, 1], 1, out=o), o, want)
    x = torch.arange(16.0).reshape(1, 4, 2, 2)
    want = torch.channel_shuffle(x, 2)
    o = torch.zeros(0)
    assert same(torch.channel_shuffle(x, 2, out=o), o, want)
    want = torch.put(m, torch.tensor([0, 5]), torch.tensor([9.0, 8.0]))
    o = torch.zeros(0)
    assert same(torch.put(m, torch.tensor([0, 5]), torch.tensor([9.0, 8.0]), out=o), o, want)


def test_out_is_an_input():
    # the result is computed before out is written: an out that is an input (or a view of
    # one) gets what the functional form returns
    m = torch.arange(12.0).reshape(3, 4)
    want = torch.tril(m)
    r = torch.tril(m, out=m)
    assert r is m and torch.equal(m, want)
    q = sq()
    want = torch.linalg.inv(q)
    torch.linalg.inv(q, out=q)
    assert torch.allclose(q, want)
    x = torch.tensor([1.0, 2.0, 3.0, 4.0])
    w = x[1:]
    torch.flip(x[:3], [0], out=w)
    assert torch.equal(x, torch.tensor([1.0, 3.0, 2.0, 1.0]))


def test_any_dtype_casts():
    # clone, flip, roll, repeat, embedding write into an out of any dtype, values cast
    m = torch.tensor([[1.5, -2.5], [3.75, 4.0]])
    o = torch.zeros(0, dtype=torch.int64)
    r = torch.clone(m, out=o)
    assert r is o and o.dtype == torch.int64 and torch.equal(o, torch.tensor([[1, -2], [3, 4]], dtype=o.dtype))
    o = torch.zeros(0, dtype=torch.float64)
    torch.flip(m, [1], out=o)
    assert o.dtype == torch.float64 and torch.equal(o, torch.tensor([[-2.5, 1.5], [4.0, 3.75]], dtype=o.dtype))
    o = torch.zeros(0, dtype=torch.int32)
    torch.embedding(m, torch.tensor([1]), out=o)
    assert torch.equal(o, torch.tensor([[3, 4]], dtype=o.dtype))


def test_split_into_list():
    m = torch.arange(12.0).reshape(3, 4)
    outs = [torch.zeros(0), torch.zeros(1, dtype=torch.int64)]
    torch.ops.aten.unsafe_split(m, 2, 1, out=outs)
    assert torch.equal(outs[0], torch.tensor([[0.0, 1.0], [4.0, 5.0], [8.0, 9.0]], dtype=outs[0].dtype))
    assert outs[1].dtype == torch.int64 and torch.equal(outs[1], torch.tensor([[2, 3], [6, 7], [10, 11]], dtype=outs[1].dtype))
    outs = [torch.zeros(0), torch.zeros(2)]
    torch.ops.aten.unsafe_split_with_sizes(m, [1, 3], 1, out=outs)
    assert outs[0].shape == [3, 1] and torch.equal(outs[1], torch.tensor([[1.0, 2.0, 3.0], [5.0, 6.0, 7.0], [9.0, 10.0, 11.0]], dtype=outs[1].dtype))


def test_pointwise_special():
    x = torch.tensor([0.25, 0.5, 1.5, 3.0])
    want = torch.digamma(x)
    big, w = holder(want)
    assert same(torch.digamma(x, out=w), w, want) and untouched(big)
    want = torch.i0(x)
    o = torch.zeros(2)
    assert same(torch.i0(x, out=o), o, want)
    want = torch.polygamma(2, x)
    o = torch.zeros(0)
    assert same(torch.polygamma(2, x, out=o), o, want)
    want = torch.mvlgamma(x + 2, 2)
    o = torch.zeros(0)
    assert same(torch.mvlgamma(x + 2, 2, out=o), o, want)
    want = torch.igamma(x, x * 2)
    o = torch.zeros(0)
    assert same(torch.igamma(x, x * 2, out=o), o, want)
    want = torch.igammac(x, x * 2)
    o = torch.zeros(0)
    assert same(torch.igammac(x, x * 2, out=o), o, want)
    want = torch.special.erfcx(x)
    o = torch.zeros(0)
    assert same(torch.special.erfcx(x, out=o), o, want)
    want = torch.special.ndtri(x / 4)
    o = torch.zeros(0)
    assert same(torch.special.ndtri(x / 4, out=o), o, want)
    want = torch.special.log_ndtr(x)
    big, w = holder(want)
    assert same(torch.special.log_ndtr(x, out=w), w, want) and untouched(big)
    want = torch.special.bessel_j0(x)
    o = torch.zeros(0)
    assert same(torch.special.bessel_j0(x, out=o), o, want)
    want = torch.special.modified_bessel_k1(x)
    o = torch.zeros(0)
    assert same(torch.special.modified_bessel_k1(x, out=o), o, want)
    want = torch.special.entr(x)
    o = torch.zeros(0)
    assert same(torch.special.entr(x, out=o), o, want)
    want = torch.special.sinc(x)
    o = torch.zeros(0)
    assert same(torch.special.sinc(x, out=o), o, want)
    want = torch.special.expit(x)
    o = torch.zeros(0)
    assert same(torch.special.expit(x, out=o), o, want)
    want = torch.special.logit(x / 4, 0.1)
    o = torch.zeros(0)
    assert same(torch.special.logit(x / 4, 0.1, out=o), o, want)
    want = torch.special.gammaln(x)
    o = torch.zeros(0)
    assert same(torch.special.gammaln(x, out=o), o, want)
    want = torch.special.round(x * 3, decimals=1)
    o = torch.zeros(0)
    assert same(torch.special.round(x * 3, decimals=1, out=o), o, want)
    want = torch.special.logsumexp(x.reshape(2, 2), [1])
    o = torch.zeros(0)
    assert same(torch.special.logsumexp(x.reshape(2, 2), [1], out=o), o, want)
    want = torch.special.multigammaln(x + 2, 3)
    o = torch.zeros(0)
    assert same(torch.special.multigammaln(x + 2, 3, out=o), o, want)
    # a float op into a float64 out: the float result cast
    o = torch.zeros(0, dtype=torch.float64)
    assert same(torch.special.i1e(x, out=o), o, torch.special.i1e(x).double())


def test_losses():
    x = torch.tensor([[0.2, -1.0, 0.7], [1.5, 0.3, -0.4]])
    y = torch.tensor([[0.0, 1.0, 1.0], [1.0, 0.0, 0.0]])
    want = torch._C._nn.mse_loss(x, y)
    o = torch.zeros(3)
    assert same(torch._C._nn.mse_loss(x, y, out=o), o, want)
    want = torch._C._nn.huber_loss(x, y, 2, 0.5)
    big, w = holder(want)
    assert same(torch._C._nn.huber_loss(x, y, 2, 0.5, out=w), w, want) and untouched(big)
    want = torch._C._nn.smooth_l1_loss(x, y, 0)
    o = torch.zeros(0)
    assert same(torch._C._nn.smooth_l1_loss(x, y, 0, out=o), o, want)
    want = torch._C._nn.soft_margin_loss(x, y)
    o = torch.zeros(0)
    assert same(torch._C._nn.soft_margin_loss(x, y, out=o), o, want)
    # PyTorch's binary_cross_entropy.out resizes its out only for reduction="none"
    want = torch._C._nn.binary_cross_entropy(torch.sigmoid(x), y, None, 0)
    o = torch.zeros(2, 3)
    assert same(torch._C._nn.binary_cross_entropy(torch.sigmoid(x), y, None, 0, out=o), o, want)
    want = torch.binary_cross_entropy_with_logits(x, y)
    o = torch.zeros(0)
    assert same(torch.binary_cross_entropy_with_logits(x, y, out=o), o, want)
    t = torch.tensor([2, 0])
    want = torch._C._nn.nll_loss(x, t)
    o = torch.zeros(0)
    assert same(torch._C._nn.nll_loss(x, t, out=o), o, want)
    want = torch._C._nn.multi_margin_loss(x, t)
    o = torch.zeros(0)
    assert same(torch._C._nn.multi_margin_loss(x, t, out=o), o, want)
    lt = torch.tensor([[1, -1, 0], [0, 2, -1]])
    want = torch._C._nn.multilabel_margin_loss(x, lt)
    o = torch.zeros(0)
    assert same(torch._C._nn.multilabel_margin_loss(x, lt, out=o), o, want)


def test_nn_ops():
    x = torch.arange(32.0).reshape(1, 2, 4, 4) / 10
    wt = torch.arange(36.0).reshape(2, 2, 3, 3) / 20
    want = torch.convolution(x, wt, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1)
    o = torch.zeros(0)
    assert same(torch.convolution(x, wt, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1, out=o), o, want)
    theta = torch.tensor([[[1.0, 0.2, 0.1], [0.0, 0.9, -0.1]]])
    want = torch.affine_grid_generator(theta, [1, 1, 2, 3], False)
    o = torch.zeros(0)
    assert same(torch.affine_grid_generator(theta, [1, 1, 2, 3], False, out=o), o, want)
    g = want
    want = torch.grid_sampler_2d(x, g, 0, 0, False)
    o = torch.zeros(0)
    assert same(torch.grid_sampler_2d(x, g, 0, 0, False, out=o), o, want)
    p = torch.arange(12.0).reshape(4, 3) / 3
    want = torch.ops.aten._cdist_forward(p, p * 2, 2.0, None)
    o = torch.zeros(0)
    assert same(torch.ops.aten._cdist_forward(p, p * 2, 2.0, None, out=o), o, want)
    want = torch.ops.aten._pdist_forward(p, 1.0)
    o = torch.zeros(0)
    assert same(torch.ops.aten._pdist_forward(p, 1.0, out=o), o, want)
    want = torch.ops.aten._euclidean_dist(p, p * 2)
    o = torch.zeros(0)
    assert same(torch.ops.aten._euclidean_dist(p, p * 2, out=o), o, want)
    y, ind = torch.nn.functional.max_pool2d(x, 2, return_indices=True)
    want = torch._C._nn.max_unpool2d(y, ind, [4, 4])
    o = torch.zeros(0)
    assert same(torch._C._nn.max_unpool2d(y, ind, [4, 4], out=o), o, want)


def test_factories_in_out_dtype():
    o = torch.zeros(0, dtype=torch.int64)
    r = torch.zeros([2, 3], out=o)
    assert r is o and o.dtype == torch.int64 and torch.equal(o, torch.tensor([[0, 0, 0], [0, 0, 0]], dtype=o.dtype))
    o = torch.zeros(5, dtype=torch.float64)
    torch.ones([2], out=o)
    assert o.dtype == torch.float64 and torch.equal(o, torch.tensor([1.0, 1.0], dtype=o.dtype))
    o = torch.zeros(0, dtype=torch.int32)
    torch.full([3], 7, out=o)
    assert o.dtype == torch.int32 and torch.equal(o, torch.tensor([7, 7, 7], dtype=o.dtype))
    o = torch.zeros(0, dtype=torch.int64)
    torch.linspace(0, 10, 4, out=o)
    assert torch.equal(o, torch.tensor([0, 3, 6, 10], dtype=o.dtype))
    o = torch.zeros(0, dtype=torch.float64)
    torch.logspace(0, 2, 3, out=o)
    assert o.dtype == torch.float64 and torch.equal(o, torch.tensor([1.0, 10.0, 100.0], dtype=o.dtype))
    big, w = holder(torch.zeros(2, 3))
    r = torch.full([2, 3], 2.5, out=w)
    assert r is w and torch.equal(w, torch.tensor([[2.5, 2.5, 2.5], [2.5, 2.5, 2.5]], dtype=w.dtype)) and untouched(big)
    m = torch.ones(2, 2)
    o = torch.zeros(0, dtype=torch.int64)
    torch.zeros_like(m, out=o)
    assert o.dtype == torch.int64 and o.shape == [2, 2]
    o = torch.zeros(0)
    torch.ones_like(m, out=o)
    assert torch.equal(o, torch.tensor([[1.0, 1.0], [1.0, 1.0]], dtype=o.dtype))
    o = torch.zeros(0)
    torch.full_like(m, 3.0, out=o)
    assert torch.equal(o, torch.tensor([[3.0, 3.0], [3.0, 3.0]], dtype=o.dtype))
    o = torch.zeros(0)
    r = torch.empty([3, 1], out=o)
    assert r is o and o.shape == [3, 1]
    o = torch.zeros(0)
    torch.empty_like(m, out=o)
    assert o.shape == [2, 2]
    o = torch.zeros(0, dtype=torch.float64)
    torch.scalar_tensor(2.5, out=o)
    assert o.dtype == torch.float64 and o.item() == 2.5
    o = torch.zeros(0, dtype=torch.int64)
    torch.ops.aten.new_zeros(m, [3], out=o)
    assert torch.equal(o, torch.tensor([0, 0, 0], dtype=o.dtype))
    o = torch.zeros(0)
    torch.ops.aten.new_ones(m, [2], out=o)
    assert torch.equal(o, torch.tensor([1.0, 1.0], dtype=o.dtype))
    o = torch.zeros(0)
    torch.ops.aten.new_full(m, [2], 4.0, out=o)
    assert torch.equal(o, torch.tensor([4.0, 4.0], dtype=o.dtype))


def test_random_into_out():
    # the same numbers PyTorch draws under the same seed, in out's dtype
    torch.manual_seed(5)
    o = torch.zeros(0)
    r = torch.rand([4], out=o)
    assert r is o and torch.allclose(o, torch.tensor([0.8302518725395203, 0.12611091136932373, 0.9074696898460388, 0.8199270367622375]))
    torch.manual_seed(5)
    want = torch.rand([3], dtype=torch.float64)
    torch.manual_seed(5)
    o = torch.zeros(0, dtype=torch.float64)
    assert same(torch.rand([3], out=o), o, want)
    torch.manual_seed(5)
    o = torch.zeros(9)
    torch.randn([3], out=o)
    assert torch.allclose(o, torch.tensor([-0.4867807626724243, -0.6038215756416321, -0.5580962300300598]))
    torch.manual_seed(5)
    o = torch.zeros(0, dtype=torch.int64)
    torch.randperm(6, out=o)
    assert torch.equal(o, torch.tensor([5, 0, 1, 3, 4, 2], dtype=o.dtype))
    m = torch.ones(2, 3)
    torch.manual_seed(2)
    want = torch.rand_like(m)
    torch.manual_seed(2)
    o = torch.zeros(0)
    assert same(torch.rand_like(m, out=o), o, want)
    torch.manual_seed(2)
    want = torch.randn_like(m)
    torch.manual_seed(2)
    o = torch.zeros(0)
    assert same(torch.randn_like(m, out=o), o, want)
    p = torch.tensor([[0.1, 0.5, 0.4], [0.7, 0.2, 0.1]])
    torch.manual_seed(3)
    want = torch.multinomial(p, 2)
    torch.manual_seed(3)
    o = torch.zeros(0, dtype=torch.int64)
    assert same(torch.multinomial(p, 2, out=o), o, want)
    torch.manual_seed(3)
    want = torch.poisson(p * 4)
    torch.manual_seed(3)
    o = torch.zeros(0)
    assert same(torch.poisson(p * 4, out=o), o, want)


def err_bmm_dtype():
    # raises: Expected out tensor to have dtype float, but got long int instead
    a = torch.ones(2, 3, 4)
    return torch.bmm(a, a.transpose(1, 2), out=torch.zeros(0, dtype=torch.int64))


def err_linalg_qr_dtype():
    # raises: Expected out tensor to have dtype float, but got double instead
    q = torch.zeros(0, dtype=torch.float64)
    return torch.linalg.qr(torch.eye(3), Q=q, R=torch.zeros(0))


def err_digamma_cast():
    # raises: result type Float can't be cast to the desired output type Long
    return torch.digamma(torch.ones(3), out=torch.zeros(0, dtype=torch.int64))


def err_mse_loss_cast():
    # raises: result type Float can't be cast to the desired output type Int
    return torch._C._nn.mse_loss(torch.ones(3), torch.zeros(3), out=torch.zeros(0, dtype=torch.int32))


def err_cholesky_castable():
    # raises: cholesky: Expected result to be safely castable from Float dtype, but got result with dtype Long
    return torch.cholesky(torch.eye(3), out=torch.zeros(0, dtype=torch.int64))


def err_matrix_power_exact():
    # raises: Expected out tensor to have dtype float, but got double instead
    return torch.matrix_power(torch.eye(3), 2, out=torch.zeros(0, dtype=torch.float64))


def err_multi_margin_scalar():
    # raises: expected scalar type Float but found Double
    return torch._C._nn.multi_margin_loss(torch.ones(2, 3), torch.tensor([0, 1]), out=torch.zeros(0, dtype=torch.float64))


def err_soft_margin_found():
    # raises: Found dtype Long but expected Float
    return torch._C._nn.soft_margin_loss(torch.ones(3), torch.ones(3), out=torch.zeros(0, dtype=torch.int64))


def err_dot_dtype():
    # raises: result dtype Long does not match input dtype Float
    return torch.dot(torch.ones(3), torch.ones(3), out=torch.zeros(0, dtype=torch.int64))


def err_multi_dot_dtype():
    # raises: multi_dot(): expected out tensor to have dtype float but got long int
    return torch.linalg.multi_dot([torch.ones(2, 2), torch.ones(2, 2)], out=torch.zeros(0, dtype=torch.int64))


def err_inner_dtype():
    # raises: tensordot: Expected the output tensor to have dtype Float, but got an output tensor with dtype Double
    return torch.inner(torch.ones(2, 2), torch.ones(2, 2), out=torch.zeros(0, dtype=torch.float64))


def err_vecdot_dtype():
    # raises: linalg.vecdot: Expected out of dtypeFloat but found Long
    return torch.linalg.vecdot(torch.ones(2, 2), torch.ones(2, 2), out=torch.zeros(0, dtype=torch.int64))


def err_masked_select_dtype():
    # raises: masked_select(): self and result must have the same scalar type
    m = torch.ones(2, 2)
    return torch.masked_select(m, m > 0, out=torch.zeros(0, dtype=torch.int64))


def err_nonzero_dtype():
    # raises: nonzero: Expected out tensor to have scalar type Long but got scalar typeFloat
    return torch.nonzero(torch.ones(2, 2), out=torch.zeros(0))


def err_multinomial_dtype():
    # raises: multinomial expects Long tensor out, got: Float
    return torch.multinomial(torch.ones(3), 2, out=torch.zeros(0))


def err_stack_cast():
    # raises: torch.cat(): input types can't be cast to the desired output type Long
    return torch.stack([torch.ones(2), torch.ones(2)], out=torch.zeros(0, dtype=torch.int64))


def err_mvlgamma_cast():
    # raises: mvlgamma: result type Float can't be cast to the desired output type Float
    return torch.mvlgamma(torch.ones(3) * 3, 2, out=torch.zeros(0, dtype=torch.int64))


def err_logsumexp_floating():
    # raises: logsumexp(): Expected floating point type for result tensor, but got: Long
    return torch.special.logsumexp(torch.ones(2, 2), [1], out=torch.zeros(0, dtype=torch.int64))


def err_logsumexp_half_out():
    # raises: "log_vml_cpu" not implemented for 'Half'
    return torch.special.logsumexp(torch.ones(2, 2), [1], out=torch.zeros(0, dtype=torch.float16))


def err_logspace_half_out():
    # raises: "logspace_cpu" not implemented for 'Half'
    return torch.logspace(0, 1, 3, out=torch.zeros(0, dtype=torch.float16))


def err_rand_into_long():
    # raises: "check_uniform_bounds" not implemented for 'Long'
    return torch.rand([2], out=torch.zeros(0, dtype=torch.int64))


def err_zeros_negative_size():
    # raises: numel: integer multiplication overflow
    return torch.zeros([2, -1], out=torch.zeros(0))


def err_randn_negative_size():
    # raises: numel: integer multiplication overflow
    return torch.randn([-3], out=torch.zeros(0))


def err_randperm_negative_n():
    # raises: n must be non-negative, got-2
    return torch.randperm(-2, out=torch.zeros(0, dtype=torch.int64))


def err_empty_negative_size():
    # raises: Trying to create tensor with negative dimension -1: [-1]
    return torch.empty([-1], out=torch.zeros(0))


def err_bmm_wrong_call():
    # raises: aten::bmm.out(Tensor self, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!)
    torch.bmm(torch.ones(2, 2, 2), 3)


def err_zeros_wrong_call():
    # raises: Arguments for call are not valid.
    torch.zeros(2, "a")


def err_stack_wrong_call():
    # raises: aten::stack.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!)
    torch.stack(torch.ones(2), 0)


def err_zeros_lists_out():
    # raises: aten::zeros.out(SymInt[] size, *, Tensor(a!) out) -> Tensor(a!)
    torch.zeros(2, "a")


def err_inverse_wrong_call():
    # raises: aten::inverse.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
    torch.inverse(torch.eye(2), 3)


def err_eigh_wrong_call():
    # raises: aten::linalg_eigh.eigvals(Tensor self, str UPLO="L", *, Tensor(a!) eigvals, Tensor(b!) eigvecs) -> (Tensor(a!) eigenvalues, Tensor(b!) eigenvectors)
    torch.linalg.eigh(torch.eye(2), 3)


if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
