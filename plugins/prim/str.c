/* str.c — the str operators: str(), comparisons, indexing and slicing, str.format and
 * %-formatting, and the methods of Python's str, declared by schemas/prim_str.yaml.
 *
 * Strings are bytes, as in PyTorch (a std::string there, a TsStr here): len(), indexing,
 * slicing, list(s), padding widths and tab columns count bytes, and the character classes
 * and case mappings are ASCII's (a byte >= 0x80 is neither letter, digit nor space and is
 * never changed). chr() and ord() are the exceptions: chr(233) gives the UTF-8 encoding of
 * U+00E9 and ord() of one UTF-8 encoded character gives its code point, so ord(chr(i)) == i
 * (PyTorch 1.13 makes a lone invalid byte there).
 *
 * Otherwise the semantics are Python's with PyTorch 1.13's error messages (and exception
 * class, RuntimeError, with the Python class in the message: "ValueError: substring not
 * found"), checked against torch. Where PyTorch departs from Python we follow it when the
 * departure is deliberate, and Python when it is a bug:
 *
 *   - PyTorch's:  end == -1 means "to the end" in find/count/startswith/... (it is the
 *                 schema's default, so an explicit -1 cannot mean len - 1); s[i] out of
 *                 range is std::string::at's "basic_string::at: __n (which is ..."; int(s) is
 *                 std::stoll over the whole string (leading white space, [+-]digits; no
 *                 digits or overflow is the bare message "stoll"); float(s) is std::stod,
 *                 C's strtod, over the whole string (so "0x10" and "inf" parse; "stod");
 *                 strip's default set " \n\t\f\v" (no "\r"); slice step 0 is "List slice
 *                 should have non-zero step"; str.format fills bare "{}" only and ignores
 *                 extra arguments; %f and %e format through a C float (1e20 -> 100000002004087734272.000000).
 *   - Python's:   split(None, max) honours max; splitlines(keepends) keeps the line ends;
 *                 find/rfind/count with other negative ends; count() stops at end;
 *                 find(""), count("") and replace("", x) (PyTorch hangs or runs out of
 *                 memory); zfill keeps a leading sign first; center() with a negative
 *                 width (PyTorch hangs); partition("") is "ValueError: empty separator";
 *                 "\r\n" is one line break; expandtabs restarts columns after a newline;
 *                 "_" is an identifier character; bytes >= 0x80 are printable.
 */
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "prim.h"
#include "tscript/print.h"
#include "tscript/strbuf.h"

#define S_ TS_TAG_STR
#define I_ TS_TAG_INT
#define B_ TS_TAG_BOOL
#define L_ TS_TAG_LIST
#define OPT_I TS_PRIM_OPT_INT
#define ANY_ TS_PRIM_ANY

static const TsStr *str_of(TsValue v) { return (const TsStr *)v.u.p; }

/* ---- results -------------------------------------------------------------------------- */

/* Pushes v (taken) after releasing the n popped arguments. */
static int ret(TsCall *c, TsValue *argv, size_t n, TsValue v)
{
    ts_prim_release_args(argv, n);
    return ts_stack_push(c->stack, v, c->error);
}

static int fail(TsValue *argv, size_t n, int rc)
{
    ts_prim_release_args(argv, n);
    return rc;
}

/* A new string of bytes p[0, len) (which may point into an argument: it is copied first). */
static int ret_bytes(TsCall *c, TsValue *argv, size_t n, const char *p, size_t len)
{
    TsStr *s = ts_str_new(p, len, c->error);
    if (!s)
        return fail(argv, n, c->error->code);
    return ret(c, argv, n, ts_str_value(s));
}

static int ret_buf(TsCall *c, TsValue *argv, size_t n, TsBuf *b)
{
    int rc = ts_buf_check(b, c->error);
    rc = rc ? fail(argv, n, rc) : ret_bytes(c, argv, n, b->p ? b->p : "", b->len);
    ts_buf_free(b);
    return rc;
}

/* The argument string itself, when a method leaves it unchanged. */
static int ret_same(TsCall *c, TsValue *argv, size_t n, size_t i)
{
    ts_value_retain(argv[i]);
    return ret(c, argv, n, argv[i]);
}

static int list_add(TsList *l, const char *p, size_t len, TsError *err)
{
    TsStr *s = ts_str_new(p, len, err);
    return s ? ts_list_append(l, ts_str_value(s), err) : (int)err->code;
}

static TsList *new_str_list(TsError *err)
{
    return ts_list_new(ts_type_str(), 0, err);
}

static int ret_list(TsCall *c, TsValue *argv, size_t n, TsList *l, int rc)
{
    if (rc) {
        ts_heap_release(&l->h);
        return fail(argv, n, rc);
    }
    return ret(c, argv, n, ts_obj_value(l, TS_TAG_LIST));
}

/* ---- character classes (ASCII; see the header) ---------------------------------------- */

static bool is_upper(unsigned char ch) { return ch >= 'A' && ch <= 'Z'; }
static bool is_lower(unsigned char ch) { return ch >= 'a' && ch <= 'z'; }
static bool is_alpha(unsigned char ch) { return is_upper(ch) || is_lower(ch); }
static bool is_digit(unsigned char ch) { return ch >= '0' && ch <= '9'; }
static bool is_alnum(unsigned char ch) { return is_alpha(ch) || is_digit(ch); }
/* Python's whitespace below 0x80: \t \n \v \f \r, \x1c-\x1f and space. */
static bool is_space(unsigned char ch)
{
    return ch == ' ' || (ch >= '\t' && ch <= '\r') || (ch >= 0x1c && ch <= 0x1f);
}
/* C's isspace() in the "C" locale, which std::stoll and std::stod skip. */
static bool is_c_space(unsigned char ch) { return ch == ' ' || (ch >= '\t' && ch <= '\r'); }
static char to_upper(unsigned char ch) { return (char)(is_lower(ch) ? ch - 'a' + 'A' : ch); }
static char to_lower(unsigned char ch) { return (char)(is_upper(ch) ? ch - 'A' + 'a' : ch); }

/* ---- str(), comparisons, len, +, indexing, slicing --------------------------------------- */

static int k_str(TsCall *c)
{
    TsValue v = ts_stack_pop(c->stack);
    TsStr *s = ts_value_str(c->runtime, v, c->error);
    ts_value_release(v);
    return s ? ts_stack_push(c->stack, ts_str_value(s), c->error) : (int)c->error->code;
}

static int compare(const TsStr *a, const TsStr *b)
{
    size_t n = a->len < b->len ? a->len : b->len;
    int r = n ? memcmp(a->data, b->data, n) : 0;
    if (r)
        return r;
    return a->len < b->len ? -1 : a->len > b->len;
}

typedef enum CmpKind { CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE } CmpKind;

static int k_compare(TsCall *c, const char *op, CmpKind kind)
{
    static const uint32_t want[] = { S_, S_ };
    TsValue a[2];
    int rc = ts_prim_pop_args(c, op, 2, want, a);
    if (rc)
        return rc;
    int r = compare(str_of(a[0]), str_of(a[1]));
    bool b = false;
    switch (kind) {
    case CMP_EQ: b = r == 0; break;
    case CMP_NE: b = r != 0; break;
    case CMP_LT: b = r < 0; break;
    case CMP_LE: b = r <= 0; break;
    case CMP_GT: b = r > 0; break;
    case CMP_GE: b = r >= 0; break;
    }
    return ret(c, a, 2, ts_bool(b));
}

