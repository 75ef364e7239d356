# t/linalg_cases.py — torch.linalg and the old linear-algebra names (plugins/aten-cpu/linalg/:
# decomp.c, spectral.c, linalg_extra.c on OpenBLAS's LAPACK): each result is checked by an
# identity (A @ inv(A) = I, Q @ R = A, U S Vh = A, ...) or against values PyTorch 1.13 gives,
# in float32 and float64, on single and batched matrices; each err_* function fails with
# PyTorch's message. t/linalg_cases.sh runs them under tscript; under PyTorch:
#     /usr/bin/python3 t/linalg_cases.py
from typing import List

import torch


def mat(dtype: torch.dtype) -> torch.Tensor:
    return torch.tensor([[2., 1., 0.5], [1., 3., -1.], [0.5, 2., 4.]], dtype=dtype)


def batch(dtype: torch.dtype) -> torch.Tensor:
    a = mat(dtype)
    return torch.stack([a, a.t() + torch.eye(3, dtype=dtype), a * 2 - torch.eye(3, dtype=dtype)])


def close(a: torch.Tensor, b: torch.Tensor) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and torch.allclose(a, b, 1e-4, 1e-5)


def eye_like(a: torch.Tensor) -> torch.Tensor:
    return torch.eye(a.size(-1), dtype=a.dtype).expand(a.shape)


def test_inv_det():
    for dt in [torch.float32, torch.float64]:
        for a in [mat(dt), batch(dt)]:
            assert close(a @ torch.linalg.inv(a), eye_like(a))
            assert close(torch.inverse(a), torch.linalg.inv(a))
            inv, info = torch.linalg.inv_ex(a)
            assert close(inv, torch.linalg.inv(a)) and info.dtype == torch.int32
            assert bool((info == 0).all())
        a = mat(dt)
        assert close(torch.linalg.det(a), torch.tensor(23.75, dtype=dt))
        assert close(torch.det(batch(dt)), torch.stack([torch.det(m) for m in batch(dt)]))
        s, l = torch.linalg.slogdet(a)
        assert close(s, torch.tensor(1.0, dtype=dt)) and close(l, torch.log(torch.tensor(23.75, dtype=dt)))
        assert close(torch.logdet(a), torch.log(torch.tensor(23.75, dtype=dt)))
        assert bool(torch.isnan(torch.logdet(-torch.eye(3, dtype=dt))))
    sing = torch.tensor([[1., 2.], [2., 4.]])
    assert float(torch.linalg.det(sing)) == 0.0
    s, l = torch.slogdet(sing)
    assert float(s) == 0.0 and float(l) == float("-inf")
    inv, info = torch.linalg.inv_ex(sing)
    assert int(info) == 2
    assert torch.linalg.det(torch.zeros(0, 0)).item() == 1.0


def test_solve():
    for dt in [torch.float32, torch.float64]:
        a = mat(dt)
        b = torch.tensor([1., -2., 0.5], dtype=dt)
        x = torch.linalg.solve(a, b)
        assert x.shape == (3,) and close(a @ x, b)
        assert close(x, torch.tensor([0.7894737, -0.7894737, 0.4210526], dtype=dt))
        bb = torch.arange(6, dtype=dt).reshape(3, 2)
        assert close(a @ torch.linalg.solve(a, bb), bb)
        assert close(torch.linalg.solve(a, bb.t(), left=False) @ a, bb.t())
        ab = batch(dt)
        xb = torch.linalg.solve(ab, bb)      # B broadcast over the batch
        assert xb.shape == (3, 3, 2) and close(ab @ xb, bb.expand(3, 3, 2))
        r, info = torch.linalg.solve_ex(ab, bb)
        assert close(r, xb) and info.shape == (3,)


def test_lu():
    for dt in [torch.float32, torch.float64]:
        for a in [mat(dt), batch(dt), torch.tensor([[1., 2., 3.], [4., 5., 6.]], dtype=dt)]:
            lu, piv = torch.linalg.lu_factor(a)
            assert piv.dtype == torch.int32
            p, l, u = torch.linalg.lu(a)
            assert close(p @ l @ u, a)
            p2, l2, u2 = torch.lu_unpack(lu, piv)
            assert close(p2, p) and close(l2, l) and close(u2, u)
        lu, piv = torch.linalg.lu_factor(torch.tensor([[1., 2., 3.], [4., 5., 6.]], dtype=dt))
        assert close(lu, torch.tensor([[4., 5., 6.], [0.25, 0.75, 1.5]], dtype=dt))
        assert torch.equal(piv, torch.tensor([2, 2], dtype=torch.int32))
        a = batch(dt)
        lu, piv = torch.linalg.lu_factor(a)
        b = torch.arange(9, dtype=dt).reshape(3, 3)
        assert close(a @ torch.linalg.lu_solve(lu, piv, b), b.expand(3, 3, 3))
        assert close(a.transpose(-2, -1) @ torch.linalg.lu_solve(lu, piv, b, adjoint=True), b.expand(3, 3, 3))
        assert close(torch.linalg.lu_solve(lu, piv, b, left=False) @ a, b.expand(3, 3, 3))
        assert close(a @ torch.lu_solve(b.expand(3, 3, 3), lu, piv), b.expand(3, 3, 3))
        lu, piv, info = torch.linalg.lu_factor_ex(torch.tensor([[1., 2.], [2., 4.]], dtype=dt))
        assert int(info) == 2


