# t/overloads_cases.py — the second overloads of operators (schemas/aten_overloads.yaml,
# plugins/aten-cpu/shape/overloads.c): the Generator? and names forms of the factories and
# their out= forms, frexp/ldexp of tensors, einsum's sublist form, fill_ with a tensor,
# round_ to decimals, torch.select of a list, and the named-tensor (Dimname) forms, which on
# unnamed tensors fail as PyTorch's do. The err_* functions give PyTorch's run-time messages
# and its "Arguments for call are not valid" listing for wrong calls of overloaded ops.
# t/overloads_cases.sh runs them under tscript; under PyTorch:
#     /usr/bin/python3 t/overloads_cases.py
from typing import List

import torch


def f1(t: torch.Tensor) -> List[float]:
    r: List[float] = t.tolist()
    return r


def i1(t: torch.Tensor) -> List[int]:
    r: List[int] = t.tolist()
    return r


# ---- Generator? forms: None is the default generator ------------------------------------

def test_rand_generator_none():
    torch.manual_seed(3)
    a = torch.rand(2, 3, generator=None)
    torch.manual_seed(3)
    b = torch.rand([2, 3])
    assert a.shape == [2, 3] and a.dtype == torch.float32 and bool(torch.equal(a, b))
    assert bool((a >= 0).all()) and bool((a < 1).all())


def test_randn_generator_none():
    torch.manual_seed(5)
    a = torch.randn([4], generator=None, dtype=torch.float64)
    torch.manual_seed(5)
    b = torch.randn([4], dtype=torch.float64)
    assert a.dtype == torch.float64 and bool(torch.equal(a, b))


def test_randperm_generator_none():
    p = torch.randperm(5, generator=None)
    assert p.dtype == torch.int64 and i1(p.sort()[0]) == [0, 1, 2, 3, 4]
    f = torch.randperm(4, generator=None, dtype=torch.float32)
    assert f.dtype == torch.float32 and f1(f.sort()[0]) == [0.0, 1.0, 2.0, 3.0]


def test_random_generator_out():
    o = torch.zeros(1)
    r = torch.rand([2, 2], generator=None, out=o)
    assert o.shape == [2, 2] and r.shape == [2, 2] and bool((o < 1).all())
    n = torch.zeros(1, dtype=torch.float64)
    torch.randn([3], generator=None, out=n)
    assert n.shape == [3] and n.dtype == torch.float64
    p = torch.zeros(1, dtype=torch.int32)
    torch.randperm(3, generator=None, out=p)
    assert p.dtype == torch.int32 and i1(p.sort()[0].long()) == [0, 1, 2]


def test_random_generator_with_names():
    a = torch.rand([2], generator=None, names=None)
    b = torch.randn([2, 2], generator=None, names=None, dtype=torch.float64)
    o = torch.zeros(1)
    torch.rand([3], generator=None, names=None, out=o)
    assert a.shape == [2] and b.dtype == torch.float64 and o.shape == [3]


# ---- names forms: names=None is the plain factory ------------------------------------------

def test_factories_names_none():
    assert f1(torch.zeros([2], names=None)) == [0.0, 0.0]
    assert i1(torch.ones([2], names=None, dtype=torch.int64)) == [1, 1]
    assert i1(torch.full([2], 3, names=None)) == [3, 3]
    assert torch.full([2], 3.5, names=None).dtype == torch.float32
    assert torch.empty([2, 3], names=None).shape == [2, 3]
    assert torch.rand([2], names=None).shape == [2]
    assert torch.randn([2], names=None).shape == [2]


def test_factories_names_out():
    o = torch.zeros(1)
    assert f1(torch.ones([2], names=None, out=o)) == [1.0, 1.0]
    assert f1(o) == [1.0, 1.0]
    i = torch.ones(1, dtype=torch.int64)
    assert i1(torch.zeros([3], names=None, out=i)) == [0, 0, 0]
    assert i1(torch.full([2], 7, names=None, out=i)) == [7, 7]
    e = torch.zeros(1)
    assert torch.empty([2, 3], names=None, out=e).shape == [2, 3] and e.shape == [2, 3]


