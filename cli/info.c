/* info.c — `tscript info MODEL.pt`: what a saved model holds and what it needs.
 *
 * Prints the archive's version and root class, the root module's methods with their
 * signatures (compiling each: one that does not compile says why), the submodules, the
 * parameters and buffers with dtypes and shapes (each tensor once, at its first path, as
 * named_parameters() lists them), and the operators the code calls that no loaded plugin
 * declares — what a config must add before the model can run. MODEL.pt "-" is read from
 * standard input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "frontend/compile.h"
#include "module.h"
#include "ptrmap.h"
#include "registry/schema.h"
#include "runtime.h"
#include "strbuf.h"

static const char *dtype_name(int dtype)
{
    static const char *const names[TS_DTYPE__COUNT] = {
        "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64",
        "complex32", "complex64", "complex128", "bool", "qint8", "quint8", "qint32",
        "bfloat16",
    };
    return dtype >= 0 && dtype < TS_DTYPE__COUNT ? names[dtype] : "?";
}

/* "forward(Tensor x, int n=2) -> Tensor": a method's signature without self. */
static void signature(const char *name, const TsSchema *sc, TsBuf *b)
{
    char t[256];
    ts_buf_printf(b, "%s(", name);
    for (size_t i = 1; i < sc->n_args; i++) {
        ts_type_annotation(sc->args[i].type, t, sizeof t);
        ts_buf_printf(b, "%s%s %s%s", i > 1 ? ", " : "", t, sc->args[i].name,
                      sc->args[i].has_default ? "=..." : "");
    }
    ts_type_annotation(sc->n_returns ? sc->returns[0].type : ts_type_none(), t, sizeof t);
    ts_buf_printf(b, ") -> %s", t);
}

static void print_methods(TsModule *m)
{
    const char *names[512];
    size_t n = ts_module_method_names(m, names, 512);
    printf("methods:\n");
    for (size_t i = 0; i < n && i < 512; i++) {
        TsError err = TS_ERROR_INIT;
        TsFunction *f = ts_module_method(m, names[i], &err);
        if (!f) {
            const char *msg = err.msg ? err.msg : "no such method";
            printf("  %s: does not compile: %.*s\n", names[i], (int)strcspn(msg, "\n"), msg);
            ts_error_clear(&err);
            continue;
        }
        TsBuf b = TS_BUF_INIT;
        signature(names[i], f->schema, &b);
        printf("  %s\n", b.p ? b.p : names[i]);
        ts_buf_free(&b);
    }
}

typedef struct Walk {
    TsModule *m;
    TsPtrMap seen;             /* tensors and modules listed already */
    int pass;                  /* 0 submodules, 1 parameters, 2 buffers */
    size_t count;
    int64_t elements;
} Walk;

static void shape(const TsTensor *t, char *buf, size_t size)
{
    size_t used = (size_t)snprintf(buf, size, "[");
    for (int d = 0; d < t->dim && used < size; d++)
        used += (size_t)snprintf(buf + used, size - used, "%s%lld", d ? ", " : "",
                                 (long long)t->sizes[d]);
    if (used < size)
        snprintf(buf + used, size - used, "]");
}

static void walk(Walk *w, const TsObject *o, const char *path, int depth)
{
    if (depth > 64)
        return;
    for (size_t i = 0; i < o->nslots; i++) {
        const char *name = ts_type_field(o->cls, i)->name;
        char sub[1024];
        snprintf(sub, sizeof sub, "%s%s%s", path, *path ? "." : "", name);
        TsModuleAttrKind kind = ts_module_attr_kind(w->m, o->cls, i);
        TsValue v = o->slots[i];
        if (kind == TS_MODULE_SUBMODULE && v.tag == TS_TAG_OBJECT) {
            const TsObject *so = (const TsObject *)v.u.p;
            if (w->pass == 0 && ts_ptrmap_put(&w->seen, so, 0) == 0) {
                printf("  %-32s %s\n", sub, ts_type_name(so->cls));
                w->count++;
            }
            walk(w, so, sub, depth + 1);
            continue;
        }
        bool wanted = (w->pass == 1 && kind == TS_MODULE_PARAMETER) ||
                      (w->pass == 2 && kind == TS_MODULE_BUFFER);
        if (!wanted || v.tag != TS_TAG_TENSOR || ts_ptrmap_put(&w->seen, v.u.p, 0) != 0)
            continue;
        const TsTensor *t = (const TsTensor *)v.u.p;
        char s[256];
        shape(t, s, sizeof s);
        printf("  %-32s %-8s %s\n", sub, dtype_name(t->dtype), s);
        w->count++;
        w->elements += ts_tensor_numel(t);
    }
}

static void print_tree(TsModule *m)
{
    const TsObject *root = (const TsObject *)ts_module_root(m).u.p;
    static const char *const heads[] = { "submodules:", "parameters:", "buffers:" };
    for (int pass = 0; pass < 3; pass++) {
        Walk w = { .m = m, .pass = pass };
        printf("%s\n", heads[pass]);
        walk(&w, root, "", 0);
        if (!w.count)
            printf("  (none)\n");
        else if (pass)
            printf("  (%zu tensors, %lld elements)\n", w.count, (long long)w.elements);
        ts_ptrmap_free(&w.seen);
    }
}

static int print_missing(TsModule *m, const char *name)
{
    TsError err = TS_ERROR_INIT;
    size_t n;
    char **missing = ts_module_missing_ops(m, &n, &err);
    if (!missing)
        return ts_cli_error(name, &err, "cannot read the code");
    if (!n)
        printf("operators: the loaded plugins declare every one the code calls\n");
    else
        printf("operators the loaded plugins lack:\n");
    for (size_t i = 0; i < n; i++)
        printf("  %s\n", missing[i]);
    ts_free_names(missing, n);
    return 0;
}

static int describe(TsRuntime *rt, const TsCliProgram *p)
{
    TsModule *m = ts_cli_load_model(rt, p);
    if (!m)
        return TS_EXIT_FAIL;
    const TsObject *root = (const TsObject *)ts_module_root(m).u.p;
    printf("%s: TorchScript archive, version %lld, module %s\n", p->name,
           (long long)ts_module_version(m), ts_type_name(root->cls));
    print_methods(m);
    print_tree(m);
    int status = print_missing(m, p->name);
    ts_module_free(m);
    return status;
}

static int info_main(const TsCliGlobal *g, int argc, char **argv)
{
    int status = ts_cli_help_only(&ts_cli_info_command, argc, argv);
    if (status != -1)
        return status;
    if (argc - optind != 1)
        return ts_cli_usage(&ts_cli_info_command, "needs exactly one MODEL.pt");
    TsCliProgram p;
    if (ts_cli_program_open(&p, argv[optind], true) != 0)
        return TS_EXIT_FAIL;
    TsRuntime *rt = ts_cli_runtime(g, NULL);
    status = rt ? describe(rt, &p) : TS_EXIT_FAIL;
    ts_runtime_close(rt);
    ts_cli_program_close(&p);
    return status;
}

const TsCliCommand ts_cli_info_command = {
    "info", "MODEL.pt",
    "list what a saved model holds and the operators it needs",
    "List what a model saved by torch.jit.save holds ('-': read from standard input): the\n"
    "archive's version and root class, the root module's methods with their signatures, the\n"
    "submodules, the parameters and buffers with dtypes and shapes, and the operators its\n"
    "code calls that no loaded plugin declares (what --config must add before it runs).\n\n"
    "options:\n"
    "  -h, --help    print this help",
    info_main,
};
