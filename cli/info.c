/* info.c — `tscript info [--backend] [MODEL.pt]`: what a saved model holds and what it
 * needs, and what the runtime runs on.
 *
 * MODEL.pt: the archive's version and root class, the root module's methods with their
 * signatures (compiling each: one that does not compile says why), the submodules, the
 * parameters and buffers with dtypes and shapes (each tensor once, at its first path, as
 * named_parameters() lists them), and the operators the code calls that no loaded plugin
 * declares — what a config must add before the model can run. MODEL.pt "-" is read from
 * standard input.
 *
 * --backend: the plugins loaded, the default backend, and each backend's own description,
 * which its plugin gives as the operator tscript::backend_info(Device device) -> str
 * (aten-cpu's says which OpenBLAS, on which core type and why). The operator is called as a
 * program would call it, so the CLI needs no more than the public API.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char *dtype_name(int dtype)
{
    static const char *const names[TS_DTYPE__COUNT] = {
        "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64",
        "complex32", "complex64", "complex128", "bool", "qint8", "quint8", "qint32",
        "bfloat16",
    };
    return dtype >= 0 && dtype < TS_DTYPE__COUNT ? names[dtype] : "?";
}

/* "forward(Tensor x, int n=...) -> Tensor": a method's signature without self. */
static void signature(const char *name, const TsMethod *f, TsBuf *b)
{
    char t[256];
    TsValue dflt;
    ts_buf_printf(b, "%s(", name);
    for (size_t i = 0; i < ts_method_num_args(f); i++) {
        ts_type_annotation(ts_method_arg_type(f, i), t, sizeof t);
        ts_buf_printf(b, "%s%s %s%s", i ? ", " : "", t, ts_method_arg_name(f, i),
                      ts_method_arg_default(f, i, &dflt) ? "=..." : "");
    }
    ts_type_annotation(ts_method_return_type(f), t, sizeof t);
    ts_buf_printf(b, ") -> %s", t);
}

static void print_methods(TsModule *m)
{
    const char *names[512];
    size_t n = ts_module_method_names(m, names, 512);
    printf("methods:\n");
    for (size_t i = 0; i < n && i < 512; i++) {
        TsError err = TS_ERROR_INIT;
        TsMethod *f = ts_module_find_method(m, names[i], &err);
        if (!f) {
            const char *msg = err.msg ? err.msg : "no such method";
            printf("  %s: does not compile: %.*s\n", names[i], (int)strcspn(msg, "\n"), msg);
            ts_error_clear(&err);
            continue;
        }
        TsBuf b = TS_BUF_INIT;
        signature(names[i], f, &b);
        printf("  %s\n", b.p ? b.p : names[i]);
        ts_buf_free(&b);
        ts_method_free(f);
    }
}

/* The objects listed already: an open-addressing set of pointers. */
typedef struct PtrSet {
    const void **slots;
    size_t cap, n;             /* cap: 0 or a power of two */
} PtrSet;

static size_t ptrset_slot(const void *p, size_t cap) { return ((uintptr_t)p >> 4) & (cap - 1); }

/* Puts p into slots (cap of them, a power of two, with room). */
static void ptrset_put(const void **slots, size_t cap, const void *p)
{
    size_t h = ptrset_slot(p, cap);
    while (slots[h])
        h = (h + 1) & (cap - 1);
    slots[h] = p;
}

/* Adds p: 0 when it is new, 1 when it was there, -1 when out of memory. */
static int ptrset_add(PtrSet *s, const void *p)
{
    for (size_t h = s->cap ? ptrset_slot(p, s->cap) : 0; s->cap && s->slots[h];
         h = (h + 1) & (s->cap - 1))
        if (s->slots[h] == p)
            return 1;
    if (2 * (s->n + 1) > s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        const void **slots = cap > s->cap && cap < SIZE_MAX / sizeof *slots
                             ? calloc(cap, sizeof *slots) : NULL;
        if (!slots)
            return -1;
        for (size_t i = 0; i < s->cap; i++)
            if (s->slots[i])
                ptrset_put(slots, cap, s->slots[i]);
        free(s->slots);
        s->slots = slots;
        s->cap = cap;
    }
    ptrset_put(s->slots, s->cap, p);
    s->n++;
    return 0;
}

typedef struct Walk {
    TsModule *m;
    PtrSet seen;               /* tensors and modules listed already */
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
            if (w->pass == 0 && ptrset_add(&w->seen, so) == 0) {
                printf("  %-32s %s\n", sub, ts_type_name(so->cls));
                w->count++;
            }
            walk(w, so, sub, depth + 1);
            continue;
        }
        bool wanted = (w->pass == 1 && kind == TS_MODULE_PARAMETER) ||
                      (w->pass == 2 && kind == TS_MODULE_BUFFER);
        if (!wanted || v.tag != TS_TAG_TENSOR || ptrset_add(&w->seen, v.u.p) != 0)
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
        free(w.seen.slots);
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

#define BACKEND_INFO_OP "tscript::backend_info"

static const char backend_info_source[] =
    "import torch\n"
    "def backend_info(device: str) -> str:\n"
    "    return torch.ops.tscript.backend_info(torch.device(device))\n";

