#!/usr/bin/python3
# prim_str_cases.py — prints the case rows of t/prim_str.c from PyTorch 1.13: each operator is
# called through torch.ops.aten; a py= override is the result we give instead (plugins/prim/str.c
# says why), and hang=True marks calls that never return in PyTorch.
#   /usr/bin/python3 t/prim_str_cases.py > rows.inc
import json, torch, sys
a = torch.ops.aten
W = " \n\t\f\v"
# (qualified op, overload, args, override)  override: expected text where we follow Python.
C = []
def c(op, ov, *args, py=None, hang=False): C.append((op, ov, args, py, hang))
def E(cls, msg): return "!%s: %s" % (cls, msg)
# comparisons, len, add, getitem, slice, list
for op in ["eq", "ne", "lt", "le", "gt", "ge"]:
    c(op, "str", "abc", "abd"); c(op, "str", "b", "abc"); c(op, "str", "ab", "ab"); c(op, "str", "", "a")
c("lt", "str", "Apple", "apple"); c("lt", "str", "\u00e9", "z")
c("len", "str", ""); c("len", "str", "hello"); c("len", "str", "\u00e9")
c("add", "str", "ab", "cd"); c("add", "str", "", "")
c("__getitem__", "str", "abc", 0); c("__getitem__", "str", "abc", -1)
c("__getitem__", "str", "abc", 3)
c("__getitem__", "str", "abc", -4)
for args in [(1, 3, 1), (None, None, -1), (-2, None, 1), (None, -2, 1), (None, None, 2), (1, None, 2),
             (10, None, 1), (None, 100, 1), (4, 1, -1), (-100, -2, 2), (None, -100, -1), (2, 2, 1),
             (None, None, 0), (5, 0, -2), (-1, -10, -3)]:
    c("slice", "str", "abcdef", *args)
c("slice", "str", "", None, None, -1)
c("list", "", "abc"); c("list", "", "")
# searching
s = "hello world"
c("find", "", s, "o", 0, -1); c("rfind", "", s, "o", 0, -1); c("find", "", s, "z", 0, -1)
c("find", "", s, "o", 5, -1); c("find", "", s, "o", 5, 7); c("rfind", "", s, "l", 0, 4)
c("find", "", "hello", "l", -2, -1); c("find", "", "hello", "l", 10, -1); c("find", "", "hello", "l", 3, 2)
c("find", "", "hello", "l", 0, -3, py="-1"); c("rfind", "", "hello", "l", 0, -2, py="2")
c("find", "", "hello", "", 0, -1, py="0", hang=True); c("find", "", "hello", "", 5, -1, py="5", hang=True); c("find", "", "hello", "", 6, -1, py="-1", hang=True)
c("rfind", "", "hello", "", 0, -1); c("find", "", "", "", 0, -1, py="0", hang=True)
c("index", "str", s, "w", 0, -1); c("rindex", "", s, "l", 0, -1); c("index", "str", "banana", "a", 2, -1)
c("index", "str", s, "z", 0, -1); c("rindex", "", s, "z", 0, -1)
c("count", "", s, "l", 0, -1); c("count", "", s, "o", 5, -1); c("count", "", "aaaa", "aa", 0, -1)
c("count", "", "banana", "an", 2, -1); c("count", "", "hello", "l", -2, -1)
c("count", "", "hello", "l", 0, -2, py="1"); c("count", "", "hello", "l", 0, 3, py="1")
c("count", "", "abc", "", 0, -1, py="4", hang=True); c("count", "", "abc", "", 1, 2, py="2", hang=True); c("count", "", "abc", "", 4, -1, py="0", hang=True)
c("startswith", "", s, "he", 0, -1); c("startswith", "", s, "wo", 0, -1); c("startswith", "", s, "wo", 6, -1)
c("startswith", "", "hello", "ell", 1, -1); c("startswith", "", "hello", "he", 0, 1); c("startswith", "", "hello", "h", -5, -1)
c("startswith", "", "hello", "h", -10, -1); c("startswith", "", "hello", "", 5, -1); c("startswith", "", "hello", "lo", 3, 100)
c("startswith", "", "hello", "", 6, -1, py="false")
c("endswith", "", s, "ld", 0, -1); c("endswith", "", s, "lo", 0, -1); c("endswith", "", s, "lo", 0, 5)
c("endswith", "", "hello", "lo", 0, -1); c("endswith", "", "hello", "l", 0, -2); c("endswith", "", "hello", "lo", 0, 10)
# case
for x in ["heLLo wOrld", "hello WORLD foo_bar 3rd", " lead", "Hello123", "abc-123", "\u00e9a", "", "they're bill's 1st", "aBC dEF", "1abC"]:
    for op in ["upper", "lower", "capitalize", "title", "swapcase"]:
        c(op, "", x)
