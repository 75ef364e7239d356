/* ir_match.t — schema matching and ts_graph_insert_op against real PyTorch 1.13 schemas
 * (t/data/match/ops.yaml): overload choice by type, keywords, defaults as constants,
 * kwarg-only arguments, type variables and their conflicts, the implicit conversions of
 * both passes, varargs, every error message in PyTorch's words, rollback of a failed
 * match, and the LSTM cell graph of the JIT overview built call by call.
 */
#include <stdlib.h>
#include <string.h>

#include "ir/match.h"
#include "registry/yaml_schemas.h"
#include "frontend/source.h"
#include "tap.h"

static TsError err = TS_ERROR_INIT;
static TsOpTable *table;

#define ARGS(...) (sizeof((TsNamedValue[]){__VA_ARGS__}) / sizeof(TsNamedValue)), \
                  ((TsNamedValue[]){__VA_ARGS__})
#define NOARGS 0, NULL

static TsNamedValue P(TsIrValue *v) { TsNamedValue a = { NULL, v, {0} }; return a; }
static TsNamedValue K(const char *name, TsIrValue *v)
{
    TsNamedValue a = { name, v, {0} };
    return a;
}

static const TsSourceRange no_range = {0};

static TsNode *call(TsGraph *g, const char *name, size_t n, const TsNamedValue *args)
{
    ts_error_clear(&err);
    return ts_graph_insert_op(g, table, name, n, args, no_range, &err);
}

/* The overload the node's operator is ("" for the default), or "(none)". */
static const char *overload_of(const TsNode *n)
{
    const TsOperator *op = n ? n->op : NULL;
    return op ? op->schema->overload : "(none)";
}

static void check_graph(const TsGraph *g, const char *want, const char *label)
{
    char *s = ts_graph_to_string(g, false);
    is_str(s, want, "%s", label);
    free(s);
    TsError e = TS_ERROR_INIT;
    is_int(ts_graph_lint(g, &e), 0, "%s: lint%s%s", label, e.msg ? ": " : "", e.msg ? e.msg : "");
    ts_error_clear(&e);
}

static TsIrValue *constant(TsGraph *g, TsValue v)
{
    return ts_graph_insert_constant(g, v, no_range, &err);
}

static void load_table(void)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/t/data/match/ops.yaml", TS_TEST_SRCDIR);
    TsSchemaSet set;
    is_int(ts_yaml_schemas_load(path, &set, &err), 0, "load the test schemas%s%s",
           err.msg ? ": " : "", err.msg ? err.msg : "");
    table = ts_optable_new(&err);
    for (size_t i = 0; i < set.n; i++) {
        char where[64];
        snprintf(where, sizeof where, "ops.yaml:%d:%d", set.decls[i].line, set.decls[i].col);
        if (ts_optable_add(table, set.decls[i].schema, "test", where, &err) == 0)
            set.decls[i].schema = NULL;
        else
            diag("%s", err.msg);
    }
    ok(ts_optable_size(table) == set.n, "every schema is in the table");
    ts_schema_set_free(&set);
}

/* ---- the LSTM cell of the overview ("Graph Executor"), exactly ------------------ */
static const char lstm_text[] =
    "graph(%x : Tensor,\n"
    "      %hx : Tensor,\n"
    "      %cx : Tensor,\n"
    "      %w_ih : Tensor,\n"
    "      %w_hh : Tensor,\n"
    "      %b_ih : Tensor,\n"
    "      %b_hh : Tensor):\n"
    "  %7 : int = prim::Constant[value=4]()\n"
    "  %8 : int = prim::Constant[value=1]()\n"
    "  %9 : Tensor = aten::t(%w_ih)\n"
    "  %10 : Tensor = aten::mm(%x, %9)\n"
    "  %11 : Tensor = aten::t(%w_hh)\n"
    "  %12 : Tensor = aten::mm(%hx, %11)\n"
    "  %13 : Tensor = aten::add(%10, %12, %8)\n"
    "  %14 : Tensor = aten::add(%13, %b_ih, %8)\n"
    "  %gates : Tensor = aten::add(%14, %b_hh, %8)\n"
    "  %16 : Tensor[] = aten::chunk(%gates, %7, %8)\n"
    "  %ingate.1 : Tensor, %forgetgate.1 : Tensor, %cellgate.1 : Tensor, %outgate.1 : Tensor"
    " = prim::ListUnpack(%16)\n"
    "  %ingate : Tensor = aten::sigmoid(%ingate.1)\n"
    "  %forgetgate : Tensor = aten::sigmoid(%forgetgate.1)\n"
    "  %cellgate : Tensor = aten::tanh(%cellgate.1)\n"
    "  %outgate : Tensor = aten::sigmoid(%outgate.1)\n"
    "  %25 : Tensor = aten::mul(%forgetgate, %cx)\n"
    "  %26 : Tensor = aten::mul(%ingate, %cellgate)\n"
    "  %cy : Tensor = aten::add(%25, %26, %8)\n"
    "  %28 : Tensor = aten::tanh(%cy)\n"
    "  %hy : Tensor = aten::mul(%outgate, %28)\n"
    "  %30 : (Tensor, Tensor) = prim::TupleConstruct(%hy, %cy)\n"
    "  return (%30)\n";

