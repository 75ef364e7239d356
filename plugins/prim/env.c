/* env.c — what a program asks of the runtime around it: grad mode (torch.is_grad_enabled,
 * torch.set_grad_enabled), autocast (torch.is_autocast_enabled, is_autocast_cpu_enabled),
 * tracing (torch._C._get_tracing_state: never),
 * warnings (warnings.warn, which TorchScript compiles to aten::warn), and what a device is
 * (x.device.type, .index, device == device).
 *
 * Grad mode is the running program's, kept by the runtime (plugin.h: ts_grad_enabled): on by
 * default, off under torch.no_grad() (an object of the language's class whose __enter__ and
 * __exit__ call set_grad_enabled), inherited by forked tasks. tscript computes no gradients,
 * but programs branch on the answer: nn.MultiheadAttention and the Transformer layers take
 * their fused fast path only with grad off. Autocast does not exist here, so it is never
 * enabled (PyTorch's default too).
 *
 * aten::warn prints "UserWarning: MESSAGE" to stderr the first time its node runs, as
 * PyTorch's interpreter warns once per warn node; the stacklevel argument is ignored there
 * too (TorchScript reports the warn's own line). Each node gets its own flag from a kernel
 * factory.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prim.h"

/* aten::is_grad_enabled() -> bool */
static int k_is_grad_enabled(TsCall *c)
{
    return ts_stack_push(c->stack, ts_bool(ts_grad_enabled()), c->error);
}

/* aten::set_grad_enabled(bool val) -> () */
static int k_set_grad_enabled(TsCall *c)
{
    static const uint32_t want[] = { TS_TAG_BOOL };
    TsValue a;
    if (ts_prim_pop_args(c, "aten::set_grad_enabled", 1, want, &a))
        return c->error->code;
    ts_set_grad_enabled(a.u.b);
    return 0;
}

/* aten::is_autocast_enabled() -> bool, aten::is_autocast_cpu_enabled() -> bool, and
 * aten::_get_tracing_state() -> bool (torch._C._get_tracing_state(): nothing traces here) */
static int k_autocast_off(TsCall *c)
{
    return ts_stack_push(c->stack, ts_bool(false), c->error);
}

/* prim::type(Device self) -> str: "cpu", "cuda", or a plugin's device name. */
static int k_type(TsCall *c)
{
    static const uint32_t want[] = { TS_TAG_DEVICE };
    TsValue a;
    if (ts_prim_pop_args(c, "prim::type", 1, want, &a))
        return c->error->code;
    const char *name = ts_device_type_name(a.u.dev.type);
    if (!name)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "unknown device type %d",
                            (int)a.u.dev.type);
    TsStr *s = ts_str_new(name, strlen(name), c->error);
    return s ? ts_stack_push(c->stack, ts_str_value(s), c->error) : (int)c->error->code;
}

/* prim::index(Device self) -> int?: the device's index, None when it has none ("cpu"). */
static int k_index(TsCall *c)
{
    static const uint32_t want[] = { TS_TAG_DEVICE };
    TsValue a;
    if (ts_prim_pop_args(c, "prim::index", 1, want, &a))
        return c->error->code;
    TsValue r = a.u.dev.index < 0 ? ts_none() : ts_int(a.u.dev.index);
    return ts_stack_push(c->stack, r, c->error);
}

/* aten::eq.device(Device a, Device b) -> bool and aten::ne.device: the same type and index. */
static int device_compare(TsCall *c, const char *op, bool want_equal)
{
    static const uint32_t want[] = { TS_TAG_DEVICE, TS_TAG_DEVICE };
    TsValue a[2];
    if (ts_prim_pop_args(c, op, 2, want, a))
        return c->error->code;
    bool eq = a[0].u.dev.type == a[1].u.dev.type && a[0].u.dev.index == a[1].u.dev.index;
    return ts_stack_push(c->stack, ts_bool(eq == want_equal), c->error);
}

static int k_eq_device(TsCall *c) { return device_compare(c, "aten::eq", true); }
static int k_ne_device(TsCall *c) { return device_compare(c, "aten::ne", false); }

/* aten::warn(str message, int stacklevel=2) -> (), with its node's "warned" flag. */
static int k_warn(TsCall *c)
{
    static const uint32_t want[] = { TS_TAG_STR, TS_TAG_INT };
    TsValue a[2];
    if (ts_prim_pop_args(c, "aten::warn", 2, want, a))
        return c->error->code;
    atomic_bool *warned = c->data;
    if (!warned || !atomic_exchange(warned, true)) {
        const TsStr *msg = (const TsStr *)a[0].u.p;
        fprintf(stderr, "UserWarning: %.*s\n", (int)msg->len, msg->data);
    }
    ts_prim_release_args(a, 2);
    return 0;
}

static int f_warn(const TsNodeInfo *node, TsKernelFn *fn, void **data,
                  void (**free_data)(void *), TsError *err)
{
    atomic_bool *warned = malloc(sizeof *warned);
    if (!warned)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory binding %s", node->kind);
    atomic_init(warned, false);
    *fn = k_warn;
    *data = warned;
    *free_data = free;
    return 0;
}

int ts_prim_env_register_factories(TsRegistry *r, TsError *err)
{
    return ts_register_factory(r, "aten::warn", "", TS_BACKEND_ANY, f_warn, err);
}

static const TsPrimOp ops[] = {
    { "aten::is_grad_enabled", k_is_grad_enabled, { "" } },
    { "aten::set_grad_enabled", k_set_grad_enabled, { "" } },
    { "aten::is_autocast_enabled", k_autocast_off, { "" } },
    { "aten::is_autocast_cpu_enabled", k_autocast_off, { "" } },
    { "aten::_get_tracing_state", k_autocast_off, { "" } },
    { "prim::type", k_type, { "" } },
    { "prim::index", k_index, { "" } },
    { "aten::eq", k_eq_device, { "device" } },
    { "aten::ne", k_ne_device, { "device" } },
};

const TsPrimTable ts_prim_env_table = { ops, sizeof ops / sizeof ops[0] };
