#!/usr/bin/env python3
# outcmp.py — compares a program's printed output with what PyTorch printed, as the
# conformance suite judges it: line by line and word by word, where two numbers match when
# they differ by at most a relative 1e-4 (absolute 1e-5 near zero) or by one unit in their
# last printed digit. Printed floats differ between CPUs in their last digits (libm, FMA,
# vector widths), so a test must never compare them byte for byte.
#
#     outcmp.py EXPECTED GOT      exit 0 when they match; else 1 and the first difference
import re
import sys

NUMBER = re.compile(r"^[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?|inf|nan)$")
# punctuation a printed container puts around a number: "[1.5," "(2," "3.)"
AROUND = re.compile(r"^([(\[{]*)(.*?)([)\]},:]*)$")


def unit_in_last_digit(tok):
    """The value of one unit in the last printed digit of a number token."""
    m = re.match(r"^[-+]?\d*\.?(\d*)(?:[eE]([-+]?\d+))?$", tok)
    if not m:
        return 0.0
    decimals = len(m.group(1)) if "." in tok else 0
    exponent = int(m.group(2)) if m.group(2) else 0
    return 10.0 ** (exponent - decimals)


def numbers_match(a, b):
    if a == b:
        return True
    if not (NUMBER.match(a) and NUMBER.match(b)):
        return False
    x, y = float(a), float(b)
    if x != x or y != y:
        return x != x and y != y
    if x == y:
        return True
    diff = abs(x - y)
    if diff <= 1e-5 or diff <= 1e-4 * max(abs(x), abs(y)):
        return True
    return diff <= max(unit_in_last_digit(a), unit_in_last_digit(b)) * 1.000001


def words_match(a, b):
    if a == b:
        return True
    ma, mb = AROUND.match(a), AROUND.match(b)
    if ma.group(1) != mb.group(1) or ma.group(3) != mb.group(3):
        return False
    return numbers_match(ma.group(2), mb.group(2))


def first_difference(want, got):
    """None when the texts match, else a line saying where they differ."""
    wl, gl = want.split("\n"), got.split("\n")
    if len(wl) != len(gl):
        return "%d lines expected, %d printed" % (len(wl), len(gl))
    for n, (w, g) in enumerate(zip(wl, gl), 1):
        ww, gw = w.split(), g.split()
        if len(ww) != len(gw) or not all(words_match(a, b) for a, b in zip(ww, gw)):
            return "line %d: expected %r, printed %r" % (n, w, g)
    return None


def main():
    if len(sys.argv) != 3:
        sys.stderr.write("usage: outcmp.py EXPECTED GOT\n")
        return 2
    with open(sys.argv[1], encoding="utf-8", errors="replace") as f:
        want = f.read()
    with open(sys.argv[2], encoding="utf-8", errors="replace") as f:
        got = f.read()
    diff = first_difference(want, got)
    if diff:
        print(diff)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
