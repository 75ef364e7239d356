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
extern const TsPrimTable ts_prim_list_order_table; /* list_order.c: sort, search, reduce */
extern const TsPrimTable ts_prim_dict_table;    /* dicts.c: Dict[k, v] */
extern const TsPrimTable ts_prim_math_table;    /* math.c: the math module, divmod, round */
extern const TsPrimTable ts_prim_complex_table; /* complex.c: the complex scalar, cmath */
extern const TsPrimTable ts_prim_str_table;     /* str.c: str operators and methods */
extern const TsPrimTable ts_prim_iter_table;    /* iter.c: range loops, enum comparison */
extern const TsPrimTable ts_prim_hash_table;    /* hash.c: hash() */
extern const TsPrimTable ts_prim_env_table;     /* env.c: grad mode, autocast, device type */
extern const TsPrimTable ts_prim_module_table;  /* modules.c: module containers' items */
/* env.c: aten::warn, whose kernel keeps a flag per node (a factory). */
int ts_prim_env_register_factories(TsRegistry *r, TsError *err);
/* str.c: str.format and %-formatting, whose kernels bind their input count (factories). */
int ts_prim_str_register_factories(TsRegistry *r, TsError *err);

/* complex.c: an int, bool, float or complex value as a C complex (false for others). */
bool ts_prim_to_complex(TsValue v, double _Complex *out);
/* complex.c: pushes a new complex value. */
int ts_prim_push_complex(TsCall *c, double _Complex z);
/* complex.c: a op b ("add", "eq", "lt", ...) where either is complex, for the Scalar
 * overloads' kernels; takes both references. Orders are Python's TypeError. */
int ts_prim_complex_binop(TsCall *c, const char *op, TsValue a, TsValue b);

/* ---- argument helpers (args.c) ---------------------------------------------- */

/* What ts_prim_pop_args accepts for an argument besides an exact tag. */
#define TS_PRIM_ANY ((uint32_t)TS_TAG__COUNT)             /* any value */
#define TS_PRIM_NUMBER ((uint32_t)TS_TAG__COUNT + 1)      /* int, float or bool */
#define TS_PRIM_OPT_INT ((uint32_t)TS_TAG__COUNT + 2)     /* int or None */

/* Pops the top n values into argv (argv[0] the deepest, the schema's first argument) and
 * checks each against want[i]. On a mismatch releases them all and sets a TypeError naming
 * op (ts_prim_bad_args, args.c).
 *
 * Inline: the compiler bound the call to a schema the arguments match, so the check passes
 * and is a compare per argument; a call through args.c cost more than most kernels' work.
 * The check stays (a kernel called by hand with the wrong values gets a TypeError, not a
 * wild read). */
/* argv NULL: fewer than n values on the stack; else argv holds the n popped values, one of
 * which want rejects (all are released). */
int ts_prim_bad_args(TsCall *c, const char *op, size_t n, const uint32_t *want, TsValue *argv);

static inline bool ts_prim_accepts(uint32_t want, TsValue v)
{
    if (want < (uint32_t)TS_TAG__COUNT)
        return v.tag == want;
    switch (want) {
    case TS_PRIM_ANY:
        return true;
    case TS_PRIM_NUMBER:
        return v.tag == TS_TAG_INT || v.tag == TS_TAG_DOUBLE || v.tag == TS_TAG_BOOL;
    case TS_PRIM_OPT_INT:
        return v.tag == TS_TAG_INT || v.tag == TS_TAG_NONE;
    default:
        return false;
    }
}

static inline int ts_prim_pop_args(TsCall *c, const char *op, size_t n, const uint32_t *want,
                                   TsValue *argv)
{
    TsStack *s = c->stack;
    if (s->len < n)
        return ts_prim_bad_args(c, op, n, want, NULL);
    s->len -= n;
    bool good = true;
    for (size_t i = 0; i < n; i++) {
        argv[i] = s->data[s->len + i];
        good &= ts_prim_accepts(want[i], argv[i]);
    }
    return good ? 0 : ts_prim_bad_args(c, op, n, want, argv);
}

static inline void ts_prim_release_args(TsValue *argv, size_t n)
{
    for (size_t i = 0; i < n; i++)
        ts_value_release(argv[i]);
}

#endif