static TsIrValue *out0(TsNode *n) { return n ? n->outputs[0] : NULL; }

/* A binary call's output, named when name is set. */
static TsIrValue *op2(TsGraph *g, const char *kind, TsIrValue *a, TsIrValue *b,
                      const char *name)
{
    TsIrValue *v = out0(call(g, kind, ARGS(P(a), P(b))));
    if (v && name)
        ts_irvalue_set_name(v, name, false, &err);
    return v;
}

static TsIrValue *op1(TsGraph *g, const char *kind, TsIrValue *a, const char *name)
{
    TsIrValue *v = out0(call(g, kind, ARGS(P(a))));
    if (v && name)
        ts_irvalue_set_name(v, name, false, &err);
    return v;
}

static TsIrValue *add_alpha(TsGraph *g, TsIrValue *a, TsIrValue *b, TsIrValue *alpha,
                            const char *name)
{
    TsNode *n = call(g, "aten::add", ARGS(P(a), P(b), K("alpha", alpha)));
    is_str(overload_of(n), "Tensor", "Tensor + Tensor with alpha is add.Tensor");
    if (n && name)
        ts_irvalue_set_name(n->outputs[0], name, false, &err);
    return out0(n);
}

static void test_lstm(void)
{
    TsGraph *g = ts_graph_new(&err);
    const TsType *T = ts_type_tensor();
    TsIrValue *x = ts_graph_add_input(g, "x", T, &err);
    TsIrValue *hx = ts_graph_add_input(g, "hx", T, &err);
    TsIrValue *cx = ts_graph_add_input(g, "cx", T, &err);
    TsIrValue *w_ih = ts_graph_add_input(g, "w_ih", T, &err);
    TsIrValue *w_hh = ts_graph_add_input(g, "w_hh", T, &err);
    TsIrValue *b_ih = ts_graph_add_input(g, "b_ih", T, &err);
    TsIrValue *b_hh = ts_graph_add_input(g, "b_hh", T, &err);
    TsIrValue *four = constant(g, ts_int(4));
    TsIrValue *one = constant(g, ts_int(1));

    TsIrValue *v10 = op2(g, "aten::mm", x, op1(g, "aten::t", w_ih, NULL), NULL);
    TsIrValue *v12 = op2(g, "aten::mm", hx, op1(g, "aten::t", w_hh, NULL), NULL);
    TsIrValue *v13 = add_alpha(g, v10, v12, one, NULL);
    TsIrValue *v14 = add_alpha(g, v13, b_ih, one, NULL);
    TsIrValue *gates = add_alpha(g, v14, b_hh, one, "gates");
    TsNode *chunk = call(g, "aten::chunk", ARGS(P(gates), P(four), P(one)));
    ok(chunk && chunk->n_outputs == 1 &&
       chunk->outputs[0]->type == ts_type_list(T), "aten::chunk returns Tensor[]");

    TsNode *unpack = ts_graph_create(g, ts_symbol("prim::ListUnpack"), 4, &err);
    ts_node_add_input(unpack, out0(chunk), &err);
    ts_graph_insert(g, unpack);
    const char *gate_names[4] = { "ingate", "forgetgate", "cellgate", "outgate" };
    for (int i = 0; i < 4; i++)
        ts_irvalue_set_name(unpack->outputs[i], gate_names[i], false, &err);

    /* Renaming: each new holder of "ingate" pushes the unpacked one to "ingate.1". */
    TsIrValue *ingate = op1(g, "aten::sigmoid", unpack->outputs[0], "ingate");
    TsIrValue *forgetgate = op1(g, "aten::sigmoid", unpack->outputs[1], "forgetgate");
    TsIrValue *cellgate = op1(g, "aten::tanh", unpack->outputs[2], "cellgate");
    TsIrValue *outgate = op1(g, "aten::sigmoid", unpack->outputs[3], "outgate");
    TsIrValue *v25 = op2(g, "aten::mul", forgetgate, cx, NULL);
    TsIrValue *v26 = op2(g, "aten::mul", ingate, cellgate, NULL);
    TsIrValue *cy = add_alpha(g, v25, v26, one, "cy");
    TsIrValue *hy = op2(g, "aten::mul", outgate, op1(g, "aten::tanh", cy, NULL), "hy");

    TsNode *tup = ts_graph_create(g, ts_symbol("prim::TupleConstruct"), 1, &err);
    ts_node_add_input(tup, hy, &err);
    ts_node_add_input(tup, cy, &err);
    const TsType *pair[2] = { T, T };
    tup->outputs[0]->type = ts_type_tuple(2, pair);
    ts_graph_insert(g, tup);
    ts_graph_add_output(g, tup->outputs[0], &err);

    check_graph(g, lstm_text, "the LSTM cell, as the overview prints it");
    TsError e = TS_ERROR_INIT;
    TsGraph *parsed = ts_graph_parse(lstm_text, "lstm", &e);
    char *a = parsed ? ts_graph_to_string(parsed, false) : NULL;
    is_str(a, lstm_text, "the overview's text parses to the same graph");
    free(a);
    ts_graph_free(parsed);
    ts_error_clear(&e);
    ts_graph_free(g);
}

