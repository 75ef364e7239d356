# t/lang_sweep4_cases.py — a fourth sweep of the language (not the tensor operators): str
# methods, number semantics and printing, builtins, containers, Optional refinement,
# control flow, exceptions and compile errors, each program run through tscript and
# PyTorch 1.13 and compared. The err_* functions at the end are where tscript differed
# (bare container annotations, `X | None`, Python's builtin classes such as set() and
# reversed()); the test_* functions keep what already agreed. Under PyTorch:
#     /usr/bin/python3 t/lang_sweep4_cases.py
# t/lang_sweep4_cases.sh runs them through t/cases.sh.
import math
from typing import Dict, List, NamedTuple, Optional, Tuple, Union

import torch


class Pt(NamedTuple):
    x: int
    y: float


class Rec(NamedTuple):
    a: int
    b: str = "d"


class Box(object):
    def __init__(self, v: Optional[int]):
        self.v = v
        self.data: List[int] = [1, 2, 3]

    def __len__(self) -> int:
        return len(self.data)

    def __getitem__(self, i: int) -> int:
        return self.data[i]

    def __contains__(self, x: int) -> bool:
        return x in self.data

    def __eq__(self, o: "Box") -> bool:
        return self.data == o.data

    def get(self) -> int:
        v = self.v
        if v is not None:
            return v
        return -1

    @staticmethod
    def make() -> int:
        return 7


class WithConstants(object):
    S = "s"
    B = False

    def __init__(self):
        self.a = 1


GLOBAL_FLAG = True
GLOBAL_PAIR = (1, 2)
GLOBAL_NONE = None


def opt_plus_one(x: Optional[int]) -> int:
    if x is None:
        return 0
    return x + 1


def opt_both(x: Optional[int], y: Optional[int]) -> int:
    if x is not None and y is not None:
        return x + y
    return -1


def opt_either(x: Optional[int]) -> int:
    if x is None or x < 0:
        return 0
    return x


def opt_asserted(x: Optional[int]) -> int:
    assert x is not None, "x must be set"
    return x * 2


def int_or_str(x: Union[int, str]) -> str:
    if isinstance(x, int):
        return "int " + str(x + 1)
    return "str " + x


def defaults(a: int, b: int = 2, c: str = "z") -> str:
    return str(a) + str(b) + c


def kw_only(a: int, *, b: int) -> int:
    return a * b


def two(a: int, b: int) -> int:
    return a + b


def first_even(xs: List[int]) -> int:
    for x in xs:
        if x % 2 == 0:
            return x
    return -1


# ---- str methods ---------------------------------------------------------------------------

def test_str_split_and_rsplit_with_maxsplit():
    s = "a,b,,c,d"
    assert s.split(",") == ["a", "b", "", "c", "d"]
    assert s.split(",", 1) == ["a", "b,,c,d"]
    assert s.split(",", 0) == ["a,b,,c,d"]
    assert s.split(",", -1) == ["a", "b", "", "c", "d"]
    assert s.rsplit(",", 2) == ["a,b,", "c", "d"]
    assert "  a  b c  ".split() == ["a", "b", "c"]
    assert "".split() == [] and "".split(",") == [""]
    assert "a::b::c".split("::") == ["a", "b", "c"] and "a::b::c".rsplit("::", 1) == ["a::b", "c"]
    assert "x".split("x") == ["", ""]


def test_str_strip_with_chars():
    s = "xxhixyx"
    assert s.strip("x") == "hixy" and s.lstrip("x") == "hixyx" and s.rstrip("xy") == "xxhi"
    assert "  a b \t\n".strip() == "a b" and "  a ".lstrip() == "a " and " a  ".rstrip() == " a"


def test_str_partition():
    assert "a=b=c".partition("=") == ("a", "=", "b=c")
    assert "a=b=c".rpartition("=") == ("a=b", "=", "c")
    assert "abc".partition("=") == ("abc", "", "") and "abc".rpartition("=") == ("", "", "abc")


def test_str_find_count_index_with_bounds():
    s = "hello world hello"
    assert s.find("hello") == 0 and s.find("hello", 1) == 12 and s.find("hello", 1, 10) == -1
    assert s.rfind("hello") == 12 and s.rfind("hello", 0, 10) == 0 and s.find("z") == -1
    assert s.count("l") == 5 and s.count("l", 5) == 3
    assert s.index("world") == 6 and s.rindex("o") == 16


