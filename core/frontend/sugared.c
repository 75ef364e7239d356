/* sugared.c — the resolver: names, attributes and calls as SugaredValues.
 *
 * A name is a local variable, then something the file defines (a function, a class, an
 * import), then a Python builtin. Attributes of modules resolve by name into the operator
 * table: `torch.X`, `F.X` and `math.X` are "aten::X", `torch.ops.NS.X` is "NS::X", so an
 * operator a plugin adds is callable with no change here. A method call `v.m(args)` on a
 * builtin type is the operator "aten::m" with v first; on a script class it is
 * prim::CallMethod. Builtins with their own rules (print, len, min/max, range, enumerate,
 * zip, isinstance, torch.jit.annotate, fork/wait, ...) are handled case by case below;
 * some are desugared into Trees the emitter already knows (range/zip/enumerate outside a
 * for header become the list comprehension [$x for $x in CALL], dict(a=1) a dict literal),
 * and Tensor methods that are not operators are lowered as PyTorch lowers them (t.float()
 * is aten::to(t, 6); t.tolist() is prim::tolist typed by the expected type).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/emit.h"
#include "frontend/lexer.h"

enum { MAX_ARGS = 64, MAX_OVERLOADS = 16 };

/* Iterable kinds (TsIterable.kind). */
enum { IT_RANGE, IT_SEQ, IT_ZIP, IT_TUPLE, IT_ENUM };

static int value_of(TsSugared *out, TsIrValue *v)
{
    memset(out, 0, sizeof *out);
    out->kind = TS_SV_VALUE;
    out->value = v;
    return v ? 0 : -1;
}

static const char *describe(const TsType *t, char *buf, size_t size)
{
    if (ts_type_name(t))
        snprintf(buf, size, "%s", ts_type_name(t));
    else
        ts_type_repr(t, buf, size);
    return buf;
}

/* The ScalarType number of a Tensor conversion method (t.float() is dtype 6), or -1.
 * TorchScript 1.13 has no t.bool() or t.bfloat16() (they are Python-only): .to() it is. */
static int cast_dtype(const char *method)
{
    static const struct { const char *name; int dtype; } casts[] = {
        {"byte", 0}, {"char", 1}, {"short", 2}, {"int", 3}, {"long", 4}, {"half", 5},
        {"float", 6}, {"double", 7},
    };
    for (size_t i = 0; i < sizeof casts / sizeof casts[0]; i++)
        if (strcmp(method, casts[i].name) == 0)
            return casts[i].dtype;
    return -1;
}

/* ---- names ----------------------------------------------------------------------------- */

static const char *const builtins[] = {
    "print", "len", "range", "int", "float", "bool", "str", "min", "max", "abs", "isinstance",
    "enumerate", "zip", "hash", "ord", "chr", "round", "divmod", "sum", "any", "all",
    "sorted", "list", "dict", "getattr", "hasattr", "pow", "hex", "oct", "bin", "complex",
    "super", "tuple", NULL
};

/* The exception classes of Python's builtins module: the class a name is (an alias names
 * the class it stands for), or NULL. */
static const char *builtin_exception(const char *name)
{
    static const char *const names[] = {
        "BaseException", "Exception", "ArithmeticError", "AssertionError", "AttributeError",
        "BufferError", "EOFError", "FloatingPointError", "GeneratorExit", "ImportError",
        "ModuleNotFoundError", "IndexError", "KeyError", "KeyboardInterrupt", "LookupError",
        "MemoryError", "NameError", "NotImplementedError", "OSError", "OverflowError",
        "RecursionError", "ReferenceError", "RuntimeError", "StopIteration",
        "StopAsyncIteration", "SyntaxError", "IndentationError", "TabError", "SystemError",
        "SystemExit", "TypeError", "UnboundLocalError", "UnicodeError", "UnicodeEncodeError",
        "UnicodeDecodeError", "UnicodeTranslateError", "ValueError", "ZeroDivisionError",
        "BlockingIOError", "ChildProcessError", "ConnectionError", "BrokenPipeError",
        "ConnectionAbortedError", "ConnectionRefusedError", "ConnectionResetError",
        "FileExistsError", "FileNotFoundError", "InterruptedError", "IsADirectoryError",
        "NotADirectoryError", "PermissionError", "ProcessLookupError", "TimeoutError",
        "Warning", "UserWarning", "DeprecationWarning", "PendingDeprecationWarning",
        "SyntaxWarning", "RuntimeWarning", "FutureWarning", "ImportWarning", "UnicodeWarning",
        "BytesWarning", "ResourceWarning", NULL
    };
    if (strcmp(name, "EnvironmentError") == 0 || strcmp(name, "IOError") == 0)
        return "OSError";
    for (size_t i = 0; names[i]; i++)
        if (strcmp(names[i], name) == 0)
            return names[i];
    return NULL;
}

/* Functions of Python's builtins module that TorchScript has no meaning for (those it has
 * are in builtins[]): PyTorch names them as it finds them. */
static bool python_builtin_function(const char *name)
{
    static const char *const names[] = {
        "ascii", "breakpoint", "callable", "compile", "delattr", "dir", "eval", "exec",
        "format", "globals", "id", "input", "issubclass", "iter", "aiter", "anext", "locals",
        "next", "open", "repr", "setattr", "vars", "__import__", "__build_class__", NULL
    };
    for (size_t i = 0; names[i]; i++)
        if (strcmp(names[i], name) == 0)
            return true;
    return false;
}

/* Classes of Python's builtins module TorchScript does not know: PyTorch calls them as
 * Python, typing each argument as a Tensor (ts_sugar_call's python_class_call). */
static bool python_builtin_class(const char *name)
{
    static const char *const names[] = {
        "set", "frozenset", "reversed", "filter", "map", "type", "bytes", "bytearray",
        "memoryview", "object", "property", "staticmethod", "classmethod", NULL
    };
    for (size_t i = 0; names[i]; i++)
        if (strcmp(names[i], name) == 0)
            return true;
    return false;
}

/* PyTorch's error for a Python value of the file (a global's or a class attribute's value
 * v) used in TorchScript: it names the value's Python type. */
static int python_type_error(TsEmitter *e, const char *ty, TsSourceRange r)
{
    return ts_emit_error(e, r, "python value of type '%s' cannot be used as a value. Perhaps "
                         "it is a closed over global variable? If so, please consider passing "
                         "it in as an argument or use a local varible instead.", ty);
}

/* The Python type of a global's value as Python would make it, for the message: literals,
 * arithmetic of numbers, torch.device(...) and dtypes, math's functions and constants, a
 * torch.nn class's instance (its name), other torch.* calls (tensors); else "object". */
static const char *python_type_of(const TsTree *v, int depth)
{
    switch (v->kind) {
    case TS_TREE_INT: return "int";
    case TS_TREE_FLOAT: return "float";
    case TS_TREE_STRING: return "str";
    case TS_TREE_LIST: case TS_TREE_LIST_COMP: return "list";
    case TS_TREE_DICT: case TS_TREE_DICT_COMP: return "dict";
    case TS_TREE_TUPLE: return "tuple";
    case TS_TREE_TRUE: case TS_TREE_FALSE: return "bool";
    default: break;
    }
    if (depth > 16)
        return "object";
    if (v->kind == TS_TREE_UNARY && v->n_kids == 1 && v->op != TS_TK_NOT)
        return python_type_of(v->kids[0], depth + 1);
    if (v->kind == TS_TREE_BINARY && v->n_kids == 2 &&
        (v->op == '<' || v->op == '>' || v->op == TS_TK_LE || v->op == TS_TK_GE ||
         v->op == TS_TK_EQ || v->op == TS_TK_NE))
        return "bool";
    if (v->kind == TS_TREE_BINARY && v->n_kids == 2) {
        const char *a = python_type_of(v->kids[0], depth + 1);
        const char *b = python_type_of(v->kids[1], depth + 1);
        bool num_a = !strcmp(a, "int") || !strcmp(a, "float");
        bool num_b = !strcmp(b, "int") || !strcmp(b, "float");
        if (num_a && num_b)
            return v->op == '/' || !strcmp(a, "float") || !strcmp(b, "float") ? "float" : "int";
        return !strcmp(a, b) && (v->op == '+' || v->op == '*') ? a : "object";
    }
    /* a dotted name: torch.float64, math.pi, torch.nn.Linear */
    const TsTree *f = v->kind == TS_TREE_CALL ? v->kids[0] : v;
    if (f->kind != TS_TREE_ATTR)
        return "object";
    const char *last = f->kids[1]->str, *root = NULL;
    bool nn = false;
    for (const TsTree *t = f->kids[0]; t; t = t->kind == TS_TREE_ATTR ? t->kids[0] : NULL) {
        const TsTree *n = t->kind == TS_TREE_ATTR ? t->kids[1] : t;
        nn = nn || (n->kind == TS_TREE_NAME && !strcmp(n->str, "nn"));
        if (t->kind == TS_TREE_NAME)
            root = t->str;
    }
    if (!root)
        return "object";
    if (!strcmp(root, "math"))
        return v->kind == TS_TREE_CALL && (!strcmp(last, "floor") || !strcmp(last, "ceil") ||
                                           !strcmp(last, "factorial") || !strcmp(last, "gcd"))
                   ? "int" : "float";
    if (strcmp(root, "torch") != 0 && strcmp(root, "nn") != 0)
        return "object";
    if (v->kind != TS_TREE_CALL)   /* torch.float64, torch.long: a dtype */
        return "dtype";
    if (!strcmp(last, "device"))
        return "device";
    return nn || !strcmp(root, "nn") ? last : "Tensor";
}

static int python_value_error(TsEmitter *e, const TsTree *v, TsSourceRange r)
{
    return python_type_error(e, python_type_of(v, 0), r);
}

/* A class of the file deriving (directly or through others of the file) from an exception
 * class: raising it names it "__main__.Name", as Python qualifies a script's classes. */
static bool is_exception_class(TsCompiler *c, const TsClassInfo *ci, int depth)
{
    const TsTree *bases = ci->kind == TS_CLASS_SCRIPT && ci->tree->kind == TS_TREE_CLASS
                              ? ci->tree->kids[2] : NULL;
    for (size_t i = 0; bases && i < bases->n_kids && depth < 32; i++) {
        const TsTree *b = bases->kids[i];
        if (b->kind != TS_TREE_NAME)
            continue;
        const TsGlobal *g = ts_compiler_global(c, ts_symbol(b->str));
        if (g ? g->kind == TS_GLOBAL_CLASS && is_exception_class(c, g->cls, depth + 1)
              : builtin_exception(b->str) != NULL)
            return true;
    }
    return false;
}

/* The special forms of an archive's code (the printer's spellings of torch.jit.annotate,
 * fork and casts PyTorch's type checker cannot see, and the infinite floats): 0 when name is
 * one (or -1 on an error), 1 when it is not. */
static int archive_name(TsEmitter *e, const char *name, TsSourceRange r, TsSugared *out)
{
    static const char *const forms[][2] = {
        { "annotate", "torch.jit.annotate" }, { "fork", "torch.jit.fork" },
        { "unchecked_cast", "$unchecked_cast" }, { "uninitialized", "$uninitialized" },
    };
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++)
        if (strcmp(name, forms[i][0]) == 0) {
            out->kind = TS_SV_BUILTIN;
            out->name = ts_symbol(forms[i][1]);
            return 0;
        }
    if (strcmp(name, "inf") == 0 || strcmp(name, "nan") == 0)
        return value_of(out, ts_emit_const(e, ts_double(name[0] == 'i' ? INFINITY : NAN), r));
    return 1;
}

/* rc, or an out-of-memory error when out is a builtin, module or method without its
 * interned name (ts_symbol returns NULL when it cannot intern one). */
static int named(TsEmitter *e, int rc, const TsSugared *out)
{
    if (rc == 0 && !out->name && (out->kind == TS_SV_BUILTIN || out->kind == TS_SV_MODULE ||
                                  out->kind == TS_SV_METHOD || out->kind == TS_SV_EXCEPTION))
        return ts_error_set(e->err, TS_ERR_NOMEM, "out of memory");
    return rc;
}

static int sugar_name(TsEmitter *e, const TsTree *t, TsSugared *out)
{
    memset(out, 0, sizeof *out);
    const char *name = ts_symbol(t->str);
    if (!name)
        return ts_error_set(e->err, TS_ERR_NOMEM, "out of memory");
    const TsVar *var = ts_env_find(e, name);
    if (var && var->sugar) {
        *out = *var->sugar;
        return 0;
    }
    if (var)
        return value_of(out, ts_env_load(e, name, t->range));
    const TsGlobal *gl = ts_compiler_global(e->c, name);
    if (gl) {
        switch (gl->kind) {
        case TS_GLOBAL_DEF:
            out->kind = TS_SV_FUNCTION;
            out->def = gl->def;
            return 0;
        case TS_GLOBAL_CLASS:
            if (!e->c->archive && is_exception_class(e->c, gl->cls, 0)) {
                char q[300];
                snprintf(q, sizeof q, "__main__.%s", gl->cls->name);
                out->kind = TS_SV_EXCEPTION;
                out->name = ts_symbol(q);
                return 0;
            }
            out->kind = TS_SV_CLASS;
            out->cls = gl->cls;
            return ts_compiler_class(e->c, gl->cls, t->range, e->err);
        case TS_GLOBAL_MODULE:
            out->kind = TS_SV_MODULE;
            out->name = ts_symbol(gl->str);
            return 0;
        case TS_GLOBAL_SYMBOL: {
            const char *dot = strrchr(gl->str, '.');
            char mod[256];
            snprintf(mod, sizeof mod, "%.*s", (int)(dot - gl->str), gl->str);
            TsSugared m = { .kind = TS_SV_MODULE, .name = ts_symbol(mod) };
            return ts_sugar_attr(e, &m, dot + 1, t->range, out);
        }
        case TS_GLOBAL_VALUE:
            if (gl->value->kind == TS_TREE_NONE)   /* PyTorch does not see a None global */
                break;
            return python_value_error(e, gl->value, t->range);
        }
    }
    if (e->c->archive && archive_name(e, name, t->range, out) != 1)
        return e->err->code ? -1 : 0;
    for (size_t i = 0; builtins[i]; i++)
        if (strcmp(builtins[i], name) == 0) {
            out->kind = TS_SV_BUILTIN;
            out->name = name;
            return 0;
        }
    const char *exc = builtin_exception(name);
    if (exc) {
        char q[64];
        snprintf(q, sizeof q, "builtins.%s", exc);
        out->kind = TS_SV_EXCEPTION;
        out->name = ts_symbol(q);
        return 0;
    }
    if (python_builtin_class(name)) {
        char q[64];
        snprintf(q, sizeof q, "python:%s", name);
        out->kind = TS_SV_BUILTIN;
        out->name = ts_symbol(q);
        return 0;
    }
    if (python_builtin_function(name))
        return ts_emit_error(e, t->range, "Python builtin <built-in function %s> is currently "
                             "not supported in Torchscript", name);
    return ts_emit_error(e, t->range, "undefined value %s", name);
}

int ts_sugar_name(TsEmitter *e, const TsTree *t, TsSugared *out)
{
    return named(e, sugar_name(e, t, out), out);
}