# predicates
for x in ["123", "12a", "", "abc", "ab1", "a b", "  ", " x ", "\x0b\x0c\r", "ABC", "AbC", "A1", "a1", "aBc",
          "Hello World", "Hello world", "A1 B", "1", "aB", "1a", "a\n"]:
    for op in ["isdigit", "isalpha", "isalnum", "isspace", "islower", "isupper", "istitle", "isdecimal", "isnumeric", "isidentifier", "isprintable"]:
        c(op, "", x)
c("isspace", "", "\x1c", py="true"); c("isidentifier", "", "a_1", py="true"); c("isprintable", "", "\u00e9", py="true")
# strip
for x in ["  Hello World  ", "\t x \n", " \r x\r", ""]:
    c("strip", "", x, W); c("lstrip", "", x, W); c("rstrip", "", x, W)
c("strip", "", "xxhixx", "x"); c("strip", "", "xyhelloyx", "xy"); c("lstrip", "", "abcba", "ab"); c("rstrip", "", "abcba", "ab")
c("strip", "", "xx", ""); c("strip", "", "xxx", "x")
# split
c("split", "str", "a,b,,c", ",", -1); c("split", "str", "a::b::c", "::", -1); c("split", "str", "abc", "abc", -1)
c("split", "str", "a b  c", None, -1); c("split", "str", "  lead and trail  ", None, -1); c("split", "str", "\ta\nb  c", None, -1)
c("split", "str", "a,b,c,d", ",", 1); c("split", "str", "a,b,c", ",", 0); c("split", "str", "", ",", -1); c("split", "str", "", None, -1)
c("split", "str", "a,b", "", -1); c("split", "str", "a b c", " ", 1)
c("split", "str", "a b c", None, 1, py='["a", "b c"]'); c("split", "str", "  a b c  ", None, 1, py='["a", "b c  "]')
c("split", "str", "  a b  ", None, 0, py='["a b  "]'); c("split", "str", "a\x1cb", None, -1, py='["a", "b"]')
c("rsplit", "", "a,b,c", ",", 1); c("rsplit", "", "a b c", " ", -1); c("rsplit", "", "a b c d", " ", 2)
c("rsplit", "", " a  b ", " ", -1); c("rsplit", "", "  a b c  ", " ", 1); c("rsplit", "", "a::b::c", "::", 1)
c("rsplit", "", "aaa", "aa", -1); c("rsplit", "", "", " ", -1); c("rsplit", "", "a", "", -1, py=E("RuntimeError", "ValueError: empty separator"), hang=True)
c("split", "str", "aaa", "aa", -1)
# partition
c("partition", "", "a=b=c", "="); c("rpartition", "", "a=b=c", "="); c("partition", "", "abc", "x"); c("rpartition", "", "abc", "x")
c("partition", "", "user@example.org", "@"); c("rpartition", "", "a::b::c", "::")
c("partition", "", "abc", "", py=E("RuntimeError", "ValueError: empty separator"))
# splitlines
c("splitlines", "", "l1\nl2\n\nl4", False); c("splitlines", "", "a\nb\r\nc\n", False, py='["a", "b", "c"]'); c("splitlines", "", "", False)
c("splitlines", "", "a\rb", False); c("splitlines", "", "a\x0bb\x0cc\x1cd", False)
c("splitlines", "", "a\nb\r\n", True, py='["a\\n", "b\\r\\n"]'); c("splitlines", "", "x\n\ny", True, py='["x\\n", "\\n", "y"]')
c("splitlines", "", "a\u2028b\x85c", False, py='["a", "b", "c"]')
# replace
c("replace", "", "hello", "l", "L", -1); c("replace", "", "aaaa", "a", "b", 2); c("replace", "", "abc", "x", "y", -1)
c("replace", "", "one two one", "one", "1", -1); c("replace", "", "a-b-c", "-", "", -1); c("replace", "", "aaa", "a", "b", 0)
c("replace", "", "aaa", "a", "b", -2); c("replace", "", "abc", "b", "xx", -1); c("replace", "", "aaa", "aa", "b", -1)
c("replace", "", "abc", "", "x", -1, py='"xaxbxcx"', hang=True); c("replace", "", "abc", "", "-", 2, py='"-a-bc"', hang=True); c("replace", "", "", "", "x", -1, py='"x"', hang=True)
# padding
c("zfill", "", "42", 5); c("zfill", "", "7", 3); c("zfill", "", "abc", 2); c("zfill", "", "abc", -1)
c("zfill", "", "-42", 5, py='"-0042"'); c("zfill", "", "+4", 4, py='"+004"')
c("center", "", "abc", 8, " "); c("center", "", "ab", 5, "-"); c("center", "", "x", 4, "*"); c("center", "", "hello", 3, " ")
c("center", "", "ab", 6, " "); c("center", "", "abc", 6, " "); c("ljust", "", "ab", 5, "."); c("rjust", "", "ab", 5, " ")
c("rjust", "", "7", 3, "0"); c("rjust", "", "hello", 3, " "); c("ljust", "", "ab", 5, "**"); c("ljust", "", "a", 3, "")
c("center", "", "a", -5, " ", py='"a"', hang=True); c("ljust", "", "a", 3, "\u00e9", py='"a\u00e9\u00e9"')
c("expandtabs", "", "a\tb", 4); c("expandtabs", "", "ab\tc\nx\ty", 4, py='"ab  c\\nx   y"'); c("expandtabs", "", "a\tb", 0); c("expandtabs", "", "a\tb", -1)
c("expandtabs", "", "\t", 8)
# characters and numbers
c("ord", "", "a"); c("ord", "", "ab"); c("ord", "", ""); c("ord", "", "\u00e9", py="233"); c("ord", "", "\U0001f600", py="128512")
c("chr", "", 97); c("chr", "", -1); c("chr", "", 0x110000); c("chr", "", 0x10ffff, py='"\U0010ffff"'); c("chr", "", 233, py='"\u00e9"')
for i in [255, -255, 0, 8, -9223372036854775808, 9223372036854775807]:
    c("hex", "", i); c("oct", "", i); c("bin", "", i)