def test_str_replace_with_count():
    s = "aaaa"
    assert s.replace("a", "b") == "bbbb" and s.replace("a", "b", 2) == "bbaa"
    assert s.replace("a", "b", 0) == "aaaa" and s.replace("a", "b", -1) == "bbbb"
    assert s.replace("aa", "x") == "xx"


def test_str_padding():
    assert "ab".center(7) == "   ab  " and "ab".center(7, "*") == "***ab**"
    assert "ab".center(6, "*") == "**ab**" and "abc".center(6, "*") == "*abc**"
    assert "ab".ljust(5, ".") == "ab..." and "ab".rjust(5, ".") == "...ab" and "ab".ljust(1) == "ab"
    assert "42".zfill(5) == "00042" and "abc".zfill(2) == "abc" and "".zfill(3) == "000"


def test_str_expandtabs():
    assert "a\tb\tc".expandtabs() == "a       b       c"
    assert "a\tbb\tc".expandtabs(4) == "a   bb  c" and "\t".expandtabs(0) == ""


def test_str_case_mappings():
    s = "hello wORLD 3rd x-y"
    assert s.title() == "Hello World 3Rd X-Y" and s.capitalize() == "Hello world 3rd x-y"
    assert s.swapcase() == "HELLO World 3RD X-Y" and s.upper() == "HELLO WORLD 3RD X-Y"


def test_str_predicates():
    assert "123".isdigit() and not "1.5".isdigit() and not "".isdigit()
    assert "abc".isalpha() and not "a1".isalpha() and "a1".isalnum()
    assert "Abc Def".istitle() and not "hello World".istitle()
    assert " \t".isspace() and not "".isspace()
    assert "abc".islower() and "ABC".isupper() and not "Abc".isupper()
    assert "abc".isidentifier() and not "1x".isidentifier()


def test_str_format_and_percent():
    assert "{} and {}".format(1, "a") == "1 and a"
    assert "{}".format([1, 2]) == "[1, 2]" and "{}".format(None) == "None"
    assert "%d items" % 3 == "3 items" and "%s=%d" % ("a", 4) == "a=4"
    assert "%s" % [1, 2] == "[1, 2]" and "%d%%" % 50 == "50%" and "%i" % 7 == "7"
    assert "%d" % 3.7 == "3" and "%c" % 65 == "A" and "%f" % 1.5 == "1.500000"
    assert "%e" % 1.5 == "1.500000e+00"
    assert "{}{}{}".format("a", 1, 2.0) == "a12."


def test_str_join_slicing_and_iteration():
    assert ",".join(["a", "b", "c"]) == "a,b,c" and "".join([]) == "" and "-".join(["x"]) == "x"
    s = "abcdefgh"
    assert s[::2] == "aceg" and s[::-1] == "hgfedcba" and s[-3:] == "fgh" and s[:-3] == "abcde"
    assert s[1:6:2] == "bdf" and s[6:1:-2] == "gec" and s[-1:-5:-1] == "hgfe"
    assert s[10:] == "" and s[-100:2] == "ab" and s[5:2] == ""
    out: List[str] = []
    for c in "hey":
        out.append(c.upper())
    assert "".join(out) == "HEY" and list("abc") == ["a", "b", "c"]


def test_str_startswith_endswith_with_bounds():
    s = "hello"
    assert s.startswith("he") and s.startswith("lo", 3) and s.endswith("lo")
    assert s.endswith("he", 0, 2) and s.startswith("") and not s.endswith("x")


def test_str_operators():
    assert "abc" < "abd" and "ab" < "abc" and "B" < "a" and "" < "a"
    assert "x" in "xyz" and "q" not in "xyz"
    assert ord("a") == 97 and chr(97) == "a"


def test_str_escapes():
    assert len("tab\there") == 8 and "\x41" == "A" and "quote\"s" == 'quote"s'
    assert str(["a\tb", "q'x"]) == "[a\tb, q'x]"


# ---- numbers -------------------------------------------------------------------------------

def test_str_of_floats():
    # PyTorch's str() of a float is its 17 significant digits, C++ stream style
    assert str(1e16) == "10000000000000000." and str(1e-5) == "1.0000000000000001e-05"
    assert str(math.inf) == "inf" and str(-math.inf) == "-inf" and str(3.0) == "3."
    assert str(0.1 + 0.2) == "0.30000000000000004" and str(1.0 / 3.0) == "0.33333333333333331"
    assert str([1e16, 1e-5, math.inf]) == "[10000000000000000., 1.0000000000000001e-05, inf]"
    assert str(1e22) == "1e+22" and str(12345.678) == "12345.678" and str((1.0, 2.5)) == "(1., 2.5)"
    assert "{}".format(2.5) == "2.5" and "%s" % 1e16 == "10000000000000000."


