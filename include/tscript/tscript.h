/* tscript/tscript.h — the embedding API: everything a C or C++ program needs to compile
 * TorchScript, load models saved by PyTorch, and run them. It includes the rest of the
 * public headers (values, tensors, types, errors, text buffers and the value printer, the
 * plugin ABI, inspect.h: the operator table and a source file's outline, and ir.h: the
 * IR of graph passes).
 *
 *     TsError err = TS_ERROR_INIT;
 *     TsRuntime *rt = ts_runtime_open(NULL, &err);    // TSCRIPT_CONFIG, installed, embedded
 *     TsModule *m = rt ? ts_module_load(rt, "model.pt", &err) : NULL;
 *     TsMethod *fwd = m ? ts_module_find_method(m, "forward", &err) : NULL;
 *     float buf[4] = { 1, 2, 3, 4 };
 *     TsTensor *x = fwd ? ts_tensor_from_blob(buf, TS_FLOAT32, 2, (int64_t[]){ 2, 2 }, NULL,
 *                                             NULL, NULL, &err) : NULL;
 *     TsValue out, in = ts_tensor_value(x);
 *     if (!x || ts_method_call(fwd, &in, 1, &out, &err))
 *         fprintf(stderr, "%s: %s\n", ts_error_class(err.code), err.msg);
 *     ...
 *     ts_value_release(in); ts_value_release(out);
 *     ts_method_free(fwd); ts_module_free(m); ts_runtime_close(rt);
 *
 * Conventions. Every fallible function takes a TsError * last and reports failure by
 * returning NULL or a nonzero TsErrorCode, with the message (PyTorch's wording where PyTorch
 * has one) in the TsError; nothing is ever printed. A function that returns a new object
 * gives the caller its reference (free or release it); "borrowed" results live as long as
 * the object they came from.
 *
 * Threads. A TsRuntime, TsScript, TsModule and TsMethod may be shared by any number of
 * threads once made: ts_method_call may run the same method on many threads at once
 * (methods of a module compile on first call, serialized inside the module). Opening,
 * closing and freeing are not concurrent with anything else on the same object. Values are
 * reference-counted atomically, so a tensor may be passed to several threads; a list, dict
 * or object reachable from several threads must first be marked with ts_value_share
 * (value.h), after which the interpreter locks it around every access. The number of
 * threads (ts_runtime_set_num_threads) is process-wide, as ATen's is.
 */
#ifndef TSCRIPT_TSCRIPT_H
#define TSCRIPT_TSCRIPT_H

#include "tscript/export.h"
#include "tscript/error.h"
#include "tscript/inspect.h"
#include "tscript/ir.h"
#include "tscript/plugin.h"
#include "tscript/print.h"
#include "tscript/strbuf.h"
#include "tscript/tensor.h"
#include "tscript/types.h"
#include "tscript/value.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- versions --------------------------------------------------------------------- */
#define TS_VERSION "0.1.0"
#define TS_VERSION_MAJOR 0
#define TS_VERSION_MINOR 1
#define TS_VERSION_PATCH 0
/* The embedding ABI: bumped whenever a function or struct of the public headers changes
 * incompatibly. A program compares TS_ABI_VERSION (what it was built against) with
 * ts_abi_version() (the library it runs with). */
#define TS_ABI_VERSION 5u

/* The library's version string ("0.1.0") and its embedding ABI version. */
TS_API const char *ts_version(void);
TS_API unsigned ts_abi_version(void);

/* ---- runtimes ----------------------------------------------------------------------- */
typedef struct TsRuntime TsRuntime;

/* Opens a runtime from a YAML config file. config_path NULL: $TSCRIPT_CONFIG if set, else the
 * installed default config if present, else the embedded default (plugins prim and aten-cpu).
 * Fails with a message naming the file and the reason (bad YAML, missing plugin, failed
 * dlopen, ABI mismatch, missing entry point, failed registration). With `load:
 * on_first_use` (the default plugins' default) it loads the first plugin only; the others
 * load, with those errors, the first time the runtime needs them (see
 * ts_runtime_load_plugins). */
