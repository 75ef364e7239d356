/* tscript/plugin.h — the operator and plugin ABI: the contract with plugin vendors.
 *
 * A plugin is a shared object that exports one symbol, `tscript_plugin`, a TsPluginInfo whose
 * first field is the ABI version it was built against. The loader dlopens the file, checks
 * the version, loads the schema files the plugin names (YAML in the style of PyTorch's
 * native_functions.yaml) and calls init(), which registers kernels for those schemas (or for
 * schemas other plugins declared). A schema file ending in ".py" is TorchScript source
 * instead, named for the Python module it defines (aten-cpu ships torch.nn.functional.py):
 * the frontend parses it the first time a program uses that module and compiles each
 * function on its first call, inlining it into the caller as PyTorch inlines F.* calls. Registration is a transaction: if any step fails, nothing
 * the plugin declared or registered stays in the operator table.
 *
 * Backends and dispatch. A backend is a name ("cpu", "cuda", or a plugin's own, such as
 * "countdev"); a plugin that brings a device registers its allocator under that name
 * (ts_register_allocator, which also makes the name a device type) and kernels for it. An
 * operator has one schema, declared once (identical re-declarations are shared), and up to
 * one kernel per backend, from any plugins: a plugin may register kernels for schemas it
 * does not declare, on its own backend. Plugins load in any order: a kernel whose schema no
 * plugin has declared yet waits until every plugin of the runtime is loaded, then joins the
 * operator a later plugin declared; if none did, the runtime fails to open naming the
 * plugin and the operator. Which kernel a call runs:
 *
 *   1. the kernel of the device type of the call's first tensor argument (a Tensor, else a
 *      Tensor? that is not None, else the first tensor of a Tensor[]);
 *   2. with no tensor argument, of the call's Device argument when one is given
 *      (torch.zeros(2, device="cpu"));
 *   3. else of the runtime's default backend: the config's `default_backend` (default cpu),
 *      or `tscript run/test --backend NAME`. So factory functions without device= (zeros,
 *      full, linspace, tensor, ...) create their tensors on the default backend, and what
 *      follows runs there by rule 1.
 *
 * A backend without a kernel of its own for the operator runs its TS_BACKEND_ANY kernel;
 * failing that, an operator that returns no tensor and came by rule 3 runs its cpu kernel
 * (host work, e.g. manual_seed); any other call fails: "OP has no kernel for device type
 * 'NAME'". A kernel always receives its tensor arguments on the device it was chosen for by
 * rule 1 or 2, and by rule 3 creates its tensors on its own backend.
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

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tscript/error.h"
#include "tscript/inspect.h"
#include "tscript/ir.h"
#include "tscript/tensor.h"
#include "tscript/types.h"
#include "tscript/value.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever a struct or function below changes incompatibly. */
#define TS_PLUGIN_ABI_VERSION 5u

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
TS_API int ts_stack_reserve(TsStack *s, size_t n, TsError *err);
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
TS_API void ts_stack_drop(TsStack *s, size_t n);
/* Releases everything and frees the buffer. */
TS_API void ts_stack_free(TsStack *s);

/* ---- kernels ------------------------------------------------------------- */
struct TsRuntime;

typedef struct TsCall {
    TsStack *stack;
    TsError *error;
    void *data;                /* a factory's bound state, else NULL */
    struct TsRuntime *runtime;
    const struct TsOperator *op; /* the operator being run (its schema names the arguments:
                                    inspect.h, and tscript/aten.h binds them); NULL only
                                    for a node without one (some prim:: nodes) */
} TsCall;

typedef int (*TsKernelFn)(TsCall *call);

/* The kernel function op runs on backend (registered for it, else for every backend), or
 * NULL (none, or a factory that binds per node). A kernel may call another operator's
 * kernel directly: that operator's arguments pushed on the stack, a TsCall whose op is that
 * operator, its result left on the stack (fuser-cuda runs aten::mm so for a product too big
 * to compute inside its fused kernel). op from ts_runtime_find_operator (inspect.h). */
TS_API TsKernelFn ts_operator_kernel_fn(const struct TsOperator *op, const char *backend);

/* What a kernel factory knows of the node it binds to (variadic prims need their counts and
 * types). */
typedef struct TsNodeInfo {
    const char *kind;          /* "prim::TupleConstruct" */
    size_t n_inputs, n_outputs;
    const TsType *const *input_types;
    const TsType *const *output_types;
    const TsNode *node;        /* the node itself, read-only (ir.h): its attributes, such as
                                  a fusion group's Subgraph; NULL where there is none */
} TsNodeInfo;

/* A factory fills *fn and may set *data (freed with *free_data when the code is freed). */
typedef int (*TsKernelFactory)(const TsNodeInfo *node, TsKernelFn *fn, void **data,
                               void (**free_data)(void *), TsError *err);