def test_cholesky():
    for dt in [torch.float32, torch.float64]:
        a = mat(dt)
        s = a @ a.t() + torch.eye(3, dtype=dt)
        l = torch.linalg.cholesky(s)
        assert close(l @ l.t(), s) and close(l, l.tril())
        assert close(l, torch.tensor([[2.5, 0., 0.], [1.8, 2.9597297, 0.], [2., -0.3716557, 4.1366434]], dtype=dt))
        u = torch.linalg.cholesky(s, upper=True)
        assert close(u, l.t()) and close(torch.cholesky(s, True), u)
        sb = torch.stack([s, s * 2])
        lb, info = torch.linalg.cholesky_ex(sb)
        assert close(lb @ lb.transpose(1, 2), sb) and torch.equal(info, torch.zeros(2, dtype=torch.int32))
        b = torch.arange(6, dtype=dt).reshape(3, 2)
        assert close(s @ torch.cholesky_solve(b, l), b)
        assert close(s @ torch.cholesky_solve(b, u, upper=True), b)
        assert close(torch.cholesky_inverse(l), torch.linalg.inv(s))
        assert close(torch.cholesky_inverse(u, upper=True), torch.linalg.inv(s))
    lb, info = torch.linalg.cholesky_ex(torch.stack([torch.eye(2), torch.tensor([[1., 2.], [2., 4.]])]))
    assert torch.equal(info, torch.tensor([0, 2], dtype=torch.int32))


def test_triangular():
    for dt in [torch.float32, torch.float64]:
        a = mat(dt).triu() + torch.eye(3, dtype=dt)
        b = torch.arange(6, dtype=dt).reshape(3, 2) - 2
        x = torch.linalg.solve_triangular(a, b, upper=True)
        assert close(a @ x, b)
        x = torch.linalg.solve_triangular(a.t(), b, upper=False)
        assert close(a.t() @ x, b)
        x = torch.linalg.solve_triangular(a, b.t(), upper=True, left=False)
        assert close(x @ a, b.t())
        x = torch.linalg.solve_triangular(a, b, upper=True, unitriangular=True)
        au = a.triu(1) + torch.eye(3, dtype=dt)
        assert close(au @ x, b)
        sol, coef = torch.triangular_solve(b, a)
        assert close(a @ sol, b) and close(coef, a)
        sol, coef = torch.triangular_solve(b, a, upper=True, transpose=True)
        assert close(a.t() @ sol, b)


def test_qr():
    for dt in [torch.float32, torch.float64]:
        for a in [mat(dt), batch(dt), torch.arange(12, dtype=dt).reshape(4, 3) ** 1.5,
                  torch.arange(12, dtype=dt).reshape(3, 4).sin()]:
            m, n = a.size(-2), a.size(-1)
            k = min(m, n)
            q, r = torch.linalg.qr(a)
            assert q.shape[-1] == k and r.shape[-2] == k
            assert close(q @ r, a) and close(r, r.triu())
            assert close(q.transpose(-2, -1) @ q, torch.eye(k, dtype=dt).expand(q.shape[:-2] + (k, k)))
            q, r = torch.linalg.qr(a, mode="complete")
            assert q.shape[-1] == m and close(q @ r, a)
            q, r2 = torch.linalg.qr(a, mode="r")
            assert q.numel() == 0 and close(r2, torch.linalg.qr(a)[1])
            q, r = torch.qr(a, some=False)
            assert close(q @ r, a)
        q, r = torch.linalg.qr(mat(dt))
        assert close(r[0], torch.tensor([-2.2912878, -2.6186147, -0.8728716], dtype=dt))
        g, tau = torch.geqrf(mat(dt))
        assert close(torch.linalg.householder_product(g, tau), torch.linalg.qr(mat(dt))[0])
        assert close(torch.orgqr(g, tau), torch.linalg.qr(mat(dt))[0])


