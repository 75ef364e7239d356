/* library.c — tests of the TorchScript library plugins ship (core/frontend/library.c, core/frontend/inline.c):
 * torch.nn.functional comes from schemas/torch.nn.functional.py, which the aten-cpu plugin
 * names; a program compiles only the functions it calls (once per runtime), and their
 * graphs are inlined into the caller's with the branches the caller's constants decide
 * left out, as PyTorch's inlining and constant propagation leave them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/compile.h"
#include "frontend/emit.h"
#include "ir/filecheck.h"
#include "runtime.h"
#include "tap.h"

static const TsOpTable *ops;

#define PRELUDE "import torch\nimport torch.nn.functional as F\nfrom typing import Optional\n"

/* The graph text of main in src (malloc'd), or NULL with err. */
static char *graph_of(const char *src, TsError *err)
{
    TsSource *s = ts_source_new("test.py", src, strlen(src), err);
    TsCompUnit *u = s ? ts_compile_source(ops, s, "main", err) : NULL;
    ts_source_release(s);
    if (!u)
        return NULL;
    TsFunction *f = ts_unit_find(u, "__torch__.main");
    char *text = NULL;
    if (f && ts_graph_lint(f->graph, err) == 0)
        text = ts_graph_to_string(f->graph, false);
    ts_unit_free(u);
    return text;
}

static void check_graph(const char *what, const char *body, const char *checks)
{
    char src[2048];
    snprintf(src, sizeof src, PRELUDE "%s", body);
    TsError err = TS_ERROR_INIT;
    char *g = graph_of(src, &err);
    if (!g) {
        ok(0, "%s compiles", what);
        diag("%s", err.msg ? err.msg : "?");
    } else if (!ok(ts_filecheck_run_text(checks, g, &err) == 0, "%s", what)) {
        diag("%s", err.msg ? err.msg : "?");
        diag("%s", g);
    }
    ts_error_clear(&err);
    free(g);
}

static void check_error(const char *what, const char *body, const char *phrase)
{
    char src[2048];
    snprintf(src, sizeof src, PRELUDE "%s", body);
    TsError err = TS_ERROR_INIT;
    char *g = graph_of(src, &err);
    if (!ok(!g && err.msg && strstr(err.msg, phrase), "%s: %s", what, phrase))
        diag("got: %s", err.msg ? err.msg : g);
    free(g);
    ts_error_clear(&err);
}

/* How many functions the library's unit holds after compiling qualname. */
static size_t compiled_after(const char *qualname)
{
    TsError err = TS_ERROR_INIT;
    const TsCompUnit *unit = NULL;
    TsFunction *fn = ts_library_function(ops, qualname, (TsSourceRange){ 0 }, &unit, &err);
    if (!fn) {
        diag("%s: %s", qualname, err.msg ? err.msg : "?");
        ts_error_clear(&err);
        return 0;
    }
    return ts_unit_count(unit);
}

/* Whether every operator node of main's graph in src keeps its matched operator (the
 * python printer and the interpreter read it). */
