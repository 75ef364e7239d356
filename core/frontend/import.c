/* import.c — the frontend's archive mode: compiling the code/ of a .pt archive.
 *
 * torch.jit.save writes the python printer's source of every class and function a model
 * uses, one file per qualified module: code/__torch__/a/b.py defines __torch__.a.b.X. Every
 * reference between them is qualified, so a compiler in archive mode starts from a handful
 * of names (torch, ops, CONSTANTS, __torch__ and the special forms annotate, unchecked_cast,
 * uninitialized, fork, inf, nan — see sugared.c) and loads a file the first time a name
 * under its module is asked for, as PyTorch's SourceImporter does. A name that no file
 * defines is a deeper namespace.
 *
 * Classes are built from their declarations, not by running __init__: the body of a class
 * lists its attributes (`weight : Tensor`, `__annotations__["0"] = T` for names that are not
 * identifiers), its constants (`stride : Final[Tuple[int, int]] = (2, 2)`), which attributes
 * are parameters and buffers (`__parameters__ = ["weight", ]`), and its methods. The base
 * says what it is: Module, NamedTuple, Enum, Interface, ModuleInterface, or none (a script
 * class). Methods compile on first use, like everything else here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/emit.h"
#include "frontend/parser.h"

int ts_import_init(TsCompiler *c, const TsOpTable *ops, const TsCodeLoader *loader,
                   TsError *err)
{
    memset(c, 0, sizeof *c);
    c->ops = ops;
    c->archive = true;
    c->loader = loader;
    snprintf(c->modname, sizeof c->modname, "__torch__");
    if (!(c->unit = ts_unit_new(err)))
        return -1;
    static const char *const modules[][2] = {
        { "torch", "torch" }, { "ops", "torch.ops" }, { "CONSTANTS", "CONSTANTS" },
        { "__torch__", "__torch__" }, { "math", "math" },
    };
    for (size_t i = 0; i < sizeof modules / sizeof modules[0]; i++)
        if (!ts_compiler_add_global(c, modules[i][0], TS_GLOBAL_MODULE, modules[i][1], err))
            return -1;
    return 0;
}

/* The module of the functions that give old archives' calls their old meaning. */
#define UPGRADERS "__torch__.torch.jit._upgraders"

/* The classes the language itself defines in TorchScript, for programs and archives alike:
 * torch.no_grad() is an object of this class (PyTorch 1.13 writes the same class into an
 * archive that uses it). */
static const struct {
    const char *module, *text;
} builtin_modules[] = {
    { "__torch__.torch.autograd.grad_mode",
      "class no_grad:\n"
      "  prev : bool\n"
      "  def __init__(self: __torch__.torch.autograd.grad_mode.no_grad) -> NoneType:\n"
      "    self.prev = False\n"
      "  def __enter__(self: __torch__.torch.autograd.grad_mode.no_grad) -> NoneType:\n"
      "    self.prev = torch.is_grad_enabled()\n"
      "    torch.set_grad_enabled(False)\n"
      "  def __exit__(self: __torch__.torch.autograd.grad_mode.no_grad, exc_type: Any,\n"
      "               exc_value: Any, traceback: Any) -> NoneType:\n"
      "    torch.set_grad_enabled(self.prev)\n" },
    /* integer division truncated before version 4; full's int fill gave floats before 5;
     * linspace's and logspace's steps defaulted to 100 before 8 and 9 */
    { UPGRADERS,
      "def div_Tensor(self: Tensor, other: Tensor) -> Tensor:\n"
      "  if torch.is_floating_point(self) or torch.is_floating_point(other):\n"
      "    return torch.true_divide(self, other)\n"
      "  return torch.divide(self, other, rounding_mode=\"trunc\")\n"
      "def div_Scalar(self: Tensor, other: Union[int, float]) -> Tensor:\n"
      "  if torch.is_floating_point(self) or isinstance(other, float):\n"
      "    return torch.true_divide(self, other)\n"
      "  return torch.divide(self, other, rounding_mode=\"trunc\")\n"
      "def div_out(self: Tensor, other: Tensor, out: Tensor) -> Tensor:\n"
      "  if torch.is_floating_point(self) or torch.is_floating_point(other) or "
      "torch.is_floating_point(out):\n"
      "    return torch.true_divide(self, other, out=out)\n"
      "  return torch.divide(self, other, rounding_mode=\"trunc\", out=out)\n"
      "def div__Tensor(self: Tensor, other: Tensor) -> Tensor:\n"
      "  if torch.is_floating_point(self) or torch.is_floating_point(other):\n"
      "    return torch.true_divide_(self, other)\n"
      "  return torch.divide_(self, other, rounding_mode=\"trunc\")\n"
      "def div__Scalar(self: Tensor, other: Union[int, float]) -> Tensor:\n"
      "  if torch.is_floating_point(self) or isinstance(other, float):\n"
      "    return torch.div_(self, other)\n"
      "  return torch.divide_(self, other, rounding_mode=\"trunc\")\n"
      "def full(size: List[int], fill_value: Union[int, float], dtype: Optional[int]=None,\n"
      "         layout: Optional[int]=None, device: Optional[Device]=None,\n"
      "         pin_memory: Optional[bool]=None) -> Tensor:\n"
      "  if dtype is None:\n"
      "    return torch.full(size, float(fill_value), dtype=dtype, layout=layout, "
      "device=device, pin_memory=pin_memory)\n"
      "  return torch.full(size, fill_value, dtype=dtype, layout=layout, device=device, "
      "pin_memory=pin_memory)\n"
      "def linspace(start: Union[int, float], end: Union[int, float], steps: Optional[int]=None,\n"
      "             dtype: Optional[int]=None, layout: Optional[int]=None,\n"
      "             device: Optional[Device]=None, pin_memory: Optional[bool]=None) -> Tensor:\n"
      "  n = 100 if steps is None else steps\n"
      "  return torch.linspace(start, end, n, dtype=dtype, layout=layout, device=device, "
      "pin_memory=pin_memory)\n"
      "def logspace(start: Union[int, float], end: Union[int, float], steps: Optional[int]=None,\n"
      "             base: float=10., dtype: Optional[int]=None, layout: Optional[int]=None,\n"
      "             device: Optional[Device]=None, pin_memory: Optional[bool]=None) -> Tensor:\n"
      "  n = 100 if steps is None else steps\n"
      "  return torch.logspace(start, end, n, base, dtype=dtype, layout=layout, "
      "device=device, pin_memory=pin_memory)\n" },
};

