# t/modules_sweep_cases.py — script classes where tscript once differed from PyTorch 1.13,
# found by a sweep of variations on the conformance suite's class and module cases (each
# probe run through both). The module and archive cases of the same sweep are saved by
# PyTorch at test time: t/modules_sweep/. t/modules_sweep_cases.sh runs these through
# t/cases.sh; they pass under PyTorch too:
#     /usr/bin/python3 t/modules_sweep_cases.py
# The err_* functions fail with the message of their `# raises:` line.
import enum
from enum import Enum
from typing import Dict, List, Optional, Tuple

import torch


class Box:
    def __init__(self, w: float, h: float):
        self.w = w
        self.h = h

    @property
    def area(self) -> float:
        return self.w * self.h

    @property
    def dims(self) -> List[float]:
        return [self.w, self.h]

    @property
    def side(self) -> float:
        return self.w

    @side.setter
    def side(self, v: float):
        self.w = v
        self.h = v


def test_class_property_getter_and_setter():
    # a property is its getter's result; assigning it calls the setter
    b = Box(2.0, 3.5)
    assert b.area == 7.0 and b.dims == [2.0, 3.5]
    b.w = 4.0
    assert b.area == 14.0
    b.side = 3.0
    assert b.area == 9.0 and b.side == 3.0 and b.h == 3.0


class Grid:
    def __init__(self, n: int):
        self.n = n

    @property
    def cells(self) -> int:
        return self.n * self.n

    def more(self) -> int:
        return self.cells + 1


def test_class_property_read_in_its_own_methods():
    g = Grid(3)
    assert g.more() == 10
    gs = [Grid(1), Grid(2)]
    assert [x.cells for x in gs] == [1, 4]


def err_class_property_without_a_setter_is_read_only():
    # raises: Tried to set read-only attribute: cells
    g = Grid(2)
    g.cells = 5
    print(g.cells)


class Acc:
    def __init__(self, k: int):
        self.k = k
        self.log: List[int] = []

    def add(self, x: int, y: int = 1) -> int:
        return x + self.k * y

    def note(self, x: int):
        self.log.append(x)


def test_fork_of_a_class_method():
    # the subgraph's inputs are the object and the arguments; defaults and keywords bind
    a = Acc(10)
    f = torch.jit.fork(a.add, 5, y=3)
    g = torch.jit.fork(a.note, 7)
    torch.jit.wait(g)
    assert torch.jit.wait(f) == 35 and a.log == [7]
    assert torch.jit.wait(torch.jit.fork(a.add, 1)) == 11


class Num:
    def __init__(self, v: int):
        self.v = v
        self.log: Dict[int, int] = {}

    def __isub__(self, o: int) -> "Num":
        self.v -= o
        return self

    def __imul__(self, o: int) -> "Num":
        self.v *= o
        return self

    def __itruediv__(self, o: int) -> "Num":
        self.v = self.v // o
        return self

    def __imod__(self, o: int) -> "Num":
        self.v = self.v % o
        return self

    def __mul__(self, o: int) -> "Num":
        return Num(self.v * o * 100)

    def __invert__(self) -> "Num":
        return Num(-self.v - 1)

    def __setitem__(self, k: int, v: int):
        self.log[k] = v

    def __delitem__(self, k: int):
        del self.log[k]


class Plain:
    def __init__(self, v: int):
        self.v = v

    def __add__(self, o: int) -> "Plain":
        return Plain(self.v + o)

    def __mod__(self, o: int) -> "Plain":
        return Plain(self.v % o + 100)


def test_class_in_place_operators_and_their_fallbacks():
    # += -= *= /= %= call __iadd__ ... __imod__ (in place), else __add__ ... __mod__
    n = m = Num(20)
    n -= 2
    n /= 4
    n %= 3
    n *= 5
    assert n.v == 5 and m.v == 5 and n is m
    p = q = Plain(7)
    p += 1
    p %= 5
    assert p.v == 103 and q.v == 7


def test_class_invert_and_delitem():
    n = Num(4)
    assert (~n).v == -5
    n[1] = 10
    n[2] = 20
    del n[1]
    assert len(n.log) == 1 and n.log[2] == 20 and 1 not in n.log


def err_class_aug_assign_or_has_no_magic_method():
    # raises: Unknown augmented assignment: |
    p = Plain(1)
    p |= 2
    print(p.v)