static int k_eq(TsCall *c) { return k_compare(c, "aten::eq", CMP_EQ); }
static int k_ne(TsCall *c) { return k_compare(c, "aten::ne", CMP_NE); }
static int k_lt(TsCall *c) { return k_compare(c, "aten::lt", CMP_LT); }
static int k_le(TsCall *c) { return k_compare(c, "aten::le", CMP_LE); }
static int k_gt(TsCall *c) { return k_compare(c, "aten::gt", CMP_GT); }
static int k_ge(TsCall *c) { return k_compare(c, "aten::ge", CMP_GE); }

static int k_len(TsCall *c)
{
    static const uint32_t want[] = { S_ };
    TsValue a[1];
    int rc = ts_prim_pop_args(c, "aten::len", 1, want, a);
    return rc ? rc : ret(c, a, 1, ts_int((int64_t)str_of(a[0])->len));
}

static int k_add(TsCall *c)
{
    static const uint32_t want[] = { S_, S_ };
    TsValue a[2];
    int rc = ts_prim_pop_args(c, "aten::add", 2, want, a);
    if (rc)
        return rc;
    const TsStr *x = str_of(a[0]), *y = str_of(a[1]);
    if (x->len > SIZE_MAX - y->len)
        return fail(a, 2, ts_error_set(c->error, TS_ERR_LIMIT, "string of %zu + %zu bytes is "
                                       "too long", x->len, y->len));
    TsStr *r = ts_str_alloc(x->len + y->len, c->error);   /* built in place: no buffer */
    if (!r)
        return fail(a, 2, c->error->code);
    memcpy(r->data, x->data, x->len);
    memcpy(r->data + x->len, y->data, y->len);
    return ret(c, a, 2, ts_str_value(r));
}

static int k_getitem(TsCall *c)
{
    static const uint32_t want[] = { S_, I_ };
    TsValue a[2];
    int rc = ts_prim_pop_args(c, "aten::__getitem__", 2, want, a);
    if (rc)
        return rc;
    const TsStr *s = str_of(a[0]);
    int64_t i = a[1].u.i, n = (int64_t)s->len;
    if (i < 0)
        i += n;
    if (i < 0 || i >= n)   /* std::string::at's message, the index as a size_t */
        return fail(a, 2, ts_error_set(c->error, TS_ERR_INDEX, "basic_string::at: __n (which "
                                       "is %" PRIu64 ") >= this->size() (which is %zu)",
                                       (uint64_t)i, s->len));
    return ret_bytes(c, a, 2, s->data + i, 1);
}

/* Python's slice.indices(): clamps start and end for step and returns the item count. */
static uint64_t slice_indices(int64_t len, TsValue vstart, TsValue vend, int64_t step,
                              int64_t *start)
{
    int64_t lo = step < 0 ? -1 : 0, hi = step < 0 ? len - 1 : len;
    int64_t s = vstart.tag == TS_TAG_NONE ? (step < 0 ? hi : lo) : vstart.u.i;
    int64_t e = vend.tag == TS_TAG_NONE ? (step < 0 ? lo : hi) : vend.u.i;
    if (vstart.tag != TS_TAG_NONE) {
        if (s < 0)
            s = s + len < lo ? lo : s + len;
        else if (s > hi)
            s = hi;
    }
    if (vend.tag != TS_TAG_NONE) {
        if (e < 0)
            e = e + len < lo ? lo : e + len;
        else if (e > hi)
            e = hi;
    }
    *start = s;
    if (step > 0)
        return s < e ? (uint64_t)(e - s - 1) / (uint64_t)step + 1 : 0;
    return s > e ? (uint64_t)(s - e - 1) / (0u - (uint64_t)step) + 1 : 0;
}

static int k_slice(TsCall *c)
{
    static const uint32_t want[] = { S_, OPT_I, OPT_I, I_ };
    TsValue a[4];
    int rc = ts_prim_pop_args(c, "aten::slice", 4, want, a);
    if (rc)
        return rc;
    const TsStr *s = str_of(a[0]);
    int64_t step = a[3].u.i, start;
    if (step == 0)
        return fail(a, 4, ts_error_set(c->error, TS_ERR_RUNTIME,
                                       "List slice should have non-zero step"));
    uint64_t n = slice_indices((int64_t)s->len, a[1], a[2], step, &start);
    if (step == 1)
        return ret_bytes(c, a, 4, s->data + start, (size_t)n);
    TsBuf b = TS_BUF_INIT;
    ts_buf_reserve(&b, (size_t)n);
    for (uint64_t k = 0; k < n; k++)
        ts_buf_putc(&b, s->data[start + (int64_t)k * step]);
    return ret_buf(c, a, 4, &b);
}

/* list(s): one string per byte. */
static int k_list(TsCall *c)
{
    static const uint32_t want[] = { S_ };
    TsValue a[1];
    int rc = ts_prim_pop_args(c, "aten::list", 1, want, a);
    if (rc)
        return rc;
    const TsStr *s = str_of(a[0]);
    TsList *l = ts_list_new(ts_type_str(), s->len, c->error);
    if (!l)
        return fail(a, 1, c->error->code);
    for (size_t i = 0; i < s->len && !rc; i++)
        rc = list_add(l, s->data + i, 1, c->error);
    return ret_list(c, a, 1, l, rc);
}

/* ---- searching ------------------------------------------------------------------------ */

/* Python's bounds for s[start:end] in find/count/startswith/...; end == -1 is the end. */
static void search_bounds(size_t len, int64_t start, int64_t end, int64_t *lo, int64_t *hi)
{
    int64_t n = (int64_t)len;
    if (end == -1 || end > n)
        end = n;
    else if (end < 0)
        end = end + n < 0 ? 0 : end + n;
    if (start < 0)
        start = start + n < 0 ? 0 : start + n;
    *lo = start;
    *hi = end;
}

/* First (or last) position of sub in s[lo, hi), or -1. */
static int64_t find_in(const TsStr *s, const TsStr *sub, int64_t start, int64_t end, bool last)
{
    int64_t lo, hi;
    search_bounds(s->len, start, end, &lo, &hi);
    int64_t m = (int64_t)sub->len;
    if (lo > (int64_t)s->len || hi - lo < m)
        return -1;
    if (last) {
        for (int64_t i = hi - m; i >= lo; i--)
            if (memcmp(s->data + i, sub->data, (size_t)m) == 0)
                return i;
        return -1;
    }
    if (m == 0)
        return lo;
    const char *p = memmem(s->data + lo, (size_t)(hi - lo), sub->data, (size_t)m);
    return p ? p - s->data : -1;
}

typedef enum FindKind { FIND, RFIND, INDEX, RINDEX } FindKind;

