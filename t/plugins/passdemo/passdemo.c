/* passdemo.c — a test plugin that rewrites graphs through the public IR (tscript/ir.h), as
 * a fuser would: built against the installed headers alone, it registers an operator with
 * a kernel and two graph passes (t/ir_pass.sh runs programs with and without it).
 *
 *   passdemo.int_identity   `x + 0` and `x * 1` on ints (aten::add / aten::mul whose
 *                           operands and result are int) become x; the constants left
 *                           unused go too.
 *   passdemo.fuse_add_relu  aten::relu(aten::add(a, b, alpha)), the add right before the
 *                           relu and used by it alone, becomes one
 *                           passdemo::add_relu(a, b, alpha) node (this plugin's kernel:
 *                           float32/float64 tensors of one dtype, broadcast).
 *
 * The fusion needs the add next to the relu: without alias analysis (issue 13) a node in
 * between might write to a or b, and computing the add later would read the new values. Its
 * kernel handles float tensors only; a fuser with shape and dtype propagation would check
 * the dtypes before fusing, this demo documents it instead (the tests run float programs).
 *
 * For the error tests, PASSDEMO_MODE in the environment adds a faulty registration:
 * "fail" a pass that fails, "break" a pass that leaves a value used before it is defined,
 * "dup" a second pass of an existing name (the plugin then fails to load, with nothing of
 * it registered).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <tscript/plugin.h>

static bool is(const TsNode *n, const char *kind) { return strcmp(ts_node_kind(n), kind) == 0; }

static bool of_kind(const TsIrValue *v, TsTypeKind k) { return ts_type_kind(ts_irvalue_type(v)) == k; }

/* Is v a prim::Constant int equal to want? */
static bool int_constant(const TsIrValue *v, int64_t want)
{
    int64_t got;
    return of_kind(v, TS_TYPE_INT) && is(ts_irvalue_node(v), "prim::Constant") &&
           ts_attr_get_int(ts_irvalue_node(v), "value", &got, NULL) == 0 && got == want;
}

/* Calls fn on every node of b and its nested blocks, in order; fn may destroy the node it
 * is given (and nodes before it). */
static int walk(TsBlock *b, int (*fn)(TsNode *n, TsError *err), TsError *err)
{
    TsNode *next;
    for (TsNode *n = ts_block_first_node(b); n; n = next) {
        for (size_t i = 0; i < ts_node_num_blocks(n); i++)
            if (walk(ts_node_block(n, i), fn, err))
                return -1;
        next = ts_node_next(n);
        if (fn(n, err))
            return -1;
    }
    return 0;
}

/* ---- passdemo.int_identity -------------------------------------------------------------- */

static int int_identity(TsNode *n, TsError *err)
{
    bool add = is(n, "aten::add"), mul = is(n, "aten::mul");
    if ((!add && !mul) || ts_node_num_inputs(n) != 2 || ts_node_num_outputs(n) != 1)
        return 0;
    TsIrValue *a = ts_node_input(n, 0), *b = ts_node_input(n, 1), *out = ts_node_output(n, 0);
    if (!of_kind(a, TS_TYPE_INT) || !of_kind(b, TS_TYPE_INT) || !of_kind(out, TS_TYPE_INT))
        return 0;
    int64_t unit = add ? 0 : 1;
    TsIrValue *keep = int_constant(b, unit) ? a : int_constant(a, unit) ? b : NULL;
    if (!keep)
        return 0;
    TsIrValue *dropped = keep == a ? b : a;
    if (ts_irvalue_replace_uses(out, keep, err) || ts_node_destroy(n, err))
        return -1;
    if (ts_irvalue_num_uses(dropped) == 0 && ts_node_destroy(ts_irvalue_node(dropped), err))
        return -1;
    return 0;
}

static int int_identity_pass(TsGraph *g, void *ctx, TsError *err)
{
    (void)ctx;
    return walk(ts_graph_block(g), int_identity, err);
}

/* ---- passdemo.fuse_add_relu --------------------------------------------------------------- */

static int fuse_add_relu(TsNode *relu, TsError *err)
{
    if (!is(relu, "aten::relu") || ts_node_num_inputs(relu) != 1)
        return 0;
    TsIrValue *sum = ts_node_input(relu, 0);
    TsNode *add = ts_irvalue_node(sum);
    if (!is(add, "aten::add") || ts_node_next(add) != relu || ts_node_num_inputs(add) != 3 ||
        ts_irvalue_num_uses(sum) != 1)
        return 0;
    TsIrValue *in[3] = { ts_node_input(add, 0), ts_node_input(add, 1), ts_node_input(add, 2) };
    if (!of_kind(in[0], TS_TYPE_TENSOR) || !of_kind(in[1], TS_TYPE_TENSOR))
        return 0;
    TsIrValue *result = ts_node_output(relu, 0);
    TsNode *fused = ts_node_create(ts_node_graph(relu), "passdemo::add_relu", in, 3, err);
    TsIrValue *out = fused ? ts_node_add_output(fused, ts_irvalue_type(result), err) : NULL;
    if (!out || ts_node_place_before(fused, relu, err) ||
        ts_irvalue_replace_uses(result, out, err) || ts_node_destroy(relu, err) ||
        ts_node_destroy(add, err))
        return -1;
    return 0;
}

static int fuse_pass(TsGraph *g, void *ctx, TsError *err)
{
    (void)ctx;
    return walk(ts_graph_block(g), fuse_add_relu, err);
}

/* ---- faulty passes (PASSDEMO_MODE) ----------------------------------------------------------- */

