/* ir_graph.t — building graphs: ownership (destroy refused while used), use lists,
 * replace_all_uses_with, insertion and moves, program order, PyTorch's naming rule, copies,
 * attributes of every kind, constants, and If/Loop/With blocks, checked through the printer.
 */
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "tap.h"

static TsError err = TS_ERROR_INIT;

static TsSymbol sym(const char *s) { return ts_symbol(s); }

static TsNode *add_node(TsGraph *g, const char *kind, TsIrValue *a, TsIrValue *b, const TsType *t)
{
    TsNode *n = ts_graph_create(g, sym(kind), t ? 1 : 0, &err);
    if (t)
        n->outputs[0]->type = t;
    if (a)
        ts_node_add_input(n, a, &err);
    if (b)
        ts_node_add_input(n, b, &err);
    return ts_graph_insert(g, n);
}

static void check_print(const TsGraph *g, const char *want, const char *label)
{
    char *s = ts_graph_to_string(g, false);
    is_str(s, want, "%s", label);
    free(s);
}

/* Every use of every value points back at an input that is that value. */
static bool uses_consistent(const TsNode *n)
{
    for (size_t i = 0; i < n->n_inputs; i++) {
        const TsIrValue *v = n->inputs[i];
        size_t found = 0;
        for (size_t u = 0; u < v->n_uses; u++)
            if (v->uses[u].user == n && v->uses[u].offset == i)
                found++;
        if (found != 1)
            return false;
    }
    for (size_t o = 0; o < n->n_outputs; o++)
        for (size_t u = 0; u < n->outputs[o]->n_uses; u++) {
            TsUse use = n->outputs[o]->uses[u];
            if (use.offset >= use.user->n_inputs || use.user->inputs[use.offset] != n->outputs[o])
                return false;
        }
    return true;
}

static void test_build_and_ownership(void)
{
    TsGraph *g = ts_graph_new(&err);
    TsIrValue *x = ts_graph_add_input(g, "x", ts_type_tensor(), &err);
    TsIrValue *y = ts_graph_add_input(g, "y", ts_type_tensor(), &err);
    TsIrValue *one = ts_graph_insert_constant(g, ts_int(1), (TsSourceRange){0}, &err);
    TsNode *add = add_node(g, "aten::add", x, y, ts_type_tensor());
    ts_node_add_input(add, one, &err);
    TsNode *mul = add_node(g, "aten::mul", add->outputs[0], add->outputs[0], ts_type_tensor());
    ts_graph_add_output(g, mul->outputs[0], &err);
    check_print(g,
                "graph(%x : Tensor,\n"
                "      %y : Tensor):\n"
                "  %2 : int = prim::Constant[value=1]()\n"
                "  %3 : Tensor = aten::add(%x, %y, %2)\n"
                "  %4 : Tensor = aten::mul(%3, %3)\n"
                "  return (%4)\n",
                "a built graph prints canonically");
    is_int((long long)add->outputs[0]->n_uses, 2, "%%3 has two uses");
    ok(uses_consistent(add) && uses_consistent(mul), "use lists agree with inputs");

    ok(ts_node_destroy(add, &err) != 0, "destroy refused while an output is used");
    like(err.msg, "%3 is still used", "the error names the value");
    ts_error_clear(&err);
    ok(ts_node_erase_output(add, 0, &err) != 0, "erase_output refused while used");
    ts_error_clear(&err);

    TsNode *sub = ts_graph_create(g, sym("aten::sub"), 1, &err);
    ts_node_add_input(sub, x, &err);
    ts_node_add_input(sub, y, &err);
    ts_node_insert_after(sub, add);
    ts_irvalue_replace_all_uses_with(add->outputs[0], sub->outputs[0], NULL);
    is_int((long long)add->outputs[0]->n_uses, 0, "replace_all_uses_with moves every use");
    is_int((long long)sub->outputs[0]->n_uses, 2, "... to the new value");
    ok(uses_consistent(mul) && uses_consistent(sub), "use lists still agree");
    ok(ts_node_destroy(add, &err) == 0, "destroy succeeds once unused");
    is_int((long long)one->n_uses, 0, "destroying a node drops its uses of its inputs");
    check_print(g,
                "graph(%x : Tensor,\n"
                "      %y : Tensor):\n"
                "  %2 : int = prim::Constant[value=1]()\n"
                "  %5 : Tensor = aten::sub(%x, %y)\n"
                "  %4 : Tensor = aten::mul(%5, %5)\n"
                "  return (%4)\n",
                "after replace and destroy");

    /* A node that is created and never inserted is still owned (freed with the graph). */
    ts_graph_create(g, sym("aten::orphan"), 2, &err);

    ok(ts_node_destroy(ts_graph_block(g)->ret, &err) != 0, "the return node cannot be destroyed");
    ts_error_clear(&err);
    ts_graph_free(g);
}

