/* emit.c — tests of the IR emitter: the JIT overview's examples compile to graphs with the
 * overview's structure (checked with FileCheck), compile errors read as PyTorch's, and the
 * inputs the emitter fuzz target once failed on (t/data/fuzz/) compile cleanly. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/compile.h"
#include "ir/filecheck.h"
#include "runtime.h"
#include "tap.h"

#ifndef TS_TEST_SRCDIR
#define TS_TEST_SRCDIR "."
#endif

static const TsOpTable *ops;

/* Compiles src and returns the graph text of `name` (malloc'd), or NULL with err. */
static char *graph_of(const char *src, const char *name, TsError *err)
{
    TsSource *s = ts_source_new("test.py", src, strlen(src), err);
    if (!s)
        return NULL;
    TsCompUnit *u = ts_compile_source(ops, s, name, err);
    ts_source_release(s);
    if (!u)
        return NULL;
    char qual[128];
    snprintf(qual, sizeof qual, "__torch__.%s", name);
    TsFunction *f = ts_unit_find(u, qual);
    char *text = NULL;
    if (f && ts_graph_lint(f->graph, err) == 0)
        text = ts_graph_to_string(f->graph, false);
    ts_unit_free(u);
    return text;
}

static void check_graph(const char *what, const char *src, const char *name,
                        const char *checks)
{
    TsError err = TS_ERROR_INIT;
    char *g = graph_of(src, name, &err);
    if (!g) {
        if (err.msg && strstr(err.msg, "Unknown builtin op")) {
            ok(1, "%s # SKIP the operator table lacks a schema", what);
        } else {
            ok(0, "%s compiles", what);
            diag("%s", err.msg ? err.msg : "?");
        }
        ts_error_clear(&err);
        return;
    }
    int rc = ts_filecheck_run_text(checks, g, &err);
    if (!ok(rc == 0, "%s", what)) {
        diag("%s", err.msg ? err.msg : "?");
        diag("%s", g);
    }
    ts_error_clear(&err);
    free(g);
}

static void check_error(const char *what, const char *src, const char *phrase)
{
    TsError err = TS_ERROR_INIT;
    char *g = graph_of(src, "main", &err);
    if (!ok(!g && err.msg && strstr(err.msg, phrase), "%s: %s", what, phrase))
        diag("got: %s", err.msg ? err.msg : g);
    free(g);
    ts_error_clear(&err);
}

/* Every graph of the unit passes the verifier. */
static bool unit_lints(const TsCompUnit *u, TsError *err)
{
    for (size_t i = 0; i < ts_unit_count(u); i++)
        if (ts_graph_lint(ts_unit_function(u, i)->graph, err) != 0)
            return false;
    return true;
}

/* A minimized fuzz input: its first line says what compiling main gives ("# expect: ok" or
 * "# expect: error PHRASE"); compiling the whole file and each function alone (what the fuzz
 * target does) must not crash, and every graph made must verify. */
static void fuzz_case(const char *dir, const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    TsError err = TS_ERROR_INIT;
    TsSource *src = ts_source_read_file(path, &err);
    if (!ok(src != NULL, "%s reads", name)) {
        diag("%s", err.msg);
        ts_error_clear(&err);
        return;
    }
    char want[256] = "";
    sscanf(src->text, "# expect: %255[^\n]", want);
    TsCompUnit *u = ts_compile_source(ops, src, "main", &err);
    bool lints = !u || unit_lints(u, &err);
    if (strcmp(want, "ok") == 0) {
        if (!ok(u && lints, "%s: main compiles and verifies", name))
            diag("%s", err.msg ? err.msg : "?");
    } else {
        const char *phrase = strncmp(want, "error ", 6) == 0 ? want + 6 : NULL;
        if (!ok(!u && phrase && err.msg && strstr(err.msg, phrase), "%s: %s", name, want))
            diag("got: %s", err.msg ? err.msg : "no error");
    }
    ts_unit_free(u);
    ts_error_clear(&err);
    bool clean = true;
    u = ts_compile_source(ops, src, NULL, &err);
    clean = !u || unit_lints(u, &err);
    ts_unit_free(u);
    ts_error_clear(&err);
    size_t n = 0;
    char **names = ts_compile_list_functions(src, "", &n, &err);
    for (size_t i = 0; i < n && clean; i++) {
        u = ts_compile_source(ops, src, names[i], &err);
        clean = !u || unit_lints(u, &err);
        ts_unit_free(u);
        if (clean)
            ts_error_clear(&err);
    }
    ts_free_names(names, n);
    if (!ok(clean, "%s: every graph compiled verifies", name))
        diag("%s", err.msg ? err.msg : "?");
    ts_error_clear(&err);
    ts_source_release(src);
}

static void fuzz_cases(void)
{
    const char *dir = TS_TEST_SRCDIR "/t/data/fuzz";
    DIR *d = opendir(dir);
    if (!ok(d != NULL, "t/data/fuzz exists"))
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l > 3 && strcmp(e->d_name + l - 3, ".py") == 0)
            fuzz_case(dir, e->d_name);
    }
    closedir(d);
}

