/* aten_common.t — libtscript_aten (include/tscript/aten.h), the half of a backend every
 * device shares: arguments bound by the operator in TsCall.op with messages naming the
 * operator and the argument, the kernel endings (what they push and release), dim wrapping,
 * broadcasting, promotion, the out= resize and the half-float conversions; binding to the
 * first tensor's device, and the shared metadata-only kernels on a device other than the cpu
 * with the backend's copy hook.
 */
#include <math.h>
#include <stdlib.h>

#include "tscript/aten.h"
#include "kernel.h"

static TsTensor *cpu_tensor(int dim, const int64_t *sizes)
{
    TsError err = TS_ERROR_INIT;
    TsDevice cpu = { TS_DEV_CPU, -1 };
    TsTensor *t = ts_tensor_empty(ts_runtime_allocator(kt_rt, TS_DEV_CPU), cpu, TS_FLOAT32, dim,
                                  sizes, &err);
    ts_error_clear(&err);
    return t;
}

/* A call of aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) with n values. */
typedef struct Fixture {
    TsStack s;
    TsError err;
    TsCall c;
} Fixture;

static void fixture(Fixture *f, const char *name, const char *overload, size_t n,
                    const TsValue *v)
{
    memset(f, 0, sizeof *f);
    f->err = (TsError)TS_ERROR_INIT;
    for (size_t i = 0; i < n; i++)
        ts_stack_push(&f->s, v[i], NULL);
    f->c = (TsCall){ &f->s, &f->err, NULL, kt_rt, kt_find(name, overload) };
}

static void done(Fixture *f)
{
    ts_stack_free(&f->s);
    ts_error_clear(&f->err);
}

