/* hash.c — the builtin hash(): aten::hash.generic(t value) -> int.
 *
 * PyTorch 1.13 hashes with C++'s std::hash as GCC's libstdc++ defines it, so its results are
 * deterministic and a program may print them; we compute the same numbers:
 *
 *   - int: the int itself; bool: 1 or 0; None: 0;
 *   - float: 0 for 0.0 and -0.0, otherwise MurmurHash2-64 (libstdc++'s _Hash_bytes) of the
 *     double's 8 bytes; str: the same hash of its bytes (both with libstdc++'s seed);
 *   - tuple: the items' hashes folded left from 0 by boost's hash_combine
 *     (seed ^ (h + 0x9e3779b9 + (seed << 6) + (seed >> 2)));
 *   - device: type << 16 | the index's low byte (cpu is 255);
 *   - tensor: its identity (PyTorch hashes the tensor's address, so the number differs from
 *     run to run there too);
 *   - list, dict, object, enum and future: RuntimeError "unhashable type: 'List[int]'"
 *     (objects too when their class defines __hash__: PyTorch 1.13 never calls it).
 */
#include <stdint.h>
#include <string.h>

#include "prim.h"

#define MURMUR_MUL ((UINT64_C(0xc6a4a793) << 32) + UINT64_C(0x5bd1e995))
#define LIBSTDCXX_SEED UINT64_C(0xc70f6907)

static uint64_t shift_mix(uint64_t v)
{
    return v ^ (v >> 47);
}

/* Little-endian load of n <= 8 bytes (the byte order libstdc++ reads on x86). */
static uint64_t load_le(const unsigned char *p, size_t n)
{
    uint64_t r = 0;
    while (n-- > 0)
        r = (r << 8) | p[n];
    return r;
}

static uint64_t murmur_bytes(const void *data, size_t len)
{
    const unsigned char *p = data;
    uint64_t h = LIBSTDCXX_SEED ^ ((uint64_t)len * MURMUR_MUL);
    size_t whole = len & ~(size_t)7;
    for (size_t i = 0; i < whole; i += 8) {
        h ^= shift_mix(load_le(p + i, 8) * MURMUR_MUL) * MURMUR_MUL;
        h *= MURMUR_MUL;
    }
    if (len & 7) {
        h ^= load_le(p + whole, len & 7);
        h *= MURMUR_MUL;
    }
    return shift_mix(shift_mix(h) * MURMUR_MUL);
}

static uint64_t hash_combine(uint64_t seed, uint64_t h)
{
    return seed ^ (h + UINT64_C(0x9e3779b9) + (seed << 6) + (seed >> 2));
}

static uint64_t hash_double(double d)
{
    if (d == 0.0)
        return 0;
    unsigned char bytes[sizeof d];
    memcpy(bytes, &d, sizeof d);
    return murmur_bytes(bytes, sizeof bytes);
}

/* Hashes v into *out, or fails for an unhashable value. Tuples nest at most as deep as their
 * type, which the compiler built, so the recursion is bounded by the program. */
static int hash_value(TsValue v, uint64_t *out, TsError *err)
{
    switch ((TsTag)v.tag) {
    case TS_TAG_NONE: *out = 0; return 0;
    case TS_TAG_INT: *out = (uint64_t)v.u.i; return 0;
    case TS_TAG_BOOL: *out = v.u.b ? 1 : 0; return 0;
    case TS_TAG_DOUBLE: *out = hash_double(v.u.d); return 0;
    case TS_TAG_DEVICE:
        *out = ((uint64_t)(uint16_t)v.u.dev.type << 16) | (uint8_t)v.u.dev.index;
        return 0;
    case TS_TAG_STR: {
        const TsStr *s = (const TsStr *)v.u.p;
        *out = murmur_bytes(s->data, s->len);
        return 0;
    }
    case TS_TAG_TUPLE: {
        const TsTuple *t = (const TsTuple *)v.u.p;
        uint64_t seed = 0;
        for (size_t i = 0; i < t->len; i++) {
            uint64_t h;
            if (hash_value(t->items[i], &h, err))
                return err->code;
            seed = hash_combine(seed, h);
        }
        *out = seed;
        return 0;
    }
    case TS_TAG_TENSOR: case TS_TAG_CAPSULE: case TS_TAG_STORAGE:
        *out = (uint64_t)(uintptr_t)v.u.p;
        return 0;
    default: {
        char name[256] = "?";
        const TsType *ty = ts_value_type(v);
        if (ty && v.tag == TS_TAG_ENUM)
            ts_type_repr(ty, name, sizeof name);       /* "Enum<__torch__.Color>" */
        else if (ty)
            ts_type_annotation(ty, name, sizeof name);
        return ts_error_set(err, TS_ERR_RUNTIME, "unhashable type: '%s'", name);
    }
    }
}

/* aten::hash.generic(t value) -> int */
static int k_hash(TsCall *c)
{
    TsValue v = ts_stack_pop(c->stack);
    uint64_t h = 0;
    int rc = hash_value(v, &h, c->error);
    ts_value_release(v);
    return rc ? rc : ts_stack_push(c->stack, ts_int((int64_t)h), c->error);
}

static const TsPrimOp ops[] = {
    { "aten::hash", k_hash, { "generic" } },
};

const TsPrimTable ts_prim_hash_table = { ops, sizeof ops / sizeof ops[0] };
