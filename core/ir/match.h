/* match.h — matching a call against operator schemas, and inserting the matched node.
 *
 * Given an operator name ("aten::add"), positional input values and keyword arguments, pick
 * the overload whose schema accepts them, by PyTorch's rules (see match.c for the full
 * list): positionals then keywords (in aten, "input" also names "self"), defaults filled in
 * as prim::Constant nodes, kwarg-only arguments only by keyword, vararg schemas; type
 * variables bound consistently (t, t[], Dict(str, t), Future(t)); T accepted for
 * Optional[T]; int/float/complex accepted for Scalar; an int (float) for a fixed-size
 * int[N] (float[N]) list; a homogeneous tuple for a list (prim::TupleUnpack +
 * prim::ListConstruct); and, when no overload matches without them, the conversions
 * Tensor -> int/float/complex/Scalar (aten::IntImplicit ...), Scalar -> int/float/complex
 * (aten::Int ...), str -> Device (aten::device), and trailing positionals packed into the
 * last positional list argument (zeros(1, 2)). The chosen node's outputs get the schema's
 * return types with type variables substituted (no shape propagation: Tensor stays
 * Tensor). When nothing matches, the error lists every candidate schema and why it failed,
 * in PyTorch's words:
 *
 *     Arguments for call are not valid.
 *     The following variants are available:
 *
 *       aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor:
 *       Expected a value of type 'Tensor' for argument 'self' but instead found type 'str'.
 *       ...
 *
 * (the blank lines between candidates are two spaces, as PyTorch prints them; with a
 * source range the message ends "\nThe original call is:\n" and the excerpt).
 * A failed match removes every node it inserted: the graph is left as it was.
 *
 * The IR builders (tests, passes) and the frontend's emitter both use it.
 */
#ifndef TSCRIPT_MATCH_H
#define TSCRIPT_MATCH_H

#include "ir/ir.h"
#include "registry/optable.h"

/* The name of a method call's receiver (x in x.where(c, y)), compared by address: it binds
 * to the schema argument named "self" wherever that stands, as PyTorch binds it
 * (aten::where.self(Tensor condition, Tensor self, Tensor other)); a schema without one
 * does not match. */
extern const char ts_match_self[];

typedef struct TsNamedValue {
    const char *name;          /* keyword, or NULL for a positional argument */
    TsIrValue *value;
    TsSourceRange range;       /* where the argument was written (for errors) */
} TsNamedValue;

/* Matches one schema (once, conversions allowed, as PyTorch matches a single candidate).
 * On success returns 0 and sets *inputs (malloc'd, *n_inputs values: conversions and
 * default constants are inserted into g at its insertion point as needed) and
 * *return_types (malloc'd, schema->n_returns types); the caller frees both arrays.
 * Conversion nodes inserted here have node->op NULL (there is no table to look them up
 * in; ts_graph_insert_op sets them). On failure returns -1, inserts nothing, and sets err
 * (TS_ERR_RUNTIME) to PyTorch's text for one candidate: "\n<schema>:\n<reason>\n", e.g.
 * "\naten::warn(str message, int stacklevel=2) -> ():\nExpected a value of type 'str' for
 * argument 'message' but instead found type 'int'.\n". */
int ts_match_schema(TsGraph *g, const TsSchema *schema, size_t n_args,
                    const TsNamedValue *args, TsIrValue ***inputs, size_t *n_inputs,
                    const TsType ***return_types, TsError *err);

/* Matches the first of n schemas (n >= 1) the arguments fit, as PyTorch matches the
 * overloads of a scripted function (torch.jit._overload): every schema without conversions
 * first, then every one with. Returns the index of the chosen schema with *inputs set as
 * ts_match_schema sets them; or -1 with err at range: for one schema its bare reason, for
 * several "Arguments for call are not valid." and every candidate's reason, as
 * ts_graph_insert_op words them. */
int ts_match_schemas(TsGraph *g, const TsSchema *const *schemas, size_t n, size_t n_args,
                     const TsNamedValue *args, TsSourceRange range, TsIrValue ***inputs,
                     size_t *n_inputs, TsError *err);

/* Whether a value of type self can be the receiver of a method call on schema: it has an
 * argument named "self" whose type, with its variables bound by self, self is a subtype of
 * (PyTorch's test for whether `x.name` names a builtin method of x). */
bool ts_schema_takes_self(const TsSchema *schema, const TsType *self);

/* Tries every overload of qualname in declaration order, first all without conversions,
 * then all with (a name with one overload: once, with), and inserts a node of kind qualname
 * ("aten::add", printed without overload) for the first that matches, with its source
 * range. node->op is set to the matched TsOperator (and so is the op of any conversion
 * node the table has: aten::ScalarImplicit, aten::Int.Scalar, ...). Returns the node, or
 * NULL with TS_ERR_RUNTIME in err: the candidates' reasons as above (a single overload:
 * its bare reason, as ts_match_schema), or for a name without overloads
 * "Unknown builtin op: aten::foo.\n" followed by PyTorch's "Could not find any similar
 * ops to aten::foo. ..." or "Here are some suggestions: \n\t<name>\n..." (names within edit
 * distance 2, nearest first). With range.source set, a list of candidates (or of
 * suggestions) ends "\nThe original call is", and every message gets ts_error_at's
 * ":\n" and the marked source line, as PyTorch prints them. NULL values in args are
 * TS_ERR_USAGE. */
TsNode *ts_graph_insert_op(TsGraph *g, const TsOpTable *table, const char *qualname,
                           size_t n_args, const TsNamedValue *args, TsSourceRange range,
                           TsError *err);

#endif