static void test_binding(void)
{
    int64_t sz[2] = { 2, 3 };
    TsTensor *x = cpu_tensor(2, sz);
    Fixture f;
    TsArgs a;
    TsTensor *got = NULL;

    /* the operator's own count is popped, deepest first */
    ts_tensor_retain(x);
    TsValue v[3] = { ts_obj_value(x, TS_TAG_TENSOR), ts_int(7), ts_int(2) };
    fixture(&f, "aten::add", "Tensor", 3, v);
    is_int(ts_args_pop(&f.c, TS_DEV_CPU, &a), 0, "ts_args_pop binds aten::add.Tensor");
    is_int((long long)a.n, 3, "... its three arguments");
    is_int((long long)f.s.len, 0, "... all popped");
    is_str(ts_args_op_name(&a), "aten::add", "the operator's name");
    is_str(ts_args_name(&a, 1), "other", "argument 1 is named by the schema");
    ok(ts_args_tensor(&a, 0, &got) == 0 && got == x, "argument 0 is the tensor");
    ok(ts_args_tensor(&a, 1, &got) == TS_ERR_TYPE && got == NULL, "an int is not a Tensor");
    is_str(f.err.msg, "aten::add: argument 'other' must be a Tensor", "... in the schema's words");
    int64_t i = 0;
    ok(ts_args_int(&a, 2, &i) == 0 && i == 2, "alpha as an int");
    double d = 0;
    ok(ts_args_float(&a, 1, &d) == 0 && d == 7.0, "an int reads as a float");
    ok(ts_args_int(&a, 3, &i) == TS_ERR_USAGE, "no argument past the schema's count");
    like(f.err.msg, "no argument 3 (it takes 3)", "... said so");
    is_int(ts_args_return_arg(&a, 0, 0), 0, "return_arg pushes argument 0");
    ok(f.s.len == 1 && f.s.data[0].tag == TS_TAG_TENSOR && f.s.data[0].u.p == (void *)x,
       "... the same tensor");
    is_int((long long)a.n, 0, "... and the arguments are released");
    is_int((long long)TS_ATOMIC_LOAD_RELAXED(&x->h.refcount), 2, "one reference on the stack, one ours");
    done(&f);

    /* a short stack, and a call without its operator */
    fixture(&f, "aten::add", "Tensor", 1, (TsValue[]){ ts_int(1) });
    is_int(ts_args_pop(&f.c, TS_DEV_CPU, &a), TS_ERR_USAGE, "a short stack is refused");
    like(f.err.msg, "takes 3 arguments but the stack holds 1", "... said so");
    is_int((long long)f.s.len, 1, "... and nothing is popped");
    done(&f);
    fixture(&f, "aten::add", "Tensor", 0, NULL);
    f.c.op = NULL;
    is_int(ts_args_pop(&f.c, TS_DEV_CPU, &a), TS_ERR_USAGE, "no operator: refused");
    like(f.err.msg, "TsCall.op is NULL", "... said so");
    done(&f);

    /* a tensor on another device than the kernel's */
    float buf[6];
    TsDevice cuda = { TS_DEV_CUDA, 0 };
    TsStorage *st = ts_storage_borrow(buf, sizeof buf, cuda, NULL);
    TsTensor *g = st ? ts_tensor_new(st, TS_FLOAT32, 2, sz, NULL, 0, NULL) : NULL;
    if (st)
        ts_storage_release(st);
    ok(g != NULL, "a tensor on cuda:0 (borrowed memory)");
    ts_tensor_retain(x);
    TsValue w[3] = { ts_obj_value(x, TS_TAG_TENSOR), ts_obj_value(g, TS_TAG_TENSOR), ts_int(1) };
    fixture(&f, "aten::add", "Tensor", 3, w);
    ts_args_pop(&f.c, TS_DEV_CPU, &a);
    ok(ts_args_tensor(&a, 1, &got) == TS_ERR_RUNTIME, "the cpu kernel refuses it");
    is_str(f.err.msg, "aten::add: the cpu kernel got argument 'other' on device cuda:0",
           "... naming the argument and the device");
    ts_error_clear(&f.err);
    int rc = ts_args_return_tensor(&a, TS_ERR_RUNTIME, NULL);
    ok(rc == TS_ERR_RUNTIME && f.s.len == 0 && a.n == 0,
       "a failed ending releases everything and pushes nothing");
    done(&f);

    /* lists, dtypes, dims, optional values: aten::sum.dim_IntList(Tensor self, int[1]? dim,
     * bool keepdim=False, *, ScalarType? dtype=None) */
    TsList *dims = ts_list_new(ts_type_int(), 2, NULL);
    ts_list_append(dims, ts_int(0), NULL);
    ts_list_append(dims, ts_double(1.5), NULL);
    ts_tensor_retain(x);
    TsValue s[4] = { ts_obj_value(x, TS_TAG_TENSOR), ts_obj_value(dims, TS_TAG_LIST),
                     ts_bool(true), ts_none() };
    fixture(&f, "aten::sum", "dim_IntList", 4, s);
    ts_args_pop(&f.c, TS_DEV_CPU, &a);
    int64_t list[4];
    int n = 0, dtype = 0, dim = 0;
    ok(ts_args_int_list(&a, 1, list, &n, 4) == TS_ERR_TYPE, "a float in an int[] is refused");
    is_str(f.err.msg, "aten::sum: argument 'dim' must be a list of ints", "... naming it");
    ok(ts_args_int_list(&a, 1, list, &n, 1) == TS_ERR_LIMIT, "more entries than the room");
    bool b = false, has = true;
    ok(ts_args_bool(&a, 2, &b) == 0 && b, "keepdim");
    ok(ts_args_opt_dtype(&a, 3, &dtype) == 0 && dtype == -1, "dtype None is -1");
    ok(ts_args_opt_int(&a, 3, &i, &has) == 0 && !has, "an int? None");
    ok(ts_args_opt_tensor(&a, 3, &got) == 0 && got == NULL, "a Tensor? None");
    ok(ts_args_dim(&a, 2, 2, false, &dim) == 0 && dim == 1, "a bool dim reads as 1");
    ts_args_fail(&a, 0);
    is_int((long long)a.n, 0, "ts_args_fail releases");
    done(&f);

    /* a kernel run with its operator, as the interpreter runs it */
    TsValue out = ts_none();
    TsError err = TS_ERROR_INIT;
    ts_tensor_retain(x);
    ts_tensor_retain(x);
    TsValue k[3] = { ts_obj_value(x, TS_TAG_TENSOR), ts_obj_value(x, TS_TAG_TENSOR), ts_int(1) };
    ok(kt_call("aten::add", "Tensor", "cpu", 3, k, &out, &err) == 0 && out.tag == TS_TAG_TENSOR,
       "aten-cpu's add runs with its operator in TsCall.op");
    ts_value_release(out);
    ts_error_clear(&err);
    ts_tensor_release(x);
}

