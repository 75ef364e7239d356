/* overloads.c — the second overloads of operators whose first ones live elsewhere
 * (schemas/aten_overloads.yaml, and the .names forms of zeros/ones/full in aten.yaml), each
 * run through the kernel of the form it differs from:
 *
 *   - the Generator? forms of rand, randn and randperm: TorchScript has no generator object
 *     to pass, so generator is None, PyTorch's default generator, which is the process's;
 *   - the str[]? names forms of the factories: names=None is the plain factory; names are
 *     checked as PyTorch converts them (Dimname below) and against the result's dims, and
 *     a tensor that would carry a real name fails with PyTorch's message for a named tensor
 *     in TorchScript (tscript's tensors have no names: PyTorch only fails on returning one);
 *   - their out= forms: the functional result in out's dtype, stored into out;
 *   - the Dimname forms of select, transpose, flatten, ...: tscript's tensors are unnamed,
 *     so after the conversion of the names (last argument first, as PyTorch unpacks them)
 *     each fails as PyTorch's lookup of a name in an unnamed tensor does, except
 *     flatten.named_out_dim, which flattens and then names the new dim;
 *   - frexp and ldexp of tensors, fill_ with a 0-dim tensor, round_ to decimals, einsum's
 *     sublist form (einsum(a, [0, 1], b, [1, 2])), and view.dtype (which only the API can
 *     call: TorchScript's x.view(torch.int32) is x.view([3]), in PyTorch as here).
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/chain.h"
#include "engine/elementwise.h"

/* PyTorch's wording for a named tensor reaching TorchScript. */
#define NYI_NAMED "NYI: Named tensors are currently unsupported in TorchScript. As a  " \
                  "workaround please drop names via `tensor = tensor.rename(None)`."

/* ---- names ---------------------------------------------------------------------------- */

/* A str as PyTorch's Dimname: "dimname::NAME" (a qualified symbol in the dimname namespace),
 * NAME an identifier or "*" (the wildcard, an unnamed dim). */
typedef struct Dimname {
    bool wildcard;
    const char *name;
    size_t len;
} Dimname;

static bool is_identifier(const char *s, size_t n)
{
    if (n == 0 || isdigit((unsigned char)s[0]))
        return false;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)s[i]) && s[i] != '_')
            return false;
    return true;
}

static int dimname(TsError *err, const TsStr *s, Dimname *d)
{
    const char *sep = strstr(s->data, "::");
    if (!sep)
        return ts_error_set(err, TS_ERR_RUNTIME, "all symbols must have a namespace, "
                            "<namespace>::<string>, but found: %s", s->data);
    if (sep - s->data != 7 || strncmp(s->data, "dimname", 7))
        return ts_error_set(err, TS_ERR_RUNTIME, "name.is_dimname() INTERNAL ASSERT FAILED at "
                            "\"./aten/src/ATen/core/Dimname.cpp\":47, please report a bug to "
                            "PyTorch. ");
    d->name = sep + 2;
    d->len = s->len - (size_t)(d->name - s->data);
    d->wildcard = d->len == 1 && d->name[0] == '*';
    if (!d->wildcard && !is_identifier(d->name, d->len))
        return ts_error_set(err, TS_ERR_RUNTIME, "Invalid name: a valid identifier contains "
                            "only digits, alphabetical characters, and/or underscore and "
                            "starts with a non-digit. got: '%s'.", d->name);
    return 0;
}

/* Argument v (str, str[] or None) converted, list items in order; the first into *first. */
static int convert_arg(TsError *err, TsValue v, Dimname *first, bool *has_first)
{
    Dimname d;
    if (v.tag == TS_TAG_STR) {
        *has_first = true;
        return dimname(err, (const TsStr *)v.u.p, first);
    }
    if (v.tag != TS_TAG_LIST)
        return 0;
    const TsList *l = (const TsList *)v.u.p;
    *has_first = false;
    for (size_t i = 0; i < l->len && l->items[i].tag == TS_TAG_STR; i++) {   /* not int[] */
        if (dimname(err, (const TsStr *)l->items[i].u.p, i ? &d : first))
            return err->code;
        *has_first = true;
    }
    return 0;
}

/* Converts the name arguments among the first n of a, the last first as PyTorch unpacks a
 * call's arguments; d[i] is argument i's name (a list's first). */
