/* cpu_shape.t — the aten-cpu shape, indexing and creation ops: views that share storage (so
 * writes show through them), view's size inference and errors, reshape copying only when it
 * must, slicing with steps, expand, squeeze, split, diagonal, copy_ with broadcasting and
 * casts, cat/stack/repeat/flip/roll/tril/triu, gather/index_select, advanced indexing
 * (masks, integer tensors, non-adjacent indices) and index_put_ with accumulate, the
 * factories (arange's dtype inference, linspace, eye, aten::tensor from nested lists) and
 * item/tolist. Expected values and messages come from PyTorch 1.13.
 */
#include <stdio.h>
#include <string.h>

#include "kernel.h"

#include "tensor_util.h"

static TsValue ints(int n, const int64_t *v)
{
    TsList *l = ts_list_new(ts_type_int(), (size_t)n, NULL);
    for (int i = 0; l && i < n; i++)
        l->items[l->len++] = ts_int(v[i]);
    return l ? ts_obj_value(l, TS_TAG_LIST) : NONE;
}
#define L(...) ints(sizeof((int64_t[]){ __VA_ARGS__ }) / sizeof(int64_t), (int64_t[]){ __VA_ARGS__ })
#define L0() ints(0, NULL)

/* A Tensor?[] or Tensor[] list of the n tensors (NULL entries are None); takes references. */
static TsValue tlist(int n, TsTensor *const *ts)
{
    TsList *l = ts_list_new(ts_type_optional(ts_type_tensor()), (size_t)n, NULL);
    for (int i = 0; i < n; i++)
        l->items[l->len++] = ts[i] ? tv(ts[i]) : NONE;
    return ts_obj_value(l, TS_TAG_LIST);
}
#define TL(...) tlist(sizeof((TsTensor *[]){ __VA_ARGS__ }) / sizeof(TsTensor *), \
                      (TsTensor *[]){ __VA_ARGS__ })

static TsTensor *ar(int dtype, int64_t n)
{
    double v[64];
    for (int64_t i = 0; i < n && i < 64; i++)
        v[i] = (double)i;
    return mk(dtype, 1, &n, v, (size_t)n);
}

/* arange(n) as float32 viewed as sizes. */
static TsTensor *grid(int64_t rows, int64_t cols)
{
    return call("aten::view", "", 2, (TsValue[]){ tv(ar(TS_FLOAT32, rows * cols)), L(rows, cols) });
}

static TsTensor *retain(TsTensor *t)
{
    ts_tensor_retain(t);
    return t;
}

