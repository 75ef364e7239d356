/* conv.c — running a convolution on oneDNN, and the kernels that do: aten-cpu's convolution
 * operators, replaced (ts_override_kernel), and dnnl::conv, a conv{1,2,3}d with the relu or
 * relu6 that followed it in the graph (fuse.c) run as oneDNN's post-op.
 *
 * A call reads its arguments in place (args.c); one oneDNN does not take goes to aten-cpu's
 * kernel with the stack untouched, and so does one whose primitive or weight cannot be made.
 * Otherwise the call takes the thread team (engine.c), finds its primitives (prim.c) and its
 * reordered weight (weight.c), and runs: the input reordered into the primitive's layout
 * where it is not in it, the convolution with its post-ops, the result reordered into a new
 * tensor in PyTorch's layout
 * (channels-last for a channels-last call, as PyTorch's mkldnn path gives). The buffers
 * between the steps are the thread's scratch memory. dnnl::conv hands a call oneDNN does not
 * take to aten-cpu's conv{nd}d, then applies its relu to the result.
 */
#include <stdatomic.h>
#include <string.h>

#include "dn.h"

/* ---- running one ------------------------------------------------------------------------- */

/* A memory object of md over data, or NULL (and the status in *st). */
static dnnl_memory_t mem(const dnnl_memory_desc_t *md, void *data, dnnl_status_t *st)
{
    dnnl_memory_t m = NULL;
    if (*st == dnnl_success)
        *st = dn_lib.memory_create(&m, md, dn_engine(NULL), data);
    return *st == dnnl_success ? m : NULL;
}

static dnnl_status_t run_reorder(dnnl_primitive_t r, dnnl_stream_t s, dnnl_memory_t from,
                                 dnnl_memory_t to)
{
    dnnl_exec_arg_t args[2] = { { DNNL_ARG_FROM, from }, { DNNL_ARG_TO, to } };
    return dn_lib.primitive_execute(r, s, 2, args);
}

/* A new tensor for the result: the key's layout, without the batch dim when unbatched. */
static TsTensor *result(TsCall *c, const DnConv *cv)
{
    int64_t sizes[5], strides[5];
    int dims = cv->key.nd + 2, skip = dims - cv->out_dim;
    dn_out_layout(&cv->key, sizes, strides);
    TsAllocator *alloc = ts_runtime_allocator(c->runtime, TS_DEV_CPU);
    TsDevice cpu = { TS_DEV_CPU, -1 };
    TsTensor *o = ts_tensor_empty(alloc, cpu, cv->x->dtype, cv->out_dim, sizes + skip, c->error);
    if (o && cv->key.out_last &&
        ts_tensor_set_shape(o, cv->out_dim, sizes + skip, strides + skip, 0, c->error)) {
        ts_tensor_release(o);
        return NULL;
    }
    if (o && cv->chosen_last)
        o->flags |= DN_FLAG_CHOSEN_LAST;
    return o;
}

static size_t round64(size_t n) { return (n + 63) & ~(size_t)63; }

