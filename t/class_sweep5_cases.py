# t/class_sweep5_cases.py — a fifth sweep of saved-module and class behaviour, its programs
# run through tscript and PyTorch 1.13 and compared; what tscript differed on is kept here
# (the module-archive side is t/modules_sweep5/). Autograd's flags without gradients: a
# tensor made by the user is a leaf, one an operator computed from a tensor that requires
# grad is not, and an in-place write to a leaf that requires grad (or to a view of one) is
# an error; the tensor properties PyTorch's frontend maps to operators (x.is_leaf, x.is_cpu,
# x.name, x.real, ...); torch.nn.init, whose fills write a parameter with autograd off; the
# order PyTorch compiles a class's members in (__init__, the properties, the methods, each
# by name; a static method when first called), which decides the error of a class with
# several; tuples in a list or dict literal unified element by element, and types in the
# messages of a variable's changed type spelled as annotations; what a class's name looks
# up that is not its member; super(), which PyTorch leaves to Python at run time, and an
# __init__ that returns a value; a class's @torch.jit.unused and @torch.jit.ignore(drop=True)
# methods, PyTorch's stub that raises; a class without its own __init__; the Python type
# a global's error names; class interfaces (@torch.jit.interface) in a program; Final,
# which only a module's class body may use. Under PyTorch:
#     /usr/bin/python3 t/class_sweep5_cases.py
# t/class_sweep5_cases.sh runs them through t/cases.sh.
import math
from typing import Dict, Final, List, NamedTuple, Optional, Tuple, Union

import torch
import torch.nn as nn
import torch.nn.init as I
from torch.nn import init


def test_leaves_and_computed_tensors():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    c = torch.ones(2)
    b = a * 2
    assert a.is_leaf and not b.is_leaf and c.is_leaf and a.detach().is_leaf
    assert b.requires_grad and not a.detach().requires_grad
    # views and copies are computed; an argument returned as it is stays a leaf
    assert not a.t().is_leaf and not a.reshape(2).is_leaf and not a.expand(2).is_leaf
    assert not a.clone().is_leaf and not a.to(torch.float64).is_leaf
    assert a.to(torch.float32).is_leaf and a.float().is_leaf and a.contiguous().is_leaf
    assert a.real.is_leaf and not (a + 1).real.is_leaf


def test_in_place_writes_that_autograd_allows():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.no_grad():
        a.add_(1)
        e = a * 2
        assert e.is_leaf and not e.requires_grad
    assert a.is_leaf and a.requires_grad and bool(torch.equal(a, torch.tensor([2.0, 3.0])))
    # a tensor written with one that requires grad starts requiring it, computed
    c = torch.zeros(2)
    c.add_(a * 2)
    assert not c.is_leaf and c.requires_grad
    d = torch.zeros(2)
    d.copy_(a)
    assert not d.is_leaf and d.requires_grad
    # a computed tensor and its views may be written
    b = a * 1
    b.add_(1)
    f = b[0]
    f.add_(1)
    assert not f.is_leaf and f.requires_grad and bool(torch.equal(b, torch.tensor([4.0, 4.0])))
    # a leaf that stopped requiring grad may be written
    a.requires_grad_(False)
    a.add_(1)
    assert a.is_leaf and not a.requires_grad and bool(torch.equal(a, torch.tensor([3.0, 4.0])))


def test_data_is_a_leaf_that_shares_the_elements():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    d = a.data
    assert d.is_leaf and not d.requires_grad and a.requires_grad
    d.mul_(2.0)
    a.data.add_(1.0)
    assert bool(torch.equal(a.detach(), torch.tensor([3.0, 5.0])))


def test_requires_grad_of_leaves():
    g = torch.ones(3)
    g.requires_grad_()
    assert g.is_leaf and g.requires_grad
    g.requires_grad_(False)
    assert g.is_leaf and not g.requires_grad
    h = g.view(3)
    h.requires_grad_()
    assert h.is_leaf
    b = torch.tensor([1.0], requires_grad=True) * 2
    assert not b.requires_grad_().is_leaf
    # an in-place write nothing reads afterwards is dead code, as in PyTorch: no error
    x = torch.ones(2).requires_grad_()
    x.mul_(2)


def test_integer_results_do_not_require_grad():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = torch.tensor([3, 4])
    assert not (y * x).is_leaf and (y + 1).is_leaf and not (y + 1).requires_grad


