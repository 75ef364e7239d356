# arith.py — Python's integer and float arithmetic as TorchScript keeps it. A test file of
# `tscript test` (see the README): every test_* function runs and must not raise.
import unittest


def test_floor_division_rounds_down():
    assert -7 // 2 == -4
    assert -7 % 2 == 1
    assert 7.5 // 2 == 3.0


def test_true_division_is_float():
    assert 7 / 2 == 3.5
    assert abs(1 / 3 - 0.3333333333333333) < 1e-15


def test_int_to_float_promotion() -> bool:
    x = 3
    y = x * 0.5
    return y == 1.5


@unittest.expectedFailure
def test_division_by_zero():
    # declared to raise: ZeroDivisionError, as in Python
    zero = 0
    print(1 // zero)