/* The endings with several results, list and str arguments, vararg binding. */
static void test_more(void)
{
    int64_t sz[1] = { 2 };
    TsTensor *x = cpu_tensor(1, sz);
    Fixture f;
    TsArgs a;

    /* aten::index.Tensor(Tensor self, Tensor?[] indices): None items are fine, ints not */
    TsList *idx = ts_list_new(ts_type_optional(ts_type_tensor()), 2, NULL);
    ts_list_append(idx, ts_none(), NULL);
    ts_tensor_retain(x);
    ts_list_append(idx, ts_obj_value(x, TS_TAG_TENSOR), NULL);
    ts_tensor_retain(x);
    TsValue v[2] = { ts_obj_value(x, TS_TAG_TENSOR), ts_obj_value(idx, TS_TAG_LIST) };
    fixture(&f, "aten::index", "Tensor", 2, v);
    ts_args_pop(&f.c, TS_DEV_CPU, &a);
    const TsList *l = NULL;
    ok(ts_args_opt_tensor_list(&a, 1, &l) == 0 && l == (const TsList *)idx,
       "a Tensor?[] with None and a tensor");
    ts_list_append(idx, ts_int(3), NULL);
    ok(ts_args_opt_tensor_list(&a, 1, &l) == TS_ERR_TYPE && l == NULL, "... an int in it is not");
    is_str(f.err.msg, "aten::index: argument 'indices' must be a list of optional Tensors",
           "... said so");
    const TsStr *str;
    ok(ts_args_str(&a, 0, &str) == TS_ERR_TYPE, "a tensor is not a str");
    /* two results pushed in order; a NULL one fails and releases the other */
    ts_tensor_retain(x);
    ts_tensor_retain(x);
    TsTensor *two[2] = { x, x };
    is_int(ts_args_return_tensors(&a, 0, 2, two), 0, "return_tensors pushes two results");
    is_int((long long)f.s.len, 2, "... both on the stack");
    done(&f);

    ts_tensor_retain(x);
    fixture(&f, "aten::neg", "", 1, (TsValue[]){ ts_obj_value(x, TS_TAG_TENSOR) });
    ts_args_pop(&f.c, TS_DEV_CPU, &a);
    ts_tensor_retain(x);
    TsTensor *half[2] = { x, NULL };
    ok(ts_args_return_tensors(&a, 0, 2, half) != 0 && f.s.len == 0,
       "a missing result fails the ending and pushes nothing");
    like(f.err.msg, "aten::neg: no result", "... naming the operator");
    done(&f);

    /* a vararg schema binds the count its kernel takes */
    ts_tensor_retain(x);
    fixture(&f, "prim::tolist", "", 3,
            (TsValue[]){ ts_obj_value(x, TS_TAG_TENSOR), ts_int(1), ts_int(1) });
    ok(ts_args_pop_n(&f.c, TS_DEV_CPU, 3, &a) == 0 && a.n == 3 && f.s.len == 0,
       "ts_args_pop_n pops a vararg operator's three values");
    is_str(ts_args_name(&a, 1), "?", "... whose names the schema does not give");
    TsValue pair[2] = { ts_int(4), ts_int(5) };
    ok(ts_args_return_values(&a, 0, 2, pair) == 0 && f.s.len == 2 && f.s.data[1].u.i == 5,
       "return_values pushes in order");
    done(&f);
    fixture(&f, "prim::tolist", "", 1, (TsValue[]){ ts_int(1) });
    ok(ts_args_pop_n(&f.c, TS_DEV_CPU, 3, &a) == TS_ERR_USAGE && f.s.len == 1,
       "... and refuses a short stack");
    done(&f);
    fixture(&f, "prim::tolist", "", 0, NULL);
    ok(ts_args_pop_n(&f.c, TS_DEV_CPU, TS_ARGS_MAX + 1, &a) == TS_ERR_LIMIT,
       "more than TS_ARGS_MAX values is refused");
    done(&f);
    ts_tensor_release(x);
}

static void test_shapes(void)
{
    TsError err = TS_ERROR_INIT;
    int d = -1;
    ok(ts_aten_wrap_dim(-1, 3, false, &d, &err) == 0 && d == 2, "dim -1 of 3 is 2");
    ok(ts_aten_wrap_dim(3, 3, false, &d, &err) == TS_ERR_INDEX, "dim 3 of 3 is out of range");
    is_str(err.msg, "Dimension out of range (expected to be in range of [-3, 2], but got 3)",
           "... in PyTorch's words");
    ts_error_clear(&err);
    ok(ts_aten_wrap_dim(-1, 0, true, &d, &err) == 0 && d == 0, "a 0-dim tensor takes -1 ...");
    ok(ts_aten_wrap_dim(0, 0, false, &d, &err) == TS_ERR_INDEX, "... unless it has no dims");
    is_str(err.msg, "Dimension specified as 0 but tensor has no dimensions", "... said so");
    ts_error_clear(&err);
    ok(ts_aten_wrap_dim(INT64_MIN, 4, false, &d, &err) == TS_ERR_INDEX, "INT64_MIN is refused");
    ts_error_clear(&err);

    int64_t s1[2] = { 3, 1 }, s2[1] = { 4 }, s3[1] = { 5 }, sizes[TS_TENSOR_MAX_DIMS];
    TsTensor *a = cpu_tensor(2, s1), *b = cpu_tensor(1, s2), *c = cpu_tensor(1, s3);
    TsTensor *ab[2] = { a, b }, *bc[2] = { b, c };
    int dim = 0;
    ok(ts_aten_broadcast_shape(2, ab, &dim, sizes, &err) == 0 && dim == 2 && sizes[0] == 3 &&
       sizes[1] == 4, "[3, 1] and [4] broadcast to [3, 4]");
    ok(ts_aten_broadcast_shape(2, bc, &dim, sizes, &err) == TS_ERR_RUNTIME, "[4] and [5] do not");
    is_str(err.msg, "The size of tensor a (4) must match the size of tensor b (5) at "
           "non-singleton dimension 0", "... in PyTorch's words");
    ts_error_clear(&err);

    char buf[16];
    int64_t big[4] = { 100000, 200000, 300000, 400000 };
    ts_aten_format_sizes(buf, sizeof buf, 2, s1);
    is_str(buf, "[3, 1]", "sizes print as a list");
    ts_aten_format_sizes(buf, sizeof buf, 4, big);
    is_int((long long)strlen(buf), 15, "a long list is cut to the buffer ...");
    ok(strcmp(buf + 12, "...") == 0, "... and ends in ...");

    /* out= resize: a new storage when the old is too small, none when the shape is right */
    TsStorage *before = b->storage;
    int64_t want[2] = { 2, 8 };
    ok(ts_aten_resize_out(b, 2, want, NULL, &err) == 0 && b->dim == 2 && b->sizes[1] == 8,
       "resize_out gives the out tensor the shape");
    ok(b->storage != before && b->storage->nbytes >= 64, "... with a larger storage");
    before = b->storage;
    ok(ts_aten_resize_out(b, 2, want, NULL, &err) == 0 && b->storage == before,
       "... and keeps it when the shape is already right");
    int64_t huge[2] = { INT64_C(1) << 40, INT64_C(1) << 40 };
    ok(ts_aten_resize_out(b, 2, huge, NULL, &err) == TS_ERR_RUNTIME, "an impossible shape fails");
    ok(b->dim == 2 && b->sizes[1] == 8, "... leaving the tensor as it was");
    ts_error_clear(&err);
    ts_tensor_release(a);
    ts_tensor_release(b);
    ts_tensor_release(c);
}