def test_tensor_property_flags():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    assert a.is_cpu and not a.is_xpu and not a.is_mps and not a.is_vulkan
    assert not a.is_ipu and not a.is_ort and not a.is_sparse_csr and not a.retains_grad
    n: Optional[str] = a.name
    assert n is None
    r = a.real
    assert bool(torch.equal(r, a))


def test_nn_init_fills_leaves_with_autograd_off():
    a = torch.empty(3).requires_grad_()
    assert bool(torch.equal(nn.init.ones_(a), torch.ones(3)))
    assert bool(torch.equal(torch.nn.init.zeros_(a), torch.zeros(3)))
    assert bool(torch.equal(init.constant_(a, 0.5), torch.full([3], 0.5)))
    assert a.is_leaf and a.requires_grad
    torch.manual_seed(3)
    I.uniform_(a, -2.0, 2.0)
    torch.manual_seed(3)
    assert bool(torch.equal(a, torch.rand(3) * 4.0 - 2.0))
    torch.manual_seed(3)
    nn.init.normal_(a, 1.0, 0.5)
    torch.manual_seed(3)
    assert bool(torch.allclose(a, torch.randn(3) * 0.5 + 1.0))


def test_nn_init_xavier_and_fans():
    c = torch.empty(4, 2, 3, 3)
    fans: Tuple[int, int] = nn.init._calculate_fan_in_and_fan_out(c)
    assert fans == (18, 36)
    bound = 2.0 * math.sqrt(6.0 / 54.0)
    nn.init.xavier_uniform_(c, gain=2.0)
    assert float(c.abs().max()) <= bound
    m = torch.empty(200, 300)
    nn.init.xavier_normal_(m)
    assert abs(float(m.std()) - math.sqrt(2.0 / 500.0)) < 0.005


def err_nn_init_fans_of_a_vector():
    # raises: Fan in and fan out can not be computed for tensor with fewer than 2 dimensions
    nn.init.xavier_uniform_(torch.ones(3))


def err_nn_init_has_no_such_function():
    # raises: object has no attribute nothing_
    nn.init.nothing_(torch.ones(3))


@torch.jit.script
class LazyStatic:
    def __init__(self):
        self.a = 1

    @staticmethod
    def never_called() -> int:
        return undefined_in_a_static_method  # noqa: F821


def test_static_method_compiles_when_first_called():
    assert LazyStatic().a == 1


class MethodsByName:
    def zeta(self) -> int:
        return undefined_zeta  # noqa: F821

    def __init__(self):
        self.a = 1

    def alpha(self) -> int:
        return undefined_alpha  # noqa: F821


def err_class_methods_compile_by_name():
    # raises: undefined value undefined_alpha
    print(MethodsByName().a)


class InitFirst:
    def __eq__(self, o: "InitFirst") -> bool:
        return undefined_eq  # noqa: F821

    def __init__(self):
        self.a = undefined_init  # noqa: F821


def err_class_init_compiles_first():
    # raises: undefined value undefined_init
    print(InitFirst().a)


class PropertiesBeforeMethods:
    def __init__(self):
        self.a = 1

    def b(self) -> int:
        return undefined_method  # noqa: F821

    @property
    def zz(self) -> int:
        return undefined_zz  # noqa: F821

    @property
    def aa(self) -> int:
        return undefined_aa  # noqa: F821


def err_class_properties_compile_before_methods_by_name():
    # raises: undefined value undefined_aa
    print(PropertiesBeforeMethods().a)


def test_tuples_of_a_list_literal_unify_element_by_element():
    x = [(1, 2), (1, "a")]
    a = x[0]
    assert a[0] + 1 == 2
    assert torch.jit.isinstance(x, List[Tuple[int, Union[int, str]]])
    y = [(1, "s"), (1.5, "a")]
    assert torch.jit.isinstance(y, List[Tuple[Union[float, int], str]])
    z = [((1, 2), 1), ((1, "a"), 2)]
    assert torch.jit.isinstance(z, List[Tuple[Tuple[int, Union[int, str]], int]])
    d = {"a": (1, 2), "b": (1, "x")}
    assert torch.jit.isinstance(d, Dict[str, Tuple[int, Union[int, str]]])
    w = [(1, None), (2, 3)]
    assert torch.jit.isinstance(w, List[Tuple[int, Optional[int]]])


