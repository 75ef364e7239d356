/* view_copies.c — the *_copy forms of the view ops (permute_copy, view_copy, t_copy, ...):
 * what the view op returns, as new tensors that share no memory with the input,
 * as PyTorch's functionalization defines them (clone's memory format). One kernel serves them all: it runs the view
 * op's kernel (the name without "_copy", the same overload) on the same arguments, so its
 * checks and messages are the view's, and copies each result (a tensor, or each tensor of a
 * list: split_copy, unbind_copy).
 */
#include <string.h>

#include "engine/chain.h"

/* A copy of the tensor value v (borrowed) as clone makes it, None on failure: a view whose
 * elements are dense in memory (a permutation, a transpose) keeps its strides, others
 * become contiguous (clone's memory_format=preserve). */
static TsValue copy_of(TsCall *c, TsValue v)
{
    TsValue args[2] = { v, ts_none() }, out;
    ts_value_retain(v);
    return ts_cpu_call_by_name(c, "aten::clone", "", 2, args, &out) ? ts_none() : out;
}

static int k_view_copy(TsCall *c)
{
    const char *name = c->op ? ts_operator_name(c->op) : "";
    const char *overload = c->op ? ts_operator_overload(c->op) : "";
    size_t n = strlen(name);
    char view[96];
    if (n <= 5 || n - 5 >= sizeof view || strcmp(name + n - 5, "_copy") != 0)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "view copy: %s is no *_copy op", name);
    memcpy(view, name, n - 5);
    view[n - 5] = '\0';
    TsArgs a;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (rc)
        return ts_args_fail(&a, rc);
    TsValue args[TS_ARGS_MAX];
    for (size_t i = 0; i < a.n; i++) {
        args[i] = a.v[i];
        ts_value_retain(args[i]);
    }
    TsValue res;
    rc = ts_cpu_call_by_name(c, view, overload ? overload : "", a.n, args, &res);
    TsValue out = ts_none();
    if (!rc && res.tag == TS_TAG_TENSOR) {
        out = copy_of(c, res);
        rc = out.tag == TS_TAG_NONE ? (int)c->error->code : 0;
    } else if (!rc && res.tag == TS_TAG_LIST) {
        const TsList *views = (const TsList *)res.u.p;
        TsList *l = ts_list_new(ts_type_tensor(), views->len, c->error);
        for (size_t i = 0; l && i < views->len; i++) {
            TsValue t = copy_of(c, views->items[i]);
            if (t.tag == TS_TAG_NONE || ts_list_append(l, t, c->error)) {
                ts_heap_release(&l->h);
                l = NULL;
            }
        }
        rc = l ? 0 : (int)c->error->code;
        if (l)
            out = ts_obj_value(l, TS_TAG_LIST);
    } else if (!rc) {
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "%s: the view gave no tensor", name);
    }
    ts_value_release(res);
    return ts_args_return(&a, rc, out);
}

static const TsCpuOp ops[] = {
    { "aten::alias_copy", "", k_view_copy },
    { "aten::as_strided_copy", "", k_view_copy },
    { "aten::detach_copy", "", k_view_copy },
    { "aten::diagonal_copy", "", k_view_copy },
    { "aten::expand_copy", "", k_view_copy },
    { "aten::permute_copy", "", k_view_copy },
    { "aten::select_copy", "int", k_view_copy },
    { "aten::slice_copy", "Tensor", k_view_copy },
    { "aten::split_copy", "Tensor", k_view_copy },
    { "aten::split_with_sizes_copy", "", k_view_copy },
    { "aten::squeeze_copy", "", k_view_copy },
    { "aten::squeeze_copy", "dim", k_view_copy },
    { "aten::t_copy", "", k_view_copy },
    { "aten::transpose_copy", "int", k_view_copy },
    { "aten::unbind_copy", "int", k_view_copy },
    { "aten::unfold_copy", "", k_view_copy },
    { "aten::unsqueeze_copy", "", k_view_copy },
    { "aten::view_copy", "", k_view_copy },
};

const TsCpuTable ts_cpu_view_copies_table = { ops, sizeof ops / sizeof ops[0] };
