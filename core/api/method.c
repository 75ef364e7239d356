/* method.c — TsMethod: a compiled function made callable through the embedding API — a
 * script's free function, or a module's method with its root object bound as self — and the
 * module side of the API (finding a method, which compiles it on first use through the
 * module's unit resolver, and saving).
 *
 * A call checks what the program hands it against the signature (the interpreter trusts
 * the types of its registers, so a wrong value must not get in), then runs it with ts_run,
 * which builds the function's Code once and is safe on many threads at once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "module.h"
#include "registry/schema.h"
#include "sched/interp.h"
#include "serialize/save.h"

enum { MAX_STACK_ARGS = 16 };

TsMethod *ts_api_method_new(TsRuntime *rt, TsCompUnit *unit, TsFunction *f, TsValue self,
                            TsError *err)
{
    TsMethod *m = malloc(sizeof *m);
    if (!m)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory"), NULL;
    m->rt = rt;
    m->unit = unit;
    m->f = f;
    m->self = self;
    ts_value_retain(self);
    return m;
}

void ts_method_free(TsMethod *m)
{
    if (!m)
        return;
    ts_value_release(m->self);
    free(m);
}

TsMethod *ts_module_find_method(TsModule *m, const char *name, TsError *err)
{
    if (!m || !name)
        return ts_error_set(err, TS_ERR_USAGE, "ts_module_find_method: no %s",
                            m ? "name" : "module"), NULL;
    TsError local = TS_ERROR_INIT;
    TsFunction *f = ts_module_method(m, name, &local);
    if (!f) {
        if (local.code == TS_OK)
            ts_error_set(&local, TS_ERR_KEY, "the module has no method '%s'", name);
        ts_error_move(err, &local);
        return NULL;
    }
    return ts_api_method_new(ts_module_runtime(m), ts_module_unit(m), f, ts_module_root(m),
                             err);
}

int ts_module_save(TsModule *m, const char *path, TsError *err)
{
    if (!m || !path)
        return ts_error_set(err, TS_ERR_USAGE, "ts_module_save: no %s", m ? "path" : "module");
    return ts_save_module(ts_module_runtime(m), m, path, err);
}

const char *ts_method_name(const TsMethod *m) { return m->f->qualname; }

/* The signature's arguments, self included. */
static size_t all_args(const TsMethod *m) { return ts_function_num_args(m->f); }
static size_t bound(const TsMethod *m) { return m->self.tag != TS_TAG_NONE; }

size_t ts_method_num_args(const TsMethod *m)
{
    size_t n = all_args(m);
    return n > bound(m) ? n - bound(m) : 0;
}

const TsType *ts_method_arg_type(const TsMethod *m, size_t i)
{
    return i < ts_method_num_args(m) ? ts_function_arg_type(m->f, i + bound(m)) : NULL;
}

const TsType *ts_method_return_type(const TsMethod *m) { return ts_function_return_type(m->f); }

/* Argument i of those a call passes, in the schema (NULL past the end or without one). */
static const TsArg *arg_of(const TsMethod *m, size_t i)
{
    const TsSchema *s = m->f->schema;
    return s && i < ts_method_num_args(m) ? &s->args[i + bound(m)] : NULL;
}

const char *ts_method_arg_name(const TsMethod *m, size_t i)
{
    const TsArg *a = arg_of(m, i);
    return a ? a->name : NULL;
}

bool ts_method_arg_default(const TsMethod *m, size_t i, TsValue *out)
{
    const TsArg *a = arg_of(m, i);
    *out = a && a->has_default ? a->default_value : ts_none();
    return a && a->has_default;
}

/* PyTorch prints a function's schema under its unqualified name: "add(int a) -> int". */
size_t ts_method_schema(const TsMethod *m, char *buf, size_t size)
{
    char *text = m->f->schema ? ts_schema_to_string(m->f->schema) : NULL;
    const char *paren = text ? strchr(text, '(') : NULL;
    int n = snprintf(buf, size, "%s%s", m->f->name, paren ? paren : "");
    free(text);
    return n < 0 ? 0 : (size_t)n;
}

/* Whether v can be passed for a parameter of type t: 1 or 0; -1 when v's type could not
 * be made (out of memory), which must not read as a mismatch. */
