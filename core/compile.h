/* compile.h — compiling a Python file into a TsCompUnit.
 *
 * The file is parsed; its functions, classes (script classes, NamedTuples, Enums) and
 * imports are collected; then the entry function is compiled and, on demand, everything it
 * reaches (as torch.jit.script compiles only what the entry point calls). Functions are
 * named "__torch__.f", methods "__torch__.Cls.m".
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

/* The same for a file on disk. */
TsCompUnit *ts_compile_file(const TsOpTable *ops, const char *path, const char *entry,
                            TsError *err);

#endif