/* ---- overloads ------------------------------------------------------------------- */
static void test_overloads(void)
{
    TsGraph *g = ts_graph_new(&err);
    TsIrValue *x = ts_graph_add_input(g, "x", ts_type_tensor(), &err);
    TsIrValue *y = ts_graph_add_input(g, "y", ts_type_tensor(), &err);
    TsIrValue *i = ts_graph_add_input(g, "i", ts_type_int(), &err);
    TsIrValue *f = ts_graph_add_input(g, "f", ts_type_float(), &err);
    TsIrValue *s = ts_graph_add_input(g, "s", ts_type_str(), &err);
    TsIrValue *l = ts_graph_add_input(g, "l", ts_type_list(ts_type_int()), &err);

    TsNode *n = call(g, "aten::add", ARGS(P(i), P(i)));
    is_str(overload_of(n), "int", "int + int is add.int");
    ok(n && n->outputs[0]->type == ts_type_int(), "returning int");
    n = call(g, "aten::add", ARGS(P(f), P(i)));
    is_str(overload_of(n), "float_int", "float + int is add.float_int");
    ok(n && n->outputs[0]->type == ts_type_float(), "returning float");
    is_str(overload_of(call(g, "aten::add", ARGS(P(s), P(s)))), "str", "str + str is add.str");
    n = call(g, "aten::add", ARGS(P(l), P(l)));
    is_str(overload_of(n), "t", "int[] + int[] is add.t");
    ok(n && n->outputs[0]->type == ts_type_list(ts_type_int()), "returning int[] (t bound)");
    n = call(g, "aten::add", ARGS(P(x), P(y)));
    is_str(overload_of(n), "Tensor", "Tensor + Tensor is add.Tensor");
    ok(n && n->n_inputs == 3 && n->inputs[2]->node->kind == ts_symbol("prim::Constant"),
       "alpha's default is a constant input");
    n = call(g, "aten::add", ARGS(P(x), P(i)));
    is_str(overload_of(n), "Scalar", "Tensor + int is add.Scalar");
    n = call(g, "aten::add", ARGS(P(x), P(f), K("alpha", f)));
    is_str(overload_of(n), "Scalar", "Tensor + float, alpha=float is add.Scalar");
    n = call(g, "aten::mul", ARGS(P(f), P(i)));
    is_str(overload_of(n), "float_int", "float * int is mul.float_int (no int->float)");
    ts_graph_free(g);

    /* The printed graph: constants for defaults, the kind without overload. */
    g = ts_graph_new(&err);
    x = ts_graph_add_input(g, "x", ts_type_tensor(), &err);
    y = ts_graph_add_input(g, "y", ts_type_tensor(), &err);
    ts_graph_add_output(g, out0(call(g, "aten::add", ARGS(P(x), P(y)))), &err);
    check_graph(g,
                "graph(%x : Tensor,\n"
                "      %y : Tensor):\n"
                "  %2 : int = prim::Constant[value=1]()\n"
                "  %3 : Tensor = aten::add(%x, %y, %2)\n"
                "  return (%3)\n", "add.Tensor with alpha's default");
    ts_graph_free(g);
}

/* ---- keywords, defaults, kwarg-only ------------------------------------------------- */
static void test_keywords(void)
{
    TsGraph *g = ts_graph_new(&err);
    TsIrValue *x = ts_graph_add_input(g, "x", ts_type_tensor(), &err);
    TsIrValue *y = ts_graph_add_input(g, "y", ts_type_tensor(), &err);
    TsIrValue *i = ts_graph_add_input(g, "i", ts_type_int(), &err);

    TsNode *n = call(g, "aten::mm", ARGS(K("mat2", y), K("self", x)));
    ok(n && n->inputs[0] == x && n->inputs[1] == y, "keywords fill arguments by name");
    is_str(overload_of(n), "", "aten::mm");
    n = call(g, "aten::mm", ARGS(K("input", x), K("mat2", y)));
    ok(n && n->inputs[0] == x, "in aten, 'input' names 'self'");
    n = call(g, "aten::chunk", ARGS(P(x), K("chunks", i)));
    ok(n && n->n_inputs == 3 && n->inputs[2]->node->kind == ts_symbol("prim::Constant"),
       "a default after a keyword argument");
    n = call(g, "aten::sigmoid", ARGS(P(x), K("out", y)));
    is_str(overload_of(n), "out", "a kwarg-only argument by keyword");

    /* kwarg-only arguments refuse positionals; with conversions, alpha=Tensor goes
     * through aten::ScalarImplicit into add.Scalar, as in PyTorch. */
    n = call(g, "aten::add", ARGS(P(x), P(y), P(x)));
    is_str(overload_of(n), "Scalar", "add(x, y, x): add.Tensor's alpha is kwarg-only");
    ok(n && n->inputs[1]->node->kind == ts_symbol("aten::ScalarImplicit"),
       "the Tensor became a Scalar by aten::ScalarImplicit");
    ok(n && n->inputs[1]->node->op != NULL, "which has its operator");
    ts_graph_free(g);
}

