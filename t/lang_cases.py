# t/lang_cases.py — language corners where tscript once differed from PyTorch 1.13, found by
# a sweep of variations on the conformance cases (each probe run through both). The
# t/lang_cases.sh runs them through t/cases.sh; they pass under PyTorch too:
#     /usr/bin/python3 t/lang_cases.py     (scripts and runs each one)
# The err_* functions fail with the message of their `# raises:` line (t/cases.sh checks).
# More compile errors PyTorch gives for neighbouring wrong programs are in t/emit.c, the
# run-time messages of the builtins in t/prim_str.c and t/prim_math.c.
import math
from enum import Enum
from typing import Dict, List, Optional, Tuple, Union

import torch


def test_dict_item_whose_key_is_also_its_value():
    # the key is read before the value is moved out of the loop variable
    d = {x: x for x in "ab"}
    assert len(d) == 2 and d["a"] == "a" and d["b"] == "b"
    e: Dict[int, int] = {}
    for i in range(3):
        e[i] = i
    assert e[2] == 2 and len(e) == 3


def test_zip_and_enumerate_over_tuples_are_unrolled():
    out: List[str] = []
    for i, x in enumerate((3, "a", 2.5), start=-1):
        out.append(str(i) + ":" + str(x))
    assert out == ["-1:3", "0:a", "1:2.5"]
    n = 0
    for a, b, c in zip((1, 2), ("x", "y", "z"), (True, 1.5)):
        n += a
    assert n == 3
    m = 0
    for k, (p, q) in enumerate(zip((1, 2), (10, 20))):
        m += k * q + p
    assert m == 23


def test_list_of_a_tensor_is_its_rows():
    rows = list(torch.tensor([[1, 2], [3, 4]]))
    assert len(rows) == 2 and torch.equal(rows[1], torch.tensor([3, 4]))
    rows[0][0] = 7      # rows are views, as iterating the tensor gives them
    assert rows[0][0].item() == 7


def test_heterogeneous_list_display_is_a_list_of_union():
    x = [3.5, 1]
    assert len(x) == 2
    w = [1, 2.5, "x", None]
    kinds: List[str] = []
    for v in w:
        if isinstance(v, int):
            kinds.append("int")
        elif isinstance(v, float):
            kinds.append("float")
        elif isinstance(v, str):
            kinds.append("str")
        else:
            kinds.append("none")
    assert kinds == ["int", "float", "str", "none"]


def fill(x: Optional[List[int]]) -> List[int]:
    if x is None:
        x = []          # the parameter's list type, not List[Tensor]
    x.append(1)
    return x


def test_empty_list_assigned_in_a_branch_takes_the_outer_type():
    assert fill(None) == [1]
    assert fill([5]) == [5, 1]


def describe(x: Union[int, float, str]) -> str:
    if isinstance(x, int):
        return "i" + str(x)
    else:
        if isinstance(x, float):
            return "f" + str(x)
    return "s" + x      # refined to str by the nested early return


def test_refinement_survives_a_nested_early_return():
    assert describe(2) == "i2" and describe(1.5) == "f1.5" and describe("a") == "sa"


class Shift:
    def __init__(self, v: int):
        self.v = v

    def __rshift__(self, k: int) -> int:
        return self.v >> k

    def __lshift__(self, k: int) -> int:
        return self.v << k


def test_shift_magic_methods():
    s = Shift(16)
    assert s >> 2 == 4 and s << 1 == 32


class Holder:
    def __init__(self, x: Optional[int]):
        self.a: Optional[int] = x       # Optional[int]: the value's type
        self.b: List[int] = []          # the annotation types the empty list
        self.c: Optional[int] = 3       # int: the annotation does not widen it


def test_annotated_attribute_takes_the_values_type():
    h = Holder(None)
    h.b.append(2)
    h.c = 4
    assert h.a is None and h.b == [2] and h.c == 4


def test_int_and_float_of_strings_skip_leading_white_space():
    assert int(" 42") == 42 and int("\n-7") == -7 and int("+5") == 5
    assert float(" 2.5") == 2.5 and float("\t1e3") == 1000.0


def test_tuple_of_a_tuple_is_itself():
    t = (1, "a")
    u = tuple(t)
    assert u[0] == 1 and u[1] == "a"


def test_break_in_a_real_loop_around_a_tuple_loop():
    n = 0
    for i in range(3):
        for x in (1, 2):
            n += x
        if i == 1:
            break
    assert n == 6


def scaled(x: int, y: float = 2.0) -> float:
    return x * y


def test_fork_binds_keywords_and_defaults():
    a = torch.jit.fork(scaled, 3)
    b = torch.jit.fork(scaled, 2, y=0.25)
    c = torch.jit.fork(scaled, y=1.5, x=2)
    assert torch.jit.wait(a) == 6.0 and torch.jit.wait(b) == 0.5 and torch.jit.wait(c) == 3.0


def test_a_nul_byte_inside_a_string_literal_is_kept():
    s = "a\0b"
    assert len(s) == 3 and s[2] == "b" and s.split("\x00") == ["a", "b"]