static int convert_names(TsArgs *a, size_t n, Dimname *d, bool *has)
{
    for (size_t i = n; i-- > 0;) {
        has[i] = false;
        if (convert_arg(a->call->error, a->v[i], &d[i], &has[i]))
            return a->call->error->code;
    }
    return 0;
}

/* PyTorch's lookup of name d in t, whose dims are all unnamed: it always fails. */
static int lookup(TsError *err, const TsTensor *t, const Dimname *d)
{
    if (d->wildcard)
        return ts_error_set(err, TS_ERR_RUNTIME, "Please look up dimensions by name, got: "
                            "name = None.");
    TsBuf b = TS_BUF_INIT;
    for (int i = 0; i < t->dim; i++)
        ts_buf_puts(&b, i ? ", None" : "None");
    int rc = ts_error_set(err, TS_ERR_RUNTIME, "Name '%.*s' not found in Tensor[%s].",
                          (int)d->len, d->name, b.p ? b.p : "");
    free(b.p);
    return rc;
}

/* ---- the Dimname forms of view ops ------------------------------------------------------ */

/* How one overload looks its names up: the name arguments among its first n_args, in the
 * order PyTorch looks them up (the argument evaluated last in C++ comes first). */
typedef struct NamedOp {
    size_t n_args;
    int8_t lookups[3];         /* argument indices; -1 ends */
} NamedOp;

static int named_op(TsCall *c, const NamedOp *op)
{
    TsArgs a;
    Dimname d[8];
    bool has[8];
    TsTensor *self;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc)
        rc = ts_args_tensor(&a, 0, &self);
    if (!rc)
        rc = convert_names(&a, op->n_args, d, has);
    for (int i = 0; !rc && i < 3 && op->lookups[i] >= 0; i++) {
        int k = op->lookups[i];
        if (!has[k])   /* an empty dims list: flatten's own check */
            rc = ts_error_set(c->error, TS_ERR_RUNTIME, "flatten(tensor, dims, out_dim): "
                              "dims cannot be empty");
        else
            rc = lookup(c->error, self, &d[k]);
    }
    /* every overload looks a name up, which fails on tscript's unnamed tensors */
    return ts_args_fail(&a, rc ? rc : ts_error_set(c->error, TS_ERR_RUNTIME, "no name to look up"));
}

#define NAMED(K, N, ...) \
    static int k_##K(TsCall *c) { static const NamedOp op = { N, { __VA_ARGS__ } }; \
                                  return named_op(c, &op); }
NAMED(select, 3, 1, -1)
NAMED(transpose, 3, 2, 1, -1)
NAMED(unbind, 2, 1, -1)
NAMED(unflatten, 4, 1, -1)
NAMED(flatten_names, 4, 1, 2, -1)
NAMED(flatten_list, 3, 1, -1)
NAMED(diagonal, 5, 3, 2, -1)
NAMED(cumsum_, 2, 1, -1)
NAMED(cumprod_, 2, 1, -1)

/* aten::index_copy_.dimname: PyTorch converts the name, then refuses it. */
static int k_index_copy_(TsCall *c)
{
    TsArgs a;
    Dimname d[2];
    bool has[2];
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc)
        rc = convert_names(&a, 2, d, has);
    if (!rc)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "index_copy: You passed a dimname (string) "
                          "to this op in place of a dimension index but it does not yet "
                          "support this behavior. Please pass a dimension index to work "
                          "around this.");
    return ts_args_fail(&a, rc);
}

/* aten::flatten.named_out_dim(Tensor(a) self, int start_dim, int end_dim, str out_dim):
 * flatten.using_ints, whose result then names the flattened dim. */
static int k_flatten_named_out(TsCall *c)
{
    TsArgs a;
    Dimname d[4];
    bool has[4];
    TsTensor *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc)
        rc = convert_names(&a, 4, d, has);
    if (!rc) {
        TsValue v[3] = { a.v[0], a.v[1], a.v[2] };
        for (int i = 0; i < 3; i++)
            ts_value_retain(v[i]);
        r = ts_cpu_call_tensor(c, &ts_aten_view_table, "aten::flatten", "using_ints", 3, v);
        rc = r ? 0 : c->error->code;
    }
    if (!rc && !d[3].wildcard)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, NYI_NAMED);
    return ts_args_return_tensor(&a, rc, r);
}

