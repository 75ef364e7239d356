/* views.h — what the metadata-only kernels of libtscript_aten share (private to the library).
 *
 * The kernels read and write only a tensor's header (sizes, strides, offset, flags) and share
 * its storage, so one kernel serves every backend: ts_aten_register_views (backend.c)
 * registers each for the backend that asks. They bind their arguments with
 * ts_args_pop_same_device and make views with ts_aten_view; the one copy they may need
 * (reshape of a tensor no view can express) goes through the backend's hook (backend.c).
 *
 * TS_ATEN_VIEW_KERNELS lists them once: the files below define ts_aten_k_NAME, this header
 * declares them from the list, and backend.c builds ts_aten_view_table from the same list.
 */
#ifndef TS_ATEN_COMMON_VIEWS_H
#define TS_ATEN_COMMON_VIEWS_H

#include "tscript/aten.h"

/* X(qualname, overload, NAME): the kernel ts_aten_k_NAME. */
#define TS_ATEN_VIEW_KERNELS(X) \
    /* meta.c: questions about the header */ \
    X("aten::dim", "", dim) X("aten::numel", "", numel) \
    X("aten::storage_offset", "", storage_offset) X("aten::size", "", sizes) \
    X("aten::size", "int", size) X("aten::stride", "", strides) X("aten::stride", "int", stride) \
    X("aten::is_contiguous", "", is_contiguous) \
    X("aten::is_contiguous", "memory_format", is_contiguous) \
    X("aten::requires_grad_", "", requires_grad_) X("aten::len", "Tensor", len) \
    X("aten::is_floating_point", "", is_floating_point) X("aten::is_signed", "", is_signed) \
    X("aten::is_complex", "", is_complex) X("aten::element_size", "", element_size) \
    X("prim::dtype", "", dtype) X("prim::device", "", device) X("prim::layout", "", layout) \
    X("prim::data", "", alias) X("prim::requires_grad", "", requires_grad) \
    X("prim::is_cuda", "", is_cuda) X("prim::is_sparse", "", false_flag) \
    X("prim::is_quantized", "", false_flag) X("prim::is_meta", "", false_flag) \
    X("prim::is_mkldnn", "", false_flag) X("prim::is_cpu", "", is_cpu) \
    X("prim::is_xpu", "", false_flag) X("prim::is_sparse_csr", "", false_flag) \
    X("prim::is_mps", "", false_flag) X("prim::is_vulkan", "", false_flag) \
    X("prim::is_ipu", "", false_flag) X("prim::is_ort", "", false_flag) \
    X("aten::is_leaf", "", is_leaf) X("aten::retains_grad", "", false_flag) \
    X("prim::name", "", name) X("aten::real", "", real) X("aten::imag", "", imag) \
    /* reshape.c: new sizes over the same elements */ \
    X("aten::view", "", view) X("aten::view_as", "", view_as) X("aten::reshape", "", reshape) \
    X("aten::reshape_as", "", reshape_as) X("aten::flatten", "using_ints", flatten) \
    X("aten::unflatten", "int", unflatten) X("aten::ravel", "", ravel) \
    /* slice.c: parts of a tensor */ \
    X("aten::slice", "Tensor", slice) X("aten::select", "int", select) \
    X("aten::narrow", "", narrow) X("aten::unbind", "int", unbind) \
    X("aten::split", "Tensor", split) X("aten::split", "sizes", split_sizes) \
    X("aten::split", "", split_sizes) X("aten::split_with_sizes", "", split_sizes) \
    X("aten::chunk", "", chunk) X("aten::diagonal", "", diagonal) \
    X("aten::unsafe_chunk", "", chunk) X("aten::unsafe_split", "Tensor", split) \
    X("aten::unsafe_split_with_sizes", "", split_sizes) \
    X("aten::tensor_split", "sections", tensor_split_sections) \
    X("aten::tensor_split", "indices", tensor_split_indices) \
    X("aten::tensor_split", "tensor_indices_or_sections", tensor_split_tensor) \
    X("aten::hsplit", "int", hsplit_int) X("aten::hsplit", "array", hsplit_array) \
    X("aten::vsplit", "int", vsplit_int) X("aten::vsplit", "array", vsplit_array) \
    X("aten::dsplit", "int", dsplit_int) X("aten::dsplit", "array", dsplit_array) \
    /* dims.c: dims reordered, added, removed; aliases and explicit strides */ \
    X("aten::transpose", "int", transpose) X("aten::permute", "", permute) X("aten::t", "", t) \
    X("aten::numpy_T", "", numpy_t) X("aten::numpy_T", "a", numpy_t) \
    X("aten::movedim", "intlist", movedim_intlist) X("aten::movedim", "int", movedim_int) \
    X("aten::moveaxis", "intlist", movedim_intlist) X("aten::moveaxis", "int", movedim_int) \
    X("aten::swapaxes", "", swapaxes) X("aten::swapaxes_", "", swapaxes_) \
    X("aten::swapdims", "", swapaxes) X("aten::swapdims_", "", swapaxes_) \
    X("aten::squeeze", "", squeeze) X("aten::squeeze", "dim", squeeze_dim) \
    X("aten::unsqueeze", "", unsqueeze) X("aten::squeeze_", "", squeeze_) \
    X("aten::squeeze_", "dim", squeeze_dim_) X("aten::unsqueeze_", "", unsqueeze_) \
    X("aten::t_", "", t_) X("aten::transpose_", "", swapaxes_) \
    X("aten::atleast_1d", "", atleast_1d) X("aten::atleast_2d", "", atleast_2d) \
    X("aten::atleast_3d", "", atleast_3d) X("aten::atleast_1d", "Sequence", atleast_1d_seq) \
    X("aten::atleast_2d", "Sequence", atleast_2d_seq) \
    X("aten::atleast_3d", "Sequence", atleast_3d_seq) \
    X("aten::detach", "", alias) X("aten::alias", "", alias) \
    X("aten::as_strided", "", as_strided) X("aten::as_strided_", "", as_strided_) \
    /* matrix_views.c: matrix transposes, windows, real tensors' conjugates, facts */ \
    X("aten::mT", "", mT) X("aten::mT", "a", mT) X("aten::mH", "", mH) X("aten::mH", "a", mH) \
    X("aten::matrix_H", "", matrix_H) X("aten::matrix_H", "a", matrix_H) \
    X("aten::adjoint", "", adjoint) X("aten::unfold", "", unfold) \
    X("aten::conj", "", self) X("aten::resolve_conj", "", self) \
    X("aten::resolve_neg", "", self) X("aten::is_conj", "", false_flag) \
    X("aten::is_neg", "", false_flag) X("aten::is_same_size", "", is_same_size) \
    X("aten::get_device", "", get_device) \
    /* expand.c: broadcasting as views */ \
    X("aten::expand", "", expand) X("aten::expand_as", "", expand_as) \
    X("aten::broadcast_to", "", expand) X("aten::broadcast_tensors", "", broadcast_tensors) \
    X("aten::meshgrid", "", meshgrid) X("aten::meshgrid", "indexing", meshgrid)

