/* tscript/ir.h — the program representation a graph pass works on: graphs, blocks, nodes and
 * the values they define and use; reading, rewriting, printing and parsing them.
 *
 * The model is PyTorch's JIT IR (its overview, "Core Program Representation"). A TsGraph
 * owns everything in it. Its top block, like every block, has inputs, an ordered list of
 * nodes and outputs; a node has a kind ("aten::add", "prim::If"; an open set of
 * "namespace::name" strings), input values, output values, named attributes and, for
 * control flow, sub-blocks (prim::If has two, prim::Loop one). Values are defined once (SSA)
 * — by a node, or as an input of a block — and know their uses. Printed, a graph is the text
 * `tscript graph` prints and PyTorch's `fn.graph` shows:
 *
 *     graph(%x.1 : Tensor):
 *       %2 : int = prim::Constant[value=1]()
 *       %3 : Tensor = aten::add(%x.1, %x.1, %2)
 *       return (%3)
 *
 * Handles. TsGraph, TsBlock, TsNode and TsIrValue are opaque; a handle stays valid until the
 * node that owns it is destroyed (a value: its node; a block: its node) or the graph is
 * freed. The functions that read return borrowed handles and never fail: an index past the
 * end gives NULL. The functions that change a graph check their arguments (handles of
 * another graph, a node already in a block, an index out of range, a NULL type) and fail
 * with TS_ERR_USAGE rather than corrupt it; they are not atomic across threads (one thread
 * changes a graph at a time, and nobody reads it meanwhile).
 *
 * Graph passes. A plugin registers a pass with ts_register_pass (plugin.h); the runtime runs
 * it on the graph of every function it compiles, after the frontend's own clean-up and before
 * the interpreter turns the graph into code, and then checks the graph with ts_graph_lint.
 * A pass rewrites with the functions below: create a node (ts_node_create), give it outputs
 * (ts_node_add_output), put it in place (ts_node_place_before), move the uses of an old
 * value to the new one (ts_irvalue_replace_uses) and destroy what became dead
 * (ts_node_destroy). A node created by kind is bound to an operator of that name when the
 * interpreter compiles the graph, by its input types, as a call in TorchScript would be.
 *
 * Alias queries (may two values alias, does a node write to a value, may a node move past
 * another) are answered by an AliasDb built over the graph (ts_alias_*, at the end): a pass
 * that reorders nodes or reuses one value for another asks it first.
 */
#ifndef TSCRIPT_IR_H
#define TSCRIPT_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tscript/error.h"
#include "tscript/export.h"
#include "tscript/strbuf.h"
#include "tscript/tensor.h"
#include "tscript/types.h"
#include "tscript/value.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct TsGraph TsGraph;
typedef struct TsBlock TsBlock;
typedef struct TsNode TsNode;
typedef struct TsIrValue TsIrValue;

/* ---- graphs ------------------------------------------------------------------------- */
/* A new empty graph: no inputs, no nodes, no outputs. */
TS_API TsGraph *ts_graph_new(TsError *err);
/* Frees the graph and everything in it. NULL is ignored. */
TS_API void ts_graph_free(TsGraph *g);
/* A deep copy: the same text when printed (names and numbering kept). */
TS_API TsGraph *ts_graph_copy(const TsGraph *g, TsError *err);
/* The top block. */
TS_API TsBlock *ts_graph_block(const TsGraph *g);
/* The graph's inputs and outputs: those of its top block. */
TS_API size_t ts_graph_num_inputs(const TsGraph *g);
TS_API TsIrValue *ts_graph_input(const TsGraph *g, size_t i);
TS_API size_t ts_graph_num_outputs(const TsGraph *g);
TS_API TsIrValue *ts_graph_output(const TsGraph *g, size_t i);
/* Appends an input of type to the graph, named name ("x"; NULL: numbered) as PyTorch names
 * values: a name another value holds moves to the new one, the old one becomes "x.1". */
