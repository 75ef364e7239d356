/* fuser_cuda_codegen.c — the CUDA fuser's pass and code generation (plugins/fuser-cuda),
 * without a device: graphs whose tensors are typed as cuda tensors go through the pass,
 * which groups them (pulling chains together past unrelated nodes where the AliasDb allows,
 * and not where a write forbids it), and every group it makes has a kernel that NVRTC
 * compiles to PTX — for the default target and for the oldest and newest architectures
 * tested here.
 *
 * The graphs are IR text, their nodes bound to operators of a table made from the real
 * schema files, so that the alias analysis sees the annotations (chunk's view, add_'s
 * write) it sees in a program.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "../plugins/fuser-cuda/fuser.h"
#include "registry/optable.h"
#include "registry/schema.h"
#include "registry/yaml_schemas.h"
#include "ir/ir.h"

static TsOpTable *table;

static void load_table(void)
{
    static const char *const files[] = { "aten.yaml", "aten_layers.yaml", "aten_reduce.yaml" };
    TsError err = TS_ERROR_INIT;
    table = ts_optable_new(&err);
    for (size_t f = 0; table && f < sizeof files / sizeof *files; f++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/schemas/%s", TS_TEST_SRCDIR, files[f]);
        TsSchemaSet set;
        if (ts_yaml_schemas_load(path, &set, &err) == 0)
            for (size_t i = 0; i < set.n; i++)
                if (ts_optable_add(table, set.decls[i].schema, "test", files[f], &err) == 0)
                    set.decls[i].schema = NULL;
        if (err.msg)
            diag("%s: %s", files[f], err.msg);
        ts_error_clear(&err);
        ts_schema_set_free(&set);
    }
}

/* Binds each node to an overload with as many arguments as it has inputs. */
static void bind_block(TsBlock *b)
{
    for (TsNode *n = ts_block_first_node(b); n; n = ts_node_next(n)) {
        const TsOperator *ops[16];
        size_t k = ts_optable_overloads(table, ts_node_kind(n), ops, 16);
        for (size_t i = 0; i < k && i < 16; i++)
            if (ops[i]->schema->n_args == ts_node_num_inputs(n)) {
                n->op = ops[i];
                break;
            }
        for (size_t i = 0; i < ts_node_num_blocks(n); i++)
            bind_block(ts_node_block(n, i));
    }
}

/* How many nodes of kind the block and the blocks in it hold. */
static int count(const TsBlock *b, const char *kind)
{
    int c = 0;
    for (TsNode *n = ts_block_first_node(b); n; n = ts_node_next(n)) {
        c += strcmp(ts_node_kind(n), kind) == 0;
        for (size_t i = 0; i < ts_node_num_blocks(n); i++)
            c += count(ts_node_block(n, i), kind);
    }
    return c;
}

static int kernels_checked;

/* Every group's kernel: generated, compiled for arch, and PTX with the kernel's entry. */
static bool group_ptx_ok(const TsBlock *b, const char *arch, const char *label)
{
    bool good = true;
    for (TsNode *n = ts_block_first_node(b); n; n = ts_node_next(n)) {
        for (size_t i = 0; i < ts_node_num_blocks(n); i++)
            good = group_ptx_ok(ts_node_block(n, i), arch, label) && good;
        if (strcmp(ts_node_kind(n), "prim::FusionGroup") != 0)
            continue;
        TsError err = TS_ERROR_INIT;
        TsGraph *sub = NULL;
        FcKernel *k = ts_attr_get_graph(n, "Subgraph", &sub, &err) ? NULL
                                                                   : fc_codegen(sub, &err);
        char *ptx = NULL;
        if (k && !fc_nvrtc_compile(k->source, arch, &ptx, &err) &&
            strstr(ptx, ".entry fusion") && strstr(ptx, ".version")) {
            kernels_checked++;
        } else {
            good = false;
            diag("%s (%s): %s", label, arch, err.msg ? err.msg : "no .entry in the PTX");
            if (k)
                diag("%s", k->source);
        }
        free(ptx);
        fc_kernel_free(k);
        ts_error_clear(&err);
    }
    return good;
}

/* Parses text, runs the pass, and checks what it grouped: groups FusionGroups, and the
 * given node kinds left outside them (kind=count, ...; NULL-terminated pairs). */
