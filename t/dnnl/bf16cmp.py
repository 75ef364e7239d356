#!/usr/bin/env python3
# bf16cmp.py — compares two printouts of t/dnnl/bf16_cases.py (or any lines of words and
# numbers) at bfloat16's precision: the same words, and numbers that differ by at most a
# relative 1e-2 (a bfloat16 keeps 8 bits: one rounding is up to 0.4%, and two results that
# summed the same products in another order may round to neighbours) plus 5e-3 of the
# largest magnitude on the expected line (a value near zero that cancelled out of larger
# ones keeps their absolute error, not its own relative one).
#
#     bf16cmp.py EXPECTED GOT      exit 0 when they match; else 1 and the first difference
import re
import sys

NUMBER = re.compile(r"^[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?|inf|nan)$")
STRIP = "()[]{},:"


def number(word):
    w = word.strip(STRIP)
    return float(w) if w and NUMBER.match(w) else None


def line_difference(want, got):
    """None when the lines match, else why not."""
    ww, gw = want.split(), got.split()
    if len(ww) != len(gw):
        return "%d words expected, %d printed" % (len(ww), len(gw))
    values = [abs(v) for v in map(number, ww) if v is not None and v == v]
    floor = 5e-3 * max(values, default=0.0)
    for a, b in zip(ww, gw):
        x, y = number(a), number(b)
        if x is None or y is None:
            if a != b:
                return "%r expected, %r printed" % (a, b)
            continue
        if x != x or y != y:
            if not (x != x and y != y):
                return "%r expected, %r printed" % (a, b)
            continue
        if abs(x - y) > 1e-2 * max(abs(x), abs(y)) + floor:
            return "%r expected, %r printed (allowed %.3g)" % (
                a, b, 1e-2 * max(abs(x), abs(y)) + floor)
    return None


def main():
    with open(sys.argv[1]) as f:
        want = f.read().rstrip("\n").split("\n")
    with open(sys.argv[2]) as f:
        got = f.read().rstrip("\n").split("\n")
    if len(want) != len(got):
        print("%d lines expected, %d printed" % (len(want), len(got)))
        return 1
    for n, (w, g) in enumerate(zip(want, got), 1):
        why = line_difference(w, g)
        if why:
            print("line %d (%s): %s" % (n, w.split()[0] if w.split() else "", why))
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
