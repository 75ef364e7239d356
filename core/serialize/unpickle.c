/* unpickle.c — the pickle machine: opcodes, stack, marks and memo, for protocols 2 to 5 as
 * torch.jit.save and torch.save (1.13) write them.
 *
 * The machine is a loop over opcodes, one case each, that never recurses: a pickle nested a
 * million deep costs heap, not C stack, and is refused once its values nest deeper than
 * TS_PICKLE_MAX_DEPTH. Every length and index read from the pickle is checked against the
 * bytes left before it is used (a string "of 4 GB" in a 1 KB pickle is an error, not an
 * allocation), memo ids are bounded by the pickle's size, and a value is only ever filled
 * while no other value holds it (see unpickler.h), so the values built form no cycle. What
 * the globals do lives in unpickle_globals.c; nothing here calls anything a pickle names.
 *
 * Opcodes (Python's pickle.py names them; protocol 0/1 text opcodes, bytes and sets are
 * refused with their name):
 *   PROTO FRAME STOP MARK          framing; PROTO 2..5 must come first, FRAME is checked
 *   NONE NEWTRUE NEWFALSE          None, True, False
 *   BININT BININT1 BININT2 LONG1 LONG4     ints (LONG*: at most 8 bytes, int64)
 *   BINFLOAT                       a big-endian double
 *   BINUNICODE SHORT_BINUNICODE BINUNICODE8   UTF-8 strings (checked)
 *   EMPTY_TUPLE TUPLE TUPLE1 TUPLE2 TUPLE3    tuples
 *   EMPTY_LIST LIST APPEND APPENDS            lists (of Any until a global types them)
 *   EMPTY_DICT DICT SETITEM SETITEMS          dicts (Any, Any; keys must be hashable)
 *   BINPUT LONG_BINPUT MEMOIZE BINGET LONG_BINGET   the memo: shared, never copied
 *   GLOBAL STACK_GLOBAL REDUCE NEWOBJ BUILD BINPERSID   see unpickle_globals.c
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serialize/unpickler.h"

enum {
    OP_MARK = '(', OP_STOP = '.', OP_BINFLOAT = 'G', OP_BININT = 'J', OP_BININT1 = 'K',
    OP_BININT2 = 'M', OP_NONE = 'N', OP_BINPERSID = 'Q', OP_REDUCE = 'R',
    OP_BINUNICODE = 'X', OP_APPEND = 'a', OP_BUILD = 'b', OP_GLOBAL = 'c', OP_DICT = 'd',
    OP_EMPTY_DICT = '}', OP_APPENDS = 'e', OP_BINGET = 'h', OP_LONG_BINGET = 'j',
    OP_LIST = 'l', OP_EMPTY_LIST = ']', OP_BINPUT = 'q', OP_LONG_BINPUT = 'r',
    OP_SETITEM = 's', OP_TUPLE = 't', OP_EMPTY_TUPLE = ')', OP_SETITEMS = 'u',
    OP_PROTO = 0x80, OP_NEWOBJ = 0x81, OP_TUPLE1 = 0x85, OP_TUPLE2 = 0x86, OP_TUPLE3 = 0x87,
    OP_NEWTRUE = 0x88, OP_NEWFALSE = 0x89, OP_LONG1 = 0x8a, OP_LONG4 = 0x8b,
    OP_SHORT_BINUNICODE = 0x8c, OP_BINUNICODE8 = 0x8d, OP_STACK_GLOBAL = 0x93,
    OP_MEMOIZE = 0x94, OP_FRAME = 0x95
};

/* Opcodes Python knows that no PyTorch archive uses, named in the refusal. */
static const struct {
    uint8_t op;
    const char *name;
} refused_ops[] = {
    {'B', "BINBYTES (bytes are not supported)"}, {'C', "SHORT_BINBYTES (bytes are not supported)"},
    {0x8e, "BINBYTES8 (bytes are not supported)"}, {0x96, "BYTEARRAY8 (bytes are not supported)"},
    {'T', "BINSTRING (bytes are not supported)"}, {'U', "SHORT_BINSTRING (bytes are not supported)"},
    {0x8f, "EMPTY_SET (sets are not supported)"}, {0x90, "ADDITEMS (sets are not supported)"},
    {0x91, "FROZENSET (sets are not supported)"}, {0x92, "NEWOBJ_EX"}, {0x82, "EXT1"},
    {0x83, "EXT2"}, {0x84, "EXT4"}, {'P', "PERSID"}, {'I', "INT (protocol 0)"},
    {'L', "LONG (protocol 0)"}, {'F', "FLOAT (protocol 0)"}, {'S', "STRING (protocol 0)"},
    {'V', "UNICODE (protocol 0)"}, {'g', "GET (protocol 0)"}, {'p', "PUT (protocol 0)"},
    {'i', "INST"}, {'o', "OBJ"}, {'0', "POP"}, {'1', "POP_MARK"}, {'2', "DUP"},
    {0x97, "NEXT_BUFFER"}, {0x98, "READONLY_BUFFER"},
};

