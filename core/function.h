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

/* Functions and classes live in segmented arrays that never move once written: segment k
 * holds 16 << k entries. A unit is filled while its program may already run on other
 * threads (an archive's methods compile on first call), so readers scan [0, n) with n read
 * once (acquire) while one writer at a time appends and then publishes n (release). */
enum { TS_UNIT_SEGMENTS = 28 };

typedef struct TsUnitArray {
    void **seg[TS_UNIT_SEGMENTS];
    size_t n;                  /* published count; read with ts_unit_array_count */
} TsUnitArray;

typedef struct TsCompUnit TsCompUnit;

/* Compiles a method a running program asks for that is not compiled yet (an archive's
 * methods compile on first call): 0 and the function in *out, 0 and NULL when cls has no
 * such method, or an error. Called with no lock held; it serializes compiles itself. */
typedef int (*TsUnitResolver)(void *ctx, TsCompUnit *u, const TsType *cls, const char *name,
                              TsFunction **out, TsError *err);

struct TsCompUnit {
    TsUnitArray functions;     /* TsFunction *, owned */
    TsUnitArray classes;       /* const TsType *: script classes, named tuples, enums */
    TsUnitResolver resolve;    /* NULL: the unit is complete */
    void *resolve_ctx;
};

TsCompUnit *ts_unit_new(TsError *err);
void ts_unit_free(TsCompUnit *u);
size_t ts_unit_count(const TsCompUnit *u);
TsFunction *ts_unit_function(const TsCompUnit *u, size_t i);
/* Takes ownership of graph and schema; qualname is copied. Duplicate names are an error.
 * One writer at a time (the frontend); readers may run concurrently. */
TsFunction *ts_unit_add_function(TsCompUnit *u, const char *qualname, TsGraph *graph,
                                 TsSchema *schema, const TsType *owner, TsError *err);
TsFunction *ts_unit_find(const TsCompUnit *u, const char *qualname);
/* The function a prim::CallFunction names: qualname as it is, else under "__torch__." (an
 * archive's code may name its functions unqualified); NULL when neither is there. */
TsFunction *ts_unit_find_called(const TsCompUnit *u, const char *name);
/* The method `name` of class cls, or NULL (compiled ones only). */
TsFunction *ts_unit_find_method(const TsCompUnit *u, const TsType *cls, const char *name);
/* The same, compiling it through the unit's resolver when it is not compiled yet: 0 with
 * *out NULL when there is no such method. */
int ts_unit_method(TsCompUnit *u, const TsType *cls, const char *name, TsFunction **out,
                   TsError *err);
int ts_unit_add_class(TsCompUnit *u, const TsType *cls, TsError *err);
size_t ts_unit_class_count(const TsCompUnit *u);
const TsType *ts_unit_class(const TsCompUnit *u, size_t i);

#endif
