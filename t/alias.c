/* alias.c — AliasDb (core/ir/alias.c): the JIT overview's aliasing examples, each query,
 * moves refused when they would reorder a write past an aliasing read, a vendor operator's
 * "(a!)" annotation, containers, wildcards and fork/wait.
 *
 * Graphs are written as text and their nodes bound to operators of a table of our own,
 * made here from schema strings: the analysis must follow the annotations alone, whichever
 * namespace declares them (acme:: below is no operator tscript knows).
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "ir/alias.h"
#include "ir/ir.h"
#include "registry/optable.h"

static const char *const schemas[] = {
    "aten::mul.Scalar(Tensor self, Scalar other) -> Tensor",
    "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
    "aten::add_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!)",
    "aten::select.int(Tensor(a) self, int dim, int index) -> Tensor(a)",
    "aten::__getitem__.t(t[](a) list, int idx) -> t(*)",
    "aten::append.t(t[](a!) self, t(c -> *) el) -> t[](a!)",
    "aten::len.t(t[] a) -> int",
    "aten::contiguous(Tensor(a) self, *, int memory_format=0) -> Tensor(a)",
    "acme::scale_(Tensor(a!) self, float s) -> Tensor(a!)",
    "acme::opaque(Tensor x) -> Tensor",
    "aten::batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, "
    "Tensor? running_var, bool training, float momentum, float eps, bool cudnn_enabled) -> "
    "Tensor",
};

static TsOpTable *table;

static void make_table(void)
{
    TsError err = TS_ERROR_INIT;
    table = ts_optable_new(&err);
    for (size_t i = 0; table && i < sizeof schemas / sizeof *schemas; i++) {
        size_t off;
        TsSchema *s = ts_schema_parse(schemas[i], NULL, &off, &err);
        if (!s || ts_optable_add(table, s, "test", "alias.c", &err)) {
            diag("%s: %s", schemas[i], err.msg);
            ts_schema_free(s);
        }
    }
    ts_error_clear(&err);
}

static void bind_block(TsBlock *b)
{
    for (TsNode *n = ts_block_first_node(b); n; n = ts_node_next(n)) {
        const TsOperator *op;
        if (ts_optable_overloads(table, ts_node_kind(n), &op, 1) == 1)
            n->op = op;
        for (size_t i = 0; i < ts_node_num_blocks(n); i++)
            bind_block(ts_node_block(n, i));
    }
}

static TsGraph *parse(const char *text)
{
    TsError err = TS_ERROR_INIT;
    TsGraph *g = ts_graph_parse(text, "alias.t", &err);
    if (!g)
        diag("parse: %s", err.msg);
    ts_error_clear(&err);
    if (g)
        bind_block(ts_graph_block(g));
    return g;
}

/* The value named name ("%" left out), at any depth. */
static TsIrValue *find_in(const TsBlock *b, const char *name)
{
    char buf[32];
    for (size_t i = 0; i < ts_block_num_inputs(b); i++)
        if (strcmp(ts_irvalue_debug_name(ts_block_input(b, i), buf, sizeof buf), name) == 0)
            return ts_block_input(b, i);
    for (TsNode *n = ts_block_first_node(b); n; n = ts_node_next(n)) {
        for (size_t i = 0; i < ts_node_num_outputs(n); i++)
            if (strcmp(ts_irvalue_debug_name(ts_node_output(n, i), buf, sizeof buf), name) == 0)
                return ts_node_output(n, i);
        for (size_t i = 0; i < ts_node_num_blocks(n); i++) {
            TsIrValue *v = find_in(ts_node_block(n, i), name);
            if (v)
                return v;
        }
    }
    return NULL;
}

static TsGraph *G;
static TsAliasDb *db;

static TsIrValue *V(const char *name)
{
    TsIrValue *v = find_in(ts_graph_block(G), name);
    if (!v)
        diag("no value %%%s", name);
    return v;
}

static TsNode *N(const char *name)
{
    TsIrValue *v = V(name);
    return v ? ts_irvalue_node(v) : NULL;
}

static bool setup(const char *text)
{
    ts_alias_db_free(db);
    ts_graph_free(G);
    db = NULL;
    G = parse(text);
    TsError err = TS_ERROR_INIT;
    db = G ? ts_alias_db_new(G, &err) : NULL;
    ts_error_clear(&err);
    return ok(db != NULL, "the graph is analysed");
}

static bool alias(const char *a, const char *b)
{
    TsIrValue *va = V(a), *vb = V(b);
    return va && vb && ts_alias_may_alias(db, va, vb);
}

