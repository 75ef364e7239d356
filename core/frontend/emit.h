/* emit.h — the IR emitter's shared state (internal to the frontend).
 *
 * The emitter turns the Tree of one function (ast.h) into a graph, following the JIT
 * overview's "IR Emitter": expressions resolve to SugaredValues (TsSugared: a plain graph
 * value, or something that only means a value when called or indexed — a module such as
 * `torch`, a builtin function, a method bound to its object, a class), statements emit nodes,
 * and local variables go through an Environment that records each name's type. Variables
 * are read and written with prim::Load / prim::Store nodes, and break/continue/return become
 * prim::BreakStmt / prim::ContinueStmt / prim::ReturnStmt; after a function is emitted, SSA
 * conversion (emit_ssa.c) and the exit transform (exit_transform.c) rewrite those into
 * block inputs and outputs, exactly as the overview describes.
 *
 * Files: compile.c (the file level: which functions and classes exist, compile on demand),
 * emit.c (definitions, statements, control flow), emit_expr.c (expressions and operators),
 * sugared.c (names, attributes and calls: builtins, torch.*, math.*, methods, classes),
 * library.c and inline.c (torch.nn.functional and the other Python-written functions as
 * TorchScript source that plugins ship, compiled on demand and inlined),
 * emit_env.c (the environment), emit_types.c (annotations), emit_ssa.c, exit_transform.c.
 */
#ifndef TSCRIPT_EMIT_H
#define TSCRIPT_EMIT_H

#include <stdbool.h>

#include "frontend/ast.h"
#include "function.h"
#include "ir/ir.h"
#include "ir/match.h"
#include "registry/optable.h"

/* ---- the file level (compile.c) ---------------------------------------------------- */

typedef struct TsClassInfo TsClassInfo;

/* A function or method the file defines: compiled on first use. */
typedef struct TsDefInfo {
    const TsTree *def;         /* the DEF tree */
    char *qualname;            /* "__torch__.f", "__torch__.Cls.m" */
    TsClassInfo *cls;          /* the owning class, or NULL */
    bool is_static;
    bool is_ignored;           /* @torch.jit.ignore: calling it is an error */
    bool is_unused;            /* @torch.jit.unused: compiles to a raise */
    bool is_drop;              /* @torch.jit.ignore(drop=True): a script class drops it too */
    char property;             /* 'g' a class's @property getter, 's' its setter, or 0 */
    /* torch.jit._overload (compile.c): a declaration (body `pass` or `...`) is compiled with
     * its own parameters and return type and the body of the implementation, the next def
     * of the name without the decorator; a call of the implementation picks an overload */
    bool is_overload;          /* a declaration */
    struct TsDefInfo *impl;    /* a declaration's implementation, once known */
    struct TsDefInfo **overloads;  /* an implementation's declarations in order (owned) */
    size_t n_overloads;
    int state;                 /* 0 not compiled, 1 being compiled, 2 done */
    TsFunction *fn;            /* when done */
} TsDefInfo;

typedef enum TsClassKind {
    TS_CLASS_SCRIPT,           /* a script class (or nn.Module) */
    TS_CLASS_NAMEDTUPLE,       /* typing.NamedTuple or collections.namedtuple */
    TS_CLASS_ENUM,
    TS_CLASS_INTERFACE         /* an archive's Interface / ModuleInterface */
} TsClassKind;

struct TsClassInfo {
    char *name;                /* as written in the file */
    char *qualname;            /* an archive's class: its full name ("__torch__.m.Cls"), which
                                * its type takes (mangled if the name is taken); else NULL */
    const TsTree *tree;        /* the CLASS tree, or the call of collections.namedtuple */
    TsClassKind kind;
    bool is_module;
    int state;                 /* 0 not built, 1 building, 2 built */
    const TsType *type;
    TsDefInfo **methods;
    size_t n_methods;
    /* named tuples: default values of trailing fields (constant trees), or NULL */
    const TsTree **field_defaults;
    /* enums: member values */
    TsValue *enum_values;
    size_t n_enum_values;
};