def test_floor_division_and_modulo_with_negatives():
    assert 7 // 2 == 3 and -7 // 2 == -4 and 7 // -2 == -4 and -7 // -2 == 3
    assert -7 % 3 == 2 and 7 % -3 == -2 and -7 % -3 == -1
    assert 7.5 // 2 == 3.0 and -7.5 // 2 == -4.0 and -7.5 % 2 == 0.5 and 7.5 % -2 == -0.5
    assert divmod(-7, 2) == (-4, 1) and divmod(-7.5, 2.0) == (-4.0, 0.5) and divmod(7, -2) == (-4, -1)


def test_powers():
    assert 2 ** 10 == 1024 and 2 ** -1 == 0.5 and (-2) ** 3 == -8 and 0 ** 0 == 1
    assert 4 ** 0.5 == 2.0 and 10 ** -2 == 0.01 and 2.0 ** -2 == 0.25
    assert pow(2, 3) == 8


def test_round_abs_and_conversions():
    assert round(2.5) == 2.0 and round(3.5) == 4.0 and round(-2.5) == -2.0
    assert abs(-3) == 3 and abs(-0.0) == 0.0
    assert int("42") == 42 and int("007") == 7
    assert int(3.9) == 3 and int(-3.9) == -3 and int(True) == 1
    assert float("1.5") == 1.5 and float("1e3") == 1000.0
    assert math.isinf(float("-inf")) and math.isnan(float("nan"))


def test_int_wraps_around():
    a = 9223372036854775807
    assert a + 1 == -a - 1 and a * 2 == -2 and 1 << 63 == -a - 1


def test_math_functions():
    assert math.floor(2.5) == 2 and math.ceil(2.1) == 3 and math.sqrt(16.0) == 4.0
    assert math.gcd(12, 18) == 6 and math.factorial(5) == 120 and math.copysign(1.0, -0.0) == -1.0
    assert math.log10(1000.0) == 3.0 and math.log(8.0, 2.0) == 3.0 and math.fabs(-2.0) == 2.0


def test_bool_and_bit_operators():
    assert not 0 and not [] and not ""
    assert 5 & 3 == 1 and 5 | 3 == 7 and 5 ^ 3 == 6 and -16 >> 2 == -4


def test_augmented_assignments():
    x = 5
    x -= 2
    x *= 3
    x <<= 2
    x >>= 1
    x |= 1
    x &= 7
    x ^= 2
    y = 1.5
    y /= 2
    y += 1
    z = 5
    z **= 2
    w = 7
    w %= 4    # a float in PyTorch 1.13
    assert x == 1 and y == 1.75 and z == 25.0 and str(w) == "3."


# ---- builtins ------------------------------------------------------------------------------

def test_min_max_sorted():
    assert min(3, 1, 2) == 1 and max(3, 1, 2) == 3 and min([4, 2, 8]) == 2
    assert max([4.5, 2.0]) == 4.5 and min(1, 2.5) == 1
    a = [3, 1, 2]
    assert sorted(a) == [1, 2, 3] and a == [3, 1, 2]
    a.sort(reverse=True)
    assert a == [3, 2, 1] and sorted(["b", "a", "C"]) == ["C", "a", "b"]


def test_enumerate_zip_range():
    out: List[str] = []
    for i, x in enumerate(["a", "b"], 5):
        out.append(str(i) + x)
    for a, b, c in zip([1, 2, 3], ["x", "y"], [1.5, 2.5, 3.5]):
        out.append(str(a) + b + str(c))
    assert out == ["5a", "6b", "1x1.5", "2y2.5"]
    assert list(range(10, 0, -3)) == [10, 7, 4, 1] and list(range(-5, -1)) == [-5, -4, -3, -2]
    assert list(range(0)) == []


def test_any_all_sum_hex():
    assert any([False, True]) and not all([True, False]) and not any([]) and all([])
    assert sum([1, 2, 3]) == 6 and sum([1.5, 2.5]) == 4.0
    assert hex(255) == "0xff" and hex(-255) == "-0xff" and oct(8) == "0o10"
    assert bin(-5) == "-0b101" and bin(0) == "0b0"