/* ---- attributes ------------------------------------------------------------------------ */

static const struct { const char *name; int value; } dtypes[] = {
    { "uint8", 0 }, { "int8", 1 }, { "int16", 2 }, { "short", 2 }, { "int32", 3 },
    { "int", 3 }, { "int64", 4 }, { "long", 4 }, { "float16", 5 }, { "half", 5 },
    { "float32", 6 }, { "float", 6 }, { "float64", 7 }, { "double", 7 },
    { "complex64", 9 }, { "complex128", 10 }, { "bool", 11 }, { "bfloat16", 15 },
    /* layouts and memory formats are ints in TorchScript too */
    { "strided", 0 }, { "sparse_coo", 1 }, { "sparse_csr", 2 },
    { "contiguous_format", 0 }, { "preserve_format", 1 }, { "channels_last", 2 },
    { "channels_last_3d", 3 },
};

/* 1 when some operator is called name (the plugins loaded as needed), else PyTorch's error
 * for a module attribute that does not exist ("object has no attribute summ") and -1. The
 * frontend's own forms named like operators count as operators. */
static int operator_named(TsEmitter *e, const char *name, TsSourceRange r)
{
    static const char *const forms[] = { "aten::wait", "aten::_unwrap_optional", NULL };
    for (size_t i = 0; forms[i]; i++)
        if (strcmp(forms[i], name) == 0)
            return 1;
    for (;;) {
        const TsOperator *ops[1];
        if (ts_optable_overloads(e->c->ops, name, ops, 1) > 0)
            return 1;
        if (ts_optable_settled(e->c->ops))
            break;
        if (ts_optable_complete(e->c->ops, e->err))
            return -1;
    }
    const char *attr = strstr(name, "::");
    ts_emit_error(e, r, "object has no attribute %s", attr ? attr + 2 : name);
    return -1;
}

/* What the math module's attr is to TorchScript: 1 a function PyTorch maps to an operator,
 * -1 a function of Python's math module it does not support, 0 no function of math. */
static int math_function(const char *attr)
{
    static const char *const mapped[] = {
        "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "ceil", "copysign", "cos",
        "cosh", "degrees", "erf", "erfc", "exp", "expm1", "fabs", "factorial", "floor", "fmod",
        "frexp", "gamma", "gcd", "isfinite", "isinf", "isnan", "ldexp", "lgamma", "log",
        "log10", "log1p", "modf", "pow", "radians", "remainder", "sin", "sinh", "sqrt", "tan",
        "tanh", NULL };
    static const char *const python_only[] = {
        "cbrt", "comb", "dist", "exp2", "fsum", "hypot", "isclose", "isqrt", "lcm", "log2",
        "nextafter", "perm", "prod", "trunc", "ulp", NULL };
    for (size_t i = 0; mapped[i]; i++)
        if (strcmp(mapped[i], attr) == 0)
            return 1;
    for (size_t i = 0; python_only[i]; i++)
        if (strcmp(python_only[i], attr) == 0)
            return -1;
    return 0;
}

/* The operator PyTorch maps cmath's attr to ("cmath.phase" is aten::angle), "" for a
 * function of cmath it does not support, NULL for no function of cmath. */
static const char *cmath_function(const char *attr)
{
    static const char *const mapped[][2] = {
        { "phase", "aten::angle" }, { "rect", "aten::polar" }, { "isnan", "aten::isnan" },
        { "isinf", "aten::isinf" }, { "isfinite", "aten::isfinite" }, { "log", "aten::log" },
        { "log10", "aten::log10" }, { "sqrt", "aten::sqrt" }, { "exp", "aten::exp" },
        { "sin", "aten::sin" }, { "cos", "aten::cos" }, { "tan", "aten::tan" },
        { "asin", "aten::asin" }, { "acos", "aten::acos" }, { "atan", "aten::atan" },
        { "sinh", "aten::sinh" }, { "cosh", "aten::cosh" }, { "tanh", "aten::tanh" },
        { "asinh", "aten::asinh" }, { "acosh", "aten::acosh" }, { "atanh", "aten::atanh" },
        { "polar", "" }, { "isclose", "" },
    };
    for (size_t i = 0; i < sizeof mapped / sizeof mapped[0]; i++)
        if (strcmp(mapped[i][0], attr) == 0)
            return mapped[i][1];
    return NULL;
}

bool ts_module_constant(const char *mod, const char *attr, TsValue *out)
{
    static const struct { const char *n; double v; } math[] = {
        { "pi", 3.141592653589793 }, { "e", 2.718281828459045 },
        { "tau", 6.283185307179586 }, { "inf", 1.0 / 0.0 }, { "nan", 0.0 / 0.0 },
    };
    if (strcmp(mod, "math") == 0 || strcmp(mod, "cmath") == 0)
        for (size_t i = 0; i < sizeof math / sizeof *math; i++)
            if (strcmp(math[i].n, attr) == 0) {
                *out = ts_double(math[i].v);
                return true;
            }
    if (strcmp(mod, "torch") == 0)
        for (size_t i = 0; i < sizeof dtypes / sizeof *dtypes; i++)
            if (strcmp(dtypes[i].name, attr) == 0) {
                *out = ts_int(dtypes[i].value);
                return true;
            }
    return false;
}

/* CONSTANTS.cN of an archive: the N-th tensor of constants.pkl. */
static int archive_constant(TsEmitter *e, const char *attr, TsSourceRange r, TsSugared *out)
{
    const TsCodeLoader *l = e->c->loader;
    char *end = NULL;
    long long k = attr[0] == 'c' && attr[1] >= '0' && attr[1] <= '9'
                      ? strtoll(attr + 1, &end, 10) : -1;
    if (k < 0 || !end || *end)
        return ts_emit_error(e, r, "invalid constant specifier: %s", attr);
    if ((unsigned long long)k >= l->n_constants)
        return ts_emit_error(e, r, "constant index %lld is out of bounds (constant table has "
                             "%zu entries)", k, l->n_constants);
    TsValue v = l->constants[k];
    ts_value_retain(v);
    TsIrValue *c = ts_emit_const(e, v, r);
    /* typed Tensor, as PyTorch's loader types it, not refined by the table's dtype: a
     * frozen RNN's `[CONSTANTS.c0, ...]` is then the List[Tensor] aten::lstm takes */
    if (c && v.tag == TS_TAG_TENSOR)
        c->type = ts_type_tensor();
    return value_of(out, c);
}

/* Whether PyTorch writes qualname in Python: 1 when the library defines it (or a library
 * file fails to load: it shows its error when called), else 0; -1 with e->err set when out
 * of memory. */
static int python_function(TsEmitter *e, const char *qualname)
{
    TsError ignore = TS_ERROR_INIT;
    int rc = ts_library_defines(e->c->ops, qualname, NULL, &ignore);
    if (ignore.code == TS_ERR_NOMEM) {
        ts_error_move(e->err, &ignore);
        return -1;
    }
    ts_error_clear(&ignore);
    return rc != 0;
}

static int module_attr(TsEmitter *e, const char *mod, const char *attr, TsSourceRange r,
                       TsSugared *out)
{
    if (e->c->archive) {
        /* an archive's names: its classes and functions, its constants, and torch.X,
         * which is always the operator aten::X there */
        if (strncmp(mod, "__torch__", 9) == 0 && (mod[9] == '\0' || mod[9] == '.'))
            return ts_import_attr(e, mod, attr, r, out);
        if (strcmp(mod, "CONSTANTS") == 0)
            return archive_constant(e, attr, r, out);
        if (strcmp(mod, "torch") == 0) {
            char op[256];
            snprintf(op, sizeof op, ts_import_upgraded(e->c, e->d, attr) ? "$upgrade:%s"
                                                                         : "aten::%s", attr);
            out->kind = TS_SV_BUILTIN;
            out->name = ts_symbol(op);
            return 0;
        }
    }
    TsValue c;
    if (ts_module_constant(mod, attr, &c))
        return value_of(out, ts_emit_const(e, c, r));
    char buf[256];
    out->kind = TS_SV_BUILTIN;
    if (strcmp(mod, "torch") == 0) {
        if (strcmp(attr, "jit") == 0 || strcmp(attr, "nn") == 0 || strcmp(attr, "ops") == 0 ||
            strcmp(attr, "autograd") == 0 || strcmp(attr, "cuda") == 0 ||
            strcmp(attr, "linalg") == 0 || strcmp(attr, "special") == 0 ||
            strcmp(attr, "_C") == 0) {
            snprintf(buf, sizeof buf, "torch.%s", attr);
            out->kind = TS_SV_MODULE;
            out->name = ts_symbol(buf);
            return 0;
        }
        if (strcmp(attr, "Tensor") == 0) {
            out->kind = TS_SV_TYPE;
            out->type = ts_type_tensor();
            return 0;
        }
        if (strcmp(attr, "device") == 0 || strcmp(attr, "no_grad") == 0 ||
            strcmp(attr, "is_scripting") == 0) {
            snprintf(buf, sizeof buf, "torch.%s", attr);
            out->name = ts_symbol(buf);
            return 0;
        }
        snprintf(buf, sizeof buf, "torch.%s", attr);
        int py = python_function(e, buf);   /* torch.norm is Python; the rest are operators */
        if (py < 0)
            return -1;
        if (!py)
            snprintf(buf, sizeof buf, "aten::%s", attr);
        if (!py && operator_named(e, buf, r) != 1)
            return -1;
        out->name = ts_symbol(buf);
        return 0;
    }
    if (strcmp(mod, "torch.nn") == 0 && (strcmp(attr, "functional") == 0 ||
                                         strcmp(attr, "init") == 0)) {
        snprintf(buf, sizeof buf, "torch.nn.%s", attr);
        out->kind = TS_SV_MODULE;
        out->name = ts_symbol(buf);
        return 0;
    }
    if (strcmp(mod, "torch.nn.init") == 0) {   /* Python functions only: torch.nn.init.py */
        snprintf(buf, sizeof buf, "torch.nn.init.%s", attr);
        int py = python_function(e, buf);
        if (py < 0)
            return -1;
        if (!py)
            return ts_emit_error(e, r, "object has no attribute %s", attr);
        out->name = ts_symbol(buf);
        return 0;
    }
    if (strcmp(mod, "torch.nn.functional") == 0 || strcmp(mod, "torch.nn") == 0) {
        snprintf(buf, sizeof buf, "torch.nn.functional.%s", attr);
        int py = python_function(e, buf);   /* F.linear, F.conv2d, ...: the aten builtin */
        if (py < 0)
            return -1;
        if (!py)
            snprintf(buf, sizeof buf, "aten::%s", attr);
        if (!py && operator_named(e, buf, r) != 1)
            return -1;
        out->name = ts_symbol(buf);
        return 0;
    }
    if (strcmp(mod, "torch._C") == 0 && (strcmp(attr, "_nn") == 0 || strcmp(attr, "_fft") == 0 ||
                                         strcmp(attr, "_linalg") == 0 ||
                                         strcmp(attr, "_special") == 0)) {
        snprintf(buf, sizeof buf, "torch._C.%s", attr);
        out->kind = TS_SV_MODULE;
        out->name = ts_symbol(buf);
        return 0;
    }
    /* torch._C._nn.gelu, torch._C._fft.fft_rfft, torch._C._linalg.linalg_norm, ...: the
     * bindings torch.nn.functional and torch.fft call are the aten operators themselves;
     * torch._C._get_tracing_state is aten::_get_tracing_state */
    if (strncmp(mod, "torch._C", 8) == 0 && (mod[8] == '\0' || mod[8] == '.')) {
        snprintf(buf, sizeof buf, "aten::%s", attr);
        out->name = ts_symbol(buf);
        return 0;
    }
    if (strcmp(mod, "torch.jit") == 0 || strcmp(mod, "torch.autograd") == 0) {
        snprintf(buf, sizeof buf, "%s.%s", mod, attr);
        out->name = ts_symbol(buf);
        return 0;
    }
    if (strcmp(mod, "torch.linalg") == 0) {    /* torch.linalg.vector_norm: linalg_vector_norm */
        snprintf(buf, sizeof buf, "aten::linalg_%s", attr);
        out->name = ts_symbol(buf);
        return 0;
    }
    if (strcmp(mod, "torch.special") == 0) {   /* torch.special.expit: special_expit */
        snprintf(buf, sizeof buf, "aten::special_%s", attr);
        out->name = ts_symbol(buf);
        return 0;
    }
    if (strcmp(mod, "torch.cuda") == 0) {      /* torch.cuda.synchronize: cuda::synchronize */
        const char *op = strcmp(attr, "current_device") == 0 ? "_current_device"
                         : strcmp(attr, "set_device") == 0   ? "_set_device"
                                                             : attr;
        snprintf(buf, sizeof buf, "cuda::%s", op);
        out->name = ts_symbol(buf);
        return 0;
    }
    if (strcmp(mod, "torch.ops") == 0) {
        snprintf(buf, sizeof buf, "torch.ops.%s", attr);
        out->kind = TS_SV_MODULE;
        out->name = ts_symbol(buf);
        return 0;
    }
    if (strncmp(mod, "torch.ops.", 10) == 0) {
        snprintf(buf, sizeof buf, "%s::%s", mod + 10, attr);
        out->name = ts_symbol(buf);
        return 0;
    }
    if (strcmp(mod, "math") == 0) {
        int known = math_function(attr);
        if (known == 0)
            return ts_emit_error(e, r, "object has no attribute %s", attr);
        if (known < 0)
            return ts_emit_error(e, r, "Python builtin <built-in function %s> is currently "
                                 "not supported in Torchscript", attr);
        /* math.remainder is IEEE remainder, not the % of aten::remainder */
        snprintf(buf, sizeof buf, "aten::%s",
                 strcmp(attr, "remainder") == 0 ? "mathremainder" : attr);
        out->name = ts_symbol(buf);
        return 0;
    }
    if (strcmp(mod, "cmath") == 0) {
        const char *op = cmath_function(attr);
        if (!op)
            return ts_emit_error(e, r, "object has no attribute %s", attr);
        if (!*op)
            return ts_emit_error(e, r, "Python builtin <built-in function %s> is currently "
                                 "not supported in Torchscript", attr);
        out->name = ts_symbol(op);
        return 0;
    }
    if (strcmp(mod, "typing") == 0 || strcmp(mod, "collections") == 0 ||
        strcmp(mod, "enum") == 0) {
        snprintf(buf, sizeof buf, "%s.%s", mod, attr);
        out->name = ts_symbol(buf);
        return 0;
    }
    return ts_emit_error(e, r, "Module '%s' has no attribute '%s'", mod, attr);
}

static TsIrValue *get_attr_node(TsEmitter *e, TsIrValue *obj, const char *attr,
                                const TsType *t, TsSourceRange r)
{
    TsNode *n = ts_emit_node(e, "prim::GetAttr", 1, &obj, 1, r);
    if (!n || ts_node_set_str(n, ts_symbol("attr::name"), attr, e->err) != 0)
        return NULL;
    n->outputs[0]->type = t;
    return n->outputs[0];
}

static TsIrValue *prim1(TsEmitter *e, const char *kind, TsIrValue *v, const TsType *t,
                        TsSourceRange r)
{
    TsNode *n = ts_emit_node(e, kind, 1, &v, 1, r);
    if (!n)
        return NULL;
    n->outputs[0]->type = t;
    return n->outputs[0];
}

