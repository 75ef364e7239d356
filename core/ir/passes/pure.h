/* pure.h — "may this node be run at compile time, or dropped, or merged": the schema-based
 * purity predicate the optimizer's passes share until AliasDb (core/ir/alias.c) answers
 * the finer question of what a node writes.
 *
 * A node is pure when running it has no effect but its outputs and gives the same outputs
 * for the same inputs: it has no blocks; its operator writes to no argument (no `!` in any
 * alias annotation of its schema); it is not one of PyTorch's nondeterministic operators
 * (rand*, dropout, bernoulli, multinomial, normal, poisson, ...); it has no side effects
 * (prints, raises, attribute sets, warnings, grad-mode and seed setters, calls, forks,
 * prim::Uninitialized) and returns something. Operators of namespaces other than aten and
 * prim are pure only when their schema says so, which an unannotated schema does not
 * (PyTorch's rule for vendor ops). prim nodes the interpreter runs with its own opcodes
 * (TupleConstruct, ListConstruct, ...) have no operator: a short list names the pure ones.
 */
#ifndef TSCRIPT_IR_PASSES_PURE_H
#define TSCRIPT_IR_PASSES_PURE_H

#include <stdbool.h>

#include "ir/ir.h"

bool ts_node_is_pure(const TsNode *n);


/* Does the type hold nothing that can be written in place (ints, floats, bools, strs,
 * None, devices, dtypes, tuples and optionals of those)? */
bool ts_type_is_immutable(const TsType *t);

/* Does a value of type t hold tensors: Tensor, or an Optional, List or Tuple of them (four
 * levels deep at most)? What the code builder and the capture regions ask of a node's
 * values. */
bool ts_type_holds_tensors(const TsType *t);

/* Is every use of v a read that leaves nothing aliasing it: an input of a pure operator
 * whose schema gives that argument no alias annotation (its outputs are fresh), or one
 * whose outputs are all immutable? Such a value is never written, returned or stored. */
bool ts_value_only_read(const TsIrValue *v);

#endif