static void test_inputs_and_order(void)
{
    TsGraph *g = ts_graph_new(&err);
    TsIrValue *a = ts_graph_add_input(g, "a", ts_type_int(), &err);
    TsIrValue *b = ts_graph_add_input(g, "b", ts_type_int(), &err);
    TsNode *n1 = add_node(g, "k::one", a, NULL, ts_type_int());
    TsNode *n2 = add_node(g, "k::two", a, b, ts_type_int());
    TsNode *n3 = add_node(g, "k::three", a, a, ts_type_int());
    ts_graph_add_output(g, n3->outputs[0], &err);

    ts_node_insert_input(n3, 1, b, &err);
    ts_node_insert_input(n3, 0, a, &err);
    ok(uses_consistent(n3), "insert_input keeps use offsets right (a, a, b, a)");
    is_int((long long)n3->n_inputs, 4, "four inputs");
    ts_node_remove_input(n3, 1);
    ok(uses_consistent(n3) && n3->inputs[1] == b, "remove_input shifts the uses");
    ts_node_replace_input(n3, 1, n1->outputs[0], NULL);
    ok(uses_consistent(n3) && b->n_uses == 1, "replace_input moves one use");
    ts_node_remove_all_inputs(n2);
    ok(n2->n_inputs == 0 && b->n_uses == 0, "remove_all_inputs drops every use");

    ok(ts_node_is_before(n1, n2) && ts_node_is_before(n2, n3), "program order");
    ok(!ts_node_is_before(n3, n1) && !ts_node_is_before(n1, n1), "is_before is strict");
    ts_node_move_before(n3, n1);
    ok(ts_node_is_before(n3, n1) && ts_graph_block(g)->ret->next == n3, "move_before");
    ts_node_move_after(n3, n2);
    ok(ts_node_is_before(n2, n3) && ts_graph_block(g)->ret->prev == n3, "move_after");
    ts_node_move_after(n1, ts_graph_block(g)->param);
    ok(ts_graph_block(g)->ret->next == n1, "moving after the Param node puts a node first");

    /* Many insertions at one spot exhaust the gaps and renumber the block. */
    TsNode *last = n1;
    for (int i = 0; i < 200; i++) {
        TsNode *m = ts_graph_create(g, sym("k::fill"), 0, &err);
        ts_node_insert_after(m, n1);
        last = m;
    }
    ok(ts_node_is_before(n1, last) && ts_node_is_before(last, n2), "order holds after renumbering");
    bool sorted = true;
    TsBlock *top = ts_graph_block(g);
    for (TsNode *m = top->ret->next; m->next != top->ret; m = m->next)
        sorted = sorted && ts_node_is_before(m, m->next);
    ok(sorted, "every neighbour pair is ordered");

    /* The insertion point moves out of a destroyed node. */
    TsNode *fill = top->ret->next->next;
    ts_graph_set_insert_point(g, fill);
    ok(ts_node_destroy(fill, &err) == 0, "destroy the insertion point");
    ok(ts_graph_insert_point(g) == top->ret, "insertion point falls back to the end");

    /* replace_uses_after */
    TsNode *u1 = add_node(g, "k::use", a, NULL, NULL);
    TsNode *mark = add_node(g, "k::mark", NULL, NULL, ts_type_int());
    TsNode *u2 = add_node(g, "k::use", a, NULL, NULL);
    ts_irvalue_replace_uses_after(a, mark, mark->outputs[0], NULL);
    ok(u1->inputs[0] == a && u2->inputs[0] == mark->outputs[0], "replace_uses_after");
    ok(uses_consistent(u1) && uses_consistent(u2), "uses still consistent");
    ts_graph_free(g);
}