/* ---- registration (valid only inside TsPluginInfo.init) ------------------ */
typedef struct TsRegistry TsRegistry;

/* Registers fn as the kernel of "ns::name" overload (the empty string for the default
 * overload) on backend ("cpu", "cuda", TS_BACKEND_ANY, or a name of the plugin's own).
 * The schema may be declared by this plugin, by another one loaded before, or by one loaded
 * after (see "Backends and dispatch" above). A second kernel for the same operator and
 * backend is an error naming both plugins, whichever order they load in, unless the second
 * says that it replaces the first (ts_override_kernel). */
TS_API int ts_register_kernel(TsRegistry *r, const char *qualname, const char *overload,
                       const char *backend, TsKernelFn fn, TsError *err);
TS_API int ts_register_factory(TsRegistry *r, const char *qualname, const char *overload,
                        const char *backend, TsKernelFactory factory, TsError *err);
/* Replaces the kernel that a plugin loaded before this one registered for "ns::name"
 * overload on backend: calls of the operator on that backend run fn from then on, and
 * *previous is the kernel fn replaced, for fn to hand it the calls it does not take (with
 * its TsCall, the stack untouched). This is how a plugin listed after another in the
 * config swaps in a faster implementation of some of its operators (plugins/aten-dnnl:
 * aten-cpu's convolutions on oneDNN), and leaving it out of the config swaps it back.
 * Errors: the operator is not declared, or has no kernel on backend, by the plugins loaded
 * before; that kernel is a factory; this plugin registers or replaces it twice. */
TS_API int ts_override_kernel(TsRegistry *r, const char *qualname, const char *overload,
                              const char *backend, TsKernelFn fn, TsKernelFn *previous,
                              TsError *err);
/* Declares one more schema from a string ("myns::f(Tensor x) -> Tensor"). */
TS_API int ts_register_schema(TsRegistry *r, const char *schema, TsError *err);
/* Gives a backend its allocator (for factory functions like torch.zeros on that device).
 * The device type is registered by name if it is new. */
TS_API int ts_register_allocator(TsRegistry *r, const char *backend, TsAllocator *allocator,
                          TsError *err);
/* The plugin's own name, as the loader knows it. */
TS_API const char *ts_registry_plugin_name(const TsRegistry *r);

/* ---- graph passes ----------------------------------------------------------- */
/* A pass rewrites g in place with the functions of tscript/ir.h, and returns 0, or an error
 * code with err set. ctx is what the plugin registered it with. */
typedef int (*TsGraphPassFn)(TsGraph *g, void *ctx, TsError *err);

/* Registers pass fn under name (unique in the runtime: a second pass of that name is an
 * error naming both plugins). The runtime runs the registered passes on the graph of every
 * function it compiles — from source or from a model's code, the functions of libraries
 * such as torch.nn.functional too — after the frontend's own clean-up (SSA, dead code,
 * constants pooled) and before the interpreter compiles the graph; so `tscript graph`
 * prints the graph they leave. They run in registration order: plugins in the order they
 * load, a plugin's passes in the order it registers them. After each pass the graph is
 * verified (ts_graph_lint); a pass that fails or leaves an invalid graph fails the
 * compilation with "graph pass 'NAME' of plugin 'P' failed on FUNCTION: ...". A pass may
 * run on several threads at once (on different graphs): keep ctx read-only. */
TS_API int ts_register_pass(TsRegistry *r, const char *name, TsGraphPassFn fn, void *ctx,
                            TsError *err);
/* Registers pass fn to run on the executor's optimized copy of every graph instead, after
 * the core's own optimization (calls inlined, constants folded, loops unrolled, dead code
 * gone) and, where the executor specializes, on the copy specialized to a call's argument
 * types (their dtypes, ranks and devices known): where a fuser belongs. It does not run
 * when the optimizer is off (TSCRIPT_JIT_DISABLE=1, --no-opt). Otherwise as
 * ts_register_pass: names unique among both kinds, run in registration order, the graph
 * verified after each; a failure fails the call that needed the plan. */
TS_API int ts_register_optimizer_pass(TsRegistry *r, const char *name, TsGraphPassFn fn,
                                      void *ctx, TsError *err);

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

/* ---- work queued for later: handing values to another thread ----------------- */
/* A backend whose kernels only queue their work (a GPU stream per thread) implements the
 * operator "tscript::handoff() -> ()" on its backend. The interpreter calls every backend's
 * kernel of it on a thread that hands values to another thread: a fork's parent before the
 * task can start elsewhere, and a forked task before it suspends (it may resume on another
 * thread) or completes (its waiter reads the result). The kernel makes what the calling
 * thread queued done, or ordered before anything another thread queues after it. */
#define TS_HANDOFF_OP "tscript::handoff"

/* ---- looking up an allocator at run time (for kernels that allocate) ------ */
TS_API TsAllocator *ts_runtime_allocator(struct TsRuntime *rt, int device_type);

