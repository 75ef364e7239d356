/* out_variants.c — the out= overloads of schemas/aten_out.yaml, served by one adaptor.
 *
 * Each of these operators computes what its functional form does (torch.bmm(x, y, out=o) is
 * torch.bmm(x, y) written into o), so instead of a kernel each, the table below names the
 * functional overload and how PyTorch delivers into the out tensors. The adaptor binds the
 * functional's arguments by name from the out form's (the factories' dtype=, layout=, device=
 * and pin_memory=, which the out form lacks, are None, or dtype= is out's own where the rule
 * says the result is made in out's dtype), runs the functional's cpu kernel, checks each
 * result's dtype against its out tensor in the words of PyTorch's kernel, resizes the out
 * (ts_aten_resize_out) and copies into it, and returns the out tensors themselves.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/elementwise.h"
#include "engine/out_variants.h"

/* How PyTorch's out= kernel treats an out tensor whose dtype is not the result's, each with
 * the message its kernel gives (measured against PyTorch 1.13). */
typedef enum OutRule {
    OUT_ANY,           /* any dtype: the values are cast (clone, flip, convolution) */
    OUT_MAKE,          /* the result is made in out's dtype (zeros, rand, linspace) */
    OUT_EXPECTED,      /* "Expected out tensor to have dtype float, but got long int instead" */
    OUT_CAST,          /* "result type Float can't be cast to the desired output type Long" */
    OUT_CASTABLE,      /* "cholesky: Expected result to be safely castable from Float dtype,
                          but got result with dtype Long" */
    OUT_CASTABLE_EXACT, /* the same for a lower category, else OUT_EXPECTED (matrix_power) */
    OUT_SCALAR,        /* "expected scalar type Float but found Long" */
    OUT_FOUND,         /* "Found dtype Long but expected Float" */
    OUT_DOT,           /* "result dtype Long does not match input dtype Float" */
    OUT_MULTI_DOT,     /* "multi_dot(): expected out tensor to have dtype float but got long int" */
    OUT_TENSORDOT,     /* "tensordot: Expected the output tensor to have dtype Float, but got an
                          output tensor with dtype Long" */
    OUT_VECDOT,        /* "linalg.vecdot: Expected out of dtypeFloat but found Long" */
    OUT_MASKED_SELECT, /* "masked_select(): self and result must have the same scalar type" */
    OUT_NONZERO,       /* "nonzero: Expected out tensor to have scalar type Long but got scalar
                          typeFloat" */
    OUT_MULTINOMIAL,   /* "multinomial expects Long tensor out, got: Float" */
    OUT_CAT,           /* "torch.cat(): input types can't be cast to the desired output type Long" */
    OUT_MVLGAMMA,      /* "mvlgamma: result type Float can't be cast to the desired output type
                          Float" (PyTorch names the result's dtype twice) */
    OUT_MAT2,          /* "self and mat2 must have the same dtype" (addbmm: addmm's check, which
                          its out= form runs on out) */
    OUT_QUANTILE,      /* "quantile() out tensor must be same dtype as the input tensor" */
    OUT_FLOATING,      /* "logsumexp(): Expected floating point type for result tensor, but got:
                          Long" */
    OUT_UNIFORM,       /* rand: out itself is filled, in its dtype, as uniform_ fills it */
    OUT_NORMAL,        /* randn: the same as normal_ draws (a strided out in memory order) */
} OutRule;

/* What a factory's out= kernel checks of its size before the functional form would: PyTorch's
 * zeros, ones, full, rand and randn resize out to the size first, and randperm checks n. */
typedef enum OutSizeCheck {
    SIZE_FUNCTIONAL,   /* none of its own: the functional form's message */
    SIZE_RESIZE,       /* a negative size: "numel: integer multiplication overflow" */
    SIZE_RANDPERM,     /* "n must be non-negative, got-1" */
} OutSizeCheck;

typedef struct OutVariant {
    const char *name, *overload;  /* the out= form */
    const char *functional;       /* the overload of the same name it computes with */
    unsigned char nout;           /* its out arguments: the last ones */
    unsigned char rule;           /* OutRule */
    const char *who;              /* OUT_CASTABLE's prefix */
    unsigned char size_check;     /* OutSizeCheck */
} OutVariant;