static bool ops_kept(const char *body)
{
    char src[1024];
    snprintf(src, sizeof src, PRELUDE "%s", body);
    TsError err = TS_ERROR_INIT;
    TsSource *s = ts_source_new("test.py", src, strlen(src), &err);
    TsCompUnit *u = s ? ts_compile_source(ops, s, "main", &err) : NULL;
    ts_source_release(s);
    TsFunction *f = u ? ts_unit_find(u, "__torch__.main") : NULL;
    bool kept = f != NULL;
    const TsBlock *b = f ? ts_graph_block(f->graph) : NULL;
    for (const TsNode *n = b ? b->ret->next : NULL; n && n != b->ret; n = n->next)
        if (strncmp(n->kind, "aten::", 6) == 0 && !n->op)
            kept = false;
    ts_unit_free(u);
    ts_error_clear(&err);
    return kept;
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

    /* the library is a file the plugin names, listed by the operator table */
    const char *const *paths;
    size_t n = ts_optable_sources(ops, &paths);
    bool named = false;
    for (size_t i = 0; i < n; i++)
        named |= strstr(paths[i], "torch.nn.functional.py") != NULL;
    ok(named, "aten-cpu ships torch.nn.functional.py as a library file");
    ok(ts_library_defines(ops, "torch.nn.functional.relu", NULL, &err) == 1,
       "the library defines F.relu");
    ok(ts_library_defines(ops, "torch.nn.functional.linear", NULL, &err) == 0,
       "F.linear is the aten builtin, not a library function");
    ok(ts_library_defines(ops, "torch.relu", NULL, &err) == 0, "torch.relu is not in the library");

    /* compiled lazily: relu alone, then mse_loss with its reduction helpers */
    ok(compiled_after("torch.nn.functional.relu") == 1, "calling F.relu compiles relu alone");
    size_t after = compiled_after("torch.nn.functional.mse_loss");
    ok(after == 5, "F.mse_loss compiles itself and its three reduction helpers (%zu)", after);
    ok(compiled_after("torch.nn.functional.relu") == after, "a compiled function is cached");
    ok(!ts_library_function(ops, "torch.nn.functional.no_such", (TsSourceRange){ 0 },
                            &(const TsCompUnit *){ NULL }, &err) &&
       err.msg && strstr(err.msg, "not defined"), "an unknown library name is an error");
    ts_error_clear(&err);

    /* inlined, and decided where the caller's constants decide */
    check_graph("F.relu(x) is aten::relu: the inplace=False branch is gone",
        "def main(x):\n    return F.relu(x)\n",
        "# CHECK-NOT: prim::If\n# CHECK: aten::relu(%x)\n# CHECK-NOT: prim::If\n");
    check_graph("F.relu(x, inplace=True) is aten::relu_",
        "def main(x):\n    return F.relu(x, inplace=True)\n",
        "# CHECK-NOT: prim::If\n# CHECK: aten::relu_(%x)\n");
    check_graph("inplace known at run time: prim::If between relu_ and relu",
        "def main(x, ip: bool):\n    return F.relu(x, inplace=ip)\n",
        "# CHECK: Tensor = prim::If(%ip)\n# CHECK: aten::relu_(%x)\n# CHECK: aten::relu(%x)\n");
    check_graph("reduction='sum' is the constant 2; the helpers are inlined away",
        "def main(x, t):\n    return F.mse_loss(x, t, reduction='sum')\n",
        "# CHECK-NOT: prim::CallFunction\n# CHECK-NOT: prim::If\n"
        "# CHECK: int = prim::Constant[value=2]\n# CHECK: aten::mse_loss(%x, %t, %\n");
    check_graph("legacy reduce=False is 'none' (0)",
        "def main(x, t):\n    return F.nll_loss(x, t, reduce=False)\n",
        "# CHECK-NOT: prim::If\n# CHECK: int = prim::Constant[value=0]\n"
        "# CHECK: aten::nll_loss_nd(%x, %t\n");
    check_graph("reduction=r: prim::If on the string, ValueError for the rest",
        "def main(x, y, r: str):\n    return F.mse_loss(x, y, reduction=r)\n",
        "# CHECK: aten::eq(%r, %\n# CHECK: prim::If(\n"
        "# CHECK: aten::format(\n# CHECK: prim::RaiseException(\n"
        "# CHECK: aten::mse_loss(%x, %y, %\n");
    check_graph("size_average: Optional[bool]: `is None` decides at run time",
        "def main(x, y, sa: Optional[bool]):\n    return F.l1_loss(x, y, size_average=sa)\n",
        "# CHECK: aten::__isnot__(%sa,\n# CHECK: prim::If(\n# CHECK: aten::l1_loss(\n");
    check_graph("F.embedding swaps input and weight; padding_idx None is -1",
        "def main(i, w):\n    return F.embedding(i, w)\n",
        "# CHECK-NOT: prim::If\n# CHECK: int = prim::Constant[value=-1]\n"
        "# CHECK: aten::embedding(%w, %i,\n");
    check_graph("F.embedding padding_idx=-2 counts from the end at run time",
        "def main(i, w):\n    return F.embedding(i, w, padding_idx=-2)\n",
        "# CHECK-NOT: prim::If\n# CHECK: aten::size(%w,\n# CHECK: aten::add(\n"
        "# CHECK: aten::embedding(%w, %i,\n");
    check_graph("F.batch_norm in eval: no check, cudnn_enabled=True",
        "def main(x, m, v):\n    return F.batch_norm(x, m, v)\n",
        "# CHECK-NOT: prim::If\n# CHECK: aten::batch_norm(%x, %\n");
    check_graph("F.softmax without dim: torch's implicit choice from the input's rank",
        "def main(x):\n    return F.softmax(x)\n",
        "# CHECK: aten::dim(%x)\n# CHECK: prim::If(\n# CHECK: aten::softmax(%x, %\n");
    check_graph("two calls inline twice, each with its own values",
        "def main(x, y):\n    return F.relu(x) + F.relu6(y, True)\n",
        "# CHECK: aten::relu(%x)\n# CHECK: aten::relu6_(%y)\n# CHECK: aten::add(\n");
    check_graph("F.linear stays the builtin",
        "def main(x, w):\n    return F.linear(x, w)\n", "# CHECK: aten::linear(%x, %w\n");

    ok(ops_kept("def main(x):\n    return F.gelu(x) + F.mse_loss(x, x)\n"),
       "inlined nodes keep their matched operator");

    /* BroadcastingListN: one int fills the list; defaults broadcast too */
    check_graph("F.max_pool2d(x, 2): kernel [2, 2], stride None the empty list",
        "def main(x):\n    return F.max_pool2d(x, 2)\n",
        "# CHECK: %2 : int = prim::Constant[value=2]\n# CHECK: int[] = prim::ListConstruct(%2, %2)\n"
        "# CHECK: int[] = prim::ListConstruct()\n# CHECK-NOT: prim::If\n"
        "# CHECK: aten::max_pool2d(%x,\n");
    check_graph("F.unfold(x, (2, 3)) passes the tuple as a list, padding 0 as [0, 0]",
        "def main(x):\n    return F.unfold(x, (2, 3))\n",
        "# CHECK: int[] = prim::Constant[value=[0, 0]]\n# CHECK: aten::im2col(%x,\n");
    check_graph("stride known at run time: `is None` decides",
        "from typing import List\n"
        "def main(x, s: Optional[List[int]]):\n    return F.max_pool1d(x, 2, s)\n",
        "# CHECK: aten::__is__(%s.\n# CHECK: prim::If(\n# CHECK: aten::max_pool1d(%x,\n");

    /* boolean dispatch: a constant return_indices picks the function */
    check_graph("return_indices=True is max_pool2d_with_indices",
        "def main(x):\n    return F.max_pool2d(x, 2, return_indices=True)\n",
        "# CHECK: aten::max_pool2d_with_indices(%x,\n# CHECK: prim::TupleConstruct(\n");
    check_graph("return_indices by position (index 2) for adaptive_max_pool1d",
        "def main(x):\n    return F.adaptive_max_pool1d(x, 3, True)\n",
        "# CHECK: aten::adaptive_max_pool1d(%x,\n# CHECK: prim::TupleConstruct(\n");
    check_graph("no return_indices: the values alone",
        "def main(x):\n    return F.adaptive_max_pool2d(x, 3)\n",
        "# CHECK: aten::adaptive_max_pool2d(%x,\n# CHECK-NOT: max_pool2d_with_indices\n");
    check_error("return_indices=flag: a run-time value cannot dispatch",
        "def main(x, ri: bool):\n    return F.max_pool3d(x, 2, return_indices=ri)\n",
        "Keyword argument 'return_indices' for boolean dispatch at position was not constant");
    check_error("return_indices by position must be a constant too",
        "def main(x, ri: bool):\n    return F.adaptive_max_pool2d(x, 2, ri)\n",
        "Argument for boolean dispatch at position 2 was not constant");
    ok(ts_library_defines(ops, "torch.nn.functional.max_pool2d", NULL, &err) == 2,
       "max_pool2d is a boolean dispatch");

    /* bad arguments read as PyTorch's, from the library function's schema */
    check_error("an unknown keyword", "def main(x):\n    return F.relu(x, inplac=True)\n",
                "Keyword argument inplac unknown.");
    check_error("a missing argument", "def main(x):\n    return F.cross_entropy(x)\n",
                "Argument target not provided.");
    check_error("a wrong type", "def main(x):\n    return F.mse_loss(x, x, size_average=3)\n",
                "Expected a value of type 'Optional[bool]' for argument 'size_average'");

    ts_runtime_close(rt);
    return done_testing();
}
