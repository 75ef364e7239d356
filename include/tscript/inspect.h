/* tscript/inspect.h — looking without running: the plugins a runtime loaded, the operator
 * table they made, and the outline of a TorchScript source file (its top-level definitions
 * and their decorators) read without compiling it.
 *
 * The operator table is what `torch._C._jit_get_all_schemas()` lists in PyTorch: every
 * operator a loaded plugin declared, with the backends that have a kernel for it. It is
 * fixed once the runtime is open, so its entries live, unchanged, as long as the runtime.
 *
 * An outline is what Python's ast module would show of a file's top level: a tool that
 * finds tests (test_* functions and their unittest decorators), entry points or classes
 * reads it instead of compiling, so that one definition that does not compile does not
 * hide the others.
 */
#ifndef TSCRIPT_INSPECT_H
#define TSCRIPT_INSPECT_H

#include <stdbool.h>
#include <stddef.h>

#include "tscript/error.h"
#include "tscript/export.h"

#ifdef __cplusplus
extern "C" {
#endif

struct TsRuntime;

/* ---- the plugins ---------------------------------------------------------------------- */
/* The plugins the runtime loaded, in load order: their number, and plugin i's name
 * ("aten-cpu") and the file it was loaded from (NULL past the end). Borrowed. */
TS_API size_t ts_runtime_num_plugins(const struct TsRuntime *rt);
TS_API const char *ts_runtime_plugin_name(const struct TsRuntime *rt, size_t i);
TS_API const char *ts_runtime_plugin_path(const struct TsRuntime *rt, size_t i);

/* ---- the operator table --------------------------------------------------------------- */
typedef struct TsOperator TsOperator;

/* The number of operators, and operator i of them in declaration order (plugins in load
 * order, each plugin's schemas in its files' order); NULL past the end. Borrowed from the
 * runtime. */
TS_API size_t ts_runtime_num_operators(const struct TsRuntime *rt);
TS_API const TsOperator *ts_runtime_operator(const struct TsRuntime *rt, size_t i);
/* The operator with this qualified name and overload ("" or NULL: the default), or NULL. */
TS_API const TsOperator *ts_runtime_find_operator(const struct TsRuntime *rt,
                                                  const char *name, const char *overload);

/* Its qualified name ("aten::add"), overload name ("Tensor", "" for the default) and the
 * plugin whose schema declared it. */
TS_API const char *ts_operator_name(const TsOperator *op);
TS_API const char *ts_operator_overload(const TsOperator *op);
TS_API const char *ts_operator_plugin(const TsOperator *op);
/* Its schema as PyTorch prints it ("aten::add.Tensor(Tensor self, Tensor other, *, Scalar
 * alpha=1) -> Tensor"), written to buf as snprintf does; returns the length of the whole
 * text, or 0 when out of memory. */
TS_API size_t ts_operator_schema(const TsOperator *op, char *buf, size_t size);
/* Its arguments as the schema declares them: their number (self included; a vararg
 * schema's fixed ones), argument i's name and type (NULL past the end), and the number of
 * its results. A kernel finds its operator in TsCall.op (plugin.h). */
TS_API size_t ts_operator_num_args(const TsOperator *op);
TS_API const char *ts_operator_arg_name(const TsOperator *op, size_t i);
TS_API const struct TsType *ts_operator_arg_type(const TsOperator *op, size_t i);
TS_API size_t ts_operator_num_returns(const TsOperator *op);
/* The kernels registered for it, one per backend in registration order: their number, and
 * kernel i's backend ("cpu", or "any" for one that runs on every backend) and the plugin
 * that registered it (NULL past the end). */
TS_API size_t ts_operator_num_kernels(const TsOperator *op);
TS_API const char *ts_operator_kernel_backend(const TsOperator *op, size_t i);
TS_API const char *ts_operator_kernel_plugin(const TsOperator *op, size_t i);

/* ---- a source file's outline ------------------------------------------------------------ */
typedef struct TsOutline TsOutline;

/* A decorator as written: @unittest.skip("why") is the name "unittest.skip", a call, with
 * one argument "why". */
typedef struct TsDecorator {
    const char *name;          /* the dotted name ("expectedFailure", "unittest.skip"), or
                                * NULL when it is some other expression */
    bool is_call;              /* written with an argument list */
    size_t n_args;             /* its positional arguments (keyword ones are left out) */
    const char *const *args;   /* each one's value when it is a string literal, else NULL */
} TsDecorator;

typedef enum TsOutlineKind {
    TS_OUTLINE_FUNCTION,       /* def */
    TS_OUTLINE_CLASS,          /* class */
    TS_OUTLINE_OTHER           /* any other statement (import, assignment, ...) */
} TsOutlineKind;

/* One top-level statement. */
typedef struct TsOutlineItem {
    TsOutlineKind kind;
    const char *name;          /* a def's or class's name, else NULL */
    size_t line;               /* where it starts, from 1 */
    size_t n_decorators;       /* a def's or class's, in source order */
    const TsDecorator *decorators;
} TsOutlineItem;

/* Parses len bytes of Python source (name for messages, as ts_script_compile's) without
 * compiling it; NULL with PyTorch's syntax error (and the source excerpt) in err. */
TS_API TsOutline *ts_outline_parse(const char *name, const char *source, size_t len,
                                   TsError *err);
/* The top-level statements, in source order, and statement i (NULL past the end; borrowed
 * from the outline, as is everything it points to). */
TS_API size_t ts_outline_size(const TsOutline *o);
TS_API const TsOutlineItem *ts_outline_item(const TsOutline *o, size_t i);
/* NULL is ignored. */
TS_API void ts_outline_free(TsOutline *o);

#ifdef __cplusplus
}
#endif
#endif