#define ANY(n, o, f, k) { "aten::" n, o, f, k, OUT_ANY, NULL, SIZE_FUNCTIONAL },
#define MAKE(n, o, f, sc) { "aten::" n, o, f, 1, OUT_MAKE, NULL, sc },
#define EXPECT(n, o, k) { "aten::" n, o, "", k, OUT_EXPECTED, NULL, SIZE_FUNCTIONAL },
#define CAST1(n) { "aten::" n, "out", "", 1, OUT_CAST, NULL, SIZE_FUNCTIONAL },
#define RULE(n, o, k, r, who) { "aten::" n, o, "", k, r, who, SIZE_FUNCTIONAL },
#define DRAW(n, r) { "aten::" n, "out", "", 1, r, NULL, SIZE_RESIZE },

/* Sorted by name and overload (bsearch). */
static const OutVariant variants[] = {
    ANY("_cdist_forward", "out", "", 1)
    ANY("_embedding_bag", "out", "", 4)
    ANY("_embedding_bag_forward_only", "out", "", 4)
    ANY("_euclidean_dist", "out", "", 1)
    ANY("_native_multi_head_attention", "out", "", 2)
    ANY("_nested_tensor_from_mask", "out", "", 1)
    ANY("_pack_padded_sequence", "out", "", 2)
    ANY("_pdist_forward", "out", "", 1)
    ANY("_sample_dirichlet", "out", "", 1)
    ANY("_standard_gamma", "out", "", 1)
    ANY("_transformer_encoder_layer_fwd", "out", "", 1)
    RULE("addbmm", "out", 1, OUT_MAT2, NULL)
    EXPECT("addmm", "out", 1)
    ANY("affine_grid_generator", "out", "", 1)
    CAST1("angle")
    ANY("as_strided_scatter", "out", "", 1)
    EXPECT("baddbmm", "out", 1)
    RULE("binary_cross_entropy", "out", 1, OUT_FOUND, NULL)
    ANY("binary_cross_entropy_with_logits", "out", "", 1)
    ANY("binomial", "out", "", 1)
    EXPECT("bmm", "out", 1)
    RULE("chain_matmul", "out", 1, OUT_MULTI_DOT, NULL)
    ANY("channel_shuffle", "out", "", 1)
    RULE("cholesky", "out", 1, OUT_CASTABLE, "cholesky")
    RULE("cholesky_inverse", "out", 1, OUT_CASTABLE, "cholesky_inverse")
    RULE("cholesky_solve", "out", 1, OUT_CASTABLE, "cholesky_solve")
    ANY("clone", "out", "", 1)
    ANY("constant_pad_nd", "out", "", 1)
    ANY("convolution", "out", "", 1)
    EXPECT("cross", "out", 1)
    ANY("diagonal_scatter", "out", "", 1)
    CAST1("digamma")
    ANY("dist", "out", "", 1)
    RULE("dot", "out", 1, OUT_DOT, NULL)
    ANY("embedding", "out", "", 1)
    MAKE("empty", "out", "memory_format", SIZE_FUNCTIONAL)
    MAKE("empty_like", "out", "", SIZE_FUNCTIONAL)
    MAKE("empty_strided", "out", "", SIZE_FUNCTIONAL)
    ANY("fill", "Scalar_out", "Scalar", 1)
    ANY("fill", "Tensor_out", "Tensor", 1)
    ANY("flip", "out", "", 1)
    MAKE("full", "out", "", SIZE_RESIZE)
    MAKE("full_like", "out", "", SIZE_FUNCTIONAL)
    RULE("geqrf", "a", 2, OUT_CASTABLE, "torch.geqrf")
    ANY("grid_sampler_2d", "out", "", 1)
    ANY("grid_sampler_3d", "out", "", 1)
    CAST1("huber_loss")
    CAST1("i0")
    CAST1("igamma")
    CAST1("igammac")
    RULE("inner", "out", 1, OUT_TENSORDOT, NULL)
    EXPECT("inverse", "out", 1)
    EXPECT("linalg_cholesky", "out", 1)
    EXPECT("linalg_cholesky_ex", "L", 2)
    EXPECT("linalg_cross", "out", 1)
    EXPECT("linalg_det", "out", 1)
    EXPECT("linalg_eigh", "eigvals", 2)
    EXPECT("linalg_eigvalsh", "out", 1)
    RULE("linalg_householder_product", "out", 1, OUT_CASTABLE, "torch.linalg.householder_product")
    EXPECT("linalg_inv", "out", 1)
    EXPECT("linalg_inv_ex", "inverse", 2)
    RULE("linalg_lstsq", "out", 4, OUT_CASTABLE, "torch.linalg.lstsq")
    EXPECT("linalg_lu", "out", 3)
    EXPECT("linalg_lu_factor", "out", 2)
    EXPECT("linalg_lu_factor_ex", "out", 3)
    EXPECT("linalg_lu_solve", "out", 1)
    EXPECT("linalg_matmul", "out", 1)
    ANY("linalg_matrix_exp", "out", "", 1)
    RULE("linalg_matrix_power", "out", 1, OUT_CASTABLE_EXACT, "matrix_power")
    RULE("linalg_multi_dot", "out", 1, OUT_MULTI_DOT, NULL)
    EXPECT("linalg_qr", "out", 2)
    EXPECT("linalg_slogdet", "out", 2)
    EXPECT("linalg_solve", "out", 1)
    EXPECT("linalg_solve_ex", "out", 2)
    RULE("linalg_solve_triangular", "out", 1, OUT_SCALAR, NULL)
    EXPECT("linalg_svd", "U", 3)
    EXPECT("linalg_svdvals", "out", 1)
    RULE("linalg_tensorinv", "out", 1, OUT_CASTABLE, "tensorinv")
    RULE("linalg_vecdot", "out", 1, OUT_VECDOT, NULL)
    EXPECT("linear", "out", 1)
    MAKE("linspace", "out", "", SIZE_FUNCTIONAL)
    MAKE("logspace", "out", "", SIZE_FUNCTIONAL)
    EXPECT("lu_solve", "out", 1)
    EXPECT("lu_unpack", "out", 3)
    RULE("masked_select", "out", 1, OUT_MASKED_SELECT, NULL)
    RULE("matrix_power", "out", 1, OUT_CASTABLE_EXACT, "matrix_power")
    RULE("max_unpool2d", "out", 1, OUT_SCALAR, NULL)
    RULE("max_unpool3d", "out", 1, OUT_SCALAR, NULL)
    CAST1("mse_loss")
    RULE("multi_margin_loss", "out", 1, OUT_SCALAR, NULL)
    RULE("multilabel_margin_loss", "out", 1, OUT_SCALAR, NULL)
    RULE("multilabel_margin_loss_forward", "output", 2, OUT_SCALAR, NULL)
    RULE("multinomial", "out", 1, OUT_MULTINOMIAL, NULL)
    EXPECT("mv", "out", 1)
    RULE("mvlgamma", "out", 1, OUT_MVLGAMMA, NULL)
    { "aten::nanquantile", "out", "", 1, OUT_QUANTILE, NULL, SIZE_FUNCTIONAL },
    { "aten::nanquantile", "scalar_out", "scalar", 1, OUT_QUANTILE, NULL, SIZE_FUNCTIONAL },
    MAKE("new_empty", "out", "", SIZE_FUNCTIONAL)
    MAKE("new_empty_strided", "out", "", SIZE_FUNCTIONAL)
    MAKE("new_full", "out", "", SIZE_FUNCTIONAL)
    MAKE("new_ones", "out", "", SIZE_FUNCTIONAL)
    MAKE("new_zeros", "out", "", SIZE_FUNCTIONAL)
    EXPECT("nll_loss", "out", 1)
    RULE("nll_loss2d", "out", 1, OUT_SCALAR, NULL)
    RULE("nonzero", "out", 1, OUT_NONZERO, NULL)
    MAKE("ones", "out", "", SIZE_RESIZE)
    MAKE("ones_like", "out", "", SIZE_FUNCTIONAL)
    RULE("orgqr", "out", 1, OUT_CASTABLE, "torch.linalg.householder_product")
    ANY("poisson", "out", "", 1)
    CAST1("polygamma")
    ANY("put", "out", "", 1)
    EXPECT("qr", "Q", 2)
    { "aten::quantile", "out", "", 1, OUT_QUANTILE, NULL, SIZE_FUNCTIONAL },
    { "aten::quantile", "scalar_out", "scalar", 1, OUT_QUANTILE, NULL, SIZE_FUNCTIONAL },
    DRAW("rand", OUT_UNIFORM)
    MAKE("rand_like", "out", "", SIZE_FUNCTIONAL)
    DRAW("randn", OUT_NORMAL)
    MAKE("randn_like", "out", "", SIZE_FUNCTIONAL)
    MAKE("randperm", "out", "", SIZE_RANDPERM)
    EXPECT("renorm", "out", 1)
    ANY("repeat", "out", "", 1)
    ANY("roll", "out", "", 1)
    MAKE("scalar_tensor", "out", "", SIZE_FUNCTIONAL)
    ANY("select_scatter", "out", "", 1)
    ANY("slice_scatter", "out", "", 1)
    EXPECT("slogdet", "out", 2)
    CAST1("smooth_l1_loss")
    RULE("soft_margin_loss", "out", 1, OUT_FOUND, NULL)
    CAST1("special_airy_ai")
    CAST1("special_bessel_j0")
    CAST1("special_bessel_j1")
    CAST1("special_bessel_y0")
    CAST1("special_bessel_y1")
    CAST1("special_digamma")
    CAST1("special_entr")
    CAST1("special_erf")
    CAST1("special_erfc")
    CAST1("special_erfcx")
    CAST1("special_erfinv")
    CAST1("special_exp2")
    CAST1("special_expit")
    CAST1("special_expm1")
    CAST1("special_gammainc")
    CAST1("special_gammaincc")
    CAST1("special_gammaln")
    CAST1("special_i0")
    CAST1("special_i0e")
    CAST1("special_i1")
    CAST1("special_i1e")
    CAST1("special_log1p")
    CAST1("special_log_ndtr")
    CAST1("special_logit")
    RULE("special_logsumexp", "out", 1, OUT_FLOATING, NULL)
    CAST1("special_modified_bessel_i0")
    CAST1("special_modified_bessel_i1")
    CAST1("special_modified_bessel_k0")
    CAST1("special_modified_bessel_k1")
    RULE("special_multigammaln", "out", 1, OUT_MVLGAMMA, NULL)
    CAST1("special_ndtr")
    CAST1("special_ndtri")
    CAST1("special_polygamma")
    CAST1("special_psi")
    RULE("special_round", "out", 1, OUT_FOUND, NULL)
    CAST1("special_scaled_modified_bessel_k0")
    CAST1("special_scaled_modified_bessel_k1")
    CAST1("special_sinc")
    CAST1("special_spherical_bessel_j0")
    RULE("stack", "out", 1, OUT_CAT, NULL)
    EXPECT("svd", "U", 3)
    ANY("to_padded_tensor", "out", "", 1)
    EXPECT("triangular_solve", "X", 2)
    EXPECT("tril", "out", 1)
    EXPECT("triu", "out", 1)
    ANY("unsafe_split", "Tensor_out", "Tensor", 1)
    ANY("unsafe_split_with_sizes", "out", "", 1)
    RULE("vdot", "out", 1, OUT_DOT, NULL)
    ANY("zero", "out", "", 1)
    MAKE("zeros", "out", "", SIZE_RESIZE)
    MAKE("zeros_like", "out", "", SIZE_FUNCTIONAL)
};

