# t/errors_sweep_cases.py — wrong programs that must fail as PyTorch 1.13 fails them, found by
# a sweep of variations on the conformance suite's errors/ cases (each probe run through both).
# t/errors_sweep_cases.sh runs them through t/cases.sh; they pass under PyTorch too:
#     /usr/bin/python3 t/errors_sweep_cases.py
# Each err_* function fails with the message of its `# raises:` line; the test_* functions
# are programs near them that PyTorch accepts.
from typing import Dict, List, Optional, Tuple

import math

import torch


class SweepError(Exception):
    pass


class DeeperSweepError(SweepError):
    pass


def sweep_check(i: int) -> int:
    if i > 2:
        raise SweepError("too big: " + str(i))
    return i


def test_generator_expression_is_a_list_comprehension():
    xs = [1, 2, 3]
    assert sum(x * 2 for x in xs) == 12
    assert list(x for x in xs) == [1, 2, 3]
    assert any(x > 2 for x in xs) and not all(x > 2 for x in xs)


def test_an_exception_bound_to_a_name_is_raised_later():
    n = 0
    for i in range(3):
        n += sweep_check(i)
    assert n == 3


# ---- raise and assert -------------------------------------------------------------------

def err_raise_of_a_class_of_the_file():
    # raises: SweepError: too big: 3
    for i in range(5):
        print(sweep_check(i))


def err_raise_of_a_class_deriving_from_one_of_the_file():
    # raises: DeeperSweepError: deep 1
    raise DeeperSweepError("deep " + str(1))


def err_raise_of_an_undefined_exception():
    # raises: undefined value MadeUpError
    raise MadeUpError("x")


def err_raise_of_an_int():
    # raises: exceptions must derive from BaseException
    raise 3


def err_raise_of_a_string():
    # raises: exceptions must derive from BaseException
    raise "oops"


def err_raise_of_an_exception_bound_to_a_name():
    # raises: builtins.ValueError: bound 2
    e = ValueError("bound " + str(2))
    raise e


def err_raise_assertion_error_is_a_runtime_error():
    # raises: RuntimeError: AssertionError: no good
    raise AssertionError("no good")


def err_assert_message_is_a_runtime_error():
    # raises: RuntimeError: AssertionError: x is 3
    x = 3
    assert x < 2, "x is " + str(x)


def err_assert_message_not_a_string():
    # raises: RuntimeError: AssertionError: 3
    x = 3
    assert x < 2, x


def err_assert_without_message():
    # raises: RuntimeError: AssertionError: 
    t: Optional[torch.Tensor] = None
    assert t is not None


def err_raise_of_a_class_without_call_has_no_message():
    # raises: RuntimeError: 
    raise ValueError


def err_raise_with_two_arguments_shows_their_tuple():
    # raises: builtins.ValueError: (a, 1)
    raise ValueError("a", 1)


def err_raise_without_arguments():
    # raises: builtins.KeyError: 
    raise KeyError()


def err_raise_of_an_aliased_exception():
    # raises: builtins.OSError: io
    raise IOError("io")


def err_raise_of_a_lookup_error():
    # raises: builtins.LookupError: lk
    raise LookupError("lk")


def err_exception_used_as_a_value():
    # raises: exception message cannot be used as a value
    print(ValueError("x"))


def err_exception_class_used_as_a_value():
    # raises: Python exception cannot be used as a value
    print(ValueError)


# ---- names and builtins -------------------------------------------------------------------

def err_python_builtin_open():
    # raises: Python builtin <built-in function open> is currently not supported in Torchscript
    f = open("x")


def err_python_builtin_iter():
    # raises: Python builtin <built-in function iter> is currently not supported in Torchscript
    it = iter([1, 2])


def err_python_builtin_repr():
    # raises: Python builtin <built-in function repr> is currently not supported in Torchscript
    print(repr(3))


def err_builtin_as_a_value():
    # raises: builtin cannot be used as a value
    print(abs)


def err_len_as_a_value():
    # raises: __len__ cannot be used as a value
    print(len)


def err_int_as_a_value():
    # raises: __int__ cannot be used as a value
    print(int)


def err_getattr_as_a_value():
    # raises: GetAttr cannot be used as a value
    print(getattr)


def err_tuple_as_a_value():
    # raises: TupleConstruct cannot be used as a value
    print(tuple)