/* ---- factories ------------------------------------------------------------------------ */

/* PyTorch's checks of names (None, or a str[] converted already) for a new tensor t. */
static int check_names(TsError *err, const TsTensor *t, TsValue names)
{
    if (names.tag != TS_TAG_LIST)
        return 0;
    const TsList *l = (const TsList *)names.u.p;
    Dimname d[64];
    size_t n = l->len < 64 ? l->len : 64;
    bool named = false, dup = false;
    TsBuf b = TS_BUF_INIT;
    ts_buf_puts(&b, "[");
    for (size_t i = 0; i < n; i++) {
        dimname(err, (const TsStr *)l->items[i].u.p, &d[i]);     /* checked by the caller */
        if (d[i].wildcard) {
            ts_buf_puts(&b, i ? ", None" : "None");
            continue;
        }
        named = true;
        ts_buf_printf(&b, "%s'%.*s'", i ? ", " : "", (int)d[i].len, d[i].name);
        for (size_t j = 0; j < i; j++)
            dup |= !d[j].wildcard && d[j].len == d[i].len && !memcmp(d[j].name, d[i].name, d[i].len);
    }
    ts_buf_puts(&b, "]");
    int rc = 0;
    if (l->len != (size_t)t->dim)
        rc = ts_error_set(err, TS_ERR_RUNTIME, "Number of names (%zu) and number of dimensions "
                          "in tensor (%d) do not match. Attempted to create a tensor with "
                          "names %s", l->len, t->dim, b.p ? b.p : "[]");
    else if (dup)
        rc = ts_error_set(err, TS_ERR_RUNTIME, "Cannot construct a tensor with duplicate names. "
                          "Got names: %s.", b.p ? b.p : "[]");
    else if (named)
        rc = ts_error_set(err, TS_ERR_RUNTIME, NYI_NAMED);
    free(b.p);
    return rc;
}

/* What a factory overload drops to become its base form. */
typedef struct Factory {
    const TsCpuTable *table;
    const char *qualname, *base;   /* the functional base overload */
    int8_t names, gen;             /* argument indices, -1 for none */
    int8_t n_lead;                 /* the arguments before the keyword ones: size, fill */
    bool out;                      /* an out= form: the base gets out's dtype */
    bool keep_memory_format;       /* empty: memory_format passes on */
} Factory;

static int factory(TsCall *c, const Factory *f)
{
    TsArgs a;
    Dimname d[8];
    bool has[8];
    TsValue v[8];
    size_t n = 0;
    TsTensor *r = NULL, *out = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc && f->names >= 0)
        rc = convert_names(&a, a.n, d, has);
    if (!rc && f->out)
        rc = ts_args_tensor(&a, a.n - 1, &out);
    if (!rc) {
        if (!f->out) {      /* the functional form: everything but names and generator */
            for (size_t i = 0; i < a.n; i++)
                if ((int)i != f->names && (int)i != f->gen)
                    v[n++] = a.v[i];
        } else {            /* size (, fill), dtype=out's, layout, device, pin_memory */
            for (int i = 0; i < f->n_lead; i++)
                v[n++] = a.v[i];
            v[n++] = ts_int(out->dtype);
            v[n++] = ts_none();
            v[n++] = ts_none();
            v[n++] = ts_none();
            if (f->keep_memory_format)
                v[n++] = a.v[a.n - 2];
        }
        for (size_t i = 0; i < n; i++)
            ts_value_retain(v[i]);
        r = ts_cpu_call_tensor(c, f->table, f->qualname, f->base, n, v);
        rc = r ? 0 : c->error->code;
    }
    if (!rc && f->names >= 0)
        rc = check_names(c->error, r, a.v[f->names]);
    if (!rc && f->out) {
        if (!strcmp(f->qualname, "aten::empty"))    /* nothing to copy: just the shape */
            rc = ts_aten_resize_out(out, r->dim, r->sizes, &ts_cpu_allocator, c->error);
        else
            rc = ts_cpu_store_out(out, r, c->error);
        ts_tensor_release(r);
        return ts_args_return_arg(&a, rc, a.n - 1);
    }
    return ts_args_return_tensor(&a, rc, r);
}

