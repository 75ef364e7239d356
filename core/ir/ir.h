/* ir.h — the program representation: Graph, Block, Node, Value (the core's view).
 *
 * The public API (include/tscript/ir.h: opaque handles, checked rewriting, attributes by
 * name) is declared there and included here; this header adds the structs, symbols, the
 * insertion point and the unchecked primitives the frontend builds graphs with.
 *
 * As in PyTorch's JIT overview ("Core Program Representation"): a Graph owns every Block,
 * Node and Value in it. A Node's kind is an interned Symbol ("aten::add"); the set of kinds
 * is open. A Block holds a circular list of Nodes whose sentinel is its prim::Return node
 * (inputs = the block's outputs); its prim::Param node (outputs = the block's inputs) is not
 * in the list. Values are defined once (SSA) and know their uses. Control flow is structured:
 * prim::If has two blocks, prim::Loop one, prim::With two.
 *
 * Graph-building functions return NULL / non-zero only on out-of-memory or misuse, with err.
 */
#ifndef TSCRIPT_CORE_IR_H
#define TSCRIPT_CORE_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "frontend/source.h"
#include "tscript/ir.h"
#include "tscript/types.h"
#include "tscript/value.h"

/* ---- symbols: interned "ns::name" strings, compared by pointer ---------- */
typedef const char *TsSymbol;

/* Interns s (thread-safe); NULL only on out-of-memory. Symbols live until
 * ts_symbols_shutdown(). */
TsSymbol ts_symbol(const char *s);
/* The namespace part ("aten") and the unqualified name ("add") of "aten::add". */
size_t ts_symbol_ns(TsSymbol s, char *buf, size_t size);
const char *ts_symbol_unqual(TsSymbol s);
void ts_symbols_shutdown(void);

typedef struct TsUse {
    TsNode *user;
    size_t offset;             /* which input of user */
} TsUse;

struct TsIrValue {
    TsNode *node;              /* the defining node (prim::Param for block inputs) */
    size_t offset;             /* which output of node */
    const TsType *type;
    char *name;                /* debug name ("x", "x.1", "25"), or NULL: printed as its number */
    size_t unique;             /* graph-unique number */
    TsUse *uses;
    size_t n_uses, cap_uses;
};

typedef struct TsAttr {
    TsSymbol name;             /* an "attr::" symbol, as PyTorch's: ts_symbol("attr::value");
                                  printed unqualified ("[value=1]") */
    TsAttrKind kind;
    size_t n;                  /* list kinds: element count */
    union {
        int64_t i;
        double f;
        double c[2];
        char *s;
        TsTensor *t;
        TsGraph *g;
        const TsType *ty;
        TsValue iv;
        int64_t *is;
        double *fs;
        char **ss;
        TsTensor **ts;
        TsGraph **gs;
        const TsType **tys;
    } u;
} TsAttr;

/* Where an inlined node was called from, as PyTorch's InlinedCallStack: one entry per call
 * that was inlined, innermost first. An entry is immutable and shared (reference counted)
 * by every node copied from one callee at one call site, and by the entries of calls
 * inlined inside that callee (their `outer`). The interpreter prints a frame running such
 * a node as the frames the calls would have had (core/sched/interp.c). */
typedef struct TsCallSite {
    const struct TsCallSite *outer;   /* the call that this one's caller was inlined from */
    char *callee;              /* the called function's qualified name */
    const char *name;          /* its unqualified part (into callee), as tracebacks print it */
    TsSourceRange range;       /* the call, in its caller's source */
    size_t refs;               /* atomic */
} TsCallSite;

/* A new entry (one reference) for a call of `callee` at `range` whose node had call stack
 * `outer` (retained); NULL on out-of-memory. */
TsCallSite *ts_callsite_new(const TsCallSite *outer, const char *callee, TsSourceRange range,
                            TsError *err);
const TsCallSite *ts_callsite_retain(const TsCallSite *c);
void ts_callsite_release(const TsCallSite *c);
/* n's call stack becomes c (retained; NULL clears it). */
void ts_node_set_callstack(TsNode *n, const TsCallSite *c);

struct TsNode {
    TsSymbol kind;
    TsGraph *graph;
    TsBlock *owning_block;     /* NULL while not inserted */
    TsNode *next, *prev;       /* the block's circular list; NULL while not inserted */
    TsIrValue **inputs;
    size_t n_inputs, cap_inputs;
    TsIrValue **outputs;
    size_t n_outputs, cap_outputs;
    TsBlock **blocks;
    size_t n_blocks;
    TsAttr *attrs;
    size_t n_attrs;
    TsSourceRange range;       /* where the node came from (owns a source reference) */
    const void *op;            /* the matched operator (const TsOperator *) or NULL */
    const TsCallSite *callstack;   /* inlined from a call (a reference), or NULL */
};

struct TsBlock {
    TsGraph *graph;
    TsNode *owning_node;       /* NULL for the graph's top block */
    TsNode *param;             /* prim::Param: its outputs are the block's inputs */
    TsNode *ret;               /* prim::Return: its inputs are the block's outputs; sentinel */
};

/* ---- graphs (ts_graph_new, _copy, _add_input, ...: tscript/ir.h) ----------- */
/* Insertion point: new nodes go before it (initially the top block's return node). */
void ts_graph_set_insert_point(TsGraph *g, TsNode *before);
void ts_graph_set_insert_end(TsGraph *g, TsBlock *b);
TsNode *ts_graph_insert_point(const TsGraph *g);

