/* t/ir_lint.c — the IR verifier: broken graphs are rejected with messages that name the
 * value and the node; well-formed graphs (built here, and every graph in t/data/ir) pass. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "frontend/source.h"
#include "tap.h"

static TsError err = TS_ERROR_INIT;

static TsNode *node(TsGraph *g, const char *kind, size_t n_out, TsIrValue *a, TsIrValue *b)
{
    TsNode *n = ts_graph_create(g, ts_symbol(kind), n_out, &err);
    if (a)
        ts_node_add_input(n, a, &err);
    if (b)
        ts_node_add_input(n, b, &err);
    return ts_graph_insert(g, n);
}

static TsIrValue *named(TsIrValue *v, const char *name)
{
    ts_irvalue_set_name(v, name, false, &err);
    return v;
}

/* Lints g expecting an error whose message contains want (NULL: expecting success). */
static void lint_is(TsGraph *g, const char *want, const char *what)
{
    ts_error_clear(&err);
    int rc = ts_graph_lint(g, &err);
    if (!want) {
        if (!ok(rc == 0, "accepted: %s", what))
            diag("%s", err.msg ? err.msg : "(no message)");
    } else {
        ok(rc == TS_ERR_RUNTIME, "rejected: %s", what);
        like(err.msg, want, "message: %s", what);
    }
}

/* graph(%x, %y): %a = aten::mul(%x, %y); %b = aten::add(%a, %x); return (%b) */
static TsGraph *straight(TsNode **mul, TsNode **add)
{
    TsGraph *g = ts_graph_new(&err);
    TsIrValue *x = ts_graph_add_input(g, "x", ts_type_tensor(), &err);
    TsIrValue *y = ts_graph_add_input(g, "y", ts_type_tensor(), &err);
    *mul = node(g, "aten::mul", 1, x, y);
    TsIrValue *a = named((*mul)->outputs[0], "a");
    *add = node(g, "aten::add", 1, a, x);
    ts_graph_add_output(g, named((*add)->outputs[0], "b"), &err);
    return g;
}

static void test_straight_line(void)
{
    TsNode *mul, *add;
    TsGraph *g = straight(&mul, &add);
    lint_is(g, NULL, "straight-line graph");

    ts_node_move_before(add, mul);
    lint_is(g, "value %a used by aten::add before its definition", "use before definition");
    ts_node_move_after(add, mul);
    lint_is(g, NULL, "moved back");

    ts_node_add_input(mul, mul->outputs[0], &err);
    lint_is(g, "value %a used by aten::mul before its definition", "a node using its output");
    ts_node_remove_input(mul, 2);

    TsIrValue *a = mul->outputs[0];
    a->n_uses--;             /* forget the use by aten::add */
    lint_is(g, "value %a is input 0 of aten::add but its use list does not say so",
            "use list missing a use");
    a->n_uses++;

    a->uses[0].offset = 1;
    lint_is(g, "value %a's use list names input 1 of aten::add, which is not that value",
            "use with the wrong offset");
    a->uses[0].offset = 0;

    TsIrValue *xv = ts_graph_block(g)->param->outputs[0];
    ts_node_add_input(add, xv, &err);      /* %x: uses (mul 0), (add 1), (add 2) */
    xv->uses[2] = xv->uses[1];
    lint_is(g, "value %x's use list names input 1 of aten::add twice", "duplicate use");
    xv->uses[2].offset = 2;
    ts_node_remove_input(add, 2);
    lint_is(g, NULL, "duplicate use repaired");

    TsIrValue *yv = ts_graph_block(g)->param->outputs[1];
    TsNode *ret = ts_graph_block(g)->ret;
    ts_graph_add_output(g, yv, &err);
    yv->n_uses--;
    lint_is(g, "value %y is input 1 of prim::Return of the graph but its use list does not "
            "say so", "a graph output missing from the use list");
    yv->n_uses++;
    ts_node_remove_input(ret, 1);

    TsIrValue *x = ts_graph_block(g)->param->outputs[0];
    TsNode *loose = ts_graph_create(g, ts_symbol("aten::relu"), 1, &err);
    ts_node_add_input(loose, x, &err);
    lint_is(g, "value %x has a dangling use by aten::relu, a node that is not in the graph",
            "dangling use");
    ts_node_remove_all_inputs(loose);
    lint_is(g, NULL, "dangling use removed");

    TsGraph *other = ts_graph_new(&err);
    TsIrValue *z = ts_graph_add_input(other, "z", ts_type_tensor(), &err);
    ts_node_replace_input(add, 1, z, NULL);
    lint_is(g, "value %z used by aten::add is not defined in this graph",
            "value of another graph");
    ts_node_replace_input(add, 1, x, NULL);
    ts_graph_free(other);
    lint_is(g, NULL, "input restored");

    a->offset = 3;
    lint_is(g, "value %a is output 0 of aten::mul but says it is output 3 of aten::mul",
            "output offset wrong");
    a->offset = 0;

    TsNode *saved = add->prev;
    add->prev = add;
    lint_is(g, "the node list of a block of the graph is broken: aten::add does not point "
            "back to the aten::mul before it", "broken prev pointer");
    add->prev = saved;

    TsBlock *top = ts_graph_block(g);
    TsNode *ret_prev = top->ret->prev;
    top->ret->prev = mul;
    lint_is(g, "its prim::Return does not point back to the last node", "broken list end");
    top->ret->prev = ret_prev;

    add->owning_block = NULL;
    lint_is(g, "aten::add is in the node list of a block of the graph but its owning_block "
            "is another block", "owning_block wrong");
    add->owning_block = top;

    TsNode *next = mul->next;
    mul->next = mul;
    lint_is(g, "the node list of a block of the graph is broken: aten::mul does not point "
            "back to the aten::mul before it", "a cycle in the node list");
    mul->next = next;

    top->ret = top->param;
    lint_is(g, "a block of the graph lacks its prim::Param or prim::Return node",
            "sentinel of the wrong kind");
    top->ret = ret;
    lint_is(g, NULL, "all repairs undone");
    ts_graph_free(g);

    ts_error_clear(&err);
    is_int(ts_graph_lint(NULL, &err), TS_ERR_USAGE, "NULL graph refused");
}