TS_API TsRuntime *ts_runtime_open(const char *config_path, TsError *err);
/* The same from settings in memory: yaml (len bytes) in the config file's format, e.g.
 * "plugins: [prim, aten-cpu]\nnum_threads: 2\n"; relative paths in it are relative to the
 * current directory. Messages name the settings "(settings)". */
TS_API TsRuntime *ts_runtime_open_settings(const char *yaml, size_t len, TsError *err);
/* Loads the plugins a runtime deferred (config load: on_first_use), if it has not yet: 0,
 * or the error the first that failed gave (the same on every call). The runtime loads them
 * itself the first time a program names something the loaded ones lack, or loads a module,
 * or a call passes a tensor; call this to see a broken plugin's error up front. */
TS_API int ts_runtime_load_plugins(TsRuntime *rt, TsError *err);
/* Unloads the plugins. Every script, module and method of the runtime must be freed first;
 * values the program still holds (tensors) stay valid. NULL is ignored. */
TS_API void ts_runtime_close(TsRuntime *rt);

/* The backend factory functions use when no device is given ("cpu" unless configured). */
TS_API const char *ts_runtime_default_backend(const TsRuntime *rt);
/* Replaces the config's default_backend: name must be cpu or a backend whose allocator a
 * loaded plugin registered (TS_ERR_CONFIG "'NAME' is not a backend any loaded plugin
 * provides" otherwise, and the default stays). Call it right after opening, before anything
 * is compiled or loaded on the runtime and never while its methods run. */
TS_API int ts_runtime_set_default_backend(TsRuntime *rt, const char *name, TsError *err);
/* Threads for fork/wait and intra-op work ($TSCRIPT_NUM_THREADS, else the config, else cores). */
TS_API int ts_runtime_num_threads(const TsRuntime *rt);
/* Sets the number of threads intra-op work is split over (1 to 4096; process-wide), and the
 * size of the fork/wait pool when it starts (a pool already running keeps its size). Not
 * while methods of the runtime run on other threads. */
TS_API int ts_runtime_set_num_threads(TsRuntime *rt, int n, TsError *err);
/* Whether functions run the graph the optimizer made of them (the default), or the graph the
 * frontend built ($TSCRIPT_JIT_DISABLE=1, the CLI's --no-opt). Set it right after opening:
 * it applies to functions whose code is built after the call (on their first call). */
TS_API bool ts_runtime_optimize(const TsRuntime *rt);
TS_API void ts_runtime_set_optimize(TsRuntime *rt, bool on);
/* Whether the executor captures the device work of a graph's regions whose inputs' shapes
 * repeat into graphs that a backend replays (CUDA graphs; config cuda_graphs: true), where
 * the backend can (TsAllocator.capture). Off by default; set it as the optimizer's switch. */
TS_API bool ts_runtime_graphs(const TsRuntime *rt);
TS_API void ts_runtime_set_graphs(TsRuntime *rt, bool on);

/* ---- compiled TorchScript source ---------------------------------------------------- */
typedef struct TsScript TsScript;
typedef struct TsMethod TsMethod;

/* Compiles TorchScript source (len bytes of Python; every function and class of it, as
 * torch.jit.script of each would). name is the file name messages and tracebacks show
 * ("model.py"). NULL with PyTorch's compile error (with the source excerpt) in err. */
TS_API TsScript *ts_script_compile(TsRuntime *rt, const char *name, const char *source,
                                   size_t len, TsError *err);
/* The same for a file. */
TS_API TsScript *ts_script_compile_file(TsRuntime *rt, const char *path, TsError *err);
/* Compiles only the n functions named in entries ("f", or "Cls.method" for a method of a
 * script class) and what they reach, as torch.jit.script(f) compiles f alone: a function
 * nothing of them calls may fail to compile without harm. n == 0 compiles everything, as
 * ts_script_compile. NULL with err: TS_ERR_KEY "no function 'f' in the file" for an entry
 * the source does not define, else the compile error, and then *failed (when not NULL) is
 * the index of the entry whose compile failed. */