/* ---- errors -------------------------------------------------------------------- */
int ts_unpickler_fail(Unpickler *u, TsErrorCode code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ts_error_setv(u->err, code, fmt, ap);
    va_end(ap);
    return ts_unpickler_failed(u, code);
}

int ts_unpickler_failed(Unpickler *u, int code)
{
    ts_error_prefix(u->err, "pickle: byte %zu: ", u->op_at);
    return code ? code : TS_ERR_RUNTIME;
}

static int nomem(Unpickler *u)
{
    return ts_unpickler_fail(u, TS_ERR_NOMEM, "out of memory");
}

/* ---- metas ----------------------------------------------------------------------- */
Meta *ts_unpickler_meta(Unpickler *u, TsValue v)
{
    uintptr_t i;
    if (!ts_is_heap(v) || !ts_ptrmap_get(&u->meta_index, v.u.p, &i))
        return NULL;
    return &u->metas[i];
}

/* Makes room for one more element in the array arr of cap elements, used of them taken;
 * out of memory returns from the calling function. */
#define GROW(u, arr, cap, used)                                                     \
    do {                                                                            \
        if ((used) == (cap)) {                                                      \
            size_t n_ = (cap) ? 2 * (cap) : 64;                                     \
            void *p_ = n_ < SIZE_MAX / sizeof *(arr) ? realloc((arr), n_ * sizeof *(arr)) \
                                                     : NULL;                        \
            if (!p_)                                                                \
                return nomem(u);                                                    \
            (arr) = p_;                                                             \
            (cap) = n_;                                                             \
        }                                                                           \
    } while (0)

static int add_meta(Unpickler *u, TsValue v, const Meta *m)
{
    GROW(u, u->metas, u->meta_cap, u->nmeta);
    if (ts_ptrmap_put(&u->meta_index, v.u.p, u->nmeta) < 0)
        return nomem(u);
    Meta *n = &u->metas[u->nmeta++];
    *n = *m;
    n->value = v;
    ts_value_retain(v);
    return 0;
}

int ts_unpickler_contain(Unpickler *u, Meta *m, TsValue item, bool allow_global)
{
    Meta *im = ts_unpickler_meta(u, item);
    if (!im)
        return 0;
    if (im->global && !allow_global)
        return ts_unpickler_fail(u, TS_ERR_TYPE, "a global (a class or function) used as a "
                                 "value");
    im->sealed = true;
    if (m && im->height + 1 > m->height) {
        if (im->height + 1 > TS_PICKLE_MAX_DEPTH)
            return ts_unpickler_fail(u, TS_ERR_LIMIT, "values nest more than %d deep",
                                     TS_PICKLE_MAX_DEPTH);
        m->height = im->height + 1;
    }
    if (m)
        m->global |= im->global;
    return 0;
}

/* ---- the stack ---------------------------------------------------------------------- */
static int grow_stack(Unpickler *u)
{
    GROW(u, u->stack, u->stack_cap, u->sp);
    return 0;
}