#define FT &ts_cpu_factory_table
#define RT &ts_cpu_random_table
#define FACTORY(K, TABLE, Q, BASE, NAMES, GEN, LEAD, OUT, MF) \
    static int k_##K(TsCall *c) { static const Factory f = { TABLE, Q, BASE, NAMES, GEN, LEAD, \
                                                             OUT, MF }; \
                                  return factory(c, &f); }
FACTORY(empty_names, FT, "aten::empty", "memory_format", 1, -1, 1, false, false)
FACTORY(empty_names_out, FT, "aten::empty", "memory_format", 1, -1, 1, true, true)
FACTORY(zeros_names, FT, "aten::zeros", "", 1, -1, 1, false, false)
FACTORY(zeros_names_out, FT, "aten::zeros", "", 1, -1, 1, true, false)
FACTORY(ones_names, FT, "aten::ones", "", 1, -1, 1, false, false)
FACTORY(ones_names_out, FT, "aten::ones", "", 1, -1, 1, true, false)
FACTORY(full_names, FT, "aten::full", "", 2, -1, 2, false, false)
FACTORY(full_names_out, FT, "aten::full", "", 2, -1, 2, true, false)
FACTORY(rand_gen, FT, "aten::rand", "", -1, 1, 1, false, false)
FACTORY(rand_names, FT, "aten::rand", "", 1, -1, 1, false, false)
FACTORY(rand_gen_names, FT, "aten::rand", "", 2, 1, 1, false, false)
FACTORY(rand_gen_out, FT, "aten::rand", "", -1, 1, 1, true, false)
FACTORY(rand_names_out, FT, "aten::rand", "", 1, -1, 1, true, false)
FACTORY(rand_gen_names_out, FT, "aten::rand", "", 2, 1, 1, true, false)
FACTORY(randn_gen, FT, "aten::randn", "", -1, 1, 1, false, false)
FACTORY(randn_names, FT, "aten::randn", "", 1, -1, 1, false, false)
FACTORY(randn_gen_names, FT, "aten::randn", "", 2, 1, 1, false, false)
FACTORY(randn_gen_out, FT, "aten::randn", "", -1, 1, 1, true, false)
FACTORY(randn_names_out, FT, "aten::randn", "", 1, -1, 1, true, false)
FACTORY(randn_gen_names_out, FT, "aten::randn", "", 2, 1, 1, true, false)
FACTORY(randperm_gen, RT, "aten::randperm", "", -1, 1, 1, false, false)
FACTORY(randperm_gen_out, RT, "aten::randperm", "", -1, 1, 1, true, false)

/* ---- tensor math -------------------------------------------------------------------------- */

/* aten::frexp.Tensor(Tensor self) -> (Tensor mantissa, Tensor exponent): self = mantissa *
 * 2 ** exponent, the mantissa in self's dtype with magnitude in [0.5, 1), the exponent int32;
 * zero, inf and nan keep their value with exponent 0. */
static int k_frexp(TsCall *c)
{
    TsArgs a;
    TsTensor *self, *x = NULL, *r[2] = { NULL, NULL };
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc)
        rc = ts_args_tensor(&a, 0, &self);
    if (!rc && !ts_dtype_is_floating(self->dtype))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "torch.frexp() only supports "
                          "floating-point dtypes");
    if (!rc && (!(x = ts_cpu_cast(self, self->dtype, c->error)) ||
                !(r[0] = ts_cpu_empty(self->dtype, self->dim, self->sizes, c->error)) ||
                !(r[1] = ts_cpu_empty(TS_INT32, self->dim, self->sizes, c->error))))
        rc = c->error->code;
    if (!rc) {
        size_t es = ts_dtype_size(self->dtype);
        const char *src = ts_tensor_data(x);
        char *m = ts_tensor_data(r[0]);
        int32_t *e = ts_tensor_data(r[1]);
        for (int64_t i = 0, n = ts_tensor_numel(x); i < n; i++) {
            double v = ts_cpu_load_double(self->dtype, src + i * (int64_t)es);
            int ex = 0;
            double mv = isfinite(v) ? frexp(v, &ex) : v;
            ts_cpu_store_double(self->dtype, m + i * (int64_t)es, mv);
            e[i] = ex;
        }
    }
    if (x)
        ts_tensor_release(x);
    return ts_args_return_tensors(&a, rc, 2, r);
}