typedef enum TsGlobalKind {
    TS_GLOBAL_DEF,             /* a function defined in the file */
    TS_GLOBAL_CLASS,           /* a class (script class, NamedTuple, Enum) */
    TS_GLOBAL_MODULE,          /* an imported module: str = dotted name ("torch.nn.functional") */
    TS_GLOBAL_SYMBOL,          /* from M import x: str = "M.x" */
    TS_GLOBAL_VALUE            /* a module-level constant (not usable in TorchScript) */
} TsGlobalKind;

typedef struct TsGlobal {
    char *name;
    TsGlobalKind kind;
    char *str;
    TsDefInfo *def;
    TsClassInfo *cls;
    const TsTree *value;       /* TS_GLOBAL_VALUE: the assigned expression */
} TsGlobal;

/* Where an archive's code comes from (import.c): the source of a qualified module name
 * ("__torch__.a.b" is code/__torch__/a/b.py), and the tensors CONSTANTS.cN name. */
typedef struct TsCodeLoader {
    void *ctx;
    /* A new reference, or NULL: with err set when the file exists but cannot be read, with
     * err untouched when the archive has no such file. */
    TsSource *(*load)(void *ctx, const char *qualmodule, TsError *err);
    const TsValue *constants;  /* borrowed */
    size_t n_constants;
} TsCodeLoader;

typedef struct TsCompiler {
    const TsOpTable *ops;
    TsSource *source;
    char modname[128];         /* classes are "__torch__.MODULE.Cls" (the file's stem) */
    TsTree *module;
    TsCompUnit *unit;
    TsGlobal **globals;        /* owned, each allocated alone (stable addresses) */
    size_t n_globals, cap_globals;
    TsDefInfo **defs;          /* every function and method, owned */
    size_t n_defs, cap_defs;
    TsClassInfo **classes;     /* owned */
    size_t n_classes, cap_classes;
    int depth;                 /* nested on-demand compiles, bounded */
    /* archive mode (import.c): every name is qualified, files load on demand */
    bool archive;
    int64_t version;               /* the archive's version (upgraders apply below 10) */
    const TsCodeLoader *loader;    /* NULL when compiling one file */
    TsTree **files;                /* the code files parsed so far, owned */
    size_t n_files, cap_files;
    char **looked_up;              /* qualified module names already asked for */
    size_t n_looked_up, cap_looked_up;
} TsCompiler;


/* A value whose attributes and methods a class defines: a script class or a module. */
static inline bool ts_is_object_type(const TsType *t)
{
    TsTypeKind k = ts_type_kind(t);
    return k == TS_TYPE_CLASS || k == TS_TYPE_MODULE;
}

/* Makes room for one more item in a malloc'd array of n items of size bytes. */
int ts_compiler_grow(void **items, size_t n, size_t *cap, size_t size, TsError *err);
const TsGlobal *ts_compiler_global(const TsCompiler *c, const char *name);
TsGlobal *ts_compiler_add_global(TsCompiler *c, const char *name, TsGlobalKind kind,
                                 const char *str, TsError *err);
TsDefInfo *ts_compiler_add_def(TsCompiler *c, const TsTree *def, TsClassInfo *cls,
                               const char *module, TsError *err);
TsClassInfo *ts_compiler_add_class(TsCompiler *c, const char *name, const char *qualname,
                                   const TsTree *tree, TsClassKind kind, TsError *err);
int ts_compiler_collect_class(TsCompiler *c, const TsTree *t, const char *module,
                              TsError *err);
/* The qualified name a class's type takes (malloc'd; NULL when out of memory): an archive's
 * own name, else "__torch__.MODULE.Cls"; with mangle, made unique among existing types as
 * PyTorch mangles ("__torch__.m.___torch_mangle_1.Cls"). */
char *ts_compiler_qualify(const TsCompiler *c, const TsClassInfo *ci, bool mangle);
/* Compiles a function or method on demand (its TsFunction), or NULL with err
 * ("is called recursively" when it is being compiled). */
TsFunction *ts_compiler_function(TsCompiler *c, TsDefInfo *d, TsSourceRange use, TsError *err);
/* What a call of d chooses among: d's overloads, every one compiled (at the first call, as
 * PyTorch compiles them), else d compiled; up to max into fns. Returns their number, or -1
 * with err. */
int ts_compiler_callees(TsCompiler *c, TsDefInfo *d, TsSourceRange use, TsFunction **fns,
                        size_t max, TsError *err);