int ts_unpickler_push(Unpickler *u, TsValue v, const Meta *meta)
{
    if (u->sp == u->stack_cap && grow_stack(u)) {
        ts_value_release(v);
        return u->err->code;
    }
    u->stack[u->sp++] = v;
    return meta && ts_is_heap(v) ? add_meta(u, v, meta) : 0;
}

/* Where the values above the last mark begin (Python's pickle starts a new stack there). */
static size_t floor_of(const Unpickler *u)
{
    return u->nmarks ? u->marks[u->nmarks - 1] : 0;
}

/* Pops into *v (the caller owns it); an error on an empty stack or across a mark. */
static int pop(Unpickler *u, TsValue *v)
{
    if (u->sp <= floor_of(u))
        return ts_unpickler_fail(u, TS_ERR_RUNTIME, "the stack is empty%s",
                                 u->nmarks ? " (above the mark)" : "");
    *v = u->stack[--u->sp];
    return 0;
}

/* The position of the last mark, removed. */
static int pop_mark(Unpickler *u, size_t *start)
{
    if (u->nmarks == 0)
        return ts_unpickler_fail(u, TS_ERR_RUNTIME, "no mark to end");
    *start = u->marks[--u->nmarks];
    return 0;
}

static void drop_to(Unpickler *u, size_t sp)
{
    while (u->sp > sp)
        ts_value_release(u->stack[--u->sp]);
}

/* ---- reading operands ------------------------------------------------------------- */
static const uint8_t *need(Unpickler *u, size_t n)
{
    if (u->size - u->pos < n) {
        ts_unpickler_fail(u, TS_ERR_RUNTIME, "the pickle ends inside an opcode");
        return NULL;
    }
    const uint8_t *p = u->data + u->pos;
    u->pos += n;
    return p;
}

static uint64_t le(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* Strict UTF-8: no overlong forms, no surrogates, nothing past U+10FFFF. */
static bool utf8_valid(const uint8_t *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        uint8_t c = s[i];
        size_t len = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3
                   : (c & 0xf8) == 0xf0 ? 4 : 0;
        if (len == 0 || n - i < len || (len == 2 && c < 0xc2))
            return false;
        for (size_t k = 1; k < len; k++)
            if ((s[i + k] & 0xc0) != 0x80)
                return false;
        if ((len == 3 && c == 0xe0 && s[i + 1] < 0xa0) ||      /* overlong */
            (len == 3 && c == 0xed && s[i + 1] >= 0xa0) ||     /* surrogates */
            (len == 4 && c == 0xf0 && s[i + 1] < 0x90) ||      /* overlong */
            (len == 4 && (c > 0xf4 || (c == 0xf4 && s[i + 1] >= 0x90))))
            return false;
        i += len;
    }
    return true;
}

static int push_str(Unpickler *u, int lenbytes)
{
    const uint8_t *p = need(u, (size_t)lenbytes);
    if (!p)
        return u->err->code;
    uint64_t n = le(p, lenbytes);
    if (n > u->size - u->pos)
        return ts_unpickler_fail(u, TS_ERR_RUNTIME, "a string of %llu bytes runs past the end",
                                 (unsigned long long)n);
    const uint8_t *s = u->data + u->pos;
    u->pos += (size_t)n;
    if (!utf8_valid(s, (size_t)n))
        return ts_unpickler_fail(u, TS_ERR_VALUE, "a string that is not valid UTF-8");
    TsStr *str = ts_str_new((const char *)s, (size_t)n, u->err);
    if (!str)
        return ts_unpickler_failed(u, TS_ERR_NOMEM);
    return ts_unpickler_push(u, ts_str_value(str), NULL);
}