def err_class_aug_assign_pow():
    # raises: Unknown augmented assignment: pow operator
    p = Plain(1)
    p **= 2
    print(p.v)


def err_class_matmul_is_not_a_magic_method():
    # raises: Arguments for call are not valid
    a = Mat(1)
    print((a @ a).v)


def err_class_aug_assign_to_a_list_item_takes_no_magic_method():
    # raises: Arguments for call are not valid
    ps = [Plain(1)]
    ps[0] += 2
    print(ps[0].v)


class Mat:
    def __init__(self, v: int):
        self.v = v

    def __matmul__(self, o: "Mat") -> "Mat":
        return Mat(self.v * o.v)


class Conf:
    def __init__(self, name: str = "n", sizes: Tuple[int, int] = (1, 2), scale: float = 1.0,
                 dev: torch.device = torch.device("cpu"), dt: Optional[torch.dtype] = None):
        self.name = name
        self.sizes = sizes
        self.scale = scale
        self.dev = dev
        self.dt = dt


def make(n: int, dev: torch.device = torch.device("cpu"),
         dt: torch.dtype = torch.float64) -> torch.Tensor:
    return torch.ones(n, device=dev, dtype=dt)


def test_device_defaults_of_constructors_and_functions():
    # a default is evaluated as Python evaluates it: torch.device("cpu") is a device
    c = Conf()
    assert c.name == "n" and c.sizes == (1, 2) and c.dev == torch.device("cpu") and c.dt is None
    d = Conf("m", (3, 4), dt=torch.float16)
    dt = d.dt
    assert d.sizes[1] == 4 and dt is not None and dt == torch.float16
    assert make(2).dtype == torch.float64 and make(1, torch.device("cpu"), torch.int32).dtype == torch.int32


class Dup(Enum):
    A = 1
    B = 1
    C = 2


def test_enum_alias_is_not_a_member():
    # Python makes B an alias of A; PyTorch's enum has the members iteration yields
    names: List[str] = []
    for e in Dup:
        names.append(e.name)
    assert names == ["A", "C"] and Dup.C.value == 2


def err_enum_alias_is_no_attribute():
    # raises: has no attribute 'B'
    print(Dup.B.name)


class Auto(Enum):
    A = 5
    B = enum.auto()
    C = enum.auto()


def test_enum_auto_numbers_after_the_member_before():
    assert Auto.B.value == 6 and Auto.C.value == 7 and Auto.A.value == 5


class Flags(Enum):
    ON = True
    OFF = False


def err_enum_of_bool_values():
    # raises: Cannot create Enum with value type 'bool', only int, float and string are supported
    print(Flags.ON.value)


class Pairs(Enum):
    A = (1, 2)
    B = (3, 4)


def err_enum_of_tuple_values():
    # raises: Cannot create Enum with value type 'Any'
    print(Pairs.A.name)


class Mixed(Enum):
    A = 1
    B = "b"


def err_enum_of_mixed_values():
    # raises: Could not unify type list since element 1 of type int did not match the types before it (str)
    print(Mixed.A.name)


class Tabled:
    table = torch.zeros(2)

    def __init__(self):
        self.n = 0

    def get(self) -> torch.Tensor:
        return self.table


def err_class_variable_read_through_an_object():
    # raises: 'table' is defined as a class attribute which currently is not supported
    print(Tabled().get())


class Branchy:
    def __init__(self, a: int):
        if a > 0:
            self.x = 1
        else:
            self.x = 2


def err_class_attribute_first_assigned_in_a_branch():
    # raises: First assignment cannot be in a control-flow block
    print(Branchy(1).x)


class LoopInit:
    def __init__(self, d: Optional[List[int]]):
        self.n = 0
        for i in range(2):
            self.seen = i


def err_class_attribute_first_assigned_in_a_loop():
    # raises: First assignment cannot be in a control-flow block
    print(LoopInit(None).n)


class TopFirst:
    def __init__(self, d: Optional[List[int]]):
        self.d: List[int] = [0]
        if d is not None:
            self.d = d


def test_class_attribute_assigned_at_top_then_in_a_branch():
    assert TopFirst(None).d == [0] and TopFirst([4, 5]).d == [4, 5]


if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