static int k_find_common(TsCall *c, const char *op, FindKind kind)
{
    static const uint32_t want[] = { S_, S_, I_, I_ };
    TsValue a[4];
    int rc = ts_prim_pop_args(c, op, 4, want, a);
    if (rc)
        return rc;
    int64_t i = find_in(str_of(a[0]), str_of(a[1]), a[2].u.i, a[3].u.i,
                        kind == RFIND || kind == RINDEX);
    if (i < 0 && (kind == INDEX || kind == RINDEX))
        return fail(a, 4, ts_error_set(c->error, TS_ERR_RUNTIME,
                                       "ValueError: substring not found"));
    return ret(c, a, 4, ts_int(i));
}

static int k_find(TsCall *c) { return k_find_common(c, "aten::find", FIND); }
static int k_rfind(TsCall *c) { return k_find_common(c, "aten::rfind", RFIND); }
static int k_index(TsCall *c) { return k_find_common(c, "aten::index", INDEX); }
static int k_rindex(TsCall *c) { return k_find_common(c, "aten::rindex", RINDEX); }

static int k_count(TsCall *c)
{
    static const uint32_t want[] = { S_, S_, I_, I_ };
    TsValue a[4];
    int rc = ts_prim_pop_args(c, "aten::count", 4, want, a);
    if (rc)
        return rc;
    const TsStr *s = str_of(a[0]), *sub = str_of(a[1]);
    int64_t lo, hi, n = 0;
    search_bounds(s->len, a[2].u.i, a[3].u.i, &lo, &hi);
    if (lo > (int64_t)s->len || hi < lo) {
        n = 0;
    } else if (sub->len == 0) {
        n = hi - lo + 1;
    } else {
        const char *p = s->data + lo, *end = s->data + hi;
        while ((size_t)(end - p) >= sub->len
               && (p = memmem(p, (size_t)(end - p), sub->data, sub->len)) != NULL) {
            n++;
            p += sub->len;
        }
    }
    return ret(c, a, 4, ts_int(n));
}

static int k_affix(TsCall *c, const char *op, bool suffix)
{
    static const uint32_t want[] = { S_, S_, I_, I_ };
    TsValue a[4];
    int rc = ts_prim_pop_args(c, op, 4, want, a);
    if (rc)
        return rc;
    const TsStr *s = str_of(a[0]), *x = str_of(a[1]);
    int64_t lo, hi, m = (int64_t)x->len;
    search_bounds(s->len, a[2].u.i, a[3].u.i, &lo, &hi);
    bool r = lo <= (int64_t)s->len && hi - lo >= m
             && memcmp(s->data + (suffix ? hi - m : lo), x->data, (size_t)m) == 0;
    return ret(c, a, 4, ts_bool(r));
}

static int k_startswith(TsCall *c) { return k_affix(c, "aten::startswith", false); }
static int k_endswith(TsCall *c) { return k_affix(c, "aten::endswith", true); }

/* ---- case ----------------------------------------------------------------------------- */

typedef enum CaseKind { UPPER, LOWER, SWAPCASE, CAPITALIZE, TITLE } CaseKind;

static int k_case(TsCall *c, const char *op, CaseKind kind)
{
    static const uint32_t want[] = { S_ };
    TsValue a[1];
    int rc = ts_prim_pop_args(c, op, 1, want, a);
    if (rc)
        return rc;
    const TsStr *s = str_of(a[0]);
    TsStr *r = ts_str_new(s->data, s->len, c->error);
    if (!r)
        return fail(a, 1, c->error->code);
    bool prev_cased = false;
    for (size_t i = 0; i < r->len; i++) {
        unsigned char ch = (unsigned char)r->data[i];
        switch (kind) {
        case UPPER: r->data[i] = to_upper(ch); break;
        case LOWER: r->data[i] = to_lower(ch); break;
        case SWAPCASE: r->data[i] = is_upper(ch) ? to_lower(ch) : to_upper(ch); break;
        case CAPITALIZE: r->data[i] = i == 0 ? to_upper(ch) : to_lower(ch); break;
        case TITLE:
            r->data[i] = prev_cased ? to_lower(ch) : to_upper(ch);
            prev_cased = is_alpha(ch);
            break;
        }
    }
    return ret(c, a, 1, ts_str_value(r));
}

static int k_upper(TsCall *c) { return k_case(c, "aten::upper", UPPER); }
static int k_lower(TsCall *c) { return k_case(c, "aten::lower", LOWER); }
static int k_swapcase(TsCall *c) { return k_case(c, "aten::swapcase", SWAPCASE); }
static int k_capitalize(TsCall *c) { return k_case(c, "aten::capitalize", CAPITALIZE); }
static int k_title(TsCall *c) { return k_case(c, "aten::title", TITLE); }

/* ---- predicates ----------------------------------------------------------------------- */

typedef enum PredKind {
    ISDIGIT, ISALPHA, ISALNUM, ISSPACE, ISLOWER, ISUPPER, ISTITLE, ISIDENTIFIER, ISPRINTABLE
} PredKind;

static bool all_of(const TsStr *s, bool (*f)(unsigned char))
{
    for (size_t i = 0; i < s->len; i++)
        if (!f((unsigned char)s->data[i]))
            return false;
    return s->len > 0;
}

/* islower/isupper: some cased character, and none of the other case. */
static bool cased_only(const TsStr *s, bool (*want)(unsigned char), bool (*other)(unsigned char))
{
    bool any = false;
    for (size_t i = 0; i < s->len; i++) {
        unsigned char ch = (unsigned char)s->data[i];
        if (other(ch))
            return false;
        any = any || want(ch);
    }
    return any;
}

/* Upper case only after uncased characters, lower case only after cased ones, some cased. */
static bool is_title(const TsStr *s)
{
    bool prev_cased = false, any = false;
    for (size_t i = 0; i < s->len; i++) {
        unsigned char ch = (unsigned char)s->data[i];
        if (is_upper(ch)) {
            if (prev_cased)
                return false;
            prev_cased = any = true;
        } else if (is_lower(ch)) {
            if (!prev_cased)
                return false;
            prev_cased = any = true;
        } else {
            prev_cased = false;
        }
    }
    return any;
}

static bool is_ident(const TsStr *s)
{
    if (s->len == 0 || is_digit((unsigned char)s->data[0]))
        return false;
    for (size_t i = 0; i < s->len; i++) {
        unsigned char ch = (unsigned char)s->data[i];
        if (!is_alnum(ch) && ch != '_')
            return false;
    }
    return true;
}

static bool is_printable(const TsStr *s)
{
    for (size_t i = 0; i < s->len; i++) {
        unsigned char ch = (unsigned char)s->data[i];
        if (ch < 0x20 || ch == 0x7f)
            return false;
    }
    return true;
}

static int k_pred(TsCall *c, const char *op, PredKind kind)
{
    static const uint32_t want[] = { S_ };
    TsValue a[1];
    int rc = ts_prim_pop_args(c, op, 1, want, a);
    if (rc)
        return rc;
    const TsStr *s = str_of(a[0]);
    bool r = false;
    switch (kind) {
    case ISDIGIT: r = all_of(s, is_digit); break;
    case ISALPHA: r = all_of(s, is_alpha); break;
    case ISALNUM: r = all_of(s, is_alnum); break;
    case ISSPACE: r = all_of(s, is_space); break;
    case ISLOWER: r = cased_only(s, is_lower, is_upper); break;
    case ISUPPER: r = cased_only(s, is_upper, is_lower); break;
    case ISTITLE: r = is_title(s); break;
    case ISIDENTIFIER: r = is_ident(s); break;
    case ISPRINTABLE: r = is_printable(s); break;
    }
    return ret(c, a, 1, ts_bool(r));
}