#define N_VARIANTS (sizeof variants / sizeof variants[0])

/* The functional kernel of each variant, found at registration (the same for every runtime:
 * they come from the plugin's own static tables). */
static TsKernelFn functional_fn[N_VARIANTS];

static int cmp_variant(const void *key, const void *elem)
{
    const OutVariant *k = key, *v = elem;
    int c = strcmp(k->name, v->name);
    return c ? c : strcmp(k->overload, v->overload);
}

static const OutVariant *find_variant(const char *name, const char *overload)
{
    OutVariant key = { name, overload ? overload : "", NULL, 0, 0, NULL, 0 };
    return bsearch(&key, variants, N_VARIANTS, sizeof variants[0], cmp_variant);
}

/* 0 when a result of dtype res may be delivered into out by rule, else PyTorch's error.
 * outname: the out argument's name ("result" for a lone out), as OUT_CASTABLE says it. */
static int check_dtype(const OutVariant *v, int res, int out, const char *outname, TsError *err)
{
    const char *rn = ts_dtype_type_name(res), *on = ts_dtype_type_name(out);
    if (res == out || v->rule == OUT_ANY || v->rule == OUT_MAKE || v->rule == OUT_UNIFORM ||
        v->rule == OUT_NORMAL)
        return 0;
    switch ((OutRule)v->rule) {
    case OUT_CAST:
    case OUT_CAT:
    case OUT_MVLGAMMA:
        if (ts_aten_can_cast(res, out))
            return 0;
        if (v->rule == OUT_CAT)
            return ts_error_set(err, TS_ERR_RUNTIME, "torch.cat(): input types can't be cast to "
                                "the desired output type %s", on);
        return ts_error_set(err, TS_ERR_RUNTIME, "%sresult type %s can't be cast to the desired "
                            "output type %s", v->rule == OUT_MVLGAMMA ? "mvlgamma: " : "", rn,
                            v->rule == OUT_MVLGAMMA ? rn : on);
    case OUT_CASTABLE:
    case OUT_CASTABLE_EXACT:
        if (!ts_aten_can_cast(res, out))
            return ts_error_set(err, TS_ERR_RUNTIME, "%s: Expected %s to be safely castable from "
                                "%s dtype, but got %s with dtype %s", v->who, outname, rn,
                                outname, on);
        if (v->rule == OUT_CASTABLE)
            return 0;
        /* fall through */
    case OUT_EXPECTED:
        return ts_error_set(err, TS_ERR_RUNTIME, "Expected out tensor to have dtype %s, but got "
                            "%s instead", ts_cpu_cxx_type(res), ts_cpu_cxx_type(out));
    case OUT_FLOATING:     /* PyTorch computes into out: its cpu log has no Half kernel */
        if (out == TS_FLOAT16)
            return ts_error_set(err, TS_ERR_RUNTIME, "\"log_vml_cpu\" not implemented for "
                                "'Half'");
        if (ts_dtype_is_floating(out))
            return 0;
        return ts_error_set(err, TS_ERR_RUNTIME, "logsumexp(): Expected floating point type for "
                            "result tensor, but got: %s", on);
    case OUT_SCALAR:
        return ts_error_set(err, TS_ERR_RUNTIME, "expected scalar type %s but found %s", rn, on);
    case OUT_FOUND:
        return ts_error_set(err, TS_ERR_RUNTIME, "Found dtype %s but expected %s", on, rn);
    case OUT_DOT:
        return ts_error_set(err, TS_ERR_RUNTIME, "result dtype %s does not match input dtype %s",
                            on, rn);
    case OUT_MULTI_DOT:
        return ts_error_set(err, TS_ERR_RUNTIME, "multi_dot(): expected out tensor to have dtype "
                            "%s but got %s", ts_cpu_cxx_type(res), ts_cpu_cxx_type(out));
    case OUT_TENSORDOT:
        return ts_error_set(err, TS_ERR_RUNTIME, "tensordot: Expected the output tensor to have "
                            "dtype %s, but got an output tensor with dtype %s", rn, on);
    case OUT_VECDOT:
        return ts_error_set(err, TS_ERR_RUNTIME, "linalg.vecdot: Expected out of dtype%s but "
                            "found %s", rn, on);
    case OUT_MASKED_SELECT:
        return ts_error_set(err, TS_ERR_RUNTIME, "masked_select(): self and result must have the "
                            "same scalar type");
    case OUT_NONZERO:
        return ts_error_set(err, TS_ERR_RUNTIME, "nonzero: Expected out tensor to have scalar "
                            "type %s but got scalar type%s", rn, on);
    case OUT_MULTINOMIAL:
        return ts_error_set(err, TS_ERR_RUNTIME, "multinomial expects %s tensor out, got: %s", rn,
                            on);
    case OUT_MAT2:
        return ts_error_set(err, TS_ERR_RUNTIME, "self and mat2 must have the same dtype");
    case OUT_QUANTILE:
        return ts_error_set(err, TS_ERR_RUNTIME, "quantile() out tensor must be same dtype as the "
                            "input tensor");
    default:
        return 0;
    }
}