static void test_naming(void)
{
    TsGraph *g = ts_graph_new(&err);
    TsIrValue *v[6];
    for (int i = 0; i < 6; i++)
        v[i] = ts_graph_add_input(g, NULL, ts_type_int(), &err);
    ts_irvalue_set_name(v[0], "x", false, &err);
    ts_irvalue_set_name(v[1], "x", false, &err);
    ts_irvalue_set_name(v[2], "x", false, &err);
    ts_irvalue_set_name(v[3], "y.5", false, &err);
    ts_irvalue_set_name(v[4], "y.5", false, &err);
    ts_irvalue_set_name(v[5], "y", false, &err);
    /* PyTorch 1.13 gives ['x.1', 'x.3', 'x', 'y.6', 'y.5', 'y'] for the same calls. */
    is_str(v[0]->name, "x.1", "the first holder of x becomes x.1");
    is_str(v[1]->name, "x.3", "the next one skips past the noted suffix: x.3");
    is_str(v[2]->name, "x", "the last setter holds x");
    is_str(v[3]->name, "y.6", "a name ending in .5 moves on to .6");
    is_str(v[4]->name, "y.5", "y.5 taken over");
    is_str(v[5]->name, "y", "y is free");

    TsGraph *h = ts_graph_new(&err);
    TsIrValue *w[4];
    for (int i = 0; i < 4; i++)
        w[i] = ts_graph_add_input(h, NULL, ts_type_int(), &err);
    ts_irvalue_set_name(w[0], "x.1", false, &err);
    ts_irvalue_set_name(w[1], "x.1", false, &err);
    ts_irvalue_set_name(w[2], "x.", false, &err);
    ts_irvalue_set_name(w[3], "x.", false, &err);
    /* PyTorch: ['x.2', 'x.1', 'x..1', 'x.'] */
    is_str(w[0]->name, "x.2", "x.1 taken: old holder x.2");
    is_str(w[1]->name, "x.1", "new holder x.1");
    is_str(w[2]->name, "x..1", "a trailing dot is part of the base");
    is_str(w[3]->name, "x.", "x. itself");

    ok(ts_irvalue_set_name(w[0], "12", false, &err) == TS_ERR_VALUE, "numeric names refused");
    like(err.msg, "Invalid name: '12'", "with PyTorch's message");
    ts_error_clear(&err);
    is_str(w[0]->name, "x.2", "a refused name leaves the old one");
    ok(ts_irvalue_set_name(w[0], "40", true, &err) == 0, "exact numeric names are allowed");
    TsIrValue *fresh = ts_graph_add_input(h, NULL, ts_type_int(), &err);
    ok(fresh->unique > 40, "later values are numbered past an exact numeric name");
    ts_irvalue_set_name(w[1], NULL, false, &err);
    ok(w[1]->name == NULL, "NULL clears a name");
    ts_irvalue_set_name(w[2], "x.1", false, &err);
    is_str(w[2]->name, "x.1", "a cleared name is free again");
    char buf[32];
    ok(strcmp(ts_irvalue_debug_name(w[1], buf, sizeof buf), buf) == 0 && atoi(buf) == (int)w[1]->unique,
       "an unnamed value prints as its number");
    ts_graph_free(g);
    ts_graph_free(h);
}

static void *test_alloc(TsAllocator *self, size_t nbytes, TsDevice device)
{
    (void)self;
    (void)device;
    return calloc(1, nbytes ? nbytes : 1);
}