static void test_views(void)
{
    TsTensor *x = ar(TS_FLOAT32, 6);
    TsTensor *v = call("aten::view", "", 2, (TsValue[]){ tv(retain(x)), L(2, -1) });
    ok(v && v->storage == x->storage, "view shares storage");
    CHECK(retain(v), TS_FLOAT32, S(2, 3), "view(2, -1)", 0, 1, 2, 3, 4, 5);
    fails("aten::view", "", 2, (TsValue[]){ tv(retain(x)), L(4, -1) },
          "shape '[4, -1]' is invalid for input of size 6", "view(4, -1)");
    fails("aten::view", "", 2, (TsValue[]){ tv(retain(x)), L(-1, -1) },
          "only one dimension can be inferred", "view(-1, -1)");
    TsTensor *t = call("aten::transpose", "int", 3, (TsValue[]){ tv(retain(v)), ts_int(0), ts_int(1) });
    fails("aten::view", "", 2, (TsValue[]){ tv(retain(t)), L(6) },
          "view size is not compatible with input tensor's size and stride (at least one "
          "dimension spans across two contiguous subspaces). Use .reshape(...) instead.",
          "view of a transpose");
    TsTensor *r = call("aten::reshape", "", 2, (TsValue[]){ tv(retain(t)), L(6) });
    ok(r && r->storage != x->storage, "reshape of a transpose copies");
    CHECK(r, TS_FLOAT32, S(6), "reshape", 0, 3, 1, 4, 2, 5);
    r = call("aten::reshape", "", 2, (TsValue[]){ tv(retain(v)), L(3, 2) });
    ok(r && r->storage == x->storage, "reshape of a contiguous tensor is a view");
    ts_tensor_release(r);
    TsTensor *c = call("aten::contiguous", "", 2, (TsValue[]){ tv(retain(t)), ts_int(0) });
    CHECK(c, TS_FLOAT32, S(3, 2), "contiguous of a transpose", 0, 3, 1, 4, 2, 5);
    c = call("aten::clone", "", 2, (TsValue[]){ tv(retain(t)), NONE });
    ok(c && c->strides[0] == 1 && c->strides[1] == 3, "clone keeps a transpose's strides");
    ts_tensor_release(c);

    /* x[1:6:2] written through */
    TsTensor *s = call("aten::slice", "Tensor", 5,
                       (TsValue[]){ tv(retain(x)), ts_int(0), ts_int(1), NONE, ts_int(2) });
    TsTensor *f = call("aten::fill_", "Scalar", 2, (TsValue[]){ tv(retain(s)), ts_double(9) });
    ts_tensor_release(f);
    CHECK(retain(v), TS_FLOAT32, S(2, 3), "fill_ through a slice", 0, 9, 2, 9, 4, 9);
    CHECK(s, TS_FLOAT32, S(3), "slice with step", 9, 9, 9);
    s = call("aten::slice", "Tensor", 5,
             (TsValue[]){ tv(retain(x)), ts_int(0), ts_int(-100), ts_int(100), ts_int(1) });
    CHECK(s, TS_FLOAT32, S(6), "slice clamps its bounds", 0, 9, 2, 9, 4, 9);
    fails("aten::slice", "Tensor", 5, (TsValue[]){ tv(Z(TS_FLOAT32)), ts_int(0), NONE, NONE, ts_int(1) },
          "slice() cannot be applied to a 0-dim tensor.", "slice of a 0-dim tensor");

    s = call("aten::select", "int", 3, (TsValue[]){ tv(retain(v)), ts_int(1), ts_int(-1) });
    CHECK(s, TS_FLOAT32, S(2), "select(1, -1)", 2, 9);
    fails("aten::select", "int", 3, (TsValue[]){ tv(retain(v)), ts_int(0), ts_int(5) },
          "select(): index 5 out of range for tensor of size [2, 3] at dimension 0",
          "select out of range");
    s = call("aten::narrow", "", 4, (TsValue[]){ tv(retain(v)), ts_int(1), ts_int(1), ts_int(2) });
    CHECK(s, TS_FLOAT32, S(2, 2), "narrow", 9, 2, 4, 9);
    fails("aten::narrow", "", 4, (TsValue[]){ tv(retain(v)), ts_int(0), ts_int(1), ts_int(5) },
          "start (1) + length (5) exceeds dimension size (2).", "narrow too long");
    fails("aten::permute", "", 2, (TsValue[]){ tv(retain(v)), L(0, 0) },
          "permute(): duplicate dims are not allowed.", "permute with a repeated dim");
    s = call("aten::permute", "", 2, (TsValue[]){ tv(retain(v)), L(1, 0) });
    CHECK(s, TS_FLOAT32, S(3, 2), "permute", 0, 9, 9, 4, 2, 9);

    TsTensor *e = call("aten::expand", "", 3, (TsValue[]){ tv(ar(TS_INT64, 3)), L(2, -1), ts_bool(false) });
    ok(e && e->strides[0] == 0, "expand gives stride 0");
    CHECK(e, TS_INT64, S(2, 3), "expand", 0, 1, 2, 0, 1, 2);
    fails("aten::expand", "", 3, (TsValue[]){ tv(retain(v)), L(2, 4), ts_bool(false) },
          "The expanded size of the tensor (4) must match the existing size (3) at non-singleton "
          "dimension 1.  Target sizes: [2, 4].  Tensor sizes: [2, 3]", "expand mismatch");
    e = call("aten::unsqueeze", "", 2, (TsValue[]){ tv(retain(v)), ts_int(-1) });
    ok(e && e->dim == 3 && e->sizes[2] == 1, "unsqueeze(-1)");
    TsTensor *q = e ? call("aten::squeeze", "", 1, (TsValue[]){ tv(e) }) : NULL;
    ok(q && q->dim == 2, "squeeze() drops size-1 dims");
    if (q)
        ts_tensor_release(q);
    fails("aten::unsqueeze", "", 2, (TsValue[]){ tv(retain(v)), ts_int(3) },
          "Dimension out of range (expected to be in range of [-3, 2], but got 3)",
          "unsqueeze out of range");
    q = call("aten::flatten", "using_ints", 3, (TsValue[]){ tv(retain(v)), ts_int(0), ts_int(-1) });
    CHECK(q, TS_FLOAT32, S(6), "flatten", 0, 9, 2, 9, 4, 9);
    q = call("aten::unflatten", "int", 3, (TsValue[]){ tv(retain(x)), ts_int(0), L(3, -1) });
    CHECK(q, TS_FLOAT32, S(3, 2), "unflatten", 0, 9, 2, 9, 4, 9);
    q = call("aten::diagonal", "", 4, (TsValue[]){ tv(grid(3, 3)), ts_int(1), ts_int(0), ts_int(1) });
    CHECK(q, TS_FLOAT32, S(2), "diagonal(1)", 1, 5);
    ts_tensor_release(t);
    ts_tensor_release(v);
    ts_tensor_release(x);
}

