/* pyprint.h — the python printer: compiled functions and class types written as the code
 * files of a torch.jit.save archive, in PyTorch 1.13's dialect.
 *
 * An archive carries the source of every class and function its model uses, one file per
 * qualified module: class __torch__.m.Cls and function __torch__.m.f are printed into
 * code/__torch__/m.py. The text is not the program as the user wrote it but the printer's
 * rendering of the IR: every name qualified, one operator call per node (aten::X as
 * torch.X, others as ops.NS.X), If and Loop outputs as assignments in each branch, loops as
 * `for i in range(n)` or `while c`, tensors as CONSTANTS.cN into a table the caller pickles
 * as constants.pkl. core/frontend/import.c reads it back, and so does PyTorch.
 *
 * Usage: make a printer over the compilation unit that holds the functions (methods are
 * found there by their class), describe the classes whose details the type does not carry
 * (which attributes are parameters, Final constants, enum values, interface methods), add
 * what must be saved, then finish, which prints everything they use that is not printed
 * yet (classes, named tuples, enums, interfaces, functions), in the order first met, as
 * PyTorch's serializer does. Methods print in the order their class declares them.
 */
#ifndef TSCRIPT_PYPRINT_H
#define TSCRIPT_PYPRINT_H

#include <stddef.h>

#include "function.h"
#include "registry/schema.h"
#include "tscript/error.h"
#include "tscript/value.h"

typedef struct TsPyPrinter TsPyPrinter;

/* What a class type does not say about itself. Everything is optional and copied. */
typedef struct TsPyClassInfo {
    const TsType *type;
    /* a module: the attributes that are parameters and buffers (__parameters__ and
     * __buffers__; both printed empty when not given) */
    const char *const *parameters;
    size_t n_parameters;
    const char *const *buffers;
    size_t n_buffers;
    /* Final constants, printed `name : Final[T] = value` */
    const char *const *constant_names;
    const TsValue *constant_values;
    size_t n_constants;
    /* an enum: its members' values, in member order. When not given they are taken from
     * the enum's members that the printed graphs hold as constants (every member a
     * program iterates over, or names); a member seen nowhere is an error. */
    const TsValue *enum_values;
    size_t n_enum_values;
    /* an interface: the schemas of its methods (first argument self) */
    const TsSchema *const *methods;
    size_t n_methods;
} TsPyClassInfo;

/* One printed file: code/__torch__/m.py holds module "__torch__.m". */
typedef struct TsPyFile {
    const char *module;        /* "__torch__.m" */
    const char *path;          /* "code/__torch__/m.py" */
    const char *text;
    size_t len;
} TsPyFile;

/* unit: where functions called by name and the methods of classes are found (borrowed;
 * it must outlive the printer). A method not compiled yet is compiled through the unit's
 * resolver (ts_unit_method); one the resolver does not find is left out. */
TsPyPrinter *ts_pyprint_new(TsCompUnit *unit, TsError *err);
void ts_pyprint_free(TsPyPrinter *p);

int ts_pyprint_describe(TsPyPrinter *p, const TsPyClassInfo *info, TsError *err);

/* Prints a named type (class, module, named tuple, enum, interface) or a free function
 * now, and queues what it uses. Printing one twice prints it once. */
int ts_pyprint_add_type(TsPyPrinter *p, const TsType *type, TsError *err);
int ts_pyprint_add_function(TsPyPrinter *p, const TsFunction *f, TsError *err);
/* Prints module (a module type: its declarations) with a forward that calls f with its
 * arguments: how torch.jit.save(torch.jit.script(f)) holds a function, as a
 * PlaceholderModule. */
int ts_pyprint_add_forwarder(TsPyPrinter *p, const TsType *module, const TsFunction *f,
                             TsError *err);
/* Prints everything queued, and what that uses, until nothing is left. */
int ts_pyprint_finish(TsPyPrinter *p, TsError *err);

/* The files, in the order they were started. Valid until the next add or the free. */
size_t ts_pyprint_file_count(const TsPyPrinter *p);
TsPyFile ts_pyprint_file(const TsPyPrinter *p, size_t i);

/* The archive version the printed code needs, as PyTorch 1.13 computes it: 3, or the
 * version at which an operator it calls last changed meaning (aten::div 4, full 5,
 * linspace 8, logspace 9, gelu 10). PyTorch loads older archives through "upgraders" that
 * restore the old meaning (torch.div of two int tensors truncating, as before version 4),
 * so an archive must not claim less. (PyTorch writes it to "version" below 6 and to
 * ".data/version" from 6.) */
unsigned ts_pyprint_version(const TsPyPrinter *p);

/* The constant table CONSTANTS.cN index: tensors, strings that are not ASCII, objects
 * (borrowed; the caller pickles them as the tuple of constants.pkl). */
size_t ts_pyprint_constant_count(const TsPyPrinter *p);
const TsValue *ts_pyprint_constants(const TsPyPrinter *p);

#endif