def err_tuples_of_branches_do_not_unify():
    # raises: Type mismatch: y is set to type Tuple[int, int] in the true branch and type Tuple[int, str] in the false branch
    c = bool(torch.rand(1) > 2)
    if c:
        y = (1, 2)
    else:
        y = (1, "a")
    print(y)


def err_branch_types_spelled_as_annotations():
    # raises: y is set to type List[int] in the true branch and type Dict[str, int] in the false branch
    c = bool(torch.rand(1) > 2)
    if c:
        y = [1]
    else:
        y = {"a": 1}
    print(y)


def err_loop_variable_type_spelled_as_annotation():
    # raises: Variable 'y' previously had type Tuple[int, int] but is now being assigned to a value of type Tuple[int, str]
    y = (1, 2)
    for i in range(3):
        y = (1, "a")
    print(y)


def err_dict_key_types_spelled_as_annotations():
    # raises: Dict keys must contain only a single type. Expected: int but found List[int] instead
    d = {1: 2, [1]: 3}
    print(d)


class Plain:
    K = 5

    def __init__(self):
        self.x = 1


class Pair(NamedTuple):
    x: int
    y: str


def err_class_lookup_of_an_instance_attribute():
    # raises: Tried to lookup unknown attribute on class __torch__.
    print(Plain.x)


def err_class_name_is_a_python_string():
    # raises: python value of type 'str' cannot be used as a value.
    print(Plain.__name__)


def err_class_variable_is_a_python_value():
    # raises: python value of type 'int' cannot be used as a value.
    print(Plain.K)


def err_namedtuple_class_has_no_attributes():
    # raises: attribute lookup is not defined on __torch__.
    print(Pair.x)


class CallsSuperInit:
    def __init__(self):
        super().__init__()
        self.x = 1


class CallsSuper:
    def __init__(self):
        s = super()
        self.x = 1


class InitReturns:
    def __init__(self, n: int):
        self.n = n
        if n > 0:
            return "positive"
        self.n = -n


def test_init_may_return_a_value():
    assert InitReturns(3).n == 3 and InitReturns(-2).n == 2


def err_super_init_does_not_compile():
    # raises: 'Tensor' object has no attribute or method '__init__'.
    print(CallsSuperInit().x)


def err_super_fails_at_run_time():
    # raises: super(): no arguments
    print(CallsSuper().x)


class WithDropped:
    def __init__(self):
        self.x = 1

    @torch.jit.unused
    def unused(self, v: List[int], w) -> int:
        return sum(i for i in range(3))  # never compiled: the stub raises

    @torch.jit.ignore(drop=True)
    def dropped(self) -> int:
        return sum(i for i in range(3))

    @torch.jit.ignore
    def python_only(self) -> int:
        return sum(i for i in range(3))


def test_dropped_methods_compile_as_stubs():
    w = WithDropped()
    if w.x > 1:
        print(w.unused("any type", 3.5), w.dropped())
    assert w.x == 1


def err_class_unused_method_raises():
    # raises: Cannot call @unused methods
    w = WithDropped()
    print(w.unused("its parameters are Any", 3.5))


def err_class_dropped_method_raises():
    # raises: Cannot call @unused methods
    print(WithDropped().dropped())


class NoInit:
    def get(self) -> int:
        return 5


class HasInit:
    def __init__(self):
        self.x = 1

    def hello(self) -> int:
        return 10


class InheritsInit(HasInit):
    def get(self) -> int:
        return 5


def err_class_without_init():
    # raises: Class NoInit does not have an __init__ function defined
    print(NoInit().get())


def err_class_does_not_inherit_init():
    # raises: Class InheritsInit does not have an __init__ function defined
    print(InheritsInit().get())


GLOBAL_TENSOR = torch.ones(2)
GLOBAL_DEVICE = torch.device("cpu")
GLOBAL_DTYPE = torch.float64
GLOBAL_ROOT = math.sqrt(2.0)
GLOBAL_LAYER = nn.Linear(2, 2)
GLOBAL_NEGATIVE = -3
GLOBAL_RATIO = 7 / 2


def err_global_tensor():
    # raises: python value of type 'Tensor' cannot be used as a value.
    print(GLOBAL_TENSOR)


def err_global_device():
    # raises: python value of type 'device' cannot be used as a value.
    print(GLOBAL_DEVICE)


