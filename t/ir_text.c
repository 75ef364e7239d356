/* ir_text.t — the IR's text form: every graph the JIT overview prints, and graphs PyTorch
 * 1.13 printed for scripted functions, parse and print back identically; the printer's
 * spelling of attributes; and malformed text is reported with line:col and a marker.
 *
 * The overview's graphs are in t/data/ir/overview_*.ir and lstm_*.ir. Three fixes to its
 * text: the if example's stray "}" line is dropped; the fusion example's "return (%30);"
 * loses its ";", and the blank line before its "with prim::FusionGroup_0 = graph(" goes
 * (PyTorch prints "with" right after "return", as the DifferentiableGraph example shows);
 * the with-statement fragments are wrapped in a graph header with their free values as
 * inputs. The interpreter's LSTM graph is the same text as lstm_unoptimized.ir, and the
 * "derivative preserving" one the same as lstm_inferred.ir, so each is stored once.
 * real_*.ir were printed by PyTorch 1.13 (torch.jit.script(f).graph); real_*.src.ir are the
 * same with PyTorch's "# file:line:col" comments, which the parser skips.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "tap.h"

static char *slurp(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/t/data/ir/%s", TS_TEST_SRCDIR, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s)
        s[n] = '\0';
    fclose(f);
    return s;
}

/* Parses text, prints it, and compares with want (text itself when want is NULL). */
static void round_trip(const char *label, const char *text, const char *want)
{
    TsError err = TS_ERROR_INIT;
    TsGraph *g = ts_graph_parse(text, label, &err);
    if (!ok(g != NULL, "%s parses", label)) {
        diag("%s", err.msg ? err.msg : "(no message)");
        ts_error_clear(&err);
        return;
    }
    char *out = ts_graph_to_string(g, false);
    is_str(out, want ? want : text, "%s prints back identically", label);
    free(out);
    TsGraph *c = ts_graph_copy(g, &err);
    out = c ? ts_graph_to_string(c, false) : NULL;
    is_str(out, want ? want : text, "%s: its copy prints the same", label);
    free(out);
    ts_graph_free(c);
    ts_graph_free(g);
}

static void file_round_trip(const char *name, const char *want_name)
{
    char *text = slurp(name), *want = want_name ? slurp(want_name) : NULL;
    if (!ok(text && (!want_name || want), "read %s", name))
        return;
    round_trip(name, text, want);
    free(text);
    free(want);
}

