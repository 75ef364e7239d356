/* tensor_lists.c — List[Tensor] compared by value on the cpu: ==, !=, count, index,
 * remove, sort and sorted of lists of tensors.
 *
 * As PyTorch 1.13, two tensors are equal when bool(a == b) is true and ordered when
 * bool(a < b) is: the comparison broadcasts (its messages when the shapes do not), and its
 * result must hold one element ("Boolean value of Tensor with more than one value is
 * ambiguous", "... with no values ..."), so [t] == [u] compares one-element tensors and
 * fails on longer ones; nan equals nothing. Lists of different lengths are unequal before
 * any item is compared. index() and remove() fail as prim's do on a tensor the list does not
 * hold. sort() is the insertion sort of libstdc++'s std::sort for short ranges,
 * with PyTorch's comparator (an item never precedes itself; reverse=True flips the answer),
 * so a nan lands where PyTorch puts it. prim's kernels of these operators (TS_BACKEND_ANY,
 * by identity) serve the other backends.
 */
#include <stdlib.h>
#include <string.h>

#include "tscript/print.h"
#include "engine/cpu.h"

typedef enum Cmp { CMP_EQ, CMP_LT } Cmp;

/* *r = bool(a == b) or bool(a < b), with PyTorch's errors. */
static int compare(TsCall *c, TsTensor *a, TsTensor *b, Cmp op, bool *r)
{
    TsTensor *in[2] = { a, b };
    int dim;
    int64_t sizes[TS_TENSOR_MAX_DIMS], n = 1;
    if (ts_aten_broadcast_shape(2, in, &dim, sizes, c->error))
        return c->error->code;
    for (int i = 0; i < dim; i++)
        n *= sizes[i];
    if (n != 1)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "Boolean value of Tensor with %s is "
                            "ambiguous", n ? "more than one value" : "no values");
    TsValue x = ts_cpu_one_value(a), y = ts_cpu_one_value(b);
    if (x.tag == TS_TAG_INT && y.tag == TS_TAG_INT) {
        *r = op == CMP_EQ ? x.u.i == y.u.i : x.u.i < y.u.i;
        return 0;
    }
    double dx = x.tag == TS_TAG_INT ? (double)x.u.i : x.tag == TS_TAG_BOOL ? x.u.b : x.u.d;
    double dy = y.tag == TS_TAG_INT ? (double)y.u.i : y.tag == TS_TAG_BOOL ? y.u.b : y.u.d;
    *r = op == CMP_EQ ? dx == dy : dx < dy;
    return 0;
}

static TsTensor *item(const TsList *l, size_t i) { return (TsTensor *)l->items[i].u.p; }

/* aten::eq.Tensor_list(Tensor[] a, Tensor[] b) -> bool, and ne. */
static int list_eq(TsCall *c, bool negate)
{
    TsArgs a;
    const TsList *x, *y;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc)
        rc = ts_args_tensor_list(&a, 0, &x);
    if (!rc)
        rc = ts_args_tensor_list(&a, 1, &y);
    bool eq = !rc && x->len == y->len;
    for (size_t i = 0; !rc && eq && i < x->len; i++)
        rc = compare(c, item(x, i), item(y, i), CMP_EQ, &eq);
    return ts_args_return(&a, rc, ts_bool(eq != negate));
}

static int k_eq(TsCall *c) { return list_eq(c, false); }
static int k_ne(TsCall *c) { return list_eq(c, true); }

typedef enum Search { COUNT, INDEX, REMOVE } Search;