static void test_dtypes(void)
{
    is_int(ts_aten_promote_types(TS_UINT8, TS_INT8), TS_INT16, "uint8 + int8 is int16");
    is_int(ts_aten_promote_types(TS_FLOAT16, TS_BFLOAT16), TS_FLOAT32, "half + bfloat16 is float");
    is_int(ts_aten_promote_types(TS_BOOL, TS_INT32), TS_INT32, "bool + int is int");
    is_int(ts_aten_promote_types(TS_COMPLEX64, TS_INT32), -1, "complex is not known");
    ok(ts_aten_can_cast(TS_INT64, TS_FLOAT32) && !ts_aten_can_cast(TS_FLOAT32, TS_INT64),
       "int casts to float, not back");

    TsError err = TS_ERROR_INIT;
    int8_t i8 = 0;
    ok(ts_aten_scalar_to_elem(ts_int(300), TS_INT8, &i8, &err) == TS_ERR_RUNTIME,
       "300 does not fit int8");
    like(err.msg, "value cannot be converted to type int8_t without overflow", "... said so");
    ts_error_clear(&err);
    uint16_t h = 0;
    ok(ts_aten_scalar_to_elem(ts_double(1.5), TS_FLOAT16, &h, &err) == 0 && h == 0x3e00,
       "1.5 as float16 is 0x3e00");
    ok(ts_aten_scalar_to_elem(ts_double(1e6), TS_FLOAT16, &h, &err) != 0, "1e6 overflows float16");
    ts_error_clear(&err);
    is_int(ts_aten_scalar_dtype(ts_double(1.0)), TS_FLOAT32, "a float Scalar makes float32");

    is_int(ts_aten_float_to_half(65504.0f), 0x7bff, "65504 is the largest half");
    is_int(ts_aten_float_to_half(65520.0f), 0x7c00, "65520 rounds to inf");
    ok(ts_aten_half_to_float(0x0001) == ldexpf(1.0f, -24), "the smallest subnormal half");
    is_int(ts_aten_float_to_bf16(1.00390625f), 0x3f80, "bfloat16 rounds to even (down)");
    is_int(ts_aten_float_to_bf16(1.01171875f), 0x3f82, "bfloat16 rounds to even (up)");
    ok(isnan(ts_aten_bf16_to_float(ts_aten_float_to_bf16(NAN))), "nan stays nan");
}

