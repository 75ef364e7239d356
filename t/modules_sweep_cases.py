# t/modules_sweep_cases.py — script classes where tscript once differed from PyTorch 1.13,
# found by a sweep of variations on the conformance suite's class and module cases (each
# probe run through both). The module and archive cases of the same sweep are saved by
# PyTorch at test time: t/modules_sweep/. t/modules_sweep_cases.sh runs these through
# t/cases.sh; they pass under PyTorch too:
#     /usr/bin/python3 t/modules_sweep_cases.py
# The err_* functions fail with the message of their `# raises:` line.
from typing import List, Optional

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