/* Builds a class's type (compiling __init__ for a script class) on first use. */
int ts_compiler_class(TsCompiler *c, TsClassInfo *ci, TsSourceRange use, TsError *err);
TsClassInfo *ts_compiler_class_of_type(const TsCompiler *c, const TsType *t);
TsDefInfo *ts_class_method(const TsClassInfo *ci, const char *name);
const char *ts_def_name(const TsDefInfo *d);   /* a method's name: "m", "__p_getter" */
/* Whether an int literal too big for int64 is 2**63, which negated is INT64_MIN
 * (emit_default.c). */
bool ts_literal_is_2_63(const TsTree *t);

/* ---- sugared values (sugared.c) --------------------------------------------------- */

typedef enum TsSugarKind {
    TS_SV_VALUE,               /* a graph value */
    TS_SV_MODULE,              /* torch, math, torch.nn.functional, typing, ...: name */
    TS_SV_BUILTIN,             /* a builtin function: name ("print", "aten::relu", "len") */
    TS_SV_FUNCTION,            /* a function of the file: def */
    TS_SV_METHOD,              /* value.name(...): self = value */
    TS_SV_CLASS,               /* a class of the file: cls (constructor, statics, enum) */
    TS_SV_TYPE,                /* a type used as a value (int, List[int], ...): type */
    TS_SV_CLOSURE,             /* an archive's nested def (what fork runs): tree */
    TS_SV_NONE_TYPE,           /* nothing (the result of a call returning nothing) */
    TS_SV_EXCEPTION            /* an exception class (value NULL) or one made by calling it
                                * (value: its message): name is the class's qualified name
                                * ("builtins.ValueError") */
} TsSugarKind;

typedef struct TsSugared {
    TsSugarKind kind;
    TsIrValue *value;          /* VALUE; METHOD: self */
    const char *name;          /* MODULE, BUILTIN, METHOD: interned (a TsSymbol) */
    TsDefInfo *def;
    TsClassInfo *cls;
    const TsType *type;
    const TsTree *tree;        /* CLOSURE: the DEF */
} TsSugared;

/* ---- refinements and conditions ---------------------------------------------------- */

enum { TS_MAX_REFINE = 16 };

typedef struct TsRefinement {
    const char *name;          /* interned */
    const TsType *type;
} TsRefinement;

typedef struct TsRefineSet {
    TsRefinement items[TS_MAX_REFINE];
    size_t n;
} TsRefineSet;

/* A condition: its bool value, what it proves when true / false, and whether it is known
 * at compile time (static_if 0 or 1, else -1: then only one branch is emitted). */
typedef struct TsCond {
    TsIrValue *value;
    TsRefineSet on_true, on_false;
    int static_if;
} TsCond;

/* ---- the environment (emit_env.c) -------------------------------------------------- */

typedef struct TsVar {
    const char *name;          /* interned */
    const TsType *type;        /* NULL: not defined here (error set) */
    char *error;               /* a deferred error reported at the first use, or NULL */
    const char *store_name;    /* interned name prim::Store/Load carry: name, or a fresh one
                                * for a comprehension's target, which stays local to it */
    struct TsSugared *sugar;   /* `f = len`: a name bound to what is not a value (type NULL);
                                * it stays in its block, as PyTorch's sugared variables do */
} TsVar;

typedef struct TsFrame {
    TsBlock *block;
    bool is_loop;              /* the body of a prim::Loop */
    bool is_comp;              /* a comprehension's scope: its names do not leak out */
    TsVar *vars;
    size_t n_vars, cap_vars;
    struct TsFrame *next;      /* the enclosing frame */
} TsFrame;

/* ---- the emitter ------------------------------------------------------------------ */

typedef struct TsEmitter {
    TsCompiler *c;
    TsDefInfo *d;
    TsGraph *g;
    TsError *err;
    TsFrame *env;
    const TsType *declared_return;   /* NULL when not annotated */
    const TsType *merged_return;     /* the type returns so far agree on */
    TsBlock **exit_blocks;           /* blocks that always return or raise */
    size_t n_exit_blocks, cap_exit_blocks;
    int loop_depth;
    int unrolled_depth;              /* inside a tuple loop, where break is not allowed */
    int depth;                       /* expression recursion */
    int n_comp_vars;                 /* numbers the renamed comprehension targets */
    /* trees standing for values already emitted (the items of a starred call argument,
     * see emit_expr.c): ts_emit_sugared yields the value instead of emitting the tree */
    struct TsBoundTree {
        const TsTree *tree;
        TsIrValue *value;
    } *bound;
    size_t n_bound, cap_bound;
} TsEmitter;