static bool contains(const char *a, const char *b)
{
    TsIrValue *va = V(a), *vb = V(b);
    return va && vb && ts_alias_may_contain_alias(db, va, vb);
}

static bool writers(const char *a)
{
    TsIrValue *v = V(a);
    return v && ts_alias_has_writers(db, v);
}

static bool node_writes(const char *node, const char *value)
{
    const TsIrValue *v = V(value);
    TsNode *n = N(node);
    return n && v && ts_alias_writes_to_alias(db, n, &v, 1);
}

/* The overview's example: c = 2 * b; a += 1; r = a[0] if a.max() > 4 else b[0]. */
static void overview(void)
{
    if (!setup("graph(%a : Tensor, %b : Tensor, %cond : bool):\n"
               "  %one : int = prim::Constant[value=1]()\n"
               "  %two : int = prim::Constant[value=2]()\n"
               "  %zero : int = prim::Constant[value=0]()\n"
               "  %c : Tensor = aten::mul(%b, %two)\n"
               "  %a2 : Tensor = aten::add_(%a, %one, %one)\n"
               "  %r : Tensor = prim::If(%cond)\n"
               "    block0():\n"
               "      %r1 : Tensor = aten::select(%a2, %zero, %zero)\n"
               "      -> (%r1)\n"
               "    block1():\n"
               "      %r2 : Tensor = aten::select(%b, %zero, %zero)\n"
               "      -> (%r2)\n"
               "  return (%c, %r)\n"))
        return;
    ok(alias("a", "b"), "overview: graph inputs a and b may alias (the world outside)");
    ok(!alias("c", "b") && !alias("c", "a"), "overview: c = 2 * b is fresh");
    ok(alias("a2", "a"), "overview: add_ returns its self");
    ok(alias("r", "a") && alias("r", "b"), "overview: r may point to a or to b");
    ok(alias("r1", "a") && !alias("r1", "c"), "overview: a[0] is a view of a only");
    ok(!alias("one", "a") && !alias("cond", "cond"), "overview: ints and bools alias nothing");
    ok(writers("a") && writers("b") && writers("r"), "overview: a += 1 writes a, and b may be a");
    ok(!writers("c"), "overview: nobody writes c");
    ok(node_writes("a2", "r") && !node_writes("c", "a"), "overview: writes_to_alias");
    ok(!node_writes("r", "c"), "overview: the If writes nothing c may be");
}

static char *text(void)
{
    return ts_graph_to_string(G, false);
}

/* Fresh values, views of them, a write through the view, and the moves it forbids. */
static void fresh_and_moves(void)
{
    if (!setup("graph(%x : Tensor):\n"
               "  %one : int = prim::Constant[value=1]()\n"
               "  %zero : int = prim::Constant[value=0]()\n"
               "  %y : Tensor = aten::add(%x, %x, %one)\n"
               "  %z : Tensor = aten::add(%x, %x, %one)\n"
               "  %v : Tensor = aten::select(%y, %zero, %zero)\n"
               "  %w : Tensor = aten::add_(%v, %one, %one)\n"
               "  %r : Tensor = aten::add(%y, %y, %one)\n"
               "  %s : Tensor = aten::add(%z, %z, %one)\n"
               "  return (%r, %s)\n"))
        return;
    ok(!alias("y", "z") && !alias("y", "x"), "fresh: two adds make two new tensors");
    ok(alias("v", "y") && alias("w", "y") && !alias("v", "z"), "fresh: a view aliases its base");
    ok(writers("y") && writers("v") && !writers("z") && !writers("x"),
       "fresh: a write through the view writes the base, not its neighbour");
    char *before = text();
    ok(!ts_alias_move_before_topologically_valid(db, N("r"), N("w")),
       "move: a read of y may not move before the write through its view");
    ok(!ts_alias_move_after_topologically_valid(db, N("v"), N("w")),
       "move: a definition may not move after its use");
    ok(!ts_alias_move_after_topologically_valid(db, N("w"), N("r")),
       "move: the write may not move after the read of y");
    char *after = text();
    ok(before && after && strcmp(before, after) == 0, "move: a refused move changes nothing");
    free(after);
    ok(ts_alias_move_after_topologically_valid(db, N("z"), N("w")),
       "move: z does not alias the write: it may move after it");
    ok(ts_node_prev(N("z")) == N("w"), "move: z is now right after the write");
    ok(ts_alias_move_before_topologically_valid(db, N("z"), N("v")),
       "move: and back before the view and the write");
    ok(!ts_alias_move_before_topologically_valid(db, N("s"), N("z")),
       "move: s may not move before z, which it uses");
    TsError err = TS_ERROR_INIT;
    ok(ts_graph_lint(G, &err) == 0, "move: the graph is still valid");
    ts_error_clear(&err);
    free(before);
}

