/* npy.c — NumPy's .npy files: read into a CPU tensor, write from one.
 *
 * A .npy file is "\x93NUMPY", a version (1.0: a 2-byte header length; 2.0 and 3.0: 4
 * bytes), a header that is a Python dict literal, padded with spaces and a newline so the
 * data starts on a 64-byte boundary, then the raw elements:
 *
 *     {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
 *
 * The reader parses exactly that literal (the three keys, in any order, quotes of either
 * kind) and nothing more, refuses every dtype without a tensor dtype (strings, objects —
 * which would need a pickle —, unsigned ints wider than 8 bits, structured arrays), checks
 * the element count and byte size with checked arithmetic against the data that is there,
 * and copies the data into fresh 64-byte aligned memory, swapping bytes when the file's
 * order is not the machine's. A Fortran-order array becomes a tensor with column-major
 * strides over the data as it is. The writer writes version 1.0 (a tensor's header always
 * fits it), in numpy's own spelling, so np.load reads it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serialize/npy.h"

static const char MAGIC[] = "\x93NUMPY";
enum { MAGIC_LEN = 6, ALIGN = 64 };

/* The dtypes with a .npy spelling: kind letter and size ('b' 1 is bool). */
static const struct {
    char kind;
    int size;
    int dtype;
} kinds[] = {
    {'b', 1, TS_BOOL}, {'u', 1, TS_UINT8}, {'i', 1, TS_INT8}, {'i', 2, TS_INT16},
    {'i', 4, TS_INT32}, {'i', 8, TS_INT64}, {'f', 2, TS_FLOAT16}, {'f', 4, TS_FLOAT32},
    {'f', 8, TS_FLOAT64}, {'c', 8, TS_COMPLEX64}, {'c', 16, TS_COMPLEX128},
};

static bool little_endian(void)
{
    const uint16_t one = 1;
    return *(const uint8_t *)&one == 1;
}

/* ---- reading the header ------------------------------------------------------------ */
typedef struct Header {
    const char *p, *end;       /* the header text being parsed */
    const char *name;          /* the file, for messages */
    TsError *err;
    char descr[32];
    int fortran;               /* -1 until seen */
    int dim;                   /* -1 until seen */
    int64_t shape[TS_TENSOR_MAX_DIMS];
} Header;

static int bad(Header *h, const char *what)
{
    return ts_error_set(h->err, TS_ERR_VALUE, "%s: not a .npy file NumPy writes (%s)", h->name,
                        what);
}

static void skip_ws(Header *h)
{
    while (h->p < h->end && (*h->p == ' ' || *h->p == '\t' || *h->p == '\n'))
        h->p++;
}

static bool accept(Header *h, const char *token)
{
    size_t n = strlen(token);
    skip_ws(h);
    if ((size_t)(h->end - h->p) < n || memcmp(h->p, token, n) != 0)
        return false;
    h->p += n;
    return true;
}

/* A quoted string ('x' or "x", no escapes) into buf. */
static int quoted(Header *h, char *buf, size_t size)
{
    skip_ws(h);
    if (h->p == h->end || (*h->p != '\'' && *h->p != '"'))
        return bad(h, "a string was expected");
    char q = *h->p++;
    const char *start = h->p;
    while (h->p < h->end && *h->p != q && *h->p != '\\')
        h->p++;
    size_t n = (size_t)(h->p - start);
    if (h->p == h->end || *h->p != q || n >= size)
        return bad(h, "a bad string");
    memcpy(buf, start, n);
    buf[n] = '\0';
    h->p++;
    return 0;
}

static int shape(Header *h)
{
    if (!accept(h, "("))
        return bad(h, "the shape is not a tuple");
    h->dim = 0;
    while (!accept(h, ")")) {
        skip_ws(h);
        int64_t v = 0;
        const char *start = h->p;
        while (h->p < h->end && *h->p >= '0' && *h->p <= '9') {
            if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, *h->p - '0', &v))
                return bad(h, "a dimension does not fit in 64 bits");
            h->p++;
        }
        if (h->p == start)
            return bad(h, "the shape holds something other than sizes");
        if (h->dim == TS_TENSOR_MAX_DIMS)
            return bad(h, "more dimensions than a tensor has");
        h->shape[h->dim++] = v;
        if (!accept(h, ",") && !(skip_ws(h), h->p < h->end && *h->p == ')'))
            return bad(h, "the shape is not a tuple");
    }
    return 0;
}