/* aten::ldexp.Tensor(Tensor self, Tensor other): self * 2 ** other, as PyTorch composes it. */
static int k_ldexp(TsCall *c)
{
    TsArgs a;
    TsTensor *self, *other, *r = NULL;
    TsChain k;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc)
        rc = ts_args_tensor(&a, 0, &self);
    if (!rc)
        rc = ts_args_tensor(&a, 1, &other);
    if (!rc) {
        ts_chain_init(&k, c);
        TsTensor *p = ts_chain_op(&k, "aten::pow", "Scalar", "dt", 2.0, other);
        r = ts_chain_result(ts_chain_op(&k, "aten::mul", "Tensor", "tt", self, p));
        ts_chain_end(&k);
        rc = r ? 0 : c->error->code;
    }
    return ts_args_return_tensor(&a, rc, r);
}

/* aten::fill_.Tensor(Tensor(a!) self, Tensor value): fill_.Scalar with value's element. */
static int k_fill_tensor(TsCall *c)
{
    TsArgs a;
    TsTensor *self, *value;
    TsValue r;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc)
        rc = ts_args_tensor(&a, 0, &self);
    if (!rc)
        rc = ts_args_tensor(&a, 1, &value);
    if (!rc && value->dim != 0)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "fill_ only supports 0-dimension value "
                          "tensor but got tensor with %d dimensions.", value->dim);
    if (!rc) {
        TsValue v[2] = { a.v[0], ts_cpu_one_value(value) };
        ts_value_retain(v[0]);
        rc = ts_cpu_call_kernel(c, &ts_cpu_factory_table, "aten::fill_", "Scalar", 2, v, &r);
        if (!rc)
            ts_value_release(r);
    }
    return ts_args_return_arg(&a, rc, 0);
}

/* aten::round_.decimals(Tensor(a!) self, *, int decimals): round.decimals stored into self. */
static int k_round_decimals_(TsCall *c)
{
    TsArgs a;
    TsTensor *self, *r = NULL;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc)
        rc = ts_args_tensor(&a, 0, &self);
    if (!rc) {
        TsValue v[2] = { a.v[0], a.v[1] };
        ts_value_retain(v[0]);
        r = ts_cpu_call_tensor(c, &ts_cpu_unary_table, "aten::round", "decimals", 2, v);
        rc = r ? 0 : c->error->code;
    }
    if (!rc)
        ts_cpu_copy_into(self, r);
    if (r)
        ts_tensor_release(r);
    return ts_args_return_arg(&a, rc, 0);
}

/* aten::view.dtype(Tensor(a) self, ScalarType dtype): self's bytes read as dtype. PyTorch's
 * TorchScript never chooses it (match.c blocks it: x.view(torch.int32) is x.view([3])),
 * but the operator is declared, and this is what it does: with another element size the last
 * dim (stride 1) grows or shrinks by the ratio, and the other strides and the offset scale. */
static int k_view_dtype(TsCall *c)
{
    TsArgs a;
    TsTensor *self, *r = NULL;
    int64_t dtype = 0;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (!rc)
        rc = ts_args_tensor(&a, 0, &self);
    if (!rc)
        rc = ts_args_int(&a, 1, &dtype);
    if (!rc && (dtype < 0 || dtype >= TS_DTYPE__COUNT))
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "unknown dtype %lld", (long long)dtype);
    if (rc)
        return ts_args_fail(&a, rc);
    int64_t from = (int64_t)ts_dtype_size(self->dtype), to = (int64_t)ts_dtype_size((int)dtype);
    int64_t sizes[TS_TENSOR_MAX_DIMS], strides[TS_TENSOR_MAX_DIMS], offset = self->offset;
    int d = self->dim;
    memcpy(sizes, self->sizes, (size_t)d * sizeof *sizes);
    memcpy(strides, self->strides, (size_t)d * sizeof *strides);
    const char *fn = ts_dtype_type_name(self->dtype), *tn = ts_dtype_type_name((int)dtype);