/* graph(%x, %c): %r = prim::If(%c) block0 { %t = aten::neg(%x) -> (%t) }
 *                                 block1 { -> (%x) }; return (%r) */
static TsGraph *if_graph(TsNode **ifn, TsIrValue **t)
{
    TsGraph *g = ts_graph_new(&err);
    TsIrValue *x = ts_graph_add_input(g, "x", ts_type_tensor(), &err);
    TsIrValue *c = ts_graph_add_input(g, "c", ts_type_bool(), &err);
    *ifn = node(g, "prim::If", 1, c, NULL);
    TsBlock *b0 = ts_node_add_block(*ifn, &err), *b1 = ts_node_add_block(*ifn, &err);
    ts_graph_set_insert_end(g, b0);
    TsNode *neg = node(g, "aten::neg", 1, x, NULL);
    *t = named(neg->outputs[0], "t");
    ts_block_add_output(b0, *t, &err);
    ts_block_add_output(b1, x, &err);
    ts_graph_set_insert_end(g, ts_graph_block(g));
    ts_graph_add_output(g, named((*ifn)->outputs[0], "r"), &err);
    return g;
}

static void test_if(void)
{
    TsNode *ifn;
    TsIrValue *t;
    TsGraph *g = if_graph(&ifn, &t);
    lint_is(g, NULL, "prim::If");

    TsNode *use = node(g, "aten::add", 1, t, ts_graph_block(g)->param->outputs[0]);
    lint_is(g, "value %t defined in a block of prim::If is used outside it by aten::add",
            "value used outside its block");
    ts_node_remove_all_inputs(use);
    ts_node_destroy(use, &err);
    lint_is(g, NULL, "outside use removed");

    TsBlock *b1 = ifn->blocks[1];
    ts_node_replace_input(b1->ret, 0, t, NULL);
    lint_is(g, "value %t defined in a block of prim::If is used outside it by prim::Return "
            "of a block of prim::If", "value of one branch used in the other");
    ts_node_replace_input(b1->ret, 0, ts_graph_block(g)->param->outputs[0], NULL);

    ts_block_add_output(b1, t->node->inputs[0], &err);
    lint_is(g, "block 1 of prim::If returns 2 value(s) but the prim::If has 1 output(s)",
            "If block output count");
    ts_node_remove_input(b1->ret, 1);

    TsIrValue *bad_in = ts_block_add_input(b1, "p", ts_type_tensor(), &err);
    lint_is(g, "block 1 of prim::If takes 1 input(s) (expected 0)", "If block with input");
    ts_node_erase_output(b1->param, bad_in->offset, &err);

    ts_node_add_input(ifn, ifn->inputs[0], &err);
    lint_is(g, "prim::If has 2 inputs (expected 1: the condition)", "If with two inputs");
    ts_node_remove_input(ifn, 1);

    ts_node_add_block(ifn, &err);
    lint_is(g, "prim::If has 3 block(s) (expected 2)", "If with three blocks");
    ts_node_erase_block(ifn, 2);
    lint_is(g, NULL, "If repaired");

    b1->owning_node = NULL;
    lint_is(g, "a block of prim::If says it is owned by the graph", "owning_node wrong");
    b1->owning_node = ifn;

    TsNode *p = b1->param;
    b1->param->owning_block = ifn->blocks[0];
    lint_is(g, "the prim::Param or prim::Return of a block of prim::If says it is in another "
            "block", "sentinel's owning_block wrong");
    p->owning_block = b1;
    lint_is(g, NULL, "sentinel repaired");
    ts_graph_free(g);
}