int main(void)
{
    TsError err = TS_ERROR_INIT;
    TsRuntime *rt = ts_runtime_open(NULL, &err);
    if (!rt) {
        printf("1..0 # SKIP no runtime: %s\n", err.msg);
        ts_error_clear(&err);
        return 0;
    }
    ops = ts_runtime_optable(rt);

    check_graph("overview if/else: one prim::If whose blocks yield e",
        "def f(a, b, c: bool):\n"
        "    d = a + b\n"
        "    if c:\n"
        "        e = d + d\n"
        "    else:\n"
        "        e = b + d\n"
        "    return e\n", "f",
        "# CHECK: graph(%a : Tensor,\n"
        "# CHECK: aten::add(%a, %b\n"
        "# CHECK: %e : Tensor = prim::If(%c)\n"
        "# CHECK-NEXT: block0():\n"
        "# CHECK-NEXT: aten::add\n"
        "# CHECK-NEXT: -> (\n"
        "# CHECK-NEXT: block1():\n"
        "# CHECK-NEXT: aten::add\n"
        "# CHECK-NEXT: -> (\n"
        "# CHECK: return (%e)\n");

    check_graph("overview loop: prim::Loop carries z",
        "def f(x):\n"
        "    z = x\n"
        "    for i in range(x.size(0)):\n"
        "        z = z * z\n"
        "    return z\n", "f",
        "# CHECK: aten::size(%x\n"
        "# CHECK: %z : Tensor = prim::Loop(\n"
        "# CHECK-NEXT: block0(\n"
        "# CHECK: aten::mul\n"
        "# CHECK: -> (\n"
        "# CHECK: return (%z)\n");

    check_graph("overview LSTM cell compiles to straight-line aten ops",
        "def lstm(x, hx, cx, w_ih, w_hh, b_ih, b_hh):\n"
        "    gates = x.mm(w_ih.t()) + hx.mm(w_hh.t()) + b_ih + b_hh\n"
        "    ingate, forgetgate, cellgate, outgate = gates.chunk(4, 1)\n"
        "    ingate = ingate.sigmoid()\n"
        "    forgetgate = forgetgate.sigmoid()\n"
        "    cellgate = cellgate.tanh()\n"
        "    outgate = outgate.sigmoid()\n"
        "    cy = (forgetgate * cx) + (ingate * cellgate)\n"
        "    hy = outgate * cy.tanh()\n"
        "    return hy, cy\n", "lstm",
        "# CHECK: aten::mm\n# CHECK: aten::chunk\n# CHECK: prim::ListUnpack\n"
        "# CHECK: aten::sigmoid\n# CHECK: aten::tanh\n# CHECK: prim::TupleConstruct\n"
        "# CHECK-NOT: prim::If\n# CHECK: return\n");

    check_graph("overview with-statement: prim::Enter before the body, prim::Exit after",
        "class Ctx:\n"
        "    def __init__(self, n: int):\n"
        "        self.n = n\n"
        "    def __enter__(self) -> int:\n"
        "        return self.n\n"
        "    def __exit__(self, a: Any, b: Any, c: Any):\n"
        "        pass\n"
        "def main(x: int) -> int:\n"
        "    c = Ctx(x)\n"
        "    with c as y:\n"
        "        z = y + 1\n"
        "    return z\n", "main",
        "# CHECK: prim::CreateObject\n"
        "# CHECK: prim::CallMethod[name=\"__init__\"]\n"
        "# CHECK: prim::Enter(\n"
        "# CHECK-NEXT: aten::add\n"
        "# CHECK-NEXT: prim::Exit(\n"
        "# CHECK: return\n");

    check_graph("overview exit transform: return inside while becomes loop-carried flags",
        "def f(x: int) -> int:\n"
        "    i = 0\n"
        "    while i < 5:\n"
        "        if i == x:\n"
        "            return i\n"
        "        i += 1\n"
        "    return 0\n", "f",
        "# CHECK: prim::Uninitialized()\n"
        "# CHECK: : bool, %\n# CHECK-SAME: = prim::Loop(\n"
        "# CHECK: prim::If(\n"
        "# CHECK-NOT: prim::ReturnStmt\n"
        "# CHECK: prim::If(\n"
        "# CHECK: return\n");

    check_graph("continue and break become loop continuations",
        "def f(n: int) -> int:\n"
        "    s = 0\n"
        "    for i in range(n):\n"
        "        if i == 2:\n"
        "            continue\n"
        "        if i == 7:\n"
        "            break\n"
        "        s += i\n"
        "    return s\n", "f",
        "# CHECK: prim::Loop(\n# CHECK-NOT: BreakStmt\n# CHECK-NOT: ContinueStmt\n"
        "# CHECK-NOT: LoopContinuation\n# CHECK: return (%s)\n");

    check_graph("Optional refinement by `is not None` casts inside the branch",
        "from typing import Optional\n"
        "def f(x: Optional[int]) -> int:\n"
        "    if x is not None:\n"
        "        return x + 1\n"
        "    return 0\n", "f",
        "# CHECK: aten::__isnot__\n# CHECK: prim::unchecked_cast\n# CHECK: aten::add\n");

    check_graph("static is None on a non-Optional compiles one branch only",
        "def f(x: int) -> int:\n"
        "    if x is None:\n"
        "        return 1\n"
        "    return x\n", "f",
        "# CHECK-NOT: prim::If\n# CHECK: return (%x)\n");

    check_graph("a function calls one defined later: prim::CallFunction",
        "def main(a: int) -> int:\n"
        "    return helper(a)\n"
        "def helper(b: int) -> int:\n"
        "    return b\n", "main",
        "# CHECK: prim::CallFunction[name=\"__torch__.helper\"](%a)\n");

    check_graph("raise becomes prim::RaiseException with the class name",
        "def f(x: int) -> int:\n"
        "    if x < 0:\n"
        "        raise ValueError(\"negative\")\n"
        "    return x\n", "f",
        "# CHECK: \"builtins.ValueError\"\n# CHECK: prim::RaiseException\n");

    check_error("one-sided definition used later",
        "def main(c: bool) -> int:\n"
        "    if c:\n"
        "        y = 1\n"
        "    return y\n", "y is not defined in the false branch");
    check_error("branch types disagree and the name is used",
        "def main(c: bool):\n"
        "    if c:\n"
        "        y = 1\n"
        "    else:\n"
        "        y = \"a\"\n"
        "    print(y)\n", "Type mismatch");
    check_error("undefined name", "def main():\n    print(q)\n", "undefined value q");
    check_error("recursion", "def main() -> int:\n    return main()\n",
                "Recursive calls are not supported");
    check_error("missing return path",
        "def main(c: bool) -> int:\n    if c:\n        return 1\n",
        "does not return along all paths");
    check_error("break outside a loop", "def main():\n    break\n", "'break' outside loop");
    check_error("return type", "def main() -> int:\n    return \"s\"\n",
                "Return value was annotated as having type int but is actually of type str");
    check_error("try is rejected",
        "def main():\n    try:\n        pass\n    except Exception:\n        pass\n",
        "try blocks aren't supported");
    check_error("loop retyping",
        "def main():\n    x = 1\n    for i in range(3):\n        x = \"s\"\n",
        "previously had type int but is now being assigned to a value of type str");
    /* found by the language sweep (t/lang_cases.py has the programs that run) */
    check_error("retyping an outer name in a branch",
        "def main():\n    u = 1\n    if u > 0:\n        u = 2.0\n    print(\"ok\")\n",
        "Variable 'u' previously had type int but is now being assigned to a value of type "
        "float");
    check_error("annotating an outer name in a branch",
        "def main():\n    x = 1\n    if x > 0:\n        x: int = 2\n",
        "Attempting to declare and annotate the type of variable 'x' but it is already "
        "defined in an outer block");
    check_error("break in a tuple loop inside a real loop",
        "def main():\n    for i in range(2):\n        for y in (1, 2):\n            break\n",
        "we do not support break or continue inside the body of these loops");
    check_error("zip of a list and a tuple",
        "def main():\n    for a, b in zip([1, 2], (3, 4)):\n        print(a)\n",
        "Can not iterate over a module list or tuple with a value that does not have a "
        "statically determinable length");
    check_error("isinstance of dict", "def main():\n    print(isinstance({1: 2}, dict))\n",
                "Unknown type name 'dict'");
    check_error("isinstance of a bare List",
        "from typing import List\ndef main():\n    print(isinstance([1], List))\n",
        "Attempted to use List without a contained type. Please add a contained type, e.g. "
        "List[int]");
    check_error("tuple() of a list", "def main():\n    print(tuple([1, 2]))\n",
                "cannot statically infer the expected size of a list in this context");
    check_error("unpacking an int", "def main():\n    a, b = 1\n",
                "int cannot be used as a tuple");
    check_error("a list as an assignment target", "def main():\n    [a, b] = (1, 2)\n",
                "unexpected expression on left-hand side of assignment");
    check_error("sliced list assignment", "def main():\n    l = [1]\n    l[0:1] = [2]\n",
                "Sliced expression not yet supported for subscripted assignment");
    check_error("del of a slice", "def main():\n    l = [1]\n    del l[0:1]\n",
                "del statements only support deletion at a single index, slicing is not "
                "supported");
    check_error("del of an attribute",
        "class A:\n    def __init__(self):\n        self.x = 1\n"
        "def main():\n    a = A()\n    del a.x\n",
        "del statements are only supported for deleting list and dict items and variables");
    check_error("use after del", "def main():\n    x = 1\n    del x\n    print(x)\n",
                "undefined value x:");
    check_error("continue outside a loop", "def main():\n    continue\n",
                "SyntaxError: 'continue' not properly in loop");
    check_error("mixed dict keys", "def main():\n    d = {1: \"a\", \"b\": 2}\n",
                "Dict keys must contain only a single type. Expected: int but found str "
                "instead");
    check_error("negative tuple index out of range", "def main():\n    print((1, 2)[-3])\n",
                "Tuple is length 2 and index is -3");
    check_error("max() with an unknown keyword", "def main():\n    print(max(1, 2, 3, k=4))\n",
                "Keyword argument k unknown");
    check_error("truth of an object without __bool__",
        "class A:\n    def __init__(self):\n        self.x = 1\n"
        "    def __len__(self) -> int:\n        return 0\n"
        "def main():\n    if A():\n        print(1)\n",
        "to bool");
    check_error("an annotated attribute keeps its value's type",
        "from typing import Optional\n"
        "class A:\n    def __init__(self):\n        self.o: Optional[int] = None\n"
        "    def set(self):\n        self.o = 3\n"
        "def main():\n    A().set()\n",
        "Wrong type for attribute assignment. Expected NoneType but got int");
    check_error("... an Any annotation too (declare Any with torch.jit.annotate)",
        "from typing import Any\n"
        "class A:\n    def __init__(self):\n        self.o: Any = None\n"
        "    def set(self):\n        self.o = [3]\n"
        "def main():\n    A().set()\n",
        "Wrong type for attribute assignment. Expected NoneType but got List[int]");
    check_error("range() as a call's argument", "def main():\n    print(sum(range(3)))\n",
                "range cannot be used as a value");
    check_error("zip() as a call's argument", "def main():\n    print(sorted(zip([1], [2])))\n",
                "iterabletree cannot be used as a value");
    check_error("Tuple[int, ...]",
        "from typing import Tuple\ndef main():\n    c: Tuple[int, ...] = (1, 2)\n",
        "Expression of type dots cannot be used in a type expression");
    check_error("an object without the operator's magic method",
        "class A:\n    def __init__(self):\n        self.x = 1\n"
        "    def __eq__(self, o: \"A\") -> bool:\n        return True\n"
        "def main():\n    print(A() != A())\n",
        "object has no attribute or method '__ne__'");
    check_error("excerpt marks the place",
        "def main():\n    print(q)\n", "~ <--- HERE");

    /* values of range/zip/enumerate, builtins decided at compile time, tuples */
    check_graph("range() as a value is a list built by a loop",
        "from typing import List\n"
        "def main() -> List[int]:\n    return list(range(1, 9, 2))\n", "main",
        "# CHECK: aten::__range_length\n# CHECK: prim::Loop\n# CHECK: aten::__derive_index\n"
        "# CHECK: aten::append\n");
    check_graph("dict(zip(k, v)) builds the pairs, then aten::dict",
        "from typing import Dict\n"
        "def main() -> Dict[str, int]:\n    return dict(zip([\"a\"], [1]))\n", "main",
        "# CHECK: prim::Loop\n# CHECK: prim::TupleConstruct\n# CHECK: aten::dict\n");
    check_graph("dict(a=1) is a dict literal",
        "def main():\n    print(dict(a=1, b=2))\n", "main",
        "# CHECK: Dict(str, int) = prim::DictConstruct\n");
    check_graph("getattr with a default takes the default for a missing attribute",
        "class B:\n    def __init__(self):\n        self.w = 1\n"
        "def main():\n    b = B()\n    print(getattr(b, \"w\", 5), getattr(b, \"z\", 7))\n",
        "main",
        "# CHECK: prim::Constant[value=7]\n# CHECK: prim::GetAttr[name=\"w\"]\n"
        "# CHECK-NOT: name=\"z\"\n");
    check_graph("_unwrap_optional raises on None, then refines",
        "import torch\nfrom typing import Optional\n"
        "def main(x: Optional[int]) -> int:\n    return torch.jit._unwrap_optional(x)\n",
        "main",
        "# CHECK: \"Unwrapping null optional\"\n# CHECK: aten::__is__\n# CHECK: prim::If\n"
        "# CHECK: prim::RaiseException\n# CHECK: int = prim::unchecked_cast\n");
    check_graph("tuple + tuple and tuple slices with a step are new tuples",
        "def main():\n    t = (1, 2) + (\"a\", 3.5)\n    print(t[::-2])\n", "main",
        "# CHECK: (int, int, str, float) = prim::TupleConstruct\n"
        "# CHECK: (float, int) = prim::TupleConstruct\n");
    check_graph("a tuple of one element type indexed at run time",
        "def main(i: int) -> int:\n    t = (1, 2, 3)\n    return t[i]\n", "main",
        "# CHECK: int = prim::TupleIndex(%t, %i)\n");
    check_error("a tuple of mixed types indexed at run time",
        "def main(i: int):\n    t = (1, \"a\")\n    print(t[i])\n",
        "Cannot index into a Tuple[int, str] with a non-integer literal because we cannot "
        "resolve the output type");
    check_graph("a substring test is find() != -1",
        "def main(s: str) -> bool:\n    return \"b\" in s\n", "main",
        "# CHECK: aten::find\n# CHECK: aten::ne\n");
    check_graph("bool() of a list is len() > 0; int() of an int is itself",
        "from typing import List\n"
        "def main(x: List[int], i: int):\n    print(bool(x), int(i))\n", "main",
        "# CHECK: aten::len\n# CHECK: aten::gt\n# CHECK-NOT: aten::Int\n# CHECK: , %i)\n");
    check_graph("a failed isinstance refines a Union to the rest",
        "from typing import Union\n"
        "def main(x: Union[int, str]) -> str:\n"
        "    if isinstance(x, int):\n        return \"i\"\n    return x.upper()\n", "main",
        "# CHECK: prim::isinstance\n# CHECK: str = prim::unchecked_cast\n"
        "# CHECK: aten::upper\n");
    check_graph("an Enum deriving from an Enum of the file; a member as a default",
        "from enum import Enum\n"
        "class Base(Enum):\n    def label(self) -> str:\n        return \"x\"\n"
        "class Op(Base):\n    ADD = 1\n    SUB = 2\n"
        "def f(op: Op = Op.SUB) -> int:\n    return op.value\n"
        "def main():\n    for o in Op:\n        print(f(o), f())\n", "main",
        "# CHECK: prim::CallFunction\n");
    check_graph("NamedTuple(\"X\", [(name, type)]) types its fields",
        "from typing import NamedTuple, List\n"
        "P = NamedTuple(\"P\", [(\"xs\", List[int]), (\"n\", int)])\n"
        "def main():\n    p = P([], 1)\n    print(p.xs)\n", "main",
        "# CHECK: int[] = prim::ListConstruct()\n");
    check_graph("indices after ... count from the last dimension",
        "def main(t):\n    return t[..., 0, 1:2]\n", "main",
        "# CHECK: %2 : int = prim::Constant[value=-2]\n"
        "# CHECK: %5 : int = prim::Constant[value=-1]\n"
        "# CHECK: %4 : Tensor = aten::select(%t, %2, %3)\n"
        "# CHECK-NEXT: aten::slice(%4, %5, %6, %7, %6)\n");
    check_graph("None after ... inserts before the current dimension",
        "def main(t):\n    return t[..., 0, None, 1:]\n", "main",
        "# CHECK: aten::select(%t, %2,\n# CHECK-NEXT: aten::unsqueeze(%4, %2)\n"
        "# CHECK-NEXT: aten::slice(%6, %7,\n");
    check_graph("sliced tensor assignment writes through the view",
        "def main(t):\n    t[1:3, 0] = 2.5\n", "main",
        "# CHECK: aten::slice\n# CHECK: aten::select\n# CHECK: prim::dtype\n"
        "# CHECK: aten::tensor\n# CHECK: aten::copy_\n");
    check_graph("fork of an operator",
        "import torch\ndef main(a, b):\n    f = torch.jit.fork(torch.add, a, b)\n"
        "    return torch.jit.wait(f)\n", "main",
        "# CHECK: Future[Tensor] = prim::fork\n# CHECK: aten::wait\n"
        "# CHECK: aten::add(%0, %1\n");
    check_graph("a failed assert raises a RuntimeError saying AssertionError, as PyTorch's",
        "def main(x: int):\n    assert x > 0, \"neg\"\n", "main",
        "# CHECK: \"AssertionError: \n# CHECK-NOT: builtins.AssertionError\n"
        "# CHECK: prim::RaiseException\n");

    /* torch.jit._overload: a declaration's body is `pass` or `...` (checked where it is
     * declared, as PyTorch checks it); t/overload_cases.py runs overloads */
    check_error("an overload declaration with a body",
        "import torch\n@torch.jit._overload\ndef f(x: int) -> int:\n    return x\n"
        "def f(x):\n    return x\ndef main():\n    return f(1)\n",
        "Only `pass` statement or `...` can be the body of overload declaration:\n"
        "@torch.jit._overload\ndef f(x: int) -> int:\n    return x <- Expecting `pass` or `...` "
        "here!\n\nExample usage of overload function:\n");
    check_error("an overload declaration with two statements",
        "from torch.jit import _overload\n@_overload\ndef f(x: int) -> int:\n    pass\n"
        "    pass\ndef f(x):\n    return x\ndef main():\n    return f(1)\n",
        "Only `pass` statement or `...` can be the body of overload declaration:\n@_overload\n");
    check_error("an overloaded function compiled directly",
        "import torch\n@torch.jit._overload\ndef main(x: int) -> int:\n    ...\n"
        "def main(x):\n    return x\n",
        "Function __torch__.main cannot be directly compiled because it is overloaded. It "
        "must be used in a context of a function where its inputs can determine which "
        "overload to call.");
    check_error("overloads without annotations",
        "import torch\n@torch.jit._overload\ndef f(x):\n    ...\n"
        "def f(x):\n    return x\ndef main():\n    return f(1)\n",
        "Must explicitly add type annotations to overloaded functions");
    check_graph("an overload is called by its own (mangled) name",
        "import torch\n@torch.jit._overload\ndef f(x: int) -> int:\n    ...\n"
        "@torch.jit._overload\ndef f(x: float) -> float:\n    ...\n"
        "def f(x):\n    return x\ndef main(a: float):\n    return f(a)\n", "main",
        "# CHECK: float = prim::CallFunction[name=\"__torch__.___torch_mangle_0.f\"](%a)\n");

    /* torch.nn.functional and torch.norm: the library's TorchScript inlined (t/library.c
     * tests more) */
#define FN_PRELUDE "import torch\nimport torch.nn.functional as F\n"
    check_graph("F.cross_entropy: cross_entropy_loss with the reduction as an int",
        FN_PRELUDE "def main(x, t):\n    return F.cross_entropy(x, t, reduction='sum')\n",
        "main",
        "# CHECK-NOT: prim::If\n# CHECK: int = prim::Constant[value=-100]\n"
        "# CHECK: int = prim::Constant[value=2]\n"
        "# CHECK: aten::cross_entropy_loss(%x, %t, %\n");
    check_graph("F.nll_loss is nll_loss_nd; legacy reduce=False is 'none'",
        FN_PRELUDE "def main(x, t):\n    return F.nll_loss(x, t, reduce=False)\n", "main",
        "# CHECK: int = prim::Constant[value=0]\n# CHECK: aten::nll_loss_nd(%x, %t\n");
    check_graph("F.embedding swaps input and weight; padding_idx None is -1",
        FN_PRELUDE "def main(i, w):\n    return F.embedding(i, w)\n", "main",
        "# CHECK: prim::Constant[value=-1]\n# CHECK: aten::embedding(%w, %i,\n");
    check_graph("F.batch_norm reorders its arguments and adds cudnn_enabled=True",
        FN_PRELUDE "def main(x, m, v):\n    return F.batch_norm(x, m, v)\n", "main",
        "# CHECK: %6 : NoneType = prim::Constant()\n# CHECK: %16 : bool = prim::Constant[value=1]\n"
        "# CHECK: aten::batch_norm(%x, %6, %6, %m, %v, %8, %9, %10, %16)\n");
    check_graph("inplace=True selects the op_ variant",
        FN_PRELUDE "def main(x):\n    F.relu(x, inplace=True)\n"
        "    return F.dropout(x, 0.2, training=False, inplace=True)\n", "main",
        "# CHECK: aten::relu_(%x)\n# CHECK: aten::dropout_(%x,\n# CHECK-NOT: aten::dropout(\n");
    check_graph("F.max_pool2d(return_indices=True) is max_pool2d_with_indices",
        FN_PRELUDE "def main(x):\n    return F.max_pool2d(x, 2, return_indices=True)\n",
        "main", "# CHECK: int[] = prim::ListConstruct()\n"
        "# CHECK: Tensor = aten::max_pool2d_with_indices(%x,\n");
    check_graph("F.interpolate(scale_factor=, mode='bilinear'): the scale per spatial "
        "dimension, upsample_bilinear2d.vec on a 4-d input, the other modes gone",
        FN_PRELUDE "def main(x):\n"
        "    return F.interpolate(x, scale_factor=2.0, mode='bilinear')\n", "main",
        "# CHECK-NOT: aten::upsample_nearest\n"
        "# CHECK: Got {}D input, but bilinear mode needs 4D input\n"
        "# CHECK: float[] = prim::ListConstruct()\n# CHECK: aten::append(\n"
        "# CHECK: aten::eq(%rank, \n"
        "# CHECK: aten::upsample_bilinear2d(%x, %\n"
        "# CHECK-NOT: aten::upsample\n");
    check_graph("F.interpolate nearest with a scalar scale branches on the input's rank",
        FN_PRELUDE "def main(x):\n    return F.interpolate(x, scale_factor=2.0)\n", "main",
        "# CHECK: aten::dim(%x)\n# CHECK: prim::If\n# CHECK: aten::upsample_nearest1d\n");
    check_graph("torch.norm(x, p='fro') is frobenius_norm",
        FN_PRELUDE "def main(x):\n    return torch.norm(x, p='fro')\n", "main",
        "# CHECK: aten::frobenius_norm(%x,\n");
    check_graph("F.softmax passes dtype, F.linear stays the builtin",
        FN_PRELUDE "def main(x, w):\n"
        "    return F.softmax(x, dim=1, dtype=torch.float64), F.linear(x, w)\n", "main",
        "# CHECK: int = prim::Constant[value=7]\n# CHECK: aten::softmax(%x,\n"
        "# CHECK: aten::linear(%x, %w,\n");
    check_graph("a bad reduction string raises ValueError when run, as in PyTorch",
        FN_PRELUDE "def main(x, t):\n    return F.mse_loss(x, t, reduction='avg')\n", "main",
        "# CHECK: \"avg\"\n# CHECK: is not a valid value for reduction\n"
        "# CHECK: prim::RaiseException(\n");
    check_error("an unknown keyword of an F function", FN_PRELUDE "def main(x):\n"
        "    return F.relu(x, inplac=True)\n",
        "relu(Tensor input, bool inplace=False) -> Tensor:\nKeyword argument inplac unknown.");
    check_error("a missing argument of an F function", FN_PRELUDE "def main(x):\n"
        "    return F.cross_entropy(x)\n", "Argument target not provided.");
    check_graph("interpolate with both size and scale_factor raises when run, as in PyTorch",
        FN_PRELUDE "def main(x):\n    return F.interpolate(x, size=4, scale_factor=2.0)\n",
        "main",
        "# CHECK: only one of size or scale_factor should be defined\n"
        "# CHECK: prim::RaiseException(\n# CHECK-NOT: aten::upsample\n");
    check_graph("softmax without dim: torch's implicit choice from the input's rank",
        FN_PRELUDE "def main(x):\n    return F.softmax(x)\n", "main",
        "# CHECK: aten::dim(%x)\n# CHECK: aten::eq(\n# CHECK: int = prim::If(\n"
        "# CHECK: aten::softmax(%x, %\n");

    /* F.* arguments known only at run time: the decision goes into the graph */
    check_graph("reduction=r: prim::If on the string, ValueError for the rest",
        FN_PRELUDE "def main(x, y, r: str):\n    return F.mse_loss(x, y, reduction=r)\n",
        "main",
        "# CHECK: aten::eq(%r, %\n# CHECK: int = prim::If(\n"
        "# CHECK: aten::format(\n# CHECK: prim::RaiseException(\n"
        "# CHECK: aten::mse_loss(%x, %y, %\n");
    check_graph("size_average: Optional[bool]: `is None` decides between the two",
        FN_PRELUDE "from typing import Optional\n"
        "def main(x, y, sa: Optional[bool]):\n    return F.l1_loss(x, y, size_average=sa)\n",
        "main",
        "# CHECK: aten::__isnot__(%sa,\n# CHECK: int = prim::If(\n# CHECK: aten::l1_loss(\n");
    check_graph("kl_div reduction=r: batchmean divides by the batch at run time",
        FN_PRELUDE "def main(x, y, r: str):\n    return F.kl_div(x, y, reduction=r)\n",
        "main",
        "# CHECK: aten::kl_div(%x, %y, %\n# CHECK: aten::dim(%x)\n"
        "# CHECK: Tensor = prim::If(\n# CHECK: aten::div(\n");
    check_graph("inplace=flag: prim::If between relu_ and relu",
        FN_PRELUDE "def main(x, ip: bool):\n    return F.relu(x, inplace=ip)\n", "main",
        "# CHECK: Tensor = prim::If(%ip)\n# CHECK-NEXT: block0():\n"
        "# CHECK-NEXT: aten::relu_(%x)\n# CHECK: block1():\n# CHECK-NEXT: aten::relu(%x)\n");
    check_graph("interpolate mode=m: a branch per mode, then NotImplementedError",
        FN_PRELUDE "def main(x, m: str):\n"
        "    return F.interpolate(x, scale_factor=2.0, mode=m)\n", "main",
        "# CHECK: \"builtins.NotImplementedError\"\n# CHECK: aten::eq(%m,\n"
        "# CHECK: aten::upsample_nearest1d(\n# CHECK: aten::upsample_bilinear2d(\n"
        "# CHECK: prim::RaiseException(\n");
    check_graph("embedding padding_idx: Optional[int]: None is -1, negative counts from the end",
        FN_PRELUDE "from typing import Optional\n"
        "def main(i, w, p: Optional[int]):\n    return F.embedding(i, w, p)\n", "main",
        "# CHECK: aten::__is__(%p,\n# CHECK: aten::lt(\n# CHECK: aten::size(%w,\n"
        "# CHECK: aten::embedding(%w, %i,\n");
    check_error("return_indices=flag: boolean dispatch needs a constant",
        FN_PRELUDE "def main(x, ri: bool):\n    return F.max_pool2d(x, 2, return_indices=ri)\n",
        "Keyword argument 'return_indices' for boolean dispatch at position was not constant");
    check_error("return_indices by position: boolean dispatch needs a constant",
        FN_PRELUDE "def main(x, ri: bool):\n    return F.adaptive_max_pool2d(x, 2, ri)\n",
        "Argument for boolean dispatch at position 2 was not constant");

    /* what PyTorch 1.13 refuses, found by probe programs run through both */
    check_error("augmented assignment to a tuple item",
        "def main():\n    t = (1, 2)\n    t[0] += 1\n",
        "Tuple[int, int] does not support augmented assignment.");
    check_error("augmented //= is not supported", "def main(x: int):\n    x //= 2\n",
        "unsupported kind of augumented assignment: FloorDiv");
#define WITH_CLASS(ENTER, EXIT) \
        "from typing import Any\nclass C:\n    def __init__(self):\n        self.n = 0\n" \
        "    def __enter__(" ENTER "):\n        return self\n" \
        "    def __exit__(" EXIT "):\n        self.n = 1\n" \
        "def main():\n    with C() as c:\n        print(c.n)\n"
    check_error("__exit__ arguments must be Any", WITH_CLASS("self", "self, a, b, c"),
        "argument 1 of __exit__ must have Any type; TorchScript does not currently support");
    check_error("__exit__ takes four arguments", WITH_CLASS("self", "self, a: Any, b: Any"),
        "__exit__ must have four arguments");
    check_error("__enter__ takes only self",
        WITH_CLASS("self, x: int", "self, a: Any, b: Any, c: Any"),
        "__enter__ must have only one argument and one return value");
    check_graph("with on a class with Any __exit__ arguments: Enter ... Exit",
        WITH_CLASS("self", "self, a: Any, b: Any, c: Any"), "main",
        "# CHECK: prim::Enter(\n# CHECK: prim::Print(\n# CHECK: prim::Exit(\n");
    check_error("with on a value that is not an object",
        "def main():\n    with 3 as d:\n        print(d)\n",
        "With item expression must return an object");
    check_error("with on an object without __enter__/__exit__",
        "class C:\n    def __init__(self):\n        self.n = 0\n"
        "def main():\n    with C() as c:\n        print(c.n)\n",
        "Object returned by with item expression does not define __enter__ and __exit__");
    check_graph("f(*t) unpacks the tuple into positional arguments",
        "from typing import Tuple\ndef f(a: int, b: int, c: int = 5) -> int:\n"
        "    return a + b * c\n"
        "def main(t: Tuple[int, int]):\n    return f(*t, c=1), (*t, 3)\n", "main",
        "# CHECK: prim::TupleUnpack(%t)\n"
        "# CHECK: prim::CallFunction[name=\"__torch__.f\"](\n"
        "# CHECK: prim::TupleUnpack(%t)\n# CHECK: prim::TupleConstruct(\n");
    check_error("f(*l) of a list", "def f(a: int) -> int:\n    return a\n"
        "def main():\n    l = [1]\n    return f(*l)\n",
        "cannot statically infer the expected size of a list in this context");
    check_error("f(*n) of an int", "def f(a: int) -> int:\n    return a\n"
        "def main():\n    return f(*1)\n", "int cannot be used as a tuple");
    check_error("a, *b = list", "def main():\n    a, *b = [1, 2, 3]\n",
        "cannot statically infer the expected size of a list in this context");
    check_error("a mutable default", "from typing import List\n"
        "def f(a: List[int] = [1]) -> int:\n    return len(a)\ndef main():\n    f()\n",
        "Mutable default parameters are not supported because Python binds them");
    check_error("a default of the wrong type", "def f(a: int = 2.5) -> int:\n    return a\n"
        "def main():\n    f()\n", "Expected a default value of type int on parameter \"a\".");
    check_error("None for a str parameter", "def f(a: str = None) -> str:\n    return a\n"
        "def main():\n    f()\n", "Expected a default value of type str on parameter \"a\".");
    check_error("an unannotated parameter is a Tensor, whatever its default",
        "def f(x, a=1):\n    return a\ndef main():\n    f(1)\n",
        "Expected a default value of type Tensor (inferred) on parameter \"a\".Because \"a\" "
        "was not annotated with an explicit type it is assumed to be type 'Tensor'.");
    check_graph("defaults take the parameter's type and may be constant expressions",
        "import math\nEPS = 1e-5\n"
        "def f(a: float = 1, b: float = math.pi, c: int = 2 ** 10, d: float = EPS) -> float:\n"
        "    return a\ndef main():\n    return f()\n", "main",
        "# CHECK: float = prim::Constant[value=1.]\n"
        "# CHECK: float = prim::Constant[value=3.14159\n"
        "# CHECK: int = prim::Constant[value=1024]\n");
    check_error("an annotated nested list literal: items are typed alone",
        "from typing import List\ndef main():\n    x: List[List[int]] = [[]]\n",
        "List type annotation `List[List[int]]` did not match the types of the given list "
        "elements, which were unified to List[Tensor]");
    check_error("an annotated dict literal with a nested empty list",
        "from typing import Dict, List\ndef main():\n    x: Dict[str, List[int]] = {\"a\": []}\n",
        "Type annotation was inferred to be `Dict[str, List[int]]`, but the type of values "
        "given by the dict literal is List[Tensor]");
    check_error("a nested list literal argument is not typed by the parameter",
        "from typing import List\ndef f(x: List[List[int]]) -> int:\n    return len(x)\n"
        "def main():\n    return f([[]])\n",
        "Expected a value of type 'List[List[int]]' for argument 'x' but instead found type "
        "'List[List[Tensor]]'");
    check_error("annotation messages spell types as annotations",
        "from typing import Tuple\ndef main():\n    x: Tuple[int, float] = (1, 2)\n",
        "annotated with type Tuple[int, float] but is being assigned to a value of type "
        "Tuple[int, int]");
    check_error("an int literal out of int64", "def main():\n    x = 9223372036854775808\n",
        "Integral constant out of range (must fit in a signed 64 bit integer)");
    check_error("a bare raise", "def main():\n    raise\n", "a bare raise");
    check_error("a keyword-only parameter passed by position",
        "def f(a: int, *, b: int) -> int:\n    return a + b\ndef main():\n    return f(1, 2)\n",
        "Argument b not provided.");
    check_error("a keyword-only parameter with a default",
        "def f(a: int, *, b: int = 2) -> int:\n    return a + b\ndef main():\n    return f(1)\n",
        "Compiled functions can't take variable number of arguments or use keyword-only "
        "arguments with defaults");
    check_error("a static method through an object",
        "class A:\n    def __init__(self):\n        self.v = 1\n    @staticmethod\n"
        "    def s(x: int) -> int:\n        return x\n"
        "def main():\n    return A().s(1)\n", "object has no attribute or method 's'");
    check_graph("a method's receiver binds to the schema argument named self",
        "def main(x, c):\n    return x.where(c, x)\n", "main",
        "# CHECK: aten::where(%c, %x, %x)");
    check_error("t.bool() is Python-only", "def main(x):\n    return x.bool()\n",
        "'Tensor' object has no attribute or method 'bool'.");
    check_error("a list method no overload takes a List[A] for",
        "class A:\n    def __init__(self):\n        self.v = 1\n"
        "def main():\n    xs = [A()]\n    return xs.index(xs[0])\n",
        "A]' object has no attribute or method 'index'.");
    check_error("a str method that only lists have",
        "def main():\n    s = 'ab'\n    s.append('c')\n",
        "'str' object has no attribute or method 'append'.");
    check_graph("a generic list method takes a List[A]",
        "class A:\n    def __init__(self):\n        self.v = 1\n"
        "def main():\n    xs = [A()]\n    xs.append(A())\n    return len(xs)\n", "main",
        "# CHECK: aten::append(%xs");
    check_error("a class holding an Optional of itself",
        "from typing import Optional\n"
        "class Node:\n    def __init__(self, nxt: Optional['Node']):\n        self.nxt = nxt\n"
        "def main():\n    return Node(None)\n",
        "Classes that recursively contain instances of themselves are not yet supported");
    check_error("a class holding a list of itself",
        "from typing import List\n"
        "class Node:\n    def __init__(self, kids: List['Node']):\n        self.kids = kids\n"
        "def main():\n    return Node([])\n",
        "Assignment to attribute 'kids' cannot be of a type that contains class");
    check_graph("aug-assign on a tensor: in place where PyTorch is (fmod_, __irshift__)",
        "from typing import Dict, List\n"
        "def main(t, l: List[Tensor], d: Dict[str, Tensor]):\n"
        "    t %= 3\n    t **= 2\n    l[0] += 1\n    d['a'] *= 2\n    return t\n", "main",
        "# CHECK: aten::fmod_(%t\n# CHECK: aten::pow(\n# CHECK: aten::__getitem__(%l,\n"
        "# CHECK-NEXT: aten::add_(\n# CHECK: aten::__getitem__(%d,\n# CHECK-NEXT: aten::mul(\n");

    /* tensor indexing: one aten::index over a Tensor?[] with None for plain dimensions */
    check_graph("m[:, idx]: slice, then aten::index(v, [None, idx])",
        "def main(m, idx):\n    return m[:, idx]\n", "main",
        "# CHECK: NoneType = prim::Constant()\n"
        "# CHECK: aten::slice(%m,\n"
        "# CHECK: Tensor?[] = prim::ListConstruct(%4, %idx)\n"
        "# CHECK: aten::index(%7, %10)\n");
    check_graph("m[i, 1, j]: the select removes a dimension, one index over [i, j]",
        "def main(m, i, j):\n    return m[i, 1, j]\n", "main",
        "# CHECK: aten::select(%m,\n"
        "# CHECK: Tensor?[] = prim::ListConstruct(%i, %j)\n"
        "# CHECK: aten::index(\n# CHECK-NOT: aten::index(\n");
    check_graph("an int list index is a long tensor",
        "from typing import List\ndef main(m, l: List[int]):\n    return m[l]\n", "main",
        "# CHECK: prim::Constant[value=4]\n# CHECK: aten::tensor(%l,\n"
        "# CHECK: aten::index(%m,\n");
    check_error("a tensor index after an ellipsis",
        "def main(m, i):\n    return m[..., i]\n",
        "Ellipses followed by tensor indexing is currently not supported");
    check_graph("t[0] = 5: select, a tensor of the view's dtype and device, copy_",
        "def main(t):\n    t[0] = 5\n    return t\n", "main",
        "# CHECK: %5 : Tensor = aten::select(%t,\n"
        "# CHECK-NEXT: prim::dtype(%5)\n# CHECK-NEXT: prim::device(%5)\n"
        "# CHECK-NEXT: %9 : Tensor = aten::tensor(%1, %6, %7, %8)\n"
        "# CHECK-NEXT: aten::copy_(%5, %9, %8)\n# CHECK-NOT: fill_\n");
    check_graph("t[0, i] = x: select, then index_put_ with the tensor indices",
        "def main(t, i, x):\n    t[0, i] = x\n    return t\n", "main",
        "# CHECK: %7 : Tensor = aten::select(%t,\n"
        "# CHECK: %9 : Tensor?[] = prim::ListConstruct(%i)\n"
        "# CHECK: aten::index_put_(%7, %9, %x,\n# CHECK-NOT: copy_\n");
    check_graph("t[i] += 2: index, add_, index_put_ back",
        "def main(t, i):\n    t[i] += 2\n    return t\n", "main",
        "# CHECK: %5 : Tensor = aten::index(%t, %4)\n"
        "# CHECK: %8 : Tensor = aten::add_(%5,\n"
        "# CHECK: aten::index_put_(%t, %4, %8,\n");
    check_graph("t[1:] -= x updates the view in place",
        "def main(t, x):\n    t[1:] -= x\n    return t\n", "main",
        "# CHECK: Tensor = aten::slice(%t,\n"
        "# CHECK-NEXT: aten::sub_(\n# CHECK-NOT: copy_\n");

    /* number OP tensor keeps the tensor a tensor (TorchScript's builtin functions) */
    check_graph("1 + t is t + 1, 1 - t is -t + 1",
        "def main(t):\n    return 1 + t, 1 - t\n", "main",
        "# CHECK: aten::add(%t, %1, %1)\n# CHECK: %7 : Tensor = aten::neg(%t)\n"
        "# CHECK-NEXT: aten::add(%7, %1, %1)\n# CHECK-NOT: IntImplicit\n");
    check_graph("x * t is t * x, x / t is reciprocal(t) * x",
        "def main(t, x: float):\n    return x * t, x / t\n", "main",
        "# CHECK: aten::mul(%t, %x)\n# CHECK: aten::reciprocal(%t)\n"
        "# CHECK-NEXT: aten::mul(\n# CHECK-NOT: FloatImplicit\n");
    check_graph("a comparison with the number first flips",
        "def main(t):\n    return 1 < t, 1 >= t, 2 == t\n", "main",
        "# CHECK: aten::gt(%t,\n# CHECK: aten::le(%t,\n# CHECK: aten::eq(%t,\n");
    check_graph("2 ** t is pow(Scalar, Tensor); n // t converts, t // n is floor_divide",
        "def main(t, n: int):\n    return 2 ** t, n // t, t // n\n", "main",
        "# CHECK: Tensor = aten::pow(%2, %t)\n# CHECK: aten::IntImplicit(%t)\n"
        "# CHECK-NEXT: int = aten::floordiv(%n,\n"
        "# CHECK: Tensor = aten::floor_divide(%t, %n)\n");

    /* builtins and comprehension scope */
    check_graph("math.remainder is aten::mathremainder",
        "import math\ndef main(a: float, b: float):\n    return math.remainder(a, b)\n",
        "main", "# CHECK: float = aten::mathremainder(%a, %b)\n");
    check_graph("list *= n is aten::mul_ on the list",
        "from typing import List\ndef main(l: List[int]):\n    l *= 2\n    return l\n",
        "main", "# CHECK: int[] = aten::mul_(%l.1, %2)\n");
    check_graph("list(d) of a dict is its keys",
        "from typing import Dict\ndef main(d: Dict[str, int]):\n    return list(d)\n",
        "main", "# CHECK: str[] = aten::keys(%d)\n# CHECK: return\n");
    check_graph("a comprehension's loop variable does not leak",
        "def main():\n    i = 100\n    l = [i * 2 for i in range(3)]\n    return i\n",
        "main", "# CHECK: prim::Loop\n# CHECK: block0(%i : int)\n# CHECK: return (%i.1)\n");

    /* classes are named after the file and a second compile gets a mangled name */
    {
        const char *src = "class Foo:\n    def __init__(self):\n        self.x = 1\n"
                          "def main() -> Foo:\n    return Foo()\n";
        TsError e2 = TS_ERROR_INIT;
        char *g1 = graph_of(src, "main", &e2);
        char *g2 = g1 ? graph_of(src, "main", &e2) : NULL;
        ok(g1 && strstr(g1, "__torch__.test.Foo = prim::CreateObject"),
           "a class is __torch__.MODULE.Class");
        if (!ok(g2 && strstr(g2, "__torch__.test.___torch_mangle_"),
                "compiling the file again works and mangles the class name"))
            diag("%s", e2.msg ? e2.msg : g2 ? g2 : "?");
        free(g1);
        free(g2);
        ts_error_clear(&e2);
    }

    fuzz_cases();

    ts_runtime_close(rt);
    return done_testing();
}