TS_API TsIrValue *ts_graph_add_input(TsGraph *g, const char *name, const TsType *type,
                                     TsError *err);
/* Appends v (a value of g) to the graph's outputs. */
TS_API int ts_graph_add_output(TsGraph *g, TsIrValue *v, TsError *err);
/* The verifier: every value defined once and used only where its definition is in scope,
 * the block arities of prim::If and prim::Loop, use lists that match the inputs. 0, or an
 * error naming the value and the node. */
TS_API int ts_graph_lint(const TsGraph *g, TsError *err);

/* ---- text ---------------------------------------------------------------------------- */
/* Appends the graph's text to out, exactly as `tscript graph` prints it; with print_source,
 * each node that came from source is followed by " # file:line:col". Out of memory makes
 * out failed (strbuf.h). */
TS_API void ts_graph_print(const TsGraph *g, bool print_source, TsBuf *out);
/* The same text as a malloc'd string (the caller frees it); NULL when out of memory. */
TS_API char *ts_graph_to_string(const TsGraph *g, bool print_source);
/* Parses that text (and PyTorch's: "# ..." comments are skipped) into a new graph;
 * filename names the text in messages. Names and numbers of values are kept as written; node
 * kinds are not checked against any operator table. NULL with a "filename:line:col: ..."
 * message on a syntax error, an undefined or twice-defined value, or an unknown type. */
TS_API TsGraph *ts_graph_parse(const char *text, const char *filename, TsError *err);

/* ---- blocks and the order of nodes ---------------------------------------------------- */
TS_API TsGraph *ts_block_graph(const TsBlock *b);
/* The node whose sub-block b is (a prim::If, prim::Loop, ...); NULL for the top block. */
TS_API TsNode *ts_block_owning_node(const TsBlock *b);
/* The block's first and last nodes; NULL when it has none. */
TS_API TsNode *ts_block_first_node(const TsBlock *b);
TS_API TsNode *ts_block_last_node(const TsBlock *b);
/* The block's inputs (a loop body's iteration count and carried values) and outputs (what
 * it yields, or the graph returns). */
TS_API size_t ts_block_num_inputs(const TsBlock *b);
TS_API TsIrValue *ts_block_input(const TsBlock *b, size_t i);
TS_API size_t ts_block_num_outputs(const TsBlock *b);
TS_API TsIrValue *ts_block_output(const TsBlock *b, size_t i);
/* Appends an input (named as ts_graph_add_input names) or an output to b. */
TS_API TsIrValue *ts_block_add_input(TsBlock *b, const char *name, const TsType *type,
                                     TsError *err);
TS_API int ts_block_add_output(TsBlock *b, TsIrValue *v, TsError *err);
/* The node after / before n in its block; NULL at either end, or when n is in no block.
 * To destroy nodes while walking a block, take the next one first. */
TS_API TsNode *ts_node_next(const TsNode *n);
TS_API TsNode *ts_node_prev(const TsNode *n);

/* ---- nodes ------------------------------------------------------------------------------ */
/* The kind, "ns::name" (interned: equal kinds are equal strings, and the pointer lives as
 * long as the library). A block input's node has the kind "prim::Param". */
TS_API const char *ts_node_kind(const TsNode *n);
TS_API TsGraph *ts_node_graph(const TsNode *n);
/* The block n is in; NULL while it is in none (created, not yet placed). */
TS_API TsBlock *ts_node_owning_block(const TsNode *n);
TS_API size_t ts_node_num_inputs(const TsNode *n);
TS_API TsIrValue *ts_node_input(const TsNode *n, size_t i);
TS_API size_t ts_node_num_outputs(const TsNode *n);
TS_API TsIrValue *ts_node_output(const TsNode *n, size_t i);
TS_API size_t ts_node_num_blocks(const TsNode *n);
TS_API TsBlock *ts_node_block(const TsNode *n, size_t i);
/* Whether n comes before m in program order (a node inside a block counts as the node that
 * owns the block); false when either is in no block, or they are in different graphs. */