/* Checks, resizes out to res's shape and copies res (borrowed) into it. */
static int deliver(const OutVariant *v, TsValue res, TsValue out, const char *outname,
                   TsError *err)
{
    if (res.tag == TS_TAG_LIST && out.tag == TS_TAG_LIST) {   /* unsafe_split's Tensor[] */
        const TsList *rl = (const TsList *)res.u.p, *ol = (const TsList *)out.u.p;
        if (rl->len != ol->len)
            return ts_error_set(err, TS_ERR_RUNTIME, "%s: expected %zu out tensors, but got %zu",
                                v->name, rl->len, ol->len);
        for (size_t i = 0; i < rl->len; i++) {
            int rc = deliver(v, rl->items[i], ol->items[i], outname, err);
            if (rc)
                return rc;
        }
        return 0;
    }
    if (res.tag != TS_TAG_TENSOR || out.tag != TS_TAG_TENSOR)
        return ts_error_set(err, TS_ERR_RUNTIME, "%s: expected a tensor result", v->name);
    const TsTensor *r = (const TsTensor *)res.u.p;
    TsTensor *o = (TsTensor *)out.u.p;
    if (o->device.type != TS_DEV_CPU)
        return ts_error_set(err, TS_ERR_RUNTIME, "Expected out tensor to be on device cpu, but "
                            "got %s", ts_device_type_name(o->device.type));
    int rc = check_dtype(v, r->dtype, o->dtype, outname, err);
    if (!rc)
        rc = ts_cpu_check_internal_overlap(o, err);
    if (!rc)
        rc = ts_aten_resize_out(o, r->dim, r->sizes, &ts_cpu_allocator, err);
    if (!rc)
        ts_cpu_copy_into(o, r);
    return rc;
}