static void test_lists(void)
{
    TsError err = TS_ERROR_INIT;
    TsValue r;
    TsTensor *x = ar(TS_FLOAT32, 5);
    ok(kt_call("aten::split", "Tensor", "cpu", 3, (TsValue[]){ tv(retain(x)), ts_int(2), ts_int(0) },
               &r, &err) == 0 && r.tag == TS_TAG_LIST && ((TsList *)r.u.p)->len == 3,
       "split(2) of 5 gives 3 views");
    if (r.tag == TS_TAG_LIST)
        CHECK(retain((TsTensor *)((TsList *)r.u.p)->items[2].u.p), TS_FLOAT32, S(1), "last split", 4);
    ts_value_release(r);
    fails("aten::split_with_sizes", "", 3, (TsValue[]){ tv(retain(x)), L(1, 1), ts_int(0) },
          "split_with_sizes expects split_sizes to sum exactly to 5 (input tensor's size at "
          "dimension 0), but got split_sizes=[1, 1]", "split sizes that do not sum");
    ok(kt_call("aten::unbind", "int", "cpu", 2, (TsValue[]){ tv(grid(2, 3)), ts_int(1) }, &r,
               &err) == 0 && r.tag == TS_TAG_LIST && ((TsList *)r.u.p)->len == 3, "unbind(1)");
    ts_value_release(r);
    ts_tensor_release(x);
}

static void test_copy(void)
{
    TsTensor *x = call("aten::zeros", "", 5, (TsValue[]){ L(2, 3), NONE, NONE, NONE, NONE });
    TsTensor *col = call("aten::select", "int", 3, (TsValue[]){ tv(retain(x)), ts_int(1), ts_int(2) });
    TsTensor *r = call("aten::copy_", "", 3, (TsValue[]){ tv(retain(col)), tv(T(TS_INT64, S(1), 7)),
                                                             ts_bool(false) });
    ok(r == col, "copy_ returns self");
    if (r)
        ts_tensor_release(r);
    CHECK(retain(x), TS_FLOAT32, S(2, 3), "copy_ broadcasts and casts through a view",
          0, 0, 7, 0, 0, 7);
    fails("aten::copy_", "", 3, (TsValue[]){ tv(retain(x)), tv(T(TS_FLOAT32, S(1, 2, 3))), ts_bool(false) },
          "output with shape [2, 3] doesn't match the broadcast shape [1, 2, 3]", "copy_ growing self");
    ts_tensor_release(col);
    ts_tensor_release(x);
}