TsTensor *dn_conv_run(TsCall *c, const DnConv *cv, DnPrim *p, DnWeight *wt)
{
    TsError *err = c->error;
    TsTensor *o = result(c, cv);
    dnnl_stream_t s = o ? dn_stream(err) : NULL;
    size_t scratch = round64(p->scratch_bytes), src = round64(p->src_bytes);
    char *buf = s ? dn_scratch(scratch + src + p->dst_bytes + 64, err) : NULL;
    if (!buf) {
        if (o)
            ts_tensor_release(o);
        return NULL;
    }
    void *src_buf = buf + scratch, *dst_buf = buf + scratch + src;
    void *bias = cv->b ? ts_tensor_data(cv->b) : NULL;
    dnnl_status_t st = dnnl_success;
    dnnl_memory_t m_user_src = mem(&p->user_src_md, ts_tensor_data(cv->x), &st);
    dnnl_memory_t m_src = p->src_reorder ? mem(&p->src_md, src_buf, &st) : m_user_src;
    dnnl_memory_t m_wei = mem(&p->wei_md, (void *)dn_weight_data(wt), &st);
    dnnl_memory_t m_bias = p->key.bias ? mem(&p->bias_md, bias, &st) : NULL;
    dnnl_memory_t m_user_dst = mem(&p->user_dst_md, ts_tensor_data(o), &st);
    dnnl_memory_t m_dst = p->dst_reorder ? mem(&p->dst_md, dst_buf, &st) : m_user_dst;
    dnnl_memory_t m_scratch = mem(&p->scratch_md, buf, &st);
    if (st == dnnl_success && p->src_reorder)
        st = run_reorder(p->src_reorder, s, m_user_src, m_src);
    if (st == dnnl_success) {
        dnnl_exec_arg_t args[5] = { { DNNL_ARG_SRC, m_src }, { DNNL_ARG_WEIGHTS, m_wei },
                                    { DNNL_ARG_DST, m_dst }, { DNNL_ARG_SCRATCHPAD, m_scratch },
                                    { DNNL_ARG_BIAS, m_bias } };
        st = dn_lib.primitive_execute(p->op, s, m_bias ? 5 : 4, args);
    }
    if (st == dnnl_success && p->dst_reorder)
        st = run_reorder(p->dst_reorder, s, m_dst, m_user_dst);
    if (st == dnnl_success)
        st = dn_lib.stream_wait(s);
    dnnl_memory_t all[7] = { m_user_src, p->src_reorder ? m_src : NULL, m_wei, m_bias,
                             m_user_dst, p->dst_reorder ? m_dst : NULL, m_scratch };
    for (int i = 0; i < 7; i++)
        if (all[i])
            dn_lib.memory_destroy(all[i]);
    if (st != dnnl_success) {
        dn_fail(err, "running a convolution", st);
        ts_tensor_release(o);
        return NULL;
    }
    return o;
}

/* ---- the replaced aten-cpu kernels ------------------------------------------------------- */

/* Each operator's arguments: stride, padding, dilation, output_padding, groups, transposed. */
static const DnOpInfo aten_ops[] = {
    { "aten::conv1d", "", 1, false, false, 3, 4, 5, -1, 6, -1 },
    { "aten::conv1d", "padding", 1, false, true, 3, 4, 5, -1, 6, -1 },
    { "aten::conv2d", "", 2, false, false, 3, 4, 5, -1, 6, -1 },
    { "aten::conv2d", "padding", 2, false, true, 3, 4, 5, -1, 6, -1 },
    { "aten::conv3d", "", 3, false, false, 3, 4, 5, -1, 6, -1 },
    { "aten::conv3d", "padding", 3, false, true, 3, 4, 5, -1, 6, -1 },
    { "aten::convolution", "", 0, false, false, 3, 4, 5, 7, 8, 6 },
    { "aten::_convolution", "", 0, false, false, 3, 4, 5, 7, 8, 6 },
    { "aten::_convolution", "deprecated", 0, false, false, 3, 4, 5, 7, 8, 6 },
    { "aten::conv_transpose1d", "", 1, true, false, 3, 4, 7, 5, 6, -1 },
    { "aten::conv_transpose2d", "input", 2, true, false, 3, 4, 7, 5, 6, -1 },
    { "aten::conv_transpose3d", "input", 3, true, false, 3, 4, 7, 5, 6, -1 },
};
#define N_ATEN_OPS (sizeof aten_ops / sizeof *aten_ops)

/* aten-cpu's kernels, which take the calls oneDNN does not (set at each runtime's init; the
 * same functions each time). */
static _Atomic(TsKernelFn) replaced[N_ATEN_OPS];

/* run_call's answer when oneDNN cannot make what a call needs: nothing is touched, and the
 * caller hands the call on. */
#define HAND_ON (-1)

/* Runs cv to its end: 0 and the result pushed in place of the n arguments, or an error code;
 * HAND_ON. */