static void test_free(TsAllocator *self, void *ptr, size_t nbytes, TsDevice device)
{
    (void)self;
    (void)nbytes;
    (void)device;
    free(ptr);
}

static TsAllocator allocator = {"test", test_alloc, test_free, NULL, NULL, NULL, NULL};

static void test_attributes(void)
{
    TsGraph *g = ts_graph_new(&err);
    TsNode *n = add_node(g, "test::attrs", NULL, NULL, NULL);
    ts_node_set_int(n, sym("attr::i"), -3, &err);
    ts_node_set_float(n, sym("attr::f"), 0.1, &err);
    ts_node_set_float(n, sym("attr::w"), 2.0, &err);
    ts_node_set_str(n, sym("attr::s"), "q\"\n\x01", &err);
    TsDevice cpu = {TS_DEV_CPU, -1};
    TsTensor *t = ts_tensor_empty(&allocator, cpu, TS_INT64, 0, NULL, &err);
    *(int64_t *)ts_tensor_data(t) = 7;
    ts_node_set_tensor(n, sym("attr::t"), t, &err);
    int64_t sizes[1] = {3};
    TsTensor *big = ts_tensor_empty(&allocator, cpu, TS_FLOAT32, 1, sizes, &err);
    ts_node_set_tensor(n, sym("attr::big"), big, &err);
    ts_node_set_type(n, sym("attr::ty"), ts_type_list(ts_type_int()), &err);
    TsList *l = ts_list_new(ts_type_int(), 2, &err);
    ts_list_append(l, ts_int(1), &err);
    ts_list_append(l, ts_int(2), &err);
    TsTuple *tup = ts_tuple_new(NULL, 2, &err);
    tup->items[0] = ts_obj_value(l, TS_TAG_LIST);
    tup->items[1] = ts_str_value(ts_str_from_cstr("s", &err));
    TsValue tv = ts_obj_value(tup, TS_TAG_TUPLE);
    ts_node_set_ivalue(n, sym("attr::iv"), tv, &err);
    ts_value_release(tv);
    int64_t is[2] = {1, -2};
    double fs[2] = {1.0, 2.5};
    char *ss[2] = {"a", "b"};
    const TsType *tys[2] = {ts_type_int(), ts_type_str()};
    TsAttr a = {sym("attr::is"), TS_ATTR_INTS, 2, {.is = is}};
    ok(ts_node_set_attr(n, &a, &err) == 0, "set ints");
    a = (TsAttr){sym("attr::fs"), TS_ATTR_FLOATS, 2, {.fs = fs}};
    ts_node_set_attr(n, &a, &err);
    a = (TsAttr){sym("attr::ss"), TS_ATTR_STRS, 2, {.ss = ss}};
    ts_node_set_attr(n, &a, &err);
    a = (TsAttr){sym("attr::tys"), TS_ATTR_TYPES, 2, {.tys = tys}};
    ts_node_set_attr(n, &a, &err);
    TsTensor *tl[2] = {t, big};
    a = (TsAttr){sym("attr::ts"), TS_ATTR_TENSORS, 2, {.ts = tl}};
    ts_node_set_attr(n, &a, &err);
    TsGraph *sub = ts_graph_new(&err);
    ts_node_set_graph(n, sym("attr::g"), sub, &err);
    TsGraph *gl[1] = {sub};
    a = (TsAttr){sym("attr::gs"), TS_ATTR_GRAPHS, 1, {.gs = gl}};
    ts_node_set_attr(n, &a, &err);   /* copies the graph */
    a = (TsAttr){sym("attr::c"), TS_ATTR_COMPLEX, 0, {.c = {1.5, -2}}};
    ts_node_set_attr(n, &a, &err);
    ts_tensor_release(t);
    ts_tensor_release(big);

    check_print(g,
                "graph():\n"
                "   = test::attrs[i=-3, f=0.10000000000000001, w=2., s=\"q\\\"\\n\\001\", t={7}, "
                "big=<Tensor>, ty=int[], iv=([1, 2], \"s\"), is=[1, -2], fs=[1., 2.5], "
                "ss=[\"a\", \"b\"], tys=[int, str], ts=[<Tensors>], g=<Graph>, gs=[<Graphs>], "
                "c=1.5-2.j]()\n"
                "  return ()\n",
                "attributes of every kind print as PyTorch's");

    ts_node_set_int(n, sym("attr::f"), 5, &err);
    const TsAttr *f = ts_node_attr(n, sym("attr::f"));
    ok(f && f->kind == TS_ATTR_INT && f->u.i == 5 && n->attrs[1].name == sym("attr::f"),
       "setting a name again replaces it in place");
    ts_node_remove_attr(n, sym("attr::f"));
    ok(!ts_node_attr(n, sym("attr::f")) && n->attrs[1].name == sym("attr::w"), "remove_attr");

    TsGraph *c = ts_graph_copy(g, &err);
    char *s1 = ts_graph_to_string(g, false), *s2 = ts_graph_to_string(c, false);
    is_str(s2, s1, "a copy has the same attributes");
    free(s1);
    free(s2);
    const TsAttr *cg = ts_node_attr(ts_graph_block(c)->ret->next, sym("attr::g"));
    ok(cg && cg->u.g != sub, "a copy owns its own subgraph");
    ts_graph_free(c);
    ts_graph_free(g);
}

