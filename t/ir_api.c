/* ir_api.c — the public IR (tscript/ir.h) as a plugin or an embedder uses it, built with
 * -I include only and linked with libtscript: building a graph and printing it, walking
 * blocks, nodes, values and uses, attributes, rewriting (replace, place, destroy), the text
 * round trip, the graphs of compiled functions, and every refused call (the graph unchanged).
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "tscript/tscript.h"

static char *text(const TsGraph *g)
{
    static char *last;   /* the previous text, freed on the next call (g NULL: only that) */
    free(last);
    last = g ? ts_graph_to_string(g, false) : NULL;
    return last;
}

static TsGraph *parse(const char *s)
{
    TsError err = TS_ERROR_INIT;
    TsGraph *g = ts_graph_parse(s, "test.ir", &err);
    if (!g)
        diag("parse: %s", err.msg);
    ts_error_clear(&err);
    return g;
}

/* Is err set with code and a message containing needle? Clears it. */
static int fails(int rc, TsError *err, int code, const char *needle, const char *what)
{
    int pass = rc != 0 && (int)err->code == code && err->msg && strstr(err->msg, needle);
    ok(pass, "%s", what);
    if (!pass)
        diag("rc %d, code %d (want %d), message '%s'", rc, (int)err->code, code,
             err->msg ? err->msg : "(none)");
    ts_error_clear(err);
    return pass;
}

