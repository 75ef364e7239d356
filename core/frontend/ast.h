/* ast.h — the Tree: what the parser builds and the emitter reads.
 *
 * One node type for every construct, as in PyTorch's Trees: a kind, a source range, an
 * optional string (a name or a decoded string literal), numbers for literals, an operator
 * token for operator nodes, and an ordered array of children. Optional children are NULL.
 * The layout of each kind's children is listed below; the S-expression printer
 * (ts_tree_dump) shows the same layout and is what the parser tests compare against.
 *
 * The tree is Python's syntax, not yet TorchScript's: constructs that TorchScript rejects
 * (try, lambda, global, ...) have kinds too, so a file with plain Python at module level
 * (say in an `if __name__ == "__main__":` block) still parses. ts_parse_check_def() in
 * parser.h reports what PyTorch's frontend refuses inside a function that gets compiled.
 *
 * A tree owns its children and holds a reference on its source.
 */
#ifndef TSCRIPT_AST_H
#define TSCRIPT_AST_H

#include <stdint.h>

#include "frontend/source.h"

/* X(kind, printed name): children in brackets; "op" is a token kind from lexer.h. */
#define TS_TREE_KINDS(X) \
    /* ---- expressions ---- */ \
    X(NAME, "name")             /* str = identifier */ \
    X(INT, "int")               /* ival; str = the literal's text; flag 1: too big for int64 */ \
    X(FLOAT, "float")           /* fval; str = text */ \
    X(IMAG, "imag")             /* fval = imaginary part; str = text */ \
    X(STRING, "str")            /* str, len = decoded bytes (adjacent literals joined) */ \
    X(BYTES, "bytes")           /* str, len = decoded bytes */ \
    X(TRUE, "True") \
    X(FALSE, "False") \
    X(NONE, "None") \
    X(ELLIPSIS, "...") \
    X(UNARY, "unary")           /* op: TS_TK_NEG, TS_TK_POS, '~', TS_TK_NOT; [operand] */ \
    X(BINARY, "binary")         /* op: arithmetic, bitwise, comparison, TS_TK_AND, TS_TK_OR;  \
                                   [lhs, rhs]; a < b < c is (a < b) and (b < c) */ \
    X(IF_EXPR, "ifexp")         /* [cond, then, else] */ \
    X(CALL, "call")             /* [func, args...]; args are exprs, STARRED or KWARG */ \
    X(KWARG, "kwarg")           /* str = keyword (NULL for **x); [value] */ \
    X(ATTR, "attr")             /* [value, NAME attribute] */ \
    X(SUBSCRIPT, "subscript")   /* [value, index...]; x[a, b] has two indices */ \
    X(SLICE, "slice")           /* [start?, stop?, step?] */ \
    X(STARRED, "starred")       /* [value] */ \
    X(LIST, "list")             /* [elts...] */ \
    X(TUPLE, "tuple")           /* [elts...] */ \
    X(DICT, "dict")             /* [k0, v0, k1, v1, ...]; a NULL key is **value */ \
    X(SET, "set")               /* [elts...] */ \
    X(LIST_COMP, "listcomp")    /* [elt, COMP_FOR...] */ \
    X(DICT_COMP, "dictcomp")    /* [key, value, COMP_FOR...] */ \
    X(SET_COMP, "setcomp")      /* [elt, COMP_FOR...] */ \
    X(GENERATOR, "genexp")      /* [elt, COMP_FOR...] */ \
    X(COMP_FOR, "compfor")      /* [target, iter, if-conditions...] */ \
    X(LAMBDA, "lambda")         /* [PARAMS, body] */ \
    X(YIELD, "yield")           /* [value?]; flag 1: yield from */ \
    X(AWAIT, "await")           /* [value] */ \
    X(NAMED_EXPR, "walrus")     /* [NAME, value] */ \
    X(FSTRING, "fstring")       /* [parts...]: STRING pieces and FORMATTED values. Only for \
                                   f-strings TorchScript rejects (a conversion or format spec); \
                                   the others become "a{}b".format(x) calls, as in PyTorch */ \
    X(FORMATTED, "formatted")   /* [value, spec STRING?]; ival = conversion char or 0 */ \
    /* ---- statements ---- */ \
    X(EXPR_STMT, "expr")        /* [value] */ \
    X(ASSIGN, "assign")         /* [targets..., value]: a = b = 1 has two targets */ \
    X(ANN_ASSIGN, "annassign")  /* [target, annotation, value?] */ \
    X(AUG_ASSIGN, "augassign")  /* op: the binary operator; [target, value] */ \
    X(RETURN, "return")         /* [value?] */ \
    X(RAISE, "raise")           /* [exception?, cause?] */ \
    X(ASSERT, "assert")         /* [test, message?] */ \
    X(DELETE, "del")            /* [targets...] */ \
    X(PASS, "pass") \
    X(BREAK, "break") \
    X(CONTINUE, "continue") \
    X(GLOBAL, "global")         /* [NAME...] */ \
    X(NONLOCAL, "nonlocal")     /* [NAME...] */ \
    X(IF, "if")                 /* [cond, BLOCK, else BLOCK?]; elif: an else BLOCK holding an IF */ \
    X(WHILE, "while")           /* [cond, BLOCK, else BLOCK?] */ \
    X(FOR, "for")               /* [target, iter, BLOCK, else BLOCK?]; flag 1: async */ \
    X(WITH, "with")             /* [WITH_ITEM..., BLOCK]; flag 1: async */ \
    X(WITH_ITEM, "item")        /* [context, target?] */ \
    X(TRY, "try")               /* [BLOCK, EXCEPT..., else BLOCK?, finally BLOCK?]; \
                                   ival = the number of EXCEPT children */ \
    X(EXCEPT, "except")         /* [type?, NAME?, BLOCK]; flag 1: except* */ \
    X(MATCH, "match")           /* [subject, case BLOCK...]: the patterns are skipped, as \
                                   TorchScript refuses the statement */ \
    X(DEF, "def")               /* [NAME, DECORATORS, PARAMS, returns?, BLOCK, TYPE_COMMENT?]; \
                                   flag 1: async */ \
    X(PARAMS, "params")         /* [PARAM...] */ \
    X(PARAM, "param")           /* [NAME, annotation?, default?]; ival: TS_PARAM_*; a bare '*' \
                                   is a VARARGS PARAM without a NAME */ \
    X(TYPE_COMMENT, "typecomment") /* str = the text after "# type:" */ \
    X(CLASS, "class")           /* [NAME, DECORATORS, BASES, BLOCK] */ \
    X(BASES, "bases")           /* [expr or KWARG...] */ \
    X(DECORATORS, "decorators") /* [expr...] */ \
    X(IMPORT, "import")         /* [ALIAS...] */ \
    X(IMPORT_FROM, "from")      /* str = module ("" for "from . import x"); ival = leading dots; \
                                   [ALIAS...]; "*" is an ALIAS named "*" */ \
    X(ALIAS, "alias")           /* str = dotted name; [NAME as?] */ \
    X(BLOCK, "block")           /* [statements...] */ \
    X(MODULE, "module")         /* [statements...] */