/* The reductions' arguments (reduce_args.c): dims as a mask, result dtypes, result shapes. */
static void test_reductions(void)
{
    TsError err = TS_ERROR_INIT;
    uint64_t mask = 0;
    ok(ts_aten_red_dims(ts_none(), 3, &mask, &err) == 0 && mask == 7, "dim=None is every dim");
    ok(ts_aten_red_dims(ts_int(-1), 3, &mask, &err) == 0 && mask == 4, "dim=-1 of 3 is dim 2");
    ok(ts_aten_red_dims(ts_double(1), 3, &mask, &err) == TS_ERR_TYPE, "a float dim is refused");
    is_str(err.msg, "dim must be an int or a list of ints", "... said so");
    ts_error_clear(&err);

    int result = -1, cast = -1;
    ok(ts_aten_red_dtype(TS_ATEN_RED_SUM, "sum", false, TS_INT32, -1, &result, &cast, &err) == 0 &&
       result == TS_INT64 && cast == -1, "sum of int32 is int64, the input uncast");
    ok(ts_aten_red_dtype(TS_ATEN_RED_SUM, "sum", false, TS_INT32, TS_FLOAT64, &result, &cast,
                         &err) == 0 && result == TS_FLOAT64 && cast == TS_FLOAT64,
       "sum(dtype=float64) casts the input");
    ok(ts_aten_red_dtype(TS_ATEN_RED_MEAN, "mean", false, TS_INT64, -1, &result, &cast, &err) ==
       TS_ERR_RUNTIME, "mean of int64 fails");
    is_str(err.msg, "mean(): could not infer output dtype. Input dtype must be either a floating "
           "point or complex dtype. Got: Long", "... in PyTorch's words");
    ts_error_clear(&err);
    ok(ts_aten_red_dtype(TS_ATEN_RED_VAR, "var_mean", true, TS_INT64, -1, &result, &cast, &err) ==
       TS_ERR_RUNTIME, "var_mean of int64 fails");
    is_str(err.msg, "var_mean only support floating point and complex dtypes", "... by name");
    ts_error_clear(&err);
    ok(ts_aten_red_dtype(TS_ATEN_RED_LSE, "logsumexp", false, TS_INT64, -1, &result, &cast,
                         &err) == 0 && result == TS_FLOAT32 && cast == TS_FLOAT32,
       "logsumexp of int64 computes in float32");

    int64_t sz[3] = { 2, 0, 4 }, sizes[TS_TENSOR_MAX_DIMS];
    TsTensor *x = cpu_tensor(3, sz);
    int dim = 0;
    ts_aten_red_shape(x, 2, false, &dim, sizes);
    ok(dim == 2 && sizes[0] == 2 && sizes[1] == 4, "reducing dim 1 of [2, 0, 4] gives [2, 4]");
    ts_aten_red_shape(x, 2, true, &dim, sizes);
    ok(dim == 3 && sizes[1] == 1, "... and [2, 1, 4] with keepdim");
    TsAtenRedArgs r = { 2, false, true, 1, -1 };
    ok(ts_aten_red_check_nonempty("max", false, x, &r, &err) == TS_ERR_INDEX,
       "max over an empty dim fails");
    is_str(err.msg, "max(): Expected reduction dim 1 to have non-zero size.", "... said so");
    ts_error_clear(&err);
    ts_tensor_release(x);
}

/* The normalizations' checks (norm_check.c), in PyTorch's words. */
static void test_norms(void)
{
    TsError err = TS_ERROR_INIT;
    int64_t sx[3] = { 2, 6, 4 }, sw[1] = { 5 };
    TsTensor *x = cpu_tensor(3, sx), *w = cpu_tensor(1, sw);
    TsTensor *vecs[4] = { w, NULL, NULL, NULL };
    ok(ts_aten_check_batch_norm(x, vecs, true, &err) == TS_ERR_RUNTIME,
       "batch_norm: a weight of 5 for 6 channels fails");
    is_str(err.msg, "weight should contain 6 elements not 5", "... said so");
    ts_error_clear(&err);
    vecs[0] = NULL;
    ok(ts_aten_check_batch_norm(x, vecs, false, &err) == TS_ERR_RUNTIME,
       "batch_norm in evaluation needs running stats");
    is_str(err.msg, "running_mean must be defined in evaluation mode", "... said so");
    ts_error_clear(&err);
    int64_t ns[1] = { 4 };
    ok(ts_aten_check_layer_norm(x, 1, ns, NULL, NULL, &err) == 0, "layer_norm over [4] is fine");
    ok(ts_aten_check_group_norm(x, 4, NULL, NULL, &err) == TS_ERR_RUNTIME,
       "group_norm: 4 groups do not divide 6 channels");
    is_str(err.msg, "Expected number of channels in input to be divisible by num_groups, but got "
           "input of shape [2, 6, 4] and num_groups=4", "... said so");
    ts_error_clear(&err);
    ok(ts_aten_check_group_norm(x, 3, NULL, NULL, &err) == 0, "... 3 do");
    ts_tensor_release(x);
    ts_tensor_release(w);
}

/* cat's and stack's shapes and checks (join_check.c). */
static void test_joins(void)
{
    TsError err = TS_ERROR_INIT;
    int64_t s1[2] = { 2, 3 }, s2[2] = { 2, 5 }, s0[1] = { 0 }, sizes[TS_TENSOR_MAX_DIMS];
    TsTensor *a = cpu_tensor(2, s1), *b = cpu_tensor(2, s2), *e = cpu_tensor(1, s0);
    TsTensor *abe[3] = { a, b, e };
    const TsTensor *ref = NULL;
    int dtype = -1, d = -1;
    ok(ts_aten_cat_shape(3, abe, -1, &dtype, &ref, &d, sizes, &err) == 0 && ref == a && d == 1 &&
       sizes[0] == 2 && sizes[1] == 8 && dtype == TS_FLOAT32,
       "cat of [2, 3], [2, 5] and a skipped [0] along -1 is [2, 8]");
    ok(ts_aten_cat_shape(3, abe, 0, &dtype, &ref, &d, sizes, &err) == TS_ERR_RUNTIME,
       "... and fails along 0");
    is_str(err.msg, "Sizes of tensors must match except in dimension 0. Expected size 3 but got "
           "size 5 for tensor number 1 in the list.", "... said so");
    ts_error_clear(&err);
    ok(ts_aten_stack_check(2, abe, 0, &d, &err) == TS_ERR_RUNTIME, "stack of unequal sizes fails");
    is_str(err.msg, "stack expects each tensor to be equal size, but got [2, 3] at entry 0 and "
           "[2, 5] at entry 1", "... said so");
    ts_error_clear(&err);
    ok(ts_aten_stack_check(1, abe, -1, &d, &err) == 0 && d == 2, "stack of one along -1 is dim 2");
    ts_tensor_release(a);
    ts_tensor_release(b);
    ts_tensor_release(e);
}