/* ---- errors -------------------------------------------------------------------------- */
static const char add_str_int[] =
    "Arguments for call are not valid.\n"
    "The following variants are available:\n"
    "  \n"
    "  aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor:\n"
    "  Expected a value of type 'Tensor' for argument 'self' but instead found type 'str'.\n"
    "  \n"
    "  aten::add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor:\n"
    "  Expected a value of type 'Tensor' for argument 'self' but instead found type 'str'.\n"
    "  \n"
    "  aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!):\n"
    "  Expected a value of type 'Tensor' for argument 'self' but instead found type 'str'.\n"
    "  \n"
    "  aten::add.Scalar_out(Tensor self, Scalar other, Scalar alpha=1, *, Tensor(a!) out) -> Tensor(a!):\n"
    "  Expected a value of type 'Tensor' for argument 'self' but instead found type 'str'.\n"
    "  \n"
    "  aten::add.t(t[] a, t[] b) -> t[]:\n"
    "  Could not match type str to List[t] in argument 'a': Cannot match List[t] to str.\n"
    "  \n"
    "  aten::add.str(str a, str b) -> str:\n"
    "  Expected a value of type 'str' for argument 'b' but instead found type 'int'.\n"
    "  \n"
    "  aten::add.int(int a, int b) -> int:\n"
    "  Expected a value of type 'int' for argument 'a' but instead found type 'str'.\n"
    "  \n"
    "  aten::add.complex(complex a, complex b) -> complex:\n"
    "  Expected a value of type 'complex' for argument 'a' but instead found type 'str'.\n"
    "  \n"
    "  aten::add.float(float a, float b) -> float:\n"
    "  Expected a value of type 'float' for argument 'a' but instead found type 'str'.\n"
    "  \n"
    "  aten::add.int_complex(int a, complex b) -> complex:\n"
    "  Expected a value of type 'int' for argument 'a' but instead found type 'str'.\n"
    "  \n"
    "  aten::add.complex_int(complex a, int b) -> complex:\n"
    "  Expected a value of type 'complex' for argument 'a' but instead found type 'str'.\n"
    "  \n"
    "  aten::add.float_complex(float a, complex b) -> complex:\n"
    "  Expected a value of type 'float' for argument 'a' but instead found type 'str'.\n"
    "  \n"
    "  aten::add.complex_float(complex a, float b) -> complex:\n"
    "  Expected a value of type 'complex' for argument 'a' but instead found type 'str'.\n"
    "  \n"
    "  aten::add.int_float(int a, float b) -> float:\n"
    "  Expected a value of type 'int' for argument 'a' but instead found type 'str'.\n"
    "  \n"
    "  aten::add.float_int(float a, int b) -> float:\n"
    "  Expected a value of type 'float' for argument 'a' but instead found type 'str'.\n"
    "  \n"
    "  aten::add(Scalar a, Scalar b) -> Scalar:\n"
    "  Expected a value of type 'number' for argument 'a' but instead found type 'str'.\n";

static void check_error(TsGraph *g, const char *name, size_t n, const TsNamedValue *args,
                        const char *want, const char *label)
{
    char *before = ts_graph_to_string(g, false);
    TsNode *node = call(g, name, n, args);
    ok(node == NULL, "%s: refused", label);
    is_int(err.code, TS_ERR_RUNTIME, "%s: a RuntimeError", label);
    is_str(err.msg, want, "%s: the message", label);
    char *after = ts_graph_to_string(g, false);
    is_str(after, before, "%s: the graph is unchanged", label);
    free(before);
    free(after);
}