static void test_join(void)
{
    TsTensor *r = call("aten::cat", "", 2, (TsValue[]){ TL(T(TS_INT64, S(2), 1, 2), T(TS_FLOAT32, S(1), 3.5),
                                                         T(TS_FLOAT32, S(0))), ts_int(0) });
    CHECK(r, TS_FLOAT32, S(3), "cat promotes and skips empty 1-d", 1, 2, 3.5);
    fails("aten::cat", "", 2, (TsValue[]){ TL(grid(2, 3), grid(3, 3)), ts_int(1) },
          "Sizes of tensors must match except in dimension 1. Expected size 2 but got size 3 "
          "for tensor number 1 in the list.", "cat size mismatch");
    fails("aten::cat", "", 2, (TsValue[]){ TL(Z(TS_FLOAT32)), ts_int(0) },
          "zero-dimensional tensor (at position 0) cannot be concatenated", "cat of a 0-dim");
    r = call("aten::stack", "", 2, (TsValue[]){ TL(ar(TS_FLOAT32, 2), ar(TS_FLOAT32, 2)), ts_int(1) });
    CHECK(r, TS_FLOAT32, S(2, 2), "stack(dim=1)", 0, 0, 1, 1);
    r = call("aten::repeat", "", 2, (TsValue[]){ tv(T(TS_FLOAT32, S(2), 1, 2)), L(2, 2) });
    CHECK(r, TS_FLOAT32, S(2, 4), "repeat", 1, 2, 1, 2, 1, 2, 1, 2);
    r = call("aten::flip", "", 2, (TsValue[]){ tv(grid(2, 3)), L(0, 1) });
    CHECK(r, TS_FLOAT32, S(2, 3), "flip", 5, 4, 3, 2, 1, 0);
    r = call("aten::roll", "", 3, (TsValue[]){ tv(grid(2, 3)), L(1), L(1) });
    CHECK(r, TS_FLOAT32, S(2, 3), "roll(1, 1)", 2, 0, 1, 5, 3, 4);
    r = call("aten::roll", "", 3, (TsValue[]){ tv(grid(2, 3)), L(-1), L0() });
    CHECK(r, TS_FLOAT32, S(2, 3), "roll(-1) flattened", 1, 2, 3, 4, 5, 0);
    r = call("aten::roll", "", 3, (TsValue[]){ tv(grid(2, 3)), L(1, 1), L(0, 1) });
    CHECK(r, TS_FLOAT32, S(2, 3), "roll over two dims", 5, 3, 4, 2, 0, 1);
    r = call("aten::tril", "", 2, (TsValue[]){ tv(grid(3, 3)), ts_int(-1) });
    CHECK(r, TS_FLOAT32, S(3, 3), "tril(-1)", 0, 0, 0, 3, 0, 0, 6, 7, 0);
    r = call("aten::triu", "", 2, (TsValue[]){ tv(grid(3, 3)), ts_int(1) });
    CHECK(r, TS_FLOAT32, S(3, 3), "triu(1)", 0, 1, 2, 0, 0, 5, 0, 0, 0);
    fails("aten::tril", "", 2, (TsValue[]){ tv(ar(TS_FLOAT32, 3)), ts_int(0) },
          "Dimension out of range (expected to be in range of [-1, 0], but got -2)", "tril of 1-d");
}

