/* activation.c — the activations beyond unary.c's: hardtanh, relu6, leaky_relu, elu,
 * softplus, hardsigmoid and hardswish, with their in-place forms.
 *
 * Each is a loop table for the elementwise engine (so strides, broadcasting of nothing, and
 * in-place writes through views come for free), its Scalar parameters passed in TsCpuEwArgs.
 * hardtanh and relu6 are clamps and keep integer dtypes, as PyTorch's do; the others exist
 * for float32 and float64 only and the engine reports '"elu_cpu" not implemented for ...'
 * otherwise, PyTorch's message. elu has three parameters and the args two doubles, so its
 * input_scale travels in the bits of i[0].
 */
#include <stdio.h>
#include <string.h>
#include <tgmath.h>

#include "nn.h"

#define LOOP(DT, T, OP, EXPR) EW_UNARY(DT, T, OP, T, EXPR)

static inline double elu_input_scale(const TsCpuEwArgs *a)
{
    double v;
    memcpy(&v, &a->i[0], sizeof v);
    return v;
}

/* min(max(x, lo), hi): lo wins over hi when lo > hi, as in clamp; NaN stays NaN */
#define CLAMP(LO, HI) ((x < (LO) ? (LO) : x) > (HI) ? (HI) : (x < (LO) ? (LO) : x))

EW_INT_TYPES(LOOP, hardtanh, CLAMP((scalar_t)args->i[0], (scalar_t)args->i[1]))
EW_FLOAT_TYPES(LOOP, hardtanh, CLAMP((scalar_t)args->d[0], (scalar_t)args->d[1]))
EW_FLOAT_TYPES(LOOP, leaky_relu, x > 0 ? x : x * (scalar_t)args->d[0])
EW_FLOAT_TYPES(LOOP, elu, x <= 0 ? (exp(x * (scalar_t)elu_input_scale(args)) - 1) * (scalar_t)args->d[0]
                                  : x * (scalar_t)args->d[1])
EW_FLOAT_TYPES(LOOP, softplus, x * (scalar_t)args->d[0] > (scalar_t)args->d[1]
                                   ? x : log1p(exp(x * (scalar_t)args->d[0])) / (scalar_t)args->d[0])
EW_FLOAT_TYPES(LOOP, hardsigmoid, (x + 3 < 0 ? 0 : x + 3 > 6 ? 6 : x + 3) / 6)
EW_FLOAT_TYPES(LOOP, hardswish, x * (x + 3 < 0 ? 0 : x + 3 > 6 ? 6 : x + 3) / 6)

static const TsCpuLoop hardtanh_loops[TS_DTYPE__COUNT] = {
    EW_INT_TYPES(EW_ENTRY, hardtanh) EW_FLOAT_TYPES(EW_ENTRY, hardtanh) };
#define FLOAT_TABLE(OP) \
    static const TsCpuLoop OP##_loops[TS_DTYPE__COUNT] = { EW_FLOAT_TYPES(EW_ENTRY, OP) }; \
    static const TsCpuEwOp ew_##OP = { #OP, TS_EW_SAME, false, OP##_loops };
FLOAT_TABLE(leaky_relu)
FLOAT_TABLE(elu)
FLOAT_TABLE(softplus)
FLOAT_TABLE(hardsigmoid)
FLOAT_TABLE(hardswish)
static const TsCpuEwOp ew_hardtanh = { "hardtanh", TS_EW_SAME, false, hardtanh_loops };

typedef enum Act { HARDTANH, RELU6, LEAKY_RELU, ELU, SOFTPLUS, HARDSIGMOID, HARDSWISH } Act;

/* The number of arguments of each, self included, and how its Scalars fill the args. */
static const struct {
    const char *name;
    size_t nargs;
    const TsCpuEwOp *op;
} acts[] = {
    [HARDTANH] = { "hardtanh", 3, &ew_hardtanh },
    [RELU6] = { "relu6", 1, &ew_hardtanh },
    [LEAKY_RELU] = { "leaky_relu", 2, &ew_leaky_relu },
    [ELU] = { "elu", 4, &ew_elu },
    [SOFTPLUS] = { "softplus", 3, &ew_softplus },
    [HARDSIGMOID] = { "hardsigmoid", 1, &ew_hardsigmoid },
    [HARDSWISH] = { "hardswish", 1, &ew_hardswish },
};