/* A vendor's in-place operator: nothing in tscript knows acme::scale_, only its schema. */
static void vendor(void)
{
    if (!setup("graph(%x : Tensor):\n"
               "  %one : int = prim::Constant[value=1]()\n"
               "  %f : float = prim::Constant[value=2.]()\n"
               "  %y : Tensor = aten::add(%x, %x, %one)\n"
               "  %z : Tensor = aten::add(%x, %x, %one)\n"
               "  %r : Tensor = aten::add(%y, %y, %one)\n"
               "  %s : Tensor = acme::scale_(%y, %f)\n"
               "  %o : Tensor = acme::opaque(%z)\n"
               "  return (%r, %s, %o)\n"))
        return;
    ok(alias("s", "y"), "vendor: scale_ returns its self, as (a!) says");
    ok(writers("y") && node_writes("s", "y"), "vendor: scale_ writes y");
    ok(!node_writes("s", "z"), "vendor: scale_ writes nothing else");
    ok(!ts_alias_move_after_topologically_valid(db, N("r"), N("s")),
       "vendor: a read of y may not move after scale_(y)");
    ok(alias("o", "z") && alias("o", "x"),
       "vendor: an unannotated acme op is conservative: its output may be anything");
    ok(writers("z") && node_writes("o", "z"), "vendor: ... and it may write its input");
    ok(ts_alias_node_has_side_effects(N("o")) && !ts_alias_node_has_side_effects(N("s")),
       "vendor: the unannotated op has side effects, the annotated one only its write");
}

/* Containers: what goes into a list is a wildcard; what comes out may be anything in it. */
static void containers(void)
{
    if (!setup("graph(%x : Tensor, %xs : Tensor[]):\n"
               "  %one : int = prim::Constant[value=1]()\n"
               "  %zero : int = prim::Constant[value=0]()\n"
               "  %y : Tensor = aten::add(%x, %x, %one)\n"
               "  %z : Tensor = aten::add(%x, %x, %one)\n"
               "  %u : Tensor = aten::add(%x, %x, %one)\n"
               "  %l : Tensor[] = prim::ListConstruct(%y)\n"
               "  %m : Tensor[] = prim::ListConstruct()\n"
               "  %t : Tensor = aten::__getitem__(%l, %zero)\n"
               "  %q : Tensor = aten::__getitem__(%xs, %zero)\n"
               "  %n : int = aten::len(%m)\n"
               "  %p : (Tensor, int) = prim::TupleConstruct(%u, %one)\n"
               "  %k : Dict(str, Tensor) = prim::DictConstruct()\n"
               "  return (%t, %q, %n, %p, %z, %k)\n"))
        return;
    ok(alias("t", "y"), "containers: l[0] may be y");
    ok(contains("l", "y") && contains("l", "t"), "containers: l may contain y");
    ok(!alias("l", "y"), "containers: the list itself is not a tensor");
    ok(!contains("l", "z") && !alias("t", "z"), "containers: z never went into a list");
    ok(alias("q", "x") && alias("q", "t"), "containers: an input list's items are wildcards");
    ok(!writers("m") && !writers("l"), "containers: nothing appends to m or l");
    ok(contains("p", "u") && !alias("p", "u"), "containers: a tuple contains its tensor");
    /* What a container holds follows from its type: any wildcard of its element types (an
     * empty List[Tensor] may hold what another list holds, a coarser answer than PyTorch's,
     * never a wrong one), but never a fresh tensor that went into no container. */
    ok(!contains("k", "z"), "containers: a dict holds no fresh tensor");
    ok(contains("m", "l"), "containers: two tensor lists may share items");
    ok(!ts_alias_is_mutable_type(ts_irvalue_type(V("n"))), "containers: len is an int");
}

static void append_writes(void)
{
    if (!setup("graph(%x : Tensor):\n"
               "  %one : int = prim::Constant[value=1]()\n"
               "  %y : Tensor = aten::add(%x, %x, %one)\n"
               "  %l : Tensor[] = prim::ListConstruct()\n"
               "  %l2 : Tensor[] = aten::append(%l, %y)\n"
               "  %n : int = aten::len(%l)\n"
               "  return (%n)\n"))
        return;
    ok(writers("l") && alias("l2", "l"), "append: writes the list and returns it");
    ok(contains("l", "y"), "append: the list may contain the appended tensor");
    ok(!ts_alias_move_before_topologically_valid(db, N("n"), N("l2")),
       "append: len(l) may not move before the append");
    ok(ts_alias_node_has_writers(db, N("n")), "append: len(l) reads a written list");
}

