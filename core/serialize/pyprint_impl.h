/* pyprint_impl.h — what the python printer's files share (internal to core/serialize).
 *
 * pyprint.c       the printer: files, the queue of what is still to print, classes
 * pyprint_graph.c a function: its signature and body, statements and expressions
 * pyprint_value.c constants and types as code, the CONSTANTS table
 * pyprint_canon.c what PyTorch's frontend tidies before its printer runs (on a copy)
 *
 * Names are interned symbols (ts_symbol), so the name tables are pointer maps.
 */
#ifndef TSCRIPT_PYPRINT_IMPL_H
#define TSCRIPT_PYPRINT_IMPL_H

#include <stdbool.h>

#include "ptrmap.h"
#include "serialize/pyprint.h"
#include "tscript/strbuf.h"

/* One code file. PyTorch keeps one printer per file, and its counters of name suffixes
 * run across all the functions of the file ("_0" in one function, "_9" in the next). */
typedef struct PyFile {
    char *module;              /* "__torch__.m" */
    char *path;                /* "code/__torch__/m.py" */
    TsBuf text;
    TsPtrMap next_id;          /* name (symbol) -> the next suffix to try */
} PyFile;

/* Something to print: a named type or a free function. */
typedef struct PyItem {
    const TsType *type;
    const TsFunction *fn;
    bool printed;
} PyItem;

struct TsPyPrinter {
    TsCompUnit *unit;
    PyFile **files;
    size_t n_files, cap_files;
    TsValue *constants;        /* CONSTANTS.cN, owned references */
    size_t n_constants, cap_constants;
    TsPyClassInfo *infos;      /* deep copies */
    size_t n_infos, cap_infos;
    PyItem *queue;             /* everything met, in order */
    size_t n_queue, cap_queue;
    TsPtrMap queued;           /* type or function -> its index in queue */
    unsigned version;          /* the archive version the printed code needs */
};

/* ---- pyprint.c ---------------------------------------------------------------------- */
/* Queues a type (and the nominal types inside it) or a function to be printed. */
int pp_use_type(TsPyPrinter *p, const TsType *t, TsError *err);
int pp_use_function(TsPyPrinter *p, const TsFunction *f, TsError *err);
const TsPyClassInfo *pp_info(const TsPyPrinter *p, const TsType *t);
/* Grows a malloc'd array of n items to hold one more. */
int pp_grow(void **items, size_t n, size_t *cap, size_t size, TsError *err);

/* ---- pyprint_graph.c ---------------------------------------------------------------- */
/* Prints `def NAME(...) -> T:` and the body of f at indentation level (0 for a function,
 * 1 for a method) into file. */
int pp_function(TsPyPrinter *p, PyFile *file, const TsFunction *f, int level, TsError *err);
/* How calls name f: its qualified name, or for a static method its class's module and its
 * name (as PyTorch prints static methods); f is queued to be printed. */
int pp_callee_name(TsPyPrinter *p, TsBuf *b, const TsFunction *f, TsError *err);
/* The name the file gives a candidate: itself, or with the next free suffix. */
const char *pp_gen_name(PyFile *file, TsPtrMap *used, const char *candidate, TsError *err);

/* ---- pyprint_value.c ---------------------------------------------------------------- */
/* v as code: a literal, a qualified enum member, or CONSTANTS.cN. */
int pp_value(TsPyPrinter *p, TsBuf *b, TsValue v, TsError *err);
/* t as an annotation ("List[int]", "__torch__.m.Cls"). */
void pp_type(TsBuf *b, const TsType *t);
/* Can a list or dict literal's element type be told from its elements? Not for Optional,
 * Union, number, Any and interfaces: those literals are wrapped in annotate(T, ...). */
bool pp_inferable(const TsType *t);
bool pp_is_identifier(const char *s);
/* The value of v when a prim::Constant defines it (a new reference in *out), else false. */
bool pp_constant_of(const TsIrValue *v, TsValue *out);

/* ---- pyprint_canon.c ---------------------------------------------------------------- */
typedef enum PyLoopKind { PY_LOOP_FOR, PY_LOOP_WHILE, PY_LOOP_MODIFIED } PyLoopKind;
/* How a prim::Loop prints: `for i in range(n)`, `while c`, or neither (see the file). */
PyLoopKind pp_loop_kind(const TsNode *loop);
/* One body block, (trip count, condition, carried...) in, carried out, and the body's
 * inputs and outputs one more than the carried values. */
bool pp_loop_is_wellformed(const TsNode *loop);
/* Does g hold what PyTorch's frontend would have tidied away (see the file)? */
bool pp_needs_tidying(const TsGraph *g);
/* A copy of g so tidied. */
TsGraph *pp_tidy_copy(const TsGraph *g, TsError *err);
/* Is a debug name one PyTorch's emitter gives a value? Not "" nor "_" and digits ("_0",
 * "_3.1"): the names the printer makes up, which PyTorch's importer does not keep. */
bool pp_meaningful_name(const char *name);

#endif