/* count(el), index(el), remove(el): the items equal to el, in order. */
static int search(TsCall *c, Search what)
{
    TsArgs a;
    const TsList *l;
    TsTensor *el;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc)
        rc = ts_args_tensor_list(&a, 0, &l);
    if (!rc)
        rc = ts_args_tensor(&a, 1, &el);
    int64_t n = 0, found = -1;
    for (size_t i = 0; !rc && i < l->len && (what == COUNT || found < 0); i++) {
        bool eq;
        rc = compare(c, item(l, i), el, CMP_EQ, &eq);
        n += !rc && eq;
        if (!rc && eq)
            found = (int64_t)i;
    }
    if (rc || what == COUNT)
        return ts_args_return(&a, rc, ts_int(n));
    if (what == INDEX && found >= 0)
        return ts_args_return(&a, 0, ts_int(found));
    if (what == INDEX) {       /* prim's message: "'<the tensor printed>' is not in list" */
        char *text = ts_value_to_cstr(c->runtime, a.v[1], c->error);
        if (text)
            ts_error_set(c->error, TS_ERR_RUNTIME, "'%s' is not in list", text);
        free(text);
        return ts_args_fail(&a, c->error->code);
    }
    TsValue gone = ts_none();
    if (found < 0)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "list.remove(x): x not in list");
    else
        rc = ts_list_pop((TsList *)l, found, &gone, c->error);
    ts_value_release(gone);
    ts_args_release(&a);
    return rc;
}

static int k_count(TsCall *c) { return search(c, COUNT); }
static int k_index(TsCall *c) { return search(c, INDEX); }
static int k_remove(TsCall *c) { return search(c, REMOVE); }

/* PyTorch's comparator: a < b (b < a with reverse), an item never before itself. */
static int before(TsCall *c, TsValue a, TsValue b, bool reverse, bool *r)
{
    if (a.u.p == b.u.p) {
        *r = false;
        return 0;
    }
    *r = false;
    int rc = compare(c, (TsTensor *)a.u.p, (TsTensor *)b.u.p, CMP_LT, r);
    if (rc)
        return rc;             /* *r stays false: the caller stops at the error */
    *r = *r != reverse;
    return 0;
}

/* libstdc++'s __insertion_sort: an item before the first goes to the front, the others
 * move back while they precede their left neighbour. */
static int sort_items(TsCall *c, TsList *l, bool reverse)
{
    TsValue *v = l->items;
    for (size_t i = 1; i < l->len; i++) {
        TsValue x = v[i];
        bool first;
        int rc = before(c, x, v[0], reverse, &first);
        if (rc)
            return rc;
        size_t j = i;
        if (first)
            j = 0, memmove(v + 1, v, i * sizeof *v);
        else
            for (bool b = true; b;) {
                if ((rc = before(c, x, v[j - 1], reverse, &b)))
                    return rc;
                if (b)
                    v[j] = v[j - 1], j--;
            }
        v[j] = x;
    }
    return 0;
}

/* aten::sort.Tensor(Tensor[](a!) self, bool reverse=False) -> () */
static int k_sort(TsCall *c)
{
    TsArgs a;
    const TsList *l;
    bool reverse = false;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc)
        rc = ts_args_tensor_list(&a, 0, &l);
    if (!rc)
        rc = ts_args_bool(&a, 1, &reverse);
    if (!rc)
        rc = sort_items(c, (TsList *)l, reverse);
    ts_args_release(&a);
    return rc;
}

/* aten::sorted.Tensor(Tensor[](a) input) -> Tensor[]: a sorted copy. */
static int k_sorted(TsCall *c)
{
    TsArgs a;
    const TsList *l;
    TsList *out = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc)
        rc = ts_args_tensor_list(&a, 0, &l);
    if (!rc && !(out = ts_list_new(l->elem_type, l->len, c->error)))
        rc = c->error->code;
    for (size_t i = 0; !rc && i < l->len; i++) {
        ts_value_retain(l->items[i]);
        rc = ts_list_append(out, l->items[i], c->error);
    }
    if (!rc)
        rc = sort_items(c, out, false);
    return ts_args_return_list(&a, rc, out);
}

static const TsCpuOp ops[] = {
    { "aten::eq", "Tensor_list", k_eq },
    { "aten::ne", "Tensor_list", k_ne },
    { "aten::count", "Tensor", k_count },
    { "aten::index", "list_Tensor", k_index },
    { "aten::remove", "Tensor", k_remove },
    { "aten::sort", "Tensor", k_sort },
    { "aten::sorted", "Tensor", k_sorted },
};

const TsCpuTable ts_cpu_tensor_lists_table = { ops, sizeof ops / sizeof ops[0] };