static int run_call(TsCall *c, DnConv *cv, size_t n)
{
    if (!dn_lib_open())
        return HAND_ON;
    TsError quiet = TS_ERROR_INIT;
    int nthr = dn_threads_begin();
    cv->key.nthr = nthr;
    DnPrim *p = dn_prim_get(&cv->key, &quiet);
    dnnl_memory_desc_t user;
    DnWeight *wt = p && dn_conv_weight_md(&p->key, cv->w, &user) == dnnl_success
                       ? dn_weight_get(&user, &p->wei_md, cv->w, &quiet)
                       : NULL;
    ts_error_clear(&quiet);
    if (!wt) {
        if (p)
            dn_prim_release(p);
        dn_threads_end(nthr);
        return HAND_ON;
    }
    TsTensor *o = dn_conv_run(c, cv, p, wt);
    dn_weight_release(wt);
    dn_prim_release(p);
    dn_threads_end(nthr);
    ts_stack_drop(c->stack, n);
    if (!o)
        return c->error->code ? (int)c->error->code : TS_ERR_RUNTIME;
    return ts_stack_push(c->stack, ts_obj_value(o, TS_TAG_TENSOR), c->error);
}

static int aten_conv(TsCall *c, size_t i)
{
    TsKernelFn prev = atomic_load_explicit(&replaced[i], memory_order_relaxed);
    size_t n = c->op ? ts_operator_num_args(c->op) : 0;
    DnConv cv;
    if (!n || !dn_read_conv(c, &aten_ops[i], n, &cv))
        return prev(c);
    int rc = run_call(c, &cv, n);
    return rc == HAND_ON ? prev(c) : rc;
}

#define KERNEL(i) static int k_##i(TsCall *c) { return aten_conv(c, i); }
KERNEL(0) KERNEL(1) KERNEL(2) KERNEL(3) KERNEL(4) KERNEL(5) KERNEL(6) KERNEL(7) KERNEL(8)
KERNEL(9) KERNEL(10) KERNEL(11)
#undef KERNEL
static const TsKernelFn aten_kernels[N_ATEN_OPS] = { k_0, k_1, k_2, k_3, k_4, k_5, k_6, k_7,
                                                     k_8, k_9, k_10, k_11 };

/* ---- dnnl::conv ----------------------------------------------------------------------------- */

/* dnnl::conv(Tensor input, Tensor weight, Tensor? bias, int[] stride, int[] padding,
 *            int[] dilation, int groups, int nd, int post) -> Tensor: conv{nd}d's arguments
 * (aten_ops[2 * (nd - 1)] says where they are), then what follows it. */
static int k_dnnl_conv(TsCall *c)
{
    if (c->stack->len < 9)
        return ts_error_set(c->error, TS_ERR_RUNTIME, "dnnl::conv: too few arguments");
    const TsValue *v = ts_stack_arg(c->stack, 9, 0);
    int64_t nd = v[7].u.i, post = v[8].u.i;
    if (nd < 1 || nd > 3 || (post & ~(DN_POST_RELU | DN_POST_RELU6 | DN_MAY_LAST)))
        return ts_error_set(c->error, TS_ERR_RUNTIME, "dnnl::conv: bad nd %lld or post %lld",
                            (long long)nd, (long long)post);
    size_t i = (size_t)(2 * (nd - 1));
    DnConv cv;
    if (dn_read_conv(c, &aten_ops[i], 9, &cv)) {
        cv.key.post = (uint8_t)(post & ~DN_MAY_LAST);
        /* channels-last where the pass allows it: the layout the consumers share */
        if ((post & DN_MAY_LAST) && cv.out_dim == 4 && !cv.key.out_last)
            cv.key.out_last = cv.chosen_last = true;
        int rc = run_call(c, &cv, 9);
        if (rc != HAND_ON)
            return rc;
    }
    c->stack->len -= 2;                /* nd and post: ints */
    int rc = dn_call_replaced(c, aten_ops[i].qualname, "",
                              atomic_load_explicit(&replaced[i], memory_order_relaxed));
    if (rc)
        return rc;
    TsValue out = *ts_stack_arg(c->stack, 1, 0);
    return post & ~DN_MAY_LAST ? dn_post_apply((TsTensor *)out.u.p, (int)post, c->error) : 0;
}

int dn_register_conv(TsRegistry *r, TsError *err)
{
    for (size_t i = 0; i < N_ATEN_OPS; i++) {
        TsKernelFn prev = NULL;
        int rc = ts_override_kernel(r, aten_ops[i].qualname, aten_ops[i].overload, "cpu",
                                    aten_kernels[i], &prev, err);
        if (rc)
            return rc;
        atomic_store_explicit(&replaced[i], prev, memory_order_relaxed);
    }
    return ts_register_kernel(r, "dnnl::conv", "", "cpu", k_dnnl_conv, err);
}