/* A new node of kind with n_outputs outputs (typed Tensor until set), not inserted. */
TsNode *ts_graph_create(TsGraph *g, TsSymbol kind, size_t n_outputs, TsError *err);
/* Inserts n at the insertion point and returns it. */
TsNode *ts_graph_insert(TsGraph *g, TsNode *n);
/* A prim::Constant for v (int, float, bool, str, None, device, list of those, tensor...)
 * inserted at the insertion point; its output typed by ts_value_type(v). */
TsIrValue *ts_graph_insert_constant(TsGraph *g, TsValue v, TsSourceRange range, TsError *err);
/* Its inverse is ts_constant_value (tscript/ir.h). A block's inputs are the outputs of its
 * prim::Param node, its outputs the inputs of its prim::Return node. */

/* ---- nodes (unchecked: the frontend's primitives; see also tscript/ir.h) ----- */
/* A copy of src (attributes, range, operator, call stack, its blocks recursively) inserted
 * at g's insertion point, as PyTorch's createClone: each input is what map holds for it,
 * else (a value of g defined outside what is copied) the value itself; the copy's values
 * are added to map. src may be of another graph, all of whose values it uses are in map.
 * NULL with err (out of memory, or a value of another graph that map lacks). */
struct TsPtrMap;
TsNode *ts_node_clone(TsGraph *g, const TsNode *src, struct TsPtrMap *map, TsError *err);
int ts_node_insert_input(TsNode *n, size_t i, TsIrValue *v, TsError *err);
/* Input i of n becomes v; fails (n unchanged) only out of memory. */
int ts_node_replace_input(TsNode *n, size_t i, TsIrValue *v, TsError *err);
void ts_node_remove_input(TsNode *n, size_t i);
void ts_node_remove_all_inputs(TsNode *n);
/* Refused (returns non-zero) while the output has uses. */
int ts_node_erase_output(TsNode *n, size_t i, TsError *err);
TsBlock *ts_node_add_block(TsNode *n, TsError *err);
void ts_node_erase_block(TsNode *n, size_t i);

void ts_node_insert_before(TsNode *n, TsNode *pos);   /* n not yet in a block */
void ts_node_insert_after(TsNode *n, TsNode *pos);
void ts_node_move_before(TsNode *n, TsNode *pos);     /* n already in a block */
void ts_node_move_after(TsNode *n, TsNode *pos);

/* Attributes: set replaces an attribute of the same name. Strings/lists are copied; tensors
 * are retained; graphs are owned by the node from then on. */
int ts_node_set_int(TsNode *n, TsSymbol name, int64_t v, TsError *err);
int ts_node_set_float(TsNode *n, TsSymbol name, double v, TsError *err);
int ts_node_set_str(TsNode *n, TsSymbol name, const char *v, TsError *err);
int ts_node_set_tensor(TsNode *n, TsSymbol name, TsTensor *v, TsError *err);
int ts_node_set_graph(TsNode *n, TsSymbol name, TsGraph *v, TsError *err);
int ts_node_set_type(TsNode *n, TsSymbol name, const TsType *v, TsError *err);
int ts_node_set_ivalue(TsNode *n, TsSymbol name, TsValue v, TsError *err);  /* retains v */
int ts_node_set_attr(TsNode *n, const TsAttr *a, TsError *err);            /* copies a */
const TsAttr *ts_node_attr(const TsNode *n, TsSymbol name);                 /* or NULL */
void ts_node_remove_attr(TsNode *n, TsSymbol name);
void ts_node_set_range(TsNode *n, TsSourceRange r);

/* ---- values ----------------------------------------------------------------- */
/* Sets the debug name as PyTorch does: a name that another value holds is taken from it,
 * and that value is renamed "name.N" with the next free N. NULL clears the name. Names that
 * are all digits are refused (they would clash with printed numbers) unless exact is true,
 * which the IR parser uses to keep "%25" as written. */
int ts_irvalue_set_name(TsIrValue *v, const char *name, bool exact, TsError *err);
int ts_irvalue_replace_all_uses_with(TsIrValue *v, TsIrValue *with, TsError *err);
/* Replaces only the uses after node `after` in program order. */
int ts_irvalue_replace_uses_after(TsIrValue *v, TsNode *after, TsIrValue *with,
                                  TsError *err);
/* Makes room for n more uses of v, so that moving n uses to it cannot fail; -1 on OOM. */
int ts_irvalue_reserve_uses(TsIrValue *v, size_t n);
/* Is n outer itself, or inside one of outer's blocks at any depth? */
bool ts_node_is_within(const TsNode *n, const TsNode *outer);

/* ---- text (ts_graph_print, _to_string, _parse: tscript/ir.h) ---------------- */
/* The printer spells subgraph attributes after the graph as
 * "with prim::FusionGroup_0 = graph(...". The parser's errors carry line:col (and the line with a marker).
 * Value names are kept as written, numbers too ("%25"). Node kinds are an open set.
 * "# ..." comments are skipped (so PyTorch's "# file:line:col" do not stop a parse; the
 * nodes of a parsed graph point into the text itself). "prim::FusionGroup_0(...)" followed
 * by "with prim::FusionGroup_0 = graph(...)" becomes a prim::FusionGroup node with an
 * attr::Subgraph graph attribute. "Dynamic", the overview's old name for Tensor, parses as
 * the unrefined Tensor and marks the graph so that it prints value types that are the
 * unrefined Tensor as "Dynamic" again (a graph spells it one way or the other). */
/* Appends s[0..n) double-quoted as the text above quotes strings (PyTorch's
 * printQuotedString): C escapes, other control bytes in octal. With code, for source that
 * PyTorch's parser reads back, '\r' (an escape that parser lacks) is in octal too. */
struct TsBuf;
void ts_ir_put_quoted(struct TsBuf *b, const char *s, size_t n, bool code);

#endif