static int fits(TsValue v, const TsType *t)
{
    if (v.tag == TS_TAG_OBJECT && ((const TsObject *)v.u.p)->cls == t)
        return 1;
    if (v.tag == TS_TAG_TENSOR && t == ts_type_tensor())
        return 1;              /* every tensor; its refined type is not needed */
    const TsType *vt = ts_value_type(v);
    if (!vt)
        return -1;
    return vt == t || ts_type_is_subtype_of(vt, t);
}

/* The argument count and types against the signature, in PyTorch's words. */
static int check_args(const TsMethod *m, const TsValue *args, size_t n, TsError *err)
{
    size_t want = ts_method_num_args(m);
    char decl[512];
    ts_method_schema(m, decl, sizeof decl);
    if (n > want)
        return ts_error_set(err, TS_ERR_TYPE, "%s() expected at most %zu argument(s) but "
                            "received %zu argument(s). Declaration: %s", m->f->name, want, n,
                            decl);
    const TsSchema *s = m->f->schema;
    for (size_t i = n; i < want; i++)   /* the ones left out take their defaults */
        if (!s || !s->args[i + bound(m)].has_default)
            return ts_error_set(err, TS_ERR_TYPE, "%s() is missing value for argument '%s'. "
                                "Declaration: %s", m->f->name,
                                s ? s->args[i + bound(m)].name : "?", decl);
    for (size_t i = 0; i < n; i++) {
        const TsType *t = ts_method_arg_type(m, i);
        if (args[i].tag >= TS_TAG__COUNT || args[i].tag == TS_TAG_UNINIT ||
            (ts_is_heap(args[i]) && !args[i].u.p))
            return ts_error_set(err, TS_ERR_USAGE, "%s(): argument %zu is not a valid value",
                                m->f->name, i + 1);
        int f = fits(args[i], t);
        if (f < 0)
            return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
        if (!f) {
            char want_s[256], got_s[256];
            ts_type_annotation(t, want_s, sizeof want_s);
            ts_type_annotation(ts_value_type(args[i]), got_s, sizeof got_s);
            return ts_error_set(err, TS_ERR_TYPE, "%s() Expected a value of type '%s' for "
                                "argument '%s' but instead found type '%s'.\nPosition: %zu\n"
                                "Declaration: %s", m->f->name, want_s,
                                s ? s->args[i + bound(m)].name : "?", got_s, i, decl);
        }
    }
    return 0;
}

/* A value that is or may hold a tensor (anything but a scalar, a string or a device). */
static bool may_hold_tensor(TsValue v)
{
    return v.tag != TS_TAG_NONE && v.tag != TS_TAG_INT && v.tag != TS_TAG_DOUBLE &&
           v.tag != TS_TAG_BOOL && v.tag != TS_TAG_STR && v.tag != TS_TAG_DEVICE;
}

/* A call that hands the program a tensor (or a container that may hold one) loads the
 * plugins the runtime deferred (runtime.c) first: the tensor's kernels (printing it, say)
 * may be theirs, and no operator lookup would have asked for them. */
static int load_for(const TsMethod *m, const TsValue *args, size_t n, TsError *err)
{
    for (size_t i = 0; i < n; i++)
        if (may_hold_tensor(args[i]))
            return ts_runtime_load_plugins(m->rt, err);
    return 0;
}

int ts_method_call(const TsMethod *m, const TsValue *args, size_t n, TsValue *out,
                   TsError *err)
{
    *out = ts_none();
    if (!m || (!args && n))
        return ts_error_set(err, TS_ERR_USAGE, "ts_method_call: no %s",
                            m ? "arguments" : "method");
    int rc = check_args(m, args, n, err);
    if (rc)
        return rc;
    if ((rc = load_for(m, args, n, err)))
        return rc;
    size_t total = ts_method_num_args(m) + bound(m);
    TsValue small[MAX_STACK_ARGS];
    TsValue *all = total <= MAX_STACK_ARGS ? small : calloc(total, sizeof *all);
    if (!all)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory");
    size_t k = 0;
    if (bound(m))
        all[k++] = m->self;
    for (size_t i = 0; i < n; i++)
        all[k++] = args[i];
    while (k < total) {
        all[k] = m->f->schema->args[k].default_value;
        k++;
    }
    for (size_t i = 0; i < total; i++)
        ts_value_retain(all[i]);          /* ts_run takes the references */
    rc = ts_run(m->rt, m->unit, m->f, all, total, out, err);
    if (all != small)
        free(all);
    return rc;
}