static TsGraph *fuse(const char *label, const char *text, int groups, ...)
{
    TsError err = TS_ERROR_INIT;
    TsGraph *g = ts_graph_parse(text, label, &err);
    if (!g) {
        ok(0, "%s: parses: %s", label, err.msg);
        ts_error_clear(&err);
        return NULL;
    }
    bind_block(ts_graph_block(g));
    int rc = fc_pass(g, NULL, &err);
    ok(rc == 0 && ts_graph_lint(g, &err) == 0, "%s: the pass runs, the graph is valid%s%s",
       label, err.msg ? ": " : "", err.msg ? err.msg : "");
    ts_error_clear(&err);
    char *s = ts_graph_to_string(g, false);
    int got = count(ts_graph_block(g), "prim::FusionGroup");
    if (!is_int(got, groups, "%s: %d fusion group(s)", label, groups))
        diag("%s", s);
    va_list ap;
    va_start(ap, groups);
    for (const char *kind; (kind = va_arg(ap, const char *));) {
        int want = va_arg(ap, int);
        if (!is_int(count(ts_graph_block(g), kind), want, "%s: %d %s left", label, want, kind))
            diag("%s", s);
    }
    va_end(ap);
    free(s);
    ok(group_ptx_ok(ts_graph_block(g), fc_target_arch(), label),
       "%s: every group's kernel compiles to PTX", label);
    return g;
}

#define F "Float(*, *, device=cuda:0)"

static void every_op(void)
{
    TsGraph *g = fuse("ops",
        "graph(%x : " F ", %y : " F "):\n"
        "  %one : int = prim::Constant[value=1]()\n"
        "  %a : " F " = aten::abs(%x)\n"
        "  %b : " F " = aten::add(%a, %y, %one)\n"
        "  %c : " F " = aten::sqrt(%b)\n"
        "  %d : " F " = aten::rsqrt(%c)\n"
        "  %e : " F " = aten::log(%d)\n"
        "  %f : " F " = aten::exp(%e)\n"
        "  %g : " F " = aten::neg(%f)\n"
        "  %h : " F " = aten::reciprocal(%g)\n"
        "  %i : " F " = aten::relu(%h)\n"
        "  %j : " F " = aten::sigmoid(%i)\n"
        "  %k : " F " = aten::tanh(%j)\n"
        "  %l : " F " = aten::sub(%k, %x, %one)\n"
        "  %m : " F " = aten::mul(%l, %y)\n"
        "  %n : " F " = aten::div(%m, %x)\n"
        "  return (%n)\n", 1, "aten::abs", 0, "aten::div", 0, "aten::tanh", 0, NULL);
    ts_graph_free(g);
}

static void scalars(void)
{
    TsGraph *g = fuse("scalars",
        "graph(%x : " F ", %k : float, %n : int):\n"
        "  %two : int = prim::Constant[value=2]()\n"
        "  %half : float = prim::Constant[value=0.5]()\n"
        "  %nz : float = prim::Constant[value=-0.]()\n"
        "  %inf : float = prim::Constant[value=inf]()\n"
        "  %a : " F " = aten::mul(%x, %k)\n"
        "  %b : " F " = aten::add(%a, %x, %n)\n"
        "  %c : " F " = aten::sub(%x, %k, %two)\n"
        "  %d : " F " = aten::div(%c, %n)\n"
        "  %e : " F " = aten::sub(%b, %d, %half)\n"
        "  %f : " F " = aten::mul(%e, %nz)\n"
        "  %h : " F " = aten::add(%f, %inf, %two)\n"
        "  return (%h)\n", 1, "aten::mul", 0, "aten::add", 0, NULL);
    TsNode *fg = g ? ts_block_first_node(ts_graph_block(g)) : NULL;
    while (fg && strcmp(ts_node_kind(fg), "prim::FusionGroup") != 0)
        fg = ts_node_next(fg);
    is_int(fg ? (long long)ts_node_num_inputs(fg) : -1, 3,
           "scalars: the number inputs (a float, an int alpha) join the group");
    ts_graph_free(g);
}