static int failing_pass(TsGraph *g, void *ctx, TsError *err)
{
    (void)g;
    (void)ctx;
    return ts_error_set(err, TS_ERR_RUNTIME, "the demo pass fails on purpose");
}

/* Moves the graph's last node before its first, so that a value it uses (the last node of
 * any real function uses something) is used before it is defined. */
static int breaking_pass(TsGraph *g, void *ctx, TsError *err)
{
    (void)ctx;
    TsBlock *b = ts_graph_block(g);
    TsNode *first = ts_block_first_node(b), *last = ts_block_last_node(b);
    return first && last != first ? ts_node_place_before(last, first, err) : 0;
}

/* ---- the kernel ------------------------------------------------------------------------------ */

/* Element i of a broadcast operand, as a double. */
static double load(const TsTensor *t, const int64_t *idx, int dim)
{
    int64_t off = 0;
    for (int d = 0; d < t->dim; d++) {
        int k = dim - t->dim + d;
        off += t->sizes[d] == 1 ? 0 : idx[k] * t->strides[d];
    }
    const char *base = (const char *)ts_tensor_data(t);
    return t->dtype == TS_FLOAT32 ? ((const float *)base)[off] : ((const double *)base)[off];
}

/* relu(a + alpha * b) as PyTorch's kernels compute it, NaN passing through. */
static double add_relu_one(double a, double b, double alpha, int dtype)
{
    double v = dtype == TS_FLOAT32 ? (double)((float)a + (float)alpha * (float)b) : a + alpha * b;
    return isnan(v) || v > 0 ? v : 0.0;
}

static int add_relu_kernel(TsCall *c)
{
    TsValue alpha = ts_stack_pop(c->stack), bv = ts_stack_pop(c->stack),
            av = ts_stack_pop(c->stack);
    TsTensor *a = (TsTensor *)av.u.p, *b = (TsTensor *)bv.u.p, *out = NULL;
    double k = alpha.tag == TS_TAG_INT ? (double)alpha.u.i : alpha.u.d;
    int rc = 0, dim = a->dim > b->dim ? a->dim : b->dim;
    int64_t sizes[TS_TENSOR_MAX_DIMS], idx[TS_TENSOR_MAX_DIMS] = { 0 };
    if (a->dtype != b->dtype || (a->dtype != TS_FLOAT32 && a->dtype != TS_FLOAT64) ||
        alpha.tag == TS_TAG_COMPLEX) {
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "passdemo::add_relu supports float and "
                          "double tensors of one dtype, not %s and %s",
                          ts_dtype_name(a->dtype), ts_dtype_name(b->dtype));
        goto done;
    }
    for (int d = 0; d < dim; d++) {
        int da = d - (dim - a->dim), db = d - (dim - b->dim);
        int64_t sa = da >= 0 ? a->sizes[da] : 1, sb = db >= 0 ? b->sizes[db] : 1;
        if (sa != sb && sa != 1 && sb != 1) {
            rc = ts_error_set(c->error, TS_ERR_RUNTIME,
                              "The size of tensor a (%lld) must match the size of tensor b "
                              "(%lld) at non-singleton dimension %d",
                              (long long)sa, (long long)sb, d);
            goto done;
        }
        sizes[d] = sa == 1 ? sb : sa;
    }
    out = ts_tensor_empty(ts_runtime_allocator(c->runtime, TS_DEV_CPU), a->device, a->dtype, dim,
                          sizes, c->error);
    if (!out) {
        rc = c->error->code;
        goto done;
    }
    int64_t n = ts_tensor_numel(out);
    for (int64_t i = 0; i < n; i++) {
        double v = add_relu_one(load(a, idx, dim), load(b, idx, dim), k, a->dtype);
        if (a->dtype == TS_FLOAT32)
            ((float *)ts_tensor_data(out))[i] = (float)v;
        else
            ((double *)ts_tensor_data(out))[i] = v;
        for (int d = dim - 1; d >= 0 && ++idx[d] == sizes[d]; d--)
            idx[d] = 0;
    }
done:
    ts_value_release(av);
    ts_value_release(bv);
    ts_value_release(alpha);
    if (rc)
        return rc;
    return ts_stack_push(c->stack, ts_obj_value(out, TS_TAG_TENSOR), c->error);
}

/* ---- registration ---------------------------------------------------------------------------- */

static int init(TsRegistry *r, TsError *err)
{
    const char *mode = getenv("PASSDEMO_MODE");
    if (ts_register_schema(r, "passdemo::add_relu(Tensor self, Tensor other, Scalar alpha=1) "
                              "-> Tensor", err) ||
        ts_register_kernel(r, "passdemo::add_relu", "", "cpu", add_relu_kernel, err) ||
        ts_register_pass(r, "passdemo.int_identity", int_identity_pass, NULL, err) ||
        ts_register_pass(r, "passdemo.fuse_add_relu", fuse_pass, NULL, err))
        return -1;
    if (mode && strcmp(mode, "fail") == 0)
        return ts_register_pass(r, "passdemo.fail", failing_pass, NULL, err);
    if (mode && strcmp(mode, "break") == 0)
        return ts_register_pass(r, "passdemo.break", breaking_pass, NULL, err);
    if (mode && strcmp(mode, "dup") == 0)
        return ts_register_pass(r, "passdemo.int_identity", int_identity_pass, NULL, err);
    return 0;
}

TS_PLUGIN_EXPORT const TsPluginInfo tscript_plugin = {
    TS_PLUGIN_ABI_VERSION, "passdemo", NULL, init, NULL };
