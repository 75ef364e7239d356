# t/complex_cases.py — TorchScript's complex scalar (not complex tensors): imaginary
# literals, complex(), arithmetic with ints and floats on either side, ==, abs, the cmath
# functions PyTorch maps, printing, complex in containers and Optional, and the errors
# PyTorch gives. t/complex_cases.sh runs them through t/cases.sh; they pass under PyTorch
# too:
#     /usr/bin/python3 t/complex_cases.py
# PyTorch 1.13 fails an internal assertion on `z / 2`, `z ** 2`, `2 ** z`, `z // 2` and
# `z < w` (they bind the Scalar overloads): tscript computes Python's result for the first
# three and raises Python's TypeError for the others; those are not cases here.
import cmath
import math
from typing import Dict, List, Optional, Tuple

import torch


def close(a: complex, b: complex) -> bool:
    return abs(a - b) < 1e-12


def test_imaginary_literals():
    z = 2j
    assert str(z) == "0.+2.j"
    assert str(1.5j) == "0.+1.5j"
    assert str(1e3j) == "0.+1000.j"
    assert str(0j) == "0.+0.j"
    assert str(-2j) == "0.-2.j"
    w = 1 + 2j
    assert str(w) == "1.+2.j"
    print(z, 1.5j, -2j, w)


def test_complex_constructor():
    assert str(complex(1, 2)) == "1.+2.j"
    assert str(complex(1.5, -2)) == "1.5-2.j"
    assert str(complex(-1, 2.25)) == "-1.+2.25j"
    assert str(complex(0.5, 0.25)) == "0.5+0.25j"
    assert str(complex(True, False)) == "1.+0.j"
    assert str(complex(1.5, True)) == "1.5+1.j"
    assert str(complex(2)) == "2.+0.j"
    assert str(complex(2.5)) == "2.5+0.j"
    assert complex(3, 4) == 3 + 4j


def test_float_formatting_inside():
    assert str(complex(0.1, 1e20)) == "0.10000000000000001+1e+20j"
    assert str(complex(1e20, 1e-5)) == "1e+20+1.0000000000000001e-05j"
    assert str(complex(1e16, 1e-16)) == "10000000000000000.+9.9999999999999998e-17j"
    inf = float("inf")
    assert str(complex(-1.5, -inf)) == "-1.5-infj"
    assert str(complex(float("nan"), inf)) == "nan+infj"
    assert str(complex(-0.0, 0.0)) == "0.+0.j"


def test_add_sub_mul_with_ints_and_floats():
    z = complex(3, 4)
    assert z + 1 == complex(4, 4) and 1 + z == complex(4, 4)
    assert z + 1.5 == complex(4.5, 4) and 1.5 + z == complex(4.5, 4)
    assert z - 1 == complex(2, 4) and 1 - z == complex(-2, -4)
    assert z - 1.5 == complex(1.5, 4) and 1.5 - z == complex(-1.5, -4)
    assert z * 2 == complex(6, 8) and 2 * z == complex(6, 8)
    assert z * 2.5 == complex(7.5, 10) and 2.5 * z == complex(7.5, 10)
    assert z + z == complex(6, 8) and z - z == 0j and z * z == complex(-7, 24)
    assert (1 + 2j) * (3 - 1j) == complex(5, 5)
    assert 1.5 - complex(3, 4) * 2 + 1j / complex(1, 1) == complex(-4, -7.5)
    assert -z == complex(-3, -4)


def test_division_of_complex_numbers():
    z = complex(3, 4)
    assert z / z == complex(1, 0)
    assert close(1j / complex(1, 1), complex(0.5, 0.5))
    q = z / complex(0, 0)    # no error: nan, as PyTorch's division
    assert math.isnan(q)


def test_augmented_assignment():
    z = complex(3, 4)
    z += 1
    z *= 2j
    assert z == complex(-8, 8)
    w = 2j
    w = w + 1
    w -= 1
    assert w == 2j