static int k_isdigit(TsCall *c) { return k_pred(c, "aten::isdigit", ISDIGIT); }
static int k_isdecimal(TsCall *c) { return k_pred(c, "aten::isdecimal", ISDIGIT); }
static int k_isnumeric(TsCall *c) { return k_pred(c, "aten::isnumeric", ISDIGIT); }
static int k_isalpha(TsCall *c) { return k_pred(c, "aten::isalpha", ISALPHA); }
static int k_isalnum(TsCall *c) { return k_pred(c, "aten::isalnum", ISALNUM); }
static int k_isspace(TsCall *c) { return k_pred(c, "aten::isspace", ISSPACE); }
static int k_islower(TsCall *c) { return k_pred(c, "aten::islower", ISLOWER); }
static int k_isupper(TsCall *c) { return k_pred(c, "aten::isupper", ISUPPER); }
static int k_istitle(TsCall *c) { return k_pred(c, "aten::istitle", ISTITLE); }
static int k_isidentifier(TsCall *c) { return k_pred(c, "aten::isidentifier", ISIDENTIFIER); }
static int k_isprintable(TsCall *c) { return k_pred(c, "aten::isprintable", ISPRINTABLE); }

/* ---- strip, split, join, partition, splitlines ----------------------------------------- */

static bool in_set(const TsStr *set, unsigned char ch)
{
    return set->len && memchr(set->data, ch, set->len) != NULL;
}

static int k_strip_common(TsCall *c, const char *op, bool left, bool right)
{
    static const uint32_t want[] = { S_, S_ };
    TsValue a[2];
    int rc = ts_prim_pop_args(c, op, 2, want, a);
    if (rc)
        return rc;
    const TsStr *s = str_of(a[0]), *set = str_of(a[1]);
    size_t lo = 0, hi = s->len;
    while (left && lo < hi && in_set(set, (unsigned char)s->data[lo]))
        lo++;
    while (right && hi > lo && in_set(set, (unsigned char)s->data[hi - 1]))
        hi--;
    return ret_bytes(c, a, 2, s->data + lo, hi - lo);
}

static int k_strip(TsCall *c) { return k_strip_common(c, "aten::strip", true, true); }
static int k_lstrip(TsCall *c) { return k_strip_common(c, "aten::lstrip", true, false); }
static int k_rstrip(TsCall *c) { return k_strip_common(c, "aten::rstrip", false, true); }

static int empty_separator(TsCall *c, TsValue *a, size_t n)
{
    return fail(a, n, ts_error_set(c->error, TS_ERR_RUNTIME, "ValueError: empty separator"));
}

/* Python's str.split() without a separator: runs of whitespace, at most max splits (the
 * rest keeps its inner and trailing whitespace). */
static int split_ws(const TsStr *s, int64_t max, TsList *l, TsError *err)
{
    size_t i = 0, n = s->len;
    int rc = 0;
    while (!rc) {
        while (i < n && is_space((unsigned char)s->data[i]))
            i++;
        if (i == n)
            break;
        size_t j = i;
        if (max >= 0 && (int64_t)l->len == max) {
            j = n;
        } else {
            while (j < n && !is_space((unsigned char)s->data[j]))
                j++;
        }
        rc = list_add(l, s->data + i, j - i, err);
        i = j;
    }
    return rc;
}

static int split_sep(const TsStr *s, const TsStr *sep, int64_t max, TsList *l, TsError *err)
{
    const char *p = s->data, *end = s->data + s->len;
    int rc = 0;
    for (int64_t k = 0; !rc && (max < 0 || k < max); k++) {
        const char *q = (size_t)(end - p) >= sep->len
                      ? memmem(p, (size_t)(end - p), sep->data, sep->len) : NULL;
        if (!q)
            break;
        rc = list_add(l, p, (size_t)(q - p), err);
        p = q + sep->len;
    }
    return rc ? rc : list_add(l, p, (size_t)(end - p), err);
}

static int k_split(TsCall *c)
{
    static const uint32_t want[] = { S_, ANY_, I_ };
    TsValue a[3];
    int rc = ts_prim_pop_args(c, "aten::split", 3, want, a);
    if (rc)
        return rc;
    if (a[1].tag != TS_TAG_NONE && a[1].tag != TS_TAG_STR)
        return fail(a, 3, ts_error_set(c->error, TS_ERR_TYPE,
                                       "aten::split: separator must be a str or None"));
    if (a[1].tag == TS_TAG_STR && str_of(a[1])->len == 0)
        return empty_separator(c, a, 3);
    TsList *l = new_str_list(c->error);
    if (!l)
        return fail(a, 3, c->error->code);
    rc = a[1].tag == TS_TAG_NONE ? split_ws(str_of(a[0]), a[2].u.i, l, c->error)
                                 : split_sep(str_of(a[0]), str_of(a[1]), a[2].u.i, l, c->error);
    return ret_list(c, a, 3, l, rc);
}

/* rsplit: splits from the right, then reverses the pieces into order. */
static int k_rsplit(TsCall *c)
{
    static const uint32_t want[] = { S_, S_, I_ };
    TsValue a[3];
    int rc = ts_prim_pop_args(c, "aten::rsplit", 3, want, a);
    if (rc)
        return rc;
    const TsStr *s = str_of(a[0]), *sep = str_of(a[1]);
    int64_t max = a[2].u.i;
    if (sep->len == 0)
        return empty_separator(c, a, 3);
    TsList *l = new_str_list(c->error);
    if (!l)
        return fail(a, 3, c->error->code);
    size_t end = s->len;
    for (int64_t k = 0; !rc && (max < 0 || k < max) && end >= sep->len; k++) {
        /* The last separator that ends at or before end. */
        size_t i = end - sep->len + 1;
        bool found = false;
        while (!found && i-- > 0)
            found = memcmp(s->data + i, sep->data, sep->len) == 0;
        if (!found)
            break;
        rc = list_add(l, s->data + i + sep->len, end - i - sep->len, c->error);
        end = i;
    }
    if (!rc)
        rc = list_add(l, s->data, end, c->error);
    for (size_t i = 0; !rc && i < l->len / 2; i++) {
        TsValue t = l->items[i];
        l->items[i] = l->items[l->len - 1 - i];
        l->items[l->len - 1 - i] = t;
    }
    return ret_list(c, a, 3, l, rc);
}

static int k_join(TsCall *c)
{
    static const uint32_t want[] = { S_, L_ };
    TsValue a[2];
    int rc = ts_prim_pop_args(c, "aten::join", 2, want, a);
    if (rc)
        return rc;
    const TsStr *sep = str_of(a[0]);
    const TsList *l = (const TsList *)a[1].u.p;
    TsBuf b = TS_BUF_INIT;
    for (size_t i = 0; i < l->len; i++) {
        if (l->items[i].tag != TS_TAG_STR) {
            ts_buf_free(&b);
            return fail(a, 2, ts_error_set(c->error, TS_ERR_TYPE,
                                           "aten::join: list item %zu is not a str", i));
        }
        if (i)
            ts_buf_add(&b, sep->data, sep->len);
        ts_buf_add(&b, str_of(l->items[i])->data, str_of(l->items[i])->len);
    }
    return ret_buf(c, a, 2, &b);
}

