# t/interface_cases.py — class interfaces (@torch.jit.interface) hold signatures, not only
# method names: a class fits an interface when each method the interface requires is in
# the class with a signature that fits it (PyTorch's rule: the same argument names, each of
# the interface's argument types a subtype of the class's, the class's return type a
# subtype of the interface's: a class returned where an interface is declared must fit it
# in turn), whether the class is passed as an argument, assigned to an annotated variable or
# put in a list; a class that does not fit is refused with
# PyTorch's message, which says which method and shows both signatures. Under PyTorch:
#     /usr/bin/python3 t/interface_cases.py
# t/interface_cases.sh runs them through t/cases.sh.
from typing import Any, List, Optional

import torch


@torch.jit.interface
class Shape(object):
    def area(self, k: int) -> float:
        pass


class Square(object):
    def __init__(self, s: float):
        self.s = s

    def area(self, k: int) -> float:
        return self.s * self.s * k


class TakesMore(object):
    def __init__(self):
        self.n = 2.0

    def area(self, k: Optional[int]) -> float:
        return self.n if k is None else self.n * k


class OtherName(object):
    def __init__(self):
        self.n = 1.0

    def area(self, j: int) -> float:
        return self.n


class ReturnsAny(object):
    def __init__(self):
        self.n = 1.0

    def area(self, k: int) -> Any:
        return self.n


class ReturnsInt(object):
    def __init__(self):
        self.n = 1

    def area(self, k: int) -> int:
        return self.n


class ExtraArg(object):
    def __init__(self):
        self.n = 1.0

    def area(self, k: int, scale: float) -> float:
        return self.n * scale


class NoArea(object):
    def __init__(self):
        self.n = 1.0


@torch.jit.interface
class Grower(object):
    def grow(self, by: float) -> Shape:
        pass


class SquareGrower(object):
    def __init__(self, s: float):
        self.s = s

    def grow(self, by: float) -> Square:
        return Square(self.s + by)


class BadGrower(object):
    def __init__(self):
        self.s = 1.0

    def grow(self, by: float) -> OtherName:
        return OtherName()


def total(shapes: List[Shape]) -> float:
    t = 0.0
    for s in shapes:
        t += s.area(2)
    return t


def one(s: Shape) -> float:
    return s.area(3)


def test_fitting_classes():
    assert one(Square(2.0)) == 12.0
    assert one(TakesMore()) == 6.0         # an argument type the class widens still fits
    x: Shape = TakesMore()
    assert x.area(1) == 2.0
    shapes: List[Shape] = [Square(1.0), TakesMore()]
    assert total(shapes) == 6.0


def test_return_a_class_that_fits():
    g: Grower = SquareGrower(1.0)
    assert g.grow(1.0).area(1) == 4.0


def err_return_a_class_that_does_not_fit():
    # raises: BadGrower self, float by) -> __torch__.
    g: Grower = BadGrower()
    print(g.grow(1.0).area(1))


def err_argument_name_differs():
    # raises: OtherName' (1) is not compatible with interface '
    print(one(OtherName()))


def err_argument_name_differs_shows_both():
    # raises: area(InterfaceType<Shape> self, int k) -> float
    print(one(OtherName()))


def err_return_any_is_wider():
    # raises: ReturnsAny self, int k) -> Any
    print(one(ReturnsAny()))


def err_return_int_is_no_float():
    # raises: (2) area(InterfaceType<Shape> self, int k) -> float
    print(one(ReturnsInt()))


def err_extra_argument():
    # raises: ExtraArg self, int k, float scale) -> float
    print(one(ExtraArg()))


def err_missing_method():
    # raises: NoArea' does not have method 'area' but '
    print(one(NoArea()))


def err_assignment_to_annotated_variable():
    # raises: Variable 'x' is annotated with type __torch__.
    x: Shape = OtherName()
    print(x.area(1))


def err_list_of_interfaces():
    # raises: did not match the types of the given list elements, which were unified to __torch__.
    shapes: List[Shape] = [ReturnsInt()]
    print(len(shapes))


if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