def err_an_aten_op_as_a_value():
    # raises: builtin cannot be used as a value
    print(torch.relu)


def err_module_as_a_value():
    # raises: python value of type 'module' cannot be used as a value
    print(torch)


def err_calling_a_float():
    # raises: cannot call a value of type 'float'
    x = 3.0
    print(x())


def err_calling_a_list():
    # raises: cannot call a value of type 'List[int]'
    x = [1]
    print(x(1))


def err_isinstance_of_a_constant():
    # raises: Expression of type const cannot be used in a type expression
    print(isinstance(1, 3))


def err_isinstance_of_a_list_literal():
    # raises: Expression of type list-literal cannot be used in a type expression
    print(isinstance(1, [int]))


def err_annotate_with_a_constant():
    # raises: Expression of type const cannot be used in a type expression
    x = torch.jit.annotate(3, 3)


def err_annotate_int_of_a_str():
    # raises: expected an expression of type int but found str
    x = torch.jit.annotate(int, "a")


def err_annotate_optional_of_a_str():
    # raises: expected an expression of type Optional[int] but found str
    x = torch.jit.annotate(Optional[int], "a")


# ---- range, enumerate, unpacking ------------------------------------------------------------

def err_range_of_a_str():
    # raises: all inputs of range must be ints, found str in argument 0
    for i in range("a"):
        print(i)


def err_range_second_argument_float():
    # raises: all inputs of range must be ints, found float in argument 1
    for i in range(1, 2.5):
        print(i)


def err_range_of_a_tensor():
    # raises: all inputs of range must be ints, found Tensor in argument 0
    for i in range(torch.tensor(3)):
        print(i)


def err_range_with_a_keyword_only():
    # raises: range expected at least 1 arguments, got 0
    for i in range(stop=3):
        print(i)


def err_range_without_arguments():
    # raises: range expected at least 1 arguments, got 0
    for i in range():
        print(i)


def err_range_with_four_arguments():
    # raises: range expected at most 3 arguments, got 4
    for i in range(1, 2, 3, 4):
        print(i)


def err_enumerate_with_an_unknown_keyword():
    # raises: enumerate expected kwarg name 'start', got 'begin'
    for i, x in enumerate([1], begin=1):
        print(i)


def err_unpacking_too_few_values():
    # raises: need 3 values to unpack but found only 2
    a, b, c = (1, 2)


def err_unpacking_too_many_values():
    # raises: too many values to unpack: need 2 but found 3
    a, b = (1, 2, 3)


def err_unpacking_an_int():
    # raises: int cannot be used as a tuple
    a, b = 3


def err_unpacking_a_list_of_another_length():
    # raises: Expected 2 elements in a list but found 3
    a, b = [1, 2]
    print(a, b)
    a, b = [1, 2, 3]
    print(a)


def err_tuple_of_a_generator_expression():
    # raises: cannot statically infer the expected size of a list in this context
    print(tuple(x for x in [1, 2]))


# ---- subscripts and attributes ----------------------------------------------------------------

def err_subscript_of_an_int():
    # raises: 'int' object is not subscriptable
    x = 3
    print(x[0])


def err_subscript_of_none():
    # raises: 'NoneType' object is not subscriptable
    x = None
    print(x[0])


def err_subscript_of_a_float():
    # raises: 'float' object is not subscriptable
    x = 1.5
    print(x[0])


def err_subscript_of_an_unrefined_optional():
    # raises: 'Optional[List[int]]' object is not subscriptable
    x: Optional[List[int]] = [1]
    print(x[0])


def err_subscripted_assignment_to_a_tuple():
    # raises: Tuple[int, int] does not support subscripted assignment
    t = (1, 2)
    t[0] = 3
    print(t)


def err_subscripted_assignment_to_an_int():
    # raises: 'int' object is not subscriptable
    x = 3
    x[0] = 1


def err_tuple_index_of_mixed_types_at_run_time():
    # raises: Cannot index into a Tuple[int, str] with a non-integer literal because we cannot resolve the output type
    t = (1, "a")
    i = 0
    print(t[i])


def err_tuple_index_of_a_float():
    # raises: tuple index must be an integer
    t = (1, 2)
    print(t[1.0])