def test_power():
    z = complex(3, 4)
    assert close(z ** 2.0, complex(-7, 24))
    assert close(z ** complex(2, 0), complex(-7, 24))
    assert z ** 0.5 == complex(2, 1)
    assert close(z ** -1.0, complex(0.12, -0.16))
    assert z ** 0.0 == complex(1, 0)
    assert complex(0, 0) ** 2.0 == 0j
    assert complex(2, 0) ** 0.5 == complex(math.sqrt(2.0), 0)
    assert 2.0 ** complex(0.5, 0) == complex(math.sqrt(2.0), 0)
    assert close(2.0 ** z, complex(-7.461496614688569, 2.885492725513448))
    assert close(z ** z, complex(-2.9979905984214006, 0.623784586279047))
    assert 1.5 ** complex(0, 0) == complex(1, 0)


def test_equality():
    z = complex(3, 4)
    assert z == z and not (z != z)
    assert not (z == 3.0) and not (3.0 == z) and 3.0 != z
    assert complex(3, 0) == 3.0 and 3.0 == complex(3, 0)
    assert complex(3, 4) == complex(3, 4) and complex(3, 0) != complex(3, 1)


def test_abs():
    z = 3 + 4j
    assert abs(z) == 5.0 and abs(-z) == 5.0 and abs(-2j) == 2.0 and abs(1j) == 1.0
    assert abs(complex(float("inf"), float("nan"))) == float("inf")


def test_float_of_complex_is_its_real_part():
    assert float(complex(3, 4)) == 3.0


def test_cmath_and_math_functions():
    z = complex(3, 4)
    assert close(math.sqrt(z), complex(2, 1)) and close(cmath.sqrt(z), complex(2, 1))
    assert math.sqrt(complex(-4, 0)) == 2j
    assert close(math.exp(z), complex(-13.128783081462158, -15.200784463067954))
    assert close(cmath.log(z), complex(1.6094379124341003, 0.9272952180016122))
    assert close(math.log10(z), complex(0.6989700043360187, 0.4027191962733731))
    assert close(math.sin(z), complex(3.853738037919377, -27.016813258003932))
    assert close(cmath.cos(z), complex(-27.034945603074224, -3.851153334811777))
    assert close(math.tanh(z), complex(1.000709536067233, 0.0049082580674960595))
    assert close(math.asin(z), complex(0.6339838656391766, 2.305509031243477))
    assert close(cmath.acosh(z), complex(2.305509031243477, 0.93681246115572))
    assert close(math.atan(z), complex(1.4483069952314644, 0.15899719167999918))
    assert close(math.acos(complex(2, 0)), complex(0, -1.3169578969248166))
    assert math.log(complex(0, 0)) == complex(float("-inf"), 0)
    assert close(math.log(z, 2), complex(2.321928094887362, 1.3378042124509761))
    assert close(math.log(2, z), complex(0.32334011977044175, -0.18629593880868392))
    assert close(math.log(z, complex(1, 1)), complex(1.7451130035230284, -1.2791318851741047))


def test_cmath_phase_rect_and_predicates():
    assert cmath.phase(complex(3, 4)) == 0.9272952180016122
    assert cmath.phase(-1.0) == math.pi and cmath.phase(2) == 0.0
    assert close(cmath.rect(2, 0.5), complex(1.7551651237807455, 0.958851077208406))
    assert close(cmath.rect(1, 2), complex(-0.4161468365471424, 0.9092974268256817))
    assert math.isnan(complex(float("nan"), 0)) and not math.isnan(complex(3, 4))
    assert math.isinf(complex(0, float("inf"))) and math.isfinite(complex(1, 2))
    assert not cmath.isnan(1.0)
    assert cmath.pi == math.pi and cmath.e == math.e


def test_phase_of_a_negative_zero_imaginary_part():
    # alone: tscript's frontend pools -0.0 into a 0.0 elsewhere in the function
    assert cmath.phase(complex(-1, -0.0)) == -math.pi