def test_no_grad_as_binds_none():
    x = torch.ones(2)
    with torch.no_grad() as g:
        y = x * 2
    assert g is None and torch.equal(y, torch.tensor([2.0, 2.0]))


def plus_one(x: int) -> int:
    return x + 1


class Box:
    def __init__(self, v: int):
        self.v = v


def test_names_bound_to_functions_builtins_methods_modules_classes():
    f = len
    h = plus_one
    s = math.sqrt
    m = math
    out: List[int] = []
    push = out.append
    K = Box
    push(f([1, 2]))
    push(h(2))
    push(int(s(16.0)))
    push(m.floor(2.5))
    push(K(7).v)
    assert out == [2, 3, 4, 2, 7]


def test_a_value_name_rebound_to_a_function_and_used_in_loops():
    g = 1
    g = plus_one
    n = 0
    for i in range(3):
        n += g(i)
        k = len
        n += k([i])
    assert n == 9


def _truthy(x: torch.Tensor) -> int:
    if x.item():
        return 1
    return 0


def test_a_scalar_condition_goes_through_int():
    # t.item() is a Scalar (number): PyTorch tests it as int(x) != 0, so 0.5 is false
    assert _truthy(torch.tensor(0.5)) == 0 and _truthy(torch.tensor(1.5)) == 1
    assert _truthy(torch.tensor(0)) == 0 and _truthy(torch.tensor(-2)) == 1
    n = torch.tensor(0.25).item()
    assert not n


def _max0(x: torch.Tensor):
    return torch.max(x, 0)


def test_an_operators_named_returns_are_fields():
    # an op whose returns are all named gives a tuple with those field names
    x = torch.tensor([[3., 1.], [2., 4.]])
    r = torch.max(x, 0)
    assert torch.equal(r.values, torch.tensor([3., 4.])) and torch.equal(r.indices, torch.tensor([0, 1]))
    assert torch.equal(x.sort(1).indices, torch.tensor([[1, 0], [0, 1]]))
    assert torch.equal(torch.topk(x.flatten(), 2).values, torch.tensor([4., 3.]))
    assert torch.equal(_max0(x).indices, r[1])   # through an unannotated return
    v, i = x.min(dim=1)
    assert torch.equal(v, x.min(dim=1).values) and len(r) == 2


def test_constant_objects_are_distinct():
    # PyTorch folds each of these into a constant of its own before its CSE runs, so equal
    # ones are not merged: identity and tensor dict keys tell them apart
    a = [1, 2]
    b = [1, 2]
    x = torch.zeros(2)
    y = torch.zeros(2)
    e: List[int] = []
    f: List[int] = []
    assert a is not b and x is not y and e is not f
    d: Dict[torch.Tensor, int] = {torch.tensor(1): 5}
    assert torch.tensor(1) not in d

def err_function_name_bound_in_both_branches_stays_there():
    # raises: undefined value h
    if bool(torch.rand(1) > 2.0):
        h = plus_one
    else:
        h = plus_one
    return h(1)


def err_aug_assign_to_a_name_bound_to_a_builtin():
    # raises: cannot be used as a value
    f = len
    f += 1
    return f


def err_len_of_range():
    # raises: range cannot be used as a value
    return len(range(3))


def err_membership_in_range():
    # raises: range cannot be used as a value
    return 2 in range(3)


def err_dict_with_tuple_keys():
    # raises: Cannot create dict for key type '(int, int)', only int, float, complex, Tensor, device and string keys are supported
    d: Dict[Tuple[int, int], int] = {}
    return d


def err_dict_display_with_tuple_keys():
    # raises: Cannot create dict for key type '(int, str)', only int, float, complex, Tensor, device and string keys are supported
    return {(1, "a"): 2}


def err_dict_comprehension_with_tuple_keys():
    # raises: Cannot create dict for key type '(int, int)', only int, float, complex, Tensor, device and string keys are supported
    return {(i, i): i for i in range(2)}


def test_empty_list_literal_takes_the_type_the_operator_wants():
    assert "-".join([]) == ""
    assert sum([]) == 0
    assert len([]) == 0
    assert torch.zeros([]).dim() == 0


class Level(Enum):
    LOW = -1
    MID = 0
    HIGH = 2


class Flavor(Enum):
    pass


class Spin(Flavor):
    UP = 0.5
    DOWN = -0.5


def test_enum_members_with_negative_values():
    assert Level.LOW.value == -1 and Level.HIGH.value == 2
    assert Spin.DOWN.value == -0.5 and Spin.UP.name == "UP"
    n = 0
    for lv in Level:
        n += lv.value
    assert n == 1



def err_named_returns_are_lost_in_a_plain_tuple():
    # raises: object has no attribute or method 'values'
    t: Tuple[torch.Tensor, torch.Tensor] = (torch.ones(1), torch.ones(1))
    if bool(torch.ones(1) > 0):
        t = torch.max(torch.ones(2, 2), 0)
    return t.values

if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