static void broadcasting(void)
{
    TsGraph *g = fuse("shapes",
        "graph(%a : Float(2, 3, device=cuda:0), %row : Float(3, device=cuda:0),"
        " %col : Float(2, 1, device=cuda:0)):\n"
        "  %one : int = prim::Constant[value=1]()\n"
        "  %two : int = prim::Constant[value=2]()\n"
        "  %r2 : Float(3, device=cuda:0) = aten::mul(%row, %two)\n"
        "  %s : Float(2, 3, device=cuda:0) = aten::add(%a, %r2, %one)\n"
        "  %t : Float(2, 3, device=cuda:0) = aten::sub(%s, %one, %one)\n"
        "  %u : Float(3, device=cuda:0) = aten::add(%r2, %one, %one)\n"
        "  %v : Float(2, 1, device=cuda:0) = aten::div(%col, %two)\n"
        "  %w : Float(2, 1, device=cuda:0) = aten::sub(%v, %col, %one)\n"
        "  %z : Float(2, 3, device=cuda:0) = aten::relu(%t)\n"
        "  return (%z, %u, %w, %r2)\n", 2, "aten::mul", 0, "aten::div", 0, NULL);
    /* the col chain shares nothing with the rest: a group of its own */
    TsNode *fg = g ? ts_block_first_node(ts_graph_block(g)) : NULL;
    while (fg && strcmp(ts_node_kind(fg), "prim::FusionGroup") != 0)
        fg = ts_node_next(fg);
    const TsTensorTypeInfo *o0 = NULL, *o1 = NULL;
    if (fg && ts_node_num_outputs(fg) == 2) {
        o0 = ts_type_tensor_info(ts_irvalue_type(ts_node_output(fg, 0)));
        o1 = ts_type_tensor_info(ts_irvalue_type(ts_node_output(fg, 1)));
    }
    ok(o0 && o1 && o0->dim != o1->dim, "shapes: a group with outputs of two shapes");
    ts_graph_free(g);
}

static void chunk(void)
{
    TsGraph *g = fuse("chunk",
        "graph(%gates : " F ", %cx : " F "):\n"
        "  %four : int = prim::Constant[value=4]()\n"
        "  %one : int = prim::Constant[value=1]()\n"
        "  %l : Tensor[] = aten::chunk(%gates, %four, %one)\n"
        "  %i.1 : " F ", %f.1 : " F ", %c.1 : " F ", %o.1 : " F " = prim::ListUnpack(%l)\n"
        "  %i : " F " = aten::sigmoid(%i.1)\n"
        "  %f : " F " = aten::sigmoid(%f.1)\n"
        "  %c : " F " = aten::tanh(%c.1)\n"
        "  %o : " F " = aten::sigmoid(%o.1)\n"
        "  %fc : " F " = aten::mul(%f, %cx)\n"
        "  %ic : " F " = aten::mul(%i, %c)\n"
        "  %cy : " F " = aten::add(%fc, %ic, %one)\n"
        "  %tc : " F " = aten::tanh(%cy)\n"
        "  %hy : " F " = aten::mul(%o, %tc)\n"
        "  return (%hy, %cy)\n", 1, "aten::chunk", 0, "prim::ListUnpack", 0,
        "aten::sigmoid", 0, NULL);
    char *s = g ? ts_graph_to_string(g, false) : NULL;
    ok(s && strstr(s, "prim::ConstantChunk[chunks=4, dim=1]"),
       "chunk: the group takes the gates whole and chunks them itself");
    free(s);
    ts_graph_free(g);
}

/* The whole LSTM cell: the adds that make the gates join the group that chunks them, the
 * chunk moving to the tensors they read (the biases, of one dim, broadcast first), so one
 * kernel computes the cell and the gates are never written. Not where the gates are used
 * after the chunk too. */