static void fill_args(Act act, const TsValue *a, TsCpuEwArgs *ea)
{
    memset(ea, 0, sizeof *ea);
    switch (act) {
    case HARDTANH:
        ea->d[0] = ts_nn_double(a[1]);
        ea->d[1] = ts_nn_double(a[2]);
        ea->i[0] = a[1].tag == TS_TAG_DOUBLE ? (int64_t)a[1].u.d : ts_nn_int(a[1]);
        ea->i[1] = a[2].tag == TS_TAG_DOUBLE ? (int64_t)a[2].u.d : ts_nn_int(a[2]);
        break;
    case RELU6:
        ea->d[1] = 6;
        ea->i[1] = 6;
        break;
    case ELU: {
        double input_scale = ts_nn_double(a[3]);
        ea->d[0] = ts_nn_double(a[1]) * ts_nn_double(a[2]);   /* alpha * scale */
        ea->d[1] = ts_nn_double(a[2]);
        memcpy(&ea->i[0], &input_scale, sizeof input_scale);
        break;
    }
    case LEAKY_RELU:
    case SOFTPLUS:
        ea->d[0] = ts_nn_double(a[1]);
        ea->d[1] = act == SOFTPLUS ? ts_nn_double(a[2]) : 0;
        break;
    default:
        break;
    }
}

static int act_call(TsCall *c, Act act, bool inplace)
{
    char qual[48];
    snprintf(qual, sizeof qual, "aten::%s%s", acts[act].name, inplace ? "_" : "");
    size_t n = acts[act].nargs;
    TsValue a[4];
    TsCpuEwArgs ea;
    ts_cpu_pop_args(c, n, a);
    TsTensor *x = ts_cpu_tensor_arg(c, qual, "self", a[0]), *out = inplace ? x : NULL;
    fill_args(act, a, &ea);
    int rc = x ? ts_cpu_ew(acts[act].op, 1, &x, &out, inplace ? TS_EW_INPLACE : TS_EW_NEW, &ea,
                           c->error)
               : (int)c->error->code;
    if (inplace)
        return ts_nn_finish_inplace(c, n, a, 0, rc);
    return ts_nn_finish(c, n, a, rc ? NULL : out);
}

/* aten::hardtanh(Tensor self, Scalar min_val=-1, Scalar max_val=1) -> Tensor, and hardtanh_ */
static int k_hardtanh(TsCall *c) { return act_call(c, HARDTANH, false); }
static int k_hardtanh_(TsCall *c) { return act_call(c, HARDTANH, true); }
/* aten::relu6(Tensor self) -> Tensor, and relu6_ */
static int k_relu6(TsCall *c) { return act_call(c, RELU6, false); }
static int k_relu6_(TsCall *c) { return act_call(c, RELU6, true); }
/* aten::leaky_relu(Tensor self, Scalar negative_slope=0.01) -> Tensor, and leaky_relu_ */
static int k_leaky_relu(TsCall *c) { return act_call(c, LEAKY_RELU, false); }
static int k_leaky_relu_(TsCall *c) { return act_call(c, LEAKY_RELU, true); }
/* aten::elu(Tensor self, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1), and elu_ */
static int k_elu(TsCall *c) { return act_call(c, ELU, false); }
static int k_elu_(TsCall *c) { return act_call(c, ELU, true); }
/* aten::softplus(Tensor self, Scalar beta=1, Scalar threshold=20) -> Tensor */
static int k_softplus(TsCall *c) { return act_call(c, SOFTPLUS, false); }
/* aten::hardsigmoid(Tensor self) -> Tensor, and hardsigmoid_ */
static int k_hardsigmoid(TsCall *c) { return act_call(c, HARDSIGMOID, false); }
static int k_hardsigmoid_(TsCall *c) { return act_call(c, HARDSIGMOID, true); }
/* aten::hardswish(Tensor self) -> Tensor, and hardswish_ */
static int k_hardswish(TsCall *c) { return act_call(c, HARDSWISH, false); }
static int k_hardswish_(TsCall *c) { return act_call(c, HARDSWISH, true); }

static const TsCpuOp ops[] = {
    { "aten::hardtanh", "", k_hardtanh },
    { "aten::hardtanh_", "", k_hardtanh_ },
    { "aten::relu6", "", k_relu6 },
    { "aten::relu6_", "", k_relu6_ },
    { "aten::leaky_relu", "", k_leaky_relu },
    { "aten::leaky_relu_", "", k_leaky_relu_ },
    { "aten::elu", "", k_elu },
    { "aten::elu_", "", k_elu_ },
    { "aten::softplus", "", k_softplus },
    { "aten::hardsigmoid", "", k_hardsigmoid },
    { "aten::hardsigmoid_", "", k_hardsigmoid_ },
    { "aten::hardswish", "", k_hardswish },
    { "aten::hardswish_", "", k_hardswish_ },
};

const TsCpuTable ts_cpu_activation_table = { ops, sizeof ops / sizeof ops[0] };
