/* zip_read.c — reading PyTorch's zip archives without copying: the central directory,
 * checked against the file, and entries as pointers into the mapping.
 *
 * An archive comes from anywhere, so nothing in it is believed before it is checked: the
 * end-of-central-directory record (and its zip64 form) must point at a central directory
 * that lies inside the file; every central record must fit in that directory, name a local
 * header that agrees with it (name, method, and sizes where the header carries them — a
 * local header's extra fields may differ, since PyTorch pads with one), and have its data
 * inside the file, before the central directory, overlapping no other entry. Counts and
 * sizes are checked against the bytes that could hold them before anything is allocated,
 * so a record that claims 4 GB in a 1 KB file fails at open. Only stored and deflated
 * entries are accepted; encryption and other methods are refused naming the entry.
 *
 * A file is mapped PROT_READ|PROT_WRITE, MAP_PRIVATE: a kernel that writes into a tensor
 * in place gets private copies of the pages and never touches the file. The TsZip is
 * reference counted; ts_zip_storage's storages hold a reference, so the mapping lives as
 * long as the last tensor over it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "serialize/zip.h"
#include "serialize/zip_format.h"

struct TsZip {
    atomic_uint refcount;
    char *filename;            /* for messages */
    const uint8_t *base;       /* the archive's bytes */
    uint64_t size;
    void *map;                 /* the mapping to unmap, or NULL for memory */
    void (*release)(void *ctx);
    void *ctx;
    TsZipEntry *entries;
    size_t n;
    size_t *by_name;           /* entry indices sorted by name, for ts_zip_find */
    char *names;               /* one block holding every entry's name */
    char *prefix;
};

/* ---- messages ------------------------------------------------------------------- */
const char *ts_zip_quote_name(const char *name, size_t len, char *buf, size_t size)
{
    static const char hex[] = "0123456789abcdef";
    size_t o = 0;
    for (size_t i = 0; i < len && o + 8 < size; i++) {
        unsigned char c = (unsigned char)name[i];
        if (i == 120) {
            memcpy(buf + o, "...", 3);
            o += 3;
            break;
        }
        if (c >= 0x20 && c < 0x7f && c != '\\') {
            buf[o++] = (char)c;
        } else {
            buf[o++] = '\\';
            buf[o++] = 'x';
            buf[o++] = hex[c >> 4];
            buf[o++] = hex[c & 15];
        }
    }
    buf[o] = '\0';
    return buf;
}