enum { TS_EMIT_MAX_DEPTH = 400 };

/* env */
int ts_env_push(TsEmitter *e, TsBlock *block, bool is_loop);
void ts_env_pop(TsEmitter *e);
void ts_env_free(TsFrame *f);
TsVar *ts_env_find(const TsEmitter *e, const char *name);
TsVar *ts_env_find_here(const TsFrame *f, const char *name);
/* Records the name in the current frame (type NULL with error for a deferred error). */
int ts_env_set(TsEmitter *e, const char *name, const TsType *type, const char *error);
/* Binds name in the current frame to a function, builtin, method, module or class. */
int ts_env_bind_sugar(TsEmitter *e, const char *name, const struct TsSugared *sv);
/* Emits prim::Store of v as name (with the loop retyping check at range). */
int ts_env_store(TsEmitter *e, const char *name, TsIrValue *v, TsSourceRange range);
/* Emits prim::Load of name; NULL with "undefined value" or the deferred error. */
TsIrValue *ts_env_load(TsEmitter *e, const char *name, TsSourceRange range);
bool ts_env_is_exit(const TsEmitter *e, const TsBlock *b);
int ts_env_mark_exit(TsEmitter *e, TsBlock *b);

/* types */
const TsType *ts_emit_type(TsEmitter *e, const TsTree *ann);
/* N for an annotation BroadcastingListN[T] (or Optional of one), else -1. */
long ts_broadcast_size(const TsTree *ann);
/* PyTorch's error for a dict of keys of type key (in buf), or NULL when it may be one. */
const char *ts_dict_key_error(const TsType *key, char *buf, size_t size);
const TsType *ts_compiler_type(TsCompiler *c, const TsTree *ann, TsError *err);
/* An annotation written as text ("Dict[str, List[int]]", "__torch__.m.Cls"). */
const TsType *ts_compiler_type_string(TsCompiler *c, const char *text, TsError *err);
/* The annotation spelling of t for messages ("int", "List[int]"), in buf. */
const char *ts_type_text(const TsType *t, char *buf, size_t size);

/* A parameter's default (the tree after '='), evaluated and converted to the parameter's
 * type; inferred: the type is the unannotated parameter's Tensor (emit_default.c). */
int ts_emit_default(TsEmitter *e, const TsTree *t, const char *param, const TsType *type,
                    bool inferred, TsValue *out);

/* statements (emit.c) */
int ts_emit_block(TsEmitter *e, const TsTree *block);
/* The graph of closure def (no parameters) in e's scope: the outer values it reads are
 * its inputs, their values in e's graph set in captured[0, *n) (at most max). */
TsGraph *ts_emit_closure(TsEmitter *e, const TsTree *def, TsIrValue **captured, size_t max,
                         size_t *n, const TsType **ret);
TsGraph *ts_emit_function(TsCompiler *c, TsDefInfo *d, TsSchema **schema, TsError *err);

/* expressions (emit_expr.c) */
int ts_emit_sugared(TsEmitter *e, const TsTree *t, const TsType *expected, TsSugared *out);
TsIrValue *ts_emit_expr(TsEmitter *e, const TsTree *t, const TsType *expected);
int ts_emit_cond(TsEmitter *e, const TsTree *t, TsCond *out);
TsIrValue *ts_emit_to_bool(TsEmitter *e, TsIrValue *v, TsSourceRange range);
TsIrValue *ts_emit_const(TsEmitter *e, TsValue v, TsSourceRange range);   /* takes v */
TsIrValue *ts_emit_str_const(TsEmitter *e, const char *s, TsSourceRange range);
TsIrValue *ts_emit_op(TsEmitter *e, const char *op, size_t n, const TsNamedValue *args,
                      TsSourceRange range);
TsIrValue *ts_emit_op2(TsEmitter *e, const char *op, TsIrValue *a, TsIrValue *b,
                       TsSourceRange range);
TsNode *ts_emit_node(TsEmitter *e, const char *kind, size_t n_in, TsIrValue *const *in,
                     size_t n_out, TsSourceRange range);