static void chunk_through_adds(void)
{
#define V "Float(*, device=cuda:0)"
#define CELL \
        "graph(%xw : " F ", %hw : " F ", %b_ih : " V ", %b_hh : " V ", %cx : " F "):\n" \
        "  %four : int = prim::Constant[value=4]()\n" \
        "  %one : int = prim::Constant[value=1]()\n" \
        "  %s1 : " F " = aten::add(%xw, %hw, %one)\n" \
        "  %s2 : " F " = aten::add(%s1, %b_ih, %one)\n" \
        "  %gates : " F " = aten::add(%s2, %b_hh, %one)\n" \
        "  %l : Tensor[] = aten::chunk(%gates, %four, %one)\n" \
        "  %i.1 : " F ", %f.1 : " F ", %c.1 : " F ", %o.1 : " F " = prim::ListUnpack(%l)\n" \
        "  %i : " F " = aten::sigmoid(%i.1)\n" \
        "  %f : " F " = aten::sigmoid(%f.1)\n" \
        "  %c : " F " = aten::tanh(%c.1)\n" \
        "  %o : " F " = aten::sigmoid(%o.1)\n" \
        "  %fc : " F " = aten::mul(%f, %cx)\n" \
        "  %ic : " F " = aten::mul(%i, %c)\n" \
        "  %cy : " F " = aten::add(%fc, %ic, %one)\n" \
        "  %tc : " F " = aten::tanh(%cy)\n" \
        "  %hy : " F " = aten::mul(%o, %tc)\n" \
        "  return (%hy, %cy"
    TsGraph *g = fuse("lstm", CELL ")\n", 1, "aten::chunk", 0, "prim::ListUnpack", 0,
                      "aten::add", 0, "aten::sigmoid", 0, NULL);
    char *s = g ? ts_graph_to_string(g, false) : NULL;
    ok(s && strstr(s, "prim::BroadcastingChunk[chunks=4, dim=1]") &&
           !strstr(s, "prim::ConstantChunk"),
       "lstm: one group; the chunk moved to the four tensors the adds read");
    TsNode *fg = g ? ts_block_first_node(ts_graph_block(g)) : NULL;
    while (fg && strcmp(ts_node_kind(fg), "prim::FusionGroup") != 0)
        fg = ts_node_next(fg);
    is_int(fg ? (long long)ts_node_num_inputs(fg) : -1, 5, "lstm: the group takes xw, hw, the "
           "biases and cx");
    free(s);
    ts_graph_free(g);
    /* the gates returned too: the adds stay a group of their own */
    g = fuse("lstm-gates-used", CELL ", %gates)\n", 2, "aten::chunk", 0, NULL);
    s = g ? ts_graph_to_string(g, false) : NULL;
    ok(s && !strstr(s, "prim::BroadcastingChunk") && strstr(s, "prim::ConstantChunk"),
       "lstm-gates-used: the second group chunks the gates");
    free(s);
    ts_graph_free(g);
#undef CELL
#undef V
}

/* The cell as a program writes it: the products x.mm(w_ih.t()) and hx.mm(w_hh.t()) join
 * the group too (their operands stay outside; the kernel computes small products itself),
 * and nothing is left of the cell outside the group but the transposes. */
static void products(void)
{
#define V "Float(*, device=cuda:0)"
    TsGraph *g = fuse("lstm-mm",
        "graph(%x : " F ", %hx : " F ", %cx : " F ", %w_ih : " F ", %w_hh : " F ","
        " %b_ih : " V ", %b_hh : " V "):\n"
        "  %four : int = prim::Constant[value=4]()\n"
        "  %one : int = prim::Constant[value=1]()\n"
        "  %wt : " F " = aten::t(%w_ih)\n"
        "  %xw : " F " = aten::mm(%x, %wt)\n"
        "  %ht : " F " = aten::t(%w_hh)\n"
        "  %hw : " F " = aten::mm(%hx, %ht)\n"
        "  %s1 : " F " = aten::add(%xw, %hw, %one)\n"
        "  %s2 : " F " = aten::add(%s1, %b_ih, %one)\n"
        "  %gates : " F " = aten::add(%s2, %b_hh, %one)\n"
        "  %l : Tensor[] = aten::chunk(%gates, %four, %one)\n"
        "  %i.1 : " F ", %f.1 : " F ", %c.1 : " F ", %o.1 : " F " = prim::ListUnpack(%l)\n"
        "  %i : " F " = aten::sigmoid(%i.1)\n"
        "  %f : " F " = aten::sigmoid(%f.1)\n"
        "  %c : " F " = aten::tanh(%c.1)\n"
        "  %o : " F " = aten::sigmoid(%o.1)\n"
        "  %fc : " F " = aten::mul(%f, %cx)\n"
        "  %ic : " F " = aten::mul(%i, %c)\n"
        "  %cy : " F " = aten::add(%fc, %ic, %one)\n"
        "  %tc : " F " = aten::tanh(%cy)\n"
        "  %hy : " F " = aten::mul(%o, %tc)\n"
        "  return (%hy, %cy)\n", 1, "aten::mm", 0, "aten::add", 0, "aten::chunk", 0,
        "aten::t", 2, NULL);
    TsNode *fg = g ? ts_block_first_node(ts_graph_block(g)) : NULL;
    while (fg && strcmp(ts_node_kind(fg), "prim::FusionGroup") != 0)
        fg = ts_node_next(fg);
    is_int(fg ? (long long)ts_node_num_inputs(fg) : -1, 7, "lstm-mm: the group takes x, hx, "
           "the transposed weights, the biases and cx");
    TsGraph *sub = NULL;
    TsError err = TS_ERROR_INIT;
    FcKernel *k = fg && !ts_attr_get_graph(fg, "Subgraph", &sub, &err) ? fc_codegen(sub, &err)
                                                                      : NULL;
    is_int(k ? (long long)k->n_mm : -1, 2, "lstm-mm: its kernel computes two products");
    ok(k && strstr(k->source, "a.mm[1].on"), "lstm-mm: ... where they are small");
    fc_kernel_free(k);
    ts_error_clear(&err);
    ts_graph_free(g);
    /* a product whose result is also used after the group stays outside */
    g = fuse("mm-used",
        "graph(%x : " F ", %w : " F ", %b : " V "):\n"
        "  %two : int = prim::Constant[value=2]()\n"
        "  %one : int = prim::Constant[value=1]()\n"
        "  %xw : " F " = aten::mm(%x, %w)\n"
        "  %g : " F " = aten::add(%xw, %b, %one)\n"
        "  %l : Tensor[] = aten::chunk(%g, %two, %one)\n"
        "  %p : " F ", %q : " F " = prim::ListUnpack(%l)\n"
        "  %s : " F " = aten::sigmoid(%p)\n"
        "  %r : " F " = aten::mul(%s, %q)\n"
        "  return (%r, %xw)\n", 1, "aten::mm", 1, "aten::add", 0, NULL);
    ts_graph_free(g);
#undef V
}