/* ---- calling TorchScript from a kernel ------------------------------------ */
/* A kernel the interpreter runs may call the program's own TorchScript code: a method of a
 * script class (aten::sort calls __lt__) or a free function. Only during the kernel call,
 * on its thread, with the TsCall the kernel was given; anything else fails with
 * TS_ERR_USAGE. The callee runs to its end before ts_call_function returns, in an
 * interpreter state nested in the kernel's:
 *
 *   - re-entrant: the callee's operators may call back again (a __lt__ that sorts), up to
 *     TS_CALL_MAX_NESTING states deep; one more fails with TS_ERR_LIMIT ("maximum recursion
 *     depth exceeded") rather than overflowing the C stack;
 *   - on any thread, fork/wait's included: torch.jit.fork inside a nested call runs the
 *     forked function at once on the same thread, so a kernel never waits for a pool thread
 *     that is itself waiting;
 *   - failures propagate: a raise in the callee, or an error of one of its operators, comes
 *     back in call->error (its code, and the callee's TorchScript traceback as the message).
 *     The kernel releases what it holds and returns that code with the error untouched; the
 *     operator then fails as PyTorch's does, the caller's traceback followed by the callee's.
 */
#define TS_CALL_MAX_NESTING 200

typedef struct TsFunction TsFunction;  /* a compiled TorchScript function or method */

/* The method `name` of script class cls in the program running the kernel, or with cls NULL
 * the function of qualified name `name` ("__torch__.f"); NULL when there is none. */
TS_API const TsFunction *ts_call_find(TsCall *call, const TsType *cls, const char *name);

/* A function's signature: its argument count (self included, for a method), the type of
 * argument i, and its return type (NoneType for a function that returns nothing). */
TS_API size_t ts_function_num_args(const TsFunction *f);
TS_API const TsType *ts_function_arg_type(const TsFunction *f, size_t i);
TS_API const TsType *ts_function_return_type(const TsFunction *f);

/* Runs f with the n values of args (borrowed; for a method args[0] is the object) and puts
 * its result in *out (a new reference). n must be f's argument count and each value of its
 * argument's type (else a TypeError). Returns 0, or the error's code with call->error set
 * and *out None. */
TS_API int ts_call_function(TsCall *call, const TsFunction *f, const TsValue *args, size_t n,
                     TsValue *out);

/* ---- grad mode ---------------------------------------------------------------- */
/* torch.is_grad_enabled(): on unless the program turned it off (torch.no_grad(),
 * torch.set_grad_enabled(False)). tscript computes no gradients, but programs read the mode
 * to choose a path (nn.MultiheadAttention's fast path needs it off), so it is modelled as
 * PyTorch's: per running program, inherited by the tasks it forks. */
TS_API bool ts_grad_enabled(void);
TS_API void ts_set_grad_enabled(bool on);

/* ---- intra-op parallelism --------------------------------------------------- */
/* The work of [begin, end) on chunk [b, e): 0, or an error code with err set. */
typedef int (*TsParallelFn)(void *ctx, int64_t b, int64_t e, TsError *err);

/* Calls fn on disjoint chunks that cover [begin, end), each at least grain long, on the
 * calling thread and the runtime's worker threads at once (num_threads in all, so fn must be
 * safe to run concurrently on different chunks); returns when every chunk is done. A range shorter than 2 * grain runs as one fn(ctx, begin, end)
 * on the calling thread, as does a call made while the workers serve another (from another
 * thread, or from inside a chunk), so pick grain so that a chunk outweighs waking a thread
 * (tens of microseconds). Results must not depend on how the range is cut. On failure
 * returns the error of the failing chunk nearest begin, with its message in err (which may
 * be NULL). */
TS_API int ts_parallel_for(int64_t begin, int64_t end, int64_t grain, TsParallelFn fn, void *ctx,
                    TsError *err);
/* The number of threads ts_parallel_for uses: num_threads of the runtime opened last
 * (TSCRIPT_NUM_THREADS, the config, or the cores), also for libraries with pools of their
 * own (BLAS). */
TS_API int ts_parallel_num_threads(void);

/* ---- settings of the config ------------------------------------------------------ */
/* The value of the config key `key` that a plugin reads rather than the core (these are
 * listed in tscript-config(5): "blas_core", aten-cpu's) in the config of the runtime opened
 * last, copied into value (size bytes), and where the file sets it ("config.yaml:7:12")
 * into where (wsize bytes) when where is not NULL. Returns false, with both "", when that
 * config does not set it. The core checks only the value's form; a plugin that finds the
 * value wrong says so with the place. Process-wide, as ts_parallel_num_threads: what such a
 * setting governs (a library loaded once per process) is. */
TS_API bool ts_config_setting(const char *key, char *value, size_t size, char *where,
                              size_t wsize);

#ifdef __cplusplus
}
#endif
#endif