# ---- containers ----------------------------------------------------------------------------

def test_list_methods():
    a = [1, 2, 3]
    a.insert(-1, 9)
    a.insert(100, 7)
    a.insert(-100, 0)
    assert a == [0, 1, 2, 9, 3, 7]
    b = [1, 2, 3, 4]
    assert b.pop() == 4 and b.pop(0) == 1 and b.pop(-1) == 3 and b == [2]
    c = [3, 1, 3, 2]
    d = c.copy()
    d.extend([7, 8])
    assert c.count(3) == 2 and c.index(3) == 0 and d == [3, 1, 3, 2, 7, 8]
    c.reverse()
    assert c == [2, 3, 1, 3]
    c.clear()
    assert len(c) == 0 and [0] * 3 == [0, 0, 0]


def test_list_slices_and_del():
    a = [0, 1, 2, 3, 4, 5, 6]
    assert a[5:1:-2] == [5, 3] and a[10:] == [] and a[:-10] == [] and a[::-1][0] == 6
    b = [0, 9, 9, 9, 3, 4]
    del b[1]
    assert b == [0, 9, 9, 3, 4]
    del b[-1]
    assert b == [0, 9, 9, 3]


def test_dict_methods():
    d = {"b": 2, "a": 1}
    assert d.setdefault("c", 3) == 3 and d.setdefault("a", 9) == 1
    assert d.pop("a") == 1 and d.pop("zz", -1) == -1
    d.update({"x": 10, "b": 20})
    assert list(d.keys()) == ["b", "c", "x"] and list(d.values()) == [20, 3, 10]
    assert d.get("q") is None and d.get("q", 5) == 5 and "x" in d
    k, v = d.popitem()
    assert k == "b" and v == 20 and str(d) == "{c: 3, x: 10}"
    e = d.copy()
    e.clear()
    assert len(e) == 0 and len(d) == 2


def test_dict_order_after_delete():
    d = {"a": 1, "b": 2, "c": 3}
    del d["a"]
    d["a"] = 4
    d["b"] = 5
    assert str(list(d.items())) == "[(b, 5), (c, 3), (a, 4)]"
    f = {1.5: "a", 2.5: "b"}
    assert f[1.5] == "a" and str(f) == "{1.5: a, 2.5: b}"


def test_dict_comprehensions_and_constructor():
    d = {i: i * i for i in range(4)}
    e = {k: v * 2 for k, v in d.items()}
    assert str(e) == "{0: 0, 1: 2, 2: 8, 3: 18}" and dict([("a", 1), ("b", 2)])["b"] == 2


def test_comparison_with_an_empty_list_literal():
    # a bare [] operand takes the list type of the overload (PyTorch's EmptyListLiteral)
    a = "".split()
    b = [1, 2][:0]
    c: List[float] = []
    assert a == [] and [] == a and b == [] and not (b != []) and c == []
    assert 3 not in [] and "a" not in []


def test_tuple_operations():
    t = (1, 2, 3)
    assert t[1:] == (2, 3) and t[::-1] == (3, 2, 1) and t + (4,) == (1, 2, 3, 4)
    assert 2 in t and 5 not in t


def test_nested_container_printing():
    assert str([[1, 2], [3]]) == "[[1, 2], [3]]" and str([(1, "a"), (2, "b")]) == "[(1, a), (2, b)]"
    assert str(([1], {"k": [2.0]})) == "([1], {k: [2.]})"
    e: List[Optional[int]] = [1, None]
    assert str(e) == "[1, None]" and str((None,)) == "(None,)" and str(((1, 2), (3,))) == "((1, 2), (3,))"


def test_comprehensions_nested():
    m = [[i * j for j in range(3)] for i in range(3)]
    f = [[x + 1 for x in row] for row in m]
    assert str(m) == "[[0, 0, 0], [0, 1, 2], [0, 2, 4]]" and str(f) == "[[1, 1, 1], [1, 2, 3], [1, 3, 5]]"


def test_unpacking():
    a, b = 1, 2
    a, b = b, a
    (c, d), e = (3, 4), 5
    assert (a, b, c, d, e) == (2, 1, 3, 4, 5)


def test_namedtuple_and_class_dunders():
    p = Pt(1, 2.5)
    q = Pt(x=3, y=0.5)
    assert p.x == 1 and p[1] == 2.5 and q.y == 0.5
    b = Box(None)
    assert len(b) == 3 and b[1] == 2 and 2 in b and 9 not in b and b == Box(3)
    assert b.get() == -1 and Box(4).get() == 4 and Box.make() == 7


