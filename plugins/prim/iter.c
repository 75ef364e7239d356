/* iter.c — the operators the frontend lowers range loops and enum comparisons to, declared
 * by schemas/prim_iter.yaml.
 *
 * `for i in range(lo, hi, step)` becomes a loop of __range_length(lo, hi, step) trips whose
 * variable is __derive_index(k, lo, step) = lo + k * step, as in PyTorch. The length is
 * Python's: 0 when the range is empty, and step 0 is Python's ValueError "range() arg 3
 * must not be zero". The arithmetic is done in unsigned 64-bit so no range overflows.
 *
 * Enum members are equal when they are the same member of the same class; .name and
 * .value are prim::EnumName and prim::EnumValue (one overload per value type).
 */
#include <string.h>

#include "prim.h"

static const uint32_t three_ints[] = { TS_TAG_INT, TS_TAG_INT, TS_TAG_INT };

static int range_length(TsCall *c)
{
    TsValue a[3];
    if (ts_prim_pop_args(c, "aten::__range_length", 3, three_ints, a))
        return -1;
    int64_t lo = a[0].u.i, hi = a[1].u.i, step = a[2].u.i;
    if (step == 0)
        return ts_error_set(c->error, TS_ERR_VALUE, "range() arg 3 must not be zero");
    uint64_t span, by;
    if (step > 0) {
        if (lo >= hi)
            return ts_stack_push(c->stack, ts_int(0), c->error);
        span = (uint64_t)hi - (uint64_t)lo;
        by = (uint64_t)step;
    } else {
        if (lo <= hi)
            return ts_stack_push(c->stack, ts_int(0), c->error);
        span = (uint64_t)lo - (uint64_t)hi;
        by = 0u - (uint64_t)step;
    }
    return ts_stack_push(c->stack, ts_int((int64_t)((span - 1) / by + 1)), c->error);
}

static int derive_index(TsCall *c)
{
    TsValue a[3];
    if (ts_prim_pop_args(c, "aten::__derive_index", 3, three_ints, a))
        return -1;
    uint64_t i = (uint64_t)a[1].u.i + (uint64_t)a[0].u.i * (uint64_t)a[2].u.i;
    return ts_stack_push(c->stack, ts_int((int64_t)i), c->error);
}

static bool same_member(TsValue x, TsValue y)
{
    const TsEnumValue *a = (const TsEnumValue *)x.u.p, *b = (const TsEnumValue *)y.u.p;
    return a->type == b->type && a->name->len == b->name->len &&
           memcmp(a->name->data, b->name->data, a->name->len) == 0;
}

static int enum_compare(TsCall *c, const char *op, bool negate)
{
    static const uint32_t two_enums[] = { TS_TAG_ENUM, TS_TAG_ENUM };
    TsValue a[2];
    if (ts_prim_pop_args(c, op, 2, two_enums, a))
        return -1;
    bool eq = same_member(a[0], a[1]);
    ts_prim_release_args(a, 2);
    return ts_stack_push(c->stack, ts_bool(eq != negate), c->error);
}

/* prim::EnumName / prim::EnumValue: Color.RED.name, Color.RED.value. Each EnumValue
 * overload returns its own type (want: the tag): a value of another (a str-valued enum
 * bound to .int) is an error, never a str passed on as an int. */
static int enum_part(TsCall *c, const char *op, uint32_t want)
{
    static const uint32_t one_enum[] = { TS_TAG_ENUM };
    TsValue a;
    if (ts_prim_pop_args(c, op, 1, one_enum, &a))
        return -1;
    const TsEnumValue *ev = (const TsEnumValue *)a.u.p;
    TsValue part = want == TS_TAG_ENUM ? ts_str_value(ev->name) : ev->value;
    if (want != TS_TAG_ENUM && part.tag != want) {
        ts_value_release(a);
        return ts_error_set(c->error, TS_ERR_TYPE, "%s: the enum's values are not of this "
                            "overload's type", op);
    }
    ts_value_retain(part);
    ts_value_release(a);
    return ts_stack_push(c->stack, part, c->error);
}

static int enum_name(TsCall *c) { return enum_part(c, "prim::EnumName", TS_TAG_ENUM); }
static int enum_value_int(TsCall *c) { return enum_part(c, "prim::EnumValue.int", TS_TAG_INT); }
static int enum_value_float(TsCall *c)
{
    return enum_part(c, "prim::EnumValue.float", TS_TAG_DOUBLE);
}
static int enum_value_str(TsCall *c) { return enum_part(c, "prim::EnumValue.str", TS_TAG_STR); }

static int enum_eq(TsCall *c) { return enum_compare(c, "aten::eq", false); }
static int enum_ne(TsCall *c) { return enum_compare(c, "aten::ne", true); }

static const TsPrimOp ops[] = {
    { "aten::__range_length", range_length, { "", NULL } },
    { "aten::__derive_index", derive_index, { "", NULL } },
    { "aten::eq", enum_eq, { "enum", NULL } },
    { "aten::ne", enum_ne, { "enum", NULL } },
    { "prim::EnumName", enum_name, { "", NULL } },
    { "prim::EnumValue", enum_value_int, { "int", NULL } },
    { "prim::EnumValue", enum_value_float, { "float", NULL } },
    { "prim::EnumValue", enum_value_str, { "str", NULL } },
};

const TsPrimTable ts_prim_iter_table = { ops, sizeof ops / sizeof ops[0] };