static void test_index(void)
{
    TsTensor *x = grid(3, 4);
    TsTensor *r = call("aten::index", "Tensor", 2, (TsValue[]){ tv(retain(x)),
                       TL(T(TS_INT64, S(2, 1), 0, 2), T(TS_INT64, S(2), 1, 3)) });
    CHECK(r, TS_FLOAT32, S(2, 2), "index with broadcast integer tensors", 1, 3, 9, 11);
    r = call("aten::index", "Tensor", 2, (TsValue[]){ tv(retain(x)), TL(NULL, T(TS_INT64, S(2), 3, -1)) });
    CHECK(r, TS_FLOAT32, S(3, 2), "x[:, idx] with a negative index", 3, 3, 7, 7, 11, 11);
    TsTensor *m = call("aten::gt", "Scalar", 2, (TsValue[]){ tv(retain(x)), ts_int(8) });
    r = call("aten::index", "Tensor", 2, (TsValue[]){ tv(retain(x)), TL(retain(m)) });
    CHECK(r, TS_FLOAT32, S(3), "x[x > 8]", 9, 10, 11);
    TsTensor *y = call("aten::view", "", 2, (TsValue[]){ tv(ar(TS_FLOAT32, 24)), L(2, 3, 4) });
    r = call("aten::index", "Tensor", 2, (TsValue[]){ tv(y), TL(T(TS_INT64, S(2), 1, 0), NULL,
                                                                     T(TS_INT64, S(2), 2, 3)) });
    CHECK(r, TS_FLOAT32, S(2, 3), "non-adjacent indices go first", 14, 18, 22, 3, 7, 11);
    fails("aten::index", "Tensor", 2, (TsValue[]){ tv(retain(x)), TL(T(TS_INT64, S(1), 5)) },
          "index 5 is out of bounds for dimension 0 with size 3", "index out of bounds");
    fails("aten::index", "Tensor", 2, (TsValue[]){ tv(retain(x)), TL(T(TS_FLOAT32, S(1))) },
          "tensors used as indices must be long, byte or bool tensors", "float index");
    fails("aten::index", "Tensor", 2, (TsValue[]){ tv(retain(x)), TL(T(TS_BOOL, S(4))) },
          "The shape of the mask [4] at index 0 does not match the shape of the indexed tensor "
          "[3, 4] at index 0", "mask of the wrong shape");
    fails("aten::index", "Tensor", 2, (TsValue[]){ tv(retain(x)), TL(T(TS_INT64, S(2)), T(TS_INT64, S(3))) },
          "shape mismatch: indexing tensors could not be broadcast together with shapes [2], [3]",
          "indices that do not broadcast");

    /* x[x > 8] = 0 as TorchScript lowers it, then accumulate with a duplicate index */
    TsTensor *w = call("aten::index_put_", "", 4, (TsValue[]){ tv(retain(x)), TL(retain(m)),
                       tv(call("aten::tensor", "int", 4, (TsValue[]){ ts_int(0), ts_int(TS_FLOAT32), NONE, ts_bool(false) })),
                       ts_bool(false) });
    ok(w == x, "index_put_ returns self");
    if (w)
        ts_tensor_release(w);
    CHECK(retain(x), TS_FLOAT32, S(3, 4), "index_put_ with a mask", 0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0);
    TsTensor *z = call("aten::zeros", "", 5, (TsValue[]){ L(5), NONE, NONE, NONE, NONE });
    w = call("aten::index_put_", "", 4, (TsValue[]){ tv(retain(z)), TL(T(TS_INT64, S(3), 0, 0, 2)),
             tv(T(TS_FLOAT32, S(3), 1, 2, 3)), ts_bool(true) });
    if (w)
        ts_tensor_release(w);
    CHECK(z, TS_FLOAT32, S(5), "index_put_ accumulates duplicates", 3, 0, 3, 0, 0);
    fails("aten::index_put_", "", 4, (TsValue[]){ tv(retain(x)), TL(T(TS_INT64, S(1))),
          tv(T(TS_INT64, S(3))), ts_bool(false) },
          "Index put requires the source and destination dtypes match, got Float for the "
          "destination and Long for the source.", "index_put_ dtype mismatch");
    fails("aten::index_put_", "", 4, (TsValue[]){ tv(retain(x)), TL(T(TS_INT64, S(1))),
          tv(T(TS_FLOAT32, S(2))), ts_bool(false) },
          "shape mismatch: value tensor of shape [2] cannot be broadcast to indexing result of "
          "shape [1, 4]", "index_put_ shape mismatch");

    r = call("aten::gather", "", 4, (TsValue[]){ tv(T(TS_FLOAT32, S(2, 2), 1, 2, 3, 4)), ts_int(1),
                                                  tv(T(TS_INT64, S(2, 2), 0, 0, 1, 0)), ts_bool(false) });
    CHECK(r, TS_FLOAT32, S(2, 2), "gather", 1, 1, 4, 3);
    fails("aten::gather", "", 4, (TsValue[]){ tv(retain(x)), ts_int(0), tv(T(TS_INT64, S(1, 1), -1)),
          ts_bool(false) }, "index -1 is out of bounds for dimension 0 with size 3", "gather bounds");
    r = call("aten::index_select", "", 3, (TsValue[]){ tv(retain(x)), ts_int(1), tv(T(TS_INT32, S(2), 3, 0)) });
    CHECK(r, TS_FLOAT32, S(3, 2), "index_select", 3, 0, 7, 4, 0, 8);
    fails("aten::index_select", "", 3, (TsValue[]){ tv(retain(x)), ts_int(0), tv(T(TS_INT64, S(1), 3)) },
          "index out of range in self", "index_select bounds");
    r = call("aten::masked_select", "", 2, (TsValue[]){ tv(retain(x)), tv(T(TS_BOOL, S(4), 1, 0, 0, 1)) });
    CHECK(r, TS_FLOAT32, S(6), "masked_select broadcasts the mask", 0, 3, 4, 7, 8, 0);
    r = call("aten::nonzero", "", 1, (TsValue[]){ tv(T(TS_FLOAT32, S(2, 2), 0, 1, 2, 0)) });
    CHECK(r, TS_INT64, S(2, 2), "nonzero", 0, 1, 1, 0);
    ts_tensor_release(m);
    ts_tensor_release(x);
}