def test_factories_wildcard_names_are_unnamed():
    z = torch.zeros([2, 3], names=["dimname::*", "dimname::*"])
    assert z.shape == [2, 3] and float(z.sum()) == 0.0
    o = torch.zeros(1)
    torch.zeros([2], names=["dimname::*"], out=o)
    assert f1(o) == [0.0, 0.0]
    assert torch.zeros([], names=[]).item() == 0.0


def test_flatten_named_out_dim_wildcard():
    x = torch.arange(6.).reshape(2, 3)
    assert f1(torch.flatten(x, 0, 1, "dimname::*")) == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]


# ---- tensor math ------------------------------------------------------------------------------

def test_frexp_tensor():
    m, e = torch.frexp(torch.tensor([1.0, 2.5, -3.0, 0.0]))
    assert f1(m) == [0.5, 0.625, -0.75, 0.0] and m.dtype == torch.float32
    assert i1(e.long()) == [1, 2, 2, 0] and e.dtype == torch.int32
    m2, e2 = torch.tensor([8.0]).frexp()
    assert f1(m2) == [0.5] and i1(e2.long()) == [4]
    h, he = torch.frexp(torch.tensor([3.0, 0.1], dtype=torch.float16))
    assert h.dtype == torch.float16 and f1(h.double()) == [0.75, 0.7998046875] and i1(he.long()) == [2, -3]
    fm, fe = torch.frexp(3.5)
    assert fm == 0.875 and fe == 2


def test_frexp_inf_nan_keep_exponent_zero():
    m, e = torch.frexp(torch.tensor([float("inf"), -0.0], dtype=torch.float64))
    assert f1(m) == [float("inf"), -0.0] and i1(e.long()) == [0, 0]
    n, ne = torch.frexp(torch.tensor([float("nan")]))
    assert bool(torch.isnan(n).all()) and i1(ne.long()) == [0]


def test_ldexp_tensor():
    assert f1(torch.ldexp(torch.tensor([1.0, 2.0, 3.0]), torch.tensor([1, 2, 3]))) == [2.0, 8.0, 24.0]
    i = torch.ldexp(torch.tensor([1, 2]), torch.tensor([1, 2]))
    assert i.dtype == torch.float32 and f1(i) == [2.0, 8.0]
    d = torch.ldexp(torch.tensor([1.0, 2.0], dtype=torch.float64), torch.tensor([1, 2]))
    assert d.dtype == torch.float64
    b = torch.ldexp(torch.tensor([[1.0], [2.0]]), torch.tensor([1, -1]))
    assert bool(torch.equal(b, torch.tensor([[2.0, 0.5], [4.0, 1.0]])))
    assert f1(torch.tensor([1.0]).ldexp(torch.tensor([3]))) == [8.0]
    assert torch.ldexp(1.5, 3) == 12.0


def test_einsum_sublist():
    a = torch.arange(6.).reshape(2, 3)
    b = torch.arange(12.).reshape(3, 4)
    r = torch.einsum(a, [0, 1], b, [1, 2])
    assert bool(torch.equal(r, torch.tensor([[20.0, 23.0, 26.0, 29.0], [56.0, 68.0, 80.0, 92.0]])))
    assert bool(torch.equal(torch.einsum(a, [0, 1], b, [1, 2], [2, 0]), r.t()))
    assert bool(torch.equal(torch.einsum(a, [0, 1], [1, 0]), a.t()))
    assert f1(torch.einsum(a, [26, 51], [51])) == [3.0, 5.0, 7.0]
    s: List[int] = [0, 1]
    assert bool(torch.equal(torch.einsum(a, s), a))
    c = torch.ones(2, 2)
    assert bool(torch.equal(torch.einsum(c, [0, 1], c, [1, 2], c, [2, 3], [0, 3]), torch.full([2, 2], 4.0)))


def test_fill_tensor():
    x = torch.ones(3)
    assert f1(x.fill_(torch.tensor(3.0))) == [3.0, 3.0, 3.0] and f1(x) == [3.0, 3.0, 3.0]
    y = torch.ones(3, dtype=torch.int64)
    assert i1(y.fill_(torch.tensor(3.7))) == [3, 3, 3]
    z = torch.zeros(2)
    z.fill_(torch.tensor(True))
    assert f1(z) == [1.0, 1.0]


