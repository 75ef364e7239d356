# t/overload_cases.py — functions overloaded with @torch.jit._overload (declarations with a
# `pass` or `...` body, then the implementation), run as TorchScript. A call takes the first
# overload whose signature matches (without conversions first), and each overload is the
# implementation compiled with the declared types. The test_* functions assert PyTorch
# 1.13's results; each err_* function fails with the message in its `# raises:` line.
# t/overload_cases.sh runs both kinds through tscript; they behave the same under PyTorch:
#     /usr/bin/python3 t/overload_cases.py
from typing import List, Optional, Tuple

import torch
from torch.jit import _overload


@torch.jit._overload
def double(x: int) -> int:
    pass


@torch.jit._overload
def double(x: float) -> float:  # noqa: F811
    ...


@_overload
def double(x: str) -> str:  # noqa: F811
    ...


def double(x):  # noqa: F811
    return x + x


def test_overload_by_type():
    a = double(3)
    b = double(1.5)
    c = double("ab")
    assert a == 6 and b == 3.0 and c == "abab"
    assert str(double(2)) == "4" and str(double(2.0)) == "4."


@torch.jit._overload
def first(x: float) -> float:
    pass


@torch.jit._overload
def first(x: int) -> int:  # noqa: F811
    pass


def first(x):  # noqa: F811
    return x


def test_exact_match_before_conversion():
    # int is not float: the int overload, though declared second
    assert str(first(2)) == "2"
    assert str(first(2.0)) == "2."


@torch.jit._overload
def size_of(x: Optional[int], scale: int = 1) -> int:
    pass


@torch.jit._overload
def size_of(x: List[int], scale: int = 1) -> int:  # noqa: F811
    pass


def size_of(x: Optional[List[int]], scale: int = 1) -> int:  # noqa: F811
    # the implementation's annotations are ignored: each overload has its own types
    if x is None:
        return 0
    elif isinstance(x, int):
        return x * scale
    else:
        return len(x) * scale


def test_refined_by_isinstance():
    assert size_of(5) == 5
    assert size_of([1, 2, 3]) == 3
    assert size_of(None) == 0
    assert size_of([1, 2], 10) == 20
    assert size_of(x=4, scale=2) == 8
    assert size_of([7], scale=3) == 3


@torch.jit._overload
def pad_to(x: torch.Tensor) -> torch.Tensor:
    pass


@torch.jit._overload
def pad_to(x: torch.Tensor, n: int) -> torch.Tensor:  # noqa: F811
    pass


def pad_to(x, n: int = 4):  # noqa: F811
    # the first overload takes the implementation's further parameter, with its default
    return torch.cat([x, torch.zeros(n - x.size(0))])


def test_implementation_parameters_and_defaults():
    assert pad_to(torch.ones(1)).size() == [4]
    assert pad_to(torch.ones(1), 6).size() == [6]
    assert torch.equal(pad_to(torch.ones(2), n=3), torch.tensor([1.0, 1.0, 0.0]))


@torch.jit._overload
def pair(x: int) -> Tuple[int, int]:
    pass


@torch.jit._overload
def pair(x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:  # noqa: F811
    pass


def pair(x):  # noqa: F811
    return x, x


def use_pair(t: torch.Tensor) -> int:
    a, b = pair(t)
    c, d = pair(2)
    return int(a.sum().item()) + c + d


def test_called_from_another_function():
    assert use_pair(torch.ones(3)) == 7


@torch.jit._overload
def describe(x: int, p: str = "fro") -> str:
    pass


@torch.jit._overload
def describe(x: int, p: Optional[float]) -> str:  # noqa: F811
    pass


def describe(x, p="fro"):  # noqa: F811
    # torch.norm's shape: the implementation's default fits only the str overload, and the
    # float one has none
    return str(p)


def test_default_an_overload_cannot_take_is_left_out():
    assert describe(1) == "fro"
    assert describe(1, 2.5) == "2.5"
    assert describe(1, None) == "None"


def err_the_float_overload_has_no_default():
    return describe(1, p=3)
    # raises: describe(int x, float? p) -> str:


def err_no_overload_matches():
    return double([1])
    # raises: Arguments for call are not valid.


def err_no_overload_matches_names_candidates():
    return first("x")
    # raises: first(int x) -> int:


def err_unknown_keyword():
    return double(y=1)
    # raises: Argument x not provided.


@torch.jit._overload
def declared_only(x: int) -> int:
    pass


def err_implementation_missing():
    return declared_only(1)
    # raises: is missing. Please make sure a definition is provided and defined after all overload declarations.


@torch.jit._overload
def renamed(y: int) -> int:
    pass


def renamed(x):  # noqa: F811
    return x


def err_parameter_names_differ():
    return renamed(1)
    # raises: Overload parameters must have the same names. Found y and x on argument 0


@torch.jit._overload
def more(x: int, y: int) -> int:
    pass


def more(x):  # noqa: F811
    return x


def err_more_parameters_than_implementation():
    return more(1, 2)
    # raises: Overload should not have more parameters than implementation function


@torch.jit._overload
def other_default(x: int, y: int = 3) -> int:
    pass


def other_default(x, y: int = 2):  # noqa: F811
    return x + y


def err_default_differs():
    return other_default(1)
    # raises: Default parameters on overloads do not affect the runtime so they must equal to the default parameter on the implementation function. Found on parameter y


@torch.jit._overload
def wrong_return(x: int) -> str:
    pass


def wrong_return(x):  # noqa: F811
    return x


def err_body_does_not_fit_the_declared_type():
    return wrong_return(1)
    # raises: Return value was annotated as having type str but is actually of type int


@torch.jit._overload
def all_compiled(x: int) -> int:
    pass


@torch.jit._overload
def all_compiled(x: str) -> int:  # noqa: F811
    pass


def all_compiled(x):  # noqa: F811
    return x + 1


def err_every_overload_is_compiled_at_the_first_call():
    # the int overload matches, but the str one fails to compile, as in PyTorch
    return all_compiled(1)
    # raises: Arguments for call are not valid.


if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