/* gather's and index_select's checks (index_check.c). */
static void test_index_checks(void)
{
    TsError err = TS_ERROR_INIT;
    int64_t st[2] = { 3, 4 }, si[1] = { 5 }, sizes[TS_TENSOR_MAX_DIMS];
    TsTensor *t = cpu_tensor(2, st), *ix = cpu_tensor(1, si);
    ok(ts_aten_check_gather(t, 0, ix, &err) == TS_ERR_RUNTIME, "gather by a float index fails");
    is_str(err.msg, "gather(): Expected dtype int64 for index", "... said so");
    ts_error_clear(&err);
    ok(ts_aten_index_select_shape(t, 1, ix, sizes, &err) == TS_ERR_RUNTIME,
       "index_select by a float index fails");
    is_str(err.msg, "index_select(): Expected dtype int32 or int64 for index", "... said so");
    ts_error_clear(&err);
    ts_tensor_release(ix);
    TsDevice cpu = { TS_DEV_CPU, -1 };
    ix = ts_tensor_empty(ts_runtime_allocator(kt_rt, TS_DEV_CPU), cpu, TS_INT64, 1, si, &err);
    ok(ix && ts_aten_index_select_shape(t, 1, ix, sizes, &err) == 0 && sizes[0] == 3 &&
       sizes[1] == 5, "index_select of 5 along dim 1 of [3, 4] is [3, 5]");
    ok(ix && ts_aten_check_gather(t, 0, ix, &err) == TS_ERR_RUNTIME,
       "gather of a 1-d index from a 2-d tensor fails");
    is_str(err.msg, "Index tensor must have the same number of dimensions as input tensor",
           "... said so");
    ts_error_clear(&err);
    if (ix)
        ts_tensor_release(ix);
    ts_tensor_release(t);
}

/* The pooling windows' checks and output size (pool_check.c). */
static void test_pool_checks(void)
{
    TsError err = TS_ERROR_INIT;
    int64_t k[2] = { 3, 3 }, st[2] = { 2, 2 }, p[2] = { 1, 2 }, d[2] = { 1, 1 };
    is_int(ts_aten_pool_out_size(7, 3, 1, 2, 1, false), 4, "7 by 3, pad 1, stride 2 gives 4");
    is_int(ts_aten_pool_out_size(6, 3, 0, 2, 1, true), 3, "6 by 3, stride 2, ceil_mode gives 3");
    ok(ts_aten_check_pool_pads(2, k, st, p, &err) == TS_ERR_RUNTIME, "a pad of 2 for 3 fails");
    is_str(err.msg, "pad should be at most half of kernel size, but got pad=2 and kernel_size=3",
           "... said so");
    ts_error_clear(&err);
    ok(ts_aten_check_pool2d_window(k, st, d, &err) == 0, "a 3x3 window of stride 2 is fine");
    int64_t sizes[4] = { 1, 2, 0, 4 };
    ok(ts_aten_check_pool2d_input(4, sizes, &err) == TS_ERR_RUNTIME, "an empty H fails");
    is_str(err.msg, "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for "
           "input, but got:[1, 2, 0, 4]", "... said so");
    ts_error_clear(&err);
}

/* The kernel of ts_aten_view_table for qualname.overload. */
static TsKernelFn shared_kernel(const char *qualname, const char *overload)
{
    for (size_t i = 0; i < ts_aten_view_table.n; i++)
        if (!strcmp(ts_aten_view_table.ops[i].qualname, qualname) &&
            !strcmp(ts_aten_view_table.ops[i].overload, overload))
            return ts_aten_view_table.ops[i].fn;
    return NULL;
}

/* A float32 tensor of sizes and strides over borrowed memory that claims to be on cuda:0 (the
 * shared kernels never touch it). */
static TsTensor *cuda_tensor(float *buf, size_t nbytes, int dim, const int64_t *sizes,
                             const int64_t *strides)
{
    TsDevice cuda = { TS_DEV_CUDA, 0 };
    TsStorage *st = ts_storage_borrow(buf, nbytes, cuda, NULL);
    TsTensor *t = st ? ts_tensor_new(st, TS_FLOAT32, dim, sizes, strides, 0, NULL) : NULL;
    if (st)
        ts_storage_release(st);
    return t;
}

/* A stand-in for a cuda backend's copy: a new contiguous "cuda" tensor (host memory). */
static int copies;