/* The size check of v's out= kernel (OutSizeCheck) on its first argument, a size list (its
 * sizes and count into sizes and *dim) or randperm's n. */
static int check_size(TsArgs *a, const OutVariant *v, int64_t *sizes, int *dim)
{
    TsError *err = a->call->error;
    int64_t n;
    int rc;
    *dim = 0;
    switch ((OutSizeCheck)v->size_check) {
    case SIZE_RESIZE:
        if ((rc = ts_args_int_list(a, 0, sizes, dim, TS_TENSOR_MAX_DIMS)))
            return rc;
        for (int d = 0; d < *dim; d++)
            if (sizes[d] < 0)
                return ts_error_set(err, TS_ERR_RUNTIME, "numel: integer multiplication "
                                    "overflow");
        return 0;
    case SIZE_RANDPERM:
        if ((rc = ts_args_int(a, 0, &n)))
            return rc;
        return n < 0 ? ts_error_set(err, TS_ERR_RUNTIME, "n must be non-negative, got%lld",
                                    (long long)n) : 0;
    default:
        return 0;
    }
}

/* rand.out and randn.out fill out in place, as PyTorch's do: a strided out draws in memory
 * order, which a copy from a contiguous result would not match (their _like forms make the
 * functional's tensor and copy it, as PyTorch's do). sizes: the size argument's. */
