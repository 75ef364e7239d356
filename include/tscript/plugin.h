/* tscript/plugin.h — the operator and plugin ABI: the contract with plugin vendors.
 *
 * A plugin is a shared object that exports one symbol, `tscript_plugin`, a TsPluginInfo whose
 * first field is the ABI version it was built against. The loader dlopens the file, checks
 * the version, loads the schema files the plugin names (YAML in the style of PyTorch's
 * native_functions.yaml) and calls init(), which registers kernels for those schemas (or for
 * schemas other plugins declared). Registration is a transaction: if any step fails, nothing
 * the plugin declared or registered stays in the operator table.
 *
 * Kernels use the stack calling convention of PyTorch's JIT: a kernel finds its inputs on top
 * of the stack (first argument deepest), pops them, pushes its outputs, and returns 0; on
 * failure it sets call->error and returns its code (the stack is then discarded by the
 * caller). A kernel owns the references of the values it pops.
 *
 * A minimal plugin:
 *
 *     static int my_add(TsCall *c) {
 *         int64_t b = ts_stack_pop(c->stack).u.i, a = ts_stack_pop(c->stack).u.i;
 *         return ts_stack_push(c->stack, ts_int(a + b), c->error);
 *     }
 *     static int init(TsRegistry *r, TsError *err) {
 *         return ts_register_kernel(r, "myns::add", "", "cpu", my_add, err);
 *     }
 *     static const char *const schemas[] = { "myns.yaml", NULL };
 *     TS_PLUGIN_EXPORT const TsPluginInfo tscript_plugin = {
 *         TS_PLUGIN_ABI_VERSION, "myplugin", schemas, init, NULL };
 */
#ifndef TSCRIPT_PLUGIN_H
#define TSCRIPT_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#include "tscript/error.h"
#include "tscript/tensor.h"
#include "tscript/types.h"
#include "tscript/value.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever a struct or function below changes incompatibly. */
#define TS_PLUGIN_ABI_VERSION 1u

#if defined(__GNUC__)
#define TS_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define TS_PLUGIN_EXPORT
#endif

/* The backend name of kernels that work for any device (prim ops on scalars and containers). */
#define TS_BACKEND_ANY "any"

/* ---- the stack ----------------------------------------------------------- */
typedef struct TsStack {
    TsValue *data;
    size_t len, cap;
} TsStack;

/* Grows the stack to hold at least n more values. */
int ts_stack_reserve(TsStack *s, size_t n, TsError *err);
/* Pushes v (taking its reference). Fails only when out of memory (v is then released). */
static inline int ts_stack_push(TsStack *s, TsValue v, TsError *err)
{
    if (s->len == s->cap && ts_stack_reserve(s, 1, err)) {
        ts_value_release(v);
        return err ? err->code : TS_ERR_NOMEM;
    }
    s->data[s->len++] = v;
    return 0;
}
/* Pops the top value (the caller owns its reference). */
static inline TsValue ts_stack_pop(TsStack *s) { return s->data[--s->len]; }
/* The i-th of the top n values (0 is the deepest of them), borrowed. */
static inline TsValue *ts_stack_arg(TsStack *s, size_t n, size_t i) { return &s->data[s->len - n + i]; }
/* Releases and removes the top n values. */
void ts_stack_drop(TsStack *s, size_t n);
/* Releases everything and frees the buffer. */
void ts_stack_free(TsStack *s);

/* ---- kernels ------------------------------------------------------------- */
struct TsRuntime;

typedef struct TsCall {
    TsStack *stack;
    TsError *error;
    void *data;                /* a factory's bound state, else NULL */
    struct TsRuntime *runtime;
} TsCall;

typedef int (*TsKernelFn)(TsCall *call);

/* What a kernel factory knows of the node it binds to (variadic prims need their counts and
 * types). */
typedef struct TsNodeInfo {
    const char *kind;          /* "prim::TupleConstruct" */
    size_t n_inputs, n_outputs;
    const TsType *const *input_types;
    const TsType *const *output_types;
} TsNodeInfo;

/* A factory fills *fn and may set *data (freed with *free_data when the code is freed). */
typedef int (*TsKernelFactory)(const TsNodeInfo *node, TsKernelFn *fn, void **data,
                               void (**free_data)(void *), TsError *err);

/* ---- registration (valid only inside TsPluginInfo.init) ------------------ */
typedef struct TsRegistry TsRegistry;

/* Registers fn as the kernel of "ns::name" overload (the empty string for the default
 * overload) on backend ("cpu", "cuda", TS_BACKEND_ANY, or a name of the plugin's own).
 * The schema must be declared (by this plugin's schema files or an earlier plugin's).
 * A second kernel for the same operator and backend is an error naming both plugins. */
int ts_register_kernel(TsRegistry *r, const char *qualname, const char *overload,
                       const char *backend, TsKernelFn fn, TsError *err);
int ts_register_factory(TsRegistry *r, const char *qualname, const char *overload,
                        const char *backend, TsKernelFactory factory, TsError *err);
/* Declares one more schema from a string ("myns::f(Tensor x) -> Tensor"). */
int ts_register_schema(TsRegistry *r, const char *schema, TsError *err);
/* Gives a backend its allocator (for factory functions like torch.zeros on that device).
 * The device type is registered by name if it is new. */
int ts_register_allocator(TsRegistry *r, const char *backend, TsAllocator *allocator,
                          TsError *err);
/* The plugin's own name, as the loader knows it. */
const char *ts_registry_plugin_name(const TsRegistry *r);

/* ---- the entry point ----------------------------------------------------- */
typedef struct TsPluginInfo {
    uint32_t abi_version;          /* TS_PLUGIN_ABI_VERSION: checked before anything else */
    const char *name;
    const char *const *schema_files; /* NULL-terminated; relative names are looked up
                                        beside the plugin, then on the schema path */
    int (*init)(TsRegistry *r, TsError *err);
    void (*fini)(void);            /* may be NULL; called before the plugin is unloaded */
} TsPluginInfo;

#define TS_PLUGIN_SYMBOL "tscript_plugin"

/* ---- looking up an allocator at run time (for kernels that allocate) ------ */
TsAllocator *ts_runtime_allocator(struct TsRuntime *rt, int device_type);

#ifdef __cplusplus
}
#endif
#endif