#define TS_ATEN_DECLARE_KERNEL(Q, O, NAME) int ts_aten_k_##NAME(TsCall *c);
TS_ATEN_VIEW_KERNELS(TS_ATEN_DECLARE_KERNEL)
#undef TS_ATEN_DECLARE_KERNEL

/* Strides for viewing t as sizes without a copy (PyTorch's rule: only dims that stay within
 * one contiguous chunk of t may be split or merged); false when no view exists. */
bool ts_aten_view_strides(const TsTensor *t, int dim, const int64_t *sizes, int64_t *strides);
/* Resolves one -1 in sizes against numel, with view's errors ("shape '[2, -1]' is invalid
 * for input of size 5"). */
int ts_aten_infer_size(TsError *err, int64_t numel, int dim, int64_t *sizes);
/* Appends view v to l (taking v); on failure (v NULL included) releases l and returns NULL.
 * l may be NULL (an earlier failure): v is then released. */
TsList *ts_aten_append_view(TsList *l, TsTensor *v, TsError *err);
/* The backend hook's copy of t (backend.c): a new contiguous tensor of t's elements on t's
 * device, or NULL with an error naming the operator when t's device has no hook. */
TsTensor *ts_aten_backend_copy(TsCall *c, const TsTensor *t);
/* The hooks a backend set for device_type (backend.c), or NULL; random.c's kernels use its
 * random hooks. */
const TsAtenBackend *ts_aten_backend_of(int device_type);
/* Registers every kernel of t for backend (backend.c). */
int ts_aten_register_table(TsRegistry *r, const TsAtenTable *t, const char *backend,
                           TsError *err);

#endif
