/* modules.c — a module container's submodule picked at run time:
 * prim::ModuleContainerIndex(container, key), which the frontend emits for
 * `m : Iface = self.layers[i]` (a ModuleList indexed by an int that is not a constant, or a
 * ModuleDict by a str). The submodules are the container's attributes named "0", "1", ...
 * or by the dict's keys, so the kernel looks the attribute up by that name, as PyTorch does
 * (a negative index names no attribute).
 */
#include <stdio.h>

#include "prim.h"

/* prim::ModuleContainerIndex.list(Any self, int ind) -> Any
 * prim::ModuleContainerIndex.dict(Any self, str ind) -> Any */
static int k_container_index(TsCall *c)
{
    TsValue a[2];
    if (ts_prim_pop_args(c, "prim::ModuleContainerIndex", 2,
                         (const uint32_t[]){ TS_TAG_OBJECT, TS_PRIM_ANY }, a))
        return c->error->code;
    char num[32];
    const char *name = num;
    if (a[1].tag == TS_TAG_INT)
        snprintf(num, sizeof num, "%lld", (long long)a[1].u.i);
    else if (a[1].tag == TS_TAG_STR)
        name = ((const TsStr *)a[1].u.p)->data;
    else
        name = NULL;
    const TsObject *o = (const TsObject *)a[0].u.p;
    long slot = name ? ts_type_field_index(o->cls, name) : -1;
    int rc = 0;
    TsValue m = ts_none();
    if (slot < 0 || (size_t)slot >= o->nslots) {
        const char *cls = ts_type_name(o->cls);
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "%s does not have a field with name "
                          "'%s'", cls ? cls : "module", name ? name : "?");
    } else {
        m = o->slots[slot];
        ts_value_retain(m);
    }
    ts_prim_release_args(a, 2);
    return rc ? rc : ts_stack_push(c->stack, m, c->error);
}

static const TsPrimOp ops[] = {
    { "prim::ModuleContainerIndex", k_container_index, { "list", "dict" } },
};

const TsPrimTable ts_prim_module_table = { ops, sizeof ops / sizeof ops[0] };