/* A chain interleaved with unrelated nodes: the producer moves down to its consumer, or the
 * consumer up to its producer, past nodes that use neither's result. */
static void interleaved(void)
{
    TsGraph *g = fuse("interleaved",
        "graph(%x : " F ", %y : " F "):\n"
        "  %two : int = prim::Constant[value=2]()\n"
        "  %one : int = prim::Constant[value=1]()\n"
        "  %a : " F " = aten::mul(%x, %two)\n"
        "  %m : " F " = aten::mm(%y, %y)\n"
        "  %b : " F " = aten::sigmoid(%a)\n"
        "  %n : " F " = aten::mm(%m, %y)\n"
        "  %c : " F " = aten::add(%b, %x, %one)\n"
        "  return (%c, %n)\n", 1, "aten::mm", 2, "aten::mul", 0, "aten::sigmoid", 0, NULL);
    ts_graph_free(g);
    g = fuse("consumer up",
        "graph(%x : " F "):\n"
        "  %two : int = prim::Constant[value=2]()\n"
        "  %one : int = prim::Constant[value=1]()\n"
        "  %a : " F " = aten::mul(%x, %two)\n"
        "  %m : " F " = aten::mm(%a, %a)\n"
        "  %b : " F " = aten::add(%a, %one, %one)\n"
        "  %c : " F " = aten::exp(%b)\n"
        "  return (%c, %m)\n", 1, "aten::mm", 1, "aten::mul", 0, "aten::exp", 0, NULL);
    ts_graph_free(g);
}

/* What must stay unfused. */
static void refused(void)
{
    ts_graph_free(fuse("cpu",
        "graph(%x : Float(*, device=cpu)):\n"
        "  %a : Float(*, device=cpu) = aten::sigmoid(%x)\n"
        "  %b : Float(*, device=cpu) = aten::tanh(%a)\n"
        "  return (%b)\n", 0, "aten::tanh", 1, NULL));
    ts_graph_free(fuse("untyped",
        "graph(%x : Tensor):\n"
        "  %a : Tensor = aten::sigmoid(%x)\n"
        "  %b : Tensor = aten::tanh(%a)\n"
        "  return (%b)\n", 0, "aten::tanh", 1, NULL));
    ts_graph_free(fuse("int64",
        "graph(%x : Long(*, device=cuda:0)):\n"
        "  %two : int = prim::Constant[value=2]()\n"
        "  %a : Long(*, device=cuda:0) = aten::mul(%x, %two)\n"
        "  %b : Long(*, device=cuda:0) = aten::mul(%a, %two)\n"
        "  return (%b)\n", 0, "aten::mul", 2, NULL));
    ts_graph_free(fuse("mixed devices",
        "graph(%x : Float(*, device=cuda:0), %y : Float(*, device=cpu)):\n"
        "  %a : Float(*, device=cuda:0) = aten::sigmoid(%x)\n"
        "  %b : Float(*, device=cuda:0) = aten::mul(%a, %y)\n"
        "  return (%b)\n", 0, "aten::mul", 1, NULL));
    ts_graph_free(fuse("not fusible",
        "graph(%x : " F "):\n"
        "  %a : " F " = aten::sigmoid(%x)\n"
        "  %m : " F " = aten::mm(%a, %a)\n"
        "  %b : " F " = aten::tanh(%m)\n"
        "  return (%b)\n", 0, "aten::mm", 1, NULL));
    /* x is written between the two reads: neither the mul may move after the write nor the
     * add before it */
    ts_graph_free(fuse("write between",
        "graph(%x : " F "):\n"
        "  %two : int = prim::Constant[value=2]()\n"
        "  %one : int = prim::Constant[value=1]()\n"
        "  %a : " F " = aten::mul(%x, %two)\n"
        "  %w : " F " = aten::add_(%x, %one, %one)\n"
        "  %b : " F " = aten::add(%a, %x, %one)\n"
        "  return (%b, %w)\n", 0, "aten::add_", 1, "aten::mul", 1, NULL));
}