/* Operators whose meaning changed since older archives were written, and the functions
 * that give an old archive's calls their old meaning, as PyTorch 1.13 applies them: an
 * archive of version <= max calling torch.NAME calls the function of the variant its
 * arguments pick (sugared.c, ts_import_upgrader) instead. The functions themselves call
 * operators that need no upgrading (divide, true_divide) or are exempt while they compile. */
static const struct {
    const char *op;            /* "div": torch.div */
    int64_t max;               /* archives up to this version mean the old operator */
} upgraded[] = {
    { "div", 3 }, { "div_", 3 }, { "full", 4 }, { "linspace", 7 }, { "logspace", 8 },
};

bool ts_import_upgraded(const TsCompiler *c, const TsDefInfo *in, const char *op)
{
    if (!c->archive || c->version <= 0 ||
        (in && strncmp(in->qualname, UPGRADERS ".", sizeof UPGRADERS) == 0))
        return false;
    for (size_t i = 0; i < sizeof upgraded / sizeof upgraded[0]; i++)
        if (strcmp(upgraded[i].op, op) == 0)
            return c->version <= upgraded[i].max;
    return false;
}

TsDefInfo *ts_import_upgrader(TsCompiler *c, const char *variant, TsError *err)
{
    char q[256];
    snprintf(q, sizeof q, UPGRADERS ".%s", variant);
    return ts_import_function(c, q, err);
}

static TsSource *builtin_module(const char *module, TsError *err)
{
    for (size_t i = 0; i < sizeof builtin_modules / sizeof builtin_modules[0]; i++)
        if (strcmp(builtin_modules[i].module, module) == 0)
            return ts_source_new("<builtin>", builtin_modules[i].text,
                                 strlen(builtin_modules[i].text), err);
    return NULL;
}

/* `op_version_set = 1`, which older archives start their files with. */
static bool is_version_line(const TsTree *s)
{
    return s->kind == TS_TREE_ASSIGN && s->n_kids == 2 && s->kids[0]->kind == TS_TREE_NAME &&
           strcmp(s->kids[0]->str, "op_version_set") == 0;
}

