# t/einsum_cases.py — aten::einsum (einsum.c) as torch.einsum calls it: explicit and implicit
# outputs, diagonals from repeated subscripts, ellipses, broadcasting of size-1 dims, sums,
# outer products, three operands and more, integer and float64 operands, empty dims, and the
# contraction order a path gives. Each result is checked against the same product written
# with matmul, sum, diagonal and broadcasting; each err_* function fails with PyTorch 1.13's
# message. t/einsum_cases.sh runs them under tscript; under PyTorch:
#     /usr/bin/python3 t/einsum_cases.py
from typing import List

import torch


def rnd(shape: List[int], seed: int) -> torch.Tensor:
    """Deterministic values in [-1, 1) of the given shape (no generator needed)."""
    n = 1
    for s in shape:
        n *= s
    v = torch.sin(torch.arange(n, dtype=torch.float64) * 12.9898 + seed * 78.233)
    return (v * 43758.5453).frac().mul(2).sub(1).view(shape).float()


def close(a: torch.Tensor, b: torch.Tensor) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and torch.allclose(a, b, 1e-4, 1e-5)


def test_matrix_products():
    x = rnd([2, 3], 1)
    y = rnd([3, 4], 2)
    z = rnd([4, 5], 3)
    assert close(torch.einsum("ij,jk->ik", x, y), x @ y)
    assert close(torch.einsum("ij,jk", x, y), x @ y)
    assert close(torch.einsum(" i j , j k -> k i ", x, y), (x @ y).t())
    assert close(torch.einsum("ij,jk,kl->il", x, y, z), x @ y @ z)
    assert close(torch.einsum("ij,jk,kl->il", [x, y, z]), x @ y @ z)
    assert close(torch.einsum("ij,jk,kl->il", x, y, z, path=[1, 2, 0, 1]), x @ y @ z)
    # uppercase subscripts sort before lowercase in an implicit output
    assert close(torch.einsum("Ab,bC", x, y), x @ y)
    assert close(torch.einsum("bhqd,bhkd->bhqk", rnd([2, 3, 4, 5], 4), rnd([2, 3, 6, 5], 5)),
                 rnd([2, 3, 4, 5], 4) @ rnd([2, 3, 6, 5], 5).transpose(2, 3))
    xl = (x * 10).round().long()
    yl = (y * 10).round().long()
    assert torch.equal(torch.einsum("ij,jk->ik", xl, yl), xl @ yl)
    assert close(torch.einsum("ij,jk->ik", x.double(), y.double()), (x @ y).double())


def test_diagonals_sums_outer():
    s = rnd([3, 3], 6)
    assert close(torch.einsum("ii->i", s), s.diagonal())
    assert close(torch.einsum("ii", s), s.diagonal().sum())
    t = rnd([2, 2, 3], 7)
    assert close(torch.einsum("iij->j", t), t[0, 0] + t[1, 1])
    x = rnd([2, 3], 1)
    assert close(torch.einsum("ij->", x), x.sum())
    assert close(torch.einsum("ij->j", x), x.sum(0))
    assert close(torch.einsum("ij->ji", x), x.t())
    assert close(torch.einsum("i,j->ij", rnd([3], 8), rnd([4], 9)),
                 rnd([3], 8).unsqueeze(1) * rnd([4], 9))
    a = rnd([4], 10)
    assert close(torch.einsum("i,i,i->", a, a, a), (a * a * a).sum())
    assert close(torch.einsum("", torch.tensor(3.0)), torch.tensor(3.0))


def test_ellipsis_and_broadcast():
    b = rnd([5, 2, 3], 11)
    y = rnd([3, 4], 2)
    assert close(torch.einsum("...ij,...jk->...ik", b, y), b @ y)
    assert close(torch.einsum("...,...->...", b, rnd([3], 12)), b * rnd([3], 12))
    assert close(torch.einsum("i...->...", b), b.sum(0))
    x = rnd([2, 3], 1)
    assert close(torch.einsum("ij,ij->ij", x, rnd([1, 3], 13)), x * rnd([1, 3], 13))
    p = rnd([2, 3, 4, 5], 14)
    q = rnd([3, 1, 5], 15)
    assert close(torch.einsum("ab...,b...->a...", p, q), (p * q).sum(1))


def test_empty_dims():
    r = torch.einsum("bij,bjk->bik", torch.zeros(0, 2, 3), torch.zeros(0, 3, 4))
    assert r.shape == (0, 2, 4)
    z = torch.einsum("ij,jk->ik", torch.ones(2, 0), torch.ones(0, 4))
    assert torch.equal(z, torch.zeros(2, 4))


def err_more_operands():
    # raises: einsum(): more operands were provided than specified in the equation
    x = torch.ones(2, 3)
    return torch.einsum("ij,jk->ik", x, x.t(), x)


def err_fewer_operands():
    # raises: einsum(): fewer operands were provided than specified in the equation
    return torch.einsum("ij,jk,kl->il", torch.ones(2, 3), torch.ones(3, 4))


def err_rank():
    # raises: einsum(): the number of subscripts in the equation (3) does not match the number of dimensions (2) for operand 0 and no ellipsis was given
    return torch.einsum("ijk,jk->ik", torch.ones(2, 3), torch.ones(3, 4))


def err_rank_with_ellipsis():
    # raises: einsum(): the number of subscripts in the equation (2) is more than the number of dimensions (1) for operand 0
    return torch.einsum("...ij", torch.ones(2))


def err_invalid_subscript():
    # raises: einsum(): invalid subscript given at index 8 in the equation string, subscripts must be in [a-zA-Z]
    return torch.einsum("ij,jk->i1", torch.ones(2, 3), torch.ones(3, 4))


def err_output_repeated():
    # raises: einsum(): output subscript i appears more than once in the output
    return torch.einsum("ij,jk->ii", torch.ones(2, 3), torch.ones(3, 4))


def err_output_unknown():
    # raises: einsum(): output subscript z does not appear in the equation for any input operand
    return torch.einsum("ij,jk->iz", torch.ones(2, 3), torch.ones(3, 4))


def err_diagonal_sizes():
    # raises: einsum(): subscript i is repeated for operand 0 but the sizes don't match, 3 != 2
    return torch.einsum("ii->i", torch.ones(2, 3))


def err_broadcast():
    # raises: einsum(): subscript i has size 3 for operand 1 which does not broadcast with previously seen size 2
    return torch.einsum("ij,ij->ij", torch.ones(2, 3), torch.ones(3, 4))


def err_lone_dot():
    # raises: einsum(): found '.' for operand 0 that is not part of any ellipsis
    return torch.einsum("i..j", torch.ones(2, 3))


def err_dtype():
    # raises: expected scalar type Float but found Double
    return torch.einsum("ij,jk->ik", torch.ones(2, 3), torch.ones(3, 4).double())


def err_bool():
    # raises: "bmm" not implemented for 'Bool'
    b = torch.ones(2, 2).to(torch.bool)
    return torch.einsum("ij,jk->ik", b, b)


if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
