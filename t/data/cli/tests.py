# Used by t/cli.sh: `tscript test` runs the test_* functions as TAP.
from typing import List


def test_passes():
    print("printed to stderr")
    assert 1 + 1 == 2


def test_fails():
    xs: List[int] = [1]
    assert xs[0] == 2, "xs[0] is not 2"


def test_returns_false() -> bool:
    return False


def test_does_not_compile():
    return undefined_name


def helper() -> int:
    return 1