static int k_partition_common(TsCall *c, const char *op, bool right)
{
    static const uint32_t want[] = { S_, S_ };
    TsValue a[2];
    int rc = ts_prim_pop_args(c, op, 2, want, a);
    if (rc)
        return rc;
    const TsStr *s = str_of(a[0]), *sep = str_of(a[1]);
    if (sep->len == 0)
        return empty_separator(c, a, 2);
    int64_t i = find_in(s, sep, 0, -1, right);
    /* Not found: (s, "", "") from the left, ("", "", s) from the right. */
    size_t cut[2];
    if (i >= 0) {
        cut[0] = (size_t)i;
        cut[1] = (size_t)i + sep->len;
    } else {
        cut[0] = cut[1] = right ? 0 : s->len;
    }
    /* The schema returns three values (not one tuple): push them in order. */
    const char *p[3] = { s->data, s->data + cut[0], s->data + cut[1] };
    size_t n[3] = { cut[0], cut[1] - cut[0], s->len - cut[1] };
    TsStr *parts[3] = { NULL, NULL, NULL };
    for (size_t k = 0; k < 3 && !rc; k++) {
        parts[k] = ts_str_new(p[k], n[k], c->error);
        rc = parts[k] ? 0 : (int)c->error->code;
    }
    if (!rc)
        rc = ts_stack_reserve(c->stack, 3, c->error);
    if (rc) {
        for (size_t k = 0; k < 3; k++)
            if (parts[k])
                ts_heap_release(&parts[k]->h);
        return fail(a, 2, rc);
    }
    ts_prim_release_args(a, 2);
    for (size_t k = 0; k < 3; k++)
        ts_stack_push(c->stack, ts_str_value(parts[k]), c->error);
    return 0;
}

static int k_partition(TsCall *c) { return k_partition_common(c, "aten::partition", false); }
static int k_rpartition(TsCall *c) { return k_partition_common(c, "aten::rpartition", true); }

/* Length of the line break at s[i] (Python's: \n \r \r\n \v \f \x1c-\x1e, and the UTF-8 of
 * U+0085, U+2028, U+2029), or 0. */
static size_t line_break(const TsStr *s, size_t i)
{
    const unsigned char *p = (const unsigned char *)s->data + i;
    size_t left = s->len - i;
    if (p[0] == '\r')
        return left >= 2 && p[1] == '\n' ? 2 : 1;
    if (p[0] == '\n' || p[0] == '\v' || p[0] == '\f' || (p[0] >= 0x1c && p[0] <= 0x1e))
        return 1;
    if (left >= 2 && p[0] == 0xc2 && p[1] == 0x85)
        return 2;
    if (left >= 3 && p[0] == 0xe2 && p[1] == 0x80 && (p[2] == 0xa8 || p[2] == 0xa9))
        return 3;
    return 0;
}

static int k_splitlines(TsCall *c)
{
    static const uint32_t want[] = { S_, B_ };
    TsValue a[2];
    int rc = ts_prim_pop_args(c, "aten::splitlines", 2, want, a);
    if (rc)
        return rc;
    const TsStr *s = str_of(a[0]);
    bool keep = a[1].u.b;
    TsList *l = new_str_list(c->error);
    if (!l)
        return fail(a, 2, c->error->code);
    size_t start = 0, i = 0;
    while (!rc && i < s->len) {
        size_t br = line_break(s, i);
        if (!br) {
            i++;
            continue;
        }
        rc = list_add(l, s->data + start, i - start + (keep ? br : 0), c->error);
        i += br;
        start = i;
    }
    if (!rc && start < s->len)
        rc = list_add(l, s->data + start, s->len - start, c->error);
    return ret_list(c, a, 2, l, rc);
}

/* ---- replace, padding, tabs ----------------------------------------------------------- */

static int k_replace(TsCall *c)
{
    static const uint32_t want[] = { S_, S_, S_, I_ };
    TsValue a[4];
    int rc = ts_prim_pop_args(c, "aten::replace", 4, want, a);
    if (rc)
        return rc;
    const TsStr *s = str_of(a[0]), *old = str_of(a[1]), *new_ = str_of(a[2]);
    int64_t max = a[3].u.i;
    TsBuf b = TS_BUF_INIT;
    size_t i = 0;
    for (int64_t k = 0; max < 0 || k < max; k++) {
        if (old->len == 0) {
            /* Python puts new before every character and at the end. */
            ts_buf_add(&b, new_->data, new_->len);
            if (i == s->len) {
                i++;
                break;
            }
            ts_buf_putc(&b, s->data[i++]);
            continue;
        }
        const char *q = s->len - i >= old->len
                      ? memmem(s->data + i, s->len - i, old->data, old->len) : NULL;
        if (!q)
            break;
        ts_buf_add(&b, s->data + i, (size_t)(q - s->data) - i);
        ts_buf_add(&b, new_->data, new_->len);
        i = (size_t)(q - s->data) + old->len;
        if (b.failed)
            break;
    }
    if (i < s->len)
        ts_buf_add(&b, s->data + i, s->len - i);
    return ret_buf(c, a, 4, &b);
}

/* The fill character of ljust/rjust/center: exactly one character (one UTF-8 sequence). */
static size_t utf8_char_len(const TsStr *s)
{
    if (s->len == 0)
        return 0;
    unsigned char ch = (unsigned char)s->data[0];
    size_t n = ch < 0x80 ? 1 : ch >= 0xf0 ? 4 : ch >= 0xe0 ? 3 : ch >= 0xc0 ? 2 : 1;
    if (n > s->len)
        return 0;
    for (size_t i = 1; i < n; i++)
        if (((unsigned char)s->data[i] & 0xc0) != 0x80)
            return 0;
    return n;
}

static void put_fill(TsBuf *b, const TsStr *fill, int64_t n)
{
    if (n <= 0)
        return;
    /* n * fill->len may wrap: a count past the buffer's limit fails it at once */
    ts_buf_reserve(b, (uint64_t)n > TS_BUF_MAX / fill->len ? TS_BUF_MAX : (size_t)n * fill->len);
    for (int64_t i = 0; i < n && !b->failed; i++)
        ts_buf_add(b, fill->data, fill->len);
}

typedef enum PadKind { LJUST, RJUST, CENTER } PadKind;

static int k_pad(TsCall *c, const char *op, PadKind kind)
{
    static const uint32_t want[] = { S_, I_, S_ };
    TsValue a[3];
    int rc = ts_prim_pop_args(c, op, 3, want, a);
    if (rc)
        return rc;
    const TsStr *s = str_of(a[0]), *fill = str_of(a[2]);
    int64_t width = a[1].u.i;
    if (utf8_char_len(fill) != fill->len || fill->len == 0)
        return fail(a, 3, ts_error_set(c->error, TS_ERR_RUNTIME,
                                       "TypeError: The fill character must be exactly one "
                                       "character long"));
    if (width <= (int64_t)s->len)
        return ret_same(c, a, 3, 0);
    int64_t marg = width - (int64_t)s->len, left;
    if (kind == LJUST)
        left = 0;
    else if (kind == RJUST)
        left = marg;
    else
        left = marg / 2 + (marg & width & 1);
    TsBuf b = TS_BUF_INIT;
    put_fill(&b, fill, left);
    ts_buf_add(&b, s->data, s->len);
    put_fill(&b, fill, marg - left);
    return ret_buf(c, a, 3, &b);
}