TS_API bool ts_node_is_before(const TsNode *n, const TsNode *m);

/* ---- values ----------------------------------------------------------------------------- */
/* The node that defines v (for a block input, the block's prim::Param node) and which of
 * its outputs v is. */
TS_API TsNode *ts_irvalue_node(const TsIrValue *v);
TS_API size_t ts_irvalue_offset(const TsIrValue *v);
TS_API const TsType *ts_irvalue_type(const TsIrValue *v);
TS_API int ts_irvalue_set_type(TsIrValue *v, const TsType *type, TsError *err);
/* The name printed after '%': the debug name ("x.1"), or the number written into buf. */
TS_API const char *ts_irvalue_debug_name(const TsIrValue *v, char *buf, size_t size);
/* The uses of v: the i-th using node (NULL past the end), and in *input (may be NULL) which
 * of its inputs v is. A block output is a use by the block's internal prim::Return node. */
TS_API size_t ts_irvalue_num_uses(const TsIrValue *v);
TS_API TsNode *ts_irvalue_use(const TsIrValue *v, size_t i, size_t *input);

/* ---- rewriting ---------------------------------------------------------------------------- */
/* A new node of kind ("ns::name") with the n inputs (values of g), no outputs, in no block
 * yet: add its outputs, then place it. */
TS_API TsNode *ts_node_create(TsGraph *g, const char *kind, TsIrValue *const *inputs,
                              size_t n, TsError *err);
/* Appends an output of type to n. */
TS_API TsIrValue *ts_node_add_output(TsNode *n, const TsType *type, TsError *err);
/* Appends an input / replaces input i with v (a value of n's graph). */
TS_API int ts_node_add_input(TsNode *n, TsIrValue *v, TsError *err);
TS_API int ts_node_set_input(TsNode *n, size_t i, TsIrValue *v, TsError *err);
/* Puts n just before / after pos (a node in a block of the same graph): inserts it if it is
 * in no block yet, else moves it there. A node cannot move into its own sub-blocks. The
 * caller keeps definitions before their uses (ts_graph_lint checks). */
TS_API int ts_node_place_before(TsNode *n, TsNode *pos, TsError *err);
TS_API int ts_node_place_after(TsNode *n, TsNode *pos, TsError *err);
/* Gives n the source position (and inlined call stack) of from, a node of the same graph:
 * a node that replaces others (a fusion group) then stands where they stood in a
 * traceback. */
TS_API int ts_node_copy_source(TsNode *n, const TsNode *from, TsError *err);
/* Makes every use of v a use of with (a value of the same graph) instead. */
TS_API int ts_irvalue_replace_uses(TsIrValue *v, TsIrValue *with, TsError *err);
/* Removes n from its block and frees it, its outputs and its sub-blocks; refused (the graph
 * unchanged) while an output of n, or a value defined inside it, is still used. */
TS_API int ts_node_destroy(TsNode *n, TsError *err);

/* Puts n at the end of block b (inserting or moving it, as ts_node_place_before). */
TS_API int ts_block_append(TsBlock *b, TsNode *n, TsError *err);

/* A prim::Constant node holding v (None, an int, float, bool, str, device, tensor, a list
 * of ints or floats, or any other value but an uninitialized one), inserted into block b
 * before node `before` (a node of b), or at b's end when before is NULL; returns its
 * output, typed as v. */
TS_API TsIrValue *ts_constant_insert(TsBlock *b, TsNode *before, TsValue v, TsError *err);
/* The value of the prim::Constant node n in *out (a new reference; None for the constant
 * None); TS_ERR_TYPE when n is not a prim::Constant. */
TS_API int ts_constant_value(const TsNode *n, TsValue *out, TsError *err);

/* ---- attributes ------------------------------------------------------------------------- */
/* A node's named attributes, as printed: prim::Constant[value=1] has the int attribute
 * "value". Names are given without PyTorch's "attr::" prefix. */