def err_tuple_index_out_of_range_at_run_time():
    # raises: Tuple list index out of range
    t = (1, 2, 3)
    i = 0
    print(t[i])
    i = 5
    print(t[i])


def err_setting_an_attribute_of_a_tensor():
    # raises: Tried to set an attribute: foo on a non-class: Tensor
    t = torch.ones(2)
    t.foo = 3


def err_setting_an_attribute_of_a_list():
    # raises: Tried to set an attribute: foo on a non-class: List[int]
    x = [3]
    x.foo = 4


# ---- neighbours that already failed as PyTorch fails ------------------------------------------

def err_optional_not_iterable():
    # raises: 'Optional[List[int]]' object is not iterable
    x: Optional[List[int]] = [1]
    s = 0
    for v in x:
        s += v


def err_list_append_of_another_type():
    # raises: Arguments for call are not valid
    xs = [1]
    xs.append("a")


def err_str_plus_int():
    # raises: Arguments for call are not valid
    print("a" + 1)


def err_dict_key_of_another_type():
    # raises: Arguments for call are not valid
    d = {"a": 1}
    print(d[1])


def err_list_pop_out_of_range():
    # raises: list index out of range
    xs = [1, 2]
    print(xs.pop(1))
    print(xs.pop(3))


def err_list_index_of_a_missing_item():
    # raises: is not in list
    xs = [1, 2]
    print(xs.index(7))


def err_dict_pop_of_a_missing_key():
    # raises: KeyError: b
    d = {"a": 1}
    print(d.pop("a"))
    print(d.pop("b"))


def err_str_index_out_of_range():
    # raises: string index out of range
    s = "ab"
    print(s[2])


def err_int_of_a_float_string():
    # raises: invalid literal for int() with base 10: '1.5'
    print(int("1.5"))


def err_float_of_a_word():
    # raises: could not convert string to float: 'abc'
    print(float("abc"))


def err_chr_out_of_range():
    # raises: chr() arg not in range(0x110000)
    print(chr(-1))


def err_min_of_an_empty_list():
    # raises: min() arg is an empty sequence
    xs: List[int] = []
    print(min(xs))


def err_list_slice_step_zero():
    # raises: List slice should have non-zero step
    xs = [1, 2, 3]
    print(xs[::0])


def err_matmul_shapes():
    # raises: mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)
    a = torch.ones(2, 3)
    print(torch.matmul(a, a))


def err_cat_sizes():
    # raises: Sizes of tensors must match except in dimension 0
    print(torch.cat([torch.ones(2, 3), torch.ones(2, 4)]))


def err_view_of_a_transposed_tensor():
    # raises: view size is not compatible with input tensor's size and stride
    t = torch.ones(2, 3).t()
    print(t.view(6))


def err_expand_to_a_smaller_rank():
    # raises: the number of sizes provided (1) must be greater or equal to the number of dimensions in the tensor (2)
    t = torch.ones(2, 3)
    print(t.expand(3))


def err_int_of_a_multi_element_tensor():
    # raises: a Tensor with 3 elements cannot be converted to Scalar
    t = torch.ones(3)
    print(int(t))


def err_bool_of_a_multi_element_tensor():
    # raises: Boolean value of Tensor with more than one value is ambiguous
    t = torch.ones(3)
    if t:
        print(1)


def err_bool_tensor_subtraction():
    # raises: Subtraction, the `-` operator, with two bool tensors is not supported
    t = torch.tensor([True])
    print(t - t)


def err_int_tensor_in_place_true_division():
    # raises: result type Float can't be cast to the desired output type Long
    t = torch.ones(2, dtype=torch.int64)
    t /= 2
    print(t)


def err_select_out_of_range():
    # raises: select(): index 5 out of range for tensor of size [2, 3] at dimension 1
    t = torch.ones(2, 3)
    print(t.select(1, 5))



def err_unknown_torch_function():
    # raises: object has no attribute summ
    return torch.summ(torch.ones(2))


def err_unknown_functional():
    # raises: object has no attribute relux
    return torch.nn.functional.relux(torch.ones(2))


def err_unknown_math_function():
    # raises: object has no attribute sqrtt
    return math.sqrtt(2.0)


def err_math_function_torchscript_lacks():
    # raises: Python builtin <built-in function isclose> is currently not supported in Torchscript
    return math.isclose(1.0, 1.0)

if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