static TsTensor *fake_cuda_copy(const TsTensor *src, TsError *err)
{
    copies++;
    TsDevice cuda = { TS_DEV_CUDA, 0 };
    return ts_tensor_empty(ts_runtime_allocator(kt_rt, TS_DEV_CPU), cuda, src->dtype, src->dim,
                           src->sizes, err);
}

static void test_same_device(void)
{
    float buf[6];
    int64_t sz[2] = { 2, 3 };
    TsTensor *g = cuda_tensor(buf, sizeof buf, 2, sz, NULL), *x = cpu_tensor(2, sz), *got;
    Fixture f;
    TsArgs a;

    /* the device is the first tensor's: cuda here, so the cpu tensor is the odd one */
    TsValue v[3] = { ts_obj_value(g, TS_TAG_TENSOR), ts_obj_value(x, TS_TAG_TENSOR), ts_int(1) };
    fixture(&f, "aten::add", "Tensor", 3, v);
    is_int(ts_args_pop_same_device(&f.c, &a), 0, "ts_args_pop_same_device binds aten::add.Tensor");
    is_int(a.device_type, TS_DEV_CUDA, "... on the first tensor's device");
    ok(ts_args_tensor(&a, 0, &got) == 0 && got == g, "... which argument 0 is on");
    ok(ts_args_tensor(&a, 1, &got) == TS_ERR_RUNTIME, "a tensor on another device is refused");
    is_str(f.err.msg, "aten::add: the cuda kernel got argument 'other' on device cpu",
           "... naming the argument and its device");
    ts_args_fail(&a, 0);
    done(&f);

    /* a Tensor[] argument: its first item decides; none at all: -1 */
    TsList *l = ts_list_new(ts_type_tensor(), 1, NULL);
    ts_list_append(l, ts_obj_value(cpu_tensor(2, sz), TS_TAG_TENSOR), NULL);
    fixture(&f, "aten::cat", "", 2, (TsValue[]){ ts_obj_value(l, TS_TAG_LIST), ts_int(0) });
    ok(ts_args_pop_same_device(&f.c, &a) == 0 && a.device_type == TS_DEV_CPU,
       "a Tensor[] argument's first item gives the device");
    ts_args_fail(&a, 0);
    done(&f);
    TsList *empty = ts_list_new(ts_type_tensor(), 0, NULL);
    fixture(&f, "aten::cat", "", 2, (TsValue[]){ ts_obj_value(empty, TS_TAG_LIST), ts_int(0) });
    ok(ts_args_pop_same_device(&f.c, &a) == 0 && a.device_type == -1,
       "no tensor among the arguments: device type -1");
    ts_args_fail(&a, 0);
    done(&f);
}

static void test_shared_kernels(void)
{
    float buf[6];
    int64_t sz[2] = { 3, 2 }, tr[2] = { 1, 3 }, six[1] = { 6 };
    TsError err = TS_ERROR_INIT;
    TsKernelFn reshape = shared_kernel("aten::reshape", ""), t = shared_kernel("aten::t", "");
    ok(reshape && t && shared_kernel("aten::size", "int") && shared_kernel("aten::narrow", "") &&
       !shared_kernel("aten::narrow", "Tensor"), "the shared table: reshape, t, size.int, narrow");

    /* a view on any device: t of a cuda tensor is a cuda view of the same storage */
    TsTensor *g = cuda_tensor(buf, sizeof buf, 2, sz, NULL);
    Fixture f;
    fixture(&f, "aten::t", "", 1, (TsValue[]){ ts_obj_value(g, TS_TAG_TENSOR) });
    ts_tensor_retain(g);
    is_int(t(&f.c), 0, "aten::t runs on a cuda tensor");
    TsTensor *r = f.s.len == 1 ? (TsTensor *)f.s.data[0].u.p : NULL;
    ok(r && r->device.type == TS_DEV_CUDA && r->storage == g->storage && r->sizes[0] == 2 &&
       r->strides[0] == 1, "... a cuda view of its storage, dims swapped");
    ts_tensor_release(g);
    done(&f);

    /* reshape of a transposed tensor needs a copy: the device's hook, or an error */
    TsList *shape = ts_list_new(ts_type_int(), 1, NULL);
    ts_list_append(shape, ts_int(six[0]), NULL);
    TsTensor *tt = cuda_tensor(buf, sizeof buf, 2, sz, tr);
    ts_heap_retain(&shape->h);
    ts_tensor_retain(tt);
    fixture(&f, "aten::reshape", "", 2,
            (TsValue[]){ ts_obj_value(tt, TS_TAG_TENSOR), ts_obj_value(shape, TS_TAG_LIST) });
    is_int(reshape(&f.c), TS_ERR_RUNTIME, "reshape needing a copy on a device with no hook fails");
    is_str(f.err.msg, "aten::reshape: the backend of device cuda:0 gave no copy hook "
           "(ts_aten_set_backend)", "... saying so");
    done(&f);

    is_int(ts_aten_set_backend(&(TsAtenBackend){ .device_type = TS_DEV_CUDA }, &err),
           TS_ERR_USAGE, "a backend without its copy hook is refused");
    ts_error_clear(&err);
    static const TsAtenBackend fake = { .device_type = TS_DEV_CUDA,
                                        .contiguous_copy = fake_cuda_copy };
    is_int(ts_aten_set_backend(&fake, &err), 0, "a cuda backend's hook is set");
    ts_tensor_retain(tt);
    fixture(&f, "aten::reshape", "", 2,
            (TsValue[]){ ts_obj_value(tt, TS_TAG_TENSOR), ts_obj_value(shape, TS_TAG_LIST) });
    is_int(reshape(&f.c), 0, "reshape of the transposed cuda tensor");
    r = f.s.len == 1 ? (TsTensor *)f.s.data[0].u.p : NULL;
    ok(copies == 1 && r && r->device.type == TS_DEV_CUDA && r->dim == 1 && r->sizes[0] == 6 &&
       r->storage != tt->storage, "... is the hook's copy, reshaped");
    ts_tensor_release(tt);
    done(&f);

    /* a viewable reshape calls no hook */
    TsTensor *c = cuda_tensor(buf, sizeof buf, 2, sz, NULL);
    shape = ts_list_new(ts_type_int(), 1, NULL);
    ts_list_append(shape, ts_int(six[0]), NULL);
    fixture(&f, "aten::reshape", "", 2,
            (TsValue[]){ ts_obj_value(c, TS_TAG_TENSOR), ts_obj_value(shape, TS_TAG_LIST) });
    ts_tensor_retain(c);
    is_int(reshape(&f.c), 0, "reshape of a contiguous cuda tensor");
    r = f.s.len == 1 ? (TsTensor *)f.s.data[0].u.p : NULL;
    ok(copies == 1 && r && r->storage == c->storage, "... is a view: no copy");
    ts_tensor_release(c);
    done(&f);
}