typedef enum TsAttrKind {
    TS_ATTR_INT, TS_ATTR_FLOAT, TS_ATTR_COMPLEX, TS_ATTR_STR, TS_ATTR_TENSOR, TS_ATTR_GRAPH,
    TS_ATTR_TYPE, TS_ATTR_IVALUE,
    TS_ATTR_INTS, TS_ATTR_FLOATS, TS_ATTR_STRS, TS_ATTR_TENSORS, TS_ATTR_GRAPHS, TS_ATTR_TYPES
} TsAttrKind;

TS_API size_t ts_node_num_attrs(const TsNode *n);
/* The name of attribute i ("value"); NULL past the end. */
TS_API const char *ts_node_attr_name(const TsNode *n, size_t i);
/* The kind of attribute name (a TsAttrKind), or -1 when n has none of that name. */
TS_API int ts_attr_kind(const TsNode *n, const char *name);
/* Reading: 0 and the attribute in *out; TS_ERR_KEY when n has no attribute name,
 * TS_ERR_TYPE when it is of another kind. Strings, tensors, graphs, lists and values are
 * borrowed from the node. */
TS_API int ts_attr_get_int(const TsNode *n, const char *name, int64_t *out, TsError *err);
TS_API int ts_attr_get_float(const TsNode *n, const char *name, double *out, TsError *err);
TS_API int ts_attr_get_str(const TsNode *n, const char *name, const char **out, TsError *err);
TS_API int ts_attr_get_tensor(const TsNode *n, const char *name, TsTensor **out, TsError *err);
TS_API int ts_attr_get_type(const TsNode *n, const char *name, const TsType **out,
                            TsError *err);
TS_API int ts_attr_get_graph(const TsNode *n, const char *name, TsGraph **out, TsError *err);
TS_API int ts_attr_get_value(const TsNode *n, const char *name, TsValue *out, TsError *err);
/* A list attribute: its *n items in *out. */
TS_API int ts_attr_get_ints(const TsNode *n, const char *name, const int64_t **out, size_t *len,
                            TsError *err);
TS_API int ts_attr_get_floats(const TsNode *n, const char *name, const double **out,
                              size_t *len, TsError *err);
/* Writing replaces an attribute of the same name. Strings and lists are copied, tensors
 * retained. */
TS_API int ts_attr_set_int(TsNode *n, const char *name, int64_t v, TsError *err);
TS_API int ts_attr_set_float(TsNode *n, const char *name, double v, TsError *err);
TS_API int ts_attr_set_str(TsNode *n, const char *name, const char *v, TsError *err);
TS_API int ts_attr_set_tensor(TsNode *n, const char *name, TsTensor *v, TsError *err);
TS_API int ts_attr_set_type(TsNode *n, const char *name, const TsType *v, TsError *err);
TS_API int ts_attr_set_ints(TsNode *n, const char *name, const int64_t *v, size_t len,
                            TsError *err);
/* A graph attribute (a fusion group's Subgraph): the node takes v, which the caller no
 * longer frees, on failure too (it is freed then); v must be a graph of its own, not n's. */
TS_API int ts_attr_set_graph(TsNode *n, const char *name, TsGraph *v, TsError *err);
/* Removes attribute name; TS_ERR_KEY when there is none. */
TS_API int ts_attr_remove(TsNode *n, const char *name, TsError *err);

/* ---- the graphs of compiled functions ---------------------------------------------------- */
/* The graph a method or a script's function runs (borrowed, read-only: it may be running on
 * other threads), as the registered passes left it. ts_script_function_graph takes the
 * index of ts_script_function_name (tscript.h); NULL past the end. */