TS_API TsScript *ts_script_compile_entries(TsRuntime *rt, const char *name, const char *source,
                                           size_t len, const char *const *entries, size_t n,
                                           size_t *failed, TsError *err);
/* Frees the script (its methods must be freed first). NULL is ignored. */
TS_API void ts_script_free(TsScript *s);
/* The compiled functions, in the order they were defined: free functions and methods of
 * script classes, by qualified name ("__torch__.f", "__torch__.Point.norm"); borrowed. */
TS_API size_t ts_script_num_functions(const TsScript *s);
TS_API const char *ts_script_function_name(const TsScript *s, size_t i);
/* The free function name ("f" or "__torch__.f") as a callable method; NULL with err set
 * (TS_ERR_KEY) when the script has no such function. */
TS_API TsMethod *ts_script_find_function(TsScript *s, const char *name, TsError *err);
/* Saves function name as torch.jit.save(torch.jit.script(f), path) would. */
TS_API int ts_script_save(TsScript *s, const char *name, const char *path, TsError *err);

/* ---- modules loaded from .pt archives ------------------------------------------------ */
typedef struct TsModule TsModule;

/* Loads a torch.jit.save archive. The file is mapped (tensors point into it); methods
 * compile on first call. NULL with err: unreadable file, not an archive, a version PyTorch
 * 1.13 cannot read, a global the safe unpickler refuses. */
TS_API TsModule *ts_module_load(TsRuntime *rt, const char *path, TsError *err);
/* The same from size bytes in memory that the caller keeps alive, unchanged, until
 * ts_module_free (the tensors point into it); name is used in messages. */
TS_API TsModule *ts_module_load_memory(TsRuntime *rt, const char *name, const void *data,
                                       size_t size, TsError *err);
/* Frees the module (its methods must be freed first). NULL is ignored. */
TS_API void ts_module_free(TsModule *m);
/* The root module object (borrowed): its attributes are the TsObject's slots (value.h). */
TS_API TsValue ts_module_root(const TsModule *m);
/* The names of the methods the root module's class defines, in the archive's order: up to
 * max into names (borrowed); returns how many there are. */
TS_API size_t ts_module_method_names(TsModule *m, const char **names, size_t max);
/* The root module's method name, bound to the root (self), compiling it (and what it
 * calls) if it is not compiled yet. NULL with err: TS_ERR_KEY when there is no such method,
 * or the compile error. */
TS_API TsMethod *ts_module_find_method(TsModule *m, const char *name, TsError *err);
/* Saves the module as it is now (attributes its methods changed are saved changed), as
 * torch.jit.save does; PyTorch 1.13's torch.jit.load reads the file. */
TS_API int ts_module_save(TsModule *m, const char *path, TsError *err);
/* The archive's version (the number in its version record: 1 to 10 for PyTorch 1.13). */
TS_API int64_t ts_module_version(const TsModule *m);

/* What an attribute of a module object is, as its class declares it: a submodule (a
 * module-typed attribute), a parameter or buffer (listed in __parameters__ or __buffers__),
 * or any other attribute. */
typedef enum TsModuleAttrKind {
    TS_MODULE_ATTR,
    TS_MODULE_PARAMETER,
    TS_MODULE_BUFFER,
    TS_MODULE_SUBMODULE
} TsModuleAttrKind;
/* The kind of attribute field (ts_type_field's index) of cls, a class of the module's code
 * (the root's or any submodule's: ts_value_type of the object); TS_MODULE_ATTR for a class
 * or field the archive does not declare. */
TS_API TsModuleAttrKind ts_module_attr_kind(TsModule *m, const TsType *cls, size_t field);
/* The operators the archive's code calls that no plugin of the runtime declares
 * ("aten::lstm", what a config must add before the model runs), sorted, each once: a
 * malloc'd array of *n malloc'd names (free with ts_free_names; an empty array when there
 * are none), or NULL with err when a code file cannot be read or parsed. */