static int push_long(Unpickler *u, int lenbytes)
{
    const uint8_t *p = need(u, (size_t)lenbytes);
    if (!p)
        return u->err->code;
    uint64_t n = le(p, lenbytes);
    if (n > 8)
        return ts_unpickler_fail(u, TS_ERR_VALUE, "an int of %llu bytes (TorchScript ints "
                                 "have 64 bits)", (unsigned long long)n);
    if (!(p = need(u, (size_t)n)))
        return u->err->code;
    uint64_t v = le(p, (int)n);
    if (n > 0 && n < 8 && (p[n - 1] & 0x80))
        v |= ~(uint64_t)0 << (8 * n);          /* sign-extend */
    return ts_unpickler_push(u, ts_int((int64_t)v), NULL);
}

/* ---- containers ---------------------------------------------------------------------- */
static int push_list(Unpickler *u, size_t start)
{
    TsList *l = ts_list_new(ts_type_any(), u->sp - start, u->err);
    if (!l)
        return ts_unpickler_failed(u, TS_ERR_NOMEM);
    Meta m = {{{0}, 0, 0}, 1, false, false};
    int rc = 0;
    for (size_t i = start; i < u->sp && !rc; i++) {
        rc = ts_unpickler_contain(u, &m, u->stack[i], false);
        if (!rc) {
            ts_value_retain(u->stack[i]);
            if (ts_list_append(l, u->stack[i], u->err))
                rc = ts_unpickler_failed(u, TS_ERR_NOMEM);
        }
    }
    drop_to(u, start);
    if (rc) {
        ts_value_release(ts_obj_value(l, TS_TAG_LIST));
        return rc;
    }
    return ts_unpickler_push(u, ts_obj_value(l, TS_TAG_LIST), &m);
}

/* Items stack[start..sp) into a tuple that replaces them. */
static int push_tuple(Unpickler *u, size_t start)
{
    size_t n = u->sp - start;
    TsTuple *t = ts_tuple_new(NULL, n, u->err);
    if (!t)
        return ts_unpickler_failed(u, TS_ERR_NOMEM);
    Meta m = {{{0}, 0, 0}, 1, false, false};
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        if (!rc)
            rc = ts_unpickler_contain(u, &m, u->stack[start + i], true);
        t->items[i] = u->stack[start + i];
    }
    u->sp = start;                             /* the tuple took the references */
    if (rc) {
        ts_value_release(ts_obj_value(t, TS_TAG_TUPLE));
        return rc;
    }
    return ts_unpickler_push(u, ts_obj_value(t, TS_TAG_TUPLE), &m);
}

static int push_dict(Unpickler *u)
{
    TsDict *d = ts_dict_new(ts_type_any(), ts_type_any(), u->err);
    if (!d)
        return ts_unpickler_failed(u, TS_ERR_NOMEM);
    Meta m = {{{0}, 0, 0}, 1, false, false};
    return ts_unpickler_push(u, ts_obj_value(d, TS_TAG_DICT), &m);
}

/* The open container of kind tag at stack[at], or an error. */
static int open_target(Unpickler *u, size_t at, TsTag tag, Meta **m)
{
    const char *kind = tag == TS_TAG_LIST ? "list" : "dict";
    if (u->stack[at].tag != tag)
        return ts_unpickler_fail(u, TS_ERR_TYPE, "%s on a value that is not a %s",
                                 tag == TS_TAG_LIST ? "APPEND" : "SETITEM", kind);
    *m = ts_unpickler_meta(u, u->stack[at]);
    if (!*m || (*m)->sealed)
        return ts_unpickler_fail(u, TS_ERR_RUNTIME, "a %s is changed after it was put inside "
                                 "another value (a value that contains itself?)", kind);
    return 0;
}