/* The random ops' shared part (random.c): bounds, checks, and a device whose backend gave
 * no random hooks (the fake cuda backend of test_shared_kernels). */
static void test_random(void)
{
    TsError err = TS_ERROR_INIT;
    TsAtenDraw d = ts_aten_draw(TS_ATEN_DRAW_INT, (TsValue[]){ ts_int(3), ts_int(9) }, 2);
    ok(d.lo == 3 && d.hi == 9, "randint.low's bounds");
    d = ts_aten_draw(TS_ATEN_DRAW_INT, (TsValue[]){ ts_int(9) }, 1);
    ok(d.lo == 0 && d.hi == 9, "randint's: low 0");
    d = ts_aten_draw(TS_ATEN_DRAW_BERNOULLI, NULL, 0);
    ok(d.a == 0.5, "bernoulli_'s p defaults to 0.5");
    d = ts_aten_draw(TS_ATEN_DRAW_NORMAL, NULL, 0);
    ok(d.a == 0 && d.b == 1, "a standard normal");
    ok(ts_aten_draw_value(&d, 42, 3, NULL) ==
       ts_random_normal(ts_random_draw(42, 7), ts_random_draw(42, 8), 0, 1),
       "a normal's element 3 takes draws 7 and 8");

    is_int(ts_aten_check_randperm(-2, TS_INT64, &err), TS_ERR_RUNTIME, "randperm(-2)");
    is_str(err.msg, "Trying to create tensor with negative dimension -2: [-2]", "... PyTorch's "
           "message");
    ts_aten_check_randperm(3, TS_BOOL, &err);
    is_str(err.msg, "\"randperm\" not implemented for 'Bool'", "randperm of bool");
    ts_aten_check_randperm(300, TS_INT8, &err);
    is_str(err.msg, "value cannot be converted to type int8_t without overflow",
           "randperm(300) of int8");
    ts_error_clear(&err);

    int64_t perm[20];
    bool seen[20] = { false }, all = true;
    ts_aten_randperm(20, perm);
    for (int i = 0; i < 20; i++)
        if (perm[i] >= 0 && perm[i] < 20)
            seen[perm[i]] = true;
    for (int i = 0; i < 20; i++)
        all &= seen[i];
    ok(all, "ts_aten_randperm permutes 0..n-1");

    float buf[6] = { 0 };
    int64_t sz[1] = { 6 };
    TsTensor *g = cuda_tensor(buf, sizeof buf, 1, sz, NULL);
    d = ts_aten_draw(TS_ATEN_DRAW_UNIFORM, NULL, 0);
    is_int(ts_aten_random_fill(g, &d, &err), TS_ERR_RUNTIME, "a fill on a device whose backend "
           "gave no random hooks fails");
    is_str(err.msg, "the backend of device cuda:0 gave no random hooks (ts_aten_set_backend)",
           "... saying so");
    ts_error_clear(&err);
    ts_tensor_release(g);
}

int main(void)
{
    if (!kt_open())
        return done_testing();
    test_binding();
    test_more();
    test_shapes();
    test_dtypes();
    test_reductions();
    test_norms();
    test_joins();
    test_index_checks();
    test_pool_checks();
    test_same_device();
    test_shared_kernels();
    test_random();
    ts_runtime_close(kt_rt);
    return done_testing();
}
