/* schema.h — FunctionSchema: the parsed declaration of an operator (internal to the core).
 *
 * "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor": a qualified
 * name, an overload name, typed arguments with defaults, kwarg-only markers and alias
 * annotations, and returns. The YAML loader (yaml_schemas.c) feeds strings in; the operator
 * table (optable.c) keys operators by name and overload; the emitter matches call sites.
 */
#ifndef TSCRIPT_SCHEMA_H
#define TSCRIPT_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "registry/arena.h"
#include "tscript/error.h"
#include "tscript/types.h"
#include "tscript/value.h"

/* An alias annotation: "(a)", "(a!)", "(a -> *)", "(a|b)", "(*)". Sets are interned names
 * ("a", "*"); contained is the annotation of a list's element ("Tensor(a)[]"). */
typedef struct TsAlias {
    size_t n_before, n_after;
    const char **before;       /* owned strings */
    const char **after;        /* same as before when there is no "->" */
    bool is_write;
    struct TsAlias *contained;
} TsAlias;

typedef struct TsArg {
    char *name;                /* NULL for an unnamed return */
    const TsType *type;
    TsValue default_value;     /* owned; meaningful when has_default */
    TsAlias *alias;            /* NULL: no annotation */
    int32_t fixed_size;        /* N of "int[N]" (at most 1024), else -1 */
    bool has_default;
    bool kwarg_only;
    bool symint;               /* the type's ints were spelled "SymInt" (an int at run
                                  time; kept so the schema prints back as written) */
    bool inferred;             /* a compiled function's parameter without an annotation:
                                  a Tensor by default ("Tensor (inferred)" in errors) */
} TsArg;                       /* 48 bytes: a set holds thousands */

typedef struct TsSchema {
    char *name;                /* "aten::add" */
    char *overload;            /* "Tensor", or "" */
    size_t n_args, n_returns;
    TsArg *args;
    TsArg *returns;
    bool is_vararg;            /* "..." after the arguments */
    bool is_varret;            /* "-> ..." */
    TsArena *arena;            /* a parsed schema: holds everything above but default values
                                  (the schema holds a reference); NULL: each piece is
                                  malloc'd, as for a schema built by hand */
} TsSchema;

/* Parses one schema. A name without "ns::" gets default_ns (NULL: an error). On a syntax
 * error returns NULL, sets err ("expected ')' but found 'int'") and *err_offset to the byte
 * offset in text where it was found (for file:line:col). Hostile input is bounded: more than
 * 64 KiB of text, types nested more than 32 deep, or "T[N]" with N > 1024 fail with
 * TS_ERR_LIMIT. Enum-named defaults ("ScalarType dtype=long", "Layout l=strided") become
 * ints and print as numbers, as torch prints them ("dtype=4"). */
TsSchema *ts_schema_parse(const char *text, const char *default_ns, size_t *err_offset,
                          TsError *err);

/* What the schemas of one set share while they are parsed: the arena they live in, the
 * list and optional types made so far (interning one in types.c takes a lock and a hash; a
 * set asks for Tensor[], int[] and Tensor? hundreds of times), and the memo of arguments
 * parsed so far, by their text (see schema.c). */
typedef struct TsSchemaCtx {
    TsArena *arena;
    struct {
        const TsType *elem, *type;
        int kind;
    } made[64];                /* direct-mapped by elem and kind; elem NULL = empty */
    /* The memos (schema.c): a direct-mapped index of 16-bit slots (0: empty, else an
     * entry's number + 1) over entries kept end to end, so a set touches memory in
     * proportion to what it memoizes, not to the index's reach. */
    uint16_t memo_slot[1024];  /* arguments parsed before, by their text */
    struct TsArgMemo *memo;
    size_t memo_len, memo_cap;
    uint16_t list_slot[1024];  /* whole argument and return lists, which schemas with
                                  the same text share */
    struct TsListMemo *lists;
    size_t lists_len, lists_cap;
    char *keys;                /* the memoized texts, end to end */
    size_t keys_len, keys_cap;
} TsSchemaCtx;

/* Sets up ctx for schemas in arena (which ctx does not own); ts_schema_ctx_free frees
 * what ctx allocated (not the arena). */
void ts_schema_ctx_init(TsSchemaCtx *ctx, TsArena *arena);
void ts_schema_ctx_free(TsSchemaCtx *ctx);
/* ts_schema_parse into ctx's arena (which the schema then references), as a schema set
 * parses all its schemas into one. A schema that fails leaves its pieces in the arena
 * until the arena goes. */
TsSchema *ts_schema_parse_in(TsSchemaCtx *ctx, const char *text, const char *default_ns,
                             size_t *err_offset, TsError *err);
void ts_schema_free(TsSchema *s);

/* The canonical string, as PyTorch prints it (str(schema)); malloc'd. */
char *ts_schema_to_string(const TsSchema *s);
/* "aten::add.Tensor" (or "aten::add" for the default overload); malloc'd. */
char *ts_schema_full_name(const TsSchema *s);

/* True if the schema writes to any argument (an alias annotation with '!'). */
bool ts_schema_is_mutable(const TsSchema *s);

#endif