TsIrValue *ts_emit_tuple(TsEmitter *e, size_t n, TsIrValue *const *items, TsSourceRange r);
TsIrValue *ts_emit_list(TsEmitter *e, const TsType *elem, size_t n, TsIrValue *const *items,
                        TsSourceRange r);
TsIrValue *ts_emit_subscript_value(TsEmitter *e, TsIrValue *v, TsIrValue *idx,
                                   TsSourceRange r);
/* v indexed by the indices of the SUBSCRIPT tree t (its base already emitted as v). */
TsIrValue *ts_emit_index_of(TsEmitter *e, TsIrValue *v, const TsTree *t);
/* An index value as a tensor index: a tensor as is, an int list as a long tensor. */
TsIrValue *ts_emit_index_tensor(TsEmitter *e, TsIrValue *iv, TsSourceRange r);
/* The `Tensor?[]` of n tensor indices, None where at[k] is NULL. */
TsIrValue *ts_emit_tensor_indices_list(TsEmitter *e, TsIrValue *const *at, size_t n,
                                       TsSourceRange r);
/* For `v[...] = x`, v a tensor and t the SUBSCRIPT target: the view the int/slice/None
 * indices pick, with the tensor indices as a `Tensor?[]` in *list (NULL if none). */
TsIrValue *ts_emit_tensor_index_target(TsEmitter *e, TsIrValue *v, const TsTree *t,
                                       TsIrValue **list);
/* *x in a display or a call: the items of the tuple x (prim::TupleUnpack), malloc'd, *n of
 * them; NULL with the error (a list's length is not known at compile time). */
TsIrValue **ts_emit_starred(TsEmitter *e, const TsTree *starred, size_t *n);
TsIrValue *ts_emit_unchecked_cast(TsEmitter *e, TsIrValue *v, const TsType *t);
TsIrValue *ts_emit_convert(TsEmitter *e, TsIrValue *v, const TsType *to, TsSourceRange r);
int ts_emit_insert_refinements(TsEmitter *e, const TsRefineSet *rs, TsSourceRange r);
TsIrValue *ts_emit_binop(TsEmitter *e, int op, TsIrValue *a, TsIrValue *b, TsSourceRange r,
                         bool inplace);

/* sugared values (sugared.c) */
/* math.pi, torch.float32, ...: a module attribute that is a constant, as a value. */
bool ts_module_constant(const char *mod, const char *attr, TsValue *out);
int ts_sugar_name(TsEmitter *e, const TsTree *name, TsSugared *out);
/* -1 with PyTorch's error when x is a call of range(), zip() or enumerate(): iterables,
 * which a for loop, list() or a name take, but not an operator or a call. */
int ts_sugar_reject_iterable(TsEmitter *e, const TsTree *x);
int ts_sugar_attr(TsEmitter *e, const TsSugared *base, const char *attr, TsSourceRange r,
                  TsSugared *out);
int ts_sugar_call(TsEmitter *e, const TsSugared *fn, const TsTree *call, const TsType *expected,
                  TsSugared *out);
TsIrValue *ts_sugar_as_value(TsEmitter *e, const TsSugared *sv, TsSourceRange r);
int ts_sugar_call_method(TsEmitter *e, TsIrValue *self, const char *name, size_t n,
                         const TsNamedValue *args, TsSourceRange r, TsSugared *out);
int ts_sugar_set_attr(TsEmitter *e, TsIrValue *obj, const char *attr, TsIrValue *v,
                      TsSourceRange r);
/* Iteration protocol for `for`: fills the trip count and a getter. */
typedef struct TsIterable {
    int kind;                  /* see sugared.c */
    TsIrValue *seq[8];         /* the sequences zipped (one unless zip/enumerate) */
    size_t n_seq;
    TsIrValue *start, *step;   /* range; enumerate's start */
    bool enumerate;
    const TsTree *tuple_items; /* unrolled tuple literal */
    TsIrValue *tuple;          /* unrolled tuple value */
    TsClassInfo *enum_cls;
} TsIterable;
int ts_sugar_iter(TsEmitter *e, const TsTree *iter, TsIterable *it);
TsIrValue *ts_iter_len(TsEmitter *e, TsIterable *it, TsSourceRange r);
TsIrValue *ts_iter_get(TsEmitter *e, TsIterable *it, TsIrValue *i, TsSourceRange r);
/* Compile-time length of an unrolled iterable, else -1. */
long ts_iter_unrolled_len(TsEmitter *e, const TsIterable *it);
TsIrValue *ts_iter_unrolled_get(TsEmitter *e, TsIterable *it, long i, TsSourceRange r);