c("Int", "str", "12"); c("Int", "str", "+5"); c("Int", "str", "-7"); c("Int", "str", "007"); c("Int", "str", "-9223372036854775808")
c("Int", "str", " 12 "); c("Int", "str", "1_0"); c("Int", "str", "0x10")
c("Int", "str", "x", py=E("RuntimeError", "stoll"))
c("Int", "str", "", py=E("RuntimeError", "stoll"))
c("Int", "str", "-", py=E("RuntimeError", "stoll"))
c("Int", "str", "99999999999999999999", py=E("RuntimeError", "stoll"))
c("Int", "str", "\n -12")
c("Float", "str", "1.5"); c("Float", "str", "inf"); c("Float", "str", "nan"); c("Float", "str", "1e5"); c("Float", "str", "0x10")
c("Float", "str", " 1.5 "); c("Float", "str", "1_0.5"); c("Float", "str", "-0.25")
c("Float", "str", "x", py=E("RuntimeError", "stod"))
c("Float", "str", "", py=E("RuntimeError", "stod"))
c("Float", "str", "1e999", py=E("RuntimeError", "stod")); c("Float", "str", " 2.5")
# join
c("join", "", ",", ["a", "b"]); c("join", "", ",", []); c("join", "", "", ["x", "y", "z"]); c("join", "", ", ", ["only"]); c("join", "", "\u00e9", ["a", "b"])

def enc(v):
    if isinstance(v, bool): return "true" if v else "false"
    if isinstance(v, int): return str(v)
    if isinstance(v, float): return "%.17g" % v
    if isinstance(v, str): return json.dumps(v, ensure_ascii=False)
    if isinstance(v, (list, tuple)): return "[" + ", ".join(enc(x) for x in v) + "]"
    raise TypeError(v)

def cstr(s):
    out = '"'
    for b in s.encode():
        ch = chr(b)
        if ch in '"\\': out += '\\' + ch
        elif 32 <= b < 127: out += ch
        else: out += '\\%03o' % b
    return out + '"'

def carg(x):
    if x is None: return "N_"
    if isinstance(x, bool): return "B_(%d)" % x
    if isinstance(x, int): return "I_(%d)" % x if x != -9223372036854775808 else "I_(INT64_MIN)"
    if isinstance(x, str): return "S_(%s)" % cstr(x)
    if isinstance(x, list): return "L_(%s)" % cstr("|".join(x)) if x else "L_(NULL)"
    raise TypeError(x)

for op, ov, args, py, hang in C:
    f = getattr(a, op)
    if ov: f = getattr(f, ov)
    try:
        if hang: raise RuntimeError("hangs")
        want = enc(f(*args))
    except Exception as e:
        msg = str(e).split("\n")[0]
        want = E(type(e).__name__, msg)
    note = ""
    if py is not None:
        if hang: note = " /* PyTorch hangs */"
        elif py != want: note = " /* PyTorch: %s */" % want.replace("*/", "* /")
        want = py
    qual = ("prim::" if op == "StringIndex" else "aten::") + op
    print('    { "%s", "%s", %d, { %s }, %s },%s' % (qual, ov, len(args), ", ".join(carg(x) for x in args), cstr(want), note))