/* graph(%n, %v): %out = prim::Loop(%n, %true, %v)
 *   block0(%i, %acc) { %next = aten::add(%acc, %i); -> (%true, %next) }; return (%out) */
static TsGraph *loop_graph(TsNode **loop)
{
    TsGraph *g = ts_graph_new(&err);
    TsIrValue *n = ts_graph_add_input(g, "n", ts_type_int(), &err);
    TsIrValue *v = ts_graph_add_input(g, "v", ts_type_tensor(), &err);
    TsIrValue *yes = ts_graph_insert_constant(g, ts_bool(true), (TsSourceRange){ 0 },
                                              &err);
    *loop = node(g, "prim::Loop", 1, n, yes);
    ts_node_add_input(*loop, v, &err);
    TsBlock *body = ts_node_add_block(*loop, &err);
    TsIrValue *i = ts_block_add_input(body, "i", ts_type_int(), &err);
    TsIrValue *acc = ts_block_add_input(body, "acc", ts_type_tensor(), &err);
    ts_graph_set_insert_end(g, body);
    TsNode *add = node(g, "aten::add", 1, acc, i);
    ts_block_add_output(body, yes, &err);
    ts_block_add_output(body, named(add->outputs[0], "next"), &err);
    ts_graph_set_insert_end(g, ts_graph_block(g));
    ts_graph_add_output(g, named((*loop)->outputs[0], "out"), &err);
    return g;
}

static void test_loop(void)
{
    TsNode *loop;
    TsGraph *g = loop_graph(&loop);
    lint_is(g, NULL, "prim::Loop");
    TsBlock *body = loop->blocks[0];

    ts_node_add_input(loop, loop->inputs[2], &err);
    lint_is(g, "prim::Loop has 4 inputs but its body block takes 2 input(s) (expected 3: "
            "the iteration number + 2 carried)", "loop input without a body input");
    ts_node_remove_input(loop, 3);

    TsIrValue *extra = ts_block_add_input(body, "extra", ts_type_tensor(), &err);
    lint_is(g, "prim::Loop has 3 inputs but its body block takes 3 input(s) (expected 2: "
            "the iteration number + 1 carried)", "body input without a loop input");
    ts_node_erase_output(body->param, extra->offset, &err);

    ts_block_add_output(body, loop->inputs[1], &err);
    lint_is(g, "prim::Loop carries 1 value(s) but its body block returns 3 (expected 2: "
            "the condition + 1 carried)", "body returns too many");
    ts_node_remove_input(body->ret, 2);

    ts_node_add_output(loop, ts_type_tensor(), &err);
    lint_is(g, "prim::Loop carries 1 value(s) but has 2 output(s)", "too many loop outputs");
    ts_node_erase_output(loop, 1, &err);

    TsIrValue *i = body->param->outputs[0];
    ts_node_replace_input(loop, 0, i, NULL);
    lint_is(g, "value %i defined in a block of prim::Loop is used outside it by prim::Loop",
            "body input used by the loop itself");
    ts_node_replace_input(loop, 0, ts_graph_block(g)->param->outputs[0], NULL);

    ts_node_add_block(loop, &err);
    lint_is(g, "prim::Loop has 2 block(s) (expected 1)", "loop with two blocks");
    ts_node_erase_block(loop, 1);
    lint_is(g, NULL, "loop repaired");
    ts_graph_free(g);

    g = ts_graph_new(&err);
    TsNode *with = node(g, "prim::With", 0, NULL, NULL);
    ts_node_add_block(with, &err);
    lint_is(g, "prim::With has 1 block(s) (expected 2", "prim::With with one block");
    ts_node_add_block(with, &err);
    lint_is(g, NULL, "prim::With with two blocks");
    ts_graph_free(g);
}

static void test_subgraph(void)
{
    TsNode *mul, *add;
    TsGraph *sub = straight(&mul, &add);
    ts_node_move_before(add, mul);
    TsGraph *g = ts_graph_new(&err);
    TsNode *fg = node(g, "prim::FusionGroup", 0, NULL, NULL);
    ts_node_set_graph(fg, ts_symbol("attr::Subgraph"), sub, &err);
    lint_is(g, "in the subgraph attr::Subgraph of prim::FusionGroup: value %a used by "
            "aten::add before its definition", "a broken subgraph attribute");
    ts_node_move_after(add, mul);
    lint_is(g, NULL, "subgraph repaired");
    ts_graph_free(g);
}

