/* good.c — a well-behaved test plugin for t/plugin.t: declares test::* operators from
 * t/data/good.yaml, registers kernels (one backend-independent) and an allocator for a
 * backend of its own. */
#include <stdlib.h>

#include "tscript/plugin.h"

static int twice(TsCall *c)
{
    int64_t x = ts_stack_pop(c->stack).u.i;
    return ts_stack_push(c->stack, ts_int(2 * x), c->error);
}

static int neg(TsCall *c)
{
    int64_t x = ts_stack_pop(c->stack).u.i;
    return ts_stack_push(c->stack, ts_int(-x), c->error);
}

static void *good_alloc(TsAllocator *self, size_t nbytes, TsDevice device)
{
    return malloc(nbytes ? nbytes : 1);
}

static void good_free(TsAllocator *self, void *ptr, size_t nbytes, TsDevice device)
{
    free(ptr);
}

static TsAllocator allocator = { "gooddev", good_alloc, good_free, NULL, NULL, NULL, NULL };

static int init(TsRegistry *r, TsError *err)
{
    if (ts_register_kernel(r, "test::twice", "", "cpu", twice, err) ||
        ts_register_kernel(r, "test::neg", "int", TS_BACKEND_ANY, neg, err) ||
        ts_register_allocator(r, "gooddev", &allocator, err))
        return err->code;
    return 0;
}

static const char *const schemas[] = { "good.yaml", NULL };

TS_PLUGIN_EXPORT const TsPluginInfo tscript_plugin = {
    TS_PLUGIN_ABI_VERSION, "good", schemas, init, NULL
};
