/* compile.h — compiling a Python file into a TsCompUnit.
 *
 * The file is parsed; its functions, classes (script classes, NamedTuples, Enums) and
 * imports are collected; then the entry function is compiled and, on demand, everything it
 * reaches (as torch.jit.script compiles only what the entry point calls). Functions are
 * named "__torch__.f", methods "__torch__.Cls.m"; class types (global, in the type table)
 * are "__torch__.MODULE.Cls" with MODULE the file's stem, and a class compiled again gets
 * a fresh mangled name ("__torch__.MODULE.___torch_mangle_1.Cls"), as in PyTorch.
 */
#ifndef TSCRIPT_COMPILE_H
#define TSCRIPT_COMPILE_H

#include "function.h"
#include "registry/optable.h"

/* Compiles entry ("main", or "Cls.method") and what it uses; entry NULL compiles every
 * function and class of the file. Returns the unit, or NULL with the first compile error
 * (PyTorch's message with the source excerpt) in err. */
TsCompUnit *ts_compile_source(const TsOpTable *ops, TsSource *src, const char *entry,
                              TsError *err);

/* Compiles each of the n entries (as above) into one unit; n == 0 compiles everything.
 * On failure *failed (when not NULL) is the index of the entry whose compile failed. */
TsCompUnit *ts_compile_entries(const TsOpTable *ops, TsSource *src,
                               const char *const *entries, size_t n, size_t *failed,
                               TsError *err);

/* The names of the file's top-level functions that start with prefix, in file order, as a
 * malloc'd array of *n malloc'd strings (free with ts_free_names), or NULL with a syntax
 * error in err. */
char **ts_compile_list_functions(TsSource *src, const char *prefix, size_t *n, TsError *err);
void ts_free_names(char **names, size_t n);

/* The same for a file on disk. */
TsCompUnit *ts_compile_file(const TsOpTable *ops, const char *path, const char *entry,
                            TsError *err);

#endif