static void test_constants(void)
{
    TsGraph *g = ts_graph_new(&err);
    TsSourceRange none = {0};
    TsSource *src = ts_source_new("f.py", "x = 1\ny = 2.5\n", 14, &err);
    TsSourceRange r = {src, 10, 13};
    ts_graph_insert_constant(g, ts_int(3), none, &err);
    ts_graph_insert_constant(g, ts_double(2.5), r, &err);
    ts_graph_insert_constant(g, ts_bool(true), none, &err);
    ts_graph_insert_constant(g, ts_none(), none, &err);
    TsValue s = ts_str_value(ts_str_from_cstr("hi", &err));
    ts_graph_insert_constant(g, s, none, &err);
    ts_value_release(s);
    TsDevice dev = {TS_DEV_CPU, -1};
    ts_graph_insert_constant(g, ts_device(dev), none, &err);
    TsList *l = ts_list_new(ts_type_float(), 2, &err);
    ts_list_append(l, ts_double(1), &err);
    ts_list_append(l, ts_double(0.5), &err);
    TsValue lv = ts_obj_value(l, TS_TAG_LIST);
    ts_graph_insert_constant(g, lv, none, &err);
    ts_value_release(lv);
    ok(ts_graph_insert_constant(g, ts_uninit(), none, &err) == NULL, "an uninitialized value is refused");
    ts_error_clear(&err);
    ts_source_release(src);
    check_print(g,
                "graph():\n"
                "  %0 : int = prim::Constant[value=3]()\n"
                "  %1 : float = prim::Constant[value=2.5]()\n"
                "  %2 : bool = prim::Constant[value=1]()\n"
                "  %3 : NoneType = prim::Constant()\n"
                "  %4 : str = prim::Constant[value=\"hi\"]()\n"
                "  %5 : Device = prim::Constant[value=\"cpu\"]()\n"
                "  %6 : float[] = prim::Constant[value=[1., 0.5]]()\n"
                "  return ()\n",
                "constants are spelled as PyTorch inserts them");
    char *with_src = ts_graph_to_string(g, true);
    like(with_src, "prim::Constant[value=2.5]() # f.py:2:5\n", "a constant keeps its source range");
    free(with_src);
    ts_graph_free(g);
}