static void test_errors(void)
{
    TsGraph *g = ts_graph_new(&err);
    TsIrValue *x = ts_graph_add_input(g, "x", ts_type_tensor(), &err);
    TsIrValue *i = ts_graph_add_input(g, "i", ts_type_int(), &err);
    TsIrValue *s = ts_graph_add_input(g, "s", ts_type_str(), &err);
    TsIrValue *l = ts_graph_add_input(g, "l", ts_type_list(ts_type_int()), &err);
    TsIrValue *lf = ts_graph_add_input(g, "lf", ts_type_list(ts_type_float()), &err);
    TsIrValue *lt = ts_graph_add_input(g, "lt", ts_type_list(ts_type_tensor()), &err);

    check_error(g, "aten::add", ARGS(P(s), P(i)), add_str_int, "torch.add(\"a\", 1)");
    check_error(g, "aten::sigmoid", ARGS(P(x), P(i)),
                "Arguments for call are not valid.\n"
                "The following variants are available:\n"
                "  \n"
                "  aten::sigmoid(Tensor self) -> Tensor:\n"
                "  Expected at most 1 arguments but found 2 positional arguments.\n"
                "  \n"
                "  aten::sigmoid.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!):\n"
                "  Argument out not provided.\n",
                "too many positionals; a missing kwarg-only argument");
    check_error(g, "aten::mm", ARGS(P(x), K("foo", i)),
                "Arguments for call are not valid.\n"
                "The following variants are available:\n"
                "  \n"
                "  aten::mm(Tensor self, Tensor mat2) -> Tensor:\n"
                "  Argument mat2 not provided.\n"
                "  \n"
                "  aten::mm.out(Tensor self, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!):\n"
                "  Argument mat2 not provided.\n", "a missing argument");
    check_error(g, "aten::mm", ARGS(P(x), P(x), K("foo", i)),
                "Arguments for call are not valid.\n"
                "The following variants are available:\n"
                "  \n"
                "  aten::mm(Tensor self, Tensor mat2) -> Tensor:\n"
                "  Keyword argument foo unknown.\n"
                "  \n"
                "  aten::mm.out(Tensor self, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!):\n"
                "  Argument out not provided.\n", "an unknown keyword");
    check_error(g, "aten::mm", ARGS(P(x), P(x), K("self", x)),
                "Arguments for call are not valid.\n"
                "The following variants are available:\n"
                "  \n"
                "  aten::mm(Tensor self, Tensor mat2) -> Tensor:\n"
                "  Keyword argument self specified twice.\n"
                "  \n"
                "  aten::mm.out(Tensor self, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!):\n"
                "  Argument out not provided.\n", "a keyword given positionally too");
    check_error(g, "aten::sigmoid", ARGS(P(x), K("out", i)),
                "Arguments for call are not valid.\n"
                "The following variants are available:\n"
                "  \n"
                "  aten::sigmoid(Tensor self) -> Tensor:\n"
                "  Keyword argument out unknown.\n"
                "  \n"
                "  aten::sigmoid.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!):\n"
                "  Expected a value of type 'Tensor' for argument 'out' but instead found "
                "type 'int'.\n", "a keyword of the wrong type");
    /* One overload: tried once, with conversions; the message is the bare reason. */
    check_error(g, "aten::warn", ARGS(P(i)),
                "\naten::warn(str message, int stacklevel=2) -> ():\n"
                "Expected a value of type 'str' for argument 'message' but instead found "
                "type 'int'.\n", "a single schema's error");
    check_error(g, "aten::append", ARGS(P(l), P(s)),
                "\naten::append.t(t[](a!) self, t(c -> *) el) -> t[](a!):\n"
                "Could not match type str to t in argument 'el': Type variable 't' previously "
                "matched to type int is matched to type str.\n", "a type variable conflict");
    check_error(g, "aten::frob", ARGS(P(x)),
                "Unknown builtin op: aten::frob.\n"
                "Could not find any similar ops to aten::frob. This op may not exist or may not "
                "be currently supported in TorchScript.\n", "an unknown op");
    check_error(g, "aten::mn", ARGS(P(x)),
                "Unknown builtin op: aten::mn.\n"
                "Here are some suggestions: \n"
                "\taten::mm\n"
                "\taten::t\n"
                "\taten::mul\n"
                "\taten::len\n"
                "\taten::to\n"
                "\taten::eq\n"
                "\taten::Int\n", "an unknown op with suggestions, nearest first");

    /* kernel_size's prim::ListConstruct is inserted before stride fails: removed again. */
    TsIrValue *two = ts_graph_add_input(g, "two", ts_type_int(), &err);
    check_error(g, "aten::max_pool2d", ARGS(P(x), P(two), P(s)),
                "\naten::max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], "
                "int[2] padding=0, int[2] dilation=1, bool ceil_mode=False) -> Tensor:\n"
                "Expected a value of type 'List[int]' for argument 'stride' but instead found "
                "type 'str'.\n", "a failure after a conversion");
    ok(two->n_uses == 0, "the removed nodes no longer use their inputs");
    ts_error_clear(&err);
    ok(!ts_graph_insert_op(g, table, "aten::mm", ARGS(P(x), P(NULL)), no_range, &err) &&
       err.code == TS_ERR_USAGE, "an argument without a value is a usage error");

    /* Long lists: only the interesting entries. */
    call(g, "aten::add", ARGS(P(l), P(lf)));
    like(err.msg, "  aten::add.t(t[] a, t[] b) -> t[]:\n"
                  "  Could not match type List[float] to List[t] in argument 'b': Type "
                  "variable 't' previously matched to type int is matched to type float.\n",
         "add.t with int[] and float[]: the binding conflict");
    call(g, "aten::sum", ARGS(P(lt)));
    is_str(err.msg,
           "\naten::sum.int(int[] self) -> int:\n"
           "Expected a value of type 'List[int]' for argument 'self' but instead found type "
           "'List[Tensor]'.\n"
           "Empty lists default to List[Tensor]. Add a variable annotation to the assignment to "
           "create an empty list of another type (torch.jit.annotate(List[T, []]) where T is "
           "the type of elements in the list for Python 2)\n", "the List[Tensor] hint");
    call(g, "aten::zeros", ARGS(P(i), P(s)));
    is_str(err.msg,
           "\naten::zeros(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, "
           "Device? device=None, bool? pin_memory=None) -> Tensor:\n"
           "Expected a value of type 'int' for argument '<varargs>' but instead found type "
           "'str'.\n", "varargs packed into a list: the element's error");
    call(g, "aten::view", ARGS(P(x), P(s)));
    is_str(err.msg,
           "Arguments for call are not valid.\n"
           "The following variants are available:\n"
           "  \n"
           "  aten::view(Tensor(a) self, SymInt[] size) -> Tensor(a):\n"
           "  Expected a value of type 'int' for argument '<varargs>' but instead found type "
           "'str'.\n", "aten::view.dtype is never a candidate (as in PyTorch)");

    /* With a source range: PyTorch's "The original call is:" and the excerpt. */
    const char *src = "def f(s: str):\n    return torch.add(s, 1)\n";
    TsSource *source = ts_source_new("<string>", src, strlen(src), &err);
    TsSourceRange r = { source, (size_t)(strstr(src, "torch.add") - src),
                        (size_t)(strstr(src, "(s,") - src) };
    ts_error_clear(&err);
    ok(!ts_graph_insert_op(g, table, "aten::add", ARGS(P(s), P(i)), r, &err), "with a range");
    size_t n = strlen(add_str_int);
    ok(err.msg && strncmp(err.msg, add_str_int, n) == 0, "the candidates");
    is_str(err.msg ? err.msg + (strncmp(err.msg, add_str_int, n) == 0 ? n : 0) : NULL,
           "\nThe original call is:\n"
           "  File \"<string>\", line 2\n"
           "def f(s: str):\n"
           "    return torch.add(s, 1)\n"
           "           ~~~~~~~~~ <--- HERE\n", "then the original call");
    ts_source_release(source);
    ts_graph_free(g);
}

