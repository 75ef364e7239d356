# t/sweep5_cases.py — a fifth sweep of builtins, expressions, types and aliasing: each
# probe was run through tscript and PyTorch 1.13 and compared; these are the ones where
# tscript differed, kept as regression tests. Under PyTorch:
#     /usr/bin/python3 t/sweep5_cases.py
# t/sweep5_cases.sh runs them through t/cases.sh.
import math
from typing import Dict, List, Optional, Tuple

import torch


def err_attr_on_builtin_dict():
    # raises: attribute lookup is not defined on dict
    d = dict.fromkeys(["a", "b"], 0)


def err_attr_on_builtin_len():
    # raises: attribute lookup is not defined on __len__
    print(len.foo)


def err_attr_on_builtin_function():
    # raises: attribute lookup is not defined on builtin
    print(math.sqrt.foo)


def err_abs_two_args():
    # raises: Arguments for call are not valid.
    print(abs(1, 2))


def err_subscript_of_range():
    # raises: range cannot be used as a value
    print(range(5)[1])


def err_subscript_of_zip():
    # raises: iterabletree cannot be used as a value
    print(zip([1], [2])[0])


def err_range_value_float_argument():
    # raises: all inputs of range must be ints, found float in argument 1
    print(len(range(0, 10 ** 6, 7)))


def err_hasattr_of_tensor():
    # raises: hasattr's first argument must be an object, got Tensor instead
    t = torch.zeros(2)
    print(hasattr(t, "shape"))


def err_hasattr_of_list():
    # raises: hasattr's first argument must be an object, got List[int] instead
    x = [1]
    print(hasattr(x, "append"))


def test_tensor_list_eq_by_value():
    # == and != of List[Tensor] compare bool(a == b) item by item, not identity
    assert [torch.tensor(1)] == [torch.tensor(1)]
    assert not ([torch.tensor(1)] == [torch.tensor(2)])
    assert [torch.tensor(1)] != [torch.tensor(2)]
    assert [torch.tensor(1.0)] == [torch.tensor(1)]
    assert [torch.tensor([[2]])] == [torch.tensor(2)]
    n = torch.tensor(float("nan"))
    assert not ([n] == [n])
    # lengths differ: unequal before any item is compared
    assert not ([torch.tensor(1)] == [torch.tensor(1), torch.tensor(2)])
    e: List[torch.Tensor] = []
    assert e == []


def err_tensor_list_eq_many_elements():
    # raises: Boolean value of Tensor with more than one value is ambiguous
    t = torch.tensor([1, 2])
    print([t] == [t])


def err_tensor_list_eq_no_elements():
    # raises: Boolean value of Tensor with no values is ambiguous
    print([torch.zeros(0)] != [torch.tensor(1)])


def err_tensor_list_eq_shapes():
    # raises: The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0
    print([torch.tensor([1, 2])] == [torch.tensor([1, 2, 3])])


def test_tensor_list_count_index_remove():
    a = torch.tensor(1)
    l = [torch.tensor(7), a, torch.tensor(1), torch.tensor(2)]
    assert l.count(torch.tensor(1)) == 2
    assert l.index(torch.tensor(2)) == 3
    l.remove(torch.tensor(1))
    assert len(l) == 3 and int(l[1]) == 1 and int(l[2]) == 2
    assert l.count(torch.tensor(5)) == 0


def err_tensor_list_remove_missing():
    # raises: list.remove(x): x not in list
    l = [torch.tensor(1)]
    l.remove(torch.tensor(9))
    print(l)


def err_tensor_list_index_missing():
    # raises: is not in list
    l = [torch.tensor(1)]
    print(l.index(torch.tensor(2)))


def err_tensor_list_count_many_elements():
    # raises: Boolean value of Tensor with more than one value is ambiguous
    l = [torch.tensor(1), torch.tensor([1, 1])]
    print(l.count(torch.tensor(1)))


def test_tensor_list_sort():
    l = [torch.tensor(5), torch.tensor(3), torch.tensor(4), torch.tensor(1), torch.tensor(2)]
    l.sort()
    assert [int(t) for t in l] == [1, 2, 3, 4, 5]
    l.sort(reverse=True)
    assert [int(t) for t in l] == [5, 4, 3, 2, 1]
    s = sorted([torch.tensor(2.5), torch.tensor(-1.0)])
    assert float(s[0]) == -1.0 and float(s[1]) == 2.5
    # a nan goes where std::sort's insertion sort puts it
    m = [torch.tensor(2.0), torch.tensor(float("nan")), torch.tensor(1.0)]
    m.sort()
    assert float(m[0]) == 1.0 and float(m[1]) == 2.0 and math.isnan(float(m[2]))


def err_tensor_list_sort_many_elements():
    # raises: Boolean value of Tensor with more than one value is ambiguous
    l = [torch.tensor([3, 1]), torch.tensor([1, 2])]
    l.sort()
    print(l)


def test_builtin_max_of_tensors_is_prim():
    # the builtin max/min take prim's overloads: 0-dim int tensors convert to ints
    a = max(torch.tensor(3), torch.tensor(5))
    b = min(torch.tensor(3), torch.tensor(5))
    assert a == 5 and b == 3
    assert str(a) == "5"
    assert max(torch.tensor(4), 3) == 4 and min(2, torch.tensor(1)) == 1
    assert max(torch.tensor(1), 2.5) == 2.5


def err_builtin_max_of_float_tensors():
    # raises: Cannot input a tensor of type Float as an integral argument
    print(max(torch.tensor(1.5), torch.tensor(2.5)))


def err_builtin_max_of_one_tensor():
    # raises: Cannot input a tensor of dimension other than 0 as a scalar argument
    print(max(torch.tensor([1, 5])))


def test_complex_of_tensors():
    assert complex(torch.tensor(1.0), torch.tensor(2.0)) == complex(1.0, 2.0)
    assert complex(torch.tensor(3), 2.5) == complex(3.0, 2.5)
    assert complex(1, torch.tensor(True)) == complex(1.0, 1.0)
    assert complex(torch.tensor([2.0]), False) == complex(2.0, 0.0)
    assert str(complex(torch.tensor(1.5), torch.tensor(-0.5))) == "1.5-0.5j"


def err_complex_of_long_tensor():
    # raises: a Tensor with 2 elements cannot be converted to Scalar
    print(complex(torch.tensor([1.0, 2.0]), 1.0))


def err_variable_type_comment():
    # raises: expected type comment but found 'ident' here
    x = []  # type: List[int]
    print(x)


def err_two_variable_type_comments():
    # raises: not found on multiline type annotation
    x = 1  # type: int
    y = 2  # type: int
    print(x + y)


def def_line_comment_helper(x):  # type: (int) -> int
    return x


def err_signature_comment_on_def_line():
    # raises: expected type comment but found 'def' here
    print(def_line_comment_helper(1))


def sig_comment_helper(a, b):
    # type: (int, int) -> int
    x = a + b  # type: ignore
    return x


def unused_helper_with_variable_comment(a: int) -> int:
    x = 1  # type: int
    return a + x


def test_signature_comment_and_ignore():
    # an ignore comment is skipped; a function never compiled is never checked
    assert sig_comment_helper(1, 2) == 3


if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