def test_round_decimals_inplace():
    x = torch.tensor([1.2345, 2.5678])
    y = x.round_(decimals=2)
    assert bool(torch.equal(x, y)) and abs(x[0].item() - 1.23) < 1e-6 and abs(x[1].item() - 2.57) < 1e-6
    z = torch.tensor([12.5, 25.4, 35.0])
    assert f1(z.round_(decimals=-1)) == [10.0, 30.0, 40.0]
    w = torch.tensor([0.5, 1.5, 2.5])
    assert f1(w.round_(decimals=0)) == [0.0, 2.0, 2.0]


def test_select_list():
    l = [1, 2, 3]
    assert torch.select(l, 1) == 2 and torch.select(l, -1) == 3
    assert torch.select(["a", "b"], 0) == "a"


def test_view_int_is_a_size():
    # torch.int32 is the int 3: x.view(torch.int32) is x.view([3]), never view.dtype
    x = torch.arange(3.)
    assert f1(x.view(torch.int32)) == [0.0, 1.0, 2.0]


# ---- errors -----------------------------------------------------------------------------------

def err_select_dimname_namespace():
    # raises: all symbols must have a namespace, <namespace>::<string>, but found: a
    return torch.ones(2, 3).select("a", 0)


def err_select_dimname_not_found():
    # raises: Name 'N' not found in Tensor[None, None].
    return torch.ones(2, 3).select("dimname::N", 0)


def err_select_dimname_wildcard():
    # raises: Please look up dimensions by name, got: name = None.
    return torch.ones(2, 3).select("dimname::*", 0)


def err_select_dimname_other_namespace():
    # raises: name.is_dimname() INTERNAL ASSERT FAILED
    return torch.ones(2, 3).select("aten::N", 0)


def err_select_dimname_invalid():
    # raises: Invalid name: a valid identifier contains only digits, alphabetical characters, and/or underscore and starts with a non-digit. got: '1a'.
    return torch.ones(2, 3).select("dimname::1a", 0)


def err_transpose_dimname_last_first():
    # raises: all symbols must have a namespace, <namespace>::<string>, but found: b
    return torch.ones(2, 3).transpose("a", "b")


def err_transpose_dimname_lookup():
    # raises: Name 'b' not found in Tensor[None, None].
    return torch.ones(2, 3).transpose("dimname::a", "dimname::b")


def err_flatten_using_names():
    # raises: Name 'a' not found in Tensor[None, None].
    return torch.ones(2, 3).flatten("dimname::a", "dimname::b", "dimname::c")


def err_flatten_dimname_list():
    # raises: all symbols must have a namespace, <namespace>::<string>, but found: c
    return torch.flatten(torch.ones(2, 3), ["a", "b"], "c")


def err_flatten_dimname_list_empty():
    # raises: flatten(tensor, dims, out_dim): dims cannot be empty
    return torch.ones(2, 3).flatten([], "dimname::c")


def err_flatten_named_out_dim():
    # raises: NYI: Named tensors are currently unsupported in TorchScript.
    return torch.flatten(torch.ones(2, 3), 0, 1, "dimname::c")


def err_unbind_dimname():
    # raises: Name 'a' not found in Tensor[None, None].
    return torch.ones(2, 3).unbind("dimname::a")


def err_unflatten_dimname():
    # raises: all symbols must have a namespace, <namespace>::<string>, but found: b
    return torch.ones(2, 6).unflatten("a", [2, 3], ["b", "c"])


def err_diagonal_dimname():
    # raises: Name 'c' not found in Tensor[None, None].
    return torch.diagonal(torch.ones(2, 3), outdim="dimname::a", dim1="dimname::b", dim2="dimname::c")


def err_cumsum_dimname():
    # raises: Name 'a' not found in Tensor[None, None].
    return torch.ones(2, 3).cumsum_("dimname::a")


def err_cumprod_dimname():
    # raises: Name 'a' not found in Tensor[].
    return torch.tensor(2.0).cumprod_("dimname::a")


def err_index_copy_dimname():
    # raises: index_copy: You passed a dimname (string) to this op in place of a dimension index but it does not yet support this behavior.
    return torch.zeros(3, 2).index_copy_("dimname::a", torch.tensor([0]), torch.ones(1, 2))