static void test_build(void)
{
    TsError err = TS_ERROR_INIT;
    TsGraph *g = ts_graph_new(&err);
    TsBlock *top = ts_graph_block(g);
    TsIrValue *x = ts_graph_add_input(g, "x", ts_type_tensor(), &err);
    TsIrValue *n = ts_graph_add_input(g, "n", ts_type_int(), &err);
    TsIrValue *one = ts_constant_insert(top, NULL, ts_int(1), &err);
    TsIrValue *args[3] = { x, x, one };
    TsNode *add = ts_node_create(g, "aten::add", args, 3, &err);
    TsIrValue *sum = add ? ts_node_add_output(add, ts_type_tensor(), &err) : NULL;
    ok(sum && ts_block_append(top, add, &err) == 0 && ts_graph_add_output(g, sum, &err) == 0,
       "a graph built node by node");
    is_str(text(g),
           "graph(%x : Tensor,\n"
           "      %n : int):\n"
           "  %2 : int = prim::Constant[value=1]()\n"
           "  %3 : Tensor = aten::add(%x, %x, %2)\n"
           "  return (%3)\n",
           "prints as tscript graph prints");
    TsBuf b = TS_BUF_INIT;
    ts_graph_print(g, false, &b);
    ok(ts_buf_check(&b, &err) == 0 && strcmp(b.p, text(g)) == 0,
       "ts_graph_print appends the same text to a TsBuf");
    ts_buf_free(&b);
    ok(ts_graph_lint(g, &err) == 0, "it passes the verifier");

    /* traversal */
    TsNode *c = ts_irvalue_node(one);
    ok(ts_graph_num_inputs(g) == 2 && ts_graph_input(g, 1) == n && !ts_graph_input(g, 2) &&
       ts_graph_num_outputs(g) == 1 && ts_graph_output(g, 0) == sum, "inputs and outputs");
    ok(ts_block_first_node(top) == c && ts_node_next(c) == add && !ts_node_next(add) &&
       ts_node_prev(add) == c && !ts_node_prev(c) && ts_block_last_node(top) == add,
       "a block's nodes in order, NULL at both ends");
    is_str(ts_node_kind(add), "aten::add", "a node's kind");
    ok(ts_node_owning_block(add) == top && ts_block_owning_node(top) == NULL &&
       ts_node_graph(add) == g && ts_block_graph(top) == g, "owning block and graph");
    ok(ts_node_num_inputs(add) == 3 && ts_node_input(add, 2) == one && !ts_node_input(add, 3) &&
       ts_node_num_outputs(add) == 1 && ts_node_output(add, 0) == sum &&
       ts_node_num_blocks(add) == 0 && !ts_node_block(add, 0), "a node's inputs and outputs");
    size_t at = 9;
    ok(ts_irvalue_num_uses(x) == 2 && ts_irvalue_use(x, 1, &at) == add && at == 1 &&
       !ts_irvalue_use(x, 2, NULL), "a value's uses, with the input position");
    ok(ts_irvalue_node(sum) == add && ts_irvalue_offset(sum) == 0 &&
       strcmp(ts_node_kind(ts_irvalue_node(x)), "prim::Param") == 0 &&
       ts_irvalue_offset(n) == 1, "a value's producer (prim::Param for a graph input)");
    ok(ts_irvalue_type(n) == ts_type_int(), "a value's type");
    char buf[32];
    is_str(ts_irvalue_debug_name(sum, buf, sizeof buf), "3", "an unnamed value's number");
    ok(ts_node_is_before(c, add) && !ts_node_is_before(add, c), "program order");

    /* constants */
    TsValue v;
    ok(ts_constant_value(c, &v, &err) == 0 && v.tag == TS_TAG_INT && v.u.i == 1,
       "a constant's value");
    fails(ts_constant_value(add, &v, &err), &err, TS_ERR_TYPE, "aten::add is not a prim::Constant",
          "ts_constant_value of another node: TS_ERR_TYPE");
    TsValue s;
    ts_value_str_new("hi", 2, &s, &err);
    TsIrValue *hi = ts_constant_insert(top, add, s, &err);
    ts_value_release(s);
    ok(hi && ts_node_next(ts_irvalue_node(hi)) == add && ts_irvalue_type(hi) == ts_type_str(),
       "a str constant inserted before a node");
    ok(ts_node_destroy(ts_irvalue_node(hi), &err) == 0, "an unused node destroyed");

    /* refused calls leave the graph as it was */
    char *before = strdup(text(g));
    TsGraph *other = ts_graph_new(&err);
    TsIrValue *y = ts_graph_add_input(other, "y", ts_type_tensor(), &err);
    fails(ts_node_create(g, "add", NULL, 0, &err) != NULL ? 0 : -1, &err, TS_ERR_USAGE,
          "'add' is not a node kind", "a kind without a namespace is refused");
    fails(ts_node_create(g, "aten::add", &y, 1, &err) != NULL ? 0 : -1, &err, TS_ERR_USAGE,
          "input 0 of aten::add is not a value of the graph", "an input of another graph");
    fails(ts_node_add_input(add, y, &err), &err, TS_ERR_USAGE, "must be a value of its graph",
          "ts_node_add_input of another graph's value");
    fails(ts_graph_add_output(g, y, &err), &err, TS_ERR_USAGE, "must be a value of its graph",
          "ts_graph_add_output of another graph's value");
    fails(ts_node_set_input(add, 3, x, &err), &err, TS_ERR_USAGE, "aten::add has 3 inputs, not 4",
          "ts_node_set_input past the inputs");
    fails(ts_node_add_output(add, NULL, &err) ? 0 : -1, &err, TS_ERR_USAGE, "needs a type",
          "an output without a type");
    fails(ts_irvalue_replace_uses(x, y, &err), &err, TS_ERR_USAGE, "different graphs",
          "replacing uses across graphs");
    fails(ts_node_place_before(add, add, &err), &err, TS_ERR_USAGE, "next to itself",
          "placing a node next to itself");
    fails(ts_node_place_before(add, ts_irvalue_node(y), &err), &err, TS_ERR_USAGE,
          "different graphs", "placing a node in another graph");
    fails(ts_node_place_before(add, ts_irvalue_node(x), &err), &err, TS_ERR_USAGE,
          "before a block's inputs", "placing a node before a block's inputs");
    fails(ts_node_place_after(ts_irvalue_node(x), add, &err), &err, TS_ERR_USAGE,
          "cannot move", "moving a block's prim::Param");
    fails(ts_node_destroy(c, &err), &err, TS_ERR_RUNTIME, "its value %2 is still used",
          "destroying a node whose value is used");
    fails(ts_irvalue_set_type(sum, NULL, &err), &err, TS_ERR_USAGE, "no type",
          "setting a NULL type");
    fails(ts_constant_insert(top, ts_irvalue_node(y), ts_int(0), &err) ? 0 : -1, &err,
          TS_ERR_USAGE, "not a node of the block", "a constant before a node of another block");
    is_str(text(g), before, "the graph is unchanged by the refused calls");
    free(before);
    ts_graph_free(other);

    /* attributes */
    int64_t i64 = 0;
    double f;
    const char *str;
    ok(ts_attr_get_int(c, "value", &i64, &err) == 0 && i64 == 1, "an int attribute by name");
    ok(ts_node_num_attrs(c) == 1 && strcmp(ts_node_attr_name(c, 0), "value") == 0 &&
       !ts_node_attr_name(c, 1) && ts_attr_kind(c, "value") == TS_ATTR_INT &&
       ts_attr_kind(c, "nope") == -1, "attribute names and kinds");
    fails(ts_attr_get_float(c, "value", &f, &err), &err, TS_ERR_TYPE,
          "attribute 'value' of prim::Constant is of kind int, not float",
          "reading an attribute as another kind: TS_ERR_TYPE");
    fails(ts_attr_get_int(add, "value", &i64, &err), &err, TS_ERR_KEY,
          "aten::add has no attribute 'value'", "reading a missing attribute: TS_ERR_KEY");
    int64_t dims[3] = { 2, -1, 4 };
    const int64_t *got;
    size_t len;
    ok(ts_attr_set_str(add, "tag", "fused", &err) == 0 &&
       ts_attr_get_str(add, "tag", &str, &err) == 0 && strcmp(str, "fused") == 0 &&
       ts_attr_set_float(add, "scale", 0.5, &err) == 0 &&
       ts_attr_get_float(add, "scale", &f, &err) == 0 && f == 0.5 &&
       ts_attr_set_ints(add, "dims", dims, 3, &err) == 0 &&
       ts_attr_get_ints(add, "dims", &got, &len, &err) == 0 && len == 3 && got != dims &&
       got[1] == -1, "attributes written and read back (copied)");
    is_str(text(g) + strlen("graph(%x : Tensor,\n      %n : int):\n  %2 : int = prim::Constant[value=1]()\n"),
           "  %3 : Tensor = aten::add[tag=\"fused\", scale=0.5, dims=[2, -1, 4]](%x, %x, %2)\n"
           "  return (%3)\n", "they print as PyTorch prints attributes");
    ok(ts_attr_set_int(add, "scale", 3, &err) == 0 && ts_attr_kind(add, "scale") == TS_ATTR_INT,
       "writing replaces an attribute of the same name");
    ok(ts_attr_remove(add, "tag", &err) == 0 && ts_attr_remove(add, "scale", &err) == 0 &&
       ts_attr_remove(add, "dims", &err) == 0 && ts_node_num_attrs(add) == 0,
       "attributes removed");
    fails(ts_attr_remove(add, "tag", &err), &err, TS_ERR_KEY, "has no attribute 'tag'",
          "removing a missing attribute: TS_ERR_KEY");
    fails(ts_attr_set_int(add, "", 1, &err), &err, TS_ERR_USAGE, "needs a name",
          "an attribute without a name");
    ts_graph_free(g);
}

