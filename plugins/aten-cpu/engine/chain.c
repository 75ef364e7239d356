/* chain.c — one aten-cpu kernel as a chain of calls to others (chain.h): the arguments built
 * from a format string, the kernel found by name in the tables the composites use, and the
 * intermediates kept until the chain ends.
 */
#include <string.h>

#include "engine/chain.h"

/* The tables the composite kernels call into. */
static const TsCpuTable *const tables[] = {
    &ts_aten_view_table, &ts_cpu_binary_table, &ts_cpu_unary_table, &ts_cpu_select_table,
    &ts_cpu_reduce_table, &ts_cpu_join_table, &ts_cpu_create_table, &ts_cpu_copy_table,
    &ts_cpu_compose_table, &ts_cpu_derived_table, &ts_cpu_nn_extra_table, &ts_cpu_blas_table,
    &ts_cpu_linalg_table, &ts_cpu_factory_table, &ts_cpu_pool_table, &ts_cpu_activation_table,
    &ts_cpu_strided_table, &ts_cpu_index_table, &ts_cpu_ternary_table, &ts_cpu_scan_table,
    &ts_cpu_compose_table, &ts_cpu_compose_more_table,
};

static const TsCpuTable *find_table(const char *qualname, const char *overload)
{
    for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++)
        for (size_t i = 0; i < tables[t]->n; i++)
            if (!strcmp(tables[t]->ops[i].qualname, qualname) &&
                !strcmp(tables[t]->ops[i].overload, overload))
                return tables[t];
    return NULL;
}

int ts_cpu_call_by_name(TsCall *c, const char *qualname, const char *overload, size_t n,
                        TsValue *args, TsValue *out)
{
    const TsCpuTable *table = find_table(qualname, overload);
    if (table)
        return ts_cpu_call_kernel(c, table, qualname, overload, n, args, out);
    for (size_t i = 0; i < n; i++)
        ts_value_release(args[i]);
    *out = ts_none();
    return ts_error_set(c->error, TS_ERR_RUNTIME, "%s.%s: no cpu kernel", qualname, overload);
}

TsTensor *ts_chain_keep(TsChain *k, TsTensor *t)
{
    if (!t)
        return NULL;
    if (k->n == TS_CHAIN_MAX) {     /* a composite longer than the chain: a bug, not input */
        ts_tensor_release(t);
        ts_error_set(k->c->error, TS_ERR_RUNTIME, "internal: composite chain too long");
        return NULL;
    }
    return k->t[k->n++] = t;
}

TsTensor *ts_chain_result(TsTensor *t)
{
    if (t)
        ts_tensor_retain(t);
    return t;
}

void ts_chain_end(TsChain *k)
{
    while (k->n > 0)
        ts_tensor_release(k->t[--k->n]);
}

int ts_chain_return(TsArgs *a, TsChain *k, TsTensor *r)
{
    r = ts_chain_result(r);
    ts_chain_end(k);
    return ts_args_return_tensor(a, r ? 0 : (int)a->call->error->code, r);
}

/* The arguments of fmt into v (references taken); the count, or -1 when a tensor argument
 * is missing or a list cannot be made (what was built is released). */
static int build_args(TsChain *k, const char *fmt, va_list ap, TsValue *v)
{
    int n = 0;
    bool ok = true;
    for (const char *f = fmt; *f; f++) {
        TsValue x = ts_none();
        switch (*f) {
        case 't': case 'o': {
            TsTensor *t = va_arg(ap, TsTensor *);
            if (t) {
                ts_tensor_retain(t);
                x = ts_obj_value(t, TS_TAG_TENSOR);
            } else if (*f == 't') {
                ok = false;
            }
            break;
        }
        case 'i': x = ts_int(va_arg(ap, int64_t)); break;
        case 'd': x = ts_double(va_arg(ap, double)); break;
        case 'b': x = ts_bool(va_arg(ap, int) != 0); break;
        case 'n': break;
        case 'L': {
            int len = va_arg(ap, int);
            TsTensor *const *ts = va_arg(ap, TsTensor *const *);
            TsList *l = ts_list_new(ts_type_tensor(), (size_t)len, k->c->error);
            for (int i = 0; l && i < len; i++) {
                if (ts[i])
                    ts_tensor_retain(ts[i]);
                if (!ts[i] || ts_list_append(l, ts_obj_value(ts[i], TS_TAG_TENSOR),
                                             k->c->error)) {
                    ts_heap_release(&l->h);
                    l = NULL;
                }
            }
            if (l)
                x = ts_obj_value(l, TS_TAG_LIST);
            else
                ok = false;
            break;
        }
        case 'l': {
            int len = va_arg(ap, int);
            const int64_t *vals = va_arg(ap, const int64_t *);
            x = ts_cpu_int_list(k->c->error, len, vals);
            ok = ok && x.tag != TS_TAG_NONE;    /* an earlier NULL tensor still fails */
            break;
        }
        default: ok = false; break;
        }
        v[n++] = x;
    }
    if (ok)
        return n;
    for (int i = 0; i < n; i++)
        ts_value_release(v[i]);
    return -1;
}

static int vcall(TsChain *k, const char *qualname, const char *overload, TsValue *out,
                 const char *fmt, va_list ap)
{
    TsValue v[TS_ARGS_MAX];
    *out = ts_none();
    int n = build_args(k, fmt, ap, v);
    if (n < 0)
        return k->c->error->code ? (int)k->c->error->code
                                 : ts_error_set(k->c->error, TS_ERR_RUNTIME, "internal: %s",
                                                qualname);
    const TsCpuTable *table = find_table(qualname, overload);
    if (!table) {
        for (int i = 0; i < n; i++)
            ts_value_release(v[i]);
        return ts_error_set(k->c->error, TS_ERR_RUNTIME, "%s.%s: no cpu kernel", qualname,
                            overload);
    }
    return ts_cpu_call_kernel(k->c, table, qualname, overload, (size_t)n, v, out);
}

int ts_chain_call(TsChain *k, const char *qualname, const char *overload, TsValue *out,
                  const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = vcall(k, qualname, overload, out, fmt, ap);
    va_end(ap);
    return rc;
}

TsTensor *ts_chain_op(TsChain *k, const char *qualname, const char *overload, const char *fmt,
                      ...)
{
    va_list ap;
    TsValue r;
    va_start(ap, fmt);
    int rc = vcall(k, qualname, overload, &r, fmt, ap);
    va_end(ap);
    return rc ? NULL : ts_chain_keep(k, (TsTensor *)r.u.p);
}

TsTensor *ts_chain_reduce(TsChain *k, TsTensor *t, int64_t reduction)
{
    if (reduction == 1)
        return ts_chain_op(k, "aten::mean", "", "tn", t);
    if (reduction == 2)
        return ts_chain_op(k, "aten::sum", "", "tn", t);
    return t;
}