def test_complex_in_containers():
    l: List[complex] = []
    l.append(1j)
    l.append(complex(2, 3))
    assert len(l) == 2 and l[1] == complex(2, 3) and sum(l) == complex(2, 4)
    assert sum([1j, 2j]) == 3j
    t = (1j, 2.5, "s")
    assert t[0] == 1j
    assert str([1j, complex(-1, 0)]) == "[0.+1.j, -1.+0.j]"
    assert str((1j, 2)) == "(0.+1.j, 2)"
    print([complex(3, 4), 1j], (complex(3, 4), 2), t, [complex(1.5, -2.25)])


def test_complex_dict_keys_and_values():
    d: Dict[complex, str] = {1j: "a", complex(1, 0): "b"}
    d[2j] = "c"
    assert d[1j] == "a" and 2j in d and len(d) == 3
    assert str(d) == "{0.+1.j: a, 1.+0.j: b, 0.+2.j: c}"
    e = {"a": 1j}
    assert e["a"] == 1j
    print(d, {1: complex(3, 4)})


def test_optional_complex_and_isinstance():
    x: Optional[complex] = None
    if x is None:
        x = 1j
    assert x * 2 == 2j
    y: Optional[complex] = complex(1, 2)
    assert isinstance(y, complex)
    z = complex(3, 4)
    assert isinstance(z, complex) and not isinstance(1, complex)


def takes_complex(a: complex = 2j, b: complex = -1j) -> complex:
    return a + b


def test_complex_default_arguments():
    assert takes_complex() == 1j
    assert takes_complex(3j) == 2j


def test_len_of_a_value_that_is_no_container_is_one():
    # PyTorch packs the argument into a list (aten::len.any(Any[] a))
    assert len(5) == 1 and len(2.5) == 1 and len(True) == 1 and len(None) == 1
    x: Optional[int] = 3
    assert len(x) == 1
    assert len(1, 2) == 2
    assert len(torch.ones(3, 2)) == 3 and len("abc") == 3 and len((1, 2, 3)) == 3
    assert len([1]) == 1 and len({1: 2}) == 1


def err_real_is_no_attribute():
    # raises: 'complex' object has no attribute or method 'real'
    z = complex(3, 4)
    return z.real


def err_imag_is_no_attribute():
    # raises: 'complex' object has no attribute or method 'imag'
    z = complex(3, 4)
    return z.imag


def err_conjugate_is_no_method():
    # raises: 'complex' object has no attribute or method 'conjugate'
    z = complex(3, 4)
    return z.conjugate()


def err_int_of_complex():
    # raises: value cannot be converted to type int without overflow
    z = complex(3, 4)
    return int(z)


def err_bool_of_complex():
    # raises: Expected a value of type 'float' for argument 'a' but instead found type 'complex'
    z = complex(3, 4)
    return bool(z)


def err_hash_of_complex():
    # raises: unhashable type: 'complex'
    return hash(2j)


def err_cmath_polar():
    # raises: Python builtin <built-in function polar> is currently not supported in Torchscript
    return cmath.polar(2j)


def err_complex_of_str():
    # raises: Expected a value of type 'number' for argument 'a' but instead found type 'str'
    return complex("1+2j")


def err_complex_without_arguments():
    # raises: Argument a not provided
    return complex()


def err_complex_list_equality():
    # raises: Expected a value of type 'Tensor' for argument 'self' but instead found type 'List[complex]'
    return [complex(1, 2), 3j] == [complex(1, 2), 3j]


def err_complex_as_a_condition():
    # raises: Could not cast value of type complex to bool
    z = 2j
    if z:
        return 1
    return 0


def err_complex_and_float_branches():
    # raises: if-expression's true branch has type complex but false branch has type float
    z = complex(1, 2)
    y = z if bool(torch.rand(1) < 2.0) else 3.0
    return y


def err_tensor_of_a_complex_list():
    # raises: Add new condition, expected Float, Complex, Int, or Bool but gotcomplex
    return torch.tensor([complex(3, 4)])


if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