static const char folded_src[] =
    "graph(%a : int):\n"
    "  %1 : int = prim::Constant[value=0]()\n"
    "  %2 : int = aten::add(%a, %1)\n"
    "  %3 : int = aten::mul(%2, %2)\n"
    "  return (%3)\n";

static void test_rewrite(void)
{
    TsError err = TS_ERROR_INIT;
    TsGraph *g = parse(folded_src);
    is_str(text(g), folded_src, "the text parses and prints back the same");
    TsGraph *copy = ts_graph_copy(g, &err);
    is_str(text(copy), folded_src, "a copy prints the same");
    TsNode *zero = ts_block_first_node(ts_graph_block(g)), *add = ts_node_next(zero);
    ok(ts_irvalue_replace_uses(ts_node_output(add, 0), ts_graph_input(g, 0), &err) == 0 &&
       ts_node_destroy(add, &err) == 0 && ts_node_destroy(zero, &err) == 0,
       "x + 0 replaced by x, and the dead nodes destroyed");
    is_str(text(g),
           "graph(%a : int):\n"
           "  %3 : int = aten::mul(%a, %a)\n"
           "  return (%3)\n", "the rewritten graph");
    ok(ts_graph_lint(g, &err) == 0, "it passes the verifier");
    is_str(text(copy), folded_src, "the copy is untouched");

    /* moving: a node after the one that uses it is caught by the verifier */
    TsNode *mul = ts_block_first_node(ts_graph_block(copy));
    TsNode *last = ts_block_last_node(ts_graph_block(copy));
    ok(ts_node_place_after(mul, last, &err) == 0 && ts_block_first_node(ts_graph_block(copy)) != mul &&
       ts_block_last_node(ts_graph_block(copy)) == mul, "a node moved to the end");
    fails(ts_graph_lint(copy, &err), &err, TS_ERR_RUNTIME, "before its definition",
          "the verifier names a use before the definition");
    ok(ts_node_place_before(mul, ts_block_first_node(ts_graph_block(copy)), &err) == 0 &&
       strcmp(text(copy), folded_src) == 0, "and moved back to the start");
    ts_graph_free(copy);
    ts_graph_free(g);

    /* nested blocks */
    static const char loop_src[] =
        "graph(%n : int):\n"
        "  %1 : bool = prim::Constant[value=1]()\n"
        "  %2 : int = prim::Constant[value=0]()\n"
        "  %s : int = prim::Loop(%n, %1, %2)\n"
        "    block0(%i : int, %acc : int):\n"
        "      %5 : int = aten::add(%acc, %i)\n"
        "      -> (%1, %5)\n"
        "  return (%s)\n";
    g = parse(loop_src);
    TsNode *loop = g ? ts_block_last_node(ts_graph_block(g)) : NULL;
    TsBlock *body = loop ? ts_node_block(loop, 0) : NULL;
    ok(body && ts_node_num_blocks(loop) == 1 && ts_block_owning_node(body) == loop &&
       ts_block_num_inputs(body) == 2 && ts_block_num_outputs(body) == 2 &&
       ts_block_output(body, 1) == ts_node_output(ts_block_first_node(body), 0) &&
       ts_irvalue_node(ts_block_input(body, 0)) != loop, "a loop's body: inputs, nodes, outputs");
    size_t at = 0;
    TsIrValue *sum = body ? ts_block_output(body, 1) : NULL;
    TsNode *ret = sum ? ts_irvalue_use(sum, 0, &at) : NULL;
    ok(ret && strcmp(ts_node_kind(ret), "prim::Return") == 0 && at == 1,
       "a block output is a use by the block's prim::Return");
    TsNode *inner = body ? ts_block_first_node(body) : NULL;
    fails(ts_node_place_after(loop, inner, &err), &err, TS_ERR_USAGE, "into its own blocks",
          "a node cannot move into its own block");
    fails(ts_node_destroy(inner, &err), &err, TS_ERR_RUNTIME, "still used",
          "a node whose value a block yields is not destroyed");
    fails(ts_node_place_after(inner, ret, &err), &err, TS_ERR_USAGE,
          "nothing goes after a block's return", "nothing goes after a block's return");
    ok(ts_node_place_before(inner, ret, &err) == 0 && ts_graph_lint(g, &err) == 0 &&
       strcmp(text(g), loop_src) == 0, "a node placed before the return: the block's end");
    ts_graph_free(g);

    /* parse errors */
    TsGraph *bad = ts_graph_parse("graph(%a : int):\n  return (%b)\n", "bad.ir", &err);
    ok(!bad && err.code == TS_ERR_SYNTAX && err.msg && strstr(err.msg, "bad.ir:2:") &&
       strstr(err.msg, "%b"), "a parse error names the file, line and value");
    if (err.msg)
        diag("%s", err.msg);
    ts_error_clear(&err);
}