/* ---- type variables -------------------------------------------------------------------- */
static void test_type_vars(void)
{
    TsGraph *g = ts_graph_new(&err);
    const TsType *I = ts_type_int(), *T = ts_type_tensor();
    TsIrValue *l = ts_graph_add_input(g, "l", ts_type_list(I), &err);
    TsIrValue *i = ts_graph_add_input(g, "i", I, &err);
    TsIrValue *s = ts_graph_add_input(g, "s", ts_type_str(), &err);
    TsIrValue *d = ts_graph_add_input(g, "d", ts_type_dict(ts_type_str(), T), &err);
    TsIrValue *fut = ts_graph_add_input(g, "fut", ts_type_future(I), &err);
    TsIrValue *oi = ts_graph_add_input(g, "oi", ts_type_optional(I), &err);

    TsNode *n = call(g, "aten::append", ARGS(P(l), P(i)));
    ok(n && n->outputs[0]->type == ts_type_list(I), "append(int[], int) -> int[]");
    n = call(g, "aten::__getitem__", ARGS(P(l), P(i)));
    is_str(overload_of(n), "t", "list[i] is __getitem__.t");
    ok(n && n->outputs[0]->type == I, "t bound to int");
    n = call(g, "aten::__getitem__", ARGS(P(d), P(s)));
    is_str(overload_of(n), "Dict_str", "dict[str] is __getitem__.Dict_str");
    ok(n && n->outputs[0]->type == T, "t bound from Dict(str, t)");
    n = call(g, "aten::values", ARGS(P(d)));
    ok(n && n->outputs[0]->type == ts_type_list(T), "values: Tensor[]");
    n = call(g, "aten::keys", ARGS(P(d)));
    ok(n && n->outputs[0]->type == ts_type_list(ts_type_str()), "keys: str[]");
    n = call(g, "aten::get", ARGS(P(d), P(s)));
    ok(n && n->outputs[0]->type == ts_type_optional(T), "get: Tensor? (t(*)?)");
    n = call(g, "aten::wait", ARGS(P(fut)));
    ok(n && n->outputs[0]->type == I, "wait(Future(int)) -> int");
    n = call(g, "aten::__is__", ARGS(P(s), P(i)));
    ok(n != NULL, "t1 and t2 bind independently");
    n = call(g, "aten::len", ARGS(P(d)));
    is_str(overload_of(n), "Dict_str", "len(Dict(str, Tensor)) is len.Dict_str");
    n = call(g, "aten::len", ARGS(P(oi)));
    is_str(overload_of(n), "any", "len(int?): packed into Any[] (as PyTorch does)");
    ok(n && n->inputs[0]->type == ts_type_list(ts_type_any()), "by a prim::ListConstruct");
    n = call(g, "aten::append", ARGS(P(l), P(oi)));
    ok(n == NULL, "append(int[], int?): int? unifies with t=int, but is no int");
    is_str(err.msg, "\naten::append.t(t[](a!) self, t(c -> *) el) -> t[](a!):\n"
                    "Expected a value of type 't' for argument 'el' but instead found type "
                    "'Optional[int]'.\n", "spelled as PyTorch does");

    /* ts_match_schema alone. */
    const TsOperator *op = ts_optable_find(table, "aten::append", "t");
    TsIrValue **inputs = NULL;
    const TsType **rets = NULL;
    size_t n_in = 0;
    ts_error_clear(&err);
    is_int(ts_match_schema(g, op->schema, ARGS(P(l), K("el", i)), &inputs, &n_in, &rets, &err),
           0, "ts_match_schema: a match");
    ok(n_in == 2 && inputs[0] == l && inputs[1] == i, "the inputs in schema order");
    ok(rets && rets[0] == ts_type_list(I), "the return types substituted");
    free(inputs);
    free(rets);
    is_int(ts_match_schema(g, op->schema, ARGS(P(l)), &inputs, &n_in, &rets, &err), -1,
           "ts_match_schema: a mismatch");
    is_str(err.msg, "\naten::append.t(t[](a!) self, t(c -> *) el) -> t[](a!):\n"
                    "Argument el not provided.\n", "with the reason");
    ts_graph_free(g);
}