/* PyTorch's boolean dispatch: a constant bool argument, by keyword or at index (default
 * dflt), picks the function if_true or if_false of the same module. The strings are the
 * library's (they live as long as the runtime). */
typedef struct TsLibraryDispatch {
    const char *arg;
    size_t index;
    bool dflt;
    const char *if_true, *if_false;
} TsLibraryDispatch;

/* The TorchScript library plugins ship (library.c): whether one of its files defines
 * qualname ("torch.nn.functional.relu"): 1 a function, 2 a boolean dispatch (into
 * *dispatch unless NULL), 0 no, -1 with err when the file fails to load. */
int ts_library_defines(const TsOpTable *ops, const char *qualname, TsLibraryDispatch *dispatch,
                       TsError *err);
/* The function, compiled on first use, and in *unit the unit its callees are in; NULL with
 * err. */
TsFunction *ts_library_function(const TsOpTable *ops, const char *qualname, TsSourceRange use,
                                const TsCompUnit **unit, TsError *err);
/* The functions a call of qualname chooses among (its overloads, or the function alone; see
 * ts_compiler_callees), up to max into fns, and in *unit their unit: their number, or -1
 * with err. */
int ts_library_functions(const TsOpTable *ops, const char *qualname, TsSourceRange use,
                         const TsCompUnit **unit, TsFunction **fns, size_t max, TsError *err);
/* fn's graph inlined at g's insert point with its inputs bound to args (one per schema
 * argument), calls to lib's functions inlined too, branches the arguments' constants decide
 * left out (inline.c): the output, or NULL with err. */
TsIrValue *ts_inline_function(TsGraph *g, const TsCompUnit *lib, const TsFunction *fn,
                              TsIrValue *const *args, TsError *err);
/* Sets up c for src (parsed, its names collected, an empty unit) as ts_compile_source
 * does before compiling: 0, or -1 with err (c then needs no freeing). */
int ts_compiler_open(TsCompiler *c, const TsOpTable *ops, TsSource *src, TsError *err);

/* passes */
int ts_convert_to_ssa(TsGraph *g, TsError *err);
int ts_transform_exits(TsGraph *g, TsError *err);
int ts_emit_cleanup(TsGraph *g, TsError *err);

/* error helper: ts_error_at with TS_ERR_RUNTIME */
int ts_emit_error(TsEmitter *e, TsSourceRange r, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- archive mode (import.c) ------------------------------------------------------ */

int ts_import_init(TsCompiler *c, const TsOpTable *ops, const TsCodeLoader *loader,
                   TsError *err);
void ts_compiler_free(TsCompiler *c);
/* What `prefix.attr` names, prefix a qualified namespace ("__torch__.m"): a class, a
 * function, or a deeper namespace (TS_SV_MODULE). */
int ts_import_attr(TsEmitter *e, const char *prefix, const char *attr, TsSourceRange r,
                   TsSugared *out);
/* The class of qualified name q (its type built), or NULL: with err set on a failure to
 * load or build it, untouched when the archive defines no such class. */
TsClassInfo *ts_import_class(TsCompiler *c, const char *q, TsSourceRange r, TsError *err);
TsDefInfo *ts_import_function(TsCompiler *c, const char *q, TsError *err);
/* Builds a class of an archive from its declarations (import.c). */
int ts_import_build_class(TsCompiler *c, TsClassInfo *ci, TsError *err);
/* Whether torch.op, in the def being compiled, means an older operator in this archive (its
 * version predates a change of meaning; never inside the upgraders themselves), and the
 * function giving variant ("div_Tensor", "full", ...) its old meaning. */
bool ts_import_upgraded(const TsCompiler *c, const TsDefInfo *in, const char *op);
TsDefInfo *ts_import_upgrader(TsCompiler *c, const char *variant, TsError *err);
/* A Final class constant `name : Final[T] = value` of an archive class: its value tree. */
const TsTree *ts_class_constant(const TsClassInfo *ci, const char *name);

#endif