/* Whether name has an overload that a value of type self can be the receiver of; asked of
 * every plugin (those the runtime deferred load when the loaded ones have none). -1 with
 * e->err set when loading them fails. */
static int has_method(TsEmitter *e, const char *name, const TsType *self)
{
    for (;;) {
        const TsOperator *ops[256];
        size_t n = ts_optable_overloads(e->c->ops, name, ops, 256);
        for (size_t i = 0; i < n && i < 256; i++)
            if (ts_schema_takes_self(ops[i]->schema, self))
                return 1;
        if (ts_optable_settled(e->c->ops))
            return 0;
        if (ts_optable_complete(e->c->ops, e->err))
            return -1;
    }
}

/* Whether a class of the program assigns name in its body (`kind = "shape"`): a class
 * variable, which TorchScript does not support. */
static bool class_variable(const TsClassInfo *ci, const char *name)
{
    const TsTree *body = ci->tree->kind == TS_TREE_CLASS ? ci->tree->kids[3] : NULL;
    for (size_t i = 0; body && i < body->n_kids; i++) {
        const TsTree *st = body->kids[i];
        if ((st->kind == TS_TREE_ASSIGN || (st->kind == TS_TREE_ANN_ASSIGN && st->kids[2])) &&
            st->kids[0]->kind == TS_TREE_NAME && strcmp(st->kids[0]->str, name) == 0)
            return true;
    }
    return false;
}

static int value_attr(TsEmitter *e, TsIrValue *v, const char *attr, TsSourceRange r,
                      TsSugared *out)
{
    const TsType *t = v->type;
    TsTypeKind k = ts_type_kind(t);
    char buf[256];
    if (k == TS_TYPE_CLASS || k == TS_TYPE_MODULE) {
        long idx = ts_type_field_index(t, attr);
        if (idx >= 0)
            return value_of(out, get_attr_node(e, v, attr, ts_type_field(t, (size_t)idx)->type,
                                               r));
        TsClassInfo *ci = ts_compiler_class_of_type(e->c, t);
        char getter[256];
        snprintf(getter, sizeof getter, "__%s_getter", attr);
        TsDefInfo *m = ci ? ts_class_method(ci, getter) : NULL;
        if (m && m->property)   /* a @property: its getter's result */
            return ts_sugar_call_method(e, v, getter, 0, NULL, r, out);
        m = ci ? ts_class_method(ci, attr) : NULL;
        if (m && !m->is_static) {   /* a static method is the class's, not an object's */
            out->kind = TS_SV_METHOD;
            out->value = v;
            out->name = ts_symbol(attr);
            return 0;
        }
        const TsTree *decl = ts_class_constant(ci, attr);   /* `stride : Final[int] = 2` */
        if (decl) {
            const TsTree *ann = decl->kids[1];
            if (ann->kind == TS_TREE_SUBSCRIPT && ann->n_kids == 2 &&
                strcmp(ann->kids[0]->kind == TS_TREE_NAME ? ann->kids[0]->str : "",
                       "Final") == 0)
                ann = ann->kids[1];
            const TsType *kt = ts_emit_type(e, ann);
            TsIrValue *kv = kt ? ts_emit_expr(e, decl->kids[2], kt) : NULL;
            return value_of(out, kv ? ts_emit_convert(e, kv, kt, r) : NULL);
        }
        if (ci && !ci->qualname && class_variable(ci, attr))
            return ts_emit_error(e, r, "'%s' object has no attribute or method '%s'. '%s' is "
                                 "defined as a class attribute which currently is not "
                                 "supported. Consider converting this to an instance "
                                 "attribute.", describe(t, buf, sizeof buf), attr, attr);
        return ts_emit_error(e, r, "'%s' object has no attribute or method '%s'. Did you "
                             "forget to initialize an attribute in __init__()?",
                             describe(t, buf, sizeof buf), attr);
    }
    if (k == TS_TYPE_INTERFACE) {
        TsClassInfo *ci = ts_compiler_class_of_type(e->c, t);
        if (ci && ts_class_method(ci, attr)) {
            out->kind = TS_SV_METHOD;
            out->value = v;
            out->name = ts_symbol(attr);
            return 0;
        }
        if (ci && !ci->is_module)   /* a class interface is looked up as an object */
            return ts_emit_error(e, r, "'%s' object has no attribute or method '%s'.",
                                 describe(t, buf, sizeof buf), attr);
        return ts_emit_error(e, r, "Tried to access nonexistent attribute or method '%s' of "
                             "type '%s'.", attr, describe(t, buf, sizeof buf));
    }
    if (k == TS_TYPE_TUPLE && ts_type_num_fields(t)) {
        long idx = ts_type_field_index(t, attr);
        if (idx >= 0) {
            TsIrValue *i = ts_emit_const(e, ts_int(idx), r);
            return value_of(out, i ? ts_emit_subscript_value(e, v, i, r) : NULL);
        }
    }
    if (k == TS_TYPE_ENUM) {
        if (strcmp(attr, "name") == 0)
            return value_of(out, prim1(e, "prim::EnumName", v, ts_type_str(), r));
        if (strcmp(attr, "value") == 0)
            return value_of(out, prim1(e, "prim::EnumValue", v, ts_type_enum_value_type(t), r));
    }
    if (k == TS_TYPE_TENSOR && (strcmp(attr, "tolist") == 0 || cast_dtype(attr) >= 0)) {
        out->kind = TS_SV_METHOD;   /* typed by the expected type: see emit_tolist */
        out->value = v;
        out->name = ts_symbol(attr);
        return 0;
    }
    if (k == TS_TYPE_TENSOR) {
        if (strcmp(attr, "shape") == 0)
            return value_of(out, ts_emit_op2(e, "aten::size", v, NULL, r));
        if (strcmp(attr, "dtype") == 0)
            return value_of(out, prim1(e, "prim::dtype", v, ts_type_int(), r));
        if (strcmp(attr, "device") == 0)
            return value_of(out, prim1(e, "prim::device", v, ts_type_device(), r));
        static const char *const flags[] = { "is_cuda", "requires_grad", "is_sparse",
                                             "is_quantized", "is_meta", "is_mkldnn",
                                             "is_nested", "is_cpu", "is_xpu", "is_sparse_csr",
                                             "is_mps", "is_vulkan", "is_ipu", "is_ort" };
        bool flag = false;
        for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
            flag = flag || strcmp(attr, flags[i]) == 0;
        if (flag) {
            snprintf(buf, sizeof buf, "prim::%s", attr);
            return value_of(out, prim1(e, buf, v, ts_type_bool(), r));
        }
        if (strcmp(attr, "layout") == 0)
            return value_of(out, prim1(e, "prim::layout", v, ts_type_int(), r));
        if (strcmp(attr, "data") == 0)
            return value_of(out, prim1(e, "prim::data", v, ts_type_tensor(), r));
        if (strcmp(attr, "name") == 0)
            return value_of(out, prim1(e, "prim::name", v, ts_type_optional(ts_type_str()), r));
        if (strcmp(attr, "is_leaf") == 0 || strcmp(attr, "retains_grad") == 0 ||
            strcmp(attr, "real") == 0 || strcmp(attr, "imag") == 0) {
            snprintf(buf, sizeof buf, "aten::%s", attr);
            return value_of(out, ts_emit_op2(e, buf, v, NULL, r));
        }
        if (strcmp(attr, "ndim") == 0)
            return value_of(out, ts_emit_op2(e, "aten::dim", v, NULL, r));
        if (strcmp(attr, "T") == 0)
            return value_of(out, ts_emit_op2(e, "aten::numpy_T", v, NULL, r));
        if (strcmp(attr, "mT") == 0 || strcmp(attr, "mH") == 0) {
            snprintf(buf, sizeof buf, "aten::%s", attr);
            return value_of(out, ts_emit_op2(e, buf, v, NULL, r));
        }
        if (strcmp(attr, "H") == 0)
            return value_of(out, ts_emit_op2(e, "aten::matrix_H", v, NULL, r));
        /* t.type(dtype=None, non_blocking=False) is t.to(...) with those arguments, as
         * PyTorch emits it (t.type() is t.to(), a string argument matches no overload) */
        if (strcmp(attr, "type") == 0) {
            out->kind = TS_SV_METHOD;
            out->value = v;
            out->name = ts_symbol("to");
            return 0;
        }
    }
    if (k == TS_TYPE_DEVICE && strcmp(attr, "type") == 0)
        return value_of(out, prim1(e, "prim::type", v, ts_type_str(), r));
    if (k == TS_TYPE_DEVICE && strcmp(attr, "index") == 0)
        return value_of(out, prim1(e, "prim::index", v, ts_type_optional(ts_type_int()), r));
    snprintf(buf, sizeof buf, "aten::%s", attr);
    int has = has_method(e, buf, t);
    if (has < 0)
        return -1;
    if (!has) {
        char tn[256];
        ts_type_annotation(t, tn, sizeof tn);
        return ts_emit_error(e, r, "'%s' object has no attribute or method '%s'.", tn, attr);
    }
    out->kind = TS_SV_METHOD;
    out->value = v;
    out->name = ts_symbol(attr);
    return 0;
}

static int class_attr(TsEmitter *e, TsClassInfo *ci, const char *attr, TsSourceRange r,
                      TsSugared *out)
{
    if (ci->kind == TS_CLASS_ENUM) {
        for (size_t i = 0; i < ci->n_enum_values; i++)
            if (strcmp(ts_type_field(ci->type, i)->name, attr) == 0) {
                TsValue ev = ci->enum_values[i];
                TsEnumValue *en = ts_enum_value_new(ci->type, attr, ev, e->err);
                ts_value_retain(ev);
                if (!en)
                    return -1;
                return value_of(out, ts_emit_const(e, ts_obj_value(en, TS_TAG_ENUM), r));
            }
    }
    if (ci->kind == TS_CLASS_ENUM)   /* PyTorch's message, unbalanced quote included */
        return ts_emit_error(e, r, "Enum<%s>' has no attribute '%s'", ts_type_name(ci->type),
                             attr);
    if (ci->kind == TS_CLASS_NAMEDTUPLE && !e->c->archive)   /* only a constructor */
        return ts_emit_error(e, r, "attribute lookup is not defined on %s",
                             ts_type_name(ci->type));
    TsDefInfo *d = ts_class_method(ci, attr);
    /* a static method; or in an archive, a method called with its object as the first
     * argument (Cls.hook(obj, ...): how the printer calls a module's forward hooks) */
    if (d && (d->is_static || e->c->archive)) {
        out->kind = TS_SV_FUNCTION;
        out->def = d;
        return 0;
    }
    if (strcmp(attr, "__new__") == 0 && ci->kind == TS_CLASS_SCRIPT) {
        /* Cls.__new__(Cls): the printer's object creation, before (obj).__init__(...) */
        out->kind = TS_SV_BUILTIN;
        out->name = ts_symbol("$new");
        out->cls = ci;
        return 0;
    }
    /* Cls.K of a class attribute K = value: PyTorch reads it as the Python value */
    const TsTree *body = ci->kind == TS_CLASS_SCRIPT && ci->tree &&
                         ci->tree->kind == TS_TREE_CLASS ? ci->tree->kids[3] : NULL;
    for (size_t i = 0; body && i < body->n_kids; i++) {
        const TsTree *st = body->kids[i];
        size_t n_targets = st->kind == TS_TREE_ASSIGN ? st->n_kids - 1
                         : st->kind == TS_TREE_ANN_ASSIGN && st->n_kids > 2 ? 1 : 0;
        const TsTree *value = st->kind == TS_TREE_ASSIGN ? st->kids[st->n_kids - 1]
                            : n_targets ? st->kids[2] : NULL;
        for (size_t j = 0; value && j < n_targets; j++)
            if (st->kids[j]->kind == TS_TREE_NAME && strcmp(st->kids[j]->str, attr) == 0)
                return python_value_error(e, value, r);
    }
    /* what else PyTorch finds on the Python class: its names (strings), else nothing */
    if (body && !d && !ci->is_module) {
        if (!strcmp(attr, "__name__") || !strcmp(attr, "__qualname__") ||
            !strcmp(attr, "__module__"))
            return python_type_error(e, "str", r);
        return ts_emit_error(e, r, "Tried to lookup unknown attribute on class %s",
                             ts_type_name(ci->type));
    }
    return ts_emit_error(e, r, "'%s' object has no attribute or method '%s'",
                         ts_type_name(ci->type), attr);
}

static const char *builtin_kind(const char *name);

int ts_sugar_attr(TsEmitter *e, const TsSugared *base, const char *attr, TsSourceRange r,
                  TsSugared *out)
{
    memset(out, 0, sizeof *out);
    switch (base->kind) {
    case TS_SV_MODULE:
        if (!base->name)
            return ts_error_set(e->err, TS_ERR_NOMEM, "out of memory");
        return named(e, module_attr(e, base->name, attr, r, out), out);
    case TS_SV_CLASS:
        return named(e, class_attr(e, base->cls, attr, r, out), out);
    case TS_SV_VALUE:
        return named(e, value_attr(e, base->value, attr, r, out), out);
    case TS_SV_BUILTIN:         /* dict.fromkeys, str.join: no attributes on builtins */
        return ts_emit_error(e, r, "attribute lookup is not defined on %s",
                             builtin_kind(base->name));
    default:
        return ts_emit_error(e, r, "object has no attribute '%s'", attr);
    }
}

/* Whether t is cls or holds it (List[cls], Optional[cls], ...). */
static bool contains_type(const TsType *t, const TsType *cls, int depth)
{
    if (t == cls)
        return true;
    size_t n = ts_is_object_type(t) ? 0 : ts_type_num_elems(t);
    for (size_t i = 0; i < n && depth < 64; i++)
        if (contains_type(ts_type_elem(t, i), cls, depth + 1))
            return true;
    return false;
}

