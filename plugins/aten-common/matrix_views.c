/* matrix_views.c — views and facts that read only a tensor's header: the matrix transposes
 * (mT, mH, H, adjoint), unfold's sliding windows, ravel, the conjugate family on real
 * tensors, is_same_size and get_device.
 *
 * tscript's tensors are real (no complex dtype on its backends), so conj, resolve_conj and
 * resolve_neg give self back, as PyTorch does for a real tensor, is_conj and is_neg are
 * false, and the Hermitian forms are the plain transposes.
 */
#include <string.h>

#include "views.h"

static int pop_tensor(TsCall *c, TsArgs *a, TsTensor **t)
{
    int rc = ts_args_pop_same_device(c, a);
    return rc ? rc : ts_args_tensor(a, 0, t);
}

/* ---- matrix transposes ------------------------------------------------------------------ */

/* t with its last two dims swapped: mT, mH, adjoint (at least 2 dims: what, in the
 * message, names the op) and H (exactly 2). */
static int last_two_swapped(TsCall *c, const char *what, bool matrix_only)
{
    TsArgs a;
    TsTensor *t;
    int rc = pop_tensor(c, &a, &t);
    if (!rc && matrix_only && t->dim != 2)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "tensor.H is only supported on matrices "
                          "(2-D tensors). Got %d-D tensor.%s", t->dim,
                          t->dim > 2 ? " For batches of matrices, consider using tensor.mH" : "");
    else if (!rc && t->dim < 2)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "%s is only supported on matrices or "
                          "batches of matrices. Got %d-D tensor.", what, t->dim);
    if (rc)
        return ts_args_fail(&a, rc);
    int64_t sizes[TS_TENSOR_MAX_DIMS], strides[TS_TENSOR_MAX_DIMS];
    memcpy(sizes, t->sizes, sizeof sizes[0] * (size_t)t->dim);
    memcpy(strides, t->strides, sizeof strides[0] * (size_t)t->dim);
    int i = t->dim - 2, j = t->dim - 1;
    sizes[i] = t->sizes[j];
    sizes[j] = t->sizes[i];
    strides[i] = t->strides[j];
    strides[j] = t->strides[i];
    return ts_args_return_tensor(&a, 0, ts_aten_view(t, t->dim, sizes, strides, t->offset,
                                                     c->error));
}

/* aten::mT(Tensor(a) self) -> Tensor(a), mH, matrix_H (t.H) and adjoint: the same form */
int ts_aten_k_mT(TsCall *c) { return last_two_swapped(c, "tensor.mT", false); }
int ts_aten_k_mH(TsCall *c) { return last_two_swapped(c, "tensor.mH", false); }
int ts_aten_k_matrix_H(TsCall *c) { return last_two_swapped(c, "tensor.H", true); }
int ts_aten_k_adjoint(TsCall *c) { return last_two_swapped(c, "tensor.adjoint()", false); }

/* ---- the conjugate family --------------------------------------------------------------- */

/* aten::conj, resolve_conj, resolve_neg (Tensor(a) self) -> Tensor(a): self, real. */
int ts_aten_k_self(TsCall *c)
{
    TsArgs a;
    TsTensor *t;
    int rc = pop_tensor(c, &a, &t);
    if (!rc)
        ts_tensor_retain(t);
    return ts_args_return_tensor(&a, rc, rc ? NULL : t);
}

/* ---- unfold ----------------------------------------------------------------------------- */

/* aten::unfold(Tensor(a) self, int dimension, int size, int step) -> Tensor(a): dim d cut
 * into windows of size elements every step, a new last dim walking each window. */
int ts_aten_k_unfold(TsCall *c)
{
    TsArgs a;
    TsTensor *t;
    int d;
    int64_t size, step;
    int rc = pop_tensor(c, &a, &t);
    if (!rc) rc = ts_args_dim(&a, 1, t->dim, true, &d);
    if (!rc) rc = ts_args_int(&a, 2, &size);
    if (!rc) rc = ts_args_int(&a, 3, &step);
    if (rc)
        return ts_args_fail(&a, rc);
    int64_t have = t->dim ? t->sizes[d] : 1;
    if (size > have)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "maximum size for tensor at dimension %d "
                          "is %lld but size is %lld", d, (long long)have, (long long)size);
    else if (size < 0)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "size is %lld but must be >= 0",
                          (long long)size);
    else if (step <= 0)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "step is %lld but must be > 0",
                          (long long)step);
    else if (t->dim >= TS_TENSOR_MAX_DIMS)
        rc = ts_error_set(c->error, TS_ERR_LIMIT, "unfold: a tensor has at most %d dimensions",
                          TS_TENSOR_MAX_DIMS);
    if (rc)
        return ts_args_fail(&a, rc);
    int64_t sizes[TS_TENSOR_MAX_DIMS], strides[TS_TENSOR_MAX_DIMS];
    if (t->dim == 0) {             /* a 0-d tensor: one window of its one element */
        sizes[0] = size;
        strides[0] = 1;
        return ts_args_return_tensor(&a, 0, ts_aten_view(t, 1, sizes, strides, t->offset,
                                                         c->error));
    }
    memcpy(sizes, t->sizes, sizeof sizes[0] * (size_t)t->dim);
    memcpy(strides, t->strides, sizeof strides[0] * (size_t)t->dim);
    sizes[d] = (t->sizes[d] - size) / step + 1;
    strides[d] = t->strides[d] * step;       /* within the storage: the windows' starts */
    sizes[t->dim] = size;
    strides[t->dim] = t->strides[d];
    return ts_args_return_tensor(&a, 0, ts_aten_view(t, t->dim + 1, sizes, strides, t->offset,
                                                     c->error));
}

/* ---- facts ------------------------------------------------------------------------------ */

/* aten::is_same_size(Tensor self, Tensor other) -> bool */
int ts_aten_k_is_same_size(TsCall *c)
{
    TsArgs a;
    TsTensor *t, *o;
    int rc = ts_args_pop_same_device(c, &a);
    if (!rc) rc = ts_args_tensor(&a, 0, &t);
    if (!rc) rc = ts_args_tensor(&a, 1, &o);
    bool same = !rc && t->dim == o->dim &&
                memcmp(t->sizes, o->sizes, sizeof t->sizes[0] * (size_t)t->dim) == 0;
    return ts_args_return(&a, rc, ts_bool(same));
}

/* aten::get_device(Tensor self) -> int: -1 on the cpu, else the device's index. */
int ts_aten_k_get_device(TsCall *c)
{
    TsArgs a;
    TsTensor *t;
    int rc = pop_tensor(c, &a, &t);
    int64_t at = -1;
    if (!rc && t->device.type != TS_DEV_CPU)
        at = t->device.index < 0 ? 0 : t->device.index;
    return ts_args_return(&a, rc, ts_int(at));
}
