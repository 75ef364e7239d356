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


def err_hasattr_of_tensor():
    # raises: hasattr's first argument must be an object, got Tensor instead
    t = torch.zeros(2)
    print(hasattr(t, "shape"))


def err_hasattr_of_list():
    # raises: hasattr's first argument must be an object, got List[int] instead
    x = [1]
    print(hasattr(x, "append"))


if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
