/* alias.h — AliasDb, the core's side: what the passes ask beyond the public queries.
 *
 * The public queries (ts_alias_db_new, ts_alias_may_alias, ts_alias_has_writers, the moves)
 * are declared in include/tscript/ir.h for plugin passes; alias.c implements them. This
 * header adds what the core's own passes need: which nodes have effects besides their
 * outputs (dead_code.c keeps them, cse.c never merges them), which are nondeterministic,
 * and whether a node writes memory the function does not own (graph inputs and outputs,
 * wildcards).
 */
#ifndef TSCRIPT_IR_ALIAS_H
#define TSCRIPT_IR_ALIAS_H

#include <stdbool.h>

#include "ir/ir.h"

/* Does n have an effect besides its outputs and the writes its schema declares (prim::Print,
 * prim::RaiseException, prim::SetAttr, calls, fork/wait, an operator of an unknown
 * namespace without annotations, an operator that returns nothing and writes nothing
 * (aten::set_grad_enabled), an operator given objects whose methods it may call (sorting
 * a list of objects calls their __lt__), an unknown node kind), here or inside its blocks?
 * Nondeterministic operators count too: dropping one would shift the random stream. */
bool ts_alias_node_has_side_effects(const TsNode *n);

/* Is n analysed conservatively: may it read and write everything it is given, its outputs
 * anything (a call, a fork, prim::Enter, an operator of another namespace without
 * annotations, a node no operator is bound to)? */
bool ts_alias_node_is_conservative(const TsNode *n);

/* Does n draw random numbers (rand*, dropout, bernoulli, multinomial, normal, ...) or read
 * global state (aten::is_grad_enabled)? */
bool ts_alias_node_is_nondeterministic(const TsNode *n);

/* Does n (or a node in its blocks) write memory that outlives the graph or that the
 * analysis cannot follow: a wildcard (graph inputs, values in containers, values of calls)
 * or anything a graph output may alias? */
bool ts_alias_writes_to_escaping(const TsAliasDb *db, const TsNode *n);

/* Do any of n's inputs or outputs have writers (ts_alias_has_writers)? */
bool ts_alias_node_has_writers(const TsAliasDb *db, const TsNode *n);

#endif
