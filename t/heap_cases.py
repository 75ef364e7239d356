# t/heap_cases.py — values under many updates, the workloads the interpreter's heap work
# (core/value/objcache.c's small-block cache, str.c's cached hashes, dict.c's key compares)
# makes fast: strings built and dropped in loops, str-keyed dicts updated, emptied and
# refilled, keys that are equal but different objects, lists grown by append, and the same
# values reached from forked tasks. t/heap_cases.sh runs them under tscript; under PyTorch:
#     /usr/bin/python3 t/heap_cases.py
from typing import Dict, List

import torch


def test_str_of_ints():
    xs = [0, 5, 9, 10, 99, 100, 101, 999, 1000, 12345, 1000000, -1, -9, -10, -100, -12345,
          9223372036854775807, -9223372036854775807 - 1]
    want = ["0", "5", "9", "10", "99", "100", "101", "999", "1000", "12345", "1000000", "-1",
            "-9", "-10", "-100", "-12345", "9223372036854775807", "-9223372036854775808"]
    got: List[str] = []
    for x in xs:
        got.append(str(x))
    assert got == want
    for i in range(-1000, 1000):
        assert int(str(i)) == i and len(str(i)) == len(str(abs(i))) + int(i < 0)


def xs_of(n: int) -> str:
    s = ""
    for _ in range(n):
        s = s + "x"
    return s


def test_string_building():
    s = ""
    for i in range(300):
        s = s + str(i % 10)
    assert len(s) == 300 and s[:12] == "012345678901" and s[-3:] == "789"
    assert "" + "" == "" and "ab" + "" == "ab" and "" + "cd" == "cd"
    parts: List[str] = []
    for i in range(200):
        parts.append("k" + str(i) + "_" + xs_of(i % 70))
    for i in range(200):
        assert parts[i] == "k" + str(i) + "_" + xs_of(i % 70)
        assert len(parts[i]) == len(str(i)) + 2 + i % 70


def test_dict_many_updates():
    d: Dict[str, int] = {}
    for i in range(30000):
        k = "k" + str(i % 5000)
        d[k] = d.get(k, 0) + i
    assert len(d) == 5000
    total = 0
    for k in d.keys():
        total += d[k]
    assert total == 30000 * 29999 // 2
    assert d["k0"] == 0 + 5000 + 10000 + 15000 + 20000 + 25000


def test_dict_delete_and_refill():
    d: Dict[str, int] = {}
    for round in range(3):
        for i in range(2000):
            d[str(i)] = i + round
        for i in range(0, 2000, 2):
            del d[str(i)]
        assert len(d) == 1000
        for i in range(2000):
            assert (str(i) in d) == (i % 2 == 1)
        for i in range(1, 2000, 2):
            assert d[str(i)] == i + round
        for i in range(0, 2000, 2):
            d[str(i)] = -i
    assert len(d) == 2000 and d["0"] == 0 and d["1998"] == -1998 and d["1999"] == 1999 + 2
    d.clear()
    assert len(d) == 0 and d.get("1", -5) == -5
    d["1"] = 7
    assert d["1"] == 7 and list(d.keys()) == ["1"]


def test_dict_keys_alike():
    # keys of equal length that differ in one byte, first, middle or last, and equal keys
    # built separately: the compare must look at the bytes, never at identity alone
    d: Dict[str, int] = {}
    words = ["abcdefgh", "abcdefgi", "bbcdefgh", "abcdxfgh", "a", "b", "ab", "ba", "",
             "abcdefghijklmnopq", "abcdefghijklmnopr", "xbcdefghijklmnopq",
             "abcdefghijklmnopqrstuvwxyz0123456789", "abcdefghijklmnopqrstuvwxyz0123456788"]
    for i in range(len(words)):
        d[words[i]] = i
    for i in range(len(words)):
        k = "" + words[i][:len(words[i]) // 2] + words[i][len(words[i]) // 2:]
        assert d[k] == i
    assert len(d) == len(words)
    for w in words:
        d[w + ""] = d[w] * 10
    assert len(d) == len(words) and d["abcdefgi"] == 10 and d["a"] == 40


def test_list_append_growth():
    xs: List[int] = []
    ys: List[str] = []
    for i in range(100000):
        xs.append(i * 7 % 1000)
        if i % 10 == 0:
            ys.append(str(i))
    assert len(xs) == 100000 and xs[99999] == 99999 * 7 % 1000
    assert len(ys) == 10000 and ys[9999] == "99990"
    xs.sort()
    assert xs[0] == 0 and xs[-1] == 999
    while len(ys) > 3:
        ys.pop()
    ys.append("z")
    assert ys == ["0", "10", "20", "z"]


def test_int_sort_in_place():
    # list_order.c sorts ints inside the list's own memory: every length around the
    # radix passes' edges, negatives, the extremes, repeats, reverse and sorted()
    for n in [0, 1, 2, 3, 4, 5, 17, 1000, 4097]:
        xs: List[int] = []
        x = 7
        for i in range(n):
            x = (x * 1103515245 + 12345) % 2147483648
            xs.append(x - 1073741824 if i % 3 == 0 else x * (i % 5))
        if n > 4:
            xs.append(-9223372036854775807 - 1)
            xs.append(9223372036854775807)
            xs.append(xs[1])
        a = sorted(xs)
        b = list(xs)
        b.sort(reverse=True)
        c = list(xs)
        c.sort()
        assert len(a) == len(xs) and c == a
        for i in range(len(a) - 1):
            assert a[i] <= a[i + 1]
        for i in range(len(b)):
            assert b[i] == a[len(a) - 1 - i]
        # the same values: sums of residues match
        assert sum([v % 1009 for v in xs]) == sum([v % 1009 for v in a])
        if n > 4:
            assert a[0] == -9223372036854775807 - 1 and a[-1] == 9223372036854775807
    same = [5, 5, 5, 5]
    same.sort(reverse=True)
    assert same == [5, 5, 5, 5]
    # keys that differ in the low digits only (the high ones shared, never counted) and in
    # a high digit only (counted by a pass of their own)
    low: List[int] = []
    high: List[int] = []
    for i in range(3000):
        low.append(-1125899906842624 + (i * 7919) % 3001)
        high.append(((i * 7919) % 3001) * 17592186044416 - 1152921504606846976)
    low.sort()
    high.sort()
    for i in range(len(low) - 1):
        assert low[i] <= low[i + 1] and high[i] <= high[i + 1]
    assert low[0] == -1125899906842624 and high[-1] == 3000 * 17592186044416 - 1152921504606846976


def fill(d: Dict[str, int], xs: List[str], base: int) -> int:
    n = 0
    for i in range(1000):
        k = "t" + str(base + i)
        d[k] = i
        xs.append(k)
        n += len(k)
    return n


def test_values_shared_with_forks():
    d: Dict[str, int] = {}
    xs: List[str] = []
    futs = [torch.jit.fork(fill, d, xs, 0), torch.jit.fork(fill, d, xs, 1000)]
    n = 0
    for f in futs:
        n += torch.jit.wait(f)
    assert len(d) == 2000 and len(xs) == 2000
    assert d["t1500"] == 500 and d["t0"] == 0
    names: Dict[str, int] = {}
    for k in xs:
        names[k] = d[k]
    assert len(names) == 2000 and n == sum([len(k) for k in xs])


if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