/* ---- conversions ----------------------------------------------------------------------- */
static void test_conversions(void)
{
    TsGraph *g = ts_graph_new(&err);
    TsIrValue *x = ts_graph_add_input(g, "x", ts_type_tensor(), &err);
    TsIrValue *none = constant(g, ts_none());
    TsIrValue *c1 = constant(g, ts_int(1));
    TsIrValue *c2 = constant(g, ts_int(2));
    ts_graph_add_output(g, out0(call(g, "aten::conv2d", ARGS(P(x), P(x), P(none), P(c1), P(c2)))),
                        &err);
    check_graph(g,
                "graph(%x : Tensor):\n"
                "  %1 : NoneType = prim::Constant()\n"
                "  %2 : int = prim::Constant[value=1]()\n"
                "  %3 : int = prim::Constant[value=2]()\n"
                "  %4 : int[] = prim::ListConstruct(%2, %2)\n"
                "  %5 : int[] = prim::ListConstruct(%3, %3)\n"
                "  %6 : int[] = prim::Constant[value=[1, 1]]()\n"
                "  %7 : int = prim::Constant[value=1]()\n"
                "  %8 : Tensor = aten::conv2d(%x, %x, %1, %4, %5, %6, %7)\n"
                "  return (%8)\n", "conv2d(x, w, None, 1, 2): an int for int[2]");
    ts_graph_free(g);

    /* A tuple value for int[]: unpacked and rebuilt; varargs packed. */
    g = ts_graph_new(&err);
    const TsType *ii[2] = { ts_type_int(), ts_type_int() };
    TsIrValue *t = ts_graph_add_input(g, "t", ts_type_tuple(2, ii), &err);
    TsIrValue *i = ts_graph_add_input(g, "i", ts_type_int(), &err);
    ts_graph_add_output(g, out0(call(g, "aten::zeros", ARGS(P(t)))), &err);
    ts_graph_add_output(g, out0(call(g, "aten::zeros", ARGS(P(i), P(i)))), &err);
    check_graph(g,
                "graph(%t : (int, int),\n"
                "      %i : int):\n"
                "  %2 : int, %3 : int = prim::TupleUnpack(%t)\n"
                "  %4 : int[] = prim::ListConstruct(%2, %3)\n"
                "  %5 : NoneType = prim::Constant()\n"
                "  %6 : NoneType = prim::Constant()\n"
                "  %7 : NoneType = prim::Constant()\n"
                "  %8 : NoneType = prim::Constant()\n"
                "  %9 : Tensor = aten::zeros(%4, %5, %6, %7, %8)\n"
                "  %10 : int[] = prim::ListConstruct(%i, %i)\n"
                "  %11 : NoneType = prim::Constant()\n"
                "  %12 : NoneType = prim::Constant()\n"
                "  %13 : NoneType = prim::Constant()\n"
                "  %14 : NoneType = prim::Constant()\n"
                "  %15 : Tensor = aten::zeros(%10, %11, %12, %13, %14)\n"
                "  return (%9, %15)\n", "zeros(tuple) and zeros(i, i)");
    ts_graph_free(g);

    /* A tuple literal: its elements go straight into the list. */
    g = ts_graph_new(&err);
    x = ts_graph_add_input(g, "x", ts_type_tensor(), &err);
    TsNode *tc = ts_graph_create(g, ts_symbol("prim::TupleConstruct"), 1, &err);
    ts_node_add_input(tc, x, &err);
    ts_node_add_input(tc, x, &err);
    const TsType *tt[2] = { ts_type_tensor(), ts_type_tensor() };
    tc->outputs[0]->type = ts_type_tuple(2, tt);
    ts_graph_insert(g, tc);
    TsNode *n = call(g, "aten::cat", ARGS(P(tc->outputs[0]), P(constant(g, ts_int(1)))));
    is_str(overload_of(n), "", "cat((x, x), 1) is aten::cat");
    ok(n && n->inputs[0]->node->kind == ts_symbol("prim::ListConstruct") &&
       n->inputs[0]->node->inputs[0] == x, "a list of the literal's elements");

    /* An empty-list literal takes the list type asked for. */
    TsNode *el = ts_graph_create(g, ts_symbol("prim::EmptyListLiteral"), 1, &err);
    el->outputs[0]->type = ts_type_list(ts_type_tensor());
    ts_graph_insert(g, el);
    n = call(g, "aten::sum", ARGS(P(el->outputs[0])));
    is_str(overload_of(n), "int", "sum([]) is sum.int");
    ok(n && n->inputs[0]->type == ts_type_list(ts_type_int()) &&
       n->inputs[0]->node->n_inputs == 0, "by an empty int[] prim::ListConstruct");

    /* Second pass: Tensor to int, Scalar to int, str to Device, str to Device?. */
    TsIrValue *num = ts_graph_add_input(g, "num", ts_type_number(), &err);
    TsIrValue *s = ts_graph_add_input(g, "s", ts_type_str(), &err);
    n = call(g, "aten::size", ARGS(P(x), P(x)));
    is_str(overload_of(n), "int", "size(x, tensor) is size.int");
    ok(n && n->inputs[1]->node->kind == ts_symbol("aten::IntImplicit"), "by aten::IntImplicit");
    n = call(g, "aten::sub", ARGS(P(num), P(num)));
    is_str(overload_of(n), "int", "sub(Scalar, Scalar) is sub.int here");
    ok(n && n->inputs[0]->node->kind == ts_symbol("aten::Int") &&
       n->inputs[1]->node->kind == ts_symbol("aten::Int"), "by aten::Int");
    ok(n && n->inputs[0]->node->op &&
       strcmp(((const TsOperator *)n->inputs[0]->node->op)->schema->overload, "Scalar") == 0,
       "aten::Int.Scalar");
    n = call(g, "aten::eq", ARGS(P(s), P(s)));
    ok(n && n->inputs[0]->node->kind == ts_symbol("aten::device") &&
       n->inputs[0]->type == ts_type_device(), "str to Device by aten::device");
    TsIrValue *dtype = constant(g, ts_int(6));
    n = call(g, "aten::to", ARGS(P(x), K("device", s), K("dtype", dtype)));
    ok(n && n->inputs[3]->node->kind == ts_symbol("aten::device"), "str to Device?");
    ok(n && n->n_inputs == 8, "to.dtype_layout: every argument filled");
    n = call(g, "aten::format", ARGS(P(s), P(x), P(num)));
    ok(n && n->n_inputs == 3 && n->inputs[2] == num, "varargs ('...') pass through");
    n = call(g, "aten::max_pool2d", ARGS(P(x), P(constant(g, ts_int(2)))));
    ok(n && n->inputs[1]->node->kind == ts_symbol("prim::ListConstruct") &&
       n->inputs[1]->node->n_inputs == 2, "max_pool2d(x, 2): kernel_size repeated");
    n = call(g, "aten::view", ARGS(P(x), P(constant(g, ts_int(3)))));
    is_str(overload_of(n), "", "view(x, 3) is aten::view, not view.dtype");
    ok(n && n->inputs[1]->type == ts_type_list(ts_type_int()), "3 packed into int[]");
    TsError e = TS_ERROR_INIT;
    is_int(ts_graph_lint(g, &e), 0, "the graph lints");
    ts_error_clear(&e);
    ts_graph_free(g);
}

int main(void)
{
    load_table();
    test_lstm();
    test_overloads();
    test_keywords();
    test_errors();
    test_type_vars();
    test_conversions();
    ts_error_clear(&err);
    ts_optable_free(table);
    ts_types_shutdown();
    ts_symbols_shutdown();
    return done_testing();
}
