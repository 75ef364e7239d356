/* module.h — a model loaded from a .pt archive: its objects and its code, compiled on use.
 *
 * ts_module_load reads a torch.jit.save archive: the zip (mapped, so tensors point into the
 * file), its version, constants.pkl (the tensors CONSTANTS.cN name), and data.pkl (the
 * module tree: objects of the classes code/ declares, their attributes conformed to the
 * declared types). Methods compile on first use — a call of forward compiles forward and
 * what it calls, nothing else — so loading costs what reading the objects costs. A module
 * may be used from several threads; compiles are serialized inside it.
 */
#ifndef TSCRIPT_MODULE_H
#define TSCRIPT_MODULE_H

#include "function.h"
#include "tscript/tscript.h"

typedef struct TsModule TsModule;

/* The archive versions PyTorch 1.13 reads (caffe2/serialize/versions.h). */
#define TS_ARCHIVE_MIN_VERSION 1
#define TS_ARCHIVE_MAX_VERSION 10

TsModule *ts_module_load(TsRuntime *rt, const char *path, TsError *err);
/* The same from memory the caller keeps alive until ts_module_free (tensors point into it);
 * name is used in messages. */
TsModule *ts_module_load_memory(TsRuntime *rt, const char *name, const void *data, size_t size,
                                TsError *err);
void ts_module_free(TsModule *m);

/* The root module object (borrowed) and the unit its code compiles into. */
TsValue ts_module_root(const TsModule *m);
TsCompUnit *ts_module_unit(TsModule *m);
/* The archive-mode compiler of the module's code (its classes' declarations, for saving). */
struct TsCompiler *ts_module_compiler(TsModule *m);
/* The runtime the module was loaded into. */
TsRuntime *ts_module_runtime(const TsModule *m);

/* The method `name` of the root module, compiled on first use: NULL with err set when it does
 * not compile, NULL with err untouched when the module has no such method. */
TsFunction *ts_module_method(TsModule *m, const char *name, TsError *err);
/* The names of the methods the root module's class defines, in the archive's order: up to
 * max into names (borrowed); returns how many there are. */
size_t ts_module_method_names(TsModule *m, const char **names, size_t max);

/* ts_module_version, ts_module_attr_kind and ts_module_missing_ops are public (tscript.h). */

#endif