static int k_ljust(TsCall *c) { return k_pad(c, "aten::ljust", LJUST); }
static int k_rjust(TsCall *c) { return k_pad(c, "aten::rjust", RJUST); }
static int k_center(TsCall *c) { return k_pad(c, "aten::center", CENTER); }

static int k_zfill(TsCall *c)
{
    static const uint32_t want[] = { S_, I_ };
    TsValue a[2];
    int rc = ts_prim_pop_args(c, "aten::zfill", 2, want, a);
    if (rc)
        return rc;
    const TsStr *s = str_of(a[0]);
    int64_t width = a[1].u.i;
    if (width <= (int64_t)s->len)
        return ret_same(c, a, 2, 0);
    size_t sign = s->len && (s->data[0] == '+' || s->data[0] == '-');
    TsBuf b = TS_BUF_INIT;
    ts_buf_add(&b, s->data, sign);
    ts_buf_reserve(&b, (size_t)width);
    for (int64_t i = (int64_t)s->len; i < width && !b.failed; i++)
        ts_buf_putc(&b, '0');
    ts_buf_add(&b, s->data + sign, s->len - sign);
    return ret_buf(c, a, 2, &b);
}

static int k_expandtabs(TsCall *c)
{
    static const uint32_t want[] = { S_, I_ };
    TsValue a[2];
    int rc = ts_prim_pop_args(c, "aten::expandtabs", 2, want, a);
    if (rc)
        return rc;
    const TsStr *s = str_of(a[0]);
    int64_t tab = a[1].u.i, col = 0;
    TsBuf b = TS_BUF_INIT;
    for (size_t i = 0; i < s->len && !b.failed; i++) {
        char ch = s->data[i];
        if (ch == '\t') {
            if (tab > 0) {
                /* room first: a width too large fails at once, not after 2 GB of spaces */
                int64_t n = tab - col % tab;
                ts_buf_reserve(&b, (size_t)n);
                if (!b.failed) {
                    memset(b.p + b.len, ' ', (size_t)n);
                    b.len += (size_t)n;
                    b.p[b.len] = '\0';
                }
                col += n;
            }
            continue;
        }
        ts_buf_putc(&b, ch);
        col = ch == '\n' || ch == '\r' ? 0 : col + 1;
    }
    return ret_buf(c, a, 2, &b);
}

/* ---- numbers and characters ------------------------------------------------------------ */

