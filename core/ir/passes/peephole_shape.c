/* peephole_shape.c — peephole's rules on the facts shape_prop states (see peephole.c).
 *
 * As PyTorch's peephole does with complete tensor types, an operator that only reads what
 * a tensor's type states becomes a constant where the type is certain:
 *   - x.size() of a tensor whose sizes are all known is the int list, when the list is
 *     only read (a constant is shared by every call: a list someone appends to stays);
 *   - x.size(d) of a known size, x.dim() of a known rank, len(x.size()) likewise;
 *   - x.size()[i] of a known size i (the list only read);
 *   - x.dtype of a known dtype, x.device of a known device, x.is_cuda of a known device.
 * x.requires_grad is left alone: the grad mode of a call is not in the type.
 * Only of a tensor that surely exists: an input of the graph or of a block, or a constant.
 * A tensor an operator makes may fail to be made (torch.zeros(2, device=s) with a bad s
 * raises); folding the one query that kept the operator alive would let dead-code
 * elimination drop it, and the error with it.
 */
#include <string.h>

#include "ir/passes/peephole.h"
#include "ir/passes/pure.h"
#include "ir/passes/shape.h"

static bool is(const TsNode *n, const char *kind) { return strcmp(n->kind, kind) == 0; }

/* the facts of a tensor input that surely exists (see the header), else false */
static bool facts(const TsNode *n, size_t i, TsShape *s)
{
    if (i >= n->n_inputs || !ts_shape_is_tensor(n->inputs[i]))
        return false;
    const TsNode *def = n->inputs[i]->node;
    if (!is(def, "prim::Param") && !is(def, "prim::Constant"))
        return false;
    ts_shape_of(n->inputs[i], s);
    return true;
}

/* size(x) that nothing but reads: x's facts */
static bool read_sizes(const TsIrValue *l, TsShape *s)
{
    const TsNode *m = l->node;
    return is(m, "aten::size") && m->n_inputs == 1 && ts_value_only_read(l) &&
           facts(m, 0, s) && s->dim >= 0;
}

/* size d of s, or -1 */
static int64_t size_at(const TsShape *s, const TsIrValue *d)
{
    int64_t i;
    int w;
    if (s->dim <= 0 || !ts_shape_const_int(d, &i) || !ts_shape_wrap_dim(i, s->dim, &w))
        return -1;
    return s->sizes[w];
}

int ts_peephole_shape(const TsNode *n, TsValue *out, TsError *err)
{
    TsShape s;
    if (n->n_outputs != 1)
        return 0;
    if (is(n, "aten::size") && n->n_inputs == 1 && facts(n, 0, &s) && s.dim >= 0 &&
        ts_value_only_read(n->outputs[0])) {
        for (int i = 0; i < s.dim; i++)
            if (s.sizes[i] < 0)
                return 0;
        TsList *l = ts_list_new(ts_type_int(), (size_t)s.dim, err);
        if (!l)
            return -1;
        for (int i = 0; i < s.dim; i++)
            if (ts_list_append(l, ts_int(s.sizes[i]), err)) {
                ts_value_release(ts_obj_value(l, TS_TAG_LIST));
                return -1;
            }
        *out = ts_obj_value(l, TS_TAG_LIST);
        return 1;
    }
    int64_t k;
    if (is(n, "aten::size") && n->n_inputs == 2 && facts(n, 0, &s) &&
        (k = size_at(&s, n->inputs[1])) >= 0) {
        *out = ts_int(k);
        return 1;
    }
    if (is(n, "aten::dim") && n->n_inputs == 1 && facts(n, 0, &s) && s.dim >= 0) {
        *out = ts_int(s.dim);
        return 1;
    }
    if (is(n, "aten::len") && n->n_inputs == 1 && read_sizes(n->inputs[0], &s)) {
        *out = ts_int(s.dim);
        return 1;
    }
    if (is(n, "aten::__getitem__") && n->n_inputs == 2 && read_sizes(n->inputs[0], &s) &&
        (k = size_at(&s, n->inputs[1])) >= 0) {
        *out = ts_int(k);
        return 1;
    }
    if (is(n, "prim::dtype") && n->n_inputs == 1 && facts(n, 0, &s) && s.dtype >= 0) {
        *out = ts_int(s.dtype);
        return 1;
    }
    if (is(n, "prim::device") && n->n_inputs == 1 && facts(n, 0, &s) && s.device_type >= 0) {
        *out = ts_device((TsDevice){ (int16_t)s.device_type, (int16_t)s.device_index });
        return 1;
    }
    if (is(n, "prim::is_cuda") && n->n_inputs == 1 && facts(n, 0, &s) && s.device_type >= 0) {
        *out = ts_bool(s.device_type == TS_DEV_CUDA);
        return 1;
    }
    return 0;
}