# ---- Optional, Union, control flow ---------------------------------------------------------

def test_optional_refinement():
    assert opt_plus_one(None) == 0 and opt_plus_one(4) == 5
    assert opt_both(1, 2) == 3 and opt_both(None, 2) == -1
    assert opt_either(None) == 0 and opt_either(-3) == 0 and opt_either(5) == 5
    assert opt_asserted(3) == 6
    x: Optional[int] = None
    y = x if x is not None else 7
    assert y == 7
    z: Optional[int] = 3
    n = 0
    while z is not None:
        n += 1
        if n > 2:
            z = None
    assert n == 3


def test_union_and_isinstance():
    assert int_or_str(3) == "int 4" and int_or_str("a") == "str a"
    assert isinstance([1, 2], List[int]) and not isinstance(3, float) and isinstance(3, (float, int))
    assert torch.jit.isinstance([1], List[int]) and not torch.jit.isinstance([1], List[str])


def test_nested_loops_with_break_continue():
    out: List[Tuple[int, int]] = []
    for i in range(4):
        if i == 1:
            continue
        for j in range(4):
            if j > i:
                break
            if j == 1:
                continue
            out.append((i, j))
    assert str(out) == "[(0, 0), (2, 0), (2, 2), (3, 0), (3, 2), (3, 3)]"
    i = 0
    s = 0
    while True:
        i += 1
        if i % 2 == 0:
            continue
        if i > 9:
            break
        s += i
    assert i == 11 and s == 25 and first_even([1, 3, 4, 6]) == 4 and first_even([1]) == -1


def test_chained_comparisons_and_ternaries():
    a, b, c = 1, 2, 3
    assert a < b < c and not (a < b > c) and 1 <= 1 < 2 == 2 and a == 1 != b
    x = 5
    assert ("big" if x > 3 else "small") == "big" and (x if x < 0 else -x) == -5
    s = ""
    assert ("yes" if s else "no") == "no"


def test_default_and_keyword_only_arguments():
    assert defaults(1) == "12z" and defaults(1, 3) == "13z" and defaults(1, c="q") == "12q"
    assert defaults(a=5, b=6, c="r") == "56r" and kw_only(2, b=5) == 10


def test_fstrings():
    x = 3
    y = 2.5
    assert f"{x} {y} {x + 1} {[1, 2]}" == "3 2.5 4 [1, 2]"
    a = 1
    b = 2
    assert f"{a==b} {a!=b} {a<=b} {a>=b} {defaults(a=3)}" == "False True True False 32z"
    assert f"{{x}} {x}" == "{x} 3" and f"{ {'a': 1}['a'] }" == "1"


# ---- small programs of the kind users script -----------------------------------------------

def tokenize(text: str) -> List[str]:
    out: List[str] = []
    cur = ""
    for ch in text:
        if ch.isalnum():
            cur += ch.lower()
        else:
            if cur != "":
                out.append(cur)
                cur = ""
            if not ch.isspace():
                out.append(ch)
    if cur:
        out.append(cur)
    return out


def test_tokenizer():
    assert tokenize("Hello, World! It's 2024.") == ["hello", ",", "world", "!", "it", "'", "s",
                                                     "2024", "."]


def test_word_count():
    counts: Dict[str, int] = {}
    for w in "the cat and the hat and the bat".split():
        counts[w] = counts.get(w, 0) + 1
    best = ""
    bestn = 0
    for k, v in counts.items():
        if v > bestn:
            best = k
            bestn = v
    assert str(counts) == "{the: 3, cat: 1, and: 2, hat: 1, bat: 1}" and best == "the"
    assert sorted(counts.keys()) == ["and", "bat", "cat", "hat", "the"]


def test_vocabulary_lookup():
    vocab = {w: i for i, w in enumerate(["<pad>", "<unk>", "a", "b"])}
    ids = [vocab.get(t, 1) for t in "a b c a".split()]
    inv = {i: w for w, i in vocab.items()}
    assert ids == [2, 3, 1, 2] and [inv[i] for i in ids] == ["a", "b", "<unk>", "a"]


def test_padding_a_batch():
    seqs = [[1, 2, 3], [4], [5, 6]]
    m = max([len(s) for s in seqs])
    padded = [s + [0] * (m - len(s)) for s in seqs]
    assert str(padded) == "[[1, 2, 3], [4, 0, 0], [5, 6, 0]]"
    assert torch.tensor(padded).sum().item() == 21