TS_API char **ts_module_missing_ops(TsModule *m, size_t *n, TsError *err);
/* Frees n names and the array holding them. NULL is ignored. */
TS_API void ts_free_names(char **names, size_t n);

/* ---- calling ------------------------------------------------------------------------- */
/* The method's qualified name ("__torch__.f", "__torch__.TinyNet.forward"); borrowed. */
TS_API const char *ts_method_name(const TsMethod *m);
/* Its schema as PyTorch prints it ("forward(__torch__.TinyNet self, Tensor x) -> Tensor"),
 * written to buf as snprintf does; returns the length of the whole text. */
TS_API size_t ts_method_schema(const TsMethod *m, char *buf, size_t size);
/* The number of arguments a call passes (self, bound, is not counted), and the type of
 * argument i of those (NULL past the end) and of the result. */
TS_API size_t ts_method_num_args(const TsMethod *m);
TS_API const TsType *ts_method_arg_type(const TsMethod *m, size_t i);
TS_API const TsType *ts_method_return_type(const TsMethod *m);
/* The name of argument i of those (NULL past the end), and whether it has a default: true
 * and the default value in *out (borrowed from the method) when it has one, else false. */
TS_API const char *ts_method_arg_name(const TsMethod *m, size_t i);
TS_API bool ts_method_arg_default(const TsMethod *m, size_t i, TsValue *out);
/* Calls the method with the n values of args (borrowed: the caller keeps its references)
 * and puts the result in *out (the caller's reference; a tuple when the function returns
 * several values, None when it returns nothing; None on failure). The arguments must match
 * the signature in type, and in number but for trailing ones with defaults, which take them
 * (TS_ERR_TYPE otherwise, as PyTorch words it); an
 * exception raised by the program comes back as its class's code with PyTorch's
 * traceback text. Safe on many threads at once. */
TS_API int ts_method_call(const TsMethod *m, const TsValue *args, size_t n, TsValue *out,
                          TsError *err);
/* Frees the handle (not the function). NULL is ignored. */
TS_API void ts_method_free(TsMethod *m);

/* ---- tensors over the caller's memory, and their metadata ---------------------------- */
/* A CPU tensor over data (zero copy): dim sizes, strides in elements (NULL: contiguous).
 * When the tensor and every view of it are gone, release(ctx) runs once (release NULL: the
 * caller keeps data alive longer than any tensor over it). On failure (a bad dtype or
 * shape, sizes that overflow) NULL with err, and release is not called. */
TS_API TsTensor *ts_tensor_from_blob(void *data, int dtype, int dim, const int64_t *sizes,
                                     const int64_t *strides, void (*release)(void *ctx),
                                     void *ctx, TsError *err);
/* A contiguous CPU tensor holding a copy of data (dim sizes, contiguous, of dtype). */
TS_API TsTensor *ts_tensor_from_copy(const void *data, int dtype, int dim,
                                     const int64_t *sizes, TsError *err);
/* dtype (TsDType), number of dimensions, sizes and strides (dim entries, borrowed, strides
 * in elements), device; ts_tensor_data (tensor.h) is element 0. */
TS_API int ts_tensor_dtype(const TsTensor *t);
TS_API int ts_tensor_dim(const TsTensor *t);
TS_API const int64_t *ts_tensor_sizes(const TsTensor *t);
TS_API const int64_t *ts_tensor_strides(const TsTensor *t);
TS_API TsDevice ts_tensor_device(const TsTensor *t);

/* ---- values -------------------------------------------------------------------------- */
/* value.h makes None, ints, floats and bools (ts_none, ts_int, ts_double, ts_bool) and
 * declares the containers; these build and read the rest without touching structs.
 * Builders that take values take their references (also on failure). */

/* A tensor value (takes t's reference). */
TS_API TsValue ts_tensor_value(TsTensor *t);
/* A str value holding a copy of len bytes of UTF-8. */
TS_API int ts_value_str_new(const char *s, size_t len, TsValue *out, TsError *err);
/* A tuple of the n values. */
TS_API int ts_value_tuple_new(TsValue *items, size_t n, TsValue *out, TsError *err);
/* A List[elem_type] of the n values (each must be of elem_type: TS_ERR_TYPE otherwise). */
TS_API int ts_value_list_new(const TsType *elem_type, TsValue *items, size_t n, TsValue *out,
                             TsError *err);