int ts_sugar_set_attr(TsEmitter *e, TsIrValue *obj, const char *attr, TsIrValue *v,
                      TsSourceRange r)
{
    const TsType *t = obj->type;
    char a[256], b[256];
    if (!ts_is_object_type(t))
        return ts_emit_error(e, r, "Tried to set an attribute: %s on a non-class: %s", attr,
                             ts_type_text(t, a, sizeof a));
    long idx = ts_type_field_index(t, attr);
    char setter[256];
    snprintf(setter, sizeof setter, "__%s_setter", attr);
    TsClassInfo *ci = idx < 0 ? ts_compiler_class_of_type(e->c, t) : NULL;
    TsDefInfo *d = ci ? ts_class_method(ci, setter) : NULL;
    if (d && d->property) {   /* a @property's setter */
        TsNamedValue arg = { NULL, v, r };
        TsSugared ignored;
        return ts_sugar_call_method(e, obj, setter, 1, &arg, r, &ignored);
    }
    char getter[256];
    snprintf(getter, sizeof getter, "__%s_getter", attr);
    if (ci && (d = ts_class_method(ci, getter)) && d->property)
        return ts_emit_error(e, r, "Tried to set read-only attribute: %s", attr);
    if (idx < 0) {
        bool in_init = e->d->cls && e->d->cls->type == t &&
                       strcmp(e->d->def->kids[0]->str, "__init__") == 0;
        if (!in_init)
            return ts_emit_error(e, r, "Tried to set nonexistent attribute: %s. Did you forget "
                                 "to initialize it in __init__()?", attr);
        if (e->env->block->owning_node)   /* the class's declaration may not depend on a branch */
            return ts_emit_error(e, r, "First assignment cannot be in a control-flow block. "
                                 "Initialize the field at the top level first");
        /* a field of the class's own type would make its values cyclic, which PyTorch
         * refuses (and reference counting could not free) */
        if (contains_type(v->type, t, 0))
            return ts_emit_error(e, r, "Assignment to attribute '%s' cannot be of a type that "
                                 "contains class '%s'.\nClasses that recursively contain "
                                 "instances of themselves are not yet supported", attr,
                                 ts_type_name(t));
        if (ts_type_class_add_attr((TsType *)t, attr, v->type, e->err) != 0)
            return -1;
    } else if (!ts_type_is_subtype_of(v->type, ts_type_field(t, (size_t)idx)->type)) {
        return ts_emit_error(e, r, "Wrong type for attribute assignment. Expected %s but got %s",
                             ts_type_text(ts_type_field(t, (size_t)idx)->type, a, sizeof a),
                             ts_type_text(v->type, b, sizeof b));
    }
    TsIrValue *in[2] = { obj, v };
    TsNode *n = ts_emit_node(e, "prim::SetAttr", 2, in, 0, r);
    return n ? ts_node_set_str(n, ts_symbol("attr::name"), attr, e->err) : -1;
}

/* What PyTorch calls a builtin used as a value: the conversions are their magic methods,
 * some have a form of their own, the rest are a "builtin". */
static const char *builtin_kind(const char *name)
{
    static const char *const kinds[][2] = {
        { "int", "__int__" }, { "float", "__float__" }, { "bool", "__bool__" },
        { "str", "__str__" }, { "len", "__len__" }, { "complex", "__complex__" },
        { "hex", "__hex__" }, { "oct", "__oct__" }, { "round", "__round__" },
        { "getattr", "GetAttr" }, { "hasattr", "HasAttr" }, { "tuple", "TupleConstruct" },
        { "torch.jit.annotate", "annotate" }, { "print", "print" }, { "range", "range" },
        { "list", "list" }, { "dict", "dict" }, { "zip", "zip" }, { "enumerate", "enumerate" },
        { "isinstance", "isinstance" },
    };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(kinds[i][0], name) == 0)
            return kinds[i][1];
    return strchr(name, '.') && strncmp(name, "aten::", 6) != 0 ? name : "builtin";
}

TsIrValue *ts_sugar_as_value(TsEmitter *e, const TsSugared *sv, TsSourceRange r)
{
    switch (sv->kind) {
    case TS_SV_VALUE:
        return sv->value;
    case TS_SV_NONE_TYPE:
        return ts_emit_const(e, ts_none(), r);
    case TS_SV_FUNCTION:
        ts_emit_error(e, r, "function cannot be used as a value");
        return NULL;
    case TS_SV_METHOD:
        ts_emit_error(e, r, "method cannot be used as a value");
        return NULL;
    case TS_SV_MODULE:
        ts_emit_error(e, r, "python value of type 'module' cannot be used as a value. "
                      "Perhaps it is a closed over global variable? If so, please consider "
                      "passing it in as an argument or use a local varible instead.");
        return NULL;
    case TS_SV_CLASS:
        if (sv->cls->kind == TS_CLASS_ENUM)
            ts_emit_error(e, r, "EnumClass cannot be used as a value");
        else
            ts_emit_error(e, r, "class %s cannot be used as a value", sv->cls->name);
        return NULL;
    case TS_SV_EXCEPTION:
        ts_emit_error(e, r, "%s cannot be used as a value",
                      sv->value ? "exception message" : "Python exception");
        return NULL;
    case TS_SV_BUILTIN:
        ts_emit_error(e, r, "%s cannot be used as a value", builtin_kind(sv->name));
        return NULL;
    default:
        ts_emit_error(e, r, "type cannot be used as a value");
        return NULL;
    }
}

/* ---- calls ------------------------------------------------------------------------------ */

typedef struct CallArgs {
    TsNamedValue a[MAX_ARGS + 1];   /* a[0] is reserved for self */
    size_t n;
} CallArgs;

static bool takes_iterables(const TsTree *call)
{
    const TsTree *f = call->kids[0];
    return f->kind == TS_TREE_NAME &&
           (strcmp(f->str, "list") == 0 || strcmp(f->str, "dict") == 0 ||
            strcmp(f->str, "zip") == 0 || strcmp(f->str, "enumerate") == 0);
}

/* range(), zip() and enumerate() are iterables, not values, in PyTorch: list() and dict()
 * take them (see emit_builtin), a call's argument (len(range(3)) too) or an operand
 * (2 in range(3)) cannot. */
int ts_sugar_reject_iterable(TsEmitter *e, const TsTree *x)
{
    if (x->kind == TS_TREE_CALL && x->kids[0]->kind == TS_TREE_NAME &&
        !ts_env_find(e, ts_symbol(x->kids[0]->str))) {
        const char *f = x->kids[0]->str;
        TsIterable it;         /* its arguments' errors first: len(range(2.0)) */
        if (strcmp(f, "range") == 0)
            return ts_sugar_iter(e, x, &it) ? -1
                   : ts_emit_error(e, x->range, "range cannot be used as a value");
        if (strcmp(f, "zip") == 0 || strcmp(f, "enumerate") == 0)
            return ts_emit_error(e, x->range, "iterabletree cannot be used as a value");
    }
    return 0;
}

/* Emits the arguments of call (after the callee), with expected types by position/name. */
static int emit_args(TsEmitter *e, const TsTree *call, const TsSchema *schema, size_t skip,
                     CallArgs *ca)
{
    ca->n = 0;
    for (size_t i = 1; i < call->n_kids; i++) {
        const TsTree *k = call->kids[i];
        if (ca->n >= MAX_ARGS)
            return ts_emit_error(e, call->range, "too many arguments");
        const char *kw = NULL;
        const TsTree *x = k;
        if (k->kind == TS_TREE_KWARG) {
            if (!k->str)
                return ts_emit_error(e, k->range, "**kwargs are not supported");
            if (!(kw = ts_symbol(k->str)))
                return ts_error_set(e->err, TS_ERR_NOMEM, "out of memory");
            x = k->kids[0];
        }
        if (!takes_iterables(call) && ts_sugar_reject_iterable(e, x) != 0)
            return -1;
        /* only an empty [] or {} takes the parameter's type, as PyTorch's empty list
         * literal does; everything else is typed by itself and matched after */
        const TsType *want = NULL;
        bool empty = (x->kind == TS_TREE_LIST || x->kind == TS_TREE_DICT) && x->n_kids == 0;
        if (schema && empty) {
            if (!kw && ca->n + skip < schema->n_args)
                want = schema->args[ca->n + skip].type;
            for (size_t j = 0; kw && j < schema->n_args; j++)
                if (strcmp(schema->args[j].name, kw) == 0)
                    want = schema->args[j].type;
        }
        TsIrValue *v;
        if (!schema && x->kind == TS_TREE_LIST && x->n_kids == 0) {
            /* a bare [] for an operator: schema matching gives it the list type the
             * overload wants ("-".join([]), sum([])), as PyTorch's EmptyListLiteral */
            TsNode *n = ts_emit_node(e, "prim::EmptyListLiteral", 0, NULL, 1, x->range);
            if (!n)
                return -1;
            n->outputs[0]->type = ts_type_list(ts_type_tensor());
            v = n->outputs[0];
        } else if (!(v = ts_emit_expr(e, x, want))) {
            return -1;
        }
        ca->a[1 + ca->n++] = (TsNamedValue){ kw, v, x->range };
    }
    return 0;
}

/* The call's arguments matched to the first of n functions whose schema takes them (one
 * function, or the overloads of one): the function, with its inputs (malloc'd) in order, or
 * NULL with PyTorch's reason at r. */
static TsFunction *match_call(TsEmitter *e, TsFunction *const *fns, size_t n_fns, size_t n,
                              const TsNamedValue *args, TsSourceRange r, TsIrValue ***inputs,
                              size_t *n_inputs)
{
    /* the candidates named as PyTorch names them: "f(int x) -> int", not __torch__.f */
    TsSchema shown[MAX_OVERLOADS];
    const TsSchema *schemas[MAX_OVERLOADS];
    for (size_t i = 0; i < n_fns && i < MAX_OVERLOADS; i++) {
        shown[i] = *fns[i]->schema;
        const char *dot = strrchr(shown[i].name, '.');
        shown[i].name = dot ? (char *)dot + 1 : shown[i].name;
        schemas[i] = &shown[i];
    }
    int k = ts_match_schemas(e->g, schemas, n_fns < MAX_OVERLOADS ? n_fns : MAX_OVERLOADS, n,
                             args, r, inputs, n_inputs, e->err);
    return k < 0 ? NULL : fns[k];
}

/* The argument of a boolean dispatch in call (by keyword, else at its position): 1 or 0,
 * its default when absent, -1 with PyTorch's error when it is not a constant. */
static int dispatch_flag(TsEmitter *e, const TsTree *call, const TsLibraryDispatch *bd)
{
    const TsTree *x = NULL;
    bool kw = false;
    for (size_t i = 1; i < call->n_kids; i++) {
        const TsTree *k = call->kids[i];
        if (k->kind == TS_TREE_KWARG && k->str && strcmp(k->str, bd->arg) == 0)
            x = k->kids[0], kw = true;
        else if (k->kind != TS_TREE_KWARG && k->kind != TS_TREE_STARRED && i - 1 == bd->index)
            x = k;
    }
    if (!x)
        return bd->dflt;
    TsIrValue *v = ts_emit_expr(e, x, NULL);
    if (!v)
        return -1;
    const TsAttr *a = v->node->kind == ts_symbol("prim::Constant")
                          ? ts_node_attr(v->node, ts_symbol("attr::value")) : NULL;
    if (a && a->kind == TS_ATTR_INT && ts_type_kind(v->type) == TS_TYPE_BOOL)
        return a->u.i != 0;
    if (kw)
        return ts_emit_error(e, call->range, "Keyword argument '%s' for boolean dispatch at "
                             "position was not constant", bd->arg);
    return ts_emit_error(e, call->range, "Argument for boolean dispatch at position %zu was "
                         "not constant", bd->index);
}

/* A function of the TorchScript library plugins ship (torch.nn.functional.relu, ...):
 * compiled once per runtime, inlined here as PyTorch inlines it. A boolean dispatch
 * (max_pool2d's return_indices) first picks the function its constant argument names. */
static int call_library(TsEmitter *e, const char *name, const TsTree *call, TsSugared *out)
{
    char chosen[2][256];
    TsLibraryDispatch bd;
    for (int hops = 0; ts_library_defines(e->c->ops, name, &bd, e->err) == 2; hops++) {
        int on = hops < 4 ? dispatch_flag(e, call, &bd) : ts_emit_error(e, call->range,
                                                                         "boolean dispatch "
                                                                         "loops");
        if (on < 0)
            return -1;
        const char *dot = strrchr(name, '.');
        snprintf(chosen[hops % 2], sizeof chosen[0], "%.*s.%s", (int)(dot - name), name,
                 on ? bd.if_true : bd.if_false);
        name = chosen[hops % 2];
    }
    if (e->err->code != TS_OK)
        return -1;
    const TsCompUnit *lib = NULL;
    TsFunction *fns[MAX_OVERLOADS];
    int n_fns = ts_library_functions(e->c->ops, name, call->range, &lib, fns, MAX_OVERLOADS,
                                     e->err);
    CallArgs ca;
    if (n_fns < 0 || emit_args(e, call, n_fns == 1 ? fns[0]->schema : NULL, 0, &ca) != 0)
        return -1;
    TsIrValue **inputs = NULL;
    size_t n_inputs = 0;
    TsFunction *fn = match_call(e, fns, (size_t)n_fns, ca.n, ca.a + 1, call->range, &inputs,
                                &n_inputs);
    if (!fn)
        return -1;
    TsIrValue *v = ts_inline_function(e->g, lib, fn, inputs, e->err);
    free(inputs);
    return value_of(out, v);
}

static int call_function(TsEmitter *e, TsDefInfo *d, TsIrValue *self, const TsTree *call,
                         const CallArgs *pre, TsSourceRange r, TsSugared *out)
{
    if (d->is_ignored)
        return ts_emit_error(e, r, "function %s is @torch.jit.ignore'd: there is no Python "
                             "to call in TorchScript", d->qualname);
    TsFunction *fns[MAX_OVERLOADS];
    int n_fns = ts_compiler_callees(e->c, d, r, fns, MAX_OVERLOADS, e->err);
    if (n_fns < 0)
        return -1;
    CallArgs ca;
    if (pre)
        ca = *pre;
    else if (emit_args(e, call, n_fns == 1 ? fns[0]->schema : NULL, self ? 1 : 0, &ca) != 0)
        return -1;
    TsNamedValue *args = ca.a + 1;
    size_t n = ca.n;
    if (self) {
        ca.a[0] = (TsNamedValue){ NULL, self, r };
        args = ca.a;
        n++;
    }
    TsIrValue **inputs = NULL;
    size_t n_inputs = 0;
    TsFunction *fn = match_call(e, fns, (size_t)n_fns, n, args, r, &inputs, &n_inputs);
    if (!fn)
        return -1;
    TsNode *node = ts_emit_node(e, self ? "prim::CallMethod" : "prim::CallFunction", n_inputs,
                                inputs, 1, r);
    free(inputs);
    if (!node || ts_node_set_str(node, ts_symbol("attr::name"), self ? fn->name : fn->qualname,
                                 e->err) != 0)
        return -1;
    node->outputs[0]->type = fn->schema->returns[0].type;
    return value_of(out, node->outputs[0]);
}

int ts_sugar_call_method(TsEmitter *e, TsIrValue *self, const char *name, size_t n,
                         const TsNamedValue *args, TsSourceRange r, TsSugared *out)
{
    if (n > MAX_ARGS)
        return ts_emit_error(e, r, "too many arguments");
    CallArgs ca = { .n = n };
    if (n)
        memcpy(ca.a + 1, args, n * sizeof *args);
    if (ts_is_object_type(self->type) || ts_type_kind(self->type) == TS_TYPE_INTERFACE) {
        TsClassInfo *ci = ts_compiler_class_of_type(e->c, self->type);
        TsDefInfo *d = ci ? ts_class_method(ci, name) : NULL;
        if (!d) {   /* a class's missing method is PyTorch's missing attribute */
            char b[256];
            return ts_emit_error(e, r, "'%s' object has no attribute or method '%s'%s",
                                 describe(self->type, b, sizeof b), name,
                                 ts_is_object_type(self->type) ? ". Did you forget to "
                                 "initialize an attribute in __init__()?" : "");
        }
        return call_function(e, d, self, NULL, &ca, r, out);
    }
    char op[256];
    snprintf(op, sizeof op, "aten::%s", name);
    ca.a[0] = (TsNamedValue){ NULL, self, r };
    return value_of(out, ts_emit_op(e, op, n + 1, ca.a, r));
}