/* Parses the file of qualified module `module` once and records what it defines. */
static int load_module(TsCompiler *c, const char *module, TsError *err)
{
    for (size_t i = 0; i < c->n_looked_up; i++)
        if (strcmp(c->looked_up[i], module) == 0)
            return 0;
    if (ts_compiler_grow((void **)&c->looked_up, c->n_looked_up, &c->cap_looked_up, sizeof(char *), err))
        return -1;
    if (!(c->looked_up[c->n_looked_up] = strdup(module)))
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    c->n_looked_up++;
    TsError lerr = TS_ERROR_INIT;
    TsSource *src = c->loader ? c->loader->load(c->loader->ctx, module, &lerr) : NULL;
    if (!src && lerr.code == TS_OK)
        src = builtin_module(module, &lerr);
    if (!src) {
        if (lerr.code == TS_OK)
            return 0;   /* no such file: a namespace only */
        ts_error_move(err, &lerr);
        return -1;
    }
    TsTree *m = ts_parse_module(src, err);
    ts_source_release(src);   /* the tree holds the source */
    if (!m)
        return -1;
    if (ts_compiler_grow((void **)&c->files, c->n_files, &c->cap_files, sizeof(TsTree *), err)) {
        ts_tree_free(m);
        return -1;
    }
    c->files[c->n_files++] = m;
    for (size_t i = 0; i < m->n_kids; i++) {
        const TsTree *s = m->kids[i];
        if (s->kind == TS_TREE_CLASS) {
            if (ts_compiler_collect_class(c, s, module, err) != 0)
                return -1;
        } else if (s->kind == TS_TREE_DEF) {
            TsDefInfo *d = ts_compiler_add_def(c, s, NULL, module, err);
            TsGlobal *g = d ? ts_compiler_add_global(c, d->qualname, TS_GLOBAL_DEF, NULL, err)
                            : NULL;
            if (!g)
                return -1;
            g->def = d;
        } else if (s->kind != TS_TREE_IMPORT && s->kind != TS_TREE_IMPORT_FROM &&
                   !is_version_line(s)) {
            return ts_error_at(err, TS_ERR_SYNTAX, s->range, "Unexpected %s in code import: "
                               "a code file holds classes and functions only",
                               ts_tree_kind_name(s->kind));
        }
    }
    return 0;
}

/* The global of qualified name q, its module's file loaded first. */
static const TsGlobal *find_qualified(TsCompiler *c, const char *q, TsError *err, int *rc)
{
    *rc = 0;
    const char *dot = strrchr(q, '.');
    if (!dot)
        return NULL;
    char module[1024];
    if ((size_t)(dot - q) >= sizeof module) {
        *rc = ts_error_set(err, TS_ERR_LIMIT, "qualified name too long: %.64s...", q);
        return NULL;
    }
    snprintf(module, sizeof module, "%.*s", (int)(dot - q), q);
    if ((*rc = load_module(c, module, err)) != 0)
        return NULL;
    return ts_compiler_global(c, q);
}

TsClassInfo *ts_import_class(TsCompiler *c, const char *q, TsSourceRange r, TsError *err)
{
    int rc;
    const TsGlobal *g = find_qualified(c, q, err, &rc);
    if (rc != 0 || !g || g->kind != TS_GLOBAL_CLASS)
        return NULL;
    return ts_compiler_class(c, g->cls, r, err) == 0 ? g->cls : NULL;
}

TsDefInfo *ts_import_function(TsCompiler *c, const char *q, TsError *err)
{
    int rc;
    const TsGlobal *g = find_qualified(c, q, err, &rc);
    return rc == 0 && g && g->kind == TS_GLOBAL_DEF ? g->def : NULL;
}

int ts_import_attr(TsEmitter *e, const char *prefix, const char *attr, TsSourceRange r,
                   TsSugared *out)
{
    char q[1024];
    if ((size_t)snprintf(q, sizeof q, "%s.%s", prefix, attr) >= sizeof q)
        return ts_emit_error(e, r, "qualified name too long");
    memset(out, 0, sizeof *out);
    TsError *err = e->err;
    int rc;
    const TsGlobal *g = find_qualified(e->c, q, err, &rc);
    if (rc != 0)
        return -1;
    if (g && g->kind == TS_GLOBAL_CLASS) {
        out->kind = TS_SV_CLASS;
        out->cls = g->cls;
        return ts_compiler_class(e->c, g->cls, r, err);
    }
    if (g && g->kind == TS_GLOBAL_DEF) {
        out->kind = TS_SV_FUNCTION;
        out->def = g->def;
        return 0;
    }
    out->kind = TS_SV_MODULE;
    out->name = ts_symbol(q);
    return 0;
}

/* ---- classes from declarations ----------------------------------------------------- */

const TsTree *ts_class_constant(const TsClassInfo *ci, const char *name)
{
    const TsTree *body = ci && ci->qualname && ci->tree->kind == TS_TREE_CLASS
                             ? ci->tree->kids[3] : NULL;
    for (size_t i = 0; body && i < body->n_kids; i++) {
        const TsTree *s = body->kids[i];
        if (s->kind == TS_TREE_ANN_ASSIGN && s->kids[2] && s->kids[0]->kind == TS_TREE_NAME &&
            strcmp(s->kids[0]->str, name) == 0)
            return s;
    }
    return NULL;
}