def test_bpe_style_merges():
    word = ["l", "o", "w", "e", "r"]
    merges = {"l o": 1, "lo w": 2, "e r": 3}
    while True:
        best = -1
        best_i = -1
        for i in range(len(word) - 1):
            pair = word[i] + " " + word[i + 1]
            if pair in merges:
                r = merges[pair]
                if best == -1 or r < best:
                    best = r
                    best_i = i
        if best_i < 0:
            break
        word = word[:best_i] + [word[best_i] + word[best_i + 1]] + word[best_i + 2:]
    assert word == ["low", "er"]


def test_sorting_pairs_and_suppression():
    scores = [0.1, 0.7, 0.2, 0.9]
    pairs = [(s, i) for i, s in enumerate(scores)]
    pairs.sort(reverse=True)
    assert pairs[0][1] == 3 and pairs[1][1] == 1 and scores.index(max(scores)) == 3
    boxes: List[Tuple[float, float]] = [(0.0, 1.0), (0.5, 1.5), (2.0, 3.0)]
    keep: List[int] = []
    for i, (a, b) in enumerate(boxes):
        ok = True
        for j in keep:
            c, d = boxes[j]
            if min(b, d) - max(a, c) > 0.3:
                ok = False
                break
        if ok:
            keep.append(i)
    assert keep == [0, 2]


# ---- run-time errors -----------------------------------------------------------------------

def err_str_index_not_found():
    # raises: ValueError: substring not found
    s = "abc"
    print(s.index("z"))


def err_list_pop_out_of_range():
    # raises: pop index out of range
    a = [1]
    a.pop(5)
    print(a)


def err_list_remove_missing():
    # raises: list.remove(x): x not in list
    a = [1, 2]
    a.remove(5)
    print(a)


def err_dict_missing_key():
    # raises: KeyError: z
    d = {"a": 1}
    print(d["z"])


def err_dict_pop_missing_key():
    # raises: KeyError: z
    d = {"a": 1}
    d.pop("z")
    print(d)


def err_float_of_bad_string():
    # raises: could not convert string to float
    print(float("abc"))


def err_raise_value_error_with_message():
    # raises: ValueError: bad 5 and y
    x = 5
    raise ValueError("bad {} and {}".format(x, "y"))


def err_assert_with_message():
    # raises: AssertionError: x must be set
    print(opt_asserted(None))


def err_integer_division_by_zero():
    # raises: ZeroDivisionError: integer division or modulo by zero
    print(divmod(3, 0))


# ---- compile errors ------------------------------------------------------------------------

def err_bare_list_annotation():
    # raises: Attempted to use List without a contained type. Please add a contained type, e.g. List[int]
    x: List = [1]
    print(x)


def err_bare_dict_annotation():
    # raises: Attempted to use Dict without contained types. Please add contained type, e.g. Dict[int, int]
    x: Dict = {"a": 1}
    print(x)


def err_bare_optional_annotation():
    # raises: Attempted to use Optional without a contained type. Please add a contained type, e.g. Optional[int]
    x: Optional = None
    print(x)


def err_bare_tuple_annotation():
    # raises: Attempted to use Tuple without a contained type. Please add a contained type, e.g. Tuple[int]
    x: Tuple = (1,)
    print(x)


def err_bare_union_annotation():
    # raises: Attempted to use Union without a contained type. Please add a contained type, e.g. Union[int]
    x: Union = 1
    print(x)


def err_pipe_union_annotation():
    # raises: Expression of type | cannot be used in a type expression
    x: int | None = None
    print(x)


def err_if_expression_branch_list_types():
    # raises: if-expression's true branch has type List[str] but false branch has type List[Tensor]
    x = "a b".split() if bool(1) else []
    print(x)


def err_class_attribute_through_the_class():
    # raises: python value of type 'str' cannot be used as a value.
    print(WithConstants.S)


def err_bool_class_attribute():
    # raises: python value of type 'bool' cannot be used as a value.
    print(WithConstants.B)


def err_global_bool():
    # raises: python value of type 'bool' cannot be used as a value. Perhaps it is a closed over global variable?
    print(GLOBAL_FLAG)


def err_global_tuple():
    # raises: python value of type 'tuple' cannot be used as a value.
    print(GLOBAL_PAIR)


def err_global_none():
    # raises: undefined value GLOBAL_NONE
    print(GLOBAL_NONE)