#define VIEW_ERR(...) ts_error_set(c->error, TS_ERR_RUNTIME, __VA_ARGS__)
#define TAIL "to view %s as %s (different element sizes)"
    if (from != to) {
        if (d == 0)
            rc = VIEW_ERR("self.dim() cannot be 0 " TAIL, fn, tn);
        else if (strides[d - 1] != 1)
            rc = VIEW_ERR("self.stride(-1) must be 1 " TAIL ", but got %lld", fn, tn,
                          (long long)strides[d - 1]);
    }
    if (!rc && from > to) {            /* each element becomes from / to of them */
        int64_t k = from / to;
        sizes[d - 1] *= k;
        for (int i = 0; i < d - 1; i++)
            strides[i] *= k;
        offset *= k;
    } else if (!rc && from < to) {     /* to / from elements become one */
        int64_t k = to / from;
        if (sizes[d - 1] % k)
            rc = VIEW_ERR("self.size(-1) must be divisible by %lld " TAIL ", but got %lld",
                          (long long)k, fn, tn, (long long)sizes[d - 1]);
        else if (offset % k)
            rc = VIEW_ERR("self.storage_offset() must be divisible by %lld " TAIL ", but got "
                          "%lld", (long long)k, fn, tn, (long long)offset);
        for (int i = 0; !rc && i < d - 1; i++)
            if (strides[i] % k)
                rc = VIEW_ERR("self.stride(%d) must be divisible by %lld " TAIL ", but got "
                              "%lld", i, (long long)k, fn, tn, (long long)strides[i]);
        for (int i = 0; !rc && i < d - 1; i++)
            strides[i] /= k;
        sizes[d - 1] /= k;
        offset /= k;
    }
#undef TAIL
#undef VIEW_ERR
    if (!rc && !(r = ts_tensor_new(self->storage, (int)dtype, d, sizes, strides, offset,
                                   c->error)))
        rc = c->error->code;
    return ts_args_return_tensor(&a, rc, r);
}

/* ---- einsum's sublist form ---------------------------------------------------------------- */

/* What the factory binds of an einsum.sublist node: its input count and the TorchScript
 * type of each input (PyTorch's messages name them). */
typedef struct Sublist {
    size_t n;
    char (*types)[48];
} Sublist;

static void sublist_free(void *p)
{
    Sublist *s = p;
    free(s->types);
    free(s);
}

/* aten::einsum.sublist(Tensor a, ...): einsum(op0, sub0, op1, sub1, ..., [out]) is einsum
 * with the equation the sublists spell, subscript k in [0, 52) the letter 'A' + k below 26
 * and 'a' + k - 26 above (an output sublist when the count is odd). */
static int k_einsum_sublist(TsCall *c)
{
    const Sublist *s = c->data;
    TsArgs a;
    TsBuf eq = TS_BUF_INIT;
    TsList *ops = NULL;
    TsTensor *r = NULL;
    int rc = ts_args_pop_n(c, TS_DEV_CPU, s->n, &a);
    if (!rc && s->n < 2)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "einsum(): must specify the equation string "
                          "and at least one operand, or at least one operand and its "
                          "subscripts list");
    if (!rc && !(ops = ts_list_new(ts_type_tensor(), s->n / 2, c->error)))
        rc = c->error->code;
    for (size_t i = 0; !rc && i < s->n; i++) {
        bool operand = i % 2 == 0 && i + 1 < s->n;
        const TsList *l = (const TsList *)a.v[i].u.p;
        if (operand ? a.v[i].tag != TS_TAG_TENSOR : strcmp(s->types[i], "List[int]")) {
            rc = ts_error_set(c->error, TS_ERR_RUNTIME, "einsum(): expected %s in argument %zu, "
                              "but got %s", operand ? "Tensor" : "List[int]", i, s->types[i]);
            break;
        }
        if (operand) {
            ts_value_retain(a.v[i]);
            rc = ts_list_append(ops, a.v[i], c->error);
            continue;
        }
        ts_buf_puts(&eq, i == 1 ? "" : i % 2 ? "," : "->");
        for (size_t j = 0; !rc && j < l->len; j++) {
            int64_t k = l->items[j].u.i;
            if (k < 0 || k >= 52)
                rc = ts_error_set(c->error, TS_ERR_RUNTIME, "einsum(): expected subscript %zu in "
                                  "argument %zu to be within the range [0, 52), but got %lld",
                                  j, i, (long long)k);
            else
                ts_buf_printf(&eq, "%c", (char)(k < 26 ? 'A' + k : 'a' + k - 26));
        }
    }
    TsStr *e = NULL;
    if (!rc && eq.failed)
        rc = ts_error_set(c->error, TS_ERR_NOMEM, "einsum: out of memory");
    if (!rc && !(e = ts_str_new(eq.p ? eq.p : "", eq.len, c->error)))
        rc = c->error->code;
    free(eq.p);
    if (!rc) {
        TsValue v[3] = { ts_obj_value(e, TS_TAG_STR), ts_obj_value(ops, TS_TAG_LIST), ts_none() };
        ops = NULL;
        r = ts_cpu_call_tensor(c, &ts_cpu_einsum_table, "aten::einsum", "", 3, v);
        rc = r ? 0 : c->error->code;
    }
    if (ops)
        ts_heap_release(&ops->h);
    return ts_args_return_tensor(&a, rc, r);
}