static void test_blocks(void)
{
    TsGraph *g = ts_graph_new(&err);
    TsIrValue *c = ts_graph_add_input(g, "c", ts_type_bool(), &err);
    TsIrValue *x = ts_graph_add_input(g, "x", ts_type_tensor(), &err);
    TsIrValue *n = ts_graph_add_input(g, "n", ts_type_int(), &err);

    /* if c: y = x + x else: y = x */
    TsNode *ifn = add_node(g, "prim::If", c, NULL, ts_type_tensor());
    ts_irvalue_set_name(ifn->outputs[0], "y", false, &err);
    TsBlock *then_b = ts_node_add_block(ifn, &err), *else_b = ts_node_add_block(ifn, &err);
    ts_graph_set_insert_end(g, then_b);
    TsNode *dbl = add_node(g, "aten::add", x, x, ts_type_tensor());
    ts_block_add_output(then_b, dbl->outputs[0], &err);
    ts_block_add_output(else_b, x, &err);
    ts_graph_set_insert_end(g, ts_graph_block(g));

    /* for i in range(n): y = y * y */
    TsIrValue *t = ts_graph_insert_constant(g, ts_bool(true), (TsSourceRange){0}, &err);
    TsNode *loop = add_node(g, "prim::Loop", n, t, ts_type_tensor());
    ts_node_add_input(loop, ifn->outputs[0], &err);
    TsBlock *body = ts_node_add_block(loop, &err);
    TsIrValue *i = ts_block_add_input(body, "i", ts_type_int(), &err);
    TsIrValue *carried = ts_block_add_input(body, NULL, ts_type_tensor(), &err);
    ts_graph_set_insert_end(g, body);
    TsNode *sq = add_node(g, "aten::mul", carried, carried, ts_type_tensor());
    ts_block_add_output(body, t, &err);
    ts_block_add_output(body, sq->outputs[0], &err);
    ts_graph_set_insert_end(g, ts_graph_block(g));
    (void)i;

    /* with: = prim::With() with a body and an exit block */
    TsNode *with = add_node(g, "prim::With", NULL, NULL, NULL);
    TsBlock *wb = ts_node_add_block(with, &err), *wexit = ts_node_add_block(with, &err);
    ts_graph_set_insert_end(g, wb);
    add_node(g, "aten::relu", x, NULL, ts_type_tensor());
    ts_graph_set_insert_end(g, wexit);
    add_node(g, "prim::Exit", c, NULL, ts_type_tensor());
    ts_graph_set_insert_end(g, ts_graph_block(g));
    ts_graph_add_output(g, loop->outputs[0], &err);

    const char *want =
        "graph(%c : bool,\n"
        "      %x : Tensor,\n"
        "      %n : int):\n"
        "  %y : Tensor = prim::If(%c)\n"
        "    block0():\n"
        "      %4 : Tensor = aten::add(%x, %x)\n"
        "      -> (%4)\n"
        "    block1():\n"
        "      -> (%x)\n"
        "  %5 : bool = prim::Constant[value=1]()\n"
        "  %6 : Tensor = prim::Loop(%n, %5, %y)\n"
        "    block0(%i : int, %8 : Tensor):\n"
        "      %9 : Tensor = aten::mul(%8, %8)\n"
        "      -> (%5, %9)\n"
        "   = prim::With()\n"
        "    block0():\n"
        "      %10 : Tensor = aten::relu(%x)\n"
        "      -> ()\n"
        "    block1():\n"
        "      %11 : Tensor = prim::Exit(%c)\n"
        "      -> ()\n"
        "  return (%6)\n";
    check_print(g, want, "If, Loop and With blocks print as the overview shows");
    ok(ts_node_is_before(ifn, sq) && ts_node_is_before(dbl, loop), "order across blocks");
    ok(!ts_node_is_before(loop, sq) && !ts_node_is_before(sq, loop), "a node and its own body are unordered");

    char *text = ts_graph_to_string(g, false);
    TsGraph *parsed = ts_graph_parse(text, NULL, &err);
    char *again = parsed ? ts_graph_to_string(parsed, false) : NULL;
    is_str(again, want, "the built graph parses back to itself");
    free(again);
    free(text);
    ts_graph_free(parsed);

    TsGraph *copy = ts_graph_copy(g, &err);
    TsNode *cloop = ts_graph_block(copy)->ret->next->next->next;
    ok(cloop->kind == sym("prim::Loop") && cloop->blocks[0]->ret->inputs[0] == cloop->inputs[1],
       "the copy's body uses the copy's own outer constant");
    check_print(copy, want, "the copy prints the same");
    ts_irvalue_set_name(cloop->outputs[0], "z", false, &err);
    check_print(g, want, "renaming in the copy leaves the original alone");
    ts_graph_free(copy);

    ok(ts_node_destroy(ifn, &err) != 0, "an If whose output is used cannot go");
    ts_error_clear(&err);
    /* A value of the body used outside the loop makes the loop undeletable. */
    TsNode *leak = add_node(g, "k::peek", sq->outputs[0], NULL, NULL);
    ts_irvalue_replace_all_uses_with(loop->outputs[0], x, NULL);
    ok(ts_node_destroy(loop, &err) != 0, "a loop whose body value is used outside cannot go");
    like(err.msg, "%9 is still used", "... and the error names that value");
    ts_error_clear(&err);
    ts_node_destroy(leak, &err);
    ok(ts_node_destroy(loop, &err) == 0, "an unused loop is destroyed with its body");
    ts_node_erase_block(with, 0);
    is_int((long long)with->n_blocks, 1, "erase_block removes one block");
    check_print(g,
                "graph(%c : bool,\n"
                "      %x : Tensor,\n"
                "      %n : int):\n"
                "  %y : Tensor = prim::If(%c)\n"
                "    block0():\n"
                "      %4 : Tensor = aten::add(%x, %x)\n"
                "      -> (%4)\n"
                "    block1():\n"
                "      -> (%x)\n"
                "  %5 : bool = prim::Constant[value=1]()\n"
                "   = prim::With()\n"
                "    block0():\n"
                "      %11 : Tensor = prim::Exit(%c)\n"
                "      -> ()\n"
                "  return (%x)\n",
                "after destroying the loop and a With block");
    ts_graph_free(g);
}