/* A named tuple's construction that does not match its fields: PyTorch's schema error under
 * the tuple's signature, NAME(int a, str b="d") -> (). */
static int namedtuple_error(TsEmitter *e, const TsClassInfo *ci, TsSourceRange r,
                            const char *why)
{
    char sig[1024];
    size_t len = (size_t)snprintf(sig, sizeof sig, "%s(", ci->name);
    size_t nf = ts_type_num_fields(ci->type);
    for (size_t i = 0; i < nf && len < sizeof sig; i++) {
        const TsTypeField *f = ts_type_field(ci->type, i);
        const TsTree *d = ci->field_defaults ? ci->field_defaults[i] : NULL;
        char t[256];
        len += (size_t)snprintf(sig + len, sizeof sig - len, "%s%s %s", i ? ", " : "",
                                ts_type_text(f->type, t, sizeof t), f->name);
        if (d && len < sizeof sig && d->kind == TS_TREE_STRING)
            len += (size_t)snprintf(sig + len, sizeof sig - len, "=\"%.*s\"", (int)d->len,
                                    d->str);
        else if (d && len < sizeof sig)   /* a constant: as the file writes it */
            len += (size_t)snprintf(sig + len, sizeof sig - len, "=%.*s",
                                    (int)(d->range.end - d->range.start),
                                    d->range.source->text + d->range.start);
    }
    if (len < sizeof sig)
        snprintf(sig + len, sizeof sig - len, ") -> ()");
    return ts_emit_error(e, r, "\n%s:\n%s\n", sig, why);
}

static int construct(TsEmitter *e, TsClassInfo *ci, const TsTree *call, TsSugared *out)
{
    TsSourceRange r = call->range;
    if (ci->kind == TS_CLASS_NAMEDTUPLE) {
        size_t nf = ts_type_num_fields(ci->type);
        if (nf > MAX_ARGS)
            return ts_emit_error(e, r, "too many fields");
        /* the fields as a schema, so that arguments are emitted expecting their types
         * ([] for a List[int] field is a List[int]) */
        TsArg fa[MAX_ARGS];
        memset(fa, 0, sizeof fa);
        for (size_t i = 0; i < nf; i++) {
            fa[i].name = (char *)ts_type_field(ci->type, i)->name;
            fa[i].type = ts_type_field(ci->type, i)->type;
        }
        TsSchema fields = { .n_args = nf, .args = fa };
        CallArgs ca;
        if (emit_args(e, call, &fields, 0, &ca) != 0)
            return -1;
        /* PyTorch's schema matching: a field takes its positional argument, else its
         * keyword, else its default */
        TsIrValue *items[MAX_ARGS];
        char why[512] = "";
        size_t n_pos = 0;
        while (n_pos < ca.n && !ca.a[1 + n_pos].name)
            n_pos++;
        for (size_t i = 0; i < nf && !why[0]; i++) {
            const TsTypeField *f = ts_type_field(ci->type, i);
            items[i] = i < n_pos ? ca.a[1 + i].value : NULL;
            for (size_t j = n_pos; j < ca.n && i >= n_pos; j++)
                if (strcmp(ca.a[1 + j].name, f->name) == 0)
                    items[i] = ca.a[1 + j].value;
            if (!items[i] && ci->field_defaults && ci->field_defaults[i] &&
                !(items[i] = ts_emit_expr(e, ci->field_defaults[i], f->type)))
                return -1;
            char a[256], b[256];
            if (!items[i])
                snprintf(why, sizeof why, "Argument %s not provided.", f->name);
            else if (!ts_type_is_subtype_of(items[i]->type, f->type))
                snprintf(why, sizeof why, "Expected a value of type '%s' for argument '%s' but "
                         "instead found type '%s'.", ts_type_text(f->type, a, sizeof a),
                         f->name, ts_type_text(items[i]->type, b, sizeof b));
        }
        if (!why[0] && n_pos > nf)
            snprintf(why, sizeof why, "Expected at most %zu arguments but found %zu positional "
                     "arguments.", nf, n_pos);
        for (size_t j = n_pos; j < ca.n && !why[0]; j++) {
            long fi = ts_type_field_index(ci->type, ca.a[1 + j].name);
            if (fi < 0 || (size_t)fi < n_pos)
                snprintf(why, sizeof why, "Keyword argument %s %s.", ca.a[1 + j].name,
                         fi < 0 ? "unknown" : "specified twice");
        }
        if (why[0])
            return namedtuple_error(e, ci, r, why);
        TsNode *n = ts_emit_node(e, "prim::TupleConstruct", nf, items, 1, r);
        if (!n)
            return -1;
        n->outputs[0]->type = ci->type;
        return value_of(out, n->outputs[0]);
    }
    if (ci->kind == TS_CLASS_ENUM)
        return ts_emit_error(e, r, "cannot call a EnumClass");
    TsDefInfo *init = ts_class_method(ci, "__init__");
    /* a class of the file compiles its own methods only: none inherits an __init__ */
    if (!init && ci->kind == TS_CLASS_SCRIPT && !ci->qualname && !ci->is_module &&
        !is_exception_class(e->c, ci, 0))
        return ts_emit_error(e, r, "Class %s does not have an __init__ function defined",
                             ci->name);
    TsNode *obj = ts_emit_node(e, "prim::CreateObject", 0, NULL, 1, r);
    if (!obj)
        return -1;
    obj->outputs[0]->type = ci->type;
    if (init) {
        TsSugared ignored;
        if (call_function(e, init, obj->outputs[0], call, NULL, r, &ignored) != 0)
            return -1;
    }
    return value_of(out, obj->outputs[0]);
}

static int n_positional(const TsTree *call) { return (int)call->n_kids - 1; }

static int builtin_op(TsEmitter *e, const char *op, const TsTree *call, TsSugared *out)
{
    CallArgs ca;
    if (emit_args(e, call, NULL, 0, &ca) != 0)
        return -1;
    return value_of(out, ts_emit_op(e, op, ca.n, ca.a + 1, call->range));
}

/* len/int/float/bool/str: a magic method on classes, else the operator. */
static int conversion(TsEmitter *e, const char *op, const char *magic, const TsTree *call,
                      TsSugared *out)
{
    if (n_positional(call) == 1 && call->kids[1]->kind != TS_TREE_KWARG) {
        if (ts_sugar_reject_iterable(e, call->kids[1]) != 0)
            return -1;
        TsIrValue *v = ts_emit_expr(e, call->kids[1], NULL);
        if (!v)
            return -1;
        if (ts_is_object_type(v->type))
            return ts_sugar_call_method(e, v, magic, 0, NULL, call->range, out);
        /* int(3), float(x) of a float, ...: the value itself */
        const TsType *same = strcmp(op, "aten::Int") == 0 ? ts_type_int()
                             : strcmp(op, "aten::Float") == 0 ? ts_type_float()
                             : strcmp(op, "aten::Bool") == 0 ? ts_type_bool()
                             : strcmp(op, "aten::str") == 0 ? ts_type_str() : NULL;
        if (same && v->type == same)
            return value_of(out, v);
        /* bool() of a sequence or dict is whether it has elements: len(x) > 0 */
        TsTypeKind vk = ts_type_kind(v->type);
        if (strcmp(op, "aten::Bool") == 0 &&
            (vk == TS_TYPE_LIST || vk == TS_TYPE_STR || vk == TS_TYPE_DICT)) {
            TsIrValue *len = ts_emit_op2(e, "aten::len", v, NULL, call->range);
            TsIrValue *zero = len ? ts_emit_const(e, ts_int(0), call->range) : NULL;
            return value_of(out, zero ? ts_emit_op2(e, "aten::gt", len, zero, call->range)
                                      : NULL);
        }
        if (ts_type_kind(v->type) == TS_TYPE_TUPLE && strcmp(op, "aten::len") == 0)
            return value_of(out, ts_emit_const(e, ts_int((int64_t)ts_type_num_elems(v->type)),
                                               call->range));
        TsNamedValue a = { NULL, v, call->range };
        return value_of(out, ts_emit_op(e, op, 1, &a, call->range));
    }
    return builtin_op(e, op, call, out);
}

static int emit_print(TsEmitter *e, const TsTree *call, TsSugared *out)
{
    CallArgs ca;
    if (emit_args(e, call, NULL, 0, &ca) != 0)
        return -1;
    TsIrValue *in[MAX_ARGS];
    for (size_t i = 0; i < ca.n; i++) {
        if (ca.a[1 + i].name)
            return ts_emit_error(e, call->range, "print doesn't accept any keyword arguments");
        in[i] = ca.a[1 + i].value;
    }
    if (!ts_emit_node(e, "prim::Print", ca.n, in, 0, call->range))
        return -1;
    out->kind = TS_SV_NONE_TYPE;
    return 0;
}

static int emit_minmax(TsEmitter *e, const char *name, const TsTree *call, TsSugared *out)
{
    char op[32];
    snprintf(op, sizeof op, "prim::%s", name);
    CallArgs ca;
    if (emit_args(e, call, NULL, 0, &ca) != 0)
        return -1;
    if (ca.n >= 3) {
        TsIrValue *in[MAX_ARGS];
        const TsType *t = ca.a[1].value->type;
        for (size_t i = 0; i < ca.n; i++) {
            in[i] = ca.a[1 + i].value;
            if (ca.a[1 + i].name)
                return ts_emit_error(e, call->range, "Arguments for call are not valid.\n"
                                     "Keyword argument %s unknown.", ca.a[1 + i].name);
            if (in[i]->type != t)
                return ts_emit_error(e, call->range, "Arguments for call are not valid: "
                                     "%s() with more than two arguments needs them all of "
                                     "one type", name);
        }
        TsIrValue *l = ts_emit_list(e, t, ca.n, in, call->range);
        return value_of(out, l ? ts_emit_op2(e, op, l, NULL, call->range) : NULL);
    }
    /* prim's overloads only, tensors too: max(t, u) of 0-dim int tensors is an int (they
     * convert as an int argument does), as in PyTorch; torch.max is the tensor op */
    return value_of(out, ts_emit_op(e, op, ca.n, ca.a + 1, call->range));
}

static int emit_annotate(TsEmitter *e, const TsTree *call, TsSugared *out)
{
    if (call->n_kids != 3)
        return ts_emit_error(e, call->range, "torch.jit.annotate expects 2 arguments");
    const TsType *t = ts_emit_type(e, call->kids[1]);
    TsIrValue *v = t ? ts_emit_expr(e, call->kids[2], t) : NULL;
    if (!v)
        return -1;
    if (!ts_type_is_subtype_of(v->type, t)) {
        /* the conversions a call allows (a Tensor for an int: aten::IntImplicit), as
         * PyTorch's annotate converts: matched against the signature annotate(T x) -> T */
        TsArg arg = { .name = "x", .type = t };
        TsArg ret = { .type = t };
        TsSchema sig = { .name = "annotate", .overload = "", .n_args = 1, .args = &arg, .n_returns = 1,
                         .returns = &ret };
        TsNamedValue a = { NULL, v, call->kids[2]->range };
        TsIrValue **in = NULL;
        const TsType **rets = NULL;
        size_t n_in = 0;
        TsError ignore = TS_ERROR_INIT;
        if (ts_match_schema(e->g, &sig, 1, &a, &in, &n_in, &rets, &ignore) == 0 && n_in == 1)
            v = in[0];
        ts_error_clear(&ignore);
        free(in);
        free(rets);
    }
    if (!ts_type_is_subtype_of(v->type, t)) {
        char a[256], b[256];
        return ts_emit_error(e, call->kids[2]->range, "expected an expression of type %s but "
                             "found %s", ts_type_text(t, a, sizeof a),
                             ts_type_text(v->type, b, sizeof b));
    }
    if (v->type != t && ts_type_kind(v->type) == TS_TYPE_NONE) {
        TsNode *n = ts_emit_node(e, "prim::Constant", 0, NULL, 1, call->range);
        if (!n)
            return -1;
        n->outputs[0]->type = t;
        v = n->outputs[0];
    }
    return value_of(out, v);
}

/* prim::fork of subgraph sub (taken, freed on failure) with the n inputs, its future of
 * ret the value of out. */
static int fork_node(TsEmitter *e, TsGraph *sub, size_t n, TsIrValue *const *inputs,
                     const TsType *ret, TsSourceRange r, TsSugared *out)
{
    TsNode *fk = ts_emit_node(e, "prim::fork", n, (TsIrValue **)inputs, 1, r);
    if (!fk) {
        ts_graph_free(sub);
        return -1;
    }
    fk->outputs[0]->type = ts_type_future(ret);
    if (ts_node_set_graph(fk, ts_symbol("attr::Subgraph"), sub, e->err) != 0)
        return -1;
    return value_of(out, fk->outputs[0]);
}

/* torch.jit.fork(torch.add, a, b): the subgraph runs the operator, matched by schema
 * against the arguments' types as a direct call would be. */
/* The arguments of fork after the callee: names and ranges in args, values in outer. */
static int fork_args(TsEmitter *e, const TsTree *call, TsNamedValue *args, TsIrValue **outer,
                     size_t max, size_t *n)
{
    *n = call->n_kids - 2;
    if (*n > max)
        return ts_emit_error(e, call->range, "too many arguments");
    for (size_t i = 0; i < *n; i++) {
        const TsTree *k = call->kids[2 + i];
        args[i].name = k->kind == TS_TREE_KWARG ? ts_symbol(k->str) : NULL;
        args[i].range = k->range;
        if (k->kind == TS_TREE_KWARG && !k->str)
            return ts_emit_error(e, k->range, "**kwargs are not supported");
        if (!(outer[i] = ts_emit_expr(e, k->kind == TS_TREE_KWARG ? k->kids[0] : k, NULL)))
            return -1;
    }
    return 0;
}

static int emit_fork_op(TsEmitter *e, const char *op, const TsTree *call, TsSugared *out)
{
    TsSourceRange r = call->range;
    size_t n;
    TsNamedValue args[MAX_ARGS];
    TsIrValue *outer[MAX_ARGS];
    if (fork_args(e, call, args, outer, MAX_ARGS, &n) != 0)
        return -1;
    TsGraph *sub = ts_graph_new(e->err);
    if (!sub)
        return -1;
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++)
        rc = (args[i].value = ts_graph_add_input(sub, NULL, outer[i]->type, e->err)) ? 0 : -1;
    TsGraph *g = e->g;
    TsNode *at = ts_graph_insert_point(g);
    TsIrValue *res = NULL;
    if (rc == 0) {
        e->g = sub;
        res = ts_emit_op(e, op, n, args, r);
        e->g = g;
        ts_graph_set_insert_point(g, at);
    }
    if (!res || ts_graph_add_output(sub, res, e->err) != 0) {
        ts_graph_free(sub);
        return -1;
    }
    return fork_node(e, sub, n, outer, res->type, r, out);
}

static int fork_call(TsEmitter *e, TsFunction *f, TsIrValue *const *args, size_t n,
                     TsSourceRange r, TsSugared *out);

/* fork(f) of an archive's closure f: prim::fork of the closure's graph, whose inputs are
 * the values it reads from the enclosing scope. */