/* A parsed graph's nodes carry their source: the message shows the offending line. */
static void test_parsed(void)
{
    ts_error_clear(&err);
    TsGraph *g = ts_graph_parse("graph(%x : Tensor):\n"
                                "  %a : Tensor = aten::neg(%x)\n"
                                "  %b : Tensor = aten::relu(%a)\n"
                                "  return (%b)\n", "moved.ir", &err);
    ok(g != NULL, "parse a graph");
    if (!g)
        return;
    TsNode *neg = ts_graph_block(g)->ret->next, *relu = neg->next;
    lint_is(g, NULL, "parsed graph");
    ts_node_move_before(relu, neg);
    lint_is(g, "value %a used by aten::relu before its definition", "parsed, then moved");
    like(err.msg, "line 3", "message shows where the node came from");
    ts_graph_free(g);
}

/* Broken graphs written as text: the parser takes them, the verifier does not. */
static void lint_text(const char *text, const char *want, const char *what)
{
    ts_error_clear(&err);
    TsGraph *g = ts_graph_parse(text, "broken.ir", &err);
    if (!ok(g != NULL, "parses: %s", what)) {
        diag("%s", err.msg);
        return;
    }
    lint_is(g, want, what);
    ts_graph_free(g);
}

static void test_text(void)
{
    lint_text("graph(%x : Tensor, %c : bool):\n"
              "  %r : Tensor = prim::If(%c)\n"
              "    block0():\n"
              "      %t : Tensor = aten::neg(%x)\n"
              "      -> (%t)\n"
              "    block1():\n"
              "      -> (%x)\n"
              "  %u : Tensor = aten::add(%t, %x)\n"
              "  return (%u)\n",
              "value %t defined in a block of prim::If is used outside it by aten::add",
              "text: value used after its block");
    like(err.msg, "line 8", "text: the line of the use");
    lint_text("graph(%x : Tensor, %c : bool):\n"
              "  %r : Tensor = prim::If(%c)\n"
              "    block0():\n"
              "      %t : Tensor = aten::neg(%x)\n"
              "      -> (%x)\n"
              "    block1():\n"
              "      -> (%t)\n"
              "  return (%r)\n",
              "value %t defined in a block of prim::If is used outside it by prim::Return of "
              "a block of prim::If", "text: value of one branch returned by the other");
    lint_text("graph(%n : int, %x : Tensor):\n"
              "  %true : bool = prim::Constant[value=1]()\n"
              "  %r : Tensor = prim::Loop(%n, %true, %x)\n"
              "    block0(%i : int):\n"
              "      -> (%true)\n"
              "  return (%r)\n",
              "prim::Loop has 3 inputs but its body block takes 1 input(s) (expected 2: the "
              "iteration number + 1 carried)", "text: loop arity");
    lint_text("graph(%x : Tensor, %c : bool):\n"
              "  %r : Tensor = prim::If(%c)\n"
              "    block0():\n"
              "      -> (%x)\n"
              "    block1():\n"
              "      -> ()\n"
              "  return (%r)\n",
              "block 1 of prim::If returns 0 value(s) but the prim::If has 1 output(s)",
              "text: if arity");
    lint_text("graph(%x : Tensor, %c : bool):\n"
              "   = prim::If(%c)\n"
              "    block0():\n"
              "      -> ()\n"
              "  return ()\n",
              "prim::If has 1 block(s) (expected 2)", "text: if with one block");
}

/* Every graph in t/data/ir parses and lints clean. */
static void test_data(void)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/t/data/ir", TS_TEST_SRCDIR);
    DIR *d = opendir(dir);
    if (!d) {
        diag("no %s", dir);
        return;
    }
    int seen = 0;
    for (struct dirent *e; (e = readdir(d)); ) {
        size_t len = strlen(e->d_name);
        if (len < 4 || strcmp(e->d_name + len - 3, ".ir") != 0
            || strncmp(e->d_name, "bad", 3) == 0)
            continue;
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        ts_error_clear(&err);
        TsSource *src = ts_source_read_file(path, &err);
        TsGraph *g = src ? ts_graph_parse(src->text, path, &err) : NULL;
        if (!g) {
            ok(0, "%s parses", e->d_name);
            diag("%s", err.msg ? err.msg : "");
        } else {
            lint_is(g, NULL, e->d_name);
            seen++;
        }
        ts_graph_free(g);
        ts_source_release(src);
    }
    closedir(d);
    ok(seen > 0, "linted %d graphs from t/data/ir", seen);
}

int main(void)
{
    test_straight_line();
    test_if();
    test_loop();
    test_subgraph();
    test_parsed();
    test_text();
    test_data();
    ts_error_clear(&err);
    ts_symbols_shutdown();
    return done_testing();
}