/* fork and wait: the forked code may write what it was given, and wait may have seen it. */
static void fork_wait(void)
{
    if (!setup("graph(%x : Tensor):\n"
               "  %one : int = prim::Constant[value=1]()\n"
               "  %y : Tensor = aten::add(%x, %x, %one)\n"
               "  %z : Tensor = aten::add(%x, %x, %one)\n"
               "  %f : Future(Tensor) = prim::fork(%y)\n"
               "  %r : Tensor = aten::wait(%f)\n"
               "  return (%r, %z)\n"))
        return;
    ok(writers("y") && alias("y", "x"), "fork: its inputs become wildcards it may write");
    ok(alias("r", "x") && alias("r", "y"), "fork: wait's result may be anything");
    ok(node_writes("r", "x"), "fork: wait writes every wildcard");
    ok(!writers("z"), "fork: z was never shared");
    ok(ts_alias_node_has_side_effects(N("f")) && ts_alias_node_has_side_effects(N("r")),
       "fork: fork and wait have side effects");
}

/* A loop-carried value may be its initial value or what the body made of it. */
static void loop(void)
{
    if (!setup("graph(%x : Tensor, %n : int):\n"
               "  %one : int = prim::Constant[value=1]()\n"
               "  %zero : int = prim::Constant[value=0]()\n"
               "  %t : bool = prim::Constant[value=1]()\n"
               "  %y : Tensor = aten::add(%x, %x, %one)\n"
               "  %z : Tensor = aten::add(%x, %x, %one)\n"
               "  %out : Tensor = prim::Loop(%n, %t, %y)\n"
               "    block0(%i : int, %c : Tensor):\n"
               "      %v : Tensor = aten::select(%c, %zero, %zero)\n"
               "      -> (%t, %v)\n"
               "  return (%out, %z)\n"))
        return;
    ok(alias("c", "y") && alias("out", "y") && alias("v", "y"), "loop: carried values alias");
    ok(!alias("out", "z") && !alias("out", "x"), "loop: ... and nothing else");
}

/* batch_norm's schema has no "(a!)", yet in training it updates the running statistics. */
static void norm(void)
{
    if (!setup("graph(%x : Tensor):\n"
               "  %none : NoneType = prim::Constant()\n"
               "  %t : bool = prim::Constant[value=1]()\n"
               "  %f : bool = prim::Constant[value=0]()\n"
               "  %m : float = prim::Constant[value=0.1]()\n"
               "  %one : int = prim::Constant[value=1]()\n"
               "  %rm : Tensor = aten::add(%x, %x, %one)\n"
               "  %rv : Tensor = aten::add(%x, %x, %one)\n"
               "  %em : Tensor = aten::add(%x, %x, %one)\n"
               "  %ev : Tensor = aten::add(%x, %x, %one)\n"
               "  %train : Tensor = aten::batch_norm(%x, %none, %none, %rm, %rv, %t, %m, %m, %f)\n"
               "  %eval : Tensor = aten::batch_norm(%x, %none, %none, %em, %ev, %f, %m, %m, %f)\n"
               "  return (%train, %eval)\n"))
        return;
    ok(writers("rm") && writers("rv") && node_writes("train", "rm"),
       "norm: batch_norm in training writes its running statistics");
    ok(!writers("em") && !writers("ev"), "norm: in evaluation (training=False) it does not");
    ok(!alias("train", "x") && !alias("train", "rm"), "norm: its output is fresh");
}

static void types(void)
{
    const TsType *tt[2] = { ts_type_int(), ts_type_tensor() };
    ok(ts_alias_is_mutable_type(ts_type_tensor()), "types: Tensor is mutable");
    ok(ts_alias_is_mutable_type(ts_type_list(ts_type_int())), "types: List[int] is mutable");
    ok(ts_alias_is_mutable_type(ts_type_optional(ts_type_tensor())), "types: Tensor? is mutable");
    ok(!ts_alias_is_mutable_type(ts_type_int()) && !ts_alias_is_mutable_type(ts_type_str()),
       "types: int and str are not");
    ok(!ts_alias_is_mutable_type(ts_type_tuple(1, tt)), "types: Tuple[int] is not");
    ok(ts_alias_is_mutable_type(ts_type_tuple(2, tt)), "types: Tuple[int, Tensor] is");
}

int main(void)
{
    make_table();
    if (!ok(table != NULL, "operator table"))
        return done_testing();
    overview();
    fresh_and_moves();
    vendor();
    containers();
    append_writes();
    fork_wait();
    loop();
    norm();
    types();
    ts_alias_db_free(db);
    ts_graph_free(G);
    ts_optable_free(table);
    return done_testing();
}