static int fork_closure(TsEmitter *e, const TsTree *def, TsSourceRange r, TsSugared *out)
{
    TsIrValue *captured[MAX_ARGS];
    size_t n;
    const TsType *ret;
    TsNode *at = ts_graph_insert_point(e->g);
    TsGraph *sub = ts_emit_closure(e, def, captured, MAX_ARGS, &n, &ret);
    ts_graph_set_insert_point(e->g, at);
    return sub ? fork_node(e, sub, n, captured, ret, r, out) : -1;
}

/* torch.jit.fork(obj.method, args...): prim::fork of a subgraph whose inputs are the
 * object and the arguments, calling the method. */
static int fork_method(TsEmitter *e, TsIrValue *self, const char *name, const TsTree *call,
                       TsSugared *out)
{
    TsSourceRange r = call->range;
    size_t n;
    TsNamedValue args[MAX_ARGS];
    TsIrValue *outer[MAX_ARGS];
    outer[0] = self;
    if (fork_args(e, call, args, outer + 1, MAX_ARGS - 1, &n) != 0)
        return -1;
    TsGraph *sub = ts_graph_new(e->err);
    if (!sub)
        return -1;
    TsIrValue *in_self = ts_graph_add_input(sub, NULL, self->type, e->err);
    int rc = in_self ? 0 : -1;
    for (size_t i = 0; i < n && rc == 0; i++)
        rc = (args[i].value = ts_graph_add_input(sub, NULL, outer[1 + i]->type, e->err)) ? 0
                                                                                        : -1;
    TsGraph *g = e->g;
    TsNode *at = ts_graph_insert_point(g);
    TsSugared res = { 0 };
    if (rc == 0) {
        e->g = sub;
        rc = ts_sugar_call_method(e, in_self, name, n, args, r, &res);
        e->g = g;
        ts_graph_set_insert_point(g, at);
    }
    TsIrValue *v = rc == 0 && res.kind == TS_SV_VALUE ? res.value : NULL;
    if (rc == 0 && !v)
        ts_emit_error(e, r, "fork expects a method that returns a value");
    if (!v || ts_graph_add_output(sub, v, e->err) != 0) {
        ts_graph_free(sub);
        return -1;
    }
    return fork_node(e, sub, n + 1, outer, v->type, r, out);
}

/* torch.jit.fork(fn, args...): prim::fork with a subgraph calling fn. */
static int emit_fork(TsEmitter *e, const TsTree *call, TsSugared *out)
{
    if (call->n_kids < 2)
        return ts_emit_error(e, call->range, "fork expects a function");
    TsSugared fn;
    if (ts_emit_sugared(e, call->kids[1], NULL, &fn) != 0)
        return -1;
    if (fn.kind == TS_SV_BUILTIN && strstr(fn.name, "::"))
        return emit_fork_op(e, fn.name, call, out);
    if (fn.kind == TS_SV_CLOSURE && call->n_kids == 2)
        return fork_closure(e, fn.tree, call->range, out);
    if (fn.kind == TS_SV_METHOD && ts_is_object_type(fn.value->type))
        return fork_method(e, fn.value, fn.name, call, out);
    if (fn.kind != TS_SV_FUNCTION)
        return ts_emit_error(e, call->kids[1]->range, "fork expects a function of the file "
                             "or an operator");
    TsFunction *f = ts_compiler_function(e->c, fn.def, call->range, e->err);
    if (!f)
        return -1;
    TsNamedValue named[MAX_ARGS];
    TsIrValue *values[MAX_ARGS];
    size_t n_named;
    if (fork_args(e, call, named, values, MAX_ARGS, &n_named) != 0)
        return -1;
    for (size_t i = 0; i < n_named; i++)
        named[i].value = values[i];
    /* the arguments bind to the function's parameters as in a call: keywords, defaults */
    TsIrValue **args = NULL;
    const TsType **rets = NULL;
    size_t n = 0;
    if (ts_match_schema(e->g, f->schema, n_named, named, &args, &n, &rets, e->err) != 0) {
        char *msg = e->err->msg ? strdup(e->err->msg) : NULL;
        ts_error_clear(e->err);
        ts_error_at(e->err, TS_ERR_RUNTIME, call->range, "%s", msg ? msg : "invalid arguments");
        free(msg);
        return -1;
    }
    free(rets);
    int made = fork_call(e, f, args, n, call->range, out);
    free(args);
    return made;
}

/* prim::fork of a subgraph that calls f with the n matched arguments. */
static int fork_call(TsEmitter *e, TsFunction *f, TsIrValue *const *args, size_t n,
                     TsSourceRange r, TsSugared *out)
{
    if (n > MAX_ARGS)
        return ts_emit_error(e, r, "too many arguments");
    TsGraph *sub = ts_graph_new(e->err);
    if (!sub)
        return -1;
    TsIrValue *sin[MAX_ARGS];
    TsNode *c = NULL;
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++)
        rc = (sin[i] = ts_graph_add_input(sub, NULL, args[i]->type, e->err)) ? 0 : -1;
    if (rc == 0 && (c = ts_graph_create(sub, ts_symbol("prim::CallFunction"), 1, e->err))) {
        for (size_t i = 0; i < n && rc == 0; i++)
            rc = ts_node_add_input(c, sin[i], e->err);
        c->outputs[0]->type = f->schema->returns[0].type;
        ts_graph_insert(sub, c);
        if (rc == 0)
            rc = ts_node_set_str(c, ts_symbol("attr::name"), f->qualname, e->err);
        if (rc == 0)
            rc = ts_graph_add_output(sub, c->outputs[0], e->err);
    } else {
        rc = -1;
    }
    if (rc != 0) {
        ts_graph_free(sub);
        return -1;
    }
    return fork_node(e, sub, n, args, f->schema->returns[0].type, r, out);
}

/* torch.jit.wait(fut): the interpreter runs aten::wait itself (it may suspend), so the node
 * is built here rather than matched against a schema. */
static int emit_wait(TsEmitter *e, const TsTree *call, TsSugared *out)
{
    if (n_positional(call) != 1 || call->kids[1]->kind == TS_TREE_KWARG)
        return ts_emit_error(e, call->range, "torch.jit.wait expects one Future");
    TsIrValue *f = ts_emit_expr(e, call->kids[1], NULL);
    if (!f)
        return -1;
    if (ts_type_kind(f->type) != TS_TYPE_FUTURE) {
        char b[256];
        return ts_emit_error(e, call->range, "torch.jit.wait expects a Future but found %s",
                             ts_type_text(f->type, b, sizeof b));
    }
    TsNode *n = ts_emit_node(e, "aten::wait", 1, &f, 1, call->range);
    if (!n)
        return -1;
    n->outputs[0]->type = ts_type_elem(f->type, 0);
    return value_of(out, n->outputs[0]);
}

/* torch.jit._unwrap_optional(x): x with the None case raising
 *     if x is None: raise RuntimeError("Unwrapping null optional")
 * then x refined to its element type. */
static int emit_unwrap_optional(TsEmitter *e, const TsTree *call, TsSugared *out)
{
    TsSourceRange r = call->range;
    if (n_positional(call) != 1 || call->kids[1]->kind == TS_TREE_KWARG)
        return ts_emit_error(e, r, "torch.jit._unwrap_optional expects one argument");
    TsIrValue *v = ts_emit_expr(e, call->kids[1], NULL);
    if (!v)
        return -1;
    if (ts_type_kind(v->type) == TS_TYPE_NONE)
        return ts_emit_error(e, r, "Unwrapping null optional: the argument is always None");
    if (ts_type_kind(v->type) != TS_TYPE_OPTIONAL)
        return value_of(out, v);
    TsIrValue *none = ts_emit_const(e, ts_none(), r);
    TsIrValue *in[2] = { v, none };
    TsNode *is = none ? ts_emit_node(e, "aten::__is__", 2, in, 1, r) : NULL;
    if (!is)
        return -1;
    is->outputs[0]->type = ts_type_bool();
    TsNode *n = ts_emit_node(e, "prim::If", 1, is->outputs, 0, r);
    TsBlock *tb = n ? ts_node_add_block(n, e->err) : NULL;
    TsBlock *fb = tb ? ts_node_add_block(n, e->err) : NULL;
    if (!fb)
        return -1;
    ts_graph_set_insert_end(e->g, tb);
    TsIrValue *msg = ts_emit_str_const(e, "Unwrapping null optional", r);
    int rc = msg && ts_emit_node(e, "prim::RaiseException", 1, &msg, 0, r) ? 0 : -1;
    ts_graph_set_insert_point(e->g, n->next);
    if (rc != 0 || ts_env_mark_exit(e, tb) != 0)
        return -1;
    return value_of(out, ts_emit_unchecked_cast(e, v, ts_type_elem(v->type, 0)));
}

/* getattr(obj, "name"[, default]) and hasattr(obj, "name"), decided at compile time. */
static int emit_getattr(TsEmitter *e, const char *name, const TsTree *call, TsSugared *out)
{
    TsSourceRange r = call->range;
    size_t max = name[0] == 'g' ? 4 : 3;
    if (call->n_kids < 3 || call->n_kids > max || call->kids[2]->kind != TS_TREE_STRING)
        return ts_emit_error(e, r, "%s's second argument must be a string literal", name);
    TsSugared base;
    if (ts_emit_sugared(e, call->kids[1], NULL, &base) != 0)
        return -1;
    const char *attr = call->kids[2]->str;
    bool has = true;
    if (base.kind == TS_SV_VALUE && ts_is_object_type(base.value->type))
        has = ts_type_field_index(base.value->type, attr) >= 0 ||
              ts_class_method(ts_compiler_class_of_type(e->c, base.value->type), attr);
    else if (name[0] == 'h' && base.kind == TS_SV_VALUE) {   /* hasattr(3, "real") */
        char t[256];
        if (ts_type_name(base.value->type))
            snprintf(t, sizeof t, "%s", ts_type_name(base.value->type));
        else
            ts_type_annotation(base.value->type, t, sizeof t);
        return ts_emit_error(e, r, "hasattr's first argument must be an object, got %s "
                             "instead", t);
    } else if (base.kind == TS_SV_VALUE && ts_type_name(base.value->type))
        has = ts_type_field_index(base.value->type, attr) >= 0;
    if (name[0] == 'h')
        return value_of(out, ts_emit_const(e, ts_bool(has), r));
    if (!has && call->n_kids == 4)
        return ts_emit_sugared(e, call->kids[3], NULL, out);
    return ts_sugar_attr(e, &base, attr, r, out);
}

/* range(), zip() and enumerate() outside a for loop's header are lists of what the loop
 * would produce: the call is emitted as the comprehension [$x for $x in CALL]. */
static int emit_iter_list(TsEmitter *e, const TsTree *call, TsSugared *out)
{
    TsSourceRange r = call->range;
    TsTree *comp = ts_tree_new(TS_TREE_LIST_COMP, r), *elt = ts_tree_new(TS_TREE_NAME, r);
    TsTree *cf = ts_tree_new(TS_TREE_COMP_FOR, r), *target = ts_tree_new(TS_TREE_NAME, r);
    TsTree *header = cf;
    bool ok = comp && elt && cf && target && ts_tree_set_str(elt, "$x", 2) == 0 &&
              ts_tree_set_str(target, "$x", 2) == 0 && ts_tree_add(cf, target) == 0;
    if (ok)
        target = NULL;
    bool borrowed = ok && ts_tree_add(cf, (TsTree *)call) == 0;
    ok = borrowed && ts_tree_add(comp, elt) == 0;
    if (ok)
        elt = NULL;
    ok = ok && ts_tree_add(comp, cf) == 0;
    if (ok)
        cf = NULL;
    int rc = ok ? ts_emit_sugared(e, comp, NULL, out)
                : ts_error_set(e->err, TS_ERR_NOMEM, "out of memory");
    if (borrowed)
        header->kids[1] = NULL;   /* the call belongs to the caller's tree */
    ts_tree_free(target);
    ts_tree_free(elt);
    ts_tree_free(cf);
    ts_tree_free(comp);
    return rc;
}

/* tuple(x): only of a tuple, which it is; a list's length is not known statically. */
static int emit_tuple_call(TsEmitter *e, const TsTree *call, TsSugared *out)
{
    if (call->n_kids != 2 || call->kids[1]->kind == TS_TREE_KWARG)
        return ts_emit_error(e, call->range, "tuple expected exactly 1 arguments but found %zu",
                             call->n_kids - 1);
    TsIrValue *v = ts_emit_expr(e, call->kids[1], NULL);
    if (!v)
        return -1;
    TsTypeKind k = ts_type_kind(v->type);
    if (k == TS_TYPE_TUPLE)
        return value_of(out, v);
    if (k == TS_TYPE_LIST)
        return ts_emit_error(e, call->range, "cannot statically infer the expected size of a "
                             "list in this context");
    char b[256];
    return ts_emit_error(e, call->kids[1]->range, "%s cannot be used as a tuple",
                         ts_type_text(v->type, b, sizeof b));
}

/* dict(a=1, b=2) is the literal {"a": 1, "b": 2}. */
static int emit_dict_kwargs(TsEmitter *e, const TsTree *call, const TsType *expected,
                            TsSugared *out)
{
    TsTree *lit = ts_tree_new(TS_TREE_DICT, call->range);
    int rc = lit ? 0 : ts_error_set(e->err, TS_ERR_NOMEM, "out of memory");
    size_t borrowed = 0;
    for (size_t i = 1; rc == 0 && i < call->n_kids; i++) {
        const TsTree *k = call->kids[i];
        if (k->kind != TS_TREE_KWARG || !k->str) {
            rc = ts_emit_error(e, k->range, "dict() takes either keyword arguments or one "
                               "positional argument");
            break;
        }
        TsTree *key = ts_tree_new(TS_TREE_STRING, k->range);
        if (!key || ts_tree_set_str(key, k->str, strlen(k->str)) != 0 ||
            ts_tree_add(lit, key) != 0) {
            ts_tree_free(key);
            rc = ts_error_set(e->err, TS_ERR_NOMEM, "out of memory");
        } else if (ts_tree_add(lit, k->kids[0]) != 0) {
            rc = ts_error_set(e->err, TS_ERR_NOMEM, "out of memory");
        } else {
            borrowed++;   /* the value is the caller's: detached below */
        }
    }
    if (rc == 0)
        rc = ts_emit_sugared(e, lit, expected, out);
    for (size_t i = 0; lit && i < borrowed; i++)
        lit->kids[2 * i + 1] = NULL;
    ts_tree_free(lit);
    return rc;
}

/* Operators the interpreter runs itself, with no schema in the table, called by name as an
 * archive's code does: torch.__is__(a, b), ops.prim.RaiseException(msg, cls). A raise
 * leaves its block, as the raise statement does. */