def test_svd_eigh():
    for dt in [torch.float32, torch.float64]:
        for a in [mat(dt), batch(dt), torch.arange(12, dtype=dt).reshape(4, 3).cos(),
                  torch.arange(12, dtype=dt).reshape(3, 4).sin()]:
            u, s, vh = torch.linalg.svd(a, full_matrices=False)
            assert close(u @ torch.diag_embed(s) @ vh, a)
            assert close(torch.linalg.svdvals(a), s)
            uf, sf, vhf = torch.linalg.svd(a)
            assert uf.shape[-1] == a.shape[-2] and vhf.shape[-2] == a.shape[-1]
            u2, s2, v2 = torch.svd(a)
            assert close(u2 @ torch.diag_embed(s2) @ v2.transpose(-2, -1), a)
        u, s, vh = torch.linalg.svd(mat(dt))
        assert close(s, torch.tensor([4.7929798, 3.3714962, 1.4697426], dtype=dt))
        # the signs LAPACK's gesdd gives, as PyTorch's
        assert close(u[:, 0], torch.tensor([0.3303, 0.3103, 0.8914], dtype=dt))
        a = mat(dt)
        s = a @ a.t() + torch.eye(3, dtype=dt)
        w, v = torch.linalg.eigh(s)
        assert close(v @ torch.diag(w) @ v.t(), s)
        assert close(w, torch.tensor([3.1600, 12.3673, 23.9727], dtype=dt))
        assert close(v[:, 0], torch.tensor([0.8955, -0.4015, -0.1920], dtype=dt))
        assert close(torch.linalg.eigvalsh(s, UPLO="U"), w)
        sb = torch.stack([s, s * 3])
        wb, vb = torch.linalg.eigh(sb)
        assert close(vb @ torch.diag_embed(wb) @ vb.transpose(1, 2), sb)


def test_lstsq_pinv_rank():
    for dt in [torch.float32, torch.float64]:
        a = torch.tensor([[1., 2., 0.], [0., 1., 1.], [2., 0., 1.], [1., 1., 1.]], dtype=dt)
        b = torch.arange(8, dtype=dt).reshape(4, 2).sin()
        sol, res, rank, sv = torch.linalg.lstsq(a, b)
        ref = torch.linalg.pinv(a) @ b
        assert close(sol, ref)
        assert res.numel() == 0 and int(rank) == 3 and sv.numel() == 0
        for drv in ["gels", "gelsd", "gelss"]:
            sol, res, rank, sv = torch.linalg.lstsq(a, b, driver=drv)
            assert close(sol, ref)
            assert close(res, ((a @ ref - b) ** 2).sum(0))
        sol, res, rank, sv = torch.linalg.lstsq(a, b, driver="gelsd")
        assert close(sv, torch.linalg.svdvals(a))
        assert close(a @ torch.linalg.pinv(a) @ a, a)
        assert close(torch.pinverse(a), torch.linalg.pinv(a))
        s = a.t() @ a
        assert close(torch.linalg.pinv(s, hermitian=True), torch.linalg.inv(s))
        assert int(torch.linalg.matrix_rank(a)) == 3
        sing = torch.tensor([[1., 2.], [2., 4.]], dtype=dt)
        assert int(torch.linalg.matrix_rank(sing)) == 1
        assert int(torch.linalg.matrix_rank(sing, hermitian=True)) == 1
        assert int(torch.linalg.matrix_rank(a, atol=10.0, rtol=0.0)) < 3
        assert torch.equal(torch.linalg.matrix_rank(batch(dt)), torch.tensor([3, 3, 3]))