def untyped_add(x, y):
    return x + y


@torch.jit.unused
def unused_helper(x: int) -> int:
    return x


def test_unannotated_parameters_are_tensors():
    assert untyped_add(torch.ones(1), torch.ones(1)).item() == 2.0


def err_int_for_an_unannotated_parameter():
    # raises: Expected a value of type 'Tensor (inferred)' for argument 'x' but instead found type 'int'.
    print(untyped_add(1, 2))


def err_int_for_an_unannotated_parameter_note():
    # raises: Inferred 'x' to be of type 'Tensor' because it was not annotated with an explicit type.
    print(untyped_add(1, 2))


def err_unused_function_called():
    # raises: RuntimeError: This Python function is annotated to be ignored and cannot be run
    print(unused_helper(1))


def err_fstring_self_documenting():
    # raises: Don't support conversion in JoinedStr
    x = 1
    print(f"{x = }")


def err_fstring_self_documenting_with_spec():
    # raises: Don't support formatting in JoinedStr
    x = 1.5
    print(f"{x=:.2f}")


def python_only_helper(cmd: str):
    # never scripted: Python 3.10's match statement in the same file must not stop the rest
    match cmd.split():
        case ["go", direction]:
            return direction
        case {"k": v, **rest} if rest:
            return v
        case _:
            return None


def test_match_is_still_a_name():
    match = 3
    assert match + 1 == 4


def err_match_statement():
    # raises: Match aren't supported
    x = 1
    match x:
        case 1:
            print("one")
        case _:
            print("other")


def err_except_star():
    # raises: TryStar aren't supported
    try:
        pass
    except* ValueError:
        pass


def err_list_display_inside_a_tuple_target():
    # raises: lhs of assignment must be a variable, subscript, or starred expression
    a, [b, c] = 1, [2, 3]
    print(a, b, c)


def err_multidimensional_index_of_a_list():
    # raises: Unsupported operation: attempted to use multidimensional indexing on a non-tensor type
    l = [1, 2]
    print(l[0, 1])


class Bare(object):
    def __init__(self):
        self.a = 1


class Countdown(object):
    def __init__(self):
        self.n = 0

    def down(self, k: int) -> int:
        if k == 0:
            return 0
        return 1 + self.down(k - 1)


def err_missing_magic_method():
    # raises: object has no attribute or method '__len__'. Did you forget to initialize an attribute in __init__()?
    print(len(Bare()))


def err_missing_comparison_method():
    # raises: object has no attribute or method '__lt__'. Did you forget to initialize an attribute in __init__()?
    print(Bare() < Bare())


def err_augmented_assignment_without_methods():
    # raises: since it does not define an __iadd__ or __add__ method
    b = Bare()
    b += Bare()


def err_recursive_method():
    # raises: method 'down' is called recursively. Recursive calls are not supported
    print(Countdown().down(3))


def test_namedtuple_construction():
    assert Rec(1).b == "d" and Rec(2, "x").b == "x" and Rec(b="y", a=3).a == 3


def err_namedtuple_missing_field():
    # raises: Rec(int a, str b="d") -> ():
    print(Rec())


def err_namedtuple_missing_field_reason():
    # raises: Argument a not provided.
    print(Rec())


def err_namedtuple_too_many():
    # raises: Expected at most 2 arguments but found 3 positional arguments.
    print(Rec(1, "a", 3))


def err_namedtuple_unknown_keyword():
    # raises: Keyword argument c unknown.
    print(Rec(a=1, c=2))


def err_namedtuple_keyword_twice():
    # raises: Keyword argument a specified twice.
    print(Rec(1, a=2))


def err_namedtuple_field_type():
    # raises: Expected a value of type 'int' for argument 'a' but instead found type 'str'.
    print(Rec("x"))


def err_int_without_an_argument():
    # raises: Arguments for call are not valid.
    print(int())


def err_float_without_an_argument():
    # raises: Argument a not provided.
    print(float())


def err_set_of_a_list():
    # raises: set(Tensor 0) -> Tensor 0:
    s = set([1, 2])
    print(s)


def err_reversed_of_a_list():
    # raises: Expected a value of type 'Tensor' for argument '0' but instead found type 'List[int]'.
    print(list(reversed([1, 2, 3])))


def err_filter_of_none():
    # raises: filter(Tensor 0, Tensor 1) -> Tensor 0:
    print(filter(None, [1, 2]))