static int emit_interpreter_op(TsEmitter *e, const char *name, const TsTree *call,
                               TsSugared *out)
{
    bool raise = strcmp(name, "prim::RaiseException") == 0;
    CallArgs ca;
    if (emit_args(e, call, NULL, 0, &ca) != 0)
        return -1;
    TsIrValue *in[2];
    bool ok = raise ? ca.n == 1 || ca.n == 2 : ca.n == 2;
    for (size_t i = 0; ok && i < ca.n; i++) {
        in[i] = ca.a[1 + i].value;
        ok = !ca.a[1 + i].name &&
             (!raise || ts_type_kind(in[i]->type) == TS_TYPE_STR ||
              (i == 1 && ts_type_kind(in[i]->type) == TS_TYPE_NONE));
    }
    if (!ok)
        return ts_emit_error(e, call->range, "%s expects %s", name,
                             raise ? "a message and an exception class name" : "two values");
    TsNode *n = ts_emit_node(e, name, ca.n, in, raise ? 0 : 1, call->range);
    if (!n)
        return -1;
    if (raise) {
        out->kind = TS_SV_NONE_TYPE;
        return ts_env_mark_exit(e, e->env->block);
    }
    n->outputs[0]->type = ts_type_bool();
    return value_of(out, n->outputs[0]);
}

/* A call of a Python builtin class (set, reversed, ...): PyTorch would call Python with the
 * signature it gives an uninspectable callable, NAME(Tensor 0, Tensor 1, ...) -> Tensor 0, so
 * an argument that is not a Tensor is its schema error. Tensors alone would run Python,
 * which TorchScript without Python cannot. */
static int python_class_call(TsEmitter *e, const char *name, const TsTree *call)
{
    CallArgs ca;
    if (emit_args(e, call, NULL, 0, &ca) != 0)
        return -1;
    char sig[512];
    size_t len = (size_t)snprintf(sig, sizeof sig, "%s(", name), n_pos = 0;
    for (size_t i = 0; i < ca.n && len < sizeof sig; i++)
        if (!ca.a[1 + i].name)
            len += (size_t)snprintf(sig + len, sizeof sig - len, "%sTensor %zu",
                                    n_pos ? ", " : "", n_pos), n_pos++;
    if (len < sizeof sig)
        snprintf(sig + len, sizeof sig - len, ") -> Tensor 0");
    char why[512] = "";
    for (size_t i = 0, k = 0; i < ca.n && !why[0]; i++) {
        char b[256];
        if (ca.a[1 + i].name)
            continue;
        if (ts_type_kind(ca.a[1 + i].value->type) != TS_TYPE_TENSOR)
            snprintf(why, sizeof why, "Expected a value of type 'Tensor' for argument '%zu' "
                     "but instead found type '%s'.", k,
                     ts_type_text(ca.a[1 + i].value->type, b, sizeof b));
        k++;
    }
    for (size_t i = 0; i < ca.n && !why[0]; i++)
        if (ca.a[1 + i].name)
            snprintf(why, sizeof why, "Keyword argument %s unknown.", ca.a[1 + i].name);
    if (why[0])
        return ts_emit_error(e, call->range, "\n%s:\n%s\n", sig, why);
    return ts_emit_error(e, call->range, "Python builtin <class '%s'> is currently not "
                         "supported in Torchscript", name);
}

static int emit_builtin(TsEmitter *e, const char *name, const TsTree *call,
                        const TsType *expected, TsSugared *out)
{
    TsSourceRange r = call->range;
    if (strncmp(name, "python:", 7) == 0)
        return python_class_call(e, name + 7, call);
    if (strcmp(name, "print") == 0)
        return emit_print(e, call, out);
    if (strcmp(name, "len") == 0)
        return conversion(e, "aten::len", "__len__", call, out);
    if (strcmp(name, "int") == 0 || strcmp(name, "float") == 0 || strcmp(name, "bool") == 0) {
        char op[32], magic[32];   /* int() without an argument is no overload's, as in PyTorch */
        snprintf(op, sizeof op, "aten::%c%s", name[0] - 32, name + 1);
        snprintf(magic, sizeof magic, "__%s__", name);
        return conversion(e, op, magic, call, out);
    }
    if (strcmp(name, "str") == 0)
        return conversion(e, "aten::str", "__str__", call, out);
    if (strcmp(name, "complex") == 0)
        return builtin_op(e, "aten::Complex", call, out);
    if (strcmp(name, "min") == 0 || strcmp(name, "max") == 0)
        return emit_minmax(e, name, call, out);
    if (strcmp(name, "abs") == 0) {
        if (call->n_kids != 2 || call->kids[1]->kind == TS_TREE_KWARG)   /* no overload fits */
            return builtin_op(e, "prim::abs", call, out);
        TsIrValue *v = ts_emit_expr(e, call->kids[1], NULL);
        if (!v)
            return -1;
        return value_of(out, ts_emit_op2(e, ts_type_kind(v->type) == TS_TYPE_TENSOR
                                         ? "aten::abs" : "prim::abs", v, NULL, r));
    }
    if (strcmp(name, "isinstance") == 0 || strcmp(name, "torch.jit.isinstance") == 0) {
        TsCond c;
        return value_of(out, ts_emit_cond(e, call, &c) == 0 ? c.value : NULL);
    }
    if (strcmp(name, "torch.jit.is_scripting") == 0 || strcmp(name, "torch.is_scripting") == 0)
        return value_of(out, ts_emit_const(e, ts_bool(true), r));
    if (strcmp(name, "torch.jit.annotate") == 0)
        return emit_annotate(e, call, out);
    if (strcmp(name, "torch.jit.fork") == 0)
        return emit_fork(e, call, out);
    if (strcmp(name, "torch.jit.wait") == 0 || strcmp(name, "aten::wait") == 0)
        return emit_wait(e, call, out);   /* the printer writes torch.wait(fut) */
    if (strcmp(name, "torch.jit._unwrap_optional") == 0 ||
        strcmp(name, "aten::_unwrap_optional") == 0)   /* the printer writes torch._unwrap_optional */
        return emit_unwrap_optional(e, call, out);
    if (strcmp(name, "torch.device") == 0)
        return builtin_op(e, "aten::device", call, out);
    if (strcmp(name, "torch.no_grad") == 0 || strcmp(name, "torch.autograd.no_grad") == 0) {
        /* a grad-mode guard: an object of the language's own class, as in PyTorch */
        TsClassInfo *ng = ts_import_class(e->c, "__torch__.torch.autograd.grad_mode.no_grad",
                                          r, e->err);
        if (!ng)
            return e->err->code ? -1 : ts_emit_error(e, r, "torch.no_grad is not available");
        return construct(e, ng, call, out);
    }
    if (strcmp(name, "dict") == 0 && call->n_kids > 1 && call->kids[1]->kind == TS_TREE_KWARG)
        return emit_dict_kwargs(e, call, expected, out);
    if (strcmp(name, "dict") == 0 && call->n_kids == 1) {
        const TsType *t = expected && ts_type_kind(expected) == TS_TYPE_DICT
                              ? expected : ts_type_dict(ts_type_str(), ts_type_tensor());
        TsNode *n = ts_emit_node(e, "prim::DictConstruct", 0, NULL, 1, r);
        if (!n)
            return -1;
        n->outputs[0]->type = t;
        return value_of(out, n->outputs[0]);
    }
    if (strcmp(name, "list") == 0 && call->n_kids == 1)
        return value_of(out, ts_emit_list(e, expected && ts_type_kind(expected) == TS_TYPE_LIST
                                              ? ts_type_elem(expected, 0) : ts_type_tensor(),
                                          0, NULL, r));
    if (strcmp(name, "list") == 0 && call->n_kids == 2 && call->kids[1]->kind != TS_TREE_KWARG) {
        /* list(d) of a dict is its keys (a new list), as iterating a dict gives its keys */
        TsIrValue *d = ts_emit_expr(e, call->kids[1], NULL);
        if (!d)
            return -1;
        if (ts_type_kind(d->type) == TS_TYPE_DICT)
            return value_of(out, ts_emit_op2(e, "aten::keys", d, NULL, r));
        /* list(t) of a tensor is its rows, as iterating it gives them */
        if (ts_type_kind(d->type) == TS_TYPE_TENSOR)
            return value_of(out, ts_emit_op2(e, "aten::unbind", d, NULL, r));
        TsNamedValue a = { NULL, d, call->kids[1]->range };
        return value_of(out, ts_emit_op(e, "aten::list", 1, &a, r));
    }
    if (strcmp(name, "tuple") == 0)
        return emit_tuple_call(e, call, out);
    if (strcmp(name, "getattr") == 0 || strcmp(name, "hasattr") == 0)
        return emit_getattr(e, name, call, out);
    if (strcmp(name, "range") == 0 || strcmp(name, "enumerate") == 0 ||
        strcmp(name, "zip") == 0)
        return emit_iter_list(e, call, out);
    if (strcmp(name, "super") == 0) {
        /* PyTorch calls Python's super() at run time, where it has no arguments to find
         * the class by, and types its result Tensor: super().__init__() does not compile */
        TsIrValue *msg = ts_emit_str_const(e, "super(): no arguments", r);
        TsIrValue *in[2] = { msg, msg ? ts_emit_const(e, ts_none(), r) : NULL };
        TsNode *u = in[1] && ts_emit_node(e, "prim::RaiseException", 2, in, 0, r)
                        ? ts_emit_node(e, "prim::Uninitialized", 0, NULL, 1, r) : NULL;
        if (!u)
            return -1;
        u->outputs[0]->type = ts_type_tensor();
        return value_of(out, u->outputs[0]);
    }
    if (strncmp(name, "torch.", 6) == 0 && ts_library_defines(e->c->ops, name, NULL, e->err) != 0)
        return e->err->code ? -1 : call_library(e, name, call, out);
    if (strcmp(name, "aten::__is__") == 0 || strcmp(name, "aten::__isnot__") == 0 ||
        strcmp(name, "prim::RaiseException") == 0)
        return emit_interpreter_op(e, name, call, out);
    if (strncmp(name, "torch.", 6) == 0 || strchr(name, '.'))
        return ts_emit_error(e, r, "%s is not supported in TorchScript", name);
    char op[256];
    snprintf(op, sizeof op, strstr(name, "::") ? "%s" : "aten::%s", name);
    return builtin_op(e, op, call, out);
}

/* t.float(), t.long(), ...: aten::to(t, dtype), as PyTorch lowers them. */
static int emit_tensor_cast(TsEmitter *e, TsIrValue *t, const char *name, const TsTree *call,
                            TsSugared *out)
{
    TsSourceRange r = call->range;
    if (call->n_kids != 1)
        return ts_emit_error(e, r, "Tensor.%s() takes no arguments here", name);
    TsIrValue *dt = ts_emit_const(e, ts_int(cast_dtype(name)), r);
    TsNamedValue a[2] = { { NULL, t, r }, { NULL, dt, r } };
    return value_of(out, dt ? ts_emit_op(e, "aten::to", 2, a, r) : NULL);
}

/* t.tolist() needs its result type from the context (an annotated target, a declared
 * return, torch.jit.annotate): prim::tolist(t, depth, elem) with elem 0 int, 1 float,
 * 2 bool, as PyTorch encodes it. */
static int emit_tolist(TsEmitter *e, TsIrValue *t, const TsTree *call, const TsType *expected,
                       TsSugared *out)
{
    TsSourceRange r = call->range;
    if (call->n_kids != 1)
        return ts_emit_error(e, r, "tolist() takes no arguments");
    int64_t depth = 0;
    const TsType *leaf = expected;
    while (ts_type_kind(leaf) == TS_TYPE_LIST) {
        leaf = ts_type_elem(leaf, 0);
        depth++;
    }
    int64_t elem = ts_type_kind(leaf) == TS_TYPE_INT ? 0 : ts_type_kind(leaf) == TS_TYPE_FLOAT
                   ? 1 : ts_type_kind(leaf) == TS_TYPE_BOOL ? 2 : -1;
    if (elem < 0)            /* a bare int/float/bool is a 0-dim tensor's item */
        return ts_emit_error(e, r, "Expected type hint for result of tolist(): a List of "
                             "int, float or bool (nested once per dimension)");
    TsIrValue *in[3] = { t, ts_emit_const(e, ts_int(depth), r), NULL };
    in[2] = in[1] ? ts_emit_const(e, ts_int(elem), r) : NULL;
    TsNode *n = in[2] ? ts_emit_node(e, "prim::tolist", 3, in, 1, r) : NULL;
    if (!n)
        return -1;
    n->outputs[0]->type = expected;
    return value_of(out, n->outputs[0]);
}

/* The special forms of an archive's code (sugared.c's archive_name, class_attr):
 * unchecked_cast(T, v), uninitialized(T), Cls.__new__(Cls). */
/* torch.op of an older archive (see import.c's upgraders): the function of the variant
 * the arguments pick, called instead. */
static int emit_upgraded(TsEmitter *e, const char *op, const TsTree *call, TsSugared *out)
{
    CallArgs ca;
    if (emit_args(e, call, NULL, 0, &ca) != 0)
        return -1;
    /* only the tensor overloads changed: torch.div(float, int) is the scalar operator */
    bool div = strcmp(op, "div") == 0 || strcmp(op, "div_") == 0;
    if (div && (ca.n == 0 || ts_type_kind(ca.a[1].value->type) != TS_TYPE_TENSOR)) {
        char plain[64];
        snprintf(plain, sizeof plain, "aten::%s", op);
        return value_of(out, ts_emit_op(e, plain, ca.n, ca.a + 1, call->range));
    }
    char variant[64];
    bool with_out = false, scalar = ca.n > 1 && ca.a[2].name == NULL &&
                                    ts_type_kind(ca.a[2].value->type) != TS_TYPE_TENSOR;
    for (size_t i = 0; i < ca.n; i++)
        with_out = with_out || (ca.a[1 + i].name && strcmp(ca.a[1 + i].name, "out") == 0);
    if (div)
        snprintf(variant, sizeof variant, "%s_%s", op,
                 with_out ? "out" : scalar ? "Scalar" : "Tensor");
    else
        snprintf(variant, sizeof variant, "%s", op);
    TsDefInfo *d = with_out && strcmp(op, "div") != 0 ? NULL
                                                      : ts_import_upgrader(e->c, variant, e->err);
    if (!d)
        return e->err->code ? -1 : ts_emit_error(e, call->range, "torch.%s of an archive of "
                                                 "version %lld cannot be upgraded", op,
                                                 (long long)e->c->version);
    return call_function(e, d, NULL, call, &ca, call->range, out);
}

static int emit_archive_form(TsEmitter *e, const TsSugared *fn, const TsTree *call,
                             TsSugared *out)
{
    TsSourceRange r = call->range;
    if (strncmp(fn->name, "$upgrade:", 9) == 0)
        return emit_upgraded(e, fn->name + 9, call, out);
    if (strcmp(fn->name, "$new") == 0) {
        TsNode *obj = ts_emit_node(e, "prim::CreateObject", 0, NULL, 1, r);
        if (!obj)
            return -1;
        obj->outputs[0]->type = fn->cls->type;
        return value_of(out, obj->outputs[0]);
    }
    bool cast = strcmp(fn->name, "$unchecked_cast") == 0;
    if (call->n_kids != (cast ? 3u : 2u))
        return ts_emit_error(e, r, "%s expects %s", cast ? "unchecked_cast" : "uninitialized",
                             cast ? "a type and a value" : "a type");
    const TsType *t = ts_emit_type(e, call->kids[1]);
    if (!t)
        return -1;
    if (cast) {
        TsIrValue *v = ts_emit_expr(e, call->kids[2], t);
        return value_of(out, v ? ts_emit_unchecked_cast(e, v, t) : NULL);
    }
    TsNode *n = ts_emit_node(e, "prim::Uninitialized", 0, NULL, 1, r);
    if (!n)
        return -1;
    n->outputs[0]->type = t;
    return value_of(out, n->outputs[0]);
}

