/* save.h — torch.jit.save: archives PyTorch 1.13's torch.jit.load reads, written by tscript.
 *
 * An archive is a zip whose entries share one top folder named after the file ("model/"
 * for model.pt), in the order PyTorch writes them: data/N (the storages of the module's
 * tensors, stored and 64-byte aligned), data.pkl (the module tree, pickle.h), code/ (the
 * python printer's source of every class and function the model uses, pyprint.h),
 * constants/N and constants.pkl (the tensors the code names CONSTANTS.cN), and the version
 * the printed code needs ("version", or ".data/version" from 6 on, as PyTorch names it).
 */
#ifndef TSCRIPT_SAVE_H
#define TSCRIPT_SAVE_H

#include "frontend/emit.h"
#include "function.h"
#include "module.h"
#include "serialize/pyprint.h"
#include "tscript/tscript.h"

/* Saves a module tscript loaded, as it is now (attributes a method changed are saved
 * changed): its objects pickled (through __getstate__ where a class has one), every class
 * and function they use printed. Only CPU tensors can be saved. */
int ts_save_module(TsRuntime *rt, TsModule *m, const char *path, TsError *err);

/* Saves function f of unit as torch.jit.save(torch.jit.script(f)) does: a
 * PlaceholderModule whose forward calls f, and everything f uses. */
int ts_save_function(TsRuntime *rt, TsCompUnit *unit, const TsFunction *f, const char *path,
                     TsError *err);

/* Schemas made for the printer, which borrows them: freed after it. */
typedef struct TsSchemaList {
    TsSchema **items;
    size_t n, cap;
} TsSchemaList;
void ts_schema_list_free(TsSchemaList *l);

/* Describes to the printer every class of an archive compiler c as its declarations say:
 * __parameters__ and __buffers__, Final constants (literals: numbers, strings, None,
 * booleans, inf/nan, tuples, torch.device(...), enum members), enum values, interface
 * method signatures (their schemas made into *schemas). */
int ts_save_describe_classes(TsPyPrinter *p, TsCompiler *c, TsSchemaList *schemas,
                             TsError *err);

#endif