static int bad(TsZip *z, TsError *err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* "FILE: " + the message, as a RuntimeError (a malformed archive). */
static int bad(TsZip *z, TsError *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ts_error_setv(err, TS_ERR_RUNTIME, fmt, ap);
    va_end(ap);
    ts_error_prefix(err, "%s: ", z->filename);
    return TS_ERR_RUNTIME;
}

static int nomem(TsZip *z, TsError *err)
{
    return ts_error_set(err, TS_ERR_NOMEM, "%s: out of memory reading the zip directory",
                        z->filename);
}

/* The quoted name of entry e, in buf. */
static const char *qname(const TsZipEntry *e, char *buf)
{
    return ts_zip_quote_name(e->name, strlen(e->name), buf, ZIP_QUOTE_BUF);
}

/* ---- the end of the central directory ------------------------------------------- */
typedef struct Directory {
    uint64_t offset, size;     /* of the central directory */
    uint64_t count;            /* its records */
    uint64_t limit;            /* where the records after it begin: it must end before */
} Directory;

/* The EOCD record: the last "PK\5\6" whose comment runs exactly to the end of the file. */
static int find_eocd(TsZip *z, uint64_t *at, TsError *err)
{
    if (z->size >= ZIP_EOCD_SIZE) {
        uint64_t lowest = z->size - ZIP_EOCD_SIZE > 0xffff ? z->size - ZIP_EOCD_SIZE - 0xffff : 0;
        for (uint64_t i = z->size - ZIP_EOCD_SIZE + 1; i-- > lowest;) {
            const uint8_t *p = z->base + i;
            if (zip_rd32(p) == ZIP_EOCD_SIG && i + ZIP_EOCD_SIZE + zip_rd16(p + 20) == z->size) {
                *at = i;
                return 0;
            }
        }
    }
    return bad(z, err, "not a zip archive (no end of central directory record)");
}

/* Reads the zip64 record that the locator just before the EOCD points to. */
static int read_zip64_eocd(TsZip *z, uint64_t locator, Directory *d, TsError *err)
{
    const uint8_t *l = z->base + locator;
    uint64_t at = zip_rd64(l + 8);
    if (zip_rd32(l + 4) != 0 || zip_rd32(l + 16) > 1)
        return bad(z, err, "multi-disk zip archives are not supported");
    if (at > locator || locator - at < ZIP64_EOCD_SIZE || zip_rd32(z->base + at) != ZIP64_EOCD_SIG)
        return bad(z, err, "the zip64 end of central directory record is missing or misplaced");
    const uint8_t *r = z->base + at;
    uint64_t record = zip_rd64(r + 4);         /* its size after this field */
    if (record < ZIP64_EOCD_SIZE - 12 || record > locator - at - 12)
        return bad(z, err, "the zip64 end of central directory record has a bad size");
    if (zip_rd32(r + 16) != 0 || zip_rd32(r + 20) != 0 || zip_rd64(r + 24) != zip_rd64(r + 32))
        return bad(z, err, "multi-disk zip archives are not supported");
    d->count = zip_rd64(r + 32);
    d->size = zip_rd64(r + 40);
    d->offset = zip_rd64(r + 48);
    d->limit = at;
    return 0;
}

static int read_directory_end(TsZip *z, Directory *d, TsError *err)
{
    uint64_t at = 0;
    int rc = find_eocd(z, &at, err);
    if (rc)
        return rc;
    const uint8_t *e = z->base + at;
    if (zip_rd16(e + 4) != 0 || zip_rd16(e + 6) != 0 || zip_rd16(e + 8) != zip_rd16(e + 10))
        return bad(z, err, "multi-disk zip archives are not supported");
    d->count = zip_rd16(e + 10);
    d->size = zip_rd32(e + 12);
    d->offset = zip_rd32(e + 16);
    d->limit = at;
    if (at >= ZIP64_LOCATOR_SIZE && zip_rd32(e - ZIP64_LOCATOR_SIZE) == ZIP64_LOCATOR_SIG)
        return read_zip64_eocd(z, at - ZIP64_LOCATOR_SIZE, d, err);
    if (d->count == ZIP_MAX16 || d->size == ZIP_MAX32 || d->offset == ZIP_MAX32)
        return bad(z, err, "the end of central directory record needs a zip64 record, "
                   "and there is none");
    return 0;
}

/* ---- central records ------------------------------------------------------------ */
/* The 64-bit values of a zip64 extra field: each is present only where its 32-bit field
 * says 0xffffffff, in this order. */
typedef struct Sizes {
    uint64_t size, csize, offset;
} Sizes;

static int read_zip64_extra(TsZip *z, const uint8_t *extra, size_t len, Sizes *s,
                            bool has_offset, const char *name, TsError *err)
{
    char q[ZIP_QUOTE_BUF];
    size_t at = 0;
    while (at + 4 <= len) {
        uint16_t id = zip_rd16(extra + at), n = zip_rd16(extra + at + 2);
        if (n > len - at - 4)
            return bad(z, err, "entry '%s' has a malformed extra field",
                       ts_zip_quote_name(name, strlen(name), q, sizeof q));
        if (id == ZIP_EXTRA_ZIP64) {
            const uint8_t *p = extra + at + 4, *end = p + n;
            uint64_t *fields[3] = {&s->size, &s->csize, has_offset ? &s->offset : NULL};
            for (int i = 0; i < 3; i++) {
                if (!fields[i] || *fields[i] != ZIP_MAX32)
                    continue;
                if (end - p < 8)
                    return bad(z, err, "entry '%s' has a zip64 extra field that is too short",
                               ts_zip_quote_name(name, strlen(name), q, sizeof q));
                *fields[i] = zip_rd64(p);
                p += 8;
            }
            return 0;
        }
        at += 4 + (size_t)n;
    }
    return 0;
}

/* Checks the local header of e (at offset) against its central record and sets
 * e->data_offset; returns the end of its data in *end. */
static int check_local(TsZip *z, TsZipEntry *e, uint64_t offset, uint16_t flags,
                       uint64_t cd_offset, uint64_t *end, TsError *err)
{
    char q[ZIP_QUOTE_BUF];
    size_t nl = strlen(e->name);
    if (offset > cd_offset || cd_offset - offset < ZIP_LOCAL_SIZE)
        return bad(z, err, "entry '%s' has its local header outside the data area",
                   qname(e, q));
    const uint8_t *h = z->base + offset;
    if (zip_rd32(h) != ZIP_LOCAL_SIG)
        return bad(z, err, "entry '%s' has no local header at offset %llu", qname(e, q),
                   (unsigned long long)offset);
    uint16_t lflags = zip_rd16(h + 6), lmethod = zip_rd16(h + 8);
    uint16_t lnl = zip_rd16(h + 26), lel = zip_rd16(h + 28);
    uint64_t data = offset + ZIP_LOCAL_SIZE + lnl + lel;   /* cannot overflow: < 2^64 */
    if (data > z->size)
        return bad(z, err, "entry '%s' lies past the end of the file", qname(e, q));
    if (lnl != nl || memcmp(h + ZIP_LOCAL_SIZE, e->name, nl) != 0)
        return bad(z, err, "entry '%s': its local header names another entry", qname(e, q));
    if (lmethod != e->method || (lflags & ZIP_FLAG_ENCRYPTED) != (flags & ZIP_FLAG_ENCRYPTED))
        return bad(z, err, "entry '%s': its local header disagrees with the central "
                   "directory (method or flags)", qname(e, q));
    if (!(lflags & ZIP_FLAG_DESCRIPTOR)) {
        Sizes s = {zip_rd32(h + 22), zip_rd32(h + 18), 0};
        int rc = read_zip64_extra(z, h + ZIP_LOCAL_SIZE + lnl, lel, &s, false, e->name, err);
        if (rc)
            return rc;
        if (zip_rd32(h + 14) != e->crc32 || s.size != e->size || s.csize != e->csize)
            return bad(z, err, "entry '%s': its local header disagrees with the central "
                       "directory (sizes or CRC)", qname(e, q));
    }
    if (e->csize > z->size - data)
        return bad(z, err, "entry '%s' lies past the end of the file", qname(e, q));
    if (data + e->csize > cd_offset)
        return bad(z, err, "entry '%s' overlaps the central directory", qname(e, q));
    e->data_offset = data;
    *end = data + e->csize;
    return 0;
}

typedef struct Range {
    uint64_t start, end;
    size_t entry;
} Range;

static int range_cmp(const void *a, const void *b)
{
    const Range *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

/* Reads central record i at *at (advancing it), its local header, and fills z->entries[i]. */
static int read_record(TsZip *z, const Directory *d, size_t i, uint64_t *at, char **names,
                       Range *range, TsError *err)
{
    char q[ZIP_QUOTE_BUF];
    uint64_t cd_end = d->offset + d->size;
    if (cd_end - *at < ZIP_CENTRAL_SIZE || zip_rd32(z->base + *at) != ZIP_CENTRAL_SIG)
        return bad(z, err, "central directory record %zu is missing or damaged", i);
    const uint8_t *r = z->base + *at;
    uint16_t flags = zip_rd16(r + 8), method = zip_rd16(r + 10);
    uint16_t nl = zip_rd16(r + 28), el = zip_rd16(r + 30), cl = zip_rd16(r + 32);
    uint64_t len = (uint64_t)ZIP_CENTRAL_SIZE + nl + el + cl;
    if (cd_end - *at < len)
        return bad(z, err, "central directory record %zu runs past the directory", i);
    const char *name = (const char *)r + ZIP_CENTRAL_SIZE;
    if (nl == 0)
        return bad(z, err, "central directory record %zu has an empty name", i);
    if (memchr(name, '\0', nl))
        return bad(z, err, "entry '%s' has a NUL byte in its name",
                   ts_zip_quote_name(name, nl, q, sizeof q));
    TsZipEntry *e = &z->entries[i];
    memcpy(*names, name, nl);
    (*names)[nl] = '\0';
    e->name = *names;
    *names += nl + 1;
    e->method = method;
    e->crc32 = zip_rd32(r + 16);
    Sizes s = {zip_rd32(r + 24), zip_rd32(r + 20), zip_rd32(r + 42)};
    int rc = read_zip64_extra(z, r + ZIP_CENTRAL_SIZE + nl, el, &s, true, e->name, err);
    if (rc)
        return rc;
    e->size = s.size;
    e->csize = s.csize;
    if (flags & (ZIP_FLAG_ENCRYPTED | ZIP_FLAG_STRONG_ENCRYPTION))
        return bad(z, err, "entry '%s' is encrypted (not supported)", qname(e, q));
    if (method != TS_ZIP_STORED && method != TS_ZIP_DEFLATED)
        return bad(z, err, "entry '%s' uses compression method %u (only stored and deflate "
                   "are supported)", qname(e, q), method);
    if (zip_rd16(r + 34) != 0 && zip_rd16(r + 34) != ZIP_MAX16)
        return bad(z, err, "multi-disk zip archives are not supported");
    if (method == TS_ZIP_STORED && e->size != e->csize)
        return bad(z, err, "entry '%s' is stored but claims %llu bytes in %llu", qname(e, q),
                   (unsigned long long)e->size, (unsigned long long)e->csize);
    /* deflate expands at most 1032 to 1: a bigger claim is a lie, found before allocating */
    if (method == TS_ZIP_DEFLATED && e->size / 1032 > e->csize + 1)
        return bad(z, err, "entry '%s' claims %llu bytes from %llu compressed bytes",
                   qname(e, q), (unsigned long long)e->size, (unsigned long long)e->csize);
    range->start = s.offset;
    range->entry = i;
    if ((rc = check_local(z, e, s.offset, flags, d->offset, &range->end, err)))
        return rc;
    *at += len;
    return 0;
}

static int name_cmp_ctx(const void *a, const void *b, void *ctx)
{
    const TsZipEntry *entries = ctx;
    return strcmp(entries[*(const size_t *)a].name, entries[*(const size_t *)b].name);
}

/* The shared top folder with its slash, or "". */
static int find_prefix(TsZip *z, TsError *err)
{
    size_t len = 0;
    if (z->n > 0) {
        const char *slash = strchr(z->entries[0].name, '/');
        len = slash ? (size_t)(slash - z->entries[0].name) + 1 : 0;
        for (size_t i = 1; i < z->n && len; i++)
            if (strncmp(z->entries[i].name, z->entries[0].name, len) != 0)
                len = 0;
    }
    z->prefix = malloc(len + 1);
    if (!z->prefix)
        return nomem(z, err);
    memcpy(z->prefix, z->n ? z->entries[0].name : "", len);
    z->prefix[len] = '\0';
    return 0;
}

/* Checks that no two entries overlap (ranges sorted by start) and builds the name index. */
static int index_entries(TsZip *z, Range *ranges, TsError *err)
{
    char q1[ZIP_QUOTE_BUF], q2[ZIP_QUOTE_BUF];
    qsort(ranges, z->n, sizeof *ranges, range_cmp);
    for (size_t i = 1; i < z->n; i++)
        if (ranges[i].start < ranges[i - 1].end)
            return bad(z, err, "entries '%s' and '%s' overlap",
                       qname(&z->entries[ranges[i - 1].entry], q1),
                       qname(&z->entries[ranges[i].entry], q2));
    z->by_name = malloc((z->n ? z->n : 1) * sizeof *z->by_name);
    if (!z->by_name)
        return nomem(z, err);
    for (size_t i = 0; i < z->n; i++)
        z->by_name[i] = i;
    qsort_r(z->by_name, z->n, sizeof *z->by_name, name_cmp_ctx, z->entries);
    for (size_t i = 1; i < z->n; i++)
        if (strcmp(z->entries[z->by_name[i]].name, z->entries[z->by_name[i - 1]].name) == 0)
            return bad(z, err, "entry '%s' appears twice", qname(&z->entries[z->by_name[i]], q1));
    return find_prefix(z, err);
}

static int read_directory(TsZip *z, TsError *err)
{
    Directory d;
    int rc = read_directory_end(z, &d, err);
    if (rc)
        return rc;
    if (d.offset > d.limit || d.size > d.limit - d.offset)
        return bad(z, err, "the central directory lies outside the file");
    if (d.count > d.size / ZIP_CENTRAL_SIZE)
        return bad(z, err, "the directory claims %llu entries, more than its %llu bytes hold",
                   (unsigned long long)d.count, (unsigned long long)d.size);
    z->n = (size_t)d.count;
    /* names total less than the directory's size: one block holds them with their NULs */
    z->entries = calloc(z->n ? z->n : 1, sizeof *z->entries);
    z->names = malloc((size_t)d.size + z->n + 1);
    Range *ranges = malloc((z->n ? z->n : 1) * sizeof *ranges);
    if (!z->entries || !z->names || !ranges) {
        free(ranges);
        return nomem(z, err);
    }
    char *names = z->names;
    uint64_t at = d.offset;
    for (size_t i = 0; i < z->n && !rc; i++)
        rc = read_record(z, &d, i, &at, &names, &ranges[i], err);
    if (!rc)
        rc = index_entries(z, ranges, err);
    free(ranges);
    return rc;
}

/* ---- opening and lifetime ------------------------------------------------------- */
static void zip_free(TsZip *z)
{
    if (z->map)
        munmap(z->map, (size_t)z->size);
    else if (z->release)
        z->release(z->ctx);
    free(z->entries);
    free(z->by_name);
    free(z->names);
    free(z->prefix);
    free(z->filename);
    free(z);
}

static TsZip *zip_alloc(const char *name, TsError *err)
{
    TsZip *z = calloc(1, sizeof *z);
    char *copy = strdup(name ? name : "<memory>");
    if (!z || !copy) {
        free(z);
        free(copy);
        ts_error_set(err, TS_ERR_NOMEM, "out of memory opening a zip archive");
        return NULL;
    }
    atomic_init(&z->refcount, 1u);
    z->filename = copy;
    return z;
}

static TsZip *zip_finish(TsZip *z, TsError *err)
{
    if (read_directory(z, err)) {
        zip_free(z);
        return NULL;
    }
    return z;
}

TsZip *ts_zip_open_memory(const char *name, const void *data, size_t size,
                          void (*release)(void *ctx), void *ctx, TsError *err)
{
    TsZip *z = zip_alloc(name, err);
    if (!z)
        return NULL;
    z->base = data;
    z->size = size;
    z->release = release;
    z->ctx = ctx;
    return zip_finish(z, err);
}

TsZip *ts_zip_open_file(const char *path, TsError *err)
{
    TsZip *z = zip_alloc(path, err);
    if (!z)
        return NULL;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        ts_error_set(err, TS_ERR_IO, "%s: %s", path, strerror(errno));
        goto fail;
    }
    if (!S_ISREG(st.st_mode)) {
        ts_error_set(err, TS_ERR_IO, "%s: not a regular file", path);
        goto fail;
    }
    if ((uint64_t)st.st_size > SIZE_MAX) {
        ts_error_set(err, TS_ERR_IO, "%s: too large to map", path);
        goto fail;
    }
    z->size = (uint64_t)st.st_size;
    if (z->size > 0) {
        void *m = mmap(NULL, (size_t)z->size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
        if (m == MAP_FAILED) {
            ts_error_set(err, TS_ERR_IO, "%s: cannot map the file: %s", path, strerror(errno));
            goto fail;
        }
        z->map = m;
        z->base = m;
    }
    close(fd);
    return zip_finish(z, err);
fail:
    if (fd >= 0)
        close(fd);
    zip_free(z);
    return NULL;
}

void ts_zip_retain(TsZip *z)
{
    atomic_fetch_add_explicit(&z->refcount, 1u, memory_order_relaxed);
}

void ts_zip_release(TsZip *z)
{
    if (z && atomic_fetch_sub_explicit(&z->refcount, 1u, memory_order_acq_rel) == 1)
        zip_free(z);
}

const char *ts_zip_filename(const TsZip *z) { return z->filename; }
size_t ts_zip_count(const TsZip *z) { return z->n; }
const char *ts_zip_prefix(const TsZip *z) { return z->prefix; }

const TsZipEntry *ts_zip_entry(const TsZip *z, size_t i)
{
    return i < z->n ? &z->entries[i] : NULL;
}

long ts_zip_find(const TsZip *z, const char *name)
{
    size_t lo = 0, hi = z->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(z->entries[z->by_name[mid]].name, name);
        if (c == 0)
            return (long)z->by_name[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

/* ---- entry data ------------------------------------------------------------------ */
/* Memory for n bytes on a 64-byte boundary (as the CPU allocator gives), freed by free(). */
static void *alloc_aligned(uint64_t n)
{
    uint64_t rounded = (n + ZIP_ALIGN - 1) / ZIP_ALIGN * ZIP_ALIGN;
    if (n > SIZE_MAX - ZIP_ALIGN)
        return NULL;
    return aligned_alloc(ZIP_ALIGN, rounded ? (size_t)rounded : ZIP_ALIGN);
}

/* Inflates entry e (raw deflate) into out, which holds exactly e->size bytes. */
static int inflate_entry(TsZip *z, const TsZipEntry *e, uint8_t *out, TsError *err)
{
    char q[ZIP_QUOTE_BUF];
    z_stream s;
    memset(&s, 0, sizeof s);
    if (inflateInit2(&s, -MAX_WBITS) != Z_OK)
        return ts_error_set(err, TS_ERR_NOMEM, "%s: entry '%s': cannot start zlib",
                            z->filename, qname(e, q));
    const uint64_t chunk = 1u << 30;
    uint64_t in_left = e->csize, out_left = e->size;
    const uint8_t *in = z->base + e->data_offset;
    s.next_out = out;              /* zlib refuses a NULL output even when none is due */
    int zr = Z_OK;
    while (zr == Z_OK) {
        if (s.avail_in == 0 && in_left) {
            s.next_in = (Bytef *)in;
            s.avail_in = (uInt)(in_left < chunk ? in_left : chunk);
            in += s.avail_in;
            in_left -= s.avail_in;
        }
        if (s.avail_out == 0 && out_left) {
            s.next_out = out;
            s.avail_out = (uInt)(out_left < chunk ? out_left : chunk);
            out += s.avail_out;
            out_left -= s.avail_out;
        }
        zr = inflate(&s, Z_NO_FLUSH);  /* Z_BUF_ERROR: no progress possible */
    }
    uint64_t total = s.total_out;
    bool full = s.avail_out == 0 && out_left == 0;
    const char *msg = s.msg;
    inflateEnd(&s);
    if (zr == Z_STREAM_END && total == e->size)
        return 0;
    if (zr == Z_STREAM_END)
        return bad(z, err, "entry '%s' inflates to %llu bytes, but its size is %llu",
                   qname(e, q), (unsigned long long)total, (unsigned long long)e->size);
    if (zr == Z_BUF_ERROR && full)
        return bad(z, err, "entry '%s' inflates to more than its size of %llu bytes",
                   qname(e, q), (unsigned long long)e->size);
    if (zr == Z_MEM_ERROR)
        return ts_error_set(err, TS_ERR_NOMEM, "%s: entry '%s': out of memory inflating",
                            z->filename, qname(e, q));
    return bad(z, err, "entry '%s' has bad deflate data (%s)", qname(e, q),
               zr == Z_BUF_ERROR ? "truncated" : msg ? msg : "corrupt");
}

static int check_crc32(TsZip *z, const TsZipEntry *e, const void *data, TsError *err)
{
    char q[ZIP_QUOTE_BUF];
    if (crc32_z(0, data, (z_size_t)e->size) != e->crc32)
        return bad(z, err, "entry '%s' fails its CRC-32 check (the archive is damaged)",
                   qname(e, q));
    return 0;
}

int ts_zip_read(TsZip *z, size_t i, bool check_crc, const void **data, size_t *size,
                void **owned, TsError *err)
{
    *data = NULL;
    *size = 0;
    *owned = NULL;
    if (i >= z->n)
        return ts_error_set(err, TS_ERR_INDEX, "%s: no entry %zu", z->filename, i);
    const TsZipEntry *e = &z->entries[i];
    if (e->size > SIZE_MAX)
        return bad(z, err, "entry %zu is too large for this machine", i);
    if (e->method == TS_ZIP_STORED) {
        int rc = check_crc ? check_crc32(z, e, z->base + e->data_offset, err) : 0;
        if (rc)
            return rc;
        *data = z->base + e->data_offset;
        *size = (size_t)e->size;
        return 0;
    }
    uint8_t *buf = alloc_aligned(e->size);
    if (!buf) {
        char q[ZIP_QUOTE_BUF];
        return ts_error_set(err, TS_ERR_NOMEM, "%s: entry '%s': out of memory for %llu bytes",
                            z->filename, qname(e, q), (unsigned long long)e->size);
    }
    int rc = inflate_entry(z, e, buf, err);
    if (!rc && check_crc)
        rc = check_crc32(z, e, buf, err);
    if (rc) {
        free(buf);
        return rc;
    }
    *data = *owned = buf;
    *size = (size_t)e->size;
    return 0;
}

static void storage_drops_zip(void *ctx)
{
    ts_zip_release(ctx);
}

TsStorage *ts_zip_storage(TsZip *z, size_t i, TsError *err)
{
    TsDevice cpu = {TS_DEV_CPU, -1};
    const void *data;
    size_t size;
    void *owned;
    if (ts_zip_read(z, i, false, &data, &size, &owned, err))
        return NULL;
    if (!owned && (uintptr_t)data % ZIP_ALIGN == 0) {
        /* zero copy: the mapping is private and writable, so the cast is sound */
        ts_zip_retain(z);
        TsStorage *s = ts_storage_external((void *)data, size, cpu, storage_drops_zip, z, err);
        if (!s)
            ts_zip_release(z);
        return s;
    }
    if (!owned) {              /* stored but not aligned: kernels want aligned data */
        if (!(owned = alloc_aligned(size))) {
            ts_error_set(err, TS_ERR_NOMEM, "%s: out of memory for %zu bytes", z->filename, size);
            return NULL;
        }
        memcpy(owned, data, size);
    }
    TsStorage *s = ts_storage_external(owned, size, cpu, free, owned, err);
    if (!s)
        free(owned);
    return s;
}