static void dtypes(void)
{
    ts_graph_free(fuse("float64",
        "graph(%x : Double(*, device=cuda:0)):\n"
        "  %tenth : float = prim::Constant[value=0.1]()\n"
        "  %a : Double(*, device=cuda:0) = aten::mul(%x, %tenth)\n"
        "  %b : Double(*, device=cuda:0) = aten::tanh(%a)\n"
        "  %c : Double(*, device=cuda:0) = aten::rsqrt(%b)\n"
        "  return (%c)\n", 1, "aten::tanh", 0, NULL));
    ts_graph_free(fuse("float16",
        "graph(%x : Half(*, device=cuda:0), %y : Half(*, device=cuda:0)):\n"
        "  %one : int = prim::Constant[value=1]()\n"
        "  %a : Half(*, device=cuda:0) = aten::sigmoid(%x)\n"
        "  %b : Half(*, device=cuda:0) = aten::add(%a, %y, %one)\n"
        "  return (%b)\n", 1, "aten::add", 0, NULL));
}

static void in_blocks(void)
{
    ts_graph_free(fuse("loop body",
        "graph(%x : " F ", %n : int):\n"
        "  %t : bool = prim::Constant[value=1]()\n"
        "  %y : " F " = prim::Loop(%n, %t, %x)\n"
        "    block0(%i : int, %c : " F "):\n"
        "      %a : " F " = aten::sigmoid(%c)\n"
        "      %b : " F " = aten::tanh(%a)\n"
        "      -> (%t, %b)\n"
        "  return (%y)\n", 1, "aten::tanh", 0, NULL));
}

/* The kernels of every group made above compile for other architectures too. */
static void architectures(void)
{
    TsError err = TS_ERROR_INIT;
    TsGraph *g = ts_graph_parse("graph(%x : Half(*, device=cuda:0)):\n"
                                "  %a : Half(*, device=cuda:0) = aten::sigmoid(%x)\n"
                                "  %b : Half(*, device=cuda:0) = aten::exp(%a)\n"
                                "  return (%b)\n", "arch", &err);
    if (g) {
        bind_block(ts_graph_block(g));
        fc_pass(g, NULL, &err);
        ok(group_ptx_ok(ts_graph_block(g), "compute_75", "arch"), "compute_75 PTX");
        ok(group_ptx_ok(ts_graph_block(g), "compute_90", "arch"), "compute_90 PTX");
    }
    ts_graph_free(g);
    ts_error_clear(&err);
    FcKernel *k = NULL;
    char *ptx = NULL;
    ok(fc_nvrtc_compile("this is not CUDA", "compute_90", &ptx, &err) != 0 && !ptx &&
       err.msg && strstr(err.msg, "NVRTC"), "a source that does not compile is an error, with "
       "the compiler's log");
    ts_error_clear(&err);
    g = ts_graph_parse("graph(%x : " F "):\n"
                       "  %a : " F " = aten::mm(%x, %x)\n"
                       "  return (%a)\n", "bad", &err);
    ok(g && !(k = fc_codegen(g, &err)) && err.msg,
       "codegen refuses a Subgraph with an operator it does not run");
    fc_kernel_free(k);
    ts_graph_free(g);
    ts_error_clear(&err);
}

int main(void)
{
    load_table();
    every_op();
    scalars();
    broadcasting();
    chunk();
    chunk_through_adds();
    products();
    interleaved();
    refused();
    dtypes();
    in_blocks();
    architectures();
    ok(kernels_checked >= 10, "%d kernels compiled to PTX", kernels_checked);
    fc_program_cache_clear();
    ts_optable_free(table);
    return done_testing();
}