static void test_files(void)
{
    static const char *const files[] = {
        "overview_f.ir", "overview_if.ir", "overview_loop.ir", "overview_with_enter_exit.ir",
        "overview_with_block.ir", "overview_module.ir", "lstm_unoptimized.ir",
        "lstm_specialized.ir", "lstm_inferred.ir", "lstm_fused.ir", "lstm_differentiable.ir",
        "real_loop_sum.ir", "real_while_list.ir", "real_dicts_and_opts.ir", "real_nested.ir",
        "real_diffgraph.ir",
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        file_round_trip(files[i], NULL);
    file_round_trip("real_loop_sum.src.ir", "real_loop_sum.ir");
    file_round_trip("real_nested.src.ir", "real_nested.ir");
}

static void test_structure(void)
{
    TsError err = TS_ERROR_INIT;
    char *text = slurp("overview_loop.ir");
    TsGraph *g = text ? ts_graph_parse(text, "loop.ir", &err) : NULL;
    free(text);
    if (!ok(g != NULL, "loop example parses"))
        return;
    TsBlock *top = ts_graph_block(g);
    TsNode *loop = top->ret->prev;
    is_str(loop->kind, "prim::Loop", "the last node is the loop");
    is_int((long long)loop->n_inputs, 3, "loop: max trip count, condition, one carried value");
    is_int((long long)loop->n_blocks, 1, "loop has one body");
    TsBlock *body = loop->blocks[0];
    is_int((long long)body->param->n_outputs, 2, "body inputs: %%i and the carried value");
    is_str(body->param->outputs[0]->name, "i", "body's first input is %%i");
    is_int((long long)body->ret->n_inputs, 2, "body outputs: condition and the carried value");
    ok(body->ret->inputs[0] == top->ret->next->outputs[0], "the condition is the outer %%3");
    ok(ts_type_kind(loop->outputs[0]->type) == TS_TYPE_TENSOR, "Dynamic parses as Tensor");
    is_int((long long)top->ret->next->outputs[0]->n_uses, 2, "%%3 is used twice");
    const TsAttr *a = ts_node_attr(top->ret->next, ts_symbol("attr::value"));
    ok(a && a->kind == TS_ATTR_INT && a->u.i == 1, "constant's attr::value is int 1");
    ok(loop->range.source != NULL, "nodes point into the text");
    char *with_src = ts_graph_to_string(g, true);
    like(with_src, "prim::Loop(%2, %3, %z.1) # loop.ir:5:3\n", "source comments: file:line:col");
    free(with_src);
    ts_graph_free(g);

    text = slurp("lstm_fused.ir");
    g = text ? ts_graph_parse(text, "fused.ir", &err) : NULL;
    free(text);
    TsNode *fg = NULL;
    for (TsNode *n = g ? ts_graph_block(g)->ret->next : NULL; n && n != ts_graph_block(g)->ret;
         n = n->next)
        if (n->kind == ts_symbol("prim::FusionGroup"))
            fg = n;
    ok(fg != NULL, "prim::FusionGroup_0 is a prim::FusionGroup node");
    a = fg ? ts_node_attr(fg, ts_symbol("attr::Subgraph")) : NULL;
    ok(a && a->kind == TS_ATTR_GRAPH, "with its graph in attr::Subgraph");
    ts_graph_free(g);
}

static void test_attrs(void)
{
    const char *text =
        "graph(%x : Tensor):\n"
        "  %a : int = foo::bar[i=-12, f=0.10000000000000001, w=1., e=1e+30, t=9.9999999999999995e-08, "
        "n=-0., s=\"a\\\"b\\n\\t\\001'\", is=[1, -2], fs=[1., 2.5], ss=[\"x\", \"y\"], em=[], "
        "c=3.+2.j, k={1}, kf={2.5}](%x)\n"
        "  return (%a)\n";
    const char *want =
        "graph(%x : Tensor):\n"
        "  %a : int = foo::bar[i=-12, f=0.10000000000000001, w=1., e=1e+30, t=9.9999999999999995e-08, "
        "n=-0., s=\"a\\\"b\\n\\t\\001\\'\", is=[1, -2], fs=[1., 2.5], ss=[\"x\", \"y\"], em=[], "
        "c=3.+2.j, k={1}, kf={2.5}](%x)\n"
        "  return (%a)\n";
    round_trip("attributes", text, want);

    round_trip("types",
               "graph(%a : int[],\n"
               "      %b : Tensor[],\n"
               "      %c : Dict(str, int),\n"
               "      %d : (int, Tensor),\n"
               "      %e : int?,\n"
               "      %f : Float(*, *),\n"
               "      %g : Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu),\n"
               "      %h : NoneType,\n"
               "      %i : Any,\n"
               "      %j : Device,\n"
               "      %k : str,\n"
               "      %l : float,\n"
               "      %m : bool,\n"
               "      %n : Union(int, str),\n"
               "      %o : Future[int],\n"
               "      %p : Dict(str, Tensor[])?):\n"
               "  return ()\n",
               NULL);
    round_trip("numbers stay as written",
               "graph(%25 : int):\n"
               "  %7 : int = aten::neg(%25)\n"
               "  %3 : int = aten::neg(%7)\n"
               "  return (%3, %7)\n",
               NULL);
    round_trip("no outputs, unknown operators",
               "graph():\n"
               "   = my::side_effect[name=\"x\"]()\n"
               "  %t : Tensor = vendor::FancyOp_3()\n"
               "  return (%t)\n",
               NULL);
}

static void expect_error(const char *label, const char *text, const char *where, const char *what)
{
    TsError err = TS_ERROR_INIT;
    TsGraph *g = ts_graph_parse(text, "bad.ir", &err);
    ok(g == NULL && err.code == TS_ERR_SYNTAX, "%s: refused", label);
    like(err.msg, where, "%s: says where (%s)", label, where);
    like(err.msg, what, "%s: says what", label);
    like(err.msg, "<--- HERE", "%s: shows the line with a marker", label);
    ts_graph_free(g);
    ts_error_clear(&err);
}

/* A tensor of known dtype and unknown rank prints as "IntTensor", which must read back
 * (ir_fuzz found "Int" printing as a word the parser refused). */
static void test_unranked(void)
{
    round_trip("unranked", "graph(%x : IntTensor,\n"
               "      %y : FloatTensor(requires_grad=0, device=cpu)):\n"
               "  return (%x, %y)\n", NULL);
    round_trip("ranked", "graph(%x : Int(),\n"
               "      %y : Float(2, *, requires_grad=1)):\n"
               "  return (%x, %y)\n", NULL);
}

static void test_errors(void)
{
    expect_error("undefined value", "graph(%x : int):\n  %y : int = aten::neg(%q)\n  return (%y)\n",
                 "bad.ir:2:24:", "undefined value '%q'");
    expect_error("defined twice", "graph(%x : int):\n  %x : int = aten::neg(%x)\n  return (%x)\n",
                 "bad.ir:2:3:", "defined twice");
    expect_error("unknown type", "graph(%x : Blob):\n  return (%x)\n", "bad.ir:1:12:",
                 "unknown type 'Blob'");
    expect_error("missing paren", "graph(%x : int:\n  return (%x)\n", "bad.ir:1:15:",
                 "expected ')' but found ':'");
    expect_error("stray brace", "graph(%x : int):\n  %y : int = aten::neg(%x)\n  }\n  return (%y)\n",
                 "bad.ir:3:3:", "expected a node or 'return' but found '}'");
    expect_error("missing kind", "graph():\n  %y : int = (%x)\n  return (%y)\n", "bad.ir:2:14:",
                 "expected an operator");
    expect_error("trailing text", "graph():\n  return ();\n", "bad.ir:2:12:",
                 "expected end of input but found ';'");
    expect_error("unterminated string", "graph():\n   = a::b[s=\"abc]()\n  return ()\n",
                 "bad.ir:2:13:", "unterminated string");
    expect_error("bad block number", "graph(%c : bool):\n   = prim::If(%c)\n    block1():\n      -> ()\n  return ()\n",
                 "bad.ir:3:5:", "expected block0");
    expect_error("truncated", "graph(%c : bool):\n   = prim::If(%c)\n    block0():\n", "bad.ir:4:1:",
                 "found end of input");
    expect_error("mixed spellings", "graph(%a : Dynamic, %b : Tensor):\n  return ()\n",
                 "bad.ir:1:26:", "not both");
    expect_error("huge int", "graph():\n   = a::b[v=99999999999999999999]()\n  return ()\n",
                 "bad.ir:2:13:", "integer out of range");
    /* As in PyTorch, a dtype name starts a refinement; "IntTensor" (unknown rank) has none
     * of sizes or strides. */
    expect_error("bare dtype", "graph(%x : Int):\n  return (%x)\n", "bad.ir:1:15:",
                 "expected '(' but found ')'");
    expect_error("unranked sizes", "graph(%x : IntTensor(2)):\n  return (%x)\n",
                 "bad.ir:1:23:", "unknown rank has no sizes");

    /* Deep nesting is refused, not a stack overflow. */
    size_t depth = 5000;
    char *deep = malloc(depth * 2 + 64);
    strcpy(deep, "graph(%x : ");
    for (size_t i = 0; i < depth; i++)
        strcat(deep, "(");
    TsError err = TS_ERROR_INIT;
    TsGraph *g = ts_graph_parse(deep, NULL, &err);
    ok(g == NULL && err.code == TS_ERR_LIMIT, "deeply nested types are refused with a limit error");
    ts_error_clear(&err);
    free(deep);
}

int main(void)
{
    test_files();
    test_structure();
    test_attrs();
    test_unranked();
    test_errors();
    ts_types_shutdown();
    ts_symbols_shutdown();
    return done_testing();
}