def test_norms_cond():
    for dt in [torch.float32, torch.float64]:
        a = mat(dt)
        assert close(torch.linalg.norm(a), torch.tensor(6.0415230, dtype=dt))
        assert close(torch.linalg.norm(a, "nuc"), torch.tensor(9.6342186, dtype=dt))
        assert close(torch.linalg.matrix_norm(a, 2), torch.tensor(4.7929798, dtype=dt))
        assert close(torch.linalg.matrix_norm(a, -2), torch.tensor(1.4697426, dtype=dt))
        assert close(torch.linalg.matrix_norm(a, 1), a.abs().sum(0).max())
        assert close(torch.linalg.matrix_norm(a, float("inf")), a.abs().sum(1).max())
        assert close(torch.linalg.matrix_norm(a, -1), a.abs().sum(0).min())
        assert close(torch.linalg.norm(a, 1, dim=(1, 0)), a.abs().sum(1).max())
        ab = batch(dt)
        assert close(torch.linalg.matrix_norm(ab, keepdim=True), (ab ** 2).sum((1, 2), keepdim=True).sqrt())
        assert close(torch.linalg.norm(ab, dim=(-2, -1)), torch.linalg.matrix_norm(ab))
        v = torch.tensor([3., -4.], dtype=dt)
        assert close(torch.linalg.norm(v), torch.tensor(5., dtype=dt))
        assert close(torch.linalg.norm(v, 1), torch.tensor(7., dtype=dt))
        assert close(torch.linalg.norm(ab, 3, dim=1), torch.linalg.vector_norm(ab, 3, dim=1))
        assert close(torch.linalg.cond(a), torch.tensor(3.2611921, dtype=dt))
        assert close(torch.linalg.cond(a, 1), torch.linalg.matrix_norm(a, 1) * torch.linalg.matrix_norm(torch.linalg.inv(a), 1))
        assert close(torch.linalg.cond(a, "fro"), torch.linalg.norm(a) * torch.linalg.norm(torch.linalg.inv(a)))
        assert float(torch.linalg.cond(torch.tensor([[1., 2.], [2., 4.]], dtype=dt), 1)) == float("inf")
        assert close(torch.nuclear_norm(a), torch.linalg.norm(a, "nuc"))


def test_power_exp():
    for dt in [torch.float32, torch.float64]:
        a = mat(dt)
        assert close(torch.linalg.matrix_power(a, 3), a @ a @ a)
        assert close(torch.matrix_power(a, 0), torch.eye(3, dtype=dt))
        assert close(torch.linalg.matrix_power(a, -2), torch.linalg.inv(a @ a))
        ab = batch(dt)
        assert close(torch.linalg.matrix_power(ab, 2), ab @ ab)
        d = torch.diag(torch.tensor([1., -2., 0.5], dtype=dt))
        assert close(torch.linalg.matrix_exp(d), torch.diag(torch.exp(torch.tensor([1., -2., 0.5], dtype=dt))))
        n = torch.tensor([[0., 1.], [-1., 0.]], dtype=dt)   # a rotation by 1 radian
        assert close(torch.matrix_exp(n), torch.tensor([[0.5403023, 0.8414710], [-0.8414710, 0.5403023]], dtype=dt))
        assert close(torch.linalg.matrix_exp(ab * 3)[1], torch.linalg.matrix_exp(ab[1] * 3))
    assert close(torch.linalg.matrix_power(torch.tensor([[1, 1], [1, 0]]), 10), torch.tensor([[89, 55], [55, 34]]))


def test_products():
    for dt in [torch.float32, torch.float64]:
        a = mat(dt)
        b = torch.arange(6, dtype=dt).reshape(3, 2)
        v = torch.tensor([1., -2., 0.5], dtype=dt)
        assert close(torch.linalg.multi_dot([a, a, b]), a @ a @ b)
        assert close(torch.linalg.multi_dot([v, a, v]), v @ a @ v)
        assert torch.linalg.multi_dot([v, a, b]).shape == (2,)
        assert close(torch.chain_matmul(a, a, b), a @ a @ b)
        c = torch.linalg.cross(a, v.expand(3, 3))
        assert close((c * a).sum(-1), torch.zeros(3, dtype=dt))
        assert close(torch.linalg.cross(torch.tensor([1., 0., 0.], dtype=dt), torch.tensor([0., 1., 0.], dtype=dt)),
                     torch.tensor([0., 0., 1.], dtype=dt))
        assert close(torch.cross(a, a.flip(0), dim=0), torch.linalg.cross(a, a.flip(0), dim=0))
        assert close(torch.linalg.vecdot(a, v), a @ v)
        assert close(torch.linalg.diagonal(batch(dt)), torch.diagonal(batch(dt), 0, -2, -1))
        assert close(torch.linalg.matmul(a, b), a @ b)
        t = torch.arange(16, dtype=dt).reshape(4, 2, 2).sin() + torch.eye(4, dtype=dt).reshape(4, 2, 2)
        ti = torch.linalg.tensorinv(t, ind=1)
        assert ti.shape == (2, 2, 4)
        assert close(t.reshape(4, 4) @ ti.reshape(4, 4), torch.eye(4, dtype=dt))


def err_inv_singular():
    # raises: linalg.inv: The diagonal element 2 is zero, the inversion could not be completed because the input matrix is singular.
    return torch.linalg.inv(torch.tensor([[1., 2.], [2., 4.]]))


def err_inv_batch_singular():
    # raises: linalg.inv: (Batch element 1): The diagonal element 2 is zero
    return torch.linalg.inv(torch.stack([torch.eye(2), torch.tensor([[1., 2.], [2., 4.]])]))