static int parse_header(Header *h)
{
    char key[32];
    int rc;
    h->fortran = h->dim = -1;
    h->descr[0] = '\0';
    if (!accept(h, "{"))
        return bad(h, "the header is not a dict");
    while (!accept(h, "}")) {
        if ((rc = quoted(h, key, sizeof key)))
            return rc;
        if (!accept(h, ":"))
            return bad(h, "a key without a value");
        if (strcmp(key, "descr") == 0 && !h->descr[0])
            rc = quoted(h, h->descr, sizeof h->descr);
        else if (strcmp(key, "fortran_order") == 0 && h->fortran < 0)
            rc = accept(h, "True") ? (h->fortran = 1, 0)
               : accept(h, "False") ? (h->fortran = 0, 0) : bad(h, "fortran_order is not a bool");
        else if (strcmp(key, "shape") == 0 && h->dim < 0)
            rc = shape(h);
        else
            rc = bad(h, "an unknown or repeated key");
        if (rc)
            return rc;
        if (!accept(h, ",")) {
            if (!accept(h, "}"))
                return bad(h, "the header dict is not closed");
            break;
        }
    }
    skip_ws(h);
    if (h->p != h->end)
        return bad(h, "text after the header dict");
    if (!h->descr[0] || h->fortran < 0 || h->dim < 0)
        return bad(h, "the header lacks descr, fortran_order or shape");
    return 0;
}

/* The tensor dtype of a descr ('<f4'), and whether its bytes need swapping. */
static int descr_dtype(Header *h, int *dtype, bool *swap)
{
    const char *d = h->descr;
    char order = d[0];
    int size = 0;
    for (const char *p = d + 2; *p && size < 100; p++)
        size = *p >= '0' && *p <= '9' ? size * 10 + (*p - '0') : 1000;
    for (size_t i = 0; order && d[1] && i < sizeof kinds / sizeof *kinds; i++) {
        if (kinds[i].kind != d[1] || kinds[i].size != size)
            continue;
        bool ok = order == '|' ? size == 1 : order == '<' || order == '>' || order == '=';
        if (!ok)
            break;
        *dtype = kinds[i].dtype;
        *swap = size > 1 && (order == '<' || order == '>') && (order == '<') != little_endian();
        return 0;
    }
    return ts_error_set(h->err, TS_ERR_VALUE, "%s: dtype '%s' has no tensor dtype", h->name, d);
}

/* ---- reading ------------------------------------------------------------------------- */
static void swap_bytes(uint8_t *p, size_t count, size_t width)
{
    for (size_t i = 0; i < count; i++, p += width)
        for (size_t a = 0, b = width - 1; a < b; a++, b--) {
            uint8_t t = p[a];
            p[a] = p[b];
            p[b] = t;
        }
}

static TsTensor *make_tensor(Header *h, int dtype, bool swap, const uint8_t *data, size_t nbytes)
{
    int64_t strides[TS_TENSOR_MAX_DIMS];
    size_t rounded = (nbytes + ALIGN - 1) / ALIGN * ALIGN;
    uint8_t *mem = aligned_alloc(ALIGN, rounded ? rounded : ALIGN);
    TsStorage *s = mem ? ts_storage_external(mem, nbytes, (TsDevice){TS_DEV_CPU, -1}, free, mem,
                                             h->err)
                       : NULL;
    if (!s) {
        free(mem);
        ts_error_set(h->err, TS_ERR_NOMEM, "%s: out of memory for %zu bytes", h->name, nbytes);
        return NULL;
    }
    memcpy(mem, data, nbytes);
    size_t item = ts_dtype_size(dtype);
    if (swap)                  /* a complex number swaps each of its two parts */
        swap_bytes(mem, nbytes / item * (ts_dtype_is_complex(dtype) ? 2 : 1),
                   ts_dtype_is_complex(dtype) ? item / 2 : item);
    int64_t n = 1;             /* column-major strides: the first dimension moves fastest */
    for (int i = 0; h->fortran && i < h->dim; i++) {
        strides[i] = n;
        if (__builtin_mul_overflow(n, h->shape[i] ? h->shape[i] : 1, &n)) {
            ts_storage_release(s);
            ts_error_set(h->err, TS_ERR_VALUE, "%s: the shape's strides overflow", h->name);
            return NULL;
        }
    }
    TsTensor *t = ts_tensor_new(s, dtype, h->dim, h->shape, h->fortran ? strides : NULL, 0,
                                h->err);
    ts_storage_release(s);
    if (!t)
        ts_error_prefix(h->err, "%s: ", h->name);
    return t;
}