/* APPEND / APPENDS: stack[start..sp) onto the list at stack[start - 1]. */
static int append(Unpickler *u, size_t start)
{
    Meta *m = NULL;
    int rc = 0;
    for (size_t i = start; i < u->sp && !rc; i++)    /* sealing first: no self-append */
        rc = ts_unpickler_contain(u, NULL, u->stack[i], false);
    if (!rc)
        rc = open_target(u, start - 1, TS_TAG_LIST, &m);
    TsList *l = rc ? NULL : (TsList *)u->stack[start - 1].u.p;
    if (!rc && ts_list_reserve(l, l->len + (u->sp - start), u->err))
        rc = ts_unpickler_failed(u, TS_ERR_NOMEM);
    for (size_t i = start; i < u->sp && !rc; i++) {
        rc = ts_unpickler_contain(u, m, u->stack[i], false);
        if (!rc) {
            ts_value_retain(u->stack[i]);
            if (ts_list_append(l, u->stack[i], u->err))
                rc = ts_unpickler_failed(u, TS_ERR_NOMEM);
        }
    }
    drop_to(u, start);
    return rc;
}

static bool hashable(TsValue k)
{
    switch ((TsTag)k.tag) {
    case TS_TAG_STR: case TS_TAG_INT: case TS_TAG_DOUBLE: case TS_TAG_BOOL:
    case TS_TAG_COMPLEX: case TS_TAG_TENSOR: case TS_TAG_DEVICE: case TS_TAG_NONE:
        return true;
    default:
        return false;
    }
}

/* SETITEM / SETITEMS: pairs stack[start..sp) into the dict at stack[start - 1]. */
static int set_items(Unpickler *u, size_t start)
{
    Meta *m = NULL;
    int rc = (u->sp - start) % 2 ? ts_unpickler_fail(u, TS_ERR_RUNTIME, "SETITEMS with a key "
                                                     "and no value") : 0;
    for (size_t i = start; i < u->sp && !rc; i++)
        rc = ts_unpickler_contain(u, NULL, u->stack[i], false);
    if (!rc)
        rc = open_target(u, start - 1, TS_TAG_DICT, &m);
    for (size_t i = start; i + 1 < u->sp && !rc; i += 2) {
        if (!hashable(u->stack[i]))
            rc = ts_unpickler_fail(u, TS_ERR_TYPE, "a dict key must be a str, int, float, "
                                   "bool, complex, Tensor, device or None");
        if (!rc)
            rc = ts_unpickler_contain(u, m, u->stack[i + 1], false);
        if (!rc) {
            ts_value_retain(u->stack[i]);
            ts_value_retain(u->stack[i + 1]);
            if ((rc = ts_dict_set((TsDict *)u->stack[start - 1].u.p, u->stack[i],
                                  u->stack[i + 1], u->err)))
                rc = ts_unpickler_failed(u, rc);
        }
    }
    drop_to(u, start);
    return rc;
}

/* ---- the memo ------------------------------------------------------------------------ */
static int memo_put(Unpickler *u, uint64_t id)
{
    if (u->sp == 0)
        return ts_unpickler_fail(u, TS_ERR_RUNTIME, "nothing on the stack to memoize");
    /* a writer numbers memo entries from 0, each with an opcode: past the pickle's size an
     * id is hostile (and would make the memo as large as it asks) */
    if (id >= u->size)
        return ts_unpickler_fail(u, TS_ERR_RUNTIME, "memo id %llu is past the pickle's size",
                                 (unsigned long long)id);
    if (id >= u->memo_len) {
        size_t cap = (size_t)id + 1 > 2 * u->memo_len ? (size_t)id + 1 : 2 * u->memo_len;
        if (cap > u->size)
            cap = u->size;
        TsValue *nm = realloc(u->memo, cap * sizeof *nm);
        if (!nm)
            return nomem(u);
        for (size_t i = u->memo_len; i < cap; i++)
            nm[i] = ts_uninit();
        u->memo = nm;
        u->memo_len = cap;
    }
    if (u->memo[id].tag == TS_TAG_UNINIT)
        u->memo_count++;
    ts_value_release(u->memo[id]);
    u->memo[id] = u->stack[u->sp - 1];
    ts_value_retain(u->memo[id]);
    return 0;
}