static int draw_into(TsArgs *a, const OutVariant *v, TsTensor *out, int dim,
                     const int64_t *sizes)
{
    int rc;
    TsError *err = a->call->error;
    TsAtenDraw draw = ts_aten_draw(v->rule == OUT_NORMAL ? TS_ATEN_DRAW_NORMAL
                                                         : TS_ATEN_DRAW_UNIFORM, NULL, 0);
    if ((rc = ts_cpu_check_internal_overlap(out, err)) ||
        (rc = ts_aten_resize_out(out, dim, sizes, &ts_cpu_allocator, err)))
        return rc;
    return ts_aten_random_fill(out, &draw, err);
}

/* The kernel of every out= form above. */
static int k_out_variant(TsCall *c)
{
    TsError *err = c->error;
    if (!c->op)
        return ts_error_set(err, TS_ERR_USAGE, "an out= kernel called without its operator");
    const OutVariant *v = find_variant(ts_operator_name(c->op), ts_operator_overload(c->op));
    const TsOperator *fop = v ? ts_runtime_find_operator(c->runtime, v->name, v->functional)
                              : NULL;
    TsKernelFn fn = v ? functional_fn[v - variants] : NULL;
    if (!fop || !fn)
        return ts_error_set(err, TS_ERR_RUNTIME, "%s.%s: no functional kernel to compute with",
                            ts_operator_name(c->op), ts_operator_overload(c->op));
    TsArgs a;
    int rc = ts_args_pop(c, TS_DEV_CPU, &a);
    if (rc)
        return rc;
    size_t nin = a.n - v->nout;
    int make_dtype = -1;
    if (v->rule == OUT_MAKE || v->rule == OUT_UNIFORM || v->rule == OUT_NORMAL) {
        TsTensor *o;
        int64_t sizes[TS_TENSOR_MAX_DIMS];
        int dim;
        if ((rc = ts_args_tensor(&a, a.n - 1, &o)) || (rc = check_size(&a, v, sizes, &dim)))
            return ts_args_fail(&a, rc);
        make_dtype = o->dtype;
        if (v->rule != OUT_MAKE) {
            rc = draw_into(&a, v, o, dim, sizes);
            return rc ? ts_args_fail(&a, rc) : ts_args_return_arg(&a, 0, a.n - 1);
        }
    }

    /* The functional's arguments by name: the out form's, else None (or out's dtype). */
    TsStack s = { NULL, 0, 0 };
    size_t fn_args = ts_operator_num_args(fop);
    rc = ts_stack_reserve(&s, fn_args + 4, err);
    for (size_t i = 0; !rc && i < fn_args; i++) {
        const char *name = ts_operator_arg_name(fop, i);
        TsValue val = ts_none();
        size_t j = 0;
        while (j < nin && strcmp(ts_operator_arg_name(c->op, j), name) != 0)
            j++;
        if (j < nin) {
            val = a.v[j];
            ts_value_retain(val);
        } else if (make_dtype >= 0 && strcmp(name, "dtype") == 0) {
            val = ts_int(make_dtype);
        }
        rc = ts_stack_push(&s, val, err);
    }
    if (!rc) {
        TsCall fc = { &s, err, NULL, c->runtime, fop };
        rc = fn(&fc);
    }
    size_t nres = ts_operator_num_returns(fop);
    if (!rc && s.len != nres)
        rc = ts_error_set(err, TS_ERR_RUNTIME, "%s: the functional kernel returned %zu values",
                          v->name, s.len);
    if (!rc && nres != v->nout)
        rc = ts_error_set(err, TS_ERR_RUNTIME, "%s: %zu results for %u out tensors", v->name,
                          nres, (unsigned)v->nout);
    for (size_t k = 0; !rc && k < v->nout; k++) {
        size_t oi = nin + k;
        const char *outname = v->nout == 1 ? "result" : ts_operator_arg_name(c->op, oi);
        rc = deliver(v, s.data[k], a.v[oi], outname, err);
    }
    ts_stack_free(&s);
    /* The results are the out tensors themselves (none for a Tensor[] out: its schema
     * returns nothing). */
    size_t nret = ts_operator_num_returns(c->op);
    TsValue outs[4];
    if (!rc && nret > sizeof outs / sizeof outs[0])
        rc = ts_error_set(err, TS_ERR_RUNTIME, "%s: too many results", v->name);
    if (rc)
        return ts_args_fail(&a, rc);
    for (size_t k = 0; k < nret; k++) {
        outs[k] = a.v[nin + k];
        a.v[nin + k] = ts_none();
    }
    return ts_args_return_values(&a, 0, nret, outs);
}

int ts_cpu_register_out_variants(TsRegistry *r, TsError *err)
{
    int rc = 0;
    for (size_t i = 0; !rc && i < N_VARIANTS; i++) {
        const OutVariant *v = &variants[i];
        if (i > 0 && cmp_variant(&variants[i - 1], v) >= 0)
            return ts_error_set(err, TS_ERR_USAGE, "out_variants.c: %s.%s is out of order",
                                v->name, v->overload);
        functional_fn[i] = ts_cpu_find_kernel(v->name, v->functional);
        if (!functional_fn[i])
            return ts_error_set(err, TS_ERR_USAGE, "out_variants.c: %s has no cpu kernel for "
                                "overload '%s'", v->name, v->functional);
        rc = ts_register_kernel(r, v->name, v->overload, "cpu", k_out_variant, err);
    }
    return rc;
}