TsTensor *ts_npy_read(const char *name, const void *data, size_t size, TsError *err)
{
    const uint8_t *b = data;
    Header h;
    memset(&h, 0, sizeof h);
    h.name = name;
    h.err = err;
    if (size < MAGIC_LEN + 4 || memcmp(b, MAGIC, MAGIC_LEN) != 0) {
        bad(&h, "no \\x93NUMPY magic");
        return NULL;
    }
    int major = b[6], minor = b[7];
    if ((major != 1 && major != 2 && major != 3) || minor != 0) {
        ts_error_set(err, TS_ERR_VALUE, "%s: .npy version %d.%d is not supported", name, major,
                     minor);
        return NULL;
    }
    size_t start = major == 1 ? 10 : 12;   /* 1.0: a 2-byte header length; 2.0, 3.0: 4 */
    uint64_t hlen = 0;
    for (size_t i = 8; i < start && i < size; i++)
        hlen |= (uint64_t)b[i] << 8 * (i - 8);
    if (size < start || hlen > size - start) {
        bad(&h, "the header runs past the end");
        return NULL;
    }
    for (size_t i = 0; i < hlen; i++)
        if (b[start + i] >= 0x80 || (b[start + i] < 0x20 && b[start + i] != '\n')) {
            bad(&h, "a header that is not ASCII text");
            return NULL;
        }
    h.p = (const char *)b + start;
    h.end = h.p + hlen;
    int dtype = 0;
    bool swap = false;
    if (parse_header(&h) || descr_dtype(&h, &dtype, &swap))
        return NULL;
    int64_t numel = 1, nbytes;
    for (int i = 0; i < h.dim; i++)
        if (__builtin_mul_overflow(numel, h.shape[i], &numel)) {
            ts_error_set(err, TS_ERR_VALUE, "%s: the shape's element count overflows", name);
            return NULL;
        }
    size_t data_at = start + (size_t)hlen;
    if (__builtin_mul_overflow(numel, (int64_t)ts_dtype_size(dtype), &nbytes)) {
        ts_error_set(err, TS_ERR_VALUE, "%s: the shape's byte size overflows", name);
        return NULL;
    }
    if ((uint64_t)nbytes != size - data_at) {
        ts_error_set(err, TS_ERR_VALUE, "%s: the shape needs %lld bytes of data, the file has "
                     "%zu", name, (long long)nbytes, size - data_at);
        return NULL;
    }
    return make_tensor(&h, dtype, swap, b + data_at, (size_t)nbytes);
}

/* ---- writing ------------------------------------------------------------------------- */
int ts_npy_write(const TsTensor *t, TsBuf *out, TsError *err)
{
    char order = little_endian() ? '<' : '>';
    const char *kind = NULL;
    size_t item = ts_dtype_size(t->dtype);
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        if (kinds[i].dtype == t->dtype)
            kind = &kinds[i].kind;
    if (!kind)
        return ts_error_set(err, TS_ERR_VALUE, "a tensor of dtype %s has no .npy dtype",
                            ts_dtype_name(t->dtype));
    if (t->device.type != TS_DEV_CPU || !ts_tensor_is_contiguous(t))
        return ts_error_set(err, TS_ERR_VALUE, ".npy output needs a contiguous CPU tensor");
    TsBuf h = TS_BUF_INIT;
    ts_buf_printf(&h, "{'descr': '%c%c%zu', 'fortran_order': False, 'shape': (",
                  item == 1 ? '|' : order, *kind, item);
    for (int i = 0; i < t->dim; i++)
        ts_buf_printf(&h, "%s%lld", i ? ", " : "", (long long)t->sizes[i]);
    ts_buf_puts(&h, t->dim == 1 ? ",), }" : "), }");
    /* spaces and a newline up to the next 64-byte boundary (numpy's alignment); the
     * header of 64 dimensions is far below 1.0's limit of 65535 bytes */
    while ((10 + h.len + 1) % ALIGN)
        ts_buf_putc(&h, ' ');
    ts_buf_putc(&h, '\n');
    int rc = ts_buf_check(&h, err);
    if (!rc) {
        uint8_t pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (uint8_t)h.len,
                           (uint8_t)(h.len >> 8)};
        ts_buf_add(out, (const char *)pre, sizeof pre);
        ts_buf_add(out, h.p, h.len);
        ts_buf_add(out, ts_tensor_data(t), (size_t)ts_tensor_numel(t) * item);
        rc = ts_buf_check(out, err);
    }
    ts_buf_free(&h);
    return rc;
}