/* `__parameters__ = [...]` and `__buffers__ = [...]`: lists of string literals. */
static int check_name_list(TsCompiler *c, const TsTree *s, TsError *err)
{
    (void)c;
    const TsTree *v = s->kids[1];
    if (v->kind != TS_TREE_LIST)
        return ts_error_at(err, TS_ERR_SYNTAX, v->range, "%s must be a list of names",
                           s->kids[0]->str);
    for (size_t i = 0; i < v->n_kids; i++)
        if (v->kids[i]->kind != TS_TREE_STRING)
            return ts_error_at(err, TS_ERR_SYNTAX, v->kids[i]->range, "%s must be a list of "
                               "names", s->kids[0]->str);
    return 0;
}

/* One statement of a class body: an attribute, a constant, a parameter list, a method. */
static int declare(TsCompiler *c, TsClassInfo *ci, const TsTree *s, TsError *err)
{
    TsType *t = (TsType *)ci->type;
    if (s->kind == TS_TREE_DEF)
        return 0;
    if (s->kind == TS_TREE_ANN_ASSIGN && s->kids[0]->kind == TS_TREE_NAME) {
        if (s->kids[2])
            return 0;   /* a constant: read where it is used (ts_class_constant) */
        const TsType *at = ts_compiler_type(c, s->kids[1], err);
        return at ? ts_type_class_add_attr(t, s->kids[0]->str, at, err) : -1;
    }
    if (s->kind == TS_TREE_ASSIGN && s->n_kids == 2) {
        const TsTree *lhs = s->kids[0];
        /* which attributes are parameters and buffers, and which methods are the forward
         * hooks (the printer calls them where the module is called) */
        if (lhs->kind == TS_TREE_NAME && (strcmp(lhs->str, "__parameters__") == 0 ||
                                          strcmp(lhs->str, "__buffers__") == 0 ||
                                          strcmp(lhs->str, "__forward_pre_hooks__") == 0 ||
                                          strcmp(lhs->str, "__forward_hooks__") == 0))
            return check_name_list(c, s, err);
        /* `__annotations__ = []` opens the list the lines below fill */
        if (lhs->kind == TS_TREE_NAME && strcmp(lhs->str, "__annotations__") == 0 &&
            s->kids[1]->kind == TS_TREE_LIST && s->kids[1]->n_kids == 0)
            return 0;
        /* __annotations__["0"] = T: an attribute whose name is not an identifier */
        if (lhs->kind == TS_TREE_SUBSCRIPT && lhs->n_kids == 2 &&
            lhs->kids[0]->kind == TS_TREE_NAME &&
            strcmp(lhs->kids[0]->str, "__annotations__") == 0 &&
            lhs->kids[1]->kind == TS_TREE_STRING) {
            const TsType *at = ts_compiler_type(c, s->kids[1], err);
            return at ? ts_type_class_add_attr(t, lhs->kids[1]->str, at, err) : -1;
        }
    }
    return ts_error_at(err, TS_ERR_SYNTAX, s->range, "Unexpected statement in the body of "
                       "class %s: only attributes, constants and methods are declared there",
                       ci->qualname);
}

int ts_import_build_class(TsCompiler *c, TsClassInfo *ci, TsError *err)
{
    char *q = ts_compiler_qualify(c, ci, true);
    if (!q)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    if (ci->kind == TS_CLASS_INTERFACE) {
        const char *names[256];
        size_t n = 0;
        for (size_t i = 0; i < ci->n_methods && n < 256; i++)
            names[n++] = ci->methods[i]->def->kids[0]->str;
        ci->type = ts_type_interface_new(q, ci->is_module, n, names, err);
        free(q);
        if (!ci->type)
            return -1;
        /* the methods' signatures, which a class must fit (compile.c records them) */
        for (size_t i = 0; i < ci->n_methods; i++)
            if (!ts_compiler_function(c, ci->methods[i], ci->tree->range, err))
                return -1;
        return 0;
    }
    TsType *t = ts_type_class_new(q, ci->is_module, err);
    free(q);
    if (!(ci->type = t) || ts_unit_add_class(c->unit, t, err) != 0)
        return -1;
    for (size_t i = 0; i < ci->n_methods; i++)
        if (ts_type_class_add_method(t, ci->methods[i]->def->kids[0]->str, err) != 0)
            return -1;
    const TsTree *body = ci->tree->kids[3];
    for (size_t i = 0; i < body->n_kids; i++)
        if (declare(c, ci, body->kids[i], err) != 0)
            return -1;
    return 0;
}