def err_global_dtype():
    # raises: python value of type 'dtype' cannot be used as a value.
    print(torch.zeros(1, dtype=GLOBAL_DTYPE))


def err_global_math_result():
    # raises: python value of type 'float' cannot be used as a value.
    print(GLOBAL_ROOT)


def err_global_module():
    # raises: python value of type 'Linear' cannot be used as a value.
    print(GLOBAL_LAYER)


def err_global_negative_int():
    # raises: python value of type 'int' cannot be used as a value.
    print(GLOBAL_NEGATIVE)


def err_global_quotient():
    # raises: python value of type 'float' cannot be used as a value.
    print(GLOBAL_RATIO)


@torch.jit.interface
class Shape(object):
    def area(self, scale: float = 1.0) -> float:
        pass

    def name(self) -> str:
        pass


@torch.jit.script
class Square(object):
    def __init__(self, s: float):
        self.s = s

    def area(self, scale: float = 1.0) -> float:
        return self.s * self.s * scale

    def name(self) -> str:
        return "square"


@torch.jit.script
class Circle(object):
    def __init__(self, r: float):
        self.r = r

    def area(self, scale: float = 1.0) -> float:
        return 3.0 * self.r * self.r * scale

    def name(self) -> str:
        return "circle"

    def extra(self) -> int:
        return 1


def total_area(shapes: List[Shape]) -> float:
    t = 0.0
    for s in shapes:
        t += s.area(1.0)
    return t


def test_class_interface_dispatch():
    a: Shape = Square(2.0)
    b: Shape = Circle(1.0)
    assert a.area(1.0) == 4.0 and b.area(2.0) == 6.0
    assert a.name() == "square" and b.name() == "circle"
    shapes: List[Shape] = [Square(1.0), Circle(2.0), Square(3.0)]
    assert [s.name() for s in shapes] == ["square", "circle", "square"]
    assert total_area(shapes) == 22.0
    # the object's own default, through its class
    assert Square(3.0).area() == 9.0


def err_class_interface_method_declares_no_defaults():
    # raises: Argument scale not provided.
    a: Shape = Square(2.0)
    print(a.area())


def err_class_interface_has_only_its_methods():
    # raises: object has no attribute or method 'extra'.
    b: Shape = Circle(1.0)
    print(b.extra())


class FinalAttribute:
    def __init__(self):
        self.x: Final[int] = 1


def err_final_annotation_of_a_variable():
    # raises: Unknown type constructor Final
    x: Final[int] = 1
    print(x)


def err_final_annotation_of_a_class_attribute():
    # raises: Unknown type constructor Final
    print(FinalAttribute().x)


def err_in_place_write_to_a_leaf():
    # raises: a leaf Variable that requires grad is being used in an in-place operation.
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    a.mul_(2)
    print(a)


def err_augmented_assignment_to_a_leaf():
    # raises: a leaf Variable that requires grad is being used in an in-place operation.
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    a += 1
    print(a)


def err_out_argument_that_is_a_leaf():
    # raises: a leaf Variable that requires grad is being used in an in-place operation.
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    torch.add(torch.ones(2), 1.0, out=a)
    print(a)


def err_leaf_returned_as_it_is_then_written():
    # raises: a leaf Variable that requires grad is being used in an in-place operation.
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = a.contiguous()
    b.add_(1)
    print(a)


def err_item_assignment_to_a_leaf():
    # raises: a view of a leaf Variable that requires grad is being used in an in-place operation.
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    a[0] = 5.0
    print(a)


def err_in_place_write_to_a_view_of_a_leaf():
    # raises: a view of a leaf Variable that requires grad is being used in an in-place operation.
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = a.view(2)
    b.add_(1)
    print(a)


def err_random_fill_of_a_leaf():
    # raises: a leaf Variable that requires grad is being used in an in-place operation.
    a = torch.ones(2).requires_grad_()
    a.uniform_()
    print(a)


def err_resize_of_a_tensor_that_requires_grad():
    # raises: cannot resize variables that require grad
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    a.resize_(3)
    print(a)


def err_computed_tensor_stops_requiring_grad():
    # raises: you can only change requires_grad flags of leaf variables.
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = a * 2
    b.requires_grad_(False)
    print(b)


def err_imag_of_a_real_tensor():
    # raises: imag is not implemented for tensors with non-complex dtypes.
    a = torch.tensor([1.0, 2.0])
    print(a.imag)


if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
