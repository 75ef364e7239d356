/* run_node.h — running one node's operator on given values, outside any program (internal
 * to the core): constant propagation (core/ir/passes/constant_prop.c) folds a node whose
 * inputs are constants by running it here at optimization time, through the same kernel,
 * bound and dispatched the same way, as the interpreter would run it.
 */
#ifndef TSCRIPT_SCHED_RUN_NODE_H
#define TSCRIPT_SCHED_RUN_NODE_H

#include "ir/ir.h"
#include "tscript/tscript.h"

/* Runs the operator of n (n->op, set) on its n->n_inputs values inputs (borrowed) and
 * puts its n->n_outputs results in outputs (new references). Non-zero with err as the
 * kernel set it (the operation's own error, e.g. "ZeroDivisionError: integer division or
 * modulo by zero"), or when the operator has no kernel; outputs are then unset. */
int ts_run_node(TsRuntime *rt, const TsNode *n, const TsValue *inputs, TsValue *outputs,
                TsError *err);

#endif