/* The graphs of compiled functions, and a pass plugin's rewrite seen through them. */
static void test_functions(void)
{
    static const char src[] =
        "import torch\n"
        "def f(x: torch.Tensor, y: torch.Tensor):\n"
        "    return torch.relu(x + y)\n";
    TsError err = TS_ERROR_INIT;
    TsRuntime *rt = ts_runtime_open(NULL, &err);
    TsScript *s = rt ? ts_script_compile(rt, "f.py", src, sizeof src - 1, &err) : NULL;
    TsMethod *m = s ? ts_script_find_function(s, "f", &err) : NULL;
    ok(m && ts_method_graph(m) == ts_script_function_graph(s, 0) &&
       !ts_script_function_graph(s, 1), "a function's graph, from the script and the method");
    like(m ? text(ts_method_graph(m)) : NULL, "aten::relu(", "without passes: aten::relu");
    ts_method_free(m);
    ts_script_free(s);
    ts_runtime_close(rt);
    ts_error_clear(&err);

    char settings[1024];
    snprintf(settings, sizeof settings,
             "plugins: [prim, aten-cpu, %s/t/plugins/passdemo/.libs/passdemo.so]\n",
             TS_TEST_BUILDDIR);
    rt = ts_runtime_open_settings(settings, strlen(settings), &err);
    s = rt ? ts_script_compile(rt, "f.py", src, sizeof src - 1, &err) : NULL;
    m = s ? ts_script_find_function(s, "f", &err) : NULL;
    if (!m)
        diag("%s", err.msg ? err.msg : "?");
    const char *t = m ? text(ts_method_graph(m)) : NULL;
    ok(t && strstr(t, "= passdemo::add_relu(%x, %y, ") && !strstr(t, "aten::relu"),
       "with the passdemo plugin the graph holds its fused node");
    float xa[4] = { -2, -1, 1, 2 }, ya[4] = { 0.5f, 0.5f, 0.5f, 0.5f };
    int64_t sizes[1] = { 4 };
    TsValue args[2] = {
        ts_tensor_value(ts_tensor_from_copy(xa, TS_FLOAT32, 1, sizes, &err)),
        ts_tensor_value(ts_tensor_from_copy(ya, TS_FLOAT32, 1, sizes, &err)),
    };
    TsValue out = ts_none();
    TsTensor *r = NULL;
    ok(m && ts_method_call(m, args, 2, &out, &err) == 0 && ts_value_to_tensor(out, &r, &err) == 0 &&
       ((float *)ts_tensor_data(r))[0] == 0 && ((float *)ts_tensor_data(r))[1] == 0 &&
       ((float *)ts_tensor_data(r))[2] == 1.5f && ((float *)ts_tensor_data(r))[3] == 2.5f,
       "and runs it: relu(x + y)");
    ts_value_release(args[0]);
    ts_value_release(args[1]);
    ts_value_release(out);
    ts_method_free(m);
    ts_script_free(s);
    ts_runtime_close(rt);
    ts_error_clear(&err);
}

int main(void)
{
    test_build();
    test_rewrite();
    test_functions();
    text(NULL);
    return done_testing();
}
