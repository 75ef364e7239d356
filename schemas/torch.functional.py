# torch.functional.py — the torch.* functions PyTorch writes in Python, as TorchScript shipped
# by the aten plugins.
#
# PyTorch defines torch.norm, torch.unique, torch.unique_consecutive, torch.tensordot and
# torch.cdist in torch/functional.py
# and imports them into torch; scripting a call compiles the Python. tscript's frontend does
# the same with this file (core/frontend/library.c): torch.X is looked up here first, compiled on its
# first call and inlined, where the caller's constants decide the branches. Written from
# PyTorch 1.13's documented semantics: names, defaults, overloads and messages are PyTorch's.
#
# Inside this file torch.norm would name the function itself: the operators are called as
# torch.ops.aten.X (PyTorch's _VF.X).

import torch
from torch import Tensor
from typing import List, Optional, Tuple


# ---- torch.norm --------------------------------------------------------------------------
# p is a str ('fro', 'nuc') or a number, dim an int or a list: four overloads, as PyTorch
# declares them (an int p takes the number overloads; p=None is the 2-norm).

@torch.jit._overload
def norm(input, p="fro", dim=None, keepdim=False, out=None, dtype=None):
    # type: (Tensor, str, Optional[List[int]], bool, Optional[Tensor], Optional[int]) -> Tensor
    pass


@torch.jit._overload
def norm(input, p="fro", dim=None, keepdim=False, out=None, dtype=None):
    # type: (Tensor, Optional[number], Optional[List[int]], bool, Optional[Tensor], Optional[int]) -> Tensor
    pass


@torch.jit._overload
def norm(input, p="fro", dim=None, keepdim=False, out=None, dtype=None):
    # type: (Tensor, Optional[number], Optional[int], bool, Optional[Tensor], Optional[int]) -> Tensor
    pass


@torch.jit._overload
def norm(input, p="fro", dim=None, keepdim=False, out=None, dtype=None):
    # type: (Tensor, str, Optional[int], bool, Optional[Tensor], Optional[int]) -> Tensor
    pass


def norm(input, p="fro", dim=None, keepdim=False, out=None, dtype=None):
    ndim = input.dim()
    # the plain call: the whole tensor, no out or dtype
    if dim is None and out is None and dtype is None and p is not None:
        if isinstance(p, str):
            if p == "fro":
                return torch.ops.aten.frobenius_norm(input, [], keepdim=keepdim)
        if not isinstance(p, str):
            return torch.ops.aten.norm(input, p, list(range(ndim)), keepdim=keepdim)
    if dim is None:
        dims: Optional[List[int]] = None
    elif isinstance(dim, int):
        dims = [dim]
    else:
        dims = dim
    if isinstance(p, str):
        if p == "fro":
            if dtype is not None:
                raise ValueError("dtype argument is not supported in frobenius norm")
            if dims is None:
                dims = list(range(ndim))
            if out is None:
                return torch.ops.aten.frobenius_norm(input, dims, keepdim=keepdim)
            return torch.ops.aten.frobenius_norm(input, dims, keepdim=keepdim, out=out)
        if p == "nuc":
            # the nuclear norm needs singular values, which no aten plugin computes yet
            if dtype is not None:
                raise ValueError("dtype argument is not supported in nuclear norm")
            raise RuntimeError("torch.norm(p='nuc'): aten::nuclear_norm is not implemented")
        raise RuntimeError("only valid string values are 'fro' and 'nuc', found {}".format(p))
    if dims is None:
        dims = list(range(ndim))
    if out is None:
        if dtype is None:
            return torch.ops.aten.norm(input, p, dims, keepdim=keepdim)
        return torch.ops.aten.norm(input, p, dims, keepdim=keepdim, dtype=dtype)
    if dtype is None:
        return torch.ops.aten.norm(input, p, dims, keepdim=keepdim, out=out)
    return torch.ops.aten.norm(input, p, dims, keepdim=keepdim, dtype=dtype, out=out)


# ---- torch.unique, torch.unique_consecutive -----------------------------------------------
# The operators return (output, inverse, counts); the constant return_inverse and
# return_counts pick what the call returns, by PyTorch's boolean dispatch.

def _unique_impl(input: Tensor, sorted: bool = True, return_inverse: bool = False,
                 return_counts: bool = False,
                 dim: Optional[int] = None) -> Tuple[Tensor, Tensor, Tensor]:
    if dim is not None:
        output, inverse, counts = torch.ops.aten.unique_dim(
            input, dim, sorted=sorted, return_inverse=return_inverse,
            return_counts=return_counts)
    else:
        output, inverse, counts = torch.ops.aten._unique2(
            input, sorted=sorted, return_inverse=return_inverse, return_counts=return_counts)
    return output, inverse, counts


def _return_output(input: Tensor, sorted: bool = True, return_inverse: bool = False,
                   return_counts: bool = False, dim: Optional[int] = None) -> Tensor:
    output, _, _ = _unique_impl(input, sorted, return_inverse, return_counts, dim)
    return output


def _return_inverse(input: Tensor, sorted: bool = True, return_inverse: bool = False,
                    return_counts: bool = False,
                    dim: Optional[int] = None) -> Tuple[Tensor, Tensor]:
    output, inverse, _ = _unique_impl(input, sorted, return_inverse, return_counts, dim)
    return output, inverse