static void test_create(void)
{
    TsTensor *r = call("aten::arange", "", 5, (TsValue[]){ ts_int(3), NONE, NONE, NONE, NONE });
    CHECK(r, TS_INT64, S(3), "arange(3) is int64", 0, 1, 2);
    r = call("aten::arange", "start_step", 7, (TsValue[]){ ts_int(1), ts_double(2.5), ts_double(0.5),
                                                           NONE, NONE, NONE, NONE });
    CHECK(r, TS_FLOAT32, S(3), "arange with a float is float32", 1, 1.5, 2);
    r = call("aten::arange", "start_step", 7, (TsValue[]){ ts_int(5), ts_int(0), ts_int(-2),
                                                           NONE, NONE, NONE, NONE });
    CHECK(r, TS_INT64, S(3), "arange with a negative step", 5, 3, 1);
    fails("aten::arange", "start_step", 7, (TsValue[]){ ts_int(0), ts_int(5), ts_int(-1), NONE, NONE, NONE, NONE },
          "upper bound and larger bound inconsistent with step sign", "arange with a wrong sign");
    fails("aten::arange", "", 5, (TsValue[]){ ts_double(NAN), NONE, NONE, NONE, NONE },
          "unsupported range: 0 -> nan", "arange(nan)");
    r = call("aten::linspace", "", 7, (TsValue[]){ ts_int(-1), ts_int(2), ts_int(6), NONE, NONE, NONE, NONE });
    CHECK(r, TS_FLOAT32, S(6), "linspace", -1.0, -0.3999999761581421, 0.20000004768371582,
          0.7999999523162842, 1.399999976158142, 2.0);
    r = call("aten::eye", "m", 6, (TsValue[]){ ts_int(2), ts_int(3), ts_int(TS_INT64), NONE, NONE, NONE });
    CHECK(r, TS_INT64, S(2, 3), "eye(2, 3)", 1, 0, 0, 0, 1, 0);
    fails("aten::eye", "", 5, (TsValue[]){ ts_int(-1), NONE, NONE, NONE, NONE },
          "n must be greater or equal to 0, got -1", "eye(-1)");
    r = call("aten::full_like", "", 7, (TsValue[]){ tv(T(TS_INT32, S(2))), ts_double(2.7), NONE, NONE,
                                                     NONE, NONE, NONE });
    CHECK(r, TS_INT32, S(2), "full_like keeps self's dtype", 2, 2);
    r = call("aten::ones_like", "", 6, (TsValue[]){ tv(T(TS_INT32, S(2))), ts_int(TS_FLOAT64), NONE, NONE,
                                                     NONE, NONE });
    CHECK(r, TS_FLOAT64, S(2), "ones_like(dtype=float64)", 1, 1);

    /* torch.tensor([[1, 2], [3, 4]]) and a ragged list */
    TsList *outer = ts_list_new(ts_type_list(ts_type_int()), 2, NULL);
    outer->items[outer->len++] = L(1, 2);
    outer->items[outer->len++] = L(3, 4);
    r = call("aten::tensor", "", 4, (TsValue[]){ ts_obj_value(outer, TS_TAG_LIST), NONE, NONE, ts_bool(false) });
    CHECK(r, TS_INT64, S(2, 2), "tensor from a nested int list", 1, 2, 3, 4);
    outer = ts_list_new(ts_type_list(ts_type_int()), 2, NULL);
    outer->items[outer->len++] = L(1, 2);
    outer->items[outer->len++] = L(3);
    fails("aten::tensor", "", 4, (TsValue[]){ ts_obj_value(outer, TS_TAG_LIST), NONE, NONE, ts_bool(false) },
          "Expected sequence of length 2 at dim 1 (got 1)", "a ragged list");
    r = call("aten::tensor", "float", 4, (TsValue[]){ ts_double(1.5), ts_int(TS_INT64), NONE, ts_bool(false) });
    CHECK(r, TS_INT64, S(), "tensor(1.5, dtype=long)", 1);

    TsError err = TS_ERROR_INIT;
    TsValue v;
    ok(kt_call("aten::item", "", "cpu", 1, (TsValue[]){ tv(T(TS_INT64, S(1), 7)) }, &v, &err) == 0 &&
       v.tag == TS_TAG_INT && v.u.i == 7, "item of an int64 tensor is an int");
    fails("aten::item", "", 1, (TsValue[]){ tv(T(TS_FLOAT32, S(2))) },
          "a Tensor with 2 elements cannot be converted to Scalar", "item of 2 elements");
    ok(kt_call("prim::tolist", "", "cpu", 3, (TsValue[]){ tv(grid(2, 2)), ts_int(2), ts_int(1) }, &v,
               &err) == 0 && v.tag == TS_TAG_LIST && ((TsList *)v.u.p)->len == 2,
       "tolist gives a nested list");
    if (v.tag == TS_TAG_LIST) {
        TsList *row = (TsList *)((TsList *)v.u.p)->items[1].u.p;
        ok(row->len == 2 && row->items[1].tag == TS_TAG_DOUBLE && row->items[1].u.d == 3.0,
           "tolist's elements are floats");
    }
    ts_value_release(v);
    fails("prim::tolist", "", 3, (TsValue[]){ tv(grid(2, 2)), ts_int(1), ts_int(1) },
          "Output annotation list dimension and runtime tensor dimension must match for tolist()",
          "tolist with the wrong depth");
    fails("prim::tolist", "", 3, (TsValue[]){ tv(grid(2, 2)), ts_int(2), ts_int(0) },
          "Output annotation element type and runtime tensor element type must match for tolist()",
          "tolist with the wrong element type");
}