static int f_einsum_sublist(const TsNodeInfo *node, TsKernelFn *fn, void **data,
                            void (**free_data)(void *), TsError *err)
{
    Sublist *s = malloc(sizeof *s);
    if (s && !(s->types = calloc(node->n_inputs ? node->n_inputs : 1, sizeof *s->types))) {
        free(s);
        s = NULL;
    }
    if (!s)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory binding %s", node->kind);
    s->n = node->n_inputs;
    for (size_t i = 0; i < s->n; i++)
        ts_type_annotation(node->input_types[i], s->types[i], sizeof s->types[i]);
    *fn = k_einsum_sublist;
    *data = s;
    *free_data = sublist_free;
    return 0;
}

int ts_cpu_overloads_register(TsRegistry *r, TsError *err)
{
    return ts_register_factory(r, "aten::einsum", "sublist", "cpu", f_einsum_sublist, err);
}

static const TsCpuOp ops[] = {
    { "aten::empty", "names", k_empty_names }, { "aten::empty", "names_out", k_empty_names_out },
    { "aten::zeros", "names", k_zeros_names }, { "aten::zeros", "names_out", k_zeros_names_out },
    { "aten::ones", "names", k_ones_names }, { "aten::ones", "names_out", k_ones_names_out },
    { "aten::full", "names", k_full_names }, { "aten::full", "names_out", k_full_names_out },
    { "aten::rand", "generator", k_rand_gen }, { "aten::rand", "names", k_rand_names },
    { "aten::rand", "generator_with_names", k_rand_gen_names },
    { "aten::rand", "generator_out", k_rand_gen_out },
    { "aten::rand", "names_out", k_rand_names_out },
    { "aten::rand", "generator_with_names_out", k_rand_gen_names_out },
    { "aten::randn", "generator", k_randn_gen }, { "aten::randn", "names", k_randn_names },
    { "aten::randn", "generator_with_names", k_randn_gen_names },
    { "aten::randn", "generator_out", k_randn_gen_out },
    { "aten::randn", "names_out", k_randn_names_out },
    { "aten::randn", "generator_with_names_out", k_randn_gen_names_out },
    { "aten::randperm", "generator", k_randperm_gen },
    { "aten::randperm", "generator_out", k_randperm_gen_out },
    { "aten::frexp", "Tensor", k_frexp }, { "aten::ldexp", "Tensor", k_ldexp },
    { "aten::view", "dtype", k_view_dtype }, { "aten::fill_", "Tensor", k_fill_tensor }, { "aten::round_", "decimals", k_round_decimals_ },
    { "aten::flatten", "DimnameList", k_flatten_list },
    { "aten::flatten", "named_out_dim", k_flatten_named_out },
    { "aten::flatten", "using_names", k_flatten_names },
    { "aten::unflatten", "Dimname", k_unflatten }, { "aten::select", "Dimname", k_select },
    { "aten::transpose", "Dimname", k_transpose }, { "aten::unbind", "Dimname", k_unbind },
    { "aten::diagonal", "Dimname", k_diagonal }, { "aten::cumsum_", "dimname", k_cumsum_ },
    { "aten::cumprod_", "dimname", k_cumprod_ }, { "aten::index_copy_", "dimname", k_index_copy_ },
};

const TsCpuTable ts_cpu_overloads_table = { ops, sizeof ops / sizeof ops[0] };