/* E(args): the exception with its message, as PyTorch makes it: none is "", one is the
 * argument as str() writes it, more are the tuple of them as str() writes it. */
static int exception_message(TsEmitter *e, const TsSugared *fn, const TsTree *call,
                             TsSugared *out)
{
    TsIrValue *items[MAX_ARGS];
    size_t n = call->n_kids - 1;
    if (n > MAX_ARGS)
        return ts_emit_error(e, call->range, "too many arguments");
    for (size_t i = 0; i < n; i++) {
        if (call->kids[i + 1]->kind == TS_TREE_KWARG)
            return ts_emit_error(e, call->kids[i + 1]->range, "Keyword argument %s unknown.",
                                 call->kids[i + 1]->str);
        if (!(items[i] = ts_emit_expr(e, call->kids[i + 1], NULL)))
            return -1;
    }
    TsIrValue *msg = n == 0 ? ts_emit_str_const(e, "", call->range)
                   : n == 1 ? items[0] : ts_emit_tuple(e, n, items, call->range);
    if (msg && ts_type_kind(msg->type) != TS_TYPE_STR)
        msg = ts_emit_op2(e, "aten::str", msg, NULL, call->range);
    if (!msg)
        return -1;
    *out = *fn;
    out->value = msg;
    return 0;
}

/* Cls.method(obj, args...): the method called on obj. */
static int call_unbound(TsEmitter *e, TsDefInfo *d, const TsTree *call, TsSugared *out)
{
    CallArgs ca;
    if (emit_args(e, call, NULL, 0, &ca) != 0)
        return -1;
    if (ca.n == 0 || ca.a[1].name || ca.a[1].value->type != d->cls->type)
        return ts_emit_error(e, call->range, "%s expects its object as the first argument",
                             d->qualname);
    TsIrValue *self = ca.a[1].value;
    memmove(ca.a + 1, ca.a + 2, (ca.n - 1) * sizeof ca.a[0]);
    ca.n--;
    return call_function(e, d, self, NULL, &ca, call->range, out);
}

int ts_sugar_call(TsEmitter *e, const TsSugared *fn, const TsTree *call, const TsType *expected,
                  TsSugared *out)
{
    memset(out, 0, sizeof *out);
    switch (fn->kind) {
    case TS_SV_BUILTIN:
        if (fn->name[0] == '$')
            return emit_archive_form(e, fn, call, out);
        return emit_builtin(e, fn->name, call, expected, out);
    case TS_SV_FUNCTION:
        if (fn->def->cls && !fn->def->is_static)
            return call_unbound(e, fn->def, call, out);
        return call_function(e, fn->def, NULL, call, NULL, call->range, out);
    case TS_SV_CLASS:
        return construct(e, fn->cls, call, out);
    case TS_SV_METHOD: {
        if (ts_is_object_type(fn->value->type) ||
            ts_type_kind(fn->value->type) == TS_TYPE_INTERFACE) {
            TsClassInfo *ci = ts_compiler_class_of_type(e->c, fn->value->type);
            return call_function(e, ts_class_method(ci, fn->name), fn->value, call, NULL,
                                 call->range, out);
        }
        if (strcmp(fn->name, "tolist") == 0 && ts_type_kind(fn->value->type) == TS_TYPE_TENSOR)
            return emit_tolist(e, fn->value, call, expected, out);
        if (cast_dtype(fn->name) >= 0 && ts_type_kind(fn->value->type) == TS_TYPE_TENSOR)
            return emit_tensor_cast(e, fn->value, fn->name, call, out);
        CallArgs ca;
        if (emit_args(e, call, NULL, 0, &ca) != 0)
            return -1;
        if (strcmp(fn->name, "__init__") == 0) {
            out->kind = TS_SV_NONE_TYPE;
            return 0;
        }
        char op[256];
        snprintf(op, sizeof op, "aten::%s", fn->name);
        ca.a[0] = (TsNamedValue){ ts_match_self, fn->value, call->range };
        return value_of(out, ts_emit_op(e, op, ca.n + 1, ca.a, call->range));
    }
    case TS_SV_VALUE:
        if (ts_is_object_type(fn->value->type)) {
            CallArgs ca;
            if (emit_args(e, call, NULL, 0, &ca) != 0)
                return -1;
            return ts_sugar_call_method(e, fn->value, "__call__", ca.n, ca.a + 1, call->range,
                                        out);
        }
        break;
    case TS_SV_NONE_TYPE:
        out->kind = TS_SV_NONE_TYPE;   /* super().__init__() and the like */
        return 0;
    case TS_SV_EXCEPTION:
        if (!fn->value)
            return exception_message(e, fn, call, out);
        break;
    default:
        break;
    }
    if (fn->kind == TS_SV_VALUE) {
        char buf[256];
        return ts_emit_error(e, call->kids[0]->range, "cannot call a value of type '%s'",
                             ts_type_text(fn->value->type, buf, sizeof buf));
    }
    return ts_emit_error(e, call->range, "this value cannot be called");
}

/* ---- iteration ------------------------------------------------------------------------- */

static bool is_builtin_call(const TsTree *t, const char *name)
{
    return t->kind == TS_TREE_CALL && t->kids[0]->kind == TS_TREE_NAME &&
           strcmp(t->kids[0]->str, name) == 0;
}

/* A sequence to index: lists, strings, tensors as they are; a dict by its keys. */
static TsIrValue *as_sequence(TsEmitter *e, TsIrValue *v, TsSourceRange r)
{
    TsTypeKind k = ts_type_kind(v->type);
    if (k == TS_TYPE_LIST || k == TS_TYPE_STR || k == TS_TYPE_TENSOR)
        return v;
    if (k == TS_TYPE_DICT)
        return ts_emit_op2(e, "aten::keys", v, NULL, r);
    char b[256];
    ts_emit_error(e, r, "'%s' object is not iterable", ts_type_text(v->type, b, sizeof b));
    return NULL;
}

/* zip or enumerate over tuples only: unrolled like a tuple, over the tuple of the i-th
 * items (with i + start first for enumerate), as long as the shortest. */
static int unrolled_zip(TsEmitter *e, TsIterable *it, TsIrValue *const *tuples, size_t n,
                        TsSourceRange r)
{
    size_t len = SIZE_MAX;
    for (size_t k = 0; k < n; k++)
        if (ts_type_num_elems(tuples[k]->type) < len)
            len = ts_type_num_elems(tuples[k]->type);
    TsIrValue **rows = calloc(len ? len : 1, sizeof *rows);
    if (!rows)
        return ts_emit_error(e, r, "out of memory");
    int rc = 0;
    for (size_t i = 0; i < len && rc == 0; i++) {
        TsIrValue *items[9], *idx = ts_emit_const(e, ts_int((int64_t)i), r);
        size_t m = 0;
        if (!idx) {
            rc = -1;
            break;
        }
        if (it->enumerate)
            items[m++] = it->start ? ts_emit_op2(e, "aten::add", idx, it->start, r) : idx;
        for (size_t k = 0; k < n; k++)
            items[m++] = ts_emit_subscript_value(e, tuples[k], idx, r);
        for (size_t k = 0; k < m; k++)
            if (!items[k])
                rc = -1;
        if (rc == 0 && !(rows[i] = ts_emit_tuple(e, m, items, r)))
            rc = -1;
    }
    if (rc == 0 && (it->tuple = ts_emit_tuple(e, len, rows, r)))
        it->kind = IT_TUPLE;
    else
        rc = -1;
    free(rows);
    return rc;
}

int ts_sugar_iter(TsEmitter *e, const TsTree *iter, TsIterable *it)
{
    memset(it, 0, sizeof *it);
    TsSourceRange r = iter->range;
    bool ok_name = iter->kind == TS_TREE_CALL && iter->kids[0]->kind == TS_TREE_NAME &&
                   !ts_env_find(e, ts_symbol(iter->kids[0]->str));
    if (ok_name && is_builtin_call(iter, "range")) {
        /* PyTorch counts the positional arguments only (keywords are not looked at) */
        const TsTree *pos[3];
        size_t n = 0;
        for (size_t i = 1; i < iter->n_kids; i++)
            if (iter->kids[i]->kind != TS_TREE_KWARG && n++ < 3)
                pos[n - 1] = iter->kids[i];
        if (n < 1)
            return ts_emit_error(e, r, "range expected at least 1 arguments, got 0");
        if (n > 3)
            return ts_emit_error(e, r, "range expected at most 3 arguments, got %zu", n);
        TsIrValue *a[3];
        for (size_t i = 0; i < n; i++) {
            if (!(a[i] = ts_emit_expr(e, pos[i], NULL)))
                return -1;
            if (ts_type_kind(a[i]->type) != TS_TYPE_INT) {
                char b[256];
                return ts_emit_error(e, r, "all inputs of range must be ints, found %s in "
                                     "argument %zu", ts_type_text(a[i]->type, b, sizeof b), i);
            }
        }
        it->kind = IT_RANGE;
        it->seq[0] = n == 1 ? a[0] : a[1];
        it->n_seq = 1;
        if (n >= 2) {
            it->start = a[0];
            it->step = n == 3 ? a[2] : ts_emit_const(e, ts_int(1), r);
            if (!it->step)
                return -1;
        }
        return 0;
    }
    if (ok_name && (is_builtin_call(iter, "zip") || is_builtin_call(iter, "enumerate"))) {
        bool en = is_builtin_call(iter, "enumerate");
        it->kind = IT_ZIP;
        it->enumerate = en;
        size_t n = iter->n_kids - 1;
        if (n == 0 || n > 8 || (en && n > 2))
            return ts_emit_error(e, r, "wrong number of arguments to %s",
                                 en ? "enumerate" : "zip");
        TsIrValue *vals[8];
        size_t n_tuples = 0;
        for (size_t i = 0; i < n; i++) {
            const TsTree *k = iter->kids[1 + i];
            if (k->kind == TS_TREE_KWARG && (!en || !k->str || strcmp(k->str, "start") != 0))
                return ts_emit_error(e, r, en ? "enumerate expected kwarg name 'start', got "
                                     "'%s'" : "zip does not take keyword arguments, got '%s'",
                                     k->str ? k->str : "**");
            if (k->kind == TS_TREE_KWARG)
                k = k->kids[0];
            if (!(vals[i] = ts_emit_expr(e, k, NULL)))
                return -1;
            if (en && i == 1) {
                it->start = vals[i];
                continue;
            }
            n_tuples += ts_type_kind(vals[i]->type) == TS_TYPE_TUPLE;
        }
        size_t n_seqs = en ? 1 : n;
        if (n_tuples == n_seqs)
            return unrolled_zip(e, it, vals, n_seqs, r);
        if (n_tuples)
            return ts_emit_error(e, r, "Can not iterate over a module list or tuple with a "
                                 "value that does not have a statically determinable length");
        for (size_t i = 0; i < n_seqs; i++)
            if (!(it->seq[it->n_seq++] = as_sequence(e, vals[i], iter->kids[1 + i]->range)))
                return -1;
        return 0;
    }
    TsSugared sv;
    if (ts_emit_sugared(e, iter, NULL, &sv) != 0)
        return -1;
    if (sv.kind == TS_SV_CLASS && sv.cls->kind == TS_CLASS_ENUM) {
        it->kind = IT_ENUM;
        it->enum_cls = sv.cls;
        return 0;
    }
    TsIrValue *v = ts_sugar_as_value(e, &sv, r);
    if (!v)
        return -1;
    if (ts_type_kind(v->type) == TS_TYPE_TUPLE) {
        it->kind = IT_TUPLE;
        it->tuple = v;
        return 0;
    }
    it->kind = IT_SEQ;
    it->n_seq = 1;
    return (it->seq[0] = as_sequence(e, v, r)) ? 0 : -1;
}

long ts_iter_unrolled_len(TsEmitter *e, const TsIterable *it)
{
    (void)e;
    if (it->kind == IT_TUPLE)
        return (long)ts_type_num_elems(it->tuple->type);
    if (it->kind == IT_ENUM)
        return (long)it->enum_cls->n_enum_values;
    return -1;
}

TsIrValue *ts_iter_unrolled_get(TsEmitter *e, TsIterable *it, long i, TsSourceRange r)
{
    if (it->kind == IT_ENUM) {
        TsSugared cls = { .kind = TS_SV_CLASS, .cls = it->enum_cls }, out;
        const char *name = ts_type_field(it->enum_cls->type, (size_t)i)->name;
        return ts_sugar_attr(e, &cls, name, r, &out) == 0 ? out.value : NULL;
    }
    TsIrValue *idx = ts_emit_const(e, ts_int(i), r);
    return idx ? ts_emit_subscript_value(e, it->tuple, idx, r) : NULL;
}

TsIrValue *ts_iter_len(TsEmitter *e, TsIterable *it, TsSourceRange r)
{
    if (it->kind == IT_RANGE) {
        if (!it->start)
            return it->seq[0];
        TsNamedValue a[3] = { { NULL, it->start, r }, { NULL, it->seq[0], r },
                              { NULL, it->step, r } };
        return ts_emit_op(e, "aten::__range_length", 3, a, r);
    }
    TsIrValue *len = NULL;
    for (size_t i = 0; i < it->n_seq; i++) {
        TsIrValue *l = ts_emit_op2(e, "aten::len", it->seq[i], NULL, r);
        if (!l)
            return NULL;
        len = len ? ts_emit_op2(e, "prim::min", len, l, r) : l;
        if (!len)
            return NULL;
    }
    return len;
}

static TsIrValue *seq_get(TsEmitter *e, TsIrValue *seq, TsIrValue *i, TsSourceRange r)
{
    if (ts_type_kind(seq->type) == TS_TYPE_TENSOR) {
        TsIrValue *zero = ts_emit_const(e, ts_int(0), r);
        TsNamedValue a[3] = { { NULL, seq, r }, { NULL, zero, r }, { NULL, i, r } };
        return zero ? ts_emit_op(e, "aten::select", 3, a, r) : NULL;
    }
    return ts_emit_op2(e, "aten::__getitem__", seq, i, r);
}

TsIrValue *ts_iter_get(TsEmitter *e, TsIterable *it, TsIrValue *i, TsSourceRange r)
{
    if (it->kind == IT_RANGE) {
        if (!it->start)
            return i;
        TsNamedValue a[3] = { { NULL, i, r }, { NULL, it->start, r }, { NULL, it->step, r } };
        return ts_emit_op(e, "aten::__derive_index", 3, a, r);
    }
    if (it->kind == IT_SEQ)
        return seq_get(e, it->seq[0], i, r);
    TsIrValue *items[9];
    size_t n = 0;
    if (it->enumerate)
        items[n++] = it->start ? ts_emit_op2(e, "aten::add", i, it->start, r) : i;
    for (size_t k = 0; k < it->n_seq; k++)
        items[n++] = seq_get(e, it->seq[k], i, r);
    for (size_t k = 0; k < n; k++)
        if (!items[k])
            return NULL;
    return ts_emit_tuple(e, n, items, r);
}