/* aten::view.dtype (only the API reaches it: TorchScript's x.view(torch.int32) is a size). */
static void test_view_dtype(void)
{
    TsTensor *x = ar(TS_FLOAT32, 3);
    TsTensor *v = call("aten::view", "dtype", 2, (TsValue[]){ tv(retain(x)), ts_int(TS_INT32) });
    ok(v && v->storage == x->storage, "view.dtype shares storage");
    CHECK(v, TS_INT32, S(3), "arange(3.).view(int32)", 0, 1065353216, 1073741824);
    v = call("aten::view", "dtype", 2, (TsValue[]){ tv(ar(TS_FLOAT32, 4)), ts_int(TS_INT16) });
    CHECK(v, TS_INT16, S(8), "arange(4.).view(int16)", 0, 0, 0, 16256, 0, 16384, 0, 16448);
    TsTensor *g = grid(4, 4);
    TsTensor *s = call("aten::slice", "Tensor", 5, (TsValue[]){ tv(g), ts_int(0), ts_int(1), NONE, ts_int(1) });
    s = call("aten::slice", "Tensor", 5, (TsValue[]){ tv(s), ts_int(1), ts_int(0), ts_int(2), ts_int(1) });
    v = call("aten::view", "dtype", 2, (TsValue[]){ tv(s), ts_int(TS_FLOAT64) });
    ok(v && v->offset == 2 && v->strides[0] == 2 && v->strides[1] == 1, "a strided view keeps its "
       "place in doubles");
    CHECK(v, TS_FLOAT64, S(3, 1), "arange(16.)[1:, :2].view(float64)", 2048.0004920959473,
          262144.0634765625, 4194305.01953125);
    fails("aten::view", "dtype", 2, (TsValue[]){ tv(grid(2, 3)), ts_int(TS_INT64) },
          "self.size(-1) must be divisible by 2 to view Float as Long (different element "
          "sizes), but got 3", "view.dtype of an odd last dim");
    fails("aten::view", "dtype", 2, (TsValue[]){ tv(Z(TS_FLOAT32)), ts_int(TS_INT64) },
          "self.dim() cannot be 0 to view Float as Long (different element sizes)",
          "view.dtype of a 0-dim tensor");
    TsTensor *t = call("aten::transpose", "int", 3, (TsValue[]){ tv(grid(2, 3)), ts_int(0), ts_int(1) });
    fails("aten::view", "dtype", 2, (TsValue[]){ tv(t), ts_int(TS_INT16) },
          "self.stride(-1) must be 1 to view Float as Short (different element sizes), but got 3",
          "view.dtype of a transpose");
    ts_tensor_release(x);
}

int main(void)
{
    if (!kt_open())
        return done_testing();
    test_views();
    test_view_dtype();
    test_lists();
    test_copy();
    test_join();
    test_index();
    test_create();
    ts_runtime_close(kt_rt);
    return done_testing();
}
