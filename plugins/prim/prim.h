/* prim.h — what the prim plugin's files share: the shape of their registration tables.
 *
 * Each op family file (arith.c, lists.c, ...) exports one table. A row names an operator and
 * the overloads one kernel serves: the kernels look at the tags of the values they pop, so
 * aten::add's int, float, int_float and float_int overloads are all served by one function.
 * prim.c walks the tables in init; growing the plugin is adding rows and schemas.
 */
#ifndef TS_PRIM_H
#define TS_PRIM_H

#include <stddef.h>

#include "tscript/plugin.h"

#define TS_PRIM_MAX_OVERLOADS 8

typedef struct TsPrimOp {
    const char *qualname;                               /* "aten::add" */
    TsKernelFn fn;
    const char *overloads[TS_PRIM_MAX_OVERLOADS + 1];   /* NULL-terminated; "" is the default */
} TsPrimOp;

typedef struct TsPrimTable {
    const TsPrimOp *ops;
    size_t n;
} TsPrimTable;

extern const TsPrimTable ts_prim_arith_table;   /* arith.c: int, float and bool scalars */
extern const TsPrimTable ts_prim_list_table;    /* lists.c: List[t] basics */

#endif