static void test_subgraph(void)
{
    TsGraph *g = ts_graph_new(&err);
    TsIrValue *x = ts_graph_add_input(g, "x", ts_type_tensor(), &err);
    TsNode *fg = add_node(g, "prim::FusionGroup", x, NULL, ts_type_tensor());
    TsGraph *sub = ts_graph_new(&err);
    TsIrValue *sx = ts_graph_add_input(sub, "a", ts_type_tensor(), &err);
    TsNode *r = add_node(sub, "aten::relu", sx, NULL, ts_type_tensor());
    ts_graph_add_output(sub, r->outputs[0], &err);
    ts_node_set_graph(fg, sym("attr::Subgraph"), sub, &err);
    TsNode *fg2 = add_node(g, "prim::FusionGroup", fg->outputs[0], NULL, ts_type_tensor());
    ts_node_set_graph(fg2, sym("attr::Subgraph"), ts_graph_copy(sub, &err), &err);
    ts_graph_add_output(g, fg2->outputs[0], &err);
    const char *want =
        "graph(%x : Tensor):\n"
        "  %1 : Tensor = prim::FusionGroup_0(%x)\n"
        "  %2 : Tensor = prim::FusionGroup_1(%1)\n"
        "  return (%2)\n"
        "with prim::FusionGroup_0 = graph(%a : Tensor):\n"
        "  %1 : Tensor = aten::relu(%a)\n"
        "  return (%1)\n"
        "with prim::FusionGroup_1 = graph(%a : Tensor):\n"
        "  %1 : Tensor = aten::relu(%a)\n"
        "  return (%1)\n";
    check_print(g, want, "subgraph attributes print after the graph, numbered");
    char *text = ts_graph_to_string(g, false);
    TsGraph *p = ts_graph_parse(text, NULL, &err);
    char *again = p ? ts_graph_to_string(p, false) : NULL;
    is_str(again, want, "and parse back");
    free(again);
    free(text);
    ts_graph_free(p);
    ts_graph_free(g);
}

int main(void)
{
    test_build_and_ownership();
    test_inputs_and_order();
    test_naming();
    test_attributes();
    test_constants();
    test_blocks();
    test_subgraph();
    ts_types_shutdown();
    ts_symbols_shutdown();
    return done_testing();
}