typedef struct TsMethod TsMethod;
typedef struct TsScript TsScript;
TS_API const TsGraph *ts_method_graph(const TsMethod *m);
TS_API const TsGraph *ts_script_function_graph(const TsScript *s, size_t i);
/* The graph the executor runs for them: the optimizer's copy (built now if no call has built
 * it yet), or the graph above when the runtime's optimizer is off (ts_runtime_optimize).
 * Borrowed like the above; NULL with err when the function cannot be built (an operator
 * missing, out of memory) or i is past the end. */
TS_API const TsGraph *ts_method_optimized_graph(const TsMethod *m, TsError *err);
TS_API const TsGraph *ts_script_function_optimized_graph(const TsScript *s, size_t i,
                                                         TsError *err);
/* The graph the executor runs for a call of m with these arguments (all n of its
 * parameters, self not included): the plan specialized to their tensors' dtypes, ranks,
 * devices and requires_grad (built now if no call has built it), else the graph above (no
 * tensor parameters, the optimizer off, or the function's plans all taken). Borrowed like
 * the above; NULL with err when it cannot be built or the arguments do not fit. */
TS_API const TsGraph *ts_method_specialized_graph(const TsMethod *m, const TsValue *args,
                                                  size_t n, TsError *err);

/* ---- alias analysis ---------------------------------------------------------------------
 * As PyTorch's AliasDb (the JIT overview, "Alias Analysis in the IR"): a points-to graph of
 * the memory the graph's mutable values (tensors, lists, dicts, objects, futures, tuples
 * holding them) may refer to, built from the operators' alias annotations ("Tensor(a)",
 * "Tensor(a!)", "t(a -> *)"). An aten:: or prim:: operator without annotations returns fresh
 * memory and writes nothing; one of another namespace without annotations, a call, a fork,
 * or a node no operator is bound to may read and write all its inputs, and its outputs may
 * be anything. Graph inputs and whatever goes into a container or comes out of one are in the
 * wildcard set of their type: they may alias any other such value. The analysis is
 * flow-insensitive: a write anywhere in the graph counts everywhere. The database describes
 * the graph as it was when built; after changing the graph, build a new one. Queries fill
 * caches inside the database, so one database must not be queried from two threads at
 * once: give each thread its own (databases of one graph are independent). */
typedef struct TsAliasDb TsAliasDb;

/* Analyses g; NULL with err only when out of memory. */
TS_API TsAliasDb *ts_alias_db_new(const TsGraph *g, TsError *err);
TS_API void ts_alias_db_free(TsAliasDb *db);
/* Is a value of type t something a write can change (Tensor, list, dict, object, future, a
 * tuple or Optional holding one, Any)? Values of other types never alias anything. */
TS_API bool ts_alias_is_mutable_type(const TsType *t);
/* May a and b refer to the same memory? */
TS_API bool ts_alias_may_alias(const TsAliasDb *db, const TsIrValue *a, const TsIrValue *b);
/* May a, or anything a contains (a list's elements...), alias b or anything b contains? */
TS_API bool ts_alias_may_contain_alias(const TsAliasDb *db, const TsIrValue *a,
                                       const TsIrValue *b);
/* Does any node of the graph write to memory v may refer to? */
TS_API bool ts_alias_has_writers(const TsAliasDb *db, const TsIrValue *v);
/* Does n (or a node in its blocks) write to memory any of the n_values values may refer to? */
TS_API bool ts_alias_writes_to_alias(const TsAliasDb *db, const TsNode *n,
                                     const TsIrValue *const *values, size_t n_values);
/* Moves n just after / before target (a node of the same block) when that keeps the
 * program's meaning: no value used before its definition, no write moved past a read or a
 * write of memory it may alias, no two nodes with side effects swapped. Returns true when
 * moved (or already there); false leaves the graph as it was. */
TS_API bool ts_alias_move_after_topologically_valid(const TsAliasDb *db, TsNode *n,
                                                    TsNode *target);
TS_API bool ts_alias_move_before_topologically_valid(const TsAliasDb *db, TsNode *n,
                                                     TsNode *target);

#ifdef __cplusplus
}
#endif
#endif