typedef enum TsTreeKind {
#define TS_TREE_ENUM(k, name) TS_TREE_##k,
    TS_TREE_KINDS(TS_TREE_ENUM)
#undef TS_TREE_ENUM
    TS_TREE__COUNT
} TsTreeKind;

/* PARAM kinds (the ival of a PARAM node). */
enum {
    TS_PARAM_NORMAL = 0,
    TS_PARAM_POSONLY,          /* before a "/" */
    TS_PARAM_VARARGS,          /* *args */
    TS_PARAM_KWONLY,           /* after "*" or *args */
    TS_PARAM_KWARGS            /* **kwargs */
};

typedef struct TsTree TsTree;
struct TsTree {
    TsTreeKind kind;
    TsSourceRange range;       /* holds a reference on range.source */
    int op;                    /* operator token kind, for UNARY/BINARY/AUG_ASSIGN */
    int flag;                  /* per kind, see above */
    int depth;                 /* 1 + the deepest child's depth: bounds recursion over trees */
    char *str;                 /* NUL-terminated; may hold NULs for STRING/BYTES (see len) */
    size_t len;
    int64_t ival;
    double fval;
    TsTree **kids;
    size_t n_kids;
};

/* A new node without children; takes a reference on range.source. NULL when out of memory. */
TsTree *ts_tree_new(TsTreeKind kind, TsSourceRange range);
/* Copies s[0, len) into the node's str. Returns 0, or -1 when out of memory. */
int ts_tree_set_str(TsTree *t, const char *s, size_t len);
/* Appends a child (NULL allowed for an absent optional part) and updates depth.
 * Returns 0, or -1 when out of memory (the child is not adopted then). */
int ts_tree_add(TsTree *t, TsTree *kid);
/* Frees the tree and everything under it. NULL is fine. */
void ts_tree_free(TsTree *t);

const char *ts_tree_kind_name(TsTreeKind kind);

/* Dump flags. */
enum {
    TS_DUMP_RANGES = 1         /* append "@line:col-line:col" to every node */
};
/* The tree as an S-expression on one line, e.g. (binary + (name x) (int 1)); malloc'd,
 * NULL when out of memory. Absent children print as "_". */
char *ts_tree_dump(const TsTree *t, int flags);

#endif