static int memo_get(Unpickler *u, uint64_t id)
{
    if (id >= u->memo_len || u->memo[id].tag == TS_TAG_UNINIT)
        return ts_unpickler_fail(u, TS_ERR_RUNTIME, "memo id %llu was never put",
                                 (unsigned long long)id);
    ts_value_retain(u->memo[id]);
    return ts_unpickler_push(u, u->memo[id], NULL);
}

/* ---- globals by name ------------------------------------------------------------------ */
/* A module or class name: 1 to 255 bytes of printable ASCII, no spaces. */
static int check_name(Unpickler *u, const uint8_t *p, size_t n)
{
    if (n == 0 || n > 255)
        return ts_unpickler_fail(u, TS_ERR_RUNTIME, "a global's name of %zu bytes", n);
    for (size_t i = 0; i < n; i++)
        if (p[i] <= 0x20 || p[i] >= 0x7f)
            return ts_unpickler_fail(u, TS_ERR_RUNTIME, "a global's name with byte 0x%02x",
                                     p[i]);
    return 0;
}

/* One of GLOBAL's operands: a line. */
static int read_line(Unpickler *u, char buf[256])
{
    const uint8_t *p = u->data + u->pos;
    const uint8_t *nl = memchr(p, '\n', u->size - u->pos);
    if (!nl)
        return ts_unpickler_fail(u, TS_ERR_RUNTIME, "the pickle ends inside a GLOBAL");
    size_t n = (size_t)(nl - p);
    int rc = check_name(u, p, n);
    if (rc)
        return rc;
    memcpy(buf, p, n);
    buf[n] = '\0';
    u->pos += n + 1;
    return 0;
}

static int stack_global(Unpickler *u)
{
    TsValue name, module;
    int rc = pop(u, &name);
    if (rc)
        return rc;
    if ((rc = pop(u, &module))) {
        ts_value_release(name);
        return rc;
    }
    const TsStr *m = module.tag == TS_TAG_STR ? (TsStr *)module.u.p : NULL;
    const TsStr *n = name.tag == TS_TAG_STR ? (TsStr *)name.u.p : NULL;
    if (!m || !n)
        rc = ts_unpickler_fail(u, TS_ERR_TYPE, "STACK_GLOBAL needs two strs");
    else if (!(rc = check_name(u, (const uint8_t *)m->data, m->len)) &&
             !(rc = check_name(u, (const uint8_t *)n->data, n->len)))
        rc = ts_unpickler_find_global(u, m->data, n->data);
    ts_value_release(name);
    ts_value_release(module);
    return rc;
}

/* ---- the loop ---------------------------------------------------------------------------- */
/* Pops n values (n <= 3) into v[0..n), in stack order. */
static int pop_n(Unpickler *u, TsValue *v, int n)
{
    for (int i = n - 1; i >= 0; i--) {
        int rc = pop(u, &v[i]);
        if (rc) {
            for (int k = i + 1; k < n; k++)
                ts_value_release(v[k]);
            return rc;
        }
    }
    return 0;
}

static int refuse_op(Unpickler *u, uint8_t op)
{
    for (size_t i = 0; i < sizeof refused_ops / sizeof *refused_ops; i++)
        if (refused_ops[i].op == op)
            return ts_unpickler_fail(u, TS_ERR_NOT_IMPL, "opcode %s is not supported",
                                     refused_ops[i].name);
    return ts_unpickler_fail(u, TS_ERR_RUNTIME, "unknown opcode 0x%02x", op);
}

