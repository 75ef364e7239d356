/* runtime.c — the operators that ask about or set the program's running state, declared by
 * schemas/prim_runtime.yaml: grad mode (torch.is_grad_enabled, torch.set_grad_enabled, which
 * torch.no_grad() uses) and autocast (never on: tscript has no autocast).
 *
 * tscript computes no gradients, but models read these to pick a path: nn.MultiheadAttention
 * and the Transformer layers take their fast path only with grad mode off, so the answers
 * must be PyTorch's. The state itself is the runtime's (plugin.h, ts_grad_enabled).
 */
#include "prim.h"

/* aten::is_grad_enabled() -> bool */
static int is_grad_enabled(TsCall *c)
{
    return ts_stack_push(c->stack, ts_bool(ts_grad_enabled()), c->error);
}

/* aten::set_grad_enabled(bool val) -> () */
static int set_grad_enabled(TsCall *c)
{
    TsValue v = ts_stack_pop(c->stack);
    if (v.tag != TS_TAG_BOOL) {
        ts_value_release(v);
        return ts_error_set(c->error, TS_ERR_TYPE, "aten::set_grad_enabled: argument 'val' "
                            "must be a bool");
    }
    ts_set_grad_enabled(v.u.b);
    return 0;
}

/* aten::is_autocast_enabled() -> bool, aten::is_autocast_cpu_enabled() -> bool */
static int is_autocast_enabled(TsCall *c)
{
    return ts_stack_push(c->stack, ts_bool(false), c->error);
}

static const TsPrimOp ops[] = {
    { "aten::is_grad_enabled", is_grad_enabled, { "" } },
    { "aten::set_grad_enabled", set_grad_enabled, { "" } },
    { "aten::is_autocast_enabled", is_autocast_enabled, { "" } },
    { "aten::is_autocast_cpu_enabled", is_autocast_enabled, { "" } },
};

const TsPrimTable ts_prim_runtime_table = { ops, sizeof ops / sizeof ops[0] };