def err_inv_not_square():
    # raises: linalg.inv: A must be batches of square matrices, but they are 2 by 3 matrices
    return torch.linalg.inv(torch.ones(2, 3))


def err_inv_1d():
    # raises: linalg.inv: The input tensor A must have at least 2 dimensions.
    return torch.linalg.inv(torch.ones(3))


def err_det_int():
    # raises: linalg.det: Expected a floating point or complex tensor as input. Got Long
    return torch.det(torch.ones(2, 2, dtype=torch.long))


def err_solve_singular():
    # raises: torch.linalg.solve: The solver failed because the input matrix is singular.
    return torch.linalg.solve(torch.tensor([[1., 2.], [2., 4.]]), torch.ones(2))


def err_solve_shapes():
    # raises: linalg.solve: Incompatible shapes of A and B for the equation AX = B (2x2 and 3x1)
    return torch.linalg.solve(torch.eye(2), torch.ones(3))


def err_solve_dtypes():
    # raises: linalg.solve: Expected A and B to have the same dtype, but found A of type Float and B of type Double instead
    return torch.linalg.solve(torch.eye(2), torch.ones(2, dtype=torch.float64))


def err_cholesky():
    # raises: linalg.cholesky: The factorization could not be completed because the input is not positive-definite (the leading minor of order 2 is not positive-definite).
    return torch.linalg.cholesky(torch.tensor([[1., 2.], [2., 4.]]))


def err_cholesky_batch():
    # raises: linalg.cholesky: (Batch element 1): The factorization could not be completed
    return torch.linalg.cholesky(torch.stack([torch.eye(2), -torch.eye(2)]))


def err_qr_mode():
    # raises: qr received unrecognized mode 'foo' but expected one of 'reduced' (default), 'r', or 'complete'
    return torch.linalg.qr(torch.eye(2), mode="foo")


def err_eigh_uplo():
    # raises: Expected UPLO argument to be 'L' or 'U', but got X
    return torch.linalg.eigh(torch.eye(2), UPLO="X")


def err_lstsq_driver():
    # raises: torch.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)
    return torch.linalg.lstsq(torch.eye(2), torch.ones(2, 1), driver="foo")


def err_lstsq_shapes():
    # raises: torch.linalg.lstsq: input.size(-2) should match other.size(-2)
    return torch.linalg.lstsq(torch.ones(2, 3), torch.ones(3, 1))


def err_lu_factor_singular():
    # raises: torch.linalg.lu_factor: U[2,2] is zero and using it on lu_solve would result in a division by zero.
    return torch.linalg.lu_factor(torch.tensor([[1., 2.], [2., 4.]]))


def err_lu_factor_int():
    # raises: "lu_cpu" not implemented for 'Long'
    return torch.linalg.lu_factor(torch.ones(2, 2, dtype=torch.long))


def err_matrix_norm_order():
    # raises: linalg.matrix_norm: Order 3 not supported.
    return torch.linalg.matrix_norm(torch.ones(2, 3), ord=3)


def err_norm_3d():
    # raises: linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got 3D.
    return torch.linalg.norm(torch.ones(2, 2, 2), ord=2)


def err_cross_length():
    # raises: linalg.cross: inputs dimension -1 must have length 3. Got 4 and 4
    return torch.linalg.cross(torch.ones(4), torch.ones(4))


def err_multi_dot_one():
    # raises: multi_dot(): expected at least 2 tensors but got 1
    return torch.linalg.multi_dot([torch.ones(3)])


def err_multi_dot_shapes():
    # raises: multi_dot(): tensors 0 and 1 with shapes [2, 3] and [2, 3] cannot be multiplied
    return torch.linalg.multi_dot([torch.ones(2, 3), torch.ones(2, 3)])


def err_matrix_power_singular():
    # raises: linalg.inv: The diagonal element 2 is zero
    return torch.linalg.matrix_power(torch.tensor([[1., 2.], [2., 4.]]), -1)


def err_solve_triangular_1d():
    # raises: linalg.solve_triangular: The input tensor B must have at least 2 dimensions.
    return torch.linalg.solve_triangular(torch.eye(2), torch.ones(2), upper=True)


def err_householder():
    # raises: torch.linalg.householder_product: input.shape[-2] must be greater than or equal to input.shape[-1]
    return torch.linalg.householder_product(torch.ones(2, 3), torch.ones(2))


def err_cholesky_solve_sizes():
    # raises: Incompatible matrix sizes for cholesky_solve: each A matrix is 3 by 3 but each b matrix is 2 by 3
    return torch.cholesky_solve(torch.ones(2, 3), torch.eye(3))


if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
