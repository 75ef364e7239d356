/* dispatch.h — which backend's kernel an operator call runs (internal to core/sched).
 *
 * The rule (tscript/plugin.h documents it for plugin authors): a call runs the kernel of the
 * device type of its first tensor argument (a Tensor, else a Tensor? or the first element
 * of a Tensor[]); with no tensor argument, of its Device argument when one is given
 * (torch.zeros(2, device="cpu")); else of the runtime's default backend (the config's
 * default_backend, the CLI's --backend). A backend without its own kernel for the operator
 * runs the TS_BACKEND_ANY kernel; an operator that returns no tensor and was not sent to a
 * device falls back to the kernel bound at build time (a host kernel, e.g. manual_seed); any
 * other call without a kernel fails with "OP has no kernel for device type 'NAME'".
 *
 * The kernel the default backend gets is bound when the Code is built (a factory kernel is
 * instantiated then), so the common call — every tensor on the default backend — costs one
 * comparison of device types; another device is looked up by name at the call.
 */
#ifndef TSCRIPT_SCHED_DISPATCH_H
#define TSCRIPT_SCHED_DISPATCH_H

#include "ir/ir.h"
#include "sched/code.h"

/* n's operator: the one it was matched to, else (a node made by kind, or one whose inputs
 * a pass replaced) the first overload of its kind whose arguments and returns its values'
 * types fit, else the first whose arguments fit (prim::EnumValue's overloads differ only
 * in what they return); NULL when none does. */
const TsOperator *ts_resolve_operator(const TsOpTable *table, const TsNode *n);

/* Binds k (whose op is set) for node n: sets k->fn's entry (returned; NULL when the operator
 * has no kernel at all) and the dispatch fields. The caller instantiates a factory entry. */
const TsKernelEntry *ts_dispatch_bind(TsBoundKernel *k, const TsNode *n, TsRuntime *rt);

/* Instantiates the factory entry e for node n into k (fn, data, free_data); the error
 * says "binding OP: ...". */
int ts_dispatch_instantiate(TsBoundKernel *k, const TsKernelEntry *e, const TsNode *n,
                            TsError *err);

/* The kernel for a call of k with its n inputs args (the shared lock held, if they need
 * it): k->fn or another backend's; NULL with err set when the device has none. */
TsKernelFn ts_dispatch(const TsBoundKernel *k, const TsValue *args, TsRuntime *rt,
                       TsError *err);

#endif