def _return_counts(input: Tensor, sorted: bool = True, return_inverse: bool = False,
                   return_counts: bool = False,
                   dim: Optional[int] = None) -> Tuple[Tensor, Tensor]:
    output, _, counts = _unique_impl(input, sorted, return_inverse, return_counts, dim)
    return output, counts


_return_inverse_false = boolean_dispatch('return_counts', 3, False, _return_counts,
                                         _return_output)
_return_inverse_true = boolean_dispatch('return_counts', 3, False, _unique_impl,
                                        _return_inverse)
unique = boolean_dispatch('return_inverse', 2, False, _return_inverse_true,
                          _return_inverse_false)


def _unique_consecutive_impl(input: Tensor, return_inverse: bool = False,
                             return_counts: bool = False,
                             dim: Optional[int] = None) -> Tuple[Tensor, Tensor, Tensor]:
    output, inverse, counts = torch.ops.aten.unique_consecutive(
        input, return_inverse=return_inverse, return_counts=return_counts, dim=dim)
    return output, inverse, counts


def _consecutive_return_output(input: Tensor, return_inverse: bool = False,
                               return_counts: bool = False,
                               dim: Optional[int] = None) -> Tensor:
    output, _, _ = _unique_consecutive_impl(input, return_inverse, return_counts, dim)
    return output


def _consecutive_return_inverse(input: Tensor, return_inverse: bool = False,
                                return_counts: bool = False,
                                dim: Optional[int] = None) -> Tuple[Tensor, Tensor]:
    output, inverse, _ = _unique_consecutive_impl(input, return_inverse, return_counts, dim)
    return output, inverse


def _consecutive_return_counts(input: Tensor, return_inverse: bool = False,
                               return_counts: bool = False,
                               dim: Optional[int] = None) -> Tuple[Tensor, Tensor]:
    output, _, counts = _unique_consecutive_impl(input, return_inverse, return_counts, dim)
    return output, counts


_consecutive_return_inverse_false = boolean_dispatch('return_counts', 1, False,
                                                     _consecutive_return_counts,
                                                     _consecutive_return_output)
_consecutive_return_inverse_true = boolean_dispatch('return_counts', 1, False,
                                                    _unique_consecutive_impl,
                                                    _consecutive_return_inverse)
unique_consecutive = boolean_dispatch('return_inverse', 2, False,
                                      _consecutive_return_inverse_true,
                                      _consecutive_return_inverse_false)


# ---- torch.tensordot ---------------------------------------------------------------------
# dims is a count (the last dims of a against the first of b), a pair of dim lists, or a
# tensor holding either.

@torch.jit._overload
def tensordot(a, b, dims=2, out=None):
    # type: (Tensor, Tensor, int, Optional[Tensor]) -> Tensor
    pass


@torch.jit._overload
def tensordot(a, b, dims=2, out=None):
    # type: (Tensor, Tensor, Tuple[List[int], List[int]], Optional[Tensor]) -> Tensor
    pass


@torch.jit._overload
def tensordot(a, b, dims=2, out=None):
    # type: (Tensor, Tensor, List[List[int]], Optional[Tensor]) -> Tensor
    pass


@torch.jit._overload
def tensordot(a, b, dims=2, out=None):
    # type: (Tensor, Tensor, Tensor, Optional[Tensor]) -> Tensor
    pass


def tensordot(a, b, dims=2, out=None):
    dims_a: List[int] = []
    dims_b: List[int] = []
    if isinstance(dims, (tuple, list)):
        dims_a, dims_b = dims
    if isinstance(dims, torch.Tensor):
        if dims.numel() > 1:
            assert dims.size()[0] == 2
            dims_a = torch.jit.annotate(List[int], dims[0].tolist())
            dims_b = torch.jit.annotate(List[int], dims[1].tolist())
        else:
            count = int(dims.item())
            if count < 0:
                raise RuntimeError("tensordot expects dims >= 0, but got dims={}".format(dims))
            dims_a = list(range(-count, 0))
            dims_b = list(range(count))
    if isinstance(dims, int):
        if dims < 0:
            raise RuntimeError("tensordot expects dims >= 0, but got dims={}".format(dims))
        dims_a = list(range(-dims, 0))
        dims_b = list(range(dims))
    if out is None:
        return torch.ops.aten.tensordot(a, b, dims_a, dims_b)
    return torch.ops.aten.tensordot(a, b, dims_a, dims_b, out=out)


# ---- torch.cdist -------------------------------------------------------------------------

def cdist(x1: Tensor, x2: Tensor, p: float = 2.0,
          compute_mode: str = "use_mm_for_euclid_dist_if_necessary") -> Tensor:
    # the mode names PyTorch's int compute_mode: None picks by size, 1 always, 2 never
    if compute_mode == "use_mm_for_euclid_dist_if_necessary":
        return torch.ops.aten.cdist(x1, x2, p, None)
    elif compute_mode == "use_mm_for_euclid_dist":
        return torch.ops.aten.cdist(x1, x2, p, 1)
    elif compute_mode == "donot_use_mm_for_euclid_dist":
        return torch.ops.aten.cdist(x1, x2, p, 2)
    else:
        raise ValueError("{} is not a valid value for compute_mode".format(compute_mode))