/* UTF-8 encoding of a code point (< 0x110000) into out; returns the length. */
static size_t utf8_encode(uint32_t cp, char *out)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xc0 | cp >> 6);
        out[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xe0 | cp >> 12);
        out[1] = (char)(0x80 | (cp >> 6 & 0x3f));
        out[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    out[0] = (char)(0xf0 | cp >> 18);
    out[1] = (char)(0x80 | (cp >> 12 & 0x3f));
    out[2] = (char)(0x80 | (cp >> 6 & 0x3f));
    out[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

/* The code point of s when s is exactly one character: one byte, or one UTF-8 sequence. */
static int64_t single_char(const TsStr *s)
{
    if (s->len == 1)
        return (unsigned char)s->data[0];
    size_t n = utf8_char_len(s);
    if (n < 2 || n != s->len)
        return -1;
    const unsigned char *p = (const unsigned char *)s->data;
    uint32_t cp = p[0] & (0x7f >> n);
    for (size_t i = 1; i < n; i++)
        cp = cp << 6 | (p[i] & 0x3f);
    char check[4];
    /* Overlong encodings and surrogates are not characters. */
    if (utf8_encode(cp, check) != n || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return -1;
    return cp;
}

static int k_ord(TsCall *c)
{
    static const uint32_t want[] = { S_ };
    TsValue a[1];
    int rc = ts_prim_pop_args(c, "aten::ord", 1, want, a);
    if (rc)
        return rc;
    int64_t cp = single_char(str_of(a[0]));
    if (cp < 0)
        return fail(a, 1, ts_error_set(c->error, TS_ERR_RUNTIME,
                                       "String for ord() must be 1 character, found %zu",
                                       str_of(a[0])->len));
    return ret(c, a, 1, ts_int(cp));
}

static int k_chr(TsCall *c)
{
    static const uint32_t want[] = { I_ };
    TsValue a[1];
    int rc = ts_prim_pop_args(c, "aten::chr", 1, want, a);
    if (rc)
        return rc;
    int64_t i = a[0].u.i;
    if (i < 0 || i >= 0x110000)
        return fail(a, 1, ts_error_set(c->error, TS_ERR_RUNTIME,
                                       "chr() arg not in range(0x110000), found %" PRId64, i));
    char buf[4];
    size_t n = utf8_encode((uint32_t)i, buf);
    return ret_bytes(c, a, 1, buf, n);
}

/* hex/oct/bin: Python's "-0x1f" form. */
static int k_radix(TsCall *c, const char *op, unsigned bits, char letter)
{
    static const uint32_t want[] = { I_ };
    TsValue a[1];
    int rc = ts_prim_pop_args(c, op, 1, want, a);
    if (rc)
        return rc;
    int64_t v = a[0].u.i;
    uint64_t mag = v < 0 ? 0u - (uint64_t)v : (uint64_t)v;
    char buf[72], *p = buf + sizeof buf;
    unsigned mask = (1u << bits) - 1;
    do {
        *--p = "0123456789abcdef"[mag & mask];
        mag >>= bits;
    } while (mag);
    *--p = letter;
    *--p = '0';
    if (v < 0)
        *--p = '-';
    return ret_bytes(c, a, 1, p, (size_t)(buf + sizeof buf - p));
}

static int k_hex(TsCall *c) { return k_radix(c, "aten::hex", 4, 'x'); }
static int k_oct(TsCall *c) { return k_radix(c, "aten::oct", 3, 'o'); }
static int k_bin(TsCall *c) { return k_radix(c, "aten::bin", 1, 'b'); }

/* int(s): [+-]digits, nothing else (PyTorch's grammar). */
static int k_int(TsCall *c)
{
    static const uint32_t want[] = { S_ };
    TsValue a[1];
    int rc = ts_prim_pop_args(c, "aten::Int", 1, want, a);
    if (rc)
        return rc;
    const TsStr *s = str_of(a[0]);
    /* PyTorch parses with std::stoll: leading white space is skipped, and no digits at all or
     * an out-of-range value throw the C++ exception whose message is just "stoll". */
    size_t i = 0;
    while (i < s->len && is_c_space((unsigned char)s->data[i]))
        i++;
    bool neg = i < s->len && s->data[i] == '-';
    i += i < s->len && (s->data[i] == '+' || s->data[i] == '-');
    uint64_t v = 0, limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    size_t first = i;
    bool overflow = false;
    for (; i < s->len && is_digit((unsigned char)s->data[i]); i++) {
        unsigned d = (unsigned)(s->data[i] - '0');
        if (v > (limit - d) / 10)
            overflow = true;
        else
            v = v * 10 + d;
    }
    if (i == first || overflow)
        return fail(a, 1, ts_error_set(c->error, TS_ERR_RUNTIME, "stoll"));
    if (i != s->len)
        return fail(a, 1, ts_error_set(c->error, TS_ERR_RUNTIME,
                                       "invalid literal for int() with base 10: '%.*s'",
                                       (int)(s->len > 200 ? 200 : s->len), s->data));
    return ret(c, a, 1, ts_int(neg ? (int64_t)(0u - v) : (int64_t)v));
}

/* float(s): std::stod (strtod after white space; nothing parsed or out of range throws
 * "stod"), then the whole string must have been used. */
static int k_float(TsCall *c)
{
    static const uint32_t want[] = { S_ };
    TsValue a[1];
    int rc = ts_prim_pop_args(c, "aten::Float", 1, want, a);
    if (rc)
        return rc;
    const TsStr *s = str_of(a[0]);
    char *end = NULL;
    errno = 0;
    double d = s->len ? strtod(s->data, &end) : 0.0;
    if (!s->len || end == s->data || errno == ERANGE)
        return fail(a, 1, ts_error_set(c->error, TS_ERR_RUNTIME, "stod"));
    if (end != s->data + s->len)
        return fail(a, 1, ts_error_set(c->error, TS_ERR_RUNTIME,
                                       "could not convert string to float: '%.*s'",
                                       (int)(s->len > 200 ? 200 : s->len), s->data));
    return ret(c, a, 1, ts_double(d));
}

/* ---- str.format and % ------------------------------------------------------------------- */

/* The variadic operators learn their input count from the node; a factory binds it. */
static int bind_count(const TsNodeInfo *node, void **data, void (**free_data)(void *),
                      TsError *err)
{
    if (node->n_inputs < 1)
        return ts_error_set(err, TS_ERR_TYPE, "%s needs a format string", node->kind);
    size_t *n = malloc(sizeof *n);
    if (!n)
        return ts_error_set(err, TS_ERR_NOMEM, "out of memory binding %s", node->kind);
    *n = node->n_inputs;
    *data = n;
    *free_data = free;
    return 0;
}

/* Pops the n inputs (checking that the first is a str) into a fresh array. */
static TsValue *pop_varargs(TsCall *c, const char *op, size_t n)
{
    if (c->stack->len < n || ts_stack_arg(c->stack, n, 0)->tag != TS_TAG_STR) {
        ts_error_set(c->error, TS_ERR_TYPE, "%s: expected a format string and %zu arguments",
                     op, n - 1);
        return NULL;
    }
    TsValue *argv = malloc(n * sizeof *argv);
    if (!argv) {
        ts_error_set(c->error, TS_ERR_NOMEM, "out of memory in %s", op);
        return NULL;
    }
    for (size_t i = n; i-- > 0;)
        argv[i] = ts_stack_pop(c->stack);
    return argv;
}

static int finish_varargs(TsCall *c, TsValue *argv, size_t n, TsBuf *b, int rc)
{
    if (!rc)
        rc = ret_buf(c, argv, n, b);
    else {
        ts_buf_free(b);
        ts_prim_release_args(argv, n);
    }
    free(argv);
    return rc;
}

/* "{}" takes the next argument's str(); everything else, "{0}" and "{:x}" included, is
 * copied as it is; arguments left over are ignored. */
static int k_format(TsCall *c)
{
    size_t n = *(const size_t *)c->data;
    TsValue *argv = pop_varargs(c, "aten::format", n);
    if (!argv)
        return c->error->code;
    const TsStr *fmt = str_of(argv[0]);
    TsBuf b = TS_BUF_INIT;
    size_t next = 1, i = 0;
    int rc = 0;
    while (!rc && i < fmt->len) {
        const char *q = memmem(fmt->data + i, fmt->len - i, "{}", 2);
        size_t stop = q ? (size_t)(q - fmt->data) : fmt->len;
        ts_buf_add(&b, fmt->data + i, stop - i);
        if (!q)
            break;
        if (next >= n)
            rc = ts_error_set(c->error, TS_ERR_RUNTIME,
                              "Too few arguments for format string: %s", fmt->data);
        else
            rc = ts_value_format(c->runtime, argv[next++], &b, c->error);
        i = stop + 2;
    }
    return finish_varargs(c, argv, n, &b, rc);
}

/* The tag name PyTorch puts in %-format errors ("but got String"). */
static const char *tag_kind(TsValue v)
{
    switch ((TsTag)v.tag) {
    case TS_TAG_NONE: return "None";
    case TS_TAG_INT: return "Int";
    case TS_TAG_DOUBLE: return "Double";
    case TS_TAG_BOOL: return "Bool";
    case TS_TAG_DEVICE: return "Device";
    case TS_TAG_STR: return "String";
    case TS_TAG_COMPLEX: return "ComplexDouble";
    case TS_TAG_LIST: return "GenericList";
    case TS_TAG_DICT: return "GenericDict";
    case TS_TAG_TUPLE: return "Tuple";
    case TS_TAG_OBJECT: return "Object";
    case TS_TAG_TENSOR: return "Tensor";
    case TS_TAG_FUTURE: return "Future";
    case TS_TAG_ENUM: return "Enum";
    case TS_TAG_CAPSULE: return "Capsule";
    default: return "Uninitialized";
    }
}

/* PyTorch formats %f and %e from a C float: 1e20 prints 100000002004087734272.000000 and
 * 1e300 prints inf. (A double outside float's range converts to inf here; C leaves that
 * conversion undefined.) */
static double as_float32(double d)
{
    if (d > FLT_MAX)
        return INFINITY;
    if (d < -FLT_MAX)
        return -INFINITY;
    return (double)(float)d;
}

/* One %-conversion of v into b. */
static int percent_one(TsCall *c, char spec, TsValue v, TsBuf *b)
{
    bool number = v.tag == TS_TAG_INT || v.tag == TS_TAG_DOUBLE || v.tag == TS_TAG_BOOL;
    double d = v.tag == TS_TAG_DOUBLE ? v.u.d : v.tag == TS_TAG_BOOL ? v.u.b : (double)v.u.i;
    switch (spec) {
    case 's':
        return ts_value_format(c->runtime, v, b, c->error);
    case 'd':
    case 'i':
        if (!number)
            break;
        if (v.tag == TS_TAG_DOUBLE) {
            if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0))
                return ts_error_set(c->error, TS_ERR_RUNTIME,
                                    "%%%c format: cannot convert float %g to integer", spec, d);
            ts_buf_printf(b, "%" PRId64, (int64_t)d);
        } else {
            ts_buf_printf(b, "%" PRId64, v.tag == TS_TAG_BOOL ? (int64_t)v.u.b : v.u.i);
        }
        return 0;
    case 'f':
    case 'e':
        if (!number)
            break;
        ts_buf_printf(b, spec == 'f' ? "%f" : "%e", as_float32(d));
        return 0;
    case 'c':
        if (v.tag == TS_TAG_INT) {
            char buf[4];
            if (v.u.i < 0 || v.u.i >= 0x110000)
                return ts_error_set(c->error, TS_ERR_RUNTIME,
                                    "%%c arg not in range(0x110000), found %" PRId64, v.u.i);
            ts_buf_add(b, buf, utf8_encode((uint32_t)v.u.i, buf));
            return 0;
        }
        if (v.tag == TS_TAG_STR) {
            ts_buf_add(b, str_of(v)->data, str_of(v)->len);
            return 0;
        }
        return ts_error_set(c->error, TS_ERR_RUNTIME,
                            "%%c requires an int or char for formatting, but got %s",
                            tag_kind(v));
    default:
        return ts_error_set(c->error, TS_ERR_RUNTIME,
                            "The specifier %%%c is not supported in TorchScript format strings",
                            spec);
    }
    return ts_error_set(c->error, TS_ERR_RUNTIME,
                        "%%%c requires a number for formatting, but got %s", spec, tag_kind(v));
}

/* "fmt" % args: args is one tuple (its items are the arguments) or a single value. */
static int k_percent_format(TsCall *c)
{
    size_t n = *(const size_t *)c->data;
    TsValue *argv = pop_varargs(c, "aten::percentFormat", n);
    if (!argv)
        return c->error->code;
    const TsStr *fmt = str_of(argv[0]);
    const TsValue *args = argv + 1;
    size_t nargs = n - 1, next = 0;
    if (n == 2 && argv[1].tag == TS_TAG_TUPLE) {
        const TsTuple *t = (const TsTuple *)argv[1].u.p;
        args = t->items;
        nargs = t->len;
    }
    TsBuf b = TS_BUF_INIT;
    int rc = 0;
    for (size_t i = 0; !rc && i < fmt->len; i++) {
        char ch = fmt->data[i];
        if (ch != '%') {
            ts_buf_putc(&b, ch);
            continue;
        }
        if (++i == fmt->len) {
            rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Incomplete format specifier");
        } else if (fmt->data[i] == '%') {
            ts_buf_putc(&b, '%');
        } else if (next >= nargs) {
            rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Too few arguments for format string");
        } else {
            rc = percent_one(c, fmt->data[i], args[next++], &b);
        }
    }
    if (!rc && next < nargs)
        rc = ts_error_set(c->error, TS_ERR_RUNTIME, "Too many arguments for format string");
    return finish_varargs(c, argv, n, &b, rc);
}

static int f_format(const TsNodeInfo *node, TsKernelFn *fn, void **data,
                    void (**free_data)(void *), TsError *err)
{
    *fn = k_format;
    return bind_count(node, data, free_data, err);
}

static int f_percent_format(const TsNodeInfo *node, TsKernelFn *fn, void **data,
                            void (**free_data)(void *), TsError *err)
{
    *fn = k_percent_format;
    return bind_count(node, data, free_data, err);
}

/* tscript::format_tensor for backends that format no tensors of their own (core/value/print.h). */
static int k_format_tensor(TsCall *c)
{
    static const uint32_t want[] = { TS_TAG_TENSOR };
    TsValue a[1];
    int rc = ts_prim_pop_args(c, "tscript::format_tensor", 1, want, a);
    if (rc)
        return rc;
    TsBuf b = TS_BUF_INIT;
    ts_format_tensor_fallback((const TsTensor *)a[0].u.p, &b);
    return ret_buf(c, a, 1, &b);
}

/* ---- registration ---------------------------------------------------------------------- */

static const TsPrimOp ops[] = {
    { "aten::str", k_str, { "" } },
    { "aten::eq", k_eq, { "str" } },
    { "aten::ne", k_ne, { "str" } },
    { "aten::lt", k_lt, { "str" } },
    { "aten::le", k_le, { "str" } },
    { "aten::gt", k_gt, { "str" } },
    { "aten::ge", k_ge, { "str" } },
    { "aten::len", k_len, { "str" } },
    { "aten::add", k_add, { "str" } },
    { "aten::__getitem__", k_getitem, { "str" } },
    { "prim::StringIndex", k_getitem, { "" } },
    { "aten::slice", k_slice, { "str" } },
    { "aten::list", k_list, { "" } },
    { "aten::find", k_find, { "" } },
    { "aten::rfind", k_rfind, { "" } },
    { "aten::index", k_index, { "str" } },
    { "aten::rindex", k_rindex, { "" } },
    { "aten::count", k_count, { "" } },
    { "aten::startswith", k_startswith, { "" } },
    { "aten::endswith", k_endswith, { "" } },
    { "aten::upper", k_upper, { "" } },
    { "aten::lower", k_lower, { "" } },
    { "aten::swapcase", k_swapcase, { "" } },
    { "aten::capitalize", k_capitalize, { "" } },
    { "aten::title", k_title, { "" } },
    { "aten::isdigit", k_isdigit, { "" } },
    { "aten::isdecimal", k_isdecimal, { "" } },
    { "aten::isnumeric", k_isnumeric, { "" } },
    { "aten::isalpha", k_isalpha, { "" } },
    { "aten::isalnum", k_isalnum, { "" } },
    { "aten::isspace", k_isspace, { "" } },
    { "aten::islower", k_islower, { "" } },
    { "aten::isupper", k_isupper, { "" } },
    { "aten::istitle", k_istitle, { "" } },
    { "aten::isidentifier", k_isidentifier, { "" } },
    { "aten::isprintable", k_isprintable, { "" } },
    { "aten::strip", k_strip, { "" } },
    { "aten::lstrip", k_lstrip, { "" } },
    { "aten::rstrip", k_rstrip, { "" } },
    { "aten::split", k_split, { "str" } },
    { "aten::rsplit", k_rsplit, { "" } },
    { "aten::join", k_join, { "" } },
    { "aten::partition", k_partition, { "" } },
    { "aten::rpartition", k_rpartition, { "" } },
    { "aten::splitlines", k_splitlines, { "" } },
    { "aten::replace", k_replace, { "" } },
    { "aten::ljust", k_ljust, { "" } },
    { "aten::rjust", k_rjust, { "" } },
    { "aten::center", k_center, { "" } },
    { "aten::zfill", k_zfill, { "" } },
    { "aten::expandtabs", k_expandtabs, { "" } },
    { "aten::ord", k_ord, { "" } },
    { "aten::chr", k_chr, { "" } },
    { "aten::hex", k_hex, { "" } },
    { "aten::oct", k_oct, { "" } },
    { "aten::bin", k_bin, { "" } },
    { "aten::Int", k_int, { "str" } },
    { "aten::Float", k_float, { "str" } },
    { "tscript::format_tensor", k_format_tensor, { "" } },
};

const TsPrimTable ts_prim_str_table = { ops, sizeof ops / sizeof ops[0] };

int ts_prim_str_register_factories(TsRegistry *r, TsError *err)
{
    int rc = ts_register_factory(r, "aten::format", "", TS_BACKEND_ANY, f_format, err);
    return rc ? rc
              : ts_register_factory(r, "aten::percentFormat", "", TS_BACKEND_ANY,
                                    f_percent_format, err);
}