/* Backend `name`'s description, each line indented; 0, or the exit status after saying why. */
static int print_backend(const TsMethod *f, const char *name)
{
    TsError err = TS_ERROR_INIT;
    TsValue arg = ts_none(), out = ts_none();
    const char *text = NULL;
    size_t len = 0;
    char what[128];
    snprintf(what, sizeof what, "backend %s", name);
    int rc = ts_value_str_new(name, strlen(name), &arg, &err);
    if (!rc)
        rc = ts_method_call(f, &arg, 1, &out, &err);
    if (!rc)
        rc = ts_value_to_str(out, &text, &len, &err);
    for (size_t i = 0; !rc && i < len;) {
        size_t n = strcspn(text + i, "\n");
        printf("  %.*s\n", (int)n, text + i);
        i += n + (i + n < len);
    }
    ts_value_release(arg);
    ts_value_release(out);
    if (!rc)
        return 0;
    /* the error's last line: the lines above are the traceback of backend_info_source */
    const char *msg = err.msg ? err.msg : "cannot describe it";
    size_t end = strlen(msg), start;
    while (end && msg[end - 1] == '\n')
        end--;
    for (start = end; start && msg[start - 1] != '\n'; start--)
        ;
    rc = ts_cli_fail(what, "%.*s", (int)(end - start), msg + start);
    ts_error_clear(&err);
    return rc;
}

static int print_backends(TsRuntime *rt)
{
    printf("plugins:\n");
    for (size_t i = 0; i < ts_runtime_num_plugins(rt); i++)
        printf("  %-12s %s\n", ts_runtime_plugin_name(rt, i), ts_runtime_plugin_path(rt, i));
    if (!ts_runtime_num_plugins(rt))
        printf("  (none)\n");
    printf("default backend: %s\n", ts_runtime_default_backend(rt));
    const TsOperator *op = ts_runtime_find_operator(rt, BACKEND_INFO_OP, "");
    size_t n = op ? ts_operator_num_kernels(op) : 0;
    if (!n) {
        printf("backends: no loaded plugin describes its backend (%s)\n", BACKEND_INFO_OP);
        return 0;
    }
    TsError err = TS_ERROR_INIT;
    TsScript *s = ts_script_compile(rt, "<backend_info>", backend_info_source,
                                    sizeof backend_info_source - 1, &err);
    TsMethod *f = s ? ts_script_find_function(s, "backend_info", &err) : NULL;
    int status = f ? 0 : ts_cli_error(BACKEND_INFO_OP, &err, "cannot call it");
    for (size_t i = 0; !status && i < n; i++) {
        const char *backend = ts_operator_kernel_backend(op, i);
        if (strcmp(backend, "any") == 0)
            continue;
        printf("backend %s (%s):\n", backend, ts_operator_kernel_plugin(op, i));
        status = print_backend(f, backend);
    }
    ts_method_free(f);
    ts_script_free(s);
    return status;
}

static int info_main(const TsCliGlobal *g, int argc, char **argv)
{
    static const struct option opts[] = {
        { "backend", no_argument, NULL, 'b' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    const TsCliCommand *cmd = &ts_cli_info_command;
    bool backend = false;
    int c;
    while ((c = ts_cli_getopt(cmd, argc, argv, ":h", opts)) != -1) {
        if (c == 'b')
            backend = true;
        else
            return c == 'h' ? ts_cli_help(cmd, stdout) : TS_EXIT_USAGE;
    }
    if (argc - optind > 1)
        return ts_cli_usage(cmd, "needs exactly one MODEL.pt, got '%s' too", argv[optind + 1]);
    if (argc == optind && !backend)
        return ts_cli_usage(cmd, "needs exactly one MODEL.pt, or --backend");
    TsCliProgram p = { 0 };
    if (argc > optind && ts_cli_program_open(&p, argv[optind], true) != 0)
        return TS_EXIT_FAIL;
    TsRuntime *rt = ts_cli_runtime_full(g, NULL);
    int status = rt ? 0 : TS_EXIT_FAIL;
    if (!status && backend)
        status = print_backends(rt);
    if (!status && p.path)
        status = describe(rt, &p);
    ts_runtime_close(rt);
    ts_cli_program_close(&p);
    return status;
}

const TsCliCommand ts_cli_info_command = {
    "info", "[--backend] [MODEL.pt]",
    "list what a saved model holds and needs, or what runs it",
    "List what a model saved by torch.jit.save holds ('-': read from standard input): the\n"
    "archive's version and root class, the root module's methods with their signatures, the\n"
    "submodules, the parameters and buffers with dtypes and shapes, and the operators its\n"
    "code calls that no loaded plugin declares (what --config must add before it runs).\n\n"
    "options:\n"
    "  --backend     first list the plugins loaded, the default backend and what each\n"
    "                backend says of itself: for cpu, the OpenBLAS library, the CPU's\n"
    "                features, the core type OpenBLAS runs and why (loading OpenBLAS)\n"
    "  -h, --help    print this help",
    info_main,
};