/* Runs one opcode; *stop is set by STOP. */
static int step(Unpickler *u, bool *stop)
{
    const uint8_t *p;
    TsValue v[3];
    size_t start = 0;
    int rc;
    uint8_t op = u->data[u->pos++];
    switch (op) {
    case OP_PROTO:
        if (!(p = need(u, 1)))
            return u->err->code;
        if (u->op_at != 0 || *p < 2 || *p > 5)
            return ts_unpickler_fail(u, TS_ERR_NOT_IMPL, "pickle protocol %d is not supported "
                                     "(2 to 5 are, as the first opcode)", *p);
        return 0;
    case OP_FRAME:
        if (!(p = need(u, 8)))
            return u->err->code;
        if (le(p, 8) > u->size - u->pos)
            return ts_unpickler_fail(u, TS_ERR_RUNTIME, "a frame runs past the end");
        return 0;
    case OP_STOP:
        *stop = true;
        return 0;
    case OP_MARK:
        GROW(u, u->marks, u->marks_cap, u->nmarks);
        u->marks[u->nmarks++] = u->sp;
        return 0;
    case OP_NONE:
        return ts_unpickler_push(u, ts_none(), NULL);
    case OP_NEWTRUE:
    case OP_NEWFALSE:
        return ts_unpickler_push(u, ts_bool(op == OP_NEWTRUE), NULL);
    case OP_BININT1:
    case OP_BININT2:
        if (!(p = need(u, op == OP_BININT1 ? 1 : 2)))
            return u->err->code;
        return ts_unpickler_push(u, ts_int((int64_t)le(p, op == OP_BININT1 ? 1 : 2)), NULL);
    case OP_BININT:
        if (!(p = need(u, 4)))
            return u->err->code;
        return ts_unpickler_push(u, ts_int((int32_t)(uint32_t)le(p, 4)), NULL);
    case OP_LONG1:
    case OP_LONG4:
        return push_long(u, op == OP_LONG1 ? 1 : 4);
    case OP_BINFLOAT: {
        if (!(p = need(u, 8)))
            return u->err->code;
        uint64_t bits = 0;
        double d;
        for (int i = 0; i < 8; i++)
            bits = bits << 8 | p[i];
        memcpy(&d, &bits, sizeof d);
        return ts_unpickler_push(u, ts_double(d), NULL);
    }
    case OP_SHORT_BINUNICODE:
        return push_str(u, 1);
    case OP_BINUNICODE:
        return push_str(u, 4);
    case OP_BINUNICODE8:
        return push_str(u, 8);
    case OP_EMPTY_TUPLE:
        return push_tuple(u, u->sp);
    case OP_TUPLE1:
    case OP_TUPLE2:
    case OP_TUPLE3: {
        size_t n = (size_t)(op - OP_TUPLE1 + 1);
        if (u->sp - floor_of(u) < n)
            return ts_unpickler_fail(u, TS_ERR_RUNTIME, "TUPLE%zu with %zu values on the stack",
                                     n, u->sp - floor_of(u));
        return push_tuple(u, u->sp - n);
    }
    case OP_TUPLE:
        return (rc = pop_mark(u, &start)) ? rc : push_tuple(u, start);
    case OP_EMPTY_LIST:
        return push_list(u, u->sp);
    case OP_LIST:
        return (rc = pop_mark(u, &start)) ? rc : push_list(u, start);
    case OP_EMPTY_DICT:
        return push_dict(u);
    case OP_DICT: {
        if ((rc = pop_mark(u, &start)) || (rc = push_dict(u)))
            return rc;
        TsValue d = u->stack[u->sp - 1];      /* the dict goes below its items */
        memmove(&u->stack[start + 1], &u->stack[start], (u->sp - 1 - start) * sizeof d);
        u->stack[start] = d;
        return set_items(u, start + 1);
    }
    case OP_APPEND:
        if (u->sp - floor_of(u) < 2)
            return ts_unpickler_fail(u, TS_ERR_RUNTIME, "APPEND without a list and a value");
        return append(u, u->sp - 1);
    case OP_SETITEM:
        if (u->sp - floor_of(u) < 3)
            return ts_unpickler_fail(u, TS_ERR_RUNTIME, "SETITEM without a dict, key and value");
        return set_items(u, u->sp - 2);
    case OP_APPENDS:
    case OP_SETITEMS:
        if ((rc = pop_mark(u, &start)))
            return rc;
        if (start <= floor_of(u))
            return ts_unpickler_fail(u, TS_ERR_RUNTIME, "%s without a %s",
                                     op == OP_APPENDS ? "APPENDS" : "SETITEMS",
                                     op == OP_APPENDS ? "list" : "dict");
        return op == OP_APPENDS ? append(u, start) : set_items(u, start);
    case OP_BINPUT:
    case OP_LONG_BINPUT:
        if (!(p = need(u, op == OP_BINPUT ? 1 : 4)))
            return u->err->code;
        return memo_put(u, le(p, op == OP_BINPUT ? 1 : 4));
    case OP_MEMOIZE:
        return memo_put(u, u->memo_count);
    case OP_BINGET:
    case OP_LONG_BINGET:
        if (!(p = need(u, op == OP_BINGET ? 1 : 4)))
            return u->err->code;
        return memo_get(u, le(p, op == OP_BINGET ? 1 : 4));
    case OP_GLOBAL: {
        char module[256], name[256];
        if ((rc = read_line(u, module)) || (rc = read_line(u, name)))
            return rc;
        return ts_unpickler_find_global(u, module, name);
    }
    case OP_STACK_GLOBAL:
        return stack_global(u);
    case OP_REDUCE:
        return (rc = pop_n(u, v, 2)) ? rc : ts_unpickler_reduce(u, v[0], v[1]);
    case OP_NEWOBJ:
        return (rc = pop_n(u, v, 2)) ? rc : ts_unpickler_newobj(u, v[0], v[1]);
    case OP_BUILD:
        if ((rc = pop(u, &v[0])))
            return rc;
        if (u->sp == floor_of(u)) {
            ts_value_release(v[0]);
            return ts_unpickler_fail(u, TS_ERR_RUNTIME, "BUILD without a value to build");
        }
        return ts_unpickler_build(u, u->stack[u->sp - 1], v[0]);
    case OP_BINPERSID:
        return (rc = pop(u, &v[0])) ? rc : ts_unpickler_persistent(u, v[0]);
    default:
        return refuse_op(u, op);
    }
}