/* A Dict[key_type, value_type] of n pairs keys[i]: values[i] (later keys win). */
TS_API int ts_value_dict_new(const TsType *key_type, const TsType *value_type, TsValue *keys,
                             TsValue *values, size_t n, TsValue *out, TsError *err);

/* Reading: 0 and the value in *out when v holds that kind, else TS_ERR_TYPE naming what v
 * is. An int reads as a float too, a bool only as a bool. */
TS_API int ts_value_to_int(TsValue v, int64_t *out, TsError *err);
TS_API int ts_value_to_double(TsValue v, double *out, TsError *err);
TS_API int ts_value_to_bool(TsValue v, bool *out, TsError *err);
/* A str's bytes (borrowed from v, NUL-terminated) and their length. */
TS_API int ts_value_to_str(TsValue v, const char **data, size_t *len, TsError *err);
/* A tensor (borrowed from v). */
TS_API int ts_value_to_tensor(TsValue v, TsTensor **out, TsError *err);
/* The number of items of a str (bytes), list, tuple or dict; 0 for anything else. */
TS_API size_t ts_value_len(TsValue v);
/* Item i of a list or tuple (borrowed; a list shared between threads must not change
 * meanwhile); TS_ERR_INDEX past the end. */
TS_API int ts_value_item(TsValue v, size_t i, TsValue *out, TsError *err);
/* The value of key in a dict (borrowed); TS_ERR_KEY when absent. */
TS_API int ts_value_dict_get(TsValue v, TsValue key, TsValue *out, TsError *err);
/* str(v) as TorchScript's print() writes it is ts_value_to_cstr(rt, v, err) (print.h). */

/* Makes v, a value read from a file (ts_value_load) or unpickled, a value of type t where it
 * is one: its untyped lists and dicts (a pickle has no element types) take t's element
 * types, in place, and everything in it is checked against t. TS_ERR_TYPE (or
 * TS_ERR_VALUE) naming what does not fit otherwise; v may then be partly retyped. */
TS_API int ts_value_conform(TsValue v, const TsType *t, TsError *err);

/* ---- values in files ------------------------------------------------------------------ */
/* The value a torch.save file (a tensor, or lists, tuples and dicts of tensors and numbers)
 * or a NumPy .npy file holds, told apart by content: a new reference in *out. Errors name
 * the file. */
TS_API int ts_value_load(const char *path, TsValue *out, TsError *err);
/* Replaces *v by a value whose tensors (through lists, tuples and dicts) live on backend
 * ("cuda"; NULL: the runtime's default backend), as a model loads on a runtime whose
 * default backend is not cpu: each storage is copied once, so views of one storage stay
 * views of one copy; tensors already there are shared, not copied. Errors: no such backend
 * loaded, no device ("no CUDA device: ..."), out of memory; *v is then unchanged. */
TS_API int ts_value_to_backend(TsRuntime *rt, TsValue *v, const char *backend, TsError *err);
/* Writes v to path: .npy when path ends in ".npy" (v must be a CPU tensor), else a
 * torch.save archive torch.load reads. A failed write leaves no file. */
TS_API int ts_value_save(const char *path, TsValue v, TsError *err);

/* The most bytes of TorchScript source the library reads from a file. */
#define TS_SOURCE_MAX ((size_t)64 << 20)
/* A whole file (malloc'd, NUL-terminated; its length without the NUL in *len), refusing
 * more than max bytes (TS_ERR_LIMIT "PATH: larger than MAX bytes, the most read here");
 * other errors name the file and the system's reason ("PATH: Is a directory"). */
TS_API char *ts_read_file(const char *path, size_t max, size_t *len, TsError *err);

#ifdef __cplusplus
}
#endif
#endif