def err_type_of_an_int():
    # raises: Expected a value of type 'Tensor' for argument '0' but instead found type 'int'.
    print(type(3))


def err_python_class_keyword():
    # raises: Keyword argument y unknown.
    x = torch.ones(1)
    print(reversed(x, y=x))


def err_keyword_only_with_default():
    # raises: Compiled functions can't take variable number of arguments or use keyword-only arguments with defaults
    print(kw_default(1))


def kw_default(a: int, *, b: int = 4) -> int:
    return a * b


def err_floor_div_augmented_assignment():
    # raises: unsupported kind of augumented assignment: FloorDiv
    x = 5
    x //= 2
    print(x)


def err_slice_assignment():
    # raises: Sliced expression not yet supported for subscripted assignment
    b = [0, 1, 2, 3, 4]
    b[1:3] = [9, 9, 9]
    print(b)


def err_comprehension_if_in_dict():
    # raises: Comprehension ifs are not supported yet
    d = {i: i for i in range(4) if i > 1}
    print(d)


def err_del_slice():
    # raises: del statements only support deletion at a single index, slicing is not supported
    b = [0, 1, 2, 3, 4]
    del b[1:3]
    print(b)


def err_tuple_index_method():
    # raises: 'Tuple[int, int, int]' object has no attribute or method 'index'.
    t = (1, 2, 3)
    print(t.index(2))


def err_comprehension_if_in_list():
    # raises: Comprehension ifs are not supported yet
    print([x for x in range(5) if x % 2 == 0])


def err_comprehension_two_generators():
    # raises: Only a single generator is currently supported
    m = [[1, 2], [3]]
    print([x for row in m for x in row])


def err_starred_unpack_of_a_list():
    # raises: cannot statically infer the expected size of a list in this context
    h, *rest = [1, 2, 3]
    print(h, rest)


def err_negative_list_repeat():
    # raises: vector::reserve
    print([1] * -2)


def err_percent_precision_specifier():
    # raises: The specifier %. is not supported in TorchScript format strings
    print("%.2f" % 3.14159)


def err_float_of_out_of_range_string():
    # raises: stod
    print(float("1e400"))


def err_str_repeat():
    # raises: Arguments for call are not valid.
    print("ab" * 3)


def err_recursion():
    # raises: Recursive calls are not supported
    print(rec(3))


def rec(n: int) -> int:
    if n == 0:
        return 1
    return n * rec(n - 1)


def err_lambda():
    # raises: Lambda aren't supported
    f = lambda x: x + 1
    print(f(2))


def err_try_block():
    # raises: try blocks aren't supported
    try:
        x = 1
    except Exception:
        x = 2
    print(x)


def err_nested_function_definition():
    # raises: function definitions aren't supported
    def inner(x: int) -> int:
        return x + 1
    print(inner(2))


def err_global_statement():
    # raises: global
    global qq
    qq = 1


def err_return_types_differ():
    # raises: Previous return statement returned a value of type int but this return statement returns a value of type float
    print(int_then_float(1))


def int_then_float(x: int):
    if x > 0:
        return 1
    return 2.0


def err_variable_defined_in_one_branch():
    # raises: y is not defined in the false branch
    if bool(1):
        y = 3
    print(y)


def err_missing_argument():
    # raises: Argument b not provided.
    print(two(1))


def err_too_many_arguments():
    # raises: Expected at most 2 arguments but found 3 positional arguments.
    print(two(1, 2, 3))


def err_keyword_only_passed_positionally():
    # raises: Expected at most 1 arguments but found 2 positional arguments.
    print(kw_only(2, 5))


def err_append_of_another_type():
    # raises: Type variable 't' previously matched to type int is matched to type str.
    x = [1, 2]
    x.append("a")


def err_optional_as_condition():
    # raises: Could not cast value of type Optional[int] to bool
    x: Optional[int] = 0
    if x:
        print("t")


def err_tuple_unpack_count():
    # raises: too many values to unpack: need 2 but found 3
    a, b = (1, 2, 3)
    print(a, b)


def err_print_keyword():
    # raises: print doesn't accept any keyword arguments
    print("a", "b", sep="-")


def err_unknown_str_method():
    # raises: 'str' object has no attribute or method 'casefold'.
    print("A".casefold())


def err_python_builtin_function():
    # raises: Python builtin <built-in function iter> is currently not supported in Torchscript
    a = iter([1, 2])


if __name__ == "__main__":
    import casedriver
    casedriver.run(globals())