static void unpickler_free(Unpickler *u)
{
    drop_to(u, 0);
    free(u->stack);
    free(u->marks);
    for (size_t i = 0; i < u->memo_len; i++)
        ts_value_release(u->memo[i]);
    free(u->memo);
    for (size_t i = 0; i < u->nmeta; i++)
        ts_value_release(u->metas[i].value);
    free(u->metas);
    ts_ptrmap_free(&u->meta_index);
    if (u->storages)
        ts_value_release(ts_obj_value(u->storages, TS_TAG_DICT));
    if (u->types)
        ts_value_release(ts_obj_value(u->types, TS_TAG_DICT));
}

/* STOP: exactly one value left, and it is a value, not a global. */
static int finish(Unpickler *u, TsValue *out)
{
    if (u->sp != 1)
        return ts_unpickler_fail(u, TS_ERR_RUNTIME, "STOP with %zu values on the stack "
                                 "(expected 1)", u->sp);
    if (u->nmarks)
        return ts_unpickler_fail(u, TS_ERR_RUNTIME, "STOP inside a MARK");
    int rc = ts_unpickler_contain(u, NULL, u->stack[0], false);
    if (rc)
        return rc;
    *out = u->stack[--u->sp];
    return 0;
}

int ts_unpickle(const void *data, size_t size, const TsUnpickleEnv *env, TsValue *out,
                TsError *err)
{
    static const TsUnpickleEnv no_env;
    TsError local = TS_ERROR_INIT;
    Unpickler u;
    memset(&u, 0, sizeof u);
    u.data = data;
    u.size = size;
    u.env = env ? env : &no_env;
    u.err = err ? err : &local;
    *out = ts_none();
    bool stop = false;
    int rc = 0;
    while (!rc && !stop) {
        u.op_at = u.pos;
        if (u.pos >= size)
            rc = ts_unpickler_fail(&u, TS_ERR_RUNTIME, "the pickle ends without STOP");
        else
            rc = step(&u, &stop);
    }
    if (!rc)
        rc = finish(&u, out);
    unpickler_free(&u);
    ts_error_clear(&local);
    return rc;
}
