# Used by t/cli_test.sh: tests declared as PyTorch's suites declare them, with unittest's
# decorators; `tscript test` and PyTorch (t/unittest_verdicts.py) must agree on each.
import unittest
from unittest import expectedFailure, skip

import torch


def test_plain():
    assert torch.ones(2).sum().item() == 2.0


@unittest.expectedFailure
def test_raises():
    x = torch.ones(2, 3)
    print(x.view(4))


@unittest.expectedFailure
def test_does_not_compile():
    return undefined_name


@unittest.expectedFailure
def test_passes_anyway():
    assert 1 + 1 == 2


@unittest.skip("needs a GPU")
def test_skipped():
    assert False, "a skipped test never runs"


@skip("bare")
def test_bare_skip():
    assert False


@expectedFailure
def test_bare_xfail() -> bool:
    return False