def err_zeros_names_count():
    # raises: Number of names (1) and number of dimensions in tensor (2) do not match. Attempted to create a tensor with names ['N']
    return torch.zeros([2, 3], names=["dimname::N"])


def err_full_names_count_wildcard():
    # raises: Attempted to create a tensor with names [None]
    return torch.full([2, 2], 1.5, names=["dimname::*"])


def err_zeros_names_duplicate():
    # raises: Cannot construct a tensor with duplicate names. Got names: ['N', 'N'].
    return torch.zeros([2, 3], names=["dimname::N", "dimname::N"])


def err_ones_names_namespace():
    # raises: all symbols must have a namespace, <namespace>::<string>, but found: a
    return torch.ones([2], names=["a"])


def err_zeros_names_out_named():
    # raises: NYI: Named tensors are currently unsupported in TorchScript.
    return torch.zeros([2], names=["dimname::a"], out=torch.zeros(1))


def err_rand_generator_out_long():
    # raises: "check_uniform_bounds" not implemented for 'Long'
    return torch.rand([2], generator=None, out=torch.zeros(1, dtype=torch.long))


def err_frexp_int():
    # raises: torch.frexp() only supports floating-point dtypes
    return torch.frexp(torch.tensor([1, 2]))


def err_fill_tensor_1d():
    # raises: fill_ only supports 0-dimension value tensor but got tensor with 1 dimensions.
    return torch.ones(3).fill_(torch.tensor([3.0]))


def err_round_decimals_long():
    # raises: "round_cpu" not implemented for 'Long'
    return torch.tensor([12, 25]).round_(decimals=-1)


def err_einsum_sublist_range():
    # raises: einsum(): expected subscript 0 in argument 1 to be within the range [0, 52), but got 52
    return torch.einsum(torch.ones(2), [52])


def err_einsum_sublist_type():
    # raises: einsum(): expected List[int] in argument 1, but got List[Tensor]
    return torch.einsum(torch.tensor(3.0), [])


def err_einsum_sublist_operand():
    # raises: einsum(): expected Tensor in argument 2, but got int
    return torch.einsum(torch.ones(2), [0], 3, [1])


def err_einsum_sublist_alone():
    # raises: einsum(): must specify the equation string and at least one operand, or at least one operand and its subscripts list
    return torch.einsum(torch.ones(2))


def err_select_list_out_of_range():
    # raises: list index out of range
    return torch.select([1, 2, 3], 5)


def err_flatten_wrong_call():
    # raises: Arguments for call are not valid.
    return torch.flatten(torch.ones(2, 3), 3, "a")


def err_flatten_wrong_call_lists_using_names():
    # raises: aten::flatten.using_names(Tensor(a) self, str start_dim, str end_dim, str out_dim) -> Tensor(a):
    return torch.flatten(torch.ones(2, 3), 3, "a")


def err_zeros_wrong_call():
    # raises: The following variants are available:
    return torch.zeros(2, "a")


def err_zeros_wrong_call_lists_names():
    # raises: aten::zeros.names(int[] size, *, str[]? names, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor:
    return torch.zeros(2, "a")


def err_transpose_wrong_call():
    # raises: Expected a value of type 'str' for argument 'dim0' but instead found type 'int'.
    return torch.ones(2, 3).transpose(0, "a")


def err_select_wrong_call():
    # raises: Could not match type float to List[t] in argument 'list': Cannot match List[t] to float.
    return torch.ones(2, 3).select(0.5, 1)


def err_view_wrong_call():
    # raises: Arguments for call are not valid.
    return torch.ones(2, 3).view("a")


def err_view_dtype_keyword_is_blocked():
    # raises: Argument size not provided.
    return torch.ones(2).view(dtype=torch.int32)


def err_fill_wrong_call():
    # raises: Expected a value of type 'Tensor' for argument 'value' but instead found type 'str'.
    return torch.ones(2, 3).fill_("a")


def err_round_wrong_call():
    # raises: aten::round_.decimals(Tensor(a!) self, *, int decimals) -> Tensor(a!):
    return torch.ones(2, 3).round_(2)


def err_rand_generator_wrong_type():
    # raises: Expected a value of type 'Optional[Generator]' for argument 'generator' but instead found type 'int'.
    return torch.rand(2, generator=1)


if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
