/* function.h — compiled functions and the compilation unit that owns them.
 *
 * The frontend compiles a file into a TsCompUnit: its functions (free functions and the
 * methods of script classes, named "__torch__.f" / "__torch__.Cls.method"), in the order
 * they were defined. A function is a graph plus its schema; the interpreter (core/sched)
 * linearizes the graph into Code on first call and keeps it in the function.
 *
 * Calls in graphs:
 *   %r = prim::CallFunction[name="__torch__.f"](%a, %b)     a free function or static method
 *   %r = prim::CallMethod[name="forward"](%self, %a)         a method of %self's class
 * Both are resolved against the unit when the caller's Code is built.
 */
#ifndef TSCRIPT_FUNCTION_H
#define TSCRIPT_FUNCTION_H

#include <stddef.h>

#include "ir/ir.h"
#include "registry/schema.h"

struct TsCode;

typedef struct TsFunction {
    char *qualname;            /* "__torch__.main", "__torch__.Point.norm" */
    const char *name;          /* the unqualified part, pointing into qualname */
    TsGraph *graph;            /* owned */
    TsSchema *schema;          /* owned: argument names, types, defaults; returns */
    const TsType *owner;       /* the class for a method, else NULL */
    struct TsCode *code;       /* owned; built on first call by core/sched */
    void (*free_code)(struct TsCode *code);
} TsFunction;

typedef struct TsCompUnit {
    TsFunction **functions;
    size_t n_functions, cap_functions;
    const TsType **classes;    /* script classes, named tuples, enums defined in the unit */
    size_t n_classes, cap_classes;
} TsCompUnit;

TsCompUnit *ts_unit_new(TsError *err);
void ts_unit_free(TsCompUnit *u);
/* Takes ownership of graph and schema; qualname is copied. Duplicate names are an error. */
TsFunction *ts_unit_add_function(TsCompUnit *u, const char *qualname, TsGraph *graph,
                                 TsSchema *schema, const TsType *owner, TsError *err);
TsFunction *ts_unit_find(const TsCompUnit *u, const char *qualname);
/* The method `name` of class cls, or NULL. */
TsFunction *ts_unit_find_method(const TsCompUnit *u, const TsType *cls, const char *name);
int ts_unit_add_class(TsCompUnit *u, const TsType *cls, TsError *err);

#endif
